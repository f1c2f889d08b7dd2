// SPDX-License-Identifier: MIT
/*
 * xrt-bench: measures XRT against peers in the same run and reports
 * ratios.  Timings are the best of several repetitions (DOT: ten,
 * alternating with its peer).
 *
 *   engine-ewise   f32 triad a = b + s * c through EWISE, one thread,
 *                  against the same triad as a plain C loop (the
 *                  memory-bandwidth limit, STREAM style)
 *   engine-reduce  f32 sum through REDUCE, one thread, against the C
 *                  triad's bandwidth
 *   engine-dot     f32 1024 x 1024 x 1024 through DOT, one thread,
 *                  against OpenBLAS sgemm on one thread
 *   scan-*         cumulative sums and maxima as JAX writes them (a
 *                  reduce-window as long as the operand) against numpy's
 *                  cumsum and maximum.accumulate (bench_scan.c)
 *   counts         instructions per operation of the hot paths under
 *                  callgrind, against budgets (bench_counts.c)
 *   conv-*         a CNN's convolutions against PyTorch's (bench_conv.c)
 *   gather-*       row lookups (jnp.take, embeddings) against numpy's take
 *                  (bench_gather.c)
 *   xla-*          the conformance suite's model steps against XLA's CPU
 *                  backend through jax.jit, runs and compiles per second
 *                  (bench_xla.c, the oracle environment)
 *   host-*         compiled modules on every core (bench_host.c): a fused
 *                  kernel against a C triad on as many threads and numpy,
 *                  DOT against OpenBLAS on as many threads, reduce-sum,
 *                  softmax, a sort of 8M floats and a 3-layer MLP against
 *                  numpy and PyTorch,
 *                  and the compile time of a 1000-instruction module
 *
 * Run it through `make bench`, which unsets OPENBLAS_CORETYPE and
 * OPENBLAS_L2_SIZE; where OpenBLAS then picks a generic kernel on a CPU
 * with AVX2 or AVX-512, the benchmark sets the matching one
 * (bench_peer_blas.c).  The kernel that ran is printed beside the
 * figures.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

#include "bench.h"
#include "cstream/cs_builder.h"
#include "device/device_program.h"
#include "device/host/host_device.h"

char *openblas_get_corename(void);
void openblas_set_num_threads(int n);

static void *buffer(size_t bytes)
{
	void *p = bench_mem(aligned_alloc(64, (bytes + 63) & ~(size_t)63), "an operand");

	memset(p, 0, bytes);
	return p;
}

/* A loaded program and what running it needs. */
struct prog {
	struct xdev_program p;
	void *bytes, *ws, *shared;
};

static void load(struct cs_builder *b, struct prog *pr)
{
	size_t size;
	xrt_status *st = cs_finish(b, &pr->bytes, &size);

	if (!st)
		st = xdev_program_load(&pr->p, NULL, pr->bytes, size);
	if (st) {
		fprintf(stderr, "xrt-bench: %s\n", xrt_status_message(st));
		exit(1);
	}
	pr->ws = buffer(pr->p.prog.thread_ws_size + 64);
	pr->shared = buffer(pr->p.prog.shared_ws_size + 64);
}

static double run(struct prog *pr, uint8_t **slots)
{
	struct xrt_engine_ctx x = { &pr->p.prog, slots, pr->shared, 1 };
	struct xrt_engine_cursor c = { 0, 0, 0 };
	double t = bench_now();

	while (!xrt_engine_step(&x, &c, ~0ull, pr->ws))
		;
	return bench_now() - t;
}

static void unload(struct prog *pr)
{
	xdev_program_release(&pr->p);
	xrt_free(NULL, pr->bytes);
	free(pr->ws);
	free(pr->shared);
}

static double triad_c(float *a, const float *b, const float *c, size_t n, float s)
{
	double t = bench_now();
	size_t i;

	for (i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
	return bench_now() - t;
}

static void bench_stream(size_t n, int reps, struct result *ew, struct result *red)
{
	float *a = buffer(n * 4), *b = buffer(n * 4), *c = buffer(n * 4), s = 3.0f, sum;
	uint64_t dims[1] = { n };
	int64_t st[1] = { 1 }, zero[1] = { 0 };
	struct xrt_cs_operand ops[4], rops[2];
	struct xrt_cs_ew_inst in[6] = {
		{ XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0 },
		{ XRT_CS_EW_LOAD, 0, XRT_CS_F32, 1, 1 },
		{ XRT_CS_EW_CONST, 0, XRT_CS_F32, 2 },
		{ XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F32, 1, 1, 2 },
		{ XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, XRT_CS_F32, 0, 0, 1 },
		{ XRT_CS_EW_STORE, 0, 0, 0, 2, 0 },
	};
	double best_c = 1e9, best_e = 1e9, best_r = 1e9;
	struct cs_builder bld;
	struct prog pe, pr;
	uint8_t *slots[4];
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		b[i] = (float)i;
		c[i] = (float)(n - i);
	}
	memcpy(&in[2].imm[0], &s, 4);
	cs_builder_init(&bld, NULL);
	cs_add_slot(&bld, n * 4, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, n * 4, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, n * 4, XRT_CS_SLOT_WRITE);
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[2] = cs_operand(2, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, st);
	cs_ewise(&bld, 1, dims, ops, 3, in, 6, 3);
	load(&bld, &pe);
	cs_builder_init(&bld, NULL);
	cs_add_slot(&bld, n * 4, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, 4, XRT_CS_SLOT_WRITE);
	rops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	rops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, zero);
	cs_reduce(&bld, XRT_CS_RED_SUM, 1, dims, 1, rops, 2, in, 1, 1, 0, NULL, 0);
	load(&bld, &pr);
	slots[0] = (uint8_t *)b;
	slots[1] = (uint8_t *)c;
	slots[2] = (uint8_t *)a;
	for (r = 0; r < reps; r++) {
		double t = triad_c(a, b, c, n, s);

		best_c = t < best_c ? t : best_c;
		t = run(&pe, slots);
		best_e = t < best_e ? t : best_e;
	}
	slots[1] = (uint8_t *)&sum;
	for (r = 0; r < reps; r++) {
		double t = run(&pr, slots);

		best_r = t < best_r ? t : best_r;
	}
	*ew = (struct result){ "engine-ewise f32 triad", "GB/s", 12.0 * n / best_e / 1e9,
			       12.0 * n / best_c / 1e9, 0.7, "C triad" };
	*red = (struct result){ "engine-reduce f32 sum", "GB/s", 4.0 * n / best_r / 1e9,
				12.0 * n / best_c / 1e9, 0.7, "C triad" };
	unload(&pe);
	unload(&pr);
	free(a);
	free(b);
	free(c);
}

static void bench_dot(size_t n, int reps, struct result *res)
{
	float *a = buffer(n * n * 4), *b = buffer(n * n * 4), *c = buffer(n * n * 4);
	struct xrt_cs_matrix ma = { 0, XRT_CS_F32, { 0 }, 0, 0, (int64_t)n, 1 };
	struct xrt_cs_matrix mb = { 1, XRT_CS_F32, { 0 }, 0, 0, (int64_t)n, 1 };
	struct xrt_cs_matrix mc = { 2, XRT_CS_F32, { 0 }, 0, 0, (int64_t)n, 1 };
	double best_x = 1e9, best_o = 1e9, flops = 2.0 * n * n * n;
	struct cs_builder bld;
	uint8_t *slots[3] = { (uint8_t *)a, (uint8_t *)b, (uint8_t *)c };
	struct prog p;
	size_t i;
	int r;

	for (i = 0; i < n * n; i++) {
		a[i] = (float)(i % 17) / 17.0f;
		b[i] = (float)(i % 13) / 13.0f;
	}
	cs_builder_init(&bld, NULL);
	cs_add_slot(&bld, n * n * 4, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, n * n * 4, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, n * n * 4, XRT_CS_SLOT_WRITE);
	cs_dot(&bld, 0, 1, n, n, n, &ma, &mb, &mc);
	load(&bld, &p);
	/*
	 * Alternate the two, so that a machine whose speed drifts (shared
	 * hosts do) treats both alike; keep the best of each.
	 */
	openblas_set_num_threads(1);
	for (r = 0; r < 2 * reps; r++) {
		double t = run(&p, slots);

		best_x = t < best_x ? t : best_x;
		t = bench_now();
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n,
			    (int)n, 1.0f, a, (int)n, b, (int)n, 0.0f, c, (int)n);
		t = bench_now() - t;
		best_o = t < best_o ? t : best_o;
	}
	*res = (struct result){ "engine-dot f32 1024", "GFLOP/s", flops / best_x / 1e9,
				flops / best_o / 1e9, 0.9, "OpenBLAS sgemm" };
	unload(&p);
	free(a);
	free(b);
	free(c);
}

static const char *const groups[] = {
	"engine", "host", "scan", "gather", "conv", "xrt", "eager", "scale", "python", "devices", "cuda",
	"counts", "xla", "collective", "distributed",
};

/*
 * Every group runs when none is named but devices and cuda (they need
 * hardware) and counts (minutes under valgrind).
 */
static bool wanted(const char *only, const char *group)
{
	return only ? !strcmp(only, group) :
		      strcmp(group, "devices") && strcmp(group, "cuda") && strcmp(group, "counts");
}

static bool is_group(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (!strcmp(name, groups[i]))
			return true;
	}
	return false;
}

/*
 * Each result beside its figure in @path, an earlier --json output: the
 * ratio of now to then (more is better in every unit).
 */
static void compare(const char *path, const struct result *res, size_t count)
{
	FILE *f = fopen(path, "r");
	static char text[1 << 20];
	size_t len, i;

	if (!f) {
		fprintf(stderr, "xrt-bench: --compare: cannot read %s\n", path);
		return;
	}
	len = fread(text, 1, sizeof(text) - 1, f);
	text[len] = 0;
	fclose(f);
	fprintf(stderr, "\n%-26s %10s %10s %7s  (against %s)\n", "benchmark", "then", "now",
		"now/then", path);
	for (i = 0; i < count; i++) {
		char key[160];
		const char *at, *x;
		double then;

		snprintf(key, sizeof(key), "\"name\": \"%s\"", res[i].name);
		at = strstr(text, key);
		x = at ? strstr(at, "\"xrt\": ") : NULL;
		if (!x) {
			fprintf(stderr, "%-26s %10s %10.2f\n", res[i].name, "-", res[i].xrt);
			continue;
		}
		then = strtod(x + 7, NULL);
		fprintf(stderr, "%-26s %10.2f %10.2f %7.2f\n", res[i].name, then, res[i].xrt,
			then > 0 ? res[i].xrt / then : 0);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quick", no_argument, NULL, 'q' },
		{ "only", required_argument, NULL, 'o' },
		{ "compare", required_argument, NULL, 'c' },
		{ "count-child", no_argument, NULL, 'C' },	/* under callgrind: counts */
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct result res[128];
	size_t n = 1u << 24, i, count;
	static const char usage[] = "usage: xrt-bench [--json] [--quick] [--compare=FILE.json] "
				    "[--only=engine|host|scan|gather|conv|collective|distributed|xrt|eager|scale|python|devices|"
				    "cuda|counts|xla]\n";
	const char *only = NULL, *against = NULL;
	int json = 0, reps = 5, o;

	bench_honest_blas(argv);	/* may run the benchmark again, better configured */

	while ((o = getopt_long(argc, argv, "jqho:c:C", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			json = 1;
			break;
		case 'q':
			n = 1u << 20;
			reps = 2;
			break;
		case 'o':
			only = optarg;
			if (!is_group(only)) {
				fprintf(stderr, "xrt-bench: unknown group '%s'\n%s", only, usage);
				return 2;
			}
			break;
		case 'c':
			against = optarg;
			break;
		case 'C':
			return bench_count_child();
		case 'h':
			printf("%s", usage);
			return 0;
		default:
			fprintf(stderr, "%s", usage);
			return 2;
		}
	}
	__builtin_cpu_init();
	host_detect_cpu();
	/* the engine's 8-wide kernels on an AVX-512 machine (with OPENBLAS_CORETYPE=Haswell) */
	if (getenv("XRT_BENCH_AVX2"))
		xrt_engine_use_avx512 = 0;
	count = 0;
	if (wanted(only, "engine")) {
		bench_stream(n, reps, &res[0], &res[1]);
		bench_dot(reps > 2 ? 1024 : 256, reps, &res[2]);
		count = 3;
	}
	if (wanted(only, "host"))
		count += (size_t)bench_host(res + count, reps <= 2);
	if (wanted(only, "scan"))
		count += (size_t)bench_scan(res + count, reps <= 2);
	if (wanted(only, "collective"))
		count += (size_t)bench_collective(res + count, reps <= 2);
	if (wanted(only, "distributed"))
		count += (size_t)bench_distributed(res + count, reps <= 2);
	if (wanted(only, "conv"))
		count += (size_t)bench_conv(res + count, reps <= 2);
	if (wanted(only, "gather"))
		count += (size_t)bench_gather(res + count, reps <= 2);
	if (wanted(only, "xrt"))
		count += (size_t)bench_xrt(res + count, reps <= 2);
	if (wanted(only, "eager"))
		count += (size_t)bench_eager(res + count, reps <= 2);
	if (wanted(only, "scale"))
		count += (size_t)bench_scale(res + count, reps <= 2);
	if (wanted(only, "devices"))
		count += (size_t)bench_devices(res + count, reps <= 2);
	if (wanted(only, "cuda"))
		count += (size_t)bench_cuda(res + count, reps <= 2);
	if (wanted(only, "counts"))
		count += (size_t)bench_counts(res + count, reps <= 2);
	if (wanted(only, "xla"))
		count += (size_t)bench_xla(res + count, reps <= 2);
	/* the build's package first; an installed one otherwise */
	setenv("PYTHONPATH", PYXRT_DIR, 0);
	if (wanted(only, "python"))
		count += (size_t)bench_python(res + count, reps <= 2);
	if (json) {
		printf("{\"openblas_core\": \"%s\", \"openblas_core_how\": \"%s\", "
		       "\"engine_avx2\": %d, \"engine_avx512\": %d, "
		       "\"results\": [", openblas_get_corename(), bench_blas_note(),
		       xrt_engine_use_avx2, xrt_engine_use_avx512);
		for (i = 0; i < count; i++) {
			char ratio[32] = "null";	/* the peer could not run */

			if (res[i].peer > 0)
				snprintf(ratio, sizeof(ratio), "%.3f", res[i].xrt / res[i].peer);
			printf("%s{\"name\": \"%s\", \"unit\": \"%s\", \"xrt\": %.3f, "
			       "\"peer\": \"%s\", \"peer_value\": %.3f, \"ratio\": %s, "
			       "\"target\": %.2f}", i ? ", " : "", res[i].name, res[i].unit,
			       res[i].xrt, res[i].peer_name, res[i].peer, ratio, res[i].target);
		}
		printf("]}\n");
		if (against)
			compare(against, res, count);
		return 0;
	}
	printf("OpenBLAS kernel: %s (%s); engine vector kernels: %s; host threads: %u\n\n",
	       openblas_get_corename(), bench_blas_note(),
	       xrt_engine_use_avx512 ? "AVX-512" : xrt_engine_use_avx2 ? "AVX2" : "SSE2",
	       bench_threads());
	printf("%-26s %10s %10s  %-22s %7s %7s\n", "benchmark", "xrt", "peer", "peer name",
	       "ratio", "target");
	for (i = 0; i < count; i++) {
		char target[16] = "      -";	/* a figure to report, no target */
		char ratio[16] = "  no peer";	/* the peer could not run */

		if (res[i].target > 0)
			snprintf(target, sizeof(target), "%7.2f", res[i].target);
		if (res[i].peer > 0)
			snprintf(ratio, sizeof(ratio), "%7.2f", res[i].xrt / res[i].peer);
		printf("%-26s %10.2f %10.2f  %-22s %s %s  %s\n", res[i].name, res[i].xrt,
		       res[i].peer, res[i].peer_name, ratio, target, res[i].unit);
	}
	if (against)
		compare(against, res, count);
	return 0;
}
