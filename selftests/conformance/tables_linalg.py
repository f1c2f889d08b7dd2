# SPDX-License-Identifier: MIT
"""Cases of products, convolutions, reductions, scans and windows."""
from functools import partial

from common import Case, ints, jnp, lax, np, values


# (name, lhs shape, rhs shape, ((lhs contracting, rhs contracting), (lhs batch, rhs batch)))
DOTS = [
    ('matmul', (5, 7), (7, 3), (((1,), (0,)), ((), ()))),
    ('vecmat', (7,), (7, 3), (((0,), (0,)), ((), ()))),
    ('matvec', (5, 7), (7,), (((1,), (0,)), ((), ()))),
    ('inner', (9,), (9,), (((0,), (0,)), ((), ()))),
    ('outer', (4,), (3,), (((), ()), ((), ()))),
    ('lhs_transposed', (7, 5), (7, 3), (((0,), (0,)), ((), ()))),
    ('rhs_transposed', (5, 7), (3, 7), (((1,), (1,)), ((), ()))),
    ('batch', (2, 5, 7), (2, 7, 3), (((2,), (1,)), ((0,), (0,)))),
    ('batch_middle', (5, 2, 7), (7, 2, 3), (((2,), (0,)), ((1,), (1,)))),
    ('two_contracting', (3, 4, 5), (4, 5, 2), (((1, 2), (0, 1)), ((), ()))),
    ('two_batch', (2, 3, 4, 5), (2, 3, 5, 6), (((3,), (2,)), ((0, 1), (0, 1)))),
]


def dots():
    out = []
    for name, ls, rs, dn in DOTS:
        for dt in ['f32', 'f64', 'bf16', 'f16', 's32', 'c64']:
            if dt != 'f32' and name not in ('matmul', 'batch', 'two_contracting'):
                continue
            out.append(Case('dot', 'dot_%s_%s' % (name, dt),
                            partial(lax.dot_general, dimension_numbers=dn),
                            [values(dt, ls, specials=False), values(dt, rs, specials=False)],
                            'exact' if dt == 's32' else 'acc'))
    for dt, pt in [('bf16', 'f32'), ('f16', 'f32'), ('s8', 's32')]:
        out.append(Case('dot', 'dot_matmul_%s_to_%s' % (dt, pt),
                        lambda a, b, pt=pt: lax.dot(a, b, preferred_element_type={'f32': np.float32,
                                                                                  's32': np.int32}[pt]),
                        [values(dt, (5, 7), specials=False), values(dt, (7, 3), specials=False)], 'acc'))
    out.append(Case('dot', 'dot_large_f32', lambda a, b: a @ b,
                    [values('f32', (64, 96), specials=False), values('f32', (96, 48), specials=False)],
                    'acc'))
    return out


# (name, lhs NCHW-ish shape, kernel shape, keyword arguments of conv_general_dilated)
CONVS = [
    ('valid', (2, 3, 8, 8), (4, 3, 3, 3), dict(window_strides=(1, 1), padding='VALID')),
    ('same', (2, 3, 8, 8), (4, 3, 3, 3), dict(window_strides=(1, 1), padding='SAME')),
    ('strided', (1, 3, 9, 9), (4, 3, 3, 3), dict(window_strides=(2, 2), padding='SAME')),
    ('explicit_pad', (1, 2, 7, 6), (3, 2, 2, 3), dict(window_strides=(1, 2), padding=((2, 1), (0, 3)))),
    ('rhs_dilated', (1, 2, 9, 9), (3, 2, 3, 3), dict(window_strides=(1, 1), padding='VALID',
                                                     rhs_dilation=(2, 2))),
    ('lhs_dilated', (1, 2, 5, 5), (3, 2, 3, 3), dict(window_strides=(1, 1), padding=((2, 2), (2, 2)),
                                                     lhs_dilation=(2, 2))),
    ('grouped', (2, 4, 6, 6), (6, 2, 3, 3), dict(window_strides=(1, 1), padding='SAME',
                                                 feature_group_count=2)),
    ('depthwise', (1, 4, 6, 6), (4, 1, 3, 3), dict(window_strides=(1, 1), padding='SAME',
                                                   feature_group_count=4)),
    ('batch_grouped', (4, 2, 5, 5), (4, 2, 3, 3), dict(window_strides=(1, 1), padding='VALID',
                                                       batch_group_count=2)),
    ('nhwc', (2, 8, 8, 3), (3, 3, 3, 4), dict(window_strides=(1, 1), padding='SAME',
                                              dimension_numbers=('NHWC', 'HWIO', 'NHWC'))),
    ('conv1d', (2, 3, 10), (4, 3, 3), dict(window_strides=(2,), padding='SAME')),
    ('conv3d', (1, 2, 4, 5, 4), (3, 2, 2, 3, 2), dict(window_strides=(1, 1, 1), padding='VALID')),
    ('pointwise', (2, 8, 5, 5), (16, 8, 1, 1), dict(window_strides=(1, 1), padding='VALID')),
]


def convs():
    out = []
    for name, ls, ks, kw in CONVS:
        for dt in ['f32', 'f64', 'f16', 'bf16']:
            if dt != 'f32' and name not in ('same', 'grouped', 'nhwc'):
                continue
            out.append(Case('conv', 'conv_%s_%s' % (name, dt),
                            partial(lax.conv_general_dilated, **kw),
                            [values(dt, ls, specials=False), values(dt, ks, specials=False)], 'acc'))

    out.append(Case('conv', 'conv_c64', partial(lax.conv_general_dilated, window_strides=(1, 1),
                                                padding='SAME'),
                    [values('c64', (1, 2, 5, 5), specials=False), values('c64', (3, 2, 3, 3), specials=False)],
                    'acc'))
    out.append(Case('conv', 'conv_s8_to_s32',
                    lambda x, k: lax.conv_general_dilated(x, k, (1, 1), 'VALID',
                                                          preferred_element_type=np.int32),
                    [values('s8', (1, 2, 6, 6), specials=False), values('s8', (3, 2, 3, 3), specials=False)],
                    'exact'))
    out.append(Case('conv', 'conv_transpose',
                    lambda x, k: lax.conv_transpose(x, k, (2, 2), 'SAME',
                                                    dimension_numbers=('NHWC', 'HWIO', 'NHWC')),
                    [values('f32', (1, 4, 4, 3), specials=False), values('f32', (3, 3, 3, 2), specials=False)],
                    'acc'))

    def grads(x, k):	# the two backward convolutions XLA emits for a gradient
        f = partial(lax.conv_general_dilated, window_strides=(2, 2), padding='SAME',
                    dimension_numbers=('NHWC', 'HWIO', 'NHWC'))
        return jax_grad2(lambda a, b: jnp.sum(jnp.tanh(f(a, b))), x, k)
    out.append(Case('conv', 'conv_backward_f32', grads,
                    [values('f32', (2, 7, 7, 3), specials=False),
                     values('f32', (3, 3, 3, 4), specials=False)], 'acc'))
    return out


def jax_grad2(f, a, b):
    import jax
    return jax.grad(f, argnums=(0, 1))(a, b)


def reductions():
    out = []
    red = [('sum', jnp.sum, ['f32', 'f64', 'f16', 'bf16', 's32', 'u8', 'c64'], 'acc'),
           ('prod', jnp.prod, ['f32', 's32'], 'acc'),
           ('max', jnp.max, ['f32', 'f64', 'bf16', 's8', 'u32'], 'exact'),
           ('min', jnp.min, ['f32', 'f16', 's64'], 'exact'),
           ('all', jnp.all, ['pred'], 'exact'), ('any', jnp.any, ['pred'], 'exact'),
           ('argmax', jnp.argmax, ['f32', 'bf16', 's32'], 'exact'),
           ('argmin', jnp.argmin, ['f32', 'f64'], 'exact')]
    for name, fn, dts, tol in red:
        for dt in dts:
            for axes in [None, 0, 1]:
                if axes is None and name in ('argmax', 'argmin'):
                    continue
                dom = 'small' if name == 'prod' and dt[0] == 'f' else 'any'
                shape = (6, 5) if name == 'prod' else (7, 13)
                mk = values(dt, shape, dom, specials=False) if dt != 's32' or name != 'prod' else \
                    ints('s32', shape, -3, 4)
                out.append(Case('reduce', 'reduce_%s_%s_%s' % (name, dt, 'all' if axes is None else axes),
                                lambda a, fn=fn, axes=axes: fn(a, axis=axes), [mk], tol))
    for name, fn in [('and', lax.reduce_and), ('or', lax.reduce_or), ('xor', lax.reduce_xor)]:
        out.append(Case('reduce', 'reduce_bits_%s_u32' % name, lambda a, fn=fn: fn(a, axes=(1,)),
                        [values('u32', (5, 7), 'full', specials=False)], 'exact'))
    out.append(Case('reduce', 'reduce_long_f16_sum', lambda a: jnp.sum(a),
                    [values('f16', (4096,), 'pos', specials=False)], 'acc'))
    out.append(Case('reduce', 'reduce_nan_max', lambda a: (jnp.max(a), jnp.argmax(a), jnp.min(a)),
                    [values('f32', (24,))], 'exact'))
    out.append(Case('reduce', 'reduce_variadic_argmax',
                    lambda a: lax.reduce((a, lax.broadcasted_iota(np.int32, a.shape, 1)),
                                         (np.float32(-np.inf), np.int32(0)),
                                         lambda x, y: (lax.max(x[0], y[0]),
                                                       lax.select(x[0] >= y[0], x[1], y[1])), (1,)),
                    [values('f32', (5, 9), specials=False)], 'exact'))
    return out


def cumulative():
    out = []
    for name, fn, dts in [('cumsum', jnp.cumsum, ['f32', 'f64', 's32', 'bf16']),
                          ('cumprod', jnp.cumprod, ['f32']),
                          ('cummax', lax.cummax, ['f32', 's32']),
                          ('cummin', lax.cummin, ['f32']),
                          ('logcumsumexp', lax.cumlogsumexp, ['f32'])]:
        for dt in dts:
            for axis in (0, 1):
                dom = 'small' if name == 'cumprod' else 'any'
                out.append(Case('cumulative', '%s_%s_%d' % (name, dt, axis),
                                lambda a, fn=fn, axis=axis: fn(a, axis=axis),
                                [values(dt, (9, 11), dom, specials=False)],
                                'exact' if name in ('cummax', 'cummin') or dt == 's32' else 'acc'))
    out.append(Case('cumulative', 'cumsum_reverse_f32', lambda a: lax.cumsum(a, axis=0, reverse=True),
                    [values('f32', (33,), specials=False)], 'acc'))
    return out


def windows():
    out = []

    def pool(kind, win, stride, pad):
        def f(a):
            if kind == 'max':
                return lax.reduce_window(a, -np.inf, lax.max, win, stride, pad)
            s = lax.reduce_window(a, 0.0, lax.add, win, stride, pad)
            return s / np.prod(win)
        return f
    for kind in ('max', 'avg'):
        for name, win, stride, pad in [('2x2', (1, 2, 2, 1), (1, 2, 2, 1), 'VALID'),
                                       ('3x3s2_same', (1, 3, 3, 1), (1, 2, 2, 1), 'SAME'),
                                       ('3x3s1', (1, 3, 3, 1), (1, 1, 1, 1), 'VALID'),
                                       ('pad', (1, 2, 3, 1), (1, 1, 2, 1), ((0, 0), (1, 1), (2, 0), (0, 0)))]:
            out.append(Case('window', 'pool_%s_%s' % (kind, name), pool(kind, win, stride, pad),
                            [values('f32', (2, 7, 8, 3), specials=False)],
                            'exact' if kind == 'max' else 'acc'))
    out.append(Case('window', 'pool_max_bf16', pool('max', (1, 2, 2, 1), (1, 2, 2, 1), 'VALID'),
                    [values('bf16', (1, 6, 6, 2), specials=False)], 'exact'))
    out.append(Case('window', 'reduce_window_dilated',
                    lambda a: lax.reduce_window(a, 0.0, lax.add, (2, 3), (1, 2), 'VALID',
                                                window_dilation=(2, 1), base_dilation=(1, 2)),
                    [values('f32', (7, 8), specials=False)], 'acc'))
    out.append(Case('window', 'reduce_window_s32_min',
                    lambda a: lax.reduce_window(a, np.int32(2**31 - 1), lax.min, (3,), (2,), 'SAME'),
                    [values('s32', (15,), specials=False)], 'exact'))

    def maxpool_grad(a):
        import jax
        return jax.grad(lambda x: jnp.sum(lax.reduce_window(x, -np.inf, lax.max, (1, 3, 3, 1),
                                                            (1, 2, 2, 1), 'SAME') ** 2))(a)
    out.append(Case('window', 'select_and_scatter_maxpool_grad', maxpool_grad,
                    [values('f32', (2, 7, 7, 2), specials=False)], 'acc'))

    # windows of over 64 elements: loops over the offsets on the device
    def maxpool_grad_9x9(a):
        import jax
        return jax.grad(lambda x: jnp.sum(lax.reduce_window(x, -np.inf, lax.max, (1, 9, 9, 1),
                                                            (1, 2, 2, 1), 'SAME') ** 2))(a)
    out.append(Case('window', 'select_and_scatter_maxpool_grad_9x9', maxpool_grad_9x9,
                    [values('f32', (1, 12, 13, 2), specials=False)], 'acc'))

    def argmax_pool(a):
        def pick(x, y):
            keep = (x[0] > y[0]) | ((x[0] == y[0]) & (x[1] < y[1]))
            return (jnp.where(keep, x[0], y[0]), jnp.where(keep, x[1], y[1]))
        idx = lax.broadcasted_iota(np.int32, a.shape, 1)
        return lax.reduce_window((a, idx), (np.float32(-np.inf), np.int32(-1)), pick,
                                 (9, 8), (2, 3), 'SAME')
    out.append(Case('window', 'reduce_window_argmax_9x8', argmax_pool,
                    [values('f32', (11, 14), specials=False)], 'exact'))
    return out


GROUPS = [dots, convs, reductions, cumulative, windows]
