# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f64[] 1.170064743412352
in f64[] 2.5852586681702836
out f64[] 3.7553234115826353
