#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Expected values for the eager ops, computed with numpy.

Writes eager_cases.txt: per case one TensorFlow op by its registry name,
the attributes to set, the input tensors and the outputs it must give,
worked out here with numpy from TensorFlow's documented semantics,
independently of libxrt and of its lowerings.  Run it with Debian's
/usr/bin/python3 (it has numpy); the output is checked in, and
`make check` verifies that it is what this script prints.

Each case reads
    === NAME OP exact             (or: === NAME OP RTOL ATOL)
    attr NAME KIND VALUE...       KIND: int, ints, float, bool, type, string
    in SHAPE VALUE                one input tensor (HLO literal syntax)
    list N                        the next N inputs make one input list
    out SHAPE VALUE               one expected output, in order
"""
import math
import os
import sys

# numpy's AVX-512 loops of exp, log, sin and others differ in the last
# bit from its AVX2 ones: keep to the latter, so that the file comes out
# the same on every machine (set before numpy is imported)
os.environ['NPY_DISABLE_CPU_FEATURES'] = \
    'AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL'
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from cases_text import emit, fmt_array  # noqa: E402

DT = {np.float32: 'f32', np.float64: 'f64', np.int32: 's32', np.int64: 's64',
      np.bool_: 'pred', np.uint8: 'u8'}
cases = []
state = [2463534242]


def rand(shape, lo=-2.0, hi=2.0, dtype=np.float32):
    """Deterministic values (xorshift32), the same on every numpy."""
    n = int(np.prod(shape)) if shape else 1
    out = []
    for _ in range(n):
        x = state[0]
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        x ^= (x << 5) & 0xffffffff
        state[0] = x
        out.append(lo + (hi - lo) * (x / 2.0**32))
    a = np.array(out, dtype=np.float64).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        return np.floor(a).astype(dtype)
    if dtype == np.bool_:
        return a > (lo + hi) / 2
    return a.astype(dtype)


def dtype_name(a):
    return DT[a.dtype.type]


def literal(a):
    a = np.asarray(a)
    t = dtype_name(a)
    return '%s[%s] %s' % (t, ','.join(str(d) for d in a.shape), fmt_array(t, a))


def case(name, op, inputs, outputs, attrs=(), tol=None):
    """inputs: arrays, or lists of arrays (an input list)."""
    lines = ['=== %s %s %s' % (name, op, 'exact' if tol is None else '%r %r' % tol)]
    for a in attrs:
        lines.append('attr ' + ' '.join(str(x) for x in a))
    for x in inputs:
        if isinstance(x, list):
            lines.append('list %d' % len(x))
            lines += ['in ' + literal(y) for y in x]
        else:
            lines.append('in ' + literal(x))
    for y in outputs:
        lines.append('out ' + literal(y))
    cases.append('\n'.join(lines) + '\n')


F32_TOL = (2e-6, 1e-6)
MATH_TOL = (1e-5, 1e-6)


def f32(x):
    return np.asarray(x, dtype=np.float32)


def erf(x):
    return np.vectorize(math.erf)(x.astype(np.float64))


def elementwise():
    x = rand([2, 5])
    pos = rand([2, 5], 0.1, 4.0)
    exact = {'Abs': np.abs, 'Neg': np.negative, 'Sign': np.sign, 'Ceil': np.ceil,
             'Floor': np.floor, 'Identity': lambda a: a, 'Square': np.square,
             'Relu': lambda a: np.maximum(a, 0), 'ZerosLike': np.zeros_like,
             'OnesLike': np.ones_like,
             'Relu6': lambda a: np.minimum(np.maximum(a * 4, 0), 6)}
    for op, f in exact.items():
        a = x * 4 if op == 'Relu6' else x
        case(op, op, [a], [f32(f(x) if op == 'Relu6' else f(a))])
    d = x.astype(np.float64)
    approx = {'Exp': np.exp(d), 'Expm1': np.expm1(d), 'Tanh': np.tanh(d),
              'Sigmoid': 1 / (1 + np.exp(-d)), 'Erf': erf(d), 'Cos': np.cos(d),
              'Sin': np.sin(d), 'Elu': np.where(d > 0, d, np.expm1(d)),
              'Softplus': np.log1p(np.exp(d))}
    for op, v in approx.items():
        case(op, op, [x], [f32(v)], tol=MATH_TOL)
    p = pos.astype(np.float64)
    for op, v in {'Log': np.log(p), 'Log1p': np.log1p(p), 'Sqrt': np.sqrt(p),
                  'Rsqrt': 1 / np.sqrt(p)}.items():
        case(op, op, [pos], [f32(v)], tol=MATH_TOL)
    # integers and booleans
    i = rand([2, 5], -20, 20, np.int32)
    case('Abs_s32', 'Abs', [i], [np.abs(i)])
    case('Neg_s32', 'Neg', [i], [np.negative(i)])
    case('Sign_s32', 'Sign', [i], [np.sign(i).astype(np.int32)])
    b = rand([2, 3], dtype=np.bool_)
    case('LogicalNot', 'LogicalNot', [b], [np.logical_not(b)])


def binary():
    x, y = rand([2, 3]), rand([3])           # y broadcasts along rows
    y = np.where(np.abs(y) < 0.25, 0.5, y).astype(np.float32)
    exact = {'Add': np.add, 'AddV2': np.add, 'Sub': np.subtract, 'Mul': np.multiply,
             'Div': np.divide, 'RealDiv': np.divide, 'Maximum': np.maximum,
             'Minimum': np.minimum}
    for op, f in exact.items():
        case(op, op, [x, y], [f32(f(x, y))])
    fd = np.floor(x.astype(np.float64) / y)
    case('FloorDiv_f32', 'FloorDiv', [x, y], [f32(fd)])
    case('FloorMod_f32', 'FloorMod', [x, y], [f32(np.mod(x.astype(np.float64), y))],
         tol=F32_TOL)
    px = rand([2, 3], 0.5, 3.0)
    case('Pow', 'Pow', [px, y], [f32(np.power(px.astype(np.float64), y))], tol=MATH_TOL)
    i = rand([2, 4], -30, 30, np.int32)
    j = np.array([7, -3, 5, -4], dtype=np.int32)
    case('FloorDiv_s32', 'FloorDiv', [i, j], [np.floor_divide(i, j)])
    case('FloorMod_s32', 'FloorMod', [i, j], [np.mod(i, j)])
    case('Add_s32', 'Add', [i, j], [i + j])
    case('Mul_s32', 'Mul', [i, j], [i * j])
    case('Maximum_s32', 'Maximum', [i, j], [np.maximum(i, j)])
    cx = np.array([[1, 2, 3], [3, 2, 1]], dtype=np.float32)
    cy = np.array([2, 2, 2], dtype=np.float32)
    cmp = {'Equal': np.equal, 'NotEqual': np.not_equal, 'Less': np.less,
           'LessEqual': np.less_equal, 'Greater': np.greater,
           'GreaterEqual': np.greater_equal}
    for op, f in cmp.items():
        case(op, op, [cx, cy], [f(cx, cy)])
    a, b = rand([2, 3], dtype=np.bool_), rand([2, 3], dtype=np.bool_)
    case('LogicalAnd', 'LogicalAnd', [a, b], [a & b])
    case('LogicalOr', 'LogicalOr', [a, b], [a | b])
    case('Select', 'Select', [a, x, -x], [np.where(a, x, -x)])
    c = np.array([True, False, True])
    case('SelectV2', 'SelectV2', [c, x, f32(7)], [f32(np.where(c, x, 7))])
    case('Cast_f32_s32', 'Cast', [f32([[-2.75, -0.5, 0.5, 2.75]])],
         [np.array([[-2, 0, 0, 2]], dtype=np.int32)], attrs=[('DstT', 'type', 's32')])
    case('Cast_s32_f32', 'Cast', [j], [f32(j)], attrs=[('DstT', 'type', 'f32')])
    case('Cast_f32_pred', 'Cast', [f32([0, 1.5, -0.0, 2])],
         [np.array([False, True, False, True])], attrs=[('DstT', 'type', 'pred')])


def conv2d_nhwc(x, w, stride, padding):
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    if padding == 'SAME':
        oh, ow = -(-h // stride), -(-wd // stride)
        ph = max((oh - 1) * stride + kh - h, 0)
        pw = max((ow - 1) * stride + kw - wd, 0)
        x = np.pad(x, [(0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)])
    else:
        oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, o))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[:, i, j, :] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return out


def pool(x, k, stride, padding, avg):
    n, h, w, c = x.shape
    if padding == 'SAME':
        oh, ow = -(-h // stride), -(-w // stride)
        ph = max((oh - 1) * stride + k - h, 0)
        pw = max((ow - 1) * stride + k - w, 0)
        top, left = ph // 2, pw // 2
    else:
        oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
        top = left = 0
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride - top, j * stride - left
            win = x[:, max(r0, 0):min(r0 + k, h), max(c0, 0):min(c0 + k, w), :]
            out[:, i, j, :] = win.mean(axis=(1, 2)) if avg else win.max(axis=(1, 2))
    return out


def nn():
    a, b = rand([3, 4]), rand([4, 2])
    d = np.float64
    case('MatMul', 'MatMul', [a, b], [f32(a.astype(d) @ b)], tol=F32_TOL)
    case('MatMul_seed', 'MatMul', [f32([[1, 2], [3, 4]])] * 2, [f32([[7, 10], [15, 22]])])
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    case('MatMul_transposed', 'MatMul', [at, bt], [f32(a.astype(d) @ b)],
         attrs=[('transpose_a', 'bool', 1), ('transpose_b', 'bool', 1)], tol=F32_TOL)
    x, y = rand([2, 1, 3, 4]), rand([3, 4, 2])
    case('BatchMatMulV2', 'BatchMatMulV2', [x, y], [f32(x.astype(d) @ y)], tol=F32_TOL)
    xa = np.ascontiguousarray(np.swapaxes(x, -1, -2))
    case('BatchMatMulV2_adj_x', 'BatchMatMulV2', [xa, y], [f32(x.astype(d) @ y)],
         attrs=[('adj_x', 'bool', 1)], tol=F32_TOL)
    v, bias = rand([2, 3, 4]), rand([4])
    case('BiasAdd', 'BiasAdd', [v, bias], [v + bias])
    vc = rand([2, 4, 3])
    case('BiasAdd_NCHW', 'BiasAdd', [vc, bias], [vc + bias[None, :, None]],
         attrs=[('data_format', 'string', 'NCHW')])
    img, k = rand([1, 5, 5, 2]), rand([3, 3, 2, 3])
    for pad in ('VALID', 'SAME'):
        for s in (1, 2):
            case('Conv2D_%s_%d' % (pad, s), 'Conv2D', [img, k],
                 [f32(conv2d_nhwc(img.astype(d), k.astype(d), s, pad))],
                 attrs=[('strides', 'ints', 1, s, s, 1), ('padding', 'string', pad)],
                 tol=(1e-5, 1e-5))
            for op, avg in (('MaxPool', False), ('AvgPool', True)):
                case('%s_%s_%d' % (op, pad, s), op, [img],
                     [f32(pool(img.astype(d), 2, s, pad, avg))],
                     attrs=[('ksize', 'ints', 1, 2, 2, 1), ('strides', 'ints', 1, s, s, 1),
                            ('padding', 'string', pad)], tol=None if not avg else F32_TOL)
    lg = rand([3, 5], -4, 4).astype(d)
    e = np.exp(lg - lg.max(axis=-1, keepdims=True))
    sm = e / e.sum(axis=-1, keepdims=True)
    case('Softmax', 'Softmax', [f32(lg)], [f32(sm)], tol=MATH_TOL)
    case('LogSoftmax', 'LogSoftmax', [f32(lg)], [f32(np.log(sm))], tol=MATH_TOL)


def reductions():
    x = rand([2, 3, 4])
    d = x.astype(np.float64)
    for op, f in {'Sum': np.sum, 'Mean': np.mean, 'Max': np.max, 'Min': np.min,
                  'Prod': np.prod}.items():
        tol = None if op in ('Max', 'Min') else F32_TOL
        case(op + '_axis1', op, [x, np.int32(1)], [f32(f(d, axis=1))], tol=tol)
        case(op + '_axes02_keep', op, [x, np.array([0, -1], dtype=np.int32)],
             [f32(f(d, axis=(0, 2), keepdims=True))],
             attrs=[('keep_dims', 'bool', 1)], tol=tol)
    i = rand([3, 4], -50, 50, np.int32)
    case('Sum_s32_all', 'Sum', [i, np.array([0, 1], dtype=np.int32)],
         [np.int32(i.sum())])
    case('ArgMax', 'ArgMax', [x, np.int32(2)], [np.argmax(x, axis=2).astype(np.int64)])
    case('ArgMin_s32', 'ArgMin', [x, np.int32(0)], [np.argmin(x, axis=0).astype(np.int32)],
         attrs=[('output_type', 'type', 's32')])


def shapes():
    x = rand([2, 3, 4])
    i32 = lambda v: np.array(v, dtype=np.int32)
    case('Reshape', 'Reshape', [x, i32([4, -1])], [x.reshape(4, 6)])
    case('Transpose', 'Transpose', [x, i32([2, 0, 1])], [np.transpose(x, (2, 0, 1))])
    case('ExpandDims', 'ExpandDims', [x, np.int32(-1)], [x[..., None]])
    s = rand([1, 3, 1, 2])
    case('Squeeze', 'Squeeze', [s], [s.reshape(3, 2)])
    case('Squeeze_dims', 'Squeeze', [s], [s.reshape(3, 1, 2)],
         attrs=[('squeeze_dims', 'ints', 0)])
    y = rand([2, 2, 4])
    case('ConcatV2', 'ConcatV2', [[x, y], np.int32(1)], [np.concatenate([x, y], axis=1)])
    a, b, c = rand([3]), rand([3]), rand([3])
    case('Pack', 'Pack', [[a, b, c]], [np.stack([a, b, c])])
    case('Pack_axis1', 'Pack', [[a, b, c]], [np.stack([a, b, c], axis=1)],
         attrs=[('axis', 'int', 1)])
    case('Unpack', 'Unpack', [x], [x[:, i, :] for i in range(3)],
         attrs=[('num', 'int', 3), ('axis', 'int', 1)])
    case('Slice', 'Slice', [x, i32([1, 0, 1]), i32([1, -1, 2])], [x[1:2, 0:, 1:3]])
    case('StridedSlice', 'StridedSlice', [x, i32([0, 2, 3]), i32([2, 0, 0]), i32([1, -1, -2])],
         [x[0:2, 2:0:-1, 3::-2]], attrs=[('end_mask', 'int', 4)])
    case('StridedSlice_shrink', 'StridedSlice', [x, i32([1, 0, 0]), i32([2, 3, 4]),
                                                  i32([1, 1, 1])],
         [x[1, :, :]], attrs=[('shrink_axis_mask', 'int', 1)])
    m = rand([2, 3])
    case('Pad', 'Pad', [m, i32([[1, 0], [2, 1]])], [np.pad(m, [(1, 0), (2, 1)])])
    case('Tile', 'Tile', [m, i32([2, 3])], [np.tile(m, (2, 3))])
    case('Fill', 'Fill', [i32([2, 3]), f32(1.5)], [np.full((2, 3), 1.5, dtype=np.float32)])
    case('Range', 'Range', [np.int32(3), np.int32(-6), np.int32(-2)],
         [np.arange(3, -6, -2, dtype=np.int32)])
    case('Range_f32', 'Range', [f32(0.5), f32(3), f32(0.75)],
         [np.arange(0.5, 3, 0.75, dtype=np.float32)])
    idx = i32([2, 0, -1, 3])
    oh = np.zeros((4, 3), dtype=np.float32)
    for r, k in enumerate(idx):
        if 0 <= k < 3:
            oh[r, k] = 5
    oh[oh == 0] = -1
    case('OneHot', 'OneHot', [idx, np.int32(3), f32(5), f32(-1)], [oh])
    g = i32([[2, 0], [1, 1]])
    case('GatherV2', 'GatherV2', [x, g, np.int32(1)], [np.take(x, g, axis=1)])
    case('GatherV2_axis0', 'GatherV2', [m, i32([1, 0, 1]), np.int32(0)], [m[[1, 0, 1]]])


def main():
    elementwise()
    binary()
    nn()
    reductions()
    shapes()
    emit('# Generated by gen_eager_cases.py; do not edit.\n' + ''.join(cases),
         'gen_eager_cases.py')


if __name__ == '__main__':
    main()
