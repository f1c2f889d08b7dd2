/* SPDX-License-Identifier: MIT */
/*
 * Devices: what this process can run computations on.  Devices are named
 * "KIND:ORDINAL": host:0 (the in-process engine, always present),
 * accel:N (the xrt_accel kernel driver), cuda:N (NVIDIA GPUs).
 */
#ifndef XRT_DEVICE_H
#define XRT_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/api.h>
#include <xrt/alloc.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum xrt_device_kind - the driver behind a device
 * @XRT_DEVICE_HOST: the in-process engine on the CPU
 * @XRT_DEVICE_ACCEL: the xrt_accel kernel driver
 * @XRT_DEVICE_CUDA: an NVIDIA GPU
 */
enum xrt_device_kind {
	XRT_DEVICE_HOST = 1,
	XRT_DEVICE_ACCEL = 2,
	XRT_DEVICE_CUDA = 3,
};

/**
 * struct xrt_device_info - a device as listed
 * @name: "host:0", "accel:1", ...
 * @kind: the driver
 * @ordinal: the number after the colon
 * @memory_bytes: memory the device can hold data in
 * @compute_units: parallel engines (host: online CPUs)
 */
struct xrt_device_info {
	char name[32];
	enum xrt_device_kind kind;
	uint32_t ordinal;
	uint64_t memory_bytes;
	uint32_t compute_units;
};

/**
 * xrt_device_kind_name() - "host", "accel" or "cuda"
 * @kind: a kind
 *
 * Return: the name, or "unknown".
 */
XRT_API const char *xrt_device_kind_name(enum xrt_device_kind kind);

/**
 * xrt_devices_list() - list the devices present now
 * @alloc: allocator for the array (NULL: system)
 * @out: receives an array of device descriptions; free it with
 *       xrt_free(@alloc, *@out)
 * @count: receives its length, at least 1 (host:0 is always there)
 *
 * Return: NULL or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_devices_list(const struct xrt_allocator *alloc,
				     struct xrt_device_info **out,
				     size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* XRT_DEVICE_H */
