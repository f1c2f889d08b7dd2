// SPDX-License-Identifier: MIT
/*
 * Window opcodes computed window offset by window offset, over the
 * output's (or source's) space, with the opcode's computations inlined
 * into kernels: reduce-window with any elementwise reducer, variadic or
 * with a run-time init, and select-and-scatter.  The operand is first
 * copied padded (and base-dilated) beside a mask of where its real
 * elements are, so padding and dilation holes take no part, as in the
 * evaluator; windows over 64 elements are refused.
 */
#include <string.h>

#include "cc.h"

/*
 * select-and-scatter, window offset by window offset over the source's
 * space (the window's elements in row-major order, as the evaluator
 * visits them): first the selected offset of every window, in the
 * padded operand where a mask marks the real elements (padding is never
 * selected); then each source element combined into the padded result
 * at its window's selected offset.  With overlapping windows one result
 * element takes several sources, which XLA combines in source order.
 * For a fixed result position the source index falls, dimension by
 * dimension, as the window offset rises, so visiting the offsets in
 * reverse row-major order is visiting the sources in row-major order:
 * the scatter phase runs backwards, and a scatter computation that
 * keeps one value keeps the last, as in XLA and the evaluator.
 */
struct sas {
	uint32_t rank;
	int64_t size[XRT_MAX_RANK], stride[XRT_MAX_RANK], lo[XRT_MAX_RANK];
	int64_t ldil[XRT_MAX_RANK], rdil[XRT_MAX_RANK];	/* base, window dilation */
	int64_t pd[XRT_MAX_RANK];	/* padded operand dims */
	uint32_t p, m, h, b, j, r;	/* padded operand, mask, has, best, offset, result */
};

/* The window of @in over operand @a; @plain: no dilation or negative padding. */
static bool parse_window(struct cc *cc, const struct ir_instr *in, const struct cc_buf *a,
			 struct sas *w, bool plain)
{
	const int64_t *f = ir_instr_attr(in, IR_ATTR_WINDOW)->ints;
	int64_t wn = 1;
	uint32_t d;

	w->rank = a->rank;
	for (d = 0; d < a->rank; d++, f += IR_WINDOW_FIELDS) {
		/*
		 * A reversed window (f[6]) holds the same elements, visited
		 * in the same order by the evaluator, as XLA's: nothing to do.
		 */
		if (plain && (f[2] < 0 || f[3] < 0 || f[4] != 1 || f[5] != 1)) {
			cc_unimplemented(cc, "a window with negative padding or dilation");
			return false;
		}
		w->size[d] = f[0];
		w->stride[d] = f[1];
		w->lo[d] = f[2];
		w->ldil[d] = f[4];
		w->rdil[d] = f[5];
		w->pd[d] = (a->dims[d] ? (a->dims[d] - 1) * f[4] + 1 : 0) + f[2] + f[3];
		if (w->pd[d] < 0)
			w->pd[d] = 0;
		wn *= f[0];
	}
	if (wn > 64) {
		cc_unimplemented(cc, "a window over 64 elements, offset by offset");
		return false;
	}
	return true;
}

/* The view over the space @sdims of window offset @wi in @v. */
static struct cc_buf window_view(const struct cc *cc, uint32_t v, const struct sas *w,
				 const int64_t *wi, const int64_t *sdims)
{
	struct cc_buf b = cc->vals[v].buf;
	size_t es = xrt_dtype_size(b.dtype);
	uint32_t d;

	for (d = 0; d < w->rank; d++) {
		b.offset += (uint64_t)(wi[d] * w->rdil[d] * b.strides[d]) * es;
		b.dims[d] = sdims[d];
		b.strides[d] *= w->stride[d];
	}
	return b;
}

static uint32_t sas_buffer(struct cc *cc, enum xrt_dtype t, uint32_t rank, const int64_t *dims)
{
	static const uint8_t zero[16];
	uint32_t v = cc_new_val(cc);

	if (!cc_alloc(cc, v, t, rank, dims))
		cc_fill_value(cc, &cc->vals[v].buf, zero);
	return v;
}

/* @src padded and base-dilated as the window says (zeros elsewhere). */
static uint32_t padded(struct cc *cc, const struct sas *w, struct cc_buf src)
{
	uint32_t v = sas_buffer(cc, src.dtype, w->rank, w->pd);

	if (!cc->err)
		cc_place(cc, &cc->vals[v].buf, &src, w->lo, w->ldil);
	return v;
}

/* True where the padded operand (dims @dims before padding) has elements. */
static uint32_t mask(struct cc *cc, const struct sas *w, const int64_t *dims)
{
	static const uint8_t t = 1;
	struct cc_buf one = cc_dense(1, cc_add_const(cc, &t, 1), XRT_PRED, w->rank, dims);

	memset(one.strides, 0, sizeof(one.strides));
	return padded(cc, w, one);
}

/* @dst = the scalar @init everywhere. */
static void broadcast_init(struct cc *cc, const struct cc_buf *dst, struct cc_buf init)
{
	struct cc_buf b = cc_spread(init, dst);

	cc_copy(cc, dst, &b);
}

/* Padded operand, mask, result (holding init), and has/best/offset. */
static void sas_start(struct cc *cc, const struct ir_instr *in, struct sas *w)
{
	struct cc_buf a = cc->vals[cc_opnd(cc, in, 0)].buf, src = cc->vals[cc_opnd(cc, in, 1)].buf;

	w->p = padded(cc, w, a);
	w->m = mask(cc, w, a.dims);
	w->r = cc_new_val(cc);
	w->h = sas_buffer(cc, XRT_PRED, src.rank, src.dims);
	w->b = sas_buffer(cc, a.dtype, src.rank, src.dims);
	w->j = sas_buffer(cc, XRT_S32, src.rank, src.dims);
	if (cc_alloc(cc, w->r, a.dtype, a.rank, w->pd))
		return;
	broadcast_init(cc, &cc->vals[w->r].buf, cc->vals[cc_opnd(cc, in, 2)].buf);
}

/* Phase @phase (0 select, 1 scatter) for every window offset. */
static void sas_phase(struct cc *cc, const struct ir_instr *in, struct sas *w, int phase)
{
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, phase ? IR_ATTR_SCATTER :
							       IR_ATTR_SELECT)->ints[0]];
	uint32_t srcv = cc_opnd(cc, in, 1), args[2], k;
	struct cc_buf s = cc->vals[srcv].buf, hb, bb, jb, cb, mb;
	int64_t wi[XRT_MAX_RANK] = { 0 };
	struct cc_saved sv;
	int32_t j = 0;
	int d;

	if (phase) {	/* backwards: the last offset first */
		for (d = 0; d < (int)w->rank; d++) {
			wi[d] = w->size[d] - 1;
			j = d ? j * (int32_t)w->size[d] + (int32_t)wi[d] : (int32_t)wi[d];
		}
	}
	do {
		hb = cc->vals[w->h].buf;
		bb = cc->vals[w->b].buf;
		jb = cc->vals[w->j].buf;
		cb = window_view(cc, phase ? w->r : w->p, w, wi, s.dims);
		mb = window_view(cc, w->m, w, wi, s.dims);
		/* the computation's parameters: (best, candidate) or (result, source) */
		args[0] = cc_new_view(cc, phase ? w->r : w->b, phase ? &cb : &bb);
		args[1] = phase ? srcv : cc_new_view(cc, w->p, &cb);
		if (!cc->err && cc_inline_comp_begin(cc, f, args, &sv)) {
			if (phase)
				cc_emit_scatter_step(cc, f->root, &cb, &jb, j);
			else
				cc_emit_select_step(cc, f->root, &hb, &bb, &jb, &cb, &mb, j);
			cc_inline_comp_end(cc, &sv);
		}
		for (k = 0; k < 2 - (uint32_t)phase; k++)
			cc_release(cc, args[k]);
		if (phase) {
			j--;
			for (d = (int)w->rank - 1; d >= 0 && wi[d]-- == 0; d--)
				wi[d] = w->size[d] - 1;
		} else {
			j++;
			for (d = (int)w->rank - 1; d >= 0 && ++wi[d] == w->size[d]; d--)
				wi[d] = 0;
		}
	} while (d >= 0 && !cc->err);
}

void cc_lower_select_and_scatter(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct cc_buf a = cc->vals[cc_opnd(cc, in, 0)].buf, out;
	uint32_t v = cc_iv(cc, i), d;
	struct sas w;

	memset(&w, 0, sizeof(w));
	if (!parse_window(cc, in, &a, &w, true))
		return;
	sas_start(cc, in, &w);
	if (xrt_shape_element_count(&cc->c->instrs[in->operands[1]].shape)) {
		sas_phase(cc, in, &w, 0);
		sas_phase(cc, in, &w, 1);
	}
	if (cc->err || cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	out = cc->vals[w.r].buf;	/* the result without its padding */
	for (d = 0; d < w.rank; d++) {
		out.offset += (uint64_t)(w.lo[d] * out.strides[d]) * xrt_dtype_size(out.dtype);
		out.dims[d] = a.dims[d];
	}
	cc_copy(cc, &cc->vals[v].buf, &out);
	cc_release(cc, w.p);
	cc_release(cc, w.m);
	cc_release(cc, w.h);
	cc_release(cc, w.b);
	cc_release(cc, w.j);
	cc_release(cc, w.r);
}

/*
 * reduce-window with any elementwise computation (variadic ones and
 * run-time inits included): accumulators start at the inits; for each
 * window offset one kernel applies the computation to all of them and
 * that offset's view of each padded input, where the mask says the
 * position holds an element.
 */
void cc_lower_window_general(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const struct ir_instr *root = &f->instrs[f->root];
	uint32_t n = in->num_operands / 2, v = cc_iv(cc, i), k, p[8], acc[8] = { 0 }, args[16];
	uint32_t roots[8];
	struct cc_buf a = cc->vals[cc_opnd(cc, in, 0)].buf, outs[8], mb;
	int64_t wi[XRT_MAX_RANK] = { 0 }, odims[XRT_MAX_RANK];
	struct cc_saved sv;
	struct sas w;
	int d;

	memset(&w, 0, sizeof(w));
	if (n > 8) {
		cc_unimplemented(cc, "reduce-window of more than 8 inputs");
		return;
	}
	if (!parse_window(cc, in, &a, &w, false))
		return;
	if (n == 1) {
		acc[0] = v;
		cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims);
	} else if (cc_tuple_init(cc, v, n)) {
		for (k = 0; k < n && !cc->err; k++) {
			const struct xrt_shape *s = &in->shape.tuple[k];

			acc[k] = cc_tuple_add(cc, v);
			cc_alloc(cc, acc[k], s->dtype, s->rank, s->dims);
		}
	}
	for (k = 0; k < n && !cc->err; k++) {
		broadcast_init(cc, &cc->vals[acc[k]].buf, cc->vals[cc_opnd(cc, in, n + k)].buf);
		p[k] = padded(cc, &w, cc->vals[cc_opnd(cc, in, k)].buf);
		roots[k] = root->op == XRT_OP_TUPLE ? root->operands[k] : f->root;
	}
	w.m = mask(cc, &w, a.dims);
	if (cc->err)
		return;
	memcpy(odims, cc->vals[acc[0]].buf.dims, sizeof(odims));	/* vals move */
	if (!xrt_shape_element_count(n == 1 ? &in->shape : &in->shape.tuple[0]))
		d = -1;		/* nothing to compute */
	else
		d = 0;
	while (d >= 0 && !cc->err) {
		for (k = 0; k < n; k++) {
			struct cc_buf b = window_view(cc, p[k], &w, wi, odims);

			outs[k] = cc->vals[acc[k]].buf;
			args[k] = cc_new_view(cc, acc[k], &outs[k]);
			args[n + k] = cc_new_view(cc, p[k], &b);
		}
		mb = window_view(cc, w.m, &w, wi, odims);
		if (!cc->err && cc_inline_comp_begin(cc, f, args, &sv)) {
			cc_emit_masked_n(cc, roots, n, outs, &mb);
			cc_inline_comp_end(cc, &sv);
		}
		for (k = 0; k < 2 * n; k++)
			cc_release(cc, args[k]);
		for (d = (int)w.rank - 1; d >= 0 && ++wi[d] == w.size[d]; d--)
			wi[d] = 0;
	}
	for (k = 0; k < n; k++)
		cc_release(cc, p[k]);
	cc_release(cc, w.m);
}
