/* SPDX-License-Identifier: MIT */
/*
 * The device registry: every driver libxrt was built with, in one table
 * (registry.c), and the devices opened by name through it.
 */
#ifndef XRT_REGISTRY_REGISTRY_H
#define XRT_REGISTRY_REGISTRY_H

#include "device/device.h"

/* The drivers, in listing order. */
extern const struct xdev_driver *const xdev_drivers[];
extern const size_t xdev_num_drivers;

#endif /* XRT_REGISTRY_REGISTRY_H */
