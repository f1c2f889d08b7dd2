// SPDX-License-Identifier: MIT
/*
 * What a host device offers: its share of the online CPUs (all of them
 * for host:0 alone), and the physical memory, which all share.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host_device.h"

void xrt_host_device_info(struct xrt_device_info *info)
{
	host_device_info(info, 0, 1);
}

void host_device_info(struct xrt_device_info *info, uint32_t ordinal, uint32_t count)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long pages = sysconf(_SC_PHYS_PAGES);
	long page = sysconf(_SC_PAGESIZE);
	uint32_t share = (cpus > 0 ? (uint32_t)cpus : 1) / (count ? count : 1);

	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "host:%u", ordinal);
	info->kind = XRT_DEVICE_HOST;
	info->ordinal = ordinal;
	info->compute_units = share ? share : 1;
	if (pages > 0 && page > 0)
		info->memory_bytes = (uint64_t)pages * (uint64_t)page;
}
