/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A job: one validated program bound to its buffers, from SUBMIT to
 * free_job.  Shared by the submit ioctl and the scheduler callbacks.
 */
#ifndef XRT_JOB_H
#define XRT_JOB_H

#include <linux/dma-fence.h>
#include <linux/iosys-map.h>
#include <linux/workqueue.h>
#include <drm/gpu_scheduler.h>

#include "engine/engine.h"
#include "xrt_drv.h"

/**
 * struct xrt_hw_fence - the fence the engine worker signals
 * @base: the fence
 * @lock: its lock; its own, so the fence may outlive its queue
 */
struct xrt_hw_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's; nothing else */
};

/**
 * struct xrt_job - a submitted program
 * @base: the scheduler's job
 * @queue: the queue it runs on (alive while the job is)
 * @bos: the buffer bound to each slot, referenced
 * @maps: the kernel mapping of each slot's buffer
 * @vaddrs: the engine's view of @maps
 * @num_slots: entries of @bos, @maps and @vaddrs
 * @program: the private copy of the program
 * @offsets: the validator's command offsets
 * @plans: the validator's command plans, as many bytes as @program
 * @prog: the validated program
 * @workspace: the engine's workspace, thread part then shared part
 * @thread_ws: 64-byte aligned thread part of @workspace
 * @shared_ws: 64-byte aligned shared part of @workspace
 * @rng_seed: the seed SUBMIT gave
 * @fence_mem: the hardware fence, allocated at submit
 * @hw_fence: @fence_mem once initialized by run_job; referenced
 * @work: runs the program on the queue's workers
 * @stop: 0, or the negative errno to stop the job with
 * @number: its place among the queue's submitted jobs, from 0
 * @deadline_ns: CLOCK_MONOTONIC time it stops at (ETIME), or 0
 * @loops: the exit jumps of the program's loops, ascending (SUBMIT's)
 * @counts: per loop, the iterations of its current execution
 * @num_loops: entries of @loops and @counts
 * @max_iterations: one more iteration stops the job (ELOOP); 0: none
 * @charged: device memory counted for the program copy and workspace
 * @start_pc: the command it starts at (after a COLLECTIVE, resuming)
 * @replica_id: what FILL writes as the replica id
 * @partition_id: what FILL writes as the partition id
 */
struct xrt_job {
	struct drm_sched_job base;
	struct xrt_queue *queue;
	struct drm_gem_object **bos;
	struct iosys_map *maps;
	u8 **vaddrs;
	u32 num_slots;
	u8 *program;
	u32 *offsets;
	u8 *plans;
	struct xrt_engine_prog prog;
	void *workspace;
	void *thread_ws;
	void *shared_ws;
	u64 rng_seed;
	struct xrt_hw_fence *fence_mem;
	struct dma_fence *hw_fence;
	struct work_struct work;
	atomic_t stop;
	u64 number;
	u64 deadline_ns;
	u32 *loops;
	u64 *counts;
	u32 num_loops;
	u64 max_iterations;
	u64 charged;
	u32 start_pc;
	u32 replica_id;
	u32 partition_id;
};

static inline struct xrt_job *to_xrt_job(struct drm_sched_job *j)
{
	return container_of(j, struct xrt_job, base);
}

/* xrt_job.c */
void xrt_job_free(struct xrt_job *job);
void xrt_job_work(struct work_struct *work);

#endif /* XRT_JOB_H */
