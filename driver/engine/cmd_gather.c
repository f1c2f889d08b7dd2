// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * GATHER and SCATTER: windows of an operand at index vectors read from
 * memory.  GATHER clamps starts; SCATTER skips windows that leave the
 * operand (or clamps, on request) and applies windows in order, one
 * phase at a time, so overlapping windows combine deterministically.
 */
#include "ew.h"

/* Checks index_map and the shapes shared by both commands. */
static int check_indexing(struct vctx *v, const char *what, u32 k,
			  const u8 *index_map, const struct xrt_cs_view *operand,
			  const struct xrt_cs_view *indices,
			  const struct xrt_cs_view *window, int window_le)
{
	u32 r = operand->rank, j, d;
	u8 used[XRT_CS_MAX_RANK] = { 0 };

	if (k < 1 || k > XRT_CS_MAX_RANK)
		return engine_fail(v, ~0u, "index vector length not 1..8", k, 0);
	for (j = 0; j < XRT_CS_MAX_RANK; j++) {
		if (j >= k) {
			if (index_map[j])
				return engine_fail(v, ~0u, "index_map past the index length not 0",
						   j, 0);
			continue;
		}
		if (index_map[j] >= r || used[index_map[j]]++)
			return engine_fail(v, ~0u, "index_map entry out of range or repeated",
					   j, index_map[j]);
	}
	if (indices->rank != 2 || indices->dims[1] != k ||
	    !engine_is_int(indices->dtype))
		return engine_fail(v, 1, "indices not [n, k] integers",
				   indices->rank, indices->dtype);
	if (window->rank != r + 1 || window->dims[0] != indices->dims[0] ||
	    window->dtype != operand->dtype)
		return engine_fail(v, 2, "windows not [n, ...] of the operand's rank and type",
				   window->rank, window->dtype);
	for (d = 0; d < r && window_le; d++) {
		if (window->dims[1 + d] > operand->dims[d])
			return engine_fail(v, 2, "window larger than the operand", d,
					   window->dims[1 + d]);
	}
	(void)what;
	return 0;
}

static int apart(const struct xrt_cs_view *a, const struct xrt_cs_view *b)
{
	u64 alo, ahi, blo, bhi;

	engine_span_bytes(a->offset, xs_dtype_size(a->dtype), a->rank, a->dims,
			  a->strides, &alo, &ahi);
	engine_span_bytes(b->offset, xs_dtype_size(b->dtype), b->rank, b->dims,
			  b->strides, &blo, &bhi);
	return !engine_overlap(a->slot, alo, ahi, b->slot, blo, bhi);
}

static int gather_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_gather *c = cmd;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "GATHER: size is not sizeof(struct xrt_cs_gather)",
				   size, sizeof(*c));
	if (c->cmd.flags || c->pad)
		return engine_fail(v, ~0u, "GATHER: flags or padding not 0", 0, 0);
	if (engine_check_view(v, 0, &c->operand, XRT_CS_SLOT_READ) ||
	    engine_check_view(v, 1, &c->indices, XRT_CS_SLOT_READ) ||
	    engine_check_view(v, 2, &c->out, XRT_CS_SLOT_WRITE) ||
	    check_indexing(v, "GATHER", c->num_index_dims, c->index_map, &c->operand,
			   &c->indices, &c->out, 1))
		return -1;
	if (!apart(&c->out, &c->operand) || !apart(&c->out, &c->indices))
		return engine_fail(v, 2, "GATHER: out overlaps the operand or the indices",
				   0, 0);
	return 0;
}

/* The clamped (or, for scatter, raw) start of window @b. */
static void window_start(const struct xrt_engine_ctx *x,
			 const struct xrt_cs_view *indices, u32 k,
			 const u8 *index_map, u64 b, s64 *start)
{
	const u8 *row = engine_ptr(x, indices->slot, indices->offset);
	u32 es = xs_dtype_size(indices->dtype), j;

	for (j = 0; j < XRT_CS_MAX_RANK; j++)
		start[j] = 0;
	for (j = 0; j < k; j++)
		start[index_map[j]] = engine_read_index(row +
			((s64)b * indices->strides[0] + (s64)j * indices->strides[1]) *
			(s64)es, indices->dtype);
}

static u64 view_items(const struct xrt_cs_view *v)
{
	return engine_elem_items(engine_count(v->rank, v->dims));
}

static u64 gather_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	return view_items(&((const struct xrt_cs_gather *)cmd)->out);
}

/* Is each window one row of the operand's last dimension (a lookup)? */
static int one_row_windows(const struct xrt_cs_gather *c)
{
	u32 r = c->operand.rank, d;

	if (!r)
		return 0;
	for (d = 0; d + 1 < r; d++) {
		if (c->out.dims[1 + d] != 1)
			return 0;
	}
	return 1;
}

/*
 * Elements [s0, s0 + cnt) of one-row windows: a copy per window, its
 * start read and clamped once, without walking the index space.
 */
static void gather_rows(const struct xrt_engine_ctx *x, const struct xrt_cs_gather *c, u64 s0,
			u64 cnt)
{
	const struct xrt_cs_view *op = &c->operand, *out = &c->out, *ix = &c->indices;
	u32 r = op->rank, es = xs_dtype_size(op->dtype), ies = xs_dtype_size(ix->dtype), j;
	u64 w = out->dims[r], end = s0 + cnt, b;
	const u8 *base = engine_ptr(x, op->slot, op->offset);
	const u8 *irow = engine_ptr(x, ix->slot, ix->offset);
	u8 *dst = engine_ptr(x, out->slot, out->offset);

	if (c->num_index_dims == 1 && ix->dtype == XRT_CS_S32 && s0 % w == 0 && end % w == 0 &&
	    op->strides[r - 1] == 1 && out->strides[r] == 1) {
		/* the embedding lookup: s32 row numbers, whole dense rows */
		u32 d = c->index_map[0];
		s64 most = (s64)(op->dims[d] - out->dims[1 + d]), rs = op->strides[d] * (s64)es;
		s64 os = out->strides[0] * (s64)es, is = ix->strides[0];
		const s32 *iv = (const s32 *)irow;
		size_t bytes = (size_t)(w * es);

		for (b = s0 / w; b < end / w; b++) {
			s64 st = iv[(s64)b * is];

			st = st < 0 ? 0 : st > most ? most : st;
			memcpy(dst + (s64)b * os, base + st * rs, bytes);
		}
		return;
	}
	for (b = s0 / w; b * w < end; b++) {
		u64 lo = b * w > s0 ? 0 : s0 - b * w, hi = engine_min(end - b * w, w);
		s64 src = 0;

		for (j = 0; j < c->num_index_dims; j++) {
			u32 d = c->index_map[j];
			s64 st = engine_read_index(irow + ((s64)b * ix->strides[0] +
						   (s64)j * ix->strides[1]) * (s64)ies, ix->dtype);

			src += engine_clamp_start(st, op->dims[d], out->dims[1 + d]) *
			       op->strides[d];
		}
		engine_copy_strided(dst + ((s64)b * out->strides[0] +
				    (s64)lo * out->strides[r]) * (s64)es, out->strides[r],
				    base + (src + (s64)lo * op->strides[r - 1]) * (s64)es,
				    op->strides[r - 1], hi - lo, es);
	}
}

static void gather_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		       u64 first, u64 count, void *ws)
{
	const struct xrt_cs_gather *c = cmd;
	const struct xrt_cs_view *op = &c->operand, *out = &c->out;
	u32 r = op->rank, es = xs_dtype_size(op->dtype), d;
	u64 n = engine_count(out->rank, out->dims), s0 = first * ENGINE_ITEM_ELEMS;
	s64 start[XRT_CS_MAX_RANK], src;
	struct row_iter it;
	u64 len;

	if (one_row_windows(c)) {
		gather_rows(x, c, s0, engine_min(count * ENGINE_ITEM_ELEMS, n - s0));
		return;
	}

	row_iter_init(&it, out->rank, out->dims, s0,
		      engine_min(count * ENGINE_ITEM_ELEMS, n - s0));
	while (row_iter_next(&it, &len)) {
		window_start(x, &c->indices, c->num_index_dims, c->index_map,
			     it.index[0], start);
		src = 0;
		for (d = 0; d < r; d++)
			src += (engine_clamp_start(start[d], op->dims[d], out->dims[1 + d]) +
				(s64)it.index[1 + d]) * op->strides[d];
		engine_copy_strided(engine_ptr(x, out->slot, out->offset) +
				    row_iter_offset(&it, out->strides) * (s64)es,
				    out->strides[out->rank - 1],
				    engine_ptr(x, op->slot, op->offset) + src * (s64)es,
				    r ? op->strides[r - 1] : 0, len, es);
		row_iter_advance(&it, len);
	}
}

const struct cmd_ops engine_gather_ops = {
	.name = "GATHER",
	.fixed_size = sizeof(struct xrt_cs_gather),
	.validate = gather_validate,
	.phases = engine_one_phase,
	.items = gather_items,
	.run = gather_run,
};

/* Replace, or an element-wise reduction (not the arg- ones) on its types. */
static int combiner_ok(u32 combiner, u32 t)
{
	if (combiner == XRT_CS_SCATTER_REPLACE)
		return 1;
	return combiner >= XRT_CS_RED_SUM && combiner <= XRT_CS_RED_OR &&
	       engine_red_allows(combiner, t);
}

static int scatter_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_scatter *c = cmd;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "SCATTER: size is not sizeof(struct xrt_cs_scatter)",
				   size, sizeof(*c));
	if (c->cmd.flags || c->pad)
		return engine_fail(v, ~0u, "SCATTER: flags or padding not 0", 0, 0);
	if (c->mode != XRT_CS_SCATTER_SKIP && c->mode != XRT_CS_SCATTER_CLAMP)
		return engine_fail(v, ~0u, "SCATTER: unknown mode", c->mode, 0);
	if (engine_check_view(v, 0, &c->operand, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE) ||
	    engine_check_view(v, 1, &c->indices, XRT_CS_SLOT_READ) ||
	    engine_check_view(v, 2, &c->updates, XRT_CS_SLOT_READ) ||
	    check_indexing(v, "SCATTER", c->num_index_dims, c->index_map, &c->operand,
			   &c->indices, &c->updates, c->mode == XRT_CS_SCATTER_CLAMP))
		return -1;
	if (!combiner_ok(c->combiner, c->operand.dtype))
		return engine_fail(v, ~0u, "SCATTER: combiner does not take the type",
				   c->combiner, c->operand.dtype);
	if (!apart(&c->operand, &c->updates) || !apart(&c->operand, &c->indices))
		return engine_fail(v, 0, "SCATTER: operand overlaps the updates or indices",
				   0, 0);
	if (view_items(&c->updates) > 0x7fffffff)
		return engine_fail(v, 2, "SCATTER: too many updates", 0, 0);
	if (3 * EW_REG_BYTES > v->prog->thread_ws_size)
		v->prog->thread_ws_size = 3 * EW_REG_BYTES;
	return 0;
}

/* One phase per ENGINE_ITEM_ELEMS updates, one item each: in order. */
static u32 scatter_phases(const void *cmd)
{
	return (u32)view_items(&((const struct xrt_cs_scatter *)cmd)->updates);
}

static u64 scatter_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	return 1;
}

/* dst[i] = dst[i] (op) src[i] for a row of @n elements. */
static void combine_row(u32 combiner, u32 t, u8 *dst, s64 ds, const u8 *src,
			s64 ss, u64 n, u8 *regs)
{
	u32 es = xs_dtype_size(t);
	void *a = ew_reg(regs, 0), *b = ew_reg(regs, 1), *d = ew_reg(regs, 2);
	u64 off;

	if (combiner == XRT_CS_SCATTER_REPLACE) {
		engine_copy_strided(dst, ds, src, ss, n, es);
		return;
	}
	for (off = 0; off < n; off += EW_BLOCK) {
		u32 bn = (u32)engine_min(n - off, EW_BLOCK), fn = xs_red_binary(combiner);
		u8 *dp = dst + (s64)off * ds * (s64)es;

		ew_load(t, a, dp, ds, bn);
		ew_load(t, b, src + (s64)off * ss * (s64)es, ss, bn);
		ew_binary_of(fn, t, d, a, b, bn);
		ew_store(t, dp, ds, d, bn);
	}
}

static void scatter_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
			u64 first, u64 count, void *ws)
{
	const struct xrt_cs_scatter *c = cmd;
	const struct xrt_cs_view *op = &c->operand, *up = &c->updates;
	u32 r = op->rank, es = xs_dtype_size(op->dtype), d;
	u64 n = engine_count(up->rank, up->dims), s0 = (u64)phase * ENGINE_ITEM_ELEMS;
	s64 start[XRT_CS_MAX_RANK], dst;
	struct row_iter it;
	u64 len;

	row_iter_init(&it, up->rank, up->dims, s0, engine_min(ENGINE_ITEM_ELEMS, n - s0));
	while (row_iter_next(&it, &len)) {
		int skip = 0;

		window_start(x, &c->indices, c->num_index_dims, c->index_map,
			     it.index[0], start);
		for (d = 0; d < r; d++) {
			u64 w = up->dims[1 + d];

			if (c->mode == XRT_CS_SCATTER_CLAMP)
				start[d] = engine_clamp_start(start[d], op->dims[d], w);
			else if (start[d] < 0 || w > op->dims[d] ||
				 (u64)start[d] > op->dims[d] - w)
				skip = 1;
		}
		/* Only starts known to be inside may meet the strides. */
		dst = 0;
		for (d = 0; d < r && !skip; d++)
			dst += (start[d] + (s64)it.index[1 + d]) * op->strides[d];
		/*
		 * A scalar operand: the row runs over windows that all hit the
		 * one element, so they must combine one after another.
		 */
		if (!r && len > 1)
			len = 1;
		if (!skip)
			combine_row(c->combiner, op->dtype,
				    engine_ptr(x, op->slot, op->offset) + dst * (s64)es,
				    r ? op->strides[r - 1] : 0,
				    engine_ptr(x, up->slot, up->offset) +
				    row_iter_offset(&it, up->strides) * (s64)es,
				    up->strides[up->rank - 1], len, ws);
		row_iter_advance(&it, len);
	}
}

const struct cmd_ops engine_scatter_ops = {
	.name = "SCATTER",
	.fixed_size = sizeof(struct xrt_cs_scatter),
	.validate = scatter_validate,
	.phases = scatter_phases,
	.items = scatter_items,
	.run = scatter_run,
};
