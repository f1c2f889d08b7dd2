# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol acc
in s32[6,5] {{-2, -3, -1, 1, -3}, {3, 3, 2, 1, -2}, {-3, -1, 2, 1, 2}, {-2, 0, 1, 3, 1}, {-3, -3, 0, 3, -3}, {-3, 3, -3, -3, 2}}
out s64[5] {-324, 0, 0, -27, -72}
