# SPDX-License-Identifier: MIT
"""xrt.function: a Python function traced once into an xrt.FunctionDef.

The first call with a given list of argument types runs the function on
the real tensors with every op both executed and recorded (so the types
of everything are known, and the first result is the real one); the
record becomes a FunctionDef that libxrt registers and compiles as one
program.  Later calls with the same types run that program.  What the
function computes must depend only on its tensor arguments: Python
values are baked in as constants, and Python control flow follows the
traced values.  An xrt.Variable argument becomes a resource argument:
its read(), assign() and assign_add() inside are recorded, in order, as
the variable ops; so are those of a variable the function uses from
outside (captured: an extra resource argument, passed by each call).
"""
import functools
import itertools
import struct
import threading

import numpy as np

from . import _xrt

_names = itertools.count()
_local = threading.local()


# --- protobuf wire format (proto/xrt.proto), just what a FunctionDef needs ----

def _varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field, wire):
    return _varint(field << 3 | wire)


def _int(field, v):
    return _key(field, 0) + _varint(v)


def _bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return _key(field, 2) + _varint(len(b)) + b


def _float(field, v):
    return _key(field, 5) + struct.pack('<f', v)


def _shape(dtype_code, dims):
    return _int(1, dtype_code) + b''.join(_int(2, d) for d in dims)


def _literal(t):
    """An xrt.Literal of a host tensor: its shape and row-major bytes."""
    code = _xrt._dtype_code(t.dtype)
    return _bytes(1, _shape(code, t.shape)) + _bytes(2, bytes(memoryview(t).cast('B')))


def _attr_value(op, name, v):
    kind, is_list = _xrt._attr_type(op, name)
    if is_list:
        items = list(v)
        if kind == 'int':
            body = b''.join(_int(2, int(x)) for x in items)
        elif kind == 'float':
            body = b''.join(_float(3, float(x)) for x in items)
        elif kind == 'type':
            body = b''.join(_int(5, _xrt._dtype_code(x)) for x in items)
        else:
            raise TypeError('xrt.function: list attribute %r of %s cannot be traced yet'
                            % (name, op))
        return _bytes(8, body)
    if kind == 'string':
        return _bytes(1, v)
    if kind == 'int':
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("xrt: attribute '%s' wants an int" % name)
        return _int(2, v)
    if kind == 'float':
        return _float(3, float(v))
    if kind == 'bool':
        if not isinstance(v, bool):
            raise TypeError("xrt: attribute '%s' wants a bool" % name)
        return _int(4, int(v))
    if kind == 'type':
        return _int(5, _xrt._dtype_code(v))
    if kind == 'shape':
        return _bytes(6, _shape(_xrt._dtype_code('float32'), list(v)))
    if kind == 'tensor':
        return _bytes(7, _literal(_xrt.tensor(v)))
    raise TypeError('xrt.function: attribute %r of %s cannot be traced yet' % (name, op))


def _named_attr(op, name, v):
    return _bytes(1, name) + _bytes(2, _attr_value(op, name, v))


# --- tracing ----------------------------------------------------------------

class Traced:
    """A value inside a traced function: where it comes from, and its tensor."""
    __slots__ = ('ref', 'value', '__weakref__')

    def __init__(self, ref, value):
        self.ref, self.value = ref, value

    shape = property(lambda self: self.value.shape)
    dtype = property(lambda self: self.value.dtype)
    ndim = property(lambda self: self.value.ndim)

    def __repr__(self):
        return 'xrt.function value %s %s' % (self.ref, self.value)

    def __getitem__(self, key):
        begin, end, strides, masks = _xrt._index_spec(key)
        names = ('begin_mask', 'end_mask', 'ellipsis_mask', 'new_axis_mask',
                 'shrink_axis_mask')
        return _record('StridedSlice', (self, _xrt.tensor(begin, dtype='int64'),
                                        _xrt.tensor(end, dtype='int64'),
                                        _xrt.tensor(strides, dtype='int64')),
                       dict(zip(names, masks)))

    def __bool__(self):
        raise TypeError('xrt.function: a traced value has no truth value (Python control '
                        'flow cannot depend on it)')


def _binary(op, swap=False):
    def f(self, other):
        if not isinstance(other, Traced):
            other = _xrt.tensor(other, dtype=self.value.dtype) \
                if isinstance(other, (int, float)) else other
        a, b = (other, self) if swap else (self, other)
        if op == '@':
            rank = lambda x: x.ndim if isinstance(x, (Traced, _xrt.Tensor)) else np.ndim(x)
            name = 'MatMul' if rank(a) == 2 and rank(b) == 2 else 'BatchMatMulV2'
        else:
            name = op
        return _record(name, (a, b), {})
    return f


for _dunder, _op in (('add', 'AddV2'), ('sub', 'Sub'), ('mul', 'Mul'), ('truediv', 'RealDiv'),
                     ('floordiv', 'FloorDiv'), ('mod', 'FloorMod'), ('pow', 'Pow'),
                     ('matmul', '@'), ('and', 'LogicalAnd'), ('or', 'LogicalOr')):
    setattr(Traced, '__%s__' % _dunder, _binary(_op))
    setattr(Traced, '__r%s__' % _dunder, _binary(_op, swap=True))
for _dunder, _op in (('lt', 'Less'), ('le', 'LessEqual'), ('gt', 'Greater'),
                     ('ge', 'GreaterEqual')):
    setattr(Traced, '__%s__' % _dunder, _binary(_op))
Traced.__neg__ = lambda self: _record('Neg', (self,), {})
Traced.__abs__ = lambda self: _record('Abs', (self,), {})
Traced.__invert__ = lambda self: _record('LogicalNot', (self,), {})
Traced.__pos__ = lambda self: self


class _Graph:
    def __init__(self):
        self.nodes = []         # serialized NodeDefs
        self.captures = []      # variables' handles the function uses without taking them

    def capture(self, handle):
        """A variable used from outside: an extra resource argument; its traced handle."""
        for i, h in enumerate(self.captures):
            if h is handle:
                return Traced('k%d' % i, handle)
        self.captures.append(handle)
        return Traced('k%d' % (len(self.captures) - 1), handle)

    def const(self, value):
        """A Const node of @value (anything xrt.tensor() takes); its output."""
        t = _xrt.tensor(value) if not isinstance(value, _xrt.Tensor) else value
        name = 'c%d' % len(self.nodes)
        self.nodes.append(_bytes(1, name) + _bytes(2, 'Const') +
                          _bytes(5, _named_attr('Const', 'dtype', t.dtype)) +
                          _bytes(5, _named_attr('Const', 'value', t)))
        return name + ':0'

    def node(self, op, inputs, attrs):
        name = 'n%d' % len(self.nodes)
        body = _bytes(1, name) + _bytes(2, op) + b''.join(_bytes(3, i) for i in inputs)
        body += b''.join(_bytes(5, _named_attr(op, k, v)) for k, v in attrs.items())
        self.nodes.append(body)
        return name


def _record(op, args, kwargs):
    """Runs @op on the traced values' tensors and records it as a node."""
    g = getattr(_local, 'graph', None)
    if g is None:
        raise RuntimeError('xrt.function: a traced value escaped its function')
    real, refs = [], []
    attrs = dict(kwargs)
    for a in args:
        if isinstance(a, (list, tuple)) and any(isinstance(x, Traced) for x in a):
            real.append([x.value if isinstance(x, Traced) else _xrt.tensor(x) for x in a])
            refs += [x.ref if isinstance(x, Traced) else g.const(x) for x in a]
            try:
                if 'N' not in attrs and _xrt._attr_type(op, 'N')[0] == 'int':
                    attrs['N'] = len(a)
            except LookupError:
                pass
        elif isinstance(a, Traced):
            real.append(a.value)
            refs.append(a.ref)
        else:
            t = _xrt.tensor(a) if not isinstance(a, _xrt.Tensor) else a
            real.append(t)
            refs.append(g.const(t))
    out = _xrt.op(op)(*real, **kwargs)
    name = g.node(op, refs, attrs)
    if out is None:
        return None
    if isinstance(out, tuple):
        return tuple(Traced('%s:%d' % (name, i), v) for i, v in enumerate(out))
    return Traced(name + ':0', out)


_xrt._set_trace_hook(Traced, _record)


Variable = None     # xrt.Variable, set by the package once it is defined


def captured(handle):
    """@handle as the variable ops of a trace take it: a variable the traced
    function uses without taking it as an argument becomes an extra one."""
    g = getattr(_local, 'graph', None)
    if g is None or isinstance(handle, Traced):
        return handle
    return g.capture(handle)


def _traced_variable(ref, var):
    """A stand-in for @var whose handle is the traced resource argument @ref."""
    v = object.__new__(Variable)
    v.dtype, v.shape, v.handle = var.dtype, var.shape, Traced(ref, var.handle)
    return v


def _param(i, a):
    ref = 'a%d' % i
    return _traced_variable(ref, a) if isinstance(a, Variable) else Traced(ref, a)


def _arg_def(i, a):
    if isinstance(a, Variable):
        return _bytes(1, 'a%d' % i) + _int(4, 1)       # a resource
    return _bytes(1, 'a%d' % i) + _int(2, _xrt._dtype_code(a.dtype))


def _trace(fn, name, args, kwargs):
    """Runs @fn on traced arguments; registers the FunctionDef; the results."""
    g = _Graph()
    _local.graph, saved = g, getattr(_local, 'graph', None)
    try:
        params = [_param(i, a) for i, a in enumerate(args)]
        out = fn(*params, **kwargs)
    finally:
        _local.graph = saved
    single = not isinstance(out, (tuple, list))
    outs = [out] if single else list(out)
    for i, o in enumerate(outs):
        if not isinstance(o, Traced):
            raise TypeError('xrt.function: result %d of %s is not computed from its tensor '
                            'arguments' % (i, fn.__name__))
    msg = _bytes(1, name)
    msg += b''.join(_bytes(2, _arg_def(i, a)) for i, a in enumerate(args))
    msg += b''.join(_bytes(2, _bytes(1, 'k%d' % i) + _int(4, 1))
                    for i in range(len(g.captures)))
    msg += b''.join(_bytes(3, _bytes(1, 'r%d' % i) + _int(2, _xrt._dtype_code(o.dtype)))
                    for i, o in enumerate(outs))
    msg += b''.join(_bytes(5, n) for n in g.nodes)
    msg += b''.join(_bytes(6, o.ref) for o in outs)
    _xrt._add_function(msg)
    values = tuple(o.value for o in outs)
    return values[0] if single else values, single, tuple(g.captures)


def function(fn=None):
    """Decorator: traces @fn once per list of argument types into a function.

    Positional arguments are tensors (or anything xrt.tensor() takes) or
    xrt.Variable objects, which the function may read and assign;
    keyword arguments are Python values fixed at tracing (a new value
    traces again).  The traced function's name, ``f.function_name(*args)``,
    works with ``xrt.ops`` as well.
    """
    if fn is None:
        return function

    cache = {}
    captured_of = {}    # per trace: the handles of the variables it captured
    lock = threading.Lock()

    @functools.wraps(fn)
    def call(*args, **kwargs):
        ts = [a if isinstance(a, (_xrt.Tensor, Variable)) else _xrt.tensor(a) for a in args]
        key = (tuple(('resource ' if isinstance(t, Variable) else '') + str(t.dtype)
                     for t in ts), repr(sorted(kwargs.items())))
        with lock:
            entry = cache.get(key)
        if entry is None:
            name = '%s_%d' % (fn.__name__, next(_names))
            out, single, captures = _trace(fn, name, ts, kwargs)
            with lock:
                cache[key] = (_xrt.op(name), single)
                captured_of[key] = captures
            return out
        f, single = entry
        out = f(*[t.handle if isinstance(t, Variable) else t for t in ts], *captured_of[key])
        return out if single or isinstance(out, tuple) else (out,)

    call.traces = cache
    return call
