# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[4] {5, 6, 7, 8}
out u8[7] {254, 166, 224, 229, 252, 141, 83}
