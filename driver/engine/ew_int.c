// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Integer and pred instructions, with XLA's semantics: arithmetic wraps;
 * division truncates, x / 0 is -1 (all ones) and x % 0 is x, MIN / -1 is
 * MIN and MIN % -1 is 0; shifts by the width or more give 0 (arithmetic
 * right shift: the sign fill).  Values are kept as s64, wrapped to the
 * type's width after every instruction.
 */
#include "ew.h"

static u32 width(u32 dtype)
{
	return dtype == XRT_CS_PRED ? 1 : engine_dtype_size(dtype) * 8;
}

static int is_unsigned(u32 dtype)
{
	return dtype >= XRT_CS_U8 && dtype <= XRT_CS_U64;
}

/* Wraps @v to the type: sign-extend signed types, zero-extend others. */
static s64 wrap(u32 dtype, u64 v)
{
	u32 w = width(dtype);

	if (dtype == XRT_CS_PRED)
		return v != 0;
	if (w == 64)
		return (s64)v;
	v &= (1ull << w) - 1;
	if (!is_unsigned(dtype) && (v >> (w - 1)))
		v |= ~0ull << w;
	return (s64)v;
}

void ew_int_wrap(u32 dtype, s64 *d, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = wrap(dtype, (u64)d[i]);
}

/* The value's bits within the type's width. */
static u64 bits(u32 dtype, s64 v)
{
	u32 w = width(dtype);

	return w == 64 ? (u64)v : (u64)v & ((1ull << w) - 1);
}

static u32 popcount(u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (u32)((v * 0x0101010101010101ull) >> 56);
}

static u32 clz(u64 v, u32 w)
{
	u32 n = 0;

	while (n < w && !(v & (1ull << (w - 1 - n))))
		n++;
	return n;
}

static s64 unary_one(u32 fn, u32 dtype, s64 a)
{
	int un = is_unsigned(dtype);

	switch (fn) {
	case XRT_CS_UN_ABS:
		return un || a >= 0 ? a : (s64)(0 - (u64)a);
	case XRT_CS_UN_NEG:
		return (s64)(0 - (u64)a);
	case XRT_CS_UN_SIGN:
		return un ? a != 0 : (a > 0) - (a < 0);
	case XRT_CS_UN_NOT:
		return dtype == XRT_CS_PRED ? !a : ~a;
	case XRT_CS_UN_POPCNT:
		return popcount(bits(dtype, a));
	case XRT_CS_UN_CLZ:
		return clz(bits(dtype, a), width(dtype));
	}
	return 0;
}

void ew_int_unary(u32 fn, u32 dtype, s64 *d, const s64 *a, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = wrap(dtype, (u64)unary_one(fn, dtype, a[i]));
}

static s64 divide(u32 dtype, s64 a, s64 b, int rem)
{
	if (is_unsigned(dtype)) {
		u64 x = bits(dtype, a), y = bits(dtype, b);

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

/* @a's bits of @dtype's width, sign-extended from the top one. */
static s64 sext(u32 dtype, s64 a)
{
	u32 w = width(dtype);
	u64 x = bits(dtype, a);

	if (w < 64 && (x >> (w - 1)) & 1)
		x |= ~0ull << w;
	return (s64)x;
}

/*
 * Arithmetic right shifts fill with the top bit of the type's width,
 * for unsigned types too (XLA's rule: the bits, not the type, decide).
 */
static s64 shift(u32 fn, u32 dtype, s64 a, s64 b)
{
	u32 w = width(dtype);
	u64 s = bits(dtype, b);

	if (fn == XRT_CS_BIN_SHR_ARITH)
		a = sext(dtype, a);
	if (s >= w) {
		if (fn == XRT_CS_BIN_SHR_ARITH)
			return a < 0 ? -1 : 0;
		return 0;
	}
	switch (fn) {
	case XRT_CS_BIN_SHL:
		return (s64)((u64)a << s);
	case XRT_CS_BIN_SHR_LOGICAL:
		return (s64)(bits(dtype, a) >> s);
	default:
		return a < 0 ? ~(~a >> s) : a >> s;
	}
}

/* Integer power by squaring; negative exponents give 0 unless |a| is 1. */
static s64 ipow(u32 dtype, s64 a, s64 b)
{
	u64 r = 1, x = (u64)a;

	if (!is_unsigned(dtype) && b < 0) {
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

static int less(u32 dtype, s64 a, s64 b)
{
	return is_unsigned(dtype) ? bits(dtype, a) < bits(dtype, b) : a < b;
}

static s64 binary_one(u32 fn, u32 dtype, s64 a, s64 b)
{
	switch (fn) {
	case XRT_CS_BIN_ADD:
		return (s64)((u64)a + (u64)b);
	case XRT_CS_BIN_SUB:
		return (s64)((u64)a - (u64)b);
	case XRT_CS_BIN_MUL:
		return (s64)((u64)a * (u64)b);
	case XRT_CS_BIN_DIV:
		return divide(dtype, a, b, 0);
	case XRT_CS_BIN_REM:
		return divide(dtype, a, b, 1);
	case XRT_CS_BIN_POW:
		return ipow(dtype, a, b);
	case XRT_CS_BIN_MAX:
		return less(dtype, a, b) ? b : a;
	case XRT_CS_BIN_MIN:
		return less(dtype, a, b) ? a : b;
	case XRT_CS_BIN_AND:
		return a & b;
	case XRT_CS_BIN_OR:
		return a | b;
	case XRT_CS_BIN_XOR:
		return a ^ b;
	default:
		return shift(fn, dtype, a, b);
	}
}

void ew_int_binary(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		   u32 n)
{
	u32 i;

	if (fn == XRT_CS_BIN_ADD) {	/* the common case, vectorizable */
		for (i = 0; i < n; i++)
			d[i] = (s64)((u64)a[i] + (u64)b[i]);
	} else {
		for (i = 0; i < n; i++)
			d[i] = binary_one(fn, dtype, a[i], b[i]);
	}
	ew_int_wrap(dtype, d, n);
}

void ew_int_compare(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		    u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		int lt = less(dtype, a[i], b[i]), gt = less(dtype, b[i], a[i]);

		switch (fn) {
		case XRT_CS_CMP_EQ:
			d[i] = !lt && !gt;
			break;
		case XRT_CS_CMP_NE:
			d[i] = lt || gt;
			break;
		case XRT_CS_CMP_LT:
			d[i] = lt;
			break;
		case XRT_CS_CMP_LE:
			d[i] = !gt;
			break;
		case XRT_CS_CMP_GT:
			d[i] = gt;
			break;
		default:
			d[i] = !lt;
			break;
		}
	}
}
