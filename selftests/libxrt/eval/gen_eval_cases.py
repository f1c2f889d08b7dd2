#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Expected values for the reference evaluator's tests.

Writes eval_cases.txt: one HLO module per case, its inputs as constants,
and the expected result computed here with numpy and Python's exact
integers and fractions, independently of libxrt.  Run it with Debian's
/usr/bin/python3 (it has numpy); the output is checked in, and
`make check` verifies that it is what this script prints.

Each case reads
    === NAME exact            (or: === NAME RTOL ATOL)
    HloModule NAME
    ...
    ---
    SHAPE
    VALUE
"""
import math
import os
import struct
import sys
from fractions import Fraction

# numpy's AVX-512 loops of exp, log, sin and others differ in the last
# bit from its AVX2 ones: keep to the latter, so that the file comes out
# the same on every machine (set before numpy is imported)
os.environ['NPY_DISABLE_CPU_FEATURES'] = \
    'AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL'
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from cases_text import emit, fmt_array  # noqa: E402

# Floats: (significand bits, lowest normal exponent, highest exponent).
FLOATS = {'f16': (11, -14, 15), 'bf16': (8, -126, 127), 'f32': (24, -126, 127),
          'f64': (53, -1022, 1023)}
INTS = {'s8': (8, True), 's16': (16, True), 's32': (32, True), 's64': (64, True),
        'u8': (8, False), 'u16': (16, False), 'u32': (32, False), 'u64': (64, False)}
COMPLEX = {'c64': 'f32', 'c128': 'f64'}
EPS = {'f16': 2.0**-10, 'bf16': 2.0**-7, 'f32': 2.0**-23, 'f64': 2.0**-52}

cases = []


def round_float(x, t):
    """x rounded once, to nearest even, to float type t (subnormals, overflow)."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    if t == 'f64':
        return float(x)
    p, emin, emax = FLOATS[t]
    f = Fraction(x)
    if f == 0:
        return math.copysign(0.0, float(x)) if isinstance(x, float) else 0.0
    sign = -1 if f < 0 else 1
    f = abs(f)
    e = f.numerator.bit_length() - f.denominator.bit_length()
    if Fraction(2)**e > f:
        e -= 1
    e = max(e, emin)
    scale = Fraction(2)**(e - p + 1)
    n = round(f / scale)            # Fraction rounds half to even
    r = n * scale
    if r >= Fraction(2)**(emax + 1):
        return sign * math.inf
    return sign * float(r)


def wrap(v, t):
    w, signed = INTS[t]
    v &= (1 << w) - 1
    if signed and v >> (w - 1):
        v -= 1 << w
    return v


def shape(t, dims):
    return '%s[%s]' % (t, ','.join(str(d) for d in dims))


def const(name, t, a):
    a = np.asarray(a, dtype=object)
    return '  %s = %s constant(%s)' % (name, shape(t, a.shape), fmt_array(t, a))


def case(name, body, out_shape, out_value, tol=None, comps=''):
    head = '=== %s %s' % (name, 'exact' if tol is None else '%r %r' % tol)
    text = 'HloModule %s\n\n%sENTRY main {\n%s\n}' % (name, comps, '\n'.join(body))
    cases.append('%s\n%s\n---\n%s\n%s\n' % (head, text, out_shape, out_value))


def elementwise(name, op, t_in, inputs, t_out, expect, tol=None, attrs=''):
    """One op over equally shaped operands given as constants."""
    body = [const('x%d' % i, t_in, a) for i, a in enumerate(inputs)]
    dims = np.asarray(inputs[0], dtype=object).shape
    args = ', '.join('x%d' % i for i in range(len(inputs)))
    body.append('  ROOT r = %s %s(%s)%s' % (shape(t_out, dims), op, args, attrs))
    case(name, body, shape(t_out, dims), fmt_array(t_out, expect), tol)


# --- unary float ops ------------------------------------------------------

FLOAT_IN = [0.0, -0.0, 1.0, -1.5, 2.5, 0.5, -2.5, 3.75, 100.0, -100.0,
            math.inf, -math.inf, math.nan, 1e-3]


def logistic(x):
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def round_afz(x):
    if math.isnan(x) or math.isinf(x):
        return x
    r = math.floor(abs(x) + 0.5)
    return math.copysign(r, x)


def sign(x):
    return x if math.isnan(x) or x == 0 else math.copysign(1.0, x)


def guard(f):
    def g(x):
        try:
            return f(x)
        except (ValueError, OverflowError):
            return math.nan
    return g


UNARY_EXACT = {
    'abs': abs, 'negate': lambda x: -x, 'sign': sign, 'floor': math.floor,
    'ceil': math.ceil, 'round-nearest-afz': round_afz,
    'round-nearest-even': lambda x: x if math.isinf(x) or math.isnan(x) else
    math.copysign(float(round(x)), x),
    'sqrt': lambda x: np.sqrt(np.float64(x)),
}
UNARY_APPROX = {
    'exponential': np.exp, 'exponential-minus-one': np.expm1, 'log': np.log,
    'log-plus-one': np.log1p, 'logistic': logistic, 'rsqrt': lambda x: 1 / np.sqrt(x),
    'cbrt': np.cbrt, 'tanh': np.tanh, 'sine': np.sin, 'cosine': np.cos, 'tan': np.tan,
    'erf': lambda x: x if math.isnan(x) else math.erf(x),
}


def unary_float():
    with np.errstate(all='ignore'):
        for t in FLOATS:
            xs = [round_float(x, t) for x in FLOAT_IN]
            for op, f in list(UNARY_EXACT.items()) + list(UNARY_APPROX.items()):
                vals = []
                for x in xs:
                    if op in ('floor', 'ceil') and (math.isinf(x) or math.isnan(x)):
                        v = x
                    elif op in ('floor', 'ceil'):
                        v = math.copysign(float(f(x)), x)
                    elif op == 'logistic' and math.isnan(x):
                        v = x
                    else:
                        v = float(f(np.float64(x)) if op in UNARY_APPROX else f(x))
                    vals.append(round_float(v, t))
                tol = None if op in UNARY_EXACT else (4 * EPS[t], 4 * EPS[t] * 1e-3)
                elementwise('%s_%s' % (op, t), op, t, [xs], t, vals, tol)
            elementwise('is-finite_%s' % t, 'is-finite', t, [xs], 'pred',
                        [not (math.isinf(x) or math.isnan(x)) for x in xs])
            elementwise('real_%s' % t, 'real', t, [xs], t, xs)
            elementwise('imag_%s' % t, 'imag', t, [xs], t, [0.0] * len(xs))


# --- unary integer ops ----------------------------------------------------

def int_inputs(t):
    w, signed = INTS[t]
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    vals = [0, 1, 5, hi, lo, 100 % (hi + 1)]
    if signed:
        vals += [-1, -7, lo + 1]
    else:
        vals += [hi - 1, 1 << (w - 1)]
    return vals


def unary_int():
    for t, (w, signed) in INTS.items():
        xs = int_inputs(t)
        m = (1 << w) - 1
        ops = {
            'abs': lambda x: wrap(abs(x), t),
            'negate': lambda x: wrap(-x, t),
            'sign': lambda x: (x > 0) - (x < 0),
            'not': lambda x: wrap(~x, t),
            'popcnt': lambda x: bin(x & m).count('1'),
            'count-leading-zeros': lambda x: w - (x & m).bit_length(),
        }
        for op, f in ops.items():
            elementwise('%s_%s' % (op, t), op, t, [xs], t, [f(x) for x in xs])
    elementwise('not_pred', 'not', 'pred', [[True, False]], 'pred', [False, True])


# --- unary complex ops ----------------------------------------------------

COMPLEX_IN = [0.5 + 0.25j, -1.5 + 2j, 3 - 0.5j, 0j, -0.75 - 1.25j, 1j]


def unary_complex():
    with np.errstate(all='ignore'):
        for t, part in COMPLEX.items():
            zs = [complex(round_float(z.real, part), round_float(z.imag, part))
                  for z in COMPLEX_IN]
            zz = np.array(zs, dtype=np.complex128)
            rnd = lambda v: complex(round_float(v.real, part), round_float(v.imag, part))
            tol = (8 * EPS[part], 8 * EPS[part])
            elementwise('abs_%s' % t, 'abs', t, [zs], part,
                        [round_float(abs(z), part) for z in zs], tol)
            elementwise('real_%s' % t, 'real', t, [zs], part, [z.real for z in zs])
            elementwise('imag_%s' % t, 'imag', t, [zs], part, [z.imag for z in zs])
            elementwise('negate_%s' % t, 'negate', t, [zs], t, [-z for z in zs])
            elementwise('sign_%s' % t, 'sign', t, [zs], t,
                        [rnd(z / abs(z)) if z else z for z in zs], tol)
            for op, f in {'exponential': np.exp, 'exponential-minus-one': np.expm1,
                          'log-plus-one': np.log1p, 'sqrt': np.sqrt, 'tanh': np.tanh,
                          'sine': np.sin, 'cosine': np.cos, 'tan': np.tan}.items():
                elementwise('%s_%s' % (op, t), op, t, [zs], t, [rnd(v) for v in f(zz)], tol)
            nz = [z for z in zs if z]
            elementwise('log_%s' % t, 'log', t, [nz], t,
                        [rnd(v) for v in np.log(np.array(nz))], tol)
            elementwise('rsqrt_%s' % t, 'rsqrt', t, [nz], t,
                        [rnd(v) for v in 1 / np.sqrt(np.array(nz))], tol)


# --- binary float ops -----------------------------------------------------

PAIRS = [(1.0, 2.0), (-3.5, 0.25), (0.0, -0.0), (-0.0, 0.0), (5.0, 0.0), (-5.0, 0.0),
         (0.0, 0.0), (math.inf, 1.0), (math.inf, -math.inf), (math.nan, 1.0),
         (1.0, math.nan), (7.5, -2.0), (-7.5, 2.0), (2.0, 10.0), (1e-3, 3.0)]


def fmax(x, y):
    """IEEE 754-2019 maximum: NaN wins, -0 < +0."""
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y == 0:
        return 0.0 if math.copysign(1, x) > 0 or math.copysign(1, y) > 0 else -0.0
    return max(x, y)


def fmin(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y == 0:
        return -0.0 if math.copysign(1, x) < 0 or math.copysign(1, y) < 0 else 0.0
    return min(x, y)


def total_key(x, t):
    b = struct.unpack('<q', struct.pack('<d', x))[0]
    return b ^ 0x7fffffffffffffff if b < 0 else b


DIRS = {'EQ': lambda c: c == 0, 'NE': lambda c: c != 0, 'LT': lambda c: c < 0,
        'LE': lambda c: c <= 0, 'GT': lambda c: c > 0, 'GE': lambda c: c >= 0}


def binary_float():
    with np.errstate(all='ignore'):
        for t in FLOATS:
            xs = [round_float(a, t) for a, _ in PAIRS]
            ys = [round_float(b, t) for _, b in PAIRS]
            X, Y = np.array(xs), np.array(ys)
            ops = {'add': X + Y, 'subtract': X - Y, 'multiply': X * Y, 'divide': X / Y,
                   'remainder': np.fmod(X, Y), 'power': np.power(X, Y),
                   'atan2': np.arctan2(X, Y),
                   'maximum': [fmax(a, b) for a, b in zip(xs, ys)],
                   'minimum': [fmin(a, b) for a, b in zip(xs, ys)]}
            for op, v in ops.items():
                tol = (4 * EPS[t], 1e-300) if op in ('power', 'atan2') else None
                elementwise('%s_%s' % (op, t), op, t, [xs, ys], t,
                            [round_float(float(a), t) for a in v], tol)
            for d, f in DIRS.items():
                ieee = [(not (math.isnan(a) or math.isnan(b)) and f((a > b) - (a < b)))
                        or (d == 'NE' and (math.isnan(a) or math.isnan(b)))
                        for a, b in zip(xs, ys)]
                elementwise('compare_%s_%s' % (d, t), 'compare', t, [xs, ys], 'pred', ieee,
                            attrs=', direction=%s' % d)
                tot = [f((total_key(a, t) > total_key(b, t)) - (total_key(a, t) < total_key(b, t)))
                       for a, b in zip(xs, ys)]
                elementwise('compare_%s_totalorder_%s' % (d, t), 'compare', t, [xs, ys],
                            'pred', tot, attrs=', direction=%s, type=TOTALORDER' % d)
        for t, part in COMPLEX.items():
            xs = [complex(1.5, -2), complex(0, 1), complex(-3, 0.5), complex(2, 2)]
            ys = [complex(0.5, 0.25), complex(0, 1), complex(1, -1), complex(-2, 0)]
            X, Y = np.array(xs), np.array(ys)
            rnd = lambda v: complex(round_float(v.real, part), round_float(v.imag, part))
            for op, v in {'add': X + Y, 'subtract': X - Y, 'multiply': X * Y,
                          'divide': X / Y, 'power': np.power(X, Y)}.items():
                elementwise('%s_%s' % (op, t), op, t, [xs, ys], t, [rnd(a) for a in v],
                            (8 * EPS[part], 8 * EPS[part]))
            # XLA's complex atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)), NaN
            # where x^2 + y^2 = 0 (as jaxlib's CPU backend gives for 3-i, -1-3i)
            ya, xa = np.array(xs + [complex(3, -1)]), np.array(ys + [complex(-1, -3)])
            with np.errstate(all='ignore'):
                v = -1j * np.log((xa + 1j * ya) / np.sqrt(xa * xa + ya * ya))
            v = [complex(math.nan, math.nan) if not np.isfinite(z) else z for z in v]
            elementwise('atan2_%s' % t, 'atan2', t, [list(ya), list(xa)], t,
                        [rnd(a) for a in v], (8 * EPS[part], 8 * EPS[part]))
            for d in ('EQ', 'NE'):
                elementwise('compare_%s_%s' % (d, t), 'compare', t, [xs, ys], 'pred',
                            [(a == b) == (d == 'EQ') for a, b in zip(xs, ys)],
                            attrs=', direction=%s' % d)
            re = [round_float(a, part) for a, _ in PAIRS]
            im = [round_float(b, part) for _, b in PAIRS]
            elementwise('complex_%s' % part, 'complex', part, [re, im], t,
                        [complex(a, b) for a, b in zip(re, im)])


# --- binary integer ops ---------------------------------------------------

def tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def int_binary_semantics(t):
    w, signed = INTS[t]
    m = (1 << w) - 1
    lo = -(1 << (w - 1)) if signed else 0

    def div(x, y):
        if y == 0:
            return wrap(-1, t)
        if signed and x == lo and y == -1:
            return x
        return wrap(tdiv(x, y), t)

    def rem(x, y):
        if y == 0:
            return x
        if signed and x == lo and y == -1:
            return 0
        return wrap(x - tdiv(x, y) * y, t)

    def power(x, y):
        if y < 0:       # 1 / x^-y, an integer only for 1 and -1
            return 1 if x == 1 else wrap(-1 if y % 2 else 1, t) if x == -1 else 0
        return wrap(pow(x, y, 1 << w), t)

    def sra(x, y):
        a, sx = y & m, wrap(x, 's%d' % w)
        return wrap(-1 if sx < 0 else 0, t) if a >= w else wrap(sx >> a, t)

    return {
        'add': lambda x, y: wrap(x + y, t), 'subtract': lambda x, y: wrap(x - y, t),
        'multiply': lambda x, y: wrap(x * y, t), 'divide': div, 'remainder': rem,
        'power': power, 'maximum': max, 'minimum': min,
        'and': lambda x, y: wrap(x & y, t), 'or': lambda x, y: wrap(x | y, t),
        'xor': lambda x, y: wrap(x ^ y, t),
        'shift-left': lambda x, y: 0 if y & m >= w else wrap(x << (y & m), t),
        'shift-right-logical': lambda x, y: 0 if y & m >= w else wrap((x & m) >> (y & m), t),
        'shift-right-arithmetic': sra,
    }


def int_pairs(t):
    w, signed = INTS[t]
    lo = -(1 << (w - 1)) if signed else 0
    hi = (1 << (w - 1)) - 1 if signed else (1 << w) - 1
    ps = [(7, 2), (hi, 1), (hi, 2), (lo, 1), (5, 0), (0, 0), (hi, hi), (3, w - 1),
          (3, w), (3, w + 5), (1, 3), (100 % hi, 3)]
    if signed:
        ps += [(-7, 2), (7, -2), (-7, -2), (lo, -1), (-5, 0), (-1, 3), (lo, w - 1),
               (-3, -1), (2, -3), (1, -3), (-1, w), (-1, -3), (-1, -2)]
    else:
        ps += [(hi, hi - 1), (1 << (w - 1), 1), (1 << (w - 1), w - 1), (hi, w + 1)]
    return ps


def binary_int():
    for t, (w, signed) in INTS.items():
        ps = int_pairs(t)
        xs, ys = [a for a, _ in ps], [b for _, b in ps]
        for op, f in int_binary_semantics(t).items():
            elementwise('%s_%s' % (op, t), op, t, [xs, ys], t,
                        [f(a, b) for a, b in zip(xs, ys)])
        for d, f in DIRS.items():
            elementwise('compare_%s_%s' % (d, t), 'compare', t, [xs, ys], 'pred',
                        [f((a > b) - (a < b)) for a, b in zip(xs, ys)],
                        attrs=', direction=%s' % d)
        other = 'UNSIGNED' if signed else 'SIGNED'
        flip = (lambda v: v & ((1 << w) - 1)) if signed else (lambda v: wrap(v, 's%d' % w))
        elementwise('compare_LT_%s_%s' % (other.lower(), t), 'compare', t, [xs, ys], 'pred',
                    [flip(a) < flip(b) for a, b in zip(xs, ys)],
                    attrs=', direction=LT, type=%s' % other)
    P = [(False, False), (False, True), (True, False), (True, True)]
    xs, ys = [a for a, _ in P], [b for _, b in P]
    for op, f in {'and': lambda a, b: a and b, 'or': lambda a, b: a or b,
                  'xor': lambda a, b: a != b, 'maximum': max, 'minimum': min}.items():
        elementwise('%s_pred' % op, op, 'pred', [xs, ys], 'pred',
                    [f(a, b) for a, b in zip(xs, ys)])
    elementwise('compare_LT_pred', 'compare', 'pred', [xs, ys], 'pred',
                [a < b for a, b in zip(xs, ys)], attrs=', direction=LT')


# --- convert ----------------------------------------------------------------

def convert_value(v, frm, to):
    """XLA's convert of one value, with Python's exact arithmetic."""
    if to == 'pred' and frm in COMPLEX:
        return v.real != 0 or v.imag != 0      # NaN is nonzero
    if frm in COMPLEX and to not in COMPLEX:
        v = v.real
    if to == 'pred':
        return v != 0 if not (isinstance(v, float) and math.isnan(v)) else True
    if to in INTS:
        w, signed = INTS[to]
        if frm in INTS or frm == 'pred':
            return wrap(int(v), to)
        if math.isnan(v):
            return 0
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
        if v <= lo:
            return lo
        if v >= hi:
            return hi
        return int(v)        # truncates toward zero
    if to in COMPLEX:
        part = COMPLEX[to]
        if frm in COMPLEX:
            return complex(round_float(v.real, part), round_float(v.imag, part))
        return complex(round_float(Fraction(int(v)) if frm in INTS or frm == 'pred'
                                   else v, part), 0.0)
    if frm in INTS or frm == 'pred':
        return round_float(Fraction(int(v)), to)
    return round_float(v, to)


CONVERT_IN = {
    'pred': [True, False],
    's8': [-128, 127, 0, -1, 100], 's32': [-2147483648, 2147483647, -70000, 65519, 300],
    's64': [-(1 << 63), (1 << 63) - 1, (1 << 62) + (1 << 54) + 1, -5, 16777217],
    'u8': [0, 255, 128, 7], 'u32': [0, 4294967295, 2147483648, 65536],
    'u64': [0, (1 << 64) - 1, (1 << 62) + (1 << 54) + 1, 9007199254740993],
    'f16': [0.0, -0.0, 65504.0, -2.5, 1.5, math.inf, -math.inf, math.nan, 0.0999755859375],
    'bf16': [1.5, -3.0, 3.3895313892515355e38, math.nan, -math.inf, 0.0078125],
    'f32': [0.0, -1.5, 2.5, 3e9, -3e9, 1e20, -1e20, math.inf, math.nan, 0.1, 65520.0,
            1e-40, 255.9, -0.9],
    'f64': [0.0, -1.5, 2.5, 1e300, -1e300, math.nan, math.inf, 0.1, 4294967295.5,
            -2147483648.9, 9.3e18, 1e-310, 3.4028235677973366e38],
    'c64': [complex(1.5, -2), complex(-300.5, 1), complex(math.nan, 0)],
}


def convert_cases():
    targets = ['pred', 's8', 's32', 's64', 'u8', 'u32', 'u64', 'f16', 'bf16', 'f32', 'f64',
               'c64', 'c128']
    for frm, vals in CONVERT_IN.items():
        if frm in FLOATS:
            vals = [round_float(v, frm) for v in vals]
        for to in targets:
            if frm == to:
                continue
            elementwise('convert_%s_to_%s' % (frm, to), 'convert', frm, [vals], to,
                        [convert_value(v, frm, to) for v in vals])


def main():
    unary_float()
    unary_int()
    unary_complex()
    binary_float()
    binary_int()
    convert_cases()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_eval_structural
    gen_eval_structural.generate(sys.modules[__name__])
    emit('# Generated by gen_eval_cases.py; do not edit.\n' + ''.join(cases),
         'gen_eval_cases.py')


if __name__ == '__main__':
    main()
