// SPDX-License-Identifier: MIT
/*
 * Sessions: a device chosen by name (or XRT_DEVICE, or host:0), a
 * handle table, a memory count.  Only the host device exists in this
 * step; other names are NOT_FOUND with what is there.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/mem.h"
#include "../device/host/host_device.h"
#include "xrt_internal.h"

/* "host" or "host:0": the host device, named "host:0". */
static xrt_status *pick_device(const struct xrt_allocator *a, const char *name, char *out)
{
	if (!name || !*name)
		name = getenv("XRT_DEVICE");
	if (!name || !*name)
		name = "host:0";
	if (!strcmp(name, "0"))		/* by ordinal in the device list */
		name = "host:0";
	if (strcmp(name, "host") && strcmp(name, "host:0"))
		return xrt_status_new(a, XRT_NOT_FOUND,
				      "no device '%.64s' (devices here: host:0)", name);
	strcpy(out, "host:0");
	return NULL;
}

xrt_status *xrt_session_create(const struct xrt_session_options *o,
			       const struct xrt_allocator *a, xrt_session **out)
{
	xrt_session *s;
	xrt_status *st;
	char dev[32];

	if (!out)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "session: out is NULL");
	*out = NULL;
	st = pick_device(a, o ? o->device : NULL, dev);
	if (st)
		return st;
	s = xrt_mem_calloc(a, 1, sizeof(*s));
	if (!s)
		return xrt_status_oom(a, "a session");
	if (pthread_mutex_init(&s->lock, NULL)) {
		xrt_mem_free(a, s);
		return xrt_status_oom(a, "a session's lock");
	}
	if (pthread_mutex_init(&s->run_lock, NULL)) {
		pthread_mutex_destroy(&s->lock);
		xrt_mem_free(a, s);
		return xrt_status_oom(a, "a session's lock");
	}
	s->a = a;
	memcpy(s->device, dev, sizeof(dev));
	s->next = 1;
	s->memory_limit = o ? o->memory_limit : 0;
	atomic_init(&s->memory_in_use, 0);
	*out = s;
	return NULL;
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
	host_pool_destroy(s->pool);
	pthread_mutex_destroy(&s->run_lock);
	pthread_mutex_destroy(&s->lock);
	xrt_mem_free(s->a, s);
}

const char *xrt_session_device(const xrt_session *s)
{
	return s ? s->device : "";
}

uint64_t xrt_session_memory_in_use(const xrt_session *s)
{
	return s ? atomic_load(&((xrt_session *)s)->memory_in_use) : 0;
}
