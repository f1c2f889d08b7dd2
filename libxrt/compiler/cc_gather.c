// SPDX-License-Identifier: MIT
/*
 * gather on the engine's flat form, and the index vectors scatter
 * (cc_scatter.c) shares.  The engine indexes with [n, k] index vectors
 * and moves [n, full slice] windows; XLA's batch dimensions of the
 * indices flatten into n, and its offset dimensions are the slice's
 * dimensions with the collapsed ones of size 1.  A gather's result is a
 * view of the engine's output in XLA's dimension order.
 */
#include <string.h>

#include "cc.h"

bool cc_listed(const int64_t *l, uint32_t n, int64_t v)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (l[i] == v)
			return true;
	}
	return false;
}

/* A new dense value holding @b's elements; its buf. */
struct cc_buf cc_dense_copy(struct cc *cc, const struct cc_buf *b, uint32_t *v)
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
struct cc_buf cc_index_vectors(struct cc *cc, const struct cc_buf *ix, int64_t ivd,
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
		p = cc_dense_copy(cc, &p, tmp);
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
		if (cc_listed(off->ints, off->n, d) || s->dims[d] == 1)
			continue;
		if (span >= 0 && rm[d] != span)
			return false;
		if (span < 0)
			st[0] = rm[d];
		span = rm[d] * s->dims[d];
	}
	for (d = 0; d < orank; d++)
		st[1 + d] = col && cc_listed(col->ints, col->n, d) ? 0 : rm[off->ints[j++]];
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

	if (cc->c->instrs[in->operands[0]].shape.rank >= XRT_CS_MAX_RANK) {
		/* the engine's [n, slice...] form needs one dimension more */
		cc_unimplemented(cc, "gather from an operand of rank 8");
		return;
	}
	/* new values move the table: take the operand's buf once they are made */
	ix = cc_index_vectors(cc, &cc->vals[cc_opnd(cc, in, 1)].buf,
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
		nb += !cc_listed(off->ints, off->n, d);
	/* the flattened batch index is row-major over the batch dims */
	for (d = in->shape.rank, n = out.strides[0], j = nb; d-- > 0;) {
		if (cc_listed(off->ints, off->n, d))
			continue;
		bstride[--j] = n;
		n *= in->shape.dims[d];
	}
	for (d = 0, j = 0, od = 0; d < in->shape.rank; d++) {
		gv.dims[d] = in->shape.dims[d];
		if (!cc_listed(off->ints, off->n, d)) {
			gv.strides[d] = bstride[j++];
			continue;
		}
		while (col && cc_listed(col->ints, col->n, od))
			od++;	/* collapsed slice dims have no output dim */
		gv.strides[d] = out.strides[1 + od++];
	}
	cc_view(cc, v, g, &gv);
	cc_release(cc, g);
	if (tmp != ~0u)
		cc_release(cc, tmp);
}
