// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Complex instructions: c64 as float pairs, c128 as double pairs, both
 * computed through double pairs by engine/scalar_complex.h's
 * functions, which the cuda device's kernels share.
 */
#include "emath.h"
#include "ew.h"

/* The real functions complex ones are made of: the engine's own. */
#define XS_EXP		em_exp
#define XS_EXPM1	em_expm1
#define XS_LOG		em_log
#define XS_LOG1P	em_log1p
#define XS_SIN		em_sin
#define XS_COS		em_cos
#define XS_TAN		em_tan
#define XS_TANH		em_tanh
#define XS_ATAN2	em_atan2
#define XS_POW		em_pow
#define XS_SQRT		__builtin_sqrt
#include "engine/scalar_complex.h"

/* Unary results: real (ABS, REAL, IMAG) or complex (the rest). */
static int unary_one(u32 fn, struct xs_cplx a, struct xs_cplx *c, double *real)
{
	switch (fn) {
	case XRT_CS_UN_ABS:
		*real = xs_hypot(a.re, a.im);
		return 0;
	case XRT_CS_UN_REAL:
		*real = a.re;
		return 0;
	case XRT_CS_UN_IMAG:
		*real = a.im;
		return 0;
	default:
		*c = xs_cunary(fn, a);
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
		struct xs_cplx x = { a[2 * i], a[2 * i + 1] }, c;		\
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
		struct xs_cplx x = { a[2 * i], a[2 * i + 1] };			\
		struct xs_cplx y = { b[2 * i], b[2 * i + 1] }, r;		\
										\
		r = xs_cbinary(fn, x, y);					\
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
