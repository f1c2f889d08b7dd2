// SPDX-License-Identifier: MIT
/*
 * scatter.  Where each result reads only its own pair (current value,
 * update) through a combiner the engine has (replace, sum .. or), one
 * SCATTER command per operand, on the engine's flat form: [n, k] index
 * vectors (cc_index_vectors) and [n, window] updates, XLA's scatter
 * dimensions flattened into n and the inserted window dimensions of
 * size 1.  Any other computation (an argmax pair, a subtraction, a
 * clamp) runs as a loop on the device over the n windows in order, as
 * the evaluator applies them: each window's start read from its index
 * vector, the window skipped where it does not fit (as SCATTER skips
 * it), else sliced out of every result, the computation applied to it
 * and that window of the updates in one kernel, and written back.
 */
#include <string.h>

#include "cstream/executable.h"
#include "cc.h"

/* The loop's values; n results, each window of rank r. */
struct sloop {
	uint32_t n, nk, rank;
	int64_t count;			/* windows */
	uint32_t res[XRT_MAX_RANK];	/* the results */
	struct cc_buf ix;		/* [count, nk] */
	struct cc_buf u[XRT_MAX_RANK];	/* [count, window...] */
	uint32_t tmp[XRT_MAX_RANK + 1];	/* copies made for ix and u */
	uint32_t win[XRT_MAX_RANK];	/* a result's window, then its new values */
	uint32_t nw[XRT_MAX_RANK];	/* split: the new values, one kernel each */
	bool split;			/* one kernel for all would pass the operand limit */
	uint32_t up[XRT_MAX_RANK];	/* an update window, [1, window...] */
	uint32_t args[2 * XRT_MAX_RANK];	/* win, then up without its 1 */
	uint32_t raw, row, ok, c, p;	/* index vector, in s64, fits; counter, c < count */
	int64_t bound[XRT_MAX_RANK];	/* the greatest start that fits, per index */
	struct xrt_cs_scalar starts[XRT_CS_MAX_RANK], ustarts[XRT_CS_MAX_RANK];
};

/* The combiner of a scatter's computation: REPLACE, SUM .. OR, or -1. */
static int combiner(const struct ir_comp *f, enum xrt_dtype t)
{
	const struct ir_instr *r = &f->instrs[f->root];

	if (r->op == XRT_OP_PARAMETER && r->parameter == 1)
		return XRT_CS_SCATTER_REPLACE;
	return cc_reducer_op(f, t) ? (int)cc_reducer_op(f, t) : -1;
}

/*
 * Of a variadic scatter's computation, operand @k's combiner when that
 * result reads only its own pair (current value k, update n + k): then
 * each operand scatters on its own, in the same order.  -1 otherwise.
 */
static int combiner_of(const struct ir_comp *f, uint32_t n, uint32_t k, enum xrt_dtype t)
{
	const struct ir_instr *r = &f->instrs[f->root], *e, *a, *b;

	if (n == 1)
		return combiner(f, t);
	if (r->op != XRT_OP_TUPLE || r->num_operands != n)
		return -1;
	e = &f->instrs[r->operands[k]];
	if (e->op == XRT_OP_PARAMETER)
		return e->parameter == n + k ? XRT_CS_SCATTER_REPLACE : -1;
	if (e->num_operands != 2)
		return -1;
	a = &f->instrs[e->operands[0]];
	b = &f->instrs[e->operands[1]];
	if (a->op != XRT_OP_PARAMETER || b->op != XRT_OP_PARAMETER ||
	    a->parameter + b->parameter != 2 * (int64_t)k + n ||
	    (a->parameter != k && b->parameter != k))
		return -1;
	return cc_reducer_of(e->op, t) ? (int)cc_reducer_of(e->op, t) : -1;
}

/*
 * Update operand @uk as [n, w_0 .. w_(r-1)] over the result's @rank
 * dimensions, its n windows first (the scatter dimensions flattened;
 * through a dense copy, *@utmp, where they do not) and each window over
 * the operand's dimensions (the inserted ones of size 1); *@count = n.
 */
static struct cc_buf window_updates(struct cc *cc, const struct ir_instr *in, uint32_t uk,
				    uint32_t rank, int64_t *count, uint32_t *utmp)
{
	const struct ir_attr *win = ir_instr_attr(in, IR_ATTR_UPDATE_WINDOW_DIMS);
	const struct ir_attr *ins = ir_instr_attr(in, IR_ATTR_INSERTED_WINDOW_DIMS);
	uint64_t elems = xrt_shape_element_count(&cc->c->instrs[in->operands[uk]].shape);
	struct cc_buf u = cc->vals[cc_opnd(cc, in, uk)].buf, up = u;
	uint32_t d, j = 0, w = 0;
	int64_t n = 1;

	for (d = 0; d < u.rank; d++) {
		if (cc_listed(win->ints, win->n, d))
			continue;
		up.dims[j] = u.dims[d];
		up.strides[j++] = u.strides[d];
		n *= u.dims[d];
	}
	for (d = 0; d < u.rank; d++) {
		if (!cc_listed(win->ints, win->n, d))
			continue;
		up.dims[j] = u.dims[d];
		up.strides[j++] = u.strides[d];
	}
	if (!cc_is_dense(&up))
		up = cc_dense_copy(cc, &up, utmp);
	u = up;
	u.rank = rank + 1;
	u.dims[0] = n;
	u.strides[0] = n ? (int64_t)(elems / (uint64_t)n) : 0;
	for (d = 0, w = 0; d < rank; d++) {
		if (cc_listed(ins ? ins->ints : NULL, ins ? ins->n : 0, d)) {
			u.dims[1 + d] = 1;
			u.strides[1 + d] = 0;
			continue;
		}
		u.dims[1 + d] = up.dims[up.rank - win->n + w];
		u.strides[1 + d] = up.strides[up.rank - win->n + w];
		w++;
	}
	*count = n;
	return u;
}

/* @res (operand @k's copy) gets update operand @uk scattered with @comb. */
static void scatter_one(struct cc *cc, const struct ir_instr *in, struct cc_buf res,
			uint32_t k, uint32_t uk, int comb)
{
	const struct ir_attr *map = ir_instr_attr(in, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS);
	uint32_t ni = in->num_operands / 2, tmp = ~0u, utmp = ~0u, nk, d;
	uint64_t elems = xrt_shape_element_count(&cc->c->instrs[in->operands[uk]].shape);
	uint8_t imap[XRT_MAX_RANK] = { 0 };
	struct xrt_cs_view vo, vi, vu;
	struct cc_buf ix, u;
	int64_t n;

	cc_copy(cc, &res, &cc->vals[cc_opnd(cc, in, k)].buf);
	ix = cc_index_vectors(cc, &cc->vals[cc_opnd(cc, in, ni)].buf,
			      ir_instr_attr(in, IR_ATTR_INDEX_VECTOR_DIM)->ints[0], &nk, &tmp);
	u = window_updates(cc, in, uk, res.rank, &n, &utmp);
	for (d = 0; d < nk; d++)
		imap[d] = (uint8_t)map->ints[d];
	vo = cc_csview(&res);
	vi = cc_csview(&ix);
	vu = cc_csview(&u);
	if (n && elems && xrt_shape_element_count(&cc->c->instrs[in->operands[k]].shape))
		cs_scatter(&cc->b, (uint32_t)comb, XRT_CS_SCATTER_SKIP, &vo, &vi, &vu, nk, imap);
	if (tmp != ~0u)
		cc_release(cc, tmp);
	if (utmp != ~0u)
		cc_release(cc, utmp);
}

/* The loop's buffers, and the starts its slices read. */
static void loop_start(struct cc *cc, const struct ir_instr *in, struct sloop *l)
{
	const struct ir_attr *map = ir_instr_attr(in, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS);
	const struct cc_buf r0 = cc->vals[l->res[0]].buf;
	int64_t wd[XRT_MAX_RANK + 1], zero = 0;
	struct cc_buf zb = cc_dense(XEXE_CONSTANTS_SLOT, cc_add_const(cc, &zero, sizeof(zero)),
				     XRT_S64, 0, NULL);
	uint32_t k, d;

	wd[0] = 1;
	memcpy(&wd[1], &l->u[0].dims[1], l->rank * sizeof(*wd));
	for (k = 0; k < l->n && !cc->err; k++) {
		enum xrt_dtype t = cc->vals[l->res[k]].buf.dtype;
		struct cc_buf b;

		l->win[k] = cc_temp(cc, t, l->rank, &wd[1]);
		l->up[k] = cc_temp(cc, t, l->rank + 1, wd);
		if (l->split)
			l->nw[k] = cc_temp(cc, t, l->rank, &wd[1]);
		if (cc->err)
			return;
		b = cc->vals[l->up[k]].buf;
		b = cc_dense(b.slot, b.offset, t, l->rank, &wd[1]);
		l->args[k] = l->win[k];
		l->args[l->n + k] = cc_new_view(cc, l->up[k], &b);
	}
	l->raw = cc_temp(cc, l->ix.dtype, 2, (int64_t[]){ 1, l->nk });
	l->row = l->ix.dtype == XRT_S64 ? l->raw : cc_temp(cc, XRT_S64, 2, (int64_t[]){ 1, l->nk });
	l->ok = cc_temp(cc, XRT_PRED, 0, NULL);
	l->c = cc_temp(cc, XRT_S64, 0, NULL);
	l->p = cc_temp(cc, XRT_PRED, 0, NULL);
	if (cc->err)
		return;
	cc_fill_value(cc, &cc->vals[l->c].buf, &zero);
	for (d = 0; d <= l->rank; d++) {
		l->starts[d] = cc_scalar_at(&zb, 0, XRT_CS_S64);
		l->ustarts[d] = cc_scalar_at(&zb, 0, XRT_CS_S64);
	}
	l->ustarts[0] = cc_scalar_at(&cc->vals[l->c].buf, 0, XRT_CS_S64);
	for (k = 0; k < l->nk; k++) {
		d = (uint32_t)map->ints[k];
		l->starts[d] = cc_scalar_at(&cc->vals[l->row].buf, 8 * k, XRT_CS_S64);
		l->bound[k] = r0.dims[d] - wd[1 + d];
	}
}

/* ok = every start of the window read into row lies in [0, bound]. */
static void emit_fits(struct cc *cc, const struct sloop *l)
{
	const struct cc_buf ok = cc->vals[l->ok].buf;
	struct ewp *e = cc_ew_new(cc, &ok);
	uint32_t acc, x, b, t, k;

	if (!e)
		return;
	acc = cc_ew_reg(e);
	x = cc_ew_reg(e);
	b = cc_ew_reg(e);
	t = cc_ew_reg(e);
	cc_ew_const(e, XRT_PRED, acc, 1);
	for (k = 0; k < l->nk; k++) {
		struct cc_buf s = cc->vals[l->row].buf;

		s.rank = 0;
		s.offset += 8 * k;
		cc_ew_load(e, x, &s);
		cc_ew_const(e, XRT_S64, b, 0);
		cc_ew_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_GE, XRT_PRED, t, x, b, 0);
		cc_ew_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, XRT_PRED, acc, acc, t, 0);
		cc_ew_const(e, XRT_S64, b, (uint64_t)l->bound[k]);
		cc_ew_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LE, XRT_PRED, t, x, b, 0);
		cc_ew_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, XRT_PRED, acc, acc, t, 0);
	}
	cc_ew_store(e, &ok, acc);
	cc_ew_emit(e, &ok);
}

/* One window: sliced, combined with its updates, written back. */
static void loop_body(struct cc *cc, const struct ir_instr *in, struct sloop *l)
{
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const struct ir_instr *root = &f->instrs[f->root];
	struct cc_buf outs[XRT_MAX_RANK];
	uint32_t roots[XRT_MAX_RANK], k;
	struct xrt_cs_view a, b;
	struct cc_saved sv;
	size_t skip;

	a = cc_csview(&l->ix);
	b = cc_csview(&cc->vals[l->raw].buf);
	cs_dynamic_slice(&cc->b, 0, &a, &b, l->ustarts);
	if (l->row != l->raw)
		cc_emit_convert(cc, &cc->vals[l->row].buf, &cc->vals[l->raw].buf);
	emit_fits(cc, l);
	skip = cc_jump(cc, XRT_CS_JUMP_IF_FALSE, 0, l->ok);
	for (k = 0; k < l->n; k++) {
		a = cc_csview(&cc->vals[l->res[k]].buf);
		b = cc_csview(&cc->vals[l->win[k]].buf);
		cs_dynamic_slice(&cc->b, 0, &a, &b, l->starts);
		a = cc_csview(&l->u[k]);
		b = cc_csview(&cc->vals[l->up[k]].buf);
		cs_dynamic_slice(&cc->b, 0, &a, &b, l->ustarts);
		roots[k] = root->op == XRT_OP_TUPLE ? root->operands[k] : f->root;
		outs[k] = cc->vals[l->win[k]].buf;
	}
	/*
	 * One kernel reads every window and update and writes every window
	 * in place; past the operand limit, one kernel per result, each
	 * reading only what its result uses, into a buffer of its own.
	 */
	if (!cc->err && cc_inline_comp_begin(cc, f, l->args, &sv)) {
		if (!l->split)
			cc_emit_ewise_n(cc, roots, l->n, outs);
		for (k = 0; l->split && k < l->n; k++)
			cc_emit_ewise(cc, roots[k], &cc->vals[l->nw[k]].buf);
		cc_inline_comp_end(cc, &sv);
	}
	for (k = 0; k < l->n; k++) {
		a = cc_csview(&cc->vals[l->res[k]].buf);
		b = cc_csview(&cc->vals[l->split ? l->nw[k] : l->win[k]].buf);
		cs_dynamic_slice(&cc->b, 1, &a, &b, l->starts);
	}
	cc_land(cc, skip);
}

/* Every result scattered into by the computation, window by window. */
static void scatter_loop(struct cc *cc, const struct ir_instr *in, const uint32_t *res,
			 uint32_t n)
{
	struct sloop l;
	uint32_t k, top;

	memset(&l, 0, sizeof(l));
	memset(l.tmp, 0xff, sizeof(l.tmp));
	l.n = n;
	l.split = 3 * n > XRT_CS_MAX_OPERANDS;
	l.rank = cc->vals[res[0]].buf.rank;
	for (k = 0; k < n && !cc->err; k++) {
		l.res[k] = res[k];
		cc_copy(cc, &cc->vals[res[k]].buf, &cc->vals[cc_opnd(cc, in, k)].buf);
	}
	l.ix = cc_index_vectors(cc, &cc->vals[cc_opnd(cc, in, n)].buf,
				ir_instr_attr(in, IR_ATTR_INDEX_VECTOR_DIM)->ints[0], &l.nk,
				&l.tmp[XRT_MAX_RANK]);
	for (k = 0; k < n && !cc->err; k++)
		l.u[k] = window_updates(cc, in, n + 1 + k, l.rank, &l.count, &l.tmp[k]);
	if (!cc->err && xrt_shape_element_count(&cc->c->instrs[in->operands[n + 1]].shape) &&
	    xrt_shape_element_count(&cc->c->instrs[in->operands[0]].shape)) {
		loop_start(cc, in, &l);
		top = cc->b.num_commands;
		loop_body(cc, in, &l);
		cc_emit_count_step(cc, &cc->vals[l.c].buf, &cc->vals[l.p].buf, l.count);
		cc_jump(cc, XRT_CS_JUMP_IF_TRUE, top, l.p);
	}
	for (k = 0; k < n; k++) {
		if (l.win[k])
			cc_release(cc, l.win[k]);
		if (l.nw[k])
			cc_release(cc, l.nw[k]);
		if (l.args[n + k])
			cc_release(cc, l.args[n + k]);
		if (l.up[k])
			cc_release(cc, l.up[k]);
	}
	for (k = 0; k <= XRT_MAX_RANK; k++) {
		if (l.tmp[k] != ~0u)
			cc_release(cc, l.tmp[k]);
	}
	if (l.row && l.row != l.raw)
		cc_release(cc, l.row);
	if (l.raw)
		cc_release(cc, l.raw);
	if (l.ok)
		cc_release(cc, l.ok);
	if (l.c)
		cc_release(cc, l.c);
	if (l.p)
		cc_release(cc, l.p);
}

void cc_lower_scatter(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	uint32_t n = in->num_operands / 2, v = cc_iv(cc, i), k, e[XRT_MAX_RANK];
	int comb[XRT_MAX_RANK];
	bool loop = false;

	if (cc->c->instrs[in->operands[0]].shape.rank >= XRT_CS_MAX_RANK) {
		/* the engine's [n, window...] form needs one dimension more */
		cc_unimplemented(cc, "scatter into operands of rank 8");
		return;
	}
	for (k = 0; k < n; k++) {
		comb[k] = combiner_of(f, n, k, cc->c->instrs[in->operands[k]].shape.dtype);
		loop = loop || comb[k] < 0;
	}
	if (n == 1) {
		e[0] = v;
		if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
			return;
	} else {
		if (!cc_tuple_init(cc, v, n))
			return;
		for (k = 0; k < n && !cc->err; k++) {
			const struct xrt_shape *s = &in->shape.tuple[k];

			e[k] = cc_tuple_add(cc, v);
			cc_alloc(cc, e[k], s->dtype, s->rank, s->dims);
		}
	}
	if (loop && !cc->err)
		scatter_loop(cc, in, e, n);
	for (k = 0; k < n && !cc->err && !loop; k++)
		scatter_one(cc, in, cc->vals[e[k]].buf, k, n + 1 + k, comb[k]);
}
