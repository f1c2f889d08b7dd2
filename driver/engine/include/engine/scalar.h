/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The scalar semantics of the command stream's element types, written
 * once.  The soft engine computes with these functions, in the kernel
 * and in libxrt; the cuda device's NVRTC prelude includes this file's
 * text (tools/embed-text.py inlines it), so that generated kernels
 * compute the same values, and the CUDA emulation of the tests checks
 * them against the engine.
 *
 * Integers are held as s64 whatever their type and wrapped to the
 * type's width after every instruction (XLA's semantics: arithmetic
 * wraps; x / 0 is -1 and x % 0 is x; MIN / -1 is MIN and MIN % -1 is 0;
 * shifts by the width or more give 0, or the sign fill).
 *
 * Freestanding, and valid C and C++: no library, no designated
 * initializers.  The includer provides u8 to u64, s8 to s64 and the
 * enums of <drm/xrt_accel_cs.h>.  CUDA code defines XRT_SCALAR_CUDA (bit
 * casts by the device's intrinsics) and XRT_SCALAR_DEVICE (__device__,
 * the qualifier of every function here) before including it.
 */
#ifndef XRT_ENGINE_SCALAR_H
#define XRT_ENGINE_SCALAR_H

#ifndef XRT_SCALAR_CUDA
#include "engine/engine.h"	/* the types, the command stream's enums */
#define XRT_SCALAR_DEVICE
#endif

/* Bytes of an element of @t; 0 for an unknown type. */
/* The binary function (XRT_CS_BIN_*) that combining with reduce @op, SUM..OR, is. */
static inline XRT_SCALAR_DEVICE u32 xs_red_binary(u32 op)
{
	switch (op) {
	case XRT_CS_RED_SUM:
		return XRT_CS_BIN_ADD;
	case XRT_CS_RED_PROD:
		return XRT_CS_BIN_MUL;
	case XRT_CS_RED_MIN:
		return XRT_CS_BIN_MIN;
	case XRT_CS_RED_MAX:
		return XRT_CS_BIN_MAX;
	case XRT_CS_RED_AND:
		return XRT_CS_BIN_AND;
	default:
		return XRT_CS_BIN_OR;
	}
}

static inline XRT_SCALAR_DEVICE u32 xs_dtype_size(u32 t)
{
	if (t >= XRT_CS_S4 && t <= XRT_CS_F4E2M1FN)
		return 1;
	switch (t) {
	case XRT_CS_PRED: case XRT_CS_S8: case XRT_CS_U8:
		return 1;
	case XRT_CS_S16: case XRT_CS_U16: case XRT_CS_F16: case XRT_CS_BF16:
		return 2;
	case XRT_CS_S32: case XRT_CS_U32: case XRT_CS_F32:
		return 4;
	case XRT_CS_S64: case XRT_CS_U64: case XRT_CS_F64: case XRT_CS_C64:
		return 8;
	case XRT_CS_C128:
		return 16;
	default:
		return 0;
	}
}

/* ---- bit casts ---- */

static inline XRT_SCALAR_DEVICE u32 xs_f32_bits(float f)
{
#ifdef XRT_SCALAR_CUDA
	return __float_as_uint(f);
#else
	u32 b;

	memcpy(&b, &f, 4);
	return b;
#endif
}

static inline XRT_SCALAR_DEVICE float xs_bits_f32(u32 b)
{
#ifdef XRT_SCALAR_CUDA
	return __uint_as_float(b);
#else
	float f;

	memcpy(&f, &b, 4);
	return f;
#endif
}

static inline XRT_SCALAR_DEVICE u64 xs_f64_bits(double d)
{
#ifdef XRT_SCALAR_CUDA
	return (u64)__double_as_longlong(d);
#else
	u64 b;

	memcpy(&b, &d, 8);
	return b;
#endif
}

static inline XRT_SCALAR_DEVICE double xs_bits_f64(u64 b)
{
#ifdef XRT_SCALAR_CUDA
	return __longlong_as_double((s64)b);
#else
	double d;

	memcpy(&d, &b, 8);
	return d;
#endif
}

/* ---- integers ---- */

/* Bits of an integer type (pred: 1). */
static inline XRT_SCALAR_DEVICE u32 xs_int_width(u32 t)
{
	if (t == XRT_CS_S4 || t == XRT_CS_U4)
		return 4;
	if (t == XRT_CS_S2 || t == XRT_CS_U2)
		return 2;
	return t == XRT_CS_PRED ? 1 : xs_dtype_size(t) * 8;
}

static inline XRT_SCALAR_DEVICE int xs_is_unsigned(u32 t)
{
	return (t >= XRT_CS_U8 && t <= XRT_CS_U64) || t == XRT_CS_U4 || t == XRT_CS_U2;
}

/* s4, u4, s2, u2: integers narrower than their byte. */
static inline XRT_SCALAR_DEVICE int xs_is_sub_byte_int(u32 t)
{
	return t >= XRT_CS_S4 && t <= XRT_CS_U2;
}

/* f8e5m2 ... f4e2m1fn: computed as f32, rounded to the format. */
static inline XRT_SCALAR_DEVICE int xs_is_small_float(u32 t)
{
	return t >= XRT_CS_F8E5M2 && t <= XRT_CS_F4E2M1FN;
}

/* @v wrapped to type @t: signed types sign-extended, the others zero-extended. */
static inline XRT_SCALAR_DEVICE s64 xs_int_wrap(u32 t, u64 v)
{
	u32 w = xs_int_width(t);

	if (t == XRT_CS_PRED)
		return v != 0;
	if (w == 64)
		return (s64)v;
	v &= (1ull << w) - 1;
	if (!xs_is_unsigned(t) && (v >> (w - 1)))
		v |= ~0ull << w;
	return (s64)v;
}

/* @v's bits within the type's width. */
static inline XRT_SCALAR_DEVICE u64 xs_int_bits(u32 t, s64 v)
{
	u32 w = xs_int_width(t);

	return w == 64 ? (u64)v : (u64)v & ((1ull << w) - 1);
}

/* @a's bits of @t's width, sign-extended from the top one. */
static inline XRT_SCALAR_DEVICE s64 xs_int_sext(u32 t, s64 a)
{
	u32 w = xs_int_width(t);
	u64 x = xs_int_bits(t, a);

	if (w < 64 && ((x >> (w - 1)) & 1))
		x |= ~0ull << w;
	return (s64)x;
}

static inline XRT_SCALAR_DEVICE int xs_int_less(u32 t, s64 a, s64 b)
{
	return xs_is_unsigned(t) ? xs_int_bits(t, a) < xs_int_bits(t, b) : a < b;
}

static inline XRT_SCALAR_DEVICE u32 xs_popcount(u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (u32)((v * 0x0101010101010101ull) >> 56);
}

/* Leading zeros of @v among its low @w bits. */
static inline XRT_SCALAR_DEVICE u32 xs_clz(u64 v, u32 w)
{
	u32 n = 0;

	while (n < w && !(v & (1ull << (w - 1 - n))))
		n++;
	return n;
}

/* An integer unary instruction (XRT_CS_UN_*), before wrapping. */
static inline XRT_SCALAR_DEVICE s64 xs_int_unary(u32 fn, u32 t, s64 a)
{
	int un = xs_is_unsigned(t);

	switch (fn) {
	case XRT_CS_UN_ABS:
		return un || a >= 0 ? a : (s64)(0 - (u64)a);
	case XRT_CS_UN_NEG:
		return (s64)(0 - (u64)a);
	case XRT_CS_UN_SIGN:
		return un ? a != 0 : (a > 0) - (a < 0);
	case XRT_CS_UN_NOT:
		return t == XRT_CS_PRED ? !a : ~a;
	case XRT_CS_UN_POPCNT:
		return xs_popcount(xs_int_bits(t, a));
	case XRT_CS_UN_CLZ:
		return xs_clz(xs_int_bits(t, a), xs_int_width(t));
	}
	return 0;
}

/* a / b, or a % b when @rem. */
static inline XRT_SCALAR_DEVICE s64 xs_int_divide(u32 t, s64 a, s64 b, int rem)
{
	if (xs_is_unsigned(t)) {
		u64 x = xs_int_bits(t, a), y = xs_int_bits(t, b);

		if (!y)
			return rem ? a : -1;
		return (s64)(rem ? x % y : x / y);
	}
	if (!b)
		return rem ? a : -1;
	if (b == -1)	/* avoids INT64_MIN / -1; narrower MINs wrap back */
		return rem ? 0 : (s64)(0 - (u64)a);
	return rem ? a % b : a / b;
}

/*
 * Shifts.  Arithmetic right shifts fill with the top bit of the type's
 * width, for unsigned types too (XLA's rule: the bits, not the type,
 * decide).
 */
static inline XRT_SCALAR_DEVICE s64 xs_int_shift(u32 fn, u32 t, s64 a, s64 b)
{
	u32 w = xs_int_width(t);
	u64 s = xs_int_bits(t, b);

	if (fn == XRT_CS_BIN_SHR_ARITH)
		a = xs_int_sext(t, a);
	if (s >= w)
		return fn == XRT_CS_BIN_SHR_ARITH && a < 0 ? -1 : 0;
	if (fn == XRT_CS_BIN_SHL)
		return (s64)((u64)a << s);
	if (fn == XRT_CS_BIN_SHR_LOGICAL)
		return (s64)(xs_int_bits(t, a) >> s);
	return a < 0 ? ~(~a >> s) : a >> s;
}

/* Integer power by squaring; negative exponents give 0 unless |a| is 1. */
static inline XRT_SCALAR_DEVICE s64 xs_int_pow(u32 t, s64 a, s64 b)
{
	u64 r = 1, x = (u64)a;

	if (!xs_is_unsigned(t) && b < 0) {
		if (a == 1)
			return 1;
		if (a == -1)
			return (b & 1) ? -1 : 1;
		return 0;
	}
	while (b) {
		if (b & 1)
			r *= x;
		x *= x;
		b = (s64)((u64)b >> 1);
	}
	return (s64)r;
}

/* An integer binary instruction (XRT_CS_BIN_*), before wrapping. */
static inline XRT_SCALAR_DEVICE s64 xs_int_binary(u32 fn, u32 t, s64 a, s64 b)
{
	switch (fn) {
	case XRT_CS_BIN_ADD:
		return (s64)((u64)a + (u64)b);
	case XRT_CS_BIN_SUB:
		return (s64)((u64)a - (u64)b);
	case XRT_CS_BIN_MUL:
		return (s64)((u64)a * (u64)b);
	case XRT_CS_BIN_DIV:
		return xs_int_divide(t, a, b, 0);
	case XRT_CS_BIN_REM:
		return xs_int_divide(t, a, b, 1);
	case XRT_CS_BIN_POW:
		return xs_int_pow(t, a, b);
	case XRT_CS_BIN_MAX:
		return xs_int_less(t, a, b) ? b : a;
	case XRT_CS_BIN_MIN:
		return xs_int_less(t, a, b) ? a : b;
	case XRT_CS_BIN_AND:
		return a & b;
	case XRT_CS_BIN_OR:
		return a | b;
	case XRT_CS_BIN_XOR:
		return a ^ b;
	default:
		return xs_int_shift(fn, t, a, b);
	}
}

/* An integer comparison (XRT_CS_CMP_*; the total-order flag changes nothing): 0 or 1. */
static inline XRT_SCALAR_DEVICE s64 xs_int_compare(u32 fn, u32 t, s64 a, s64 b)
{
	int lt = xs_int_less(t, a, b), gt = xs_int_less(t, b, a);

	switch (fn & ~(u32)XRT_CS_CMP_TOTAL_ORDER) {
	case XRT_CS_CMP_EQ:
		return !lt && !gt;
	case XRT_CS_CMP_NE:
		return lt || gt;
	case XRT_CS_CMP_LT:
		return lt;
	case XRT_CS_CMP_LE:
		return !gt;
	case XRT_CS_CMP_GT:
		return gt;
	default:
		return !lt;
	}
}

/* ---- reals, computed in double ---- */

static inline XRT_SCALAR_DEVICE int xs_is_nan(double x)
{
	return x != x;
}

/* max with NaNs propagated (the first one's) and -0 below +0. */
static inline XRT_SCALAR_DEVICE double xs_max(double a, double b)
{
	if (xs_is_nan(a) || xs_is_nan(b))
		return xs_is_nan(a) ? a : b;
	if (a == b)	/* -0 and +0: +0 */
		return (xs_f64_bits(a) >> 63) ? b : a;
	return a > b ? a : b;
}

static inline XRT_SCALAR_DEVICE double xs_min(double a, double b)
{
	if (xs_is_nan(a) || xs_is_nan(b))
		return xs_is_nan(a) ? a : b;
	if (a == b)
		return (xs_f64_bits(a) >> 63) ? a : b;
	return a < b ? a : b;
}

/* A key that orders reals totally: -NaN < -inf < -0 < +0 < inf < NaN. */
static inline XRT_SCALAR_DEVICE s64 xs_total_key(double x)
{
	s64 k = (s64)xs_f64_bits(x);

	return k < 0 ? (s64)(~(u64)k | (1ull << 63)) : k;
}

/* A real comparison (XRT_CS_CMP_*, with or without the total order): 0 or 1. */
static inline XRT_SCALAR_DEVICE s64 xs_real_compare(u32 fn, double a, double b)
{
	if (fn & XRT_CS_CMP_TOTAL_ORDER) {
		s64 ka = xs_total_key(a), kb = xs_total_key(b);

		switch (fn & ~(u32)XRT_CS_CMP_TOTAL_ORDER) {
		case XRT_CS_CMP_EQ:
			return ka == kb;
		case XRT_CS_CMP_NE:
			return ka != kb;
		case XRT_CS_CMP_LT:
			return ka < kb;
		case XRT_CS_CMP_LE:
			return ka <= kb;
		case XRT_CS_CMP_GT:
			return ka > kb;
		default:
			return ka >= kb;
		}
	}
	switch (fn) {
	case XRT_CS_CMP_EQ:
		return a == b;
	case XRT_CS_CMP_NE:
		return a != b;
	case XRT_CS_CMP_LT:
		return a < b;
	case XRT_CS_CMP_LE:
		return a <= b;
	case XRT_CS_CMP_GT:
		return a > b;
	default:
		return a >= b;
	}
}

/* A complex number while it is computed on (engine/scalar_complex.h). */
struct xs_cplx {
	double re, im;
};

/* ---- conversions ---- */

/* |v| rounded to odd at 53 bits, as a double: exact for a later rounding. */
static inline XRT_SCALAR_DEVICE double xs_u64_to_f64_odd(u64 v)
{
	double scale = 1;
	u64 sticky = 0;

	while (v >> 53) {
		sticky |= v & 1;
		v >>= 1;
		scale *= 2;
	}
	return (double)(v | sticky) * scale;
}

/* A real truncated toward zero and saturated to integer type @to (NaN: 0). */
static inline XRT_SCALAR_DEVICE s64 xs_real_to_int(u32 to, double x)
{
	u32 w = xs_int_width(to);
	double lo, hi;

	if (to == XRT_CS_PRED)
		return x != 0;
	if (xs_is_nan(x))
		return 0;
	if (xs_is_unsigned(to)) {
		hi = w == 64 ? 18446744073709551616.0 : (double)(1ull << w);
		if (x <= 0)
			return 0;
		if (x >= hi)
			return w == 64 ? -1 : (s64)((1ull << w) - 1);
		return (s64)(u64)x;
	}
	hi = w == 64 ? 9223372036854775808.0 : (double)(1ull << (w - 1));
	lo = -hi;
	if (x <= lo)
		return w == 64 ? (s64)(1ull << 63) : -(s64)(1ull << (w - 1));
	if (x >= hi)
		return w == 64 ? (s64)~(1ull << 63) : (s64)((1ull << (w - 1)) - 1);
	return (s64)x;
}

/* ---- bf16 (round to nearest even; NaNs stay quiet) ---- */

static inline XRT_SCALAR_DEVICE u16 xs_f32_to_bf16(float f)
{
	u32 b = xs_f32_bits(f);

	if ((b & 0x7fffffff) > 0x7f800000)
		return (u16)((b >> 16) | 0x40);
	b += 0x7fff + ((b >> 16) & 1);
	return (u16)(b >> 16);
}

static inline XRT_SCALAR_DEVICE float xs_bf16_to_f32(u16 h)
{
	return xs_bits_f32((u32)h << 16);
}

/*
 * @d as a float that rounds to a 16-bit format as @d itself would: a
 * double rounds through float correctly unless the float rounding
 * makes a tie, so the float's last bit records that @d was not exact.
 */
static inline XRT_SCALAR_DEVICE float xs_f64_to_f32_sticky(double d)
{
	float f = (float)d;
	u32 b;

	if ((double)f == d || f != f)
		return f;
	b = xs_f32_bits(f);
	if (!(b & 1))
		b += ((double)f < d) == !(b >> 31) ? 1 : ~0u;
	return xs_bits_f32(b);
}

static inline XRT_SCALAR_DEVICE u16 xs_f64_to_bf16(double d)
{
	return xs_f32_to_bf16(xs_f64_to_f32_sticky(d));
}

/* ---- the small floats: f8e5m2 ... f4e2m1fn (codes in a byte's low bits) ---- */

/*
 * Their formats: exponent and mantissa bits, bias, and what the top
 * codes mean.  Written from the formats' definitions, with ml_dtypes'
 * rules where a value has no code; libxrt's evaluator has its own
 * version in double arithmetic, and the selftests check both against
 * ml_dtypes' tables.
 */
#define XS_SF_IEEE	0	/* the top exponent holds infinities and NaNs */
#define XS_SF_FN	1	/* no infinities; all magnitude bits set is NaN */
#define XS_SF_FNUZ	2	/* no infinities, no -0; 0x80 is NaN */
#define XS_SF_FINITE	3	/* every code is a number */
#define XS_SF_E8M0	4	/* unsigned powers of two; 0xff is NaN */

struct xs_sf {
	u32 ebits, mbits, kind, bias;
};

static inline XRT_SCALAR_DEVICE struct xs_sf xs_sf_format(u32 t)
{
	struct xs_sf f = { 5, 2, XS_SF_IEEE, 15 };	/* f8e5m2 */

	switch (t) {
	case XRT_CS_F8E4M3FN:
		f.ebits = 4, f.mbits = 3, f.kind = XS_SF_FN, f.bias = 7;
		break;
	case XRT_CS_F8E4M3B11FNUZ:
		f.ebits = 4, f.mbits = 3, f.kind = XS_SF_FNUZ, f.bias = 11;
		break;
	case XRT_CS_F8E5M2FNUZ:
		f.kind = XS_SF_FNUZ, f.bias = 16;
		break;
	case XRT_CS_F8E4M3FNUZ:
		f.ebits = 4, f.mbits = 3, f.kind = XS_SF_FNUZ, f.bias = 8;
		break;
	case XRT_CS_F8E4M3:
		f.ebits = 4, f.mbits = 3, f.bias = 7;
		break;
	case XRT_CS_F8E3M4:
		f.ebits = 3, f.mbits = 4, f.bias = 3;
		break;
	case XRT_CS_F8E8M0FNU:
		f.ebits = 8, f.mbits = 0, f.kind = XS_SF_E8M0, f.bias = 127;
		break;
	case XRT_CS_F4E2M1FN:
		f.ebits = 2, f.mbits = 1, f.kind = XS_SF_FINITE, f.bias = 1;
		break;
	}
	return f;
}

/* The type's NaN for a NaN of sign @neg. */
static inline XRT_SCALAR_DEVICE u8 xs_sf_nan(struct xs_sf f, u32 neg)
{
	u32 sign = neg << (f.ebits + f.mbits);

	switch (f.kind) {
	case XS_SF_IEEE:
		return (u8)(sign | ((1u << f.ebits) - 1) << f.mbits | 1u << (f.mbits - 1));
	case XS_SF_FN:
		return (u8)(sign | ((1u << (f.ebits + f.mbits)) - 1));
	case XS_SF_FINITE:	/* no NaN: ml_dtypes gives the zero of the other sign */
		return neg ? 0 : (u8)(1u << (f.ebits + f.mbits));
	case XS_SF_E8M0:
		return 0xff;
	default:
		return 0x80;
	}
}

/* The largest finite magnitude's code. */
static inline XRT_SCALAR_DEVICE u32 xs_sf_max(struct xs_sf f)
{
	u32 emask = (1u << f.ebits) - 1, mmask = (1u << f.mbits) - 1;

	if (f.kind == XS_SF_IEEE)
		return (emask - 1) << f.mbits | mmask;
	if (f.kind == XS_SF_FN)
		return emask << f.mbits | (mmask - 1);
	return emask << f.mbits | mmask;
}

/* What a magnitude past the largest gives. */
static inline XRT_SCALAR_DEVICE u8 xs_sf_overflow(struct xs_sf f, u32 neg)
{
	u32 sign = neg << (f.ebits + f.mbits);

	if (f.kind == XS_SF_IEEE)
		return (u8)(sign | ((1u << f.ebits) - 1) << f.mbits);
	if (f.kind == XS_SF_FINITE)
		return (u8)(sign | xs_sf_max(f));
	return xs_sf_nan(f, neg);
}

/*
 * f8e8m0fnu: the nearest power of two (ties up, to the even code); no
 * zero, so the least code for what is below it.  An f32 subnormal is
 * below 2^-127 (code 0) unless its top bit is bit 22 and the next is
 * set, which rounds up to 2^-126.
 */
static inline XRT_SCALAR_DEVICE u8 xs_e8m0_of_bits(u32 b)
{
	u32 a = b & 0x7fffffff, code;

	if (b >> 31 || !a || a >= 0x7f800000)	/* negatives, 0, inf, NaN */
		return 0xff;
	if (!(a >> 23))
		return (u8)((a >> 22) && ((a >> 21) & 1));
	code = (a >> 23) + ((a & 0x7fffff) >= 0x400000);
	return code > 254 ? 0xff : (u8)code;
}

/* @x rounded to small float type @t (nearest, ties to even): its code. */
static inline XRT_SCALAR_DEVICE u8 xs_f32_to_small(u32 t, float x)
{
	struct xs_sf f = xs_sf_format(t);
	u32 b = xs_f32_bits(x), a = b & 0x7fffffff, neg = b >> 31, code;
	s32 e, emin = 1 - (s32)f.bias, q, shift;
	u64 sig, k = 0, rem, half;

	if (f.kind == XS_SF_E8M0)
		return xs_e8m0_of_bits(b);
	if (a > 0x7f800000)
		return xs_sf_nan(f, neg);
	if (a == 0x7f800000)
		return xs_sf_overflow(f, neg);
	/* |x| = sig 2^(e - 23); the type's spacing there is 2^q: k of them */
	e = a >> 23 ? (s32)(a >> 23) - 127 : -126;
	sig = a >> 23 ? (a & 0x7fffff) | 0x800000 : a;
	q = (e > emin ? e : emin) - (s32)f.mbits;
	shift = q - (e - 23);
	if (shift < 40) {
		k = sig >> shift;
		rem = sig & ((1ull << shift) - 1);
		half = 1ull << (shift - 1);
		k += rem > half || (rem == half && (k & 1));
	}
	if (!k)
		return f.kind == XS_SF_FNUZ ? 0 : (u8)(neg << (f.ebits + f.mbits));
	if (k >> (f.mbits + 1)) {	/* rounded up into the next binade */
		k >>= 1;
		q++;
	}
	code = (u32)k;	/* subnormal, unless normal: */
	if (k >> f.mbits)
		code = (u32)(q + (s32)f.mbits + (s32)f.bias) << f.mbits |
		       ((u32)k & ((1u << f.mbits) - 1));
	if (code > xs_sf_max(f))
		return xs_sf_overflow(f, neg);
	return (u8)(neg << (f.ebits + f.mbits) | code);
}

/* The value of small float code @code of type @t (exact). */
static inline XRT_SCALAR_DEVICE float xs_small_to_f32(u32 t, u8 code)
{
	struct xs_sf f = xs_sf_format(t);
	u32 bits = f.ebits + f.mbits, emask = (1u << f.ebits) - 1;
	u32 mmask = (1u << f.mbits) - 1, sign, e, m;
	s32 ex;

	if (f.kind == XS_SF_E8M0)
		return xs_bits_f32(code == 0xff ? 0x7fc00000u : code ? (u32)code << 23 : 0x400000u);
	code &= (u8)((2u << bits) - 1);
	sign = (u32)(code >> bits) << 31;
	e = code >> f.mbits & emask;
	m = code & mmask;
	if (f.kind == XS_SF_FNUZ && code == 0x80)	/* no sign: a positive NaN */
		return xs_bits_f32(0x7fc00000u);
	if ((f.kind == XS_SF_IEEE && e == emask && m) ||
	    (f.kind == XS_SF_FN && e == emask && m == mmask))
		return xs_bits_f32(sign | 0x7fc00000u);
	if (f.kind == XS_SF_IEEE && e == emask)
		return xs_bits_f32(sign | 0x7f800000u);
	if (!e && !m)
		return xs_bits_f32(sign);
	ex = (s32)e - (s32)f.bias;
	if (!e) {	/* subnormal: normalize into f32's implicit bit */
		ex = 1 - (s32)f.bias;
		while (!(m >> f.mbits)) {
			m <<= 1;
			ex--;
		}
		m &= mmask;
	}
	return xs_bits_f32(sign | (u32)(ex + 127) << 23 | m << (23 - f.mbits));
}

/* A small float value rounded to its type again (as a float). */
static inline XRT_SCALAR_DEVICE float xs_small_round(u32 t, float x)
{
	return xs_small_to_f32(t, xs_f32_to_small(t, x));
}

/* ---- the RNG ---- */

/*
 * Philox-4x32-10 (Salmon et al., SC11) of the 4-word counter @ctr with a
 * 64-bit key, in place: ten rounds of multiply-xor.
 */
static inline XRT_SCALAR_DEVICE void xs_philox(u32 *ctr, u64 seed)
{
	u32 k0 = (u32)seed, k1 = (u32)(seed >> 32), i;

	for (i = 0; i < 10; i++) {
		u64 p0 = (u64)0xD2511F53u * ctr[0], p1 = (u64)0xCD9E8D57u * ctr[2];
		u32 c1 = ctr[1], c3 = ctr[3];

		ctr[0] = (u32)(p1 >> 32) ^ c1 ^ k0;
		ctr[1] = (u32)p1;
		ctr[2] = (u32)(p0 >> 32) ^ c3 ^ k1;
		ctr[3] = (u32)p0;
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
}

#ifndef XRT_SCALAR_CUDA
/*
 * f16 (round to nearest even), the engine's own in half.c: devices
 * convert with their hardware, to the same bits.
 */
u16 engine_f32_to_f16(float f);
u16 engine_f64_to_f16(double d);
float engine_f16_to_f32(u16 h);
#endif

#endif /* XRT_ENGINE_SCALAR_H */
