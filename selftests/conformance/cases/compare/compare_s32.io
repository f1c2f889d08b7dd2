# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s32[24] {0, -100, 100, 32, 6, 42, -77, 75, 75, -91, -71, 87, -44, -29, 5, -96, -4, 100, -79, -76, 10, 31, -14, -73}
in s32[24] {-88, 68, 60, 0, -100, 100, 31, 44, -80, -33, -64, 14, -64, 2, 79, 22, -45, -87, 24, -75, -66, -75, -55, -21}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {false, true, false, false, false, true, true, false, false, true, true, false, false, true, true, true, false, false, true, true, false, false, false, true}
out pred[24] {false, true, false, false, false, true, true, false, false, true, true, false, false, true, true, true, false, false, true, true, false, false, false, true}
out pred[24] {true, false, true, true, true, false, false, true, true, false, false, true, true, false, false, false, true, true, false, false, true, true, true, false}
out pred[24] {true, false, true, true, true, false, false, true, true, false, false, true, true, false, false, false, true, true, false, false, true, true, true, false}
