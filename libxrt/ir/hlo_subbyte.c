// SPDX-License-Identifier: MIT
/*
 * bitcast-convert between element types of different widths where one
 * is narrower than a byte, rewritten as it is read into the bit
 * arithmetic it stands for.  XLA regroups bits: s8[] as s4[2] holds the
 * low four bits in element 0 and the high four in element 1 (the order
 * of its wider bitcasts on a little-endian machine, f32[] to u8[4] least
 * significant byte first); u2[4] to u8[] is the reverse.  Here every
 * element takes a byte, so the regrouping is shifts and masks over
 * unsigned integers of each width:
 *
 *   narrowing  x : T[D] (W bits) to t : U[D, W/w] (w bits)
 *              bitcast(T -> uW), broadcast along a new last dimension,
 *              shift right by w * k in element k, and with 2^w - 1,
 *              convert to uw, bitcast(uw -> U)
 *   widening   the reverse: bitcast to uw, convert to uW, shift left by
 *              w * k, add the W/w slices (their bits do not overlap)
 *
 * The bitcasts of one width and the shifts run on every device, so the
 * regrouping does too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hlo_parse.h"

struct rg {
	struct hp_emit e;
	enum xrt_dtype from, to;
	uint32_t wide, narrow;		/* bits */
	uint32_t rank;			/* of the narrow side, the group dimension last */
	int64_t dims[XRT_MAX_RANK];
};

static enum xrt_dtype unsigned_of(uint32_t bits)
{
	switch (bits) {
	case 2:
		return XRT_U2;
	case 4:
		return XRT_U4;
	case 8:
		return XRT_U8;
	case 16:
		return XRT_U16;
	case 32:
		return XRT_U32;
	default:
		return XRT_U64;
	}
}

/* @x (of @t over @rank dims) as the same-width type @u: itself when they are one. */
static uint32_t same_width(struct rg *g, uint32_t x, enum xrt_dtype t, enum xrt_dtype u,
			   uint32_t rank)
{
	return t == u ? x : hp_emit(&g->e, XRT_OP_BITCAST_CONVERT, u, rank, g->dims, &x, 1);
}

/* The wide unsigned constant @k * narrow of group element k, over the narrow dims. */
static uint32_t shifts(struct rg *g)
{
	enum xrt_dtype u = unsigned_of(g->wide);
	int64_t r = g->wide / g->narrow, k, dim = g->rank - 1;
	size_t size = xrt_dtype_size(u);
	uint32_t c, b;
	uint8_t *d;

	c = hp_emit_const(&g->e, u, 1, &r, &d);
	for (k = 0; d && k < r; k++) {
		uint64_t v = (uint64_t)k * g->narrow;

		memcpy(d + k * size, &v, size);	/* little-endian, as literals are */
	}
	b = hp_emit(&g->e, XRT_OP_BROADCAST, u, g->rank, g->dims, &c, 1);
	hp_emit_ints(&g->e, b, IR_ATTR_DIMENSIONS, &dim, 1);
	return b;
}

static uint32_t narrowing(struct rg *g, uint32_t x)
{
	enum xrt_dtype uw = unsigned_of(g->wide), un = unsigned_of(g->narrow);
	int64_t keep[XRT_MAX_RANK], d;
	uint32_t u, b, o[2], m, c;
	uint8_t *data;
	uint64_t mask = (1u << g->narrow) - 1;

	u = same_width(g, x, g->from, uw, g->rank - 1);
	for (d = 0; d < g->rank - 1; d++)
		keep[d] = d;
	b = hp_emit(&g->e, XRT_OP_BROADCAST, uw, g->rank, g->dims, &u, 1);
	hp_emit_ints(&g->e, b, IR_ATTR_DIMENSIONS, keep, g->rank - 1);
	o[0] = b;
	o[1] = shifts(g);
	b = hp_emit(&g->e, XRT_OP_SHIFT_RIGHT_LOGICAL, uw, g->rank, g->dims, o, 2);
	c = hp_emit_const(&g->e, uw, 0, NULL, &data);
	if (data)
		memcpy(data, &mask, xrt_dtype_size(uw));
	o[0] = b;
	o[1] = hp_emit(&g->e, XRT_OP_BROADCAST, uw, g->rank, g->dims, &c, 1);
	hp_emit_ints(&g->e, o[1], IR_ATTR_DIMENSIONS, NULL, 0);
	m = hp_emit(&g->e, XRT_OP_AND, uw, g->rank, g->dims, o, 2);
	m = hp_emit(&g->e, XRT_OP_CONVERT, un, g->rank, g->dims, &m, 1);
	return same_width(g, m, un, g->to, g->rank);
}

static uint32_t widening(struct rg *g, uint32_t x)
{
	enum xrt_dtype uw = unsigned_of(g->wide), un = unsigned_of(g->narrow);
	int64_t from[XRT_MAX_RANK] = { 0 }, to[XRT_MAX_RANK], r = g->wide / g->narrow, k;
	uint32_t u, o[2], sum = 0, s;

	u = same_width(g, x, g->from, un, g->rank);
	u = hp_emit(&g->e, XRT_OP_CONVERT, uw, g->rank, g->dims, &u, 1);
	o[0] = u;
	o[1] = shifts(g);
	u = hp_emit(&g->e, XRT_OP_SHIFT_LEFT, uw, g->rank, g->dims, o, 2);
	memcpy(to, g->dims, sizeof(to));
	for (k = 0; k < r; k++) {
		from[g->rank - 1] = k;
		to[g->rank - 1] = k + 1;
		s = hp_emit_slice(&g->e, u, uw, g->rank, from, to);
		s = hp_emit(&g->e, XRT_OP_RESHAPE, uw, g->rank - 1, g->dims, &s, 1);
		o[0] = sum;
		o[1] = s;
		sum = k ? hp_emit(&g->e, XRT_OP_ADD, uw, g->rank - 1, g->dims, o, 2) : s;
	}
	return same_width(g, sum, uw, g->to, g->rank - 1);
}

static uint32_t expand(struct hp_emit *e, void *ctx)
{
	struct rg *g = (struct rg *)e;
	uint32_t x = *(const uint32_t *)ctx;

	return xrt_dtype_bits(g->from) > xrt_dtype_bits(g->to) ? narrowing(g, x) : widening(g, x);
}

/* Integers and real floats: what XLA's bitcast-convert regroups. */
static bool regroupable(enum xrt_dtype t)
{
	return xrt_dtype_is_integer(t) || (xrt_dtype_is_float(t) && !xrt_dtype_is_complex(t));
}

/* The narrow side's dims in @g (the group last); -1 with the reason when they do not fit. */
static int plan(struct hp *p, const struct ir_instr *in, const struct xrt_shape *x,
		struct rg *g)
{
	const struct xrt_shape *n = g->wide == xrt_dtype_bits(x->dtype) ? &in->shape : x, *w;
	int64_t r = g->wide / g->narrow;

	if (!n->rank || n->dims[n->rank - 1] != r)
		return hp_fail(p, "%s: bitcast-convert from %s to %s regroups %" PRId64 " %s "
			       "into one %s: the narrow side needs a last dimension of %" PRId64,
			       in->name, xrt_dtype_name(x->dtype), xrt_dtype_name(in->shape.dtype),
			       r, xrt_dtype_name(n->dtype), xrt_dtype_name(n == x ?
			       in->shape.dtype : x->dtype), r);
	w = n == x ? &in->shape : x;
	if (w->rank + 1 != n->rank || memcmp(w->dims, n->dims, w->rank * sizeof(w->dims[0])))
		return hp_fail(p, "%s: bitcast-convert from %s to %s: the wide side's dimensions "
			       "are the narrow side's but the last", in->name,
			       xrt_dtype_name(x->dtype), xrt_dtype_name(in->shape.dtype));
	g->rank = n->rank;
	memcpy(g->dims, n->dims, sizeof(g->dims));
	return 0;
}

int hlo_unregroup(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	const struct xrt_shape *x;
	uint32_t a, b, v;
	struct rg g;

	if (in->op != XRT_OP_BITCAST_CONVERT || in->num_operands != 1)
		return 0;
	x = &p->cur->instrs[in->operands[0]].shape;
	if (xrt_shape_is_tuple(x) || xrt_shape_is_tuple(&in->shape) ||
	    !regroupable(x->dtype) || !regroupable(in->shape.dtype))
		return 0;	/* the verifier says what is wrong */
	a = xrt_dtype_bits(x->dtype);
	b = xrt_dtype_bits(in->shape.dtype);
	if (a == b || (a >= 8 && b >= 8))
		return 0;	/* bytes: the engine's own bitcast */
	memset(&g, 0, sizeof(g));
	g.e.p = p;
	g.e.what = "bits";
	g.from = x->dtype;
	g.to = in->shape.dtype;
	g.wide = a > b ? a : b;
	g.narrow = a > b ? b : a;
	if (plan(p, in, x, &g))
		return -1;
	v = in->operands[0];
	snprintf(g.e.base, sizeof(g.e.base), "%.60s", in->name);
	if (hp_emit_twice(&g.e, expand, &v, &v))
		return -1;
	return hp_become(p, XRT_OP_COPY, &v, 1);
}
