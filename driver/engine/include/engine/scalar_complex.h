/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Complex arithmetic and elementary functions in double, written once
 * for the engine and the cuda prelude (as engine/scalar.h, which it
 * needs first).  The formulas are the textbook ones arranged to avoid
 * cancellation where it matters: expm1 and log1p keep their small-
 * argument accuracy, tanh uses Kahan's form (no overflow of cosh), sqrt
 * picks the stable branch of (|z| + |re|) / 2, division is Smith's (no
 * overflow for large operands).
 *
 * The real functions they are built from are the includer's, named by
 * XS_EXP, XS_EXPM1, XS_LOG, XS_LOG1P, XS_SIN, XS_COS, XS_TAN, XS_TANH,
 * XS_ATAN2, XS_POW and XS_SQRT: the engine's own (emath.c), or CUDA's libdevice,
 * so that only those differ between the two.
 */
#ifndef XRT_ENGINE_SCALAR_COMPLEX_H
#define XRT_ENGINE_SCALAR_COMPLEX_H

#ifndef XRT_SCALAR_CUDA
#include "engine/scalar.h"
#endif

static inline XRT_SCALAR_DEVICE double xs_fabs(double x)
{
	return x < 0 ? -x : x;
}

static inline XRT_SCALAR_DEVICE double xs_copysign(double x, double s)
{
	return xs_bits_f64((xs_f64_bits(x) & ~(1ull << 63)) | (xs_f64_bits(s) & (1ull << 63)));
}

static inline XRT_SCALAR_DEVICE int xs_is_inf(double x)
{
	return x - x != 0 && !xs_is_nan(x);
}

static inline XRT_SCALAR_DEVICE double xs_hypot(double a, double b)
{
	double x = xs_fabs(a), y = xs_fabs(b), t;

	if (xs_is_inf(x) || xs_is_inf(y))
		return xs_bits_f64(0x7ff0000000000000ull);
	if (xs_is_nan(x) || xs_is_nan(y))
		return x + y;
	if (x < y) {
		t = x;
		x = y;
		y = t;
	}
	if (x == 0)
		return 0;
	t = y / x;
	return x * XS_SQRT(1 + t * t);
}

/* sinh and cosh of a real, without cancellation near 0. */
static inline XRT_SCALAR_DEVICE void xs_sinh_cosh(double x, double *s, double *c)
{
	double e = XS_EXPM1(xs_fabs(x)), ex = e + 1;

	*s = xs_copysign(0.5 * (e + e / ex), x);
	*c = 0.5 * (ex + 1 / ex);
	if (xs_is_inf(ex)) {	/* e / ex is inf / inf */
		*s = xs_copysign(ex, x);
		*c = ex;
	}
}

static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cplx_of(double re, double im)
{
	struct xs_cplx r = { re, im };

	return r;
}

static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cexp(struct xs_cplx z)
{
	double e;

	if (z.im == 0)	/* exact real results keep their zero imaginary part */
		return xs_cplx_of(XS_EXP(z.re), z.im);
	e = XS_EXP(z.re);
	return xs_cplx_of(e * XS_COS(z.im), e * XS_SIN(z.im));
}

/* exp(z) - 1 = expm1(a) cos b - 2 sin^2(b/2) + i exp(a) sin b */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cexpm1(struct xs_cplx z)
{
	double s = XS_SIN(0.5 * z.im);

	if (z.im == 0)
		return xs_cplx_of(XS_EXPM1(z.re), z.im);
	return xs_cplx_of(XS_EXPM1(z.re) * XS_COS(z.im) - 2 * s * s, XS_EXP(z.re) * XS_SIN(z.im));
}

static inline XRT_SCALAR_DEVICE struct xs_cplx xs_clog(struct xs_cplx z)
{
	return xs_cplx_of(XS_LOG(xs_hypot(z.re, z.im)), XS_ATAN2(z.im, z.re));
}

/* log(1 + z): |1 + z|^2 = 1 + (2a + a^2 + b^2), kept for log1p. */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_clog1p(struct xs_cplx z)
{
	double a = z.re, b = z.im, m = a * (2 + a) + b * b;

	if (xs_fabs(m) > 0.5 || xs_is_inf(m))
		return xs_cplx_of(XS_LOG(xs_hypot(1 + a, b)), XS_ATAN2(b, 1 + a));
	return xs_cplx_of(0.5 * XS_LOG1P(m), XS_ATAN2(b, 1 + a));
}

static inline XRT_SCALAR_DEVICE struct xs_cplx xs_csqrt(struct xs_cplx z)
{
	double a = z.re, b = z.im, t;

	if (xs_is_inf(b))
		return xs_cplx_of(xs_bits_f64(0x7ff0000000000000ull), b);
	if (xs_is_nan(a) || xs_is_nan(b))
		return xs_cplx_of(a + b, a + b);
	if (a == 0 && b == 0)
		return xs_cplx_of(0, b);
	if (xs_is_inf(a))
		return a > 0 ? xs_cplx_of(a, xs_copysign(0, b)) : xs_cplx_of(0, xs_copysign(-a, b));
	/* halve first so |z| does not overflow for huge parts */
	t = XS_SQRT(0.5 * (xs_fabs(0.5 * a) + xs_hypot(0.5 * a, 0.5 * b))) *
	    1.4142135623730951;
	if (a >= 0)
		return xs_cplx_of(t, b / (2 * t));
	return xs_cplx_of(xs_fabs(b) / (2 * t), xs_copysign(t, b));
}

/*
 * Where Smith's quotient @nan is NaN in both parts, C99's Annex G (and XLA):
 * a zero divisor gives infinities signed as the dividend over the
 * divisor's real sign, an infinite dividend over a finite divisor
 * infinities, a finite dividend over an infinite divisor zeros.
 */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cdiv_special(struct xs_cplx a, struct xs_cplx b,
							       struct xs_cplx nan)
{
	double inf = xs_bits_f64(0x7ff0000000000000ull), ar, ai, br, bi;

	if (b.re == 0 && b.im == 0 && (!xs_is_nan(a.re) || !xs_is_nan(a.im)))
		return xs_cplx_of(xs_copysign(inf, b.re) * a.re, xs_copysign(inf, b.re) * a.im);
	if ((xs_is_inf(a.re) || xs_is_inf(a.im)) && !xs_is_inf(b.re) && !xs_is_nan(b.re) &&
	    !xs_is_inf(b.im) && !xs_is_nan(b.im)) {
		ar = xs_copysign(xs_is_inf(a.re) ? 1 : 0, a.re);
		ai = xs_copysign(xs_is_inf(a.im) ? 1 : 0, a.im);
		return xs_cplx_of(inf * (ar * b.re + ai * b.im), inf * (ai * b.re - ar * b.im));
	}
	if ((xs_is_inf(b.re) || xs_is_inf(b.im)) && !xs_is_inf(a.re) && !xs_is_nan(a.re) &&
	    !xs_is_inf(a.im) && !xs_is_nan(a.im)) {
		br = xs_copysign(xs_is_inf(b.re) ? 1 : 0, b.re);
		bi = xs_copysign(xs_is_inf(b.im) ? 1 : 0, b.im);
		return xs_cplx_of(0 * (a.re * br + a.im * bi), 0 * (a.im * br - a.re * bi));
	}
	return nan;
}

/* Smith's division: no overflow for large operands. */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cdiv(struct xs_cplx a, struct xs_cplx b)
{
	struct xs_cplx r;
	double t, den;

	if (xs_fabs(b.re) >= xs_fabs(b.im)) {
		t = b.im / b.re;
		den = b.re + b.im * t;
		r = xs_cplx_of((a.re + a.im * t) / den, (a.im - a.re * t) / den);
	} else {
		t = b.re / b.im;
		den = b.re * t + b.im;
		r = xs_cplx_of((a.re * t + a.im) / den, (a.im * t - a.re) / den);
	}
	if (xs_is_nan(r.re) && xs_is_nan(r.im))
		return xs_cdiv_special(a, b, r);
	return r;
}

/* Kahan: tanh(a + bi) = (beta rho s + i t) / (1 + beta s^2), t = tan b. */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_ctanh(struct xs_cplx z)
{
	double t, beta, s, c, rho, den;

	if (xs_fabs(z.re) > 22) {	/* |tanh| is 1 to double precision */
		double e = XS_EXP(-2 * xs_fabs(z.re));

		return xs_cplx_of(xs_copysign(1, z.re), 4 * XS_SIN(z.im) * XS_COS(z.im) * e);
	}
	if (z.im == 0)
		return xs_cplx_of(XS_TANH(z.re), z.im);
	t = XS_TAN(z.im);
	beta = 1 + t * t;
	xs_sinh_cosh(z.re, &s, &c);
	rho = XS_SQRT(1 + s * s);
	den = 1 + beta * s * s;
	return xs_cplx_of(beta * rho * s / den, t / den);
}

static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cmath(u32 fn, struct xs_cplx z)
{
	struct xs_cplx r;
	double s, c;

	switch (fn) {
	case XRT_CS_UN_EXP:
		return xs_cexp(z);
	case XRT_CS_UN_EXPM1:
		return xs_cexpm1(z);
	case XRT_CS_UN_LOG:
		return xs_clog(z);
	case XRT_CS_UN_LOG1P:
		return xs_clog1p(z);
	case XRT_CS_UN_SQRT:
		return xs_csqrt(z);
	case XRT_CS_UN_RSQRT:
		return xs_cdiv(xs_cplx_of(1, 0), xs_csqrt(z));
	case XRT_CS_UN_TANH:
		return xs_ctanh(z);
	case XRT_CS_UN_SIN:	/* sin a cosh b + i cos a sinh b */
		xs_sinh_cosh(z.im, &s, &c);
		return xs_cplx_of(XS_SIN(z.re) * c, XS_COS(z.re) * s);
	case XRT_CS_UN_COS:	/* cos a cosh b - i sin a sinh b */
		xs_sinh_cosh(z.im, &s, &c);
		return xs_cplx_of(XS_COS(z.re) * c, -(XS_SIN(z.re) * s));
	default:		/* tan z = -i tanh(iz) */
		r = xs_ctanh(xs_cplx_of(-z.im, z.re));
		return xs_cplx_of(r.im, -r.re);
	}
}

/*
 * x^y as XLA computes it: |x|^c exp(-d arg x) (cos q + i sin q), q = c arg x
 * + d log|x|, for y = c + di; then, each overriding the one before, 0^c is
 * 0 for c > 0 (1 for c = 0), x^0 is 1, 1^y is 1, and inf^c is inf for
 * c > 0, 0 for c < 0 (all with d = 0, the last two with x real).
 */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cpow(struct xs_cplx x, struct xs_cplx y)
{
	double inf = xs_bits_f64(0x7ff0000000000000ull), c = y.re, d = y.im;
	double m = xs_hypot(x.re, x.im), arg = XS_ATAN2(x.im, x.re), coeff, q;
	int real_inf = x.re == inf && x.im == 0 && d == 0;

	if (real_inf && c != 0)
		return c > 0 ? xs_cplx_of(inf, 0) : xs_cplx_of(0, 0);
	if ((x.re == 1 && x.im == 0) || (c == 0 && d == 0))
		return xs_cplx_of(1, 0);
	if (m == 0 && d == 0 && c >= 0)
		return xs_cplx_of(0, 0);
	coeff = XS_POW(m, c) * XS_EXP(-d * arg);
	q = c * arg + d * XS_LOG(m);
	return xs_cplx_of(coeff * XS_COS(q), coeff * XS_SIN(q));
}

/* The complex unary instructions with complex results (XRT_CS_UN_*; not ABS, REAL, IMAG). */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cunary(u32 fn, struct xs_cplx a)
{
	double m;

	switch (fn) {
	case XRT_CS_UN_NEG:
		return xs_cplx_of(-a.re, -a.im);
	case XRT_CS_UN_SIGN:
		m = xs_hypot(a.re, a.im);
		if (m == 0)
			return a;
		if (m != m)
			return xs_cplx_of(m, m);
		return xs_cplx_of(a.re / m, a.im / m);
	default:
		return xs_cmath(fn, a);
	}
}

/*
 * atan2(y, x) of complex numbers as XLA defines it: -i log((x + iy) /
 * sqrt(x^2 + y^2)), NaN where x^2 + y^2 is 0.
 */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_catan2(struct xs_cplx y, struct xs_cplx x)
{
	struct xs_cplx s, l;

	s = xs_csqrt(xs_cplx_of(x.re * x.re - x.im * x.im + (y.re * y.re - y.im * y.im),
				2 * x.re * x.im + 2 * y.re * y.im));
	l = xs_clog(xs_cdiv(xs_cplx_of(x.re - y.im, x.im + y.re), s));
	return xs_cplx_of(l.im, -l.re);
}

/* A complex binary instruction: ADD, SUB, MUL (no fused multiply-add), DIV, POW, ATAN2. */
static inline XRT_SCALAR_DEVICE struct xs_cplx xs_cbinary(u32 fn, struct xs_cplx a,
							  struct xs_cplx b)
{
	switch (fn) {
	case XRT_CS_BIN_ADD:
		return xs_cplx_of(a.re + b.re, a.im + b.im);
	case XRT_CS_BIN_SUB:
		return xs_cplx_of(a.re - b.re, a.im - b.im);
	case XRT_CS_BIN_MUL:
		return xs_cplx_of(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
	case XRT_CS_BIN_POW:
		return xs_cpow(a, b);
	case XRT_CS_BIN_ATAN2:
		return xs_catan2(a, b);
	default:
		return xs_cdiv(a, b);
	}
}

#endif /* XRT_ENGINE_SCALAR_COMPLEX_H */
