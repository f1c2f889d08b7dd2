#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Python peers of xrt-bench: prints the best of REPS runs of NAME, in
seconds, with numpy or PyTorch (Debian's python3-numpy, python3-torch).

usage: peers.py NAME REPS THREADS

The py-* cases run XRT's own Python package (PYTHONPATH names the build's)
for the Python benchmarks, where the peers are the torch and numpy cases
beside them."""
import sys
import time

import numpy as np


def best(f, reps):
    f()
    t = float('inf')
    for _ in range(reps):
        s = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - s)
    return t


def main():
    name, reps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(1)
    if name == 'fused':
        x = rng.random(64 << 20, dtype=np.float32)
        print(best(lambda: np.tanh(x * np.float32(2) + np.float32(1)) * np.float32(3), reps))
    elif name == 'reduce':
        x = rng.random(64 << 20, dtype=np.float32)
        print(best(lambda: x.sum(), reps))
    elif name == 'softmax':
        x = rng.random((4096, 4096), dtype=np.float32)

        def softmax():
            e = np.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        print(best(softmax, reps))
    elif name in ('mlp-numpy', 'mlp-torch'):
        x = rng.random((64, 512), dtype=np.float32)
        ws = [rng.random((512, 512), dtype=np.float32) for _ in range(3)]
        bs = [rng.random(512, dtype=np.float32) for _ in range(3)]
        if name == 'mlp-numpy':
            def mlp():
                h = np.maximum(x @ ws[0] + bs[0], 0)
                h = np.maximum(h @ ws[1] + bs[1], 0)
                return h @ ws[2] + bs[2]
            print(best(mlp, reps))
        else:
            import torch
            torch.set_num_threads(threads)
            tx = torch.from_numpy(x)
            tw = [torch.from_numpy(w) for w in ws]
            tb = [torch.from_numpy(b) for b in bs]

            def mlp():
                with torch.no_grad():
                    h = torch.relu(tx @ tw[0] + tb[0])
                    h = torch.relu(h @ tw[1] + tb[1])
                    return h @ tw[2] + tb[2]
            print(best(mlp, reps))
    elif name in ('eager-add', 'eager-matmul'):
        # seconds per op: the best of REPS loops of 10000 ops
        import torch
        torch.set_num_threads(threads)
        a = torch.ones(4) if name == 'eager-add' else torch.ones(8, 8)

        def loop():
            with torch.no_grad():
                for _ in range(10000):
                    a + a if name == 'eager-add' else a @ a
        print(best(loop, reps) / 10000)
    elif name == 'eager-mlp':
        import torch
        torch.set_num_threads(threads)
        x = torch.rand(64, 512)
        ws = [torch.rand(512, 512) for _ in range(3)]
        bs = [torch.rand(512) for _ in range(3)]

        def mlp():
            with torch.no_grad():
                h = torch.relu(x @ ws[0] + bs[0])
                h = torch.relu(h @ ws[1] + bs[1])
                return h @ ws[2] + bs[2]
        print(best(mlp, reps))
    elif name in ('py-xrt-add', 'py-xrt-matmul', 'py-np-add', 'py-np-matmul'):
        # seconds per op from Python: the best of REPS loops of 10000 ops
        shape = (4,) if name.endswith('add') else (8, 8)
        if name.startswith('py-xrt'):
            import xrt
            a = xrt.tensor(np.ones(shape, np.float32))
            op = xrt.ops.AddV2 if name.endswith('add') else xrt.ops.MatMul
        else:
            a = np.ones(shape, np.float32)
            op = np.add if name.endswith('add') else np.matmul

        def loop():
            for _ in range(10000):
                op(a, a)
        print(best(loop, reps) / 10000)
    elif name == 'py-xrt-mlp':
        import xrt
        x = xrt.tensor(rng.random((64, 512), dtype=np.float32))
        ws = [xrt.tensor(rng.random((512, 512), dtype=np.float32)) for _ in range(3)]
        bs = [xrt.tensor(rng.random(512, dtype=np.float32)) for _ in range(3)]
        relu = xrt.ops.Relu

        def mlp():
            h = relu(x @ ws[0] + bs[0])
            h = relu(h @ ws[1] + bs[1])
            return h @ ws[2] + bs[2]
        print(best(mlp, reps))
    else:
        sys.exit('peers.py: no benchmark ' + name)


if __name__ == '__main__':
    main()
