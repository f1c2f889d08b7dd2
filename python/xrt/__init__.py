# SPDX-License-Identifier: MIT
"""XRT from Python.

Eager execution on concrete values::

    import xrt
    a = xrt.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = xrt.ops.MatMul(a, a, transpose_b=True)   # any registered op, by name
    c = (a @ a + 1).numpy()                      # operators, and numpy views

The XRT API: compile once, keep data on the device behind handles::

    with xrt.Session('host:0') as s:
        c = s.compile(hlo_text)                  # or xrt.Computation bytes
        x = s.allocate(np.ones((2, 3), np.float32))
        y = s.execute(c, [x])
        print(s.read(y, release=True))

Tensors are immutable values on a device (``xrt.devices()`` lists them);
host tensors share their memory with numpy through the buffer protocol
(read-only, no copy), and ``xrt.tensor()`` copies what it is given.
Errors raise ``xrt.Error`` subclasses carrying the status code, which are
also the built-in exception a caller expects (``NotFoundError`` is a
``LookupError``, ``InvalidArgumentError`` a ``ValueError``, ...).
"""
from ._xrt import (AbortedError, AlreadyExistsError, CancelledError, Context,
                   DataLossError, DeadlineExceededError, Error, Event, FailedPreconditionError,
                   Handle, InternalError, InvalidArgumentError, NotFoundError, OpFunc,
                   OutOfRangeError, PermissionDeniedError, ResourceExhaustedError, Session,
                   Tensor,
                   UnavailableError, UnimplementedError, UnknownError, context, devices,
                   tensor)
from ._xrt import from_dlpack
from ._xrt import (distributed_abort, distributed_init, distributed_launched,
                   distributed_rank, distributed_shutdown)
from ._xrt import op as _op
from . import _function as _function_module
from ._function import function

__all__ = ['Context', 'Tensor', 'OpFunc', 'Session', 'Handle', 'Variable', 'context', 'devices',
           'tensor', 'from_dlpack', 'function', 'ops', 'distributed_init',
           'distributed_rank', 'distributed_launched', 'distributed_shutdown',
           'distributed_abort',
           'Error', 'AbortedError', 'AlreadyExistsError', 'CancelledError', 'DataLossError',
           'DeadlineExceededError', 'FailedPreconditionError', 'InternalError',
           'InvalidArgumentError', 'NotFoundError', 'OutOfRangeError', 'PermissionDeniedError',
           'ResourceExhaustedError', 'UnavailableError', 'UnimplementedError', 'UnknownError']


class _Ops:
    """The eager ops by registry name: ``xrt.ops.Relu(x)``.

    Positional arguments are inputs (a list of tensors is an input list);
    keyword arguments are attributes, converted by the type the op gives
    them (bool, int, float, str, element type, shape, tensor, or lists).
    """

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        try:
            f = _op(name)
        except NotFoundError as e:
            raise AttributeError(str(e)) from None
        setattr(self, name, f)      # later lookups are plain attributes
        return f


ops = _Ops()


class Variable:
    """A resource variable: a value kept on the device and updated in place.

    ``Variable(initial, dtype=None)``; ``read()`` gives the value as a
    tensor, ``assign(v)`` and ``assign_add(v)`` change it, ``handle`` is the
    resource tensor the variable ops take.  The value lives while the
    variable does.  (The ops VarHandleOp, AssignVariableOp,
    AssignAddVariableOp and ReadVariableOp, run eagerly.)
    """

    def __init__(self, initial, dtype=None):
        value = initial if isinstance(initial, Tensor) else tensor(initial, dtype=dtype)
        self.dtype, self.shape = value.dtype, value.shape
        self.handle = ops.VarHandleOp(dtype=self.dtype, shape=list(self.shape))
        ops.AssignVariableOp(self.handle, value)

    def _value(self, v):
        if isinstance(v, (Tensor, _function_module.Traced)):
            return v
        return tensor(v, dtype=self.dtype)

    def read(self):
        return ops.ReadVariableOp(_function_module.captured(self.handle), dtype=self.dtype)

    def numpy(self):
        return self.read().numpy()

    def assign(self, v):
        ops.AssignVariableOp(_function_module.captured(self.handle), self._value(v))
        return self

    def assign_add(self, v):
        ops.AssignAddVariableOp(_function_module.captured(self.handle), self._value(v))
        return self

    def __repr__(self):
        return 'xrt.Variable(%r)' % (self.read(),)


_function_module.Variable = Variable
