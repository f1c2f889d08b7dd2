// SPDX-License-Identifier: MIT
/*
 * Lowerings of the matrix ops: MatMul, BatchMatMulV2, BiasAdd.
 */
#include <string.h>

#include "eager_internal.h"

static const struct xrt_shape *shape_of(const struct lowering *l, xrt_value v)
{
	return xrt_value_shape(l->b, v);
}

xrt_status *eager_lower_matmul(struct lowering *l)
{
	const struct xrt_shape *a = shape_of(l, l->in[0]), *b = shape_of(l, l->in[1]);
	int64_t ta = eager_attr_int(l->op, "transpose_a");
	int64_t tb = eager_attr_int(l->op, "transpose_b");
	int64_t lc = ta ? 0 : 1, rc = tb ? 1 : 0;
	struct xrt_dot_dims dd = { NULL, NULL, 0, &lc, &rc, 1 };

	if (a->rank != 2 || b->rank != 2)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "inputs must be matrices, not of rank %u and %u", a->rank,
				      b->rank);
	if (a->dims[lc] != b->dims[rc])
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "inner dimensions differ: [%lld,%lld]%s x [%lld,%lld]%s",
				      (long long)a->dims[0], (long long)a->dims[1], ta ? "^T" : "",
				      (long long)b->dims[0], (long long)b->dims[1], tb ? "^T" : "");
	l->out[0] = xrt_build_dot(l->b, l->in[0], l->in[1], &dd, XRT_INVALID);
	/* dot gives [a's free, b's free]: already the product's order */
	return NULL;
}

/* BatchMatMulV2: batch dimensions broadcast, adj_x/adj_y transpose the last two. */
xrt_status *eager_lower_batch_matmul(struct lowering *l)
{
	xrt_value x = l->in[0], y = l->in[1];
	const struct xrt_shape *a = shape_of(l, x), *b = shape_of(l, y);
	int64_t adj_x = eager_attr_int(l->op, "adj_x"), adj_y = eager_attr_int(l->op, "adj_y");
	int64_t dims_x[XRT_MAX_RANK], dims_y[XRT_MAX_RANK], batch[XRT_MAX_RANK], lc, rc;
	uint32_t r, i, nb;
	struct xrt_dot_dims dd;

	if (a->rank < 2 || b->rank < 2)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "inputs need rank 2 or more");
	r = a->rank > b->rank ? a->rank : b->rank;
	nb = r - 2;
	for (i = 0; i < nb; i++) {
		int64_t da = i + a->rank >= r ? a->dims[i + a->rank - r] : 1;
		int64_t db = i + b->rank >= r ? b->dims[i + b->rank - r] : 1;

		if (da != db && da != 1 && db != 1)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "batch dimensions do not broadcast: %lld and %lld",
					      (long long)da, (long long)db);
		dims_x[i] = dims_y[i] = da == 1 ? db : da;
		batch[i] = i;
	}
	dims_x[nb] = a->dims[a->rank - 2];
	dims_x[nb + 1] = a->dims[a->rank - 1];
	dims_y[nb] = b->dims[b->rank - 2];
	dims_y[nb + 1] = b->dims[b->rank - 1];
	lc = adj_x ? nb : nb + 1;
	rc = adj_y ? nb + 1 : nb;
	if (dims_x[lc] != dims_y[rc])
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "inner dimensions differ: %lld and %lld",
				      (long long)dims_x[lc], (long long)dims_y[rc]);
	x = eager_spread(l, x, r, dims_x);
	y = eager_spread(l, y, r, dims_y);
	dd = (struct xrt_dot_dims){ batch, batch, nb, &lc, &rc, 1 };
	l->out[0] = xrt_build_dot(l->b, x, y, &dd, XRT_INVALID);
	return NULL;
}

xrt_status *eager_lower_bias_add(struct lowering *l)
{
	const struct xrt_shape *v = shape_of(l, l->in[0]), *b = shape_of(l, l->in[1]);
	const struct attr_val *fmt = eager_attr(l->op, "data_format");
	bool nchw = fmt && fmt->s && !strcmp(fmt->s, "NCHW");
	int64_t axis;

	if (fmt && fmt->s && !nchw && strcmp(fmt->s, "NHWC"))
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "data_format must be NHWC or NCHW, not '%.16s'", fmt->s);
	if (b->rank != 1 || v->rank < 2)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "bias must be a vector and value of rank 2 or more");
	axis = nchw ? 1 : v->rank - 1;
	if (v->dims[axis] != b->dims[0])
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "bias has %lld entries, value's channel dimension %lld",
				      (long long)b->dims[0], (long long)v->dims[axis]);
	l->out[0] = xrt_build_binary(l->b, XRT_OP_ADD, l->in[0],
				     xrt_build_broadcast(l->b, l->in[1], v->rank, v->dims, &axis));
	return NULL;
}

/* Squeeze: size-1 dimensions dropped, all or those of squeeze_dims. */
xrt_status *eager_lower_squeeze(struct lowering *l)
{
	const struct xrt_shape *s = xrt_value_shape(l->b, l->in[0]);
	const struct attr_val *sq = eager_attr(l->op, "squeeze_dims");
	bool drop[XRT_MAX_RANK] = { false };
	int64_t dims[XRT_MAX_RANK];
	uint32_t i, n = 0;

	for (i = 0; sq && i < sq->n; i++) {
		int64_t d = sq->list[i] < 0 ? sq->list[i] + s->rank : sq->list[i];

		if (d < 0 || d >= s->rank)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "squeeze_dims entry %lld is out of rank %u",
					      (long long)sq->list[i], s->rank);
		if (s->dims[d] != 1)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "cannot squeeze dimension %lld of size %lld",
					      (long long)d, (long long)s->dims[d]);
		drop[d] = true;
	}
	for (i = 0; i < s->rank; i++) {
		if (sq && sq->n ? !drop[i] : s->dims[i] != 1)
			dims[n++] = s->dims[i];
	}
	l->out[0] = xrt_build_reshape(l->b, l->in[0], n, dims);
	return NULL;
}
