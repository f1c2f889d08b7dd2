# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in u32[4] {5, 6, 7, 8}
out u64[3] {1545059744826037502, 293863062499346144, 9977603535034722044}
