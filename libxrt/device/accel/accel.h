/* SPDX-License-Identifier: MIT */
/*
 * The accel device: libxrt over the xrt_accel kernel driver's render
 * node.  Buffers are GEM buffer objects mapped into this process, so the
 * host reads and writes them in place; programs are uploaded once per
 * device into buffer objects (with their constants) and submitted on a
 * queue per session; a syncobj tells when a job is done.
 */
#ifndef XRT_DEVICE_ACCEL_H
#define XRT_DEVICE_ACCEL_H

#include <pthread.h>

#include <drm/xrt_accel.h>
#include "device/device.h"

#define ACCEL_PROGRAMS	64	/* uploaded programs kept per device */

/*
 * A program and its constants on the device, keyed by the executable's
 * id.  A pinned one stays: a run between two of its jobs reads the
 * constants at a collective.
 */
struct accel_program {
	uint64_t exe_id;		/* 0: unused */
	uint64_t last_use;
	uint32_t pins;
	struct xdev_buf prog, consts;
};

struct accel_dev {
	struct xdev base;
	int fd;
	uint64_t max_bo_size;
	bool run_limits;		/* DRM_XRT_CAP_RUN_LIMITS: deadlines, cancel */
	bool collectives;		/* DRM_XRT_CAP_COLLECTIVES: jobs stop at them */
	pthread_mutex_t lock;		/* the programs, and submitting with them */
	uint64_t clock;
	struct accel_program programs[ACCEL_PROGRAMS];
};

static inline struct accel_dev *to_accel(struct xdev *d)
{
	return (struct accel_dev *)d;
}

/* ioctl() as 0 or a positive errno, restarted on EINTR and EAGAIN. */
int adev_ioctl(int fd, unsigned long request, void *arg);

/*
 * The status for errno @err of @what (an ioctl's name) on @d: the code
 * by the DRM conventions, the ioctl and the errno in the message.
 */
xrt_status *adev_errno(const struct accel_dev *d, const struct xrt_allocator *a,
			const char *what, int err);

/* A mapped buffer object of at least @bytes; its bytes are zero. */
xrt_status *adev_buf_new(struct accel_dev *d, uint64_t bytes, const struct xrt_allocator *a,
			  struct xdev_buf *out);
void adev_buf_free(struct accel_dev *d, struct xdev_buf *b);

/* The queue operations (accel_queue.c). */
xrt_status *adev_queue_create(struct xdev *d, const struct xrt_allocator *a, uint32_t flags,
			       struct xdev_queue **out);
void adev_queue_destroy(struct xdev_queue *q);
xrt_status *adev_run(struct xdev_queue *q, const struct xrt_executable *exe,
		      struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w);
xrt_status *adev_submit(struct xdev_queue *q, const struct xrt_executable *exe,
			struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			struct xdev_hold *hold, struct xdev_event **out);
xrt_status *adev_event_wait(struct xdev_event *e, int64_t timeout_ns,
			    const struct xrt_allocator *a, bool *running);
void adev_event_free(struct xdev_event *e);
/*
 * Performs COLLECTIVE @pc of @exe, at which a job stopped, on the job's
 * buffers (@data: each slot's mapping, NULL for one not to touch) as
 * device w->peer of the run (accel_collective.c).
 */
xrt_status *adev_collective(const struct xrt_executable *exe, uint8_t *const *data,
			    uint32_t pc, const struct xdev_watch *w);
/* Closes every uploaded program not pinned: under d->lock, or with the device unused. */
void adev_programs_free(struct accel_dev *d);
/* Whether the device keeps any uploaded program. */
bool adev_programs_kept(struct accel_dev *d);

#endif /* XRT_DEVICE_ACCEL_H */
