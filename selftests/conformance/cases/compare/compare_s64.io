# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s64[24] {0, -100, 100, 16, -32, -98, 65, -5, 43, 53, 62, 18, 18, 49, 53, -89, -75, 42, -33, -17, 35, -26, 2, 43}
in s64[24] {-70, -46, -50, 0, -100, 100, 8, -4, 0, -23, -23, -12, 19, -4, 53, 30, -15, -70, 19, 66, 23, 12, 6, 59}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, true, true, true, true, true, true, true, true, true}
out pred[24] {false, true, false, false, false, true, false, true, false, false, false, false, true, false, false, true, true, false, true, true, false, true, true, true}
out pred[24] {false, true, false, false, false, true, false, true, false, false, false, false, true, false, true, true, true, false, true, true, false, true, true, true}
out pred[24] {true, false, true, true, true, false, true, false, true, true, true, true, false, true, false, false, false, true, false, false, true, false, false, false}
out pred[24] {true, false, true, true, true, false, true, false, true, true, true, true, false, true, true, false, false, true, false, false, true, false, false, false}
