# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f16[] 5.3515625
in f16[] 1.9365234375
out f16[] 10.3671875
