// SPDX-License-Identifier: MIT
/*
 * stochastic-convert(x, r), rewritten as it is read into the rounding
 * it stands for: a float x goes to a signed integer by rounding |x| up
 * where the random bits r (unsigned, as wide as x's type) are below
 * its fraction scaled to r's range and truncated, down elsewhere; the
 * sign goes back on, and the result saturates (NaN gives 0) as convert
 * does.  So 0.25 rounds up for r < 2^30 of a u32, 1 in 4; -1.5 gives -2
 * for r < 2^31.  These are the values XLA's CPU backend gives (checked
 * on its edges: ties of r and the fraction round down, a fraction below
 * r's least step never rounds up).
 *
 * The arithmetic runs in f32 (f64 for f64): x converts to it exactly,
 * and the fraction times 2^w stays exact.
 */
#include <stdio.h>
#include <string.h>

#include "hlo_parse.h"

/* The emitter first: expand() is handed it and finds the rest. */
struct sc {
	struct hp_emit e;
	enum xrt_dtype f, u, c;	/* x's type, r's, the arithmetic's */
	uint32_t rank, bits;
	int64_t dims[XRT_MAX_RANK];
};

static uint32_t full(struct sc *s, enum xrt_opcode op, enum xrt_dtype t, const uint32_t *ops,
		     uint32_t n)
{
	return hp_emit(&s->e, op, t, s->rank, s->dims, ops, n);
}

/* Constant @x of the arithmetic's type, broadcast over the dims. */
static uint32_t splat(struct sc *s, double x)
{
	uint8_t *d;
	uint32_t v = hp_emit_const(&s->e, s->c, 0, NULL, &d), b;

	if (d && s->c == XRT_F64)
		memcpy(d, &x, 8);
	else if (d)
		memcpy(d, &(float){ (float)x }, 4);
	b = full(s, XRT_OP_BROADCAST, s->c, &v, 1);
	hp_emit_ints(&s->e, b, IR_ATTR_DIMENSIONS, NULL, 0);
	return b;
}

static uint32_t compare_lt(struct sc *s, uint32_t a, uint32_t b)
{
	uint32_t ops[2] = { a, b }, v = full(s, XRT_OP_COMPARE, XRT_PRED, ops, 2);

	hp_emit_word(&s->e, v, IR_ATTR_DIRECTION, "LT");
	return v;
}

/* The signed value before the final convert (@e is the sc's). */
static uint32_t expand(struct hp_emit *e, void *ctx)
{
	struct sc *s = (struct sc *)e;
	uint32_t x = ((const uint32_t *)ctx)[0], r = ((const uint32_t *)ctx)[1];
	uint32_t xc = x, ax, fl, fr, sc, fi, inc, m, o[3], zero;

	if (s->f != s->c)
		xc = full(s, XRT_OP_CONVERT, s->c, &x, 1);
	ax = full(s, XRT_OP_ABS, s->c, &xc, 1);
	fl = full(s, XRT_OP_FLOOR, s->c, &ax, 1);
	o[0] = ax;
	o[1] = fl;
	fr = full(s, XRT_OP_SUBTRACT, s->c, o, 2);	/* exact: inf gives NaN, then 0 */
	o[0] = fr;
	o[1] = splat(s, (double)(1ull << (s->bits - 1)) * 2);
	sc = full(s, XRT_OP_MULTIPLY, s->c, o, 2);
	fi = full(s, XRT_OP_CONVERT, s->u, &sc, 1);	/* truncated */
	zero = splat(s, 0);
	o[0] = compare_lt(s, r, fi);
	o[1] = splat(s, 1);
	o[2] = zero;
	inc = full(s, XRT_OP_SELECT, s->c, o, 3);
	o[0] = fl;
	o[1] = inc;
	m = full(s, XRT_OP_ADD, s->c, o, 2);
	o[0] = compare_lt(s, xc, zero);
	o[1] = full(s, XRT_OP_NEGATE, s->c, &m, 1);
	o[2] = m;
	return full(s, XRT_OP_SELECT, s->c, o, 3);
}

static bool same_dims(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return a->rank == b->rank && !memcmp(a->dims, b->dims, a->rank * sizeof(a->dims[0]));
}

static int check(struct hp *p, const struct ir_instr *in, struct sc *s)
{
	const struct xrt_shape *x, *r;

	if (in->num_operands != 2)
		return hp_fail(p, "%s: stochastic-convert takes 2 operands", in->name);
	x = &p->cur->instrs[in->operands[0]].shape;
	r = &p->cur->instrs[in->operands[1]].shape;
	if (xrt_shape_is_tuple(x) || !xrt_dtype_is_float(x->dtype))
		return hp_fail(p, "%s: stochastic-convert of a non-float operand", in->name);
	if (xrt_shape_is_tuple(r) || !xrt_dtype_is_integer(r->dtype) ||
	    xrt_dtype_is_signed(r->dtype) || xrt_dtype_bits(r->dtype) != xrt_dtype_bits(x->dtype))
		return hp_fail(p, "%s: stochastic-convert's random bits must be unsigned "
			       "integers as wide as %s", in->name, xrt_dtype_name(x->dtype));
	if (xrt_shape_is_tuple(&in->shape) || !xrt_dtype_is_integer(in->shape.dtype) ||
	    !xrt_dtype_is_signed(in->shape.dtype))
		return hp_fail(p, "%s: stochastic-convert gives a signed integer (as XLA's CPU "
			       "backend does)", in->name);
	if (!same_dims(x, r) || !same_dims(x, &in->shape))
		return hp_fail(p, "%s: stochastic-convert's operands and result differ in "
			       "dimensions", in->name);
	s->f = x->dtype;
	s->u = r->dtype;
	s->c = x->dtype == XRT_F64 ? XRT_F64 : XRT_F32;
	s->bits = xrt_dtype_bits(r->dtype);
	s->rank = x->rank;
	memcpy(s->dims, x->dims, sizeof(s->dims));
	return 0;
}

int hlo_unstochastic(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	uint32_t ops[2], v;
	struct sc s;

	memset(&s, 0, sizeof(s));
	s.e.p = p;
	s.e.what = "sc";
	if (check(p, in, &s))
		return -1;
	memcpy(ops, in->operands, sizeof(ops));
	snprintf(s.e.base, sizeof(s.e.base), "%.60s", in->name);
	if (hp_emit_twice(&s.e, expand, ops, &v))
		return -1;
	return hp_become(p, XRT_OP_CONVERT, &v, 1);
}
