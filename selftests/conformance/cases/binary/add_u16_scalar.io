# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u16[] 57
in u16[] 66
out u16[] 123
