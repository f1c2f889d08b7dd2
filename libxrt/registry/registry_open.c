// SPDX-License-Identifier: MIT
/*
 * Opening devices by name, through the driver table (registry.c).  Open
 * devices are shared (device/device_ref.c), one per name, so that
 * sessions and eager contexts on the same device share one open file
 * and one cache of uploaded programs.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "registry.h"
#include "registry/open.h"

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

/* @name as "PREFIX:N" (or "PREFIX", ordinal 0): its driver and ordinal, or NULL. */
static const struct xdev_driver *parse(const char *name, uint32_t *ordinal)
{
	const struct xdev_driver *drv = NULL;
	const char *p = NULL;
	unsigned long v;
	char *end;
	size_t i;

	for (i = 0; i < xdev_num_drivers && !p; i++) {
		size_t len = strlen(xdev_drivers[i]->prefix);

		if (!strncmp(name, xdev_drivers[i]->prefix, len) && (!name[len] || name[len] == ':')) {
			drv = xdev_drivers[i];
			p = name[len] ? name + len + 1 : "0";
		}
	}
	if (!p || !isdigit((unsigned char)*p))
		return NULL;
	v = strtoul(p, &end, 10);
	if (*end || v > 1000)
		return NULL;
	*ordinal = (uint32_t)v;
	return drv;
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

void xdev_raise_count(enum xrt_device_kind kind, uint32_t n)
{
	size_t i;

	for (i = 0; i < xdev_num_drivers; i++)
		if (xdev_drivers[i]->kind == kind && xdev_drivers[i]->raise_count)
			xdev_drivers[i]->raise_count(n);
}

xrt_status *xdev_open(const char *name, const struct xrt_allocator *a, struct xdev **out)
{
	const struct xdev_driver *drv;
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
	drv = parse(name, &ordinal);
	if (!drv)
		return not_found(a, name, NULL);
	xdev_shared_lock();
	d = xdev_shared_find(drv->kind, ordinal);
	st = d ? NULL : drv->create(ordinal, a, &d);
	if (!st) {
		xdev_shared_add(d);
		*out = d;
	}
	xdev_shared_unlock();
	if (st && xrt_status_code(st) == XRT_NOT_FOUND) {
		xrt_status *nf = not_found(a, name, drv->says_why ? xrt_status_message(st) : NULL);

		xrt_status_free(st);
		return nf;
	}
	return st;
}

