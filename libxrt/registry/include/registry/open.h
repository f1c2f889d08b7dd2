/* SPDX-License-Identifier: MIT */
/*
 * Opening devices by name, for the runtime and the tools.
 */
#ifndef XRT_REGISTRY_OPEN_H
#define XRT_REGISTRY_OPEN_H

#include "device/device.h"

/*
 * The device called @name ("host", "host:0", "accel:1", or an ordinal in
 * the device list, "0"), opened or shared; NULL or "": $XRT_DEVICE, else
 * host:0.  NOT_FOUND lists the devices there are.  One reference, dropped
 * with xdev_unref().
 */
xrt_status *xdev_open(const char *name, const struct xrt_allocator *a, struct xdev **out);

/*
 * Makes at least @n devices of @kind exist, where its driver makes them
 * (the host's virtual devices host:0 .. host:n-1); others ignore it.
 */
void xdev_raise_count(enum xrt_device_kind kind, uint32_t n);

#endif /* XRT_REGISTRY_OPEN_H */
