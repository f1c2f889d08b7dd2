# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f16[] -0.216064453125
in f16[] 0.09820556640625
out f16[] 0.09820556640625
