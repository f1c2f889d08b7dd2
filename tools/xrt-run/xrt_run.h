/* SPDX-License-Identifier: MIT */
/*
 * xrt-run's parts: the options, and the helpers its files share.
 */
#ifndef XRT_RUN_H
#define XRT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include <xrt/literal.h>
#include <xrt/status.h>

struct run_options {
	const char *path;		/* the HLO file */
	const char *device;		/* "host" or "reference" */
	uint64_t seed;			/* random parameters and rng */
	uint64_t max_iterations;	/* while loops (reference); 0: no limit */
	uint32_t threads;		/* host: 0 for every core */
	bool show_inputs;
	bool dump_ir;			/* print the module as read */
	bool dump_program;		/* print the command stream (host) */
	bool no_fusion;
};

/* Prints "xrt-run: WHAT: CODE: message", frees @st; returns exit status 1. */
int run_fail(xrt_status *st, const char *what);
/* Prints "LABEL VALUE" on one line. */
void run_print_literal(const char *label, const xrt_literal *lit);
/* Runs o->path on o->device and prints the result; the exit status. */
int run_module(const struct run_options *o);

#endif /* XRT_RUN_H */
