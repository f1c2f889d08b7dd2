// SPDX-License-Identifier: MIT
/*
 * Listing devices: asks each device driver for what it finds, host:0
 * first, then the accel devices in render-node order, then the GPUs.
 */
#include <string.h>

#include <xrt/device.h>

#include "../core/mem.h"
#include "device.h"
#include "host/host_device.h"

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

	if (!out || !count)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "devices list: NULL argument");
	*out = NULL;
	*count = 0;
	v = xrt_mem_calloc(alloc, MAX_LISTED, sizeof(*v));
	if (!v)
		return xrt_status_oom(alloc, "the device list");
	xrt_host_device_info(&v[0]);
	*count = 1;
	adev_list(v, MAX_LISTED, count);
	cuda_dev_list(v, MAX_LISTED, count);
	*out = v;
	return NULL;
}
