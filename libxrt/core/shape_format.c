// SPDX-License-Identifier: MIT
/*
 * Printing shapes in HLO syntax: "f32[2,3]{1,0}", "(f32[], s32[2]{0})".
 */
#include <xrt/shape.h>

#include "core/fmtbuf.h"
#include "core/shape_format.h"

static bool default_layout(const struct xrt_shape *shape)
{
	uint32_t i;

	for (i = 0; i < shape->rank; i++) {
		if (shape->minor_to_major[i] != shape->rank - 1 - i)
			return false;
	}
	return true;
}

void xrt_shape_print(struct fmtbuf *f, const struct xrt_shape *shape,
		     bool all_layouts)
{
	uint32_t i;

	if (xrt_shape_is_tuple(shape)) {
		fmtbuf_puts(f, "(");
		for (i = 0; i < shape->tuple_count; i++) {
			if (i)
				fmtbuf_puts(f, ", ");
			xrt_shape_print(f, &shape->tuple[i], all_layouts);
		}
		fmtbuf_puts(f, ")");
		return;
	}
	fmtbuf_printf(f, "%s[", xrt_dtype_name(shape->dtype));
	for (i = 0; i < shape->rank; i++)
		fmtbuf_printf(f, "%s%lld", i ? "," : "",
			      (long long)shape->dims[i]);
	fmtbuf_puts(f, "]");
	if (!shape->rank || (!all_layouts && default_layout(shape)))
		return;
	fmtbuf_puts(f, "{");
	for (i = 0; i < shape->rank; i++)
		fmtbuf_printf(f, "%s%u", i ? "," : "",
			      (unsigned int)shape->minor_to_major[i]);
	fmtbuf_puts(f, "}");
}

size_t xrt_shape_format(const struct xrt_shape *shape, char *buf,
			size_t size)
{
	struct fmtbuf f;

	fmtbuf_init(&f, buf, size);
	xrt_shape_print(&f, shape, true);
	return f.len;
}
