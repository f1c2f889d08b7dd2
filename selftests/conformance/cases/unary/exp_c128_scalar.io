# jax 0.10.2 jaxlib 0.10.2: XLA CPU outputs (selftests/conformance/gen.py)
tol ulp
in c128[] (-1.2149751220669984, 0.27757667485721926)
out c128[] (0.28535974100568945, 0.08130824837222572)
