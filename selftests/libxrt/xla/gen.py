# SPDX-License-Identifier: MIT
"""Writes the modules of this folder: small JAX programs as XLA's CPU
backend serializes them (HloProto, --xla_dump_hlo_as_proto) and prints
them (HLO text), before and after its optimizations.  test_xla_proto
reads each proto and checks it gives the module its text gives.

Run with JAX installed (the oracle environment):  python3 gen.py
"""
import glob
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DUMP = tempfile.mkdtemp(prefix='xrt-xla-dump-')
os.environ['XLA_FLAGS'] = ('--xla_dump_to=%s --xla_dump_hlo_as_text --xla_dump_hlo_as_proto '
                           '--xla_dump_large_constants'
                           % DUMP)
os.environ['JAX_PLATFORMS'] = 'cpu'

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

# source paths in metadata lose their directories: the files do not
# depend on where this ran
jax.config.update('jax_hlo_source_file_canonicalization_regex', '.*/')

x = jnp.arange(24, dtype=jnp.float32).reshape(4, 6) / 7
img = jnp.ones((1, 6, 6, 2), jnp.float32)
ker = jnp.arange(36, dtype=jnp.float32).reshape(3, 3, 2, 2) / 36

PROGRAMS = {
    'mlp_grad': (lambda a: jax.grad(lambda b: jnp.sum(jnp.tanh(b @ jnp.ones((6, 3))) ** 2))(a), x),
    'loop_and_cond': (lambda a: lax.cond(a.sum() > 3, lambda b: lax.fori_loop(0, 3, lambda i, c: c * 1.5 + i, b),
                                         lambda b: -b, a), x),
    'conv_pool': (lambda i: lax.reduce_window(lax.conv_general_dilated(i, ker, (1, 1), 'SAME',
                                                                       dimension_numbers=('NHWC', 'HWIO', 'NHWC')),
                                              -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID'), img),
    'pool_grad': (jax.grad(lambda i: jnp.sum(lax.reduce_window(i, -jnp.inf, lax.max, (1, 3, 3, 1),
                                                               (1, 2, 2, 1), 'SAME'))), img),
    'indexing': (lambda a: (jnp.take_along_axis(a, jnp.argsort(a, axis=1), axis=1),
                            a.at[jnp.array([0, 0, 2])].add(1.0), a[::-1, 1:5:2]), x),
    'types': (lambda a: ((a.astype(jnp.bfloat16) * 3).astype(jnp.float16), (a * 100).astype(jnp.int8),
                         jnp.array([1, 2, 3], jnp.uint16) + 1, jnp.complex64(2 + 1j) * a,
                         lax.bitcast_convert_type(a, jnp.int32), jnp.array([True, False]) & (a[0, :2] > 0)), x),
    'random': (lambda a: jax.random.bits(jax.random.key(1, impl='rbg'), (2, 3)) + a[:2, :3].astype(jnp.uint32), x),
}


def main():
    for name, (f, arg) in PROGRAMS.items():
        before = set(os.listdir(DUMP)) if os.path.isdir(DUMP) else set()
        jax.jit(f).lower(arg).compile()
        new = [n for n in set(os.listdir(DUMP)) - before if '.jit_' in n]
        for stage, tag in (('before_optimizations', 'before'), ('cpu_after_optimizations', 'after')):
            for ext, out in (('.hlo.pb', '.pb'), ('.txt', '.hlo')):
                hits = [n for n in new if n.endswith(stage + ext) and '-' not in n.split('.')[-2]]
                if len(hits) != 1:
                    sys.exit('%s: %d %s%s dumps' % (name, len(hits), stage, ext))
                shutil.copy(os.path.join(DUMP, hits[0]), os.path.join(HERE, '%s.%s%s' % (name, tag, out)))
    with open(os.path.join(HERE, 'VERSIONS'), 'w') as v:
        v.write('jax %s\njaxlib %s\n' % (jax.__version__, jax.lib.__version__))
    shutil.rmtree(DUMP)


# Every collective JAX writes, over one device: each gives its operand
# back (6 a in all).  Defined down here so that the lines the other
# modules' metadata name stay where they were.
def collectives(a):
    return (lax.psum(a, 'i') + lax.all_gather(a, 'i', axis=0, tiled=True)
            + lax.psum_scatter(a, 'i', scatter_dimension=0, tiled=True)
            + lax.ppermute(a, 'i', perm=[(0, 0)]) + lax.all_to_all(a, 'i', 0, 0, tiled=True)
            + lax.axis_index('i').astype(a.dtype) + lax.pmax(a, 'i'))


PROGRAMS['collectives'] = (jax.shard_map(collectives, mesh=jax.sharding.Mesh(jax.devices()[:1], ('i',)),
                                         in_specs=jax.sharding.PartitionSpec('i'),
                                         out_specs=jax.sharding.PartitionSpec('i')), x)



# XLA's 8-bit and 4-bit floats and its sub-byte integers: arithmetic
# computed wider and rounded to the type each step, wrapping integers,
# converts both ways.  JAX's outputs are kept as the expected values
# (narrow.expected).
def narrow(a):
    e4 = a.astype(jnp.float8_e4m3fn)
    e5 = (a * 300).astype(jnp.float8_e5m2)
    i4 = (a * 2).astype(jnp.int4)
    return (e4 * e4 + e4, e5 - e5 * jnp.float8_e5m2(0.375), jnp.maximum(e4, jnp.float8_e4m3fn(1.5)),
            i4 + jnp.int4(5), (a * 3).astype(jnp.uint4) * jnp.uint4(3), i4.astype(jnp.float32),
            a.astype(jnp.float8_e4m3fnuz) / jnp.float8_e4m3fnuz(3), (a * 1e3).astype(jnp.float8_e8m0fnu),
            (a - 1).astype(jnp.float4_e2m1fn), (e5 > e4.astype(jnp.float8_e5m2)),
            (a * 9 - 20).astype(jnp.float8_e3m4).astype(jnp.float8_e4m3), a.astype(jnp.float8_e4m3b11fnuz),
            (a * 1e4).astype(jnp.float8_e5m2fnuz), (a * 4 - 6).astype(jnp.int2).astype(jnp.uint2))


PROGRAMS['narrow'] = (narrow, x)


# Products, windows, scans, sorts and reductions of them.
def narrow_ops(a):
    e4 = a.astype(jnp.float8_e4m3fn)
    e5 = (a - 1.5).astype(jnp.float8_e5m2)
    i4 = (a * 2 - 3).astype(jnp.int4)
    img = e4.reshape(1, 4, 6, 1)
    ker = jnp.ones((2, 2, 1, 1), jnp.float8_e4m3fn)
    return (lax.dot(e4, e4.T, preferred_element_type=jnp.float32), lax.dot(e4, e4.T),
            lax.conv_general_dilated(img, ker, (1, 1), 'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC')),
            jnp.cumsum(e5, axis=1), jnp.argmax(e5, axis=1), jnp.sort(e5, axis=1),
            lax.reduce_window(e4, -jnp.inf, lax.max, (2, 2), (2, 2), 'VALID'),
            jnp.max(i4, axis=0), jnp.sum(e5.astype(jnp.bfloat16), axis=0), i4 * i4)


PROGRAMS['narrow_ops'] = (narrow_ops, x)


# bitcast-convert regrouping bits across widths below a byte: s8 as
# s4[2], u8 as u2[4] and f4e2m1fn[2], f32 as u4[8], and back to s8, s16
# and f16.
def regroup(a):
    i8 = (a * 30 - 40).astype(jnp.int8)
    u8 = (a * 37).astype(jnp.uint8)
    i4 = lax.bitcast_convert_type(i8, jnp.int4)
    # k * 1.1, not a: its bits, whatever the last bit of JAX's k / 7
    u4 = lax.bitcast_convert_type(jnp.round(a * 7) * 1.1, jnp.uint4)
    return (i4, lax.bitcast_convert_type(i4, jnp.int8), lax.bitcast_convert_type(u8, jnp.uint2),
            lax.bitcast_convert_type(u8, jnp.float4_e2m1fn), u4,
            lax.bitcast_convert_type(u4.reshape(4, 12, 4), jnp.float16),
            lax.bitcast_convert_type(a.astype(jnp.float8_e4m3fn), jnp.int2),
            lax.bitcast_convert_type(i4.reshape(4, 3, 4), jnp.int16))


PROGRAMS['regroup'] = (regroup, x)


def literal_text(v):
    """A numpy value of JAX's as an HLO shape and value (exact: repr of each double)."""
    import numpy as np
    name = {'float8_e4m3fn': 'f8e4m3fn', 'float8_e5m2': 'f8e5m2', 'int4': 's4', 'uint4': 'u4',
            'float32': 'f32', 'float8_e4m3fnuz': 'f8e4m3fnuz', 'float8_e8m0fnu': 'f8e8m0fnu',
            'float4_e2m1fn': 'f4e2m1fn', 'bool': 'pred', 'float8_e4m3': 'f8e4m3',
            'float8_e4m3b11fnuz': 'f8e4m3b11fnuz', 'float8_e5m2fnuz': 'f8e5m2fnuz',
            'uint2': 'u2', 'int32': 's32', 'bfloat16': 'bf16', 'int8': 's8', 'uint8': 'u8',
            'int2': 's2', 'int16': 's16', 'float16': 'f16'}[v.dtype.name]

    def elem(e):
        if name == 'pred':
            return 'true' if e else 'false'
        if name[0] in 'su':
            return str(int(e))
        return 'nan' if np.isnan(float(e)) else repr(float(e))

    def nest(a):
        if a.ndim == 0:
            return elem(a)
        return '{%s}' % ', '.join(nest(b) for b in a)
    return '%s[%s]' % (name, ','.join(map(str, v.shape))), nest(v)


def write_expected():
    """NAME.expected: the result's shape on one line, JAX's values on the next."""
    import numpy as np
    for name, f in (('narrow', narrow), ('narrow_ops', narrow_ops), ('regroup', regroup)):
        outs = [literal_text(np.asarray(o)) for o in jax.jit(f)(x)]
        with open(os.path.join(HERE, name + '.expected'), 'w') as out:
            out.write('(%s)\n(%s)\n' % (', '.join(o[0] for o in outs), ', '.join(o[1] for o in outs)))


if __name__ == '__main__':
    main()
    write_expected()
