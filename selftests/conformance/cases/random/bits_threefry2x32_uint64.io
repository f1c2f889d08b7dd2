# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[2] {0, 42}
out u64[3] {7871734211187709741, 276886910877598708, 10591095138341673235}
