/* SPDX-License-Identifier: MIT */
/*
 * Shape helpers shared inside libxrt.
 */
#ifndef XRT_CORE_SHAPE_INTERNAL_H
#define XRT_CORE_SHAPE_INTERNAL_H

#include <xrt/shape.h>

/* The checks behind xrt_shape_init_array() and xrt_shape_set_layout(). */
xrt_status *xrt_shape_check_array(enum xrt_dtype dtype, uint32_t rank,
				  const int64_t *dims);
xrt_status *xrt_shape_check_layout(uint32_t rank,
				   const int64_t *minor_to_major);

/*
 * The @leaf-th array shape of @shape, tuples walked depth first (@leaf
 * counts down past the earlier ones); NULL when there are fewer.
 */
const struct xrt_shape *xrt_shape_nth_leaf(const struct xrt_shape *shape, uint32_t *leaf);

/* Tuple nesting depth: 0 for an array, 1 for a tuple of arrays. */
uint32_t xrt_shape_depth(const struct xrt_shape *shape);

/*
 * Parses one shape at the start of @text, up to @len bytes; *@end
 * receives the offset just past it.  On error, *@end is the offset of
 * the problem and the message does not name a position.
 */
xrt_status *xrt_shape_parse_prefix(struct xrt_shape *shape,
				   const struct xrt_allocator *alloc,
				   const char *text, size_t len, size_t *end);

#endif /* XRT_CORE_SHAPE_INTERNAL_H */
