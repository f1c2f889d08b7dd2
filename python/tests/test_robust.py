# SPDX-License-Identifier: MIT
"""No argument crashes: random calls of every op with random arguments.

Each call must return or raise a Python exception; afterwards the
library keeps working.  Seeded, so a failure replays.
"""
import os
import random
import unittest

import numpy as np

import xrt

CASES = os.path.join(os.path.dirname(__file__), '..', '..', 'selftests', 'libxrt', 'eager',
                     'eager_cases.txt')
ALLOWED = (xrt.Error, TypeError, ValueError, IndexError, OverflowError, AttributeError,
           LookupError, BufferError, NotImplementedError, MemoryError)


def op_names():
    names = set()
    with open(CASES) as f:
        for line in f:
            if line.startswith('=== '):
                names.add(line.split()[2])
    return sorted(names | {'VarHandleOp', 'ReadVariableOp', 'AssignVariableOp',
                           'RandomUniform', 'Const'})


class Robust(unittest.TestCase):
    def test_random_calls_never_crash(self):
        rng = random.Random(20261130)
        f32 = xrt.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        pool = [None, 'x', '', 0, -1, 7, 2**70, 1.5, float('nan'), True, [], [1, 2], [[1], [2, 3]],
                (1, 2), f32, xrt.tensor([1, 2, 3]), xrt.tensor([True, False]), xrt.tensor(2.0),
                xrt.tensor(np.zeros((0, 3), np.float32)), np.ones((2, 3)), [f32, f32],
                [f32, 1], object(), b'\x00', {'a': 1}, np.float16(1), xrt.tensor(np.int64(5))]
        attrs = ['T', 'N', 'axis', 'dtype', 'shape', 'value', 'transpose_a', 'keep_dims', 'num',
                 'squeeze_dims', 'ksize', 'strides', 'padding', 'DstT', 'begin_mask', 'seed',
                 'output_type', 'data_format', 'Tidx', 'nonsense']
        values = pool + ['SAME', 'NHWC', 'float32', np.int32, [1, 2, 2, 1], [0], [-5],
                         [2**40], [None, 3]]
        names = op_names()
        calls = 0
        for _ in range(3000):
            f = getattr(xrt.ops, rng.choice(names))
            args = [rng.choice(pool) for _ in range(rng.randrange(5))]
            kwargs = {rng.choice(attrs): rng.choice(values) for _ in range(rng.randrange(3))}
            try:
                f(*args, **kwargs)
            except ALLOWED:
                pass
            calls += 1
        self.assertEqual(calls, 3000)
        m = xrt.tensor(np.array([[1, 2], [3, 4]], np.float32))
        np.testing.assert_array_equal(xrt.ops.MatMul(m, m).numpy(), [[7, 10], [15, 22]])

    def test_random_indices_never_crash(self):
        rng = random.Random(7)
        t = xrt.tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
        items = [0, 1, -1, 5, -9, None, Ellipsis, slice(None), slice(1, None), slice(None, 1),
                 slice(None, None, -1), slice(0, 9, 2), slice(-9, 9, -3), 2**63 - 1, -2**63]
        for _ in range(2000):
            key = tuple(rng.choice(items) for _ in range(rng.randrange(6)))
            try:
                got = t[key]
            except ALLOWED:
                continue
            try:
                want = np.arange(24, dtype=np.float32).reshape(2, 3, 4)[key]
            except (IndexError, ValueError, TypeError):
                continue
            self.assertEqual(got.shape, want.shape, key)
            np.testing.assert_array_equal(got.numpy(), want, str(key))


if __name__ == '__main__':
    unittest.main()
