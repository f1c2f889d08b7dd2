// SPDX-License-Identifier: MIT
/*
 * Lowerings of the reductions: Sum, Prod, Max, Min, Mean (axes from a
 * constant input, keep_dims), ArgMax/ArgMin, Softmax and LogSoftmax.
 */
#include <math.h>
#include <string.h>

#include "eager_internal.h"

enum red_kind { RED_SUM, RED_PROD, RED_MAX, RED_MIN, RED_MEAN };

/* A scalar of @t: 0, 1, the lowest (2) or the highest (3) value. */
xrt_value eager_scalar(struct lowering *l, enum xrt_dtype t, int which)
{
	size_t w = xrt_dtype_size(t);
	struct xrt_shape s;
	xrt_literal *lit = NULL;
	xrt_value v = { 0 };
	int64_t i = which == 1;

	if (xrt_dtype_is_float(t) || xrt_dtype_is_complex(t))
		return eager_scalar_of(l, t, which == 0 ? 0 : which == 1 ? 1 :
					  which == 2 ? -INFINITY : INFINITY);
	/* the lowest as -highest - 1: -2^63 itself has no positive to negate */
	if (which >= 2 && xrt_dtype_is_signed(t)) {
		i = (int64_t)(((uint64_t)1 << (w * 8 - 1)) - 1);
		i = which == 2 ? -i - 1 : i;
	} else if (which >= 2) {
		i = which == 2 ? 0 : -1;	/* all ones */
	}
	if (xrt_shape_init_array(&s, t, 0, NULL) || xrt_literal_create(l->a, &s, &lit))
		return v;
	/* little-endian: the low bytes of the two's complement */
	memcpy(xrt_literal_mutable_data(lit), &i, w);
	v = xrt_build_constant(l->b, lit);
	xrt_literal_destroy(lit);
	return v;
}

/* A reducer computation (a, b) -> a @op b over scalars of @t. */
xrt_comp eager_reducer(struct lowering *l, enum xrt_opcode op, enum xrt_dtype t)
{
	static const char *const names[] = { "sum", "prod", "max", "min" };
	struct xrt_shape s;
	xrt_value a, b;
	int k = op == XRT_OP_ADD ? 0 : op == XRT_OP_MULTIPLY ? 1 : op == XRT_OP_MAXIMUM ? 2 : 3;

	xrt_shape_init_array(&s, t, 0, NULL);
	xrt_builder_begin(l->b, names[k]);
	a = xrt_build_parameter(l->b, 0, &s, "a");
	b = xrt_build_parameter(l->b, 1, &s, "b");
	return xrt_builder_end(l->b, xrt_build_binary(l->b, op, a, b));
}

/* The axes of constant input 1, wrapped and checked against @rank. */
static xrt_status *axes(struct lowering *l, uint32_t rank, bool *mask, int64_t *list,
			uint32_t *n)
{
	int64_t raw[XRT_MAX_RANK * 2];
	uint32_t k, cnt;
	xrt_status *st = eager_const_ints(l, 1, raw, XRT_MAX_RANK * 2, &cnt);

	if (st)
		return st;
	memset(mask, 0, XRT_MAX_RANK * sizeof(*mask));
	for (k = 0; k < cnt; k++) {
		int64_t a = raw[k] < 0 ? raw[k] + rank : raw[k];

		if (a < 0 || a >= rank)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "axis %lld is out of rank %u", (long long)raw[k], rank);
		mask[a] = true;
	}
	*n = 0;
	for (k = 0; k < rank; k++) {
		if (mask[k])
			list[(*n)++] = k;
	}
	return NULL;
}

xrt_status *eager_lower_reduce(struct lowering *l)
{
	static const enum xrt_opcode ops[] = { XRT_OP_ADD, XRT_OP_MULTIPLY, XRT_OP_MAXIMUM,
					       XRT_OP_MINIMUM, XRT_OP_ADD };
	static const int inits[] = { 0, 1, 2, 3, 0 };
	const struct xrt_shape *s = xrt_value_shape(l->b, l->in[0]);
	enum red_kind kind = (enum red_kind)l->op->def->code;
	int64_t list[XRT_MAX_RANK], kept[XRT_MAX_RANK];
	bool mask[XRT_MAX_RANK];
	int64_t count = 1;
	enum xrt_dtype t;
	xrt_value init, r;
	uint32_t n = 0, i, rank;
	xrt_status *st;

	if (!s)
		return NULL;
	t = s->dtype;
	rank = s->rank;
	memcpy(kept, s->dims, sizeof(kept));
	st = axes(l, rank, mask, list, &n);
	if (st)
		return st;
	for (i = 0; i < n; i++)
		count *= kept[list[i]];
	init = eager_scalar(l, t, inits[kind]);
	r = xrt_build_reduce(l->b, &l->in[0], &init, 1, eager_reducer(l, ops[kind], t), list, n);
	if (kind == RED_MEAN) {
		int64_t rd[XRT_MAX_RANK];
		uint32_t rr = rank - n, k = 0;
		xrt_value c;

		for (i = 0; i < rank; i++)
			if (!mask[i])
				rd[k++] = kept[i];
		c = eager_scalar_of(l, t, (double)count);
		r = xrt_build_binary(l->b, XRT_OP_DIVIDE, r,
				     xrt_build_broadcast(l->b, c, rr, rd, NULL));
	}
	if (eager_attr_int(l->op, "keep_dims")) {
		for (i = 0; i < rank; i++)
			if (mask[i])
				kept[i] = 1;
		r = xrt_build_reshape(l->b, r, rank, kept);
	}
	l->out[0] = r;
	return NULL;
}

/* Softmax (code 0) and LogSoftmax (1) over the last dimension, shifted by the max. */
xrt_status *eager_lower_softmax(struct lowering *l)
{
	const struct xrt_shape *s = xrt_value_shape(l->b, l->in[0]);
	int64_t dims[XRT_MAX_RANK], bd[XRT_MAX_RANK], last;
	xrt_value x = l->in[0], init, m, z, e, sum;
	enum xrt_dtype t;
	uint32_t rank, k;

	if (!s)
		return NULL;
	if (!s->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "logits must have rank 1 or more");
	t = s->dtype;
	rank = s->rank;
	memcpy(dims, s->dims, sizeof(dims));
	last = rank - 1;
	for (k = 0; k + 1 < rank; k++)
		bd[k] = k;
	init = eager_scalar(l, t, 2);
	m = xrt_build_reduce(l->b, &x, &init, 1, eager_reducer(l, XRT_OP_MAXIMUM, t), &last, 1);
	z = xrt_build_binary(l->b, XRT_OP_SUBTRACT, x,
			     xrt_build_broadcast(l->b, m, rank, dims, bd));
	e = xrt_build_unary(l->b, XRT_OP_EXP, z);
	init = eager_scalar(l, t, 0);
	sum = xrt_build_reduce(l->b, &e, &init, 1, eager_reducer(l, XRT_OP_ADD, t), &last, 1);
	sum = xrt_build_broadcast(l->b, sum, rank, dims, bd);
	l->out[0] = l->op->def->code ?
		xrt_build_binary(l->b, XRT_OP_SUBTRACT, z, xrt_build_unary(l->b, XRT_OP_LOG, sum)) :
		xrt_build_binary(l->b, XRT_OP_DIVIDE, e, sum);
	return NULL;
}

/* (value, index) pairs: the larger (ArgMax) or smaller value, the first index on ties. */
static xrt_comp arg_reducer(struct lowering *l, enum xrt_dtype t, enum xrt_dtype it, bool max)
{
	struct xrt_shape vs, is;
	xrt_value av, ai, bv, bi, take, tie, pair[2];

	xrt_shape_init_array(&vs, t, 0, NULL);
	xrt_shape_init_array(&is, it, 0, NULL);
	xrt_builder_begin(l->b, max ? "argmax" : "argmin");
	av = xrt_build_parameter(l->b, 0, &vs, "av");
	ai = xrt_build_parameter(l->b, 1, &is, "ai");
	bv = xrt_build_parameter(l->b, 2, &vs, "bv");
	bi = xrt_build_parameter(l->b, 3, &is, "bi");
	take = xrt_build_compare(l->b, av, bv, max ? XRT_CMP_GT : XRT_CMP_LT, XRT_CMP_DEFAULT);
	tie = xrt_build_binary(l->b, XRT_OP_AND,
			       xrt_build_compare(l->b, av, bv, XRT_CMP_EQ, XRT_CMP_DEFAULT),
			       xrt_build_compare(l->b, ai, bi, XRT_CMP_LT, XRT_CMP_DEFAULT));
	take = xrt_build_binary(l->b, XRT_OP_OR, take, tie);
	pair[0] = xrt_build_select(l->b, take, av, bv);
	pair[1] = xrt_build_select(l->b, take, ai, bi);
	return xrt_builder_end(l->b, xrt_build_tuple(l->b, pair, 2));
}

/* ArgMax (code 1) and ArgMin (0) along the constant axis input. */
xrt_status *eager_lower_arg(struct lowering *l)
{
	const struct xrt_shape *s = xrt_value_shape(l->b, l->in[0]);
	enum xrt_dtype t, it = (enum xrt_dtype)eager_attr_int(l->op, "output_type");
	xrt_value ins[2], inits[2], r;
	struct xrt_shape ishape;
	int64_t axis;
	uint32_t n;
	xrt_status *st;

	if (!s)
		return NULL;
	st = eager_const_ints(l, 1, &axis, 1, &n);
	if (st)
		return st;
	if (n != 1 || axis < -(int64_t)s->rank || axis >= s->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "dimension must be one axis of rank %u",
				      s->rank);
	if (axis < 0)
		axis += s->rank;
	if (!s->dims[axis])
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "reduces an empty dimension");
	t = s->dtype;
	st = xrt_shape_init_array(&ishape, it, s->rank, s->dims);
	if (st)
		return st;
	ins[0] = l->in[0];
	ins[1] = xrt_build_iota(l->b, &ishape, axis);
	inits[0] = eager_scalar(l, t, l->op->def->code ? 2 : 3);
	inits[1] = eager_scalar(l, it, 0);
	r = xrt_build_reduce(l->b, ins, inits, 2, arg_reducer(l, t, it, l->op->def->code), &axis, 1);
	l->out[0] = xrt_build_get_tuple_element(l->b, r, 1);
	return NULL;
}
