// SPDX-License-Identifier: MIT
/*
 * reduce with a computation the REDUCE command has no op for (argmax
 * pairs, variadic reducers, anything elementwise): a loop on the device
 * folding one reduced position at a time into the accumulators, in the
 * evaluator's order (row-major over the reduced dimensions).  Each input
 * is first copied with its reduced dimensions outermost, [K, M]; an
 * iteration slices row c out of each, applies the computation to all M
 * outputs in one kernel (accumulators updated in place), counts c on
 * and jumps back while c < K.
 */
#include <string.h>

#include "core/mem.h"
#include "cc.h"

#define MAX_INPUTS	8

struct rloop {
	uint32_t n;		/* inputs */
	int64_t k, m;		/* reduced and kept elements */
	uint32_t acc[MAX_INPUTS];	/* accumulators (the results) */
	uint32_t flat[2 * MAX_INPUTS];	/* [M] views: accumulators, then rows */
	uint32_t rows[MAX_INPUTS];	/* each input's row c, [1, M] */
	uint32_t xt[MAX_INPUTS];	/* each input, [K, M] */
};

/* The result value: one accumulator, or a tuple of them. */
static void make_results(struct cc *cc, uint32_t i, struct rloop *l)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i), j;

	if (l->n == 1) {
		l->acc[0] = v;
		cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims);
		return;
	}
	if (!cc_tuple_init(cc, v, l->n))
		return;
	for (j = 0; j < l->n && !cc->err; j++) {
		const struct xrt_shape *s = &in->shape.tuple[j];

		l->acc[j] = cc_tuple_add(cc, v);
		cc_alloc(cc, l->acc[j], s->dtype, s->rank, s->dims);
	}
}

/* Input @j copied to [K, M] with the reduced dimensions (@red) outermost. */
static void transpose_in(struct cc *cc, struct rloop *l, uint32_t j, struct cc_buf xb,
			 const bool *red)
{
	const struct cc_buf *x = &xb;	/* a copy: new values move cc->vals */
	struct cc_buf src = xb, dst;
	int64_t dims[XRT_MAX_RANK];
	uint32_t d, r = 0, pass;

	for (pass = 0; pass < 2; pass++) {
		for (d = 0; d < x->rank; d++) {
			if (red[d] != !pass)
				continue;
			src.dims[r] = x->dims[d];
			src.strides[r] = x->strides[d];
			dims[r++] = x->dims[d];
		}
	}
	l->xt[j] = cc_new_val(cc);
	if (cc_alloc(cc, l->xt[j], x->dtype, 2, (int64_t[]){ l->k, l->m }))
		return;
	dst = cc_dense(cc->vals[l->xt[j]].buf.slot, cc->vals[l->xt[j]].buf.offset, x->dtype,
		       x->rank, dims);
	cc_copy(cc, &dst, &src);
}

/* Accumulators = their init, broadcast; the [M] views and rows made. */
static void start(struct cc *cc, const struct ir_instr *in, struct rloop *l)
{
	uint32_t j;

	for (j = 0; j < l->n && !cc->err; j++) {
		/* copies: new values move cc->vals */
		const struct cc_buf a = cc->vals[l->acc[j]].buf;
		struct cc_buf init = cc->vals[cc_opnd(cc, in, l->n + j)].buf, flat;

		init.rank = a.rank;
		memset(init.strides, 0, sizeof(init.strides));
		memcpy(init.dims, a.dims, sizeof(init.dims));
		cc_copy(cc, &a, &init);
		flat = cc_dense(a.slot, a.offset, a.dtype, 1, &l->m);
		l->flat[j] = cc_new_view(cc, l->acc[j], &flat);
		l->rows[j] = cc_new_val(cc);
		if (cc_alloc(cc, l->rows[j], a.dtype, 2, (int64_t[]){ 1, l->m }))
			return;
		flat = cc_dense(cc->vals[l->rows[j]].buf.slot, cc->vals[l->rows[j]].buf.offset,
				a.dtype, 1, &l->m);
		l->flat[l->n + j] = cc_new_view(cc, l->rows[j], &flat);
	}
}

/*
 * The computation applied where one kernel for all the accumulators (n
 * in, n rows, n out) would pass the operand limit: one kernel per
 * result, reading only what it uses, into a row of its own (n of them,
 * the accumulators still read by the next), then copied over them.
 */
static void split_apply(struct cc *cc, struct rloop *l, const uint32_t *roots)
{
	uint32_t nw[MAX_INPUTS] = { 0 }, j;

	for (j = 0; j < l->n && !cc->err; j++) {
		nw[j] = cc_new_val(cc);
		if (!cc_alloc(cc, nw[j], cc->vals[l->flat[j]].buf.dtype, 1, &l->m))
			cc_emit_ewise(cc, roots[j], &cc->vals[nw[j]].buf);
	}
	for (j = 0; j < l->n; j++) {
		if (!cc->err)
			cc_copy(cc, &cc->vals[l->flat[j]].buf, &cc->vals[nw[j]].buf);
		if (nw[j])
			cc_release(cc, nw[j]);
	}
}

/* The loop: rows sliced at c, the computation applied, c counted on. */
static void iterate(struct cc *cc, const struct ir_instr *in, struct rloop *l)
{
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const struct ir_instr *root = &f->instrs[f->root];
	uint32_t c = cc_new_val(cc), p = cc_new_val(cc), roots[MAX_INPUTS], j, top;
	struct cc_buf outs[MAX_INPUTS];
	struct xrt_cs_scalar starts[XRT_CS_MAX_RANK];
	static const int64_t zero;
	struct cc_saved sv;

	if (cc_alloc(cc, c, XRT_S64, 0, NULL) || cc_alloc(cc, p, XRT_PRED, 0, NULL))
		return;
	cc_fill_value(cc, &cc->vals[c].buf, &zero);
	memset(starts, 0, sizeof(starts));
	starts[0] = (struct xrt_cs_scalar){ cc->vals[c].buf.slot, XRT_CS_S64, { 0 },
					    cc->vals[c].buf.offset };
	starts[1] = (struct xrt_cs_scalar){ 1, XRT_CS_S64, { 0 }, cc_add_const(cc, &zero, 8) };
	top = cc->b.num_commands;
	for (j = 0; j < l->n && !cc->err; j++) {
		struct xrt_cs_view x = cc_csview(&cc->vals[l->xt[j]].buf);
		struct xrt_cs_view row = cc_csview(&cc->vals[l->rows[j]].buf);

		cs_dynamic_slice(&cc->b, 0, &x, &row, starts);
	}
	for (j = 0; j < l->n; j++) {
		roots[j] = root->op == XRT_OP_TUPLE ? root->operands[j] : f->root;
		outs[j] = cc->vals[l->flat[j]].buf;
	}
	if (!cc->err && cc_inline_comp_begin(cc, f, l->flat, &sv)) {
		if (3 * l->n <= XRT_CS_MAX_OPERANDS)
			cc_emit_ewise_n(cc, roots, l->n, outs);
		else
			split_apply(cc, l, roots);
		cc_inline_comp_end(cc, &sv);
	}
	cc_emit_count_step(cc, &cc->vals[c].buf, &cc->vals[p].buf, l->k);
	cc_jump(cc, XRT_CS_JUMP_IF_TRUE, top, p);
	cc_release(cc, c);
	cc_release(cc, p);
}

void cc_fold_rows(struct cc *cc, const struct ir_instr *in, uint32_t acc, uint32_t rows,
		  int64_t s, int64_t m)
{
	const struct cc_buf a = cc->vals[acc].buf, r = cc->vals[rows].buf;
	const uint64_t row_bytes = (uint64_t)m * xrt_dtype_size(a.dtype);
	struct cc_buf flat = cc_dense(a.slot, a.offset, a.dtype, 1, &m), first, rest;
	struct rloop l;

	memset(&l, 0, sizeof(l));
	l.n = 1;
	l.k = s - 1;
	l.m = m;
	l.acc[0] = acc;
	if (!m || !s)
		return;
	first = cc_dense(r.slot, r.offset, r.dtype, 1, &m);
	cc_copy(cc, &flat, &first);
	if (s == 1)
		return;
	l.flat[0] = cc_new_view(cc, acc, &flat);
	rest = cc_dense(r.slot, r.offset + row_bytes, r.dtype, 2, (int64_t[]){ s - 1, m });
	l.xt[0] = cc_new_view(cc, rows, &rest);
	l.rows[0] = cc_new_val(cc);
	if (!cc->err && !cc_alloc(cc, l.rows[0], a.dtype, 2, (int64_t[]){ 1, m })) {
		flat = cc_dense(cc->vals[l.rows[0]].buf.slot, cc->vals[l.rows[0]].buf.offset,
				a.dtype, 1, &m);
		l.flat[1] = cc_new_view(cc, l.rows[0], &flat);
	}
	if (!cc->err)
		iterate(cc, in, &l);
	if (l.xt[0])
		cc_release(cc, l.xt[0]);
	if (l.rows[0])
		cc_release(cc, l.rows[0]);
	if (l.flat[0])
		cc_release(cc, l.flat[0]);
	if (l.flat[1])
		cc_release(cc, l.flat[1]);
}

void cc_lower_reduce_loop(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *dims = ir_instr_attr(in, IR_ATTR_DIMENSIONS);
	const struct xrt_shape *s = &cc->c->instrs[in->operands[0]].shape;
	bool red[XRT_MAX_RANK] = { false };
	struct rloop l;
	uint32_t j, d;

	memset(&l, 0, sizeof(l));
	l.n = in->num_operands / 2;
	if (l.n > MAX_INPUTS) {
		cc_unimplemented(cc, "reduce of more than 8 inputs");
		return;
	}
	for (j = 0; j < dims->n; j++)
		red[dims->ints[j]] = true;
	l.k = l.m = 1;
	for (d = 0; d < s->rank; d++) {
		if (red[d])
			l.k *= s->dims[d];
		else
			l.m *= s->dims[d];
	}
	make_results(cc, i, &l);
	start(cc, in, &l);
	for (j = 0; j < l.n && !cc->err && l.k && l.m; j++)
		transpose_in(cc, &l, j, cc->vals[cc_opnd(cc, in, j)].buf, red);
	if (!cc->err && l.k && l.m)
		iterate(cc, in, &l);
	for (j = 0; j < l.n; j++) {
		if (l.xt[j])
			cc_release(cc, l.xt[j]);
		if (l.rows[j])
			cc_release(cc, l.rows[j]);
		if (l.flat[j])
			cc_release(cc, l.flat[j]);
		if (l.flat[l.n + j])
			cc_release(cc, l.flat[l.n + j]);
	}
}
