# SPDX-License-Identifier: MIT
"""Cases for the opcodes that move, index, reduce, contract, sort, loop
and draw random numbers.  Expected values come from numpy written the
plain way (explicit dilation and padding for windows and convolutions,
loops where numpy has no such operation) and from the generators'
published definitions, never from libxrt."""
import math
import struct
from fractions import Fraction

import numpy as np

G = None     # the main module: const, case, shape, fmt_array, round_float, ...

ADD = '''%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = f32[] add(%a, %b)
}

'''
SUB = '''%sub (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = f32[] subtract(%a, %b)
}

'''
MAX = '''%max (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = f32[] maximum(%a, %b)
}

'''
KEEP = '''%keep (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  ROOT %b = f32[] parameter(1)
}

'''
GE = '''%ge (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = pred[] compare(%a, %b), direction=GE
}

'''


def f32(a):
    return np.array(a, dtype=np.float64).astype(np.float32).astype(np.float64)


def one(name, body, t, value, tol=None, comps=''):
    value = np.asarray(value, dtype=object)
    G.case(name, body, G.shape(t, value.shape), G.fmt_array(t, value), tol, comps)


def rooted(t, dims, expr):
    return '  ROOT r = %s %s' % (G.shape(t, dims), expr)


def movement():
    x = f32(np.arange(6).reshape(2, 3) + 1)
    for t, dims, d in (('s32', [5], 0), ('f32', [2, 3], 1), ('u8', [4, 2, 2], 0),
                       ('bf16', [3], 0), ('s64', [0], 0)):
        one('iota_%s_%d' % (t, len(dims)), [rooted(t, dims, 'iota(), iota_dimension=%d' % d)],
            t, np.indices(dims)[d])
    one('get_tuple_element', [G.const('x', 'f32', x), G.const('y', 's32', [7, 8]),
                              '  t = (f32[2,3], s32[2]) tuple(x, y)',
                              rooted('s32', [2], 'get-tuple-element(t), index=1')],
        's32', [7, 8])
    G.case('tuple_out', [G.const('x', 'f32', [1.5]), G.const('y', 's32', 3),
                         '  ROOT t = (f32[1], s32[]) tuple(x, y)'],
           '(f32[1], s32[])', '({1.5}, 3)')
    layout = '  x = f32[2,3]{0,1} constant({{1, 2, 3}, {4, 5, 6}})'
    one('copy_layout', [layout, '  ROOT r = f32[2,3]{1,0} copy(x)'], 'f32', x)
    one('bitcast_column_major', [layout, '  ROOT r = f32[3,2]{1,0} bitcast(x)'], 'f32', x.T)
    one('bitcast_row_major', [G.const('x', 'f32', x), rooted('f32', [3, 2], 'bitcast(x)')],
        'f32', x.reshape(3, 2))
    for dims in ([3, 2], [6], [1, 6, 1]):
        one('reshape_%s' % '_'.join(map(str, dims)),
            [G.const('x', 'f32', x), rooted('f32', dims, 'reshape(x)')], 'f32', x.reshape(dims))
    one('reshape_scalar', [G.const('x', 'f32', 2.5), rooted('f32', [1, 1], 'reshape(x)')],
        'f32', [[2.5]])
    one('reshape_empty', [G.const('x', 'f32', np.zeros((0, 3))), rooted('f32', [3, 0], 'reshape(x)')],
        'f32', np.zeros((3, 0)))
    v = f32([1, 2, 3])
    one('broadcast_row', [G.const('x', 'f32', v), rooted('f32', [2, 3], 'broadcast(x), dimensions={1}')],
        'f32', np.broadcast_to(v, (2, 3)))
    one('broadcast_col', [G.const('x', 'f32', v), rooted('f32', [3, 2], 'broadcast(x), dimensions={0}')],
        'f32', np.broadcast_to(v[:, None], (3, 2)))
    one('broadcast_scalar', [G.const('x', 'f32', -0.5), rooted('f32', [2, 2], 'broadcast(x), dimensions={}')],
        'f32', np.full((2, 2), -0.5))
    s = np.arange(6).reshape(2, 3)
    one('broadcast_inner', [G.const('x', 's32', s), rooted('s32', [4, 2, 5, 3], 'broadcast(x), dimensions={1,3}')],
        's32', np.broadcast_to(s[None, :, None, :], (4, 2, 5, 3)))
    cube = np.arange(24).reshape(2, 3, 4)
    one('transpose_201', [G.const('x', 's32', cube), rooted('s32', [4, 2, 3], 'transpose(x), dimensions={2,0,1}')],
        's32', np.transpose(cube, (2, 0, 1)))
    m = np.arange(30).reshape(5, 6)
    one('slice_strided', [G.const('x', 's32', m), rooted('s32', [2, 2], 'slice(x), slice={[1:5:2], [0:6:3]}')],
        's32', m[1:5:2, 0:6:3])
    one('slice_empty', [G.const('x', 's32', m), rooted('s32', [0, 6], 'slice(x), slice={[2:2], [0:6]}')],
        's32', m[2:2, :])
    a, b = np.arange(6).reshape(2, 3), np.arange(9).reshape(3, 3) + 10
    one('concatenate_rows', [G.const('a', 's32', a), G.const('b', 's32', b), '  c = s32[0,3] constant({})',
                             rooted('s32', [5, 3], 'concatenate(a, c, b), dimensions={0}')],
        's32', np.concatenate([a, b], 0))
    one('concatenate_cols', [G.const('a', 's32', a), G.const('b', 's32', a + 100),
                             rooted('s32', [2, 6], 'concatenate(a, b), dimensions={1}')],
        's32', np.concatenate([a, a + 100], 1))
    one('reverse_02', [G.const('x', 's32', cube), rooted('s32', [2, 3, 4], 'reverse(x), dimensions={0,2}')],
        's32', cube[::-1, :, ::-1])
    pad_cases()


def pad_ref(x, value, cfg):
    """Interior padding by explicit insertion, then edges (negative ones crop)."""
    for d, (lo, hi, interior) in enumerate(cfg):
        n = x.shape[d]
        if interior and n:
            shape = list(x.shape)
            shape[d] = n + (n - 1) * interior
            y = np.full(shape, value, dtype=x.dtype)
            sl = [slice(None)] * x.ndim
            sl[d] = slice(0, None, interior + 1)
            y[tuple(sl)] = x
            x = y
        for amount, at_end in ((lo, False), (hi, True)):
            if amount >= 0:
                shape = list(x.shape)
                shape[d] = amount
                block = np.full(shape, value, dtype=x.dtype)
                x = np.concatenate([x, block] if at_end else [block, x], d)
            else:
                sl = [slice(None)] * x.ndim
                sl[d] = slice(0, x.shape[d] + amount) if at_end else slice(-amount, None)
                x = x[tuple(sl)]
    return x


def pad_cases():
    x = np.arange(6, dtype=np.float64).reshape(2, 3) + 1
    for name, cfg in (('edges', [(1, 2, 0), (0, 1, 0)]), ('interior', [(0, 0, 2), (1, 1, 1)]),
                      ('negative', [(-1, 1, 1), (0, -2, 0)])):
        text = 'x'.join('%d_%d_%d' % c if c[2] else '%d_%d' % c[:2] for c in cfg)
        y = pad_ref(x, -1.0, cfg)
        one('pad_%s' % name, [G.const('x', 'f32', x), G.const('v', 'f32', -1.0),
                              rooted('f32', list(y.shape), 'pad(x, v), padding=%s' % text)],
            'f32', y)


def indexing():
    m = np.arange(30).reshape(5, 6)
    one('dynamic_slice_clamped', [G.const('x', 's32', m), G.const('i', 's32', 3), G.const('j', 's32', -2),
                                  rooted('s32', [3, 4], 'dynamic-slice(x, i, j), dynamic_slice_sizes={3,4}')],
        's32', m[2:5, 0:4])
    one('dynamic_slice_u8_start', [G.const('x', 's32', m), G.const('i', 'u8', 200), G.const('j', 'u8', 1),
                                   rooted('s32', [2, 2], 'dynamic-slice(x, i, j), dynamic_slice_sizes={2,2}')],
        's32', m[3:5, 1:3])
    z = np.zeros((4, 4), dtype=np.int64)
    u = np.arange(6).reshape(2, 3) + 1
    y = z.copy()
    y[2:4, 1:4] = u
    one('dynamic_update_slice_clamped', [G.const('x', 's32', z), G.const('u', 's32', u), G.const('i', 's32', 3),
                                         G.const('j', 's32', 2),
                                         rooted('s32', [4, 4], 'dynamic-update-slice(x, u, i, j)')],
        's32', y)
    table = f32(np.arange(15).reshape(5, 3))
    ids = [0, 4, 7, -1]
    one('gather_rows_clamped', [G.const('t', 'f32', table), G.const('i', 's32', ids),
                                rooted('f32', [4, 3], 'gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, '
                                       'start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}')],
        'f32', table[np.clip(ids, 0, 4)])
    grid = f32(np.arange(20).reshape(4, 5))
    pts = [[0, 0], [3, 4], [2, 1]]
    exp = np.stack([grid[min(max(r, 0), 2):min(max(r, 0), 2) + 2, min(max(c, 0), 3):min(max(c, 0), 3) + 2]
                    for r, c in pts])
    one('gather_windows', [G.const('g', 'f32', grid), G.const('p', 's32', pts),
                           rooted('f32', [3, 2, 2], 'gather(g, p), offset_dims={1,2}, collapsed_slice_dims={}, '
                                  'start_index_map={0,1}, index_vector_dim=1, slice_sizes={2,2}')],
        'f32', exp)
    # Batching dimensions (take_along_axis): row b's indices pick from row b;
    # the index vector dimension is implicit, and 9 clamps to 3.
    x = f32(np.arange(12).reshape(3, 4))
    ix = [[3, 0], [1, 1], [2, 9]]
    one('gather_batching_take_along_axis',
        [G.const('x', 'f32', x), G.const('i', 's32', ix),
         rooted('f32', [3, 2], 'gather(x, i), offset_dims={}, collapsed_slice_dims={1}, '
                'start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, '
                'index_vector_dim=2, slice_sizes={1,1}')],
        'f32', np.take_along_axis(x, np.clip(ix, 0, 3), axis=1))
    scatter_cases()


PAIR_ADD_KEEP = '''%pair (a: f32[], b: s32[], c: f32[], d: s32[]) -> (f32[], s32[]) {
  %a = f32[] parameter(0)
  %b = s32[] parameter(1)
  %c = f32[] parameter(2)
  %d = s32[] parameter(3)
  %s = f32[] add(%c, %a)
  ROOT %r = (f32[], s32[]) tuple(%s, %d)
}

'''
PAIR_ARGMAX = '''%argmax (a: f32[], b: s32[], c: f32[], d: s32[]) -> (f32[], s32[]) {
  %a = f32[] parameter(0)
  %b = s32[] parameter(1)
  %c = f32[] parameter(2)
  %d = s32[] parameter(3)
  %gt = pred[] compare(%c, %a), direction=GT
  %v = f32[] select(%gt, %c, %a)
  %i = s32[] select(%gt, %d, %b)
  ROOT %r = (f32[], s32[]) tuple(%v, %i)
}

'''


def variadic_scatters():
    """Two operands scattered at the same indices, in update order: a sum
    beside a replace (each result its own pair), and an argmax pair."""
    vals, tags = f32([1, 2, 3, 4]), [10, 20, 30, 40]
    idx, uv, ut = [[2], [0], [2], [7], [3]], f32([0.5, -1, 4, 9, -8]), [1, 2, 3, 4, 5]
    sv, st = vals.copy(), list(tags)
    av, at = vals.copy(), list(tags)
    for (i,), v, t in zip(idx, uv, ut):
        if 0 <= i < 4:
            sv[i] += v
            st[i] = t
            if v > av[i]:
                av[i], at[i] = v, t
    dn = ('update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, '
          'index_vector_dim=1')
    for name, comp, fn, ev, et in (('scatter_two_operands_add_and_replace', PAIR_ADD_KEEP, 'pair', sv, st),
                                   ('scatter_two_operands_argmax', PAIR_ARGMAX, 'argmax', av, at)):
        G.case(name, [G.const('x', 'f32', vals), G.const('y', 's32', tags), G.const('i', 's32', idx),
                      G.const('u', 'f32', uv), G.const('w', 's32', ut),
                      '  ROOT r = (f32[4], s32[4]) scatter(x, y, i, u, w), %s, to_apply=%%%s' % (dn, fn)],
               '(f32[4], s32[4])',
               '(%s, %s)' % (G.fmt_array('f32', np.asarray(ev, dtype=object)),
                             G.fmt_array('s32', np.asarray(et, dtype=object))), comps=comp)


def scatter_cases():
    variadic_scatters()
    base = f32([1, 2, 3, 4, 5])
    idx, upd = [[1], [3], [1], [9]], f32([10, 20, 30, 40])
    exp = base.copy()
    for (i,), v in zip(idx, upd):
        if 0 <= i < 5:
            exp[i] += v
    one('scatter_add_duplicates', [G.const('x', 'f32', base), G.const('i', 's32', idx), G.const('u', 'f32', upd),
                                   rooted('f32', [5], 'scatter(x, i, u), update_window_dims={}, '
                                          'inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, '
                                          'index_vector_dim=1, to_apply=%add')],
        'f32', exp, comps=ADD)
    rows = f32(np.zeros((4, 3)))
    upd2 = f32([[1, 2, 3], [4, 5, 6]])
    exp2 = rows.copy()
    exp2[2] += upd2[0]
    exp2[0] += upd2[1]
    one('scatter_rows', [G.const('x', 'f32', rows), G.const('i', 's32', [[2], [0]]), G.const('u', 'f32', upd2),
                         rooted('f32', [4, 3], 'scatter(x, i, u), update_window_dims={1}, '
                                'inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, '
                                'index_vector_dim=1, to_apply=%add')],
        'f32', exp2, comps=ADD)
    # A window of two rows starting at row 3 of 4 does not fit: XLA skips it.
    win = f32(np.ones((2, 2, 3)))
    exp3 = rows.copy()
    exp3[1:3] += 1
    one('scatter_window_out_of_bounds', [G.const('x', 'f32', rows), G.const('i', 's32', [[1], [3]]),
                                         G.const('u', 'f32', win),
                                         rooted('f32', [4, 3], 'scatter(x, i, u), update_window_dims={1,2}, '
                                                'inserted_window_dims={}, scatter_dims_to_operand_dims={0}, '
                                                'index_vector_dim=1, to_apply=%add')],
        'f32', exp3, comps=ADD)
    # A computation SCATTER has no combiner for: 2x2 windows subtracted in
    # update order, row and column indices swapped, one window skipped.
    base = f32(np.arange(24).reshape(4, 6))
    idx, upd = [[1, 0], [5, 3], [2, 1], [1, 0]], f32(np.arange(16).reshape(4, 2, 2) * 0.5 + 1)
    exp4 = base.copy()
    for (c, r), u in zip(idx, upd):
        if 0 <= r <= 2 and 0 <= c <= 4:
            exp4[r:r + 2, c:c + 2] -= u
    one('scatter_subtract_windows', [G.const('x', 'f32', base), G.const('i', 'u8', idx),
                                     G.const('u', 'f32', upd),
                                     rooted('f32', [4, 6], 'scatter(x, i, u), update_window_dims={1,2}, '
                                            'inserted_window_dims={}, scatter_dims_to_operand_dims={1,0}, '
                                            'index_vector_dim=1, to_apply=%sub')],
        'f32', exp4, comps=SUB)
    # Batching dimensions (vmap of x.at[i].add(u)): update (j, b) adds to row b;
    # the batch pairs indices dimension 1 with operand dimension 0; 7 is skipped.
    idx, upd = [[1, 4], [1, 0], [7, 2]], f32([[1, 2], [3, 4], [5, 6]])
    exp4 = f32(np.zeros((2, 5)))
    for j in range(3):
        for b in range(2):
            if 0 <= idx[j][b] < 5:
                exp4[b, idx[j][b]] += upd[j][b]
    one('scatter_batching_vmapped_add',
        [G.const('x', 'f32', np.zeros((2, 5))), G.const('i', 's32', idx), G.const('u', 'f32', upd),
         rooted('f32', [2, 5], 'scatter(x, i, u), update_window_dims={}, inserted_window_dims={1}, '
                'scatter_dims_to_operand_dims={1}, input_batching_dims={0}, '
                'scatter_indices_batching_dims={1}, index_vector_dim=2, to_apply=%add')],
        'f32', exp4, comps=ADD)


def window_ref(x, init, f, cfg):
    """Materialize base dilation and padding (holes and pads None), then slide."""
    nd = x.ndim
    arr = np.array(x, dtype=object)
    for d, (size, stride, lo, hi, bdil, wdil) in enumerate(cfg):
        n = arr.shape[d]
        shape = list(arr.shape)
        shape[d] = (n - 1) * bdil + 1 if n else 0
        y = np.full(shape, None, dtype=object)
        sl = [slice(None)] * nd
        sl[d] = slice(0, None, bdil)
        y[tuple(sl)] = arr
        pads = [(0, 0)] * nd
        pads[d] = (max(lo, 0), max(hi, 0))
        y = np.pad(y, pads, constant_values=None)
        sl = [slice(None)] * nd
        sl[d] = slice(-lo if lo < 0 else 0, y.shape[d] + hi if hi < 0 else None)
        arr = y[tuple(sl)]
    out_dims = [max(0, (arr.shape[d] - ((c[0] - 1) * c[5] + 1)) // c[1] + 1) for d, c in enumerate(cfg)]
    out = np.empty(out_dims, dtype=object)
    for o in np.ndindex(*out_dims):
        acc = init
        for w in np.ndindex(*[c[0] for c in cfg]):
            v = arr[tuple(o[d] * cfg[d][1] + w[d] * cfg[d][5] for d in range(nd))]
            if v is not None:
                acc = f(acc, v)
        out[o] = acc
    return out


def window_text(cfg):
    keys = (('size', 0), ('stride', 1), ('lhs_dilate', 4), ('rhs_dilate', 5))
    parts = ['%s=%s' % (k, 'x'.join(str(c[i]) for c in cfg)) for k, i in keys]
    parts.insert(2, 'pad=%s' % 'x'.join('%d_%d' % (c[2], c[3]) for c in cfg))
    return '{%s}' % ' '.join(parts)


def reductions():
    x = f32([[1, -2, 3], [4, 5, -6]])
    for dims, exp, t in (('1', x.sum(1), [2]), ('0', x.sum(0), [3]), ('0,1', x.sum(), [])):
        one('reduce_sum_%s' % dims.replace(',', ''), [G.const('x', 'f32', x), G.const('z', 'f32', 0.0),
                                                     rooted('f32', t, 'reduce(x, z), dimensions={%s}, to_apply=%%add' % dims)],
            'f32', exp, comps=ADD)
    # A long 16-bit sum accumulates in f32 (every partial sum here is exact
    # in f32) and rounds once: in 16 bits it would stop growing near 256.
    k = np.arange(4096)
    vals16 = (k % 7) * 0.125 + 0.0625
    for t in ('f16', 'bf16'):
        add16 = ADD.replace('f32[]', t + '[]').replace('%add ', '%add16 ')
        one('reduce_sum_%s_long' % t,
            ['  i = s32[4096] iota(), iota_dimension=0', '  s = s32[] constant(7)',
             '  seven = s32[4096] broadcast(s), dimensions={}', '  m = s32[4096] remainder(i, seven)',
             '  c = %s[4096] convert(m)' % t, '  e = %s[] constant(0.125)' % t,
             '  eb = %s[4096] broadcast(e), dimensions={}' % t, '  h = %s[] constant(0.0625)' % t,
             '  hb = %s[4096] broadcast(h), dimensions={}' % t, '  x0 = %s[4096] multiply(c, eb)' % t,
             '  x = %s[4096] add(x0, hb)' % t, '  z = %s[] constant(0)' % t,
             '  ROOT r = %s[] reduce(x, z), dimensions={0}, to_apply=%%add16' % t],
            t, G.round_float(float(vals16.sum()), t), comps=add16)
    one('reduce_max_init', [G.const('x', 'f32', x), G.const('z', 'f32', -math.inf),
                            rooted('f32', [2], 'reduce(x, z), dimensions={1}, to_apply=%max')],
        'f32', x.max(1), comps=MAX)
    one('reduce_empty', ['  x = f32[0,3] constant({})', G.const('z', 'f32', 7.0),
                         rooted('f32', [3], 'reduce(x, z), dimensions={0}, to_apply=%add')],
        'f32', [7.0, 7.0, 7.0], comps=ADD)
    argmax = '''%argmax (a: f32[], i: s32[], b: f32[], j: s32[]) -> (f32[], s32[]) {
  %a = f32[] parameter(0)
  %i = s32[] parameter(1)
  %b = f32[] parameter(2)
  %j = s32[] parameter(3)
  %gt = pred[] compare(%a, %b), direction=GT
  %eq = pred[] compare(%a, %b), direction=EQ
  %lt = pred[] compare(%i, %j), direction=LT
  %tie = pred[] and(%eq, %lt)
  %take = pred[] or(%gt, %tie)
  %v = f32[] select(%take, %a, %b)
  %k = s32[] select(%take, %i, %j)
  ROOT %r = (f32[], s32[]) tuple(%v, %k)
}

'''
    vals = f32([[3, 9, 9, 1], [-1, -5, -0.5, -7]])
    G.case('reduce_variadic_argmax', [G.const('x', 'f32', vals), '  i = s32[2,4] iota(), iota_dimension=1',
                                      G.const('z', 'f32', -math.inf), G.const('n', 's32', -1),
                                      '  ROOT r = (f32[2], s32[2]) reduce(x, i, z, n), dimensions={1}, to_apply=%argmax'],
           '(f32[2], s32[2])', '({%s}, {%s})' % (', '.join(repr(float(v)) for v in vals.max(1)),
                                                 ', '.join(str(int(v)) for v in vals.argmax(1))),
           comps=argmax)
    img = f32(np.arange(16).reshape(1, 4, 4, 1) % 7)
    cfg = [(1, 1, 0, 0, 1, 1), (2, 2, 0, 0, 1, 1), (2, 2, 0, 0, 1, 1), (1, 1, 0, 0, 1, 1)]
    one('reduce_window_maxpool', [G.const('x', 'f32', img), G.const('z', 'f32', -math.inf),
                                  rooted('f32', [1, 2, 2, 1], 'reduce-window(x, z), window=%s, to_apply=%%max' % window_text(cfg))],
        'f32', window_ref(img, -math.inf, max, cfg), comps=MAX)
    v = f32([1, 2, 3, 4, 5])
    cfg = [(3, 2, 1, 2, 2, 1)]
    exp = window_ref(v, 0.0, lambda a, b: a + b, cfg)
    one('reduce_window_dilated_padded', [G.const('x', 'f32', v), G.const('z', 'f32', 0.0),
                                         rooted('f32', list(exp.shape), 'reduce-window(x, z), window=%s, to_apply=%%add' % window_text(cfg))],
        'f32', exp, comps=ADD)
    cfg = [(2, 1, 0, 0, 1, 2)]
    exp = window_ref(v, 0.0, lambda a, b: a + b, cfg)
    one('reduce_window_window_dilation', [G.const('x', 'f32', v), G.const('z', 'f32', 0.0),
                                          rooted('f32', list(exp.shape), 'reduce-window(x, z), window=%s, to_apply=%%add' % window_text(cfg))],
        'f32', exp, comps=ADD)
    # padding holds the reducer's identity: all ones for a bitwise and
    iand = '%and (a: s32[], b: s32[]) -> s32[] {\n  %a = s32[] parameter(0)\n  %b = s32[] parameter(1)\n  ROOT %r = s32[] and(%a, %b)\n}\n\n'
    xs = np.array([7, 6, 14, 255, 3, -1], dtype=object)
    cfg = [(2, 1, 1, 1, 1, 1)]
    one('reduce_window_and_s32_padded', [G.const('x', 's32', xs), G.const('z', 's32', -1),
                                         rooted('s32', [7], 'reduce-window(x, z), window=%s, to_apply=%%and' % window_text(cfg))],
        's32', window_ref(xs, -1, lambda a, b: a & b, cfg), comps=iand)
    # five dimensions, every window dimension wider than 1: more than a view holds
    v5 = np.arange(2 * 3 * 2 * 3 * 2).reshape(2, 3, 2, 3, 2).astype(np.float64) % 7 - 3
    cfg = [(2, 1, 0, 0, 1, 1), (2, 1, 1, 0, 1, 1), (2, 1, 0, 0, 1, 1), (2, 2, 0, 1, 1, 1),
           (2, 1, 0, 0, 1, 1)]
    exp = window_ref(v5, 0.0, lambda a, b: a + b, cfg)
    one('reduce_window_rank5', [G.const('x', 'f32', v5), G.const('z', 'f32', 0.0),
                                rooted('f32', list(exp.shape), 'reduce-window(x, z), window=%s, to_apply=%%add' % window_text(cfg))],
        'f32', exp, comps=ADD)
    select_and_scatter()


def select_and_scatter():
    x = f32([[1, 5, 2, 0], [3, 5, 4, 8], [9, 1, 1, 2], [0, 3, 7, 7]])
    src = f32([[10, 20], [30, 40]])
    exp = np.zeros((4, 4))
    for bi in range(2):
        for bj in range(2):
            win = x[2 * bi:2 * bi + 2, 2 * bj:2 * bj + 2]
            r, c = np.unravel_index(np.argmax(win), win.shape)     # first maximum
            exp[2 * bi + r, 2 * bj + c] += src[bi, bj]
    one('select_and_scatter_maxpool_grad', [G.const('x', 'f32', x), G.const('s', 'f32', src), G.const('z', 'f32', 0.0),
                                            rooted('f32', [4, 4], 'select-and-scatter(x, s, z), window={size=2x2 stride=2x2}, '
                                                   'select=%ge, scatter=%add')],
        'f32', exp, comps=GE + ADD)
    x1, s1 = f32([1, 3, 3, 2]), f32([1, 10, 100])
    exp1 = np.zeros(4)
    for k in range(3):
        exp1[k + int(np.argmax(x1[k:k + 2]))] += s1[k]
    one('select_and_scatter_overlapping', [G.const('x', 'f32', x1), G.const('s', 'f32', s1), G.const('z', 'f32', 0.0),
                                           rooted('f32', [4], 'select-and-scatter(x, s, z), window={size=2 stride=1}, '
                                                  'select=%ge, scatter=%add')],
        'f32', exp1, comps=GE + ADD)
    # Overlapping 2-d windows whose scatter keeps the source: windows apply
    # in source (row-major) order, so the last window to select a position wins.
    x2 = f32([[1, 5, 2, 0], [3, 5, 4, 8], [9, 1, 1, 2], [0, 3, 7, 7]])
    s2 = f32(np.arange(9).reshape(3, 3) + 1)
    exp2 = np.zeros((4, 4))
    for bi in range(3):
        for bj in range(3):
            win = x2[bi:bi + 2, bj:bj + 2]
            r, c = np.unravel_index(np.argmax(win), win.shape)
            exp2[bi + r, bj + c] = s2[bi, bj]
    one('select_and_scatter_overlapping_keep_last',
        [G.const('x', 'f32', x2), G.const('s', 'f32', s2), G.const('z', 'f32', 0.0),
         rooted('f32', [4, 4], 'select-and-scatter(x, s, z), window={size=2x2 stride=1x1}, '
                'select=%ge, scatter=%keep')],
        'f32', exp2, comps=GE + KEEP)


def dots():
    a, b = f32(np.arange(6).reshape(2, 3) - 2), f32(np.arange(12).reshape(3, 4) * 0.5)
    one('dot_matmul', [G.const('a', 'f32', a), G.const('b', 'f32', b),
                       rooted('f32', [2, 4], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        'f32', a @ b)
    p, q = f32(np.arange(24).reshape(2, 3, 4) % 5), f32(np.arange(40).reshape(2, 4, 5) % 3)
    one('dot_batched', [G.const('a', 'f32', p), G.const('b', 'f32', q),
                        rooted('f32', [2, 3, 5], 'dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, '
                               'lhs_contracting_dims={2}, rhs_contracting_dims={1}')],
        'f32', np.einsum('bij,bjk->bik', p, q))
    one('dot_outer', [G.const('a', 'f32', [1, 2]), G.const('b', 'f32', [3, 4, 5]),
                      rooted('f32', [2, 3], 'dot(a, b)')], 'f32', np.outer([1, 2], [3, 4, 5]))
    big = np.array([[1 << 30, 3], [5, 1 << 29]], dtype=object)
    prod = big.dot(big)
    one('dot_s32_wraps', [G.const('a', 's32', big), G.const('b', 's32', big),
                          rooted('s32', [2, 2], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        's32', np.vectorize(lambda v: G.wrap(int(v), 's32'), otypes=[object])(prod))
    h = [[0.5, 1.5, -2.0], [3.0, 0.25, 8.0]]
    k = [[1.0, 2.0], [4.0, -1.0], [0.125, 0.5]]
    exact = np.array(h) @ np.array(k)
    one('dot_bf16_to_f32', [G.const('a', 'bf16', h), G.const('b', 'bf16', k),
                            rooted('f32', [2, 2], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        'f32', exact)
    one('dot_f16', [G.const('a', 'f16', h), G.const('b', 'f16', k),
                    rooted('f16', [2, 2], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        'f16', exact)
    one('dot_empty_contraction', [G.const('a', 'f32', np.zeros((2, 0))),
                                  G.const('b', 'f32', np.zeros((0, 3))),
                                  rooted('f32', [2, 3], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        'f32', np.zeros((2, 3)))
    za = [[1 + 2j, -1j], [0.5, 2 - 1j]]
    one('dot_c64', [G.const('a', 'c64', za), G.const('b', 'c64', za),
                    rooted('c64', [2, 2], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        'c64', np.array(za) @ np.array(za))
    # Operands of two types (XLA allows them): both converted exactly first.
    si = np.array([[-128, 127, 5], [3, -7, 100]], dtype=object)
    wi = np.array([[32767, -1], [-32768, 2], [1000, 3]], dtype=object)
    one('dot_mixed_s8_s16_to_s32', [G.const('a', 's8', si), G.const('b', 's16', wi),
                                    rooted('s32', [2, 2], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        's32', si.dot(wi))
    fk = f32([[0.1, 3.0], [-2.5, 1e-3], [7.0, 0.3]])
    one('dot_mixed_bf16_f32', [G.const('a', 'bf16', h), G.const('b', 'f32', fk),
                               rooted('f32', [2, 2], 'dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}')],
        'f32', np.vectorize(lambda v: G.round_float(float(v), 'f32'), otypes=[object])(np.array(h) @ fk),
        tol=(4 * G.EPS['f32'], 1e-30))
    convolutions()


def conv_ref(lhs, rhs, labels, cfg, fgc=1, bgc=1):
    """Convolution the long way: canonical layouts, explicit dilation and padding, groups split."""
    ins, rest = labels.split('_')
    ker, outs = rest.split('->')
    nsp = len(cfg)
    perm_in = [ins.index('b'), ins.index('f')] + [ins.index(str(i)) for i in range(nsp)]
    perm_k = [ker.index('o'), ker.index('i')] + [ker.index(str(i)) for i in range(nsp)]
    x = np.transpose(np.asarray(lhs, dtype=np.float64), perm_in)
    k = np.transpose(np.asarray(rhs, dtype=np.float64), perm_k)
    for d, (size, stride, lo, hi, bdil, wdil, rev) in enumerate(cfg):
        ax = 2 + d
        n = x.shape[ax]
        shape = list(x.shape)
        shape[ax] = (n - 1) * bdil + 1
        y = np.zeros(shape)
        sl = [slice(None)] * x.ndim
        sl[ax] = slice(0, None, bdil)
        y[tuple(sl)] = x
        pads = [(0, 0)] * x.ndim
        pads[ax] = (max(lo, 0), max(hi, 0))
        y = np.pad(y, pads)
        sl = [slice(None)] * x.ndim
        sl[ax] = slice(-lo if lo < 0 else 0, y.shape[ax] + hi if hi < 0 else None)
        x = y[tuple(sl)]
        kn = k.shape[ax]
        shape = list(k.shape)
        shape[ax] = (kn - 1) * wdil + 1
        kk = np.zeros(shape)
        sl = [slice(None)] * k.ndim
        sl[ax] = slice(0, None, wdil)
        kk[tuple(sl)] = np.flip(k, ax) if rev else k
        k = kk
    b, o = x.shape[0] // bgc, k.shape[0]
    osp = [(x.shape[2 + d] - k.shape[2 + d]) // cfg[d][1] + 1 for d in range(nsp)]
    out = np.zeros([b, o] + osp)
    og_f, og_b, ig = o // fgc, o // bgc, x.shape[1] // fgc
    for bi in range(b):
        for oi in range(o):
            fg, bg = oi // og_f, oi // og_b
            xb = x[bg * b + bi, fg * ig:(fg + 1) * ig]
            for pos in np.ndindex(*osp):
                sl = tuple(slice(pos[d] * cfg[d][1], pos[d] * cfg[d][1] + k.shape[2 + d]) for d in range(nsp))
                out[(bi, oi) + pos] = np.sum(xb[(slice(None),) + sl] * k[oi])
    perm_out = [outs.index('b'), outs.index('f')] + [outs.index(str(i)) for i in range(nsp)]
    return np.transpose(out, np.argsort(perm_out))


def conv_window(cfg):
    keys = (('size', 0), ('stride', 1), ('lhs_dilate', 4), ('rhs_dilate', 5))
    parts = ['%s=%s' % (k, 'x'.join(str(c[i]) for c in cfg)) for k, i in keys]
    parts.insert(2, 'pad=%s' % 'x'.join('%d_%d' % (c[2], c[3]) for c in cfg))
    if any(c[6] for c in cfg):
        parts.append('rhs_reversal=%s' % 'x'.join(str(c[6]) for c in cfg))
    return '{%s}' % ' '.join(parts)


def convolutions():
    rng = np.random.RandomState(7)
    specs = [
        ('conv_1d', 'b0f_0io->b0f', (1, 8, 2), (3, 2, 4), [(3, 1, 1, 1, 1, 1, 0)], 1, 1),
        ('conv_nhwc_strided', 'b01f_01io->b01f', (2, 5, 5, 3), (3, 3, 3, 4),
         [(3, 2, 1, 1, 1, 1, 0), (3, 2, 0, 1, 1, 1, 0)], 1, 1),
        ('conv_nchw_dilated', 'bf01_oi01->bf01', (1, 2, 6, 5), (3, 2, 2, 2),
         [(2, 1, 0, 0, 2, 2, 0), (2, 1, 1, -1, 1, 2, 0)], 1, 1),
        ('conv_depthwise', 'b01f_01io->b01f', (1, 4, 4, 3), (2, 2, 1, 6),
         [(2, 1, 0, 1, 1, 1, 0), (2, 1, 1, 0, 1, 1, 0)], 3, 1),
        ('conv_batch_group', 'b01f_01io->b01f', (4, 3, 3, 2), (2, 2, 2, 4),
         [(2, 1, 0, 0, 1, 1, 0), (2, 1, 0, 0, 1, 1, 0)], 1, 2),
        ('conv_reversed', 'b0f_0io->b0f', (1, 5, 1), (3, 1, 1), [(3, 1, 0, 0, 1, 1, 1)], 1, 1),
    ]
    for name, labels, ls, ks, cfg, fgc, bgc in specs:
        lhs = rng.randint(-3, 4, ls).astype(np.float64)
        rhs = rng.randint(-2, 3, ks).astype(np.float64)
        exp = conv_ref(lhs, rhs, labels, cfg, fgc, bgc)
        groups = (', feature_group_count=%d' % fgc if fgc > 1 else '') + \
                 (', batch_group_count=%d' % bgc if bgc > 1 else '')
        one(name, [G.const('x', 'f32', lhs), G.const('k', 'f32', rhs),
                   rooted('f32', list(exp.shape), 'convolution(x, k), window=%s, dim_labels=%s%s'
                          % (conv_window(cfg), labels, groups))],
            'f32', exp)
    # Integer convolutions sum in the result's type (wrapping); a bf16
    # convolution may give f32.
    cfg = [(3, 1, 1, 0, 1, 1, 0), (2, 2, 0, 1, 1, 1, 0)]
    for name, t_in, t_out, lo, hi in (('conv_s8_to_s32', 's8', 's32', -128, 128),
                                      ('conv_u8_to_u32', 'u8', 'u32', 0, 256),
                                      ('conv_s32_wraps', 's32', 's32', -2**20, 2**20),
                                      ('conv_s16_to_s8_wraps', 's16', 's8', -300, 300),
                                      ('conv_bf16_to_f32', 'bf16', 'f32', -64, 64)):
        lhs = rng.randint(lo, hi, (2, 4, 5, 3)).astype(np.float64)
        rhs = rng.randint(lo, hi, (3, 2, 3, 2)).astype(np.float64)
        exp = conv_ref(lhs, rhs, 'b01f_01io->b01f', cfg)   # exact: under 2**53
        if t_out != 'f32':
            exp = np.vectorize(lambda v: G.wrap(int(v), t_out), otypes=[object])(exp)
        body = [G.const('x', t_in, lhs.astype(np.int64) if t_in != 'bf16' else lhs),
                G.const('k', t_in, rhs.astype(np.int64) if t_in != 'bf16' else rhs),
                rooted(t_out, list(exp.shape), 'convolution(x, k), window=%s, dim_labels=%s'
                       % (conv_window(cfg), 'b01f_01io->b01f'))]
        one(name, body, t_out, exp)

    # pred convolutions: an OR over the window of ANDs (XLA's evaluator),
    # or the ANDs counted into s32; sparse inputs, so some outputs are false.
    lhs = (rng.random_sample((2, 4, 5, 3)) < 0.15).astype(np.float64)
    rhs = (rng.random_sample((3, 2, 3, 2)) < 0.3).astype(np.float64)
    exp = conv_ref(lhs, rhs, 'b01f_01io->b01f', cfg)
    for name, t_out, val in (('conv_pred', 'pred', exp != 0), ('conv_pred_to_s32', 's32', exp)):
        body = [G.const('x', 'pred', lhs != 0), G.const('k', 'pred', rhs != 0),
                rooted(t_out, list(exp.shape), 'convolution(x, k), window=%s, dim_labels=%s'
                       % (conv_window(cfg), 'b01f_01io->b01f'))]
        one(name, body, t_out, val.astype(np.int64) if t_out == 's32' else val)

def sorts():
    lt = '''%%lt (a: f32[], b: f32[]%s) -> pred[] {
  %%a = f32[] parameter(0)
  %%b = f32[] parameter(1)%s
  ROOT %%r = pred[] compare(%%a, %%b), direction=%s%s
}

'''
    keys = f32([3, 1, math.nan, -0.0, 2, 0.0, -math.inf, 1])
    order = sorted(range(8), key=lambda i: (G.total_key(keys[i], 'f32'), i))
    one('sort_totalorder', [G.const('x', 'f32', keys),
                            rooted('f32', [8], 'sort(x), dimensions={0}, to_apply=%lt')],
        'f32', keys[order], comps=lt % ('', '', 'LT', ', type=TOTALORDER'))
    k2 = [2, 1, 2, 1, 0, 2]
    v2 = [10, 11, 12, 13, 14, 15]
    idx = sorted(range(6), key=lambda i: (k2[i], i))
    comp = '''%lt2 (a: s32[], b: s32[], c: s32[], d: s32[]) -> pred[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  %c = s32[] parameter(2)
  %d = s32[] parameter(3)
  ROOT %r = pred[] compare(%a, %b), direction=LT
}

'''
    G.case('sort_stable_key_value', [G.const('k', 's32', k2), G.const('v', 's32', v2),
                                     '  ROOT r = (s32[6], s32[6]) sort(k, v), dimensions={0}, is_stable=true, to_apply=%lt2'],
           '(s32[6], s32[6])', '({%s}, {%s})' % (', '.join(str(k2[i]) for i in idx),
                                                 ', '.join(str(v2[i]) for i in idx)), comps=comp)
    m = f32([[3, 1, 2, 5], [0, -1, 7, 7]])
    one('sort_descending_dim1', [G.const('x', 'f32', m),
                                 rooted('f32', [2, 4], 'sort(x), dimensions={1}, to_apply=%lt')],
        'f32', -np.sort(-m, axis=1), comps=lt % ('', '', 'GT', ''))
    ieee_sorts()
    m0 = f32([[3, 1], [0, 5], [2, -1]])
    one('sort_dim0', [G.const('x', 'f32', m0), rooted('f32', [3, 2], 'sort(x), dimensions={0}, to_apply=%lt')],
        'f32', np.sort(m0, axis=0), comps=lt % ('', '', 'LT', ''))


def topk_cases():
    """topk: rows ordered by value in total order, ties by index (XLA's CPU backend)."""
    rows = f32([[3, 1, math.nan, -0.0, 2, 0.0, -math.inf, 1, math.inf],
                [1, 1, 1, 0, 0, 5, -2, 1, 7]])
    for k, largest in ((3, True), (9, True), (4, False)):
        vals, idxs = [], []
        for r in rows:
            key = lambda i: (G.total_key(r[i], 'f32'), i)
            order = sorted(range(9), key=(lambda i: (-key(i)[0], i)) if largest else key)[:k]
            vals.append([r[i] for i in order])
            idxs.append(order)
        G.case('topk_f32_k%d_%s' % (k, 'largest' if largest else 'smallest'),
               [G.const('x', 'f32', rows),
                '  ROOT t = (f32[2,%d], s32[2,%d]) topk(x), k=%d, largest=%s'
                % (k, k, k, 'true' if largest else 'false')],
               '(f32[2,%d], s32[2,%d])' % (k, k),
               '(%s, %s)' % (G.fmt_array('f32', np.asarray(vals, dtype=object)),
                             G.fmt_array('s32', np.asarray(idxs, dtype=object))))
    ints = [[-5, 7, 7, 0, -2147483648, 2147483647]]
    order = sorted(range(6), key=lambda i: (-ints[0][i], i))[:2]
    G.case('topk_s32_k2', [G.const('x', 's32', ints),
                           '  ROOT t = (s32[1,2], s32[1,2]) topk(x), k=2'],
           '(s32[1,2], s32[1,2])',
           '(%s, %s)' % (G.fmt_array('s32', np.asarray([[ints[0][i] for i in order]], dtype=object)),
                         G.fmt_array('s32', np.asarray([order], dtype=object))))


def fft_cases():
    """fft in its four kinds against numpy's FFT in double precision, on
    quarter integers (exact in every type): XRT's DFT matrices are rounded
    once to the complex type, so outputs are off by a few ulps of the
    largest, scaled by the length."""
    rng = np.random.RandomState(34)

    def quarters(shape):
        return rng.randint(-12, 13, size=shape) / 4.0

    def rounded(z, part):
        return np.vectorize(lambda v: complex(G.round_float(float(v.real), part),
                                              G.round_float(float(v.imag), part)),
                            otypes=[object])(z)

    forms = (  # name, type, input dims, kind, lengths, numpy
        ('fft_c64_8', 'c64', (2, 8), 'FFT', (8,), lambda z: np.fft.fft(z)),
        ('fft_c64_2d_5x6', 'c64', (5, 6), 'FFT', (5, 6), lambda z: np.fft.fft2(z)),
        ('ifft_c64_7', 'c64', (3, 7), 'IFFT', (7,), lambda z: np.fft.ifft(z)),
        ('ifft_c128_3d', 'c128', (2, 3, 4), 'IFFT', (2, 3, 4), lambda z: np.fft.ifftn(z)),
        ('rfft_f32_6', 'f32', (2, 6), 'RFFT', (6,), lambda x: np.fft.rfft(x)),
        ('rfft_f64_2d_4x5', 'f64', (4, 5), 'RFFT', (4, 5), lambda x: np.fft.rfft2(x)),
        ('irfft_c64_8', 'c64', (2, 5), 'IRFFT', (8,), lambda z: np.fft.irfft(z, 8)),
        ('irfft_c64_2d_3x5', 'c64', (3, 3), 'IRFFT', (3, 5),
         lambda z: np.fft.irfft2(z, (3, 5))),
        ('irfft_c128_1', 'c128', (1,), 'IRFFT', (1,), lambda z: np.fft.irfft(z, 1)),
        # longer than one matrix: four steps, 1200 = 40 x 30 and 1100 = 44 x 25
        ('rfft_f32_1200', 'f32', (1200,), 'RFFT', (1200,), lambda x: np.fft.rfft(x)),
        ('irfft_c64_1100', 'c64', (551,), 'IRFFT', (1100,), lambda z: np.fft.irfft(z, 1100)),
    )
    for name, t, dims, kind, lengths, ref in forms:
        part = G.COMPLEX.get(t, t)
        x = quarters(dims) if kind == 'RFFT' else quarters(dims) + 1j * quarters(dims)
        y = ref(x)
        out_t = {'RFFT': 'c64' if t == 'f32' else 'c128',
                 'IRFFT': part}.get(kind, t)
        want = np.vectorize(lambda v: G.round_float(float(v), part), otypes=[object])(y) \
            if kind == 'IRFFT' else rounded(y, part)
        eps = G.EPS['f32' if part == 'f32' else 'f64']
        n = float(np.prod(lengths))
        scale = float(np.abs(x).max()) * (n if kind in ('FFT', 'RFFT') else math.sqrt(n))
        one(name, [G.const('x', t, np.asarray(x, dtype=object)),
                   rooted(out_t, y.shape, 'fft(x), fft_type=%s, fft_length={%s}'
                          % (kind, ','.join(str(n) for n in lengths)))],
            out_t, want, tol=(8 * eps, 8 * eps * scale))


def batch_norm_cases():
    """The batch norms against numpy in double precision (two-pass variance;
    the gradient checked against finite differences when this was written)."""
    rng = np.random.RandomState(35)
    eps = 0.001

    def norm(x, fi):
        ax = tuple(d for d in range(x.ndim) if d != fi)
        bc = lambda v: np.expand_dims(v, ax)
        return ax, bc, x.mean(ax), x.var(ax)

    for name, t, dims, fi in (('batch_norm_training_f32', 'f32', (3, 4, 2), 2),
                              ('batch_norm_training_f64_rank1', 'f64', (5,), 0),
                              ('batch_norm_grad_f32', 'f32', (2, 3, 4), 0),
                              ('batch_norm_inference_f32', 'f32', (6, 2), 1)):
        x = f32(rng.randint(-20, 21, dims) / 4.0)
        c = dims[fi]
        sc, off = f32(rng.randint(1, 9, c) / 4.0), f32(rng.randint(-8, 9, c) / 4.0)
        ax, bc, mean, var = norm(x, fi)
        r = 1 / np.sqrt(var + eps)
        rnd = lambda a: np.vectorize(lambda v: G.round_float(float(v), t), otypes=[object])(a)
        eps_t = G.EPS[t]
        body = [G.const('x', t, x), G.const('s', t, sc)]
        cshape = '%s[%d]' % (t, c)
        xshape = G.shape(t, dims)
        if name.startswith('batch_norm_training'):
            out = (x - bc(mean)) * bc(sc * r) + bc(off)
            body += [G.const('o', t, off),
                     '  ROOT r = (%s, %s, %s) batch-norm-training(x, s, o), epsilon=0.001, '
                     'feature_index=%d' % (xshape, cshape, cshape, fi)]
            vals = (out, mean, var)
        elif name.startswith('batch_norm_inference'):
            mu, va = f32(rng.randint(-4, 5, c) / 2.0), f32(rng.randint(1, 9, c) / 2.0)
            body += [G.const('o', t, off), G.const('m', t, mu), G.const('v', t, va),
                     '  ROOT r = %s batch-norm-inference(x, s, o, m, v), epsilon=0.001, '
                     'feature_index=%d' % (xshape, fi)]
            vals = ((x - bc(mu)) * bc(sc / np.sqrt(va + eps)) + bc(off),)
        else:
            dy = f32(rng.randint(-8, 9, dims) / 4.0)
            m = x.size / c
            xc = x - bc(mean)
            dx = bc(sc * r) * (dy - bc(dy.sum(ax) / m) - xc * bc(r * r * (dy * xc).sum(ax) / m))
            body += [G.const('m', t, f32(mean)), G.const('v', t, f32(var)), G.const('dy', t, dy),
                     '  ROOT r = (%s, %s, %s) batch-norm-grad(x, s, m, v, dy), epsilon=0.001, '
                     'feature_index=%d' % (xshape, cshape, cshape, fi)]
            mean, var = f32(mean), f32(var)
            r = 1 / np.sqrt(var + eps)
            xc = x - bc(mean)
            dx = bc(sc * r) * (dy - bc(dy.sum(ax) / m) - xc * bc(r * r * (dy * xc).sum(ax) / m))
            vals = (dx, (dy * xc).sum(ax) * r, dy.sum(ax))
        shapes = [xshape] + [cshape] * (len(vals) - 1)
        tol = (64 * eps_t, 64 * eps_t)
        if len(vals) == 1:
            G.case(name, body, xshape, G.fmt_array(t, rnd(vals[0])), tol)
        else:
            G.case(name, body, '(%s)' % ', '.join(shapes),
                   '(%s)' % ', '.join(G.fmt_array(t, rnd(v)) for v in vals), tol)


def linalg_cases():
    """cholesky and triangular-solve against numpy in double precision; each
    reads only its triangle, so the other holds garbage here."""
    rng = np.random.RandomState(36)
    rnd = lambda a, t: np.vectorize(lambda v: G.round_float(float(v), t), otypes=[object])(a)
    for name, t, dims, lower in (('cholesky_f32_lower_batched', 'f32', (2, 4, 4), True),
                                 ('cholesky_f64_upper', 'f64', (5, 5), False)):
        n = dims[-1]
        m = rng.randint(-4, 5, dims) / 4.0
        spd = m @ np.swapaxes(m, -1, -2) + 2 * np.eye(n)
        garbage = rng.randint(-9, 10, dims) / 2.0
        x = f32(np.where(np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n))),
                         spd, garbage))
        full = np.where(np.tril(np.ones((n, n))), x, np.swapaxes(x, -1, -2)) if lower else \
            np.where(np.triu(np.ones((n, n))), x, np.swapaxes(x, -1, -2))
        L = np.linalg.cholesky(full)
        want = L if lower else np.swapaxes(L, -1, -2)
        one(name, [G.const('a', t, x),
                   rooted(t, list(dims), 'cholesky(a), lower=%s' % ('true' if lower else 'false'))],
            t, rnd(want, t), tol=(32 * G.EPS[t], 32 * G.EPS[t]))
    # complex: a = L L^H from the lower triangle (U^H U from the upper)
    crnd = lambda a, part: np.vectorize(lambda v: complex(G.round_float(float(v.real), part),
                                                          G.round_float(float(v.imag), part)),
                                        otypes=[object])(a)
    for name, t, part, dims, lower in (('cholesky_c64_lower_batched', 'c64', 'f32', (2, 3, 3), True),
                                       ('cholesky_c128_upper', 'c128', 'f64', (4, 4), False)):
        n = dims[-1]
        m = (rng.randint(-4, 5, dims) + 1j * rng.randint(-4, 5, dims)) / 4.0
        hpd = m @ np.conj(np.swapaxes(m, -1, -2)) + 2 * np.eye(n)
        garbage = (rng.randint(-9, 10, dims) + 1j * rng.randint(-9, 10, dims)) / 2.0
        keep = np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n)))
        x = np.where(keep, hpd, garbage)
        L = np.linalg.cholesky(hpd)
        want = L if lower else np.conj(np.swapaxes(L, -1, -2))
        one(name, [G.const('a', t, crnd(x, part)),
                   rooted(t, list(dims), 'cholesky(a), lower=%s' % ('true' if lower else 'false'))],
            t, crnd(want, part), tol=(32 * G.EPS[part], 32 * G.EPS[part]))
    for name, left, lower, trans in (('triangular_solve_c64_left_lower_adjoint', True, True, 'ADJOINT'),
                                     ('triangular_solve_c64_right_upper_transposed', False, False,
                                      'TRANSPOSE')):
        mm, k = 4, 3
        a = (rng.randint(-6, 7, (mm, mm)) + 1j * rng.randint(-6, 7, (mm, mm))) / 4.0 + 3 * np.eye(mm)
        tri = np.tril(a) if lower else np.triu(a)
        opa = np.conj(tri.T) if trans == 'ADJOINT' else tri.T
        bs = (mm, k) if left else (k, mm)
        b = crnd((rng.randint(-8, 9, bs) + 1j * rng.randint(-8, 9, bs)) / 4.0, 'f32')
        bn = np.array(b, dtype=np.complex128)
        x = np.linalg.solve(opa, bn) if left else np.linalg.solve(opa.T, bn.T).T
        one(name, [G.const('a', 'c64', crnd(a, 'f32')), G.const('b', 'c64', b),
                   rooted('c64', list(b.shape), 'triangular-solve(a, b), left_side=%s, lower=%s, '
                          'unit_diagonal=false, transpose_a=%s'
                          % ('true' if left else 'false', 'true' if lower else 'false', trans))],
            'c64', crnd(x, 'f32'), tol=(64 * G.EPS['f32'], 64 * G.EPS['f32']))
    forms = (('triangular_solve_left_lower', True, True, False, 'NO_TRANSPOSE'),
             ('triangular_solve_left_upper_transposed', True, False, False, 'TRANSPOSE'),
             ('triangular_solve_right_lower_unit', False, True, True, 'NO_TRANSPOSE'),
             ('triangular_solve_right_upper_adjoint', False, False, False, 'ADJOINT'))
    for name, left, lower, unit, trans in forms:
        mm, k = 4, 3
        a = rng.randint(-6, 7, (mm, mm)) / 4.0 + 3 * np.eye(mm)
        tri = np.tril(a) if lower else np.triu(a)
        if unit:
            tri = tri - np.diag(np.diag(tri)) + np.eye(mm)
        opa = tri.T if trans != 'NO_TRANSPOSE' else tri
        b = f32(rng.randint(-8, 9, (mm, k) if left else (k, mm)) / 4.0)
        x = np.linalg.solve(opa, b) if left else np.linalg.solve(opa.T, b.T).T
        one(name, [G.const('a', 'f32', f32(a)), G.const('b', 'f32', b),
                   rooted('f32', list(b.shape), 'triangular-solve(a, b), left_side=%s, lower=%s, '
                          'unit_diagonal=%s, transpose_a=%s'
                          % tuple(['true' if v else 'false' for v in (left, lower, unit)] + [trans]))],
            'f32', rnd(x, 'f32'), tol=(64 * G.EPS['f32'], 64 * G.EPS['f32']))


def merge_sort(p, less):
    """Stable top-down merge sort: halves of n // 2 and the rest, then merged,
    the right element first only when it is less (XLA leaves the order open
    for a comparator that is no strict weak order; the evaluator fixes it)."""
    if len(p) < 2:
        return list(p)
    h = len(p) // 2
    a, b, out = merge_sort(p[:h], less), merge_sort(p[h:], less), []
    i = j = 0
    while i < len(a) and j < len(b):
        if less(b[j], a[i]):
            out.append(b[j])
            j += 1
        else:
            out.append(a[i])
            i += 1
    return out + a[i:] + b[j:]


def ieee_sorts():
    """IEEE comparisons with NaNs in the data: Python's float < and == are
    the IEEE ones (a NaN unordered), so these orders are written directly."""
    nan, inf = math.nan, math.inf
    x = f32([3, nan, 1, -0.0, nan, 2, 0.0, -inf, 1, nan, -5, inf, 0.5])
    order = merge_sort(list(range(len(x))), lambda i, j: x[i] < x[j])
    comp = '''%lt (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = pred[] compare(%a, %b), direction=LT
}

'''
    one('sort_ieee_lt_nans', [G.const('x', 'f32', x),
                              rooted('f32', [13], 'sort(x), dimensions={0}, to_apply=%lt')],
        'f32', x[order], comps=comp)
    # two keys, descending (GT), a value moved with them; rows along dim 1
    k = f32([[1, nan, 1, 2, nan, 1, 0.0, -0.0, 2], [nan, nan, 3, 3, -1, nan, 3, 4, -1]])
    k2 = np.array([[5, 1, 4, 1, 2, 4, 7, 6, 0], [2, 1, 9, 8, 3, 0, 9, 1, 5]])
    v = np.array([[10 * r + c for c in range(9)] for r in range(2)])
    comp2 = '''%gt2 (a: f32[], b: f32[], c: s32[], d: s32[], e: s32[], f: s32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %c = s32[] parameter(2)
  %d = s32[] parameter(3)
  %e = s32[] parameter(4)
  %f = s32[] parameter(5)
  %g0 = pred[] compare(%a, %b), direction=GT
  %e0 = pred[] compare(%a, %b), direction=EQ
  %g1 = pred[] compare(%c, %d), direction=GT
  %t = pred[] and(%e0, %g1)
  ROOT %r = pred[] or(%g0, %t)
}

'''
    perm = []
    for r in range(2):
        def gt(i, j, r=r):
            return k[r][i] > k[r][j] or (k[r][i] == k[r][j] and k2[r][i] > k2[r][j])
        perm.append(merge_sort(list(range(9)), gt))
    sk, sk2, sv = (np.array([a[r][perm[r]] for r in range(2)]) for a in (k, k2, v))
    G.case('sort_ieee_gt_two_keys_nans',
           [G.const('k', 'f32', k), G.const('k2', 's32', k2), G.const('v', 's32', v),
            '  ROOT r = (f32[2,9], s32[2,9], s32[2,9]) sort(k, k2, v), dimensions={1}, '
            'to_apply=%gt2'],
           '(f32[2,9], s32[2,9], s32[2,9])',
           '(%s, %s, %s)' % (G.fmt_array('f32', np.asarray(sk, dtype=object)),
                             G.fmt_array('s32', np.asarray(sk2, dtype=object)),
                             G.fmt_array('s32', np.asarray(sv, dtype=object))), comps=comp2)


def control():
    cond = '''%cond (s: (s32[], f32[])) -> pred[] {
  %s = (s32[], f32[]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(10)
  ROOT %r = pred[] compare(%i, %n), direction=LT
}

%body (s: (s32[], f32[])) -> (s32[], f32[]) {
  %s = (s32[], f32[]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %x = f32[] get-tuple-element(%s), index=1
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %fj = f32[] convert(%j)
  %y = f32[] add(%x, %fj)
  ROOT %t = (s32[], f32[]) tuple(%j, %y)
}

'''
    G.case('while_sum', [G.const('i', 's32', 0), G.const('x', 'f32', 0.5),
                         '  t = (s32[], f32[]) tuple(i, x)',
                         '  ROOT w = (s32[], f32[]) while(t), condition=%cond, body=%body'],
           '(s32[], f32[])', '(10, %r)' % (0.5 + sum(range(1, 11))), comps=cond)
    branches = '''%neg (x: f32[2]) -> f32[2] {
  %x = f32[2] parameter(0)
  ROOT %r = f32[2] negate(%x)
}

%twice (x: f32[2]) -> f32[2] {
  %x = f32[2] parameter(0)
  ROOT %r = f32[2] add(%x, %x)
}

%same (x: f32[2]) -> f32[2] {
  ROOT %x = f32[2] parameter(0)
}

'''
    x = [1.5, -2.0]
    for p, exp in (('true', [-1.5, 2.0]), ('false', [3.0, -4.0])):
        one('conditional_%s' % p, [G.const('p', 'pred', p == 'true'), G.const('x', 'f32', x),
                                   rooted('f32', [2], 'conditional(p, x, x), true_computation=%neg, '
                                          'false_computation=%twice')],
            'f32', exp, comps=branches)
    for i, exp in ((0, [-1.5, 2.0]), (1, [3.0, -4.0]), (2, x), (7, x), (-1, x)):
        one('conditional_index_%s' % str(i).replace('-', 'm'),
            [G.const('i', 's32', i), G.const('x', 'f32', x),
             rooted('f32', [2], 'conditional(i, x, x, x), branch_computations={%neg, %twice, %same}')],
            'f32', exp, comps=branches)
    fma = '''%fma (a: f32[2], b: f32[2]) -> f32[2] {
  %a = f32[2] parameter(0)
  %b = f32[2] parameter(1)
  %m = f32[2] multiply(%a, %b)
  %one = f32[] constant(1)
  %o = f32[2] broadcast(%one), dimensions={}
  ROOT %r = f32[2] add(%m, %o)
}

'''
    one('call', [G.const('a', 'f32', [2, 3]), G.const('b', 'f32', [4, -1]),
                 rooted('f32', [2], 'call(a, b), to_apply=%fma')], 'f32', [9, -2], comps=fma)
    mx = '''%mx (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  %m = f32[] maximum(%a, %b)
  ROOT %r = f32[] add(%m, %m)
}

'''
    a, b = f32([[1, 5, -2], [0, 3, 9]]), f32([[4, 2, -3], [0, 8, 1]])
    one('map_binary', [G.const('a', 'f32', a), G.const('b', 'f32', b),
                       rooted('f32', [2, 3], 'map(a, b), dimensions={0,1}, to_apply=%mx')],
        'f32', 2 * np.maximum(a, b), comps=mx)


M32 = 0xffffffff


def philox(key, ctr):
    """Philox4x32-10 as Salmon et al. define it."""
    k0, k1 = key
    c = list(ctr)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k1) & M32, p0 & M32]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c


def threefry(key, ctr):
    """Threefry2x32-20 as Salmon et al. define it."""
    rot = [13, 15, 26, 6, 17, 29, 16, 24]
    ks = [key[0], key[1], 0x1BD11BDA ^ key[0] ^ key[1]]
    x0, x1 = (ctr[0] + ks[0]) & M32, (ctr[1] + ks[1]) & M32
    for i in range(20):
        x0 = (x0 + x1) & M32
        x1 = (((x1 << rot[i % 8]) | (x1 >> (32 - rot[i % 8]))) & M32) ^ x0
        if i % 4 == 3:
            s = (i + 1) // 4
            x0 = (x0 + ks[s % 3]) & M32
            x1 = (x1 + ks[(s + 1) % 3] + s) & M32
    return [x0, x1]


SEED = 42     # the seed the test evaluates with


def random_cases():
    # Known answers (Random123's kat_vectors).
    assert philox([0, 0], [0, 0, 0, 0]) == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    assert threefry([0, 0], [0, 0]) == [0x6b200159, 0x99ba4efe]
    key = [SEED & M32, SEED >> 32]
    words = [philox(key, [k, 0, 0, 0]) for k in range(4)]
    a, b = 2.0, 5.0
    uni = [G.round_float(a + (b - a) * ((w[0] >> 8) * 2.0**-24), 'f32') for w in words]
    uni = [u if u < b else a for u in uni]     # rounded up to b: a instead
    one('rng_uniform_f32', [G.const('a', 'f32', a), G.const('b', 'f32', b),
                            rooted('f32', [4], 'rng(a, b), distribution=rng_uniform')], 'f32', uni)
    ints = [10 + (((w[1] << 32) | w[0]) % 10) for w in words]
    one('rng_uniform_s32', [G.const('a', 's32', 10), G.const('b', 's32', 20),
                            rooted('s32', [4], 'rng(a, b), distribution=rng_uniform')], 's32', ints)
    nor = []
    for w in words[:3]:
        u1 = ((((w[1] << 32) | w[0]) >> 11) + 1) * 2.0**-53
        u2 = (((w[3] << 32) | w[2]) >> 11) * 2.0**-53
        nor.append(1.0 + 0.5 * math.sqrt(-2 * math.log(u1)) * math.cos(6.283185307179586 * u2))
    one('rng_normal_f64', [G.const('a', 'f64', 1.0), G.const('b', 'f64', 0.5),
                           rooted('f64', [3], 'rng(a, b), distribution=rng_normal')], 'f64', nor,
        tol=(1e-14, 1e-14))
    blocks = [philox([0, 0], [c, 0, 0, 0]) for c in range(2)]
    bits = blocks[0] + blocks[1][:2]
    G.case('rng_bit_generator_philox', [G.const('s', 'u64', [0, 0]),
                                        '  ROOT r = (u64[2], u32[2,3]) rng-bit-generator(s), algorithm=rng_philox'],
           '(u64[2], u32[2,3])', '({0, 2}, %s)' % G.fmt_array('u32', np.array(bits, dtype=object).reshape(2, 3)))
    # A two-word Philox state has the key as its counter's high half: XLA's words for
    # u32[4] {0x11111111, 0x22222222, 0x33333333, 0x44444444} (jaxlib 0.10.2's CPU backend)
    key, lo = [0x11111111, 0x22222222], [0x33333333, 0x44444444]
    words = philox(key, lo + key) + philox(key, [lo[0] + 1, lo[1]] + key)
    assert words == [0x5a9d17f3, 0xfeef2938, 0xfa55d3b0, 0x00bbb043,
                     0x54bdf30c, 0x7d515ee2, 0xc9d9f41e, 0x01d73520]
    G.case('rng_bit_generator_philox_key_high',
           [G.const('s', 'u64', [0x2222222211111111, 0x4444444433333333]),
            '  ROOT r = (u64[2], u32[8]) rng-bit-generator(s), algorithm=rng_default'],
           '(u64[2], u32[8])', '({%d, %d}, %s)' % (0x2222222211111111, 0x4444444433333335,
                                                    G.fmt_array('u32', words)))
    tf = [threefry([5, 0], [7 + c, 0]) for c in range(3)]
    words64 = [(w[1] << 32) | w[0] for w in tf]
    G.case('rng_bit_generator_threefry', [G.const('s', 'u64', [5, 7]),
                                          '  ROOT r = (u64[2], u64[3]) rng-bit-generator(s), algorithm=rng_three_fry'],
           '(u64[2], u64[3])', '({5, 10}, %s)' % G.fmt_array('u64', words64))


def reduce_precision_ref(x, e, m):
    """Round to m+1 significant bits, then out of the e-bit exponent range: inf or 0."""
    if math.isnan(x):
        return x if m > 0 else math.inf
    if x == 0 or math.isinf(x):
        return x
    f = Fraction(x)
    s = -1 if f < 0 else 1
    f = abs(f)
    ex = f.numerator.bit_length() - f.denominator.bit_length()
    if Fraction(2)**ex > f:
        ex -= 1
    scale = Fraction(2)**(ex - m)
    y = round(f / scale) * scale
    emax = 2**(e - 1) - 1
    if y >= Fraction(2)**(emax + 1):
        return s * math.inf
    if y < Fraction(2)**(1 - emax):
        return s * 0.0
    return s * float(y)


def misc():
    xs = f32([1.0, 1.00048828125, 1.000732421875, 65504.0, 65520.0, 70000.0, 1e-6, -1e-6,
              6.103515625e-05, math.nan, -math.inf, 0.1])
    for e, m in ((5, 10), (8, 7), (8, 0), (3, 1)):
        one('reduce_precision_f32_e%dm%d' % (e, m), [G.const('x', 'f32', xs),
                                                     rooted('f32', [len(xs)], 'reduce-precision(x), exponent_bits=%d, mantissa_bits=%d' % (e, m))],
            'f32', [reduce_precision_ref(float(v), e, m) for v in xs])
    ds = [0.1, 1e-300, 3.0, math.nan]
    one('reduce_precision_f64_e11m20', [G.const('x', 'f64', ds),
                                        rooted('f64', [4], 'reduce-precision(x), exponent_bits=11, mantissa_bits=20')],
        'f64', [reduce_precision_ref(v, 11, 20) for v in ds])
    fl = [1.0, -2.5, 0.1]
    one('bitcast_convert_f32_u32', [G.const('x', 'f32', fl), rooted('u32', [3], 'bitcast-convert(x)')],
        'u32', [struct.unpack('<I', struct.pack('<f', v))[0] for v in fl])
    raw = struct.pack('<2f', 1.5, -8.0)
    one('bitcast_convert_u8_f32', [G.const('x', 'u8', np.frombuffer(raw, np.uint8).reshape(2, 4).tolist()),
                                   rooted('f32', [2], 'bitcast-convert(x)')], 'f32', [1.5, -8.0])
    one('bitcast_convert_f32_u16', [G.const('x', 'f32', [1.5, -8.0]), rooted('u16', [2, 2], 'bitcast-convert(x)')],
        'u16', np.frombuffer(raw, np.uint16).reshape(2, 2).tolist())
    one('bitcast_convert_s32_f32', [G.const('x', 's32', [1065353216, -1082130432]),
                                    rooted('f32', [2], 'bitcast-convert(x)')], 'f32', [1.0, -1.0])
    p, a, b = [True, False, True], f32([1, 2, 3]), f32([-1, -2, -3])
    one('select_array', [G.const('p', 'pred', p), G.const('a', 'f32', a), G.const('b', 'f32', b),
                         rooted('f32', [3], 'select(p, a, b)')], 'f32', np.where(p, a, b))
    one('select_scalar_pred', [G.const('p', 'pred', False), G.const('a', 'f32', a), G.const('b', 'f32', b),
                               rooted('f32', [3], 'select(p, a, b)')], 'f32', b)
    xs = f32([-5, 0.5, 7, math.nan])
    one('clamp_scalar_bounds', [G.const('lo', 'f32', -1.0), G.const('x', 'f32', xs), G.const('hi', 'f32', 2.0),
                                rooted('f32', [4], 'clamp(lo, x, hi)')], 'f32', [-1.0, 0.5, 2.0, math.nan])
    one('clamp_s32_arrays', [G.const('lo', 's32', [0, 5, -3]), G.const('x', 's32', [-2, 9, 1]),
                             G.const('hi', 's32', [1, 6, 0]), rooted('s32', [3], 'clamp(lo, x, hi)')],
        's32', [0, 6, 0])
    one('add_scalar', [G.const('x', 'f32', 1.25), G.const('y', 'f32', 2.5), rooted('f32', [], 'add(x, y)')],
        'f32', 3.75)
    one('add_empty', ['  x = f32[0,3] constant({})', '  y = f32[0,3] constant({})',
                      rooted('f32', [0, 3], 'add(x, y)')], 'f32', np.zeros((0, 3)))
    one('negate_empty_s32', ['  x = s32[0] constant({})', rooted('s32', [0], 'negate(x)')], 's32', [])


def stochastic_ref(x, r, bits, lo, hi):
    """stochastic-convert as XLA's CPU backend gives it: |x| rounds up where r is below
    its fraction times 2^bits, truncated; the sign back on; saturated; NaN to 0."""
    out = []
    for v, b in zip(x, r):
        if math.isnan(v):
            out.append(0)
            continue
        a = abs(v)
        if math.isinf(a):
            m = a
        else:
            fl = math.floor(a)
            m = fl + (1 if b < math.floor((a - fl) * 2.0 ** bits) else 0)
        m = -m if v < 0 else m
        out.append(int(max(lo, min(hi, m))))
    return out


def stochastic_cases():
    x = f32([0.5, 0.5, 1e10, -1e10, math.inf, math.nan, 127.5, -128.5, 0.99999994, -0.0,
             0.25, -1.5, 2.5, 1e-30, 0.1, 1e-9])
    r = [2 ** 31, 2 ** 31 - 1, 0, 0, 0, 0, 0, 0, 2 ** 32 - 2, 0, 0, 2 ** 30 - 1, 2 ** 31 - 1, 0,
         429496729, 4]
    one('stochastic_convert_f32_s8', [G.const('x', 'f32', x), G.const('b', 'u32', r),
                                      rooted('s8', [16], 'stochastic-convert(x, b)')],
        's8', stochastic_ref(x, r, 32, -128, 127))
    y = [0.5, 2.25, -2.25, 1000.0, 65504.0, -0.75]
    q = [32767, 16383, 16384, 5, 0, 49151]
    one('stochastic_convert_f16_s32', [G.const('y', 'f16', y), G.const('q', 'u16', q),
                                       rooted('s32', [6], 'stochastic-convert(y, q)')],
        's32', stochastic_ref(y, q, 16, -2 ** 31, 2 ** 31 - 1))


def ragged_ref(lhs, rhs, sizes, lc, rc, rg):
    """ragged-dot, ragged non-contracting: lhs's rows in consecutive groups, group i
    times rhs's matrix i; rows past the last group are 0 (XLA's operation semantics)."""
    rows = lhs if lc == 1 else lhs.T
    mats = np.moveaxis(rhs, (rg, rc), (0, 1))
    out = np.zeros((rows.shape[0], mats.shape[2]))
    start = 0
    for i, n in enumerate(sizes):
        out[start:start + n] = rows[start:start + n] @ mats[i]
        start += n
    return out


def ragged_cases():
    lhs = f32(np.arange(24).reshape(6, 4) / 10)
    rhs = f32(np.arange(24).reshape(3, 4, 2) / 7)
    one('ragged_dot_rows_in_groups',
        [G.const('a', 'f32', lhs.tolist()), G.const('w', 'f32', rhs.tolist()),
         G.const('g', 's32', [2, 1, 2]),
         rooted('f32', [6, 2], 'ragged-dot(a, w, g), lhs_contracting_dims={1}, '
                'rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}')],
        'f32', ragged_ref(lhs, rhs, [2, 1, 2], 1, 1, 0), tol=(1e-6, 1e-6))
    lhs = f32(np.arange(28).reshape(4, 7) / 8 - 1)
    rhs = f32(np.arange(24).reshape(4, 3, 2) / 4 - 2)
    one('ragged_dot_empty_group_and_rows_left',
        [G.const('a', 'f32', lhs.tolist()), G.const('w', 'f32', rhs.tolist()),
         G.const('g', 's64', [3, 0, 2]),
         rooted('f32', [7, 2], 'ragged-dot(a, w, g), lhs_contracting_dims={0}, '
                'rhs_contracting_dims={0}, lhs_ragged_dims={1}, rhs_group_dims={1}')],
        'f32', ragged_ref(lhs, rhs, [3, 0, 2], 0, 0, 1), tol=(1e-6, 1e-6))


ADD_S32 = '''%adds (a: s32[], b: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  ROOT %r = s32[] add(%a, %b)
}

'''


def zero_past(a, sizes):
    """@a with zeros past @sizes (None: the whole dimension), as a dynamic result comes."""
    out = np.zeros_like(a)
    out[tuple(slice(0, n) for n in sizes)] = a[tuple(slice(0, n) for n in sizes)]
    return out


def split_place(flat, n, dims, kd):
    """A dynamic dimension of size @n (values @flat[:n]) split into @dims, dimension @kd taking
    n over the others: each index j inside the sizes takes flat[sum_t j_t P_t], P_t the product
    of the sizes after t (XLA's dynamic padder's placement); zeros elsewhere."""
    sizes = list(dims)
    sizes[kd] = n // int(np.prod([d for t, d in enumerate(dims) if t != kd]))
    out = np.zeros(dims, dtype=np.int64)
    for j in np.ndindex(*sizes):
        src, p = 0, 1
        for t in reversed(range(len(dims))):
            src += j[t] * p
            p *= sizes[t]
        out[j] = flat[src]
    return out, sizes[kd]


def split_cases():
    """Reshapes splitting a dynamic dimension alone: the inferred (or only '<=') result
    dimension takes the size over the others' lengths; outer indices take their shares."""
    v = np.arange(24) + 1
    for name, dims, n, kd, how in (('dyn_split_major', (4, 2, 3), 18, 0, '<='),
                                   ('dyn_split_middle', (2, 4, 3), 18, 1, 'inferred'),
                                   ('dyn_split_minor', (2, 3, 4), 18, 2, 'inferred'),
                                   ('dyn_split_minor_le', (3, 8), 15, 1, '<=')):
        want, size = split_place(v, n, dims, kd)
        sh = ['%d' % d if t != kd or how != '<=' else '<=%d' % d for t, d in enumerate(dims)]
        attr = ', inferred_dimension=%d' % kd if how == 'inferred' else ''
        G.case(name,
               [G.const('c', 's32', v), G.const('n', 's32', n),
                '  d = s32[<=24] set-dimension-size(c, n), dimensions={0}',
                '  r = s32[%s] reshape(d)%s' % (','.join(sh), attr),
                '  g = s32[] get-dimension-size(r), dimensions={%d}' % kd,
                '  ROOT t = (s32[%s], s32[]) tuple(r, g)' % ','.join(sh)],
               '(s32[%s], s32[])' % ','.join(map(str, dims)),
               '(%s, %d)' % (G.fmt_array('s32', np.asarray(want, dtype=object)), size))
    # with a static outer dimension kept and one inner: [2, <=6, 2] to [2, 2, 3, 2]
    c = np.arange(24).reshape(2, 6, 2) + 1
    want = np.zeros((2, 2, 3, 2), dtype=np.int64)
    for i, a, b in np.ndindex(2, 2, 2):    # size 4 over 2: b below 2
        want[i, a, b] = c[i, a * 2 + b]
    G.case('dyn_split_between_static',
           [G.const('c', 's32', c), G.const('n', 's32', 4),
            '  d = s32[2,<=6,2] set-dimension-size(c, n), dimensions={1}',
            '  ROOT r = s32[2,2,<=3,2] reshape(d)'],
           's32[2,2,3,2]', G.fmt_array('s32', np.asarray(want, dtype=object)))


def dynamic_reshape_cases():
    """dynamic-reshape: the values inside the operand's sizes, row-major, laid out row-major
    over the result's sizes (XLA's three DynamicReshape tests' forms); zeros elsewhere."""
    cube = np.arange(18).reshape(2, 3, 3) + 1
    for name, body, inside, dims, sizes in (
            ('dyn_reshape_op_flattens',
             ['  a = s32[2,<=3,3] set-dimension-size(c, n), dimensions={1}',
              '  b = s32[2,<=3,<=3] set-dimension-size(a, n), dimensions={2}',
              '  ROOT r = s32[<=18] dynamic-reshape(b, m)'],
             cube[:, :2, :2].reshape(-1), (18,), (8,)),
            ('dyn_reshape_op_unflattens',
             ['  f = s32[18] reshape(c)', '  a = s32[<=18] set-dimension-size(f, m), dimensions={0}',
              '  ROOT r = s32[2,<=3,<=3] dynamic-reshape(a, n, n, n)'],
             cube.reshape(-1)[:8], (2, 3, 3), (2, 2, 2)),
            ('dyn_reshape_op_both',
             ['  a = s32[2,<=3,3] set-dimension-size(c, n), dimensions={1}',
              '  ROOT r = s32[<=3,<=6] dynamic-reshape(a, k, l)'],
             cube[:, :2, :].reshape(-1), (3, 6), (2, 6))):
        want = np.zeros(dims, dtype=np.int64)
        want[tuple(slice(0, n) for n in sizes)] = np.asarray(inside[:int(np.prod(sizes))]).reshape(sizes)
        one(name, [G.const('c', 's32', cube), G.const('n', 's32', 2), G.const('m', 's32', 8),
                   G.const('k', 's32', 2), G.const('l', 's32', 6)] + body, 's32', want)


def conditional_cases():
    """A conditional over dynamic values: each branch gets its operand's sizes, and the result
    the sizes of the branch taken (XLA's DynamicConditionalDimension, and branches giving other
    sizes: one keeps 3 rows, the other sets 1)."""
    c = np.arange(8).reshape(4, 2) + 1
    branches = ('%keep (p: (s32[<=4,2])) -> (s32[<=4,2]) {\n'
                '  %p = (s32[<=4,2]) parameter(0)\n'
                '  %x = s32[<=4,2] get-tuple-element(%p), index=0\n'
                '  %y = s32[<=4,2] add(%x, %x)\n'
                '  ROOT %t = (s32[<=4,2]) tuple(%y)\n}\n\n'
                '%shrink (q: (s32[<=4,2])) -> (s32[<=4,2]) {\n'
                '  %q = (s32[<=4,2]) parameter(0)\n'
                '  %x = s32[<=4,2] get-tuple-element(%q), index=0\n'
                '  %one = s32[] constant(1)\n'
                '  %y = s32[<=4,2] set-dimension-size(%x, %one), dimensions={0}\n'
                '  ROOT %t = (s32[<=4,2]) tuple(%y)\n}\n\n')
    for k, rows, scale in ((0, 3, 2), (1, 1, 1)):
        total = (scale * c[:rows]).sum(axis=0)
        G.case('dyn_conditional_branch_%d' % k,
               [G.const('c', 's32', c), G.const('n', 's32', 3), G.const('k', 's32', k),
                G.const('z', 's32', 0),
                '  d = s32[<=4,2] set-dimension-size(c, n), dimensions={0}',
                '  a = (s32[<=4,2]) tuple(d)',
                '  r = (s32[<=4,2]) conditional(k, a, a), branch_computations={%keep, %shrink}',
                '  g = s32[<=4,2] get-tuple-element(r), index=0',
                '  s = s32[2] reduce(g, z), dimensions={0}, to_apply=%adds',
                '  m = s32[] get-dimension-size(g), dimensions={0}',
                '  ROOT o = (s32[2], s32[]) tuple(s, m)'],
               '(s32[2], s32[])', '({%d, %d}, %d)' % (total[0], total[1], rows),
               comps=ADD_S32 + branches)


def dynamic_cases():
    """Bounded dynamic dimensions: set-dimension-size's size is what reductions, products and
    windows see (one past the bound the whole dimension, a negative one none; the size reads
    back as set, as on XLA's CPU backend); results come at their bound, zeros past the size.
    numpy on the part inside the sizes; checked against jaxlib's XLA there."""
    x = np.array([3, 1, 4, 1, 5, 9], dtype=object)
    for name, n, used in (('dyn_reduce_size', 4, 4), ('dyn_size_past_bound', 9, 6),
                          ('dyn_size_negative', -2, 0)):
        G.case(name, [G.const('x', 's32', x), G.const('n', 's32', n),
                      '  d = s32[<=6] set-dimension-size(x, n), dimensions={0}',
                      '  s = s32[<=6] multiply(d, x)', G.const('z', 's32', 0),
                      '  r = s32[] reduce(s, z), dimensions={0}, to_apply=%adds',
                      '  g = s32[] get-dimension-size(s), dimensions={0}',
                      '  ROOT t = (s32[], s32[]) tuple(r, g)'],
               '(s32[], s32[])', '(%d, %d)' % (sum(v * v for v in x[:max(used, 0)]), n),
               comps=ADD_S32)
    a = f32(np.arange(15).reshape(5, 3) / 4 - 1)
    b = f32(np.arange(20).reshape(5, 4) / 8 - 1)
    one('dyn_dot_contracted', [G.const('a', 'f32', a), G.const('b', 'f32', b),
                               G.const('n', 's32', 3),
                               '  ad = f32[<=5,3] set-dimension-size(a, n), dimensions={0}',
                               '  bd = f32[<=5,4] set-dimension-size(b, n), dimensions={0}',
                               rooted('f32', [3, 4], 'dot(ad, bd), lhs_contracting_dims={0}, '
                                      'rhs_contracting_dims={0}')],
        'f32', a[:3].T @ b[:3], tol=(1e-6, 1e-6))
    one('dyn_dot_kept_rows', [G.const('a', 'f32', a), G.const('w', 'f32', b[:3]),
                              G.const('n', 's32', 2),
                              '  ad = f32[<=5,3] set-dimension-size(a, n), dimensions={0}',
                              '  ROOT r = f32[<=5,4] dot(ad, w), lhs_contracting_dims={1}, '
                              'rhs_contracting_dims={0}'],
        'f32', zero_past(a @ b[:3], [2, 4]), tol=(1e-6, 1e-6))
    c = f32(np.arange(12).reshape(3, 4) + 1)
    one('dyn_cumsum_window', [G.const('c', 'f32', c), G.const('n', 's32', 3),
                              '  d = f32[3,<=4] set-dimension-size(c, n), dimensions={1}',
                              G.const('z', 'f32', 0.0),
                              '  ROOT r = f32[3,<=4] reduce-window(d, z), window={size=1x4 '
                              'pad=0_0x3_0}, to_apply=%add'],
        'f32', zero_past(np.cumsum(c, 1), [3, 3]),
        comps=ADD)
    one('dyn_reshape_merges', [G.const('a', 'f32', a), G.const('n', 's32', 2),
                               '  d = f32[<=5,3] set-dimension-size(a, n), dimensions={0}',
                               '  e = f32[<=5,3] exponential(d)',
                               '  ROOT r = f32[<=15] reshape(e)'],
        'f32', zero_past(np.exp(a).reshape(15), [6]), tol=(1e-6, 1e-6))
    G.case('dyn_broadcast_transpose_max',
           [G.const('a', 'f32', a), G.const('n', 's32', 4),
            '  d = f32[<=5,3] set-dimension-size(a, n), dimensions={0}',
            '  b = f32[2,3,<=5] broadcast(d), dimensions={2,1}',
            '  t = f32[<=5,2,3] transpose(b), dimensions={2,0,1}',
            G.const('m', 'f32', -math.inf),
            '  r = f32[2] reduce(t, m), dimensions={0,2}, to_apply=%max',
            '  g = s32[] get-dimension-size(t), dimensions={0}',
            '  ROOT o = (f32[2], s32[]) tuple(r, g)'],
           '(f32[2], s32[])', '({%s, %s}, 4)' % (G.fmt_array('f32', a[:4].max()),
                                                 G.fmt_array('f32', a[:4].max())),
           comps=MAX)
    G.case('dyn_pad_to_static',
           [G.const('c', 'f32', c), G.const('n', 's32', 2),
            '  d = f32[<=3,4] set-dimension-size(c, n), dimensions={0}',
            '  ROOT p = (f32[3,4], s32[], s32[]) custom-call(d), '
            'custom_call_target="PadToStatic"'],
           '(f32[3,4], s32[], s32[])',
           '(%s, 2, 4)' % G.fmt_array('f32', np.asarray(zero_past(c, [2, 4]), dtype=object)))
    one('dyn_slice_to_dynamic', [G.const('c', 'f32', c), G.const('i', 's32', 2),
                                 G.const('j', 's32', 3),
                                 '  ROOT r = f32[<=3,<=4] custom-call(c, i, j), '
                                 'custom_call_target="SliceToDynamic"'],
        'f32', zero_past(c, [2, 3]))
    one('dyn_sort_other_dimension', [G.const('c', 'f32', c[:, ::-1]), G.const('n', 's32', 2),
                                     '  d = f32[<=3,4] set-dimension-size(c, n), dimensions={0}',
                                     '  ROOT r = f32[<=3,4] sort(d), dimensions={1}, '
                                     'to_apply=%lt'],
        'f32', zero_past(np.sort(c, 1), [2, 4]),
        comps='''%lt (a: f32[], b: f32[]) -> pred[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = pred[] compare(%a, %b), direction=LT
}

''')
    one('dyn_size_back_to_bound', [G.const('c', 'f32', c), G.const('n', 's32', 1),
                                   G.const('k', 's32', 3),
                                   '  d = f32[<=3,4] set-dimension-size(c, n), dimensions={0}',
                                   '  ROOT r = f32[3,4] set-dimension-size(d, k), dimensions={0}'],
        'f32', c)
    one('dyn_concatenate_other_dimension',
        [G.const('c', 'f32', c), G.const('n', 's32', 2),
         '  d = f32[<=3,4] set-dimension-size(c, n), dimensions={0}',
         '  ROOT r = f32[<=3,8] concatenate(d, d), dimensions={1}'],
        'f32', zero_past(np.concatenate([c, c], 1), [2, 8]))
    r = np.arange(12).reshape(3, 4) + 1
    rev = np.zeros_like(r)
    rev[:2, :3] = r[:2, :3][::-1, ::-1]
    one('dyn_reverse_both', [G.const('c', 's32', r), G.const('i', 's32', 2),
                             G.const('j', 's32', 3),
                             '  d = s32[<=3,<=4] custom-call(c, i, j), '
                             'custom_call_target="SliceToDynamic"',
                             '  ROOT r = s32[<=3,<=4] reverse(d), dimensions={0,1}'],
        's32', rev)
    cat = np.zeros((3, 11), dtype=np.int64)
    cat[:2, :8] = np.concatenate([r[:2, :3], -r[:2], r[:2, :1]], 1)
    one('dyn_concatenate_along_sizes',
        [G.const('c', 's32', r), G.const('i', 's32', 2), G.const('j', 's32', 3),
         G.const('k', 's32', 1),
         '  a = s32[<=3,<=4] custom-call(c, i, j), custom_call_target="SliceToDynamic"',
         '  b = s32[<=3,4] custom-call(c, i, j), custom_call_target="SliceToDynamic"',
         '  nb = s32[<=3,4] negate(b)',
         '  s = s32[3,3] slice(c), slice={[0:3], [0:3]}',
         '  e = s32[<=3,<=3] custom-call(s, i, k), custom_call_target="SliceToDynamic"',
         '  ROOT r = s32[<=3,<=11] concatenate(a, nb, e), dimensions={1}'],
        's32', cat)
    flat = np.zeros(12, dtype=np.int64)
    flat[:6] = r[:2, :3].reshape(6)
    one('dyn_reshape_compacts_minor',
        [G.const('c', 's32', r), G.const('i', 's32', 3),
         '  d = s32[3,<=4] set-dimension-size(c, i), dimensions={1}',
         '  u = s32[2,<=4] slice(d), slice={[0:2], [0:4]}',
         '  ROOT f = s32[<=8] reshape(u)'],
        's32', np.concatenate([flat[:6], [0, 0]]))
    cube = np.arange(18).reshape(2, 3, 3)
    packed = np.zeros(18, dtype=np.int64)
    packed[:8] = cube[:, :2, :2].reshape(8)
    one('dyn_reshape_compacts_two',
        [G.const('c', 's32', cube), G.const('i', 's32', 2),
         '  a = s32[2,<=3,3] set-dimension-size(c, i), dimensions={1}',
         '  b = s32[2,<=3,<=3] set-dimension-size(a, i), dimensions={2}',
         '  ROOT f = s32[<=18] reshape(b)'],
        's32', packed)
    rows = np.arange(8).reshape(4, 2) + 1
    for name, na, nb in (('dyn_binary_spreads_size_one', 1, 3),
                         ('dyn_binary_takes_smaller_size', 3, 2),
                         ('dyn_binary_spreads_right_operand', 3, 1)):
        a_ = rows[:na] if na > 1 else np.repeat(rows[:1], 4, 0)
        b_ = 10 * rows[:nb] if nb > 1 else np.repeat(10 * rows[:1], 4, 0)
        n = nb if na == 1 else na if nb == 1 else min(na, nb)
        out = np.zeros((4, 2), dtype=np.int64)
        out[:n] = (a_[:n] - b_[:n])
        G.case(name, [G.const('x', 's32', rows), G.const('y', 's32', 10 * rows),
                      G.const('m', 's32', na), G.const('k', 's32', nb),
                      '  a = s32[<=4,2] set-dimension-size(x, m), dimensions={0}',
                      '  b = s32[<=4,2] set-dimension-size(y, k), dimensions={0}',
                      '  s = s32[<=4,2] subtract(a, b)',
                      '  g = s32[] get-dimension-size(s), dimensions={0}',
                      '  ROOT t = (s32[<=4,2], s32[]) tuple(s, g)'],
               '(s32[4,2], s32[])', '(%s, %d)' % (G.fmt_array('s32', np.asarray(out, dtype=object)), n))
    loop = '''%push (s: (s32[<=5,2], s32[])) -> (s32[<=5,2], s32[]) {
  %s = (s32[<=5,2], s32[]) parameter(0)
  %b = s32[<=5,2] get-tuple-element(%s), index=0
  %k = s32[] get-tuple-element(%s), index=1
  %n = s32[] get-dimension-size(%b), dimensions={0}
  %z = s32[] constant(0)
  %sq = s32[] multiply(%k, %k)
  %row = s32[1,2] broadcast(%sq), dimensions={}
  %u = s32[<=5,2] dynamic-update-slice(%b, %row, %n, %z)
  %one = s32[] constant(1)
  %n1 = s32[] add(%n, %one)
  %d = s32[<=5,2] set-dimension-size(%u, %n1), dimensions={0}
  %k1 = s32[] add(%k, %one)
  ROOT %t = (s32[<=5,2], s32[]) tuple(%d, %k1)
}

%below (s: (s32[<=5,2], s32[])) -> pred[] {
  %s = (s32[<=5,2], s32[]) parameter(0)
  %b = s32[<=5,2] get-tuple-element(%s), index=0
  %n = s32[] get-dimension-size(%b), dimensions={0}
  %four = s32[] constant(4)
  ROOT %lt = pred[] compare(%n, %four), direction=LT
}

%adds2 (a: s32[], b: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  ROOT %r = s32[] add(%a, %b)
}

'''
    G.case('dyn_while_pushes_rows',
           [G.const('m', 's32', -7), '  e = s32[5,2] broadcast(m), dimensions={}',
            G.const('z', 's32', 0), G.const('k', 's32', 2),
            '  d = s32[<=5,2] set-dimension-size(e, z), dimensions={0}',
            '  t = (s32[<=5,2], s32[]) tuple(d, k)',
            '  w = (s32[<=5,2], s32[]) while(t), body=%push, condition=%below',
            '  b = s32[<=5,2] get-tuple-element(w), index=0',
            '  r = s32[2] reduce(b, z), dimensions={0}, to_apply=%adds2',
            '  g = s32[] get-dimension-size(b), dimensions={0}',
            '  ROOT o = (s32[2], s32[], s32[<=5,2]) tuple(r, g, b)'],
           '(s32[2], s32[], s32[5,2])',
           '({%d, %d}, 4, {{4, 4}, {9, 9}, {16, 16}, {25, 25}, {0, 0}})' % (
               4 + 9 + 16 + 25, 4 + 9 + 16 + 25), comps=loop)
    G.case('dyn_reshape_unit_dimension',
           [G.const('c', 's32', np.arange(10).reshape(1, 2, 5, 1) + 1),
            G.const('i', 's32', 0), G.const('j', 's32', 1),
            '  a = s32[<=1,2,5,1] set-dimension-size(c, i), dimensions={0}',
            '  b = s32[<=1,2,5,1] set-dimension-size(c, j), dimensions={0}',
            '  ra = s32[<=10] reshape(a)', '  rb = s32[<=10] reshape(b)',
            '  ga = s32[] get-dimension-size(ra), dimensions={0}',
            '  gb = s32[] get-dimension-size(rb), dimensions={0}',
            '  ROOT t = (s32[], s32[]) tuple(ga, gb)'],
           '(s32[], s32[])', '(0, 10)')
    split_cases()
    dynamic_reshape_cases()
    conditional_cases()
    G.case('dyn_variadic_reduce_keeps_rows',
           [G.const('c', 'f32', c), G.const('n', 's32', 2), G.const('z', 'f32', 0.0),
            G.const('i', 's32', np.arange(12).reshape(3, 4)), G.const('k', 's32', 0),
            '  d = f32[<=3,4] set-dimension-size(c, n), dimensions={0}',
            '  ROOT r = (f32[<=3], s32[<=3]) reduce(d, i, z, k), dimensions={1}, '
            'to_apply=%argmax'],
           '(f32[3], s32[3])', '({4, 8, 0}, {3, 7, 0})', comps=PAIR_ARGMAX)


def generate(main_module):
    global G
    G = main_module
    movement()
    indexing()
    reductions()
    dots()
    sorts()
    topk_cases()
    fft_cases()
    batch_norm_cases()
    linalg_cases()
    control()
    random_cases()
    misc()
    stochastic_cases()
    ragged_cases()
    dynamic_cases()
