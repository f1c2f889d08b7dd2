# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in s8[] 18
in s8[] 6
out s8[] 18
