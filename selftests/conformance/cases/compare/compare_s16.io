# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s16[24] {0, -100, 100, -90, 52, 61, -47, -23, -88, 64, -30, 48, 79, -7, 14, -92, -68, -18, 62, -17, 94, 43, 19, -13}
in s16[24] {6, -61, -3, 0, -100, 100, 34, -12, 97, -70, -14, -25, -11, 81, 68, 4, -12, -79, -49, 86, -45, 8, -87, -39}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, true, false, true, false, true, true, true, true, false, true, false, false, true, true, true, true, false, false, true, false, false, false, false}
out pred[24] {true, true, false, true, false, true, true, true, true, false, true, false, false, true, true, true, true, false, false, true, false, false, false, false}
out pred[24] {false, false, true, false, true, false, false, false, false, true, false, true, true, false, false, false, false, true, true, false, true, true, true, true}
out pred[24] {false, false, true, false, true, false, false, false, false, true, false, true, true, false, false, false, false, true, true, false, true, true, true, true}
