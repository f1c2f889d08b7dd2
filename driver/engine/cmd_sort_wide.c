// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SORT of one long fiber (a vector of millions) among the executor's
 * threads, by radix, digits of 11 bits: first by the most significant
 * digit in which the keys differ, a pass over memory cut into chunks
 * that items take in parallel; then each bucket of that digit by its
 * lower digits, least significant first, in the cache, groups of buckets
 * as items.
 *
 * A lone operand travels in the words it is sorted as, in two buffers of
 * the shared workspace.  Where the key transform gives every element's
 * bits back (always for 8 bytes: BY_VALUE floats of 8 bytes do not come
 * here), the words are the keys alone: 4 or 8 bytes, decoded at the end.
 * Otherwise (a NaN quieted, a -0 merged, a key under 4 bytes) a word is
 * 8 bytes, the key above the element's own bits.  The first pass finds
 * out which, so a sort of keys that decode moves half the memory.
 *
 *   LOAD      each chunk: the words, and the bits in which its keys differ
 *   DECIDE    one item: which form the words take, and the top digit in
 *             which keys differ
 *   REPACK    each chunk of a 4-byte key that did not decode: the words
 *             again, key above bits
 *   COUNT     each chunk's histogram of that digit
 *   PLACE     one item: the histograms become every chunk's places (after
 *             all smaller digits' elements, and after the earlier chunks'
 *             equal ones: stable); the buckets cut into groups of even size
 *   SCATTER   each chunk by that digit into the other buffer
 *   BUCKETS   each group sorts its buckets by the lower digits
 *   STORE     each chunk's elements back into the operand
 *
 * A stable sort has one result, so the bits are those of one thread's.
 */
#include "sort_range.h"

#define WIDE_MIN	BIT_ULL(20)	/* shorter fibers sort in one item */
#define WIDE_CHUNK	BIT_ULL(17)	/* elements an item takes */
#define GROUPS		64		/* items of bucket sorts */
#define NO_DIGIT	(~0u)		/* all keys are equal */

enum { LOAD, DECIDE, REPACK, COUNT, PLACE, SCATTER, BUCKETS, STORE, WIDE_PHASES };

/* What LOAD finds in a chunk. */
struct chunk_keys {
	u64 first;	/* its first key */
	u64 diff;	/* the bits in which its keys differ from that one */
	u32 lossy;	/* a key that does not give its element's bits back */
	u32 pad;
};

/* What the one-item phases decide, at the workspace's start. */
struct wide_state {
	u32 words;		/* the keys travel alone */
	u32 msd;		/* the key's bit where the chunks' digit starts, or NO_DIGIT */
	u32 below;		/* digits below that one */
	u32 start[RADIX + 1];	/* its bucket v: [start[v], start[v + 1]) */
	u32 group[GROUPS + 1];	/* item g sorts buckets [group[g], group[g + 1]) */
	struct chunk_keys chunk[];
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
	return WIDE_PHASES;
}

static u64 chunks(const struct xrt_cs_sort *c)
{
	return (c->dims[c->dim] + WIDE_CHUNK - 1) / WIDE_CHUNK;
}

u64 engine_sort_wide_items(const struct xrt_cs_sort *c, u32 phase)
{
	switch (phase) {
	case DECIDE:
	case PLACE:
		return 1;
	case REPACK:
		return key_size(c) == 4 ? chunks(c) : 0;
	case BUCKETS:
		return GROUPS;
	default:
		return chunks(c);
	}
}

static u64 state_size(const struct xrt_cs_sort *c)
{
	return (sizeof(struct wide_state) + chunks(c) * sizeof(struct chunk_keys) + 63) & ~63ull;
}

/* The state, two buffers of 8-byte words, then each chunk's histogram. */
u64 engine_sort_wide_shared(const struct xrt_cs_sort *c)
{
	return state_size(c) + 2 * 8 * c->dims[c->dim] + chunks(c) * RADIX * sizeof(u32);
}

/*
 * The scatter's lines; or a bucket's places, a level of splits each, then
 * a histogram a digit.
 */
u64 engine_sort_wide_thread(const struct xrt_cs_sort *c)
{
	u64 buckets = digits(c) * (2 * RADIX + 1) * sizeof(u32);

	return buckets > sizeof(struct sort_lines) ? buckets : sizeof(struct sort_lines);
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
	u32 digits;
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
	w->digits = digits(c);
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

/* The words' width, and where digit @d starts in one. */
static u32 word_size(const struct wide *w)
{
	return w->s->words && w->kf.es == 4 ? 4 : 8;
}

static u32 digit_shift(const struct wide *w, u32 d)
{
	return (w->s->words ? 0 : 32) + DIGIT_BITS * d;
}

/*
 * Elements [@j, @end) as words, the bits in which their keys differ from
 * @first or'ed into @diff: a 4-byte key alone unless @packed, an 8-byte
 * one alone, a shorter one (or @packed) above its bits.  The key form is
 * copied so that it stays in registers.  Returns whether one was lossy.
 */
static u32 load_block(struct wide *w, u32 j, u32 end, int packed, u64 first, u64 *diff)
{
	const struct key_form kf = w->kf;
	const u8 *base = w->f.base[0];
	const s64 stride = w->f.stride[0];
	u32 *k32 = (u32 *)w->buf[0], lossy = 0, raw32;
	u64 *k64 = (u64 *)w->buf[0], key, raw, d = 0;

	if (kf.es == 4 && !packed) {
		for (; j < end; j++) {
			memcpy(&raw32, base + (s64)j * stride, 4);
			key = key_of(&kf, &w->f, raw32, &lossy);
			k32[j] = (u32)key;
			d |= key ^ first;
		}
	} else if (kf.es == 8) {
		for (; j < end; j++) {
			memcpy(&raw, base + (s64)j * stride, 8);
			key = key_of(&kf, &w->f, raw, &lossy);
			k64[j] = key;
			d |= key ^ first;
		}
	} else {
		for (; j < end; j++) {
			raw = engine_sort_load(&w->f, 0, j);
			key = kf.es == 4 ? key_of(&kf, &w->f, raw, &lossy) :
					   engine_sort_order(&w->f, 0, raw);
			k64[j] = key << 32 | raw;
			d |= key ^ first;
		}
	}
	*diff |= d;
	return lossy;
}

/* Chunk @i's words; how its keys differ, and whether each decodes. */
static void load_chunk(struct wide *w, u64 i, int packed)
{
	u32 j = chunk_first(i), end, last = chunk_end(w, i), lossy = 0, no = 0;
	struct chunk_keys *ck = &w->s->chunk[i];
	u64 first = w->kf.es >= 4 ? key_of(&w->kf, &w->f, engine_sort_load(&w->f, 0, j), &no) :
				    engine_sort_order(&w->f, 0, engine_sort_load(&w->f, 0, j));
	u64 diff = 0;

	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		lossy |= load_block(w, j, end, packed, first, &diff);
	}
	ck->first = first;
	ck->diff = diff;
	ck->lossy = lossy;
}

/*
 * Whether the keys travel alone (every chunk's decoded), and the top
 * digit in which they differ: the digits above it sort nothing.
 */
static void decide(struct wide *w)
{
	struct wide_state *s = w->s;
	u64 i, diff = 0;
	u32 d;

	/* 8 bytes decode always: they are neither quieted nor merged here */
	s->words = w->kf.es == 8 || w->kf.es == 4;
	for (i = 0; i < w->chunks; i++) {
		s->words &= w->kf.es == 8 || !s->chunk[i].lossy;
		diff |= s->chunk[i].diff | (s->chunk[i].first ^ s->chunk[0].first);
	}
	s->msd = NO_DIGIT;	/* all keys are equal */
	s->below = 0;
	if (!diff)
		return;
	/* the 11 bits that end at the top one in which keys differ */
	for (d = 63; !(diff >> d); d--)
		;
	s->msd = d >= DIGIT_BITS - 1 ? d - (DIGIT_BITS - 1) : 0;
	s->below = (s->msd + DIGIT_BITS - 1) / DIGIT_BITS;
}

/* Chunk @i's histogram of the top digit. */
static void count_chunk(struct wide *w, u64 i)
{
	u32 *h = w->hist + i * RADIX, j = chunk_first(i), end, last = chunk_end(w, i);
	u32 size = word_size(w), shift = digit_shift(w, 0) + w->s->msd;
	const u8 *src = w->buf[0];

	if (w->s->msd == NO_DIGIT)
		return;
	memset(h, 0, RADIX * sizeof(*h));
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		if (size == 4)
			for (; j < end; j++)
				h[(((const u32 *)src)[j] >> shift) & (RADIX - 1)]++;
		else
			for (; j < end; j++)
				h[(((const u64 *)src)[j] >> shift) & (RADIX - 1)]++;
	}
}

/* Groups of buckets of about n / GROUPS elements; a big bucket is one alone. */
static void cut_groups(struct wide *w)
{
	struct wide_state *s = w->s;
	u32 g = 0, v;

	s->group[0] = 0;
	for (v = 0; v < RADIX; v++) {
		while (g + 1 < GROUPS && s->start[v + 1] >= (g + 1) * (u64)w->f.n / GROUPS)
			s->group[++g] = v + 1;
	}
	while (g < GROUPS)
		s->group[++g] = RADIX;
}

/*
 * Every chunk's histogram of the top digit becomes its places: a value's
 * place in chunk k follows every smaller value's elements and the earlier
 * chunks' elements of that value.
 */
static void place_chunks(struct wide *w)
{
	struct wide_state *s = w->s;
	u32 v, sum = 0, *h, c;
	u64 k;

	if (s->msd == NO_DIGIT)
		return;
	for (v = 0; v < RADIX; v++) {
		s->start[v] = sum;
		for (k = 0; k < w->chunks; k++) {
			h = &w->hist[k * RADIX + v];
			c = *h;
			*h = sum;
			sum += c;
		}
	}
	s->start[RADIX] = sum;
	cut_groups(w);
}

/* Chunk @i to its places by the top digit, from buffer 0 into 1. */
static void scatter_chunk(struct wide *w, u64 i, void *ws)
{
	u32 j = chunk_first(i), end, last = chunk_end(w, i), m = w->s->msd;
	struct sort_lines *sl = ws;

	if (m == NO_DIGIT)
		return;
	/* this chunk's places alone: no other item writes them */
	engine_sort_lines_begin(sl, w->hist + i * RADIX);
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		engine_sort_scatter_lines(sl, w->buf[0], w->buf[1], word_size(w), j, end,
					  digit_shift(w, 0) + m);
	}
	if (!w->f.stop)
		engine_sort_lines_end(sl, w->buf[1], word_size(w));
}

/* Group @g's buckets, @ws the thread's workspace. */
static void sort_group(struct wide *w, u64 g, void *ws)
{
	const struct wide_state *s = w->s;
	struct sort_words sw = { &w->f, { w->buf[0], w->buf[1] }, word_size(w),
				 digit_shift(w, 0), w->digits };
	u32 v;

	if (s->msd == NO_DIGIT || !s->below)
		return;
	for (v = s->group[g]; v < s->group[g + 1] && !w->f.stop; v++)
		engine_sort_range(&sw, w->buf[1], s->start[v], s->start[v + 1], s->below, ws);
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
	const u8 *src = w->buf[w->s->msd != NO_DIGIT];

	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		store_block(w, src, j, end);
	}
}

void engine_sort_wide_run(const struct xrt_engine_ctx *x, const struct xrt_cs_sort *c,
			  u32 phase, u64 first, u64 count, void *ws)
{
	struct wide w;
	u64 i;

	wide_init(&w, x, c);
	if (phase == DECIDE) {
		decide(&w);
		return;
	}
	if (phase == PLACE) {
		place_chunks(&w);
		return;
	}
	for (i = first; i < first + count && !w.f.stop; i++) {
		if (phase == LOAD)
			load_chunk(&w, i, 0);
		else if (phase == REPACK && !w.s->words)
			load_chunk(&w, i, 1);
		else if (phase == COUNT)
			count_chunk(&w, i);
		else if (phase == SCATTER)
			scatter_chunk(&w, i, ws);
		else if (phase == BUCKETS)
			sort_group(&w, i, ws);
		else if (phase == STORE)
			store_chunk(&w, i);
	}
}
