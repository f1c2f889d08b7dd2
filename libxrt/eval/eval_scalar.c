// SPDX-License-Identifier: MIT
/*
 * One element at a time: what each elementwise opcode does to a value,
 * with XLA's rules for the corner cases.  Floats are computed in double
 * and rounded once to their type: for + - * / and sqrt that is exactly
 * what a device computing in the type itself gets (double has more than
 * twice the bits of f32), for the rest it is the better answer.
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "eval/eval.h"

static bool is_sint(enum xrt_dtype t)
{
	return xrt_dtype_is_integer(t) && xrt_dtype_is_signed(t);
}

static bool is_cplx(enum xrt_dtype t)
{
	return t == XRT_C64 || t == XRT_C128;
}

static bool is_real(enum xrt_dtype t)
{
	return xrt_dtype_is_float(t);
}

static unsigned int bits_of(enum xrt_dtype t)
{
	return xrt_dtype_bits(t);
}

static uint64_t mask_of(enum xrt_dtype t)
{
	return bits_of(t) >= 64 ? ~0ull : (1ull << bits_of(t)) - 1;
}

struct ev_scalar ev_wrap(enum xrt_dtype t, uint64_t bits)
{
	struct ev_scalar r = { { 0 }, 0 };
	unsigned int w = bits_of(t);

	r.u = bits & mask_of(t);
	if (is_sint(t) && w < 64 && (r.u >> (w - 1)) & 1)
		r.u |= ~mask_of(t);
	return r;
}

double ev_round(enum xrt_dtype t, double x)
{
	/*
	 * The small floats compute in f32, as XLA's CPU backend and every
	 * device here do: f32 has more than twice their bits, so + - * /
	 * and sqrt round as in the type itself, but f8e8m0fnu's range is
	 * f32's, and a product below it is 0 (NaN in that type).
	 */
	if (xrt_dtype_is_small_float(t))
		return xrt_small_float_to_f64(t, xrt_small_float_from_f64(t, (float)x));
	switch (t) {
	case XRT_F16:
		return xrt_f16_to_f32(xrt_f16_from_f64(x));
	case XRT_BF16:
		return xrt_bf16_to_f32(xrt_bf16_from_f64(x));
	case XRT_F32:
	case XRT_C64:
		return (float)x;
	default:
		return x;
	}
}

static struct ev_scalar real(enum xrt_dtype t, double x)
{
	struct ev_scalar r = { { 0 }, 0 };

	r.f = ev_round(t, x);
	return r;
}

static struct ev_scalar cplx(enum xrt_dtype t, double complex z)
{
	struct ev_scalar r = { { 0 }, 0 };

	r.f = ev_round(t, creal(z));
	r.im = ev_round(t, cimag(z));
	return r;
}

static double complex zval(struct ev_scalar x)
{
	return ev_cplx(x.f, x.im);
}

static struct ev_scalar int_unary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x)
{
	uint64_t u = x.u & mask_of(t);

	switch (op) {
	case XRT_OP_ABS:
		return ev_wrap(t, is_sint(t) && x.s < 0 ? 0 - x.u : x.u);
	case XRT_OP_NEGATE:
		return ev_wrap(t, 0 - x.u);
	case XRT_OP_SIGN:
		return ev_wrap(t, is_sint(t) ? (uint64_t)((x.s > 0) - (x.s < 0)) : u != 0);
	case XRT_OP_NOT:
		return ev_wrap(t, t == XRT_PRED ? !u : ~u);
	case XRT_OP_POPCNT:
		return ev_wrap(t, (uint64_t)__builtin_popcountll(u));
	case XRT_OP_CLZ:
		return ev_wrap(t, u ? (uint64_t)(__builtin_clzll(u) - (64 - bits_of(t))) :
			       bits_of(t));
	default:
		return x;	/* the verifier admits nothing else */
	}
}

static double float_sign(double x)
{
	return isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : x;
}

static double float_unary(enum xrt_opcode op, double x)
{
	switch (op) {
	case XRT_OP_ABS: return fabs(x);
	case XRT_OP_NEGATE: return -x;
	case XRT_OP_SIGN: return float_sign(x);
	case XRT_OP_FLOOR: return floor(x);
	case XRT_OP_CEIL: return ceil(x);
	case XRT_OP_ROUND_AFZ: return round(x);
	case XRT_OP_ROUND_EVEN: return nearbyint(x);	/* the default mode: ties to even */
	case XRT_OP_EXP: return exp(x);
	case XRT_OP_EXPM1: return expm1(x);
	case XRT_OP_LOG: return log(x);
	case XRT_OP_LOG1P: return log1p(x);
	case XRT_OP_LOGISTIC: return 1.0 / (1.0 + exp(-x));
	case XRT_OP_SQRT: return sqrt(x);
	case XRT_OP_RSQRT: return 1.0 / sqrt(x);
	case XRT_OP_CBRT: return cbrt(x);
	case XRT_OP_TANH: return tanh(x);
	case XRT_OP_SINE: return sin(x);
	case XRT_OP_COSINE: return cos(x);
	case XRT_OP_TAN: return tan(x);
	case XRT_OP_ERF: return erf(x);
	case XRT_OP_IMAG: return 0.0;
	default: return x;	/* real */
	}
}

/* expm1 and log1p without the cancellation of exp(z) - 1 and log(1 + z). */
static double complex cexpm1(double complex z)
{
	double a = creal(z), b = cimag(z), s = sin(b / 2);

	return ev_cplx(expm1(a) * cos(b) - 2 * s * s, exp(a) * sin(b));
}

static double complex clog1p(double complex z)
{
	double a = creal(z), b = cimag(z);

	return ev_cplx(0.5 * log1p(a * (2 + a) + b * b), atan2(b, 1 + a));
}

static struct ev_scalar complex_unary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x)
{
	double complex z = zval(x);
	enum xrt_dtype part = t == XRT_C64 ? XRT_F32 : XRT_F64;

	switch (op) {
	case XRT_OP_ABS: return real(part, cabs(z));
	case XRT_OP_REAL: return real(part, creal(z));
	case XRT_OP_IMAG: return real(part, cimag(z));
	case XRT_OP_NEGATE: return cplx(t, -z);
	case XRT_OP_SIGN:
		if (isnan(creal(z)) || isnan(cimag(z)))
			return cplx(t, ev_cplx(NAN, NAN));
		return cplx(t, z == 0 ? z : z / cabs(z));
	case XRT_OP_EXP: return cplx(t, cexp(z));
	case XRT_OP_EXPM1: return cplx(t, cexpm1(z));
	case XRT_OP_LOG: return cplx(t, clog(z));
	case XRT_OP_LOG1P: return cplx(t, clog1p(z));
	case XRT_OP_SQRT: return cplx(t, csqrt(z));
	case XRT_OP_RSQRT: return cplx(t, 1.0 / csqrt(z));
	case XRT_OP_TANH: return cplx(t, ctanh(z));
	case XRT_OP_SINE: return cplx(t, csin(z));
	case XRT_OP_COSINE: return cplx(t, ccos(z));
	default: return cplx(t, ctan(z));	/* tan */
	}
}

struct ev_scalar ev_unary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x)
{
	struct ev_scalar r = { { 0 }, 0 };

	if (is_cplx(t))
		return complex_unary(op, t, x);
	if (is_real(t)) {
		if (op == XRT_OP_IS_FINITE) {
			r.u = isfinite(x.f);
			return r;
		}
		return real(t, float_unary(op, x.f));
	}
	return int_unary(op, t, x);
}

/* The signed type of an integer type's width (pred stays pred). */
static enum xrt_dtype as_signed(enum xrt_dtype t)
{
	switch (t) {
	case XRT_U8: return XRT_S8;
	case XRT_U16: return XRT_S16;
	case XRT_U32: return XRT_S32;
	case XRT_U64: return XRT_S64;
	case XRT_U4: return XRT_S4;
	case XRT_U2: return XRT_S2;
	default: return t;
	}
}

/* Exponentiation by squaring over all the exponent's bits, wrapping. */
static uint64_t int_pow(uint64_t base, uint64_t e)
{
	uint64_t acc = 1;

	for (; e; e >>= 1, base *= base) {
		if (e & 1)
			acc *= base;
	}
	return acc;
}

static struct ev_scalar int_divide(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x,
				   struct ev_scalar y)
{
	bool rem = op == XRT_OP_REMAINDER;
	int64_t min = is_sint(t) ? ev_wrap(t, 1ull << (bits_of(t) - 1)).s : 0;

	if (!y.u)	/* x / 0 is -1 (all ones), x % 0 is x */
		return rem ? x : ev_wrap(t, ~0ull);
	if (is_sint(t)) {
		if (x.s == min && y.s == -1)	/* the one overflow */
			return rem ? ev_wrap(t, 0) : x;
		return ev_wrap(t, (uint64_t)(rem ? x.s % y.s : x.s / y.s));
	}
	return ev_wrap(t, rem ? x.u % y.u : x.u / y.u);
}

static struct ev_scalar int_binary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x,
				   struct ev_scalar y)
{
	uint64_t ux = x.u & mask_of(t), uy = y.u & mask_of(t), w = bits_of(t);
	int64_t sx = ev_wrap(as_signed(t), x.u).s;
	bool lt = is_sint(t) ? x.s < y.s : ux < uy;

	switch (op) {
	case XRT_OP_ADD: return ev_wrap(t, x.u + y.u);
	case XRT_OP_SUBTRACT: return ev_wrap(t, x.u - y.u);
	case XRT_OP_MULTIPLY: return ev_wrap(t, x.u * y.u);
	case XRT_OP_DIVIDE:
	case XRT_OP_REMAINDER:
		return int_divide(op, t, x, y);
	case XRT_OP_POWER:
		if (is_sint(t) && y.s < 0)	/* 1 / x^-y: an integer only for 1 and -1 */
			return ev_wrap(t, x.s == 1 ? 1 : x.s == -1 ? (y.u & 1 ? ~0ull : 1) : 0);
		return ev_wrap(t, int_pow(x.u, y.u));
	case XRT_OP_MAXIMUM: return lt ? y : x;
	case XRT_OP_MINIMUM: return lt ? x : y;
	case XRT_OP_AND: return ev_wrap(t, x.u & y.u);
	case XRT_OP_OR: return ev_wrap(t, x.u | y.u);
	case XRT_OP_XOR: return ev_wrap(t, x.u ^ y.u);
	/* Shift amounts are unsigned: negative ones are past the width. */
	case XRT_OP_SHIFT_LEFT: return ev_wrap(t, uy >= w ? 0 : x.u << uy);
	case XRT_OP_SHIFT_RIGHT_LOGICAL: return ev_wrap(t, uy >= w ? 0 : ux >> uy);
	default:	/* arithmetic: fills with the top bit, for unsigned types too */
		return ev_wrap(t, (uint64_t)(uy >= w ? (sx < 0 ? -1 : 0) : sx >> uy));
	}
}

/* max and min propagate NaN and order -0 below +0 (IEEE 754-2019). */
static double float_binary(enum xrt_opcode op, double x, double y)
{
	switch (op) {
	case XRT_OP_ADD: return x + y;
	case XRT_OP_SUBTRACT: return x - y;
	case XRT_OP_MULTIPLY: return x * y;
	case XRT_OP_DIVIDE: return x / y;
	case XRT_OP_REMAINDER: return fmod(x, y);
	case XRT_OP_POWER: return pow(x, y);
	case XRT_OP_ATAN2: return atan2(x, y);
	case XRT_OP_MAXIMUM:
		if (isnan(x) || isnan(y))
			return isnan(x) ? x : y;
		return x == y ? (signbit(x) ? y : x) : x > y ? x : y;
	default:	/* minimum */
		if (isnan(x) || isnan(y))
			return isnan(x) ? x : y;
		return x == y ? (signbit(x) ? x : y) : x < y ? x : y;
	}
}

/* XLA's complex atan2(y, x): -i log((x + iy) / sqrt(x^2 + y^2)); NaN where that is 0. */
static double complex catan2(double complex y, double complex x)
{
	double complex s = csqrt(x * x + y * y);

	if (s == 0)
		return ev_cplx(NAN, NAN);
	return -I * clog((x + I * y) / s);
}

/*
 * XLA's complex power (not C's cpow, whose special values differ): |x|^c
 * exp(-d arg x) (cos q + i sin q), q = c arg x + d log|x|, for y = c + di;
 * x^0, 1^y and 0^c (c > 0: 0) as XLA gives them, and inf^c for real c.
 */
static double complex xla_cpow(double complex x, double complex y)
{
	double c = creal(y), d = cimag(y), m = cabs(x), arg = carg(x), coeff, q;

	if (creal(x) == INFINITY && cimag(x) == 0 && d == 0 && c != 0)
		return c > 0 ? ev_cplx(INFINITY, 0) : ev_cplx(0, 0);
	if ((creal(x) == 1 && cimag(x) == 0) || (c == 0 && d == 0))
		return ev_cplx(1, 0);
	if (m == 0 && d == 0 && c >= 0)
		return ev_cplx(0, 0);
	coeff = pow(m, c) * exp(-d * arg);
	q = c * arg + d * log(m);
	return ev_cplx(coeff * cos(q), coeff * sin(q));
}

static double complex complex_binary(enum xrt_opcode op, double complex x, double complex y)
{
	switch (op) {
	case XRT_OP_ATAN2: return catan2(x, y);
	case XRT_OP_ADD: return x + y;
	case XRT_OP_SUBTRACT: return x - y;
	case XRT_OP_MULTIPLY: return x * y;
	case XRT_OP_DIVIDE: return x / y;
	default: return xla_cpow(x, y);	/* power */
	}
}

struct ev_scalar ev_binary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x,
			   struct ev_scalar y)
{
	struct ev_scalar r = { { 0 }, 0 };

	if (op == XRT_OP_COMPLEX) {
		r.f = x.f;
		r.im = y.f;
		return r;
	}
	if (is_cplx(t))
		return cplx(t, complex_binary(op, zval(x), zval(y)));
	if (is_real(t))
		return real(t, float_binary(op, x.f, y.f));
	return int_binary(op, t, x, y);
}

/* -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN, as integers. */
static int64_t total_order_key(double x)
{
	int64_t b;

	memcpy(&b, &x, sizeof(b));
	return b < 0 ? b ^ INT64_MAX : b;
}

static int order(const char *type, enum xrt_dtype t, struct ev_scalar x, struct ev_scalar y,
		 bool *unordered)
{
	*unordered = false;
	if (is_real(t) && type && !strcmp(type, "TOTALORDER")) {
		int64_t a = total_order_key(x.f), b = total_order_key(y.f);

		return (a > b) - (a < b);
	}
	if (is_real(t)) {
		*unordered = isnan(x.f) || isnan(y.f);
		return (x.f > y.f) - (x.f < y.f);
	}
	if (type ? !strcmp(type, "SIGNED") : is_sint(t)) {
		int64_t a = ev_wrap(as_signed(t), x.u).s, b = ev_wrap(as_signed(t), y.u).s;

		return (a > b) - (a < b);
	}
	return ((x.u & mask_of(t)) > (y.u & mask_of(t))) - ((x.u & mask_of(t)) < (y.u & mask_of(t)));
}

bool ev_compare(const char *dir, const char *type, enum xrt_dtype t, struct ev_scalar x,
		struct ev_scalar y)
{
	bool unordered, eq;
	int c;

	if (is_cplx(t)) {
		eq = x.f == y.f && x.im == y.im;
		return dir[0] == 'E' ? eq : !eq;
	}
	c = order(type, t, x, y, &unordered);
	if (!strcmp(dir, "NE"))
		return unordered || c != 0;
	if (unordered)
		return false;
	if (!strcmp(dir, "EQ"))
		return c == 0;
	if (!strcmp(dir, "LT"))
		return c < 0;
	if (!strcmp(dir, "LE"))
		return c <= 0;
	if (!strcmp(dir, "GT"))
		return c > 0;
	return c >= 0;
}
