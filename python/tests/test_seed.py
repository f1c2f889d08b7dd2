# SPDX-License-Identifier: MIT
"""The seed's eager C API scenarios, from Python, and a training step.

c_api_test and runtime_test of the eager seed (Context, TensorHandle,
TensorHandleCopyBetweenDevices, Execute, FunctionDefAndExecute, the
attribute type map, Variables), then an MLP trained with variables whose
losses must be numpy's computation of the same steps.
"""
import unittest

import numpy as np

import xrt
from xrt import _xrt


class Seed(unittest.TestCase):
    def test_context(self):
        devices = xrt.context().devices()
        self.assertGreaterEqual(len(devices), 1)
        self.assertTrue(all(devices))

    def test_tensor_handle(self):
        t = xrt.tensor(np.array([[1, 2], [3, 4]], np.float32))
        self.assertEqual(t.dtype, np.float32)
        self.assertEqual(t.shape, (2, 2))
        np.testing.assert_array_equal(t.numpy(), [[1, 2], [3, 4]])

    def test_tensor_handle_copy_between_devices(self):
        t = xrt.tensor(np.array([[1, 2], [3, 4]], np.float32))
        for d in xrt.devices():
            c = t.to(d)
            self.assertEqual(c.device, d)
            np.testing.assert_array_equal(c.to('host:0').numpy(), t.numpy())

    def test_execute(self):
        m = xrt.tensor(np.array([[1, 2], [3, 4]], np.float32))
        np.testing.assert_array_equal(xrt.ops.MatMul(m, m).numpy(), [[7, 10], [15, 22]])

    def test_function_def_and_execute(self):
        @xrt.function
        def matmul_function(a):
            return xrt.ops.MatMul(a, a)

        m = xrt.tensor(np.array([[1, 2], [3, 4]], np.float32))
        for _ in range(2):
            np.testing.assert_array_equal(matmul_function(m).numpy(), [[7, 10], [15, 22]])

    def test_attribute_type_map(self):
        self.assertEqual(_xrt._attr_type('MatMul', 'transpose_a'), ('bool', False))
        self.assertEqual(_xrt._attr_type('Squeeze', 'squeeze_dims'), ('int', True))
        with self.assertRaises(xrt.NotFoundError):
            _xrt._attr_type('NoSuchOp', 'T')
        with self.assertRaises(xrt.NotFoundError):
            _xrt._attr_type('MatMul', 'no_such_attr')

    def test_variables(self):
        v = xrt.Variable(12.0)
        self.assertEqual(float(v.read()), 12.0)
        v.assign_add(1.5)
        self.assertEqual(float(v.read()), 13.5)
        with self.assertRaises(xrt.InvalidArgumentError):
            v.assign([1.0, 2.0])
        self.assertEqual(float(v.read()), 13.5)


class Training(unittest.TestCase):
    def test_mlp_step_matches_numpy(self):
        rng = np.random.default_rng(11)
        x = rng.standard_normal((8, 4)).astype(np.float32)
        t = rng.standard_normal((8, 2)).astype(np.float32)
        w1 = (rng.standard_normal((4, 6)) * 0.5).astype(np.float32)
        w2 = (rng.standard_normal((6, 2)) * 0.5).astype(np.float32)
        lr = np.float32(0.1)
        v1, v2 = xrt.Variable(w1), xrt.Variable(w2)
        tx, tt = xrt.tensor(x), xrt.tensor(t)
        losses = []
        for _ in range(30):
            # numpy's step
            h = np.maximum(x @ w1, 0)
            e = h @ w2 - t
            want = float(np.mean(e.astype(np.float64) ** 2))
            dy = e * np.float32(2 / e.size)
            dh = np.where(h > 0, dy @ w2.T, 0).astype(np.float32)
            w2, w1 = w2 - lr * (h.T @ dy), w1 - lr * (x.T @ dh)
            # the same with eager ops on variables
            a1, a2 = v1.read(), v2.read()
            hh = xrt.ops.Relu(tx @ a1)
            ee = hh @ a2 - tt
            loss = float(xrt.ops.Mean(ee * ee, [0, 1]))
            ddy = ee * (2 / e.size)
            ddh = xrt.ops.Select(hh > 0, xrt.ops.MatMul(ddy, a2, transpose_b=True),
                                 xrt.ops.ZerosLike(hh))
            v2.assign_add(xrt.ops.MatMul(hh, ddy, transpose_a=True) * -lr)
            v1.assign_add(xrt.ops.MatMul(tx, ddh, transpose_a=True) * -lr)
            self.assertAlmostEqual(loss, want, delta=1e-5 * (1 + want))
            losses.append(loss)
        self.assertLess(losses[-1], losses[0] / 2)
        np.testing.assert_allclose(v2.numpy(), w2, atol=1e-5)


if __name__ == '__main__':
    unittest.main()
