# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u8[24] {0, 0, 100, 37, 12, 12, 50, 53, 64, 79, 18, 32, 55, 91, 20, 70, 82, 22, 9, 51, 5, 85, 79, 46}
in u8[24] {38, 98, 94, 0, 0, 100, 11, 34, 85, 54, 12, 68, 65, 39, 32, 96, 15, 25, 58, 32, 14, 62, 13, 70}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, true, false, false, false, true, false, false, true, false, false, true, true, false, true, true, false, true, true, false, true, false, false, true}
out pred[24] {true, true, false, false, false, true, false, false, true, false, false, true, true, false, true, true, false, true, true, false, true, false, false, true}
out pred[24] {false, false, true, true, true, false, true, true, false, true, true, false, false, true, false, false, true, false, false, true, false, true, true, false}
out pred[24] {false, false, true, true, true, false, true, true, false, true, true, false, false, true, false, false, true, false, false, true, false, true, true, false}
