# SPDX-License-Identifier: MIT
"""xrt.function: Python functions traced into FunctionDefs."""
import gc
import unittest

import numpy as np

import xrt
from support import rss_pages


class Functions(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(5)
        self.x = rng.standard_normal((4, 3)).astype(np.float32)
        self.w = rng.standard_normal((3, 2)).astype(np.float32)
        self.b = rng.standard_normal(2).astype(np.float32)

    def test_traced_once_then_run_as_one_function(self):
        calls = []

        @xrt.function
        def layer(x, w, b):
            calls.append(1)
            return xrt.ops.Relu(x @ w + b)

        want = np.maximum(self.x @ self.w + self.b, 0)
        for _ in range(3):
            np.testing.assert_allclose(layer(self.x, self.w, self.b).numpy(), want,
                                       rtol=1e-6)
        self.assertEqual(len(calls), 1)              # Python ran once
        self.assertEqual(len(layer.traces), 1)
        (f, single), = layer.traces.values()
        self.assertTrue(xrt.context() and single)
        np.testing.assert_allclose(f(xrt.tensor(self.x), xrt.tensor(self.w),
                                     xrt.tensor(self.b)).numpy(), want, rtol=1e-6)
        # other types trace again
        layer(self.x.astype(np.float64), self.w.astype(np.float64), self.b.astype(np.float64))
        self.assertEqual(len(calls), 2)

    def test_constants_lists_indexing_several_results(self):
        @xrt.function
        def f(a):
            total = xrt.ops.Sum(a * 2.0, [0, 1])
            return total, a[0, ::-1] - 1, xrt.ops.ConcatV2([a, a], 0), 3 - a[..., 1:]

        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        for _ in range(2):
            s, r, c, d = f(a)
            self.assertEqual(float(s), 30)
            np.testing.assert_array_equal(r.numpy(), a[0, ::-1] - 1)
            np.testing.assert_array_equal(c.numpy(), np.concatenate([a, a]))
            np.testing.assert_array_equal(d.numpy(), 3 - a[..., 1:])

    def test_keyword_values_are_baked_in(self):
        @xrt.function
        def scale(x, k=1.0, transpose=False):
            return xrt.ops.MatMul(x, x, transpose_b=transpose) * k

        x = self.x[:3]
        np.testing.assert_allclose(scale(x, k=2.0).numpy(), 2 * x @ x, rtol=1e-5)
        np.testing.assert_allclose(scale(x, k=3.0, transpose=True).numpy(), 3 * x @ x.T,
                                   rtol=1e-5)
        self.assertEqual(len(scale.traces), 2)

    def test_what_cannot_be_traced(self):
        @xrt.function
        def constant(x):
            return 1.0

        with self.assertRaises(TypeError):
            constant(self.x)

        @xrt.function
        def branches(x):
            return x if xrt.ops.Sum(x, [0, 1]) else -x

        with self.assertRaises(TypeError):
            branches(self.x)

        @xrt.function
        def wrong(x):
            return xrt.ops.MatMul(x, xrt.tensor([1]))

        with self.assertRaises(xrt.InvalidArgumentError):
            wrong(self.x)
        # the next function still traces
        np.testing.assert_array_equal(xrt.function(lambda x: -x)(self.x).numpy(), -self.x)

    def test_variables_are_read_and_assigned_in_order(self):
        w = xrt.Variable(np.array([1, 2], np.float32))
        v = xrt.Variable(np.array([-1, -2], np.float32))

        @xrt.function
        def step(w, x):
            w.assign_add(w.read() * x)
            return w.read()

        @xrt.function
        def swap(a, b):
            ra, rb = a.read(), b.read()
            a.assign(rb)
            b.assign(ra)
            return ra + rb

        x = np.array([3, 4], np.float32)
        # traced (and run) on the first call, the function after
        np.testing.assert_array_equal(step(w, x).numpy(), [4, 10])
        np.testing.assert_array_equal(step(w, x).numpy(), [16, 50])
        np.testing.assert_array_equal(w.numpy(), [16, 50])
        self.assertEqual(len(step.traces), 1)
        for _ in range(2):
            np.testing.assert_array_equal(swap(w, v).numpy(), [15, 48])
        np.testing.assert_array_equal(w.numpy(), [16, 50])
        np.testing.assert_array_equal(v.numpy(), [-1, -2])
        self.assertEqual(len(swap.traces), 1)
        # a tensor where the trace had a variable traces anew: a tensor has no assign_add
        with self.assertRaises(AttributeError):
            step(np.array([1, 2], np.float32), x)
        self.assertEqual(len(step.traces), 1)

    def test_variables_used_from_outside_are_captured(self):
        w = xrt.Variable(np.array([1, 2], np.float32))
        steps = xrt.Variable(np.int32(0))

        @xrt.function
        def scaled(x):
            steps.assign_add(np.int32(1))
            return w.read() * x

        x = np.array([3, 4], np.float32)
        np.testing.assert_array_equal(scaled(x).numpy(), [3, 8])
        w.assign(np.array([10, 20], np.float32))    # not baked in: read at each call
        np.testing.assert_array_equal(scaled(x).numpy(), [30, 80])
        self.assertEqual(int(steps.numpy()), 2)
        self.assertEqual(len(scaled.traces), 1)

    def test_many_calls_leave_nothing(self):
        @xrt.function
        def f(x, w):
            return xrt.ops.Tanh(x @ w) + 1

        x, w = xrt.tensor(self.x), xrt.tensor(self.w)
        for _ in range(500):
            f(x, w)
        gc.collect()
        rss = rss_pages()
        for _ in range(5000):
            f(x, w)
        gc.collect()
        self.assertLess(rss_pages() - rss, 256)


if __name__ == '__main__':
    unittest.main()
