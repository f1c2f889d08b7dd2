# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s32[] -73
in s32[] 71
out s32[] -5183
