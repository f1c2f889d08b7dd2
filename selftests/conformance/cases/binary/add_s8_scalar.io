# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s8[] 88
in s8[] -71
out s8[] 17
