// SPDX-License-Identifier: MIT
/*
 * Reading constants: scalars, nested braces for arrays (row-major, one
 * level per dimension), parentheses for tuples and for complex values;
 * true/false (or 1/0), integers, and floats including inf and nan.  An
 * array may also be written as one value, which every element takes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/literal.h"
#include "hlo_parse.h"

/* The text of one number or word: sign, digits, letters, '.', '+', '-'. */
static int token(struct hp *p, char *buf, size_t size)
{
	size_t start, n;

	hp_skip(p);
	start = p->pos;
	while (p->pos < p->len && (isalnum((unsigned char)p->t[p->pos]) ||
				   strchr(".+-_", p->t[p->pos])))
		p->pos++;
	n = p->pos - start;
	if (!n || n >= size) {
		p->pos = start;
		return hp_fail(p, "expected a value");
	}
	memcpy(buf, p->t + start, n);
	buf[n] = '\0';
	return 0;
}

static int parse_float(struct hp *p, double *v, float *f, size_t at)
{
	char buf[64], *end;

	if (token(p, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*v = strtod(buf, &end);
	if (*end) {
		p->pos = at;
		return hp_fail(p, "'%s' is not a number", buf);
	}
	*f = strtof(buf, &end);	/* f32 rounds once, from the decimal */
	return 0;
}

static int parse_int_value(struct hp *p, enum xrt_dtype t, void *dst, size_t at)
{
	char buf[64], *end;
	size_t es = xrt_dtype_size(t);
	unsigned int w = xrt_dtype_bits(t);
	int64_t s;
	uint64_t u;

	if (token(p, buf, sizeof(buf)))
		return -1;
	errno = 0;
	if (!xrt_dtype_is_signed(t)) {
		u = strtoull(buf, &end, 10);
		if (*end || errno || buf[0] == '-' || (w < 64 && u >> w))
			goto range;
		memcpy(dst, &u, es);
		return 0;
	}
	s = strtoll(buf, &end, 10);
	if (*end || errno || (w < 64 && (s < -(INT64_C(1) << (w - 1)) ||
					 s >= (INT64_C(1) << (w - 1)))))
		goto range;
	if (w < 8)	/* s4 and s2 keep their value in the low bits */
		s &= (INT64_C(1) << w) - 1;
	memcpy(dst, &s, es);
	return 0;
range:
	p->pos = at;
	return hp_fail(p, "'%s' is not a %s value", buf, xrt_dtype_name(t));
}

/* One element of type @t into @dst. */
static int parse_scalar(struct hp *p, enum xrt_dtype t, uint8_t *dst)
{
	size_t at = (hp_skip(p), p->pos);
	double v, im;
	float f, fi;
	uint16_t h;

	if (t == XRT_PRED) {
		if (hp_keyword(p, "true") || hp_keyword(p, "1"))
			*dst = 1;
		else if (hp_keyword(p, "false") || hp_keyword(p, "0"))
			*dst = 0;
		else
			return hp_fail(p, "expected true or false");
		return 0;
	}
	if (xrt_dtype_is_integer(t))
		return parse_int_value(p, t, dst, at);
	if (xrt_dtype_is_complex(t)) {
		if (hp_expect(p, '(', "to open a complex value") ||
		    parse_float(p, &v, &f, at) || hp_expect(p, ',', "in a complex value") ||
		    parse_float(p, &im, &fi, at) ||
		    hp_expect(p, ')', "to close a complex value"))
			return -1;
		if (t == XRT_C64) {
			memcpy(dst, &f, 4);
			memcpy(dst + 4, &fi, 4);
		} else {
			memcpy(dst, &v, 8);
			memcpy(dst + 8, &im, 8);
		}
		return 0;
	}
	if (parse_float(p, &v, &f, at))
		return -1;
	if (xrt_dtype_is_small_float(t)) {
		*dst = xrt_small_float_from_f64(t, v);
		return 0;
	}
	switch (t) {
	case XRT_F16:
		h = xrt_f16_from_f64(v);
		memcpy(dst, &h, 2);
		break;
	case XRT_BF16:
		h = xrt_bf16_from_f64(v);
		memcpy(dst, &h, 2);
		break;
	case XRT_F32:
		memcpy(dst, &f, 4);
		break;
	default:
		memcpy(dst, &v, 8);
		break;
	}
	return 0;
}

/* Dimension @d of an array: '{' elements '}', elements in row-major order. */
static int parse_dim(struct hp *p, xrt_literal *lit, uint32_t d, struct elem_iter *it,
		     bool *more)
{
	const struct xrt_shape *s = &lit->shape;
	size_t es = xrt_dtype_size(s->dtype);
	int64_t i;

	if (hp_peek(p, '{') && p->pos + 4 < p->len + 1 &&
	    !strncmp(p->t + p->pos, "{...}", 5))
		return hp_fail(p, "the constant was printed elided ({...})");
	if (hp_expect(p, '{', "to open a dimension of the constant"))
		return -1;
	for (i = 0; i < s->dims[d]; i++) {
		if (i && hp_expect(p, ',', "between the elements of a constant"))
			return -1;
		if (d + 1 < s->rank) {
			if (parse_dim(p, lit, d + 1, it, more))
				return -1;
			continue;
		}
		if (parse_scalar(p, s->dtype, (uint8_t *)lit->data + it->offset * es))
			return -1;
		*more = elem_iter_next(it) >= 0;
	}
	if (hp_peek(p, ','))
		return hp_fail(p, "more than %lld elements in dimension %u of the constant",
			       (long long)s->dims[d], d);
	return hp_expect(p, '}', "to close a dimension of the constant");
}

static int parse_value(struct hp *p, xrt_literal *lit)
{
	const struct xrt_shape *s = &lit->shape;
	struct elem_iter it;
	bool more = true;
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		if (hp_expect(p, '(', "to open a tuple constant"))
			return -1;
		for (i = 0; i < s->tuple_count; i++) {
			if (i && hp_expect(p, ',', "between tuple elements"))
				return -1;
			if (parse_value(p, lit->elements[i]))
				return -1;
		}
		return hp_expect(p, ')', "to close a tuple constant");
	}
	if (!s->rank)
		return parse_scalar(p, s->dtype, lit->data);
	elem_iter_init(&it, s);
	return parse_dim(p, lit, 0, &it, &more);
}

/* Elements in all the leaves of @s, saturating at @cap. */
static uint64_t leaf_elements(const struct xrt_shape *s, uint64_t cap)
{
	uint64_t n = 0;
	uint32_t i;

	if (!xrt_shape_is_tuple(s))
		return xrt_shape_element_count(s);
	for (i = 0; i < s->tuple_count && n <= cap; i++)
		n += leaf_elements(&s->tuple[i], cap);
	return n;
}

/* The most bytes an array written as one value may take. */
#define SPLAT_MAX_BYTES (UINT64_C(1) << 28)

/* f32[3,3] constant(1): every element the one value. */
static int parse_splat(struct hp *p, xrt_literal *lit)
{
	size_t es = xrt_dtype_size(lit->shape.dtype);
	uint64_t n = xrt_shape_element_count(&lit->shape), i;
	uint8_t *d = lit->data;

	if (!n) {	/* still read, for its errors */
		uint8_t scratch[16];

		return parse_scalar(p, lit->shape.dtype, scratch);
	}
	if (parse_scalar(p, lit->shape.dtype, d))
		return -1;
	for (i = 1; i < n; i++)
		memcpy(d + i * es, d, es);
	return 0;
}

int hlo_parse_literal(struct hp *p, struct ir_instr *in)
{
	bool splat = !xrt_shape_is_tuple(&in->shape) && in->shape.rank && !hp_peek(p, '{');
	xrt_status *st;

	/*
	 * Every element takes at least a character of text, so a shape with
	 * more elements than the text has left cannot be read: say so before
	 * allocating what could be terabytes.
	 */
	if (splat && xrt_shape_byte_size(&in->shape) > SPLAT_MAX_BYTES)
		return hp_fail(p, "an array constant written as one value is limited to 256 MiB; "
			       "this one takes %llu bytes",
			       (unsigned long long)xrt_shape_byte_size(&in->shape));
	if (!splat && leaf_elements(&in->shape, p->len) > p->len - p->pos)
		return hp_fail(p, "the constant has more elements than the text has characters");
	st = xrt_literal_create(p->a, &in->shape, &in->literal);
	if (st) {
		bool oom = xrt_status_code(st) == XRT_RESOURCE_EXHAUSTED;

		xrt_status_free(st);
		return oom ? hp_oom(p) : hp_fail(p, "bad constant shape");
	}
	return splat ? parse_splat(p, in->literal) : parse_value(p, in->literal);
}
