# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f16[] -0.3935546875
in f16[] 1.1064453125
out f16[] 0.712890625
