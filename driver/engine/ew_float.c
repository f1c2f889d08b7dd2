// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Real floating-point instructions.  The common operations run as plain
 * loops the compiler vectorizes; the rest go one element at a time
 * through double-precision helpers, which give f32 results exactly
 * (every helper here is exact, or correctly rounded, in double).
 *
 * max and min propagate NaN and order -0 below +0.
 */
#include "emath.h"
#include "ew.h"

static double trunc_d(double x)
{
	u64 b = xs_f64_bits(x);
	int e = (int)((b >> 52) & 0x7ff) - 1023;

	if (e >= 52)		/* integral, inf or NaN */
		return x;
	if (e < 0)		/* |x| < 1 */
		return xs_bits_f64(b & (1ull << 63));
	return xs_bits_f64(b & ~((1ull << (52 - e)) - 1));
}

static double copysign_d(double mag, double sgn)
{
	return xs_bits_f64((xs_f64_bits(mag) & ~(1ull << 63)) | (xs_f64_bits(sgn) & (1ull << 63)));
}

/* Rounds to an integer: 0 floor, 1 ceil, 2 halves away, 3 halves even. */
static double round_d(double x, int mode)
{
	double t = trunc_d(x), f;

	if (t == x || xs_is_nan(x))
		return x;
	f = x - t;		/* exact: both in the same binade or below */
	switch (mode) {
	case 0:
		t = f < 0 ? t - 1 : t;
		break;
	case 1:
		t = f > 0 ? t + 1 : t;
		break;
	case 2:
		if (f >= 0.5 || f <= -0.5)
			t += f > 0 ? 1 : -1;
		break;
	default:
		if (f > 0.5 || f < -0.5 ||
		    ((f == 0.5 || f == -0.5) && trunc_d(t / 2) * 2 != t))
			t += f > 0 ? 1 : -1;
		break;
	}
	return copysign_d(t, x);	/* keeps -0 for results of zero */
}

double engine_fmod(double x, double y)
{
	u64 bx = xs_f64_bits(x), by = xs_f64_bits(y), sx = bx & (1ull << 63), mx, my;
	int ex = (int)((bx >> 52) & 0x7ff), ey = (int)((by >> 52) & 0x7ff);

	bx &= ~(1ull << 63);
	by &= ~(1ull << 63);
	if (xs_is_nan(x) || xs_is_nan(y) || ex == 0x7ff || !by)
		return (x * y) / (x * y);	/* NaN */
	if (bx < by)
		return x;
	if (bx == by)
		return xs_bits_f64(sx);
	/* Mantissas with the implicit bit; subnormals normalized. */
	mx = bx & ((1ull << 52) - 1);
	my = by & ((1ull << 52) - 1);
	if (ex)
		mx |= 1ull << 52;
	else
		for (ex = 1; !(mx & (1ull << 52)); ex--)
			mx <<= 1;
	if (ey)
		my |= 1ull << 52;
	else
		for (ey = 1; !(my & (1ull << 52)); ey--)
			my <<= 1;
	/* Long division, one bit per exponent step. */
	for (; ex > ey; ex--) {
		if (mx >= my)
			mx -= my;
		mx <<= 1;
	}
	if (mx >= my)
		mx -= my;
	if (!mx)
		return xs_bits_f64(sx);
	for (; !(mx & (1ull << 52)); ey--)
		mx <<= 1;
	if (ey > 0)
		return xs_bits_f64(sx | ((u64)ey << 52) | (mx & ((1ull << 52) - 1)));
	return xs_bits_f64(sx | (mx >> (1 - ey)));	/* exact subnormal */
}

static double unary_d(u32 fn, double a)
{
	switch (fn) {
	case XRT_CS_UN_SIGN:
		if (xs_is_nan(a) || a == 0)
			return a;
		return a > 0 ? 1.0 : -1.0;
	case XRT_CS_UN_FLOOR:
		return round_d(a, 0);
	case XRT_CS_UN_CEIL:
		return round_d(a, 1);
	case XRT_CS_UN_ROUND_AFZ:
		return round_d(a, 2);
	case XRT_CS_UN_ROUND_EVEN:
		return round_d(a, 3);
	case XRT_CS_UN_IMAG:
		return 0.0;
	case XRT_CS_UN_EXP:
		return em_exp(a);
	case XRT_CS_UN_EXPM1:
		return em_expm1(a);
	case XRT_CS_UN_LOG:
		return em_log(a);
	case XRT_CS_UN_LOG1P:
		return em_log1p(a);
	case XRT_CS_UN_LOGISTIC:
		return em_logistic(a);
	case XRT_CS_UN_CBRT:
		return em_cbrt(a);
	case XRT_CS_UN_TANH:
		return em_tanh(a);
	case XRT_CS_UN_SIN:
		return em_sin(a);
	case XRT_CS_UN_COS:
		return em_cos(a);
	case XRT_CS_UN_TAN:
		return em_tan(a);
	case XRT_CS_UN_ERF:
		return em_erf(a);
	default:	/* REAL */
		return a;
	}
}

static double binary_d(u32 fn, double a, double b)
{
	switch (fn) {
	case XRT_CS_BIN_REM:
		return engine_fmod(a, b);
	case XRT_CS_BIN_MAX:
		return xs_max(a, b);
	case XRT_CS_BIN_POW:
		return em_pow(a, b);
	case XRT_CS_BIN_ATAN2:
		return em_atan2(a, b);
	default:
		return xs_min(a, b);
	}
}

/* Per type: the unsigned integer of its width, square root, exponent bits. */
#define f32_uint	u32
#define f64_uint	u64
#define f32_sqrt	__builtin_sqrtf
#define f64_sqrt	__builtin_sqrt
#define f32_exp_mask	0x7f800000u
#define f64_exp_mask	0x7ff0000000000000ull

/* The same loops for float and double: @type is the type, S its prefix. */
#define FLOAT_OPS(type, S)							\
void ew_##S##_unary(u32 fn, u32 dtype, void *dv, const type a[], u32 n)		\
{										\
	type *d = dv;								\
	s64 *p = dv;								\
	u32 i;									\
										\
	switch (fn) {								\
	case XRT_CS_UN_ABS:							\
		for (i = 0; i < n; i++) {					\
			S##_uint b;						\
			memcpy(&b, &a[i], sizeof(b));				\
			b &= ~((S##_uint)1 << (sizeof(S##_uint) * 8 - 1));	\
			memcpy(&d[i], &b, sizeof(b));				\
		}								\
		break;								\
	case XRT_CS_UN_NEG:							\
		for (i = 0; i < n; i++)						\
			d[i] = -a[i];						\
		break;								\
	case XRT_CS_UN_SQRT:							\
		for (i = 0; i < n; i++)						\
			d[i] = S##_sqrt(a[i]);					\
		break;								\
	case XRT_CS_UN_RSQRT:							\
		for (i = 0; i < n; i++)						\
			d[i] = 1 / S##_sqrt(a[i]);				\
		break;								\
	case XRT_CS_UN_IS_FINITE:						\
		for (i = 0; i < n; i++) {					\
			S##_uint b;						\
			memcpy(&b, &a[i], sizeof(b));				\
			p[i] = (b & S##_exp_mask) != S##_exp_mask;		\
		}								\
		break;								\
	default:								\
		if (sizeof(type) == 4 &&					\
		    ew_f32_fast(fn, (float *)dv, (const float *)a, n))		\
			break;							\
		for (i = 0; i < n; i++)						\
			d[i] = (type)unary_d(fn, a[i]);				\
		break;								\
	}									\
}										\
										\
/* The vectorizable binary ops; 0 when @fn is not one of them. */	\
static __always_inline int S##_binary_vec(u32 fn, type *d, const type *a,	\
					  const type *b, u32 n)		\
{										\
	u32 i;									\
										\
	switch (fn) {								\
	case XRT_CS_BIN_ADD:							\
		for (i = 0; i < n; i++)						\
			d[i] = a[i] + b[i];					\
		return 1;							\
	case XRT_CS_BIN_SUB:							\
		for (i = 0; i < n; i++)						\
			d[i] = a[i] - b[i];					\
		return 1;							\
	case XRT_CS_BIN_MUL:							\
		for (i = 0; i < n; i++)						\
			d[i] = a[i] * b[i];					\
		return 1;							\
	case XRT_CS_BIN_DIV:							\
		for (i = 0; i < n; i++)						\
			d[i] = a[i] / b[i];					\
		return 1;							\
	case XRT_CS_BIN_MAX:							\
		/* NaN wins (x's first); of equal values (+0 and -0     */	\
		/* among them) max keeps the AND of the bits, min the   */	\
		/* OR.  Branch-free, one loop per op: it vectorizes.    */	\
		for (i = 0; i < n; i++) {					\
			type x = a[i], y = b[i], r;				\
			S##_uint bx, by;					\
			memcpy(&bx, &x, sizeof(bx));				\
			memcpy(&by, &y, sizeof(by));				\
			bx &= by;						\
			memcpy(&r, &bx, sizeof(r));				\
			r = x == y ? r : y;					\
			d[i] = x > y || x != x ? x : r;				\
		}								\
		return 1;							\
	case XRT_CS_BIN_MIN:							\
		for (i = 0; i < n; i++) {					\
			type x = a[i], y = b[i], r;				\
			S##_uint bx, by;					\
			memcpy(&bx, &x, sizeof(bx));				\
			memcpy(&by, &y, sizeof(by));				\
			bx |= by;						\
			memcpy(&r, &bx, sizeof(r));				\
			r = x == y ? r : y;					\
			d[i] = x < y || x != x ? x : r;				\
		}								\
		return 1;							\
	default:								\
		return 0;							\
	}									\
}										\
										\
static int S##_binary_base(u32 fn, type *d, const type *a, const type *b,	\
			   u32 n)						\
{										\
	return S##_binary_vec(fn, d, a, b, n);					\
}										\
										\
/* The same operations 8 wide: the same bits (no contraction). */		\
__attribute__((target("avx2")))							\
static int S##_binary_avx2(u32 fn, type *d, const type *a, const type *b,	\
			   u32 n)						\
{										\
	return S##_binary_vec(fn, d, a, b, n);					\
}										\
										\
ENGINE_AVX512								\
static int S##_binary_avx512(u32 fn, type *d, const type *a, const type *b,	\
			     u32 n)						\
{										\
	return S##_binary_vec(fn, d, a, b, n);					\
}										\
										\
void ew_##S##_binary(u32 fn, void *dv, const type *a, const type *b, u32 n)	\
{										\
	type *d = dv;								\
	u32 i;									\
										\
	if (xrt_engine_use_avx512 ? S##_binary_avx512(fn, d, a, b, n) :	\
	    xrt_engine_use_avx2 ? S##_binary_avx2(fn, d, a, b, n) :		\
				  S##_binary_base(fn, d, a, b, n))		\
		return;								\
	for (i = 0; i < n; i++)							\
		d[i] = (type)binary_d(fn, a[i], b[i]);				\
}										\
										\
void ew_##S##_compare(u32 fn, s64 *d, const type *a, const type *b, u32 n)	\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = xs_real_compare(fn, a[i], b[i]);				\
}

FLOAT_OPS(float, f32)
FLOAT_OPS(double, f64)

void ew_round_half(u32 dtype, float *d, u32 n)
{
	u32 i;

	if (dtype == XRT_CS_F16) {
		for (i = 0; i < n; i++)
			d[i] = engine_f16_to_f32(engine_f32_to_f16(d[i]));
	} else if (dtype == XRT_CS_BF16) {
		for (i = 0; i < n; i++)
			d[i] = xs_bf16_to_f32(xs_f32_to_bf16(d[i]));
	} else if (xs_is_small_float(dtype)) {
		for (i = 0; i < n; i++)
			d[i] = xs_small_to_f32(dtype, xs_f32_to_small(dtype, d[i]));
	}
}
