# SPDX-License-Identifier: MIT
"""Whether an oracle's regenerated output moved beyond what a case allows.

XLA's and TensorFlow's CPU code differs between CPUs (approximations and
vector widths chosen for the machine): rsqrt moved by one ulp and the
model steps' gradients by up to 64 ulps of their largest magnitude
between an AMD EPYC and an Intel Xeon.  The checked-in outputs stay
valid while the oracle moves within the case's tolerance class, the one
the conformance comparison allows (compare.c): exact, ulp (4 ulps; 1 for
f16 and bf16), acc and formula (ulps of the array's largest magnitude).
"""
import re

import numpy as np

# significand bits of each float type, its parts' for complex
MANT = {'f64': 52, 'f32': 23, 'f16': 10, 'bf16': 7, 'c64': 23, 'c128': 52}
# (ulp, acc, formula) as compare.c's limits
LIMITS = {52: (4, 64, 16), 23: (4, 64, 16), 10: (1, 8, 2), 7: (1, 4, 2)}
NUMBER = re.compile(r'[-+]?(?:inf|nan|\d+\.?\d*(?:[eE][-+]?\d+)?)|true|false')


def numbers(line):
    """The type name and the values of an 'out TYPE[DIMS] VALUES' line."""
    parts = line.split(' ', 2) + ['', '']
    return parts[1].split('[')[0], NUMBER.findall(parts[2])


def moved(old, new, cls='ulp'):
    """None if output line @new is @old within class @cls, else why not."""
    if old == new:
        return None
    t, a = numbers(old)
    t2, b = numbers(new)
    if t != t2 or len(a) != len(b) or old.split(' ')[:2] != new.split(' ')[:2]:
        return 'its type or shape changed'
    if t not in MANT or cls == 'exact':
        return 'exact values changed'
    mant = MANT[t]
    x = np.array([float(v) for v in a], dtype=np.float64)
    y = np.array([float(v) for v in b], dtype=np.float64)
    ulp, acc, formula = LIMITS[mant]
    fin = np.isfinite(x)
    big = float(np.max(np.abs(x[fin]))) if fin.any() else 0.0
    scale = acc if cls == 'acc' else formula if cls == 'formula' else 0
    slack = scale * 2.0 ** (np.floor(np.log2(big)) - mant) if big else 0.0
    at = np.abs(np.where(fin, x, 0))
    step = 2.0 ** (np.floor(np.log2(np.where(at > 0, at, 1))) - mant)
    with np.errstate(invalid='ignore'):
        ok = (np.isnan(x) & np.isnan(y)) | (x == y) | \
            (fin & (np.abs(x - y) <= np.maximum(ulp * step, slack)))
    if ok.all():
        return None
    i = int(np.argmin(ok))
    return f'element {i}: {a[i]} became {b[i]}'
