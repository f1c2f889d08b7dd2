# SPDX-License-Identifier: MIT
"""numpy values as HLO literal text, exactly: each float element is the
repr of its value as a double, which reads back to the same bits in its
own type."""
import numpy as np

NAMES = {
    'bool': 'pred', 'int8': 's8', 'int16': 's16', 'int32': 's32', 'int64': 's64',
    'uint8': 'u8', 'uint16': 'u16', 'uint32': 'u32', 'uint64': 'u64',
    'float16': 'f16', 'bfloat16': 'bf16', 'float32': 'f32', 'float64': 'f64',
    'complex64': 'c64', 'complex128': 'c128',
    'int4': 's4', 'uint4': 'u4', 'int2': 's2', 'uint2': 'u2',
    'float8_e4m3fn': 'f8e4m3fn', 'float8_e5m2': 'f8e5m2', 'float8_e4m3fnuz': 'f8e4m3fnuz',
    'float8_e5m2fnuz': 'f8e5m2fnuz', 'float8_e4m3b11fnuz': 'f8e4m3b11fnuz',
    'float8_e4m3': 'f8e4m3', 'float8_e3m4': 'f8e3m4', 'float8_e8m0fnu': 'f8e8m0fnu',
    'float4_e2m1fn': 'f4e2m1fn',
}


def real(e):
    v = float(e)
    if np.isnan(v):
        return 'nan'
    return repr(v)


def literal_text(v):
    """(shape, value) of numpy array @v as HLO writes a constant."""
    name = NAMES[v.dtype.name]

    def elem(e):
        if name == 'pred':
            return 'true' if e else 'false'
        if name[0] in 'su':
            return str(int(e))
        if name[0] == 'c':
            return '(%s, %s)' % (real(e.real), real(e.imag))
        return real(e)

    def nest(a):
        if a.ndim == 0:
            return elem(a)
        return '{%s}' % ', '.join(nest(b) for b in a)
    return '%s[%s]' % (name, ','.join(map(str, v.shape))), nest(v)
