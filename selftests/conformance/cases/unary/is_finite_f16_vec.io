# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f16[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 0.0, -inf, 65504.0, 2.5, -0.892578125, 0.5458984375, -0.094970703125, 0.1934814453125, 0.328125, 2.861328125, 2.724609375, 0.287109375, 2.04296875, 1.828125, -0.87744140625, 0.043731689453125}
out pred[24] {true, true, false, false, false, true, true, true, true, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
