// SPDX-License-Identifier: MIT
/*
 * Gathers and scatters with batching dimensions, rewritten as they are
 * read into ones without: what JAX emits for take_along_axis and for
 * vmap of indexing.
 *
 * Batching dimension k pairs operand dimension obd[k] with indices
 * dimension ibd[k]: the slice taken for the index vector at batch
 * position G starts, in obd[k], at G's coordinate in ibd[k].  That is
 * an index vector one entry longer, the extra entry an iota along
 * ibd[k], mapped to obd[k], which becomes a collapsed (gather) or
 * inserted (scatter) window dimension:
 *
 *   ix'  = concatenate(ix, iota(ibd[0]), ..), dimensions={index_vector_dim}
 *   gather(a, ix'), start_index_map += obd, collapsed_slice_dims += obd
 *
 * (with a reshape first when the index vector dimension is implicit).
 * The values are the same by the definition of the operation; the
 * printer then shows the rewritten form.
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "hlo_parse.h"

/* The attribute names of the two forms. */
struct batching {
	enum ir_attr_key operand_dims, index_dims, index_map, window_dims;
	uint32_t indices;	/* which operand holds the indices */
};

/* Checks the pairs; the rewritten instruction's verification checks the rest. */
static int check_pairs(struct hp *p, const struct ir_instr *in, const struct batching *b,
		       const struct ir_attr *od, const struct ir_attr *id, int64_t ivd)
{
	const struct xrt_shape *a = &p->cur->instrs[in->operands[0]].shape;
	const struct xrt_shape *ix = &p->cur->instrs[in->operands[b->indices]].shape;
	uint32_t k;

	if (xrt_shape_is_tuple(a) || xrt_shape_is_tuple(ix) || !xrt_dtype_is_integer(ix->dtype))
		return hp_fail(p, "%s: batching dimensions need array operands and integer indices",
			       in->name);
	if (od->n != id->n)
		return hp_fail(p, "%s: %u %s for %u %s", in->name, od->n,
			       ir_attr_name(b->operand_dims), id->n, ir_attr_name(b->index_dims));
	if (ivd < 0 || ivd > ix->rank || ix->rank + (ivd == ix->rank) > XRT_MAX_RANK)
		return hp_fail(p, "%s: index_vector_dim %lld out of range", in->name,
			       (long long)ivd);
	for (k = 0; k < od->n; k++) {
		int64_t o = od->ints[k], i = id->ints[k];

		if (o < 0 || o >= a->rank || i < 0 || i >= ix->rank || i == ivd)
			return hp_fail(p, "%s: batching dimension pair %u (%lld, %lld) out of range",
				       in->name, k, (long long)o, (long long)i);
		if (a->dims[o] != ix->dims[i])
			return hp_fail(p, "%s: batching dimension pair %u has sizes %lld and %lld",
				       in->name, k, (long long)a->dims[o], (long long)ix->dims[i]);
		/* the iota counts to the size - 1 in the indices' type */
		if (xrt_dtype_size(ix->dtype) < 8 &&
		    (uint64_t)ix->dims[i] > (UINT64_C(1) << (8 * xrt_dtype_size(ix->dtype) -
						   xrt_dtype_is_signed(ix->dtype))))
			return hp_fail(p, "%s: batching dimension of %lld does not fit %s indices",
				       in->name, (long long)ix->dims[i], xrt_dtype_name(ix->dtype));
	}
	return 0;
}

static int rewrite(struct hp *p, const struct batching *b, int64_t ivd, uint32_t npairs)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1], *h;
	uint32_t ix = in->operands[b->indices], at, k, ops[1 + XRT_MAX_RANK], g;
	const struct xrt_shape *is = &p->cur->instrs[ix].shape;
	bool implicit = ivd == is->rank;
	uint32_t extra = implicit + npairs + 1, rank = is->rank + implicit;
	int64_t dims[XRT_MAX_RANK], pairs[2][XRT_MAX_RANK];
	enum xrt_dtype t = is->dtype;
	char base[64];

	memcpy(dims, is->dims, is->rank * sizeof(dims[0]));
	if (implicit)
		dims[is->rank] = 1;
	memcpy(pairs[0], hp_find_attr(in, b->operand_dims)->ints, npairs * sizeof(int64_t));
	memcpy(pairs[1], hp_find_attr(in, b->index_dims)->ints, npairs * sizeof(int64_t));
	snprintf(base, sizeof(base), "%.60s", in->name);
	if (hp_make_room(p, extra, &at))
		return -1;
	g = at + extra;
	ops[0] = ix;
	if (implicit) {
		h = hp_add_instr(p, at, XRT_OP_RESHAPE, base, "index", 0, t, rank, dims);
		if (!h || hp_set_operands(p, h, &ix, 1))
			return -1;
		ops[0] = at++;
	}
	dims[ivd] = 1;
	for (k = 0; k < npairs; k++) {
		h = hp_add_instr(p, at, XRT_OP_IOTA, base, "batch", k, t, rank, dims);
		if (!h || hp_int_attr(p, h, IR_ATTR_IOTA_DIMENSION, pairs[1][k]))
			return -1;
		ops[1 + k] = at++;
	}
	dims[ivd] = p->cur->instrs[ops[0]].shape.dims[ivd] + npairs;
	h = hp_add_instr(p, at, XRT_OP_CONCATENATE, base, "indices", 0, t, rank, dims);
	if (!h || hp_set_operands(p, h, ops, 1 + npairs) ||
	    hp_extend(p, h, IR_ATTR_DIMENSIONS, &ivd, 1, false))
		return -1;
	in = &p->cur->instrs[g];
	in->operands[b->indices] = at;
	hp_drop_attr(p->a, in, b->operand_dims);
	hp_drop_attr(p->a, in, b->index_dims);
	return hp_extend(p, in, b->index_map, pairs[0], npairs, false) ||
	       hp_extend(p, in, b->window_dims, pairs[0], npairs, true);
}

int hlo_unbatch(struct hp *p)
{
	static const struct batching gather = {
		IR_ATTR_OPERAND_BATCHING_DIMS, IR_ATTR_START_INDICES_BATCHING_DIMS,
		IR_ATTR_START_INDEX_MAP, IR_ATTR_COLLAPSED_SLICE_DIMS, 1,
	};
	static const struct batching scatter = {
		IR_ATTR_INPUT_BATCHING_DIMS, IR_ATTR_SCATTER_INDICES_BATCHING_DIMS,
		IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS, IR_ATTR_INSERTED_WINDOW_DIMS, 0,
	};
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	const struct ir_attr *od, *id, *ivd;
	struct batching b;

	if (in->op == XRT_OP_GATHER && in->num_operands == 2) {
		b = gather;
	} else if (in->op == XRT_OP_SCATTER && in->num_operands % 2) {
		b = scatter;
		b.indices = in->num_operands / 2;
	} else {
		return 0;
	}
	od = ir_instr_attr(in, b.operand_dims);
	id = ir_instr_attr(in, b.index_dims);
	ivd = ir_instr_attr(in, IR_ATTR_INDEX_VECTOR_DIM);
	if (!od && !id)
		return 0;
	if (!od || !id || !ivd)
		return hp_fail(p, "%s: %s without %s", in->name,
			       ir_attr_name(od ? b.operand_dims : b.index_dims),
			       ir_attr_name(!ivd ? IR_ATTR_INDEX_VECTOR_DIM :
					    od ? b.index_dims : b.operand_dims));
	if (check_pairs(p, in, &b, od, id, ivd->ints[0]))
		return -1;
	if (!od->n) {
		hp_drop_attr(p->a, in, b.operand_dims);
		hp_drop_attr(p->a, in, b.index_dims);
		return 0;
	}
	return rewrite(p, &b, ivd->ints[0], od->n);
}
