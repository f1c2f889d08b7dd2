// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SORT: a stable merge sort of each fiber along one dimension, keys
 * compared lexicographically (floats by total order), values moved with
 * them.  An item sorts whole fibers.
 */
#include "ew.h"

#define SORT_MAX_LEN	BIT_ULL(26)

static int sort_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_sort *c = cmd;
	u64 lo[8], hi[8], len, ws;
	u32 i, j;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "SORT: size is not sizeof(struct xrt_cs_sort)",
				   size, sizeof(*c));
	if ((c->cmd.flags & ~XRT_CS_SORT_DESCENDING) || c->pad)
		return engine_fail(v, ~0u, "SORT: unknown flags or padding not 0",
				   c->cmd.flags, 0);
	if (c->rank > XRT_CS_MAX_RANK || c->dim >= c->rank ||
	    !c->num_operands || c->num_operands > 8 ||
	    !c->num_keys || c->num_keys > c->num_operands)
		return engine_fail(v, ~0u, "SORT: rank, dim, operand or key count out of range",
				   c->dim, c->num_operands);
	for (i = c->rank; i < XRT_CS_MAX_RANK; i++) {
		if (c->dims[i])
			return engine_fail(v, ~0u, "SORT: dims past the rank not 0", i, 0);
	}
	for (i = 0; i < 8; i++) {
		const struct xrt_cs_operand *o = &c->operands[i];

		if (i >= c->num_operands) {
			if (!engine_zero(o, sizeof(*o)))
				return engine_fail(v, i, "SORT: unused operand not 0", i, 0);
			continue;
		}
		if (o->pad || o->flags != (XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT))
			return engine_fail(v, i, "SORT: operand flags not IN|OUT or padding not 0",
					   o->flags, 0);
		for (j = c->rank; j < XRT_CS_MAX_RANK; j++) {
			if (o->strides[j])
				return engine_fail(v, i, "strides past the rank not 0", j, 0);
		}
		if (engine_check_span(v, i, o->slot, o->dtype, o->offset, c->rank, c->dims,
				      o->strides, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE))
			return -1;
		if (i < c->num_keys && (o->dtype == XRT_CS_C64 || o->dtype == XRT_CS_C128))
			return engine_fail(v, i, "SORT: complex keys", o->dtype, 0);
		engine_span_bytes(o->offset, engine_dtype_size(o->dtype), c->rank, c->dims,
				  o->strides, &lo[i], &hi[i]);
		for (j = 0; j < i; j++) {
			if (engine_overlap(o->slot, lo[i], hi[i], c->operands[j].slot,
					   lo[j], hi[j]))
				return engine_fail(v, i, "SORT: operands overlap", i, j);
		}
	}
	len = c->dims[c->dim];
	if (len > SORT_MAX_LEN)
		return engine_fail(v, ~0u, "SORT: sorted dimension longer than 2^26", len, 0);
	ws = len * (2 * sizeof(u32) + 16);
	if (ws > v->prog->thread_ws_size)
		v->prog->thread_ws_size = ws;
	return 0;
}

static u64 fibers(const struct xrt_cs_sort *c)
{
	u64 n = 1;
	u32 d;

	for (d = 0; d < c->rank; d++)
		n *= d == c->dim ? 1 : c->dims[d];
	return c->dims[c->dim] ? n : 0;
}

static u64 fibers_per_item(const struct xrt_cs_sort *c)
{
	u64 per = ENGINE_ITEM_ELEMS / (c->dims[c->dim] ? c->dims[c->dim] : 1);

	return per ? per : 1;
}

static u64 sort_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	const struct xrt_cs_sort *c = cmd;

	return (fibers(c) + fibers_per_item(c) - 1) / fibers_per_item(c);
}

/* A key element as a signed integer that orders like the key. */
static s64 key_of(u32 t, const u8 *p)
{
	u8 reg[16];
	s64 k;
	u64 b;
	double d;

	ew_load(t, reg, p, 1, 1);
	switch (ew_class_of(t)) {
	case EW_INT:
		memcpy(&k, reg, 8);
		/* Unsigned 64-bit: flip the top bit so that signed order works. */
		return t == XRT_CS_U64 ? (s64)((u64)k ^ (1ull << 63)) : k;
	case EW_F32:
		d = *(float *)reg;
		break;
	default:
		memcpy(&d, reg, 8);
		break;
	}
	memcpy(&b, &d, 8);
	return (s64)b < 0 ? (s64)(~b | (1ull << 63)) : (s64)b;
}

struct fiber {
	const struct xrt_cs_sort *c;
	u8 *base[8];
	s64 stride[8];
	int desc;
};

/* -1, 0, 1: element i against element j, by the keys. */
static int cmp(const struct fiber *f, u32 i, u32 j)
{
	u32 k;

	for (k = 0; k < f->c->num_keys; k++) {
		u32 t = f->c->operands[k].dtype, es = engine_dtype_size(t);
		s64 a = key_of(t, f->base[k] + (s64)i * f->stride[k] * (s64)es);
		s64 b = key_of(t, f->base[k] + (s64)j * f->stride[k] * (s64)es);

		if (a != b)
			return (a < b) == !f->desc ? -1 : 1;
	}
	return 0;
}

/* Bottom-up stable merge sort of the permutation @p (length @n). */
static void merge_sort(const struct fiber *f, u32 *p, u32 *tmp, u32 n)
{
	u32 w, i, *src = p, *dst = tmp, *t;

	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			u32 a = i, am = engine_min(i + w, n), b = am, bm = engine_min(i + 2 * w, n);
			u32 o = i;

			while (a < am && b < bm)
				dst[o++] = cmp(f, src[b], src[a]) < 0 ? src[b++] : src[a++];
			while (a < am)
				dst[o++] = src[a++];
			while (b < bm)
				dst[o++] = src[b++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != p)
		memcpy(p, src, (size_t)n * sizeof(*p));
}

static void sort_fiber(const struct xrt_engine_ctx *x, const struct xrt_cs_sort *c,
		       u64 fib, void *ws)
{
	u32 n = (u32)c->dims[c->dim], i, k;
	u32 *perm = ws, *tmp = perm + n;
	u8 *vals = (u8 *)(tmp + n);
	u64 idx[XRT_CS_MAX_RANK];
	struct fiber f;
	int d;

	/* The fiber's index in the other dimensions, row-major. */
	for (d = (int)c->rank - 1; d >= 0; d--) {
		if ((u32)d == c->dim) {
			idx[d] = 0;
			continue;
		}
		idx[d] = fib % c->dims[d];
		fib /= c->dims[d];
	}
	f.c = c;
	f.desc = c->cmd.flags & XRT_CS_SORT_DESCENDING;
	for (k = 0; k < c->num_operands; k++) {
		const struct xrt_cs_operand *o = &c->operands[k];
		s64 off = 0;

		for (d = 0; d < c->rank; d++)
			off += (s64)idx[d] * o->strides[d];
		f.base[k] = engine_ptr(x, o->slot, o->offset) +
			    off * (s64)engine_dtype_size(o->dtype);
		f.stride[k] = o->strides[c->dim];
	}
	for (i = 0; i < n; i++)
		perm[i] = i;
	merge_sort(&f, perm, tmp, n);
	for (k = 0; k < c->num_operands; k++) {
		u32 es = engine_dtype_size(c->operands[k].dtype);

		for (i = 0; i < n; i++)
			memcpy(vals + (size_t)i * es,
			       f.base[k] + (s64)perm[i] * f.stride[k] * (s64)es, es);
		for (i = 0; i < n; i++)
			memcpy(f.base[k] + (s64)i * f.stride[k] * (s64)es,
			       vals + (size_t)i * es, es);
	}
}

static void sort_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		     u64 first, u64 count, void *ws)
{
	const struct xrt_cs_sort *c = cmd;
	u64 per = fibers_per_item(c), f, end = engine_min((first + count) * per, fibers(c));

	for (f = first * per; f < end; f++)
		sort_fiber(x, c, f, ws);
}

const struct cmd_ops engine_sort_ops = {
	.name = "SORT",
	.fixed_size = sizeof(struct xrt_cs_sort),
	.validate = sort_validate,
	.phases = engine_one_phase,
	.items = sort_items,
	.run = sort_run,
};
