// SPDX-License-Identifier: MIT
/*
 * accel:0 against host:0 through the same XRT API in the same run: the
 * library and ioctl cost of executing a tiny cached program (compute is
 * nil, so this is submit, fence wait and status against an in-process
 * call), and a large DOT on the kernel's engine against the host's
 * engine (OpenBLAS off, so both run the same micro-kernel: the ratio is
 * the kernel worker against the host's thread pool).  Under emulation
 * (the VM stage) only the ratios mean anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xrt/device.h>
#include <xrt/xrt.h>

#include "bench.h"

/* A session on @device with the module @hlo compiled and @n f32 arguments. */
struct setup {
	xrt_session *s;
	xrt_handle c, args[2];
};

static void prepare(struct setup *p, const char *device, const char *hlo, int64_t dim,
		    uint32_t rank)
{
	const struct xrt_session_options o = { device, 0, true };
	int64_t dims[2] = { dim, dim }, i, n = rank == 1 ? dim : dim * dim;
	float *v = bench_mem(malloc((size_t)n * sizeof(*v)), "the arguments");
	struct xrt_shape sh;
	uint32_t k;

	for (i = 0; i < n; i++)
		v[i] = (float)(i % 7) * 0.125f;
	bench_check(xrt_session_create(&o, NULL, &p->s), device);
	bench_check(xrt_compile_hlo(p->s, hlo, strlen(hlo), &p->c), "compile");
	bench_check(xrt_shape_init_array(&sh, XRT_F32, rank, dims), "shape");
	for (k = 0; k < 2; k++)
		bench_check(xrt_allocate_data(p->s, &sh, v, (size_t)n * sizeof(*v), &p->args[k]),
		      "allocate");
	free(v);
}

/* Seconds per execution, over @runs of them. */
static double best_run(struct setup *p, int runs)
{
	double t0 = bench_now();
	xrt_handle r;
	int i;

	for (i = 0; i < runs; i++) {
		bench_check(xrt_execute(p->s, p->c, p->args, 2, NULL, &r), "execute");
		bench_check(xrt_release_allocations(p->s, &r, 1), "release");
	}
	return (bench_now() - t0) / runs;
}

static const char tiny[] = "HloModule tiny\nENTRY e {\n  a = f32[4] parameter(0)\n"
			   "  b = f32[4] parameter(1)\n  ROOT s = f32[4] add(a, b)\n}\n";

static const char dot[] = "HloModule dot\nENTRY e {\n  a = f32[256,256] parameter(0)\n"
			  "  b = f32[256,256] parameter(1)\n  ROOT d = f32[256,256] dot(a, b), "
			  "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";

/* accel:0 and host:0 in turns, the best of each: executions per second. */
static void compare(const char *hlo, int64_t dim, uint32_t rank, int runs, int reps,
		    double *accel, double *host)
{
	struct setup a, h;
	double ba = 1e9, bh = 1e9, t;
	int r;

	prepare(&a, "accel:0", hlo, dim, rank);
	prepare(&h, "host:0", hlo, dim, rank);
	best_run(&a, 1);	/* uploads the program; warms the pool */
	best_run(&h, 1);
	for (r = 0; r < reps; r++) {
		t = best_run(&a, runs);
		ba = t < ba ? t : ba;
		t = best_run(&h, runs);
		bh = t < bh ? t : bh;
	}
	*accel = 1 / ba;
	*host = 1 / bh;
	xrt_session_destroy(a.s);
	xrt_session_destroy(h.s);
}

static bool have_accel(void)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;
	bool found = false;

	bench_check(xrt_devices_list(NULL, &v, &n), "devices");
	for (i = 0; i < n; i++)
		found |= v[i].kind == XRT_DEVICE_ACCEL;
	xrt_free(NULL, v);
	return found;
}

int bench_devices(struct result *r, bool quick)
{
	double a, h, flops = 2.0 * 256 * 256 * 256;

	if (!have_accel()) {
		fprintf(stderr, "xrt-bench: no accel device: the devices group needs the "
			"xrt_accel driver (make vmbench runs it in the VM)\n");
		return 0;
	}
	compare(tiny, 4, 1, quick ? 200 : 2000, 3, &a, &h);
	r[0] = (struct result){ "accel tiny execute", "runs/s", a, h, 0, "host:0, same API" };
	compare(dot, 256, 2, 1, quick ? 2 : 4, &a, &h);
	r[1] = (struct result){ "accel dot f32 256", "GFLOP/s", a * flops / 1e9, h * flops / 1e9,
				0, "host:0 engine (no BLAS)" };
	return 2;
}
