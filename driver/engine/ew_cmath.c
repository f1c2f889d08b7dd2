// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Complex elementary functions, from the real ones of emath.c, in
 * double.  The formulas are the textbook ones arranged to avoid
 * cancellation where it matters: expm1 and log1p keep their small-
 * argument accuracy, tanh uses Kahan's form (no overflow of cosh), sqrt
 * picks the stable branch of (|z| + |re|) / 2.
 */
#include "emath.h"
#include "ew.h"

static double fabs_d(double x)
{
	return x < 0 ? -x : x;
}

static double copysign_d(double x, double s)
{
	return em_from_bits((em_bits(x) & ~(1ull << 63)) | (em_bits(s) & (1ull << 63)));
}

static int isnan_d(double x)
{
	return x != x;
}

static int isinf_d(double x)
{
	return x - x != 0 && !isnan_d(x);
}

double ew_hypot(double a, double b)
{
	double x = fabs_d(a), y = fabs_d(b), t;

	if (isinf_d(x) || isinf_d(y))
		return (double)__builtin_inf();
	if (isnan_d(x) || isnan_d(y))
		return x + y;
	if (x < y) {
		t = x;
		x = y;
		y = t;
	}
	if (x == 0)
		return 0;
	t = y / x;
	return x * __builtin_sqrt(1 + t * t);
}

/* sinh and cosh of a real, without cancellation near 0. */
static void sinh_cosh(double x, double *s, double *c)
{
	double e = em_expm1(fabs_d(x)), ex = e + 1;

	*s = copysign_d(0.5 * (e + e / ex), x);
	*c = 0.5 * (ex + 1 / ex);
	if (isinf_d(ex)) {	/* e / ex is inf / inf */
		*s = copysign_d(ex, x);
		*c = ex;
	}
}

static struct ew_cplx mk(double re, double im)
{
	struct ew_cplx r = { re, im };

	return r;
}

static struct ew_cplx cexp_d(struct ew_cplx z)
{
	double e;

	if (z.im == 0)	/* exact real results keep their zero imaginary part */
		return mk(em_exp(z.re), z.im);
	e = em_exp(z.re);
	return mk(e * em_cos(z.im), e * em_sin(z.im));
}

/* exp(z) - 1 = expm1(a) cos b - 2 sin^2(b/2) + i exp(a) sin b */
static struct ew_cplx cexpm1_d(struct ew_cplx z)
{
	double s = em_sin(0.5 * z.im);

	if (z.im == 0)
		return mk(em_expm1(z.re), z.im);
	return mk(em_expm1(z.re) * em_cos(z.im) - 2 * s * s, em_exp(z.re) * em_sin(z.im));
}

static struct ew_cplx clog_d(struct ew_cplx z)
{
	return mk(em_log(ew_hypot(z.re, z.im)), em_atan2(z.im, z.re));
}

/* log(1 + z): |1 + z|^2 = 1 + (2a + a^2 + b^2), kept for log1p. */
static struct ew_cplx clog1p_d(struct ew_cplx z)
{
	double a = z.re, b = z.im, m = a * (2 + a) + b * b;

	if (fabs_d(m) > 0.5 || isinf_d(m))
		return mk(em_log(ew_hypot(1 + a, b)), em_atan2(b, 1 + a));
	return mk(0.5 * em_log1p(m), em_atan2(b, 1 + a));
}

static struct ew_cplx csqrt_d(struct ew_cplx z)
{
	double a = z.re, b = z.im, t;

	if (isinf_d(b))
		return mk((double)__builtin_inf(), b);
	if (isnan_d(a) || isnan_d(b))
		return mk(a + b, a + b);
	if (a == 0 && b == 0)
		return mk(0, b);
	if (isinf_d(a))
		return a > 0 ? mk(a, copysign_d(0, b)) : mk(0, copysign_d(-a, b));
	/* halve first so |z| does not overflow for huge parts */
	t = __builtin_sqrt(0.5 * (fabs_d(0.5 * a) + ew_hypot(0.5 * a, 0.5 * b))) *
	    1.4142135623730951;
	if (a >= 0)
		return mk(t, b / (2 * t));
	return mk(fabs_d(b) / (2 * t), copysign_d(t, b));
}

/* Smith's division: no overflow for large operands. */
struct ew_cplx ew_cdiv(struct ew_cplx a, struct ew_cplx b)
{
	double t, den;

	if (fabs_d(b.re) >= fabs_d(b.im)) {
		t = b.im / b.re;
		den = b.re + b.im * t;
		return mk((a.re + a.im * t) / den, (a.im - a.re * t) / den);
	}
	t = b.re / b.im;
	den = b.re * t + b.im;
	return mk((a.re * t + a.im) / den, (a.im * t - a.re) / den);
}

/* Kahan: tanh(a + bi) = (beta rho s + i t) / (1 + beta s^2), t = tan b. */
static struct ew_cplx ctanh_d(struct ew_cplx z)
{
	double t, beta, s, c, rho, den;

	if (fabs_d(z.re) > 22) {	/* |tanh| is 1 to double precision */
		double e = em_exp(-2 * fabs_d(z.re));

		return mk(copysign_d(1, z.re), 4 * em_sin(z.im) * em_cos(z.im) * e);
	}
	if (z.im == 0)
		return mk(em_tanh(z.re), z.im);
	t = em_tan(z.im);
	beta = 1 + t * t;
	sinh_cosh(z.re, &s, &c);
	rho = __builtin_sqrt(1 + s * s);
	den = 1 + beta * s * s;
	return mk(beta * rho * s / den, t / den);
}

struct ew_cplx ew_cmath(u32 fn, struct ew_cplx z)
{
	struct ew_cplx r;
	double s, c;

	switch (fn) {
	case XRT_CS_UN_EXP:
		return cexp_d(z);
	case XRT_CS_UN_EXPM1:
		return cexpm1_d(z);
	case XRT_CS_UN_LOG:
		return clog_d(z);
	case XRT_CS_UN_LOG1P:
		return clog1p_d(z);
	case XRT_CS_UN_SQRT:
		return csqrt_d(z);
	case XRT_CS_UN_RSQRT:
		return ew_cdiv(mk(1, 0), csqrt_d(z));
	case XRT_CS_UN_TANH:
		return ctanh_d(z);
	case XRT_CS_UN_SIN:	/* sin a cosh b + i cos a sinh b */
		sinh_cosh(z.im, &s, &c);
		return mk(em_sin(z.re) * c, em_cos(z.re) * s);
	case XRT_CS_UN_COS:	/* cos a cosh b - i sin a sinh b */
		sinh_cosh(z.im, &s, &c);
		return mk(em_cos(z.re) * c, -(em_sin(z.re) * s));
	default:		/* tan z = -i tanh(iz) */
		r = ctanh_d(mk(-z.im, z.re));
		return mk(r.im, -r.re);
	}
}

/* x^y = exp(y log x); 0^0 is 1 and 0^y is 0 for Re y > 0. */
struct ew_cplx ew_cpow(struct ew_cplx x, struct ew_cplx y)
{
	struct ew_cplx l;

	if (x.re == 0 && x.im == 0) {
		if (y.re == 0 && y.im == 0)
			return mk(1, 0);
		if (y.re > 0)
			return mk(0, 0);
	}
	l = clog_d(x);
	return cexp_d(mk(y.re * l.re - y.im * l.im, y.re * l.im + y.im * l.re));
}
