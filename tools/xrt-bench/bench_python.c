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

/* Runs @names[] in turn, @rounds times over; each one's best into @best[]. */
static void rounds_of(const char *const *names, double *best, int count, int rounds, int reps,
		      unsigned int threads)
{
	int i, k;

	for (k = 0; k < count; k++)
		best[k] = 0;
	/* the machine's speed changes in phases: taking turns gives each the same chances */
	for (i = 0; i < rounds; i++)
		for (k = 0; k < count; k++) {
			double t = bench_peer(names[k], reps, threads);

			if (t > 0 && (!best[k] || t < best[k]))
				best[k] = t;
		}
}

int bench_python(struct result *r, bool quick)
{
	static const char *const ops[] = { "py-xrt-add", "eager-add", "py-np-add",
					   "py-xrt-matmul", "eager-matmul", "py-np-matmul" };
	static const char *const mlps[] = { "py-xrt-mlp", "eager-mlp" };
	int reps = quick ? 3 : 10, rounds = quick ? 1 : 3, n = 0;
	double t[6], m[2];

	rounds_of(ops, t, 6, rounds, reps, 1);
	rounds_of(mlps, m, 2, rounds, 5 * reps, bench_threads());
	row(r, &n, "python Add f32[4]", "ops/us", t[0] * 1e6, t[1] * 1e6, 1 / 0.7, "torch eager");
	row(r, &n, "python Add f32[4]", "ops/us", t[0] * 1e6, t[2] * 1e6, 0, "numpy");
	row(r, &n, "python MatMul f32[8,8]", "ops/us", t[3] * 1e6, t[4] * 1e6, 1 / 0.7,
	    "torch eager");
	row(r, &n, "python MatMul f32[8,8]", "ops/us", t[3] * 1e6, t[5] * 1e6, 0, "numpy");
	row(r, &n, "python mlp 64x512 x3", "runs/ms", m[0] * 1e3, m[1] * 1e3, 1, "torch eager");
	return n;
}
