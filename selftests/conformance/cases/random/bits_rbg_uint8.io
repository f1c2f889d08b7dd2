# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[4] {1, 2, 3, 4}
out u8[7] {100, 215, 190, 1, 123, 150, 116}
