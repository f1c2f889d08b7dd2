/* SPDX-License-Identifier: MIT */
/*
 * The xrt_accel kernel ABI: the ioctls of the render node.
 *
 * Buffers are GEM objects (closed with DRM_IOCTL_GEM_CLOSE, shared with
 * the PRIME ioctls); completion is signalled through DRM syncobjs.  A
 * job runs a command-stream program (xrt_accel_cs.h) kept in a buffer
 * object, over the buffers bound to the program's slots, on a queue.
 *
 * Rules every ioctl follows: padding and reserved fields must be zero,
 * unknown flag bits are rejected (EINVAL), user pointers are __u64,
 * timeouts are absolute CLOCK_MONOTONIC nanoseconds.  Userspace learns
 * what the device supports from DRM_XRT_GET_PARAM, not from versions.
 *
 * See Documentation/driver.rst for every ioctl and its errors.
 */
#ifndef _UAPI_DRM_XRT_ACCEL_H
#define _UAPI_DRM_XRT_ACCEL_H

#include "drm.h"
#include "xrt_accel_cs.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Never reordered, reused or removed: new ioctls go at the end. */
#define DRM_XRT_GET_PARAM	0x00
#define DRM_XRT_BO_CREATE	0x01
#define DRM_XRT_BO_INFO		0x02
#define DRM_XRT_BO_WAIT		0x03
#define DRM_XRT_QUEUE_CREATE	0x04
#define DRM_XRT_QUEUE_DESTROY	0x05
#define DRM_XRT_SUBMIT		0x06
#define DRM_XRT_QUEUE_STATUS	0x07
#define DRM_XRT_QUEUE_CANCEL	0x08

#define DRM_IOCTL_XRT_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_XRT_GET_PARAM, struct drm_xrt_get_param)
#define DRM_IOCTL_XRT_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_XRT_BO_CREATE, struct drm_xrt_bo_create)
#define DRM_IOCTL_XRT_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_XRT_BO_INFO, struct drm_xrt_bo_info)
#define DRM_IOCTL_XRT_BO_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_XRT_BO_WAIT, struct drm_xrt_bo_wait)
#define DRM_IOCTL_XRT_QUEUE_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_XRT_QUEUE_CREATE, struct drm_xrt_queue_create)
#define DRM_IOCTL_XRT_QUEUE_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_XRT_QUEUE_DESTROY, struct drm_xrt_queue_destroy)
#define DRM_IOCTL_XRT_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_XRT_SUBMIT, struct drm_xrt_submit)
#define DRM_IOCTL_XRT_QUEUE_STATUS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_XRT_QUEUE_STATUS, struct drm_xrt_queue_status)
#define DRM_IOCTL_XRT_QUEUE_CANCEL \
	DRM_IOW(DRM_COMMAND_BASE + DRM_XRT_QUEUE_CANCEL, struct drm_xrt_queue_cancel)

/* The interface version GET_PARAM reports; bumped when ioctls are added. */
#define DRM_XRT_ABI_VERSION	1

/**
 * enum drm_xrt_param - what DRM_XRT_GET_PARAM can report
 * @DRM_XRT_PARAM_ABI_VERSION: DRM_XRT_ABI_VERSION of the driver
 * @DRM_XRT_PARAM_CS_VERSION: newest command-stream version accepted
 * @DRM_XRT_PARAM_MEMORY_SIZE: bytes of device memory (all buffers together)
 * @DRM_XRT_PARAM_MEMORY_USED: bytes of device memory in use now: buffers,
 *                             and the program copies and workspace of jobs
 * @DRM_XRT_PARAM_MAX_BO_SIZE: largest buffer object, bytes
 * @DRM_XRT_PARAM_MAX_SLOTS: most slots a job may bind
 * @DRM_XRT_PARAM_MAX_PROGRAM_SIZE: largest program, bytes
 * @DRM_XRT_PARAM_MAX_IN_SYNCS: most in-syncobjs of one job
 * @DRM_XRT_PARAM_MAX_QUEUES: most queues one open file may hold
 * @DRM_XRT_PARAM_CAPABILITIES: DRM_XRT_CAP_* bits
 * @DRM_XRT_PARAM_JOB_TIMEOUT_MS: how long a job may run before its queue
 *                                is reset
 * @DRM_XRT_PARAM_CLIENT_MEMORY_SIZE: bytes of device memory one open file
 *                                    may hold at most (its buffers and its
 *                                    jobs' program copies and workspace)
 * @DRM_XRT_PARAM_CLIENT_MEMORY_USED: bytes this open file holds now (its
 *                                    buffers still alive count, wherever
 *                                    they were shared to)
 * @DRM_XRT_PARAM_COUNT: number of parameters; not a parameter
 */
enum drm_xrt_param {
	DRM_XRT_PARAM_ABI_VERSION = 0,
	DRM_XRT_PARAM_CS_VERSION = 1,
	DRM_XRT_PARAM_MEMORY_SIZE = 2,
	DRM_XRT_PARAM_MEMORY_USED = 3,
	DRM_XRT_PARAM_MAX_BO_SIZE = 4,
	DRM_XRT_PARAM_MAX_SLOTS = 5,
	DRM_XRT_PARAM_MAX_PROGRAM_SIZE = 6,
	DRM_XRT_PARAM_MAX_IN_SYNCS = 7,
	DRM_XRT_PARAM_MAX_QUEUES = 8,
	DRM_XRT_PARAM_CAPABILITIES = 9,
	DRM_XRT_PARAM_JOB_TIMEOUT_MS = 10,
	DRM_XRT_PARAM_CLIENT_MEMORY_SIZE = 11,
	DRM_XRT_PARAM_CLIENT_MEMORY_USED = 12,
	DRM_XRT_PARAM_COUNT
};

/* The engine uses AVX2 vectors (the results are the same bits without). */
#define DRM_XRT_CAP_AVX2		0x1ull
/* Buffers can be exported and imported as dma-bufs. */
#define DRM_XRT_CAP_PRIME		0x2ull
/* Queues report resets through DRM_XRT_QUEUE_STATUS. */
#define DRM_XRT_CAP_QUEUE_STATUS	0x4ull
/* The engine uses AVX-512 vectors too (the same bits without). */
#define DRM_XRT_CAP_AVX512		0x8ull
/* SUBMIT takes deadline_ns, and DRM_XRT_QUEUE_CANCEL is there. */
#define DRM_XRT_CAP_RUN_LIMITS		0x10ull
/*
 * Jobs stop at COLLECTIVE commands (QUEUE_STATUS's stop_pc) and SUBMIT
 * resumes them (start_pc), with the ids FILL writes (replica_id,
 * partition_id).
 */
#define DRM_XRT_CAP_COLLECTIVES		0x20ull

/**
 * struct drm_xrt_get_param - read one device parameter
 * @param: in, an enum drm_xrt_param
 * @pad: 0
 * @value: out
 */
struct drm_xrt_get_param {
	__u32 param;
	__u32 pad;
	__u64 value;
};

/**
 * struct drm_xrt_bo_create - allocate a buffer object
 * @size: in, bytes (> 0); out, the size given, rounded up to pages
 * @flags: in, none defined; 0
 * @handle: out, the GEM handle
 *
 * The buffer is zero-filled and counts against the device memory
 * (ENOSPC when it would not fit).
 */
struct drm_xrt_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
};

/**
 * struct drm_xrt_bo_info - describe a buffer object
 * @handle: in, the GEM handle
 * @pad: 0
 * @size: out, bytes
 * @mmap_offset: out, the offset to pass to mmap() on the device file
 */
struct drm_xrt_bo_info {
	__u32 handle;
	__u32 pad;
	__u64 size;
	__u64 mmap_offset;
};

/**
 * struct drm_xrt_bo_wait - wait until no job uses a buffer
 * @handle: in, the GEM handle
 * @flags: in, none defined; 0
 * @timeout_ns: in, absolute CLOCK_MONOTONIC time to give up at
 *
 * Returns 0 when idle, ETIMEDOUT when still busy at @timeout_ns (a
 * timeout in the past polls).
 */
struct drm_xrt_bo_wait {
	__u32 handle;
	__u32 flags;
	__s64 timeout_ns;
};

#define DRM_XRT_PRIORITY_NORMAL	0
#define DRM_XRT_PRIORITY_HIGH	1	/* jobs run on high-priority workers */

/**
 * struct drm_xrt_queue_create - make an execution queue
 * @priority: in, DRM_XRT_PRIORITY_*
 * @flags: in, none defined; 0
 * @queue_id: out, the queue's id within this open file (never 0)
 * @pad: 0
 *
 * Jobs of one queue run one after another in submission order; jobs of
 * different queues run concurrently.
 */
struct drm_xrt_queue_create {
	__u32 priority;
	__u32 flags;
	__u32 queue_id;
	__u32 pad;
};

/**
 * struct drm_xrt_queue_destroy - destroy a queue
 * @queue_id: in
 * @pad: 0
 *
 * Jobs still queued are cancelled; a running one is stopped at its next
 * chunk.  Their out-syncobjs signal with an error.
 */
struct drm_xrt_queue_destroy {
	__u32 queue_id;
	__u32 pad;
};

/**
 * struct drm_xrt_submit - run a program on a queue
 * @queue_id: in, the queue
 * @flags: in, none defined; 0
 * @program_handle: in, the buffer object holding the program
 * @num_slots: in, entries of @slots_ptr; the program's num_slots
 * @program_offset: in, byte offset of the program (8-byte aligned)
 * @program_size: in, bytes of the program (its header's size)
 * @slots_ptr: in, user pointer to __u32 GEM handles, one per slot; each
 *             buffer at least as large as its slot
 * @in_syncs_ptr: in, user pointer to __u32 syncobj handles the job waits
 *                for
 * @num_in_syncs: in, entries of @in_syncs_ptr
 * @out_sync: in, a syncobj to receive the job's fence, or 0
 * @rng_seed: in, seed of the program's random numbers
 * @deadline_ns: in, CLOCK_MONOTONIC nanoseconds past which the job stops
 *               with ETIME, checked between chunks (its queue goes on);
 *               0 for none (DRM_XRT_CAP_RUN_LIMITS; an older caller's
 *               shorter struct reads as 0)
 * @loops_ptr: in, user pointer to __u32 command indices, ascending: the
 *             conditional jumps that leave the program's while loops
 *             (not taken: one more iteration; taken: the loop's end)
 * @num_loops: in, entries of @loops_ptr, at most DRM_XRT_MAX_LOOPS
 * @pad: 0
 * @max_iterations: in, 0, or the most iterations any execution of any of
 *                  those loops may run: one more stops the job with ELOOP
 *                  and QUEUE_STATUS reports the loop (DRM_XRT_CAP_RUN_LIMITS);
 *                  counted within this job
 * @start_pc: in, the command to start at: 0, or the one after a COLLECTIVE
 *            of the program, to resume a job that stopped there once
 *            userspace has performed the collective (EINVAL otherwise)
 *            (DRM_XRT_CAP_COLLECTIVES, as the next two)
 * @replica_id: in, what FILL's XRT_CS_FILL_REPLICA_ID writes
 * @partition_id: in, what FILL's XRT_CS_FILL_PARTITION_ID writes
 * @pad1: 0
 *
 * The program is copied and validated before the ioctl returns (EINVAL
 * when malformed); later writes to its buffer do not affect the job.
 * A job ends at the first COLLECTIVE it reaches, without running it, as
 * a job that completed; QUEUE_STATUS's stop_pc tells where.  Its
 * buffers hold what the commands before it wrote: userspace performs
 * the collective on them and submits the program again from the command
 * after it.  The fields after @max_iterations are 0 when an older
 * caller's struct is shorter.
 * The copy and the engine's workspace count as device memory until the
 * job is freed (ENOSPC when they do not fit).
 * The job holds references on every buffer until it is freed.  A job
 * that fails or is stopped signals @out_sync with an error.
 */
struct drm_xrt_submit {
	__u32 queue_id;
	__u32 flags;
	__u32 program_handle;
	__u32 num_slots;
	__u64 program_offset;
	__u64 program_size;
	__u64 slots_ptr;
	__u64 in_syncs_ptr;
	__u32 num_in_syncs;
	__u32 out_sync;
	__u64 rng_seed;
	__u64 deadline_ns;
	__u64 loops_ptr;
	__u32 num_loops;
	__u32 pad;
	__u64 max_iterations;
	__u32 start_pc;
	__u32 replica_id;
	__u32 partition_id;
	__u32 pad1;
};

#define DRM_XRT_MAX_LOOPS	4096

/**
 * struct drm_xrt_queue_cancel - stop the jobs of a queue, not the queue
 * @queue_id: in, the queue
 * @pad: 0
 *
 * Every job submitted to the queue before this call and not yet done
 * stops with ECANCELED: a waiting one without running, a running one at
 * its next chunk.  Jobs submitted later run as usual.
 * (DRM_XRT_CAP_RUN_LIMITS)
 */
struct drm_xrt_queue_cancel {
	__u32 queue_id;
	__u32 pad;
};

/**
 * struct drm_xrt_queue_status - how a queue stands
 * @queue_id: in
 * @flags: out, DRM_XRT_QUEUE_*
 * @resets: out, jobs of this queue stopped for running too long
 * @last_error: out, the negative errno of the last failed job, or 0
 * @submitted: out, jobs submitted to this queue
 * @completed: out, jobs that ran to the end without error
 * @last_loop: out, the @loops_ptr index of the loop that stopped the last
 *             job stopped by max_iterations, or ~0
 * @last_pc: out, the command at which the last job stopped before its end
 *           (deadline, cancel, max_iterations, the driver's timeout)
 *           stopped, or ~0 when it stopped before its first command
 * @stop_pc: out, the COLLECTIVE at which the last completed job stopped,
 *           or ~0 when it ran to its end (DRM_XRT_CAP_COLLECTIVES)
 * @pad: 0
 *
 * After a reset the queue refuses new jobs (ECANCELED): destroy it and
 * create another.
 */
struct drm_xrt_queue_status {
	__u32 queue_id;
	__u32 flags;
	__u32 resets;
	__s32 last_error;
	__u64 submitted;
	__u64 completed;
	__u32 last_loop;
	__u32 last_pc;
	__u32 stop_pc;
	__u32 pad;
};

/* The queue had a job stopped by a timeout and takes no more jobs. */
#define DRM_XRT_QUEUE_GUILTY	0x1u

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_DRM_XRT_ACCEL_H */
