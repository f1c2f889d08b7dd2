# SPDX-License-Identifier: MIT
"""The XLA peer of xrt-bench --only=xla: a conformance model case compiled
by jax.jit and run by XLA's CPU backend, under the oracle environment's
interpreter (tools/install-deps.sh --print-oracle).

usage: xla_peer.py CASE THREADS SECONDS

Prints one line: compile seconds, best runs per second (warmed up, each
run ended by block_until_ready), the jax and jaxlib versions.  XLA runs on
the first THREADS CPUs of this process's set, as XRT's host:0 does."""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'selftests', 'conformance'))
os.environ['JAX_PLATFORMS'] = 'cpu'
os.environ['JAX_ENABLE_X64'] = '1'	# as gen.py: the same modules


def main():
    name, threads, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    cpus = sorted(os.sched_getaffinity(0))[:threads]
    os.sched_setaffinity(0, cpus)
    import jax
    import tables
    case = [c for c in tables.cases() if c.name == name][0]
    args = [jax.device_put(a) for a in case.args()]
    t = time.perf_counter()
    run = jax.jit(case.fn).lower(*args).compile()
    compile_s = time.perf_counter() - t
    for _ in range(3):
        jax.block_until_ready(run(*args))
    best = 0.0
    for _ in range(3):
        n, t = 0, time.perf_counter()
        while time.perf_counter() - t < seconds / 3:
            jax.block_until_ready(run(*args))
            n += 1
        best = max(best, n / (time.perf_counter() - t))
    print('%.6f %.3f %s %s' % (compile_s, best, jax.__version__, jax.lib.__version__))


if __name__ == '__main__':
    main()
