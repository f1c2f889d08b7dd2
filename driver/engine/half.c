// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * f16 conversions for the engine, rounding to nearest even (bf16 and
 * the double rounding both use are in engine/scalar.h).
 *
 * libxrt's core has its own, written differently (from double bits in
 * one step); the selftests check the two against each other on every
 * pattern, so neither is its own reference.
 */
#include "engine_internal.h"

u16 engine_f32_to_f16(float f)
{
	u32 b = xs_f32_bits(f), sign = (b >> 16) & 0x8000, abs = b & 0x7fffffff;
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
		return xs_bits_f32(sign | 0x7f800000 | (m << 13));
	float v;

	if (e)
		return xs_bits_f32(sign | ((e + 112) << 23) | (m << 13));
	/* Subnormal or zero: m * 2^-24, exact in float. */
	v = (float)m * xs_bits_f32(0x33800000);
	return sign ? -v : v;
}

u16 engine_f64_to_f16(double d)
{
	return engine_f32_to_f16(xs_f64_to_f32_sticky(d));
}
