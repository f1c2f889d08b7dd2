# SPDX-License-Identifier: MIT
"""What the conformance tables share: the case, seeded inputs, dtypes."""
import zlib

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax

NP = {'pred': np.bool_, 's8': np.int8, 's16': np.int16, 's32': np.int32, 's64': np.int64,
      'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64,
      'f16': np.float16, 'bf16': ml_dtypes.bfloat16, 'f32': np.float32, 'f64': np.float64,
      'c64': np.complex64, 'c128': np.complex128}
FLOATS = ['f32', 'f64', 'f16', 'bf16']
COMPLEX = ['c64', 'c128']
SINTS = ['s8', 's16', 's32', 's64']
UINTS = ['u8', 'u16', 'u32', 'u64']
INTS = SINTS + UINTS

# shape classes of elementwise cases: a vector holding the special
# values too, a scalar, a rank-3 array
SHAPES = {'vec': (24,), 'scalar': (), 'r3': (2, 3, 4)}
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 1e-30, -3e5, 65504.0, 2.5]


class Case:
    def __init__(self, group, name, fn, inputs, tol):
        self.group, self.name, self.fn, self.tol = group, name, fn, tol
        self._inputs = inputs

    def args(self):
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        return [i(rng) if callable(i) else i for i in self._inputs]


def values(dt, shape, domain='any', specials=True):
    """An input maker: seeded values of dtype name @dt and @shape in @domain."""
    def make(rng):
        n = int(np.prod(shape))
        if dt == 'pred':
            v = rng.integers(0, 2, n).astype(bool)
        elif dt in INTS:
            info = np.iinfo(NP[dt])
            lo, hi = {'any': (max(info.min, -100), min(info.max, 100)), 'pos': (1, 100),
                      'shift': (0, info.bits + 2), 'full': (info.min, info.max)}[domain]
            v = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64 if dt != 'u64' else np.uint64)
            if domain == 'any' and n >= 8:
                v[:3] = [0, info.max if domain == 'full' else lo, hi]
        else:
            real = {'any': lambda: rng.standard_normal(n) * 2,
                    'pos': lambda: np.abs(rng.standard_normal(n)) * 3 + 0.05,
                    'unit': lambda: rng.uniform(-0.99, 0.99, n),
                    'ge1': lambda: np.abs(rng.standard_normal(n)) * 3 + 1,
                    'small': lambda: rng.standard_normal(n) * 0.5}[domain]
            v = real()
            if dt in COMPLEX:
                v = v + 1j * real()
            if specials and domain == 'any' and n >= len(SPECIALS) + 4:
                v[:len(SPECIALS)] = SPECIALS
        return np.asarray(v).astype(NP[dt]).reshape(shape)
    return make


def ints(dt, shape, lo, hi):
    return lambda rng: rng.integers(lo, hi, int(np.prod(shape))).astype(NP[dt]).reshape(shape)


def const(v):
    return lambda rng: v


__all__ = ['Case', 'values', 'ints', 'const', 'FLOATS', 'COMPLEX', 'SINTS', 'UINTS',
           'INTS', 'NP', 'SHAPES', 'jax', 'jnp', 'lax', 'np']
