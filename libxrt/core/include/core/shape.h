/* SPDX-License-Identifier: MIT */
/*
 * Shape helpers shared inside libxrt.
 */
#ifndef XRT_CORE_SHAPE_INTERNAL_H
#define XRT_CORE_SHAPE_INTERNAL_H

#include <stdbool.h>

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

/* The most array leaves of a shape whose bounded dynamic dimensions are told. */
#define XSHAPE_DYN_LEAVES 64

/*
 * Which dimensions a shape wrote as bounds ("f32[<=4,3]"): bit d of
 * mask[i] for dimension d of the i-th array leaf, depth first.  The
 * shape itself takes the bound.
 */
struct xshape_dyn {
	uint32_t leaves;
	bool any;
	uint8_t mask[XSHAPE_DYN_LEAVES];
};

/*
 * xrt_shape_parse_prefix(), also reading "<=N" dimensions into *@dyn
 * (HLO text's bounded dynamic dimensions; an unbounded '?' is refused).
 */
xrt_status *xrt_shape_parse_prefix_dyn(struct xrt_shape *shape,
				       const struct xrt_allocator *alloc, const char *text,
				       size_t len, size_t *end, struct xshape_dyn *dyn);

#endif /* XRT_CORE_SHAPE_INTERNAL_H */
