// SPDX-License-Identifier: MIT
/*
 * Listing devices: asks each driver of the table for what it finds, in
 * the table's order (host:0, then the accel devices in render-node
 * order, then the GPUs).
 */
#include <string.h>

#include <xrt/device.h>

#include "core/mem.h"
#include "registry.h"

#define MAX_LISTED	32

const char *xrt_device_kind_name(enum xrt_device_kind kind)
{
	switch (kind) {
	case XRT_DEVICE_HOST:
		return "host";
	case XRT_DEVICE_ACCEL:
		return "accel";
	case XRT_DEVICE_CUDA:
		return "cuda";
	}
	return "unknown";
}

xrt_status *xrt_devices_list(const struct xrt_allocator *alloc,
			     struct xrt_device_info **out, size_t *count)
{
	struct xrt_device_info *v;
	size_t i;

	if (!out || !count)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "devices list: NULL argument");
	*out = NULL;
	*count = 0;
	v = xrt_mem_calloc(alloc, MAX_LISTED, sizeof(*v));
	if (!v)
		return xrt_status_oom(alloc, "the device list");
	for (i = 0; i < xdev_num_drivers; i++) {
		if (xdev_drivers[i]->list)
			xdev_drivers[i]->list(v, MAX_LISTED, count);
	}
	*out = v;
	return NULL;
}
