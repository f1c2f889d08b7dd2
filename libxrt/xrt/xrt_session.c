// SPDX-License-Identifier: MIT
/*
 * Sessions: a device opened by name (or XRT_DEVICE, or host:0), a
 * handle table, a memory count, and a queue on the device made at the
 * first execution.
 */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "registry/open.h"
#include "xrt_internal.h"

xrt_status *xrt_session_create(const struct xrt_session_options *o,
			       const struct xrt_allocator *a, xrt_session **out)
{
	struct xdev *dev;
	xrt_session *s;
	xrt_status *st;

	if (!out)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "session: out is NULL");
	*out = NULL;
	if (o && o->host_devices > XRT_MAX_HOST_DEVICES)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "session: %u host devices; at most "
				      "%d", o->host_devices, XRT_MAX_HOST_DEVICES);
	if (o && o->host_devices)
		xdev_raise_count(XRT_DEVICE_HOST, o->host_devices);
	st = xdev_open(o ? o->device : NULL, a, &dev);
	if (st)
		return st;
	s = xrt_mem_calloc(a, 1, sizeof(*s));
	if (!s) {
		xdev_unref(dev);
		return xrt_status_oom(a, "a session");
	}
	if (pthread_mutex_init(&s->lock, NULL)) {
		xrt_mem_free(a, s);
		xdev_unref(dev);
		return xrt_status_oom(a, "a session's lock");
	}
	if (pthread_mutex_init(&s->run_lock, NULL)) {
		pthread_mutex_destroy(&s->lock);
		xrt_mem_free(a, s);
		xdev_unref(dev);
		return xrt_status_oom(a, "a session's lock");
	}
	s->a = a;
	s->dev = dev;
	s->next = 1;
	s->memory_limit = o ? o->memory_limit : 0;
	s->queue_flags = o && o->no_blas ? XDEV_QUEUE_NO_BLAS : 0;
	atomic_init(&s->memory_in_use, 0);
	*out = s;
	return NULL;
}

xrt_status *xsession_queue(xrt_session *s, struct xdev_queue **out)
{
	struct xdev_queue *q = atomic_load_explicit(&s->queue, memory_order_acquire);
	xrt_status *st = NULL;

	if (q) {	/* every run after the first: no lock */
		*out = q;
		return NULL;
	}
	pthread_mutex_lock(&s->run_lock);
	q = atomic_load_explicit(&s->queue, memory_order_relaxed);
	if (!q) {
		st = s->dev->ops->queue_create(s->dev, s->a, s->queue_flags, &q);
		if (!st)
			atomic_store_explicit(&s->queue, q, memory_order_release);
	}
	*out = q;
	pthread_mutex_unlock(&s->run_lock);
	return st;
}

/* Releases every handle of @kind (0: all kinds). */
static void release_kind(xrt_session *s, enum hkind kind)
{
	uint64_t i;

	/* nothing here takes the session's lock: unref under it */
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->cap; i++) {
		if (s->tab[i].h > 0 && (!kind || s->tab[i].kind == kind)) {
			xhandle_unref(s, s->tab[i].kind, s->tab[i].obj);
			s->tab[i].h = -1;
			s->tab[i].obj = NULL;
			s->live--;
		}
	}
	pthread_mutex_unlock(&s->lock);
}

void xrt_release_all_allocations(xrt_session *s)
{
	if (s)
		release_kind(s, HK_ALLOC);
}

void xrt_session_destroy(xrt_session *s)
{
	if (!s)
		return;
	release_kind(s, 0);
	xrt_mem_free(s->a, s->tab);
	if (s->queue)
		s->dev->ops->queue_destroy(s->queue);
	xdev_unref(s->dev);
	pthread_mutex_destroy(&s->run_lock);
	pthread_mutex_destroy(&s->lock);
	xrt_mem_free(s->a, s);
}

const char *xrt_session_device(const xrt_session *s)
{
	return s ? s->dev->info.name : "";
}

uint64_t xrt_session_memory_in_use(const xrt_session *s)
{
	return s ? atomic_load(&((xrt_session *)s)->memory_in_use) : 0;
}
