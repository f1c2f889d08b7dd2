# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f32[] -2.1542325019836426
in f32[] 2.1742589473724365
out f32[] 2.1742589473724365
