// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SORT: a stable sort of each fiber along one dimension, keys compared
 * lexicographically (floats by total order), values moved with them.
 * An item sorts whole fibers.
 *
 * Each key element becomes an unsigned integer of the key's width that
 * orders as the key does, and the fiber's permutation is sorted by
 * radix, least significant byte first and the last key first: every
 * pass is stable, so the whole is stable and lexicographic.  That is
 * linear in the fiber's length, a pass per key byte (passes over a byte
 * all keys share are skipped), uses no floating point, and offers the
 * executor a chance to yield every SORT_YIELD_ELEMS elements of work:
 * the kernel runs an item with preemption off.
 */
#include "ew.h"
#include "sort.h"

#define SORT_MAX_LEN	BIT_ULL(26)

/* One fiber's buffers, at the start of the thread's workspace. */
struct sort_ws {
	u32 *perm, *perm2;
	u64 *key, *key2;
	u32 count[8][256];
};

static int sort_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_sort *c = cmd;
	u64 lo[8], hi[8], len, ws;
	u32 i, j;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "SORT: size is not sizeof(struct xrt_cs_sort)",
				   size, sizeof(*c));
	if ((c->cmd.flags & ~(XRT_CS_SORT_DESCENDING | XRT_CS_SORT_BY_VALUE |
			      XRT_CS_SORT_IEEE_MERGE)) || c->pad)
		return engine_fail(v, ~0u, "SORT: unknown flags or padding not 0",
				   c->cmd.flags, 0);
	if ((c->cmd.flags & XRT_CS_SORT_BY_VALUE) && (c->cmd.flags & XRT_CS_SORT_IEEE_MERGE))
		return engine_fail(v, ~0u, "SORT: BY_VALUE and IEEE_MERGE together",
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
		if (i < c->num_keys &&
		    (xs_is_small_float(o->dtype) || xs_is_sub_byte_int(o->dtype)))
			return engine_fail(v, i, "SORT: keys of a small float or sub-byte type",
					   o->dtype, 0);
		engine_span_bytes(o->offset, xs_dtype_size(o->dtype), c->rank, c->dims,
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
	if (engine_sort_wide(c)) {	/* its buffers shared */
		ws = engine_sort_wide_thread(c);
		if (engine_sort_wide_shared(c) > v->prog->shared_ws_size)
			v->prog->shared_ws_size = engine_sort_wide_shared(c);
	} else {
		ws = sizeof(struct sort_ws) + len * (2 * sizeof(u32) + 2 * sizeof(u64));
	}
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

static u32 sort_phases(const void *cmd)
{
	return engine_sort_wide(cmd) ? engine_sort_wide_phases(cmd) : 1;
}

static u64 sort_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	const struct xrt_cs_sort *c = cmd;

	if (engine_sort_wide(c))
		return engine_sort_wide_items(c, phase);
	return (fibers(c) + fibers_per_item(c) - 1) / fibers_per_item(c);
}

/*
 * Counts @elems of work about to be done, yielding once SORT_YIELD_ELEMS
 * have gathered; sets f->stop when the item must be abandoned.
 */
void engine_sort_tick(struct fiber *f, u32 elems)
{
	f->work += elems;
	if (f->work >= SORT_YIELD_ELEMS && f->x->yield) {
		f->work = 0;
		f->stop = f->stop || f->x->yield(f->x->yield_arg);
	}
}

/* Element @i of operand @k: its bits. */
u64 engine_sort_load(const struct fiber *f, u32 k, u32 i)
{
	u32 es = xs_dtype_size(f->c->operands[k].dtype);
	const u8 *p = f->base[k] + (s64)i * f->stride[k];
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64;

	switch (es) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/* Stores @v, an element's bits, as element @i of operand @k. */
void engine_sort_store(const struct fiber *f, u32 k, u32 i, u64 v)
{
	u32 es = xs_dtype_size(f->c->operands[k].dtype);
	u8 *p = f->base[k] + (s64)i * f->stride[k], v8 = (u8)v;
	u16 v16 = (u16)v;
	u32 v32 = (u32)v;

	switch (es) {
	case 1:
		memcpy(p, &v8, 1);
		break;
	case 2:
		memcpy(p, &v16, 2);
		break;
	case 4:
		memcpy(p, &v32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

/* Bits of +inf, and the top fraction bit (a quiet NaN's), of float type @t. */
static u64 float_inf(u32 t)
{
	return t == XRT_CS_F16 ? 0x7c00 : t == XRT_CS_BF16 ? 0x7f80 :
	       t == XRT_CS_F32 ? 0x7f800000 : 0x7ff0000000000000ull;
}

static u64 float_quiet(u32 t)
{
	return t == XRT_CS_F16 ? 0x200 : t == XRT_CS_BF16 ? 0x40 :
	       t == XRT_CS_F32 ? 0x400000 : 0x8000000000000ull;
}

/*
 * The bits @b of a key operand @k element as an unsigned integer of the
 * key's width that orders as the key does: floats in total order (a NaN
 * of up to 32 bits quieted first, as widening it to double would; by
 * value, zeros as +0 and NaNs as one positive NaN), signed integers by
 * their flipped sign bit; inverted for a descending sort.
 */
u64 engine_sort_order(const struct fiber *f, u32 k, u64 b)
{
	u32 t = f->c->operands[k].dtype, es = xs_dtype_size(t);
	u64 top = 1ull << (8 * es - 1), mask = top | (top - 1);

	switch (t) {
	case XRT_CS_F16:
	case XRT_CS_BF16:
	case XRT_CS_F32:
	case XRT_CS_F64:
		/* exponent all ones and a fraction: a NaN */
		if ((b & ~top) > float_inf(t) && t != XRT_CS_F64)
			b |= float_quiet(t);
		if (f->c->cmd.flags & (XRT_CS_SORT_BY_VALUE | XRT_CS_SORT_IEEE_MERGE)) {
			if ((b & ~top) > float_inf(t))
				b = float_inf(t) | float_quiet(t);
			else if (!(b & ~top))
				b = 0;
		}
		b = b & top ? ~b & mask : b | top;
		break;
	case XRT_CS_S8:
	case XRT_CS_S16:
	case XRT_CS_S32:
	case XRT_CS_S64:
		b ^= top;
		break;
	default:
		break;
	}
	return f->c->cmd.flags & XRT_CS_SORT_DESCENDING ? ~b & mask : b;
}

/* The end of the block of work starting at @i: SORT_YIELD_ELEMS at most. */
u32 engine_sort_block_end(const struct fiber *f, u32 i)
{
	return (u32)engine_min(f->n, (u64)i + SORT_YIELD_ELEMS);
}

/* A byte's histogram @count becomes each value's first place. */
static void starts(u32 *count)
{
	u32 i, sum = 0, c;

	for (i = 0; i < 256; i++) {
		c = count[i];
		count[i] = sum;
		sum += c;
	}
}

/*
 * One stable counting pass by the byte at bit @shift of the keys, from
 * (perm, key) into (perm2, key2), which are then swapped; @count is that
 * byte's histogram, turned into starting positions here.  @packed: the
 * keys hold their element's index in their low 32 bits, and perm is not
 * kept (keys of up to 32 bits travel in one word with their index).
 */
static void radix_pass(struct fiber *f, struct sort_ws *w, u32 *count, u32 shift, int packed)
{
	u32 i, end, *pt;
	u32 *perm = w->perm, *perm2 = w->perm2;
	u64 *key = w->key, *key2 = w->key2;

	starts(count);
	for (i = 0; i < f->n && !f->stop; i = end) {
		end = engine_sort_block_end(f, i);
		engine_sort_tick(f, end - i);
		for (; i < end; i++) {
			u32 to = count[(key[i] >> shift) & 255]++;

			key2[to] = key[i];
			if (!packed)
				perm2[to] = perm[i];
		}
	}
	pt = w->perm;
	w->perm = w->perm2;
	w->perm2 = pt;
	w->key = key2;
	w->key2 = key;
}

/*
 * Stable insertion sort of a short fiber's keys (and perm with them) by
 * key >> @shift: cheaper there than radix passes, which clear and scan a
 * histogram of 256 counts a key byte whatever the length.
 */
static void insertion_sort(struct fiber *f, struct sort_ws *w, u32 shift)
{
	u32 i, j, p;
	u64 key;

	for (i = 1; i < f->n; i++) {
		key = w->key[i];
		p = w->perm[i];
		for (j = i; j > 0 && w->key[j - 1] >> shift > key >> shift; j--) {
			w->key[j] = w->key[j - 1];
			w->perm[j] = w->perm[j - 1];
		}
		w->key[j] = key;
		w->perm[j] = p;
	}
}

/*
 * Orders w->perm by key @k, stably: the key in the permutation's order,
 * then one radix pass for each byte in which not all keys agree (or, for
 * a short fiber, an insertion sort).
 */
static void sort_by_key(struct fiber *f, struct sort_ws *w, u32 k)
{
	u32 es = xs_dtype_size(f->c->operands[k].dtype), i, end, b;
	int packed = es <= 4, small = f->n <= SORT_SMALL;
	u32 shift = packed ? 32 : 0;

	if (!small)
		memset(w->count, 0, es * sizeof(w->count[0]));
	for (i = 0; i < f->n && !f->stop; i = end) {
		end = engine_sort_block_end(f, i);
		engine_sort_tick(f, end - i);
		for (; i < end; i++) {
			u64 raw = engine_sort_load(f, k, w->perm[i]);
			u64 key = engine_sort_order(f, k, raw);

			/* the element's own bits where they are all that moves */
			w->key[i] = packed ? key << 32 | (f->direct ? raw : w->perm[i]) : key;
			for (b = 0; b < es && !small; b++)
				w->count[b][(key >> (8 * b)) & 255]++;
		}
	}
	if (small)
		insertion_sort(f, w, shift);
	for (b = 0; b < es && !small && !f->stop; b++) {
		if (w->count[b][(w->key[0] >> (shift + 8 * b)) & 255] != f->n)
			radix_pass(f, w, w->count[b], shift + 8 * b, packed);
	}
	for (i = 0; packed && !f->direct && i < f->n && !f->stop; i++)
		w->perm[i] = (u32)w->key[i];
}

/* The bits whose engine_sort_order() are @k, for a key of 4 bytes, if injective there. */
static u32 unorder32(const struct fiber *f, u32 k)
{
	u32 t = f->c->operands[0].dtype, top = 0x80000000u;

	if (f->c->cmd.flags & XRT_CS_SORT_DESCENDING)
		k = ~k;
	if (t == XRT_CS_F32)
		return k & top ? k & ~top : ~k;
	return t == XRT_CS_S32 ? k ^ top : k;
}

/*
 * A lone key of 4 bytes sorts as 4-byte words alone, half the memory of
 * the packed form, where engine_sort_order() loses nothing: no NaN it quiets,
 * no -0 or NaN BY_VALUE merges with another.  Returns 0, having written nothing and left
 * the identity permutation, where some element's key does not give its
 * bits back.
 */
static int sort_words(struct fiber *f, struct sort_ws *w)
{
	u32 *key = w->perm, *key2 = w->perm2, *tmp, i, end, b;

	memset(w->count, 0, 4 * sizeof(w->count[0]));
	for (i = 0; i < f->n && !f->stop; i = end) {
		end = engine_sort_block_end(f, i);
		engine_sort_tick(f, end - i);
		for (; i < end; i++) {
			u32 raw = (u32)engine_sort_load(f, 0, i);
			u32 k = (u32)engine_sort_order(f, 0, raw);

			if (unorder32(f, k) != raw) {
				while (i--)	/* the permutation's start again */
					key[i] = i;
				return 0;
			}
			key[i] = k;
			for (b = 0; b < 4; b++)
				w->count[b][(k >> (8 * b)) & 255]++;
		}
	}
	for (b = 0; b < 4 && !f->stop; b++) {
		u32 *count = w->count[b];

		if (count[(key[0] >> (8 * b)) & 255] == f->n)
			continue;	/* a byte every key shares */
		starts(count);
		for (i = 0; i < f->n && !f->stop; i = end) {
			end = engine_sort_block_end(f, i);
			engine_sort_tick(f, end - i);
			for (; i < end; i++)
				key2[count[(key[i] >> (8 * b)) & 255]++] = key[i];
		}
		tmp = key;
		key = key2;
		key2 = tmp;
	}
	for (i = 0; i < f->n && !f->stop; i = end) {
		end = engine_sort_block_end(f, i);
		engine_sort_tick(f, end - i);
		for (; i < end; i++)
			engine_sort_store(f, 0, i, unorder32(f, key[i]));
	}
	return 1;
}

/* Moves each operand's elements to the places w->perm gives them. */
static void permute(struct fiber *f, struct sort_ws *w)
{
	u8 *vals = (u8 *)w->key;	/* 16 bytes an element: key and key2 */
	u32 k, i, end;

	for (k = 0; k < f->c->num_operands; k++) {
		u32 es = xs_dtype_size(f->c->operands[k].dtype);
		u8 *base = f->base[k];
		s64 stride = f->stride[k];

		for (i = 0; i < f->n; i = end) {
			end = engine_sort_block_end(f, i);
			engine_sort_tick(f, end - i);
			for (; i < end; i++)
				memcpy(vals + (size_t)i * es, base + (s64)w->perm[i] * stride, es);
		}
		for (i = 0; i < f->n; i = end) {
			end = engine_sort_block_end(f, i);
			engine_sort_tick(f, end - i);
			for (; i < end; i++)
				memcpy(base + (s64)i * stride, vals + (size_t)i * es, es);
		}
	}
}

/*
 * Whether element @i comes before element @j under IEEE_MERGE: key by
 * key, less decides, equal goes on to the next key, and anything else
 * (greater, or a NaN on either side) is false.
 */
static int ieee_less(const struct fiber *f, u32 i, u32 j)
{
	u32 k, t;

	for (k = 0; k < f->c->num_keys; k++) {
		u64 a = engine_sort_load(f, k, i), b = engine_sort_load(f, k, j), top;

		t = f->c->operands[k].dtype;
		if (t >= XRT_CS_F16 && t <= XRT_CS_F64) {
			top = 1ull << (8 * xs_dtype_size(t) - 1);
			if ((a & ~top) > float_inf(t) || (b & ~top) > float_inf(t))
				return 0;
		}
		a = engine_sort_order(f, k, a);
		b = engine_sort_order(f, k, b);
		if (a != b)
			return a < b;
	}
	return 0;
}

/* Merges the sorted runs perm[lo, mid) and perm[mid, end) through perm2. */
static void merge(struct fiber *f, struct sort_ws *w, u32 lo, u32 mid, u32 end)
{
	u32 i = lo, j = mid, k = lo;

	engine_sort_tick(f, end - lo);
	while (i < mid && j < end)
		w->perm2[k++] = ieee_less(f, w->perm[j], w->perm[i]) ? w->perm[j++] : w->perm[i++];
	while (i < mid)
		w->perm2[k++] = w->perm[i++];
	while (j < end)
		w->perm2[k++] = w->perm[j++];
	memcpy(w->perm + lo, w->perm2 + lo, (end - lo) * sizeof(u32));
}

/*
 * The evaluator's top-down merge sort of w->perm, without recursion: a
 * stack of runs, one a level (27 for 2^26 elements), each split at half
 * its length, its left half sorted, then its right, then both merged.
 */
static void merge_sort(struct fiber *f, struct sort_ws *w)
{
	struct { u32 lo, n, step; } st[32];
	int top = 0;

	st[0].lo = 0;
	st[0].n = f->n;
	st[0].step = 0;
	while (top >= 0 && !f->stop) {
		u32 lo = st[top].lo, n = st[top].n, h = n / 2;

		if (n < 2 || st[top].step == 2) {
			if (n >= 2)
				merge(f, w, lo, lo + h, lo + n);
			top--;
			continue;
		}
		/* step 0: push the left half; step 1: the right */
		st[top + 1].lo = st[top].step ? lo + h : lo;
		st[top + 1].n = st[top].step ? n - h : h;
		st[top + 1].step = 0;
		st[top].step++;
		top++;
	}
}

static void sort_fiber(const struct xrt_engine_ctx *x, const struct xrt_cs_sort *c,
		       u64 fib, void *ws)
{
	u64 idx[XRT_CS_MAX_RANK];
	struct fiber f = { .x = x, .c = c, .n = (u32)c->dims[c->dim] };
	struct sort_ws *w = ws;
	u32 i, k, end;
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
	for (k = 0; k < c->num_operands; k++) {
		const struct xrt_cs_operand *o = &c->operands[k];
		s64 off = 0, es = xs_dtype_size(o->dtype);

		for (d = 0; d < c->rank; d++)
			off += (s64)idx[d] * o->strides[d];
		f.base[k] = engine_ptr(x, o->slot, o->offset) + off * es;
		f.stride[k] = o->strides[c->dim] * es;
	}
	w->perm = (u32 *)(w + 1);
	w->perm2 = w->perm + f.n;
	w->key = (u64 *)(w->perm2 + f.n);	/* 8n bytes of indices: aligned */
	w->key2 = w->key + f.n;
	for (i = 0; i < f.n; i++)
		w->perm[i] = i;
	if (c->cmd.flags & XRT_CS_SORT_IEEE_MERGE) {
		merge_sort(&f, w);
		if (!f.stop)
			permute(&f, w);
		return;
	}
	/*
	 * A lone operand of up to 4 bytes travels in the sort itself, so it is
	 * written back in order instead of gathered through the permutation.
	 */
	f.direct = c->num_operands == 1 && xs_dtype_size(c->operands[0].dtype) <= 4;
	if (f.direct && xs_dtype_size(c->operands[0].dtype) == 4 && f.n > SORT_SMALL &&
	    sort_words(&f, w))
		return;
	/* last key first: each pass keeps the order of the ones after it */
	for (k = c->num_keys; k-- > 0 && !f.stop;)
		sort_by_key(&f, w, k);
	if (f.stop)
		return;
	if (!f.direct) {
		permute(&f, w);
		return;
	}
	for (i = 0; i < f.n; i = end) {
		end = engine_sort_block_end(&f, i);
		engine_sort_tick(&f, end - i);
		for (; i < end; i++)
			engine_sort_store(&f, 0, i, (u32)w->key[i]);
	}
}

static void sort_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		     u64 first, u64 count, void *ws)
{
	const struct xrt_cs_sort *c = cmd;
	u64 per = fibers_per_item(c), f, end = engine_min((first + count) * per, fibers(c));

	if (engine_sort_wide(c)) {
		engine_sort_wide_run(x, c, phase, first, count, ws);
		return;
	}
	for (f = first * per; f < end; f++)
		sort_fiber(x, c, f, ws);
}

const struct cmd_ops engine_sort_ops = {
	.name = "SORT",
	.fixed_size = sizeof(struct xrt_cs_sort),
	.validate = sort_validate,
	.phases = sort_phases,
	.items = sort_items,
	.run = sort_run,
};
