# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[24] {0, 0, 100, 35, 96, 52, 65, 21, 22, 61, 74, 6, 96, 96, 57, 3, 42, 75, 92, 92, 58, 52, 65, 2}
in u32[24] {47, 93, 7, 0, 0, 100, 61, 27, 15, 1, 7, 43, 30, 57, 81, 82, 93, 41, 38, 77, 22, 95, 58, 97}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {true, true, false, false, false, true, false, true, false, false, false, true, false, false, true, true, true, false, false, false, false, true, false, true}
out pred[24] {true, true, false, false, false, true, false, true, false, false, false, true, false, false, true, true, true, false, false, false, false, true, false, true}
out pred[24] {false, false, true, true, true, false, true, false, true, true, true, false, true, true, false, false, false, true, true, true, true, false, true, false}
out pred[24] {false, false, true, true, true, false, true, false, true, true, true, false, true, true, false, false, false, true, true, true, true, false, true, false}
