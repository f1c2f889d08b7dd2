// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The wide sort's buckets (cmd_sort_wide.c): a range of words sorted by
 * its lower digits into buffer 1.  One that fits a core's cache goes
 * through a radix pass a digit, least significant first, in place there;
 * a bigger one is split by its top digit first (a pass over memory, the
 * parts then in the cache).  Short ones sort by insertion.
 */
#include "sort_range.h"

static inline u64 word_at(const u8 *buf, u32 size, u64 j)
{
	return size == 4 ? ((const u32 *)buf)[j] : ((const u64 *)buf)[j];
}

static inline void set_word(u8 *buf, u32 size, u64 j, u64 v)
{
	if (size == 4)
		((u32 *)buf)[j] = (u32)v;
	else
		((u64 *)buf)[j] = v;
}

/* Where digit @d starts in a word. */
static u32 shift_of(const struct sort_words *w, u32 d)
{
	return w->shift0 + DIGIT_BITS * d;
}

/* Counts each of @key's first @nd digits in @h, a histogram a digit. */
static inline void count_key(u32 *h, u64 key, u32 nd)
{
	u32 d;

	for (d = 0; d < nd; d++)
		h[d * RADIX + ((key >> (DIGIT_BITS * d)) & (RADIX - 1))]++;
}

/* Words [@j, @end) of @src to their places in @dst by the digit at @shift. */
void engine_sort_scatter(const u8 *src, u8 *dst, u32 size, u32 j, u32 end, u32 shift,
			 u32 *place)
{
	if (size == 4) {
		const u32 *s = (const u32 *)src;

		for (; j < end; j++)
			((u32 *)dst)[place[(s[j] >> shift) & (RADIX - 1)]++] = s[j];
	} else {
		const u64 *s = (const u64 *)src;

		for (; j < end; j++)
			((u64 *)dst)[place[(s[j] >> shift) & (RADIX - 1)]++] = s[j];
	}
}

void engine_sort_lines_begin(struct sort_lines *sl, u32 *place)
{
	memcpy(sl->first, place, sizeof(sl->first));
	sl->place = place;
}

/* The part of @v's line up to place @q (its last) that is this item's. */
static void write_line(struct sort_lines *sl, u8 *dst, u32 size, u32 v, u32 q)
{
	u32 per = 64 / size, lo = q & ~(per - 1);

	if (lo < sl->first[v])
		lo = sl->first[v];
	memcpy(dst + (size_t)lo * size, sl->line[v] + (lo & (per - 1)) * size,
	       (size_t)(q + 1 - lo) * size);
}

void engine_sort_scatter_lines(struct sort_lines *sl, const u8 *src, u8 *dst, u32 size, u32 j,
			       u32 end, u32 shift)
{
	u32 *place = sl->place, v, q;

	if (size == 4) {
		const u32 *s = (const u32 *)src;

		for (; j < end; j++) {
			v = (s[j] >> shift) & (RADIX - 1);
			q = place[v]++;
			((u32 *)sl->line[v])[q & 15] = s[j];
			if ((q & 15) == 15)
				write_line(sl, dst, 4, v, q);
		}
	} else {
		const u64 *s = (const u64 *)src;

		for (; j < end; j++) {
			v = (s[j] >> shift) & (RADIX - 1);
			q = place[v]++;
			((u64 *)sl->line[v])[q & 7] = s[j];
			if ((q & 7) == 7)
				write_line(sl, dst, 8, v, q);
		}
	}
}

void engine_sort_lines_end(struct sort_lines *sl, u8 *dst, u32 size)
{
	u32 per = 64 / size, v;

	for (v = 0; v < RADIX; v++) {
		/* a line begun: places past the last full one, its own */
		if (sl->place[v] > sl->first[v] && (sl->place[v] & (per - 1)))
			write_line(sl, dst, size, v, sl->place[v] - 1);
	}
}

/* A short range [@lo, @hi) of @buf by insertion, stably. */
static void insert_words(const struct sort_words *w, u8 *buf, u32 lo, u32 hi)
{
	u32 size = w->size, shift = shift_of(w, 0), i, j;
	u64 v;

	for (i = lo + 1; i < hi; i++) {
		v = word_at(buf, size, i);
		for (j = i; j > lo && word_at(buf, size, j - 1) >> shift > v >> shift; j--)
			set_word(buf, size, j, word_at(buf, size, j - 1));
		set_word(buf, size, j, v);
	}
}

static u8 *other(const struct sort_words *w, const u8 *buf)
{
	return buf == w->buf[0] ? w->buf[1] : w->buf[0];
}

/* Counts digit @d of the words [@lo, @hi) of @src in @h, offering to yield. */
static void count_range(const struct sort_words *w, const u8 *src, u32 lo, u32 hi, u32 d,
			u32 nd, u32 *h)
{
	u32 size = w->size, shift = shift_of(w, d), j, end;

	memset(h, 0, nd * RADIX * sizeof(*h));
	for (j = lo; j < hi && !w->f->stop; j = end) {
		end = (u32)engine_min(hi, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(w->f, end - j);
		for (; j < end; j++)
			count_key(h, word_at(src, size, j) >> shift, nd);
	}
}

/* Scatters [@lo, @hi) of @src into its other buffer by the digit at @shift. */
static void scatter_range(const struct sort_words *w, const u8 *src, u32 lo, u32 hi,
			  u32 shift, u32 *place)
{
	u32 j, end;

	for (j = lo; j < hi && !w->f->stop; j = end) {
		end = (u32)engine_min(hi, (u64)j + SORT_YIELD_ELEMS);
		engine_sort_tick(w->f, end - j);
		engine_sort_scatter(src, other(w, src), w->size, j, end, shift, place);
	}
}

/* Each value's first place in a range starting at @lo, from its histogram. */
static void places(u32 *h, u32 lo)
{
	u32 v, c, sum = lo;

	for (v = 0; v < RADIX; v++) {
		c = h[v];
		h[v] = sum;
		sum += c;
	}
}

/*
 * [@lo, @hi) of @src by digits [0, @top), least significant first,
 * through the same places of the other buffer: a range that fits the
 * cache.  @h holds a histogram a digit; digits all its words share move
 * nothing.  Returns the buffer the words end in.
 */
static u8 *lsd_range(const struct sort_words *w, u8 *src, u32 lo, u32 hi, u32 top, u32 *h)
{
	u32 d, size = w->size;

	count_range(w, src, lo, hi, 0, top, h);
	for (d = 0; d < top && !w->f->stop; d++) {
		u32 *hd = h + d * RADIX, shift = shift_of(w, d);

		if (hd[(word_at(src, size, lo) >> shift) & (RADIX - 1)] == hi - lo)
			continue;
		places(hd, lo);
		scatter_range(w, src, lo, hi, shift, hd);
		src = other(w, src);
	}
	return src;
}

/*
 * A range too big for the cache: split by digit @top - 1 into the other
 * buffer, then each part by the digits below.  Its places are kept in
 * @ws, a level's, while the parts reuse the rest.
 */
static void split_range(const struct sort_words *w, u8 *src, u32 lo, u32 hi, u32 top,
			u32 *ws)
{
	u32 d = top - 1, *st = ws + d * (RADIX + 1), v;

	count_range(w, src, lo, hi, d, 1, st);
	if (st[(word_at(src, w->size, lo) >> shift_of(w, d)) & (RADIX - 1)] == hi - lo) {
		engine_sort_range(w, src, lo, hi, d, ws);	/* one value: nothing to split */
		return;
	}
	places(st, lo);
	scatter_range(w, src, lo, hi, shift_of(w, d), st);
	/* each place is now its value's end: the next one's start */
	for (v = 0; v < RADIX && !w->f->stop; v++)
		engine_sort_range(w, other(w, src), v ? st[v - 1] : lo, st[v], d, ws);
}

/*
 * [@lo, @hi) of @src sorted by digits [0, @top) into buffer 1: short
 * ranges by insertion, those that fit the cache by lsd_range(), bigger
 * ones split first.  @ws: the thread's workspace, the places of each
 * level of splits, then a histogram a digit.
 */
void engine_sort_range(const struct sort_words *w, u8 *src, u32 lo, u32 hi, u32 top,
		       u32 *ws)
{
	u32 size = w->size;
	u8 *end = src;

	if (top > 1 && (u64)(hi - lo) * size > SORT_CACHE_BYTES) {
		split_range(w, src, lo, hi, top, ws);
		return;
	}
	if (hi - lo > SORT_SMALL && top)
		end = lsd_range(w, src, lo, hi, top, ws + w->digits * (RADIX + 1));
	else if (top)
		insert_words(w, src, lo, hi);
	if (end != w->buf[1])
		memcpy(w->buf[1] + (size_t)lo * size, end + (size_t)lo * size,
		       (size_t)(hi - lo) * size);
}
