/* SPDX-License-Identifier: MIT */
/*
 * xrt-run's parts: the options, and the helpers its files share.
 */
#ifndef XRT_RUN_H
#define XRT_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/literal.h>
#include <xrt/status.h>

struct run_options {
	const char *path;		/* the HLO file */
	const char *device;		/* "host", "reference", or a device's name */
	const char *devices;		/* --devices: NULL, or names, one per device */
	uint64_t seed;			/* random parameters and rng */
	uint64_t max_iterations;	/* every execution of every while loop; 0: no limit */
	uint32_t threads;		/* host: 0 for every core */
	bool show_inputs;
	bool dump_ir;			/* print the module as read */
	bool dump_program;		/* print the command stream (host) */
	bool no_fusion;
	const char **inputs;		/* --input files, parameter by parameter */
	uint32_t num_inputs;
	const char *output;		/* --output: a .npy file for the result */
	uint64_t repeat;		/* --repeat: timed runs after the first (0: none) */
	uint64_t timeout_ns;		/* --timeout: each execution; 0: no limit */
};

/* Prints "xrt-run: WHAT: CODE: message", frees @st; returns exit status 1. */
int run_fail(xrt_status *st, const char *what);
/* Prints "LABEL VALUE" on one line. */
void run_print_literal(const char *label, const xrt_literal *lit);
/*
 * The whole of @path (a regular file or a pipe), NUL-terminated, into
 * *@text (free()) and its length into *@len; or a status naming @path
 * and why (a directory or another special file is refused).
 */
xrt_status *run_read_file(const char *path, char **text, size_t *len);
/* A parameter of shape @want from @path (text or xrt.Literal proto). */
xrt_status *run_read_input(const char *path, const struct xrt_shape *want, xrt_literal **out);
/* NumPy's .npy format (run_npy.c). */
bool run_is_npy(const char *data, size_t len);
xrt_status *run_npy_read(const char *path, const char *data, size_t len, xrt_literal **out);
/* An array to @path; a tuple's elements to PATH.0.npy, PATH.1.npy, ... */
xrt_status *run_npy_write(const char *path, const xrt_literal *lit);
/* Prints min/median/max of @n run times (seconds). */
void run_print_times(double *t, uint64_t n);

struct xrt_module;
/* Parameters from the --input files, the rest random from @seed. */
xrt_status *run_make_args(const struct run_options *o, const struct xrt_module *m,
			  uint64_t seed, xrt_literal **args);
/* Runs @m, of several replicas or partitions, on every device; the exit status. */
int run_replicas(const struct run_options *o, const struct xrt_module *m);
/* The devices this process runs: those --devices names, or one. */
uint32_t run_count_devices(const struct run_options *o);
/*
 * Runs @m on the o->devices (or o->device), one per device of this
 * process (replica x partitions + partition, in order: @devices of
 * them) through xrt_execute_replicated() (run_devices.c); @args: @n per
 * device; @out: a result per device.
 */
xrt_status *run_on_devices(const struct run_options *o, const struct xrt_module *m,
			   xrt_literal *const *args, uint32_t n, xrt_literal **out,
			   uint32_t devices);
/* Runs @m on o->device (not host or reference) with the public API (run_device.c). */
xrt_status *run_on_device(const struct run_options *o, const struct xrt_module *m,
			  xrt_literal *const *args, uint32_t n, xrt_literal **out);

/* Runs o->path on o->device and prints the result; the exit status. */
int run_module(const struct run_options *o);

#endif /* XRT_RUN_H */
