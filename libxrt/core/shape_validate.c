// SPDX-License-Identifier: MIT
/*
 * Validation of shape structs that did not come from the constructors:
 * built by hand, or read from a file or the wire.
 */
#include <stdio.h>

#include <xrt/shape.h>

#include "core/shape.h"

/* Records the tuple index path for messages, e.g. "{1,0}". */
struct path {
	int64_t index[XRT_MAX_TUPLE_DEPTH];
	uint32_t depth;
};

static void format_path(const struct path *p, char *buf, size_t size)
{
	size_t n = 0;
	uint32_t i;

	n += (size_t)snprintf(buf, size, "{");
	for (i = 0; i < p->depth && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%lld",
				      i ? "," : "", (long long)p->index[i]);
	if (n < size)
		snprintf(buf + n, size - n, "}");
}

static xrt_status *at_path(xrt_status *st, const struct path *p)
{
	char where[XRT_MAX_TUPLE_DEPTH * 8 + 3];

	if (!st || !p->depth)
		return st;
	format_path(p, where, sizeof(where));
	return xrt_status_annotate(st, "tuple element %s", where);
}

static xrt_status *check_array(const struct xrt_shape *s)
{
	int64_t m2m[XRT_MAX_RANK];
	xrt_status *st;
	uint32_t i;

	st = xrt_shape_check_array(s->dtype, s->rank, s->dims);
	if (st)
		return st;
	for (i = 0; i < s->rank; i++)
		m2m[i] = s->minor_to_major[i];
	st = xrt_shape_check_layout(s->rank, m2m);
	if (st)
		return st;
	if (s->tuple_count || s->tuple)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "array shape with tuple elements");
	return NULL;
}

/* Checks @s below path @p; adds its byte size to *@bytes. */
static xrt_status *check(const struct xrt_shape *s, struct path *p,
			 uint64_t *bytes)
{
	xrt_status *st;
	uint32_t i;

	if (s->dtype != XRT_TUPLE) {
		st = check_array(s);
		if (!st) {
			*bytes += xrt_shape_byte_size(s);
			if (*bytes > XRT_MAX_BYTES)
				st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
						    "tuple exceeds 2^62 bytes");
		}
		return at_path(st, p);
	}
	if (p->depth == XRT_MAX_TUPLE_DEPTH)
		return at_path(xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "tuples nest deeper than %d",
					      XRT_MAX_TUPLE_DEPTH), p);
	if (s->tuple_count > XRT_MAX_TUPLE_SIZE)
		return at_path(xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "tuple of %u elements exceeds the maximum %u",
					      s->tuple_count, XRT_MAX_TUPLE_SIZE), p);
	if (s->tuple_count && !s->tuple)
		return at_path(xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "tuple of %u elements has no element array",
					      s->tuple_count), p);
	if (s->rank)
		return at_path(xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "tuple shape with rank %u",
					      s->rank), p);
	for (i = 0; i < s->tuple_count; i++) {
		p->index[p->depth++] = i;
		st = check(&s->tuple[i], p, bytes);
		p->depth--;
		if (st)
			return st;
	}
	return NULL;
}

xrt_status *xrt_shape_validate(const struct xrt_shape *shape)
{
	struct path p = { .depth = 0 };
	uint64_t bytes = 0;

	if (!shape)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "shape is NULL");
	return check(shape, &p, &bytes);
}
