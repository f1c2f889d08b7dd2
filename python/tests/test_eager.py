# SPDX-License-Identifier: MIT
"""The eager API from Python: tensors, ops, operators, errors, leaks.

Expected values come from numpy, computed here on the same inputs.
"""
import ctypes
import gc
import os
import sys
import unittest

import numpy as np

import xrt
from support import rss_pages


class Tensors(unittest.TestCase):
    def test_devices(self):
        self.assertIn('host:0', xrt.devices())
        self.assertTrue(all(d for d in xrt.devices()))
        self.assertIn('host:0', xrt.context().devices())

    def test_round_trip_every_numpy_type(self):
        for dt in ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32',
                   'uint64', 'float16', 'float32', 'float64', 'complex64', 'complex128'):
            a = (np.arange(12) % 5 - 2).astype(dt).reshape(3, 4)
            t = xrt.tensor(a)
            self.assertEqual(t.shape, (3, 4))
            self.assertEqual(t.dtype, np.dtype(dt))
            self.assertEqual(t.ndim, 2)
            self.assertEqual(t.size, 12)
            self.assertEqual(t.device, 'host:0')
            np.testing.assert_array_equal(t.numpy(), a)
            self.assertEqual(t.numpy().dtype, np.dtype(dt))

    def test_numpy_shares_memory_read_only(self):
        t = xrt.tensor(np.arange(6, dtype=np.float32))
        a, b = t.numpy(), np.asarray(t)
        self.assertTrue(np.shares_memory(a, b))
        self.assertFalse(a.flags.writeable)
        self.assertTrue(memoryview(t).readonly)
        with self.assertRaises(ValueError):
            a[0] = 1
        del t               # the arrays keep the tensor alive
        np.testing.assert_array_equal(a, np.arange(6))

    def test_tensor_copies_its_input(self):
        a = np.ones(4, np.float32)
        t = xrt.tensor(a)
        a[0] = 7
        self.assertEqual(t.numpy()[0], 1)

    def test_python_values_take_tensorflow_defaults(self):
        self.assertEqual(xrt.tensor(1.5).dtype, np.float32)
        self.assertEqual(xrt.tensor([1, 2]).dtype, np.int32)
        self.assertEqual(xrt.tensor(True).dtype, np.bool_)
        self.assertEqual(xrt.tensor([[1.0], [2.0]]).shape, (2, 1))
        self.assertEqual(xrt.tensor(2**40).dtype, np.int64)
        self.assertEqual(xrt.tensor([1, 2**40]).dtype, np.int64)
        self.assertEqual(xrt.tensor(3, dtype='float64').dtype, np.float64)
        self.assertEqual(xrt.tensor([1, 2], dtype=np.int64).dtype, np.int64)
        self.assertEqual(xrt.tensor(np.zeros((2, 3))[:, ::2]).shape, (2, 2))

    def test_scalars_and_repr(self):
        t = xrt.tensor(2.5)
        self.assertEqual(t.shape, ())
        self.assertEqual(float(t), 2.5)
        self.assertEqual(int(xrt.tensor(7)), 7)
        self.assertTrue(bool(xrt.tensor(1.0)))
        self.assertIn('f32[] 2.5', repr(t))
        self.assertIn("device='host:0'", repr(t))
        self.assertEqual(len(xrt.tensor([1, 2, 3])), 3)

    def test_bad_values(self):
        with self.assertRaises(TypeError):
            xrt.tensor(object())
        with self.assertRaises(TypeError):
            xrt.tensor([1, 2], dtype='float128')
        with self.assertRaises(TypeError):
            xrt.tensor(np.array(['a', 'b']))
        with self.assertRaises(ValueError):
            xrt.tensor(np.zeros((1,) * 9, np.float32))
        with self.assertRaises(ValueError):
            bool(xrt.tensor([1.0, 2.0]))
        with self.assertRaises(TypeError):
            len(xrt.tensor(1.0))
        with self.assertRaises(TypeError):
            memoryview(xrt.tensor([1.0])).cast('B')[0:1] = b'x'
        with self.assertRaises(TypeError):
            (ctypes.c_char * 4).from_buffer(xrt.tensor([1.0]))
        with self.assertRaises(ValueError):
            xrt.tensor([1.0]).numpy()[0] = 2
        with self.assertRaises(xrt.NotFoundError):
            xrt.tensor([1.0], device='tpu:0')
        with self.assertRaises(TypeError):
            float(xrt.tensor([1.0, 2.0]))


class Ops(unittest.TestCase):
    def test_seed_matmul(self):
        a = xrt.tensor([[1.0, 2.0], [3.0, 4.0]])
        np.testing.assert_array_equal(xrt.ops.MatMul(a, a).numpy(), [[7, 10], [15, 22]])

    def test_attributes_by_their_declared_types(self):
        rng = np.random.default_rng(1)
        x, y = rng.random((3, 4), np.float32), rng.random((3, 5), np.float32)
        got = xrt.ops.MatMul(xrt.tensor(x), xrt.tensor(y), transpose_a=True).numpy()
        np.testing.assert_allclose(got, x.T @ y, rtol=1e-6)
        got = xrt.ops.Sum(xrt.tensor(x), [0, 1], keep_dims=True).numpy()
        np.testing.assert_allclose(got, x.sum(keepdims=True), rtol=1e-6)
        for dst in ('int32', np.int32, np.dtype('int32'), 's32', int):
            c = xrt.ops.Cast(xrt.tensor([1.7, -2.2]), DstT=dst)
            self.assertEqual(c.dtype, np.int32)
            np.testing.assert_array_equal(c.numpy(), [1, -2])
        s = xrt.ops.Squeeze(xrt.tensor(np.zeros((1, 3, 1), np.float32)), squeeze_dims=[0])
        self.assertEqual(s.shape, (3, 1))
        img = rng.random((1, 4, 4, 1), np.float32)
        k = np.ones((2, 2, 1, 1), np.float32)
        out = xrt.ops.Conv2D(xrt.tensor(img), xrt.tensor(k), strides=[1, 2, 2, 1],
                             padding='VALID').numpy()
        want = img[0, :, :, 0].reshape(2, 2, 2, 2).sum(axis=(1, 3))
        np.testing.assert_allclose(out[0, :, :, 0], want, rtol=1e-6)

    def test_input_lists_and_several_outputs(self):
        a = xrt.tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
        c = xrt.ops.ConcatV2([a, a], 1)
        np.testing.assert_array_equal(c.numpy(), np.concatenate([a.numpy()] * 2, 1))
        p = xrt.ops.Pack([a, a, a], axis=1)
        self.assertEqual(p.shape, (2, 3, 2))
        parts = xrt.ops.Unpack(a, num=2)
        self.assertIsInstance(parts, tuple)
        np.testing.assert_array_equal(parts[1].numpy(), [2, 3])

    def test_variables(self):
        v = xrt.ops.VarHandleOp(dtype='float32', shape=[2])
        self.assertEqual(v.dtype, 'resource')
        with self.assertRaises(BufferError):
            v.numpy()
        self.assertIsNone(xrt.ops.AssignVariableOp(v, xrt.tensor([1.0, 2.0])))
        xrt.ops.AssignAddVariableOp(v, xrt.tensor([0.5, 0.5]))
        got = xrt.ops.ReadVariableOp(v, dtype=np.float32)
        np.testing.assert_array_equal(got.numpy(), [1.5, 2.5])

    def test_errors_carry_codes(self):
        a = xrt.tensor([[1.0]])
        with self.assertRaises(AttributeError):
            xrt.ops.NoSuchOp
        with self.assertRaises(xrt.NotFoundError) as e:
            xrt._xrt.op('NoSuchOp')
        self.assertEqual(e.exception.code, 5)
        self.assertIsInstance(e.exception, LookupError)
        with self.assertRaises(xrt.InvalidArgumentError) as e:
            xrt.ops.MatMul(a, xrt.tensor([[1]]))
        self.assertIn('input #1 was expected to be a f32 tensor', str(e.exception))
        self.assertIsInstance(e.exception, ValueError)
        with self.assertRaises(xrt.NotFoundError):
            xrt.ops.MatMul(a, a, no_such_attr=True)
        with self.assertRaises(TypeError):
            xrt.ops.MatMul(a, a, transpose_a=1)
        with self.assertRaises(TypeError):
            xrt.ops.Cast(a, DstT='nonsense')
        with self.assertRaises(TypeError):
            xrt.ops.Squeeze(a, squeeze_dims=['x'])
        with self.assertRaises(xrt.InvalidArgumentError):
            xrt.ops.MatMul(a)
        with self.assertRaises(TypeError):
            xrt.ops.Relu(object())
        # the op still works after each of those
        np.testing.assert_array_equal(xrt.ops.MatMul(a, a).numpy(), [[1]])


class Operators(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(7)
        self.x = rng.uniform(1, 3, (3, 4)).astype(np.float32)
        self.y = rng.uniform(1, 3, (4,)).astype(np.float32)
        self.tx, self.ty = xrt.tensor(self.x), xrt.tensor(self.y)

    def check(self, got, want):
        self.assertIsInstance(got, xrt.Tensor)
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-6)

    def test_arithmetic_broadcasts_like_numpy(self):
        x, y, tx, ty = self.x, self.y, self.tx, self.ty
        self.check(tx + ty, x + y)
        self.check(tx - ty, x - y)
        self.check(tx * ty, x * y)
        self.check(tx / ty, x / y)
        self.check(tx // ty, x // y)
        self.check(tx % ty, np.mod(x, y))
        self.check(tx ** ty, x ** y)
        self.check(-tx, -x)
        self.check(abs(-tx), x)
        self.check(+tx, x)
        self.check(tx @ xrt.tensor(x.T.copy()), x @ x.T)
        z = np.arange(8, dtype=np.float32).reshape(4, 2)
        self.check(xrt.tensor(np.ones((2, 3, 4), np.float32)) @ xrt.tensor(z),
                   np.ones((2, 3, 4)) @ z)
        with self.assertRaises(xrt.InvalidArgumentError):     # TensorFlow's rule
            tx @ ty

    def test_numbers_take_the_tensor_type(self):
        x, tx = self.x, self.tx
        self.check(tx + 1, x + 1)
        self.check(2 * tx, 2 * x)
        self.check(1.5 - tx, 1.5 - x)
        self.check(3 / tx, 3 / x)
        self.check(tx + [1, 2, 3, 4], x + np.array([1, 2, 3, 4], np.float32))
        i = xrt.tensor(np.array([5, -7], np.int64))
        self.assertEqual((i + 1).dtype, np.int64)
        np.testing.assert_array_equal((i // 2).numpy(), [2, -4])

    def test_comparisons_and_logic(self):
        x, tx = self.x, self.tx
        np.testing.assert_array_equal((tx < 2).numpy(), x < 2)
        np.testing.assert_array_equal((tx >= 2).numpy(), x >= 2)
        np.testing.assert_array_equal((2 > tx).numpy(), 2 > x)
        b = tx < 2
        np.testing.assert_array_equal((b & (tx > 1.5)).numpy(), (x < 2) & (x > 1.5))
        np.testing.assert_array_equal((~b).numpy(), ~(x < 2))
        self.assertTrue(tx == tx)           # identity, so tensors hash
        self.assertEqual(len({tx, tx}), 1)

    def test_unsupported_operands(self):
        with self.assertRaises(TypeError):
            self.tx + object()
        with self.assertRaises(TypeError):
            self.tx + 'a'
        with self.assertRaises(xrt.InvalidArgumentError):
            self.tx + xrt.tensor(np.ones(3, np.float32))


class Indexing(unittest.TestCase):
    def test_basic_indexing_matches_numpy(self):
        a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
        t = xrt.tensor(a)
        for key in (0, -1, (1, 2), (slice(None), 1), (Ellipsis, 0), (None, 0),
                    slice(None, None, -1), (0, slice(1, None), slice(None, None, 2)),
                    (Ellipsis,), (slice(1, 2), None, -1, slice(3, 0, -2)),
                    (slice(1, 100),), (slice(-100, None),), (Ellipsis, None), ()):
            got, want = t[key], a[key]
            self.assertEqual(got.shape, want.shape, key)
            np.testing.assert_array_equal(got.numpy(), want, str(key))
        self.assertEqual([r.numpy().tolist() for r in t[0]], a[0].tolist())

    def test_bad_indices(self):
        t = xrt.tensor(np.zeros((2, 3), np.float32))
        with self.assertRaises(IndexError):
            t[2]
        with self.assertRaises(IndexError):
            t[:, -4]
        with self.assertRaises(IndexError):
            t[..., ...]
        with self.assertRaises(ValueError):
            t[::0]
        for key in ('a', 1.5, True, t):
            with self.assertRaises(TypeError):
                t[key]
        with self.assertRaises(xrt.InvalidArgumentError):
            t[0, 0, 0]
        with self.assertRaises(TypeError):
            list(xrt.tensor(1.0))


try:
    import torch
    import torch.utils.dlpack
except ImportError:
    torch = None


class DLPack(unittest.TestCase):
    def test_numpy_reads_tensors_without_a_copy(self):
        t = xrt.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        self.assertEqual(t.__dlpack_device__(), (1, 0))
        a = np.from_dlpack(t)
        self.assertTrue(np.shares_memory(a, t.numpy()))
        np.testing.assert_array_equal(a, np.arange(6).reshape(2, 3))
        del t                          # the capsule's owner keeps the memory
        np.testing.assert_array_equal(a, np.arange(6).reshape(2, 3))

    def test_from_dlpack_wraps_aligned_memory(self):
        raw = np.zeros(4096 + 8, np.float64)
        skip = (-raw.ctypes.data % 64) // 8         # to a 64-byte boundary
        big = raw[skip:skip + 4096]
        big[:] = np.arange(4096)
        t = xrt.from_dlpack(big)
        np.testing.assert_array_equal(t.numpy(), big)
        self.assertTrue(np.shares_memory(t.numpy(), big))   # wrapped, not copied
        odd = np.arange(10, dtype=np.int32)[1:]      # 4-byte aligned: copied
        u = xrt.from_dlpack(odd)
        self.assertFalse(np.shares_memory(u.numpy(), odd))
        np.testing.assert_array_equal((u * 2).numpy(), odd * 2)
        with self.assertRaises(TypeError):
            xrt.from_dlpack(3)
        with self.assertRaises(BufferError):
            xrt.from_dlpack(np.zeros((4, 4), np.float32).T)

    @unittest.skipIf(torch is None, 'PyTorch is not installed')
    def test_torch_both_ways(self):
        x = torch.arange(12, dtype=torch.float64).reshape(3, 4)
        self.assertEqual(x.data_ptr() % 64, 0)      # PyTorch's CPU allocator aligns to 64
        t = xrt.from_dlpack(x)
        self.assertEqual(t.numpy().ctypes.data, x.data_ptr())
        del x
        np.testing.assert_array_equal((t + 1).numpy(), np.arange(1, 13).reshape(3, 4))
        y = torch.utils.dlpack.from_dlpack(t)
        self.assertEqual(y.data_ptr(), t.numpy().ctypes.data)
        self.assertEqual(y.dtype, torch.float64)
        c = torch.utils.dlpack.to_dlpack(torch.ones(5, dtype=torch.int64))
        np.testing.assert_array_equal(xrt.from_dlpack(c).numpy(), np.ones(5))
        with self.assertRaises(ValueError):
            xrt.from_dlpack(c)                       # a capsule is consumed once

    def test_round_trips_leave_nothing(self):
        big = np.ones(1 << 16, np.float32)
        for _ in range(200):
            np.from_dlpack(xrt.from_dlpack(big) + 1)
        rss = rss_pages()
        for _ in range(3000):
            np.from_dlpack(xrt.from_dlpack(big) + 1)
        gc.collect()
        self.assertLess(rss_pages() - rss, 4 * (1 << 18) // os.sysconf('SC_PAGE_SIZE'))


class Threads(unittest.TestCase):
    def test_one_op_from_several_threads(self):
        """Big inputs run without the GIL; a call meanwhile gets its own op."""
        import threading
        rng = np.random.default_rng(2)
        mats = [rng.standard_normal((256, 256)).astype(np.float32) for _ in range(4)]
        want = [m @ m for m in mats]
        ts = [xrt.tensor(m) for m in mats]
        mm, errors = xrt.ops.MatMul, []

        def work(k):
            try:
                for i in range(40):
                    j = (k + i) % 4
                    got = mm(ts[j], ts[j]) if i % 2 else ts[j] @ ts[j]
                    np.testing.assert_allclose(got.numpy(), want[j], rtol=1e-4, atol=1e-3)
            except Exception as e:          # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])


class Leaks(unittest.TestCase):
    def test_no_reference_or_memory_growth(self):
        a = xrt.tensor(np.ones((16, 16), np.float32))
        add, mm = xrt.ops.AddV2, xrt.ops.MatMul

        def work(n):
            for _ in range(n):
                b = add(a, a) * 2 + 1
                c = mm(b, a, transpose_b=True)
                c.numpy()
                xrt.ops.Unpack(xrt.ops.Reshape(c, [8, 32]), num=8)
                c[1:, ::2][0]
                try:
                    mm(a, xrt.tensor([1]))
                except xrt.InvalidArgumentError:
                    pass

        work(2000)
        gc.collect()
        refs, objs, rss = sys.getrefcount(a), len(gc.get_objects()), rss_pages()
        work(20000)
        gc.collect()
        self.assertEqual(sys.getrefcount(a), refs)
        self.assertLessEqual(len(gc.get_objects()), objs + 10)
        # a leak of one small object per op would be megabytes here
        self.assertLess(rss_pages() - rss, 256 * 1024 // os.sysconf('SC_PAGE_SIZE') * 4)


if __name__ == '__main__':
    unittest.main()
