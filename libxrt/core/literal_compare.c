// SPDX-License-Identifier: MIT
/*
 * Exact and approximate comparison of literals, by logical index, with a
 * message that names the first difference.
 */
#include <math.h>
#include <string.h>

#include "core/literal.h"
#include "core/shape_format.h"

struct compare {
	const struct xrt_tolerance *tol;	/* NULL: exact */
	struct fmtbuf why;
	int64_t path[XRT_MAX_TUPLE_DEPTH];
	uint32_t depth;
};

static bool same_bits(const void *a, const void *b, size_t n)
{
	return !memcmp(a, b, n);
}

/* One real component: exact means same bits or both NaN. */
static bool real_ok(const struct compare *c, double e, double a)
{
	if (isnan(e) || isnan(a))
		return isnan(e) && isnan(a);
	if (!c->tol)
		return same_bits(&e, &a, sizeof(e));
	if (isinf(e) || isinf(a))
		return e == a;
	return fabs(a - e) <= c->tol->atol + c->tol->rtol * fabs(e);
}

static bool elem_ok(const struct compare *c, enum xrt_dtype t,
		    const void *e, const void *a)
{
	double er, ei, ar, ai;

	if (xrt_dtype_bits(t) < 8 && t != XRT_PRED && !xrt_dtype_is_float(t))
		return !((*(const uint8_t *)e ^ *(const uint8_t *)a) &
			 ((1u << xrt_dtype_bits(t)) - 1));	/* the value's bits */
	if (!xrt_dtype_is_float(t) && !xrt_dtype_is_complex(t))
		return same_bits(e, a, xrt_dtype_size(t));
	xrt_elem_to_double(t, e, &er, &ei);
	xrt_elem_to_double(t, a, &ar, &ai);
	return real_ok(c, er, ar) && real_ok(c, ei, ai);
}

static void print_path(struct compare *c)
{
	uint32_t i;

	if (!c->depth)
		return;
	fmtbuf_puts(&c->why, "tuple element {");
	for (i = 0; i < c->depth; i++)
		fmtbuf_printf(&c->why, "%s%lld", i ? "," : "",
			      (long long)c->path[i]);
	fmtbuf_puts(&c->why, "}: ");
}

static void report_elem(struct compare *c, const struct elem_iter *it,
			enum xrt_dtype t, const void *e, const void *a)
{
	print_path(c);
	fmtbuf_puts(&c->why, "at ");
	elem_iter_print_index(it, &c->why);
	fmtbuf_puts(&c->why, ": expected ");
	xrt_elem_print(&c->why, t, e);
	fmtbuf_puts(&c->why, ", got ");
	xrt_elem_print(&c->why, t, a);
	if (c->tol && xrt_dtype_is_float(t)) {
		double er, ei, ar, ai;

		xrt_elem_to_double(t, e, &er, &ei);
		xrt_elem_to_double(t, a, &ar, &ai);
		if (isfinite(er) && isfinite(ar))
			fmtbuf_printf(&c->why, " (|diff| %g > %g)",
				      fabs(ar - er),
				      c->tol->atol + c->tol->rtol * fabs(er));
	}
}

static bool compare_arrays(struct compare *c, const xrt_literal *e,
			   const xrt_literal *a)
{
	enum xrt_dtype t = e->shape.dtype;
	size_t sz = xrt_dtype_size(t);
	struct elem_iter ie, ia;

	if (!xrt_shape_element_count(&e->shape))
		return true;
	elem_iter_init(&ie, &e->shape);
	elem_iter_init(&ia, &a->shape);
	do {
		const char *pe = (const char *)e->data + ie.offset * sz;
		const char *pa = (const char *)a->data + ia.offset * sz;

		if (!elem_ok(c, t, pe, pa)) {
			report_elem(c, &ie, t, pe, pa);
			return false;
		}
		elem_iter_next(&ia);
	} while (elem_iter_next(&ie) >= 0);
	return true;
}

static bool compare_nodes(struct compare *c, const xrt_literal *e,
			  const xrt_literal *a)
{
	uint32_t i;

	if (!xrt_shape_compatible(&e->shape, &a->shape)) {
		print_path(c);
		fmtbuf_puts(&c->why, "shape mismatch: expected ");
		xrt_shape_print(&c->why, &e->shape, false);
		fmtbuf_puts(&c->why, ", got ");
		xrt_shape_print(&c->why, &a->shape, false);
		return false;
	}
	if (!xrt_shape_is_tuple(&e->shape))
		return compare_arrays(c, e, a);
	for (i = 0; i < e->shape.tuple_count; i++) {
		bool ok;

		c->path[c->depth++] = i;
		ok = compare_nodes(c, e->elements[i], a->elements[i]);
		c->depth--;
		if (!ok)
			return false;
	}
	return true;
}

static bool compare(const xrt_literal *e, const xrt_literal *a,
		    const struct xrt_tolerance *tol, char *why, size_t size)
{
	struct compare c = { .tol = tol, .depth = 0 };

	fmtbuf_init(&c.why, why, size);
	if (!e || !a) {
		fmtbuf_puts(&c.why, "NULL literal");
		return false;
	}
	if (tol && !(tol->rtol >= 0 && tol->atol >= 0)) {
		fmtbuf_puts(&c.why, "tolerances must be >= 0");
		return false;
	}
	return compare_nodes(&c, e, a);
}

bool xrt_literal_equal(const xrt_literal *expected, const xrt_literal *actual,
		       char *why, size_t why_size)
{
	return compare(expected, actual, NULL, why, why_size);
}

bool xrt_literal_near(const xrt_literal *expected, const xrt_literal *actual,
		      const struct xrt_tolerance *tol, char *why,
		      size_t why_size)
{
	static const struct xrt_tolerance exact;

	return compare(expected, actual, tol ? tol : &exact, why, why_size);
}
