// SPDX-License-Identifier: MIT
/*
 * host:0 behind the device interface: buffers are aligned host memory
 * from the caller's allocator, a queue is a thread pool (made at its
 * first run) that runs one program at a time.
 */
#include <pthread.h>
#include <unistd.h>

#include "../../core/mem.h"
#include "../device.h"
#include "host_device.h"

struct xdev_queue {
	const struct xrt_allocator *a;
	pthread_mutex_t lock;		/* the pool runs one program at a time */
	struct host_pool *pool;
	bool no_blas;
};

static xrt_status *host_alloc(struct xdev *d, uint64_t bytes, const struct xrt_allocator *a,
			      struct xdev_buf *out)
{
	(void)d;
	out->bo = 0;
	out->size = bytes;
	out->data = bytes <= SIZE_MAX ? xrt_mem_alloc_aligned(a, bytes ? bytes : 1, 64) : NULL;
	return out->data ? NULL : xrt_status_oom(a, "device memory");
}

static void host_free(struct xdev *d, struct xdev_buf *b, const struct xrt_allocator *a)
{
	(void)d;
	xrt_mem_free(a, b->data);
	b->data = NULL;
}

static xrt_status *host_queue_create(struct xdev *d, const struct xrt_allocator *a,
				     uint32_t flags, struct xdev_queue **out)
{
	struct xdev_queue *q = xrt_mem_calloc(a, 1, sizeof(*q));

	(void)d;
	if (!q || pthread_mutex_init(&q->lock, NULL)) {
		xrt_mem_free(a, q);
		return xrt_status_oom(a, "a queue");
	}
	q->a = a;
	q->no_blas = flags & XDEV_QUEUE_NO_BLAS;
	*out = q;
	return NULL;
}

static void host_queue_destroy(struct xdev_queue *q)
{
	if (!q)
		return;
	host_pool_destroy(q->pool);
	pthread_mutex_destroy(&q->lock);
	xrt_mem_free(q->a, q);
}

static xrt_status *host_dev_run(struct xdev_queue *q, const struct xrt_executable *exe,
				struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	struct host_run_options o = { seed, NULL, q->no_blas, w };
	uint8_t *small[16], **ptrs = small;
	xrt_status *st = NULL;
	uint32_t s;

	if (exe->num_slots > 16) {
		ptrs = xrt_mem_calloc(q->a, exe->num_slots, sizeof(*ptrs));
		if (!ptrs)
			return xrt_status_oom(q->a, "slots");
	}
	for (s = 0; s < exe->num_slots; s++)
		ptrs[s] = slots[s].data;
	pthread_mutex_lock(&q->lock);
	if (!q->pool) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		st = host_pool_create(cpus > 0 ? (uint32_t)cpus : 1, &q->pool);
	}
	o.pool = q->pool;
	if (!st)
		st = host_run_bound(exe, ptrs, &o, q->a);
	pthread_mutex_unlock(&q->lock);
	if (ptrs != small)
		xrt_mem_free(q->a, ptrs);
	return st;
}

/* The host runs a program to its end before it returns: no event. */
static xrt_status *host_dev_submit(struct xdev_queue *q, const struct xrt_executable *exe,
				   struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
				   struct xdev_event **out)
{
	*out = NULL;
	return host_dev_run(q, exe, slots, seed, w);
}

static void host_destroy(struct xdev *d)
{
	(void)d;	/* static: host:0 lives as long as the library */
}

static const struct xdev_ops host_ops = {
	.alloc = host_alloc,
	.free = host_free,
	.queue_create = host_queue_create,
	.queue_destroy = host_queue_destroy,
	.run = host_dev_run,
	.submit = host_dev_submit,
	.destroy = host_destroy,
};

xrt_status *host_dev_create(const struct xrt_allocator *a, struct xdev **out)
{
	static struct xdev host = { .ops = &host_ops };

	(void)a;
	xrt_host_device_info(&host.info);
	*out = &host;
	return NULL;
}
