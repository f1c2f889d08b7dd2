/* SPDX-License-Identifier: MIT */
#ifndef XRT_CORE_SHAPE_FORMAT_H
#define XRT_CORE_SHAPE_FORMAT_H

#include <stdbool.h>

#include <xrt/shape.h>

#include "core/fmtbuf.h"

/*
 * Appends @shape in HLO syntax to @f; with @all_layouts false, default
 * (row-major) layouts are left out.
 */
void xrt_shape_print(struct fmtbuf *f, const struct xrt_shape *shape,
		     bool all_layouts);

#endif /* XRT_CORE_SHAPE_FORMAT_H */
