/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Fused multiply-add, the DOT's step: c + a * b rounded once to float.
 * The instruction where the engine may use it (xrt_engine_use_avx2:
 * AVX2 with FMA), and otherwise efma_soft(), which gives the same bits
 * on any CPU: the product of two floats is exact in double, the sum is
 * rounded to odd in double (its last bit set where it is inexact), and
 * that, with 29 more bits than a float, rounds to the float the exact
 * sum rounds to.
 */
#ifndef XRT_ENGINE_EFMA_H
#define XRT_ENGINE_EFMA_H

#include "engine_internal.h"

static inline float efma_soft(float a, float b, float c)
{
	double p = (double)a * (double)b, s = p + (double)c;
	double v = s - p, err = (p - (s - v)) + ((double)c - v);	/* s + err is exact */
	u64 bits;

	if (err == 0 || s - s != 0)	/* exact, or inf or NaN (err is NaN then) */
		return (float)s;
	memcpy(&bits, &s, sizeof(bits));
	if (bits & 1)
		return (float)s;
	if (__builtin_signbit(err) == __builtin_signbit(s))	/* to odd: toward the exact sum */
		bits++;
	else
		bits--;
	memcpy(&s, &bits, sizeof(s));
	return (float)s;
}

/* Lane by lane fused multiply-adds: c + a * b, 8 and 16 floats (target fma). */
#define EFMA8(a, b, c) __builtin_ia32_vfmaddps256((a), (b), (c))
#define EFMA16(a, b, c) __builtin_ia32_vfmaddps512_mask((a), (b), (c), (unsigned short)-1, 4)

#endif /* XRT_ENGINE_EFMA_H */
