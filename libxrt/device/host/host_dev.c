// SPDX-License-Identifier: MIT
/*
 * The host devices behind the device interface: host:0, and as many
 * more as XRT_HOST_DEVICES or a session asks for (virtual devices of one
 * process, each with its share of the CPUs, for replicated runs).
 * Buffers are aligned host memory from the caller's allocator; queues
 * are in host_queue.c.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

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
	.collectives = true,
};

static atomic_uint count;

static unsigned int env_count(void)
{
	const char *e = getenv("XRT_HOST_DEVICES");
	char *end;
	unsigned long n = e ? strtoul(e, &end, 10) : 1;

	return e && (*end || !n || n > HOST_MAX_DEVICES) ? 1 : (unsigned int)n;
}

uint32_t host_device_count(void)
{
	unsigned int n = atomic_load(&count), zero = 0;

	if (!n) {
		atomic_compare_exchange_strong(&count, &zero, env_count());
		n = atomic_load(&count);
	}
	return n;
}

void host_devices_raise(uint32_t n)
{
	unsigned int now = host_device_count();

	if (n > HOST_MAX_DEVICES)
		n = HOST_MAX_DEVICES;
	while (now < n && !atomic_compare_exchange_weak(&count, &now, n))
		;
}

/* Static: a host device lives as long as the library; opened once, its info fixed then. */
static struct xdev hosts[HOST_MAX_DEVICES];

static struct xdev *host_of(uint32_t ordinal)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct xdev *d = &hosts[ordinal];

	pthread_mutex_lock(&lock);
	if (!d->ops) {
		host_device_info(&d->info, ordinal, host_device_count());
		d->ops = &host_ops;
	}
	pthread_mutex_unlock(&lock);
	return d;
}

xrt_status *host_dev_create(const struct xrt_allocator *a, struct xdev **out)
{
	(void)a;
	*out = host_of(0);
	return NULL;
}

static xrt_status *host_create(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out)
{
	if (ordinal >= host_device_count())
		return xrt_status_new(a, XRT_NOT_FOUND, "no such device (XRT_HOST_DEVICES or a "
				      "session's host_devices makes more host devices)");
	*out = host_of(ordinal);
	return NULL;
}

static void host_list(struct xrt_device_info *v, size_t max, size_t *n)
{
	uint32_t k, c = host_device_count();

	for (k = 0; k < c && *n < max; k++)
		host_device_info(&v[(*n)++], k, c);
}

const struct xdev_driver xdev_host_driver = {
	.prefix = "host",
	.kind = XRT_DEVICE_HOST,
	.list = host_list,
	.create = host_create,
	.raise_count = host_devices_raise,
};
