/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Shared by SORT's two ways: a fiber's view of its operands, and the
 * key transform (cmd_sort.c); the wide sort of one long fiber by the
 * items of several phases (cmd_sort_wide.c).
 */
#ifndef XRT_ENGINE_SORT_H
#define XRT_ENGINE_SORT_H

#include "engine_internal.h"

/* Key elements between two offers to yield (xrt_engine_ctx.yield). */
#define SORT_YIELD_ELEMS	BIT_ULL(16)
/* Fibers this short sort by insertion */
#define SORT_SMALL		32

struct fiber {
	const struct xrt_engine_ctx *x;
	const struct xrt_cs_sort *c;
	u8 *base[8];
	s64 stride[8];		/* in bytes */
	u32 n;
	u32 work;		/* elements handled since the last yield */
	int direct;		/* one operand of at most 4 bytes: see sort_fiber() */
	int stop;		/* the executor asked to abandon the item */
};

/*
 * Counts @elems of work about to be done, yielding once SORT_YIELD_ELEMS
 * have gathered; sets f->stop when the item must be abandoned.
 */
void engine_sort_tick(struct fiber *f, u32 elems);
/* Element @i of operand @k: its bits; and back. */
u64 engine_sort_load(const struct fiber *f, u32 k, u32 i);
void engine_sort_store(const struct fiber *f, u32 k, u32 i, u64 v);
/* The bits @b of key operand @k as an unsigned integer ordering as the key. */
u64 engine_sort_order(const struct fiber *f, u32 k, u64 b);
/* The end of the block of work starting at @i: SORT_YIELD_ELEMS at most. */
u32 engine_sort_block_end(const struct fiber *f, u32 i);

/*
 * The wide sort: one fiber long enough to share among threads, of one
 * operand of at most 8 bytes, not IEEE_MERGE (nor BY_VALUE on f64).  Its
 * phases, items, and the shared workspace it needs.
 */
int engine_sort_wide(const struct xrt_cs_sort *c);
u32 engine_sort_wide_phases(const struct xrt_cs_sort *c);
u64 engine_sort_wide_items(const struct xrt_cs_sort *c, u32 phase);
u64 engine_sort_wide_shared(const struct xrt_cs_sort *c);
u64 engine_sort_wide_thread(const struct xrt_cs_sort *c);
void engine_sort_wide_run(const struct xrt_engine_ctx *x, const struct xrt_cs_sort *c,
			  u32 phase, u64 first, u64 count, void *ws);

#endif /* XRT_ENGINE_SORT_H */
