// SPDX-License-Identifier: MIT
/*
 * A module of several devices on the devices --devices names, one per
 * device in order (replica x partitions + partition), through the
 * public API: a session on each, the module compiled in each, every
 * device's arguments allocated in its session, one replicated
 * execution, the results read back.  Under mpirun each process does so
 * for its own devices (--devices, or one --device), and the execution
 * spans the processes.
 */
#include <stdlib.h>
#include <string.h>

#include <xrt/xrt.h>

#include "xrt_run.h"

/* The names of o->devices, split in place into @names (room for @max); how many. */
static uint32_t split_names(char *list, char **names, uint32_t max)
{
	uint32_t n = 0;
	char *save = NULL, *name;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
		if (n++ < max)
			names[n - 1] = name;
	return n;
}

/* A session on @name, with as many host devices as the run has devices. */
static xrt_status *open_session(const char *name, uint32_t devices, xrt_session **out)
{
	const struct xrt_session_options so = { name, 0, false,
						devices <= XRT_MAX_HOST_DEVICES ? devices : 0 };

	return xrt_session_create(&so, NULL, out);
}

struct sessions {
	xrt_session **s;
	xrt_handle *compiled, *args, *results;
};

static xrt_status *prepare(const struct xrt_module *m, char **names, uint32_t devices,
			   xrt_literal *const *args, uint32_t n, struct sessions *r)
{
	xrt_status *st = NULL;
	uint32_t d, k;

	for (d = 0; d < devices && !st; d++) {
		st = open_session(names[d], devices, &r->s[d]);
		if (!st)
			st = xrt_compile_module(r->s[d], m, &r->compiled[d]);
		for (k = 0; k < n && !st; k++)
			st = xrt_allocate(r->s[d], args[(size_t)d * n + k],
					  &r->args[(size_t)d * n + k]);
		if (st)
			st = xrt_status_annotate(st, "device %u (%s)", d, names[d]);
	}
	return st;
}

uint32_t run_count_devices(const struct run_options *o)
{
	const char *p = o->devices;
	uint32_t n = 1;

	for (; p && *p; p++)
		n += *p == ',';
	return n;
}

xrt_status *run_on_devices(const struct run_options *o, const struct xrt_module *m,
			   xrt_literal *const *args, uint32_t n, xrt_literal **out,
			   uint32_t devices)
{
	const struct xrt_replicated_config cfg = {
		{ 0, (uint32_t)o->seed, false, false, o->timeout_ns, o->max_iterations, NULL },
		NULL
	};
	char *list = strdup(o->devices ? o->devices : o->device), **names = calloc(devices + 1, sizeof(*names));
	struct sessions r = { calloc(devices, sizeof(*r.s)), calloc(devices, sizeof(xrt_handle)),
			      calloc((size_t)devices * n + 1, sizeof(xrt_handle)),
			      calloc(devices, sizeof(xrt_handle)) };
	xrt_status *st = NULL;
	uint32_t d, given;

	if (!list || !names || !r.s || !r.compiled || !r.args || !r.results)
		st = xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	given = st ? 0 : split_names(list, names, devices);
	if (!st && given != devices)
		st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "--devices=%s names %u devices; "
				    "the module runs on %u (replica_count x num_partitions)",
				    o->devices, given, devices);
	if (!st)
		st = prepare(m, names, devices, args, n, &r);
	if (!st)
		st = xrt_execute_replicated(r.s, devices, r.compiled, r.args, n, &cfg, r.results);
	for (d = 0; d < devices && !st; d++)
		st = xrt_read_literal(r.s[d], r.results[d], true, &out[d]);
	for (d = 0; st && out && d < devices; d++) {
		xrt_literal_destroy(out[d]);
		out[d] = NULL;
	}
	for (d = 0; r.s && d < devices; d++)
		xrt_session_destroy(r.s[d]);
	free(r.s);
	free(r.compiled);
	free(r.args);
	free(r.results);
	free(names);
	free(list);
	return st;
}
