// SPDX-License-Identifier: MIT
/*
 * Element by element comparison against XLA's outputs, in ulps of the
 * element type: distances are counted on the float's bits read as an
 * ordered integer, so that they mean the same in every type.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/dtype.h>
#include <xrt/shape.h>

#include "compare.h"
#include "core/literal.h"

/*
 * What each class allows, in ulps: elementwise functions (ulp), and
 * accumulations relative to the array's largest magnitude (acc).  XLA's
 * CPU backend computes f16 and bf16 in f32 and rounds once, as XRT does;
 * the margins are those of the approximations (XLA's own polynomials for
 * exp, tanh, log, ... against XRT's) and of summation order.  The special
 * functions JAX writes as series and continued fractions of dozens of
 * ops (lgamma, digamma, igamma, polygamma, zeta, erf_inv, the Bessel
 * functions) carry each op's last-bit difference through cancellation:
 * formula, measured at up to 8 ulps apart, each side up to 13 ulps from
 * the exact value (mpmath); near a zero of the function (lgamma at 1 and
 * 2) those are ulps of the array's largest magnitude, as for acc.
 */
static const struct {
	enum xrt_dtype t;
	unsigned int ulp, acc, formula;
} limits[] = {
	{ XRT_F64, 4, 64, 16 },
	{ XRT_F32, 4, 64, 16 },
	{ XRT_F16, 1, 8, 2 },
	{ XRT_BF16, 1, 4, 2 },
};

bool tol_class_from_name(const char *name, enum tol_class *out)
{
	static const char *const names[] = { "exact", "ulp", "acc", "formula" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i])) {
			*out = (enum tol_class)i;
			return true;
		}
	}
	return false;
}

/* Element @i of float data @p of type @t: its value, and its bits as an ordered integer. */
static double element(enum xrt_dtype t, const void *p, size_t i, int64_t *ord)
{
	uint64_t bits, sign;
	double v;

	switch (t) {
	case XRT_F64:
		memcpy(&bits, (const double *)p + i, 8);
		memcpy(&v, &bits, 8);
		sign = 1ull << 63;
		break;
	case XRT_F32: {
		uint32_t b;
		float f;

		memcpy(&b, (const float *)p + i, 4);
		memcpy(&f, &b, 4);
		bits = b, v = f, sign = 1u << 31;
		break;
	}
	default: {
		uint16_t h = ((const uint16_t *)p)[i];

		bits = h, sign = 1u << 15;
		v = t == XRT_F16 ? xrt_f16_to_f32(h) : xrt_bf16_to_f32(h);
		break;
	}
	}
	*ord = bits & sign ? -(int64_t)(bits & ~sign) : (int64_t)bits;
	return v;
}

/* |@a - @b| without overflow: the ordered bits of f64s span all of int64. */
static uint64_t distance(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

static bool limits_of(enum xrt_dtype t, enum tol_class cls, unsigned int *ulp, unsigned int *acc)
{
	size_t i;

	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		if (limits[i].t == t) {
			*ulp = cls == TOL_FORMULA ? limits[i].formula : limits[i].ulp;
			*acc = limits[i].acc;
			return true;
		}
	}
	return false;
}

/* The size of one ulp of type @t at magnitude @m. */
static double ulp_at(enum xrt_dtype t, double m)
{
	int mant = t == XRT_F64 ? 52 : t == XRT_F32 ? 23 : t == XRT_F16 ? 10 : 7;
	int e;

	if (m == 0 || !isfinite(m))
		return 0;
	frexp(m, &e);
	return ldexp(1.0, e - 1 - mant);
}

/* The float elements (complex: parts) of @want and @got, @n of them, of type @t. */
static bool floats_agree(enum xrt_dtype t, const void *want, const void *got, size_t n,
			 enum tol_class cls, char *why, size_t why_size)
{
	unsigned int ulp = 0, acc = 0;
	double big = 0, w, g, slack;
	int64_t ow, og;
	size_t i;

	limits_of(t, cls, &ulp, &acc);
	for (i = 0; i < n; i++) {
		w = element(t, want, i, &ow);
		if (isfinite(w) && fabs(w) > big)
			big = fabs(w);
	}
	/* near a zero (lgamma at 1 and 2) the terms cancel: ulps of the array's scale */
	slack = cls == TOL_ACC ? acc * ulp_at(t, big) : cls == TOL_FORMULA ? ulp * ulp_at(t, big) : 0;
	for (i = 0; i < n; i++) {
		w = element(t, want, i, &ow);
		g = element(t, got, i, &og);
		if (isnan(w) && isnan(g))
			continue;
		if (cls == TOL_EXACT ? ow == og && (w != 0 || signbit(w) == signbit(g)) :
		    (distance(ow, og) <= ulp && !isnan(g)) ||
		    (isfinite(w) && fabs(w - g) <= slack))
			continue;
		snprintf(why, why_size, "element %zu: XLA %.17g, got %.17g (%llu ulps)", i, w, g,
			 (unsigned long long)distance(ow, og));
		return false;
	}
	return true;
}

/* The array shapes of @a and @b hold the same elements (layouts aside). */
static bool same_elements(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return !a->tuple_count && !b->tuple_count && a->dtype == b->dtype && a->rank == b->rank &&
	       !memcmp(a->dims, b->dims, a->rank * sizeof(a->dims[0]));
}

/*
 * The comparison, @got's data first put in @want's layout: XRT keeps the
 * root's layout where XLA's result takes entry_computation_layout's, a
 * difference of layout only (hlo-support.rst).
 */
bool conformance_agree(const xrt_literal *want, const xrt_literal *got, enum tol_class cls,
		       char *why, size_t why_size)
{
	const struct xrt_shape *sw = xrt_literal_shape(want), *sg = xrt_literal_shape(got);
	enum xrt_dtype t = sw->dtype, part = t == XRT_C64 ? XRT_F32 : t == XRT_C128 ? XRT_F64 : t;
	size_t n = xrt_literal_size(want);
	const void *data = xrt_literal_data(got);
	void *moved = NULL;
	bool ok;

	if (!same_elements(sw, sg) || n != xrt_literal_size(got)) {
		snprintf(why, why_size, "the result's shape differs from XLA's");
		return false;
	}
	if (part != XRT_F64 && part != XRT_F32 && part != XRT_F16 && part != XRT_BF16)
		return xrt_literal_equal(want, got, why, why_size);
	if (memcmp(sw->minor_to_major, sg->minor_to_major, sw->rank)) {
		moved = malloc(n ? n : 1);
		if (!moved) {
			snprintf(why, why_size, "out of memory");
			return false;
		}
		xrt_elems_relayout(moved, sw, data, sg);
		data = moved;
	}
	ok = floats_agree(part, xrt_literal_data(want), data, n / xrt_dtype_size(part), cls, why,
			  why_size);
	free(moved);
	return ok;
}
