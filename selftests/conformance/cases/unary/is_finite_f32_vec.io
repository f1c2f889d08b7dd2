# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f32[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1.0000000031710769e-30, -300000.0, 65504.0, 2.5, -0.7198423147201538, 0.1354946494102478, 0.8470205068588257, 2.4163942337036133, -0.5856181979179382, 0.7089589238166809, -1.6515403985977173, -1.1003930568695068, -2.2328412532806396, 0.4879800081253052, 5.216769695281982, 1.962490200996399}
out pred[24] {true, true, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
