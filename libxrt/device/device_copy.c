// SPDX-License-Identifier: MIT
/*
 * Host copies into and out of device buffers: a memcpy where the host
 * maps the buffer, the device's own transfer (a GPU's staging copies)
 * where it does not.
 */
#include <string.h>

#include "device/device.h"

xrt_status *xdev_write(struct xdev *d, struct xdev_buf *b, uint64_t off, const void *src,
		       uint64_t n, const struct xrt_allocator *a)
{
	if (!n)
		return NULL;
	if (b->data) {
		memcpy(b->data + off, src, n);
		return NULL;
	}
	return d->ops->write(d, b, off, src, n, a);
}

xrt_status *xdev_read(struct xdev *d, const struct xdev_buf *b, uint64_t off, void *dst,
		      uint64_t n, const struct xrt_allocator *a)
{
	if (!n)
		return NULL;
	if (b->data) {
		memcpy(dst, b->data + off, n);
		return NULL;
	}
	return d->ops->read(d, b, off, dst, n, a);
}
