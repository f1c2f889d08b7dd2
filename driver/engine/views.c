// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Views: bounds checks at validation, iteration and strided copies at
 * run time.
 */
#include "engine_internal.h"

#define LIMIT BIT_ULL(62)

u64 engine_count(u32 rank, const u64 *dims)
{
	u64 n = 1;
	u32 i;

	for (i = 0; i < rank; i++)
		n *= dims[i];
	return n;
}

/* Checks dims and their element count; 0 or -1. */
static int check_dims(struct vctx *v, u32 part, u32 rank, const u64 *dims)
{
	u64 n = 1;
	u32 i;

	if (rank > XRT_CS_MAX_RANK)
		return engine_fail(v, part, "rank above 8", rank, 0);
	for (i = 0; i < rank; i++) {
		if (dims[i] > LIMIT)
			return engine_fail(v, part, "dimension above 2^62", i, dims[i]);
		if (check_mul_overflow(n, dims[i], &n) || n > LIMIT)
			return engine_fail(v, part, "more than 2^62 elements", i, 0);
	}
	return 0;
}

/* The magnitude of a stride; INT64_MIN's, 2^63, too. */
static u64 stride_abs(s64 s)
{
	return s < 0 ? -(u64)s : (u64)s;
}

/*
 * How far a view reaches from its first element, in elements: *neg
 * before it and *pos after it.  0, or -1 when a stride (in bytes) or the
 * sum of the dims' extents passes 2^62.  Only dims already checked, none 0.
 */
static int view_extent(struct vctx *v, u32 part, u32 esize, u32 rank,
		       const u64 *dims, const s64 *strides, u64 *pos, u64 *neg)
{
	u64 ext, *side;
	u32 i;

	*pos = 0;
	*neg = 0;
	for (i = 0; i < rank; i++) {
		/*
		 * Executors turn every stride into bytes, also along a
		 * dimension of 1 that it never moves along: in bytes too it
		 * must stay within 2^62.
		 */
		if (stride_abs(strides[i]) > LIMIT / esize ||
		    check_mul_overflow(dims[i] - 1, stride_abs(strides[i]), &ext) ||
		    ext > LIMIT)
			return engine_fail(v, part, "stride too large", i,
					   (u64)strides[i]);
		side = strides[i] < 0 ? neg : pos;
		if (check_add_overflow(*side, ext, side) || *side > LIMIT)
			return engine_fail(v, part, "view spans more than 2^62 elements",
					   i, 0);
	}
	return 0;
}

static int empty(u32 rank, const u64 *dims)
{
	u32 i;

	for (i = 0; i < rank; i++) {
		if (!dims[i])
			return 1;
	}
	return 0;
}

/* The index of a view's last element; ~0 when the sum wraps. */
static u64 last_element(u64 first, u64 pos)
{
	u64 last;

#ifdef XRT_ENGINE_PLANTED_SPAN_WRAP
	/*
	 * Test builds only (selftests/fuzz): the unchecked sum this check
	 * once had, which wraps for 1-byte elements at offsets near 2^64.
	 * The structure-aware fuzzer must find it.
	 */
	last = first + pos;
	return last;
#else
	return check_add_overflow(first, pos, &last) ? ~0ull : last;
#endif
}

/*
 * Every byte of every element the view names lies inside the slot:
 * offset <= size, the first element minus what negative strides reach
 * is at least element 0, and the first element plus what positive ones
 * reach is below size / esize.  Each sum and product is checked, so no
 * value of offset, dims or strides can wrap past a bound.
 */
int engine_check_span(struct vctx *v, u32 part, u32 slot, u32 dtype,
		      u64 offset, u32 rank, const u64 *dims,
		      const s64 *strides, u32 need)
{
	const struct xrt_cs_slot *s;
	u64 pos, neg, first;
	u32 esize;

	if (slot >= v->prog->num_slots)
		return engine_fail(v, part, "slot out of range", slot,
				   v->prog->num_slots);
	s = &v->prog->slots[slot];
	esize = xs_dtype_size(dtype);
	if (!esize)
		return engine_fail(v, part, "unknown element type", dtype, 0);
	if ((s->flags & need) != need)
		return engine_fail(v, part, need == XRT_CS_SLOT_WRITE ?
				   "writes a slot not marked WRITE" :
				   "reads a slot not marked READ", slot, 0);
	if (offset % esize)
		return engine_fail(v, part, "offset not a multiple of the element size",
				   offset, esize);
	if (check_dims(v, part, rank, dims))
		return -1;
#ifndef XRT_ENGINE_PLANTED_SPAN_WRAP
	if (offset > s->size)
		return engine_fail(v, part, "view starts past the end of its slot",
				   offset, s->size);
#endif
	if (empty(rank, dims))
		return 0;	/* reaches nothing */
	if (view_extent(v, part, esize, rank, dims, strides, &pos, &neg))
		return -1;
	first = offset / esize;
	if (neg > first)
		return engine_fail(v, part, "view reaches before its slot",
				   offset, neg);
	if (last_element(first, pos) >= s->size / esize)
		return engine_fail(v, part, "view reaches past the end of its slot",
				   offset, s->size);
	return 0;
}

int engine_check_view(struct vctx *v, u32 part, const struct xrt_cs_view *view,
		      u32 need)
{
	u32 i;

	if (view->pad)
		return engine_fail(v, part, "view padding not 0", 0, 0);
	if (view->rank > XRT_CS_MAX_RANK)
		return engine_fail(v, part, "rank above 8", view->rank, 0);
	for (i = view->rank; i < XRT_CS_MAX_RANK; i++) {
		if (view->dims[i] || view->strides[i])
			return engine_fail(v, part, "dims or strides past the rank not 0",
					   i, 0);
	}
	return engine_check_span(v, part, view->slot, view->dtype, view->offset,
				 view->rank, view->dims, view->strides, need);
}

int engine_check_scalar(struct vctx *v, u32 part,
			const struct xrt_cs_scalar *s, u32 dtype)
{
	if (!engine_zero(s->pad, sizeof(s->pad)))
		return engine_fail(v, part, "scalar padding not 0", 0, 0);
	if (s->dtype != dtype)
		return engine_fail(v, part, "scalar of the wrong element type",
				   s->dtype, dtype);
	return engine_check_span(v, part, s->slot, s->dtype, s->offset, 0, 0, 0,
				 XRT_CS_SLOT_READ);
}

void row_iter_init(struct row_iter *it, u32 rank, const u64 *dims, u64 first,
		   u64 count)
{
	int d;

	it->rank = rank;
	it->dims = dims;
	it->left = count;
	if (!count)
		return;
	for (d = (int)rank - 1; d >= 0; d--) {
		it->index[d] = first % dims[d];
		first /= dims[d];
	}
}

u64 row_iter_next(struct row_iter *it, u64 *len)
{
	u64 inner, n;

	if (!it->left)
		return *len = 0;
	if (!it->rank)
		return *len = 1;
	inner = it->dims[it->rank - 1];
	n = engine_min(inner - it->index[it->rank - 1], it->left);
	*len = n;
	return n;
}

/* Moves past the row just returned by row_iter_next(). */
void row_iter_advance(struct row_iter *it, u64 len)
{
	int d = (int)it->rank - 1;

	it->left -= len;
	if (d < 0)
		return;
	it->index[d] += len;
	while (d > 0 && it->index[d] == it->dims[d]) {
		it->index[d] = 0;
		it->index[--d]++;
	}
}

s64 row_iter_offset(const struct row_iter *it, const s64 *strides)
{
	s64 off = 0;
	u32 i;

	for (i = 0; i < it->rank; i++)
		off += (s64)it->index[i] * strides[i];
	return off;
}

void engine_copy_strided(u8 *dst, s64 dstride, const u8 *src, s64 sstride,
			 u64 n, u32 esize)
{
	u64 i;

	if (dstride == 1 && sstride == 1) {
		memcpy(dst, src, n * esize);
		return;
	}
	switch (esize) {
	case 1:
		for (i = 0; i < n; i++)
			dst[(s64)i * dstride] = src[(s64)i * sstride];
		break;
	case 2:
		for (i = 0; i < n; i++)
			memcpy(dst + (s64)i * dstride * 2, src + (s64)i * sstride * 2, 2);
		break;
	case 4:
		for (i = 0; i < n; i++)
			memcpy(dst + (s64)i * dstride * 4, src + (s64)i * sstride * 4, 4);
		break;
	case 8:
		for (i = 0; i < n; i++)
			memcpy(dst + (s64)i * dstride * 8, src + (s64)i * sstride * 8, 8);
		break;
	default:
		for (i = 0; i < n; i++)
			memcpy(dst + (s64)i * dstride * 16, src + (s64)i * sstride * 16, 16);
		break;
	}
}

void engine_span_bytes(u64 offset, u32 esize, u32 rank, const u64 *dims,
		       const s64 *strides, u64 *lo, u64 *hi)
{
	u64 pos = 0, neg = 0, ext, *side;
	u32 i;

	if (empty(rank, dims)) {
		*lo = offset;
		*hi = offset;
		return;
	}
	for (i = 0; i < rank; i++) {
		side = strides[i] < 0 ? &neg : &pos;
		if (check_mul_overflow(dims[i] - 1, stride_abs(strides[i]), &ext) ||
		    check_add_overflow(*side, ext, side))
			goto all;
	}
	if (check_mul_overflow(neg, (u64)esize, &neg) ||
	    check_sub_overflow(offset, neg, lo) ||
	    check_add_overflow(pos, 1ull, &pos) ||
	    check_mul_overflow(pos, (u64)esize, &pos) ||
	    check_add_overflow(offset, pos, hi))
		goto all;
	return;
all:
	/* Not a checked view: say it may meet anything. */
	*lo = 0;
	*hi = ~0ull;
}

int engine_overlap(u32 slot_a, u64 lo_a, u64 hi_a, u32 slot_b, u64 lo_b,
		   u64 hi_b)
{
	return slot_a == slot_b && lo_a < hi_b && lo_b < hi_a;
}

int engine_is_int(u32 dtype)
{
	return (dtype >= XRT_CS_S8 && dtype <= XRT_CS_U64) || xs_is_sub_byte_int(dtype);
}

s64 engine_read_index(const u8 *p, u32 dtype)
{
	union { s8 s8; u8 u8; s16 s16; u16 u16; s32 s32; u32 u32; s64 s64;
		u64 u64; } v;
	u32 es = xs_dtype_size(dtype);

	memcpy(&v, p, es < sizeof(v) ? es : sizeof(v));	/* an integer type: at most 8 */
	if (xs_is_sub_byte_int(dtype))	/* the value is in the low bits */
		return xs_int_wrap(dtype, v.u8);
	switch (dtype) {
	case XRT_CS_S8:
		return v.s8;
	case XRT_CS_U8:
		return v.u8;
	case XRT_CS_S16:
		return v.s16;
	case XRT_CS_U16:
		return v.u16;
	case XRT_CS_S32:
		return v.s32;
	case XRT_CS_U32:
		return v.u32;
	case XRT_CS_U64:	/* beyond s64: as far out as it gets */
		return v.u64 >> 63 ? (s64)(~0ull >> 1) : (s64)v.u64;
	default:
		return v.s64;
	}
}

s64 engine_clamp_start(s64 start, u64 dim, u64 size)
{
	s64 hi = (s64)(dim - size);

	return start < 0 ? 0 : start > hi ? hi : start;
}

int engine_check_index_scalar(struct vctx *v, u32 part,
			      const struct xrt_cs_scalar *s)
{
	if (!engine_is_int(s->dtype))
		return engine_fail(v, part, "index scalar not of an integer type",
				   s->dtype, 0);
	return engine_check_scalar(v, part, s, s->dtype);
}
