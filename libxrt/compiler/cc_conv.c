// SPDX-License-Identifier: MIT
/*
 * convolution as a sum of matrix products, one per kernel position: the
 * input (padded and base-dilated into a zeroed buffer when the window
 * asks) is viewed at that position's offset with the window's strides,
 * copied dense as [batch, out spatial..., in features], and multiplied
 * by the kernel's [in features, out features] slice there, the products
 * accumulating into [batch, out spatial..., out features]; that is then
 * copied into the output's own order.  Feature and batch groups are
 * each such a sum over their slices.
 */
#include <string.h>

#include "cc.h"

struct conv {
	struct ir_conv_labels L;
	const int64_t *w;		/* the window, IR_WINDOW_FIELDS per dimension */
	struct cc_buf in, k, q;		/* padded input, kernel, output [b, os..., of] */
	int64_t ob, of, os[XRT_MAX_RANK], ks[XRT_MAX_RANK];
	int64_t icg, ocg, obg;		/* per group: in, out features; batch */
	uint32_t nsp, tmp;
};

static size_t esize(const struct cc_buf *b)
{
	return xrt_dtype_size(b->dtype);
}

/*
 * The window of the padded input at kernel position @kp for group @g, as
 * [batch, out spatial..., in features]; *@koff gets the kernel's element
 * offset there.
 */
static struct cc_buf window(const struct conv *c, const int64_t *kp, uint32_t g, int64_t *koff)
{
	const struct ir_conv_labels *L = &c->L;
	int64_t fg = c->icg == c->in.dims[L->f] ? 0 : g, bg = c->obg == c->in.dims[L->b] ? 0 : g;
	struct cc_buf v = c->in;
	uint32_t d, r = 0;

	v.offset += (uint64_t)((fg * c->icg * v.strides[L->f] + bg * c->obg * v.strides[L->b]) *
			       (int64_t)esize(&v));
	v.dims[r] = c->ob;
	v.strides[r++] = c->in.strides[L->b];
	*koff = 0;
	for (d = 0; d < c->nsp; d++) {
		const int64_t *f = c->w + d * IR_WINDOW_FIELDS;
		int64_t kk = f[6] ? c->ks[d] - 1 - kp[d] : kp[d];

		v.offset += (uint64_t)(kp[d] * f[5] * c->in.strides[L->sp[d]] * (int64_t)esize(&v));
		v.dims[r] = c->os[d];
		v.strides[r++] = c->in.strides[L->sp[d]] * f[1];
		*koff += kk * c->k.strides[L->ksp[d]];
	}
	v.dims[r] = c->icg;
	v.strides[r++] = c->in.strides[L->f];
	v.rank = r;
	return v;
}

/* One kernel position @kp of group @g: T = the input window, Q += T K. */
static void position(struct cc *cc, struct conv *c, const int64_t *kp, uint32_t g, bool acc)
{
	const struct ir_conv_labels *L = &c->L;
	struct cc_buf t = cc->vals[c->tmp].buf, v;
	int64_t koff, rows = c->ob;
	struct xrt_cs_matrix ml, mr, mo;
	uint32_t d;

	v = window(c, kp, g, &koff);
	for (d = 0; d < c->nsp; d++)
		rows *= c->os[d];
	t = cc_dense(t.slot, t.offset, t.dtype, v.rank, v.dims);
	cc_copy(cc, &t, &v);
	ml = (struct xrt_cs_matrix){ t.slot, (uint8_t)t.dtype, { 0 }, t.offset, 0, c->icg, 1 };
	mr = (struct xrt_cs_matrix){ c->k.slot, (uint8_t)c->k.dtype, { 0 },
				     c->k.offset + (uint64_t)((koff + g * c->ocg *
							       c->k.strides[L->o]) *
							      (int64_t)esize(&c->k)),
				     0, c->k.strides[L->i], c->k.strides[L->o] };
	mo = (struct xrt_cs_matrix){ c->q.slot, (uint8_t)c->q.dtype, { 0 },
				     c->q.offset + (uint64_t)(g * c->ocg * (int64_t)esize(&c->q)), 0,
				     c->of, 1 };
	cc_emit_dot(cc, acc ? XRT_CS_DOT_ACCUMULATE : 0, 1, (uint64_t)rows, (uint64_t)c->ocg,
		    (uint64_t)c->icg, &ml, &mr, &mo);
}

/* Bytes of patches one block holds at most: about the caches', a few MiB. */
#define PATCH_BYTES	(4u << 20)
/* Positions of more input features than this are deep enough one by one. */
#define PATCH_MAX_FEATURES	256

/* The next kernel position after @kp; false after the last. */
static bool next_position(const struct conv *c, int64_t *kp)
{
	uint32_t d;

	for (d = c->nsp; d-- > 0;) {
		if (++kp[d] < c->ks[d])
			return true;
		kp[d] = 0;
	}
	return false;
}

/*
 * The kernels of groups [@g0, @g0 + @ng) as dense [np x in features, out
 * features] matrices one after the other, position after position: the
 * right operands of the products (a batch of them for @ng > 1).
 */
static struct cc_buf kernel_matrix(struct cc *cc, const struct conv *c, uint32_t g0,
				   uint32_t ng, int64_t np, uint32_t *kv)
{
	const struct ir_conv_labels *L = &c->L;
	int64_t kp[XRT_MAX_RANK], koff, p, kd[2] = { ng * np * c->icg, c->ocg };
	struct cc_buf kb, src, dst;
	size_t es = esize(&c->k);

	*kv = cc_new_val(cc);
	if (cc_alloc(cc, *kv, c->k.dtype, 2, kd))
		return c->k;
	kb = cc->vals[*kv].buf;
	/* a position of every group in one copy: the depthwise layer had 2304 */
	memset(kp, 0, sizeof(kp));
	for (p = 0; p < np; p++, next_position(c, kp)) {
		window(c, kp, g0, &koff);
		src = c->k;
		src.offset += (uint64_t)((koff + g0 * c->ocg * c->k.strides[L->o]) * (int64_t)es);
		src.rank = 3;
		src.dims[0] = ng;
		src.dims[1] = c->icg;
		src.dims[2] = c->ocg;
		src.strides[0] = c->ocg * c->k.strides[L->o];
		src.strides[1] = c->k.strides[L->i];
		src.strides[2] = c->k.strides[L->o];
		dst = kb;
		dst.offset += (uint64_t)(p * c->icg * c->ocg) * es;
		dst.rank = 3;
		memcpy(dst.dims, src.dims, sizeof(dst.dims));
		dst.strides[0] = np * c->icg * c->ocg;
		dst.strides[1] = c->ocg;
		dst.strides[2] = 1;
		cc_copy(cc, &dst, &src);
	}
	return kb;
}

/*
 * Where a block's window @v (batch dimension first) goes in patches @tb
 * laid out a group after the other: [groups][rows][np x in features],
 * position @p's features at column p x in features.
 */
static void window_grouped(struct cc_buf *v, struct cc_buf *dst, const struct conv *c,
			   uint32_t ng, int64_t h, int64_t kw, int64_t per, int64_t p, size_t es,
			   struct cc_buf tb)
{
	uint32_t d;

	v->dims[0] = ng;	/* the batch's place: the groups' features */
	v->strides[0] = c->icg * c->in.strides[c->L.f];
	v->dims[1] = h;
	*dst = *v;
	dst->slot = tb.slot;
	dst->offset = tb.offset + (uint64_t)(p * c->icg) * es;
	dst->strides[v->rank - 1] = 1;
	for (d = v->rank - 1; d-- > 1;)
		dst->strides[d] = d + 1 == v->rank - 1 ? kw : dst->strides[d + 1] * v->dims[d + 1];
	dst->strides[0] = per;
}

/*
 * The same with the groups innermost: [rows][np x in features][groups],
 * so that a group's matrix is read with a column stride of the group
 * count and the groups are the product's vector lanes (dot_lanes.c).
 * With one feature a group the copy moves the input's runs of features
 * whole.
 */
static void window_wide(struct cc_buf *v, struct cc_buf *dst, const struct conv *c,
			uint32_t ng, int64_t h, int64_t kw, int64_t p, size_t es,
			struct cc_buf tb)
{
	int64_t fstride = v->strides[v->rank - 1];
	uint32_t d, r;

	/* the batch dimension's place goes to the groups, last */
	memmove(v->dims, v->dims + 1, (v->rank - 1) * sizeof(v->dims[0]));
	memmove(v->strides, v->strides + 1, (v->rank - 1) * sizeof(v->strides[0]));
	r = v->rank - 1;	/* the groups' dimension */
	v->dims[0] = h;
	v->dims[r] = ng;
	v->strides[r] = c->icg * fstride;
	*dst = *v;
	dst->slot = tb.slot;
	dst->offset = tb.offset + (uint64_t)(p * c->icg * ng) * es;
	dst->strides[r] = 1;
	dst->strides[r - 1] = ng;	/* the features */
	for (d = r - 1; d-- > 0;)
		dst->strides[d] = d + 1 == r - 1 ? kw * ng : dst->strides[d + 1] * v->dims[d + 1];
}

/* Whether the groups go innermost: enough of them, each few features. */
static bool groups_wide(const struct conv *c, uint32_t ng)
{
	return ng >= 8 && c->icg <= 16 && c->ocg <= 16;
}

/*
 * The product of groups innermost with several out features each: into
 * a block laid out [rows][out features][groups], the groups innermost as
 * in the patches (so they are the product's lanes), then copied to the
 * output @mo's [rows][groups][out features].
 */
static void grouped_product(struct cc *cc, const struct conv *c, uint32_t ng, int64_t rows,
			    int64_t kw, const struct xrt_cs_matrix *ml,
			    const struct xrt_cs_matrix *mr, const struct xrt_cs_matrix *mo)
{
	int64_t td[3] = { rows, c->ocg, ng }, d3[3] = { rows, ng, c->ocg };
	struct xrt_cs_matrix mt;
	struct cc_buf t, src, dst;
	uint32_t v = cc_new_val(cc);

	if (cc->err || cc_alloc(cc, v, c->q.dtype, 3, td))
		return;
	t = cc->vals[v].buf;
	mt = (struct xrt_cs_matrix){ t.slot, (uint8_t)t.dtype, { 0 }, t.offset, 1, c->ocg * ng,
				     ng };
	cc_emit_dot(cc, 0, ng, (uint64_t)rows, (uint64_t)c->ocg, (uint64_t)kw, ml, mr, &mt);
	src = t;
	memcpy(src.dims, d3, sizeof(d3));
	src.strides[0] = c->ocg * ng;
	src.strides[1] = 1;
	src.strides[2] = ng;
	dst = cc_dense(mo->slot, mo->offset, c->q.dtype, 3, d3);
	dst.strides[0] = c->of;
	dst.strides[1] = c->ocg;
	dst.strides[2] = 1;
	cc_copy(cc, &dst, &src);
	cc_release(cc, v);
}

/*
 * The @ng groups as one product each per block of output rows (a batch
 * element's rows of the first spatial dimension, about PATCH_BYTES of
 * patches): the windows of all @np kernel positions side by side, [rows,
 * np x in features], times the kernel as [np x in features, out
 * features].  The products are summed in the same order as position by
 * position (the positions outer, the features inner), without a pass
 * over the output per position and with one product of depth np x in
 * features instead of np shallow ones.  Groups (grouped and depthwise
 * convolutions) go as one product batched over them, one copy a
 * position for all: the patches a group after the other, or, with one
 * feature a group (depthwise), the groups innermost, so that each copy
 * moves the input's rows whole and each group's matrix is read with a
 * column stride of the group count (a product and a feature-by-feature
 * copy a group made a depthwise layer 500 times slower than PyTorch).
 */
static void patches(struct cc *cc, struct conv *c, uint32_t ng, int64_t np)
{
	int64_t kw = np * c->icg, inner = 1, ny, kp[XRT_MAX_RANK], koff, b, y0, p, h, td[2];
	int64_t run = 1, per;
	bool wide = groups_wide(c, ng);
	const int64_t *last;
	size_t es = esize(&c->in);
	struct xrt_cs_matrix ml, mr, mo;
	struct cc_buf kb, tb, v, dst;
	uint32_t kv, tv, d;

	for (d = 1; d < c->nsp; d++)
		inner *= c->os[d];
	/*
	 * Where the last spatial dimension's positions lie side by side in the
	 * input (dense features, no dilation or reversal there), a window row
	 * of all of them is one run of (positions x features) elements: one
	 * copy for the lot.
	 */
	last = c->w + (c->nsp - 1) * IR_WINDOW_FIELDS;
	if (c->in.strides[c->L.f] == 1 && c->in.strides[c->L.sp[c->nsp - 1]] == c->icg &&
	    last[5] == 1 && !last[6])
		run = c->ks[c->nsp - 1];
	ny = (int64_t)(PATCH_BYTES / ((uint64_t)(inner * kw * ng) * es));
	ny = ny < 1 ? 1 : ny > c->os[0] ? c->os[0] : ny;
	per = ny * inner * kw;		/* a group's patches */
	kb = kernel_matrix(cc, c, 0, ng, np, &kv);
	td[0] = ng * ny * inner;
	td[1] = kw;
	tv = cc_new_val(cc);
	if (cc->err || cc_alloc(cc, tv, c->in.dtype, 2, td))
		return;
	tb = cc->vals[tv].buf;
	for (b = 0; b < c->ob && !cc->err; b++)
		for (y0 = 0; y0 < c->os[0] && !cc->err; y0 += ny) {
			h = c->os[0] - y0 < ny ? c->os[0] - y0 : ny;
			memset(kp, 0, sizeof(kp));
			for (p = 0; p < np; p++, next_position(c, kp)) {
				if (run > 1 && kp[c->nsp - 1])
					continue;	/* in the run copied with position 0 */
				/*
				 * this block's rows of the window, the batch dimension
				 * dropped, the groups' features as a first dimension
				 */
				v = window(c, kp, 0, &koff);
				v.dims[v.rank - 1] *= run;
				v.offset += (uint64_t)((b * v.strides[0] + y0 * v.strides[1]) *
						       (int64_t)es);
				if (wide)
					window_wide(&v, &dst, c, ng, h, kw, p, es, tb);
				else
					window_grouped(&v, &dst, c, ng, h, kw, per, p, es, tb);
				cc_copy(cc, &dst, &v);
			}
			ml = wide ? (struct xrt_cs_matrix){ tb.slot, (uint8_t)tb.dtype, { 0 },
							    tb.offset, 1, kw * ng, ng } :
				    (struct xrt_cs_matrix){ tb.slot, (uint8_t)tb.dtype, { 0 },
							    tb.offset, per, kw, 1 };
			mr = (struct xrt_cs_matrix){ kb.slot, (uint8_t)kb.dtype, { 0 }, kb.offset,
						     kw * c->ocg, c->ocg, 1 };
			mo = (struct xrt_cs_matrix){ c->q.slot, (uint8_t)c->q.dtype, { 0 },
						     c->q.offset + (uint64_t)((b * c->os[0] + y0) *
									      inner * c->of *
									      (int64_t)es),
						     c->ocg, c->of, 1 };
			if (wide && c->ocg > 1)
				grouped_product(cc, c, ng, h * inner, kw, &ml, &mr, &mo);
			else
				cc_emit_dot(cc, 0, ng, (uint64_t)(h * inner), (uint64_t)c->ocg,
					    (uint64_t)kw, &ml, &mr, &mo);
		}
	cc_release(cc, tv);
	cc_release(cc, kv);
}

static int64_t out_positions(const struct conv *c)
{
	int64_t n = 1;
	uint32_t d;

	for (d = 0; d < c->nsp; d++)
		n *= c->os[d];
	return n;
}

/*
 * A window with more positions than the output has (a kernel's gradient
 * as XLA writes it: the window as large as the input, the output the
 * kernel's few positions), one product per output position: every batch
 * element's whole window copied as a column of [np x in features, batch]
 * (the batch, the input's contiguous features there, innermost on both
 * sides), its transpose times the kernel matrix, into the output's rows of that
 * position.  A copy per kernel position and batch element made 200,000
 * copies of a few floats each.
 */
static void per_output(struct cc *cc, struct conv *c, int64_t np)
{
	int64_t kw = np * c->icg, outs = 1, o, at, td[2] = { c->ob, kw };
	size_t es = esize(&c->in);
	struct xrt_cs_matrix ml, mr, mo;
	struct cc_buf kb, tb, v, dst;
	uint32_t kv, tv, d, r;

	for (d = 0; d < c->nsp; d++)
		outs *= c->os[d];
	kb = kernel_matrix(cc, c, 0, 1, np, &kv);
	tv = cc_new_val(cc);
	if (cc->err || cc_alloc(cc, tv, c->in.dtype, 2, td))
		return;
	tb = cc->vals[tv].buf;
	for (o = 0; o < outs && !cc->err; o++) {
		/* [window positions..., in features, batch] of the input, batch innermost */
		v = c->in;
		for (d = c->nsp, at = o; d-- > 0; at /= c->os[d]) {
			const int64_t *f = c->w + d * IR_WINDOW_FIELDS;

			v.offset += (uint64_t)(at % c->os[d] * f[1] * c->in.strides[c->L.sp[d]] *
					       (int64_t)es);
		}
		for (d = 0, r = 0; d < c->nsp; d++, r++) {
			v.dims[r] = c->ks[d];
			v.strides[r] = c->in.strides[c->L.sp[d]] * c->w[d * IR_WINDOW_FIELDS + 5];
		}
		v.dims[r] = c->icg;
		v.strides[r++] = c->in.strides[c->L.f];
		v.dims[r] = c->ob;
		v.strides[r++] = c->in.strides[c->L.b];
		v.rank = r;
		/* the patches column by column: [np x in features][batch], runs on both sides */
		dst = cc_dense(tb.slot, tb.offset, tb.dtype, r, v.dims);
		cc_copy(cc, &dst, &v);
		ml = (struct xrt_cs_matrix){ tb.slot, (uint8_t)tb.dtype, { 0 }, tb.offset, 0, 1,
					     c->ob };
		mr = (struct xrt_cs_matrix){ kb.slot, (uint8_t)kb.dtype, { 0 }, kb.offset, 0,
					     c->ocg, 1 };
		mo = (struct xrt_cs_matrix){ c->q.slot, (uint8_t)c->q.dtype, { 0 },
					     c->q.offset + (uint64_t)(o * c->of * (int64_t)es), 0,
					     outs * c->of, 1 };
		cc_emit_dot(cc, 0, 1, (uint64_t)c->ob, (uint64_t)c->ocg, (uint64_t)kw, &ml, &mr,
			    &mo);
	}
	cc_release(cc, tv);
	cc_release(cc, kv);
}

/* Is the output's dimension order Q's, [batch, out spatial..., out features]? */
static bool in_q_order(const struct ir_conv_labels *L, uint32_t nsp)
{
	uint32_t d;

	for (d = 0; d < nsp; d++) {
		if (L->osp[d] != (int)(1 + d))
			return false;
	}
	return L->ob == 0 && L->of == (int)(nsp + 1);
}

/* The padded, base-dilated input (or the input itself). */
static bool pad_input(struct cc *cc, struct conv *c, uint32_t *p)
{
	int64_t dims[XRT_MAX_RANK], lo[XRT_MAX_RANK] = { 0 }, step[XRT_MAX_RANK];
	const struct ir_conv_labels *L = &c->L;
	bool need = false;
	uint32_t d;

	for (d = 0; d < c->in.rank; d++) {
		dims[d] = c->in.dims[d];
		step[d] = 1;
	}
	for (d = 0; d < c->nsp; d++) {
		const int64_t *f = c->w + d * IR_WINDOW_FIELDS;
		int64_t n = c->in.dims[L->sp[d]];

		need = need || f[2] || f[3] || f[4] != 1;
		lo[L->sp[d]] = f[2];
		step[L->sp[d]] = f[4];
		dims[L->sp[d]] = (n ? (n - 1) * f[4] + 1 : 0) + f[2] + f[3];
		if (dims[L->sp[d]] < 0)
			dims[L->sp[d]] = 0;
	}
	if (!need)
		return true;
	*p = cc_new_val(cc);
	if (cc_alloc(cc, *p, c->in.dtype, c->in.rank, dims))
		return false;
	cc_fill_value(cc, &cc->vals[*p].buf, (uint8_t[16]){ 0 });
	cc_place(cc, &cc->vals[*p].buf, &c->in, lo, step);
	c->in = cc->vals[*p].buf;
	return true;
}

/* A copy of @b in type @t (its value in @v); @b if out of memory. */
static struct cc_buf widened(struct cc *cc, const struct cc_buf *b, enum xrt_dtype t,
			     uint32_t *v)
{
	struct cc_buf src = *b;

	*v = cc_new_val(cc);
	if (cc_alloc(cc, *v, t, src.rank, src.dims))
		return src;
	cc_emit_convert(cc, &cc->vals[*v].buf, &src);
	return cc->vals[*v].buf;
}

void cc_lower_convolution(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *fa = ir_instr_attr(in, IR_ATTR_FEATURE_GROUP_COUNT);
	const struct ir_attr *ba = ir_instr_attr(in, IR_ATTR_BATCH_GROUP_COUNT);
	int64_t fgc = fa ? fa->ints[0] : 1, bgc = ba ? ba->ints[0] : 1, groups, g, n = 1;
	int64_t kp[XRT_MAX_RANK] = { 0 }, qd[XRT_MAX_RANK];
	uint32_t v = cc_iv(cc, i), d, pad = ~0u, q = ~0u;
	uint32_t win = ~0u, wk = ~0u;
	enum xrt_dtype rt = in->shape.dtype, ct;
	struct cc_buf out, qv;
	struct conv c;
	bool first;

	memset(&c, 0, sizeof(c));
	c.in = cc->vals[cc_opnd(cc, in, 0)].buf;
	c.k = cc->vals[cc_opnd(cc, in, 1)].buf;
	ir_parse_conv_labels(ir_instr_attr(in, IR_ATTR_DIM_LABELS)->str, &c.L, c.in.rank);
	c.w = ir_instr_attr(in, IR_ATTR_WINDOW)->ints;
	c.nsp = c.L.nsp;
	/*
	 * Sums run in the result's type (s8 x s8 -> s32 as XLA's integer
	 * convolutions; an integer result narrower than its operands wraps
	 * the same either way), f16, bf16 and the small floats in f32 and
	 * rounded once.  A pred result is an OR of ANDs: a count of the
	 * products that hold, in s32, then != 0.
	 */
	ct = rt == XRT_F16 || rt == XRT_BF16 || xrt_dtype_is_small_float(rt) ? XRT_F32 : rt;
	if (rt == XRT_PRED || (xrt_dtype_is_integer(rt) && xrt_dtype_bits(rt) < 8))
		ct = XRT_S32;	/* s4 ... u2: the engine's DOT takes 16 bits or more */
	groups = fgc > bgc ? fgc : bgc;
	c.ob = in->shape.dims[c.L.ob];
	c.of = in->shape.dims[c.L.of];
	c.icg = c.k.dims[c.L.i];
	c.ocg = c.of / groups;
	c.obg = c.ob;
	for (d = 0; d < c.nsp; d++) {
		c.os[d] = in->shape.dims[c.L.osp[d]];
		c.ks[d] = c.k.dims[c.L.ksp[d]];
		n *= c.ks[d];
	}
	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	out = cc->vals[v].buf;
	if (!xrt_shape_element_count(&in->shape))
		return;
	if (!n || !c.icg) {	/* nothing to sum: zeros */
		cc_fill_value(cc, &out, (uint8_t[16]){ 0 });
		return;
	}
	if (c.in.dtype != ct)
		c.in = widened(cc, &c.in, ct, &win);
	if (c.k.dtype != ct)
		c.k = widened(cc, &c.k, ct, &wk);
	if (!pad_input(cc, &c, &pad))
		return;
	/* Q = [batch, out spatial..., out features], and the window copies' buffer */
	qd[0] = c.ob;
	for (d = 0; d < c.nsp; d++)
		qd[1 + d] = c.os[d];
	qd[1 + c.nsp] = c.of;
	c.tmp = cc_new_val(cc);
	if (ct == rt && in_q_order(&c.L, c.nsp)) {
		c.q = out;	/* the products straight into the result */
	} else {
		q = cc_new_val(cc);
		if (cc_alloc(cc, q, c.in.dtype, c.nsp + 2, qd))
			return;
		c.q = cc->vals[q].buf;
	}
	qd[1 + c.nsp] = c.icg;
	if (cc_alloc(cc, c.tmp, c.in.dtype, c.nsp + 2, qd))
		return;
	if (groups == 1 && n > 1 && c.nsp && n > out_positions(&c) &&
	    (uint64_t)(c.ob * n * c.icg) * esize(&c.in) <= PATCH_BYTES * 4) {
		per_output(cc, &c, n);	/* a window larger than the output */
		groups = 0;
	}
	/* shallow products (few features a position): all positions, all groups at once */
	if (groups && n > 1 && c.icg <= PATCH_MAX_FEATURES && bgc == 1 && c.nsp) {
		patches(cc, &c, (uint32_t)groups, n);
		groups = 0;
	}
	for (g = 0; g < groups && !cc->err; g++) {
		memset(kp, 0, sizeof(kp));
		for (first = true; !cc->err; first = false) {
			position(cc, &c, kp, (uint32_t)g, !first);
			if (!next_position(&c, kp))
				break;
		}
	}
	if (q == ~0u)
		goto done;
	/* Q into the output's order */
	qv = c.q;
	qv.strides[c.L.ob] = c.q.strides[0];
	for (d = 0; d < c.nsp; d++)
		qv.strides[c.L.osp[d]] = c.q.strides[1 + d];
	qv.strides[c.L.of] = c.q.strides[1 + c.nsp];
	memcpy(qv.dims, out.dims, sizeof(qv.dims));
	if (ct != rt)
		cc_emit_convert(cc, &out, &qv);
	else
		cc_copy(cc, &out, &qv);
	cc_release(cc, q);
done:
	cc_release(cc, c.tmp);
	if (pad != ~0u)
		cc_release(cc, pad);
	if (win != ~0u)
		cc_release(cc, win);
	if (wk != ~0u)
		cc_release(cc, wk);
}
