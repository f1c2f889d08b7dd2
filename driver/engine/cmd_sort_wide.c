// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SORT of one long fiber (a vector of millions) among the executor's
 * threads: a least-significant-digit radix sort whose passes are cut
 * into chunks that items take in parallel.  A lone operand of at most 4
 * bytes travels in the 8-byte words it is sorted as (its order key above
 * its own bits), in two buffers of the shared workspace; three digits of
 * 11 bits cover the key.
 *
 *   phase 0        each chunk: the words, and its histogram of digit 0
 *   phase 3d + 1   one item: every chunk's histogram of digit d becomes
 *                  its places (after all smaller digits' elements, and
 *                  after the earlier chunks' equal ones: stable)
 *   phase 3d + 2   each chunk scatters by digit d to its places
 *   phase 3d + 3   each chunk's histogram of digit d + 1 (d < 2)
 *   phase 9        each chunk's elements back into the operand
 *
 * A stable sort has one result, so the bits are those of one thread's.
 */
#include "sort.h"

#define WIDE_MIN	BIT_ULL(20)	/* shorter fibers sort in one item */
#define WIDE_CHUNK	BIT_ULL(17)	/* elements an item takes */
#define DIGIT_BITS	11		/* three passes cover a 32-bit key */
#define DIGITS		3
#define RADIX		((u32)BIT_ULL(DIGIT_BITS))
#define WIDE_PHASES	(3 * DIGITS + 1)

int engine_sort_wide(const struct xrt_cs_sort *c)
{
	u64 n = c->dims[c->dim];
	u32 d;

	for (d = 0; d < c->rank; d++) {
		if (d != c->dim && c->dims[d] != 1)
			return 0;
	}
	return n >= WIDE_MIN && c->num_operands == 1 &&
	       xs_dtype_size(c->operands[0].dtype) <= 4 &&
	       !(c->cmd.flags & XRT_CS_SORT_IEEE_MERGE);
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
	return phase % 3 == 1 ? 1 : chunks(c);
}

/* Two buffers of words, then each chunk's RADIX counts. */
u64 engine_sort_wide_shared(const struct xrt_cs_sort *c)
{
	return 2 * 8 * c->dims[c->dim] + chunks(c) * RADIX * sizeof(u32);
}

struct wide {
	struct fiber f;
	u64 *buf[2];
	u32 *hist;		/* [chunks][RADIX] */
	u64 chunks;
};

static void wide_init(struct wide *w, const struct xrt_engine_ctx *x,
		      const struct xrt_cs_sort *c)
{
	const struct xrt_cs_operand *o = &c->operands[0];
	u64 n = c->dims[c->dim];

	memset(w, 0, sizeof(*w));
	w->f.x = x;
	w->f.c = c;
	w->f.n = (u32)n;
	w->f.base[0] = engine_ptr(x, o->slot, o->offset);
	w->f.stride[0] = o->strides[c->dim] * (s64)xs_dtype_size(o->dtype);
	w->buf[0] = x->shared_ws;
	w->buf[1] = w->buf[0] + n;
	w->hist = (u32 *)(w->buf[1] + n);
	w->chunks = chunks(c);
}

/* Chunk @i's histogram of byte @d of buffer @b. */
static void count_chunk(struct wide *w, u64 i, u32 b, u32 d)
{
	u32 *h = w->hist + i * RADIX, j = (u32)(i * WIDE_CHUNK), end;
	u32 last = (u32)engine_min(w->f.n, (i + 1) * WIDE_CHUNK);
	const u64 *src = w->buf[b];

	memset(h, 0, RADIX * sizeof(*h));
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		for (; j < end; j++)
			h[(src[j] >> (32 + DIGIT_BITS * d)) & (RADIX - 1)]++;
	}
}

/* Chunk @i's words, and its histogram of byte 0. */
static void load_chunk(struct wide *w, u64 i)
{
	u32 j = (u32)(i * WIDE_CHUNK), end, last = (u32)engine_min(w->f.n, (i + 1) * WIDE_CHUNK);
	u32 *h = w->hist + i * RADIX;
	u64 *dst = w->buf[0];

	memset(h, 0, RADIX * sizeof(*h));
	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		for (; j < end; j++) {
			u64 raw = engine_sort_load(&w->f, 0, j);
			u64 key = engine_sort_order(&w->f, 0, raw);

			dst[j] = key << 32 | raw;
			h[key & (RADIX - 1)]++;
		}
	}
}

/*
 * Every chunk's histogram becomes its places in the pass: a value's place
 * in chunk k follows every smaller value's elements and the earlier
 * chunks' elements of that value.
 */
static void place_chunks(struct wide *w)
{
	u32 v, sum = 0;
	u64 k;

	for (v = 0; v < RADIX; v++)
		for (k = 0; k < w->chunks; k++) {
			u32 c = w->hist[k * RADIX + v];

			w->hist[k * RADIX + v] = sum;
			sum += c;
		}
}

/* Chunk @i scattered by digit @d from buffer @d % 2 into the other. */
static void scatter_chunk(struct wide *w, u64 i, u32 d)
{
	const u64 *src = w->buf[d & 1];
	u64 *dst = w->buf[(d & 1) ^ 1];
	u32 j = (u32)(i * WIDE_CHUNK), end, last = (u32)engine_min(w->f.n, (i + 1) * WIDE_CHUNK);
	u32 *place = w->hist + i * RADIX;	/* this chunk's alone: no other item writes it */

	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		for (; j < end; j++)
			dst[place[(src[j] >> (32 + DIGIT_BITS * d)) & (RADIX - 1)]++] = src[j];
	}
}

static void store_chunk(struct wide *w, u64 i)
{
	u32 j = (u32)(i * WIDE_CHUNK), end, last = (u32)engine_min(w->f.n, (i + 1) * WIDE_CHUNK);
	const u64 *src = w->buf[DIGITS & 1];

	for (; j < last && !w->f.stop; j = end) {
		end = (u32)engine_min(last, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(&w->f, end - j);
		for (; j < end; j++)
			engine_sort_store(&w->f, 0, j, (u32)src[j]);
	}
}

void engine_sort_wide_run(const struct xrt_engine_ctx *x, const struct xrt_cs_sort *c,
			  u32 phase, u64 first, u64 count, void *ws)
{
	struct wide w;
	u64 i;

	wide_init(&w, x, c);
	if (phase % 3 == 1) {
		place_chunks(&w);
		return;
	}
	for (i = first; i < first + count && !w.f.stop; i++) {
		if (phase == 0)
			load_chunk(&w, i);
		else if (phase == WIDE_PHASES - 1)
			store_chunk(&w, i);
		else if (phase % 3 == 2)
			scatter_chunk(&w, i, phase / 3);
		else
			count_chunk(&w, i, (phase / 3) & 1, phase / 3);
	}
}
