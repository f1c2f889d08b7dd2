# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol exact
in f64[24] {0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1e-30, -300000.0, 65504.0, 2.5, 1.0741964008056522, 0.6562617986921713, 3.219541088582043, -1.5687717517095976, 1.1914759121066376, 1.130905503634321, -0.4446510500241836, 0.9046272852205198, 1.7268807178368037, -1.1429302132391979, -0.07463985199474481, -0.4134101970947055}
in f64[24] {-4.277356992631529, 0.11205886225444299, -0.3715686726306522, 0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, 1e-30, -300000.0, 65504.0, 2.5, 2.850755924112498, -0.6495125095833215, 5.153956244014856, 2.48301550932781, -3.1450309526992846, -0.7438827630343967, -2.5022890399035744, 2.7141572293910574, 3.754321650892968}
out pred[24] {false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false}
out pred[24] {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true}
out pred[24] {false, true, false, true, false, true, false, false, true, true, false, false, false, true, false, true, false, true, true, false, false, false, true, true}
out pred[24] {false, true, false, true, false, true, false, false, true, true, false, false, false, true, false, true, false, true, true, false, false, false, true, true}
out pred[24] {true, false, true, false, false, false, true, false, false, false, true, true, true, false, true, false, true, false, false, true, true, true, false, false}
out pred[24] {true, false, true, false, false, false, true, false, false, false, true, true, true, false, true, false, true, false, false, true, true, true, false, false}
