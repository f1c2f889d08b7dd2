// SPDX-License-Identifier: MIT
/*
 * All-reduce and reduce-scatter whose to_apply the REDUCE command has
 * no op for (a product plus a term, anything elementwise): a COLLECTIVE
 * only moves the arrays, and each device folds what it received with
 * the computation, left to right in the group's order, as the evaluator
 * does (cc_fold_rows()).
 *
 * - all-reduce: an ALL_GATHER of every member's operand gives [s, M],
 *   member k's operand as row k; the fold of the rows is the result.
 * - reduce-scatter along d: an ALL_TO_ALL along d gives, as chunk k of
 *   dimension d, member k's block of this device; copied chunk-major to
 *   [s, M'], its rows fold to the result.
 *
 * The group size s is the program's, so every group must have one size.
 */
#include "cc.h"
#include "ir/opcode.h"

/* The size of every group of table entry @group; 0 (the error set) if they differ. */
static int64_t group_size(struct cc *cc, const struct ir_instr *in, int64_t group)
{
	const struct xexe_group *g = &cc->groups[group];
	uint32_t n = cc_devices(cc), k, size = g->start[1] - g->start[0];

	for (k = 0; g->start[k] < n; k++)
		if (g->start[k + 1] - g->start[k] != size) {
			cc_fail(cc, XRT_UNIMPLEMENTED, "%s with to_apply that is not add, multiply, "
				"minimum, maximum, and or or, among groups of different sizes",
				xrt_opcode_name(in->op));
			return 0;
		}
	return size;
}

/* The (array) shape of result @k of @in. */
static const struct xrt_shape *result_shape(const struct ir_instr *in, uint32_t k)
{
	return xrt_shape_is_tuple(&in->shape) ? &in->shape.tuple[k] : &in->shape;
}

/*
 * Operand @k's view for the COLLECTIVE (a dense copy into *@tmp where it
 * is not dense) and a fresh array @out of @rank and @dims for what it
 * receives, into @views.
 */
static void move_views(struct cc *cc, const struct ir_instr *in, uint32_t k, uint32_t *tmp,
		       uint32_t out, uint32_t rank, const int64_t *dims, struct xrt_cs_view *views)
{
	struct cc_buf b = cc->vals[cc_opnd(cc, in, k)].buf;
	uint32_t n = in->num_operands;

	if (!cc_is_dense(&b))
		b = cc_dense_copy(cc, &b, tmp);
	views[k] = cc_row_major_view(&b);
	if (!cc->err && !cc_alloc(cc, out, b.dtype, rank, dims))
		views[n + k] = cc_row_major_view(&cc->vals[out].buf);
}

/* Received array @t of reduce-scatter @in (dim @d), chunk-major into new dense [@s, M']. */
static uint32_t chunk_major(struct cc *cc, uint32_t t, uint32_t d, int64_t s)
{
	const struct cc_buf x = cc->vals[t].buf;
	struct cc_buf src = x;
	int64_t dims[XRT_MAX_RANK + 1];
	uint32_t r, v = cc_new_val(cc);

	if (cc->err)
		return v;
	if (x.rank >= XRT_MAX_RANK) {
		cc_unimplemented(cc, "reduce-scatter of the highest rank with this to_apply");
		return v;
	}
	src.rank = x.rank + 1;
	src.dims[0] = s;
	src.strides[0] = x.strides[d] * (x.dims[d] / s);
	for (r = 0; r < x.rank; r++) {
		src.dims[r + 1] = r == d ? x.dims[d] / s : x.dims[r];
		src.strides[r + 1] = x.strides[r];
		dims[r + 1] = src.dims[r + 1];
	}
	dims[0] = s;
	if (!cc_alloc(cc, v, x.dtype, src.rank, dims)) {
		struct cc_buf dst = cc_dense(cc->vals[v].buf.slot, cc->vals[v].buf.offset,
					     x.dtype, src.rank, dims);

		cc_copy(cc, &dst, &src);
	}
	return v;
}

void cc_lower_collective_fold(struct cc *cc, uint32_t i, int64_t group)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct xrt_cs_view views[2 * XRT_CS_COLL_MAX_VIEWS];
	uint32_t n = in->num_operands, tmp[XRT_CS_COLL_MAX_VIEWS] = { 0 };
	uint32_t moved[XRT_CS_COLL_MAX_VIEWS] = { 0 }, v = cc_iv(cc, i), k, d = 0;
	bool scatter = in->op == XRT_OP_REDUCE_SCATTER, tuple = xrt_shape_is_tuple(&in->shape);
	int64_t s = group_size(cc, in, group);

	if (scatter)
		d = (uint32_t)ir_instr_attr(in, IR_ATTR_DIMENSIONS)->ints[0];
	for (k = 0; k < n && s && !cc->err; k++) {
		const struct xrt_shape *os = &cc->c->instrs[in->operands[k]].shape;
		uint64_t m = xrt_shape_element_count(os);
		int64_t g = s * (int64_t)m;

		moved[k] = cc_new_val(cc);
		if (scatter)
			move_views(cc, in, k, &tmp[k], moved[k], os->rank, os->dims, views);
		else
			move_views(cc, in, k, &tmp[k], moved[k], 1, &g, views);
		if (!scatter && !cc->err)	/* the operand as [M], gathered to [s M] */
			views[k] = cs_view_dense(views[k].slot, views[k].dtype, views[k].offset,
						 1, &m);
	}
	if (!cc->err && s)
		cs_collective(&cc->b, scatter ? XRT_CS_COLL_ALL_TO_ALL : XRT_CS_COLL_ALL_GATHER, 0,
			      d, (uint32_t)group, views, n);
	if (tuple && !cc->err)
		cc_tuple_init(cc, v, n);
	for (k = 0; k < n && s && !cc->err; k++) {
		const struct xrt_shape *rs = result_shape(in, k);
		uint32_t out = tuple ? cc_tuple_add(cc, v) : v, rows = moved[k];

		if (scatter)
			rows = chunk_major(cc, moved[k], d, s);
		if (!cc->err && !cc_alloc(cc, out, rs->dtype, rs->rank, rs->dims))
			cc_fold_rows(cc, in, out, rows, s,
				     (int64_t)xrt_shape_element_count(rs));
		if (scatter && rows)
			cc_release(cc, rows);
	}
	for (k = 0; k < n; k++) {
		if (tmp[k])
			cc_release(cc, tmp[k]);
		if (moved[k])
			cc_release(cc, moved[k]);
	}
}
