// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SORT of one long fiber (a vector of millions) among the executor's
 * threads: a least-significant-digit radix sort whose passes are cut
 * into chunks that items take in parallel, digits of 11 bits.
 *
 * A lone operand travels in the words it is sorted as, in two buffers of
 * the shared workspace.  Where the key transform gives every element's
 * bits back (always for 8 bytes: BY_VALUE floats of 8 bytes do not come
 * here), the words are the keys alone: 4 or 8 bytes, decoded at the end.
 * Otherwise (a NaN quieted, a -0 merged, a key under 4 bytes) a word is
 * 8 bytes, the key above the element's own bits.  The first pass finds
 * out which, so a sort of keys that decode moves half the memory.
 *
 *   phase 0        each chunk: the words, and its histogram of digit 0
 *   phase 1        one item: which form the words take
 *   phase 2        each chunk of a 4-byte key that did not decode: the
 *                  words again, key above bits
 *   phase 3d + 3   one item: every chunk's histogram of digit d becomes
 *                  its places (after all smaller digits' elements, and
 *                  after the earlier chunks' equal ones: stable); a
 *                  digit all elements share skips its pass
 *   phase 3d + 4   each chunk scatters by digit d to its places
 *   phase 3d + 5   each chunk's histogram of digit d + 1
 *   last           each chunk's elements back into the operand
 *
 * A stable sort has one result, so the bits are those of one thread's.
 */
#include "sort.h"

#define WIDE_MIN	BIT_ULL(20)	/* shorter fibers sort in one item */
#define WIDE_CHUNK	BIT_ULL(17)	/* elements an item takes */
#define DIGIT_BITS	11
#define RADIX		((u32)BIT_ULL(DIGIT_BITS))

/* What the one-item phases decide, at the workspace's start. */
struct wide_state {
	u32 words;	/* the keys travel alone */
	u32 cur;	/* the buffer the last scatter read */
	u32 skip;	/* and whether it skipped its pass */
	u32 pad;
	u32 lossy[];	/* per chunk: a key that does not give its bits back */
};

static u32 key_size(const struct xrt_cs_sort *c)
{
	return xs_dtype_size(c->operands[0].dtype);
}

int engine_sort_wide(const struct xrt_cs_sort *c)
{
	u32 t = c->operands[0].dtype;
	u64 n = c->dims[c->dim];
	u32 d;

	for (d = 0; d < c->rank; d++) {
		if (d != c->dim && c->dims[d] != 1)
			return 0;
	}
	if (t == XRT_CS_F64 && (c->cmd.flags & XRT_CS_SORT_BY_VALUE))
		return 0;	/* -0 and NaNs merged: 8 bytes would not decode */
	return n >= WIDE_MIN && c->num_operands == 1 && key_size(c) <= 8 &&
	       !(c->cmd.flags & XRT_CS_SORT_IEEE_MERGE);
}

/* Digits of the key: three cover 32 bits, six 64. */
static u32 digits(const struct xrt_cs_sort *c)
{
	return key_size(c) == 8 ? 6 : 3;
}

u32 engine_sort_wide_phases(const struct xrt_cs_sort *c)
{
	return 3 * digits(c) + 4;
}

static u64 chunks(const struct xrt_cs_sort *c)
{
	return (c->dims[c->dim] + WIDE_CHUNK - 1) / WIDE_CHUNK;
}

/* Phases 3d + 3: one item turns digit d's histograms into places. */
static int is_place(const struct xrt_cs_sort *c, u32 phase)
{
	return phase >= 3 && phase % 3 == 0 && phase < 3 * digits(c) + 3;
}

u64 engine_sort_wide_items(const struct xrt_cs_sort *c, u32 phase)
{
	if (phase == 1 || is_place(c, phase))
		return 1;
	if (phase == 2)
		return key_size(c) == 4 ? chunks(c) : 0;
	if (phase == 3 * digits(c) + 2)
		return 0;	/* no digit after the last to count */
	return chunks(c);
}

static u64 state_size(const struct xrt_cs_sort *c)
{
	return (sizeof(struct wide_state) + chunks(c) * sizeof(u32) + 63) & ~63ull;
}

/* The state, two buffers of 8-byte words, then each chunk's RADIX counts. */
u64 engine_sort_wide_shared(const struct xrt_cs_sort *c)
{
	return state_size(c) + 2 * 8 * c->dims[c->dim] + chunks(c) * RADIX * sizeof(u32);
}

/* A key of 4 or 8 bytes: how it becomes an unsigned integer and back. */
struct key_form {
	u64 top, mask, inf;	/* the sign bit, the key's bits, +inf's */
	u32 es;
	int fp, sg, desc;
};

struct wide {
	struct fiber f;
	struct wide_state *s;
	u8 *buf[2];
	u32 *hist;		/* [chunks][RADIX] */
	u64 chunks;
	struct key_form kf;
};

static void wide_init(struct wide *w, const struct xrt_engine_ctx *x,
		      const struct xrt_cs_sort *c)
{
	const struct xrt_cs_operand *o = &c->operands[0];
	struct key_form *kf = &w->kf;
	u64 n = c->dims[c->dim];
	u32 t = o->dtype;

	memset(w, 0, sizeof(*w));
	w->f.x = x;
	w->f.c = c;
	w->f.n = (u32)n;
	w->f.base[0] = engine_ptr(x, o->slot, o->offset);
	w->f.stride[0] = o->strides[c->dim] * (s64)xs_dtype_size(t);
	w->s = x->shared_ws;
	w->buf[0] = (u8 *)x->shared_ws + state_size(c);
	w->buf[1] = w->buf[0] + 8 * n;
	w->hist = (u32 *)(w->buf[1] + 8 * n);
	w->chunks = chunks(c);
	kf->es = key_size(c);
	kf->top = 1ull << (8 * kf->es - 1);
	kf->mask = kf->top | (kf->top - 1);
	kf->inf = kf->es == 4 ? 0x7f800000 : 0x7ff0000000000000ull;
	kf->fp = t == XRT_CS_F32 || t == XRT_CS_F64;
	kf->sg = t == XRT_CS_S32 || t == XRT_CS_S64;
	kf->desc = !!(c->cmd.flags & XRT_CS_SORT_DESCENDING);
}

/* The element whose key is @k, where it decodes. */
static inline u64 bits_of(const struct key_form *kf, u64 k)
{
	if (kf->desc)
		k = ~k & kf->mask;
	if (kf->fp)
		return (k & kf->top) ? k & ~kf->top : ~k & kf->mask;
	return kf->sg ? k ^ kf->top : k;
}

/*
 * engine_sort_order() of @b, a key of 4 or 8 bytes, inline; its NaNs and
 * -0 (which it may quiet or merge) through it, flagging @lossy where the
 * key does not decode to @b.
 */
static inline u64 key_of(const struct key_form *kf, const struct fiber *f, u64 b,
			 u32 *lossy)
{
	u64 k;

	if (kf->fp && ((b & ~kf->top) > kf->inf || b == kf->top)) {
		k = engine_sort_order(f, 0, b);
		*lossy |= bits_of(kf, k) != b;
		return k;
	}
	if (kf->fp)
		k = (b & kf->top) ? ~b & kf->mask : b | kf->top;
	else
		k = kf->sg ? b ^ kf->top : b;
	return kf->desc ? ~k & kf->mask : k;
}

static u32 chunk_first(u64 i)
{
	return (u32)(i * WIDE_CHUNK);
}

static u32 chunk_end(const struct wide *w, u64 i)
{
	return (u32)engine_min(w->f.n, (i + 1) * WIDE_CHUNK);
}

/* The words' width in the digit passes, and where digit 0 starts. */
static u32 word_size(const struct wide *w)
{
	return w->s->words && w->kf.es == 4 ? 4 : 8;
}

static u32 digit_shift(const struct wide *w, u32 d)
{
	return (w->s->words ? 0 : 32) + DIGIT_BITS * d;
}

/*
 * Elements [@j, @end) as words, counted in @h by digit 0: a 4-byte key
 * alone unless @packed, an 8-byte one alone, a shorter one (or @packed)
 * above its bits.  The key form is copied so that it stays in registers.
 */
static u32 load_block(struct wide *w, u32 j, u32 end, int packed, u32 *h)
{
	const struct key_form kf = w->kf;
	const u8 *base = w->f.base[0];
	const s64 stride = w->f.stride[0];
	u32 *k32 = (u32 *)w->buf[0], lossy = 0, raw32;
	u64 *k64 = (u64 *)w->buf[0], key, raw;

	if (kf.es == 4 && !packed) {
		for (; j < end; j++) {
			memcpy(&raw32, base + (s64)j * stride, 4);
			key = key_of(&kf, &w->f, raw32, &lossy);
			k32[j] = (u32)key;
			h[key & (RADIX - 1)]++;
		}
	} else if (kf.es == 8) {
		for (; j < end; j++) {
			memcpy(&raw, base + (s64)j * stride, 8);
			key = key_of(&kf, &w->f, raw, &lossy);
			k64[j] = key;
			h[key & (RADIX - 1)]++;
		}
	} else {
		for (; j < end; j++) {
			raw = engine_sort_load(&w->f, 0, j);
			key = kf.es == 4 ? key_of(&kf, &w->f, raw, &lossy) :
					   engine_sort_order(&w->f, 0, raw);
			k64[j] = key << 32 | raw;
			h[key & (RADIX - 1)]++;
		}
	}
	return lossy;
}

/* Chunk @i's words and its histogram of digit 0; whether each decodes. */
static void load_chunk(struct wide *w, u64 i, int packed)
{
	u32 j = chunk_first(i), end, last = chunk_end(w, i), lossy = 0;
	u32 *h = w->hist + i * RADIX;

	memset(h, 0, RADIX * sizeof(*h));
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		lossy |= load_block(w, j, end, packed, h);
	}
	w->s->lossy[i] = lossy;
}

/* Whether the keys travel alone: every chunk's decoded. */
static void decide(struct wide *w)
{
	u64 i;

	/* 8 bytes decode always: they are neither quieted nor merged here */
	w->s->words = w->kf.es == 8 || w->kf.es == 4;
	for (i = 0; i < w->chunks && w->kf.es == 4; i++)
		w->s->words &= !w->s->lossy[i];
	w->s->cur = 0;
	w->s->skip = 0;
}

/* The buffer that holds the words now. */
static u32 holder(const struct wide *w)
{
	return w->s->cur ^ !w->s->skip;
}

/* Chunk @i's histogram of digit @d of the words. */
static void count_chunk(struct wide *w, u64 i, u32 d)
{
	u32 *h = w->hist + i * RADIX, j = chunk_first(i), end, last = chunk_end(w, i);
	u32 shift = digit_shift(w, d);
	const u8 *src = w->buf[holder(w)];

	memset(h, 0, RADIX * sizeof(*h));
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		if (word_size(w) == 4)
			for (; j < end; j++)
				h[(((const u32 *)src)[j] >> shift) & (RADIX - 1)]++;
		else
			for (; j < end; j++)
				h[(((const u64 *)src)[j] >> shift) & (RADIX - 1)]++;
	}
}

/*
 * Every chunk's histogram of digit @d becomes its places: a value's place
 * in chunk k follows every smaller value's elements and the earlier
 * chunks' elements of that value.  A digit one value holds entirely
 * would move nothing: its pass is skipped.
 */
static void place_chunks(struct wide *w, u32 d)
{
	u32 v, sum = 0, total;
	u64 k;

	if (d)
		w->s->cur ^= !w->s->skip;
	w->s->skip = 0;
	for (v = 0; v < RADIX; v++) {
		total = sum;
		for (k = 0; k < w->chunks; k++) {
			u32 c = w->hist[k * RADIX + v];

			w->hist[k * RADIX + v] = sum;
			sum += c;
		}
		if (sum - total == w->f.n)
			w->s->skip = 1;
	}
}

/* Chunk @i scattered by digit @d into the other buffer. */
static void scatter_chunk(struct wide *w, u64 i, u32 d)
{
	const u8 *src = w->buf[w->s->cur];
	u8 *dst = w->buf[w->s->cur ^ 1];
	u32 j = chunk_first(i), end, last = chunk_end(w, i), shift = digit_shift(w, d);
	u32 *place = w->hist + i * RADIX;	/* this chunk's alone: no other item writes it */

	if (w->s->skip)
		return;
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		if (word_size(w) == 4) {
			const u32 *s = (const u32 *)src;

			for (; j < end; j++)
				((u32 *)dst)[place[(s[j] >> shift) & (RADIX - 1)]++] = s[j];
		} else {
			const u64 *s = (const u64 *)src;

			for (; j < end; j++)
				((u64 *)dst)[place[(s[j] >> shift) & (RADIX - 1)]++] = s[j];
		}
	}
}

/* Words [@j, @end) back into the operand as their elements' bits. */
static void store_block(struct wide *w, const u8 *src, u32 j, u32 end)
{
	const struct key_form kf = w->kf;
	u8 *base = w->f.base[0];
	const s64 stride = w->f.stride[0];
	u32 v32;
	u64 v;

	if (w->s->words && kf.es == 4) {
		for (; j < end; j++) {
			v32 = (u32)bits_of(&kf, ((const u32 *)src)[j]);
			memcpy(base + (s64)j * stride, &v32, 4);
		}
	} else if (kf.es == 8) {
		for (; j < end; j++) {
			v = bits_of(&kf, ((const u64 *)src)[j]);
			memcpy(base + (s64)j * stride, &v, 8);
		}
	} else {
		for (; j < end; j++)
			engine_sort_store(&w->f, 0, j, (u32)((const u64 *)src)[j]);
	}
}

static void store_chunk(struct wide *w, u64 i)
{
	u32 j = chunk_first(i), end, last = chunk_end(w, i);
	const u8 *src = w->buf[holder(w)];

	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		store_block(w, src, j, end);
	}
}

static void chunk_phase(struct wide *w, u32 phase, u64 i)
{
	u32 last = 3 * digits(w->f.c) + 3;

	if (phase == 0)
		load_chunk(w, i, 0);
	else if (phase == 2 && !w->s->words)
		load_chunk(w, i, 1);
	else if (phase == last)
		store_chunk(w, i);
	else if (phase % 3 == 1)
		scatter_chunk(w, i, phase / 3 - 1);
	else if (phase % 3 == 2 && phase > 2)
		count_chunk(w, i, phase / 3);
}

void engine_sort_wide_run(const struct xrt_engine_ctx *x, const struct xrt_cs_sort *c,
			  u32 phase, u64 first, u64 count, void *ws)
{
	struct wide w;
	u64 i;

	wide_init(&w, x, c);
	if (phase == 1) {
		decide(&w);
		return;
	}
	if (is_place(c, phase)) {
		place_chunks(&w, phase / 3 - 1);
		return;
	}
	for (i = first; i < first + count && !w.f.stop; i++)
		chunk_phase(&w, phase, i);
}
