# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[2] {0, 42}
out u8[7] {162, 217, 249, 215, 21, 216, 153}
