// SPDX-License-Identifier: MIT
/*
 * ragged-dot in its ragged non-contracting form, rewritten as it is
 * read: lhs [m, k] (k the contracting dimension, m the ragged one), rhs
 * [g, k, n] in any order of its dimensions (rhs_group_dims names g), and
 * group_sizes [g]: the rows of lhs fall into g consecutive groups of
 * those sizes, group i multiplied by rhs's matrix i; rows past the last
 * group give 0.  As XLA's operation semantics define it, read as
 *
 *   all = dot(lhs, rhs)                    [m, g, n] (or [m, n, g])
 *   end = cumsum(group_sizes), start = end - group_sizes (a dot with a
 *         lower triangle of ones)
 *   in  = start[j] <= i < end[j]           [m, g], from an iota of rows
 *   out = sum over g of select(in, all, 0) (a dot with ones: one term
 *         is the row's own product, the rest +0)
 *
 * which costs g products per row: right for the modest g of tests and
 * small mixtures of experts.  Batch dimensions, a ragged contracting or
 * batch dimension, and group sizes with more than one dimension are
 * refused by name.
 */
#include <stdio.h>
#include <string.h>

#include "hlo_parse.h"

/* The emitter first: expand() is handed it and finds the rest. */
struct rd {
	struct hp_emit e;
	enum xrt_dtype t, it;		/* result, group sizes */
	int64_t m, g, n;
	uint32_t lc, rc, rg, gpos;	/* lhs/rhs contracting, rhs group, g's place in all */
};

static uint32_t emit(struct rd *r, enum xrt_opcode op, enum xrt_dtype t, uint32_t rank,
		     const int64_t *dims, const uint32_t *ops, uint32_t n)
{
	return hp_emit(&r->e, op, t, rank, dims, ops, n);
}

static uint32_t dot(struct rd *r, enum xrt_dtype t, uint32_t rank, const int64_t *dims,
		    uint32_t a, uint32_t b, int64_t ac, int64_t bc)
{
	uint32_t ops[2] = { a, b }, v = emit(r, XRT_OP_DOT, t, rank, dims, ops, 2);

	hp_emit_ints(&r->e, v, IR_ATTR_LHS_CONTRACTING_DIMS, &ac, 1);
	hp_emit_ints(&r->e, v, IR_ATTR_RHS_CONTRACTING_DIMS, &bc, 1);
	return v;
}

/* Ones of @t[@dims] (a vector, or a matrix's lower triangle with its diagonal). */
static uint32_t ones(struct rd *r, enum xrt_dtype t, uint32_t rank, const int64_t *dims,
		     bool lower_triangle)
{
	size_t es = xrt_dtype_size(t);
	uint8_t *d, one[8] = { 0 };
	uint32_t v = hp_emit_const(&r->e, t, rank, dims, &d);
	int64_t i, j, n = rank ? dims[0] : 1, w = rank > 1 ? dims[1] : 1;
	float f1 = 1;
	double d1 = 1;
	uint16_t h1 = t == XRT_F16 ? xrt_f16_from_f32(1) : xrt_bf16_from_f32(1);

	if (!d)
		return v;
	if (xrt_dtype_is_integer(t))
		one[0] = 1;
	else if (t == XRT_F32)
		memcpy(one, &f1, 4);
	else if (t == XRT_F64)
		memcpy(one, &d1, 8);
	else if (xrt_dtype_is_small_float(t))
		one[0] = xrt_small_float_from_f64(t, 1);
	else
		memcpy(one, &h1, 2);
	for (i = 0; i < n; i++)
		for (j = 0; j < w; j++)
			if (!lower_triangle || j <= i)
				memcpy(d + (size_t)(i * w + j) * es, one, es);
	return v;
}

static uint32_t compare(struct rd *r, const int64_t *mg, uint32_t a, uint32_t b, const char *dir)
{
	uint32_t ops[2] = { a, b }, v = emit(r, XRT_OP_COMPARE, XRT_PRED, 2, mg, ops, 2);

	hp_emit_word(&r->e, v, IR_ATTR_DIRECTION, dir);
	return v;
}

static uint32_t broadcast(struct rd *r, enum xrt_dtype t, uint32_t rank, const int64_t *dims,
			  uint32_t x, const int64_t *bdims, uint32_t nb)
{
	uint32_t v = emit(r, XRT_OP_BROADCAST, t, rank, dims, &x, 1);

	hp_emit_ints(&r->e, v, IR_ATTR_DIMENSIONS, bdims, nb);
	return v;
}

/* The result before its copy (@e is the rd's; @ctx lhs, rhs and group sizes). */
static uint32_t expand(struct hp_emit *e, void *ctx)
{
	struct rd *r = (struct rd *)e;
	uint32_t lhs = ((const uint32_t *)ctx)[0], rhs = ((const uint32_t *)ctx)[1];
	uint32_t gs = ((const uint32_t *)ctx)[2];
	int64_t mg[2] = { r->m, r->g }, g1[1] = { r->g }, gg[2] = { r->g, r->g }, all[3];
	int64_t one_dim = 1, bd[2] = { 0, r->gpos };
	uint32_t d, ends, starts, rows, in, mask, zero, sel, o[3];
	uint8_t *z;

	all[0] = r->m;
	all[r->gpos] = r->g;
	all[3 - r->gpos] = r->n;
	d = dot(r, r->t, 3, all, lhs, rhs, r->lc, r->rc);
	ends = dot(r, r->it, 1, g1, ones(r, r->it, 2, gg, true), gs, 1, 0);
	o[0] = ends;
	o[1] = gs;
	starts = emit(r, XRT_OP_SUBTRACT, r->it, 1, g1, o, 2);
	rows = emit(r, XRT_OP_IOTA, r->it, 2, mg, NULL, 0);
	if (!r->e.dry && !r->e.failed && hp_int_attr(r->e.p, &r->e.p->cur->instrs[rows],
						     IR_ATTR_IOTA_DIMENSION, 0))
		r->e.failed = true;
	o[0] = compare(r, mg, rows, broadcast(r, r->it, 2, mg, starts, &one_dim, 1), "GE");
	o[1] = compare(r, mg, rows, broadcast(r, r->it, 2, mg, ends, &one_dim, 1), "LT");
	in = emit(r, XRT_OP_AND, XRT_PRED, 2, mg, o, 2);
	mask = broadcast(r, XRT_PRED, 3, all, in, bd, 2);
	zero = hp_emit_const(&r->e, r->t, 0, NULL, &z);	/* +0 */
	o[0] = mask;
	o[1] = d;
	o[2] = broadcast(r, r->t, 3, all, zero, NULL, 0);
	sel = emit(r, XRT_OP_SELECT, r->t, 3, all, o, 3);
	return dot(r, r->t, 2, (int64_t[2]){ r->m, r->n }, sel, ones(r, r->t, 1, g1, false),
		   r->gpos, 0);
}

static int check(struct hp *p, const struct ir_instr *in, struct rd *r)
{
	const struct xrt_shape *l, *w, *gs;
	int64_t lc = hp_one_int(in, IR_ATTR_LHS_CONTRACTING_DIMS), rc, rg, lr;
	uint32_t nd;

	if (in->num_operands != 3)
		return hp_fail(p, "%s: ragged-dot takes 3 operands", in->name);
	l = &p->cur->instrs[in->operands[0]].shape;
	w = &p->cur->instrs[in->operands[1]].shape;
	gs = &p->cur->instrs[in->operands[2]].shape;
	rc = hp_one_int(in, IR_ATTR_RHS_CONTRACTING_DIMS);
	rg = hp_one_int(in, IR_ATTR_RHS_GROUP_DIMS);
	lr = hp_one_int(in, IR_ATTR_LHS_RAGGED_DIMS);
	if (ir_instr_attr(in, IR_ATTR_LHS_BATCH_DIMS) || ir_instr_attr(in, IR_ATTR_RHS_BATCH_DIMS))
		return hp_fail(p, "%s: ragged-dot with batch dimensions is not supported yet",
			       in->name);
	if (xrt_shape_is_tuple(l) || xrt_shape_is_tuple(w) || xrt_shape_is_tuple(gs) ||
	    l->rank != 2 || w->rank != 3 || gs->rank != 1)
		return hp_fail(p, "%s: ragged-dot is supported for lhs [m, k], rhs [g, k, n] and "
			       "group_sizes [g] only", in->name);
	if (lc < 0 || lc > 1 || rc < 0 || rc > 2 || rg < 0 || rg > 2 || rg == rc || lr < 0)
		return hp_fail(p, "%s: ragged-dot needs one lhs and one rhs contracting dimension, "
			       "one lhs ragged dimension and one rhs group dimension", in->name);
	if (lr == lc)
		return hp_fail(p, "%s: ragged-dot with a ragged contracting dimension is not "
			       "supported yet", in->name);
	if (lr != 1 - lc)
		return hp_fail(p, "%s: ragged-dot's lhs_ragged_dims={%lld} is not a dimension of "
			       "lhs", in->name, (long long)lr);
	if (gs->dtype != XRT_S32 && gs->dtype != XRT_S64)
		return hp_fail(p, "%s: ragged-dot's group sizes are s32 or s64", in->name);
	if (l->dtype != w->dtype || l->dtype != in->shape.dtype || xrt_dtype_is_complex(l->dtype) ||
	    l->dtype == XRT_PRED)
		return hp_fail(p, "%s: ragged-dot of %s x %s to %s: one real type is supported",
			       in->name, xrt_dtype_name(l->dtype), xrt_dtype_name(w->dtype),
			       xrt_dtype_name(in->shape.dtype));
	nd = (uint32_t)(3 - rc - rg);	/* rhs's n dimension */
	r->m = l->dims[lr];
	r->g = w->dims[rg];
	r->n = w->dims[nd];
	if (l->dims[lc] != w->dims[rc] || gs->dims[0] != r->g || xrt_shape_is_tuple(&in->shape) ||
	    in->shape.rank != 2 || in->shape.dims[0] != r->m || in->shape.dims[1] != r->n)
		return hp_fail(p, "%s: ragged-dot's operand and result dimensions do not agree",
			       in->name);
	r->t = l->dtype;
	r->it = gs->dtype;
	r->lc = (uint32_t)lc;
	r->rc = (uint32_t)rc;
	r->rg = (uint32_t)rg;
	r->gpos = rg < (int64_t)nd ? 1 : 2;
	return 0;
}

int hlo_unragged(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	uint32_t o[3], v;
	struct rd r;

	memset(&r, 0, sizeof(r));
	r.e.p = p;
	r.e.what = "rd";
	if (check(p, in, &r))
		return -1;
	memcpy(o, in->operands, sizeof(o));
	snprintf(r.e.base, sizeof(r.e.base), "%.60s", in->name);
	if (hp_emit_twice(&r.e, expand, o, &v))
		return -1;
	return hp_become(p, XRT_OP_COPY, &v, 1);
}
