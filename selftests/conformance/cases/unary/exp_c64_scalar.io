# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol ulp
in c64[] (-1.8043268918991089, -2.12229061126709)
out c64[] (-0.0862361490726471, -0.1401842087507248)
