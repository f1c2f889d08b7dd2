// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DOT of a few columns (n <= 16) over a batch whose elements lie side
 * by side in the left operand and the output: out[b][i][j] = sum over k
 * of lhs[b][i][k] rhs[b][k][j].  Depthwise and grouped convolutions
 * lower to this (a batch a group, the groups innermost).  The tiled path
 * would pack a column into a panel of 16 and compute zero columns; here
 * the batch is the vector lanes instead: the right operand's block is
 * copied once per item as [k][lanes], and each output element still gets
 * its products one k at a time after its start value, fused (the
 * instruction, or efma_soft() without it): the same bits as every path.
 */
#include "dot_lanes.h"
#include "efma.h"

#define LANE_ROWS	32	/* rows of an item */
#define LANE_BATCH	256	/* batch elements of an item: the lanes */
#define LANE_MAX_K	512	/* the right operand's block: 512 KiB of workspace */
#define LANE_MAX_N	16	/* columns, one after the other */

typedef float v8f __attribute__((vector_size(8 * sizeof(u32))));

int engine_dot_lanes(const struct xrt_cs_dot *c)
{
	return c->n && c->n <= LANE_MAX_N && c->m && c->k && c->k <= LANE_MAX_K && c->batch >= 8 &&
	       c->lhs.dtype == XRT_CS_F32 && c->rhs.dtype == XRT_CS_F32 &&
	       c->out.dtype == XRT_CS_F32 && c->lhs.batch_stride == 1 &&
	       c->out.batch_stride == 1;
}

static u64 batch_blocks(const struct xrt_cs_dot *c)
{
	return (c->batch + LANE_BATCH - 1) / LANE_BATCH;
}

u64 engine_dot_lanes_items(const struct xrt_cs_dot *c)
{
	return (c->m + LANE_ROWS - 1) / LANE_ROWS * batch_blocks(c);
}

/* Element [b][r][col] of a matrix: only ever one that is read. */
static float *elem(const struct xrt_engine_ctx *x, const struct xrt_cs_matrix *mx, u64 b, u64 r,
		   u64 col)
{
	s64 e = (s64)b * mx->batch_stride + (s64)r * mx->row_stride + (s64)col * mx->col_stride;

	return (float *)(engine_ptr(x, mx->slot, mx->offset) + e * 4);
}

/* One item's block: its rows and lanes, the output's start values read. */
struct lanes {
	const float *a;		/* lhs[b0][i0][0] */
	float *o;		/* out[b0][i0] */
	const float *rb;	/* rhs as [k][LANE_BATCH] */
	s64 arow, acol, orow;
	u32 rows, lanes, k;
	int acc;
};

/* Lanes [@l, @l + 8) of row @i: one vector, its products k by k. */
__attribute__((target("avx2,fma")))
static __always_inline v8f lane_vector(const struct lanes *s, u32 i, u32 l)
{
	const float *a = s->a + (s64)i * s->arow + l;
	v8f acc = { 0 }, av, bv;
	u32 k;

	if (s->acc)
		memcpy(&acc, s->o + (s64)i * s->orow + l, sizeof(acc));
	for (k = 0; k < s->k; k++) {
		memcpy(&av, a + (s64)k * s->acol, sizeof(av));
		memcpy(&bv, s->rb + (size_t)k * LANE_BATCH + l, sizeof(bv));
		acc = EFMA8(av, bv, acc);
	}
	return acc;
}

/* Four vectors of a row at once, their chains of adds overlapping. */
__attribute__((target("avx2,fma")))
static void lanes_fma(const struct lanes *s)
{
	u32 i, l, k;

	for (i = 0; i < s->rows; i++) {
		float *o = s->o + (s64)i * s->orow;

		for (l = 0; l + 32 <= s->lanes; l += 32) {
			v8f r0 = lane_vector(s, i, l), r1 = lane_vector(s, i, l + 8);
			v8f r2 = lane_vector(s, i, l + 16), r3 = lane_vector(s, i, l + 24);

			memcpy(o + l, &r0, sizeof(r0));
			memcpy(o + l + 8, &r1, sizeof(r1));
			memcpy(o + l + 16, &r2, sizeof(r2));
			memcpy(o + l + 24, &r3, sizeof(r3));
		}
		for (; l + 8 <= s->lanes; l += 8) {
			v8f r = lane_vector(s, i, l);

			memcpy(o + l, &r, sizeof(r));
		}
		for (; l < s->lanes; l++) {
			float sum = s->acc ? o[l] : 0;

			for (k = 0; k < s->k; k++)
				sum = __builtin_fmaf(s->a[(s64)i * s->arow + (s64)k * s->acol + l],
						     s->rb[(size_t)k * LANE_BATCH + l], sum);
			o[l] = sum;
		}
	}
}

/* The same without the instruction: an element at a time. */
static void lanes_soft(const struct lanes *s)
{
	u32 i, l, k;

	for (i = 0; i < s->rows; i++)
		for (l = 0; l < s->lanes; l++) {
			float *o = s->o + (s64)i * s->orow + l;
			float sum = s->acc ? *o : 0;

			for (k = 0; k < s->k; k++)
				sum = efma_soft(s->a[(s64)i * s->arow + (s64)k * s->acol + l],
						s->rb[(size_t)k * LANE_BATCH + l], sum);
			*o = sum;
		}
}

void engine_dot_lanes_run(const struct xrt_engine_ctx *x, const struct xrt_cs_dot *c, u64 it,
			  float *ws)
{
	u64 i0 = it / batch_blocks(c) * LANE_ROWS, b0 = it % batch_blocks(c) * LANE_BATCH;
	struct lanes s = {
		.a = elem(x, &c->lhs, b0, i0, 0), .rb = ws,
		.arow = c->lhs.row_stride, .acol = c->lhs.col_stride,
		.orow = c->out.row_stride, .k = (u32)c->k,
		.rows = (u32)engine_min(c->m - i0, LANE_ROWS),
		.lanes = (u32)engine_min(c->batch - b0, LANE_BATCH),
		.acc = !!(c->cmd.flags & XRT_CS_DOT_ACCUMULATE),
	};
	u32 j, k, l;

	for (j = 0; j < c->n; j++) {	/* a column at a time */
		s.o = elem(x, &c->out, b0, i0, j);
		for (k = 0; k < s.k; k++)
			for (l = 0; l < s.lanes; l++)
				ws[(size_t)k * LANE_BATCH + l] = *elem(x, &c->rhs, b0 + l, k, j);
		if (xrt_engine_use_avx2)
			lanes_fma(&s);
		else
			lanes_soft(&s);
	}
}
