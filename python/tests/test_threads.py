# SPDX-License-Identifier: MIT
"""Sessions under threads: any call, any order, any thread.

close() racing execute, read, release, allocate and compile either waits
for the calls in flight or makes the later ones raise ValueError; it
never frees the session under a running call.  Two executes on one
session run at the same time (no global lock).  Run in the ASan build
too, where a use after free is a report, not a chance.
"""
import os
import signal
import threading
import time
import unittest

import numpy as np

import xrt

# A loop of n steps: long enough that calls overlap.
LOOP = '''HloModule loop
cond {
  p = (s32[], f32[64,64]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(%d)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[64,64]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  x = f32[64,64] get-tuple-element(p), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  y = f32[64,64] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  h = f32[] constant(0.001)
  hb = f32[64,64] broadcast(h), dimensions={}
  z = f32[64,64] multiply(y, hb)
  ROOT t = (s32[], f32[64,64]) tuple(j, z)
}
ENTRY main {
  x = f32[64,64] parameter(0)
  zero = s32[] constant(0)
  t = (s32[], f32[64,64]) tuple(zero, x)
  w = (s32[], f32[64,64]) while(t), condition=cond, body=body
  ROOT r = f32[64,64] get-tuple-element(w), index=1
}
'''

ENDLESS = open(os.path.join(os.path.dirname(__file__), '..', '..', 'selftests', 'xrt-run',
                            'endless.hlo')).read()

# About a second and a half of steps (the sanitizer's dot is 200x slower).
LONG = 1500 if os.environ.get('XRT_SANITIZED') else 300000


def worker(s, c, x, closing, errors, kind):
    """Calls of one kind until refused; anything but that refusal is kept."""
    while True:
        try:
            if kind == 'execute':
                s.read(s.execute(c, [x]), release=True)
            elif kind == 'async':
                r, e = s.execute_async(c, [x])
                e.wait()
                r.release()
            elif kind == 'allocate':
                s.allocate(np.ones((64, 64), np.float32)).release()
            elif kind == 'read':
                s.read(x)
            elif kind == 'compile':
                s.compile(LOOP % 2).release()
            elif kind == 'shape':
                assert x.shape == 'f32[64,64]{1,0}'
        except ValueError as e:
            if not closing.is_set() or 'the session is closed' not in str(e):
                errors.append('%s: %r' % (kind, e))
            return
        except xrt.CancelledError as e:
            # a run submitted but not begun when the session closed ends so
            if kind != 'async' or not closing.is_set() or \
                    'destroyed before it began' not in str(e):
                errors.append('%s: %r' % (kind, e))
            return
        except Exception as e:  # noqa: BLE001 - kept for the report
            errors.append('%s: %r' % (kind, e))
            return


class Threads(unittest.TestCase):
    def test_close_racing_every_call(self):
        kinds = ['execute', 'execute', 'async', 'allocate', 'read', 'compile', 'shape']
        for round_ in range(12):
            s = xrt.Session('host:0')
            c = s.compile(LOOP % 20)
            x = s.allocate(np.full((64, 64), 0.5, np.float32))
            closing, errors = threading.Event(), []
            ts = [threading.Thread(target=worker, args=(s, c, x, closing, errors, k))
                  for k in kinds]
            for t in ts:
                t.start()
            time.sleep(0.002 * (round_ % 6))
            closing.set()
            s.close()              # under calls in flight
            with self.assertRaisesRegex(ValueError, 'the session is closed'):
                s.execute(c, [x])
            for t in ts:
                t.join(30)
                self.assertFalse(t.is_alive())
            self.assertEqual(errors, [])
            s.close()              # again: nothing to do
            with x:                # a with block on a closed session's handle is fine
                pass

    def test_two_closes_race(self):
        for _ in range(20):
            s = xrt.Session('host:0')
            x = s.allocate(np.ones(4, np.float32))
            ts = [threading.Thread(target=s.close) for _ in range(3)]
            for t in ts:
                t.start()
            for t in ts:
                t.join(30)
            with self.assertRaises(ValueError):
                s.read(x)

    def test_handles_released_from_many_threads(self):
        s = xrt.Session('host:0')
        self.addCleanup(s.close)
        hs = [s.allocate(np.full(8, i, np.float32)) for i in range(64)]
        wins = []

        def release_all():
            n = 0
            for h in hs:
                try:
                    s.release(h)
                    n += 1
                except xrt.NotFoundError:
                    pass
            wins.append(n)

        ts = [threading.Thread(target=release_all) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(30)
        self.assertEqual(sum(wins), 64)    # each handle released exactly once
        self.assertEqual(s.memory_in_use, 0)

    def test_calls_pass_a_long_execute(self):
        # No lock across the binding: while one thread is inside a long
        # execute, others compile, allocate and read on the same session
        # (executions of one session queue in order, as libxrt defines
        # them) and execute on another session.
        s, other = xrt.Session('host:0'), xrt.Session('host:0')
        self.addCleanup(s.close)
        self.addCleanup(other.close)
        long_ = s.compile(ENDLESS)
        x = s.allocate(np.full((64, 64), 0.5, np.float32))
        e = s.allocate(np.ones(4, np.float32))
        started, ended = threading.Event(), []

        def run_long():
            started.set()
            try:
                s.execute(long_, [e], timeout=3)
            except xrt.DeadlineExceededError:
                ended.append(True)

        t = threading.Thread(target=run_long)
        t.start()
        started.wait()
        time.sleep(0.05)
        short = s.compile(LOOP % 1)
        y = s.allocate(np.full((64, 64), 0.25, np.float32))
        np.testing.assert_array_equal(s.read(y), np.full((64, 64), 0.25))
        c2 = other.compile(LOOP % 1)
        got = other.read(other.execute(c2, [other.allocate(np.full((64, 64), 0.5,
                                                                   np.float32))]))
        alive = t.is_alive()
        t.join(300)
        np.testing.assert_allclose(got, np.full((64, 64), 0.5 * 0.5 * 64 * 0.001), rtol=1e-6)
        self.assertTrue(alive, 'the endless execute ended before its 3 s')
        self.assertEqual(ended, [True])
        short.release()


    def test_tensors_and_caches_under_threads(self):
        # eager ops from four threads while a fifth clears the kernel caches
        # under them: every result right, nothing freed in use
        ctx = xrt.context()
        # big enough (256 KiB) that the ops release the GIL
        base = np.arange(65536, dtype=np.float32).reshape(256, 256)
        a, want = xrt.tensor(base), base * 2 + 1
        stop, errors = threading.Event(), []

        def ops():
            for i in range(40):
                try:
                    got = xrt.ops.AddV2(xrt.ops.Mul(a, xrt.tensor(np.float32(2))),
                                        xrt.tensor(np.float32(1))).numpy()
                    np.testing.assert_array_equal(got, want)
                except Exception as e:  # noqa: BLE001 - kept for the report
                    errors.append(repr(e))
                    return

        def clear():
            while not stop.is_set():
                ctx.clear_caches()

        ts = [threading.Thread(target=ops) for _ in range(4)]
        c = threading.Thread(target=clear)
        c.start()
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
        stop.set()
        c.join(30)
        self.assertEqual(errors, [])

    def test_one_event_waited_from_threads(self):
        s = xrt.Session('host:0')
        self.addCleanup(s.close)
        c = s.compile(LOOP % (LONG // 10))
        x = s.allocate(np.full((64, 64), 0.5, np.float32))
        r, e = s.execute_async(c, [x])
        done = []
        ts = [threading.Thread(target=lambda: done.append(e.wait(60))) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
        del e                       # the event goes while nobody waits
        self.assertEqual(done, [True] * 4)
        self.assertEqual(s.read(r, release=True).shape, (64, 64))


class Limits(unittest.TestCase):
    def setUp(self):
        self.s = xrt.Session('host:0')
        self.addCleanup(self.s.close)
        self.c = self.s.compile(ENDLESS)
        self.x = self.s.allocate(np.ones(4, np.float32))

    def still_works(self):
        r = self.s.execute(self.s.compile(LOOP % 1), [self.s.allocate(
            np.full((64, 64), 0.5, np.float32))])
        self.assertEqual(self.s.read(r, release=True).shape, (64, 64))

    def test_timeout_and_max_iterations(self):
        with self.assertRaisesRegex(xrt.DeadlineExceededError, "instruction 'w' .while."):
            self.s.execute(self.c, [self.x], timeout=0.3)
        with self.assertRaisesRegex(xrt.DeadlineExceededError, 'more than 5 iterations'):
            self.s.execute(self.c, [self.x], max_iterations=5)
        with self.assertRaises(ValueError):
            self.s.execute(self.c, [self.x], timeout=0)
        with self.assertRaises(OverflowError):
            self.s.execute(self.c, [self.x], max_iterations=-1)
        with self.assertRaises(TypeError):
            self.s.execute(self.c, [self.x], max_iterations=2.5)
        self.still_works()

    def test_ctrl_c_cancels_a_run(self):
        # SIGINT, as Ctrl-C sends it, while the main thread is inside execute
        timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
        t0 = time.monotonic()
        timer.start()
        with self.assertRaises(KeyboardInterrupt):
            self.s.execute(self.c, [self.x])
        timer.join()
        print('\n# Ctrl-C: execute raised %.3f s after the signal' % (time.monotonic() - t0 - 0.3))
        self.still_works()

    def test_an_async_run_returns_at_once_and_ctrl_c_interrupts_its_wait(self):
        give_up = time.monotonic() + 60
        r, e = self.s.execute_async(self.c, [self.x], timeout=3)
        self.assertFalse(e.wait(0.1))           # the endless loop runs on
        timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
        t0 = time.monotonic()
        timer.start()
        with self.assertRaises(KeyboardInterrupt):
            e.wait()
        timer.join()
        print('\n# Ctrl-C: Event.wait raised %.3f s after the signal' %
              (time.monotonic() - t0 - 0.2))
        with self.assertRaisesRegex(xrt.DeadlineExceededError, 'deadline passed'):
            e.wait()
        self.assertLess(time.monotonic(), give_up)
        with self.assertRaises(xrt.DeadlineExceededError):
            self.s.read(r)
        self.still_works()


if __name__ == '__main__':
    unittest.main()
