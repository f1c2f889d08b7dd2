// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Freestanding math for the engine: no libm in the kernel, and the same
 * bits everywhere.  Double precision throughout; f32 (and f16/bf16)
 * results are these rounded once, so they are nearly always correctly
 * rounded.  The error bounds in Documentation/command-stream.rst are
 * measured by selftests/engine/test_engine_math.c against glibc.
 *
 * The methods are the classical ones: Cody-Waite reduction by ln 2 and
 * pi/2 with split constants, Taylor polynomials on the reduced ranges,
 * atanh series for log, argument halving for atan, series and continued
 * fractions for erf, Newton for cbrt, double-double log and exp for
 * pow.  Multiplies and adds are never fused.
 */
#include "emath.h"

static void two_prod(double a, double b, double *hi, double *lo);

static int isnan_d(double x)
{
	return x != x;
}

static double fabs_d(double x)
{
	return xs_bits_f64(xs_f64_bits(x) & ~(1ull << 63));
}

/* 2^k for -1022 <= k <= 1023. */
static double pow2(int k)
{
	return xs_bits_f64((u64)(k + 1023) << 52);
}

/*
 * x * 2^k for x in [1, 2] and -1076 <= k <= 1024, rounding once (into
 * the subnormals when the result is that small).
 */
static double scale(double x, int k)
{
	if (k > 1023)
		return x * pow2(1023) * pow2(k - 1023);
	if (k < -1022) {
		if (k + 54 < -1022)
			return x * 0.0;
		return x * pow2(k + 54) * pow2(-54);	/* the first product is exact */
	}
	return x * pow2(k);
}

/* Nearest integer of x as double (|x| < 2^51). */
static double round_half_away(double x)
{
	return (double)(s64)(x < 0 ? x - 0.5 : x + 0.5);
}

#define LN2_HI	0.693147180369123816490	/* ln 2, 33 bits */
#define LN2_LO	0.000000000190821492927058770002	/* ln 2 - LN2_HI */
#define INV_LN2	1.44269504088896338700
#define LN2_DD_HI 0.693147180559945286227	/* ln 2 rounded to double */
#define LN2_DD_LO 0.0000000000000000231904681384629955842	/* ln 2 - LN2_DD_HI */

/* e^r - 1 for |r| <= 0.35, Taylor to degree 14. */
static double expm1_small(double r)
{
	double q = 1.0 / 87178291200.0;	/* 1/14! */

	q = 1.0 / 6227020800.0 + r * q;
	q = 1.0 / 479001600.0 + r * q;
	q = 1.0 / 39916800.0 + r * q;
	q = 1.0 / 3628800.0 + r * q;
	q = 1.0 / 362880.0 + r * q;
	q = 1.0 / 40320.0 + r * q;
	q = 1.0 / 5040.0 + r * q;
	q = 1.0 / 720.0 + r * q;
	q = 1.0 / 120.0 + r * q;
	q = 1.0 / 24.0 + r * q;
	q = 1.0 / 6.0 + r * q;
	q = 0.5 + r * q;
	return r + r * r * q;
}

/* e^(hi + lo) for a reduced exponent: splits k off, returns e^r, *k. */
static double exp_reduce(double x, double lo, int *k)
{
	double kd = round_half_away(x * INV_LN2);
	double r = (x - kd * LN2_HI) - kd * LN2_LO + lo;

	*k = (int)kd;
	return r;
}

double em_exp(double x)
{
	int k;
	double r;

	if (isnan_d(x))
		return x + x;
	if (x > 709.782712893384)
		return xs_bits_f64(0x7ff0000000000000ull);
	if (x < -745.1332191019412)
		return 0.0;
	r = exp_reduce(x, 0, &k);
	return scale(1.0 + expm1_small(r), k);
}

double em_expm1(double x)
{
	double r, em, t;
	int k;

	if (isnan_d(x))
		return x + x;
	if (fabs_d(x) < 0.34657359027997264)
		return expm1_small(x);
	if (x > 709.782712893384)
		return xs_bits_f64(0x7ff0000000000000ull);
	if (x < -40)
		return -1.0;
	r = exp_reduce(x, 0, &k);
	em = expm1_small(r);
	if (k > 1020)
		return scale(em + 1.0, k);
	t = pow2(k);
	return t * em + (t - 1.0);	/* t - 1 is exact for |k| <= 53 */
}

/*
 * log(2^k (1 + f)) + c, with |f| <= 0.4143 and c a small correction:
 * log(1 + f) = 2 atanh(s), s = f / (2 + f), written so that the big
 * terms are exact.
 */
static double log_fk(double f, int k, double c)
{
	double s = f / (2.0 + f), z = s * s, hfsq = 0.5 * f * f, r;

	r = 2.0 / 23;
	r = 2.0 / 21 + z * r;
	r = 2.0 / 19 + z * r;
	r = 2.0 / 17 + z * r;
	r = 2.0 / 15 + z * r;
	r = 2.0 / 13 + z * r;
	r = 2.0 / 11 + z * r;
	r = 2.0 / 9 + z * r;
	r = 2.0 / 7 + z * r;
	r = 2.0 / 5 + z * r;
	r = 2.0 / 3 + z * r;
	r = z * r;
	return k * LN2_HI - ((hfsq - (s * (hfsq + r) + (k * LN2_LO + c))) - f);
}

/* Splits x > 0 (finite) into 2^k * m, m in [sqrt(2)/2, sqrt(2)). */
static double split_log(double x, int *k)
{
	u64 b = xs_f64_bits(x);
	int e;

	*k = 0;
	if (b < (1ull << 52)) {		/* subnormal */
		x *= pow2(54);
		b = xs_f64_bits(x);
		*k = -54;
	}
	e = (int)(b >> 52) - 1023;
	b = (b & ((1ull << 52) - 1)) | (1023ull << 52);	/* m in [1, 2) */
	if (b > 0x3ff6a09e667f3bcdull) {	/* m > sqrt(2) */
		b -= 1ull << 52;
		e++;
	}
	*k += e;
	return xs_bits_f64(b);
}

double em_log(double x)
{
	int k;
	double m;

	if (isnan_d(x) || x < 0)
		return (x - x) / (x - x);	/* NaN */
	if (x == 0)
		return -xs_bits_f64(0x7ff0000000000000ull);
	if (xs_f64_bits(x) == 0x7ff0000000000000ull)
		return x;
	m = split_log(x, &k);
	return log_fk(m - 1.0, k, 0);
}

double em_log1p(double x)
{
	double u, m, c;
	int k;

	if (isnan_d(x) || x < -1)
		return (x - x) / (x - x);
	if (x == -1)
		return -xs_bits_f64(0x7ff0000000000000ull);
	if (xs_f64_bits(x) == 0x7ff0000000000000ull)
		return x;
	if (x > -0.2928932188134524 && x < 0.41421356237309503)
		return log_fk(x, 0, 0);
	/* u = 1 + x rounds; c is what the rounding lost, relative to u. */
	u = 1.0 + x;
	c = u < 9007199254740992.0 ? (u >= 2 ? 1.0 - (u - x) : x - (u - 1.0)) / u : 0;
	m = split_log(u, &k);
	return log_fk(m - 1.0, k, c);
}

double em_tanh(double x)
{
	double ax = fabs_d(x), t, z;

	if (isnan_d(x))
		return x + x;
	if (ax > 22)
		return x > 0 ? 1.0 : -1.0;
	if (ax < 0.000000003725290298461914)	/* 2^-28 */
		return x;
	if (ax >= 1) {
		t = em_expm1(2 * ax);
		z = 1.0 - 2.0 / (t + 2.0);
	} else {
		t = em_expm1(-2 * ax);
		z = -t / (t + 2.0);
	}
	return x > 0 ? z : -z;
}

double em_logistic(double x)
{
	double e;

	if (isnan_d(x))
		return x + x;
	if (x >= 0)
		return 1.0 / (1.0 + em_exp(-x));
	e = em_exp(x);
	return e / (1.0 + e);
}

/* Exact product a * b = hi + lo (Dekker; no FMA). */
static void two_prod(double a, double b, double *hi, double *lo)
{
	const double split = 134217729.0;	/* 2^27 + 1 */
	double t, ah, al, bh, bl;

	*hi = a * b;
	t = split * a;
	ah = t - (t - a);
	al = a - ah;
	t = split * b;
	bh = t - (t - b);
	bl = b - bh;
	*lo = ((ah * bh - *hi) + ah * bl + al * bh) + al * bl;
}

/* exp(-x^2) with x^2 taken exactly as hi + lo. */
static double exp_neg_sq(double x)
{
	double hi, lo;

	two_prod(x, x, &hi, &lo);
	return em_exp(-hi) * (1.0 - lo);
}

#define TWO_OVER_SQRT_PI 1.12837916709551257390
#define ONE_OVER_SQRT_PI 0.564189583547756286948

double em_erf(double x)
{
	double ax = fabs_d(x), sum, x2, t, r;
	int n;

	if (isnan_d(x))
		return x + x;
	if (ax < xs_bits_f64(0x1a56e1fc2f8f359ull))	/* 1e-300 */
		return x * TWO_OVER_SQRT_PI;
	if (ax < 1) {
		/* 2/sqrt(pi) x sum (-1)^n x^2n / (n! (2n+1)), by Horner. */
		static const double fact[] = {
			1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0,
			362880.0, 3628800.0, 39916800.0, 479001600.0, 6227020800.0,
			87178291200.0, 1307674368000.0, 20922789888000.0,
			355687428096000.0, 6402373705728000.0, 121645100408832000.0,
		};

		x2 = ax * ax;
		sum = 0;
		for (n = 19; n >= 1; n--)
			sum = (n & 1 ? -1.0 : 1.0) / (fact[n] * (2 * n + 1)) + x2 * sum;
		r = TWO_OVER_SQRT_PI * (ax + ax * x2 * sum);
	} else if (ax < 6) {
		/* erfc x = e^(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + ...))) */
		t = ax;
		for (n = ax < 2 ? 240 : 80; n >= 1; n--)
			t = ax + (n * 0.5) / t;
		r = 1.0 - ONE_OVER_SQRT_PI * exp_neg_sq(ax) / t;
	} else {
		r = 1.0;
	}
	return x < 0 ? -r : r;
}

/* pi/2 in three pieces of 33 bits, and the tails of each (fdlibm's). */
#define PIO2_1	1.57079632673412561417
#define PIO2_1T	0.0000000000607710050650619224932
#define PIO2_2	0.0000000000607710050630396597660
#define PIO2_2T	0.00000000000000000000202226624879595063154
#define PIO2_3	0.00000000000000000000202226624871116645580
#define PIO2_3T	0.0000000000000000000000000000000847842766036889956997
#define INV_PIO2 0.636619772367581382433

/* 2/pi in binary, 32 bits a word, from the first bit after the point. */
static const u32 two_over_pi[42] = {
	0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041,
	0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
	0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
	0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
	0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d,
	0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
	0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d, 0xa9e39161, 0x5ee61b08,
};

/* Word @i of the table (bits 32i+1 .. 32i+32); 0 before it. */
static u32 tpi_word(int i)
{
	return i >= 0 && i < 42 ? two_over_pi[i] : 0;
}

/* Bits [lo, lo + 64) of the 256-bit number @p (little-endian words). */
static u64 bits64(const u32 *p, int lo)
{
	int w = lo >> 5, sh = lo & 31;
	u64 a = (u64)p[w] | ((u64)p[w + 1] << 32);

	return sh ? (a >> sh) | ((u64)p[w + 2] << (64 - sh)) : a;
}

/*
 * Payne-Hanek: for x = m 2^e, the bits of 2/pi that make multiples of 4
 * are skipped, 192 are multiplied by m exactly, and the whole fraction
 * (190 bits) is kept, so that even the closest a double comes to a
 * multiple of pi/2 (about 2^-61) keeps more than 106 significant bits.
 */
static int rem_pio2_large(double x, double *y0, double *y1)
{
	u64 b = xs_f64_bits(x), m = (b & ((1ull << 52) - 1)) | (1ull << 52);
	u64 hi, lo, carry = 0, f[3];
	int e = (int)((b >> 52) & 0x7ff) - 1075, i0 = e - 1, w0, sh, k, n, lz;
	u32 w[6], p[9] = { 0 };
	double fa, fb, ph, pl, t;

	/* the window: bits i0 .. i0 + 191 of 2/pi, least significant word first */
	w0 = (i0 - 1) >> 5;
	sh = (i0 - 1) & 31;
	for (k = 0; k < 6; k++) {
		u32 a = tpi_word(w0 + 5 - k), c = tpi_word(w0 + 6 - k);

		w[k] = sh ? (a << sh) | (c >> (32 - sh)) : a;
	}
	for (k = 0; k < 6; k++) {
		u64 v = (u64)w[k] * (m & 0xffffffff) + carry;

		p[k] = (u32)v;
		carry = v >> 32;
	}
	p[6] = (u32)carry;
	carry = 0;
	for (k = 0; k < 6; k++) {
		u64 v = (u64)w[k] * (m >> 32) + p[k + 1] + carry;

		p[k + 1] = (u32)v;
		carry = v >> 32;
	}
	p[7] = (u32)carry;
	/* x 2/pi = P 2^-190: bits 190-191 are n mod 4, bits below the fraction */
	n = (int)(p[5] >> 30);
	f[2] = bits64(p, 126);
	f[1] = bits64(p, 62);
	f[0] = bits64(p, 0) << 2;	/* the fraction's 190 bits, shifted to 192 */
	if (f[2] >> 63) {	/* fraction >= 1/2: round n up, take 1 - fraction */
		n++;
		f[0] = ~f[0] + 1;
		f[1] = ~f[1] + (f[0] == 0);
		f[2] = ~f[2] + (f[0] == 0 && f[1] == 0);
		x = -x;
	}
	for (lz = 0; lz < 192 && !(f[2] >> 63); lz++) {	/* normalize */
		f[2] = (f[2] << 1) | (f[1] >> 63);
		f[1] = (f[1] << 1) | (f[0] >> 63);
		f[0] <<= 1;
	}
	if (lz == 192) {
		*y0 = *y1 = 0;
		return n & 3;
	}
	hi = f[2];
	lo = f[1];
	fa = (double)(hi >> 11) * xs_bits_f64((u64)(1023 - 53 - lz) << 52);
	fb = (double)(((hi & 0x7ff) << 42) | (lo >> 22)) *
	     xs_bits_f64((u64)(1023 - 106 - lz) << 52);
	/* (fa + fb) pi/2, pi/2 as 1.5707963267948966 + 0.00000000000000006123233995736766 */
	two_prod(fa, 1.5707963267948966, &ph, &pl);
	pl += fa * 0.00000000000000006123233995736766 + fb * 1.5707963267948966;
	t = ph + pl;
	*y1 = pl - (t - ph);
	*y0 = t;
	if (x < 0) {	/* negative input, or the fraction's complement */
		*y0 = -*y0;
		*y1 = -*y1;
	}
	return n & 3;
}

/* x = n pi/2 + y0 + y1: Cody-Waite up to 2^20 pi/2, Payne-Hanek beyond. */
static int rem_pio2(double x, double *y0, double *y1)
{
	double fn, r, w, t;
	int ex = (int)((xs_f64_bits(x) >> 52) & 0x7ff), ey, n;

	if (fabs_d(x) < 0.7853981633974483) {
		*y0 = x;
		*y1 = 0;
		return 0;
	}
	if (fabs_d(x) >= 1647099.3291652855) {	/* 2^20 pi/2 */
		if (x > 0)
			return rem_pio2_large(x, y0, y1);
		n = rem_pio2_large(-x, y0, y1);
		*y0 = -*y0;
		*y1 = -*y1;
		return (4 - n) & 3;
	}
	fn = round_half_away(x * INV_PIO2);	/* |n| < 2^20: exact */
	r = x - fn * PIO2_1;
	w = fn * PIO2_1T;
	*y0 = r - w;
	ey = (int)((xs_f64_bits(*y0) >> 52) & 0x7ff);
	if (ex - ey > 16) {	/* cancellation: a second round */
		t = r;
		w = fn * PIO2_2;
		r = t - w;
		w = fn * PIO2_2T - ((t - r) - w);
		*y0 = r - w;
		ey = (int)((xs_f64_bits(*y0) >> 52) & 0x7ff);
		if (ex - ey > 49) {	/* and a third */
			t = r;
			w = fn * PIO2_3;
			r = t - w;
			w = fn * PIO2_3T - ((t - r) - w);
			*y0 = r - w;
		}
	}
	*y1 = (r - *y0) - w;
	return (int)((s64)fn & 3);
}

/* sin(y0 + y1) for |y0| <= pi/4. */
static double sin_kernel(double x, double y)
{
	double z = x * x, v = z * x, p;

	p = -1.0 / 1307674368000.0;	/* -1/15! */
	p = 1.0 / 6227020800.0 + z * p;
	p = -1.0 / 39916800.0 + z * p;
	p = 1.0 / 362880.0 + z * p;
	p = -1.0 / 5040.0 + z * p;
	p = 1.0 / 120.0 + z * p;
	/* x - x^3/6 + x^5 p + y cos x ~ y (1 - x^2/2) */
	return x - ((z * (0.5 * y - v * p) - y) - v * (-1.0 / 6.0));
}

/* cos(y0 + y1) for |y0| <= pi/4. */
static double cos_kernel(double x, double y)
{
	double z = x * x, hz = 0.5 * z, w = 1.0 - hz, c;

	c = 1.0 / 6402373705728000.0;	/* 1/18! */
	c = -1.0 / 20922789888000.0 + z * c;
	c = 1.0 / 87178291200.0 + z * c;
	c = -1.0 / 479001600.0 + z * c;
	c = 1.0 / 3628800.0 + z * c;
	c = -1.0 / 40320.0 + z * c;
	c = 1.0 / 720.0 + z * c;
	c = -1.0 / 24.0 + z * c;
	c = z * z * -c;		/* +x^4/24 - x^6/720 ... */
	return w + (((1.0 - w) - hz) + (c - x * y));
}

double em_sin(double x)
{
	double y0, y1;

	if (isnan_d(x) || xs_f64_bits(fabs_d(x)) == 0x7ff0000000000000ull)
		return (x - x) / (x - x);
	switch (rem_pio2(x, &y0, &y1)) {
	case 0:
		return sin_kernel(y0, y1);
	case 1:
		return cos_kernel(y0, y1);
	case 2:
		return -sin_kernel(y0, y1);
	default:
		return -cos_kernel(y0, y1);
	}
}

double em_cos(double x)
{
	double y0, y1;

	if (isnan_d(x) || xs_f64_bits(fabs_d(x)) == 0x7ff0000000000000ull)
		return (x - x) / (x - x);
	switch (rem_pio2(x, &y0, &y1)) {
	case 0:
		return cos_kernel(y0, y1);
	case 1:
		return -sin_kernel(y0, y1);
	case 2:
		return -cos_kernel(y0, y1);
	default:
		return sin_kernel(y0, y1);
	}
}

double em_tan(double x)
{
	double y0, y1, s, c;

	if (isnan_d(x) || xs_f64_bits(fabs_d(x)) == 0x7ff0000000000000ull)
		return (x - x) / (x - x);
	if (fabs_d(x) < 0.000000003725290298461914)
		return x;
	if (rem_pio2(x, &y0, &y1) & 1) {
		s = cos_kernel(y0, y1);
		c = -sin_kernel(y0, y1);
	} else {
		s = sin_kernel(y0, y1);
		c = cos_kernel(y0, y1);
	}
	return s / c;
}

#define PI_HI	3.14159265358979311600
#define PI_LO	0.000000000000000122464679914735317723
#define PIO2_HI	1.57079632679489655800
#define PIO2_LO	0.0000000000000000612323399573676588613

/*
 * atan(t) for 0 <= t <= 1: above tan(pi/8), halve the angle once
 * (tan(a/2) = t / (1 + sqrt(1 + t^2))); then the Taylor series, whose
 * terms fall below 2^-60 of the first by degree 51.
 */
static double atan_unit(double t)
{
	double u = t, z, p, m = 1.0;
	int n;

	if (t > 0.41421356237309503) {
		u = t / (1.0 + __builtin_sqrt(1.0 + t * t));
		m = 2.0;
	}
	z = u * u;
	p = 0;
	for (n = 53; n >= 3; n -= 2)
		p = (n & 2 ? -1.0 : 1.0) / n + z * p;
	return m * (u + u * z * p);
}

double em_atan2(double y, double x)
{
	double ax = fabs_d(x), ay = fabs_d(y), a;
	int neg_y = (int)(xs_f64_bits(y) >> 63), neg_x = (int)(xs_f64_bits(x) >> 63);
	const double inf = xs_bits_f64(0x7ff0000000000000ull);

	if (isnan_d(x) || isnan_d(y))
		return x + y;
	if (ay == 0) {
		a = neg_x ? PI_HI + PI_LO : 0.0;
	} else if (ax == 0) {
		a = PIO2_HI + PIO2_LO;
	} else if (ax == inf && ay == inf) {
		a = neg_x ? 3 * (PIO2_HI / 2) + 3 * (PIO2_LO / 2) : PIO2_HI / 2 + PIO2_LO / 2;
	} else if (ax == inf) {
		a = neg_x ? PI_HI + PI_LO : 0.0;
	} else if (ay == inf || ay > ax * 18014398509481984.0) {
		a = PIO2_HI + PIO2_LO;
	} else {
		a = ay <= ax ? atan_unit(ay / ax) :
			       PIO2_HI - (atan_unit(ax / ay) - PIO2_LO);
		if (neg_x)
			a = PI_HI - (a - PI_LO);
	}
	return neg_y ? -a : a;
}

double em_cbrt(double x)
{
	double ax = fabs_d(x), t, h, l, h2, l2;
	int e, sub = 0, i;

	if (isnan_d(x) || ax == 0 || xs_f64_bits(ax) == 0x7ff0000000000000ull)
		return x + x;
	if (xs_f64_bits(ax) < (1ull << 52)) {	/* subnormal: cbrt(a 2^54) = cbrt(a) 2^18 */
		ax *= pow2(54);
		sub = 1;
	}
	e = (int)(xs_f64_bits(ax) >> 52) - 1023;
	/* 2^floor(e/3) is within a factor 2 of the root; Newton converges. */
	t = pow2(e >= 0 ? e / 3 : -((-e + 2) / 3));
	for (i = 0; i < 8; i++)
		t = (2.0 * t + ax / (t * t)) / 3.0;
	/* One more step with t^3 computed exactly: fixes the last bit. */
	two_prod(t, t, &h, &l);
	two_prod(h, t, &h2, &l2);
	t = t + ((ax - h2) - (l * t + l2)) / (3.0 * t * t);
	if (sub)
		t *= pow2(-18);
	return x < 0 ? -t : t;
}

/* log(x) for finite x > 0 as hi + lo, good to about 2^-68 relative. */
static void log_dd(double x, double *hi, double *lo)
{
	double m, f, d, dl, s, sl, z, r, p, q, th, tl, ph, pl, kh, kl;
	int k;

	m = split_log(x, &k);
	f = m - 1.0;			/* exact */
	d = 2.0 + f;			/* d + dl = 2 + f exactly */
	dl = f - (d - 2.0);
	s = f / d;
	/* s's error: (f - s (d + dl)) / d, with s d exact as ph + pl. */
	two_prod(s, d, &ph, &pl);
	sl = (((f - ph) - pl) - s * dl) / d;
	z = s * s;
	r = 2.0 / 25;
	r = 2.0 / 23 + z * r;
	r = 2.0 / 21 + z * r;
	r = 2.0 / 19 + z * r;
	r = 2.0 / 17 + z * r;
	r = 2.0 / 15 + z * r;
	r = 2.0 / 13 + z * r;
	r = 2.0 / 11 + z * r;
	r = 2.0 / 9 + z * r;
	r = 2.0 / 7 + z * r;
	r = 2.0 / 5 + z * r;
	r = 2.0 / 3 + z * r;
	r = s * z * r;			/* the small terms: s^3 ... */
	/* log m = 2 s + 2 sl + r, summed with the error of 2s + r kept. */
	p = 2.0 * s;
	q = r + 2.0 * sl;
	th = p + q;
	tl = q - (th - p);
	/* plus k ln 2 as a double-double. */
	two_prod((double)k, LN2_DD_HI, &kh, &kl);
	kl += k * LN2_DD_LO;
	*hi = kh + th;
	*lo = ((kh - *hi) + th) + (tl + kl);
}

/* Is y an integer, and odd? */
static int int_kind(double y)
{
	double a = fabs_d(y);

	if (a >= 9007199254740992.0)
		return 2;		/* even integer */
	if ((double)(s64)a != a)
		return 0;		/* not an integer */
	return ((s64)a & 1) ? 1 : 2;
}

double em_pow(double x, double y)
{
	const double inf = xs_bits_f64(0x7ff0000000000000ull);
	double ax = fabs_d(x), lh, ll, ph, pl, r, res;
	int kind, k, neg = 0;

	if (y == 0 || x == 1)
		return 1.0;
	if (isnan_d(x) || isnan_d(y))
		return x + y;
	kind = int_kind(y);
	if (fabs_d(y) == inf) {
		if (ax == 1)
			return 1.0;
		return (ax > 1) == (y > 0) ? inf : 0.0;
	}
	if (ax == 0 || ax == inf) {
		/* 0^y and inf^y: magnitude 0 or inf; sign from x for odd y. */
		res = (ax == 0) == (y < 0) ? inf : 0.0;
		return (xs_f64_bits(x) >> 63) && kind == 1 ? -res : res;
	}
	if (x < 0) {
		if (!kind)
			return (x - x) / (x - x);
		neg = kind == 1;
	}
	log_dd(ax, &lh, &ll);
	two_prod(y, lh, &ph, &pl);
	pl += y * ll;
	r = ph + pl;
	if (r > 709.79) {
		res = inf;
	} else if (r < -745.2) {
		res = 0.0;
	} else {
		pl = pl - (r - ph);
		r = exp_reduce(r, pl, &k);
		res = scale(1.0 + expm1_small(r), k);
	}
	return neg ? -res : res;
}
