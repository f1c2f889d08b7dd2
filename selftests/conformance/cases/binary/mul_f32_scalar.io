# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f32[] -0.6008133888244629
in f32[] -1.2277413606643677
out f32[] 0.7376434206962585
