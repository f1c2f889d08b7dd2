// SPDX-License-Identifier: MIT
/*
 * The XRT API's own costs, beside what they wrap: an execution of a
 * cached tiny program (against running the same program with its slots
 * already bound), a compile-cache hit on a fingerprinted module, and
 * allocating and reading back 4 KiB (against two memcpys).  The first
 * two have 1 us budgets: the peer is that budget as a rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xrt/xrt.h>

#include "bench.h"
#include "compiler/compiler.h"
#include "device/host/host_device.h"

static const char tiny[] = "HloModule tiny\nENTRY e {\n  a = f32[4] parameter(0)\n"
			   "  b = f32[4] parameter(1)\n  ROOT s = f32[4] add(a, b)\n}\n";

/* Seconds per run of the tiny program with its slots bound by hand. */
static double bare_run(const struct xrt_executable *exe, int reps)
{
	static float a[4], b[4], out[4];
	uint8_t *slots[16] = { NULL };
	struct host_run_options o = { 1, NULL, false };
	double t0;
	uint32_t s;
	int i;

	for (s = 0; s < exe->num_slots; s++) {
		if (exe->slots[s].kind == XEXE_SLOT_PARAM)
			slots[s] = (uint8_t *)(exe->slots[s].param ? b : a);
		else if (exe->slots[s].kind == XEXE_SLOT_RESULT)
			slots[s] = (uint8_t *)out;
	}
	t0 = bench_now();
	for (i = 0; i < reps; i++)
		bench_check(host_run_bound(exe, slots, &o, NULL), "bare run");
	return (bench_now() - t0) / reps;
}

int bench_xrt(struct result *r, bool quick)
{
	static const float v[4] = { 1, 2, 3, 4 };
	static uint8_t page[4096], back[4096];
	const struct xrt_execution_config cfg = { 0, 1, false, false };
	int reps = quick ? 2000 : 100000, k = 0, i;
	struct xrt_executable *exe = NULL;
	xrt_handle c, args[2], out, h;
	struct xrt_shape shape;
	xrt_session *s = NULL;
	xrt_module *m = NULL;
	double t0, t_exec, t_bare, t_hit, t_io, t_copy;

	bench_check(xrt_session_create(NULL, NULL, &s), "session");
	bench_check(xrt_hlo_parse(NULL, tiny, sizeof(tiny) - 1, &m), "parse");
	bench_check(xrt_compile_module(s, m, &c), "compile");
	bench_check(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 4 }), "shape");
	bench_check(xrt_allocate_data(s, &shape, v, sizeof(v), &args[0]), "allocate");
	bench_check(xrt_allocate_data(s, &shape, v, sizeof(v), &args[1]), "allocate");
	bench_check(xrt_execute(s, c, args, 2, &cfg, &out), "execute");	/* warm: the pool */
	bench_check(xrt_release_allocations(s, &out, 1), "release");
	t0 = bench_now();
	for (i = 0; i < reps; i++) {
		bench_check(xrt_execute(s, c, args, 2, &cfg, &out), "execute");
		bench_check(xrt_release_allocations(s, &out, 1), "release");
	}
	t_exec = (bench_now() - t0) / reps;
	bench_check(cc_compile(m, NULL, NULL, &exe), "compile");
	t_bare = bare_run(exe, reps);
	xexe_destroy(exe);
	/* the difference of two timings: never below a nanosecond */
	r[k++] = (struct result){ "xrt execute overhead", "1/us",
				  1e-6 / (t_exec - t_bare > 1e-9 ? t_exec - t_bare : 1e-9), 1.0,
				  1.0, "1 us budget" };
	/* compile-cache hits: the module is fingerprinted already */
	t0 = bench_now();
	for (i = 0; i < reps; i++) {
		bench_check(xrt_compile_module(s, m, &h), "compile");
		bench_check(xrt_release_compilations(s, &h, 1), "release");
	}
	t_hit = (bench_now() - t0) / reps;
	r[k++] = (struct result){ "xrt compile-cache hit", "1/us", 1e-6 / t_hit, 1.0, 1.0,
				  "1 us budget" };
	/* 4 KiB in and out, against copying it twice */
	bench_check(xrt_shape_init_array(&shape, XRT_U8, 1, (int64_t[]){ 4096 }), "shape");
	t0 = bench_now();
	for (i = 0; i < reps; i++) {
		bench_check(xrt_allocate_data(s, &shape, page, sizeof(page), &h), "allocate");
		bench_check(xrt_read_data(s, h, true, back, sizeof(back)), "read");
	}
	t_io = (bench_now() - t0) / reps;
	t0 = bench_now();
	for (i = 0; i < reps; i++) {
		uint8_t *p = bench_mem(malloc(sizeof(page)), "the peer's copy");

		memcpy(p, page, sizeof(page));
		memcpy(back, p, sizeof(page));
		__asm__ volatile("" : : "r"(back) : "memory");
		free(p);
	}
	t_copy = (bench_now() - t0) / reps;
	r[k++] = (struct result){ "xrt alloc+read 4 KiB", "1/us", 1e-6 / t_io, 1e-6 / t_copy,
				  0.0, "malloc+2 memcpy" };
	xrt_module_destroy(m);
	xrt_session_destroy(s);
	return k;
}
