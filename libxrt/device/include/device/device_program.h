/* SPDX-License-Identifier: MIT */
/*
 * Executables' command streams as the soft engine validated them, for
 * the devices that step through programs on the host or plan them from
 * the engine's checks (host, staged, cuda).  accel leaves validation to
 * the kernel.
 */
#ifndef XRT_DEVICE_PROGRAM_H
#define XRT_DEVICE_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

#include "engine/engine.h"
#include "cstream/executable.h"

/* A program checked by the engine's validator, with the offsets and plans it made. */
struct xdev_program {
	struct xexe_form form;		/* when kept on an executable */
	const struct xrt_allocator *alloc;
	struct xrt_engine_prog prog;
	uint32_t *offsets;
	uint8_t *plans;
};

/*
 * Validates @data; errors are INVALID_ARGUMENT naming the command, its
 * opcode and the part at fault.
 */
xrt_status *xdev_program_load(struct xdev_program *p, const struct xrt_allocator *alloc,
			      const void *data, size_t size);
void xdev_program_release(struct xdev_program *p);

/*
 * @exe's program, validated the first time it is asked for and kept on
 * @exe from then on.
 */
xrt_status *xdev_program_of(const struct xrt_executable *exe,
			    const struct xdev_program **out);

/*
 * NULL when @exe makes no custom call; otherwise UNIMPLEMENTED naming its
 * first one: @device (its name, "accel:0") cannot call code of the
 * process, because @why.
 */
xrt_status *xdev_refuse_calls(const struct xrt_executable *exe, const char *device,
			      const char *why, const struct xrt_allocator *a);

#endif /* XRT_DEVICE_PROGRAM_H */
