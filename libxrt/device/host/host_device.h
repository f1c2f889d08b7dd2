/* SPDX-License-Identifier: MIT */
/*
 * The host device: computations run in this process, on the CPU.
 */
#ifndef XRT_HOST_DEVICE_H
#define XRT_HOST_DEVICE_H

#include <xrt/device.h>

/* Describes host:0 from what the operating system reports. */
void xrt_host_device_info(struct xrt_device_info *info);

#endif /* XRT_HOST_DEVICE_H */
