/* SPDX-License-Identifier: MIT */
/*
 * The device half of the CUDA driver: helpers every generated kernel
 * includes (compiled by NVRTC with the kernels of a program, --fmad=false
 * so that no multiply fuses with an add).  They port the soft engine's
 * semantics (driver/engine/): integers kept as s64 and wrapped to their
 * width after every instruction, f16 and bf16 kept as float rounded to
 * their format after every instruction, NaN-propagating max/min with -0
 * below +0, saturating float-to-integer conversions, the reduction order
 * of the command stream.  Transcendentals use CUDA's libdevice in double
 * (for f32 too), so they are accurate but not the engine's bits.
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

/* enum xrt_cs_dtype */
enum { T_PRED = 1, T_S8, T_S16, T_S32, T_S64, T_U8, T_U16, T_U32, T_U64,
       T_F16, T_BF16, T_F32, T_F64, T_C64, T_C128 };
/* enum xrt_cs_ew_unary */
enum { UN_ABS = 1, UN_NEG, UN_SIGN, UN_NOT, UN_FLOOR, UN_CEIL, UN_ROUND_AFZ,
       UN_ROUND_EVEN, UN_EXP, UN_EXPM1, UN_LOG, UN_LOG1P, UN_LOGISTIC, UN_SQRT,
       UN_RSQRT, UN_CBRT, UN_TANH, UN_SIN, UN_COS, UN_TAN, UN_ERF, UN_IS_FINITE,
       UN_POPCNT, UN_CLZ, UN_REAL, UN_IMAG };
/* enum xrt_cs_ew_binary */
enum { BIN_ADD = 1, BIN_SUB, BIN_MUL, BIN_DIV, BIN_REM, BIN_POW, BIN_MAX,
       BIN_MIN, BIN_ATAN2, BIN_COMPLEX, BIN_AND, BIN_OR, BIN_XOR, BIN_SHL,
       BIN_SHR_LOGICAL, BIN_SHR_ARITH };
/* enum xrt_cs_ew_compare */
enum { CMP_EQ = 1, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_TOTAL = 0x80 };
/* enum xrt_cs_reduce_op */
enum { RED_SUM = 1, RED_PROD, RED_MIN, RED_MAX, RED_AND, RED_OR, RED_ARGMIN,
       RED_ARGMAX };

/* ---- integers ---- */

XD int is_uns(int t)
{
	return t >= T_U8 && t <= T_U64;
}

XD int width(int t)
{
	switch (t) {
	case T_PRED:
		return 1;
	case T_S8: case T_U8:
		return 8;
	case T_S16: case T_U16:
		return 16;
	case T_S32: case T_U32:
		return 32;
	default:
		return 64;
	}
}

XD s64 iwrap(int t, u64 v)
{
	int w = width(t);

	if (t == T_PRED)
		return v != 0;
	if (w == 64)
		return (s64)v;
	v &= (1ull << w) - 1;
	if (!is_uns(t) && (v >> (w - 1)))
		v |= ~0ull << w;
	return (s64)v;
}

XD u64 ibits(int t, s64 v)
{
	int w = width(t);

	return w == 64 ? (u64)v : (u64)v & ((1ull << w) - 1);
}

XD s64 isext(int t, s64 a)
{
	int w = width(t);
	u64 x = ibits(t, a);

	if (w < 64 && ((x >> (w - 1)) & 1))
		x |= ~0ull << w;
	return (s64)x;
}

XD int iless(int t, s64 a, s64 b)
{
	return is_uns(t) ? ibits(t, a) < ibits(t, b) : a < b;
}

XD s64 iun(int fn, int t, s64 a)
{
	int un = is_uns(t);
	s64 r;

	switch (fn) {
	case UN_ABS:
		r = un || a >= 0 ? a : (s64)(0 - (u64)a);
		break;
	case UN_NEG:
		r = (s64)(0 - (u64)a);
		break;
	case UN_SIGN:
		r = un ? a != 0 : (a > 0) - (a < 0);
		break;
	case UN_NOT:
		r = t == T_PRED ? !a : ~a;
		break;
	case UN_POPCNT:
		r = __popcll(ibits(t, a));
		break;
	default:	/* CLZ */
		r = __clzll(ibits(t, a)) - (64 - width(t));
		break;
	}
	return iwrap(t, (u64)r);
}

XD s64 idiv(int t, s64 a, s64 b, int rem)
{
	if (is_uns(t)) {
		u64 x = ibits(t, a), y = ibits(t, b);

		if (!y)
			return rem ? a : -1;
		return (s64)(rem ? x % y : x / y);
	}
	if (!b)
		return rem ? a : -1;
	if (b == -1)
		return rem ? 0 : (s64)(0 - (u64)a);
	return rem ? a % b : a / b;
}

XD s64 ishift(int fn, int t, s64 a, s64 b)
{
	int w = width(t);
	u64 s = ibits(t, b);

	if (fn == BIN_SHR_ARITH)
		a = isext(t, a);
	if (s >= (u64)w)
		return fn == BIN_SHR_ARITH && a < 0 ? -1 : 0;
	if (fn == BIN_SHL)
		return (s64)((u64)a << s);
	if (fn == BIN_SHR_LOGICAL)
		return (s64)(ibits(t, a) >> s);
	return a < 0 ? ~(~a >> s) : a >> s;
}

XD s64 ipow(int t, s64 a, s64 b)
{
	u64 r = 1, x = (u64)a;

	if (!is_uns(t) && b < 0) {
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

XD s64 ibin(int fn, int t, s64 a, s64 b)
{
	s64 r;

	switch (fn) {
	case BIN_ADD: r = (s64)((u64)a + (u64)b); break;
	case BIN_SUB: r = (s64)((u64)a - (u64)b); break;
	case BIN_MUL: r = (s64)((u64)a * (u64)b); break;
	case BIN_DIV: r = idiv(t, a, b, 0); break;
	case BIN_REM: r = idiv(t, a, b, 1); break;
	case BIN_POW: r = ipow(t, a, b); break;
	case BIN_MAX: r = iless(t, a, b) ? b : a; break;
	case BIN_MIN: r = iless(t, a, b) ? a : b; break;
	case BIN_AND: r = a & b; break;
	case BIN_OR: r = a | b; break;
	case BIN_XOR: r = a ^ b; break;
	default: r = ishift(fn, t, a, b); break;
	}
	return iwrap(t, (u64)r);
}

XD s64 icmp(int fn, int t, s64 a, s64 b)
{
	int lt = iless(t, a, b), gt = iless(t, b, a);

	switch (fn & ~CMP_TOTAL) {
	case CMP_EQ: return !lt && !gt;
	case CMP_NE: return lt || gt;
	case CMP_LT: return lt;
	case CMP_LE: return !gt;
	case CMP_GT: return gt;
	default: return !lt;
	}
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
	return __uint_as_float((u32)b << 16);
}

XD u16 f2bf(float f)
{
	u32 u = __float_as_uint(f);

	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (u16)((u >> 16) | 0x40);
	u += 0x7fffu + ((u >> 16) & 1);
	return (u16)(u >> 16);
}

/* @d rounded to odd at float precision: exact for a later bf16 rounding. */
XD float d2f_odd(double d)
{
	float f = __double2float_rz(d);

	if (!isnan(d) && (double)f != d)
		f = __uint_as_float(__float_as_uint(f) | 1);
	return f;
}

XD u16 d2bf(double d)
{
	return f2bf(d2f_odd(d));
}

/* A float-class register value rounded to its type. */
XD float rnd(int t, float x)
{
	if (t == T_F16)
		return h2f(f2h(x));
	if (t == T_BF16)
		return bf2f(f2bf(x));
	return x;
}

/* ---- reals ---- */

XD double fmax_nan(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

XD double fmin_nan(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) ? a : b;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

XD double dun(int fn, double a)
{
	switch (fn) {
	case UN_ABS: return fabs(a);
	case UN_NEG: return -a;
	case UN_SIGN: return isnan(a) || a == 0 ? a : a > 0 ? 1.0 : -1.0;
	case UN_FLOOR: return floor(a);
	case UN_CEIL: return ceil(a);
	case UN_ROUND_AFZ: return round(a);
	case UN_ROUND_EVEN: return rint(a);
	case UN_EXP: return exp(a);
	case UN_EXPM1: return expm1(a);
	case UN_LOG: return log(a);
	case UN_LOG1P: return log1p(a);
	case UN_LOGISTIC: return 1.0 / (1.0 + exp(-a));
	case UN_SQRT: return sqrt(a);
	case UN_RSQRT: return 1.0 / sqrt(a);
	case UN_CBRT: return cbrt(a);
	case UN_TANH: return tanh(a);
	case UN_SIN: return sin(a);
	case UN_COS: return cos(a);
	case UN_TAN: return tan(a);
	case UN_ERF: return erf(a);
	case UN_IMAG: return 0.0;
	default: return a;	/* REAL */
	}
}

XD float fun(int fn, int t, float a)
{
	float r;

	switch (fn) {
	case UN_ABS: r = fabsf(a); break;
	case UN_NEG: r = -a; break;
	case UN_SQRT: r = sqrtf(a); break;
	case UN_RSQRT: r = 1.0f / sqrtf(a); break;
	case UN_FLOOR: r = floorf(a); break;
	case UN_CEIL: r = ceilf(a); break;
	case UN_ROUND_EVEN: r = rintf(a); break;
	default: r = (float)dun(fn, (double)a); break;
	}
	return rnd(t, r);
}

XD double dbin(int fn, double a, double b)
{
	switch (fn) {
	case BIN_ADD: return a + b;
	case BIN_SUB: return a - b;
	case BIN_MUL: return a * b;
	case BIN_DIV: return a / b;
	case BIN_REM: return fmod(a, b);
	case BIN_POW: return pow(a, b);
	case BIN_MAX: return fmax_nan(a, b);
	case BIN_MIN: return fmin_nan(a, b);
	default: return atan2(a, b);
	}
}

XD float fbin(int fn, int t, float a, float b)
{
	float r;

	switch (fn) {
	case BIN_ADD: r = a + b; break;
	case BIN_SUB: r = a - b; break;
	case BIN_MUL: r = a * b; break;
	case BIN_DIV: r = a / b; break;
	case BIN_REM: r = fmodf(a, b); break;
	default: r = (float)dbin(fn, a, b); break;
	}
	return rnd(t, r);
}

XD s64 total_key(double x)
{
	s64 k = __double_as_longlong(x);

	return k < 0 ? (s64)(~(u64)k | (1ull << 63)) : k;
}

XD s64 dcmp(int fn, double a, double b)
{
	if (fn & CMP_TOTAL) {
		s64 ka = total_key(a), kb = total_key(b);

		switch (fn & ~CMP_TOTAL) {
		case CMP_EQ: return ka == kb;
		case CMP_NE: return ka != kb;
		case CMP_LT: return ka < kb;
		case CMP_LE: return ka <= kb;
		case CMP_GT: return ka > kb;
		default: return ka >= kb;
		}
	}
	switch (fn) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: return a < b;
	case CMP_LE: return a <= b;
	case CMP_GT: return a > b;
	default: return a >= b;
	}
}

XD s64 finite_f(double a)
{
	return isfinite(a);
}

/* ---- complex, computed in double ---- */

struct cd {
	double re, im;
};

XD cd cdv(double re, double im)
{
	cd z = { re, im };

	return z;
}

XD cd cmul(cd a, cd b)
{
	return cdv(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

/* Smith's division: no overflow for large operands. */
XD cd cdivz(cd a, cd b)
{
	double r, d;

	if (fabs(b.re) >= fabs(b.im)) {
		r = b.im / b.re;
		d = b.re + b.im * r;
		return cdv((a.re + a.im * r) / d, (a.im - a.re * r) / d);
	}
	r = b.re / b.im;
	d = b.re * r + b.im;
	return cdv((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}

XD cd cexpz(cd z)
{
	double e = exp(z.re);

	if (z.im == 0)
		return cdv(e, z.im);
	return cdv(e * cos(z.im), e * sin(z.im));
}

XD cd clogz(cd z)
{
	return cdv(log(hypot(z.re, z.im)), atan2(z.im, z.re));
}

XD cd csqrtz(cd z)
{
	double m = hypot(z.re, z.im), t;

	if (z.re == 0 && z.im == 0)
		return cdv(0.0, z.im);
	if (isinf(z.im))
		return cdv(__int_as_float(0x7f800000), z.im);
	if (z.re >= 0) {
		t = sqrt(0.5 * (m + z.re));
		return cdv(t, z.im / (2 * t));
	}
	t = sqrt(0.5 * (m - z.re));
	return cdv(fabs(z.im) / (2 * t), copysign(t, z.im));
}

XD cd ctanhz(cd z)
{
	double d;

	if (fabs(z.re) > 20)
		return cdv(copysign(1.0, z.re), copysign(0.0, sin(2 * z.im)));
	d = cosh(2 * z.re) + cos(2 * z.im);
	return cdv(sinh(2 * z.re) / d, sin(2 * z.im) / d);
}

XD cd cun(int fn, cd z)
{
	switch (fn) {
	case UN_NEG: return cdv(-z.re, -z.im);
	case UN_SIGN: {
		double m = hypot(z.re, z.im);

		return m == 0 || isnan(m) ? z : cdv(z.re / m, z.im / m);
	}
	case UN_EXP: return cexpz(z);
	case UN_EXPM1: {
		cd e = cexpz(z);

		return cdv(fabs(z.re) < 1e-5 && z.im == 0 ? expm1(z.re) : e.re - 1, e.im);
	}
	case UN_LOG: return clogz(z);
	case UN_LOG1P: return clogz(cdv(1 + z.re, z.im));
	case UN_SQRT: return csqrtz(z);
	case UN_RSQRT: return cdivz(cdv(1, 0), csqrtz(z));
	case UN_TANH: return ctanhz(z);
	case UN_SIN: return cdv(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im));
	case UN_COS: return cdv(cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im));
	default: {	/* TAN: -i tanh(i z) */
		cd t = ctanhz(cdv(-z.im, z.re));

		return cdv(t.im, -t.re);
	}
	}
}

XD cd cbin(int fn, cd a, cd b)
{
	switch (fn) {
	case BIN_ADD: return cdv(a.re + b.re, a.im + b.im);
	case BIN_SUB: return cdv(a.re - b.re, a.im - b.im);
	case BIN_MUL: return cmul(a, b);
	case BIN_DIV: return cdivz(a, b);
	default:	/* POW */
		if (b.re == 0 && b.im == 0)
			return cdv(1, 0);
		if (a.re == 0 && a.im == 0)
			return cdv(0, 0);
		return cexpz(cmul(b, clogz(a)));
	}
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

	return fn == CMP_EQ ? eq : !eq;
}

/* ---- conversions ---- */

/* |v| rounded to odd at 53 bits: exact for a later rounding to a half. */
XD double u64_odd(u64 v)
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

/* An integer as a real of float class type @to (f16, bf16, f32). */
XD float i2f(int to, int from, s64 a)
{
	int neg = !is_uns(from) && a < 0;
	u64 mag = neg ? 0 - (u64)a : (u64)a;
	double odd = u64_odd(mag);

	if (neg)
		odd = -odd;
	if (to == T_F32)
		return neg ? -__ull2float_rn(mag) : __ull2float_rn(mag);
	if (to == T_F16)
		return h2f(d2h(odd));
	return bf2f(d2bf(odd));
}

XD double i2d(int from, s64 a)
{
	int neg = !is_uns(from) && a < 0;
	u64 mag = neg ? 0 - (u64)a : (u64)a;
	double d = __ull2double_rn(mag);

	return neg ? -d : d;
}

/* A real truncated toward zero and saturated to integer type @to. */
XD s64 d2i(int to, double x)
{
	int w = width(to);
	double hi, lo;

	if (to == T_PRED)
		return x != 0;
	if (isnan(x))
		return 0;
	if (is_uns(to)) {
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

/* A double as a float-class value of type @to. */
XD float d2fc(int to, double x)
{
	if (to == T_F16)
		return h2f(d2h(x));
	if (to == T_BF16)
		return bf2f(d2bf(x));
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
	return ibits(t, v);
}

XD u64 bits_f(int t, float v)
{
	if (t == T_F16)
		return f2h(v);
	if (t == T_BF16)
		return f2bf(v);
	return __float_as_uint(v);
}

XD u64 bits_d(double v)
{
	return (u64)__double_as_longlong(v);
}

XD float f_of_bits(int t, u64 b)
{
	if (t == T_F16)
		return h2f((u16)b);
	if (t == T_BF16)
		return bf2f((u16)b);
	return __uint_as_float((u32)b);
}

/* ---- reductions: accumulators of each register class ---- */

XD float red_id_f(int op)
{
	switch (op) {
	case RED_PROD: return 1.0f;
	case RED_MIN: case RED_ARGMIN: return __int_as_float(0x7f800000);
	case RED_MAX: case RED_ARGMAX: return -__int_as_float(0x7f800000);
	default: return 0.0f;
	}
}

XD s64 red_id_i(int op, int t)
{
	int un = is_uns(t), w = width(t);
	s64 imax = w == 64 ? (un ? -1 : (s64)(~0ull >> 1)) :
		   (s64)(un ? (1ull << w) - 1 : (1ull << (w - 1)) - 1);
	s64 imin = un ? 0 : w == 64 ? (s64)(1ull << 63) : -(s64)(1ull << (w - 1));

	switch (op) {
	case RED_PROD: return 1;
	case RED_AND: return t == T_PRED ? 1 : -1;
	case RED_MIN: case RED_ARGMIN: return t == T_PRED ? 1 : imax;
	case RED_MAX: case RED_ARGMAX: return t == T_PRED ? 0 : imin;
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
	case RED_SUM:
		*a = *a + b;
		break;
	case RED_PROD:
		*a = *a * b;
		break;
	case RED_MIN:
	case RED_MAX:
		if (better_d(op == RED_MIN, *a, b))
			*a = b;
		else if (*a == b && *a == 0 && (op == RED_MIN) == (signbit(b) != 0))
			*a = b;
		return;
	default: {
		int eq = *a == b || (isnan(*a) && isnan(b));

		if (better_d(op == RED_ARGMIN, *a, b) || (eq && bi < *ai)) {
			*a = b;
			*ai = bi;
		}
		return;
	}
	}
	if (t == T_F32)
		*a = (float)*a;
	else if (t == T_F16)
		*a = h2f(d2h(*a));	/* one rounding, from the exact double */
	else if (t == T_BF16)
		*a = bf2f(d2bf(*a));
}

XD void comb_i(int op, int t, s64 *a, s64 *ai, s64 b, s64 bi)
{
	int un = is_uns(t);

	switch (op) {
	case RED_SUM: *a = (s64)((u64)*a + (u64)b); break;
	case RED_PROD: *a = (s64)((u64)*a * (u64)b); break;
	case RED_AND: *a &= b; break;
	case RED_OR: *a |= b; break;
	case RED_MIN:
	case RED_MAX: {
		int bt = un ? (op == RED_MIN ? (u64)b < (u64)*a : (u64)b > (u64)*a) :
			      (op == RED_MIN ? b < *a : b > *a);
		if (bt)
			*a = b;
		break;
	}
	default: {
		int min = op == RED_ARGMIN;
		int bt = un ? (min ? (u64)b < (u64)*a : (u64)b > (u64)*a) :
			      (min ? b < *a : b > *a);
		if (bt || (b == *a && bi < *ai)) {
			*a = b;
			*ai = bi;
		}
		break;
	}
	}
	*a = iwrap(t, (u64)*a);
}

/* Complex: SUM and PROD only (the others need an order). */
XD void comb_c(int op, int t, cd *a, cd b)
{
	if (op == RED_SUM)
		*a = cdv(a->re + b.re, a->im + b.im);
	else
		*a = cmul(*a, b);
	if (t == T_C64)
		*a = cdv((float)a->re, (float)a->im);
}

/* ---- philox (RNG) ---- */

XD void philox(u32 *ctr, u64 seed)
{
	u32 k0 = (u32)seed, k1 = (u32)(seed >> 32);

	for (int i = 0; i < 10; i++) {
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
