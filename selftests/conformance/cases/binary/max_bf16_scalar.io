# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in bf16[] 0.453125
in bf16[] -1.8671875
out bf16[] 0.453125
