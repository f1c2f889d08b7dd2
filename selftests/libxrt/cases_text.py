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


def emit(text, script):
    """Prints @text, or checks it against the file after --check."""
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        with open(sys.argv[2]) as f:
            if f.read() != text:
                sys.exit('%s is not what %s writes: rerun it' % (sys.argv[2], script))
        return
    sys.stdout.write(text)
