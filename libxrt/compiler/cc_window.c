// SPDX-License-Identifier: MIT
/*
 * reduce-window as one REDUCE: the operand, padded and base-dilated into
 * a buffer holding the reducer's identity elsewhere (so padding counts
 * for nothing, as XLA's evaluator has it), is viewed with one dimension
 * per output dimension (stride times the window stride) and one per
 * window dimension wider than 1 (stride times the window dilation); the
 * window dimensions are reduced.
 */
#include <string.h>

#include "cc.h"

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

	if (in->num_operands != 2 || !op || !init || !cc_red_identity(op, in->shape.dtype, id)) {
		if (!cc_lower_scan_window_general(cc, i))
			cc_lower_window_general(cc, i);	/* offset by offset */
		return;
	}
	if (cc_lower_scan_window(cc, i, op, init))
		return;	/* prefixes or suffixes: linear */
	src = cc->vals[cc_opnd(cc, in, 0)].buf;
	rank = src.rank;
	for (d = 0, k = rank; d < rank; d++) {
		const int64_t *fd = w + d * IR_WINDOW_FIELDS;

		/* a reversed window holds the same elements: fd[6] changes nothing here */
		padded = padded || fd[2] || fd[3] || fd[4] != 1;
		k += fd[0] > 1;
	}
	if (k > XRT_MAX_RANK) {	/* more dimensions than a view has: offset by offset */
		cc_lower_window_general(cc, i);
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

