// SPDX-License-Identifier: MIT
/*
 * Costs an input controls: a chain of n instructions parsed, compiled
 * and run on the host, and a tuple of n leaves compiled and run.  The
 * peer is the same work at a tenth of the size, scaled up: the ratio is
 * how close to linear the cost stays (1: linear; a quadratic step would
 * give 0.1; memory that no longer fits a cache costs some too).  Both
 * in thousands of instructions (or leaves) a second; the smaller run
 * first once to warm the pools up.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <xrt/ir.h>

#include "bench.h"
#include "compiler/compiler.h"
#include "device/host/host_device.h"

struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->cap - t->len < 256) {
		t->cap = t->cap ? 2 * t->cap : 1 << 20;
		t->s = bench_mem(realloc(t->s, t->cap), "module text");
	}
	va_start(ap, fmt);
	n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static struct text chain(int n)
{
	struct text t = { NULL, 0, 0 };
	int i;

	put(&t, "HloModule chain\nENTRY e {\n  x0 = f32[4] parameter(0)\n");
	for (i = 1; i < n; i++)
		put(&t, "  x%d = f32[4] %s(x%d)\n", i, i % 3 ? "negate" : "abs", i - 1);
	put(&t, "}\n");
	return t;
}

static struct text wide(int n)
{
	struct text t = { NULL, 0, 0 };
	int i;

	put(&t, "HloModule wide\nENTRY e {\n  x = f32[4] parameter(0)\n  ROOT r = (");
	for (i = 0; i < n; i++)
		put(&t, "%sf32[4]", i ? ", " : "");
	put(&t, ") tuple(");
	for (i = 0; i < n; i++)
		put(&t, "%sx", i ? ", " : "");
	put(&t, ")\n}\n");
	return t;
}

/* Seconds to parse, compile and run @t once (the best of @reps). */
static double once(const struct text *t, int reps)
{
	static const float v[4] = { 1, -2, 3, -4 };
	double best = 1e30;
	int i;

	for (i = 0; i < reps; i++) {
		struct xrt_executable *exe = NULL;
		xrt_literal *arg = NULL, *out = NULL;
		xrt_module *m = NULL;
		struct xrt_shape s;
		double t0 = bench_now(), dt;

		bench_check(xrt_hlo_parse(NULL, t->s, t->len, &m), "parse");
		bench_check(cc_compile(m, NULL, NULL, &exe), "compile");
		bench_check(xrt_shape_init_array(&s, XRT_F32, 1, (int64_t[]){ 4 }), "shape");
		bench_check(xrt_literal_create_from(NULL, &s, v, sizeof(v), &arg), "literal");
		bench_check(host_run(exe, (const xrt_literal *const *)&arg, 1, NULL, NULL, &out),
			    "run");
		dt = bench_now() - t0;
		best = dt < best ? dt : best;
		xrt_literal_destroy(arg);
		xrt_literal_destroy(out);
		xexe_destroy(exe);
		xrt_module_destroy(m);
	}
	return best;
}

/* Rate at @n against the rate at @n / 10, for one kind of module. */
static struct result scaled(const char *name, const char *unit, struct text (*make)(int),
			    int n, int reps)
{
	struct text big = make(n), small = make(n / 10);
	double t_small = (once(&small, 1), once(&small, reps)), t_big = once(&big, reps);

	free(big.s);
	free(small.s);
	return (struct result){ name, unit, n / t_big / 1e3, n / 10 / t_small / 1e3, 0.7,
				"same at a tenth" };
}

int bench_scale(struct result *r, bool quick)
{
	int reps = quick ? 2 : 3;

	r[0] = scaled(quick ? "scale chain 20k instrs" : "scale chain 200k instrs", "k/s",
		      chain, quick ? 20000 : 200000, reps);
	r[1] = scaled(quick ? "scale tuple 10k leaves" : "scale tuple 100k leaves", "k/s",
		      wide, quick ? 10000 : 100000, reps);
	return 2;
}
