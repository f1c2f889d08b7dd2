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

/* Words [@j, @end) of @src to their places in @dst by the digit at @shift. */
void engine_sort_scatter(const u8 *src, u8 *dst, u32 size, u32 j, u32 end, u32 shift,
			 u32 *place);
/* [@lo, @hi) of @src by its digits below @top into buf[1]; @ws the thread's. */
void engine_sort_range(const struct sort_words *w, u8 *src, u32 lo, u32 hi, u32 top,
		       u32 *ws);

#endif /* XRT_ENGINE_SORT_RANGE_H */
