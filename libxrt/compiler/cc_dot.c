// SPDX-License-Identifier: MIT
/*
 * dot: each operand is viewed with its dimensions in the order DOT
 * wants ([batch, free, contracting] and [batch, contracting, free]);
 * each group of dimensions must then collapse into one strided
 * dimension, else the operand is first copied densely in that order.
 * Operands are converted first when the result type is wider than the
 * engine's accumulation gives; f16 and bf16 results come from an f32
 * product.
 */
#include <string.h>

#include "cc.h"

/* A view of @b with dims in the order @order (@n of them). */
static struct cc_buf permuted(const struct cc_buf *b, const uint32_t *order, uint32_t n)
{
	struct cc_buf r = *b;
	uint32_t d;

	for (d = 0; d < n; d++) {
		r.dims[d] = b->dims[order[d]];
		r.strides[d] = b->strides[order[d]];
	}
	r.rank = n;
	return r;
}

/* Do dims [lo, hi) of @b collapse into one with the innermost stride? */
static bool collapses(const struct cc_buf *b, uint32_t lo, uint32_t hi)
{
	int64_t want = 0;
	uint32_t d;
	bool first = true;

	for (d = hi; d-- > lo;) {
		if (b->dims[d] == 1)
			continue;
		if (!first && b->strides[d] != want)
			return false;
		want = b->strides[d] * b->dims[d];
		first = false;
	}
	return true;
}

/* Product of dims [lo, hi), and the stride of the innermost non-1 dim. */
static int64_t group(const struct cc_buf *b, uint32_t lo, uint32_t hi, int64_t *stride)
{
	int64_t n = 1;
	uint32_t d;

	*stride = 0;
	for (d = lo; d < hi; d++)
		n *= b->dims[d];
	for (d = hi; d-- > lo;) {
		if (b->dims[d] != 1) {
			*stride = b->strides[d];
			break;
		}
	}
	return n;
}

static uint32_t order_of(const struct ir_instr *in, uint32_t rank, enum ir_attr_key batch,
			 enum ir_attr_key contract, bool contract_last, uint32_t *order)
{
	const struct ir_attr *b = ir_instr_attr(in, batch), *c = ir_instr_attr(in, contract);
	uint32_t nb = b ? b->n : 0, nc = c ? c->n : 0, k = 0, d, j;
	bool used[XRT_MAX_RANK] = { false };

	for (j = 0; j < nb; j++) {
		order[k++] = (uint32_t)b->ints[j];
		used[b->ints[j]] = true;
	}
	for (j = 0; j < nc; j++)
		used[c->ints[j]] = true;
	if (!contract_last)
		for (j = 0; j < nc; j++)
			order[k++] = (uint32_t)c->ints[j];
	for (d = 0; d < rank; d++) {
		if (!used[d])
			order[k++] = d;
	}
	if (contract_last)
		for (j = 0; j < nc; j++)
			order[k++] = (uint32_t)c->ints[j];
	return nb;
}

/* A dense copy of @b (converted to @t) as a new value; its buf. */
static uint32_t materialize(struct cc *cc, const struct cc_buf *b, enum xrt_dtype t)
{
	uint32_t v = cc_new_val(cc);

	if (cc_alloc(cc, v, t, b->rank, b->dims))
		return v;
	if (t == b->dtype)
		cc_copy(cc, &cc->vals[v].buf, b);
	else
		cc_emit_convert(cc, &cc->vals[v].buf, b);
	return v;
}

static bool is_half(enum xrt_dtype t)
{
	return t == XRT_F16 || t == XRT_BF16;
}

/* A type the engine's DOT does not take: the small floats, s4 ... u2. */
static bool is_narrow(enum xrt_dtype t)
{
	return xrt_dtype_is_small_float(t) || (xrt_dtype_is_integer(t) && xrt_dtype_bits(t) < 8);
}

void cc_emit_dot(struct cc *cc, uint32_t flags, uint64_t batch, uint64_t m, uint64_t n,
		 uint64_t k, const struct xrt_cs_matrix *ml, const struct xrt_cs_matrix *mr,
		 const struct xrt_cs_matrix *mo)
{
	uint64_t most = cc->o.dot_max_k ? cc->o.dot_max_k : XRT_CS_DOT_MAX_K, k0, kn;
	int64_t es = (int64_t)xrt_dtype_size(ml->dtype);

	for (k0 = 0; k0 < k; k0 += kn) {
		struct xrt_cs_matrix a = *ml, b = *mr;

		kn = k - k0 < most ? k - k0 : most;
		a.offset += (uint64_t)((int64_t)k0 * ml->col_stride * es);
		b.offset += (uint64_t)((int64_t)k0 * mr->row_stride * es);
		cs_dot(&cc->b, k0 ? flags | XRT_CS_DOT_ACCUMULATE : flags, batch, m, n, kn,
		       &a, &b, mo);
	}
}

void cc_lower_dot(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct cc_buf *lb0 = &cc->vals[cc_opnd(cc, in, 0)].buf;
	const struct cc_buf *rb0 = &cc->vals[cc_opnd(cc, in, 1)].buf;
	enum xrt_dtype rt = in->shape.dtype, it = lb0->dtype, ot;
	uint32_t lo[XRT_MAX_RANK], ro[XRT_MAX_RANK], nb, nlc, lr = lb0->rank, rr = rb0->rank;
	uint32_t tmp[3] = { ~0u, ~0u, ~0u }, k;
	struct cc_buf l, r, o;
	struct xrt_cs_matrix ml, mr, mo;
	int64_t B, M, N, K, s;
	const struct ir_attr *lc = ir_instr_attr(in, IR_ATTR_LHS_CONTRACTING_DIMS);

	nlc = lc ? lc->n : 0;
	nb = order_of(in, lr, IR_ATTR_LHS_BATCH_DIMS, IR_ATTR_LHS_CONTRACTING_DIMS, true, lo);
	order_of(in, rr, IR_ATTR_RHS_BATCH_DIMS, IR_ATTR_RHS_CONTRACTING_DIMS, false, ro);
	l = permuted(lb0, lo, lr);
	r = permuted(rb0, ro, rr);
	if (rt != it && !(is_half(it) && rt == XRT_F32))
		it = rt;	/* a wider (or other) result: convert the operands first */
	if (is_narrow(it))	/* in f32 or s32 (exact), rounded or wrapped once */
		it = xrt_dtype_is_float(it) ? XRT_F32 : XRT_S32;
	ot = is_half(it) ? XRT_F32 : it;
	if (it != l.dtype || !collapses(&l, 0, nb) || !collapses(&l, nb, lr - nlc) ||
	    !collapses(&l, lr - nlc, lr)) {
		tmp[0] = materialize(cc, &l, it);
		l = cc->vals[tmp[0]].buf;
	}
	if (it != r.dtype || !collapses(&r, 0, nb) || !collapses(&r, nb, nb + nlc) ||
	    !collapses(&r, nb + nlc, rr)) {
		tmp[1] = materialize(cc, &r, it);
		r = cc->vals[tmp[1]].buf;
	}
	if (cc_alloc(cc, cc_iv(cc, i), rt, in->shape.rank, in->shape.dims))
		return;
	o = cc->vals[cc_iv(cc, i)].buf;
	if (ot != rt) {		/* an f16/bf16 result from an f32 product */
		tmp[2] = cc_new_val(cc);
		if (cc_alloc(cc, tmp[2], ot, in->shape.rank, in->shape.dims))
			return;
		o = cc->vals[tmp[2]].buf;
	}
	B = group(&l, 0, nb, &s);
	ml = (struct xrt_cs_matrix){ l.slot, (uint8_t)l.dtype, { 0 }, l.offset, s, 0, 0 };
	M = group(&l, nb, lr - nlc, &s);
	ml.row_stride = s;
	K = group(&l, lr - nlc, lr, &s);
	ml.col_stride = s;
	group(&r, 0, nb, &s);
	mr = (struct xrt_cs_matrix){ r.slot, (uint8_t)r.dtype, { 0 }, r.offset, s, 0, 0 };
	group(&r, nb, nb + nlc, &s);
	mr.row_stride = s;
	N = group(&r, nb + nlc, rr, &s);
	mr.col_stride = s;
	mo = (struct xrt_cs_matrix){ o.slot, (uint8_t)o.dtype, { 0 }, o.offset, M * N, N, 1 };
	if (B && M && N) {
		if (K)
			cc_emit_dot(cc, 0, (uint64_t)B, (uint64_t)M, (uint64_t)N, (uint64_t)K,
				    &ml, &mr, &mo);
		else
			cc_fill_value(cc, &o, (uint8_t[16]){ 0 });
		if (ot != rt)
			cc_emit_convert(cc, &cc->vals[cc_iv(cc, i)].buf, &o);
	}
	for (k = 0; k < 3; k++) {
		if (tmp[k] != ~0u)
			cc_release(cc, tmp[k]);
	}
}
