// SPDX-License-Identifier: MIT
/*
 * Element access for literals: logical-order iteration over a layout,
 * reading elements as numbers, printing them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/literal.h"

void elem_iter_init(struct elem_iter *it, const struct xrt_shape *shape)
{
	memset(it, 0, sizeof(*it));
	it->rank = shape->rank;
	memcpy(it->dims, shape->dims, sizeof(it->dims));
	xrt_shape_strides(shape, it->strides);
}

int elem_iter_next(struct elem_iter *it)
{
	int d;

	for (d = (int)it->rank - 1; d >= 0; d--) {
		if (++it->index[d] < it->dims[d]) {
			it->offset += it->strides[d];
			return d;
		}
		it->offset -= (it->index[d] - 1) * it->strides[d];
		it->index[d] = 0;
	}
	return -1;
}

void elem_iter_print_index(const struct elem_iter *it, struct fmtbuf *f)
{
	uint32_t i;

	fmtbuf_puts(f, "{");
	for (i = 0; i < it->rank; i++)
		fmtbuf_printf(f, "%s%lld", i ? "," : "",
			      (long long)it->index[i]);
	fmtbuf_puts(f, "}");
}

static double load_real(enum xrt_dtype t, const void *p)
{
	uint16_t h;
	float f;
	double d;

	if (xrt_dtype_is_small_float(t))
		return xrt_small_float_to_f64(t, *(const uint8_t *)p);
	switch (t) {
	case XRT_F16:
		memcpy(&h, p, 2);
		return xrt_f16_to_f32(h);
	case XRT_BF16:
		memcpy(&h, p, 2);
		return xrt_bf16_to_f32(h);
	case XRT_F32:
	case XRT_C64:
		memcpy(&f, p, 4);
		return f;
	default:
		memcpy(&d, p, 8);
		return d;
	}
}

void xrt_elem_to_double(enum xrt_dtype t, const void *p, double *re,
			double *im)
{
	*re = load_real(t, p);
	*im = 0;
	if (t == XRT_C64)
		*im = load_real(t, (const char *)p + 4);
	else if (t == XRT_C128)
		*im = load_real(t, (const char *)p + 8);
}

/* Does text @s read back as the same value of type @t as @v? */
static bool reads_back(enum xrt_dtype t, const char *s, double v)
{
	double r = strtod(s, NULL);

	if (xrt_dtype_is_small_float(t))
		return xrt_small_float_from_f64(t, r) == xrt_small_float_from_f64(t, v);
	switch (t) {
	case XRT_F16:
		return xrt_f16_from_f64(r) == xrt_f16_from_f64(v);
	case XRT_BF16:
		return xrt_bf16_from_f64(r) == xrt_bf16_from_f64(v);
	case XRT_F32:
	case XRT_C64:
		return strtof(s, NULL) == (float)v;
	default:
		return r == v;
	}
}

/*
 * Prints the fewest significant digits that read back as the same value
 * of type @t; positional notation for exponents -4..15, scientific
 * outside (as Python's repr does).
 */
static void print_real(struct fmtbuf *f, enum xrt_dtype t, double v)
{
	char s[40];
	int prec, exp10;

	if (isnan(v)) {	/* the sign, so that the text reads back the same */
		fmtbuf_puts(f, signbit(v) ? "-nan" : "nan");
		return;
	}
	if (isinf(v)) {
		fmtbuf_puts(f, v < 0 ? "-inf" : "inf");
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*e", prec - 1, v);
		if (reads_back(t, s, v))
			break;
	}
	exp10 = atoi(strchr(s, 'e') + 1);
	if (exp10 >= -4 && exp10 < 16)
		snprintf(s, sizeof(s), "%.*f",
			 prec - 1 - exp10 > 0 ? prec - 1 - exp10 : 0, v);
	fmtbuf_puts(f, s);
}

static long long load_signed(enum xrt_dtype t, const void *p)
{
	int8_t a;
	int16_t b;
	int32_t c;
	int64_t d;

	switch (t) {
	case XRT_S4:	/* the low bits, sign-extended */
		return (int8_t)(*(const uint8_t *)p << 4) >> 4;
	case XRT_S2:
		return (int8_t)(*(const uint8_t *)p << 6) >> 6;
	case XRT_S8:
		memcpy(&a, p, 1);
		return a;
	case XRT_S16:
		memcpy(&b, p, 2);
		return b;
	case XRT_S32:
		memcpy(&c, p, 4);
		return c;
	default:
		memcpy(&d, p, 8);
		return d;
	}
}

static unsigned long long load_unsigned(enum xrt_dtype t, const void *p)
{
	uint8_t a;
	uint16_t b;
	uint32_t c;
	uint64_t d;

	switch (t) {
	case XRT_U4:
		return *(const uint8_t *)p & 0xf;
	case XRT_U2:
		return *(const uint8_t *)p & 0x3;
	case XRT_PRED:
	case XRT_U8:
		memcpy(&a, p, 1);
		return a;
	case XRT_U16:
		memcpy(&b, p, 2);
		return b;
	case XRT_U32:
		memcpy(&c, p, 4);
		return c;
	default:
		memcpy(&d, p, 8);
		return d;
	}
}

void xrt_elem_print(struct fmtbuf *f, enum xrt_dtype t, const void *p)
{
	double re, im;

	if (t == XRT_PRED) {
		fmtbuf_puts(f, load_unsigned(t, p) ? "true" : "false");
	} else if (xrt_dtype_is_integer(t) && xrt_dtype_is_signed(t)) {
		fmtbuf_printf(f, "%lld", load_signed(t, p));
	} else if (xrt_dtype_is_integer(t)) {
		fmtbuf_printf(f, "%llu", load_unsigned(t, p));
	} else if (xrt_dtype_is_complex(t)) {
		xrt_elem_to_double(t, p, &re, &im);
		fmtbuf_puts(f, "(");
		print_real(f, t, re);
		fmtbuf_puts(f, ", ");
		print_real(f, t, im);
		fmtbuf_puts(f, ")");
	} else {
		print_real(f, t, load_real(t, p));
	}
}

void xrt_elems_relayout(void *dst, const struct xrt_shape *ds, const void *src,
			const struct xrt_shape *ss)
{
	size_t es = xrt_dtype_size(ss->dtype);
	uint64_t n = xrt_shape_element_count(ss), k;
	struct elem_iter a, b;

	elem_iter_init(&a, ss);
	elem_iter_init(&b, ds);
	for (k = 0; k < n; k++, elem_iter_next(&a), elem_iter_next(&b))
		memcpy((uint8_t *)dst + b.offset * es, (const uint8_t *)src + a.offset * es, es);
}
