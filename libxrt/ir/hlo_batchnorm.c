// SPDX-License-Identifier: MIT
/*
 * batch-norm-training, -inference and -grad, rewritten as they are read
 * into the arithmetic XLA's operation semantics define, per feature f
 * (the operand's dimension feature_index) over the m elements of f:
 *
 *   training   mean = sum(x) / m, var = sum((x - mean)^2) / m (two
 *              passes, not E[x^2] - E[x]^2, which cancels), out =
 *              (x - mean) * scale / sqrt(var + eps) + offset;
 *              (out, mean, var)
 *   inference  out from the given mean and var
 *   grad       r = rsqrt(var + eps), d_offset = sum(dy), d_scale =
 *              sum(dy (x - mean)) r, d_x = scale r (dy - d_offset / m -
 *              (x - mean) r^2 sum(dy (x - mean)) / m); (d_x, d_scale,
 *              d_offset)
 *
 * Sums over every dimension but the feature's are dots with a broadcast
 * one, so no helper computation is needed.  The arithmetic runs in the
 * operand's type.  Instructions are emitted twice: a dry pass counts
 * them, the second fills the room made for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo_parse.h"

enum bn_kind { TRAINING, INFERENCE, GRAD };
enum bn_shape { FULL, FEATURE, SCALAR, OTHERS };

struct bn {
	struct hp_emit e;
	enum xrt_dtype t;
	uint32_t rank, fi;
	int64_t dims[XRT_MAX_RANK], c;
	double m, eps;
};

/* A new instruction of @op over @ops of one of the four shapes; its index. */
static uint32_t emit(struct bn *b, enum xrt_opcode op, enum bn_shape s, const uint32_t *ops,
		     uint32_t n)
{
	int64_t d[XRT_MAX_RANK];
	uint32_t rank = 0, i;

	if (s == FULL) {
		rank = b->rank;
		memcpy(d, b->dims, sizeof(d));
	} else if (s == FEATURE) {
		rank = 1;
		d[0] = b->c;
	} else if (s == OTHERS) {
		for (i = 0; i < b->rank; i++)
			if (i != b->fi)
				d[rank++] = b->dims[i];
	}
	return hp_emit(&b->e, op, b->t, rank, d, ops, n);
}

static uint32_t with_dims(struct bn *b, uint32_t v, const int64_t *dims, uint32_t n)
{
	hp_emit_ints(&b->e, v, IR_ATTR_DIMENSIONS, dims, n);
	return v;
}

static uint32_t scalar(struct bn *b, double x)
{
	uint8_t *d;
	uint32_t v = hp_emit_const(&b->e, b->t, 0, NULL, &d);

	if (!d)
		return v;
	if (b->t == XRT_F64)
		memcpy(d, &x, 8);
	else if (b->t == XRT_F32)
		memcpy(d, &(float){ (float)x }, 4);
	else if (b->t == XRT_F16)
		memcpy(d, &(uint16_t){ xrt_f16_from_f32((float)x) }, 2);
	else
		memcpy(d, &(uint16_t){ xrt_bf16_from_f32((float)x) }, 2);
	return v;
}

/* Scalar @x broadcast to shape @s. */
static uint32_t splat(struct bn *b, double x, enum bn_shape s)
{
	uint32_t c = scalar(b, x);

	return with_dims(b, emit(b, XRT_OP_BROADCAST, s, &c, 1), NULL, 0);
}

/* A per-feature value broadcast over the operand. */
static uint32_t spread(struct bn *b, uint32_t v)
{
	int64_t fi = b->fi;

	return with_dims(b, emit(b, XRT_OP_BROADCAST, FULL, &v, 1), &fi, 1);
}

static uint32_t bin(struct bn *b, enum xrt_opcode op, enum bn_shape s, uint32_t x, uint32_t y)
{
	uint32_t ops[2] = { x, y };

	return emit(b, op, s, ops, 2);
}

/* The per-feature sum of a FULL value: a dot with ones over the other dimensions. */
static uint32_t sum(struct bn *b, uint32_t v)
{
	int64_t lc[XRT_MAX_RANK], rc[XRT_MAX_RANK];
	uint32_t ops[2], d, n = 0, s;

	if (b->rank == 1)
		return emit(b, XRT_OP_COPY, FEATURE, &v, 1);
	ops[0] = v;
	ops[1] = splat(b, 1.0, OTHERS);
	s = emit(b, XRT_OP_DOT, FEATURE, ops, 2);
	for (d = 0; d < b->rank; d++) {
		if (d == b->fi)
			continue;
		lc[n] = d;
		rc[n] = n;
		n++;
	}
	hp_emit_ints(&b->e, s, IR_ATTR_LHS_CONTRACTING_DIMS, lc, n);
	hp_emit_ints(&b->e, s, IR_ATTR_RHS_CONTRACTING_DIMS, rc, n);
	return s;
}

/* rsqrt(var + eps), per feature. */
static uint32_t inv_std(struct bn *b, uint32_t var)
{
	uint32_t ve = bin(b, XRT_OP_ADD, FEATURE, var, splat(b, b->eps, FEATURE));

	return emit(b, XRT_OP_RSQRT, FEATURE, &ve, 1);
}

/* (x - mean) * scale * r + offset, from FULL x - mean. */
static uint32_t normalize(struct bn *b, uint32_t xc, uint32_t scale, uint32_t r,
			  uint32_t offset)
{
	uint32_t k = bin(b, XRT_OP_MULTIPLY, FEATURE, scale, r);

	return bin(b, XRT_OP_ADD, FULL, bin(b, XRT_OP_MULTIPLY, FULL, xc, spread(b, k)),
		   spread(b, offset));
}

/* Emits the expansion of @in (operands @o); the values the slot @g then takes. */
static uint32_t expand(struct bn *b, enum bn_kind kind, const uint32_t *o, uint32_t *res)
{
	uint32_t inv_m = splat(b, 1.0 / b->m, FEATURE), mean, var, xc, r;

	if (kind == TRAINING) {
		mean = bin(b, XRT_OP_MULTIPLY, FEATURE, sum(b, o[0]), inv_m);
		xc = bin(b, XRT_OP_SUBTRACT, FULL, o[0], spread(b, mean));
		var = bin(b, XRT_OP_MULTIPLY, FEATURE,
			  sum(b, bin(b, XRT_OP_MULTIPLY, FULL, xc, xc)), inv_m);
		res[0] = normalize(b, xc, o[1], inv_std(b, var), o[2]);
		res[1] = mean;
		res[2] = var;
		return 3;
	}
	if (kind == INFERENCE) {
		xc = bin(b, XRT_OP_SUBTRACT, FULL, o[0], spread(b, o[3]));
		res[0] = normalize(b, xc, o[1], inv_std(b, o[4]), o[2]);
		return 1;
	}
	{	/* grad: x, scale, mean, var, dy */
		uint32_t dy = o[4], d_off, sdx, d_scale, t1, t2, dx;

		r = inv_std(b, o[3]);
		xc = bin(b, XRT_OP_SUBTRACT, FULL, o[0], spread(b, o[2]));
		d_off = sum(b, dy);
		sdx = sum(b, bin(b, XRT_OP_MULTIPLY, FULL, dy, xc));
		d_scale = bin(b, XRT_OP_MULTIPLY, FEATURE, sdx, r);
		/* dy - d_off / m - xc * (r^2 sdx / m) */
		t1 = bin(b, XRT_OP_SUBTRACT, FULL, dy,
			 spread(b, bin(b, XRT_OP_MULTIPLY, FEATURE, d_off, inv_m)));
		t2 = bin(b, XRT_OP_MULTIPLY, FEATURE, bin(b, XRT_OP_MULTIPLY, FEATURE, r, r),
			 bin(b, XRT_OP_MULTIPLY, FEATURE, sdx, inv_m));
		t1 = bin(b, XRT_OP_SUBTRACT, FULL, t1,
			 bin(b, XRT_OP_MULTIPLY, FULL, xc, spread(b, t2)));
		dx = bin(b, XRT_OP_MULTIPLY, FULL, t1,
			 spread(b, bin(b, XRT_OP_MULTIPLY, FEATURE, o[1], r)));
		res[0] = dx;
		res[1] = d_scale;
		res[2] = d_off;
		return 3;
	}
}

static bool same_dims(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return a->rank == b->rank && !memcmp(a->dims, b->dims, a->rank * sizeof(a->dims[0]));
}

static int check(struct hp *p, const struct ir_instr *in, enum bn_kind kind, struct bn *b)
{
	static const uint32_t nops[] = { 3, 5, 5 };
	const struct ir_attr *e = ir_instr_attr(in, IR_ATTR_EPSILON);
	const struct ir_attr *f = ir_instr_attr(in, IR_ATTR_FEATURE_INDEX);
	const struct xrt_shape *x, *r = &in->shape;
	uint32_t i, nres = kind == INFERENCE ? 1 : 3;
	char *end;

	if (in->num_operands != nops[kind])
		return hp_fail(p, "%s: %s takes %u operands", in->name, p->pseudo, nops[kind]);
	x = &p->cur->instrs[in->operands[0]].shape;
	if (!e || !f)
		return hp_fail(p, "%s: %s needs epsilon and feature_index", in->name, p->pseudo);
	b->eps = strtod(e->str, &end);
	if (*end || end == e->str)
		return hp_fail(p, "%s: epsilon '%s' is not a number", in->name, e->str);
	if (xrt_shape_is_tuple(x) || !xrt_dtype_is_float(x->dtype) || !x->rank)
		return hp_fail(p, "%s: the operand is not a floating-point array of rank 1 or more",
			       in->name);
	if (f->ints[0] < 0 || f->ints[0] >= x->rank)
		return hp_fail(p, "%s: feature_index %lld out of range for rank %u", in->name,
			       (long long)f->ints[0], x->rank);
	b->t = x->dtype;
	b->rank = x->rank;
	b->fi = (uint32_t)f->ints[0];
	memcpy(b->dims, x->dims, sizeof(b->dims));
	b->c = x->dims[b->fi];
	b->m = b->c ? (double)xrt_shape_element_count(x) / (double)b->c : 0;
	for (i = 1; i < in->num_operands; i++) {
		const struct xrt_shape *o = &p->cur->instrs[in->operands[i]].shape;
		bool full = kind == GRAD && i == 4;

		if (xrt_shape_is_tuple(o) || o->dtype != b->t ||
		    (full ? !same_dims(o, x) : o->rank != 1 || o->dims[0] != b->c))
			return hp_fail(p, "%s: operand %u is not %s %s", in->name, i,
				       xrt_dtype_name(b->t), full ? "of the operand's dimensions" :
				       "with one value per feature");
	}
	if (kind == INFERENCE ? xrt_shape_is_tuple(r) || !same_dims(r, x) ||
	    r->dtype != b->t : !xrt_shape_is_tuple(r) || r->tuple_count != nres ||
	    xrt_shape_is_tuple(&r->tuple[0]) || !same_dims(&r->tuple[0], x) ||
	    r->tuple[0].dtype != b->t)
		return hp_fail(p, "%s: the result is not %s", in->name, kind == INFERENCE ?
			       "the operand's shape" : "(operand's shape, per feature, per feature)");
	return 0;
}

int hlo_unbatchnorm(struct hp *p)
{
	static const char *const names[] = { "batch-norm-training", "batch-norm-inference",
					     "batch-norm-grad" };
	uint32_t g = p->cur->num_instrs - 1, o[5], res[3], n, i, at;
	struct ir_instr *in = &p->cur->instrs[g];
	enum bn_kind kind = TRAINING;
	struct bn b;

	for (i = 0; i < 3; i++)
		if (!strcmp(p->pseudo, names[i]))
			kind = (enum bn_kind)i;
	memset(&b, 0, sizeof(b));
	b.e.p = p;
	b.e.what = "bn";
	if (check(p, in, kind, &b))
		return -1;
	memcpy(o, in->operands, in->num_operands * sizeof(o[0]));
	snprintf(b.e.base, sizeof(b.e.base), "%.60s", in->name);
	b.e.dry = true;
	expand(&b, kind, o, res);
	if (hp_make_room(p, b.e.at, &at))
		return -1;
	b.e.dry = false;
	b.e.at = at;
	n = expand(&b, kind, o, res);
	if (b.e.failed)
		return -1;
	return hp_become(p, n == 1 ? XRT_OP_COPY : XRT_OP_TUPLE, res, n);
}
