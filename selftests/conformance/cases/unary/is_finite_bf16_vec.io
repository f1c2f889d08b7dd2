# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in bf16[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 9.98402083170343e-31, -299008.0, 65536.0, 2.5, 6.8125, 2.8125, -2.515625, -0.64453125, 1.3125, 0.625, 1.3671875, 0.267578125, 2.3125, 1.15625, 0.015869140625, -1.0234375}
out pred[24] {true, true, false, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
