# SPDX-License-Identifier: MIT
"""The conformance cases, from tables: primitive x dtype x shape class.

Each case is a JAX function and its inputs (seeded from the case's name,
so regeneration gives the same bits).  Its tolerance class says how the
runner compares a float result with XLA's:
  exact  every bit (data movement, sorting, comparisons, and arithmetic
         IEEE rounds correctly: +, -, *, /, sqrt, min, max, ...)
  ulp    elementwise functions XLA approximates: within a few ulps
  acc    accumulations (dot, convolution, reductions, model steps):
         within a few ulps of the result's largest magnitude
  formula  special functions JAX writes as many ops (lgamma, igamma,
         ...): each op's last-bit differences carried through
Integer, pred and index results are always compared exactly.
"""
import tables_index
import tables_linalg
import tables_models
import tables_ops


def cases():
    out = []
    for maker in (tables_ops.GROUPS + tables_linalg.GROUPS + tables_index.GROUPS +
                  tables_models.GROUPS):
        out += maker()
    names = [c.name for c in out]
    assert len(names) == len(set(names)), 'duplicate case names'
    return out
