// SPDX-License-Identifier: MIT
/*
 * Elements between types: convert (saturating, NaN to 0, rounding
 * once), reduce-precision (XLA's bit recipe), and the bytes of an
 * element as a literal stores them.
 */
#include <math.h>
#include <string.h>

#include "eval/eval.h"

static bool is_sint(enum xrt_dtype t)
{
	return xrt_dtype_is_integer(t) && xrt_dtype_is_signed(t);
}

static bool is_int(enum xrt_dtype t)
{
	return xrt_dtype_is_integer(t) || t == XRT_PRED;
}

static enum xrt_dtype part_of(enum xrt_dtype t)
{
	return t == XRT_C64 ? XRT_F32 : t == XRT_C128 ? XRT_F64 : t;
}

/*
 * An integer as a double rounded to odd when it has more than 53
 * significant bits: rounding that once more to a narrower float gives
 * the correctly rounded result, as if rounded once from the integer.
 */
static double int_to_double_odd(bool neg, uint64_t mag)
{
	int k = 64 - __builtin_clzll(mag | 1) - 53;
	double d;

	if (k > 0) {
		uint64_t dropped = mag & ((1ull << k) - 1);

		mag &= ~((1ull << k) - 1);
		if (dropped)
			mag |= 1ull << k;
	}
	d = (double)mag;
	return neg ? -d : d;
}

static double int_to_float(enum xrt_dtype from, enum xrt_dtype to, struct ev_scalar x)
{
	bool neg = is_sint(from) && x.s < 0;
	uint64_t mag = neg ? 0 - x.u : x.u;

	if (to == XRT_F64 || to == XRT_C128)	/* C's conversions round once */
		return is_sint(from) ? (double)x.s : (double)x.u;
	if (to == XRT_F32 || to == XRT_C64)
		return is_sint(from) ? (float)x.s : (float)x.u;
	if (xrt_dtype_is_small_float(to))	/* once, not through f32 */
		return xrt_small_float_to_f64(to, xrt_small_float_from_f64(to,
						int_to_double_odd(neg, mag)));
	return ev_round(to, int_to_double_odd(neg, mag));
}

/* Saturating, NaN to 0, truncating toward zero (XLA's convert). */
static struct ev_scalar float_to_int(enum xrt_dtype to, double f)
{
	unsigned int w = xrt_dtype_bits(to);
	struct ev_scalar r = { { 0 }, 0 };

	if (isnan(f))
		return r;
	if (is_sint(to)) {
		double lim = ldexp(1.0, (int)w - 1);

		if (f >= lim)
			return ev_wrap(to, (1ull << (w - 1)) - 1);
		if (f <= -lim)
			return ev_wrap(to, 1ull << (w - 1));
		return ev_wrap(to, (uint64_t)(int64_t)trunc(f));
	}
	if (f <= 0)
		return r;
	if (f >= ldexp(1.0, (int)w))
		return ev_wrap(to, ~0ull);
	return ev_wrap(to, (uint64_t)trunc(f));
}

struct ev_scalar ev_convert(enum xrt_dtype from, enum xrt_dtype to, struct ev_scalar x)
{
	struct ev_scalar r = { { 0 }, 0 };
	bool cfrom = xrt_dtype_is_complex(from);

	if (from == to)
		return x;
	if (to == XRT_PRED) {
		r.u = is_int(from) ? x.u != 0 : (x.f != 0 || (cfrom && x.im != 0));
		return r;
	}
	if (is_int(from) && is_int(to))
		return ev_wrap(to, x.u);
	if (is_int(from)) {
		r.f = int_to_float(from, to, x);
		return r;
	}
	/* From a float or complex: a complex source gives its real part. */
	if (is_int(to))
		return float_to_int(to, x.f);
	if (xrt_dtype_is_small_float(to)) {	/* rounded once, from the value itself */
		r.f = xrt_small_float_to_f64(to, xrt_small_float_from_f64(to, x.f));
		return r;
	}
	r.f = ev_round(part_of(to), x.f);
	if (cfrom && xrt_dtype_is_complex(to))
		r.im = ev_round(part_of(to), x.im);
	return r;
}

int64_t ev_index_value(enum xrt_dtype t, struct ev_scalar x)
{
	if (is_sint(t))
		return x.s;
	return x.u > INT64_MAX ? INT64_MAX : (int64_t)x.u;
}

void ev_store_bytes(enum xrt_dtype t, struct ev_scalar x, void *p)
{
	float f[2] = { (float)x.f, (float)x.im };
	uint16_t h;

	if (xrt_dtype_is_small_float(t)) {
		*(uint8_t *)p = xrt_small_float_from_f64(t, x.f);
		return;
	}
	if (xrt_dtype_bits(t) < 8 && t != XRT_PRED) {	/* s4 ... u2: the low bits */
		*(uint8_t *)p = (uint8_t)(x.u & ((1u << xrt_dtype_bits(t)) - 1));
		return;
	}
	switch (t) {
	case XRT_F16:
		h = xrt_f16_from_f64(x.f);
		memcpy(p, &h, 2);
		return;
	case XRT_BF16:
		h = xrt_bf16_from_f64(x.f);
		memcpy(p, &h, 2);
		return;
	case XRT_F32:
		memcpy(p, f, 4);
		return;
	case XRT_C64:
		memcpy(p, f, 8);
		return;
	case XRT_F64:
		memcpy(p, &x.f, 8);
		return;
	case XRT_C128:
		memcpy(p, &x.f, 8);
		memcpy((char *)p + 8, &x.im, 8);
		return;
	default:	/* integers, little-endian: the low bytes of u */
		memcpy(p, &x.u, xrt_dtype_size(t));
	}
}

struct ev_scalar ev_load_bytes(enum xrt_dtype t, const void *p)
{
	struct ev_scalar r = { { 0 }, 0 };
	float f[2];
	uint16_t h;

	if (xrt_dtype_is_small_float(t)) {
		r.f = xrt_small_float_to_f64(t, *(const uint8_t *)p);
		return r;
	}
	switch (t) {
	case XRT_F16:
		memcpy(&h, p, 2);
		r.f = xrt_f16_to_f32(h);
		return r;
	case XRT_BF16:
		memcpy(&h, p, 2);
		r.f = xrt_bf16_to_f32(h);
		return r;
	case XRT_F32:
	case XRT_C64:
		memcpy(f, p, t == XRT_F32 ? 4 : 8);
		r.f = f[0];
		r.im = t == XRT_C64 ? f[1] : 0;
		return r;
	case XRT_F64:
	case XRT_C128:
		memcpy(&r.f, p, 8);
		if (t == XRT_C128)
			memcpy(&r.im, (const char *)p + 8, 8);
		return r;
	default:
		memcpy(&r.u, p, xrt_dtype_size(t));
		return ev_wrap(t, r.u);
	}
}

/*
 * reduce-precision, on the type's own bits: round the mantissa to
 * nearest even, then send exponents beyond the narrower range to
 * infinity and those at or below its bottom to zero (denormals too);
 * NaN stays NaN unless no mantissa bits are left, then it is infinity.
 */
struct ev_scalar ev_reduce_precision(enum xrt_dtype t, struct ev_scalar x, int64_t exp_bits,
				     int64_t mant_bits)
{
	int sm = t == XRT_F16 ? 10 : t == XRT_BF16 ? 7 : t == XRT_F32 ? 23 : 52;
	int se = t == XRT_F16 ? 5 : t == XRT_F32 || t == XRT_BF16 ? 8 : 11;
	uint64_t v = 0, sign = 1ull << (sm + se), expmask = ((1ull << se) - 1) << sm;
	unsigned char buf[8] = { 0 };

	if (isnan(x.f)) {
		if (mant_bits > 0)
			return x;
		x.f = INFINITY;
		return x;
	}
	ev_store_bytes(t, x, buf);
	memcpy(&v, buf, sizeof(v));
	if (mant_bits < sm) {
		uint64_t last = 1ull << (sm - mant_bits);
		uint64_t bias = (last >> 1) - 1 + ((v & last) ? 1 : 0);

		v = (v + bias) & ~(last - 1);
	}
	if (exp_bits < se) {
		uint64_t ebias = (1ull << (se - 1)) - 1, rbias = (1ull << (exp_bits - 1)) - 1;
		uint64_t e = v & expmask;

		if (e > (ebias + rbias) << sm)
			v = (v & sign) | expmask;
		else if (e <= (ebias - rbias) << sm)
			v &= sign;
	}
	memcpy(buf, &v, sizeof(v));
	return ev_load_bytes(t, buf);
}
