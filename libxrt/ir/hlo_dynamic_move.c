// SPDX-License-Identifier: MIT
/*
 * Dynamic dimensions whose values move: reverse along one (read from
 * bound - size of the reversed array padded to twice its length),
 * concatenate along one (each operand written at the sum of the sizes
 * before it) and reshapes that merge one below static dimensions or
 * several together (gathered to the front, as XLA compacts them).
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "hlo_dynamic.h"

/* Zero padding of @x's dimension @d up to twice its length (@s @x's shape). */
static uint32_t pad_double(struct plan *pl, uint32_t x, const struct xrt_shape *s, uint32_t d)
{
	struct ir_attr a = { .key = IR_ATTR_PADDING, .n = s->rank };
	int64_t dims[XRT_MAX_RANK];
	uint32_t ops[2] = { x, 0 }, v;
	uint8_t *z;

	memcpy(dims, s->dims, sizeof(dims));
	dims[d] *= 2;
	ops[1] = hp_emit_const(&pl->e, s->dtype, 0, NULL, &z);
	v = hp_emit(&pl->e, XRT_OP_PAD, s->dtype, s->rank, dims, ops, 2);
	if (pl->e.dry || pl->e.failed)
		return v;
	a.ints = xrt_mem_calloc(pl->e.p->a, 3 * (size_t)s->rank, sizeof(*a.ints));
	if (!a.ints) {
		hp_oom(pl->e.p);
		pl->e.failed = true;
		return v;
	}
	a.ints[3 * d + 1] = s->dims[d];	/* high */
	if (hp_put_attr(pl->e.p, &pl->e.p->cur->instrs[v], &a))
		pl->e.failed = true;
	return v;
}

/* @x, of shape @s, at @starts (s32[] instructions) for the lengths of @s. */
static uint32_t window_at(struct plan *pl, uint32_t x, const struct xrt_shape *s,
			  const int64_t *dims, const uint32_t *starts)
{
	uint32_t ops[1 + XRT_MAX_RANK], v;

	ops[0] = x;
	memcpy(ops + 1, starts, s->rank * sizeof(*starts));
	v = hp_emit(&pl->e, XRT_OP_DYNAMIC_SLICE, s->dtype, s->rank, dims, ops, 1 + s->rank);
	hp_emit_ints(&pl->e, v, IR_ATTR_DYNAMIC_SLICE_SIZES, dims, s->rank);
	return v;
}

/*
 * reverse along dynamic dimensions: the reversed values lie at the end
 * of each, so each is padded to twice its length and read from
 * bound - size on.
 */
static uint32_t move_reversed(struct plan *pl, uint32_t x)
{
	const struct ir_instr *in = &pl->e.p->cur->instrs[pl->e.p->cur->num_instrs - 1];
	const struct xrt_shape *s = &pl->e.p->cur->instrs[x].shape;
	const struct ir_attr *rev = ir_instr_attr(in, IR_ATTR_DIMENSIONS);
	const struct hp_dyn *e = hd_dyn_of(pl->e.p, x);
	uint32_t y, d, j, zero, starts[XRT_MAX_RANK], ops[2];
	struct xrt_shape doubled;

	y = hp_emit(&pl->e, XRT_OP_REVERSE, s->dtype, s->rank, s->dims, &x, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_DIMENSIONS, rev->ints, rev->n);
	zero = hd_s32_const(pl, 0);
	for (d = 0; d < s->rank; d++) {
		if (!(pl->moved & (1u << d)))
			continue;
		doubled = *s;
		doubled.dims[d] *= 2;
		y = pad_double(pl, y, s, d);
		for (j = 0; j < s->rank; j++)
			starts[j] = zero;
		ops[0] = hd_s32_const(pl, s->dims[d]);
		ops[1] = e->size[d];
		starts[d] = hp_emit(&pl->e, XRT_OP_SUBTRACT, XRT_S32, 0, NULL, ops, 2);
		y = window_at(pl, y, &doubled, s->dims, starts);
	}
	return y;
}

/*
 * concatenate along a dynamic dimension: each operand written over the
 * last one's padding, at the sum of the sizes before it.
 */
static uint32_t move_concatenated(struct plan *pl, const uint32_t *x, uint32_t n)
{
	struct hp *p = pl->e.p;
	const struct xrt_shape *r = &p->cur->instrs[p->cur->num_instrs - 1].shape;
	uint32_t d = pl->moved ? (uint32_t)__builtin_ctz(pl->moved) : 0, k, j, acc, off, zero;
	uint32_t ops[1 + 1 + XRT_MAX_RANK];
	const struct hp_dyn *e;
	uint8_t *z;

	zero = hd_s32_const(pl, 0);
	ops[0] = hp_emit_const(&pl->e, r->dtype, 0, NULL, &z);
	acc = hp_emit(&pl->e, XRT_OP_BROADCAST, r->dtype, r->rank, r->dims, ops, 1);
	hp_emit_ints(&pl->e, acc, IR_ATTR_DIMENSIONS, NULL, 0);
	off = zero;
	for (k = 0; k < n; k++) {
		const struct xrt_shape *s = &p->cur->instrs[x[k]].shape;

		ops[0] = acc;
		ops[1] = x[k];
		for (j = 0; j < r->rank; j++)
			ops[2 + j] = j == d ? off : zero;
		acc = hp_emit(&pl->e, XRT_OP_DYNAMIC_UPDATE_SLICE, r->dtype, r->rank, r->dims, ops,
			      2 + r->rank);
		e = hd_dyn_of(p, x[k]);
		ops[0] = off;
		ops[1] = e && (e->mask & (1u << d)) ? e->size[d] : hd_s32_const(pl, s->dims[d]);
		off = hp_emit(&pl->e, XRT_OP_ADD, XRT_S32, 0, NULL, ops, 2);
	}
	pl->total = off;
	return acc;
}

static uint32_t bcast(struct plan *pl, uint32_t v, int64_t m)
{
	uint32_t b = hp_emit(&pl->e, XRT_OP_BROADCAST, XRT_S32, 1, &m, &v, 1);

	hp_emit_ints(&pl->e, b, IR_ATTR_DIMENSIONS, NULL, 0);
	return b;
}

static uint32_t arith(struct plan *pl, enum xrt_opcode op, uint32_t a, uint32_t b, int64_t m)
{
	uint32_t ops[2] = { a, b };

	return hp_emit(&pl->e, op, XRT_S32, 1, &m, ops, 2);
}

/*
 * A reshape merging a group of dimensions, some dynamic, into result
 * dimension k: position q of it takes the element whose index in
 * dimension t of the group is q / P_t % n_t (P_t the product of the
 * sizes n_u below t; the major one undivided), so the values inside the
 * sizes come in order at the front; past them the indices clamp into
 * range.  Its size is the product of the group's sizes.
 */
static uint32_t move_reshaped(struct plan *pl, uint32_t x)
{
	struct hp *p = pl->e.p;
	const struct xrt_shape *r = &p->cur->instrs[p->cur->num_instrs - 1].shape;
	const struct xrt_shape *s = &p->cur->instrs[x].shape;
	const struct hp_dyn *e = hd_dyn_of(p, x);
	uint32_t k = (uint32_t)__builtin_ctz(pl->moved), y, q, n, digit, src = NONE, size, ops[2];
	uint32_t t, j, off = 0;
	int64_t m = r->dims[k], col[2] = { m, 1 }, offs[XRT_MAX_RANK], sizes[XRT_MAX_RANK];
	int64_t kk = k, below = 1;

	y = hp_emit(&pl->e, XRT_OP_RESHAPE, r->dtype, r->rank, r->dims, &x, 1);
	q = hp_emit(&pl->e, XRT_OP_IOTA, XRT_S32, 1, &m, NULL, 0);
	hp_emit_ints(&pl->e, q, IR_ATTR_IOTA_DIMENSION, (int64_t[]){ 0 }, 1);
	size = hd_s32_const(pl, 1);
	for (t = pl->rs_to; t-- > pl->rs_from;) {
		n = e && (e->mask & (1u << t)) ? e->size[t] : hd_s32_const(pl, s->dims[t]);
		digit = arith(pl, XRT_OP_DIVIDE, q, bcast(pl, size, m), m);
		if (t > pl->rs_from)
			digit = arith(pl, XRT_OP_REMAINDER, digit, bcast(pl, n, m), m);
		digit = arith(pl, XRT_OP_MULTIPLY, digit, bcast(pl, hd_s32_const(pl, below), m), m);
		src = src == NONE ? digit : arith(pl, XRT_OP_ADD, src, digit, m);
		ops[0] = size;
		ops[1] = n;
		size = hp_emit(&pl->e, XRT_OP_MULTIPLY, XRT_S32, 0, NULL, ops, 2);
		below *= s->dims[t];
	}
	ops[0] = y;
	ops[1] = hp_emit(&pl->e, XRT_OP_RESHAPE, XRT_S32, 2, col, &src, 1);
	for (j = 0; j < r->rank; j++) {
		sizes[j] = j == k ? 1 : r->dims[j];
		if (j != k)
			offs[off++] = j;
	}
	y = hp_emit(&pl->e, XRT_OP_GATHER, r->dtype, r->rank, r->dims, ops, 2);
	hp_emit_ints(&pl->e, y, IR_ATTR_OFFSET_DIMS, offs, off);
	hp_emit_ints(&pl->e, y, IR_ATTR_COLLAPSED_SLICE_DIMS, &kk, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_START_INDEX_MAP, &kk, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_INDEX_VECTOR_DIM, (int64_t[]){ 1 }, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_SLICE_SIZES, sizes, r->rank);
	pl->total = size;
	return y;
}

/* Scalar @v over @rank dims @dims. */
static uint32_t spread(struct plan *pl, uint32_t v, uint32_t rank, const int64_t *dims)
{
	uint32_t b = hp_emit(&pl->e, XRT_OP_BROADCAST, XRT_S32, rank, dims, &v, 1);

	hp_emit_ints(&pl->e, b, IR_ATTR_DIMENSIONS, NULL, 0);
	return b;
}

/*
 * The row-major position among the sizes @n of each index of @dims:
 * sum_t iota_t * P_t, P_t the product of the sizes after t (s32 scalar
 * instructions), over @dims.
 */
static uint32_t position(struct plan *pl, uint32_t rank, const int64_t *dims, const uint32_t *n)
{
	uint32_t t, it, src = NONE, stride = hd_s32_const(pl, 1), ops[2];
	int64_t k;

	for (t = rank; t-- > 0;) {
		it = hp_emit(&pl->e, XRT_OP_IOTA, XRT_S32, rank, dims, NULL, 0);
		k = t;
		hp_emit_ints(&pl->e, it, IR_ATTR_IOTA_DIMENSION, &k, 1);
		ops[0] = it;
		ops[1] = spread(pl, stride, rank, dims);
		it = hp_emit(&pl->e, XRT_OP_MULTIPLY, XRT_S32, rank, dims, ops, 2);
		ops[0] = src;
		ops[1] = it;
		src = src == NONE ? it : hp_emit(&pl->e, XRT_OP_ADD, XRT_S32, rank, dims, ops, 2);
		ops[0] = stride;
		ops[1] = n[t];
		stride = hp_emit(&pl->e, XRT_OP_MULTIPLY, XRT_S32, 0, NULL, ops, 2);
	}
	return src;
}

/*
 * A reshape splitting operand dimension d (dynamic, size s) into result
 * dimensions [k0, k1), dimension kd of them dynamic with size s' = s /
 * the others' lengths: the group's element at indices j takes operand
 * element sum_t j_t P_t along d, P_t the product of the sizes after t in
 * the group (s' for kd), so each outer index takes its share of the
 * values, as XLA's dynamic padder places them.  A gather over the
 * operand seen as [outer, d, inner].
 */
static uint32_t move_split(struct plan *pl, uint32_t x)
{
	struct hp *p = pl->e.p;
	const struct xrt_shape *r = &p->cur->instrs[p->cur->num_instrs - 1].shape;
	const struct xrt_shape *s = &p->cur->instrs[x].shape;
	uint32_t kd = (uint32_t)__builtin_ctz(pl->moved), k0 = pl->rs_from, gr = pl->rs_to - k0;
	uint32_t d = pl->split_dim, t, y, src, size, ops[2], n_of[XRT_MAX_RANK];
	int64_t three[3] = { 1, s->dims[d], 1 }, n = 1, col[2], sizes[3], offs[2] = { 0, 2 };
	const int64_t *gd = r->dims + k0;

	for (t = 0; t < s->rank; t++)
		three[t < d ? 0 : 2] *= t == d ? 1 : s->dims[t];
	ops[0] = hd_dyn_of(p, x)->size[d];
	ops[1] = hd_s32_const(pl, pl->divisor);
	size = hp_emit(&pl->e, XRT_OP_DIVIDE, XRT_S32, 0, NULL, ops, 2);
	for (t = 0; t < gr; t++) {
		n *= gd[t];
		n_of[t] = k0 + t == kd ? size : hd_s32_const(pl, gd[t]);
	}
	src = position(pl, gr, gd, n_of);
	col[0] = n;
	col[1] = 1;
	ops[0] = hp_emit(&pl->e, XRT_OP_RESHAPE, s->dtype, 3, three, &x, 1);
	ops[1] = hp_emit(&pl->e, XRT_OP_RESHAPE, XRT_S32, 2, col, &src, 1);
	three[1] = n;
	y = hp_emit(&pl->e, XRT_OP_GATHER, s->dtype, 3, three, ops, 2);
	sizes[0] = three[0];
	sizes[1] = 1;
	sizes[2] = three[2];
	hp_emit_ints(&pl->e, y, IR_ATTR_OFFSET_DIMS, offs, 2);
	hp_emit_ints(&pl->e, y, IR_ATTR_COLLAPSED_SLICE_DIMS, (int64_t[]){ 1 }, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_START_INDEX_MAP, (int64_t[]){ 1 }, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_INDEX_VECTOR_DIM, (int64_t[]){ 1 }, 1);
	hp_emit_ints(&pl->e, y, IR_ATTR_SLICE_SIZES, sizes, 3);
	pl->total = size;
	return hp_emit(&pl->e, XRT_OP_RESHAPE, r->dtype, r->rank, r->dims, &y, 1);
}

struct moving {
	uint32_t n, ops[];
};

static uint32_t expand_move(struct hp_emit *e, void *ctx)
{
	struct plan *pl = (struct plan *)e;
	const struct moving *m = ctx;
	const struct ir_instr *in = &e->p->cur->instrs[e->p->cur->num_instrs - 1];

	if (in->op == XRT_OP_RESHAPE || in->op == XRT_OP_BITCAST)
		return pl->split ? move_split(pl, m->ops[0]) : move_reshaped(pl, m->ops[0]);
	return in->op == XRT_OP_REVERSE ? move_reversed(pl, m->ops[0]) :
					  move_concatenated(pl, m->ops, m->n);
}

/* The reverse, concatenate or reshape just read, its dynamic dimensions moved. */
int hd_move(struct hp *p, struct plan *pl)
{
	struct ir_instr *in = hd_last(p);
	const struct hp_dyn *e = in->op == XRT_OP_REVERSE ? hd_dyn_of(p, in->operands[0]) : NULL;
	struct moving *m;
	uint32_t v, d, n = in->num_operands;
	int rc;

	if (in->op == XRT_OP_REVERSE && (n != 1 || !ir_instr_attr(in, IR_ATTR_DIMENSIONS)))
		return 0;	/* the verifier says what is wrong */
	if (in->op == XRT_OP_CONCATENATE && (xrt_shape_is_tuple(&in->shape) || !n))
		return 0;
	if ((in->op == XRT_OP_RESHAPE || in->op == XRT_OP_BITCAST) && n != 1)
		return 0;
	m = xrt_mem_calloc(p->a, 1, sizeof(*m) + n * sizeof(m->ops[0]));
	if (!m)
		return hp_oom(p);
	m->n = n;
	memcpy(m->ops, in->operands, n * sizeof(m->ops[0]));
	rc = hp_emit_twice(&pl->e, expand_move, m, &v);
	xrt_mem_free(p->a, m);
	if (rc || hp_become(p, XRT_OP_COPY, &v, 1))
		return -1;
	for (d = 0; d < XRT_MAX_RANK; d++) {
		if (!(pl->moved & (1u << d)))
			continue;
		p->dyn_next.mask |= (uint8_t)(1u << d);
		p->dyn_next.size[d] = e ? e->size[d] : pl->total;
	}
	return 0;
}


/*
 * dynamic-reshape(x, sizes...): the values inside x's sizes, in
 * row-major order, laid out row-major over the result's sizes.  Result
 * index j takes the q-th of them, q its position among the sizes; the
 * q-th lies at x's indices (q / P_t) % n_t (P_t the product of x's
 * sizes after t, the major one undivided).  One gather from x flat.
 */
static uint32_t expand_dyn_reshape(struct hp_emit *em, void *ctx)
{
	struct plan *pl = (struct plan *)em;
	struct hp *p = em->p;
	const struct ir_instr *in = hd_last(p);
	const struct xrt_shape *r = &in->shape, *s = &p->cur->instrs[in->operands[0]].shape;
	const struct hp_dyn *e = hd_dyn_of(p, in->operands[0]);
	uint32_t q, t, n, src = NONE, size, digit, ops[2], x = *(const uint32_t *)ctx;
	int64_t total = 1, count = 1, col[2], below = 1;

	for (t = 0; t < s->rank; t++)
		total *= s->dims[t];
	for (t = 0; t < r->rank; t++)
		count *= r->dims[t];
	q = position(pl, r->rank, r->dims, in->operands + 1);
	size = hd_s32_const(pl, 1);
	for (t = s->rank; e && t-- > 0;) {
		n = e->mask & (1u << t) ? e->size[t] : hd_s32_const(pl, s->dims[t]);
		ops[0] = q;
		ops[1] = spread(pl, size, r->rank, r->dims);
		digit = hp_emit(&pl->e, XRT_OP_DIVIDE, XRT_S32, r->rank, r->dims, ops, 2);
		ops[0] = digit;
		ops[1] = spread(pl, n, r->rank, r->dims);
		if (t)
			digit = hp_emit(&pl->e, XRT_OP_REMAINDER, XRT_S32, r->rank, r->dims, ops,
					2);
		ops[0] = digit;
		ops[1] = spread(pl, hd_s32_const(pl, below), r->rank, r->dims);
		digit = hp_emit(&pl->e, XRT_OP_MULTIPLY, XRT_S32, r->rank, r->dims, ops, 2);
		ops[0] = src;
		ops[1] = digit;
		src = src == NONE ? digit : hp_emit(&pl->e, XRT_OP_ADD, XRT_S32, r->rank, r->dims,
						    ops, 2);
		ops[0] = size;
		ops[1] = n;
		size = hp_emit(&pl->e, XRT_OP_MULTIPLY, XRT_S32, 0, NULL, ops, 2);
		below *= s->dims[t];
	}
	col[0] = count;
	col[1] = 1;
	ops[0] = hp_emit(&pl->e, XRT_OP_RESHAPE, s->dtype, 1, &total, &x, 1);
	q = src == NONE ? q : src;	/* a static x: the position is the index */
	ops[1] = hp_emit(&pl->e, XRT_OP_RESHAPE, XRT_S32, 2, col, &q, 1);
	q = hp_emit(&pl->e, XRT_OP_GATHER, s->dtype, 1, &count, ops, 2);
	hp_emit_ints(&pl->e, q, IR_ATTR_OFFSET_DIMS, NULL, 0);
	hp_emit_ints(&pl->e, q, IR_ATTR_COLLAPSED_SLICE_DIMS, (int64_t[]){ 0 }, 1);
	hp_emit_ints(&pl->e, q, IR_ATTR_START_INDEX_MAP, (int64_t[]){ 0 }, 1);
	hp_emit_ints(&pl->e, q, IR_ATTR_INDEX_VECTOR_DIM, (int64_t[]){ 1 }, 1);
	hp_emit_ints(&pl->e, q, IR_ATTR_SLICE_SIZES, (int64_t[]){ 1 }, 1);
	return hp_emit(&pl->e, XRT_OP_RESHAPE, r->dtype, r->rank, r->dims, &q, 1);
}

/* Elements of array @s, saturating (dimensions are at most 2^62 each). */
static uint64_t elements(const struct xrt_shape *s)
{
	uint64_t n = 1;
	uint32_t t;

	for (t = 0; t < s->rank; t++)
		n = s->dims[t] && n > UINT64_MAX / (uint64_t)s->dims[t] ? UINT64_MAX :
		    n * (uint64_t)s->dims[t];
	return n;
}

int hd_dynamic_reshape(struct hp *p)
{
	struct ir_instr *in = hd_last(p);
	const struct xrt_shape *x, *r = &in->shape;
	uint32_t t, v, rank = r->rank, sizes[XRT_MAX_RANK];
	uint8_t mask = p->decl.leaves == 1 ? p->decl.mask[0] : 0;
	struct plan pl;

	x = in->num_operands ? &p->cur->instrs[in->operands[0]].shape : NULL;
	if (!x || xrt_shape_is_tuple(x) || xrt_shape_is_tuple(r) || !r->rank ||
	    in->num_operands != 1 + r->rank || x->dtype != r->dtype)
		return hp_fail(p, "%s: dynamic-reshape takes an array and an s32[] size per "
			       "result dimension, and gives an array of its type", in->name);
	for (t = 0; t < r->rank; t++) {
		const struct xrt_shape *n = &p->cur->instrs[in->operands[1 + t]].shape;

		if (xrt_shape_is_tuple(n) || n->rank || n->dtype != XRT_S32)
			return hp_fail(p, "%s: dynamic-reshape's sizes are s32[]", in->name);
		if (r->dims[t] > INT32_MAX)
			return hp_fail(p, "%s: a dynamic dimension's bound must fit s32", in->name);
		sizes[t] = in->operands[1 + t];
	}
	if (elements(x) > INT32_MAX || elements(r) > INT32_MAX)	/* positions are s32 */
		return hp_fail(p, "%s: dynamic-reshape of more than 2^31 elements", in->name);
	hd_plan_init(p, &pl, in);
	v = in->operands[0];
	if (hp_emit_twice(&pl.e, expand_dyn_reshape, &v, &v) || hp_become(p, XRT_OP_COPY, &v, 1))
		return -1;
	for (t = 0; t < rank; t++) {	/* the "<=" dimensions take their sizes (@in moved) */
		if (!(mask & (1u << t)))
			continue;
		p->dyn_next.mask |= (uint8_t)(1u << t);
		p->dyn_next.size[t] = sizes[t];
	}
	return 0;
}
