# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s32[15] {0, -100, 100, -9, 6, 74, -76, -95, 10, 95, 76, 50, 40, 68, 86}
out s32[8] {-100, -100, -9, -95, -95, 50, 40, 68}
