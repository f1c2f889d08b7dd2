/* SPDX-License-Identifier: MIT */
/*
 * Copies between devices, for both front ends (the XRT API and eager).
 */
#ifndef XRT_RUNTIME_COPY_H
#define XRT_RUNTIME_COPY_H

#include "device/device.h"

/*
 * Copies @bytes of @src, a buffer of @from, into @dst, one of @to:
 * through host memory, or on @to (with its queue @q) from the buffer
 * imported where the two devices share buffers.
 */
xrt_status *xcopy_buffer(struct xdev *from, const struct xdev_buf *src, struct xdev *to,
			 struct xdev_queue *q, struct xdev_buf *dst, uint64_t bytes,
			 const struct xrt_allocator *a);

#endif /* XRT_RUNTIME_COPY_H */
