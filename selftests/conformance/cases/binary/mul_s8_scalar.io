# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s8[] -32
in s8[] -47
out s8[] -32
