// SPDX-License-Identifier: MIT
/*
 * What host:0 offers: the online CPUs and the physical memory.
 */
#include <string.h>
#include <unistd.h>

#include "host_device.h"

void xrt_host_device_info(struct xrt_device_info *info)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);

	memset(info, 0, sizeof(*info));
	strcpy(info->name, "host:0");
	info->kind = XRT_DEVICE_HOST;
	info->ordinal = 0;
	info->compute_units = cpus > 0 ? (uint32_t)cpus : 1;
	if (pages > 0 && page > 0)
		info->memory_bytes = (uint64_t)pages * (uint64_t)page;
}
