/* SPDX-License-Identifier: MIT */
/*
 * Helpers for tests that talk to the xrt_accel driver directly: find
 * its render node, make buffers and queues, run a program and wait.
 * Each returns 0 or -errno and never exits, so tests can check errno
 * paths with the same calls.
 */
#ifndef XRT_SELFTEST_ACCEL_H
#define XRT_SELFTEST_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#include <drm/xrt_accel.h>

/* Opens the @index-th xrt_accel render node; -ENODEV when there is none. */
int accel_open(unsigned int index);

/* ioctl() that returns 0 or -errno, restarting on EINTR. */
int accel_ioctl(int fd, unsigned long request, void *arg);

int accel_param(int fd, uint32_t param, uint64_t *value);
int accel_bo_create(int fd, uint64_t size, uint32_t *handle);
/* Maps the whole buffer; returns NULL on failure. */
void *accel_bo_map(int fd, uint32_t handle, uint64_t *size);
int accel_bo_close(int fd, uint32_t handle);
int accel_queue_create(int fd, uint32_t priority, uint32_t *id);
int accel_queue_destroy(int fd, uint32_t id);
int accel_queue_status(int fd, uint32_t id, struct drm_xrt_queue_status *st);

int accel_syncobj_create(int fd, uint32_t *handle);
int accel_syncobj_destroy(int fd, uint32_t handle);
/* Waits for @syncobj's fence up to @timeout_ms; -ETIME when it did not signal. */
int accel_syncobj_wait(int fd, uint32_t syncobj, int64_t timeout_ms);
/* The error the fence signalled with (0 for success); -errno when unsignalled. */
int accel_syncobj_error(int fd, uint32_t syncobj);

/**
 * struct accel_job - a program and its buffers, ready to submit
 * @prog: program buffer object
 * @slots: buffer object of each slot
 * @num_slots: entries of @slots
 * @prog_size: bytes of the program
 * @in_syncs: syncobjs to wait for
 * @num_in_syncs: entries of @in_syncs
 * @out_sync: syncobj to signal, or 0
 * @queue: the queue
 * @rng_seed: seed of the program's random numbers
 */
struct accel_job {
	uint32_t prog;
	const uint32_t *slots;
	uint32_t num_slots;
	uint64_t prog_size;
	const uint32_t *in_syncs;
	uint32_t num_in_syncs;
	uint32_t out_sync;
	uint32_t queue;
	uint64_t rng_seed;
	uint64_t deadline_ns;	/* CLOCK_MONOTONIC; 0: none */
	const uint32_t *loops;	/* exit jumps, ascending */
	uint32_t num_loops;
	uint64_t max_iterations;
	uint32_t start_pc;	/* 0, or the command after a COLLECTIVE */
	uint32_t replica_id, partition_id;
};

int accel_submit(int fd, const struct accel_job *job);

/* Copies @size bytes of @data into a new buffer object. */
int accel_bo_from(int fd, const void *data, size_t size, uint32_t *handle);
/* Copies a buffer object's first @size bytes out. */
int accel_bo_read(int fd, uint32_t handle, void *data, size_t size);

/*
 * Runs @prog over copies of @slots (@sizes bytes each) on a new queue,
 * waits (up to a minute) and copies every slot back into @slots.
 * Returns 0, or -errno of the first thing that failed (the job's own
 * error included).
 */
int accel_run(int fd, const void *prog, size_t prog_size, uint64_t seed,
	      uint8_t *const *slots, const size_t *sizes, uint32_t num_slots);

#endif /* XRT_SELFTEST_ACCEL_H */
