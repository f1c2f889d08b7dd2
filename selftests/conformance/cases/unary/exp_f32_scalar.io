# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol ulp
in f32[] -2.6783597469329834
out f32[] 0.0686757043004036
