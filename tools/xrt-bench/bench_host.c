// SPDX-License-Identifier: MIT
/*
 * The host device's benchmarks: compiled modules run on every core,
 * against a C triad on the same threads, OpenBLAS on the same threads,
 * numpy and PyTorch (tools/xrt-bench/peers.py, run with Debian's
 * /usr/bin/python3), and the compiler against its 20 ms budget.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include <xrt/ir.h>

#include "bench.h"
#include "compiler/compiler.h"
#include "core/mem.h"
#include "device/host/host_device.h"

void openblas_set_num_threads(int n);
/* OpenBLAS's own, not in cblas.h: stops its worker threads */
void blas_thread_shutdown_(void);

struct job {
	struct xrt_executable *exe;
	xrt_literal *args[8];
	uint32_t n;
	struct host_pool *pool;
};

static void die(xrt_status *st, const char *what)
{
	fprintf(stderr, "xrt-bench: %s: %s\n", what, xrt_status_message(st));
	exit(1);
}

/*
 * Compiles @text and makes arguments: f32 and f64 ones of pseudo-random
 * values among 1000 in [0, 1), s32 ones of pseudo-random integers in
 * [0, 2^31).  peers.py makes the same.
 */
static void prepare(struct job *j, const char *text, struct host_pool *pool)
{
	xrt_module *m = NULL;
	xrt_status *st = xrt_hlo_parse(NULL, text, strlen(text), &m);
	uint32_t i;
	size_t k;

	if (!st)
		st = cc_compile(m, NULL, NULL, &j->exe);
	if (st)
		die(st, "compiling");
	j->n = xrt_module_num_params(m);
	for (i = 0; i < j->n; i++) {
		uint32_t t = xrt_module_param_shape(m, i)->dtype;
		void *d;

		st = xrt_literal_create(NULL, xrt_module_param_shape(m, i), &j->args[i]);
		if (st)
			die(st, "arguments");
		d = xrt_literal_mutable_data(j->args[i]);
		for (k = 0; k < xrt_literal_size(j->args[i]) / (t == XRT_F64 ? 8 : 4); k++) {
			uint32_t h = (uint32_t)(k * 2654435761u);

			if (t == XRT_S32)
				((int32_t *)d)[k] = (int32_t)(h >> 1);
			else if (t == XRT_F64)
				((double *)d)[k] = (double)(h % 1000) / 1000.0;
			else
				((float *)d)[k] = (float)(h % 1000) / 1000.0f;
		}
	}
	j->pool = pool;
	xrt_module_destroy(m);
}

/* Best time of @reps runs. */
static double run(struct job *j, int reps)
{
	struct host_run_options o = { 0, j->pool, false };
	double best = 1e9;
	int r;

	for (r = 0; r <= reps; r++) {	/* the first one warms up */
		xrt_literal *out = NULL;
		double t = bench_now();
		xrt_status *st = host_run(j->exe, (const xrt_literal *const *)j->args, j->n, &o,
					  NULL, &out);

		t = bench_now() - t;
		if (st)
			die(st, "running");
		xrt_literal_destroy(out);
		if (r && t < best)
			best = t;
	}
	return best;
}

/*
 * Best time of @reps runs into result buffers allocated (and faulted in)
 * once, as the triad's are: the engine's own speed, without the page
 * faults of a fresh output, the parameters bound where they lie: as a
 * run on resident handles.  Array parameters and array results.
 */
static double run_in_place(struct job *j, int reps)
{
	struct host_run_options o = { 0, j->pool, false };
	uint8_t *slots[8] = { NULL }, *out[8] = { NULL };
	double best = 1e9;
	uint32_t s;
	int r;

	for (s = 0; s < j->exe->num_slots && s < 8; s++) {
		const struct xexe_slot *cs = &j->exe->slots[s];

		if (cs->kind == XEXE_SLOT_PARAM) {
			slots[s] = xrt_literal_mutable_data(j->args[cs->param]);
		} else if (cs->kind == XEXE_SLOT_RESULT) {
			/* libxrt's allocator, as the triad's arrays: the same pages for both */
			out[s] = bench_mem(xrt_mem_alloc_aligned(NULL, cs->size, 64), "a result");
			memset(out[s], 0, cs->size);
			slots[s] = out[s];
		}
	}
	for (r = 0; r <= reps; r++) {
		double t = bench_now();
		xrt_status *st = host_run_bound(j->exe, slots, &o, NULL);

		t = bench_now() - t;
		if (st)
			die(st, "running");
		if (r && t < best)
			best = t;
	}
	for (s = 0; s < 8; s++)
		xrt_mem_free(NULL, out[s]);
	return best;
}

static void finish(struct job *j)
{
	uint32_t i;

	for (i = 0; i < j->n; i++)
		xrt_literal_destroy(j->args[i]);
	xexe_destroy(j->exe);
}

double bench_peer(const char *name, int reps, uint32_t threads)
{
	char cmd[512];
	double t = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 %s %s %d %u 2>/dev/null", PEERS_PY, name,
		 reps, threads);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lf", &t) != 1)
		t = 0;
	pclose(f);
	return t;
}

struct triad {
	float *a, *b, *c;
};

static void triad_part(void *ctx, uint64_t first, uint64_t count, void *ws)
{
	struct triad *t = ctx;
	uint64_t i;

	(void)ws;
	for (i = first; i < first + count; i++)
		t->a[i] = t->b[i] + 3.0f * t->c[i];
}

/* The C triad over @n floats on the pool's threads: its GB/s. */
static double triad_bandwidth(size_t n, struct host_pool *pool, int reps)
{
	struct triad t = { bench_mem(xrt_mem_alloc_aligned(NULL, n * 4, 64), "the triad"),
			   bench_mem(xrt_mem_alloc_aligned(NULL, n * 4, 64), "the triad"),
			   bench_mem(xrt_mem_alloc_aligned(NULL, n * 4, 64), "the triad") };
	double best = 1e9;
	int r;

	memset(t.b, 0, n * 4);
	memset(t.c, 0, n * 4);
	memset(t.a, 0, n * 4);
	for (r = 0; r <= reps; r++) {
		double s = bench_now();

		host_pool_for(pool, n, triad_part, &t);
		s = bench_now() - s;
		if (r && s < best)
			best = s;
	}
	xrt_mem_free(NULL, t.a);
	xrt_mem_free(NULL, t.b);
	xrt_mem_free(NULL, t.c);
	return 12.0 * (double)n / best / 1e9;
}

static char *module_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *module_text(const char *fmt, ...)
{
	static char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

static const char reducer[] =
	"%add (a: f32[], b: f32[]) -> f32[] {\n"
	"  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
	"  ROOT %r = f32[] add(%a, %b)\n}\n"
	"%max (a: f32[], b: f32[]) -> f32[] {\n"
	"  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
	"  ROOT %r = f32[] maximum(%a, %b)\n}\n";

static struct result ratio_to(const char *name, double xrt_rate, double peer_rate,
			      const char *peer_name, const char *unit, double target)
{
	return (struct result){ name, unit, xrt_rate, peer_rate, target, peer_name };
}

/* tanh(a * x + b) * c over @n floats: one fused kernel, in @rounds as dots(). */
static void fused(struct host_pool *pool, size_t n, int reps, int rounds, struct result *r,
		  int *k)
{
	struct job j;
	double t = 1e9, bw = 0, py;
	int round;

	prepare(&j, module_text("HloModule fused\nENTRY e {\n"
				"  x = f32[%zu] parameter(0)\n"
				"  a = f32[] constant(2)\n  b = f32[] constant(1)\n"
				"  c = f32[] constant(3)\n"
				"  ab = f32[%zu] broadcast(a), dimensions={}\n"
				"  bb = f32[%zu] broadcast(b), dimensions={}\n"
				"  cb = f32[%zu] broadcast(c), dimensions={}\n"
				"  m = f32[%zu] multiply(ab, x)\n  s = f32[%zu] add(m, bb)\n"
				"  h = f32[%zu] tanh(s)\n  ROOT o = f32[%zu] multiply(h, cb)\n}\n",
				n, n, n, n, n, n, n, n), pool);
	/* against the triad, into an output in place as the triad writes */
	for (round = 0; round < rounds; round++) {
		double s = run_in_place(&j, reps), b = triad_bandwidth(n, pool, reps);

		t = s < t ? s : t;
		bw = b > bw ? b : bw;
	}
	r[(*k)++] = ratio_to("host fused tanh(ax+b)c", 8.0 * (double)n / t / 1e9, bw,
			     "C triad, same threads", "GB/s", 0.7);
	/* against numpy, with a fresh output each time as numpy makes one */
	t = run(&j, reps);
	py = bench_peer("fused", reps, host_pool_threads(pool));
	if (py > 0 && n == (64u << 20))
		r[(*k)++] = ratio_to("host fused vs numpy", 1 / t, 1 / py, "numpy", "runs/s", 1.0);
	finish(&j);
}

/* OpenBLAS's best time for @j's n x n product on @threads threads. */
static double blas_best(struct job *j, size_t n, int reps, uint32_t threads)
{
	double best = 1e9;
	int rep;

	openblas_set_num_threads((int)threads);
	for (rep = 0; rep <= reps; rep++) {
		float *c = bench_mem(aligned_alloc(64, n * n * 4), "OpenBLAS's result");
		double s = bench_now();

		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n,
			    1.0f, xrt_literal_data(j->args[0]), (int)n,
			    xrt_literal_data(j->args[1]), (int)n, 0.0f, c, (int)n);
		s = bench_now() - s;
		if (rep && s < best)
			best = s;
		free(c);
	}
	/*
	 * Idle OpenBLAS workers spin (sched_yield) for a while after a call;
	 * on a small machine they would take a core from whatever is timed
	 * next.  Stop them: the next threaded call starts them again, outside
	 * its timing (the first rep is not counted).
	 */
	blas_thread_shutdown_();
	return best;
}

/*
 * Each DOT against OpenBLAS in alternating rounds, the best of each: a
 * shared machine's speed changes in phases, and alternating gives both
 * sides the same chances.
 */
static void dots(struct host_pool *pool, int reps, bool quick, struct result *r, int *k)
{
	static const size_t sizes[] = { 256, 1024, 2048 };
	static char names[3][32];
	int rounds = quick ? 1 : 3;
	size_t i;

	for (i = 0; i < (quick ? 1 : 3); i++) {
		size_t n = sizes[i];
		double t = 1e9, best = 1e9, flops = 2.0 * (double)n * (double)n * (double)n;
		struct job j;
		int round;

		prepare(&j, module_text("HloModule d\nENTRY e {\n  a = f32[%zu,%zu] parameter(0)\n"
					"  b = f32[%zu,%zu] parameter(1)\n"
					"  ROOT c = f32[%zu,%zu] dot(a, b), lhs_contracting_dims={1}, "
					"rhs_contracting_dims={0}\n}\n", n, n, n, n, n, n), pool);
		/* a 256 product takes a quarter of a millisecond: more runs */
		for (round = 0; round < rounds; round++) {
			double s = run(&j, n < 1024 ? 10 * reps : reps);

			t = s < t ? s : t;
			s = blas_best(&j, n, n < 1024 ? 10 * reps : reps, host_pool_threads(pool));
			best = s < best ? s : best;
		}
		snprintf(names[i], sizeof(names[i]), "host dot f32 %zu", n);
		r[(*k)++] = ratio_to(names[i], flops / t / 1e9, flops / best / 1e9,
				     "OpenBLAS, same threads", "GFLOP/s", 0.9);
		finish(&j);
	}
}

/* A module against its numpy (and torch) peers, as runs per second. */
void bench_against_python(struct host_pool *pool, const char *text, const char *name,
			  const char *peer_name, int reps, int rounds, bool resident,
			  struct result *r, int *k)
{
	struct job j;
	double t = 1e9, py = 1e9;
	int round;

	prepare(&j, text, pool);
	for (round = 0; round < rounds; round++) {	/* alternating, as dots() */
		double s = resident ? run_in_place(&j, reps) : run(&j, reps);
		double p = bench_peer(peer_name, reps, host_pool_threads(pool));

		t = s < t ? s : t;
		py = p > 0 && p < py ? p : py;
	}
	if (py < 1e9)
		r[(*k)++] = ratio_to(name, 1 / t, 1 / py, peer_name, "runs/s", 1.0);
	else
		fprintf(stderr, "xrt-bench: %s: peer %s unavailable (numpy or torch missing?)\n",
			name, peer_name);
	finish(&j);
}

/* Sorts of 8M keys of each type issue 38 names, in total order. */
static void sorts(struct host_pool *pool, int reps, struct result *r, int *k)
{
	static const char *const types[] = { "f32", "f64", "s32" };
	/* the results keep these names */
	static const char *const names[] = { "host sort 8M f32", "host sort 8M f64",
					     "host sort 8M s32" };
	static const char *const peers[] = { "sort", "sort-f64", "sort-s32" };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		const char *t = types[i];

		bench_against_python(pool, module_text("HloModule s\n%%lt (a: %s[], b: %s[]) -> pred[] {\n"
						 "  %%a = %s[] parameter(0)\n  %%b = %s[] parameter(1)\n"
						 "  ROOT %%r = pred[] compare(%%a, %%b), direction=LT%s\n}\n"
						 "ENTRY e {\n  x = %s[%u] parameter(0)\n"
						 "  ROOT s = %s[%u] sort(x), dimensions={0}, to_apply=%%lt\n}\n",
						 t, t, t, t, i < 2 ? ", type=TOTALORDER" : "",
						 t, 8u << 20, t, 8u << 20),
				     names[i], peers[i], reps, 3, false, r, k);
		if (*k && r[*k - 1].name == names[i])
			r[*k - 1].target = 1.5;	/* a radix sort's goal: 1.5 times numpy */
	}
}

static void compile_time(int reps, struct result *r, int *k)
{
	size_t cap = 1 << 17, len;
	char *text = bench_mem(malloc(cap), "the module text");
	double best = 1e9;
	xrt_module *m = NULL;
	xrt_status *st;
	int i, rep;

	len = (size_t)snprintf(text, cap, "HloModule chain\nENTRY e {\n  x0 = f32[64] parameter(0)\n");
	for (i = 1; i < 1000; i++)
		len += (size_t)snprintf(text + len, cap - len, "  x%d = f32[64] %s(x%d%s)\n", i,
					i % 3 == 0 ? "tanh" : i % 3 == 1 ? "add" : "multiply",
					i - 1, i % 3 == 0 ? "" : ", x0");
	snprintf(text + len, cap - len, "  ROOT r = f32[64] negate(x999)\n}\n");
	st = xrt_hlo_parse(NULL, text, strlen(text), &m);
	if (st)
		die(st, "the 1000-instruction module");
	for (rep = 0; rep <= reps; rep++) {
		struct xrt_executable *exe = NULL;
		double t = bench_now();

		st = cc_compile(m, NULL, NULL, &exe);
		t = bench_now() - t;
		if (st)
			die(st, "compiling 1000 instructions");
		xexe_destroy(exe);
		if (rep && t < best)
			best = t;
	}
	r[(*k)++] = ratio_to("compile 1000 instructions", 1 / best, 1 / 0.020, "20 ms budget",
			     "compiles/s", 1.0);
	xrt_module_destroy(m);
	free(text);
}

int bench_host(struct result *r, bool quick)
{
	struct host_pool *pool = NULL;
	xrt_status *st = host_pool_create(bench_threads(), &pool);
	int k = 0, reps = quick ? 1 : 3;
	char soft[4096], mlp[4096];

	if (st)
		die(st, "starting threads");
	fused(pool, quick ? 1u << 20 : 64u << 20, reps, quick ? 1 : 3, r, &k);
	dots(pool, reps, quick, r, &k);
	if (!quick) {
		bench_against_python(pool, module_text("HloModule r\n%sENTRY e {\n"
						 "  x = f32[%u] parameter(0)\n  z = f32[] constant(0)\n"
						 "  ROOT s = f32[] reduce(x, z), dimensions={0}, "
						 "to_apply=%%add\n}\n", reducer, 64u << 20),
			       "host reduce-sum 64M f32", "reduce", reps, 3, false, r, &k);
		snprintf(soft, sizeof(soft), "%s",
			 module_text("HloModule s\n%sENTRY e {\n  x = f32[4096,4096] parameter(0)\n"
				     "  ninf = f32[] constant(-inf)\n  z = f32[] constant(0)\n"
				     "  mx = f32[4096] reduce(x, ninf), dimensions={1}, to_apply=%%max\n"
				     "  mb = f32[4096,4096] broadcast(mx), dimensions={0}\n"
				     "  d = f32[4096,4096] subtract(x, mb)\n"
				     "  e = f32[4096,4096] exponential(d)\n"
				     "  s = f32[4096] reduce(e, z), dimensions={1}, to_apply=%%add\n"
				     "  sb = f32[4096,4096] broadcast(s), dimensions={0}\n"
				     "  ROOT o = f32[4096,4096] divide(e, sb)\n}\n", reducer));
		bench_against_python(pool, soft, "host softmax 4096x4096", "softmax", reps, 3, false, r, &k);
		snprintf(mlp, sizeof(mlp), "%s",
			 module_text("HloModule mlp\nENTRY e {\n  x = f32[64,512] parameter(0)\n"
				     "  w1 = f32[512,512] parameter(1)\n  w2 = f32[512,512] parameter(2)\n"
				     "  w3 = f32[512,512] parameter(3)\n  b1 = f32[512] parameter(4)\n"
				     "  b2 = f32[512] parameter(5)\n  b3 = f32[512] parameter(6)\n"
				     "  z = f32[] constant(0)\n  zb = f32[64,512] broadcast(z), dimensions={}\n"
				     "  d1 = f32[64,512] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
				     "  c1 = f32[64,512] broadcast(b1), dimensions={1}\n"
				     "  a1 = f32[64,512] add(d1, c1)\n  h1 = f32[64,512] maximum(a1, zb)\n"
				     "  d2 = f32[64,512] dot(h1, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
				     "  c2 = f32[64,512] broadcast(b2), dimensions={1}\n"
				     "  a2 = f32[64,512] add(d2, c2)\n  h2 = f32[64,512] maximum(a2, zb)\n"
				     "  d3 = f32[64,512] dot(h2, w3), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
				     "  c3 = f32[64,512] broadcast(b3), dimensions={1}\n"
				     "  ROOT o = f32[64,512] add(d3, c3)\n}\n"));
		bench_against_python(pool, mlp, "host mlp 64x512 x3", "mlp-numpy", 100, 3, false, r, &k);
		bench_against_python(pool, mlp, "host mlp 64x512 x3", "mlp-torch", 100, 3, false, r, &k);
		sorts(pool, reps, r, &k);
	}
	compile_time(quick ? 2 : 10, r, &k);
	host_pool_destroy(pool);
	return k;
}
