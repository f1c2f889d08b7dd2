// SPDX-License-Identifier: MIT
/*
 * Reductions, windows, dot, convolution and sort: the result shapes
 * their dimension numbers give, and the computations they apply.
 */
#include <string.h>

#include "verify.h"

/* @f takes 2n scalars of @types and returns n of them (n == 1: one). */
int vfy_reducer(struct vfy *v, const struct ir_comp *f, uint32_t n,
		const enum xrt_dtype *types, bool returns_pred)
{
	const struct xrt_shape *r = vfy_root_shape(f);
	uint32_t i;

	if (f->num_params != 2 * n)
		return vfy_fail(v, "computation '%s' takes %u parameters, expected %u",
				f->name, f->num_params, 2 * n);
	for (i = 0; i < 2 * n; i++) {
		const struct xrt_shape *p = vfy_param_shape(f, i);

		if (!p || xrt_shape_is_tuple(p) || p->rank || p->dtype != types[i % n])
			return vfy_fail(v, "computation '%s' parameter %u is not a %s scalar",
					f->name, i, xrt_dtype_name(types[i % n]));
	}
	if (returns_pred) {
		if (xrt_shape_is_tuple(r) || r->rank || r->dtype != XRT_PRED)
			return vfy_fail(v, "comparator '%s' does not return pred[]", f->name);
		return 0;
	}
	if (n == 1) {
		if (xrt_shape_is_tuple(r) || r->rank || r->dtype != types[0])
			return vfy_fail(v, "computation '%s' does not return a %s scalar",
					f->name, xrt_dtype_name(types[0]));
		return 0;
	}
	if (!xrt_shape_is_tuple(r) || r->tuple_count != n)
		return vfy_fail(v, "computation '%s' does not return %u values", f->name, n);
	for (i = 0; i < n; i++) {
		if (xrt_shape_is_tuple(&r->tuple[i]) || r->tuple[i].rank ||
		    r->tuple[i].dtype != types[i])
			return vfy_fail(v, "computation '%s' result %u is not a %s scalar",
					f->name, i, xrt_dtype_name(types[i]));
	}
	return 0;
}

int vfy_results(struct vfy *v, uint32_t n, const enum xrt_dtype *types, uint32_t rank,
		const int64_t *dims)
{
	struct xrt_shape want[XRT_MAX_RANK];
	uint32_t i;

	if (n == 1)
		return vfy_result(v, types[0], rank, dims);
	for (i = 0; i < n; i++) {
		xrt_status *st = xrt_shape_init_array(&want[i], types[i], rank, dims);

		if (st) {
			xrt_status_free(st);
			return vfy_fail(v, "bad result dimensions");
		}
	}
	return vfy_result_tuple(v, want, n);
}

/* n inputs of one set of dims, then n scalar inits of their types. */
static int inputs_and_inits(struct vfy *v, uint32_t *n, enum xrt_dtype *types)
{
	uint32_t i;

	if (v->in->num_operands < 2 || v->in->num_operands % 2 ||
	    v->in->num_operands > 2 * XRT_MAX_RANK)
		return vfy_fail(v, "%u operands, expected inputs and as many inits",
				v->in->num_operands);
	*n = v->in->num_operands / 2;
	for (i = 0; i < *n; i++) {
		const struct xrt_shape *b = vfy_opnd(v, i);

		if (vfy_like_first(v, i) || vfy_scalar(v, *n + i))
			return -1;
		if (vfy_opnd(v, *n + i)->dtype != b->dtype)
			return vfy_fail(v, "init %u's type differs from input %u's", i, i);
		types[i] = b->dtype;
	}
	return 0;
}

static int check_reduce(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0);
	enum xrt_dtype types[XRT_MAX_RANK];
	int64_t dims[XRT_MAX_RANK];
	const struct ir_comp *f;
	const int64_t *rd;
	uint32_t n, nrd, i, k = 0;

	if (inputs_and_inits(v, &n, types) || vfy_ints(v, IR_ATTR_DIMENSIONS, &rd, &nrd) ||
	    vfy_dims_in_range(v, "dimensions", rd, nrd, a->rank) ||
	    vfy_called(v, IR_ATTR_TO_APPLY, &f) || vfy_reducer(v, f, n, types, false))
		return -1;
	for (i = 0; i < a->rank; i++) {
		bool reduced = false;
		uint32_t j;

		for (j = 0; j < nrd; j++)
			reduced = reduced || rd[j] == i;
		if (!reduced)
			dims[k++] = a->dims[i];
	}
	return vfy_results(v, n, types, k, dims);
}

/* Output dimensions of a window over @dims; -1 and a failure if bad. */
static int window_dims(struct vfy *v, const struct xrt_shape *a, int64_t *out)
{
	const struct ir_attr *w = ir_instr_attr(v->in, IR_ATTR_WINDOW);
	uint32_t i;

	if (!w || w->n != a->rank)
		return vfy_fail(v, "window needs %u dimensions", a->rank);
	for (i = 0; i < w->n; i++) {
		const int64_t *f = w->ints + i * IR_WINDOW_FIELDS;
		int64_t size = f[0], stride = f[1], lo = f[2], hi = f[3], ld = f[4], rd = f[5];
		int64_t padded, eff;

		if (size < 1 || stride < 1 || ld < 1 || rd < 1)
			return vfy_fail(v, "window dimension %u has a size, stride or dilation below 1", i);
		/* (d - 1) * ld + 1 + lo + hi and (size - 1) * rd + 1, checked */
		if (vfy_overflows(a->dims[i] ? a->dims[i] - 1 : 0, ld, a->dims[i] ? 1 : 0, lo,
				  &padded) || __builtin_add_overflow(padded, hi, &padded) ||
		    vfy_overflows(size - 1, rd, 1, 0, &eff))
			return vfy_fail(v, "window dimension %u overflows", i);
		out[i] = padded < eff ? 0 : (padded - eff) / stride + 1;
	}
	return 0;
}

static int check_reduce_window(struct vfy *v)
{
	enum xrt_dtype types[XRT_MAX_RANK];
	int64_t dims[XRT_MAX_RANK];
	const struct ir_comp *f;
	uint32_t n;

	if (inputs_and_inits(v, &n, types) || window_dims(v, vfy_opnd(v, 0), dims) ||
	    vfy_called(v, IR_ATTR_TO_APPLY, &f) || vfy_reducer(v, f, n, types, false))
		return -1;
	return vfy_results(v, n, types, vfy_opnd(v, 0)->rank, dims);
}

static int check_select_and_scatter(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *s = vfy_opnd(v, 1);
	const struct ir_comp *sel, *sc;
	int64_t dims[XRT_MAX_RANK];
	enum xrt_dtype t = a->dtype;
	uint32_t i;

	if (vfy_operands(v, 3, 3) || vfy_array(v, 0) || vfy_array(v, 1) || vfy_scalar(v, 2) ||
	    window_dims(v, a, dims) || vfy_called(v, IR_ATTR_SELECT, &sel) ||
	    vfy_called(v, IR_ATTR_SCATTER, &sc) || vfy_reducer(v, sel, 1, &t, true))
		return -1;
	t = s->dtype;
	if (vfy_reducer(v, sc, 1, &t, false))
		return -1;
	if (s->rank != a->rank)
		return vfy_fail(v, "source's rank differs from the operand's");
	for (i = 0; i < a->rank; i++) {
		if (s->dims[i] != dims[i])
			return vfy_fail(v, "source dimension %u is %lld, the window gives %lld",
					i, (long long)s->dims[i], (long long)dims[i]);
	}
	return vfy_result_is(v, a);
}

static int check_dot(struct vfy *v)
{
	const struct xrt_shape *l = vfy_opnd(v, 0), *r = vfy_opnd(v, 1);
	const int64_t *lb = NULL, *rb = NULL, *lc = NULL, *rc = NULL;
	uint32_t nlb = 0, nrb = 0, nlc = 0, nrc = 0, i, j, k = 0;
	const struct ir_attr *a;
	int64_t dims[2 * XRT_MAX_RANK];

	if (vfy_operands(v, 2, 2) || vfy_array(v, 0) || vfy_array(v, 1))
		return -1;
#define OPT(key, vals, cnt) if ((a = ir_instr_attr(v->in, key))) { vals = a->ints; cnt = a->n; }
	OPT(IR_ATTR_LHS_BATCH_DIMS, lb, nlb)
	OPT(IR_ATTR_RHS_BATCH_DIMS, rb, nrb)
	OPT(IR_ATTR_LHS_CONTRACTING_DIMS, lc, nlc)
	OPT(IR_ATTR_RHS_CONTRACTING_DIMS, rc, nrc)
#undef OPT
	if (l->dtype != r->dtype)
		return vfy_fail(v, "operands are %s and %s", xrt_dtype_name(l->dtype),
				xrt_dtype_name(r->dtype));
	if (nlb != nrb || nlc != nrc)
		return vfy_fail(v, "batch or contracting dimension lists differ in length");
	if (vfy_dims_in_range(v, "lhs_batch_dims", lb, nlb, l->rank) ||
	    vfy_dims_in_range(v, "rhs_batch_dims", rb, nrb, r->rank) ||
	    vfy_dims_in_range(v, "lhs_contracting_dims", lc, nlc, l->rank) ||
	    vfy_dims_in_range(v, "rhs_contracting_dims", rc, nrc, r->rank))
		return -1;
	for (i = 0; i < nlb; i++) {
		if (l->dims[lb[i]] != r->dims[rb[i]])
			return vfy_fail(v, "batch dimension %u sizes differ", i);
		dims[k++] = l->dims[lb[i]];
	}
	for (i = 0; i < nlc; i++) {
		if (l->dims[lc[i]] != r->dims[rc[i]])
			return vfy_fail(v, "contracting dimension %u sizes differ (%lld, %lld)",
					i, (long long)l->dims[lc[i]], (long long)r->dims[rc[i]]);
	}
	for (j = 0; j < 2; j++) {
		const struct xrt_shape *s = j ? r : l;
		const int64_t *b = j ? rb : lb, *c = j ? rc : lc;

		for (i = 0; i < s->rank; i++) {
			bool used = false;
			uint32_t t;

			for (t = 0; t < nlb; t++)
				used = used || b[t] == i;
			for (t = 0; t < nlc; t++)
				used = used || c[t] == i;
			if (!used)
				dims[k++] = s->dims[i];
		}
	}
	if (k > XRT_MAX_RANK)
		return vfy_fail(v, "result rank %u exceeds 8", k);
	if (xrt_shape_is_tuple(&v->in->shape))
		return vfy_fail(v, "result is a tuple");
	/* The result may be another type (preferred_element_type). */
	return vfy_result(v, v->in->shape.dtype, k, dims);
}

static int check_convolution(struct vfy *v)
{
	const struct xrt_shape *in = vfy_opnd(v, 0), *k = vfy_opnd(v, 1);
	const struct ir_attr *dl = ir_instr_attr(v->in, IR_ATTR_DIM_LABELS);
	const struct ir_attr *w = ir_instr_attr(v->in, IR_ATTR_WINDOW);
	int64_t fg = 1, bg = 1, dims[XRT_MAX_RANK];
	struct ir_conv_labels L;
	uint32_t i;

	if (vfy_operands(v, 2, 2) || vfy_array(v, 0) || vfy_array(v, 1))
		return -1;
	if (ir_instr_attr(v->in, IR_ATTR_FEATURE_GROUP_COUNT))
		vfy_int(v, IR_ATTR_FEATURE_GROUP_COUNT, &fg);
	if (ir_instr_attr(v->in, IR_ATTR_BATCH_GROUP_COUNT))
		vfy_int(v, IR_ATTR_BATCH_GROUP_COUNT, &bg);
	if (!dl || in->rank != k->rank || in->rank < 2 || ir_parse_conv_labels(dl->str, &L, in->rank))
		return vfy_fail(v, "dim_labels missing or not of rank %u", in->rank);
	if (fg < 1 || bg < 1 || in->dims[L.f] != k->dims[L.i] * fg ||
	    k->dims[L.o] % fg || k->dims[L.o] % bg || in->dims[L.b] % bg)
		return vfy_fail(v, "feature or batch group counts do not divide the dimensions");
	if (in->dtype != k->dtype)
		return vfy_fail(v, "input and kernel types differ");
	if (!w || w->n != L.nsp)
		return vfy_fail(v, "window needs %u spatial dimensions", L.nsp);
	dims[L.ob] = in->dims[L.b] / bg;
	dims[L.of] = k->dims[L.o];
	for (i = 0; i < L.nsp; i++) {
		const int64_t *f = w->ints + i * IR_WINDOW_FIELDS;
		int64_t d = in->dims[L.sp[i]], size = f[0];
		int64_t padded = (d ? (d - 1) * f[4] + 1 : 0) + f[2] + f[3];
		int64_t eff = (size - 1) * f[5] + 1;

		if (size != k->dims[L.ksp[i]] || f[1] < 1 || f[4] < 1 || f[5] < 1)
			return vfy_fail(v, "window size %lld differs from the kernel's spatial dimension",
					(long long)size);
		dims[L.osp[i]] = padded < eff ? 0 : (padded - eff) / f[1] + 1;
	}
	if (xrt_shape_is_tuple(&v->in->shape))
		return vfy_fail(v, "result is a tuple");
	return vfy_result(v, v->in->shape.dtype, in->rank, dims);
}

static int check_sort(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0);
	enum xrt_dtype types[XRT_MAX_RANK];
	const struct ir_comp *f;
	const int64_t *d;
	uint32_t n = v->in->num_operands, nd, i;

	if (vfy_operands(v, 1, XRT_MAX_RANK) || vfy_ints(v, IR_ATTR_DIMENSIONS, &d, &nd))
		return -1;
	for (i = 0; i < n; i++) {
		if (vfy_like_first(v, i))
			return -1;
		types[i] = vfy_opnd(v, i)->dtype;
	}
	if (nd != 1 || vfy_dims_in_range(v, "dimensions", d, 1, a->rank))
		return nd != 1 ? vfy_fail(v, "sort takes one dimension") : -1;
	if (vfy_called(v, IR_ATTR_TO_APPLY, &f))
		return -1;
	/* The comparator takes (a_0, b_0, a_1, b_1, ...). */
	if (f->num_params != 2 * n)
		return vfy_fail(v, "comparator '%s' takes %u parameters, expected %u",
				f->name, f->num_params, 2 * n);
	for (i = 0; i < 2 * n; i++) {
		const struct xrt_shape *p = vfy_param_shape(f, i);

		if (!p || xrt_shape_is_tuple(p) || p->rank || p->dtype != types[i / 2])
			return vfy_fail(v, "comparator parameter %u is not a %s scalar", i,
					xrt_dtype_name(types[i / 2]));
	}
	if (xrt_shape_is_tuple(vfy_root_shape(f)) || vfy_root_shape(f)->rank ||
	    vfy_root_shape(f)->dtype != XRT_PRED)
		return vfy_fail(v, "comparator '%s' does not return pred[]", f->name);
	return vfy_results(v, n, types, a->rank, a->dims);
}

/*
 * topk(x), k=K[, largest=B]: the K largest (or smallest) of each row of
 * the last dimension, in order, and their indices, as (T[..., K], s32[..., K]).
 */
static int check_topk(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0);
	struct xrt_shape want[2];
	int64_t k, dims[XRT_MAX_RANK];
	uint32_t i;

	if (vfy_operands(v, 1, 1) || vfy_array(v, 0) || vfy_int(v, IR_ATTR_K, &k))
		return -1;
	if (!a->rank)
		return vfy_fail(v, "topk of a scalar");
	if (xrt_dtype_is_complex(a->dtype) || a->dtype == XRT_PRED)
		return vfy_fail(v, "topk of %s: its values have no order", xrt_dtype_name(a->dtype));
	if (k < 0 || k > a->dims[a->rank - 1])
		return vfy_fail(v, "k=%lld, but rows have %lld elements", (long long)k,
				(long long)a->dims[a->rank - 1]);
	memcpy(dims, a->dims, a->rank * sizeof(dims[0]));
	dims[a->rank - 1] = k;
	for (i = 0; i < 2; i++) {
		xrt_status *st = xrt_shape_init_array(&want[i], i ? XRT_S32 : a->dtype, a->rank,
						      dims);

		if (st) {
			xrt_status_free(st);
			return vfy_fail(v, "bad result dimensions");
		}
	}
	return vfy_result_tuple(v, want, 2);
}

int vfy_reductions(struct vfy *v)
{
	switch (v->in->op) {
	case XRT_OP_REDUCE:
		return check_reduce(v);
	case XRT_OP_REDUCE_WINDOW:
		return check_reduce_window(v);
	case XRT_OP_SELECT_AND_SCATTER:
		return check_select_and_scatter(v);
	case XRT_OP_DOT:
		return check_dot(v);
	case XRT_OP_CONVOLUTION:
		return check_convolution(v);
	case XRT_OP_TOPK:
		return check_topk(v);
	default:
		return check_sort(v);
	}
}
