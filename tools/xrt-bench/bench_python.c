// SPDX-License-Identifier: MIT
/*
 * The Python package: time per op called from Python (Add of two f32[4],
 * MatMul of f32[8,8]) and the MLP forward, against PyTorch's eager mode
 * and numpy, each run by tools/xrt-bench/peers.py under /usr/bin/python3.
 * The target for an op is at most 0.7 of PyTorch's time (ratio 1.43).
 */
#include <stdio.h>

#include "bench.h"

static void row(struct result *r, int *n, const char *name, const char *unit, double ours,
		double peer, double target, const char *peer_name)
{
	if (ours <= 0 || peer <= 0) {
		fprintf(stderr, "xrt-bench: python: %s against %s did not run\n", name, peer_name);
		return;
	}
	r[(*n)++] = (struct result){ name, unit, 1 / ours, 1 / peer, target, peer_name };
}

int bench_python(struct result *r, bool quick)
{
	int reps = quick ? 3 : 10, n = 0;
	double add = bench_peer("py-xrt-add", reps, 1) * 1e6;
	double mm = bench_peer("py-xrt-matmul", reps, 1) * 1e6;
	double mlp = bench_peer("py-xrt-mlp", 5 * reps, bench_threads()) * 1e3;

	row(r, &n, "python Add f32[4]", "ops/us", add, bench_peer("eager-add", reps, 1) * 1e6,
	    1 / 0.7, "torch eager");
	row(r, &n, "python Add f32[4]", "ops/us", add, bench_peer("py-np-add", reps, 1) * 1e6, 0,
	    "numpy");
	row(r, &n, "python MatMul f32[8,8]", "ops/us", mm,
	    bench_peer("eager-matmul", reps, 1) * 1e6, 1 / 0.7, "torch eager");
	row(r, &n, "python MatMul f32[8,8]", "ops/us", mm,
	    bench_peer("py-np-matmul", reps, 1) * 1e6, 0, "numpy");
	row(r, &n, "python mlp 64x512 x3", "runs/ms", mlp,
	    bench_peer("eager-mlp", 5 * reps, bench_threads()) * 1e3, 1, "torch eager");
	return n;
}
