/* SPDX-License-Identifier: MIT */
/*
 * The literal's representation, shared by the core files that build,
 * compare, print and serialize literals.
 */
#ifndef XRT_CORE_LITERAL_INTERNAL_H
#define XRT_CORE_LITERAL_INTERNAL_H

#include <xrt/literal.h>

#include "core/fmtbuf.h"

struct xrt_literal {
	struct xrt_shape shape;			/* own copy */
	const struct xrt_allocator *alloc;
	void *data;				/* arrays: size bytes */
	size_t size;
	xrt_literal **elements;			/* tuples: tuple_count */
};

/* A literal whose array data is left uninitialized, to be filled. */
xrt_status *xrt_literal_create_uninit(const struct xrt_allocator *alloc,
				      const struct xrt_shape *shape,
				      xrt_literal **out);

/* INVALID_ARGUMENT unless every byte of @data is 0 or 1. */
xrt_status *xrt_literal_check_preds(const struct xrt_allocator *alloc,
				    const void *data, size_t n);

/*
 * Walks the elements of an array shape in row-major (logical) order,
 * keeping the element offset of the shape's layout.
 */
struct elem_iter {
	uint32_t rank;
	int64_t dims[XRT_MAX_RANK];
	int64_t strides[XRT_MAX_RANK];
	int64_t index[XRT_MAX_RANK];
	int64_t offset;		/* in elements */
};

void elem_iter_init(struct elem_iter *it, const struct xrt_shape *shape);
/* Advances; returns the innermost dimension that did not wrap, or -1 at the end. */
int elem_iter_next(struct elem_iter *it);
/*
 * Copies the elements of array @src (shape @ss) to @dst (shape @ds, the
 * same dims and type, any layout), each to its place in @ds's layout.
 */
void xrt_elems_relayout(void *dst, const struct xrt_shape *ds, const void *src,
			const struct xrt_shape *ss);

/* Prints the current index as "{1,0}". */
void elem_iter_print_index(const struct elem_iter *it, struct fmtbuf *f);

/* Prints a literal's values alone: "{{1, 2}, {3, 4}}", "(1, {2})". */
void xrt_literal_print_values(struct fmtbuf *f, const xrt_literal *lit);

/* Prints one element of type @t stored at @p, shortest round-trip form. */
void xrt_elem_print(struct fmtbuf *f, enum xrt_dtype t, const void *p);

/* Reads a float or complex element as doubles (@im 0 for real types). */
void xrt_elem_to_double(enum xrt_dtype t, const void *p, double *re,
			double *im);

#endif /* XRT_CORE_LITERAL_INTERNAL_H */
