// SPDX-License-Identifier: MIT
/*
 * host:0 behind the device interface: buffers are aligned host memory
 * from the caller's allocator; its queues are in host_queue.c.
 */

#include "core/mem.h"
#include "device/device.h"
#include "host_device.h"

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

static void host_destroy(struct xdev *d)
{
	(void)d;	/* static: host:0 lives as long as the library */
}

static const struct xdev_ops host_ops = {
	.alloc = host_alloc,
	.free = host_free,
	.wait_idle = host_wait_idle,
	.queue_create = host_queue_create,
	.queue_destroy = host_queue_destroy,
	.run = host_queue_run,
	.submit = host_queue_submit,
	.event_wait = host_event_wait,
	.event_free = host_event_free,
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

static xrt_status *host_create(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out)
{
	if (ordinal)
		return xrt_status_new(a, XRT_NOT_FOUND, "no such device");
	return host_dev_create(a, out);
}

static void host_list(struct xrt_device_info *v, size_t max, size_t *n)
{
	if (*n < max)
		xrt_host_device_info(&v[(*n)++]);
}

const struct xdev_driver xdev_host_driver = {
	.prefix = "host",
	.kind = XRT_DEVICE_HOST,
	.list = host_list,
	.create = host_create,
};
