// SPDX-License-Identifier: MIT
/*
 * Window opcodes computed window offset by window offset, over the
 * output's (or source's) space, with the opcode's computations inlined
 * into kernels: reduce-window with any elementwise reducer, variadic or
 * with a run-time init, and select-and-scatter.  The operand is first
 * copied padded (and base-dilated) beside a mask of where its real
 * elements are, so padding and dilation holes take no part, as in the
 * evaluator.  Up to 64 window elements, one kernel per offset, each
 * reading a fixed view; past that, a loop on the device over the
 * offsets.
 */
#include <stdint.h>
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
	int64_t count;			/* window elements */
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
	w->count = wn;
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
				cc_emit_scatter_step(cc, f->root, &cb, &jb, NULL, j);
			else
				cc_emit_select_step(cc, f->root, &hb, &bb, &jb, &cb, &mb, NULL, j);
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

/*
 * A window of over 64 elements: one pass of a device loop per offset.
 * A kernel turns the counter into the offset's index (counted down for
 * select-and-scatter's scatter phase) and its start in each dimension
 * (index times the window dilation); DYNAMIC_SLICE copies the span the
 * windows cover at that offset out of each array the pass reads; a view
 * striding that copy by the window strides is the offset's view, used
 * as an unrolled offset's fixed view is.  The slices never clamp: the
 * last offset's span ends inside the padded operand, as every window
 * does.
 */
struct wloop {
	uint32_t n, src[9], sl[9];	/* the arrays sliced, their slices */
	uint32_t st, c, p, j;		/* starts (s64[rank]), counter, c < count, offset (sas) */
	bool backwards, want_j;		/* counted down; the offset's index stored */
	uint32_t top;
	struct xrt_cs_scalar starts[XRT_MAX_RANK];
	int64_t span[XRT_MAX_RANK], sdims[XRT_MAX_RANK];
};

/* j = the offset's index; starts[d] = (j / inner[d] % size[d]) * rdil[d]. */
static void emit_offset(struct cc *cc, const struct sas *w, const struct wloop *l)
{
	const struct cc_buf c = cc->vals[l->c].buf;
	struct ewp *e = cc_ew_new(cc, &c);
	uint32_t o, x, k, d;
	int64_t inner = 1;

	if (!e)
		return;
	o = cc_ew_reg(e);
	x = cc_ew_reg(e);
	k = cc_ew_reg(e);
	cc_ew_load(e, o, &c);
	if (l->backwards) {
		cc_ew_const(e, XRT_S64, k, (uint64_t)(w->count - 1));
		cc_ew_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_SUB, XRT_S64, o, k, o, 0);
	}
	if (l->j) {	/* the offset's index, for select-and-scatter's kernels */
		cc_ew_put(e, XRT_CS_EW_CONVERT, 0, XRT_S32, x, o, 0, 0);
		cc_ew_store(e, &cc->vals[l->j].buf, x);
	}
	for (d = w->rank; d-- > 0; inner *= w->size[d]) {
		struct cc_buf s = cc->vals[l->st].buf;

		s.rank = 0;
		s.offset += 8 * d;
		cc_ew_const(e, XRT_S64, k, (uint64_t)inner);
		cc_ew_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_DIV, XRT_S64, x, o, k, 0);
		cc_ew_const(e, XRT_S64, k, (uint64_t)w->size[d]);
		cc_ew_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_REM, XRT_S64, x, x, k, 0);
		cc_ew_const(e, XRT_S64, k, (uint64_t)w->rdil[d]);
		cc_ew_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_S64, x, x, k, 0);
		cc_ew_store(e, &s, x);
	}
	cc_ew_emit(e, &c);
}

/* The loop's buffers, its top, the offset and the slices of @l->src. */
static bool loop_open(struct cc *cc, const struct sas *w, struct wloop *l)
{
	static const int64_t zero;
	struct xrt_cs_view a, b;
	uint32_t k, d;

	for (d = 0; d < w->rank; d++)
		l->span[d] = (l->sdims[d] - 1) * w->stride[d] + 1;
	for (k = 0; k < l->n; k++)
		l->sl[k] = cc_temp(cc, cc->vals[l->src[k]].buf.dtype, w->rank, l->span);
	l->st = cc_temp(cc, XRT_S64, 1, (int64_t[]){ w->rank });
	l->c = cc_temp(cc, XRT_S64, 0, NULL);
	l->p = cc_temp(cc, XRT_PRED, 0, NULL);
	if (l->want_j)
		l->j = cc_temp(cc, XRT_S32, 0, NULL);
	if (cc->err)
		return false;
	cc_fill_value(cc, &cc->vals[l->c].buf, &zero);
	for (d = 0; d < w->rank; d++)
		l->starts[d] = cc_scalar_at(&cc->vals[l->st].buf, 8 * d, XRT_CS_S64);
	l->top = cc->b.num_commands;
	emit_offset(cc, w, l);
	for (k = 0; k < l->n; k++) {
		a = cc_csview(&cc->vals[l->src[k]].buf);
		b = cc_csview(&cc->vals[l->sl[k]].buf);
		cs_dynamic_slice(&cc->b, 0, &a, &b, l->starts);
	}
	return !cc->err;
}

/* Slice @k's view of this pass's offset. */
static struct cc_buf loop_view(const struct cc *cc, const struct sas *w, const struct wloop *l,
			       uint32_t k)
{
	struct cc_buf b = cc->vals[l->sl[k]].buf;
	uint32_t d;

	for (d = 0; d < w->rank; d++) {
		b.dims[d] = l->sdims[d];
		b.strides[d] *= w->stride[d];
	}
	return b;
}

/* Slice @k written back where it came from. */
static void loop_write_back(struct cc *cc, const struct wloop *l, uint32_t k)
{
	struct xrt_cs_view a = cc_csview(&cc->vals[l->src[k]].buf);
	struct xrt_cs_view b = cc_csview(&cc->vals[l->sl[k]].buf);

	cs_dynamic_slice(&cc->b, 1, &a, &b, l->starts);
}

/* The next offset, back to the top while there is one; buffers let go. */
static void loop_close(struct cc *cc, const struct sas *w, struct wloop *l, bool opened)
{
	uint32_t k;

	if (opened) {
		cc_emit_count_step(cc, &cc->vals[l->c].buf, &cc->vals[l->p].buf, w->count);
		cc_jump(cc, XRT_CS_JUMP_IF_TRUE, l->top, l->p);
	}
	for (k = 0; k < l->n; k++)
		if (l->sl[k])
			cc_release(cc, l->sl[k]);
	if (l->st)
		cc_release(cc, l->st);
	if (l->c)
		cc_release(cc, l->c);
	if (l->p)
		cc_release(cc, l->p);
	if (l->j)
		cc_release(cc, l->j);
}

/* select-and-scatter's phase @phase as a loop over the window offsets. */
static void sas_loop(struct cc *cc, const struct ir_comp *f, uint32_t srcv, struct sas *w,
		     int phase)
{
	struct cc_buf cb, mb, hb = cc->vals[w->h].buf, bb = cc->vals[w->b].buf;
	struct cc_buf jb = cc->vals[w->j].buf;
	uint32_t args[2], k;
	struct cc_saved sv;
	struct wloop l;
	bool open;

	memset(&l, 0, sizeof(l));
	l.n = phase ? 1 : 2;
	l.src[0] = phase ? w->r : w->p;
	l.src[1] = w->m;
	l.backwards = phase;
	l.want_j = true;
	memcpy(l.sdims, cc->vals[srcv].buf.dims, sizeof(l.sdims));
	open = loop_open(cc, w, &l);
	if (open) {
		cb = loop_view(cc, w, &l, 0);
		args[0] = cc_new_view(cc, phase ? l.sl[0] : w->b, phase ? &cb : &bb);
		args[1] = phase ? srcv : cc_new_view(cc, l.sl[0], &cb);
		if (!cc->err && cc_inline_comp_begin(cc, f, args, &sv)) {
			if (phase) {
				cc_emit_scatter_step(cc, f->root, &cb, &jb, &cc->vals[l.j].buf, 0);
			} else {
				mb = loop_view(cc, w, &l, 1);
				cc_emit_select_step(cc, f->root, &hb, &bb, &jb, &cb, &mb,
						    &cc->vals[l.j].buf, 0);
			}
			cc_inline_comp_end(cc, &sv);
		}
		for (k = 0; k < 2 - (uint32_t)phase; k++)
			cc_release(cc, args[k]);
		if (phase)
			loop_write_back(cc, &l, 0);
	}
	loop_close(cc, w, &l, open);
}

/* reduce-window over the accumulators @acc, @n padded inputs @p. */
static void window_loop(struct cc *cc, const struct ir_instr *in, const struct sas *w,
			const uint32_t *acc, const uint32_t *p, uint32_t n, const int64_t *odims)
{
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const struct ir_instr *root = &f->instrs[f->root];
	uint32_t args[16], roots[8], k;
	struct cc_buf outs[8], mb, b;
	struct cc_saved sv;
	struct wloop l;
	bool open;

	memset(&l, 0, sizeof(l));
	l.n = n + 1;
	memcpy(l.src, p, n * sizeof(*p));
	l.src[n] = w->m;
	memcpy(l.sdims, odims, sizeof(l.sdims));
	open = loop_open(cc, w, &l);
	for (k = 0; k < n && open; k++) {
		b = loop_view(cc, w, &l, k);
		outs[k] = cc->vals[acc[k]].buf;
		args[k] = cc_new_view(cc, acc[k], &outs[k]);
		args[n + k] = cc_new_view(cc, l.sl[k], &b);
		roots[k] = root->op == XRT_OP_TUPLE ? root->operands[k] : f->root;
	}
	if (open) {
		mb = loop_view(cc, w, &l, n);
		if (!cc->err && cc_inline_comp_begin(cc, f, args, &sv)) {
			cc_emit_masked_n(cc, roots, n, outs, &mb);
			cc_inline_comp_end(cc, &sv);
		}
		for (k = 0; k < 2 * n; k++)
			cc_release(cc, args[k]);
	}
	loop_close(cc, w, &l, open);
}

void cc_lower_select_and_scatter(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct cc_buf a = cc->vals[cc_opnd(cc, in, 0)].buf, out;
	uint32_t v = cc_iv(cc, i), d;
	struct sas w;
	int phase;

	memset(&w, 0, sizeof(w));
	if (!parse_window(cc, in, &a, &w, true))
		return;
	if (w.count > INT32_MAX) {	/* offsets are s32 in the kernels */
		cc_unimplemented(cc, "a select-and-scatter window of 2^31 elements or more");
		return;
	}
	sas_start(cc, in, &w);
	for (phase = 0; phase < 2 && xrt_shape_element_count(&cc->c->instrs[in->operands[1]].shape);
	     phase++) {
		if (w.count > 64)
			sas_loop(cc, &cc->m->comps[ir_instr_attr(in, phase ? IR_ATTR_SCATTER :
								 IR_ATTR_SELECT)->ints[0]],
				 cc_opnd(cc, in, 1), &w, phase);
		else
			sas_phase(cc, in, &w, phase);
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
	if (d == 0 && w.count > 64) {
		window_loop(cc, in, &w, acc, p, n, odims);
		d = -1;
	}
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
