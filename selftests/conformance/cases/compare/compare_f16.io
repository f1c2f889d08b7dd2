# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f16[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 0.0, -inf, 65504.0, 2.5, 0.35693359375, -0.6376953125, 0.72509765625, -1.0244140625, -2.638671875, -1.4775390625, 0.91162109375, -1.20703125, 0.013916015625, 3.576171875, 1.33984375, 0.177001953125}
in f16[24] {-0.444580078125, 3.986328125, 1.6591796875, 0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 0.0, -inf, 65504.0, 2.5, -2.291015625, -3.474609375, -4.453125, 2.69140625, 0.32861328125, -1.375, 1.2734375, 4.33984375, 0.1370849609375}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {false, true, false, true, false, true, false, false, true, true, false, false, false, true, true, false, false, false, true, true, false, false, true, false}
out pred[24] {false, true, false, true, false, true, false, false, true, true, false, false, false, true, true, false, false, false, true, true, false, false, true, false}
out pred[24] {true, false, true, false, false, false, true, false, false, false, true, true, true, false, false, true, true, true, false, false, true, true, false, true}
out pred[24] {true, false, true, false, false, false, true, false, false, false, true, true, true, false, false, true, true, true, false, false, true, true, false, true}
