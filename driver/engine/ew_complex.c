// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Complex instructions: c64 as float pairs, c128 as double pairs, both
 * computed through double pairs.  Multiplication is the textbook
 * formula without fused multiply-add; division uses Smith's scaling so
 * that it does not overflow for large operands.  The elementary
 * functions are in ew_cmath.c.
 */
#include "ew.h"

static struct ew_cplx binary_one(u32 fn, struct ew_cplx a, struct ew_cplx b)
{
	struct ew_cplx r;

	switch (fn) {
	case XRT_CS_BIN_ADD:
		r.re = a.re + b.re;
		r.im = a.im + b.im;
		return r;
	case XRT_CS_BIN_SUB:
		r.re = a.re - b.re;
		r.im = a.im - b.im;
		return r;
	case XRT_CS_BIN_MUL:
		r.re = a.re * b.re - a.im * b.im;
		r.im = a.re * b.im + a.im * b.re;
		return r;
	case XRT_CS_BIN_POW:
		return ew_cpow(a, b);
	default:
		return ew_cdiv(a, b);
	}
}

/* Unary results: real (ABS, REAL, IMAG) or complex (the rest). */
static int unary_one(u32 fn, struct ew_cplx a, struct ew_cplx *c, double *real)
{
	double m;

	switch (fn) {
	case XRT_CS_UN_NEG:
		c->re = -a.re;
		c->im = -a.im;
		return 1;
	case XRT_CS_UN_SIGN:
		m = ew_hypot(a.re, a.im);
		if (m == 0 || m != m) {
			*c = m == 0 ? a : (struct ew_cplx){ m, m };
			return 1;
		}
		c->re = a.re / m;
		c->im = a.im / m;
		return 1;
	case XRT_CS_UN_ABS:
		*real = ew_hypot(a.re, a.im);
		return 0;
	case XRT_CS_UN_REAL:
		*real = a.re;
		return 0;
	case XRT_CS_UN_IMAG:
		*real = a.im;
		return 0;
	default:
		*c = ew_cmath(fn, a);
		return 1;
	}
}

#define COMPLEX_OPS(type, S)							\
void ew_##S##_unary(u32 fn, void *dv, const type a[], u32 n)			\
{										\
	type *d = dv;								\
	u32 i;									\
										\
	for (i = 0; i < n; i++) {						\
		struct ew_cplx x = { a[2 * i], a[2 * i + 1] }, c;		\
		double r;							\
										\
		if (unary_one(fn, x, &c, &r)) {					\
			d[2 * i] = (type)c.re;					\
			d[2 * i + 1] = (type)c.im;				\
		} else {							\
			d[i] = (type)r;						\
		}								\
	}									\
}										\
										\
void ew_##S##_binary(u32 fn, type *d, const type *a, const type *b, u32 n)	\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++) {						\
		struct ew_cplx x = { a[2 * i], a[2 * i + 1] };			\
		struct ew_cplx y = { b[2 * i], b[2 * i + 1] }, r;		\
										\
		r = binary_one(fn, x, y);					\
		d[2 * i] = (type)r.re;						\
		d[2 * i + 1] = (type)r.im;					\
	}									\
}

COMPLEX_OPS(float, c64)
COMPLEX_OPS(double, c128)

void ew_complex_compare(u32 fn, u32 dtype, s64 *d, const void *a,
			const void *b, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		int eq;

		if (dtype == XRT_CS_C64) {
			const float *x = a, *y = b;

			eq = x[2 * i] == y[2 * i] && x[2 * i + 1] == y[2 * i + 1];
		} else {
			const double *x = a, *y = b;

			eq = x[2 * i] == y[2 * i] && x[2 * i + 1] == y[2 * i + 1];
		}
		d[i] = fn == XRT_CS_CMP_EQ ? eq : !eq;
	}
}

void ew_complex_from_parts(u32 dtype, void *d, const void *re,
			   const void *im, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (dtype == XRT_CS_C64) {
			((float *)d)[2 * i] = ((const float *)re)[i];
			((float *)d)[2 * i + 1] = ((const float *)im)[i];
		} else {
			((double *)d)[2 * i] = ((const double *)re)[i];
			((double *)d)[2 * i + 1] = ((const double *)im)[i];
		}
	}
}
