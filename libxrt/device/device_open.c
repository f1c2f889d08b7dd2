// SPDX-License-Identifier: MIT
/*
 * Opening devices by name.  Open devices are kept in a list, one per
 * name, each with a count of its users, so that sessions and eager
 * contexts on the same device share one open file and one cache of
 * uploaded programs.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/mem.h"
#include "device.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xdev *registry;

/* "host:0, accel:0, ..." into @out. */
static void names(const struct xrt_allocator *a, char *out, size_t size)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i, at = 0;
	xrt_status *st = xrt_devices_list(a, &v, &n);

	out[0] = '\0';
	if (st) {
		xrt_status_free(st);
		return;
	}
	for (i = 0; i < n && at < size; i++) {
		int w = snprintf(out + at, size - at, "%s%s", i ? ", " : "", v[i].name);

		if (w < 0)
			break;
		at += (size_t)w;
	}
	xrt_mem_free(a, v);
}

/* NOT_FOUND for @name, listing the devices there are; @why: the driver's reason, or NULL. */
static xrt_status *not_found(const struct xrt_allocator *a, const char *name, const char *why)
{
	char have[256];

	names(a, have, sizeof(have));
	return xrt_status_new(a, XRT_NOT_FOUND, "no device '%.64s' (devices here: %s)%s%.200s",
			      name, have, why ? ": " : "", why ? why : "");
}

/* @name as "KIND:N": the kind and the ordinal, or false. */
static bool parse(const char *name, enum xrt_device_kind *kind, uint32_t *ordinal)
{
	static const struct {
		const char *prefix;
		enum xrt_device_kind kind;
	} kinds[] = {
		{ "host", XRT_DEVICE_HOST },
		{ "accel", XRT_DEVICE_ACCEL },
		{ "cuda", XRT_DEVICE_CUDA },
		{ "staged", (enum xrt_device_kind)XDEV_KIND_STAGED },
	};
	const char *p = NULL;
	unsigned long v;
	char *end;
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !p; i++) {
		size_t len = strlen(kinds[i].prefix);

		if (!strncmp(name, kinds[i].prefix, len) && (!name[len] || name[len] == ':')) {
			*kind = kinds[i].kind;
			p = name[len] ? name + len + 1 : "0";
		}
	}
	if (!p || !isdigit((unsigned char)*p))
		return false;
	v = strtoul(p, &end, 10);
	if (*end || v > 1000)
		return false;
	*ordinal = (uint32_t)v;
	return true;
}

/* An ordinal in the device list ("1") as the device's name. */
static bool by_index(const struct xrt_allocator *a, const char *name, char *out)
{
	struct xrt_device_info *v = NULL;
	unsigned long i;
	size_t n = 0;
	char *end;
	xrt_status *st;

	if (!isdigit((unsigned char)*name))
		return false;
	i = strtoul(name, &end, 10);
	if (*end)
		return false;
	st = xrt_devices_list(a, &v, &n);
	if (st) {
		xrt_status_free(st);
		return false;
	}
	if (i < n)
		memcpy(out, v[i].name, sizeof(v[i].name));
	xrt_mem_free(a, v);
	return i < n;
}

static xrt_status *create(enum xrt_device_kind kind, uint32_t ordinal,
			  const struct xrt_allocator *a, struct xdev **out)
{
	if ((int)kind == XDEV_KIND_STAGED)
		return ordinal ? xrt_status_new(a, XRT_NOT_FOUND, "no such device") :
				 staged_dev_create(a, out);
	switch (kind) {
	case XRT_DEVICE_HOST:
		if (ordinal == 0)
			return host_dev_create(a, out);
		break;
	case XRT_DEVICE_ACCEL:
		return adev_create(ordinal, a, out);
	case XRT_DEVICE_CUDA:
		return cuda_dev_create(ordinal, a, out);
	}
	return xrt_status_new(a, XRT_NOT_FOUND, "no such device");
}

xrt_status *xdev_open(const char *name, const struct xrt_allocator *a, struct xdev **out)
{
	enum xrt_device_kind kind;
	char listed[32];
	uint32_t ordinal;
	struct xdev *d;
	xrt_status *st;

	*out = NULL;
	if (!name || !*name)
		name = getenv("XRT_DEVICE");
	if (!name || !*name)
		name = "host:0";
	if (by_index(a, name, listed))
		name = listed;
	if (!parse(name, &kind, &ordinal))
		return not_found(a, name, NULL);
	pthread_mutex_lock(&registry_lock);
	for (d = registry; d; d = d->next) {
		if (d->info.kind == kind && d->info.ordinal == ordinal)
			break;
	}
	st = d ? NULL : create(kind, ordinal, a, &d);
	if (!st) {
		if (!d->refs++) {
			d->next = registry;
			registry = d;
		}
		*out = d;
	}
	pthread_mutex_unlock(&registry_lock);
	if (st && xrt_status_code(st) == XRT_NOT_FOUND) {
		/* the CUDA driver says why there is no GPU; the others only that there is none */
		xrt_status *nf = not_found(a, name, kind == XRT_DEVICE_CUDA ?
					   xrt_status_message(st) : NULL);

		xrt_status_free(st);
		return nf;
	}
	return st;
}

void xdev_get(struct xdev *d)
{
	pthread_mutex_lock(&registry_lock);
	d->refs++;
	pthread_mutex_unlock(&registry_lock);
}

void xdev_put(struct xdev *d)
{
	struct xdev **p;

	if (!d)
		return;
	pthread_mutex_lock(&registry_lock);
	if (--d->refs) {
		pthread_mutex_unlock(&registry_lock);
		return;
	}
	for (p = &registry; *p; p = &(*p)->next) {
		if (*p == d) {
			*p = d->next;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	d->ops->destroy(d);
}

#ifndef XRT_HAVE_CUDA
/* Built without the CUDA toolkit: there are no CUDA devices. */
xrt_status *cuda_dev_create(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out)
{
	(void)ordinal;
	(void)out;
	return xrt_status_new(a, XRT_NOT_FOUND, "built without CUDA");
}

void cuda_dev_list(struct xrt_device_info *v, size_t max, size_t *n)
{
	(void)v;
	(void)max;
	(void)n;
}
#endif
