// SPDX-License-Identifier: MIT
/*
 * gather and scatter on the engine's flat forms.  The engine indexes
 * with [n, k] index vectors and moves [n, full slice] windows; XLA's
 * batch dimensions (of the indices, of the updates) flatten into n, and
 * its offset or window dimensions are the slice's dimensions with the
 * collapsed (inserted) ones of size 1.  A gather's result is a view of
 * the engine's output in XLA's dimension order; a scatter's updates are
 * a view (copied dense first when their batch dimensions do not flatten).
 */
#include <string.h>

#include "cc.h"

static bool listed(const int64_t *l, uint32_t n, int64_t v)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (l[i] == v)
			return true;
	}
	return false;
}

/* A new dense value holding @b's elements; its buf. */
static struct cc_buf dense_copy(struct cc *cc, const struct cc_buf *b, uint32_t *v)
{
	*v = cc_new_val(cc);
	if (!cc_alloc(cc, *v, b->dtype, b->rank, b->dims))
		cc_copy(cc, &cc->vals[*v].buf, b);
	return cc->vals[*v].buf;
}

/*
 * The indices as an [n, k] view: the index vector dimension last, the
 * rest flattened (through a dense copy, @tmp, when they do not).
 */
static struct cc_buf index_vectors(struct cc *cc, const struct cc_buf *ix, int64_t ivd,
				   uint32_t *k, uint32_t *tmp)
{
	struct cc_buf p = *ix, r;
	uint32_t d, j = 0;
	int64_t n = 1;

	for (d = 0; d < ix->rank; d++) {
		if ((int64_t)d == ivd)
			continue;
		p.dims[j] = ix->dims[d];
		p.strides[j++] = ix->strides[d];
		n *= ix->dims[d];
	}
	*k = ivd < ix->rank ? (uint32_t)ix->dims[ivd] : 1;
	p.dims[j] = *k;
	p.strides[j++] = ivd < ix->rank ? ix->strides[ivd] : 0;
	p.rank = j;
	if (!cc_is_dense(&p))
		p = dense_copy(cc, &p, tmp);
	r = p;
	r.rank = 2;
	r.dims[0] = n;
	r.dims[1] = *k;
	r.strides[0] = *k;
	r.strides[1] = 1;
	return r;
}

/*
 * The strides of the engine's [n, slice...] output over @in's own dense
 * buffer, where the batch dimensions flatten in it (no offset dimension
 * wider than 1 between two of them): then GATHER writes the result in
 * place, with no copy after.  False where they do not.
 */
static bool direct_strides(const struct ir_instr *in, const struct ir_attr *off,
			   const struct ir_attr *col, uint32_t orank, int64_t *st)
{
	const struct xrt_shape *s = &in->shape;
	int64_t rm[XRT_MAX_RANK], n = 1, span = -1;
	uint32_t d, j = 0;

	for (d = s->rank; d-- > 0;) {
		rm[d] = n;
		n *= s->dims[d];
	}
	st[0] = 0;
	for (d = s->rank; d-- > 0;) {
		if (listed(off->ints, off->n, d) || s->dims[d] == 1)
			continue;
		if (span >= 0 && rm[d] != span)
			return false;
		if (span < 0)
			st[0] = rm[d];
		span = rm[d] * s->dims[d];
	}
	for (d = 0; d < orank; d++)
		st[1 + d] = col && listed(col->ints, col->n, d) ? 0 : rm[off->ints[j++]];
	return true;
}

void cc_lower_gather(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *off = ir_instr_attr(in, IR_ATTR_OFFSET_DIMS);
	const struct ir_attr *col = ir_instr_attr(in, IR_ATTR_COLLAPSED_SLICE_DIMS);
	const struct ir_attr *map = ir_instr_attr(in, IR_ATTR_START_INDEX_MAP);
	const int64_t *sizes = ir_instr_attr(in, IR_ATTR_SLICE_SIZES)->ints;
	uint32_t v = cc_iv(cc, i), g, tmp = ~0u, k, d, j, nb, od;
	int64_t gd[XRT_MAX_RANK + 1], bstride[XRT_MAX_RANK + 1], n;
	struct cc_buf ix, out, gv, a;
	uint8_t imap[XRT_MAX_RANK] = { 0 };
	struct xrt_cs_view vo, vi, vg;

	/* new values move the table: take the operand's buf once they are made */
	ix = index_vectors(cc, &cc->vals[cc_opnd(cc, in, 1)].buf,
			   ir_instr_attr(in, IR_ATTR_INDEX_VECTOR_DIM)->ints[0], &k, &tmp);
	a = cc->vals[cc_opnd(cc, in, 0)].buf;
	n = ix.dims[0];
	gd[0] = n;
	for (d = 0; d < a.rank; d++)
		gd[1 + d] = sizes[d];
	for (j = 0; j < k; j++)
		imap[j] = (uint8_t)map->ints[j];
	if (direct_strides(in, off, col, a.rank, bstride)) {
		if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
			return;
		out = cc->vals[v].buf;
		out.rank = a.rank + 1;
		memcpy(out.dims, gd, sizeof(gd[0]) * out.rank);
		memcpy(out.strides, bstride, sizeof(bstride[0]) * out.rank);
		vo = cc_csview(&a);
		vi = cc_csview(&ix);
		vg = cc_csview(&out);
		if (n && xrt_shape_element_count(&in->shape))
			cs_gather(&cc->b, &vo, &vi, &vg, k, imap);
		if (tmp != ~0u)
			cc_release(cc, tmp);
		return;
	}
	g = cc_new_val(cc);
	a = cc->vals[cc_opnd(cc, in, 0)].buf;
	if (cc_alloc(cc, g, a.dtype, a.rank + 1, gd))
		return;
	vo = cc_csview(&a);
	vi = cc_csview(&ix);
	vg = cc_csview(&cc->vals[g].buf);
	if (n && xrt_shape_element_count(&in->shape))
		cs_gather(&cc->b, &vo, &vi, &vg, k, imap);
	/* XLA's order: batch dims where offset_dims are not, slice dims where they are */
	out = cc->vals[g].buf;
	gv = out;
	gv.rank = in->shape.rank;
	for (d = 0, nb = 0; d < in->shape.rank; d++)
		nb += !listed(off->ints, off->n, d);
	/* the flattened batch index is row-major over the batch dims */
	for (d = in->shape.rank, n = out.strides[0], j = nb; d-- > 0;) {
		if (listed(off->ints, off->n, d))
			continue;
		bstride[--j] = n;
		n *= in->shape.dims[d];
	}
	for (d = 0, j = 0, od = 0; d < in->shape.rank; d++) {
		gv.dims[d] = in->shape.dims[d];
		if (!listed(off->ints, off->n, d)) {
			gv.strides[d] = bstride[j++];
			continue;
		}
		while (col && listed(col->ints, col->n, od))
			od++;	/* collapsed slice dims have no output dim */
		gv.strides[d] = out.strides[1 + od++];
	}
	cc_view(cc, v, g, &gv);
	cc_release(cc, g);
	if (tmp != ~0u)
		cc_release(cc, tmp);
}

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

/* @res (operand @k's copy) gets update operand @uk scattered with @comb. */
static void scatter_one(struct cc *cc, const struct ir_instr *in, struct cc_buf res,
			uint32_t k, uint32_t uk, int comb)
{
	const struct ir_attr *win = ir_instr_attr(in, IR_ATTR_UPDATE_WINDOW_DIMS);
	const struct ir_attr *ins = ir_instr_attr(in, IR_ATTR_INSERTED_WINDOW_DIMS);
	const struct ir_attr *map = ir_instr_attr(in, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS);
	uint32_t ni = in->num_operands / 2, tmp = ~0u, utmp = ~0u, nk, d, j = 0, w = 0;
	uint64_t elems = xrt_shape_element_count(&cc->c->instrs[in->operands[uk]].shape);
	struct cc_buf ix, u, up;
	uint8_t imap[XRT_MAX_RANK] = { 0 };
	struct xrt_cs_view vo, vi, vu;
	int64_t n = 1;

	cc_copy(cc, &res, &cc->vals[cc_opnd(cc, in, k)].buf);
	ix = index_vectors(cc, &cc->vals[cc_opnd(cc, in, ni)].buf,
			   ir_instr_attr(in, IR_ATTR_INDEX_VECTOR_DIM)->ints[0], &nk, &tmp);
	/* updates as [scatter dims..., window dims...], the scatter dims flattened */
	u = cc->vals[cc_opnd(cc, in, uk)].buf;
	up = u;
	for (d = 0; d < u.rank; d++) {
		if (listed(win->ints, win->n, d))
			continue;
		up.dims[j] = u.dims[d];
		up.strides[j++] = u.strides[d];
		n *= u.dims[d];
	}
	for (d = 0; d < u.rank; d++) {
		if (!listed(win->ints, win->n, d))
			continue;
		up.dims[j] = u.dims[d];
		up.strides[j++] = u.strides[d];
	}
	if (!cc_is_dense(&up))
		up = dense_copy(cc, &up, &utmp);
	/* [n, w_0 .. w_(r-1)]: inserted dims of size 1 */
	u = up;
	u.rank = res.rank + 1;
	u.dims[0] = n;
	u.strides[0] = n ? (int64_t)(elems / (uint64_t)n) : 0;
	for (d = 0, w = 0; d < res.rank; d++) {
		if (listed(ins ? ins->ints : NULL, ins ? ins->n : 0, d)) {
			u.dims[1 + d] = 1;
			u.strides[1 + d] = 0;
			continue;
		}
		u.dims[1 + d] = up.dims[up.rank - win->n + w];
		u.strides[1 + d] = up.strides[up.rank - win->n + w];
		w++;
	}
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

void cc_lower_scatter(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	uint32_t n = in->num_operands / 2, v = cc_iv(cc, i), k, e[XRT_MAX_RANK];
	int comb[XRT_MAX_RANK];

	for (k = 0; k < n; k++) {
		comb[k] = combiner_of(f, n, k, cc->c->instrs[in->operands[k]].shape.dtype);
		if (comb[k] < 0) {
			cc_unimplemented(cc, n == 1 ? "scatter with this combiner" :
					 "scatter of several operands whose results mix them");
			return;
		}
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
	for (k = 0; k < n && !cc->err; k++)
		scatter_one(cc, in, cc->vals[e[k]].buf, k, n + 1 + k, comb[k]);
}
