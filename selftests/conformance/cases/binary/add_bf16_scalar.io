# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in bf16[] -2.546875
in bf16[] -5.5
out bf16[] -8.0625
