# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f64[] 0.5240688164795262
in f64[] 0.01055982773591882
out f64[] 0.5240688164795262
