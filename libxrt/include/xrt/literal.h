/* SPDX-License-Identifier: MIT */
/*
 * Literals: values in host memory shaped like a shape.  An array literal
 * holds its elements densely in the layout of its shape (little-endian,
 * 64-byte aligned); a tuple literal holds one literal per element.
 */
#ifndef XRT_LITERAL_H
#define XRT_LITERAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/api.h>
#include <xrt/alloc.h>
#include <xrt/shape.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** typedef xrt_literal - a host value; opaque */
typedef struct xrt_literal xrt_literal;

/**
 * xrt_literal_create() - make a zero-filled literal of a shape
 * @alloc: allocator for the literal (NULL: system); must outlive it
 * @shape: a valid shape, copied
 * @out: receives the literal
 *
 * Every array element is zero (false, 0, +0.0).
 *
 * Return: NULL, INVALID_ARGUMENT for a bad @shape, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_literal_create(const struct xrt_allocator *alloc,
				       const struct xrt_shape *shape,
				       xrt_literal **out);

/**
 * xrt_literal_create_from() - make an array literal from raw data
 * @alloc: allocator (NULL: system)
 * @shape: an array shape, copied
 * @data: the elements in @shape's layout, copied
 * @size: bytes at @data; must equal xrt_shape_byte_size(@shape)
 * @out: receives the literal
 *
 * Pred elements must be 0 or 1.
 *
 * Return: NULL, INVALID_ARGUMENT naming the mismatch, or
 * RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_literal_create_from(const struct xrt_allocator *alloc,
					    const struct xrt_shape *shape,
					    const void *data, size_t size,
					    xrt_literal **out);

/**
 * xrt_literal_clone() - deep-copy a literal
 * @alloc: allocator for the copy (NULL: system)
 * @src: the literal
 * @out: receives the copy
 *
 * Return: NULL or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_literal_clone(const struct xrt_allocator *alloc,
				      const xrt_literal *src,
				      xrt_literal **out);

/**
 * xrt_literal_destroy() - free a literal and every element it owns
 * @lit: a literal or NULL
 */
XRT_API void xrt_literal_destroy(xrt_literal *lit);

/** xrt_literal_shape() - the literal's shape; valid while it lives */
XRT_API const struct xrt_shape *xrt_literal_shape(const xrt_literal *lit);

/**
 * xrt_literal_data() - the elements of an array literal
 * @lit: a literal
 *
 * Return: the data in the shape's layout, or NULL for a tuple.
 */
XRT_API const void *xrt_literal_data(const xrt_literal *lit);

/**
 * xrt_literal_mutable_data() - writable elements of an array literal
 * @lit: a literal
 *
 * Writing a pred element other than 0 or 1 is undefined.
 *
 * Return: the data, or NULL for a tuple.
 */
XRT_API void *xrt_literal_mutable_data(xrt_literal *lit);

/**
 * xrt_literal_size() - bytes of data of an array literal
 * @lit: a literal
 *
 * Return: the array's byte size; 0 for a tuple.
 */
XRT_API size_t xrt_literal_size(const xrt_literal *lit);

/**
 * xrt_literal_tuple_count() - number of elements of a tuple literal
 * @lit: a literal
 *
 * Return: the count; 0 for an array.
 */
XRT_API uint32_t xrt_literal_tuple_count(const xrt_literal *lit);

/**
 * xrt_literal_element() - borrow an element of a tuple literal
 * @lit: a tuple literal
 * @i: index of the element
 *
 * The element stays owned by @lit; do not destroy it.
 *
 * Return: the element, or NULL if @lit is no tuple or @i is out of range.
 */
XRT_API xrt_literal *xrt_literal_element(const xrt_literal *lit, uint32_t i);

/**
 * xrt_literal_make_tuple() - compose a tuple literal
 * @alloc: allocator for the tuple (NULL: system)
 * @elements: @count literals; ownership moves into the tuple on success
 * @count: number of elements, at most XRT_MAX_TUPLE_SIZE
 * @out: receives the tuple
 *
 * On failure the caller still owns every element.
 *
 * Return: NULL, INVALID_ARGUMENT (a NULL element, too deep or too large),
 * or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_literal_make_tuple(const struct xrt_allocator *alloc,
					   xrt_literal *const *elements,
					   uint32_t count, xrt_literal **out);

/**
 * xrt_literal_decompose() - take a tuple literal apart
 * @tuple: a tuple literal; consumed on success
 * @elements: receives xrt_literal_tuple_count(@tuple) literals, now the
 *            caller's
 * @count: capacity of @elements
 *
 * Return: NULL, or INVALID_ARGUMENT if @tuple is no tuple or @count is
 * too small (then @tuple is untouched).
 */
XRT_API xrt_status *xrt_literal_decompose(xrt_literal *tuple,
					  xrt_literal **elements,
					  uint32_t count);

/**
 * struct xrt_tolerance - what counts as near for xrt_literal_near()
 * @rtol: relative tolerance, times abs(expected)
 * @atol: absolute tolerance
 *
 * A float element is near when abs(actual - expected) <= atol + rtol *
 * abs(expected); NaN matches only NaN and an infinity only itself.  Complex
 * elements compare real and imaginary parts apart.  Integers and preds
 * must be equal.
 */
struct xrt_tolerance {
	double rtol;
	double atol;
};

/**
 * xrt_literal_equal() - exact comparison
 * @expected: the expected literal
 * @actual: the literal to check
 * @why: receives a message on mismatch, e.g. "at {1,0}: expected 2, got
 *       3"; may be NULL
 * @why_size: size of @why
 *
 * Shapes must be compatible (layouts may differ; elements are compared by
 * index).  Elements must have the same bits, except that any NaN equals
 * any NaN.
 *
 * Return: true when equal.
 */
XRT_API bool xrt_literal_equal(const xrt_literal *expected,
			       const xrt_literal *actual, char *why,
			       size_t why_size);

/**
 * xrt_literal_near() - approximate comparison
 * @expected: the expected literal
 * @actual: the literal to check
 * @tol: the tolerance (see struct xrt_tolerance)
 * @why: receives a message naming the first element out of tolerance;
 *       may be NULL
 * @why_size: size of @why
 *
 * Return: true when every element is near.
 */
XRT_API bool xrt_literal_near(const xrt_literal *expected,
			      const xrt_literal *actual,
			      const struct xrt_tolerance *tol, char *why,
			      size_t why_size);

/**
 * xrt_literal_format() - print a literal
 * @lit: a literal
 * @buf: output buffer, may be NULL when @size is 0
 * @size: size of @buf; output truncated and NUL-terminated
 *
 * Prints "f32[2,2] {{1, 2}, {3, 4}}", "pred[] true", "c64[1] {(1, -2)}",
 * "(f32[] 1, s32[2] {1, 2})".  Floats print in the shortest form that
 * reads back to the same value.
 *
 * Return: the length of the full text, as snprintf().
 */
XRT_API size_t xrt_literal_format(const xrt_literal *lit, char *buf,
				  size_t size);

#ifdef __cplusplus
}
#endif

#endif /* XRT_LITERAL_H */
