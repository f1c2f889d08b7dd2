// SPDX-License-Identifier: MIT
/*
 * A module of several replicas or partitions: every device takes the
 * --input values, or random ones from the seed plus its device id
 * (replica x partitions + partition); each device's result is printed
 * "replica R: result ..." ("replica R partition P: ..."), in device
 * order, or written to F.rR.npy (F.rR.pP.npy).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "collective/collective.h"
#include "compiler/compiler.h"
#include "device/device.h"
#include "device/host/host_device.h"
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

/* Devices @first on, @devices of them: their arguments and results at [0, @devices). */
static xrt_status *show(const struct run_options *o, const xrt_module *m, xrt_literal **args,
			xrt_literal **out, uint32_t first, uint32_t devices)
{
	uint32_t n = xrt_module_num_params(m), d, i;
	char name[64], label[96], file[4096];
	xrt_status *st = NULL;

	for (d = 0; d < devices && !st; d++) {
		device_name(m, first + d, name, sizeof(name));
		for (i = 0; o->show_inputs && i < n; i++) {
			snprintf(label, sizeof(label), "%s: parameter", name);
			run_print_literal(label, args[d * n + i]);
		}
		if (!o->output) {
			snprintf(label, sizeof(label), "%s: result", name);
			run_print_literal(label, out[d]);
			continue;
		}
		output_name(o->output, m, first + d, file, sizeof(file));
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

/* One host device of a replicated run: its thread's work. */
struct host_dev {
	const struct xrt_executable *exe;
	const xrt_literal *const *args;
	uint32_t n;
	struct host_run_options ro;
	struct xdev_watch w;
	struct xdev_peer peer;
	xrt_literal *out;
	xrt_status *st;
	pthread_t thread;
};

static void *host_device_run(void *arg)
{
	struct host_dev *h = arg;

	h->st = host_run(h->exe, h->args, h->n, &h->ro, NULL, &h->out);
	h->peer.comm->ops->finish(h->peer.comm, h->peer.device, h->st != NULL);
	return NULL;
}

/* The first error of a device that failed of itself, naming it. */
static xrt_status *first_error(const xrt_module *m, struct host_dev *h, uint32_t devices)
{
	uint32_t d, pick = devices;
	char name[64];
	xrt_status *st;

	for (d = 0; d < devices; d++)
		if (h[d].st && (pick == devices ||
				(xrt_status_code(h[pick].st) == XRT_CANCELLED &&
				 xrt_status_code(h[d].st) != XRT_CANCELLED)))
			pick = d;
	if (pick == devices)
		return NULL;
	device_name(m, pick, name, sizeof(name));
	st = xrt_status_new(NULL, xrt_status_code(h[pick].st), "%s: %s", name,
			    xrt_status_message(h[pick].st));
	for (d = 0; d < devices; d++)
		xrt_status_free(h[d].st);
	return st;
}

/* Host devices host:0..D-1, one thread each with its share of the cores, meeting in process. */
static xrt_status *run_hosts(const struct run_options *o, const xrt_module *m,
			     xrt_literal **args, xrt_literal **out, uint32_t devices)
{
	struct cc_options co = { o->no_fusion };
	struct xrt_executable *exe = NULL;
	struct xdev_comm *comm = NULL;
	uint32_t n = xrt_module_num_params(m), parts = xrt_module_num_partitions(m), d, share;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	struct host_dev *h = calloc(devices, sizeof(*h));
	xrt_status *st = h ? cc_compile(m, &co, NULL, &exe) :
			     xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");

	if (!st)
		st = xcoll_local_create(devices, NULL, &comm);
	share = (o->threads ? o->threads : (uint32_t)(cores > 0 ? cores : 1)) / devices;
	for (d = 0; d < devices && !st; d++) {
		h[d] = (struct host_dev){ exe, (const xrt_literal *const *)args + (size_t)d * n, n };
		h[d].peer = (struct xdev_peer){ comm, d, d / parts, d % parts };
		h[d].w = (struct xdev_watch){ NULL, o->timeout_ns ? (uint64_t)(seconds() * 1e9) +
					      o->timeout_ns : 0, o->max_iterations, &h[d].peer };
		h[d].ro = (struct host_run_options){ o->seed, NULL, false, &h[d].w };
		st = share > 1 ? host_pool_create(share, &h[d].ro.pool) : NULL;
	}
	for (d = 0; d < devices && !st; d++)
		if (pthread_create(&h[d].thread, NULL, host_device_run, &h[d]))
			st = xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "no thread for device %u",
					    d);
	while (st && d-- > 0 && h[d].thread)	/* those started: end them */
		comm->ops->finish(comm, d, true);
	for (d = 0; h && d < devices; d++)
		if (h[d].thread)
			pthread_join(h[d].thread, NULL);
	if (!st)
		st = first_error(m, h, devices);
	for (d = 0; h && d < devices; d++) {
		out[d] = st ? NULL : h[d].out;
		if (st)
			xrt_literal_destroy(h[d].out);
		host_pool_destroy(h[d].ro.pool);
	}
	xcoll_local_destroy(comm);
	xexe_destroy(exe);
	free(h);
	return st;
}

/*
 * Under mpirun, this process's devices: @first on, *@here of them, the
 * same number in every process (xrt-run runs one command line).
 */
static xrt_status *spread(const struct run_options *o, const xrt_module *m, uint32_t devices,
			  uint32_t *first, uint32_t *here)
{
	uint32_t rank, size;

	if (!xrt_distributed_rank(&rank, &size) || size < 2)
		return NULL;
	if (!strcmp(o->device, "reference") && !o->devices)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "the reference evaluator runs "
				      "in one process, not under mpirun");
	*here = run_count_devices(o);
	*first = rank * *here;
	if (*here * size != devices)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "module '%s' runs on %u devices (replica_count=%u, "
				      "num_partitions=%u); %u processes of %u device%s each "
				      "make %u", xrt_module_name(m), devices,
				      xrt_module_num_replicas(m), xrt_module_num_partitions(m),
				      size, *here, *here > 1 ? "s" : "", size * *here);
	return NULL;
}

int run_replicas(const struct run_options *o, const xrt_module *m)
{
	uint32_t devices = xrt_module_num_replicas(m) * xrt_module_num_partitions(m);
	uint32_t n = xrt_module_num_params(m), d, i, first = 0, here = devices;
	xrt_literal **args = calloc((size_t)devices * n + 1, sizeof(*args));
	xrt_literal **out = calloc(devices, sizeof(*out));
	xrt_status *st = NULL;
	bool spread_out;
	int rc;

	if (!args || !out)
		st = xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	if (!st)
		st = spread(o, m, devices, &first, &here);
	spread_out = here < devices;
	for (d = 0; d < here && !st; d++)
		st = run_make_args(o, m, o->seed + first + d, args + (size_t)d * n);
	if (!st && !spread_out && !o->devices && strcmp(o->device, "reference") &&
	    strcmp(o->device, "host"))
		st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				    "module '%s' runs on %u devices (replica_count=%u, "
				    "num_partitions=%u): name each with --devices=A,B,... (or "
				    "--device=host or reference)",
				    xrt_module_name(m), devices, xrt_module_num_replicas(m),
				    xrt_module_num_partitions(m));
	if (!st && (o->devices || spread_out))
		st = run_on_devices(o, m, args, n, out, here);
	else if (!st && !strcmp(o->device, "reference"))
		st = evaluate(o, m, args, out, devices);
	else if (!st)
		st = run_hosts(o, m, args, out, devices);
	if (!st)
		st = show(o, m, args, out, first, here);
	rc = st ? run_fail(st, o->path) : 0;
	for (d = 0; out && d < devices; d++)
		xrt_literal_destroy(out[d]);
	for (i = 0; args && i < devices * n; i++)
		xrt_literal_destroy(args[i]);
	free(args);
	free(out);
	return rc;
}
