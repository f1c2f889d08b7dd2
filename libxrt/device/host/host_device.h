/* SPDX-License-Identifier: MIT */
/*
 * The host device: computations run in this process, on the CPU.
 */
#ifndef XRT_HOST_DEVICE_H
#define XRT_HOST_DEVICE_H

#include <xrt/device.h>
#include <xrt/literal.h>

#include "../../compiler/compiler.h"

/* Describes host:0 from what the operating system reports. */
void xrt_host_device_info(struct xrt_device_info *info);

/* Worker threads that split each command's items; see host_pool.c. */
struct host_pool;

/* A pool of @threads threads in all, the caller included (1: none started). */
xrt_status *host_pool_create(uint32_t threads, struct host_pool **out);
void host_pool_destroy(struct host_pool *p);
uint32_t host_pool_threads(const struct host_pool *p);
/* Runs a whole program (jumps included) on the pool. */
xrt_status *host_pool_run(struct host_pool *p, const struct xrt_engine_ctx *x);

struct host_run_options {
	uint64_t seed;		/* of the program's rng */
	struct host_pool *pool;	/* NULL: this thread alone */
};

/*
 * Runs @exe on @num_args literals (any layouts); the result literal in
 * the layouts of the module's root.
 */
xrt_status *host_run(const struct xrt_executable *exe, const xrt_literal *const *args,
		     uint32_t num_args, const struct host_run_options *o,
		     const struct xrt_allocator *a, xrt_literal **out);

#endif /* XRT_HOST_DEVICE_H */
