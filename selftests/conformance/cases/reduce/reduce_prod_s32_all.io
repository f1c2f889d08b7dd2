# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol acc
in s32[6,5] {{3, 1, 0, 3, -3}, {0, 3, 0, -3, -2}, {1, 3, -3, -2, -3}, {2, 3, 3, 0, -2}, {-2, -2, 3, 2, -2}, {-1, -2, 2, 3, -1}}
out s64[] 0
