// SPDX-License-Identifier: MIT
/*
 * Printing literals: "f32[2,2] {{1, 2}, {3, 4}}", "(f32[] 1, pred[] true)".
 */
#include "core/literal.h"
#include "core/shape_format.h"

static void print_array_values(struct fmtbuf *f, const xrt_literal *lit)
{
	enum xrt_dtype t = lit->shape.dtype;
	size_t sz = xrt_dtype_size(t);
	struct elem_iter it;
	uint32_t r = lit->shape.rank, i;
	int d;

	if (!xrt_shape_element_count(&lit->shape)) {
		fmtbuf_puts(f, "{}");
		return;
	}
	elem_iter_init(&it, &lit->shape);
	for (i = 0; i < r; i++)
		fmtbuf_puts(f, "{");
	for (;;) {
		xrt_elem_print(f, t, (const char *)lit->data + it.offset * sz);
		d = elem_iter_next(&it);
		if (d < 0)
			break;
		/* Close the dimensions that wrapped, open them again. */
		for (i = (uint32_t)d + 1; i < r; i++)
			fmtbuf_puts(f, "}");
		fmtbuf_puts(f, ", ");
		for (i = (uint32_t)d + 1; i < r; i++)
			fmtbuf_puts(f, "{");
	}
	for (i = 0; i < r; i++)
		fmtbuf_puts(f, "}");
}

void xrt_literal_print_values(struct fmtbuf *f, const xrt_literal *lit)
{
	uint32_t i;

	if (!xrt_shape_is_tuple(&lit->shape)) {
		print_array_values(f, lit);
		return;
	}
	fmtbuf_puts(f, "(");
	for (i = 0; i < lit->shape.tuple_count; i++) {
		if (i)
			fmtbuf_puts(f, ", ");
		xrt_literal_print_values(f, lit->elements[i]);
	}
	fmtbuf_puts(f, ")");
}

static void print_literal(struct fmtbuf *f, const xrt_literal *lit)
{
	uint32_t i;

	if (!xrt_shape_is_tuple(&lit->shape)) {
		xrt_shape_print(f, &lit->shape, false);
		fmtbuf_puts(f, " ");
		print_array_values(f, lit);
		return;
	}
	fmtbuf_puts(f, "(");
	for (i = 0; i < lit->shape.tuple_count; i++) {
		if (i)
			fmtbuf_puts(f, ", ");
		print_literal(f, lit->elements[i]);
	}
	fmtbuf_puts(f, ")");
}

size_t xrt_literal_format(const xrt_literal *lit, char *buf, size_t size)
{
	struct fmtbuf f;

	fmtbuf_init(&f, buf, size);
	print_literal(&f, lit);
	return f.len;
}
