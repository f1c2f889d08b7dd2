// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * f16 and bf16 conversions for the engine, rounding to nearest even.
 *
 * libxrt's core has its own, written differently (from double bits in
 * one step); the selftests check the two against each other on every
 * pattern, so neither is its own reference.
 */
#include "engine_internal.h"

u16 engine_f32_to_f16(float f)
{
	u32 b = engine_f32_bits(f), sign = (b >> 16) & 0x8000, abs = b & 0x7fffffff;
	u32 m, shift, rest, half, q;

	if (abs >= 0x7f800000)		/* inf or NaN */
		return (u16)(sign | 0x7c00 |
			     (abs > 0x7f800000 ? 0x200 | ((abs >> 13) & 0x3ff) : 0));
	if (abs >= 0x477ff000)		/* rounds to 65536 or more */
		return (u16)(sign | 0x7c00);
	if (abs >= 0x38800000) {	/* normal in f16 */
		q = (abs - 0x38000000) >> 13;	/* rebias 127 -> 15 */
		rest = abs & 0x1fff;
		if (rest > 0x1000 || (rest == 0x1000 && (q & 1)))
			q++;
		return (u16)(sign | q);
	}
	if (abs < 0x33000000)		/* below half the smallest subnormal */
		return (u16)sign;
	/* Subnormal in f16: value = m * 2^(e - 150); unit is 2^-24. */
	m = (abs & 0x7fffff) | 0x800000;
	shift = 126 - (abs >> 23);	/* 14..24 */
	q = m >> shift;
	rest = m & ((1u << shift) - 1);
	half = 1u << (shift - 1);
	if (rest > half || (rest == half && (q & 1)))
		q++;
	return (u16)(sign | q);
}

float engine_f16_to_f32(u16 h)
{
	u32 sign = (u32)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return engine_bits_f32(sign | 0x7f800000 | (m << 13));
	float v;

	if (e)
		return engine_bits_f32(sign | ((e + 112) << 23) | (m << 13));
	/* Subnormal or zero: m * 2^-24, exact in float. */
	v = (float)m * engine_bits_f32(0x33800000);
	return sign ? -v : v;
}

u16 engine_f32_to_bf16(float f)
{
	u32 b = engine_f32_bits(f);

	if ((b & 0x7fffffff) > 0x7f800000)	/* NaN: keep it quiet */
		return (u16)((b >> 16) | 0x40);
	b += 0x7fff + ((b >> 16) & 1);
	return (u16)(b >> 16);
}

float engine_bf16_to_f32(u16 h)
{
	return engine_bits_f32((u32)h << 16);
}

/*
 * A double rounds to f16 through float correctly unless the float
 * rounding creates a tie: then nudge the float toward the double.
 */
static float to_float_sticky(double d)
{
	float f = (float)d;
	u32 b;

	if ((double)f == d || f != f)
		return f;
	b = engine_f32_bits(f);
	/* Make the last bit record that the double was not exactly f. */
	if (!(b & 1))
		b += ((double)f < d) == !(b >> 31) ? 1 : -1u;
	return engine_bits_f32(b);
}

u16 engine_f64_to_f16(double d)
{
	return engine_f32_to_f16(to_float_sticky(d));
}

u16 engine_f64_to_bf16(double d)
{
	return engine_f32_to_bf16(to_float_sticky(d));
}
