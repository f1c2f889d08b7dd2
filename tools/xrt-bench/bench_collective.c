// SPDX-License-Identifier: MIT
/*
 * All-reduce of f32 across 2 and 4 host devices through
 * xrt_execute_replicated(), arguments resident: payload bytes per
 * replica per second against the bandwidth of a C triad on one thread
 * of arrays the same size (target 0.5 for large buffers), and for 1 KiB
 * the runs per second against 200000 (a 5 us latency, target 1).  The
 * results are released after each run; malloc keeps freed blocks for
 * reuse here (mallopt), so a run does not time the kernel faulting in
 * fresh pages for its output.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include <xrt/xrt.h>

#include "bench.h"

struct ar {
	xrt_session *s[4];
	xrt_handle comp[4], args[4], out[4];
	uint32_t n;
};

static void ar_open(struct ar *a, uint32_t n, uint64_t count)
{
	struct xrt_session_options o = { .host_devices = 4 };
	char text[1024], name[16];
	xrt_literal *lit = NULL;
	struct xrt_shape sh;
	uint32_t d;

	snprintf(text, sizeof(text), "HloModule ar, replica_count=%u\n"
		 "f { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
		 " ROOT s = f32[] add(a, b)\n}\nENTRY e {\n x = f32[%llu] parameter(0)\n"
		 " ROOT r = f32[%llu] all-reduce(x), replica_groups={}, to_apply=f\n}\n", n,
		 (unsigned long long)count, (unsigned long long)count);
	bench_check(xrt_shape_init_array(&sh, XRT_F32, 1, (int64_t[]){ (int64_t)count }),
		    "a shape");
	bench_check(xrt_literal_create(NULL, &sh, &lit), "an argument");
	memset(xrt_literal_mutable_data(lit), 0, count * 4);
	a->n = n;
	for (d = 0; d < n; d++) {
		snprintf(name, sizeof(name), "host:%u", d);
		o.device = name;
		bench_check(xrt_session_create(&o, NULL, &a->s[d]), "a session");
		bench_check(xrt_compile_hlo(a->s[d], text, strlen(text), &a->comp[d]), "compiling");
		bench_check(xrt_allocate(a->s[d], lit, &a->args[d]), "an argument");
	}
	xrt_literal_destroy(lit);
	xrt_shape_deinit(&sh);
}

static void ar_close(struct ar *a)
{
	uint32_t d;

	for (d = 0; d < a->n; d++)
		xrt_session_destroy(a->s[d]);
}

/* The best of @reps runs, in seconds. */
static double ar_time(struct ar *a, int reps)
{
	double best = 1e9;
	uint32_t d;
	int r;

	for (r = 0; r < reps + 1; r++) {	/* the first warms up */
		double t = bench_now();

		bench_check(xrt_execute_replicated(a->s, a->n, a->comp, a->args, 1, NULL, a->out),
			    "all-reduce");
		t = bench_now() - t;
		if (r && t < best)
			best = t;
		for (d = 0; d < a->n; d++)
			bench_check(xrt_release_allocations(a->s[d], &a->out[d], 1), "release");
	}
	return best;
}

/* A one-thread C triad over arrays of @bytes: its bandwidth, bytes per second. */
static double triad(uint64_t bytes, int reps)
{
	size_t n = bytes / 4, i;
	float *a = bench_mem(malloc(bytes), "triad"), *b = bench_mem(malloc(bytes), "triad");
	float *c = bench_mem(malloc(bytes), "triad");
	double best = 1e9;
	int r;

	for (i = 0; i < n; i++) {
		a[i] = 0;
		b[i] = (float)i;
		c[i] = 1;
	}
	for (r = 0; r < reps + 1; r++) {
		double t = bench_now();

		for (i = 0; i < n; i++)
			a[i] = b[i] + 3.0f * c[i];
		t = bench_now() - t;
		if (r && t < best)
			best = t;
	}
	if (a[n / 2] < 0)	/* keep the loop */
		fprintf(stderr, "?");
	free(a);
	free(b);
	free(c);
	return 12.0 * (double)n / best;
}

int bench_collective(struct result *r, bool quick)
{
	static const uint64_t sizes[] = { 1024, 1 << 20, 16 << 20, 256u << 20 };
	static char names[16][64];
	int k = 0, devs;
	size_t i;

	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	for (devs = 2; devs <= 4; devs += 2) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			uint64_t bytes = sizes[i];
			int reps = bytes >= (16 << 20) ? (quick ? 1 : 3) : (quick ? 20 : 200);
			struct ar a;
			double t;

			if (quick && bytes > (16 << 20))
				continue;
			ar_open(&a, (uint32_t)devs, bytes / 4);
			t = ar_time(&a, reps);
			ar_close(&a);
			if (bytes == 1024) {
				snprintf(names[k], sizeof(names[k]), "all-reduce 1KiB x%d latency", devs);
				r[k] = (struct result){ names[k], "runs/s", 1.0 / t, 200000.0, 1.0,
						       "5 us" };
				k++;
				continue;
			}
			snprintf(names[k], sizeof(names[k]), "all-reduce %lluMiB x%d",
				 (unsigned long long)(bytes >> 20), devs);
			r[k] = (struct result){ names[k], "GB/s", bytes / t / 1e9,
					       triad(bytes, reps) / 1e9, 0.5, "C triad" };
			k++;
		}
	}
	return k;
}
