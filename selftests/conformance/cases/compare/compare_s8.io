# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s8[24] {0, -100, 100, -78, -12, 58, 53, 44, 2, 61, 2, -75, -40, 38, -66, 46, 61, 50, 86, -24, -34, -42, 5, -10}
in s8[24] {67, 11, 54, 0, -100, 100, -42, 75, -78, -74, 77, 22, -33, -87, -19, 35, -61, 90, -1, 99, -46, 47, 45, 58}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, true, false, true, false, true, false, true, false, false, true, true, true, false, true, false, false, true, false, true, false, true, true, true}
out pred[24] {true, true, false, true, false, true, false, true, false, false, true, true, true, false, true, false, false, true, false, true, false, true, true, true}
out pred[24] {false, false, true, false, true, false, true, false, true, true, false, false, false, true, false, true, true, false, true, false, true, false, false, false}
out pred[24] {false, false, true, false, true, false, true, false, true, true, false, false, false, true, false, true, true, false, true, false, true, false, false, false}
