// SPDX-License-Identifier: MIT
/*
 * Lowerings of FloorDiv, FloorMod, Unpack, OneHot, GatherV2, Conv2D,
 * MaxPool, AvgPool and the seeded random ops.
 */
#include <string.h>

#include "eager_internal.h"

static const struct xrt_shape *shape_of(const struct lowering *l, xrt_value v)
{
	return xrt_value_shape(l->b, v);
}

/*
 * FloorDiv (code 0) and FloorMod (1) round toward negative infinity:
 * the truncated quotient moves down, and the remainder takes the
 * divisor's sign, where the operands' signs differ and it is not exact.
 */
xrt_status *eager_lower_floor_divmod(struct lowering *l)
{
	xrt_value x = l->in[0], y = l->in[1], q, r, zero, fix;
	const struct xrt_shape *s;
	xrt_status *st = eager_broadcast(l, &x, &y);

	if (st)
		return st;
	s = shape_of(l, x);
	if (!s)
		return NULL;
	if (xrt_dtype_is_float(s->dtype) && !l->op->def->code) {
		l->out[0] = xrt_build_unary(l->b, XRT_OP_FLOOR,
					    xrt_build_binary(l->b, XRT_OP_DIVIDE, x, y));
		return NULL;
	}
	zero = eager_fill_like(l, x, 0.0);
	r = xrt_build_binary(l->b, XRT_OP_REMAINDER, x, y);
	fix = xrt_build_binary(l->b, XRT_OP_AND,
		xrt_build_compare(l->b, r, zero, XRT_CMP_NE, XRT_CMP_DEFAULT),
		xrt_build_compare(l->b,
			xrt_build_compare(l->b, r, zero, XRT_CMP_LT, XRT_CMP_DEFAULT),
			xrt_build_compare(l->b, y, zero, XRT_CMP_LT, XRT_CMP_DEFAULT),
			XRT_CMP_NE, XRT_CMP_DEFAULT));
	if (l->op->def->code) {
		l->out[0] = xrt_build_select(l->b, fix, xrt_build_binary(l->b, XRT_OP_ADD, r, y), r);
		return NULL;
	}
	q = xrt_build_binary(l->b, XRT_OP_DIVIDE, x, y);
	l->out[0] = xrt_build_select(l->b, fix,
				     xrt_build_binary(l->b, XRT_OP_SUBTRACT, q,
						      eager_fill_like(l, q, 1.0)), q);
	return NULL;
}

/* Unpack: num slices along axis, each without that dimension. */
xrt_status *eager_lower_unpack(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t num = eager_attr_int(l->op, "num"), axis = eager_attr_int(l->op, "axis");
	int64_t start[XRT_MAX_RANK] = { 0 }, limit[XRT_MAX_RANK], one[XRT_MAX_RANK];
	int64_t dims[XRT_MAX_RANK];
	uint32_t rank, i, k;

	if (!s)
		return NULL;
	rank = s->rank;
	if (axis < 0)
		axis += rank;
	if (axis < 0 || axis >= rank || s->dims[axis] != num || num > EAGER_MAX_OUTPUTS)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "num must be the size of axis %lld (and at most %d)",
				      (long long)axis, EAGER_MAX_OUTPUTS);
	for (i = 0, k = 0; i < rank; i++) {
		limit[i] = s->dims[i];
		one[i] = 1;
		if (i != axis)
			dims[k++] = s->dims[i];
	}
	for (i = 0; i < num; i++) {
		start[axis] = i;
		limit[axis] = i + 1;
		l->out[i] = xrt_build_reshape(l->b, xrt_build_slice(l->b, l->in[0], start, limit,
								   one), rank - 1, dims);
	}
	l->num_out = (uint32_t)num;
	return NULL;
}

/* OneHot(indices, depth, on_value, off_value) along axis (-1: last). */
xrt_status *eager_lower_one_hot(struct lowering *l)
{
	const struct xrt_shape *is = shape_of(l, l->in[0]), *on = shape_of(l, l->in[2]);
	int64_t axis = eager_attr_int(l->op, "axis"), depth, dims[XRT_MAX_RANK];
	int64_t bd[XRT_MAX_RANK];
	struct xrt_shape ishape;
	uint32_t n, i, k, rank;
	xrt_value iota, idx;
	xrt_status *st;

	if (!is || !on)
		return NULL;
	st = eager_const_ints(l, 1, &depth, 1, &n);
	if (st)
		return st;
	rank = is->rank + 1;
	if (axis == -1)
		axis = is->rank;
	if (n != 1 || depth < 0 || axis < 0 || axis >= rank || rank > XRT_MAX_RANK || on->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "needs a depth >= 0, an axis in [-1, %u] and scalar values",
				      is->rank);
	for (i = 0, k = 0; i < rank; i++) {
		if (i == axis) {
			dims[i] = depth;
		} else {
			bd[k] = i;
			dims[i] = is->dims[k++];
		}
	}
	st = xrt_shape_init_array(&ishape, is->dtype, rank, dims);
	if (st)
		return st;
	iota = xrt_build_iota(l->b, &ishape, axis);
	idx = xrt_build_broadcast(l->b, l->in[0], rank, dims, bd);
	l->out[0] = xrt_build_select(l->b,
		xrt_build_compare(l->b, idx, iota, XRT_CMP_EQ, XRT_CMP_DEFAULT),
		xrt_build_broadcast(l->b, l->in[2], rank, dims, NULL),
		xrt_build_broadcast(l->b, l->in[3], rank, dims, NULL));
	return NULL;
}

/* GatherV2(params, indices, axis): params[:a] + indices + params[a+1:]. */
xrt_status *eager_lower_gather(struct lowering *l)
{
	const struct xrt_shape *ps = shape_of(l, l->in[0]), *is = shape_of(l, l->in[1]);
	int64_t axis, slice[XRT_MAX_RANK], offs[XRT_MAX_RANK];
	uint32_t n, i, k = 0, out_rank;
	struct xrt_gather_dims g;
	xrt_status *st;

	if (!ps || !is)
		return NULL;
	st = eager_const_ints(l, 2, &axis, 1, &n);
	if (st)
		return st;
	if (axis < 0)
		axis += ps->rank;
	out_rank = ps->rank + is->rank - 1;
	if (n != 1 || axis < 0 || axis >= ps->rank || out_rank > XRT_MAX_RANK ||
	    eager_attr_int(l->op, "batch_dims"))
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "axis must be in [0, %u) (and batch_dims 0)", ps->rank);
	for (i = 0; i < ps->rank; i++) {
		slice[i] = i == axis ? 1 : ps->dims[i];
		if (i != axis)
			offs[k++] = i < axis ? i : i + is->rank - 1;
	}
	g = (struct xrt_gather_dims){ offs, k, &axis, 1, &axis, 1, is->rank };
	l->out[0] = xrt_build_gather(l->b, l->in[0], l->in[1], &g, slice, false);
	return NULL;
}

/* The window of an NHWC op: strides, SAME or VALID padding, dilations. */
static xrt_status *window(struct lowering *l, const int64_t *in, const int64_t *k,
			  struct xrt_window_dim *w)
{
	const struct attr_val *st = eager_attr(l->op, "strides");
	const struct attr_val *dl = eager_attr(l->op, "dilations");
	const struct attr_val *pad = eager_attr(l->op, "padding");
	const struct attr_val *fmt = eager_attr(l->op, "data_format");
	bool same;
	int d;

	if (fmt && fmt->set && strcmp(fmt->s, "NHWC"))
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "only NHWC data is supported");
	if (!pad || !pad->set || (strcmp(pad->s, "SAME") && strcmp(pad->s, "VALID")))
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "padding must be SAME or VALID");
	same = !strcmp(pad->s, "SAME");
	if (!st || st->n != 4 || st->list[0] != 1 || st->list[3] != 1 ||
	    (dl && dl->set && (dl->n != 4 || dl->list[0] != 1 || dl->list[3] != 1)))
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "strides (and dilations) need 4 entries, 1 for N and C");
	for (d = 0; d < 4; d++) {
		int64_t s = st->list[d], di = dl && dl->set ? dl->list[d] : 1;
		int64_t eff = (k[d] - 1) * di + 1, out, total;

		if (s < 1 || di < 1)
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "strides and dilations >= 1");
		out = same ? (in[d] + s - 1) / s : (in[d] >= eff ? (in[d] - eff) / s + 1 : 0);
		total = same ? (out - 1) * s + eff - in[d] : 0;
		if (total < 0)
			total = 0;
		w[d] = (struct xrt_window_dim){ k[d], s, total / 2, total - total / 2, 1, di,
						false };
	}
	return NULL;
}

xrt_status *eager_lower_conv2d(struct lowering *l)
{
	const struct xrt_shape *x = shape_of(l, l->in[0]), *f = shape_of(l, l->in[1]);
	struct xrt_window_dim w[4];
	int64_t in[4], k[4];
	xrt_status *st;

	if (!x || !f)
		return NULL;
	if (x->rank != 4 || f->rank != 4 || x->dims[3] != f->dims[2])
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "input [N,H,W,C] and filter [H,W,C,O] must agree on C");
	memcpy(in, x->dims, sizeof(in));
	k[0] = 1;
	k[1] = f->dims[0];
	k[2] = f->dims[1];
	k[3] = 1;
	st = window(l, in, k, w);
	if (st)
		return st;
	l->out[0] = xrt_build_convolution(l->b, l->in[0], l->in[1], w + 1, "b01f_01io->b01f",
					  1, 1, XRT_INVALID);
	return NULL;
}

/* MaxPool (code 0) and AvgPool (1); the average counts only real elements. */
xrt_status *eager_lower_pool(struct lowering *l)
{
	const struct xrt_shape *x = shape_of(l, l->in[0]);
	const struct attr_val *ks = eager_attr(l->op, "ksize");
	struct xrt_window_dim w[4];
	xrt_value init, sum, ones, count;
	enum xrt_dtype t;
	xrt_comp add;
	int64_t in[4];
	xrt_status *st;

	if (!x)
		return NULL;
	if (x->rank != 4 || !ks || ks->n != 4 || ks->list[0] != 1 || ks->list[3] != 1)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "input must be [N,H,W,C] and ksize 4 entries, 1 for N and C");
	t = x->dtype;
	memcpy(in, x->dims, sizeof(in));
	st = window(l, in, ks->list, w);
	if (st)
		return st;
	if (!l->op->def->code) {
		init = eager_scalar(l, t, 2);
		l->out[0] = xrt_build_reduce_window(l->b, &l->in[0], &init, 1,
						    eager_reducer(l, XRT_OP_MAXIMUM, t), w);
		return NULL;
	}
	init = eager_scalar(l, t, 0);
	add = eager_reducer(l, XRT_OP_ADD, t);
	sum = xrt_build_reduce_window(l->b, &l->in[0], &init, 1, add, w);
	ones = eager_fill_like(l, l->in[0], 1.0);
	count = xrt_build_reduce_window(l->b, &ones, &init, 1, add, w);
	l->out[0] = xrt_build_binary(l->b, XRT_OP_DIVIDE, sum, count);
	return NULL;
}

/*
 * RandomUniform (code 0, in [0, 1)) and RandomStandardNormal (1) of the
 * constant shape.  The numbers come from the execution's seed, which the
 * executor derives from the op's seed attributes and how often it ran.
 */
xrt_status *eager_lower_random(struct lowering *l)
{
	enum xrt_dtype t = (enum xrt_dtype)eager_attr_int(l->op, "dtype");
	int64_t dims[XRT_MAX_RANK];
	struct xrt_shape s;
	uint32_t n, i;
	xrt_status *st;

	st = eager_const_ints(l, 0, dims, XRT_MAX_RANK, &n);
	if (st)
		return st;
	for (i = 0; i < n; i++) {
		if (dims[i] < 0)
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "negative dimension");
	}
	st = xrt_shape_init_array(&s, t, n, dims);
	if (st)
		return st;
	l->out[0] = xrt_build_rng(l->b, eager_scalar_of(l, t, 0), eager_scalar_of(l, t, 1),
				  l->op->def->code ? XRT_RNG_NORMAL : XRT_RNG_UNIFORM, &s);
	return NULL;
}
