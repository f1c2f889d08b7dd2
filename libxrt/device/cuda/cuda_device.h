/* SPDX-License-Identifier: MIT */
/*
 * The CUDA device's parts: the device (memory, transfers, the programs
 * it has compiled) and its queues (cuda_queue.c).
 */
#ifndef XRT_DEVICE_CUDA_DEVICE_H
#define XRT_DEVICE_CUDA_DEVICE_H

#include <pthread.h>

#include "device/device.h"
#include "cuda_api.h"
#include "cuda_gen.h"

struct xrt_executable;

/* A program compiled and loaded, with its constants on the device. */
struct cuda_module {
	uint64_t exe_id;
	struct cuda_plan plan;
	CUmodule mod;
	CUfunction *fn;		/* by kernel index */
	uint32_t num_fn;
	CUdeviceptr consts;
	uint64_t last_use;
	uint32_t refs;		/* runs enqueueing its kernels, under the lock */
	struct cuda_module *next;
};

struct cuda_dev {
	struct xdev base;
	const struct cuda_api *cu;
	const struct xrt_allocator *a;
	CUdevice dev;
	CUcontext ctx;
	int major, minor;
	pthread_mutex_t lock;	/* the staging buffer and the modules */
	CUstream copy;		/* host transfers */
	CUevent staged[2];	/* each staging half's last copy */
	uint8_t *staging;	/* pinned, two halves */
	struct cuda_module *modules;
	uint32_t num_modules;
	uint64_t clock;
};

static inline struct cuda_dev *to_cuda(struct xdev *d)
{
	return (struct cuda_dev *)d;
}

/* Makes the device's context current on the calling thread. */
xrt_status *cudev_enter(struct cuda_dev *d);
/* @exe's module, compiled (or found) and loaded, held until cudev_module_unref. */
xrt_status *cudev_module(struct cuda_dev *d, const struct xrt_executable *exe,
			 struct cuda_module **out);
void cudev_module_unref(struct cuda_dev *d, struct cuda_module *m);

/* Queue operations (cuda_queue.c). */
xrt_status *cuda_queue_create(struct xdev *d, const struct xrt_allocator *a, uint32_t flags,
			      struct xdev_queue **out);
void cuda_queue_destroy(struct xdev_queue *q);
xrt_status *cuda_run(struct xdev_queue *q, const struct xrt_executable *exe,
		     struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w);
xrt_status *cuda_submit(struct xdev_queue *q, const struct xrt_executable *exe,
			struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			struct xdev_hold *hold, struct xdev_event **out);
xrt_status *cuda_event_wait(struct xdev_event *e, int64_t timeout_ns,
			    const struct xrt_allocator *a, bool *running);
void cuda_event_free(struct xdev_event *e);

/* The communicator of cuda devices @devs, over NCCL (cuda_nccl.c). */
xrt_status *cuda_comm_create(struct xdev *const *devs, uint32_t n,
			     const struct xdev_spread *spread, const struct xrt_allocator *a,
			     struct xdev_comm **out);

#endif /* XRT_DEVICE_CUDA_DEVICE_H */
