# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in bf16[] 0.21875
in bf16[] 0.455078125
out bf16[] 0.099609375
