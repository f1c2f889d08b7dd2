# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol ulp
in f16[] -2.36328125
out f16[] 0.0941162109375
