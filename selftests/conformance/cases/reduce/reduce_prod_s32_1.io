# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol acc
in s32[6,5] {{-1, 1, 3, 3, 0}, {0, -2, 3, -3, -3}, {1, -1, -1, -1, 1}, {3, -1, 3, -3, 1}, {-2, -3, -2, -2, -2}, {0, 0, 3, 1, 2}}
out s64[6] {0, 0, -1, 27, -48, 0}
