# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in pred[7,13] {{false, true, false, false, false, true, false, true, true, false, false, false, false}, {false, false, true, false, false, false, false, true, false, true, false, false, false}, {false, false, true, false, true, true, true, true, true, true, true, false, false}, {false, true, false, true, false, false, true, false, false, false, true, false, false}, {true, false, false, false, false, true, false, false, true, true, false, false, true}, {false, false, false, false, true, true, true, true, false, false, true, false, false}, {false, false, true, false, false, true, false, true, true, true, false, true, true}}
out pred[7] {false, false, false, false, false, false, false}
