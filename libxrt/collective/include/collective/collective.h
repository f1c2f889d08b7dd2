/* SPDX-License-Identifier: MIT */
/*
 * Communicators: what performs a COLLECTIVE among the devices of a
 * replicated execution (struct xdev_comm, device/device.h).  The
 * in-process one serves devices whose runs are threads of this process
 * (host devices): the arrays are read where they lie, never copied to
 * be shared.
 */
#ifndef XRT_COLLECTIVE_COLLECTIVE_H
#define XRT_COLLECTIVE_COLLECTIVE_H

#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

#include "device/device.h"

/*
 * An in-process communicator for @n devices, for one execution: every
 * device's run calls finish once it ends.  Freed by xcoll_local_destroy()
 * once no run uses it.
 */
xrt_status *xcoll_local_create(uint32_t n, const struct xrt_allocator *a, struct xdev_comm **out);
void xcoll_local_destroy(struct xdev_comm *c);

/*
 * Folds @n elements of @src into @dst with reduction @op (XRT_CS_RED_SUM
 * to OR) of element type @dtype, as the engine's REDUCE combines two
 * elements: dst[i] = op(dst[i], src[i]).
 */
void xcoll_fold(void *dst, const void *src, uint64_t n, uint32_t dtype, uint32_t op);

#endif /* XRT_COLLECTIVE_COLLECTIVE_H */
