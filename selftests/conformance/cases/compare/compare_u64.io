# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u64[24] {0, 0, 100, 98, 70, 42, 44, 46, 27, 68, 65, 33, 88, 45, 86, 3, 95, 12, 40, 85, 29, 10, 65, 37}
in u64[24] {19, 7, 43, 0, 0, 100, 23, 68, 100, 43, 4, 86, 88, 69, 52, 45, 66, 6, 62, 51, 71, 77, 37, 58}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, false, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, true, false, false, false, true, false, true, true, false, false, true, false, true, false, true, false, false, true, false, true, true, false, true}
out pred[24] {true, true, false, false, false, true, false, true, true, false, false, true, true, true, false, true, false, false, true, false, true, true, false, true}
out pred[24] {false, false, true, true, true, false, true, false, false, true, true, false, false, false, true, false, true, true, false, true, false, false, true, false}
out pred[24] {false, false, true, true, true, false, true, false, false, true, true, false, true, false, true, false, true, true, false, true, false, false, true, false}
