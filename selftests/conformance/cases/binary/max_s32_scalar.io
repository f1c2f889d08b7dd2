# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s32[] -86
in s32[] 90
out s32[] 90
