/* SPDX-License-Identifier: MIT */
/*
 * Shapes: an array (element type, dimensions, layout) or a tuple of
 * shapes, nested to any depth up to XRT_MAX_TUPLE_DEPTH.
 */
#ifndef XRT_SHAPE_H
#define XRT_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/api.h>
#include <xrt/alloc.h>
#include <xrt/dtype.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** XRT_MAX_RANK - the most dimensions an array may have */
#define XRT_MAX_RANK 8
/** XRT_MAX_TUPLE_DEPTH - the deepest tuple nesting accepted anywhere */
#define XRT_MAX_TUPLE_DEPTH 64
/** XRT_MAX_TUPLE_SIZE - the most elements one tuple may have */
#define XRT_MAX_TUPLE_SIZE (1u << 20)
/** XRT_MAX_BYTES - the largest byte size of any shape (2^62) */
#define XRT_MAX_BYTES (UINT64_C(1) << 62)

/**
 * struct xrt_shape - an array or tuple shape
 * @dtype: element type; XRT_TUPLE for a tuple
 * @rank: number of dimensions (arrays; 0 for a scalar)
 * @dims: the first @rank entries are the dimensions, each >= 0
 * @minor_to_major: the layout: the first @rank entries are a permutation
 *                  of 0..rank-1, fastest-varying dimension first.  The
 *                  default (row-major) layout is rank-1, ..., 1, 0.
 * @tuple_count: number of elements (tuples)
 * @tuple: the elements (tuples), owned by this shape
 * @allocator: what @tuple was allocated with
 *
 * A shape is a value: initialize it with one of the xrt_shape_init_*()
 * functions or xrt_shape_copy(), release it with xrt_shape_deinit().
 * A zero-initialized struct is a valid "empty" shape to deinit or to
 * initialize.  Fields are read freely; change them only through the API,
 * which keeps every shape valid (sizes never overflow XRT_MAX_BYTES).
 */
struct xrt_shape {
	enum xrt_dtype dtype;
	uint32_t rank;
	int64_t dims[XRT_MAX_RANK];
	uint8_t minor_to_major[XRT_MAX_RANK];
	uint32_t tuple_count;
	struct xrt_shape *tuple;
	const struct xrt_allocator *allocator;
};

/**
 * xrt_shape_init_array() - make an array shape with the default layout
 * @shape: where to put it (any previous content is ignored, not freed)
 * @dtype: an array element type
 * @rank: number of dimensions, at most XRT_MAX_RANK
 * @dims: @rank dimensions, each >= 0 (may be NULL when @rank is 0)
 *
 * Return: NULL, or INVALID_ARGUMENT naming the bad type or dimension;
 * @shape is then left empty.
 */
XRT_API xrt_status *xrt_shape_init_array(struct xrt_shape *shape,
					 enum xrt_dtype dtype, uint32_t rank,
					 const int64_t *dims);

/**
 * xrt_shape_set_layout() - set the layout of an array shape
 * @shape: an array shape
 * @minor_to_major: @shape->rank dimension numbers, a permutation
 *
 * Return: NULL, or INVALID_ARGUMENT if @shape is a tuple or the list is
 * not a permutation (the shape is then unchanged).
 */
XRT_API xrt_status *xrt_shape_set_layout(struct xrt_shape *shape,
					 const int64_t *minor_to_major);

/**
 * xrt_shape_init_tuple() - make a tuple shape from copies of elements
 * @shape: where to put it (previous content ignored)
 * @alloc: allocator for the element array (NULL: system)
 * @elements: @count valid shapes, deep-copied
 * @count: number of elements, at most XRT_MAX_TUPLE_SIZE; 0 makes ()
 *
 * Return: NULL, INVALID_ARGUMENT when the result would be too deep or too
 * large, or RESOURCE_EXHAUSTED; @shape is then left empty.
 */
XRT_API xrt_status *xrt_shape_init_tuple(struct xrt_shape *shape,
					 const struct xrt_allocator *alloc,
					 const struct xrt_shape *elements,
					 uint32_t count);

/**
 * xrt_shape_copy() - deep-copy a shape
 * @dst: where to put the copy (previous content ignored)
 * @alloc: allocator for tuple elements (NULL: system)
 * @src: a valid shape
 *
 * Return: NULL or RESOURCE_EXHAUSTED (@dst then left empty).
 */
XRT_API xrt_status *xrt_shape_copy(struct xrt_shape *dst,
				   const struct xrt_allocator *alloc,
				   const struct xrt_shape *src);

/**
 * xrt_shape_deinit() - free what a shape owns and leave it empty
 * @shape: a shape, an empty shape, or NULL
 */
XRT_API void xrt_shape_deinit(struct xrt_shape *shape);

/**
 * xrt_shape_validate() - check a shape struct built or changed by hand
 * @shape: the shape
 *
 * Checks the type, rank, dimensions, layout, tuple sizes, depth and the
 * byte-size limit, recursively.  Functions that take a shape from a
 * caller run this check.
 *
 * Return: NULL, or INVALID_ARGUMENT naming the first problem and its
 * tuple index path.
 */
XRT_API xrt_status *xrt_shape_validate(const struct xrt_shape *shape);

/** xrt_shape_is_tuple() - true for a tuple shape */
XRT_API bool xrt_shape_is_tuple(const struct xrt_shape *shape);

/**
 * xrt_shape_equal() - same type, dimensions, layouts and tuple structure
 * @a: a shape
 * @b: a shape
 *
 * Return: true when equal.
 */
XRT_API bool xrt_shape_equal(const struct xrt_shape *a,
			     const struct xrt_shape *b);

/**
 * xrt_shape_compatible() - equal but for layouts
 * @a: a shape
 * @b: a shape
 *
 * Return: true when equal ignoring every layout.
 */
XRT_API bool xrt_shape_compatible(const struct xrt_shape *a,
				  const struct xrt_shape *b);

/**
 * xrt_shape_element_count() - number of elements of an array shape
 * @shape: an array shape
 *
 * Return: the product of the dimensions (1 for a scalar), 0 for a tuple.
 */
XRT_API uint64_t xrt_shape_element_count(const struct xrt_shape *shape);

/**
 * xrt_shape_byte_size() - bytes of data a shape holds
 * @shape: a shape
 *
 * Return: element count times element size for an array; for a tuple the
 * sum over its leaves.  Never more than XRT_MAX_BYTES.
 */
XRT_API uint64_t xrt_shape_byte_size(const struct xrt_shape *shape);

/**
 * xrt_shape_leaf_count() - number of array shapes in a tuple tree
 * @shape: a shape
 *
 * Return: 1 for an array, the number of arrays below a tuple.
 */
XRT_API uint64_t xrt_shape_leaf_count(const struct xrt_shape *shape);

/**
 * xrt_shape_strides() - element strides of an array shape's layout
 * @shape: an array shape
 * @strides: receives @shape->rank strides, in elements, per dimension
 */
XRT_API void xrt_shape_strides(const struct xrt_shape *shape,
			       int64_t *strides);

/**
 * xrt_shape_subshape() - the shape at an index path into a tuple
 * @shape: a shape
 * @index: @depth tuple indices, outermost first
 * @depth: length of @index; 0 gives @shape itself
 * @out: receives a pointer into @shape
 *
 * Return: NULL, or OUT_OF_RANGE / INVALID_ARGUMENT naming the position
 * where the path leaves the shape.
 */
XRT_API xrt_status *xrt_shape_subshape(const struct xrt_shape *shape,
				       const int64_t *index, size_t depth,
				       const struct xrt_shape **out);

/**
 * xrt_shape_format() - print a shape in HLO syntax
 * @shape: a shape
 * @buf: output buffer, may be NULL when @size is 0
 * @size: size of @buf; the output is truncated and always NUL-terminated
 *
 * Arrays print as "f32[2,3]{1,0}" (scalars as "f32[]"), tuples as
 * "(f32[2]{0}, s32[])".
 *
 * Return: the length of the full text, as snprintf().
 */
XRT_API size_t xrt_shape_format(const struct xrt_shape *shape, char *buf,
				size_t size);

/**
 * xrt_shape_parse() - read a shape in HLO syntax
 * @shape: where to put it (previous content ignored)
 * @alloc: allocator for tuple elements (NULL: system)
 * @text: NUL-terminated text holding exactly one shape; blanks around
 *        tokens are allowed, but a layout's '{' must follow its ']'
 *        directly; a missing layout means the default one
 *
 * Return: NULL, INVALID_ARGUMENT with the column of the first error, or
 * RESOURCE_EXHAUSTED; @shape is then left empty.
 */
XRT_API xrt_status *xrt_shape_parse(struct xrt_shape *shape,
				    const struct xrt_allocator *alloc,
				    const char *text);

#ifdef __cplusplus
}
#endif

#endif /* XRT_SHAPE_H */
