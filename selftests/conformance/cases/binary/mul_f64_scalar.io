# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f64[] -1.873152222583872
in f64[] 0.8395872125945352
out f64[] -1.5726746533244513
