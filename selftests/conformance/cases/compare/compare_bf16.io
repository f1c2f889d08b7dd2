# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in bf16[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 9.98402083170343e-31, -299008.0, 65536.0, 2.5, 0.51171875, 1.9765625, -2.3125, 0.2158203125, 0.08740234375, 1.7578125, -4.46875, 2.5, 0.7265625, -0.296875, 1.1171875, 2.21875}
in bf16[24] {-1.671875, 0.232421875, 1.671875, 0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 9.98402083170343e-31, -299008.0, 65536.0, 2.5, 1.6015625, 2.96875, -2.109375, 0.322265625, -1.6640625, 3.546875, -1.265625, -0.7109375, -0.43359375}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {false, true, false, true, false, true, false, false, true, true, false, false, false, true, true, true, true, false, true, false, true, false, false, false}
out pred[24] {false, true, false, true, false, true, false, false, true, true, false, false, false, true, true, true, true, false, true, false, true, false, false, false}
out pred[24] {true, false, true, false, false, false, true, false, false, false, true, true, true, false, false, false, false, true, false, true, false, true, true, true}
out pred[24] {true, false, true, false, false, false, true, false, false, false, true, true, true, false, false, false, false, true, false, true, false, true, true, true}
