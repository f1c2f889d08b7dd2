// SPDX-License-Identifier: MIT
/*
 * Device listing.
 */
#include <unistd.h>

#include "xrt_test.h"

#include <xrt/device.h>

TEST_F(xrt, host_is_listed_first)
{
	struct xrt_device_info *devs;
	size_t n;

	ASSERT_OK(xrt_devices_list(self->a, &devs, &n));
	ASSERT_GE(n, 1);
	ASSERT_STREQ("host:0", devs[0].name);
	ASSERT_EQ(XRT_DEVICE_HOST, devs[0].kind);
	ASSERT_STREQ("host", xrt_device_kind_name(devs[0].kind));
	ASSERT_EQ((uint32_t)sysconf(_SC_NPROCESSORS_ONLN), devs[0].compute_units);
	ASSERT_EQ((uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE),
		  devs[0].memory_bytes);
	xrt_free(self->a, devs);
}

TEST_F(xrt, list_rejects_null_and_survives_oom)
{
	struct xrt_device_info *devs;
	size_t n;

	ASSERT_ERR(xrt_devices_list(self->a, NULL, &n), XRT_INVALID_ARGUMENT,
		   "NULL argument");
	test_alloc_fail_at(&self->ta, 1);
	ASSERT_ERR(xrt_devices_list(self->a, &devs, &n),
		   XRT_RESOURCE_EXHAUSTED, "device list");
	ASSERT_EQ(NULL, devs);
	ASSERT_STREQ("unknown", xrt_device_kind_name((enum xrt_device_kind)9));
}

TEST_HARNESS_MAIN
