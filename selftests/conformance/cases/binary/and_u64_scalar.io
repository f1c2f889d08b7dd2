# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u64[] 27
in u64[] 70
out u64[] 2
