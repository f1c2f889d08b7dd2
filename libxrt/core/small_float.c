// SPDX-License-Identifier: MIT
/*
 * The 8-bit and 4-bit floats (f8e5m2 ... f4e2m1fn): codes to values and
 * values to codes, in double arithmetic.  Written from the formats'
 * definitions (OCP's MX and FP8 specifications, and ml_dtypes' rules for
 * what has no code); the engine has its own bit-level version
 * (driver/engine/small_float.c), and both are checked against
 * ml_dtypes' tables (selftests/libxrt/test_small_float.c).
 */
#include <math.h>

#include <xrt/dtype.h>

enum sf_kind {
	SF_IEEE,	/* the top exponent holds infinities and NaNs */
	SF_FN,		/* no infinities; all magnitude bits set is NaN */
	SF_FNUZ,	/* no infinities, no -0; 0x80 is NaN */
	SF_FINITE,	/* neither: every code is a number */
	SF_E8M0,	/* unsigned powers of two; 0xff is NaN */
};

struct sf_format {
	unsigned char ebits, mbits, kind;
	int bias;
};

static const struct sf_format formats[] = {
	[XRT_F8E5M2 - XRT_F8E5M2] = { 5, 2, SF_IEEE, 15 },
	[XRT_F8E4M3FN - XRT_F8E5M2] = { 4, 3, SF_FN, 7 },
	[XRT_F8E4M3B11FNUZ - XRT_F8E5M2] = { 4, 3, SF_FNUZ, 11 },
	[XRT_F8E5M2FNUZ - XRT_F8E5M2] = { 5, 2, SF_FNUZ, 16 },
	[XRT_F8E4M3FNUZ - XRT_F8E5M2] = { 4, 3, SF_FNUZ, 8 },
	[XRT_F8E4M3 - XRT_F8E5M2] = { 4, 3, SF_IEEE, 7 },
	[XRT_F8E3M4 - XRT_F8E5M2] = { 3, 4, SF_IEEE, 3 },
	[XRT_F8E8M0FNU - XRT_F8E5M2] = { 8, 0, SF_E8M0, 127 },
	[XRT_F4E2M1FN - XRT_F8E5M2] = { 2, 1, SF_FINITE, 1 },
};

static const struct sf_format *format_of(enum xrt_dtype t)
{
	return xrt_dtype_is_small_float(t) ? &formats[t - XRT_F8E5M2] : NULL;
}

/* The largest finite value, and its code. */
static double max_value(const struct sf_format *f, unsigned int *code)
{
	unsigned int emask = (1u << f->ebits) - 1, mmask = (1u << f->mbits) - 1;
	unsigned int e = f->kind == SF_IEEE ? emask - 1 : emask;
	unsigned int m = f->kind == SF_FN ? mmask - 1 : mmask;

	*code = e << f->mbits | m;
	return ldexp(1.0 + (double)m / (1u << f->mbits), (int)e - f->bias);
}

static uint8_t nan_code(const struct sf_format *f, bool neg)
{
	unsigned int sign = neg ? 1u << (f->ebits + f->mbits) : 0;

	switch (f->kind) {
	case SF_IEEE:
		return (uint8_t)(sign | ((1u << f->ebits) - 1) << f->mbits | 1u << (f->mbits - 1));
	case SF_FN:
		return (uint8_t)(sign | ((1u << (f->ebits + f->mbits)) - 1));
	case SF_FINITE:	/* no NaN: ml_dtypes gives the zero of the other sign */
		return neg ? 0 : (uint8_t)(1u << (f->ebits + f->mbits));
	default:
		return f->kind == SF_E8M0 ? 0xff : 0x80;
	}
}

static uint8_t e8m0_from(double x)
{
	int e;
	double r;

	if (!(x > 0) || isinf(x))	/* 0, negatives, infinity and NaN */
		return 0xff;
	r = 2 * frexp(x, &e);	/* x = r 2^(e-1), r in [1, 2) */
	e = e - 1 + (r >= 1.5);	/* ties to the even code: the larger power */
	if (e + 127 > 254)
		return 0xff;
	return (uint8_t)(e + 127 < 0 ? 0 : e + 127);	/* no zero: the least */
}

/* The code of @v, a value of the format's grid in range, nonnegative. */
static unsigned int magnitude_code(const struct sf_format *f, double v)
{
	int emin = 1 - f->bias, e;

	if (v == 0)
		return 0;
	frexp(v, &e);
	e -= 1;
	if (e < emin)	/* subnormal: exponent field 0 */
		return (unsigned int)ldexp(v, f->mbits - emin);
	return (unsigned int)(e + f->bias) << f->mbits |
	       (unsigned int)((ldexp(v, -e) - 1) * (1u << f->mbits));
}

uint8_t xrt_small_float_from_f64(enum xrt_dtype t, double x)
{
	const struct sf_format *f = format_of(t);
	unsigned int sign, maxc;
	double a, q, v, maxv;
	int e;

	if (!f)
		return 0;
	if (f->kind == SF_E8M0)
		return e8m0_from(x);
	if (isnan(x))
		return nan_code(f, signbit(x));
	sign = signbit(x) ? 1u << (f->ebits + f->mbits) : 0;
	a = fabs(x);
	maxv = max_value(f, &maxc);
	if (isinf(a))
		v = INFINITY;
	else {
		frexp(a, &e);
		e = a == 0 || e - 1 < 1 - f->bias ? 1 - f->bias : e - 1;
		q = ldexp(1.0, e - f->mbits);	/* the spacing at a */
		v = nearbyint(a / q) * q;	/* ties to even: the default mode */
	}
	if (v > maxv) {
		if (f->kind == SF_IEEE)
			return (uint8_t)(sign | ((1u << f->ebits) - 1) << f->mbits);
		if (f->kind == SF_FINITE)
			return (uint8_t)(sign | maxc);
		return nan_code(f, sign);
	}
	if (v == 0 && f->kind == SF_FNUZ)
		return 0;
	return (uint8_t)(sign | magnitude_code(f, v));
}

double xrt_small_float_to_f64(enum xrt_dtype t, uint8_t code)
{
	const struct sf_format *f = format_of(t);
	unsigned int emask, mmask, e, m, bits;
	double v;

	if (!f)
		return 0;
	if (f->kind == SF_E8M0)
		return code == 0xff ? NAN : ldexp(1.0, code - 127);
	bits = f->ebits + f->mbits;
	code &= (uint8_t)((2u << bits) - 1);
	emask = (1u << f->ebits) - 1;
	mmask = (1u << f->mbits) - 1;
	e = code >> f->mbits & emask;
	m = code & mmask;
	if (f->kind == SF_FNUZ && code == 0x80)
		return NAN;
	if ((f->kind == SF_IEEE && e == emask && m) ||
	    (f->kind == SF_FN && e == emask && m == mmask))
		v = NAN;
	else if (f->kind == SF_IEEE && e == emask)
		v = INFINITY;
	else if (e)
		v = ldexp(1.0 + (double)m / (1u << f->mbits), (int)e - f->bias);
	else
		v = ldexp((double)m, 1 - f->bias - f->mbits);
	return code >> bits ? -v : v;
}
