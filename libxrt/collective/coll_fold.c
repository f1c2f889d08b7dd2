// SPDX-License-Identifier: MIT
/*
 * One element folded into another, as the engine's REDUCE combines
 * them: floats in their type (16-bit and 8-bit floats through f32,
 * rounded back at every step), NaNs winning min and max, integers
 * wrapping, pred as 0 or 1.  f32, f64 and the 32- and 64-bit integers
 * SUM in plain loops the compiler vectorizes: all-reduce's bandwidth
 * is theirs.
 */
#include <string.h>

#include "collective/collective.h"
#include "engine/scalar.h"

static double real_op(uint32_t op, double a, double b)
{
	switch (op) {
	case XRT_CS_RED_SUM:
		return a + b;
	case XRT_CS_RED_PROD:
		return a * b;
	case XRT_CS_RED_MIN:
		return xs_min(a, b);
	default:
		return xs_max(a, b);
	}
}

static float f32_op(uint32_t op, float a, float b)
{
	switch (op) {
	case XRT_CS_RED_SUM:
		return a + b;
	case XRT_CS_RED_PROD:
		return a * b;
	default:
		return (float)real_op(op, a, b);
	}
}

static int64_t int_op(uint32_t op, uint32_t t, int64_t a, int64_t b)
{
	switch (op) {
	case XRT_CS_RED_SUM:
		return xs_int_wrap(t, (uint64_t)a + (uint64_t)b);
	case XRT_CS_RED_PROD:
		return xs_int_wrap(t, (uint64_t)a * (uint64_t)b);
	case XRT_CS_RED_MIN:
		return xs_int_less(t, b, a) ? b : a;
	case XRT_CS_RED_MAX:
		return xs_int_less(t, a, b) ? b : a;
	case XRT_CS_RED_AND:
		return xs_int_wrap(t, (uint64_t)(a & b));
	default:
		return xs_int_wrap(t, (uint64_t)(a | b));
	}
}

/* 16-bit and 8-bit floats: through f32, rounded back. */
static uint32_t narrow_op(uint32_t op, uint32_t t, uint32_t a, uint32_t b)
{
	float x, y, r;
	uint16_t h;

	if (t == XRT_CS_F16) {
		x = engine_f16_to_f32((uint16_t)a);
		y = engine_f16_to_f32((uint16_t)b);
	} else if (t == XRT_CS_BF16) {
		x = xs_bf16_to_f32((uint16_t)a);
		y = xs_bf16_to_f32((uint16_t)b);
	} else {
		x = xs_small_to_f32(t, (uint8_t)a);
		y = xs_small_to_f32(t, (uint8_t)b);
	}
	r = f32_op(op, x, y);
	if (t == XRT_CS_F16)
		h = engine_f32_to_f16(r);
	else if (t == XRT_CS_BF16)
		h = xs_f32_to_bf16(r);
	else
		return xs_f32_to_small(t, r);
	return h;
}

static void fold_complex(void *dst, const void *src, uint64_t n, uint32_t t, uint32_t op)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		double a, b, c, d;

		if (t == XRT_CS_C64) {
			float *p = (float *)dst + 2 * i;
			const float *q = (const float *)src + 2 * i;

			a = p[0], b = p[1], c = q[0], d = q[1];
			p[0] = (float)(op == XRT_CS_RED_SUM ? a + c : a * c - b * d);
			p[1] = (float)(op == XRT_CS_RED_SUM ? b + d : a * d + b * c);
		} else {
			double *p = (double *)dst + 2 * i;
			const double *q = (const double *)src + 2 * i;

			a = p[0], b = p[1], c = q[0], d = q[1];
			p[0] = op == XRT_CS_RED_SUM ? a + c : a * c - b * d;
			p[1] = op == XRT_CS_RED_SUM ? b + d : a * d + b * c;
		}
	}
}

/* Integers of every width, pred included: little-endian bytes, wrapped. */
static void fold_ints(uint8_t *dst, const uint8_t *src, uint64_t n, uint32_t t, uint32_t op)
{
	uint32_t es = xs_dtype_size(t);
	uint64_t i, a, b;

	for (i = 0; i < n; i++) {
		a = b = 0;
		memcpy(&a, dst + i * es, es);
		memcpy(&b, src + i * es, es);
		a = xs_int_bits(t, int_op(op, t, xs_int_wrap(t, a), xs_int_wrap(t, b)));
		memcpy(dst + i * es, &a, es);
	}
}

static bool fold_fast(void *dst, const void *src, uint64_t n, uint32_t t, uint32_t op)
{
	uint64_t i;

	if (op != XRT_CS_RED_SUM)
		return false;
	switch (t) {
	case XRT_CS_F32:
		for (i = 0; i < n; i++)
			((float *)dst)[i] += ((const float *)src)[i];
		return true;
	case XRT_CS_F64:
		for (i = 0; i < n; i++)
			((double *)dst)[i] += ((const double *)src)[i];
		return true;
	case XRT_CS_S32:
	case XRT_CS_U32:
		for (i = 0; i < n; i++)
			((uint32_t *)dst)[i] += ((const uint32_t *)src)[i];
		return true;
	case XRT_CS_S64:
	case XRT_CS_U64:
		for (i = 0; i < n; i++)
			((uint64_t *)dst)[i] += ((const uint64_t *)src)[i];
		return true;
	default:
		return false;
	}
}

void xcoll_fold(void *dst, const void *src, uint64_t n, uint32_t t, uint32_t op)
{
	uint32_t es = xs_dtype_size(t);
	uint64_t i;

	if (fold_fast(dst, src, n, t, op))
		return;
	if (t == XRT_CS_C64 || t == XRT_CS_C128) {
		fold_complex(dst, src, n, t, op);
	} else if (t == XRT_CS_F32) {
		for (i = 0; i < n; i++)
			((float *)dst)[i] = f32_op(op, ((float *)dst)[i], ((const float *)src)[i]);
	} else if (t == XRT_CS_F64) {
		for (i = 0; i < n; i++)
			((double *)dst)[i] = real_op(op, ((double *)dst)[i],
						     ((const double *)src)[i]);
	} else if (t == XRT_CS_F16 || t == XRT_CS_BF16 || xs_is_small_float(t)) {
		for (i = 0; i < n; i++) {
			uint32_t a = 0, b = 0, r;

			memcpy(&a, (uint8_t *)dst + i * es, es);
			memcpy(&b, (const uint8_t *)src + i * es, es);
			r = narrow_op(op, t, a, b);
			memcpy((uint8_t *)dst + i * es, &r, es);
		}
	} else {
		fold_ints(dst, src, n, t, op);
	}
}
