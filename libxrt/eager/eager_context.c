// SPDX-License-Identifier: MIT
/*
 * Eager contexts: the devices an op may run on (host:0 with its workers,
 * and every other device listed, opened with a queue each), the kernel
 * cache.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xrt/device.h>

#include "core/mem.h"
#include "registry/open.h"
#include "eager_internal.h"

int eager_find_device(const xrt_eager_context *c, const char *name)
{
	size_t len = strlen(name);
	uint32_t i;

	/* a kind alone ("accel") is its first device */
	for (i = 0; i < c->num_devices; i++) {
		if (!strcmp(c->devices[i], name) ||
		    (!strchr(name, ':') && !strncmp(c->devices[i], name, len) &&
		     !strcmp(c->devices[i] + len, ":0")))
			return (int)i;
	}
	return -1;
}

/*
 * The devices the context can run ops on: host:0 first, then every
 * other device listed that opens (one that does not is left out).
 */
static xrt_status *list_devices(xrt_eager_context *c)
{
	struct xrt_device_info *info = NULL;
	xrt_status *st;
	size_t n = 0, i;

	st = xrt_devices_list(c->a, &info, &n);
	if (st)
		return st;
	for (i = 0; i < n && c->num_devices < EAGER_MAX_DEVICES; i++) {
		uint32_t d = c->num_devices;

		if (info[i].kind != XRT_DEVICE_HOST) {
			st = xdev_open(info[i].name, c->a, &c->dev[d]);
			if (st) {
				xrt_status_free(st);
				continue;
			}

		}
		memcpy(c->devices[c->num_devices++], info[i].name, sizeof(info[i].name));
	}
	xrt_mem_free(c->a, info);
	if (!c->num_devices || c->dev[0])
		return xrt_status_new(c->a, XRT_INTERNAL, "eager: no host device listed");
	return NULL;
}

/*
 * A device that opens by name but is not listed (staged:0): added to the
 * context's devices; its index, or -1.
 */
static int open_unlisted(xrt_eager_context *c, const char *name)
{
	uint32_t d = c->num_devices;
	xrt_status *st;

	if (d == EAGER_MAX_DEVICES)
		return -1;
	st = xdev_open(name, c->a, &c->dev[d]);
	if (st) {
		xrt_status_free(st);
		return -1;
	}
	if (eager_find_device(c, c->dev[d]->info.name) >= 0) {	/* another name for a listed one */
		xdev_unref(c->dev[d]);
		c->dev[d] = NULL;
		return -1;
	}
	memcpy(c->devices[d], c->dev[d]->info.name, sizeof(c->dev[d]->info.name));
	c->num_devices++;
	return (int)d;
}

static xrt_status *pick_default(xrt_eager_context *c, const char *name)
{
	int d;

	if (!name || !*name)
		name = getenv("XRT_DEVICE");
	if (!name || !*name)
		name = "host:0";
	d = eager_find_device(c, name);
	if (d < 0)
		d = open_unlisted(c, name);
	if (d < 0) {
		char have[EAGER_MAX_DEVICES * 34] = "";
		uint32_t i;

		for (i = 0; i < c->num_devices; i++) {
			if (i)
				strcat(have, ", ");
			strcat(have, c->devices[i]);
		}
		return xrt_status_new(c->a, XRT_NOT_FOUND, "eager: no device '%.64s' (devices: %s)",
				      name, have);
	}
	c->default_device = (uint32_t)d;
	return NULL;
}

/* host:0 and its queue, on @threads threads (0: one per CPU). */
static xrt_status *open_host(xrt_eager_context *c, uint32_t threads)
{
	xrt_status *st;

	if (threads > XDEV_QUEUE_MAX_THREADS)
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
				      "eager: %u threads: at most %u", threads,
				      XDEV_QUEUE_MAX_THREADS);
	st = xdev_open("host:0", c->a, &c->host);
	if (!st)
		st = c->host->ops->queue_create(c->host, c->a, XDEV_QUEUE_THREADS(threads),
						&c->host_queue);
	return st;
}

static xrt_status *setup(xrt_eager_context *c, const struct xrt_eager_options *o)
{
	xrt_status *st;

	if (o && o->placement != XRT_PLACEMENT_SILENT && o->placement != XRT_PLACEMENT_EXPLICIT)
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
				      "eager: unknown placement policy %d", (int)o->placement);
	c->placement = o ? o->placement : XRT_PLACEMENT_SILENT;
	st = list_devices(c);
	if (!st)
		st = pick_default(c, o ? o->device : NULL);
	if (!st)
		st = open_host(c, o ? o->threads : 0);
	if (!st)
		st = kernel_cache_create(c->a, &c->kernels);
	return st;
}

xrt_status *xrt_eager_context_create(const struct xrt_eager_options *o,
				     const struct xrt_allocator *a, xrt_eager_context **out)
{
	xrt_eager_context *c;
	xrt_status *st;

	if (!out)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "eager: out is NULL");
	*out = NULL;
	c = xrt_mem_calloc(a, 1, sizeof(*c));
	if (!c)
		return xrt_status_oom(a, "an eager context");
	c->a = a;
	atomic_flag_clear(&c->pool_blocks.lock);
	if (pthread_mutex_init(&c->fn_lock, NULL)) {
		xrt_mem_free(a, c);
		return xrt_status_oom(a, "an eager context's lock");
	}
	if (pthread_mutex_init(&c->queue_lock, NULL)) {
		pthread_mutex_destroy(&c->fn_lock);
		xrt_mem_free(a, c);
		return xrt_status_oom(a, "an eager context's lock");
	}
	st = setup(c, o);
	if (st) {
		xrt_eager_context_destroy(c);
		return st;
	}
	*out = c;
	return NULL;
}

void xrt_eager_context_destroy(xrt_eager_context *c)
{
	uint32_t i;

	if (!c)
		return;
	if (c->kernels)
		kernel_cache_destroy(c->kernels);
	eager_functions_free(c);
	eager_pool_drain(c);
	for (i = 0; i < EAGER_MAX_DEVICES; i++) {
		if (c->queue[i])
			c->dev[i]->ops->queue_destroy(c->queue[i]);
		xdev_unref(c->dev[i]);
	}
	if (c->host_queue)
		c->host->ops->queue_destroy(c->host_queue);
	xdev_unref(c->host);
	pthread_mutex_destroy(&c->queue_lock);
	pthread_mutex_destroy(&c->fn_lock);
	xrt_mem_free(c->a, c);
}

uint32_t xrt_eager_num_devices(const xrt_eager_context *c)
{
	return c ? c->num_devices : 0;
}

const char *xrt_eager_device_name(const xrt_eager_context *c, uint32_t i)
{
	return c && i < c->num_devices ? c->devices[i] : NULL;
}

void xrt_eager_clear_caches(xrt_eager_context *c)
{
	if (!c)
		return;
	kernel_cache_clear(c->kernels);
	eager_pool_drain(c);
}
