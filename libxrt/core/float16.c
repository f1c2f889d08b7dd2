// SPDX-License-Identifier: MIT
/*
 * Conversions between double/float and the two 16-bit float formats.
 *
 * Narrowing goes straight from the double's bits to the target format
 * with one round-to-nearest-even step.  A float widens to double
 * exactly, so the float entry points round correctly too.
 */
#include <string.h>

#include <xrt/dtype.h>

/* Rounds @x to a binary format with @ebits exponent, @mbits mantissa bits. */
static uint16_t narrow(double x, unsigned int ebits, unsigned int mbits)
{
	const int bias = (1 << (ebits - 1)) - 1;
	const unsigned int expmax = (1u << ebits) - 1;
	uint64_t bits, m, q, rem, half;
	unsigned int shift;
	uint16_t sign;
	int exp, e;

	memcpy(&bits, &x, sizeof(bits));
	sign = (uint16_t)((bits >> 63) << (ebits + mbits));
	exp = (int)((bits >> 52) & 0x7ff);
	m = bits & ((UINT64_C(1) << 52) - 1);
	if (exp == 0x7ff) {
		if (!m)
			return sign | (uint16_t)(expmax << mbits);
		/* Quiet NaN keeping the top payload bits. */
		return sign | (uint16_t)(expmax << mbits) |
		       (uint16_t)(1u << (mbits - 1)) |
		       (uint16_t)(m >> (52 - mbits));
	}
	if (exp == 0)	/* zero or a double subnormal: far below any target */
		return sign;
	m |= UINT64_C(1) << 52;
	e = exp - 1023 + bias;	/* the target's biased exponent */
	if (e >= (int)expmax)
		return sign | (uint16_t)(expmax << mbits);
	shift = 52 - mbits;
	if (e < 1)		/* subnormal in the target */
		shift += (unsigned int)(1 - e);
	if (shift > 63)
		shift = 63;
	q = m >> shift;
	rem = m & ((UINT64_C(1) << shift) - 1);
	half = UINT64_C(1) << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (e < 1)	/* q may reach 1 << mbits: the smallest normal */
		return sign | (uint16_t)q;
	/* A mantissa carry moves into the exponent, up to infinity. */
	return sign | (uint16_t)(((uint64_t)e << mbits) + q - (1u << mbits));
}

uint16_t xrt_f16_from_f64(double x)
{
	return narrow(x, 5, 10);
}

uint16_t xrt_f16_from_f32(float x)
{
	return narrow((double)x, 5, 10);
}

uint16_t xrt_bf16_from_f64(double x)
{
	return narrow(x, 8, 7);
}

uint16_t xrt_bf16_from_f32(float x)
{
	return narrow((double)x, 8, 7);
}

float xrt_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = (h >> 10) & 0x1f;
	uint32_t man = h & 0x3ff;
	uint32_t bits;
	float f;

	if (exp == 0x1f) {
		bits = sign | 0x7f800000u | (man << 13);
	} else if (exp) {
		bits = sign | ((exp + 112) << 23) | (man << 13);
	} else if (!man) {
		bits = sign;
	} else {
		/* Subnormal: normalize; exp counts the shifts. */
		exp = 113;
		while (!(man & 0x400)) {
			man <<= 1;
			exp--;
		}
		bits = sign | (exp << 23) | ((man & 0x3ff) << 13);
	}
	memcpy(&f, &bits, sizeof(f));
	return f;
}

float xrt_bf16_to_f32(uint16_t b)
{
	uint32_t bits = (uint32_t)b << 16;
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}
