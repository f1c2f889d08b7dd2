// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * exp, tanh and logistic on blocks of f32, branch-free so the compiler
 * vectorizes them (the other f32 functions go through the f64 ones of
 * emath.c, one element at a time).  exp is Cody-Waite reduction by
 * ln 2 and a polynomial on [-ln2/2, ln2/2] (below), scaled by 2^n in
 * two steps so subnormal results come out right; tanh is a
 * polynomial near 0 and goes through exp beyond (below); logistic is
 * 1 / (1 + e^-|x|), or e^-|x| over the same for x < 0: one division
 * either way (e^-|x| times 1 / (1 + e^-|x|) rounds once more and was 3
 * steps off just under 0.25).  No fused multiply-add (the
 * engine builds without contraction), so every executor, vector width
 * and order gives the same bits.  Bounds are measured in
 * test_engine_math.
 */
#include "emath.h"
#include "ew.h"

/*
 * e^c = 2^n e^r: sets @t to c / ln 2 rounded plus 1.5 * 2^23 (so its low
 * bits are n, and n = @t - 1.5 * 2^23) and returns e^r, r = c - n ln 2
 * (ln 2 in two parts).  e^r = 1 + r + r^2 P(r), P of degree 4 a minimax
 * fit (relative error 3.7e-9, a sixteenth of a step), one degree below
 * Cephes' polynomial for the same result: exp and tanh stay within a step
 * of the correctly rounded value over every f32 (measured against expl
 * and tanhl).  c must be finite and under 2^22 in magnitude.
 */
static __always_inline float exp_reduced(float c, float *t)
{
	float n, r, z, p;

	*t = c * 1.44269504f + 12582912.0f;	/* rounds to an integer */
	n = *t - 12582912.0f;
	r = c - n * 0.693359375f - n * -0.000212194440f;
	z = r * r;
	p = 0.0013879663f;
	p = p * r + 0.0083687641f;
	p = p * r + 0.041667230f;
	p = p * r + 0.16666520f;
	p = p * r + 0.49999997f;
	return p * z + r + 1.0f;
}

/* e^x of one element; written so a loop of it vectorizes. */
static __always_inline float exp1(float x)
{
	float c = x == x ? x : 0.0f;	/* NaN must not reach the int conversion */
	float t, p;
	s32 k, k1, k2;

	c = c > 88.7228394f ? 88.7228394f : c < -103.972084f ? -103.972084f : c;
	p = exp_reduced(c, &t);
	k = (s32)(t - 12582912.0f);
	k1 = k / 2;
	k2 = k - k1;
	/* 2^k in two factors, each a normal float, so 2^-149 is reachable */
	p = p * engine_bits_f32((u32)(k1 + 127) << 23) * engine_bits_f32((u32)(k2 + 127) << 23);
	p = x > 88.7228394f ? engine_bits_f32(0x7f800000u) : p;
	return x != x ? x : p;
}

/*
 * e^c for c in [0, 19]: no clamps, and 2^n is one normal float, its
 * exponent field n + 127 from t's low bits (the shift drops the rest).
 */
static __always_inline float exp_small(float c)
{
	float t, p = exp_reduced(c, &t);

	return p * engine_bits_f32((engine_f32_bits(t) + 127u) << 23);
}

/*
 * tanh in f32: x + x^3 P(x^2) below 0.625 (P of degree 4, a weighted
 * least-squares fit to 4.6e-9), where the x^3 term is at most an eighth
 * of the result, so its rounding errors shrink as much; 1 - 2/(e^2x + 1)
 * from there on, with x held at 9.25, where that rounds to 1 (it does
 * from 9.011).  At most one step from the correctly
 * rounded value over every f32 (measured against tanhl;
 * test_engine_math checks a million).  In double, as it was, it cost a
 * sixth more with AVX-512 (two 8-wide divisions for each 16 floats).
 */
static __always_inline float tanh1(float x)
{
	float ax = engine_bits_f32(engine_f32_bits(x) & 0x7fffffffu), z = ax * ax, p;
	/* a NaN becomes 9.25 too, and its result x below */
	float c = ax < 9.25f ? ax : 9.25f, small, large, r;

	p = -0.005718891508877277f;
	p = p * z + 0.02065306343138218f;
	p = p * z + -0.053744640201330185f;
	p = p * z + 0.13331513106822968f;
	p = p * z + -0.3333328664302826f;
	small = ax + ax * z * p;	/* inf or NaN where not chosen */
	large = 1.0f - 2.0f / (exp_small(c + c) + 1.0f);
	r = ax < 0.625f ? small : large;
	r = engine_bits_f32(engine_f32_bits(r) | (engine_f32_bits(x) & 0x80000000u));
	return x != x ? x : r;
}

/* e^-|x| never overflows, so tiny results for x << 0 stay subnormal, not 0. */
static __always_inline float logistic1(float x)
{
	float e = exp1(engine_bits_f32(engine_f32_bits(x) | 0x80000000u));
	float r = (x < 0.0f ? e : 1.0f) / (1.0f + e);

	return x != x ? x : r;
}

/*
 * Each function three times: for the baseline vectors, for AVX2 and for
 * AVX-512 where the caller allows them (xrt_engine_use_avx2, _avx512).
 * The arithmetic is the same IEEE operations in the same order each
 * way, so all give the same bits; test_engine_math checks they do.
 */
#define VM_LOOP(name, f)							\
static __always_inline float name##_elem(float x)				\
{										\
	return f(x);								\
}										\
										\
static void name##_base(float *d, const float *a, u32 n)			\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = name##_elem(a[i]);					\
}										\
										\
__attribute__((target("avx2")))							\
static void name##_avx2(float *d, const float *a, u32 n)			\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = name##_elem(a[i]);					\
}										\
										\
ENGINE_AVX512								\
static void name##_avx512(float *d, const float *a, u32 n)			\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = name##_elem(a[i]);					\
}										\
										\
void name(float *d, const float *a, u32 n)					\
{										\
	if (xrt_engine_use_avx512)						\
		name##_avx512(d, a, n);						\
	else if (xrt_engine_use_avx2)						\
		name##_avx2(d, a, n);						\
	else									\
		name##_base(d, a, n);						\
}

VM_LOOP(vm_exp_f32, exp1)
VM_LOOP(vm_tanh_f32, tanh1)
VM_LOOP(vm_logistic_f32, logistic1)

int ew_f32_fast(u32 fn, float *d, const float *a, u32 n)
{
	switch (fn) {
	case XRT_CS_UN_EXP:
		vm_exp_f32(d, a, n);
		return 1;
	case XRT_CS_UN_TANH:
		vm_tanh_f32(d, a, n);
		return 1;
	case XRT_CS_UN_LOGISTIC:
		vm_logistic_f32(d, a, n);
		return 1;
	default:
		return 0;
	}
}
