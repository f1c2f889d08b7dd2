// SPDX-License-Identifier: MIT
/*
 * Shapes: construction, validation, copying and queries.
 *
 * Every constructor validates, so a shape made through the API always
 * satisfies: an array type, rank <= XRT_MAX_RANK, dims >= 0, a layout
 * that is a permutation, tuples no deeper than XRT_MAX_TUPLE_DEPTH, and
 * the product of the non-zero dimensions times the element size (and so
 * every stride and the total byte size) at most XRT_MAX_BYTES.
 */
#include <stdio.h>
#include <string.h>

#include <xrt/shape.h>

#include "core/mem.h"
#include "core/shape.h"

/* The product of non-zero dims times @elem_size, or 0 if over the limit. */
static uint64_t bounded_extent(uint32_t rank, const int64_t *dims,
			       size_t elem_size)
{
	uint64_t n = elem_size;
	uint32_t i;

	for (i = 0; i < rank; i++) {
		uint64_t d = (uint64_t)dims[i];

		if (!d)
			continue;
		if (d > XRT_MAX_BYTES / n)
			return 0;
		n *= d;
	}
	return n;
}

xrt_status *xrt_shape_check_array(enum xrt_dtype dtype, uint32_t rank,
				  const int64_t *dims)
{
	uint32_t i;

	if (!xrt_dtype_is_array(dtype))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "element type %d is not an array type",
				      (int)dtype);
	if (rank > XRT_MAX_RANK)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "rank %u exceeds the maximum %d", rank,
				      XRT_MAX_RANK);
	if (rank && !dims)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "rank %u with no dimensions", rank);
	for (i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "dimension %u is negative (%lld)",
					      i, (long long)dims[i]);
	}
	if (!bounded_extent(rank, dims, xrt_dtype_size(dtype)))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "%s array of these dimensions exceeds 2^62 bytes",
				      xrt_dtype_name(dtype));
	return NULL;
}

xrt_status *xrt_shape_check_layout(uint32_t rank,
				   const int64_t *minor_to_major)
{
	bool seen[XRT_MAX_RANK] = { false };
	uint32_t i;

	for (i = 0; i < rank; i++) {
		int64_t d = minor_to_major[i];

		if (d < 0 || d >= (int64_t)rank || seen[d])
			return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "layout is not a permutation of 0..%u: entry %u is %lld",
					      rank - 1, i, (long long)d);
		seen[d] = true;
	}
	return NULL;
}

static void set_default_layout(struct xrt_shape *shape)
{
	uint32_t i;

	for (i = 0; i < shape->rank; i++)
		shape->minor_to_major[i] = (uint8_t)(shape->rank - 1 - i);
}

xrt_status *xrt_shape_init_array(struct xrt_shape *shape,
				 enum xrt_dtype dtype, uint32_t rank,
				 const int64_t *dims)
{
	xrt_status *st;

	if (!shape)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "shape is NULL");
	memset(shape, 0, sizeof(*shape));
	st = xrt_shape_check_array(dtype, rank, dims);
	if (st)
		return st;
	shape->dtype = dtype;
	shape->rank = rank;
	if (rank)
		memcpy(shape->dims, dims, rank * sizeof(*dims));
	set_default_layout(shape);
	return NULL;
}

xrt_status *xrt_shape_set_layout(struct xrt_shape *shape,
				 const int64_t *minor_to_major)
{
	xrt_status *st;
	uint32_t i;

	if (!shape || xrt_shape_is_tuple(shape) || !xrt_dtype_is_array(shape->dtype))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "a layout needs an array shape");
	if (shape->rank && !minor_to_major)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "layout is NULL");
	st = xrt_shape_check_layout(shape->rank, minor_to_major);
	if (st)
		return st;
	for (i = 0; i < shape->rank; i++)
		shape->minor_to_major[i] = (uint8_t)minor_to_major[i];
	return NULL;
}

bool xrt_shape_is_tuple(const struct xrt_shape *shape)
{
	return shape->dtype == XRT_TUPLE;
}

uint32_t xrt_shape_depth(const struct xrt_shape *shape)
{
	uint32_t i, depth = 0;

	if (!xrt_shape_is_tuple(shape))
		return 0;
	for (i = 0; i < shape->tuple_count; i++) {
		uint32_t d = xrt_shape_depth(&shape->tuple[i]);

		if (d > depth)
			depth = d;
	}
	return depth + 1;
}

void xrt_shape_deinit(struct xrt_shape *shape)
{
	uint32_t i;

	if (!shape)
		return;
	if (shape->tuple) {
		for (i = 0; i < shape->tuple_count; i++)
			xrt_shape_deinit(&shape->tuple[i]);
		xrt_mem_free(shape->allocator, shape->tuple);
	}
	memset(shape, 0, sizeof(*shape));
}

/* Copies @src, already known valid, into @dst. */
static xrt_status *copy_valid(struct xrt_shape *dst,
			      const struct xrt_allocator *alloc,
			      const struct xrt_shape *src)
{
	xrt_status *st;
	uint32_t i;

	*dst = *src;
	dst->tuple = NULL;
	dst->allocator = NULL;
	if (!xrt_shape_is_tuple(src))
		return NULL;
	dst->tuple_count = 0;
	dst->allocator = alloc;
	if (!src->tuple_count)
		return NULL;
	dst->tuple = xrt_mem_calloc(alloc, src->tuple_count,
				    sizeof(*dst->tuple));
	if (!dst->tuple) {
		xrt_shape_deinit(dst);
		return xrt_status_oom(alloc, "a tuple shape");
	}
	for (i = 0; i < src->tuple_count; i++) {
		dst->tuple_count = i + 1;
		st = copy_valid(&dst->tuple[i], alloc, &src->tuple[i]);
		if (st) {
			xrt_shape_deinit(dst);
			return st;
		}
	}
	return NULL;
}

xrt_status *xrt_shape_copy(struct xrt_shape *dst,
			   const struct xrt_allocator *alloc,
			   const struct xrt_shape *src)
{
	xrt_status *st;

	if (!dst || !src)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "shape copy: NULL shape");
	memset(dst, 0, sizeof(*dst));
	st = xrt_shape_validate(src);
	if (st)
		return st;
	return copy_valid(dst, alloc, src);
}

xrt_status *xrt_shape_init_tuple(struct xrt_shape *shape,
				 const struct xrt_allocator *alloc,
				 const struct xrt_shape *elements,
				 uint32_t count)
{
	struct xrt_shape tmp = { .dtype = XRT_TUPLE };
	xrt_status *st;

	if (!shape)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "shape is NULL");
	memset(shape, 0, sizeof(*shape));
	if (count && !elements)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "tuple of %u elements with no elements",
				      count);
	/* Validate the would-be tuple as a whole: depth, size, elements. */
	tmp.tuple_count = count;
	tmp.tuple = (struct xrt_shape *)elements;
	st = xrt_shape_validate(&tmp);
	if (st)
		return st;
	return copy_valid(shape, alloc, &tmp);
}

static bool shapes_match(const struct xrt_shape *a, const struct xrt_shape *b,
			 bool layouts)
{
	uint32_t i;

	if (a->dtype != b->dtype)
		return false;
	if (xrt_shape_is_tuple(a)) {
		if (a->tuple_count != b->tuple_count)
			return false;
		for (i = 0; i < a->tuple_count; i++) {
			if (!shapes_match(&a->tuple[i], &b->tuple[i], layouts))
				return false;
		}
		return true;
	}
	if (a->rank != b->rank)
		return false;
	for (i = 0; i < a->rank; i++) {
		if (a->dims[i] != b->dims[i])
			return false;
		if (layouts && a->minor_to_major[i] != b->minor_to_major[i])
			return false;
	}
	return true;
}

bool xrt_shape_equal(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return shapes_match(a, b, true);
}

bool xrt_shape_compatible(const struct xrt_shape *a,
			  const struct xrt_shape *b)
{
	return shapes_match(a, b, false);
}

uint64_t xrt_shape_element_count(const struct xrt_shape *shape)
{
	uint64_t n = 1;
	uint32_t i;

	if (xrt_shape_is_tuple(shape))
		return 0;
	for (i = 0; i < shape->rank; i++)
		n *= (uint64_t)shape->dims[i];
	return n;
}

uint64_t xrt_shape_byte_size(const struct xrt_shape *shape)
{
	uint64_t n = 0;
	uint32_t i;

	if (!xrt_shape_is_tuple(shape))
		return xrt_shape_element_count(shape) *
		       xrt_dtype_size(shape->dtype);
	for (i = 0; i < shape->tuple_count; i++)
		n += xrt_shape_byte_size(&shape->tuple[i]);
	return n;
}

uint64_t xrt_shape_leaf_count(const struct xrt_shape *shape)
{
	uint64_t n = 0;
	uint32_t i;

	if (!xrt_shape_is_tuple(shape))
		return 1;
	for (i = 0; i < shape->tuple_count; i++)
		n += xrt_shape_leaf_count(&shape->tuple[i]);
	return n;
}

void xrt_shape_strides(const struct xrt_shape *shape, int64_t *strides)
{
	int64_t stride = 1;
	uint32_t i;

	for (i = 0; i < shape->rank; i++) {
		uint32_t d = shape->minor_to_major[i];

		strides[d] = stride;
		/* Zero-size dims do not scale: strides stay within 2^62. */
		if (shape->dims[d])
			stride *= shape->dims[d];
	}
}

xrt_status *xrt_shape_subshape(const struct xrt_shape *shape,
			       const int64_t *index, size_t depth,
			       const struct xrt_shape **out)
{
	size_t i;

	if (!shape || !out || (depth && !index))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "subshape: NULL argument");
	for (i = 0; i < depth; i++) {
		if (!xrt_shape_is_tuple(shape))
			return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "index position %zu: %s is not a tuple",
					      i, xrt_dtype_name(shape->dtype));
		if (index[i] < 0 || (uint64_t)index[i] >= shape->tuple_count)
			return xrt_status_new(NULL, XRT_OUT_OF_RANGE,
					      "index position %zu: %lld is outside a tuple of %u elements",
					      i, (long long)index[i],
					      shape->tuple_count);
		shape = &shape->tuple[index[i]];
	}
	*out = shape;
	return NULL;
}

const struct xrt_shape *xrt_shape_nth_leaf(const struct xrt_shape *shape, uint32_t *leaf)
{
	const struct xrt_shape *r;
	uint32_t i;

	if (!xrt_shape_is_tuple(shape))
		return (*leaf)-- == 0 ? shape : NULL;
	for (i = 0; i < shape->tuple_count; i++) {
		r = xrt_shape_nth_leaf(&shape->tuple[i], leaf);
		if (r)
			return r;
	}
	return NULL;
}
