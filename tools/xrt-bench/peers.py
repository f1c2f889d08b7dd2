#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Python peers of xrt-bench: prints the best of REPS runs of NAME, in
seconds, with numpy or PyTorch (Debian's python3-numpy, python3-torch).

usage: peers.py NAME REPS THREADS

The py-* cases run XRT's own Python package (PYTHONPATH names the build's)
for the Python benchmarks, where the peers are the torch and numpy cases
beside them."""
import operator
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


def three_layers(x, ws, bs, relu):
    """The benchmarks' MLP forward: 64x512, three layers, ReLU between."""
    def mlp():
        h = relu(x @ ws[0] + bs[0])
        h = relu(h @ ws[1] + bs[1])
        return h @ ws[2] + bs[2]
    return mlp


def conv_layer(name, threads):
    """xrt-bench's conv group (bench_conv.c): the layer its peer name says,
    conv:KIND:B:HW:CIN:COUT:K:STRIDE:PAD:DILATION:GROUPS; NHWC layers as
    channels last, the NCHW one contiguous."""
    import torch
    torch.set_num_threads(threads)
    torch.set_grad_enabled(False)
    f = name.split(':')
    kind = f[1]
    b, hw, cin, cout, k, s, p, d, g = (int(v) for v in f[2:])
    last = torch.channels_last if kind != 'nchw' else torch.contiguous_format
    x = torch.rand(b, cin, hw, hw).to(memory_format=last)
    w = torch.rand(cout, cin // g, k, k).to(memory_format=last)
    o = (hw + 2 * p - d * (k - 1) - 1) // s + 1
    dy = torch.rand(b, cout, o, o).to(memory_format=last)
    if kind == 'dgrad':
        return lambda: torch.nn.grad.conv2d_input(x.shape, w, dy, stride=s, padding=p)
    if kind == 'wgrad':
        return lambda: torch.nn.grad.conv2d_weight(x, w.shape, dy, stride=s, padding=p)
    return lambda: torch.nn.functional.conv2d(x, w, stride=s, padding=p, dilation=d,
                                              groups=g)


def main():
    name, reps, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(1)
    if name == 'fused':
        x = rng.random(64 << 20, dtype=np.float32)
        print(best(lambda: np.tanh(x * np.float32(2) + np.float32(1)) * np.float32(3), reps))
    elif name == 'reduce':
        x = rng.random(64 << 20, dtype=np.float32)
        print(best(lambda: x.sum(), reps))
    elif name in ('cumsum-64k', 'cumsum-1m', 'rcumsum-1m', 'cummax-1m'):
        # xrt-bench's scan group: the running op over one long vector
        x = rng.random(65536 if name.endswith('64k') else 1 << 20, dtype=np.float32)
        f = {'cumsum-64k': lambda: np.cumsum(x), 'cumsum-1m': lambda: np.cumsum(x),
             'rcumsum-1m': lambda: np.cumsum(x[::-1])[::-1],
             'cummax-1m': lambda: np.maximum.accumulate(x)}[name]
        print(best(f, reps))
    elif name in ('cumsum-rows', 'cumsum-cols'):
        x = rng.random((1024, 1024), dtype=np.float32)
        print(best(lambda: np.cumsum(x, axis=1 if name == 'cumsum-rows' else 0), reps))
    elif name in ('take-256', 'take-16'):
        # xrt-bench's gather group: whole rows at random indices
        rows, width, n = (50000, 256, 4096) if name == 'take-256' else (100000, 16, 65536)
        t = rng.random((rows, width), dtype=np.float32)
        i = rng.integers(0, rows, n, dtype=np.int32)
        print(best(lambda: np.take(t, i, axis=0), reps))
    elif name.startswith('conv:'):
        print(best(conv_layer(name, threads), reps))
    elif name in ('sort', 'sort-f64', 'sort-s32'):
        # xrt-bench's own arguments: 1000 distinct values, many ties, or
        # integers spread over [0, 2^31)
        h = np.arange(8 << 20, dtype=np.uint64) * np.uint64(2654435761) % np.uint64(1 << 32)
        if name == 'sort-s32':
            x = (h >> np.uint64(1)).astype(np.int32)
        elif name == 'sort-f64':
            x = (h % np.uint64(1000)).astype(np.float64) / 1000.0
        else:
            x = (h % np.uint64(1000)).astype(np.float32) / np.float32(1000)
        print(best(lambda: np.sort(x), reps))
    elif name == 'softmax':
        x = rng.random((4096, 4096), dtype=np.float32)

        def softmax():
            e = np.exp(x - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        print(best(softmax, reps))
    elif name in ('mlp-numpy', 'mlp-torch', 'eager-mlp', 'py-xrt-mlp'):
        x = rng.random((64, 512), dtype=np.float32)
        ws = [rng.random((512, 512), dtype=np.float32) for _ in range(3)]
        bs = [rng.random(512, dtype=np.float32) for _ in range(3)]
        if name == 'mlp-numpy':
            relu = lambda h: np.maximum(h, 0)
        elif name == 'py-xrt-mlp':
            import xrt
            x, ws, bs = xrt.tensor(x), [xrt.tensor(w) for w in ws], [xrt.tensor(b) for b in bs]
            relu = xrt.ops.Relu
        else:   # PyTorch, eager
            import torch
            torch.set_num_threads(threads)
            torch.set_grad_enabled(False)
            x, ws, bs = torch.from_numpy(x), [torch.from_numpy(w) for w in ws], \
                [torch.from_numpy(b) for b in bs]
            relu = torch.relu
        print(best(three_layers(x, ws, bs, relu), reps))
    elif name in ('eager-add', 'eager-matmul', 'py-xrt-add', 'py-xrt-matmul', 'py-np-add',
                  'py-np-matmul'):
        # seconds per op: the best of REPS loops of 10000 ops
        shape = (4,) if name.endswith('add') else (8, 8)
        op = operator.add if name.endswith('add') else operator.matmul
        if name.startswith('eager'):    # PyTorch's operators
            import torch
            torch.set_num_threads(threads)
            torch.set_grad_enabled(False)
            a = torch.ones(shape)
        elif name.startswith('py-xrt'):
            import xrt
            a = xrt.tensor(np.ones(shape, np.float32))
            op = xrt.ops.AddV2 if name.endswith('add') else xrt.ops.MatMul
        else:
            a = np.ones(shape, np.float32)

        def loop():
            for _ in range(10000):
                op(a, a)
        print(best(loop, reps) / 10000)
    else:
        sys.exit('peers.py: no benchmark ' + name)


if __name__ == '__main__':
    main()
