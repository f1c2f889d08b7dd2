// SPDX-License-Identifier: MIT
/*
 * topk: the operand is copied beside an iota of the last dimension and
 * both are sorted by the values, descending for largest (ascending
 * otherwise), in total order (-NaN first, +NaN last, -0 before +0), by
 * one stable SORT command; the result is the first k of each row of
 * both.  Stability puts equal values in index order, as XLA does.
 */
#include "cc.h"

/* @x with its last dimension cut to its first @k elements. */
static struct cc_buf first_k(struct cc_buf x, int64_t k)
{
	x.dims[x.rank - 1] = k;
	return x;
}

void cc_lower_topk(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *big = ir_instr_attr(in, IR_ATTR_LARGEST);
	struct cc_buf src = cc->vals[cc_opnd(cc, in, 0)].buf, part;
	uint32_t v = cc_iv(cc, i), rank = src.rank, last = rank - 1, w[2], k, d;
	int64_t kk = ir_instr_attr(in, IR_ATTR_K)->ints[0];
	struct xrt_cs_operand ops[2];
	uint64_t dims[XRT_MAX_RANK];
	struct xrt_cs_view view;
	enum xrt_dtype kt = src.dtype;

	/* SORT takes no narrow key: f32 and s32 hold those values and their order */
	if (xrt_dtype_is_small_float(kt))
		kt = XRT_F32;
	else if (xrt_dtype_is_integer(kt) && xrt_dtype_bits(kt) < 8)
		kt = XRT_S32;
	w[0] = cc_new_val(cc);
	w[1] = cc_new_val(cc);
	if (cc_alloc(cc, w[0], kt, rank, src.dims) ||
	    cc_alloc(cc, w[1], XRT_S32, rank, src.dims))
		return;
	if (kt == src.dtype)
		cc_copy(cc, &cc->vals[w[0]].buf, &src);
	else
		cc_emit_convert(cc, &cc->vals[w[0]].buf, &src);
	view = cc_csview(&cc->vals[w[1]].buf);
	for (d = 0; d < rank; d++)
		dims[d] = (uint64_t)src.dims[d];
	if (src.dims[last] && xrt_shape_element_count(&cc->c->instrs[in->operands[0]].shape)) {
		cs_fill_iota(&cc->b, &view, last);
		for (k = 0; k < 2; k++) {
			const struct cc_buf *b = &cc->vals[w[k]].buf;

			ops[k] = cs_operand(b->slot, b->dtype, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT,
					    b->offset, rank, b->strides);
		}
		cs_sort(&cc->b, !big || big->ints[0] ? XRT_CS_SORT_DESCENDING : 0, rank, dims,
			last, ops, 2, 1);
	}
	if (!cc_tuple_init(cc, v, 2))
		return;
	for (k = 0; k < 2 && !cc->err; k++) {
		uint32_t o = cc_tuple_add(cc, v);

		part = first_k(cc->vals[w[k]].buf, kk);
		if (cc_alloc(cc, o, k ? XRT_S32 : src.dtype, rank, part.dims))
			return;
		if (part.dtype == cc->vals[o].buf.dtype)
			cc_copy(cc, &cc->vals[o].buf, &part);
		else	/* exact: the values came from this type */
			cc_emit_convert(cc, &cc->vals[o].buf, &part);
	}
	cc_release(cc, w[0]);
	cc_release(cc, w[1]);
}
