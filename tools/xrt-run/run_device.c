// SPDX-License-Identifier: MIT
/*
 * Running a module on a named device (accel:0, ...) through the public
 * XRT API: a session, the module compiled, the arguments allocated,
 * executed (again for --repeat, timed), the result read back.
 */
#include <stdlib.h>
#include <time.h>

#include <xrt/xrt.h>

#include "xrt_run.h"

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --repeat: more executions of @c, timed; their results released. */
static xrt_status *repeat(const struct run_options *o, xrt_session *s, xrt_handle c,
			  const xrt_handle *h, uint32_t n)
{
	const struct xrt_execution_config cfg = { 0, (uint32_t)o->seed, false, false, o->timeout_ns,
						   o->max_iterations, NULL };
	double *t = calloc(o->repeat, sizeof(*t));
	xrt_status *st = NULL;
	xrt_handle r;
	uint64_t i;

	if (!t)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	for (i = 0; !st && i < o->repeat; i++) {
		double t0 = seconds();

		st = xrt_execute(s, c, h, n, &cfg, &r);
		t[i] = seconds() - t0;
		if (!st)
			st = xrt_release_allocations(s, &r, 1);
	}
	if (!st)
		run_print_times(t, o->repeat);
	free(t);
	return st;
}

xrt_status *run_on_device(const struct run_options *o, const xrt_module *m,
			  xrt_literal *const *args, uint32_t n, xrt_literal **out)
{
	const struct xrt_session_options so = { o->device, 0, false };
	const struct xrt_execution_config cfg = { 0, (uint32_t)o->seed, false, false, o->timeout_ns,
						   o->max_iterations, NULL };
	xrt_handle c = 0, r = 0, *h = calloc(n + 1, sizeof(*h));
	xrt_session *s = NULL;
	xrt_status *st;
	uint32_t i;

	if (!h)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	st = xrt_session_create(&so, NULL, &s);
	if (!st)
		st = xrt_compile_module(s, m, &c);
	for (i = 0; !st && i < n; i++)
		st = xrt_allocate(s, args[i], &h[i]);
	if (!st)
		st = xrt_execute(s, c, h, n, &cfg, &r);
	if (!st)
		st = xrt_read_literal(s, r, true, out);
	if (!st && o->repeat)
		st = repeat(o, s, c, h, n);
	xrt_session_destroy(s);
	free(h);
	return st;
}
