/* SPDX-License-Identifier: MIT */
/*
 * The device half of the CUDA driver: helpers every generated kernel
 * includes (compiled by NVRTC with the kernels of a program, --fmad=false
 * so that no multiply fuses with an add).  The integer instructions,
 * real comparisons and max/min, conversions to and from integers, bf16,
 * bit casts, the RNG and the complex functions are the engine's own code
 * (engine/scalar.h and scalar_complex.h, inlined here); the rest ports
 * the soft engine's semantics (driver/engine/): f16 and bf16 kept as
 * float rounded to their format after every instruction, the reduction
 * order of the command stream.  Real transcendentals use CUDA's
 * libdevice in double (for f32 too), so they are accurate but not the
 * engine's bits; complex functions are the engine's formulas over them.
 */
typedef signed char s8;
typedef unsigned char u8;
typedef short s16;
typedef unsigned short u16;
typedef int s32;
typedef unsigned int u32;
typedef long long s64;
typedef unsigned long long u64;

struct c64 {
	float re, im;
};

struct c128 {
	double re, im;
};

#define XD static __device__ __forceinline__

/*
 * The command stream's enums (its uapi header, whose types are these),
 * and the scalar semantics the engine computes with: both inlined here
 * when the prelude is embedded (tools/embed-text.py).
 */
typedef u8 __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s8 __s8;
typedef s16 __s16;
typedef s32 __s32;
typedef s64 __s64;
#include <drm/xrt_accel_cs.h>

#define XRT_SCALAR_CUDA
#define XRT_SCALAR_DEVICE __device__
#include "engine/scalar.h"

/* ---- integers (engine/scalar.h's, wrapped to their type) ---- */

XD s64 iun(int fn, int t, s64 a)
{
	return xs_int_wrap(t, (u64)xs_int_unary(fn, t, a));
}

XD s64 ibin(int fn, int t, s64 a, s64 b)
{
	return xs_int_wrap(t, (u64)xs_int_binary(fn, t, a, b));
}

XD s64 icmp(int fn, int t, s64 a, s64 b)
{
	return xs_int_compare(fn, t, a, b);
}

/* ---- half formats (held in float registers) ---- */

/* The CPU emulation of the tests (test_cuda_emu) has its own. */
#ifndef XRT_CUDA_EMU
XD float h2f(u16 h)
{
	float f;

	asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
	return f;
}

XD u16 f2h(float f)
{
	u16 h;

	asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
	return h;
}

XD u16 d2h(double d)
{
	u16 h;

	asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
	return h;
}
#endif

XD float bf2f(u16 b)
{
	return xs_bf16_to_f32(b);
}

XD u16 f2bf(float f)
{
	return xs_f32_to_bf16(f);
}

XD u16 d2bf(double d)
{
	return xs_f64_to_bf16(d);
}

/* A float-class register value rounded to its type. */
XD float rnd(int t, float x)
{
	if (t == XRT_CS_F16)
		return h2f(f2h(x));
	if (t == XRT_CS_BF16)
		return bf2f(f2bf(x));
	if (xs_is_small_float(t))
		return xs_small_round(t, x);
	return x;
}

/* ---- reals ---- */

XD double dun(int fn, double a)
{
	switch (fn) {
	case XRT_CS_UN_ABS: return fabs(a);
	case XRT_CS_UN_NEG: return -a;
	case XRT_CS_UN_SIGN: return isnan(a) || a == 0 ? a : a > 0 ? 1.0 : -1.0;
	case XRT_CS_UN_FLOOR: return floor(a);
	case XRT_CS_UN_CEIL: return ceil(a);
	case XRT_CS_UN_ROUND_AFZ: return round(a);
	case XRT_CS_UN_ROUND_EVEN: return rint(a);
	case XRT_CS_UN_EXP: return exp(a);
	case XRT_CS_UN_EXPM1: return expm1(a);
	case XRT_CS_UN_LOG: return log(a);
	case XRT_CS_UN_LOG1P: return log1p(a);
	case XRT_CS_UN_LOGISTIC: return 1.0 / (1.0 + exp(-a));
	case XRT_CS_UN_SQRT: return sqrt(a);
	case XRT_CS_UN_RSQRT: return 1.0 / sqrt(a);
	case XRT_CS_UN_CBRT: return cbrt(a);
	case XRT_CS_UN_TANH: return tanh(a);
	case XRT_CS_UN_SIN: return sin(a);
	case XRT_CS_UN_COS: return cos(a);
	case XRT_CS_UN_TAN: return tan(a);
	case XRT_CS_UN_ERF: return erf(a);
	case XRT_CS_UN_IMAG: return 0.0;
	default: return a;	/* REAL */
	}
}

XD float fun(int fn, int t, float a)
{
	float r;

	switch (fn) {
	case XRT_CS_UN_ABS: r = fabsf(a); break;
	case XRT_CS_UN_NEG: r = -a; break;
	case XRT_CS_UN_SQRT: r = sqrtf(a); break;
	case XRT_CS_UN_RSQRT: r = 1.0f / sqrtf(a); break;
	case XRT_CS_UN_FLOOR: r = floorf(a); break;
	case XRT_CS_UN_CEIL: r = ceilf(a); break;
	case XRT_CS_UN_ROUND_EVEN: r = rintf(a); break;
	default: r = (float)dun(fn, (double)a); break;
	}
	return rnd(t, r);
}

XD double dbin(int fn, double a, double b)
{
	switch (fn) {
	case XRT_CS_BIN_ADD: return a + b;
	case XRT_CS_BIN_SUB: return a - b;
	case XRT_CS_BIN_MUL: return a * b;
	case XRT_CS_BIN_DIV: return a / b;
	case XRT_CS_BIN_REM: return fmod(a, b);
	case XRT_CS_BIN_POW: return pow(a, b);
	case XRT_CS_BIN_MAX: return xs_max(a, b);
	case XRT_CS_BIN_MIN: return xs_min(a, b);
	default: return atan2(a, b);
	}
}

XD float fbin(int fn, int t, float a, float b)
{
	float r;

	switch (fn) {
	case XRT_CS_BIN_ADD: r = a + b; break;
	case XRT_CS_BIN_SUB: r = a - b; break;
	case XRT_CS_BIN_MUL: r = a * b; break;
	case XRT_CS_BIN_DIV: r = a / b; break;
	case XRT_CS_BIN_REM: r = fmodf(a, b); break;
	default: r = (float)dbin(fn, a, b); break;
	}
	return rnd(t, r);
}

XD s64 dcmp(int fn, double a, double b)
{
	return xs_real_compare(fn, a, b);
}

XD s64 finite_f(double a)
{
	return isfinite(a);
}

/* ---- complex, computed in double: engine/scalar_complex.h's over libdevice ---- */

#define XS_EXP		exp
#define XS_EXPM1	expm1
#define XS_LOG		log
#define XS_LOG1P	log1p
#define XS_SIN		sin
#define XS_COS		cos
#define XS_TAN		tan
#define XS_TANH		tanh
#define XS_ATAN2	atan2
#define XS_POW		pow
#define XS_SQRT		sqrt
#include "engine/scalar_complex.h"

typedef struct xs_cplx cd;

XD cd cdv(double re, double im)
{
	return xs_cplx_of(re, im);
}

XD cd cun(int fn, cd z)
{
	return xs_cunary(fn, z);
}

XD cd cbin(int fn, cd a, cd b)
{
	return xs_cbinary(fn, a, b);
}

XD cd cof(c64 z)
{
	return cdv(z.re, z.im);
}

XD cd cof(c128 z)
{
	return cdv(z.re, z.im);
}

XD c64 to64(cd z)
{
	c64 r = { (float)z.re, (float)z.im };

	return r;
}

XD c128 to128(cd z)
{
	c128 r = { z.re, z.im };

	return r;
}

XD c64 mk64(float re, float im)
{
	c64 r = { re, im };

	return r;
}

XD c128 mk128(double re, double im)
{
	c128 r = { re, im };

	return r;
}

XD s64 ccmp(int fn, cd a, cd b)
{
	int eq = a.re == b.re && a.im == b.im;

	return fn == XRT_CS_CMP_EQ ? eq : !eq;
}

/* ---- conversions ---- */

/* |v| rounded to odd at 53 bits: exact for a later rounding to a half. */
/* An integer as a real of float class type @to (f16, bf16, f32). */
XD float i2f(int to, int from, s64 a)
{
	int neg = !xs_is_unsigned(from) && a < 0;
	u64 mag = neg ? 0 - (u64)a : (u64)a;
	double odd = xs_u64_to_f64_odd(mag);

	if (neg)
		odd = -odd;
	if (to == XRT_CS_F32)
		return neg ? -__ull2float_rn(mag) : __ull2float_rn(mag);
	if (to == XRT_CS_F16)
		return h2f(d2h(odd));
	if (xs_is_small_float(to))
		return xs_small_round(to, xs_f64_to_f32_sticky(odd));
	return bf2f(d2bf(odd));
}

XD double i2d(int from, s64 a)
{
	int neg = !xs_is_unsigned(from) && a < 0;
	u64 mag = neg ? 0 - (u64)a : (u64)a;
	double d = __ull2double_rn(mag);

	return neg ? -d : d;
}

/* A double as a float-class value of type @to. */
XD float d2fc(int to, double x)
{
	if (to == XRT_CS_F16)
		return h2f(d2h(x));
	if (to == XRT_CS_BF16)
		return bf2f(d2bf(x));
	if (xs_is_small_float(to))	/* rounded once: through a float that keeps it */
		return xs_small_round(to, xs_f64_to_f32_sticky(x));
	return (float)x;
}

/* A float-class value as float-class type @to (one rounding). */
XD float f2fc(int to, float x)
{
	return rnd(to, x);
}

/* ---- bits of registers (BITCAST) ---- */

XD u64 bits_i(int t, s64 v)
{
	return xs_int_bits(t, v);
}

XD u64 bits_f(int t, float v)
{
	if (t == XRT_CS_F16)
		return f2h(v);
	if (t == XRT_CS_BF16)
		return f2bf(v);
	if (xs_is_small_float(t))
		return xs_f32_to_small(t, v);
	return __float_as_uint(v);
}

XD u64 bits_d(double v)
{
	return (u64)__double_as_longlong(v);
}

XD float f_of_bits(int t, u64 b)
{
	if (t == XRT_CS_F16)
		return h2f((u16)b);
	if (t == XRT_CS_BF16)
		return bf2f((u16)b);
	if (xs_is_small_float(t))
		return xs_small_to_f32(t, (u8)b);
	return __uint_as_float((u32)b);
}

/* ---- reductions: accumulators of each register class ---- */

XD float red_id_f(int op)
{
	switch (op) {
	case XRT_CS_RED_PROD: return 1.0f;
	case XRT_CS_RED_MIN: case XRT_CS_RED_ARGMIN: return __int_as_float(0x7f800000);
	case XRT_CS_RED_MAX: case XRT_CS_RED_ARGMAX: return -__int_as_float(0x7f800000);
	default: return 0.0f;
	}
}

XD s64 red_id_i(int op, int t)
{
	int un = xs_is_unsigned(t), w = xs_int_width(t);
	s64 imax = w == 64 ? (un ? -1 : (s64)(~0ull >> 1)) :
		   (s64)(un ? (1ull << w) - 1 : (1ull << (w - 1)) - 1);
	s64 imin = un ? 0 : w == 64 ? (s64)(1ull << 63) : -(s64)(1ull << (w - 1));

	switch (op) {
	case XRT_CS_RED_PROD: return 1;
	case XRT_CS_RED_AND: return t == XRT_CS_PRED ? 1 : -1;
	case XRT_CS_RED_MIN: case XRT_CS_RED_ARGMIN: return t == XRT_CS_PRED ? 1 : imax;
	case XRT_CS_RED_MAX: case XRT_CS_RED_ARGMAX: return t == XRT_CS_PRED ? 0 : imin;
	default: return 0;
	}
}

#define RED_NO_INDEX	((s64)(~0ull >> 1))

/* Is b strictly better than a for MIN (@min) or MAX (reals)? */
XD int better_d(int min, double a, double b)
{
	if (isnan(a))
		return 0;
	if (isnan(b))
		return 1;
	return min ? b < a : b > a;
}

/* a = a (+) b for reals of type @t, with indices for ARGMIN/ARGMAX. */
XD void comb_d(int op, int t, double *a, s64 *ai, double b, s64 bi)
{
	switch (op) {
	case XRT_CS_RED_SUM:
		*a = *a + b;
		break;
	case XRT_CS_RED_PROD:
		*a = *a * b;
		break;
	case XRT_CS_RED_MIN:
	case XRT_CS_RED_MAX:
		if (better_d(op == XRT_CS_RED_MIN, *a, b))
			*a = b;
		else if (*a == b && *a == 0 && (op == XRT_CS_RED_MIN) == (signbit(b) != 0))
			*a = b;
		return;
	default: {
		int eq = *a == b || (isnan(*a) && isnan(b));

		if (better_d(op == XRT_CS_RED_ARGMIN, *a, b) || (eq && bi < *ai)) {
			*a = b;
			*ai = bi;
		}
		return;
	}
	}
	/* 16-bit floats accumulate in f32, as on the engine (cmd_reduce.c) */
	if (t == XRT_CS_F32 || t == XRT_CS_F16 || t == XRT_CS_BF16)
		*a = (float)*a;
}

XD void comb_i(int op, int t, s64 *a, s64 *ai, s64 b, s64 bi)
{
	int un = xs_is_unsigned(t);

	switch (op) {
	case XRT_CS_RED_SUM: *a = (s64)((u64)*a + (u64)b); break;
	case XRT_CS_RED_PROD: *a = (s64)((u64)*a * (u64)b); break;
	case XRT_CS_RED_AND: *a &= b; break;
	case XRT_CS_RED_OR: *a |= b; break;
	case XRT_CS_RED_MIN:
	case XRT_CS_RED_MAX: {
		int bt = un ? (op == XRT_CS_RED_MIN ? (u64)b < (u64)*a : (u64)b > (u64)*a) :
			      (op == XRT_CS_RED_MIN ? b < *a : b > *a);
		if (bt)
			*a = b;
		break;
	}
	default: {
		int min = op == XRT_CS_RED_ARGMIN;
		int bt = un ? (min ? (u64)b < (u64)*a : (u64)b > (u64)*a) :
			      (min ? b < *a : b > *a);
		if (bt || (b == *a && bi < *ai)) {
			*a = b;
			*ai = bi;
		}
		break;
	}
	}
	*a = xs_int_wrap(t, (u64)*a);
}

/* Complex: SUM and PROD only (the others need an order). */
XD void comb_c(int op, int t, cd *a, cd b)
{
	if (op == XRT_CS_RED_SUM)
		*a = cdv(a->re + b.re, a->im + b.im);
	else
		*a = xs_cbinary(XRT_CS_BIN_MUL, *a, b);
	if (t == XRT_CS_C64)
		*a = cdv((float)a->re, (float)a->im);
}

/* The grid-stride loop every elementwise kernel runs. */
#define FOR_EACH(i, n) \
	for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
	     i += (u64)gridDim.x * blockDim.x)

/* One segment's partial result in REDUCE's scratch. */
struct wsv {
	double re, im;
	s64 i, idx;
};

/* A 16-byte element moved as bits. */
struct b16 {
	u64 lo, hi;
};
