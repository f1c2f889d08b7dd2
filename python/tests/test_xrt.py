# SPDX-License-Identifier: MIT
"""The XRT API from Python: sessions, handles, compile, execute, read."""
import os
import unittest

import numpy as np

import xrt

FIXTURES = os.path.join(os.path.dirname(__file__), '..', '..', 'selftests', 'xrt-run')

ADD = '''HloModule add
ENTRY main {
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  ROOT r = f32[2,3] add(x, y)
}
'''

# The seed's scenario: a tuple in, a tuple out, a scalar of another type.
AFFINE = open(os.path.join(FIXTURES, 'affine.hlo')).read()


class Sessions(unittest.TestCase):
    def setUp(self):
        self.s = xrt.Session('host:0')
        self.addCleanup(self.s.close)
        rng = np.random.default_rng(3)
        self.x = rng.random((2, 3), np.float32)
        self.y = rng.random((2, 3), np.float32)

    def test_compile_allocate_execute_read(self):
        s = self.s
        self.assertEqual(s.device, 'host:0')
        c = s.compile(ADD)
        self.assertEqual(c.shape, 'f32[2,3]{1,0}')
        x, y = s.allocate(self.x), s.allocate(self.y)
        self.assertEqual(x.shape, 'f32[2,3]{1,0}')
        r = s.execute(c, [x, y])
        got = s.read(r)
        self.assertTrue(got.flags.writeable)
        np.testing.assert_array_equal(got, self.x + self.y)
        s.release(x, y, r, c)
        self.assertEqual(s.memory_in_use, 0)

    def test_tuples_in_and_out(self):
        s = self.s
        c = s.compile(AFFINE)
        x = s.allocate(np.arange(1, 7, dtype=np.float32).reshape(2, 3))
        k = s.allocate(np.int32(-3))
        y, kk = s.read(s.execute(c, (x, k)))
        np.testing.assert_array_equal(y, -3 * np.arange(1, 7).reshape(2, 3))
        self.assertEqual(kk.dtype, np.int32)
        self.assertEqual(kk.shape, ())
        self.assertEqual(int(kk), -3)
        t = s.allocate((self.x, (np.int64(5), self.y)))
        back = s.read(t)
        np.testing.assert_array_equal(back[0], self.x)
        self.assertEqual(int(back[1][0]), 5)
        np.testing.assert_array_equal(back[1][1], self.y)

    def test_results_in_other_layouts_read_in_c_order(self):
        c = self.s.compile('HloModule t\nENTRY e {\n  x = f32[2,3]{1,0} parameter(0)\n'
                           '  ROOT r = f32[2,3]{0,1} copy(x)\n}\n')
        r = self.s.execute(c, [self.s.allocate(self.x)], release_inputs=True)
        got = self.s.read(r, release=True)
        self.assertTrue(got.flags.c_contiguous)
        np.testing.assert_array_equal(got, self.x)

    def test_seed_sub_tuple_and_make_tuple(self):
        s = self.s
        a, b = s.allocate(self.x), s.allocate(np.int32(7))
        t = s.make_tuple((a, (b, a)))
        self.assertEqual(t.shape, '(f32[2,3]{1,0}, (s32[], f32[2,3]{1,0}))')
        got = s.read(t)
        np.testing.assert_array_equal(got[1][1], self.x)
        e = s.sub_tuple(t, [1, 0])
        self.assertEqual(int(s.read(e)), 7)
        # the seed's SubTupleAndRelease: the element moves out, the tuple goes
        first = s.sub_tuple(t, 0, release=True)
        self.assertIn('released', repr(t))
        np.testing.assert_array_equal(s.read(first), self.x)
        with self.assertRaises(xrt.NotFoundError):
            s.read(t)
        # released inputs go once the tuple is made
        u = s.make_tuple((s.allocate(self.y),), release_inputs=True)
        np.testing.assert_array_equal(s.read(u)[0], self.y)
        with self.assertRaises(ValueError):
            s.make_tuple(())
        with self.assertRaises(TypeError):
            s.make_tuple((a, 3))
        with self.assertRaises(xrt.InvalidArgumentError):
            s.sub_tuple(a, 0)                  # an array has no elements
        with self.assertRaises(xrt.InvalidArgumentError):
            s.sub_tuple(e, [5])

    def test_computation_proto_bytes(self):
        for name in ('affine_ir.computation', 'affine_text.computation'):
            with open(os.path.join(FIXTURES, name), 'rb') as f:
                c = self.s.compile(f.read())
            x = self.s.allocate(np.ones((2, 3), np.float32))
            k = self.s.allocate(np.int32(2))
            y, _ = self.s.read(self.s.execute(c, [x, k], release_inputs=True))
            np.testing.assert_array_equal(y, np.full((2, 3), 2.0))

    def test_xla_module_proto_bytes(self):
        xla_dir = os.path.join(FIXTURES, '..', 'libxrt', 'xla')
        x = np.arange(24, dtype=np.float32).reshape(4, 6) - 7
        outs = []
        for name in ('indexing.before.pb', 'indexing.after.pb'):
            with open(os.path.join(xla_dir, name), 'rb') as f:
                c = self.s.compile_xla(f.read())
            outs.append(self.s.read(self.s.execute(c, [self.s.allocate(x)])))
        with open(os.path.join(xla_dir, 'indexing.before.hlo')) as f:
            c = self.s.compile(f.read())
        want = self.s.read(self.s.execute(c, [self.s.allocate(x)]))
        for got in outs:
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)
        with self.assertRaises(ValueError):
            self.s.compile_xla(b'\xff\xff\xff')
        with self.assertRaises(TypeError):
            self.s.compile_xla('HloModule m')

    def test_release_options_and_with_blocks(self):
        s = self.s
        c = s.compile(ADD)
        x, y = s.allocate(self.x), s.allocate(self.y)
        r = s.execute(c, [x, y], release_inputs=True, release_compilation=True)
        self.assertIn('released', repr(x))
        with self.assertRaises(xrt.NotFoundError):
            s.execute(c, [r, r])
        with self.assertRaises(xrt.NotFoundError):
            s.read(x)
        with self.assertRaisesRegex(xrt.NotFoundError, 'allocation handle .* was released'):
            s.release(x)             # released by the run
        with self.assertRaisesRegex(xrt.NotFoundError, 'compilation handle .* was released'):
            c.release()
        h = s.allocate(self.x)
        h.release()
        with self.assertRaisesRegex(xrt.NotFoundError, 'was released'):
            h.release()              # twice
        with self.assertRaises(xrt.NotFoundError):
            s.read(h)
        np.testing.assert_array_equal(s.read(r, release=True), self.x + self.y)
        self.assertEqual(s.memory_in_use, 0)
        with s.allocate(self.x) as h:
            self.assertGreater(s.memory_in_use, 0)
            np.testing.assert_array_equal(s.read(h), self.x)
        self.assertEqual(s.memory_in_use, 0)
        with s.allocate(self.x) as h:
            s.read(h, release=True)  # gone before the block ends: fine
        with xrt.Session() as t:
            t.allocate(self.x)
            self.assertGreater(t.memory_in_use, 0)
        with self.assertRaises(ValueError):
            t.allocate(self.x)       # closed

    def test_errors(self):
        s = self.s
        with self.assertRaises(xrt.InvalidArgumentError) as e:
            s.compile('HloModule m\nENTRY e {\n  ROOT r = f32[2] nonsense()\n}\n')
        self.assertIn('line 3, column 19', str(e.exception))
        with self.assertRaises(TypeError):
            s.compile(42)
        with self.assertRaises(xrt.InvalidArgumentError):
            s.compile(b'\xff\xff\xff')
        c = s.compile(ADD)
        x = s.allocate(self.x)
        with self.assertRaises(xrt.InvalidArgumentError):
            s.execute(c, [x])                    # one argument short
        with self.assertRaises(xrt.InvalidArgumentError):
            s.execute(c, [x, s.allocate(np.ones(3, np.float32))])
        with self.assertRaises(TypeError):
            s.execute(x, [x, x])                 # an allocation is no compilation
        with self.assertRaises(TypeError):
            s.execute(c, [c, x])
        with self.assertRaises(TypeError):
            s.execute(c, [1, 2])
        with xrt.Session() as other:
            with self.assertRaises(ValueError):
                other.execute(c, [x, x])
            with self.assertRaises(ValueError):
                other.release(x)
        with self.assertRaises(TypeError):
            s.allocate(object())
        with self.assertRaises(xrt.NotFoundError):
            xrt.Session('tpu:0')
        with self.assertRaises(xrt.ResourceExhaustedError):
            with xrt.Session(memory_limit=64) as small:
                small.allocate(np.zeros(1000, np.float32))
        # the session still works
        np.testing.assert_array_equal(s.read(s.execute(c, [x, x])), 2 * self.x)

    def test_transfer_copies_into_another_session(self):
        value = (np.arange(6, dtype=np.float32).reshape(2, 3), np.int32(7))
        with xrt.Session() as a, xrt.Session() as b:
            h = a.allocate(value)
            copy = a.transfer(h, b)
            got = b.read(copy)
            np.testing.assert_array_equal(got[0], value[0])
            self.assertEqual(int(got[1]), 7)
            a.allocate(np.zeros(1, np.float32))     # the source is still there
            np.testing.assert_array_equal(a.read(h)[0], value[0])
            with self.assertRaises(TypeError):
                a.transfer(h, 'host:0')
            with self.assertRaises(ValueError):
                b.transfer(h, a)                    # h is a's, not b's
            a.release(h)
            with self.assertRaises(xrt.NotFoundError):
                a.transfer(h, b)

    def test_execute_async_chains_and_waits(self):
        add = ('HloModule a\nENTRY e {\n  x = f32[2] parameter(0)\n'
               '  ROOT y = f32[2] add(x, x)\n}\n')
        with xrt.Session() as s:
            c = s.compile(add)
            x = s.allocate(np.array([1, 2], np.float32))
            r1, e1 = s.execute_async(c, [x])
            r2, e2 = s.execute_async(c, [r1])         # r1 is an input before it is done
            self.assertIsInstance(e2, xrt.Event)
            self.assertTrue(e2.wait())
            self.assertTrue(e1.wait(timeout=0))
            np.testing.assert_array_equal(s.read(r2), [4, 8])
            np.testing.assert_array_equal(s.read(r1), [2, 4])
            r3, e3 = s.execute_async(c, [r2], release_inputs=True, release_compilation=True)
            self.assertTrue(e3.wait(0.5))
            np.testing.assert_array_equal(s.read(r3), [8, 16])
            with self.assertRaises(xrt.NotFoundError):
                s.read(r2)                          # released by the run
            with self.assertRaises(ValueError):
                e3.wait(timeout=-1)
            with self.assertRaises(xrt.InvalidArgumentError):
                s.execute_async(s.compile(add), [])

    def test_many_rounds_leave_nothing(self):
        s = self.s
        c = s.compile(ADD)
        for _ in range(3000):
            with s.allocate(self.x) as a:
                s.read(s.execute(c, [a, a]), release=True)
        self.assertEqual(s.memory_in_use, 0)


NARROW = '''HloModule narrow
ENTRY main {
  a = f8e4m3fn[4] parameter(0)
  b = s4[4] parameter(1)
  c = bf16[2] parameter(2)
  d = f8e4m3fn[4] multiply(a, a)
  e = s4[4] add(b, b)
  ROOT t = (f8e4m3fn[4], s4[4], bf16[2]) tuple(d, e, c)
}
'''


class NarrowTypes(unittest.TestCase):
    """ml_dtypes' arrays (XLA's small floats, int4, bfloat16) in and out, where it is
    installed (the oracle environment); numpy has no such types of its own."""

    def test_ml_dtypes_arrays_round_trip(self):
        try:
            import ml_dtypes
        except ImportError:
            self.skipTest('ml_dtypes is not installed')
        with xrt.Session('host:0') as s:
            a = np.array([1.5, -2, 448, 0.25], ml_dtypes.float8_e4m3fn)
            b = np.array([3, -4, 7, -8], ml_dtypes.int4)
            c = np.array([1.25, -3], ml_dtypes.bfloat16)
            d, e, cc = s.read(s.execute(s.compile(NARROW), [s.allocate(a), s.allocate(b),
                                                              s.allocate(c)]))
            self.assertEqual((d.dtype, e.dtype, cc.dtype), (a.dtype, b.dtype, c.dtype))
            np.testing.assert_array_equal(d.view(np.uint8), (a * a).view(np.uint8))
            np.testing.assert_array_equal(e.astype(np.int8), (b + b).astype(np.int8))
            np.testing.assert_array_equal(cc.view(np.uint16), c.view(np.uint16))

    def test_eager_tensors_of_narrow_types(self):
        try:
            import ml_dtypes
        except ImportError:
            self.skipTest('ml_dtypes is not installed')
        a = np.array([[1.5, 2.25], [3, -4]], ml_dtypes.bfloat16)
        t = xrt.tensor(a)
        self.assertEqual((t.numpy().dtype, t.numpy().shape), (a.dtype, (2, 2)))
        np.testing.assert_array_equal((t + t).numpy().view(np.uint16), (a + a).view(np.uint16))
        for dt, vals in ((ml_dtypes.int4, [1, -2, 7, -8]), (ml_dtypes.float8_e4m3fn, [0.5, 3, -448]),
                         (ml_dtypes.float8_e5m2, [2.0, -0.25]), (ml_dtypes.uint2, [0, 3])):
            x = np.array(vals, dt)
            y = xrt.tensor(x).numpy()
            self.assertEqual(y.dtype, x.dtype)
            np.testing.assert_array_equal(y.view(np.uint8), x.view(np.uint8))
        s = xrt.tensor(np.array(2.5, ml_dtypes.bfloat16)).numpy()
        self.assertEqual((s.shape, float(s)), ((), 2.5))

    def test_without_ml_dtypes_the_error_says_so(self):
        try:
            import ml_dtypes  # noqa: F401
            self.skipTest('ml_dtypes is installed')
        except ImportError:
            pass
        with xrt.Session('host:0') as s:
            h = s.compile('HloModule m\nENTRY e {\n  ROOT c = s4[2] constant({1, -2})\n}\n')
            with self.assertRaisesRegex(TypeError, 'int4 has no numpy type without ml_dtypes'):
                s.read(s.execute(h, []))


ALL_REDUCE = '''HloModule ar, replica_count=4
f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[3] parameter(0)
  rid = u32[] replica-id()
  r = f32[3] all-reduce(x), replica_groups={{0,1},{2,3}}, to_apply=f
  ROOT t = (f32[3], u32[]) tuple(r, rid)
}
'''


class Replicated(unittest.TestCase):
    """Session.execute_replicated on four host devices, against numpy."""

    def setUp(self):
        self.s = [xrt.Session('host:%d' % d, host_devices=4) for d in range(4)]
        for s in self.s:
            self.addCleanup(s.close)
        self.x = [np.arange(3, dtype=np.float32) * (d + 1) for d in range(4)]

    def test_all_reduce_per_device(self):
        comps = [s.compile(ALL_REDUCE) for s in self.s]
        inputs = [[s.allocate(x)] for s, x in zip(self.s, self.x)]
        out = xrt.Session.execute_replicated(self.s, comps, inputs, seed=3)
        self.assertEqual(len(out), 4)
        for d, (s, h) in enumerate(zip(self.s, out)):
            r, rid = s.read(h)
            pair = (0, 1) if d < 2 else (2, 3)
            np.testing.assert_array_equal(r, self.x[pair[0]] + self.x[pair[1]])
            self.assertEqual(int(rid), d)

    def test_device_assignment_and_refusals(self):
        order = [3, 2, 1, 0]   # replica d runs in session 3 - d
        comps = [self.s[k].compile(ALL_REDUCE) for k in order]
        inputs = [[self.s[k].allocate(self.x[d])] for d, k in enumerate(order)]
        out = xrt.Session.execute_replicated(self.s, comps, inputs, device_assignment=order)
        r, rid = self.s[3].read(out[0])
        np.testing.assert_array_equal(r, self.x[0] + self.x[1])
        self.assertEqual(int(rid), 0)
        # an input of another session, a shared session
        with self.assertRaisesRegex(ValueError, 'another session'):
            xrt.Session.execute_replicated(self.s, comps, inputs)
        shared = [3, 1, 1, 0]
        with self.assertRaisesRegex(xrt.InvalidArgumentError, 'replica 1 and replica 2 both '
                                    'run in session 1'):
            xrt.Session.execute_replicated(self.s, [comps[3 - k] for k in shared],
                                           [inputs[3 - k] for k in shared],
                                           device_assignment=shared)
        with self.assertRaisesRegex(ValueError, 'one compilation and one list of inputs'):
            xrt.Session.execute_replicated(self.s, comps, inputs[:3], device_assignment=order)


if __name__ == '__main__':
    unittest.main()
