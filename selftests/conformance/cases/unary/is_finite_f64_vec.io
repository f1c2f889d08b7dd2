# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f64[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1e-30, -300000.0, 65504.0, 2.5, -0.44959697155346234, -3.4836961273802216, -2.479524192099342, -4.454204153899685, 1.608521604936143, 1.8076136287234197, 2.1267387232597024, 0.021967207738055126, 3.745068465478605, 2.384515638705416, -2.354573286750777, -2.4184861015576216}
out pred[24] {true, true, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
