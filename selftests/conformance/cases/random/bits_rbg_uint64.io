# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[4] {1, 2, 3, 4}
out u64[3] {5574906407289874532, 3272025663544478142, 7043725020835825787}
