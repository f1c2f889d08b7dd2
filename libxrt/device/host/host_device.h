/* SPDX-License-Identifier: MIT */
/*
 * The host device: computations run in this process, on the CPU.
 */
#ifndef XRT_HOST_DEVICE_H
#define XRT_HOST_DEVICE_H

#include <xrt/device.h>
#include <xrt/literal.h>

#include "device/device.h"
#include "device/device_program.h"

/* Describes host:0 from what the operating system reports. */
void xrt_host_device_info(struct xrt_device_info *info);
/* host:@ordinal of @count host devices: each has its share of the CPUs. */
void host_device_info(struct xrt_device_info *info, uint32_t ordinal, uint32_t count);

/* The most host devices a process may have. */
#define HOST_MAX_DEVICES 64
/*
 * How many host devices there are: XRT_HOST_DEVICES (1 to
 * HOST_MAX_DEVICES; 1 when unset), raised by host_devices_raise().
 */
uint32_t host_device_count(void);
void host_devices_raise(uint32_t n);
/* host:0, the one host device (static: never fails). */
xrt_status *host_dev_create(const struct xrt_allocator *a, struct xdev **out);

/* Worker threads that split each command's items; see host_pool.c. */
struct host_pool;

/* A pool of @threads threads in all, the caller included (1: none started). */
xrt_status *host_pool_create(uint32_t threads, struct host_pool **out);
void host_pool_destroy(struct host_pool *p);
uint32_t host_pool_threads(const struct host_pool *p);
struct xdev_watcher;

/*
 * Runs @exe's program (as @x: jumps included, custom calls made on this
 * thread) on the pool (NULL: this thread);
 * DOT commands by the host's own AVX-512 kernel or OpenBLAS when
 * @use_blas and they can.  @hw, when given, is asked after every
 * command whether to stop.  Collectives meet @w->peer's communicator.
 */
xrt_status *host_pool_run(struct host_pool *p, const struct xrt_executable *exe,
			  const struct xrt_engine_ctx *x, bool use_blas, struct xdev_watcher *hw,
			  const struct xdev_watch *w);
/* CALL command @c of @exe's program (running as @x): its custom call's handler, here. */
xrt_status *host_call(const struct xrt_executable *exe, const struct xrt_engine_ctx *x,
		      const struct xrt_cs_call *c);
/*
 * The pool's arena, at least @size bytes, kept from run to run so big
 * programs do not fault their scratch in every time (NULL: no memory).
 * Like the rest of the pool, for one run at a time.
 */
void *host_pool_arena(struct host_pool *p, uint64_t size);
/*
 * The engine's shared workspace of a run on @p, kept from run to run as
 * the arena is (a sort of millions shares a few hundred MiB: faulting
 * them in again each run cost a quarter of its time); NULL when out of
 * memory.
 */
void *host_pool_shared(struct host_pool *p, uint64_t size);
/* Calls @fn on chunks of [0, @items) over the pool's threads (NULL: inline). */
void host_pool_for(struct host_pool *p, uint64_t items,
		   void (*fn)(void *ctx, uint64_t first, uint64_t count, void *ws), void *ctx);
/* The f32 DOT at @pc with few rows by the host's AVX-512 kernel, if it can; else false. */
bool host_gemm_dot(struct host_pool *p, const struct xrt_engine_ctx *x, uint32_t pc);
/* The DOT at @pc through OpenBLAS, if it can; else false. */
bool host_blas_dot(struct host_pool *p, const struct xrt_engine_ctx *x, uint32_t pc);

struct xdev;
struct xdev_buf;
struct xdev_event;
struct xdev_hold;
struct xdev_queue;
struct xdev_watch;

/* host:0's queues (host_queue.c), as struct xdev_ops has them. */
xrt_status *host_queue_create(struct xdev *d, const struct xrt_allocator *a, uint32_t flags,
			      struct xdev_queue **out);
void host_queue_destroy(struct xdev_queue *q);
xrt_status *host_queue_run(struct xdev_queue *q, const struct xrt_executable *exe,
			   struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w);
xrt_status *host_queue_submit(struct xdev_queue *q, const struct xrt_executable *exe,
			      struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			      struct xdev_hold *hold, struct xdev_event **out);
xrt_status *host_event_wait(struct xdev_event *e, int64_t timeout_ns,
			    const struct xrt_allocator *a, bool *running);
void host_event_free(struct xdev_event *e);
/* Every job of the host device (host:0 and staged:0) has ended. */
void host_wait_idle(struct xdev *d, const struct xdev_buf *b);

struct host_run_options {
	uint64_t seed;		/* of the program's rng */
	struct host_pool *pool;	/* NULL: this thread alone */
	bool no_blas;		/* the engine's DOT even where OpenBLAS would do */
	const struct xdev_watch *watch;	/* NULL: nothing stops the run early */
};

/*
 * Runs @exe with the buffers of its PARAM and RESULT slots already in
 * @slots (exe->num_slots of them, laid out as compiled); the arena and
 * the constants are bound here.
 */
xrt_status *host_run_bound(const struct xrt_executable *exe, uint8_t **slots,
			   const struct host_run_options *o, const struct xrt_allocator *a);

/*
 * Sets xrt_engine_use_avx2 and _avx512 from the CPU; host_run() does it
 * once by itself.
 */
void host_detect_cpu(void);

/*
 * Runs @exe on @num_args literals (any layouts); the result literal in
 * the layouts of the module's root.
 */
xrt_status *host_run(const struct xrt_executable *exe, const xrt_literal *const *args,
		     uint32_t num_args, const struct host_run_options *o,
		     const struct xrt_allocator *a, xrt_literal **out);

#endif /* XRT_HOST_DEVICE_H */
