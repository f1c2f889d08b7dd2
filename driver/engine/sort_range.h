/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The wide sort's words and its sorts of ranges of them (sort_range.c).
 */
#ifndef XRT_ENGINE_SORT_RANGE_H
#define XRT_ENGINE_SORT_RANGE_H

#include "sort.h"

#define DIGIT_BITS	11
#define RADIX		((u32)BIT_ULL(DIGIT_BITS))
/* A range this big or smaller sorts in place in a core's cache. */
#define SORT_CACHE_BYTES (512u << 10)

/**
 * struct sort_words - the wide sort's words, as the range sorts see them
 * @f: the fiber: its yields and stop
 * @buf: the two buffers of words; a range ends in buf[1]
 * @size: a word's bytes, 4 or 8
 * @shift0: the word's bit where the key's digit 0 starts
 * @digits: the key's digits: the thread workspace holds a level's places
 *          and a histogram for each
 */
struct sort_words {
	struct fiber *f;
	u8 *buf[2];
	u32 size;
	u32 shift0;
	u32 digits;
};

/**
 * struct sort_lines - a scatter's writes gathered into whole cache lines
 * @line: each value's line being filled, 16 words of 4 bytes or 8 of 8
 * @first: each value's first place: the line that holds it may start
 *         with another item's places, not to be written
 * @place: each value's next place
 *
 * Scattering straight to memory hits every value's line once a word;
 * when the values' places lie a multiple of 4 KiB apart (keys spread
 * evenly) those lines fall in one cache set, and the pass took twice as
 * long.  Lines gathered here and written whole do neither.
 */
struct sort_lines {
	u8 line[RADIX][64];
	u32 first[RADIX];
	u32 *place;
};

/* Starts a scatter to @place, a histogram made places, this item's alone. */
void engine_sort_lines_begin(struct sort_lines *sl, u32 *place);
/* Words [@j, @end) of @src to their places in @dst by the digit at @shift. */
void engine_sort_scatter_lines(struct sort_lines *sl, const u8 *src, u8 *dst, u32 size, u32 j,
			       u32 end, u32 shift);
/* Writes the lines begun and not yet full. */
void engine_sort_lines_end(struct sort_lines *sl, u8 *dst, u32 size);

/* Words [@j, @end) of @src to their places in @dst by the digit at @shift. */
void engine_sort_scatter(const u8 *src, u8 *dst, u32 size, u32 j, u32 end, u32 shift,
			 u32 *place);
/* [@lo, @hi) of @src by its digits below @top into buf[1]; @ws the thread's. */
void engine_sort_range(const struct sort_words *w, u8 *src, u32 lo, u32 hi, u32 top,
		       u32 *ws);

#endif /* XRT_ENGINE_SORT_RANGE_H */
