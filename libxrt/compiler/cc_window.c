// SPDX-License-Identifier: MIT
/*
 * reduce-window as one REDUCE: the operand, padded and base-dilated into
 * a buffer holding the reducer's identity elsewhere (so padding counts
 * for nothing, as XLA's evaluator has it), is viewed with one dimension
 * per output dimension (stride times the window stride) and one per
 * window dimension wider than 1 (stride times the window dilation); the
 * window dimensions are reduced.
 */
#include <math.h>
#include <string.h>

#include "cc.h"

/* The identity of REDUCE @op on @t, as the element's bytes. */
static void identity(uint32_t op, enum xrt_dtype t, uint8_t *b)
{
	size_t es = xrt_dtype_size(t);
	bool sign = xrt_dtype_is_signed(t), hi = op == XRT_CS_RED_MIN;
	double f = hi ? INFINITY : -INFINITY;
	float h = (float)f;
	uint16_t x;

	memset(b, 0, 16);
	if (op == XRT_CS_RED_PROD || op == XRT_CS_RED_AND) {
		double one = 1.0;

		if (t == XRT_F64 || t == XRT_C128)
			memcpy(b, &one, 8);
		else if (t == XRT_F32 || t == XRT_C64)
			memcpy(b, &(float){ 1.0f }, 4);
		else if (t == XRT_F16 || t == XRT_BF16)
			memcpy(b, &(uint16_t){ t == XRT_F16 ? xrt_f16_from_f32(1) :
					       xrt_bf16_from_f32(1) }, 2);
		else
			b[0] = 1;
		return;
	}
	if (op != XRT_CS_RED_MAX && op != XRT_CS_RED_MIN)
		return;		/* sum, or: zero */
	if (t == XRT_F64) {
		memcpy(b, &f, 8);
	} else if (t == XRT_F32) {
		memcpy(b, &h, 4);
	} else if (t == XRT_F16 || t == XRT_BF16) {
		x = t == XRT_F16 ? xrt_f16_from_f32(h) : xrt_bf16_from_f32(h);
		memcpy(b, &x, 2);
	} else if (t != XRT_PRED) {	/* the type's lowest or highest integer */
		memset(b, hi ? 0xff : 0, es);
		if (sign)
			b[es - 1] = hi ? 0x7f : 0x80;
	}
}

void cc_lower_reduce_window(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const int64_t *w = ir_instr_attr(in, IR_ATTR_WINDOW)->ints;
	const void *init = cc_const_elem(cc, cc_opnd(cc, in, 1));
	uint32_t op = cc_reducer_op(f, in->shape.dtype), v = cc_iv(cc, i), rank, d, k, mask = 0;
	struct cc_buf src, pad, iv, ov;
	uint32_t p = ~0u;
	uint8_t id[16];
	bool padded = false;

	if (in->num_operands != 2 || !op || !init) {
		cc_unimplemented(cc, "reduce-window with this reducer, init or inputs");
		return;
	}
	src = cc->vals[cc_opnd(cc, in, 0)].buf;
	rank = src.rank;
	for (d = 0, k = rank; d < rank; d++) {
		const int64_t *fd = w + d * IR_WINDOW_FIELDS;

		padded = padded || fd[2] || fd[3] || fd[4] != 1;
		k += fd[0] > 1;
		if (fd[6]) {
			cc_unimplemented(cc, "reduce-window with window reversal");
			return;
		}
	}
	if (k > XRT_MAX_RANK) {
		cc_unimplemented(cc, "reduce-window of this rank");
		return;
	}
	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	pad = src;
	if (padded) {
		int64_t pd[XRT_MAX_RANK], lo[XRT_MAX_RANK], step[XRT_MAX_RANK];

		for (d = 0; d < rank; d++) {
			const int64_t *fd = w + d * IR_WINDOW_FIELDS;

			lo[d] = fd[2];
			step[d] = fd[4];
			pd[d] = (src.dims[d] ? (src.dims[d] - 1) * fd[4] + 1 : 0) + fd[2] + fd[3];
			if (pd[d] < 0)
				pd[d] = 0;
		}
		p = cc_new_val(cc);
		if (cc_alloc(cc, p, src.dtype, rank, pd))
			return;
		identity(op, src.dtype, id);
		pad = cc->vals[p].buf;
		cc_fill_value(cc, &pad, id);
		cc_place(cc, &pad, &src, lo, step);
	}
	/* [out dims..., window dims wider than 1...] */
	iv = pad;
	ov = cc->vals[v].buf;
	for (d = 0, k = rank; d < rank; d++) {
		const int64_t *fd = w + d * IR_WINDOW_FIELDS;

		iv.dims[d] = in->shape.dims[d];
		iv.strides[d] = pad.strides[d] * fd[1];
		if (fd[0] > 1) {
			iv.dims[k] = fd[0];
			iv.strides[k] = pad.strides[d] * fd[5];
			ov.dims[k] = fd[0];
			ov.strides[k] = 0;
			mask |= 1u << k;
			k++;
		}
	}
	iv.rank = ov.rank = k;
	cc_emit_reduce_view(cc, op, &iv, &ov, mask, init);
	if (p != ~0u)
		cc_release(cc, p);
}

/*
 * select-and-scatter, window offset by window offset over the source's
 * space (the window's elements in row-major order, as the evaluator
 * visits them): first the selected offset of every window, in the
 * padded operand where a mask marks the real elements (padding is never
 * selected); then each source element combined into the padded result
 * at its window's selected offset.  With overlapping windows one result
 * element takes sources in window-offset order rather than source
 * order: the same value when the scatter computation is associative
 * and commutative, as addition is up to rounding.
 */
struct sas {
	uint32_t rank;
	int64_t size[XRT_MAX_RANK], stride[XRT_MAX_RANK], lo[XRT_MAX_RANK];
	int64_t pd[XRT_MAX_RANK];	/* padded operand dims */
	uint32_t p, m, h, b, j, r;	/* padded operand, mask, has, best, offset, result */
};

static bool sas_window(struct cc *cc, const struct ir_instr *in, const struct cc_buf *a,
		       struct sas *w)
{
	const int64_t *f = ir_instr_attr(in, IR_ATTR_WINDOW)->ints;
	int64_t wn = 1;
	uint32_t d;

	w->rank = a->rank;
	for (d = 0; d < a->rank; d++, f += IR_WINDOW_FIELDS) {
		if (f[2] < 0 || f[3] < 0 || f[4] != 1 || f[5] != 1 || f[6]) {
			cc_unimplemented(cc, "select-and-scatter with negative padding, "
					 "dilation or reversal");
			return false;
		}
		w->size[d] = f[0];
		w->stride[d] = f[1];
		w->lo[d] = f[2];
		w->pd[d] = a->dims[d] + f[2] + f[3];
		wn *= f[0];
	}
	if (wn > 64) {
		cc_unimplemented(cc, "select-and-scatter with a window over 64 elements");
		return false;
	}
	return true;
}

/* The view over the source's space (@src dims) of window offset @wi in @v. */
static struct cc_buf window_view(const struct cc *cc, uint32_t v, const struct sas *w,
				 const int64_t *wi, const int64_t *sdims)
{
	struct cc_buf b = cc->vals[v].buf;
	size_t es = xrt_dtype_size(b.dtype);
	uint32_t d;

	for (d = 0; d < w->rank; d++) {
		b.offset += (uint64_t)(wi[d] * b.strides[d]) * es;
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

/* Padded operand, mask, result (holding init), and has/best/offset. */
static void sas_start(struct cc *cc, const struct ir_instr *in, struct sas *w)
{
	struct cc_buf a = cc->vals[cc_opnd(cc, in, 0)].buf, src = cc->vals[cc_opnd(cc, in, 1)].buf;
	struct cc_buf one, init = cc->vals[cc_opnd(cc, in, 2)].buf, rb;
	static const int64_t step[XRT_MAX_RANK] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	static const uint8_t t = 1;

	w->p = sas_buffer(cc, a.dtype, a.rank, w->pd);
	w->m = sas_buffer(cc, XRT_PRED, a.rank, w->pd);
	w->r = cc_new_val(cc);
	w->h = sas_buffer(cc, XRT_PRED, src.rank, src.dims);
	w->b = sas_buffer(cc, a.dtype, src.rank, src.dims);
	w->j = sas_buffer(cc, XRT_S32, src.rank, src.dims);
	if (cc_alloc(cc, w->r, a.dtype, a.rank, w->pd))
		return;
	cc_place(cc, &cc->vals[w->p].buf, &a, w->lo, step);
	one = cc_dense(1, cc_add_const(cc, &t, 1), XRT_PRED, a.rank, a.dims);
	memset(one.strides, 0, sizeof(one.strides));
	cc_place(cc, &cc->vals[w->m].buf, &one, w->lo, step);
	rb = cc->vals[w->r].buf;
	init.rank = rb.rank;
	memcpy(init.dims, rb.dims, sizeof(init.dims));
	memset(init.strides, 0, sizeof(init.strides));
	cc_copy(cc, &rb, &init);
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
		j++;
		for (d = (int)w->rank - 1; d >= 0 && ++wi[d] == w->size[d]; d--)
			wi[d] = 0;
	} while (d >= 0 && !cc->err);
}

void cc_lower_select_and_scatter(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct cc_buf a = cc->vals[cc_opnd(cc, in, 0)].buf, out;
	uint32_t v = cc_iv(cc, i), d;
	struct sas w;

	memset(&w, 0, sizeof(w));
	if (!sas_window(cc, in, &a, &w))
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
