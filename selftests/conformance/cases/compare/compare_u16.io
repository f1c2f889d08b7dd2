# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u16[24] {0, 0, 100, 14, 47, 74, 86, 38, 64, 47, 58, 63, 59, 35, 78, 91, 18, 3, 26, 38, 23, 59, 34, 1}
in u16[24] {82, 66, 67, 0, 0, 100, 79, 69, 96, 5, 51, 50, 92, 12, 79, 4, 7, 97, 63, 75, 64, 16, 65, 48}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, true, false, false, false, true, false, true, true, false, false, false, true, false, true, false, false, true, true, true, true, false, true, true}
out pred[24] {true, true, false, false, false, true, false, true, true, false, false, false, true, false, true, false, false, true, true, true, true, false, true, true}
out pred[24] {false, false, true, true, true, false, true, false, false, true, true, true, false, true, false, true, true, false, false, false, false, true, false, false}
out pred[24] {false, false, true, true, true, false, true, false, false, true, true, true, false, true, false, true, true, false, false, false, false, true, false, false}
