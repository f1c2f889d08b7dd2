// SPDX-License-Identifier: MIT
/*
 * Literals: creation, tuple composition and decomposition, copies.
 *
 * Each node owns a copy of its own shape; an array node owns its data, a
 * tuple node owns its element nodes.  Trees are at most
 * XRT_MAX_TUPLE_DEPTH deep, which bounds every recursion here.
 */
#include <stdlib.h>
#include <string.h>

#include <xrt/literal.h>

#include "core/literal.h"
#include "core/mem.h"

static xrt_literal *node_new(const struct xrt_allocator *alloc)
{
	xrt_literal *lit = xrt_mem_alloc(alloc, sizeof(*lit));

	if (lit) {
		memset(lit, 0, sizeof(*lit));
		lit->alloc = alloc;
	}
	return lit;
}

void xrt_literal_destroy(xrt_literal *lit)
{
	uint32_t i;

	if (!lit)
		return;
	if (lit->elements) {
		for (i = 0; i < lit->shape.tuple_count; i++)
			xrt_literal_destroy(lit->elements[i]);
		xrt_mem_free(lit->alloc, lit->elements);
	}
	xrt_mem_free(lit->alloc, lit->data);
	xrt_shape_deinit(&lit->shape);
	xrt_mem_free(lit->alloc, lit);
}

/*
 * Makes a node of @shape (already validated) with zeroed data for an
 * array, or an element array of NULLs for a tuple.
 */
static xrt_status *node_of_shape(const struct xrt_allocator *alloc,
				 const struct xrt_shape *shape, bool zero,
				 xrt_literal **out)
{
	xrt_literal *lit = node_new(alloc);
	xrt_status *st;
	uint32_t n;

	if (!lit)
		return xrt_status_oom(alloc, "a literal");
	st = xrt_shape_copy(&lit->shape, alloc, shape);
	if (st)
		goto fail;
	if (xrt_shape_is_tuple(shape)) {
		n = shape->tuple_count;
		lit->elements = xrt_mem_calloc(alloc, n ? n : 1,
					       sizeof(*lit->elements));
		if (!lit->elements) {
			st = xrt_status_oom(alloc, "a tuple literal");
			goto fail;
		}
	} else {
		lit->size = (size_t)xrt_shape_byte_size(shape);
		lit->data = xrt_mem_alloc_aligned(alloc, lit->size,
						  XRT_DATA_ALIGN);
		if (!lit->data) {
			st = xrt_status_oom(alloc, "literal data");
			goto fail;
		}
		if (zero)
			memset(lit->data, 0, lit->size);
	}
	*out = lit;
	return NULL;
fail:
	xrt_literal_destroy(lit);
	return st;
}

/*
 * Builds a literal of @shape (already validated): zeroed, left
 * uninitialized when @zero is false, or a copy of @src's values when @src
 * is given (a literal of the same shape).
 */
static xrt_status *build(const struct xrt_allocator *alloc,
			 const struct xrt_shape *shape, const xrt_literal *src,
			 bool zero, xrt_literal **out)
{
	xrt_literal *lit = NULL;
	xrt_status *st;
	uint32_t i;

	st = node_of_shape(alloc, shape, zero && !src, &lit);
	if (st)
		return st;
	if (lit->data && src)
		memcpy(lit->data, src->data, lit->size);
	for (i = 0; lit->elements && i < shape->tuple_count; i++) {
		st = build(alloc, &shape->tuple[i],
			   src ? src->elements[i] : NULL, zero,
			   &lit->elements[i]);
		if (st) {
			xrt_literal_destroy(lit);
			return st;
		}
	}
	*out = lit;
	return NULL;
}

xrt_status *xrt_literal_create(const struct xrt_allocator *alloc,
			       const struct xrt_shape *shape,
			       xrt_literal **out)
{
	xrt_status *st;

	if (!out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal create: out is NULL");
	*out = NULL;
	st = xrt_shape_validate(shape);
	if (st)
		return xrt_status_annotate(st, "literal create");
	if (xrt_shape_byte_size(shape) > SIZE_MAX)
		return xrt_status_new(alloc, XRT_RESOURCE_EXHAUSTED,
				      "literal create: too large for this host");
	return build(alloc, shape, NULL, true, out);
}

xrt_status *xrt_literal_create_uninit(const struct xrt_allocator *alloc,
				      const struct xrt_shape *shape,
				      xrt_literal **out)
{
	xrt_status *st = xrt_shape_validate(shape);

	*out = NULL;
	if (st)
		return st;
	return build(alloc, shape, NULL, false, out);
}

xrt_status *xrt_literal_check_preds(const struct xrt_allocator *alloc,
				    const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] > 1)
			return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
					      "pred element %zu is %u, not 0 or 1",
					      i, p[i]);
	}
	return NULL;
}

xrt_status *xrt_literal_create_from(const struct xrt_allocator *alloc,
				    const struct xrt_shape *shape,
				    const void *data, size_t size,
				    xrt_literal **out)
{
	xrt_status *st;
	uint64_t need;

	if (!out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal create: out is NULL");
	*out = NULL;
	st = xrt_shape_validate(shape);
	if (st)
		return xrt_status_annotate(st, "literal create");
	if (xrt_shape_is_tuple(shape))
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal create: raw data needs an array shape");
	need = xrt_shape_byte_size(shape);
	if (size != need)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal create: %zu bytes of data, the shape needs %llu",
				      size, (unsigned long long)need);
	if (size && !data)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal create: data is NULL");
	if (shape->dtype == XRT_PRED) {
		st = xrt_literal_check_preds(alloc, data, size);
		if (st)
			return xrt_status_annotate(st, "literal create");
	}
	st = build(alloc, shape, NULL, false, out);
	if (!st && size)
		memcpy((*out)->data, data, size);
	return st;
}

xrt_status *xrt_literal_clone(const struct xrt_allocator *alloc,
			      const xrt_literal *src, xrt_literal **out)
{
	if (!src || !out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal clone: NULL argument");
	*out = NULL;
	return build(alloc, &src->shape, src, false, out);
}

const struct xrt_shape *xrt_literal_shape(const xrt_literal *lit)
{
	return &lit->shape;
}

const void *xrt_literal_data(const xrt_literal *lit)
{
	return lit->data;
}

void *xrt_literal_mutable_data(xrt_literal *lit)
{
	return lit->data;
}

size_t xrt_literal_size(const xrt_literal *lit)
{
	return lit->size;
}

uint32_t xrt_literal_tuple_count(const xrt_literal *lit)
{
	return xrt_shape_is_tuple(&lit->shape) ? lit->shape.tuple_count : 0;
}

xrt_literal *xrt_literal_element(const xrt_literal *lit, uint32_t i)
{
	if (!lit || !lit->elements || i >= lit->shape.tuple_count)
		return NULL;
	return lit->elements[i];
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* Checks that no element is NULL or appears twice (it would be owned twice). */
static xrt_status *check_elements(const struct xrt_allocator *alloc,
				  xrt_literal *const *elements, uint32_t n)
{
	uintptr_t *sorted;
	xrt_status *st = NULL;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!elements[i])
			return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
					      "make tuple: element %u is NULL", i);
	}
	if (n < 2)
		return NULL;
	sorted = xrt_mem_calloc(alloc, n, sizeof(*sorted));
	if (!sorted)
		return xrt_status_oom(alloc, "a tuple literal");
	for (i = 0; i < n; i++)
		sorted[i] = (uintptr_t)elements[i];
	qsort(sorted, n, sizeof(*sorted), cmp_ptr);
	for (i = 1; i < n && !st; i++) {
		if (sorted[i] == sorted[i - 1])
			st = xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
					    "make tuple: one literal given twice");
	}
	xrt_mem_free(alloc, sorted);
	return st;
}

xrt_status *xrt_literal_make_tuple(const struct xrt_allocator *alloc,
				   xrt_literal *const *elements,
				   uint32_t count, xrt_literal **out)
{
	struct xrt_shape *shapes = NULL;
	xrt_literal *lit = NULL;
	xrt_status *st;
	uint32_t i;

	if (!out || (count && !elements))
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "make tuple: NULL argument");
	*out = NULL;
	if (count > XRT_MAX_TUPLE_SIZE)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "make tuple: %u elements exceed the maximum %u",
				      count, XRT_MAX_TUPLE_SIZE);
	st = check_elements(alloc, elements, count);
	if (st)
		return st;
	/* Element shapes side by side, borrowed, for xrt_shape_init_tuple(). */
	shapes = xrt_mem_calloc(alloc, count ? count : 1, sizeof(*shapes));
	lit = node_new(alloc);
	if (lit)
		lit->elements = xrt_mem_calloc(alloc, count ? count : 1,
					       sizeof(*lit->elements));
	if (!shapes || !lit || !lit->elements) {
		st = xrt_status_oom(alloc, "a tuple literal");
		goto out;
	}
	for (i = 0; i < count; i++)
		shapes[i] = elements[i]->shape;
	st = xrt_shape_init_tuple(&lit->shape, alloc, shapes, count);
	if (st) {
		st = xrt_status_annotate(st, "make tuple");
		goto out;
	}
	if (count)
		memcpy(lit->elements, elements, count * sizeof(*elements));
	*out = lit;
	lit = NULL;
out:
	xrt_mem_free(alloc, shapes);
	if (lit) {
		xrt_mem_free(alloc, lit->elements);
		xrt_mem_free(alloc, lit);
	}
	return st;
}

xrt_status *xrt_literal_decompose(xrt_literal *tuple, xrt_literal **elements,
				  uint32_t count)
{
	uint32_t n;

	if (!tuple || !xrt_shape_is_tuple(&tuple->shape))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "decompose: not a tuple literal");
	n = tuple->shape.tuple_count;
	if (count < n || (n && !elements))
		return xrt_status_new(tuple->alloc, XRT_INVALID_ARGUMENT,
				      "decompose: room for %u elements, the tuple has %u",
				      count, n);
	if (n)
		memcpy(elements, tuple->elements, n * sizeof(*elements));
	xrt_mem_free(tuple->alloc, tuple->elements);
	tuple->elements = NULL;
	xrt_literal_destroy(tuple);
	return NULL;
}
