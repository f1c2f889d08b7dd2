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

#ifndef XRT_HAVE_CUDA
/* Built without the CUDA toolkit: cuda:N names no device, and says why. */
static xrt_status *cuda_absent(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out)
{
	(void)ordinal;
	(void)out;
	return xrt_status_new(a, XRT_NOT_FOUND, "libxrt was built without CUDA");
}

static const struct xdev_driver cuda_absent_driver = {
	.prefix = "cuda",
	.kind = XRT_DEVICE_CUDA,
	.create = cuda_absent,
	.says_why = true,
};
#endif

const struct xdev_driver *const xdev_drivers[] = {
	&xdev_host_driver,
	&xdev_accel_driver,
#ifdef XRT_HAVE_CUDA
	&xdev_cuda_driver,
#else
	&cuda_absent_driver,
#endif
	&xdev_staged_driver,	/* for tests: opened by name, never listed */
};

const size_t xdev_num_drivers = sizeof(xdev_drivers) / sizeof(xdev_drivers[0]);
