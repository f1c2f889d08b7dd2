# SPDX-License-Identifier: MIT
"""Cases of single jax.lax primitives, by group."""
from functools import partial

from common import (COMPLEX, FLOATS, INTS, SHAPES, SINTS, Case, const, ints, jnp, lax,
                    np, values)

# (name, function, dtypes, input domain, tolerance class)
UNARY = [
    ('neg', lax.neg, FLOATS + COMPLEX + SINTS, 'any', 'exact'),
    ('abs', lax.abs, FLOATS + SINTS, 'any', 'exact'),
    ('abs_c', lax.abs, COMPLEX, 'any', 'ulp'),
    ('sign', lax.sign, FLOATS + SINTS, 'any', 'exact'),
    ('floor', lax.floor, FLOATS, 'any', 'exact'),
    ('ceil', lax.ceil, FLOATS, 'any', 'exact'),
    ('round_afz', partial(lax.round, rounding_method=0), FLOATS, 'any', 'exact'),
    ('round_even', partial(lax.round, rounding_method=1), FLOATS, 'any', 'exact'),
    ('sqrt', lax.sqrt, FLOATS, 'pos', 'exact'),
    ('sqrt_c', lax.sqrt, COMPLEX, 'any', 'ulp'),
    ('rsqrt', lax.rsqrt, FLOATS, 'pos', 'ulp'),
    ('cbrt', lax.cbrt, FLOATS, 'any', 'ulp'),
    ('exp', lax.exp, FLOATS + COMPLEX, 'any', 'ulp'),
    ('exp2', lax.exp2, FLOATS, 'any', 'ulp'),
    ('expm1', lax.expm1, FLOATS, 'any', 'ulp'),
    ('log', lax.log, FLOATS, 'pos', 'ulp'),
    ('log_c', lax.log, COMPLEX, 'any', 'ulp'),
    ('log1p', lax.log1p, FLOATS, 'pos', 'ulp'),
    ('tanh', lax.tanh, FLOATS, 'any', 'ulp'),
    ('logistic', lax.logistic, FLOATS, 'any', 'ulp'),
    ('sin', lax.sin, FLOATS, 'any', 'ulp'),
    ('cos', lax.cos, FLOATS, 'any', 'ulp'),
    ('tan', lax.tan, FLOATS, 'small', 'ulp'),
    ('atan', lax.atan, FLOATS, 'any', 'ulp'),
    ('asin', lax.asin, ['f32', 'f64'], 'unit', 'ulp'),
    ('acos', lax.acos, ['f32', 'f64'], 'unit', 'ulp'),
    ('sinh', lax.sinh, ['f32', 'f64'], 'small', 'ulp'),
    ('cosh', lax.cosh, ['f32', 'f64'], 'small', 'ulp'),
    ('asinh', lax.asinh, ['f32', 'f64'], 'any', 'ulp'),
    ('acosh', lax.acosh, ['f32', 'f64'], 'ge1', 'ulp'),
    ('atanh', lax.atanh, ['f32', 'f64'], 'unit', 'ulp'),
    ('erf', lax.erf, ['f32', 'f64', 'f16', 'bf16'], 'any', 'ulp'),
    ('erf_inv', lax.erf_inv, ['f32', 'f64'], 'unit', 'formula'),
    ('lgamma', lax.lgamma, ['f32', 'f64'], 'pos', 'formula'),
    ('digamma', lax.digamma, ['f32', 'f64'], 'pos', 'formula'),
    ('erfc', lax.erfc, ['f32', 'f64'], 'any', 'formula'),
    ('bessel_i0e', lax.bessel_i0e, ['f32', 'f64'], 'any', 'formula'),
    ('bessel_i1e', lax.bessel_i1e, ['f32', 'f64'], 'any', 'formula'),
    ('sign_c', lax.sign, COMPLEX, 'any', 'ulp'),
    ('is_finite', lax.is_finite, FLOATS, 'any', 'exact'),
    ('not', lax.bitwise_not, ['pred'] + INTS, 'any', 'exact'),
    ('popcnt', lax.population_count, INTS, 'any', 'exact'),
    ('clz', lax.clz, INTS, 'any', 'exact'),
    ('real', lax.real, COMPLEX, 'any', 'exact'),
    ('imag', lax.imag, COMPLEX, 'any', 'exact'),
    ('conj', lax.conj, COMPLEX, 'any', 'exact'),
]

# (name, function, dtypes, domains of the two operands, tolerance class)
BINARY = [
    ('add', lax.add, FLOATS + COMPLEX + INTS, ('any', 'any'), 'exact'),
    ('sub', lax.sub, FLOATS + COMPLEX + INTS, ('any', 'any'), 'exact'),
    ('mul', lax.mul, FLOATS + INTS, ('any', 'any'), 'exact'),
    ('mul_c', lax.mul, COMPLEX, ('any', 'any'), 'ulp'),
    ('div', lax.div, FLOATS + INTS, ('any', 'any'), 'exact'),
    ('div_c', lax.div, COMPLEX, ('any', 'any'), 'ulp'),
    ('rem', lax.rem, FLOATS + INTS, ('any', 'any'), 'exact'),
    ('max', lax.max, FLOATS + INTS, ('any', 'any'), 'exact'),
    ('min', lax.min, FLOATS + INTS, ('any', 'any'), 'exact'),
    ('pow', lax.pow, FLOATS, ('pos', 'any'), 'ulp'),
    ('pow_c', lax.pow, COMPLEX, ('any', 'any'), 'ulp'),
    ('atan2', lax.atan2, FLOATS, ('any', 'any'), 'ulp'),
    ('and', lax.bitwise_and, ['pred'] + INTS, ('any', 'any'), 'exact'),
    ('or', lax.bitwise_or, ['pred'] + INTS, ('any', 'any'), 'exact'),
    ('xor', lax.bitwise_xor, ['pred'] + INTS, ('any', 'any'), 'exact'),
    ('shl', lax.shift_left, INTS, ('any', 'shift'), 'exact'),
    ('shra', lax.shift_right_arithmetic, INTS, ('any', 'shift'), 'exact'),
    ('shrl', lax.shift_right_logical, INTS, ('any', 'shift'), 'exact'),
    ('nextafter', lax.nextafter, ['f32', 'f64'], ('any', 'any'), 'exact'),
    ('complex', lax.complex, ['f32', 'f64'], ('any', 'any'), 'exact'),
    ('igamma', lax.igamma, ['f32', 'f64'], ('pos', 'pos'), 'formula'),
    ('igammac', lax.igammac, ['f32', 'f64'], ('pos', 'pos'), 'formula'),
    ('polygamma', lambda a, b: lax.polygamma(lax.round(a), b), ['f32', 'f64'], ('pos', 'pos'),
     'formula'),
    ('zeta', lambda a, b: lax.zeta(a + 1, b), ['f32', 'f64'], ('pos', 'pos'), 'formula'),
]

CORE = ('add', 'mul', 'exp', 'max', 'and')	# also on the other shape classes


def elementwise():
    out = []
    for name, fn, dts, dom, tol in UNARY:
        for dt in dts:
            for sc in ('vec', 'scalar', 'r3') if name in CORE else ('vec',):
                out.append(Case('unary', '%s_%s_%s' % (name, dt, sc), fn,
                                [values(dt, SHAPES[sc], dom)], tol))
    for name, fn, dts, doms, tol in BINARY:
        for dt in dts:
            for sc in ('vec', 'scalar', 'r3') if name in CORE else ('vec',):
                # the second operand: another order of the specials
                b = values(dt, SHAPES[sc], doms[1])
                out.append(Case('binary', '%s_%s_%s' % (name, dt, sc), fn,
                                [values(dt, SHAPES[sc], doms[0]),
                                 (lambda rng, b=b: np.flip(b(rng)))], tol))
    return out


def compare():
    def six(a, b):
        return (a == b, a != b, a < b, a <= b, a > b, a >= b)

    def total(a, b):
        return (lax.sort((jnp.concatenate([a, b]),), num_keys=1),)
    out = [Case('compare', 'compare_%s' % dt, six,
                [values(dt, (24,)), lambda rng, dt=dt: np.roll(values(dt, (24,))(rng), 3)], 'exact')
           for dt in FLOATS + INTS + ['pred']]
    out += [Case('compare', 'compare_c_%s' % dt, lambda a, b: (a == b, a != b),
                 [values(dt, (24,)), lambda rng, dt=dt: np.roll(values(dt, (24,))(rng), 3)], 'exact')
            for dt in COMPLEX]
    return out


CONVERT_TO = ['pred', 's8', 's32', 's64', 'u8', 'u32', 'f16', 'bf16', 'f32', 'f64', 'c64']


def convert():
    from common import NP
    out = []
    for src in ['pred', 's8', 's32', 's64', 'u8', 'u32', 'f16', 'bf16', 'f32', 'f64']:
        targets = [t for t in CONVERT_TO if t != src]
        dom = 'any'
        # floats in every target's range: out-of-range float-to-integer
        # converts are implementation-defined in XLA
        mk = values(src, (24,), 'small' if src in FLOATS else dom, specials=False)
        out.append(Case('convert', 'convert_from_%s' % src,
                        lambda a, ts=targets: tuple(a.astype(NP[t]) for t in ts), [mk], 'exact'))
    out.append(Case('convert', 'convert_c64_parts', lambda a: (a.astype(np.complex128), a.real),
                    [values('c64', (24,))], 'exact'))
    out.append(Case('convert', 'convert_float_specials',
                    lambda a: (a.astype(jnp.bfloat16), a.astype(jnp.float16), a.astype(np.float64)),
                    [const(np.array([1e-40, 3.4e38, 1e-8, 65520.0, 1.00390625, 1.0009765625, -2.5e-6,
                                     np.nan, -np.inf, 6e-5, 3.0e-39, 1.5], np.float32))], 'exact'))
    bitcasts = [('f32', 's32'), ('f32', 'u32'), ('f64', 's64'), ('f16', 's16'), ('bf16', 'u16'),
                ('s32', 'f32'), ('u64', 'f64')]
    for a, b in bitcasts:
        out.append(Case('convert', 'bitcast_%s_%s' % (a, b),
                        lambda x, b=b: lax.bitcast_convert_type(x, NP[b]),
                        [values(a, (24,), 'any' if a in FLOATS else 'full')], 'exact'))
    out.append(Case('convert', 'bitcast_f32_u8x4', lambda x: lax.bitcast_convert_type(x, np.uint8),
                    [values('f32', (6,))], 'exact'))
    out.append(Case('convert', 'bitcast_u16x2_f32', lambda x: lax.bitcast_convert_type(x, np.float32),
                    [ints('u16', (5, 2), 0, 65535)], 'exact'))
    out.append(Case('convert', 'reduce_precision',
                    lambda x: (lax.reduce_precision(x, 5, 10), lax.reduce_precision(x, 8, 7),
                               lax.reduce_precision(x, 4, 3)), [values('f32', (24,))], 'exact'))
    return out


GROUPS = [elementwise, compare, convert]
