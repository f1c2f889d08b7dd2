# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f32[] -1.509985327720642
in f32[] -3.1965484619140625
out f32[] -4.706533908843994
