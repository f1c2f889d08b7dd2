# SPDX-License-Identifier: MIT
"""Processes started apart, joined through a coordinator: no mpirun.

Not a unittest module (python/meson.build runs it): it starts Open MPI's
ompi-server, then three processes of itself, each calling
xrt.distributed_init(rank=r, size=3, coordinator='file:URI') in its own
order of arrival, and each runs its replica of a three-replica module
with the others, checked against numpy.  Also: a coordinator without a
rank is refused at once.  Exit status 1 on a failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import xrt

MODULE = '''HloModule ar, replica_count=3
f {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[4] parameter(0)
  r = f32[4] all-reduce(x), replica_groups={}, to_apply=f
  g = f32[12] all-gather(x), replica_groups={}, dimensions={0}
  ROOT t = (f32[4], f32[12]) tuple(r, g)
}
'''


def inputs(r):
    return np.arange(4, dtype=np.float32) * (r + 1) - r


def worker(rank, uri):
    xrt.distributed_init(rank=rank, size=3, coordinator='file:' + uri)
    assert xrt.distributed_rank() == (rank, 3), xrt.distributed_rank()
    s = xrt.Session('host:0')
    c = s.compile(MODULE)
    h = s.allocate(inputs(rank))
    out = xrt.Session.execute_replicated([s], [c], [[h]], timeout=60)
    r, g = s.read(out[0])
    np.testing.assert_array_equal(r, sum(inputs(k) for k in range(3)))
    np.testing.assert_array_equal(g, np.concatenate([inputs(k) for k in range(3)]))
    s.close()
    xrt.distributed_shutdown()
    print(f'rank {rank}: ok', flush=True)


def main():
    try:
        xrt.distributed_init(coordinator='file:/nonexistent')
        print('FAIL: a coordinator without a rank was taken')
        return 1
    except xrt.InvalidArgumentError as e:
        assert 'needs this process\'s rank' in str(e), e
    server = shutil.which('ompi-server')
    if not server:
        print('FAIL: no ompi-server (openmpi-bin)')
        return 1
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
               XRT_DISTRIBUTED_JOB=f'test-{os.getpid()}')
    tmp = tempfile.mkdtemp()
    uri = os.path.join(tmp, 'uri')
    srv = subprocess.Popen([server, '--no-daemonize', '--report-uri', uri], env=env)
    try:
        end = time.monotonic() + 30
        while not (os.path.exists(uri) and os.path.getsize(uri)) and time.monotonic() < end:
            time.sleep(0.05)
        # started apart, rank 0 last: the others wait for its port
        procs = [subprocess.Popen([sys.executable, __file__, str(r), uri], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True) for r in (2, 1, 0)]
        fails = 0
        for p in procs:
            out = p.communicate(timeout=120)[0]
            print(out, end='')
            fails += p.returncode != 0 or 'ok' not in out
    finally:
        srv.terminate()
        srv.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f'{fails} failures')
    return 1 if fails else 0


if __name__ == '__main__':
    if len(sys.argv) == 3:
        worker(int(sys.argv[1]), sys.argv[2])
        sys.exit(0)
    sys.exit(main())
