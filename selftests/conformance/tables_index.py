# SPDX-License-Identifier: MIT
"""Cases of indexing, sorting, data movement, random bits and control flow."""
from functools import partial

import jax

from common import Case, const, ints, jnp, lax, np, values


def gathers():
    t = values('f32', (10, 6), specials=False)
    idx = ints('s32', (4,), 0, 10)
    out = [
        Case('gather', 'index_row', lambda a, i: a[i[0]], [t, idx], 'exact'),
        Case('gather', 'index_rows', lambda a, i: a[i], [t, idx], 'exact'),
        Case('gather', 'index_element', lambda a, i: a[i[0], i[1] % 6], [t, idx], 'exact'),
        Case('gather', 'index_negative', lambda a, i: a[i - 10], [t, idx], 'exact'),
        Case('gather', 'index_2d', lambda a, i: a[i[:, None], jnp.arange(3)[None, :] * 2], [t, idx],
             'exact'),
        Case('gather', 'take_clip', lambda a, i: jnp.take(a, i * 3 - 5, axis=0, mode='clip'), [t, idx],
             'exact'),
        Case('gather', 'take_fill', lambda a, i: jnp.take(a, i * 3 - 5, axis=1, mode='fill',
                                                          fill_value=-1.0), [t, idx], 'exact'),
        Case('gather', 'take_along_axis',
             lambda a, i: jnp.take_along_axis(a, jnp.argsort(a, axis=1), axis=1), [t, idx], 'exact'),
        Case('gather', 'embedding', lambda a, i: a[i.reshape(2, 2)], [t, idx], 'exact'),
        Case('gather', 'dynamic_slice_clamped',
             lambda a, i: lax.dynamic_slice(a, (i[0] + 7, i[1] - 20), (4, 3)), [t, idx], 'exact'),
        Case('gather', 'dynamic_update_slice',
             lambda a, i: lax.dynamic_update_slice(a, jnp.ones((3, 2), a.dtype), (i[0], i[1] % 8)),
             [t, idx], 'exact'),
        Case('gather', 'gather_s8_table', lambda a, i: a[i], [values('s8', (10, 6)), idx], 'exact'),
    ]
    u = values('f32', (4, 3), specials=False)
    for name, fn in [('add', lambda a, i, u: a.at[i].add(u)), ('set', lambda a, i, u: a.at[i].set(u * 0 + 7)),
                     ('mul', lambda a, i, u: a.at[i].multiply(u)), ('min', lambda a, i, u: a.at[i].min(u)),
                     ('max', lambda a, i, u: a.at[i].max(u))]:
        out.append(Case('scatter', 'scatter_%s' % name,
                        lambda a, i, u, fn=fn: fn(a, i, jnp.broadcast_to(u[:, :1], (4, 6))),
                        [t, ints('s32', (4,), 0, 4), u], 'acc' if name in ('add', 'mul') else 'exact'))
    out.append(Case('scatter', 'scatter_add_duplicates_s32',
                    lambda a, i: a.at[i % 3].add(jnp.ones((8, 6), a.dtype)),
                    [values('s32', (10, 6), specials=False), ints('s32', (8,), 0, 10)], 'exact'))
    out.append(Case('scatter', 'scatter_out_of_bounds', lambda a, i: a.at[i * 4 - 8].add(1.0),
                    [t, idx], 'exact'))
    out.append(Case('scatter', 'segment_sum',
                    lambda d, s: jax.ops.segment_sum(d, s, num_segments=5),
                    [values('f32', (12, 3), specials=False), ints('s32', (12,), 0, 5)], 'acc'))
    out.append(Case('scatter', 'scatter_element',
                    lambda a, i: a.at[i[0], i[1] % 6].set(-3.0), [t, idx], 'exact'))
    return out


def sorts():
    out = []
    for dt in ['f32', 'f64', 'bf16', 'f16', 's32', 'u8', 's64']:
        out.append(Case('sort', 'sort_%s' % dt, lambda a: (jnp.sort(a), jnp.argsort(a, stable=True)),
                        [values(dt, (24,))], 'exact'))
    out.append(Case('sort', 'sort_2d_axis0', lambda a: jnp.sort(a, axis=0),
                    [values('f32', (7, 5), specials=False)], 'exact'))
    out.append(Case('sort', 'sort_descending', lambda a: jnp.sort(a, descending=True),
                    [values('f32', (24,))], 'exact'))
    out.append(Case('sort', 'sort_multi_operand',
                    lambda k, v: lax.sort((k, v), num_keys=1),
                    [ints('s32', (20,), 0, 5), values('f32', (20,), specials=False)], 'exact'))
    out.append(Case('sort', 'sort_two_keys',
                    lambda k1, k2: lax.sort((k1, k2), num_keys=2),
                    [ints('s32', (20,), 0, 3), ints('s32', (20,), 0, 4)], 'exact'))
    out.append(Case('sort', 'approx_max_k', lambda a: lax.approx_max_k(a, 3),
                    [values('f32', (2, 40), specials=False)], 'exact'))
    for dt in ['f32', 's32', 'bf16']:
        out.append(Case('sort', 'top_k_%s' % dt, lambda a: lax.top_k(a, 4),
                        [values(dt, (3, 17), specials=False)], 'exact'))
    return out


def movement():
    x = values('f32', (4, 6), specials=False)
    out = [
        Case('movement', 'transpose', lambda a: a.T, [x], 'exact'),
        Case('movement', 'transpose_3d', lambda a: jnp.transpose(a.reshape(2, 3, 4), (2, 0, 1)), [x],
             'exact'),
        Case('movement', 'reshape', lambda a: a.reshape(3, 8), [x], 'exact'),
        Case('movement', 'broadcast', lambda a: jnp.broadcast_to(a[:, None, :], (4, 3, 6)), [x], 'exact'),
        Case('movement', 'rev', lambda a: lax.rev(a, (0, 1)), [x], 'exact'),
        Case('movement', 'slice_strided', lambda a: a[::-1, 1:5:2], [x], 'exact'),
        Case('movement', 'concatenate', lambda a: jnp.concatenate([a, a * 2, a[:1]], axis=0), [x], 'exact'),
        Case('movement', 'pad_interior_negative',
             lambda a: lax.pad(a, np.float32(-1), ((1, -1, 1), (-2, 3, 2))), [x], 'exact'),
        Case('movement', 'pad_edges', lambda a: jnp.pad(a, ((1, 2), (0, 1)), mode='edge'), [x], 'exact'),
        Case('movement', 'iota', lambda a: (lax.broadcasted_iota(np.int32, (3, 4), 1),
                                            lax.iota(np.float32, 5) + a[0, 0]), [x], 'exact'),
        Case('movement', 'select', lambda a: jnp.where(a > 0, a, -a * 2), [x], 'exact'),
        Case('movement', 'select_n', lambda a, i: lax.select_n(i % 3, a, a * 2, -a),
             [x, ints('s32', (4, 6), 0, 9)], 'exact'),
        Case('movement', 'clamp', lambda a: lax.clamp(np.float32(-0.5), a, np.float32(0.7)), [x], 'exact'),
        Case('movement', 'roll', lambda a: jnp.roll(a, 2, axis=1), [x], 'exact'),
        Case('movement', 'tril', lambda a: jnp.tril(a), [x], 'exact'),
        Case('movement', 'copy_c64', lambda a: (a.T, a[1:3]), [values('c64', (4, 6))], 'exact'),
        Case('movement', 'squeeze_expand', lambda a: jnp.expand_dims(a[:1], 2).squeeze(0), [x], 'exact'),
    ]
    return out


def randoms():
    def bits(impl, dt, shape):
        return lambda s: jax.random.bits(jax.random.wrap_key_data(s, impl=impl), shape, dt)
    out = []
    for impl, key in [('threefry2x32', const(np.array([0, 42], np.uint32))),
                      ('rbg', const(np.array([1, 2, 3, 4], np.uint32))),
                      ('unsafe_rbg', const(np.array([5, 6, 7, 8], np.uint32)))]:
        for dt, shape in [(np.uint32, (4, 5)), (np.uint8, (7,)), (np.uint64, (3,))]:
            out.append(Case('random', 'bits_%s_%s' % (impl, np.dtype(dt).name), bits(impl, dt, shape),
                            [key], 'exact'))
    out.append(Case('random', 'uniform_threefry',
                    lambda s: jax.random.uniform(jax.random.wrap_key_data(s), (4, 4)),
                    [const(np.array([0, 7], np.uint32))], 'exact'))
    out.append(Case('random', 'normal_threefry',
                    lambda s: jax.random.normal(jax.random.wrap_key_data(s), (9,)),
                    [const(np.array([3, 1], np.uint32))], 'ulp'))
    out.append(Case('random', 'rng_bit_generator_philox',
                    lambda k: lax.rng_bit_generator(k, (3, 4), dtype=np.uint32,
                                                    algorithm=lax.RandomAlgorithm.RNG_PHILOX),
                    [const(np.array([1, 2, 3, 4], np.uint32))], 'exact'))
    out.append(Case('random', 'rng_bit_generator_three_fry',
                    lambda k: lax.rng_bit_generator(k, (5,), dtype=np.uint64,
                                                    algorithm=lax.RandomAlgorithm.RNG_THREE_FRY),
                    [const(np.array([9, 8, 7, 6], np.uint32))], 'exact'))
    return out


def control():
    x = values('f32', (3, 4), specials=False)
    out = [
        Case('control', 'while_loop', lambda a: lax.while_loop(lambda c: c[0] < 5,
                                                                lambda c: (c[0] + 1, c[1] * 1.5 + c[0]),
                                                                (0, a))[1], [x], 'acc'),
        Case('control', 'fori_loop', lambda a: lax.fori_loop(0, 4, lambda i, c: jnp.sin(c) + i, a),
             [x], 'ulp'),
        Case('control', 'scan', lambda a: lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(4), a),
             [x], 'acc'),
        Case('control', 'scan_reverse', lambda a: lax.scan(lambda c, r: (c * 0.5 + r, c), jnp.ones(4), a,
                                                           reverse=True), [x], 'acc'),
        Case('control', 'cond_true', lambda a: lax.cond(a.sum() > -100, lambda b: b * 2, lambda b: -b, a),
             [x], 'exact'),
        Case('control', 'cond_false', lambda a: lax.cond(a.sum() > 100, lambda b: b * 2, lambda b: -b, a),
             [x], 'exact'),
        Case('control', 'switch', lambda a, i: lax.switch(i[0], [lambda b: b + 1, lambda b: b * b,
                                                                 lambda b: jnp.exp(b)], a),
             [x, const(np.array([1], np.int32))], 'ulp'),
        Case('control', 'switch_clamped', lambda a, i: lax.switch(i[0], [lambda b: b + 1, lambda b: b * 3], a),
             [x, const(np.array([7], np.int32))], 'exact'),
        Case('control', 'nested_loops',
             lambda a: lax.fori_loop(0, 3, lambda i, c: lax.fori_loop(0, i + 1, lambda j, d: d + j * 0.25, c),
                                     a), [x], 'exact'),
        Case('control', 'while_data_dependent',
             lambda a: lax.while_loop(lambda c: jnp.max(c) < 50.0, lambda c: c * 2 + 1, jnp.abs(a)), [x],
             'exact'),
    ]
    return out


GROUPS = [gathers, sorts, movement, randoms, control]
__all__ = ['GROUPS', 'partial']
