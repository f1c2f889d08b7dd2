# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol ulp
in f64[] -2.449953210515493
out f64[] 0.08629762422625994
