// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * FILL: a constant, each element's index along one dimension (iota),
 * or the id of the replica or partition the job runs as.
 */
#include "engine_internal.h"

static int fill_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_fill *c = cmd;
	u32 es;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "FILL: size is not sizeof(struct xrt_cs_fill)",
				   size, sizeof(*c));
	if (c->cmd.flags)
		return engine_fail(v, ~0u, "FILL: flags not 0", c->cmd.flags, 0);
	if (engine_check_view(v, 0, &c->dst, XRT_CS_SLOT_WRITE))
		return -1;
	es = xs_dtype_size(c->dst.dtype);
	switch (c->mode) {
	case XRT_CS_FILL_CONSTANT:
		if (c->iota_dim)
			return engine_fail(v, ~0u, "FILL: iota_dim set for a constant",
					   c->iota_dim, 0);
		if (!engine_zero((const u8 *)c->value + es, sizeof(c->value) - es))
			return engine_fail(v, ~0u, "FILL: value bytes past the element size not 0",
					   es, 0);
		if (c->dst.dtype == XRT_CS_PRED && c->value[0] > 1)
			return engine_fail(v, ~0u, "FILL: pred value not 0 or 1",
					   c->value[0], 0);
		return 0;
	case XRT_CS_FILL_IOTA:
		if (c->iota_dim >= c->dst.rank)
			return engine_fail(v, ~0u, "FILL: iota_dim not below the rank",
					   c->iota_dim, c->dst.rank);
		if (c->dst.dtype == XRT_CS_PRED)
			return engine_fail(v, ~0u, "FILL: iota of pred", 0, 0);
		if (!engine_zero(c->value, sizeof(c->value)))
			return engine_fail(v, ~0u, "FILL: value not 0 for an iota", 0, 0);
		return 0;
	case XRT_CS_FILL_REPLICA_ID:
	case XRT_CS_FILL_PARTITION_ID:
		if (c->iota_dim || !engine_zero(c->value, sizeof(c->value)))
			return engine_fail(v, ~0u, "FILL: iota_dim or value set for an id",
					   c->iota_dim, 0);
		if (c->dst.dtype == XRT_CS_PRED)
			return engine_fail(v, ~0u, "FILL: an id as pred", 0, 0);
		return 0;
	}
	return engine_fail(v, ~0u, "FILL: unknown mode", c->mode, 0);
}

static u64 fill_items(const struct xrt_engine_ctx *x, const void *cmd,
		      u32 phase)
{
	const struct xrt_cs_fill *c = cmd;

	return engine_elem_items(engine_count(c->dst.rank, c->dst.dims));
}

/* Writes index @i as an element of @dtype (complex: the real part). */
static void encode_index(u8 *p, u32 dtype, u64 i)
{
	float f;
	double d;
	u16 h;

	memset(p, 0, xs_dtype_size(dtype));
	if (xs_is_small_float(dtype)) {	/* rounded once: odd, then sticky */
		*p = xs_f32_to_small(dtype, xs_f64_to_f32_sticky(xs_u64_to_f64_odd(i)));
		return;
	}
	if (xs_is_sub_byte_int(dtype)) {
		*p = (u8)xs_int_bits(dtype, (s64)i);
		return;
	}
	switch (dtype) {
	case XRT_CS_F16:
		h = engine_f64_to_f16((double)i);
		memcpy(p, &h, 2);
		break;
	case XRT_CS_BF16:
		h = xs_f64_to_bf16((double)i);
		memcpy(p, &h, 2);
		break;
	case XRT_CS_F32:
	case XRT_CS_C64:
		f = (float)i;
		memcpy(p, &f, 4);
		break;
	case XRT_CS_F64:
	case XRT_CS_C128:
		d = (double)i;
		memcpy(p, &d, 8);
		break;
	default:	/* integers wrap: the low bytes */
		memcpy(p, &i, xs_dtype_size(dtype));
		break;
	}
}

static void fill_row(u8 *p, s64 stride, u64 n, const u8 *elem, u32 es)
{
	u64 i;

	if (es == 1 && stride == 1) {
		memset(p, elem[0], n);
		return;
	}
	for (i = 0; i < n; i++)
		memcpy(p + (s64)i * stride * es, elem, es);
}

static void fill_run(const struct xrt_engine_ctx *x, const void *cmd,
		     u32 phase, u64 first, u64 count, void *ws)
{
	const struct xrt_cs_fill *c = cmd;
	u32 es = xs_dtype_size(c->dst.dtype), r = c->dst.rank;
	u8 *base = engine_ptr(x, c->dst.slot, c->dst.offset);
	u64 n = engine_count(r, c->dst.dims), start = first * ENGINE_ITEM_ELEMS;
	s64 stride = r ? c->dst.strides[r - 1] : 1;
	struct row_iter it;
	u8 elem[16];
	u64 len, j;

	row_iter_init(&it, r, c->dst.dims, start,
		      engine_min(count * ENGINE_ITEM_ELEMS, n - start));
	while (row_iter_next(&it, &len)) {
		u8 *p = base + row_iter_offset(&it, c->dst.strides) * es;

		if (c->mode == XRT_CS_FILL_CONSTANT) {
			fill_row(p, stride, len, (const u8 *)c->value, es);
		} else if (c->mode != XRT_CS_FILL_IOTA) {
			encode_index(elem, c->dst.dtype, c->mode == XRT_CS_FILL_REPLICA_ID ?
				     x->replica_id : x->partition_id);
			fill_row(p, stride, len, elem, es);
		} else if (c->iota_dim != r - 1) {
			encode_index(elem, c->dst.dtype, it.index[c->iota_dim]);
			fill_row(p, stride, len, elem, es);
		} else {
			for (j = 0; j < len; j++) {
				encode_index(elem, c->dst.dtype, it.index[r - 1] + j);
				memcpy(p + (s64)j * stride * es, elem, es);
			}
		}
		row_iter_advance(&it, len);
	}
}

const struct cmd_ops engine_fill_ops = {
	.name = "FILL",
	.fixed_size = sizeof(struct xrt_cs_fill),
	.validate = fill_validate,
	.phases = engine_one_phase,
	.items = fill_items,
	.run = fill_run,
};
