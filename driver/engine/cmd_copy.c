// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * COPY: dst[i] = src[i] for every index i of one iteration space.
 */
#include "engine_internal.h"

static int copy_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_copy *c = cmd;
	u64 dlo, dhi, slo, shi;
	u32 i, es;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "COPY: size is not sizeof(struct xrt_cs_copy)",
				   size, sizeof(*c));
	if (c->cmd.flags || c->reserved)
		return engine_fail(v, ~0u, "COPY: flags or reserved not 0", 0, 0);
	if (engine_check_view(v, 0, &c->dst, XRT_CS_SLOT_WRITE) ||
	    engine_check_view(v, 1, &c->src, XRT_CS_SLOT_READ))
		return -1;
	if (c->dst.dtype != c->src.dtype)
		return engine_fail(v, ~0u, "COPY: dst and src element types differ",
				   c->dst.dtype, c->src.dtype);
	if (c->dst.rank != c->src.rank)
		return engine_fail(v, ~0u, "COPY: dst and src ranks differ",
				   c->dst.rank, c->src.rank);
	for (i = 0; i < c->dst.rank; i++) {
		if (c->dst.dims[i] != c->src.dims[i])
			return engine_fail(v, ~0u, "COPY: dst and src dims differ", i, 0);
	}
	es = xs_dtype_size(c->dst.dtype);
	engine_span_bytes(c->dst.offset, es, c->dst.rank, c->dst.dims,
			  c->dst.strides, &dlo, &dhi);
	engine_span_bytes(c->src.offset, es, c->src.rank, c->src.dims,
			  c->src.strides, &slo, &shi);
	if (engine_overlap(c->dst.slot, dlo, dhi, c->src.slot, slo, shi))
		return engine_fail(v, ~0u, "COPY: dst overlaps src", dlo, slo);
	return 0;
}

static u64 copy_items(const struct xrt_engine_ctx *x, const void *cmd,
		      u32 phase)
{
	const struct xrt_cs_copy *c = cmd;

	return engine_elem_items(engine_count(c->dst.rank, c->dst.dims));
}

static void copy_run(const struct xrt_engine_ctx *x, const void *cmd,
		     u32 phase, u64 first, u64 count, void *ws)
{
	const struct xrt_cs_copy *c = cmd;
	u32 es = xs_dtype_size(c->dst.dtype), r = c->dst.rank;
	u8 *dst = engine_ptr(x, c->dst.slot, c->dst.offset);
	const u8 *src = engine_ptr(x, c->src.slot, c->src.offset);
	u64 n = engine_count(r, c->dst.dims), start = first * ENGINE_ITEM_ELEMS;
	s64 ds = r ? c->dst.strides[r - 1] : 1, ss = r ? c->src.strides[r - 1] : 1;
	struct row_iter it;
	u64 len;

	row_iter_init(&it, r, c->dst.dims, start,
		      engine_min(count * ENGINE_ITEM_ELEMS, n - start));
	while (row_iter_next(&it, &len)) {
		engine_copy_strided(dst + row_iter_offset(&it, c->dst.strides) * es, ds,
				    src + row_iter_offset(&it, c->src.strides) * es, ss,
				    len, es);
		row_iter_advance(&it, len);
	}
}

const struct cmd_ops engine_copy_ops = {
	.name = "COPY",
	.fixed_size = sizeof(struct xrt_cs_copy),
	.validate = copy_validate,
	.phases = engine_one_phase,
	.items = copy_items,
	.run = copy_run,
};
