// SPDX-License-Identifier: MIT
/*
 * The eager API: time per dispatched op of a reused op on small tensors
 * (Add of two f32[4], MatMul of f32[8,8]) against PyTorch's CPU eager
 * mode from Python, and a 3-layer MLP forward (batch 64, width 512,
 * ReLU) op by op against PyTorch.  Ratios are peer time over ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <xrt/eager.h>

#include "bench.h"

static void must(xrt_status *st)
{
	if (st) {
		fprintf(stderr, "xrt-bench: eager: %s\n", xrt_status_message(st));
		exit(1);
	}
}

/* Seconds per execution of @op: the best of @reps loops of @n. */
static double per_op(xrt_op *op, int reps, int n)
{
	double best = 1e30, t;
	xrt_tensor *out;
	uint32_t nr;
	int r, i;

	for (r = 0; r <= reps; r++) {
		t = bench_now();
		for (i = 0; i < n; i++) {
			nr = 1;
			must(xrt_op_execute(op, &out, &nr));
			xrt_tensor_unref(out);
		}
		t = (bench_now() - t) / n;
		if (r && t < best)	/* the first loop warms up */
			best = t;
	}
	return best;
}

static double dispatch(xrt_eager_context *c, const char *name, uint32_t rank, int reps)
{
	static float data[64] __attribute__((aligned(64)));
	int64_t dims[2] = { rank == 1 ? 4 : 8, 8 };
	xrt_tensor *t;
	xrt_op *op;
	double s;

	must(xrt_tensor_from_host(c, XRT_F32, rank, dims, data, rank == 1 ? 16 : 256, &t));
	must(xrt_op_create(c, name, &op));
	must(xrt_op_add_input(op, t));
	must(xrt_op_add_input(op, t));
	s = per_op(op, reps, 10000);
	xrt_op_destroy(op);
	xrt_tensor_unref(t);
	return s;
}

/* One op on two inputs, its output. */
static xrt_tensor *apply(xrt_op *op, const char *name, xrt_tensor *a, xrt_tensor *b)
{
	xrt_tensor *out;
	uint32_t nr = 1;

	must(xrt_op_reset(op, name, NULL));
	must(xrt_op_add_input(op, a));
	if (b)
		must(xrt_op_add_input(op, b));
	must(xrt_op_execute(op, &out, &nr));
	return out;
}

static double mlp(xrt_eager_context *c, int reps)
{
	int64_t dx[2] = { 64, 512 }, dw[2] = { 512, 512 }, db[1] = { 512 };
	float *x = bench_mem(calloc(64 * 512, sizeof(float)), "the input");
	float *w = bench_mem(calloc(512 * 512, sizeof(float)), "the weights");
	xrt_tensor *tx, *tw[3], *tb[3], *h, *next;
	double best = 1e30, t;
	xrt_op *op;
	int r, l;

	for (l = 0; l < 512 * 512; l++)
		w[l] = (float)(((unsigned)l * 7919u) % 1000u) / 1000.0f - 0.5f;
	for (l = 0; l < 64 * 512; l++)
		x[l] = (float)(((unsigned)l * 104729u) % 1000u) / 1000.0f;
	must(xrt_tensor_from_host(c, XRT_F32, 2, dx, x, 64 * 512 * 4, &tx));
	for (l = 0; l < 3; l++) {
		must(xrt_tensor_from_host(c, XRT_F32, 2, dw, w, 512 * 512 * 4, &tw[l]));
		must(xrt_tensor_from_host(c, XRT_F32, 1, db, x, 512 * 4, &tb[l]));
	}
	must(xrt_op_create(c, "MatMul", &op));
	for (r = 0; r <= reps; r++) {
		t = bench_now();
		h = xrt_tensor_ref(tx);
		for (l = 0; l < 3; l++) {
			next = apply(op, "MatMul", h, tw[l]);
			xrt_tensor_unref(h);
			h = apply(op, "BiasAdd", next, tb[l]);
			xrt_tensor_unref(next);
			if (l < 2) {
				next = apply(op, "Relu", h, NULL);
				xrt_tensor_unref(h);
				h = next;
			}
		}
		xrt_tensor_unref(h);
		t = bench_now() - t;
		if (r && t < best)
			best = t;
	}
	xrt_op_destroy(op);
	for (l = 0; l < 3; l++) {
		xrt_tensor_unref(tw[l]);
		xrt_tensor_unref(tb[l]);
	}
	xrt_tensor_unref(tx);
	free(x);
	free(w);
	return best;
}

/* A peer's rate from its best time; 0 (no figure) where it never ran. */
static double peer_rate(double best)
{
	return best < 1e20 ? 1 / best : 0;
}

/*
 * Per-op time of @op and of PyTorch's @peer, taken in @rounds alternating
 * rounds, the best of each: a shared machine's speed changes between
 * phases, and alternating gives both the same chances.
 */
static struct result against(xrt_eager_context *c, const char *name, const char *op,
			     uint32_t rank, const char *peer, int rounds, int reps)
{
	double ours = 1e30, theirs = 1e30, t;
	int i;

	for (i = 0; i < rounds; i++) {
		t = dispatch(c, op, rank, reps);
		ours = t < ours ? t : ours;
		t = bench_peer(peer, reps, 1);
		theirs = t > 0 && t < theirs ? t : theirs;
	}
	return (struct result){ name, "ops/us", 1 / (ours * 1e6), peer_rate(theirs * 1e6), 5,
				"torch eager" };
}

int bench_eager(struct result *r, bool quick)
{
	struct xrt_eager_options o = { .threads = bench_threads() };
	int reps = quick ? 3 : 10, n = 0, i;
	double ours = 1e30, theirs = 1e30, t;
	xrt_eager_context *c;

	must(xrt_eager_context_create(&o, NULL, &c));
	r[n++] = against(c, "eager Add f32[4]", "AddV2", 1, "eager-add", quick ? 1 : 3, reps);
	r[n++] = against(c, "eager MatMul f32[8,8]", "MatMul", 2, "eager-matmul", quick ? 1 : 3,
			 reps);
	for (i = 0; i < (quick ? 1 : 3); i++) {	/* alternating, as against() */
		t = mlp(c, 5 * reps);
		ours = t < ours ? t : ours;
		t = bench_peer("eager-mlp", 5 * reps, bench_threads());
		theirs = t > 0 && t < theirs ? t : theirs;
	}
	r[n++] = (struct result){ "eager mlp 64x512 x3", "runs/ms", 1 / (ours * 1e3),
				  peer_rate(theirs * 1e3), 1, "torch eager" };
	xrt_eager_context_destroy(c);
	return n;
}
