# SPDX-License-Identifier: MIT
"""Session.execute_replicated across processes, run under mpirun -np 2.

Not a unittest module (python/meson.build runs it under mpirun): every
process joins the group, holds two host devices, runs four replicas with
the others, and checks its own replicas' results against numpy; then a
run of this process's devices alone.  Exit status 1 on a failure.
"""
import sys

import numpy as np

import xrt

ALL_REDUCE = '''HloModule ar, replica_count=4
f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[3] parameter(0)
  rid = u32[] replica-id()
  r = f32[3] all-reduce(x), replica_groups={{0,2},{1,3}}, to_apply=f
  g = f32[12] all-gather(x), replica_groups={}, dimensions={0}
  ROOT t = (f32[3], f32[12], u32[]) tuple(r, g, rid)
}
'''

LOCAL = ALL_REDUCE.replace('replica_count=4', 'replica_count=2').replace(
    '{{0,2},{1,3}}', '{}').replace('f32[12]', 'f32[6]')


def main():
    assert xrt.distributed_launched(), 'run under mpirun'
    xrt.distributed_init()
    rank, size = xrt.distributed_rank()
    assert size == 2, f'mpirun -np 2, not {size}'
    x = [np.arange(3, dtype=np.float32) * (d + 1) for d in range(4)]
    sessions = [xrt.Session(f'host:{k}', host_devices=2) for k in range(2)]
    mine = [2 * rank + k for k in range(2)]
    comps = [s.compile(ALL_REDUCE) for s in sessions]
    inputs = [[s.allocate(x[d])] for s, d in zip(sessions, mine)]
    out = xrt.Session.execute_replicated(sessions, comps, inputs, seed=3, timeout=60)
    assert len(out) == 2
    for s, h, d in zip(sessions, out, mine):
        r, g, rid = s.read(h)
        np.testing.assert_array_equal(r, x[d % 2] + x[d % 2 + 2])
        np.testing.assert_array_equal(g, np.concatenate(x))
        assert int(rid) == d, (int(rid), d)
    # the same sessions, this process's two devices alone
    comps = [s.compile(LOCAL) for s in sessions]
    out = xrt.Session.execute_replicated(sessions, comps, inputs, this_process_only=True)
    for k, (s, h) in enumerate(zip(sessions, out)):
        r, g, rid = s.read(h)
        np.testing.assert_array_equal(r, x[mine[0]] + x[mine[1]])
        assert int(rid) == k
    for s in sessions:
        s.close()
    xrt.distributed_shutdown()
    print(f'rank {rank}: ok')
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Exception as e:     # end the job: the other process may wait for this one
        print(f'FAIL: {e!r}', flush=True)
        xrt.distributed_abort(1)
        raise
