# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in pred[24] {false, true, true, false, true, false, false, false, true, true, false, false, false, true, true, true, true, true, false, true, true, true, true, true}
out pred[24] {true, false, false, true, false, true, true, true, false, false, true, true, true, false, false, false, false, false, true, false, false, false, false, false}
