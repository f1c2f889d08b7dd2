# SPDX-License-Identifier: MIT
"""Shared by the scripts that write checked-in expected values.

Literals in HLO's text form, and the one way every script ends: print
the file, or with --check FILE fail unless FILE is exactly that text.
"""
import math
import sys

import numpy as np

INT_TYPES = ('s8', 's16', 's32', 's64', 'u8', 'u16', 'u32', 'u64')
COMPLEX_PARTS = {'c64': 'f32', 'c128': 'f64'}


def fmt_elem(t, v):
    if t == 'pred':
        return 'true' if v else 'false'
    if t in INT_TYPES:
        return str(int(v))
    if t in COMPLEX_PARTS:
        part = COMPLEX_PARTS[t]
        return '(%s, %s)' % (fmt_elem(part, v.real), fmt_elem(part, v.imag))
    v = float(v)
    if math.isnan(v):
        return 'nan'
    if math.isinf(v):
        return 'inf' if v > 0 else '-inf'
    return repr(v)


def fmt_array(t, a):
    a = np.asarray(a, dtype=object)
    if a.ndim == 0:
        return fmt_elem(t, a[()])
    return '{' + ', '.join(fmt_array(t, x) for x in a) + '}'


def emit(text, script, moved=None):
    """Prints @text, or checks it against the file after --check: exactly,
    or, given @moved (old line, new line -> None or why), line by line."""
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        with open(sys.argv[2]) as f:
            old = f.read()
        if old == text:
            return
        a, b = old.splitlines(), text.splitlines()
        why = 'its lines' if moved is None or len(a) != len(b) else next(
            (f'line {i + 1}: {w}' for i, (x, y) in enumerate(zip(a, b))
             for w in [moved(x, y)] if w), None)
        if why:
            sys.exit('%s is not what %s writes (%s): rerun it' % (sys.argv[2], script, why))
        return
    sys.stdout.write(text)
