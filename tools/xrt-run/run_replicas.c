// SPDX-License-Identifier: MIT
/*
 * A module of several replicas or partitions: every device takes the
 * --input values, or random ones from the seed plus its device id
 * (replica x partitions + partition); each device's result is printed
 * "replica R: result ..." ("replica R partition P: ..."), in device
 * order, or written to F.rR.npy (F.rR.pP.npy).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xrt/evaluate.h>
#include <xrt/ir.h>

#include "xrt_run.h"

/* The devices' names: "replica R" or "replica R partition P". */
static void device_name(const xrt_module *m, uint32_t d, char *buf, size_t size)
{
	uint32_t parts = xrt_module_num_partitions(m);

	if (parts > 1)
		snprintf(buf, size, "replica %u partition %u", d / parts, d % parts);
	else
		snprintf(buf, size, "replica %u", d);
}

/* F.npy as F.rR.npy (F.rR.pP.npy): the .npy dropped, the device's part added. */
static void output_name(const char *path, const xrt_module *m, uint32_t d, char *buf,
			size_t size)
{
	uint32_t parts = xrt_module_num_partitions(m);
	size_t len = strlen(path);

	if (len > 4 && !strcmp(path + len - 4, ".npy"))
		len -= 4;
	if (parts > 1)
		snprintf(buf, size, "%.*s.r%u.p%u.npy", (int)len, path, d / parts, d % parts);
	else
		snprintf(buf, size, "%.*s.r%u.npy", (int)len, path, d);
}

static xrt_status *show(const struct run_options *o, const xrt_module *m, xrt_literal **args,
			xrt_literal **out, uint32_t devices)
{
	uint32_t n = xrt_module_num_params(m), d, i;
	char name[64], label[96], file[4096];
	xrt_status *st = NULL;

	for (d = 0; d < devices && !st; d++) {
		device_name(m, d, name, sizeof(name));
		for (i = 0; o->show_inputs && i < n; i++) {
			snprintf(label, sizeof(label), "%s: parameter", name);
			run_print_literal(label, args[d * n + i]);
		}
		if (!o->output) {
			snprintf(label, sizeof(label), "%s: result", name);
			run_print_literal(label, out[d]);
			continue;
		}
		output_name(o->output, m, d, file, sizeof(file));
		st = run_npy_write(file, out[d]);
		if (!st)
			printf("%s: result saved to %s\n", name, file);
	}
	return st;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The reference evaluator, all devices together; --repeat times more runs. */
static xrt_status *evaluate(const struct run_options *o, const xrt_module *m,
			    xrt_literal **args, xrt_literal **out, uint32_t devices)
{
	struct xrt_eval_options eo = { o->seed, o->max_iterations, o->timeout_ns };
	const xrt_literal *const *in = (const xrt_literal *const *)args;
	uint32_t n = xrt_module_num_params(m), d;
	double *t = NULL;
	xrt_status *st = xrt_ir_evaluate_replicated(m, in, n, &eo, NULL, out);
	uint64_t k;

	if (st || !o->repeat)
		return st;
	t = calloc(o->repeat, sizeof(*t));
	if (!t)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	for (k = 0; k < o->repeat && !st; k++) {
		xrt_literal **again = calloc(devices, sizeof(*again));
		double t0 = seconds();

		st = again ? xrt_ir_evaluate_replicated(m, in, n, &eo, NULL, again) :
			     xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
		t[k] = seconds() - t0;
		for (d = 0; again && d < devices; d++)
			xrt_literal_destroy(again[d]);
		free(again);
	}
	if (!st)
		run_print_times(t, o->repeat);
	free(t);
	return st;
}

int run_replicas(const struct run_options *o, const xrt_module *m)
{
	uint32_t devices = xrt_module_num_replicas(m) * xrt_module_num_partitions(m);
	uint32_t n = xrt_module_num_params(m), d, i;
	xrt_literal **args = calloc((size_t)devices * n + 1, sizeof(*args));
	xrt_literal **out = calloc(devices, sizeof(*out));
	xrt_status *st = NULL;
	int rc;

	if (!args || !out)
		st = xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	for (d = 0; d < devices && !st; d++)
		st = run_make_args(o, m, o->seed + d, args + (size_t)d * n);
	if (!st && strcmp(o->device, "reference"))
		st = xrt_status_new(NULL, XRT_UNIMPLEMENTED,
				    "module '%s' runs on %u devices (replica_count=%u, "
				    "num_partitions=%u): only --device=reference runs them for now",
				    xrt_module_name(m), devices, xrt_module_num_replicas(m),
				    xrt_module_num_partitions(m));
	if (!st)
		st = evaluate(o, m, args, out, devices);
	if (!st)
		st = show(o, m, args, out, devices);
	rc = st ? run_fail(st, o->path) : 0;
	for (d = 0; out && d < devices; d++)
		xrt_literal_destroy(out[d]);
	for (i = 0; args && i < devices * n; i++)
		xrt_literal_destroy(args[i]);
	free(args);
	free(out);
	return rc;
}
