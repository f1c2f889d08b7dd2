// SPDX-License-Identifier: MIT
/*
 * Lowerings of the elementwise ops: unary and binary math with numpy
 * broadcasting, comparisons, logic, casts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eager_internal.h"

xrt_status *eager_op_error(const struct lowering *l, enum xrt_code code,
			   const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return xrt_status_new(l->a, code, "%s: %s", l->op->def->name, msg);
}

static const struct xrt_shape *shape_of(const struct lowering *l, xrt_value v)
{
	return xrt_value_shape(l->b, v);
}

/* @v spread to @rank dims @dims, aligned to the trailing dimensions. */
xrt_value eager_spread(struct lowering *l, xrt_value v, uint32_t rank, const int64_t *dims)
{
	const struct xrt_shape *s = shape_of(l, v);
	int64_t keep[XRT_MAX_RANK], bdims[XRT_MAX_RANK];
	uint32_t i, off, n = 0;

	if (!s)		/* the builder failed; its error comes out at the end */
		return v;
	off = rank - s->rank;
	if (s->rank == rank && !memcmp(s->dims, dims, rank * sizeof(*dims)))
		return v;
	/* Size-1 dimensions that grow are dropped first, then broadcast. */
	for (i = 0; i < s->rank; i++) {
		if (s->dims[i] == dims[off + i]) {
			keep[n] = s->dims[i];
			bdims[n++] = off + i;
		}
	}
	if (n != s->rank)
		v = xrt_build_reshape(l->b, v, n, keep);
	return xrt_build_broadcast(l->b, v, rank, dims, bdims);
}

xrt_status *eager_broadcast(struct lowering *l, xrt_value *x, xrt_value *y)
{
	const struct xrt_shape *a = shape_of(l, *x), *b = shape_of(l, *y);
	int64_t dims[XRT_MAX_RANK];
	uint32_t rank, i;

	if (!a || !b)	/* the builder failed; its error comes out at the end */
		return NULL;
	rank = a->rank > b->rank ? a->rank : b->rank;

	for (i = 0; i < rank; i++) {
		int64_t da = i + a->rank >= rank ? a->dims[i + a->rank - rank] : 1;
		int64_t db = i + b->rank >= rank ? b->dims[i + b->rank - rank] : 1;

		if (da != db && da != 1 && db != 1)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "shapes do not broadcast: dimension %u is %lld and %lld",
					      i, (long long)da, (long long)db);
		dims[i] = da == 1 ? db : da;
	}
	*x = eager_spread(l, *x, rank, dims);
	*y = eager_spread(l, *y, rank, dims);
	return NULL;
}

/* A constant @v of @x's type and shape. */
xrt_value eager_fill_like(struct lowering *l, xrt_value x, double v)
{
	const struct xrt_shape *s = shape_of(l, x);
	int64_t dims[XRT_MAX_RANK];
	xrt_value c = { 0 };
	uint32_t rank;

	if (!s)
		return c;
	/* copied: the shape is the builder's until its next call */
	rank = s->rank;
	memcpy(dims, s->dims, sizeof(dims));
	c = eager_scalar_of(l, s->dtype, v);
	return xrt_build_broadcast(l->b, c, rank, dims, NULL);
}

xrt_value eager_scalar_of(struct lowering *l, enum xrt_dtype t, double v)
{
	struct xrt_shape one;
	xrt_literal *lit = NULL;
	xrt_value c = { 0 };
	xrt_status *st;

	st = xrt_shape_init_array(&one, XRT_F64, 0, NULL);
	if (!st)
		st = xrt_literal_create_from(l->a, &one, &v, sizeof(v), &lit);
	if (st) {
		xrt_status_free(st);
		return c;
	}
	c = xrt_build_constant(l->b, lit);
	xrt_literal_destroy(lit);
	return xrt_build_convert(l->b, c, t);
}

xrt_status *eager_lower_unary(struct lowering *l)
{
	l->out[0] = xrt_build_unary(l->b, (enum xrt_opcode)l->op->def->code, l->in[0]);
	return NULL;
}

xrt_status *eager_lower_identity(struct lowering *l)
{
	l->out[0] = xrt_build_unary(l->b, XRT_OP_COPY, l->in[0]);
	return NULL;
}

/* Relu, Relu6, Square, Softplus, Elu: small compositions. */
xrt_status *eager_lower_activation(struct lowering *l)
{
	xrt_value x = l->in[0], zero = eager_fill_like(l, x, 0.0);

	switch (l->op->def->code) {
	case 0:	/* Relu */
		l->out[0] = xrt_build_binary(l->b, XRT_OP_MAXIMUM, x, zero);
		break;
	case 1:	/* Relu6 */
		l->out[0] = xrt_build_clamp(l->b, zero, x, eager_fill_like(l, x, 6.0));
		break;
	case 2:	/* Square */
		l->out[0] = xrt_build_binary(l->b, XRT_OP_MULTIPLY, x, x);
		break;
	case 3:	/* Softplus: log1p(exp(-|x|)) + max(x, 0), stable both ways */
		l->out[0] = xrt_build_binary(l->b, XRT_OP_ADD,
			xrt_build_unary(l->b, XRT_OP_LOG1P,
				xrt_build_unary(l->b, XRT_OP_EXP,
					xrt_build_unary(l->b, XRT_OP_NEGATE,
						xrt_build_unary(l->b, XRT_OP_ABS, x)))),
			xrt_build_binary(l->b, XRT_OP_MAXIMUM, x, zero));
		break;
	default: /* Elu: x > 0 ? x : expm1(x) */
		l->out[0] = xrt_build_select(l->b,
			xrt_build_compare(l->b, x, zero, XRT_CMP_GT, XRT_CMP_DEFAULT), x,
			xrt_build_unary(l->b, XRT_OP_EXPM1, x));
		break;
	}
	return NULL;
}

xrt_status *eager_lower_binary(struct lowering *l)
{
	xrt_value x = l->in[0], y = l->in[1];
	xrt_status *st = eager_broadcast(l, &x, &y);

	if (st)
		return st;
	l->out[0] = xrt_build_binary(l->b, (enum xrt_opcode)l->op->def->code, x, y);
	return NULL;
}

xrt_status *eager_lower_compare(struct lowering *l)
{
	xrt_value x = l->in[0], y = l->in[1];
	xrt_status *st = eager_broadcast(l, &x, &y);

	if (st)
		return st;
	l->out[0] = xrt_build_compare(l->b, x, y, (enum xrt_compare_dir)l->op->def->code,
				      XRT_CMP_DEFAULT);
	return NULL;
}

xrt_status *eager_lower_cast(struct lowering *l)
{
	l->out[0] = xrt_build_convert(l->b, l->in[0],
				      (enum xrt_dtype)eager_attr_int(l->op, "DstT"));
	return NULL;
}

/* Select(condition, t, e): condition of t's shape, or a vector over its rows. */
xrt_status *eager_lower_select(struct lowering *l)
{
	const struct xrt_shape *c = shape_of(l, l->in[0]), *t = shape_of(l, l->in[1]);
	xrt_value cond = l->in[0], x = l->in[1], y = l->in[2];
	xrt_status *st;
	int64_t d0 = 0;

	if (!c || !t || !shape_of(l, y))
		return NULL;

	if (l->op->def->code) {	/* SelectV2: all three broadcast */
		st = eager_broadcast(l, &x, &y);
		if (!st)
			st = eager_broadcast(l, &cond, &x);
		if (!st)
			st = eager_broadcast(l, &cond, &y);
		if (st)
			return st;
	} else if (!xrt_shape_equal(t, shape_of(l, y))) {
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "t and e differ in shape");
	} else if (c->rank == 1 && t->rank > 1 && c->dims[0] == t->dims[0]) {
		cond = xrt_build_broadcast(l->b, cond, t->rank, t->dims, &d0);
	} else if (c->rank != t->rank || memcmp(c->dims, t->dims, t->rank * sizeof(int64_t))) {
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "condition must have t's shape or be a vector of its rows");
	}
	l->out[0] = xrt_build_select(l->b, cond, x, y);
	return NULL;
}

xrt_status *eager_const_ints(const struct lowering *l, uint32_t i, int64_t *out, uint32_t max,
			     uint32_t *n)
{
	const xrt_tensor *t = l->consts[i];
	uint64_t count = 1, k;
	uint32_t d;

	if (!t)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "input #%u must be a constant", i);
	for (d = 0; d < t->rank; d++)
		count *= (uint64_t)t->dims[d];
	if (t->rank > 1 || count > max)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "input #%u must be a scalar or a vector of at most %u", i, max);
	for (k = 0; k < count; k++) {
		switch (t->dtype) {
		case XRT_S32:
			out[k] = ((const int32_t *)eager_tensor_values(t))[k];
			break;
		case XRT_S64:
			out[k] = ((const int64_t *)eager_tensor_values(t))[k];
			break;
		default:
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "input #%u must be s32 or s64, not %s", i,
					      xrt_dtype_name(t->dtype));
		}
	}
	*n = (uint32_t)count;
	return NULL;
}

xrt_status *eager_const_scalar(const struct lowering *l, uint32_t i, double *out)
{
	const xrt_tensor *t = l->consts[i];

	if (!t)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "input #%u must be a constant", i);
	if (t->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "input #%u must be a scalar", i);
	switch (t->dtype) {
	case XRT_S32:
		*out = *(const int32_t *)eager_tensor_values(t);
		return NULL;
	case XRT_S64:
		*out = (double)*(const int64_t *)eager_tensor_values(t);
		return NULL;
	case XRT_F32:
		*out = *(const float *)eager_tensor_values(t);
		return NULL;
	case XRT_F64:
		*out = *(const double *)eager_tensor_values(t);
		return NULL;
	default:
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "input #%u: %s is not supported", i,
				      xrt_dtype_name(t->dtype));
	}
}
