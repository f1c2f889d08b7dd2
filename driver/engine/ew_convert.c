// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Moving elements between memory and registers, and converting between
 * types.  Conversions follow XLA: floats to integers truncate toward
 * zero and saturate, NaN becomes 0; integers wrap; anything to pred is
 * "!= 0"; complex to real keeps the real part.  Every float result is
 * rounded once.
 */
#include "ew.h"

/* Loads of one integer width into s64 registers. */
#define LOAD_INT(T)								\
	do {									\
		for (i = 0; i < n; i++, src += st) {				\
			T v;							\
			memcpy(&v, src, sizeof(v));				\
			r[i] = (s64)v;						\
		}								\
	} while (0)

/*
 * The byte step of @n elements @stride apart.  A single element has no
 * step: its stride may be anything the validator let through (a
 * dimension of size 1 allows any), and times the element size it may
 * not fit in an s64.
 */
static s64 step(s64 stride, u32 es, u32 n)
{
	return n > 1 ? stride * (s64)es : 0;
}

void ew_load(u32 dtype, void *reg, const u8 *src, s64 stride, u32 n)
{
	u32 es = xs_dtype_size(dtype), i;
	s64 *r = reg, st = step(stride, es, n);
	float *f = reg;
	u16 h;

	/* A broadcast (a constant): one element, repeated. */
	if (!stride && n > 1 && es <= 8) {
		u64 v = 0;

		ew_load(dtype, &v, src, 1, 1);
		if (ew_class_of(dtype) == EW_F32) {
			float x;

			memcpy(&x, &v, 4);
			for (i = 0; i < n; i++)
				f[i] = x;
		} else {
			for (i = 0; i < n; i++)
				r[i] = (s64)v;
		}
		return;
	}
	/* The representation is the format: one copy when contiguous. */
	if (dtype == XRT_CS_F32 || dtype == XRT_CS_F64 || dtype == XRT_CS_C64 ||
	    dtype == XRT_CS_C128) {
		if (stride == 1) {
			memcpy(reg, src, (size_t)n * es);
		} else if (es == 4) {
			for (i = 0; i < n; i++, src += st)
				memcpy(&f[i], src, 4);
		} else {
			for (i = 0; i < n; i++, src += st)
				memcpy((u8 *)reg + (size_t)i * es, src, es);
		}
		return;
	}
	if (xs_is_small_float(dtype)) {
		for (i = 0; i < n; i++, src += st)
			f[i] = xs_small_to_f32(dtype, *src);
		return;
	}
	if (xs_is_sub_byte_int(dtype)) {	/* the low bits */
		for (i = 0; i < n; i++, src += st)
			r[i] = xs_int_wrap(dtype, *src);
		return;
	}
	switch (dtype) {
	case XRT_CS_PRED:
		for (i = 0; i < n; i++, src += st)
			r[i] = *src != 0;
		break;
	case XRT_CS_U8:
		LOAD_INT(u8);
		break;
	case XRT_CS_S8:
		LOAD_INT(s8);
		break;
	case XRT_CS_U16:
		LOAD_INT(u16);
		break;
	case XRT_CS_S16:
		LOAD_INT(s16);
		break;
	case XRT_CS_U32:
		LOAD_INT(u32);
		break;
	case XRT_CS_S32:
		LOAD_INT(s32);
		break;
	case XRT_CS_S64:
	case XRT_CS_U64:
		LOAD_INT(u64);
		break;
	case XRT_CS_F16:
		for (i = 0; i < n; i++, src += st) {
			memcpy(&h, src, 2);
			f[i] = engine_f16_to_f32(h);
		}
		break;
	default:	/* bf16 */
		for (i = 0; i < n; i++, src += st) {
			memcpy(&h, src, 2);
			f[i] = xs_bf16_to_f32(h);
		}
		break;
	}
}

/* Stores of s64 registers to one integer width (the low bytes). */
#define STORE_INT(type)								\
	do {									\
		for (i = 0; i < n; i++, dst += st) {				\
			type v = (type)r[i];					\
			memcpy(dst, &v, sizeof(v));				\
		}								\
	} while (0)

void ew_store(u32 dtype, u8 *dst, s64 stride, const void *reg, u32 n)
{
	u32 es = xs_dtype_size(dtype), i;
	const s64 *r = reg;
	const float *f = reg;
	s64 st = step(stride, es, n);
	u16 h;

	if (dtype == XRT_CS_F32 || dtype == XRT_CS_F64 || dtype == XRT_CS_C64 ||
	    dtype == XRT_CS_C128) {
		if (stride == 1) {
			memcpy(dst, reg, (size_t)n * es);
		} else if (es == 4) {
			for (i = 0; i < n; i++, dst += st)
				memcpy(dst, &f[i], 4);
		} else {
			for (i = 0; i < n; i++, dst += st)
				memcpy(dst, (const u8 *)reg + (size_t)i * es, es);
		}
		return;
	}
	if (xs_is_small_float(dtype)) {
		for (i = 0; i < n; i++, dst += st)
			*dst = xs_f32_to_small(dtype, f[i]);
		return;
	}
	if (xs_is_sub_byte_int(dtype)) {	/* the low bits, the rest clear */
		for (i = 0; i < n; i++, dst += st)
			*dst = (u8)xs_int_bits(dtype, r[i]);
		return;
	}
	switch (es) {
	case 1:
		STORE_INT(u8);
		break;
	case 4:
		STORE_INT(u32);
		break;
	case 8:
		STORE_INT(u64);
		break;
	default:
		if (dtype == XRT_CS_F16) {
			for (i = 0; i < n; i++, dst += st) {
				h = engine_f32_to_f16(f[i]);
				memcpy(dst, &h, 2);
			}
		} else if (dtype == XRT_CS_BF16) {
			for (i = 0; i < n; i++, dst += st) {
				h = xs_f32_to_bf16(f[i]);
				memcpy(dst, &h, 2);
			}
		} else {
			STORE_INT(u16);
		}
		break;
	}
}

void ew_const(u32 dtype, void *reg, const u64 *imm, u32 n)
{
	ew_load(dtype, reg, (const u8 *)imm, 0, n);
}

/* An integer register element as a real, rounded once into type @to. */
static void int_to_real(u32 to, void *d, u32 from, const s64 *a, u32 n)
{
	float *f = d;
	double *g = d;
	u32 i;

	for (i = 0; i < n; i++) {
		int neg = !xs_is_unsigned(from) && a[i] < 0;
		u64 mag = neg ? 0 - (u64)a[i] : (u64)a[i];
		double odd = xs_u64_to_f64_odd(mag), exact = (double)mag;

		if (neg) {
			odd = -odd;
			exact = -exact;
		}
		if (xs_is_small_float(to)) {
			u8 code = xs_f32_to_small(to, xs_f64_to_f32_sticky(odd));

			f[i] = xs_small_to_f32(to, code);
			continue;
		}
		switch (to) {
		case XRT_CS_F32:
			f[i] = neg ? -(float)mag : (float)mag;
			break;
		case XRT_CS_F64:
			g[i] = exact;
			break;
		case XRT_CS_F16:
			f[i] = engine_f16_to_f32(engine_f64_to_f16(odd));
			break;
		case XRT_CS_BF16:
			f[i] = xs_bf16_to_f32(xs_f64_to_bf16(odd));
			break;
		case XRT_CS_C64:
			f[2 * i] = (float)odd;
			f[2 * i + 1] = 0;
			break;
		default:
			g[2 * i] = exact;
			g[2 * i + 1] = 0;
			break;
		}
	}
}

/* Reads element @i of a register of type @t as a double (real part). */
static double real_at(u32 t, const void *a, u32 i)
{
	switch (ew_class_of(t)) {
	case EW_F32:
		return ((const float *)a)[i];
	case EW_F64:
		return ((const double *)a)[i];
	case EW_C64:
		return ((const float *)a)[2 * i];
	default:
		return ((const double *)a)[2 * i];
	}
}

static double imag_at(u32 t, const void *a, u32 i)
{
	if (t == XRT_CS_C64)
		return ((const float *)a)[2 * i + 1];
	if (t == XRT_CS_C128)
		return ((const double *)a)[2 * i + 1];
	return 0;
}

/* Writes a real (and imaginary) value as element @i of type @t. */
static void put(u32 t, void *d, u32 i, double re, double im, u32 from)
{
	float *f = d;
	double *g = d;

	if (xs_is_small_float(t)) {	/* from f64, through a float that keeps the rounding */
		float x = ew_class_of(from) == EW_F32 ? (float)re : xs_f64_to_f32_sticky(re);

		f[i] = xs_small_to_f32(t, xs_f32_to_small(t, x));
		return;
	}
	switch (t) {
	case XRT_CS_F16:
		f[i] = engine_f16_to_f32(ew_class_of(from) == EW_F32 ?
					 engine_f32_to_f16((float)re) :
					 engine_f64_to_f16(re));
		break;
	case XRT_CS_BF16:
		f[i] = xs_bf16_to_f32(ew_class_of(from) == EW_F32 ?
					  xs_f32_to_bf16((float)re) :
					  xs_f64_to_bf16(re));
		break;
	case XRT_CS_F32:
		f[i] = (float)re;
		break;
	case XRT_CS_F64:
		g[i] = re;
		break;
	case XRT_CS_C64:
		f[2 * i] = (float)re;
		f[2 * i + 1] = (float)im;
		break;
	default:
		g[2 * i] = re;
		g[2 * i + 1] = im;
		break;
	}
}

/*
 * The conversions indices and quantization meet most, as loops the
 * compiler vectorizes; the same values as the general path: integers of
 * at most 32 bits (or signed) to f32 round once, as (float) does, and f32
 * to s32 truncates, saturating, NaN to 0.  False for any other pair.
 */
static int convert_fast(u32 to, void *d, u32 from, const void *a, u32 n)
{
	const s64 *ia = a;
	const float *fa = a;
	float *f = d;
	s64 *r = d;
	u32 i;

	if (to == XRT_CS_F32 && ew_class_of(from) == EW_INT && from != XRT_CS_PRED &&
	    from != XRT_CS_U64) {
		for (i = 0; i < n; i++)
			f[i] = (float)ia[i];
		return 1;
	}
	if (to == XRT_CS_S32 && from == XRT_CS_F32) {
		for (i = 0; i < n; i++) {
			float x = fa[i];
			s64 v = x >= 2147483648.0f ? 2147483647 :
				x > -2147483648.0f ? (s64)(s32)x : (s64)-2147483648ll;

			r[i] = x != x ? 0 : v;
		}
		return 1;
	}
	return 0;
}

void ew_convert(u32 to, void *d, u32 from, const void *a, u32 n)
{
	s64 *r = d;
	u32 i;

	if (convert_fast(to, d, from, a, n))
		return;
	if (ew_class_of(from) == EW_INT) {
		if (ew_class_of(to) != EW_INT) {
			int_to_real(to, d, from, a, n);
			return;
		}
		for (i = 0; i < n; i++)
			r[i] = ((const s64 *)a)[i];
		ew_int_wrap(to, r, n);
		return;
	}
	for (i = 0; i < n; i++) {
		double re = real_at(from, a, i), im = imag_at(from, a, i);

		if (ew_class_of(to) == EW_INT)
			r[i] = xs_real_to_int(to, re);
		else
			put(to, d, i, re, im, from);
	}
}

void ew_bitcast(u32 to, void *d, u32 from, const void *a, u32 n)
{
	u32 rf = ew_class_of(from) == EW_F32 ? 4 : ew_class_of(from) == EW_C128 ? 16 : 8;
	u32 rt = ew_class_of(to) == EW_F32 ? 4 : ew_class_of(to) == EW_C128 ? 16 : 8;
	u8 tmp[16];
	u32 i;

	for (i = 0; i < n; i++) {
		ew_store(from, tmp, 1, (const u8 *)a + (size_t)i * rf, 1);
		ew_load(to, (u8 *)d + (size_t)i * rt, tmp, 1, 1);
	}
}
