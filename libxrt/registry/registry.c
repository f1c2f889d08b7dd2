// SPDX-License-Identifier: MIT
/*
 * The table of device drivers: the one place that names them.  A driver
 * built in has its line here; meson builds the optional ones (cuda)
 * and defines what says so.
 */
#include "registry.h"

extern const struct xdev_driver xdev_host_driver;
extern const struct xdev_driver xdev_accel_driver;
extern const struct xdev_driver xdev_cuda_driver;
extern const struct xdev_driver xdev_staged_driver;

const struct xdev_driver *const xdev_drivers[] = {
	&xdev_host_driver,
	&xdev_accel_driver,
#ifdef XRT_HAVE_CUDA
	&xdev_cuda_driver,
#endif
	&xdev_staged_driver,	/* for tests: opened by name, never listed */
};

const size_t xdev_num_drivers = sizeof(xdev_drivers) / sizeof(xdev_drivers[0]);
