# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol ulp
in bf16[] 1.0625
out bf16[] 2.890625
