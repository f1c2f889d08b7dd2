// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DYNAMIC_SLICE and DYNAMIC_UPDATE_SLICE: a slice at starts read from
 * memory, clamped so that it stays inside the operand.
 */
#include "engine_internal.h"

static int dslice_check(struct vctx *v, const void *cmd, u32 size, int update)
{
	const struct xrt_cs_dynamic_slice *c = cmd;
	u64 olo, ohi, slo, shi;
	u32 d, r = c->operand.rank;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u,
				   "DYNAMIC_SLICE: size is not sizeof(struct xrt_cs_dynamic_slice)",
				   size, sizeof(*c));
	if (c->cmd.flags || c->reserved)
		return engine_fail(v, ~0u, "DYNAMIC_SLICE: flags or reserved not 0", 0, 0);
	if (engine_check_view(v, 0, &c->operand,
			      update ? XRT_CS_SLOT_WRITE : XRT_CS_SLOT_READ) ||
	    engine_check_view(v, 1, &c->slice,
			      update ? XRT_CS_SLOT_READ : XRT_CS_SLOT_WRITE))
		return -1;
	if (c->slice.rank != r || c->slice.dtype != c->operand.dtype)
		return engine_fail(v, 1,
				   "DYNAMIC_SLICE: slice rank or type differs from the operand's",
				   c->slice.rank, c->slice.dtype);
	for (d = 0; d < XRT_CS_MAX_RANK; d++) {
		if (d >= r) {
			if (!engine_zero(&c->starts[d], sizeof(c->starts[d])))
				return engine_fail(v, 2 + d,
						   "DYNAMIC_SLICE: start past the rank not 0",
						   d, 0);
			continue;
		}
		if (c->slice.dims[d] > c->operand.dims[d])
			return engine_fail(v, 1, "DYNAMIC_SLICE: slice larger than the operand",
					   d, c->slice.dims[d]);
		if (engine_check_index_scalar(v, 2 + d, &c->starts[d]))
			return -1;
	}
	engine_span_bytes(c->operand.offset, xs_dtype_size(c->operand.dtype), r,
			  c->operand.dims, c->operand.strides, &olo, &ohi);
	engine_span_bytes(c->slice.offset, xs_dtype_size(c->slice.dtype), r,
			  c->slice.dims, c->slice.strides, &slo, &shi);
	if (engine_overlap(c->operand.slot, olo, ohi, c->slice.slot, slo, shi))
		return engine_fail(v, 1, "DYNAMIC_SLICE: slice overlaps the operand", 0, 0);
	/* Starts are read by every item: nothing may write them. */
	for (d = 0; d < r; d++) {
		const struct xrt_cs_scalar *s = &c->starts[d];
		u64 lo = s->offset, hi = lo + xs_dtype_size(s->dtype);

		if (update ? engine_overlap(s->slot, lo, hi, c->operand.slot, olo, ohi) :
			     engine_overlap(s->slot, lo, hi, c->slice.slot, slo, shi))
			return engine_fail(v, 2 + d,
					   "DYNAMIC_SLICE: a start is in the written view",
					   d, 0);
	}
	return 0;
}

static int dslice_validate(struct vctx *v, const void *cmd, u32 size)
{
	return dslice_check(v, cmd, size, 0);
}

static int dupdate_validate(struct vctx *v, const void *cmd, u32 size)
{
	return dslice_check(v, cmd, size, 1);
}

static u64 dslice_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	const struct xrt_cs_dynamic_slice *c = cmd;

	return engine_elem_items(engine_count(c->slice.rank, c->slice.dims));
}

static void dslice_run_both(const struct xrt_engine_ctx *x,
			    const struct xrt_cs_dynamic_slice *c, u64 first,
			    u64 count, int update)
{
	const struct xrt_cs_view *op = &c->operand, *sl = &c->slice;
	u32 r = op->rank, es = xs_dtype_size(op->dtype), d;
	u64 n = engine_count(r, sl->dims), s0 = first * ENGINE_ITEM_ELEMS;
	s64 base = 0, os;
	struct row_iter it;
	u64 len;

	for (d = 0; d < r; d++) {
		const struct xrt_cs_scalar *s = &c->starts[d];
		s64 start = engine_read_index(engine_ptr(x, s->slot, s->offset), s->dtype);

		base += engine_clamp_start(start, op->dims[d], sl->dims[d]) * op->strides[d];
	}
	row_iter_init(&it, r, sl->dims, s0, engine_min(count * ENGINE_ITEM_ELEMS, n - s0));
	while (row_iter_next(&it, &len)) {
		u8 *o = engine_ptr(x, op->slot, op->offset) +
			(base + row_iter_offset(&it, op->strides)) * (s64)es;
		u8 *s = engine_ptr(x, sl->slot, sl->offset) +
			row_iter_offset(&it, sl->strides) * (s64)es;

		os = r ? op->strides[r - 1] : 1;
		if (update)
			engine_copy_strided(o, os, s, r ? sl->strides[r - 1] : 1, len, es);
		else
			engine_copy_strided(s, r ? sl->strides[r - 1] : 1, o, os, len, es);
		row_iter_advance(&it, len);
	}
}

static void dslice_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		       u64 first, u64 count, void *ws)
{
	dslice_run_both(x, cmd, first, count, 0);
}

static void dupdate_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
			u64 first, u64 count, void *ws)
{
	dslice_run_both(x, cmd, first, count, 1);
}

const struct cmd_ops engine_dslice_ops = {
	.name = "DYNAMIC_SLICE",
	.fixed_size = sizeof(struct xrt_cs_dynamic_slice),
	.validate = dslice_validate,
	.phases = engine_one_phase,
	.items = dslice_items,
	.run = dslice_run,
};

const struct cmd_ops engine_dupdate_ops = {
	.name = "DYNAMIC_UPDATE_SLICE",
	.fixed_size = sizeof(struct xrt_cs_dynamic_slice),
	.validate = dupdate_validate,
	.phases = engine_one_phase,
	.items = dslice_items,
	.run = dupdate_run,
};
