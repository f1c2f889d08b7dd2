// SPDX-License-Identifier: MIT
/*
 * f32 DOT with few rows by the host's own AVX-512 kernel: a layer of an
 * MLP (64x512 times 512x512) and the like.  OpenBLAS packs its share of
 * the rhs into a buffer before it multiplies, every call: a fifth of the
 * MLP's time went to that packing (Documentation/performance.rst).  Here
 * a strip of 32 rhs columns is packed while the first 8 rows are computed
 * from the rhs itself, and the other rows read the packed copy from L1;
 * on a 64x256x512 tile that runs at 1.3 times OpenBLAS's speed (214-221
 * against 160-165 GFLOP/s on one core).
 *
 * Each output is its start value (0, or itself when accumulating) with
 * the k products added by fused multiply-adds in k order, whatever the
 * blocks, tiles and threads: so the result never depends on the thread
 * count.  Like OpenBLAS's, the bits are not the engine's; with the host
 * device's option off the engine's own DOT runs.
 */
#include "host_device.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define MR	8	/* rows of a micro-tile */
#define NR	32	/* columns of a micro-tile: two vectors */
#define KC	256	/* depth of a block: its packed strip fills 32 of L1's 48 KiB */
#define MAX_M	256	/* beyond, OpenBLAS packing the lhs too wins */
#define MIN_WORK	((uint64_t)1 << 21)	/* multiply-adds worth a thread */

#define AVX512 __attribute__((target("avx512f")))

/* One micro-tile over one depth block. */
struct micro {
	const float *a;		/* the tile's first row, at the block's depth */
	int64_t lda;
	const float *src;	/* the rhs at (depth, column), or NULL: read @packed */
	int64_t ldb;
	float *packed;		/* the strip's KC x NR copy, written from @src */
	float *c;
	int64_t ldc;
	uint32_t kb;		/* depth of the block */
	__mmask16 m0, m1;	/* the strip's columns in each vector */
	bool load;		/* start from c (a later block, or accumulating) */
};

/*
 * @rows (a constant in each caller) rows of the tile: the accumulators
 * stay in registers only when the loops over rows unroll completely.
 */
static inline __attribute__((always_inline)) AVX512
void micro_rows(const struct micro *t, int rows)
{
	const float *a = t->a, *src = t->src;
	int64_t lda = t->lda, ldb = t->ldb, ldc = t->ldc;
	__mmask16 m0 = t->m0, m1 = t->m1;
	float *c = t->c, *p = t->packed;
	__m512 c0[MR], c1[MR];
	uint32_t kk, kb = t->kb;
	int i;

#pragma GCC unroll 8
	for (i = 0; i < rows; i++) {
		c0[i] = t->load ? _mm512_maskz_loadu_ps(m0, c + i * ldc) : _mm512_setzero_ps();
		c1[i] = t->load ? _mm512_maskz_loadu_ps(m1, c + i * ldc + 16) : _mm512_setzero_ps();
	}
	for (kk = 0; kk < kb; kk++, p += NR) {
		__m512 b0, b1;

		if (src) {
			/* masked loads zero the columns past n: they add nothing */
			b0 = _mm512_maskz_loadu_ps(m0, src + kk * ldb);
			b1 = _mm512_maskz_loadu_ps(m1, src + kk * ldb + 16);
			_mm512_store_ps(p, b0);
			_mm512_store_ps(p + 16, b1);
		} else {
			b0 = _mm512_load_ps(p);
			b1 = _mm512_load_ps(p + 16);
		}
#pragma GCC unroll 8
		for (i = 0; i < rows; i++) {
			__m512 av = _mm512_set1_ps(a[i * lda + kk]);

			c0[i] = _mm512_fmadd_ps(av, b0, c0[i]);
			c1[i] = _mm512_fmadd_ps(av, b1, c1[i]);
		}
	}
#pragma GCC unroll 8
	for (i = 0; i < rows; i++) {
		_mm512_mask_storeu_ps(c + i * ldc, m0, c0[i]);
		_mm512_mask_storeu_ps(c + i * ldc + 16, m1, c1[i]);
	}
}

static AVX512 void micro_tile(const struct micro *t, int rows)
{
	switch (rows) {
	case 8:
		micro_rows(t, 8);
		break;
	case 7:
		micro_rows(t, 7);
		break;
	case 6:
		micro_rows(t, 6);
		break;
	case 5:
		micro_rows(t, 5);
		break;
	case 4:
		micro_rows(t, 4);
		break;
	case 3:
		micro_rows(t, 3);
		break;
	case 2:
		micro_rows(t, 2);
		break;
	default:
		micro_rows(t, 1);
		break;
	}
}

struct gemm {
	const struct xrt_cs_dot *d;
	const float *a, *b;
	float *c;
	uint64_t width;		/* columns of one item, a multiple of NR */
	uint64_t parts;		/* items of one matrix */
};

static __mmask16 lanes(uint64_t n)
{
	return n >= 16 ? 0xffff : (__mmask16)((1u << n) - 1);
}

/* Columns [c0, c1) of batch @b, all rows, the whole depth. */
static AVX512 void gemm_part(const struct gemm *g, uint64_t b, uint64_t c0, uint64_t c1)
{
	const struct xrt_cs_dot *d = g->d;
	/* 32 KiB of stack: one strip, no allocation per call */
	float packed[KC * NR] __attribute__((aligned(64)));
	const float *a = g->a + (int64_t)b * d->lhs.batch_stride;
	const float *src = g->b + (int64_t)b * d->rhs.batch_stride;
	float *c = g->c + (int64_t)b * d->out.batch_stride;
	struct micro t = { .lda = d->lhs.row_stride, .ldb = d->rhs.row_stride,
			   .packed = packed, .ldc = d->out.row_stride };
	uint64_t kc, s, i;

	for (kc = 0; kc < d->k; kc += KC) {
		t.kb = (uint32_t)(d->k - kc < KC ? d->k - kc : KC);
		t.load = kc || (d->cmd.flags & XRT_CS_DOT_ACCUMULATE);
		for (s = c0; s < c1; s += NR) {
			t.m0 = lanes(c1 - s);
			t.m1 = c1 - s > 16 ? lanes(c1 - s - 16) : 0;
			for (i = 0; i < d->m; i += MR) {
				t.a = a + (int64_t)i * t.lda + (int64_t)kc;
				t.src = i ? NULL : src + (int64_t)kc * t.ldb + (int64_t)s;
				t.c = c + (int64_t)i * t.ldc + (int64_t)s;
				micro_tile(&t, (int)(d->m - i < MR ? d->m - i : MR));
			}
		}
	}
}

static void gemm_items(void *ctx, uint64_t first, uint64_t count, void *ws)
{
	const struct gemm *g = ctx;
	uint64_t it;

	(void)ws;
	for (it = first; it < first + count; it++) {
		uint64_t c0 = it % g->parts * g->width;
		uint64_t c1 = c0 + g->width < g->d->n ? c0 + g->width : g->d->n;

		gemm_part(g, it / g->parts, c0, c1);
	}
}

/* Rows of contiguous f32, each at a non-negative distance from the last. */
static bool rows_of(const struct xrt_cs_matrix *mx)
{
	return mx->dtype == XRT_CS_F32 && mx->col_stride == 1 && mx->row_stride >= 0 &&
	       mx->batch_stride >= 0;
}

/* The output's rows and matrices apart: the threads write them at once. */
static bool apart(const struct xrt_cs_dot *d)
{
	const struct xrt_cs_matrix *o = &d->out;

	if (d->m > 1 && (uint64_t)o->row_stride < d->n)
		return false;
	return d->batch == 1 ||
	       (uint64_t)o->batch_stride >= (d->m - 1) * (uint64_t)o->row_stride + d->n;
}

static const float *matrix(const struct xrt_engine_ctx *x, const struct xrt_cs_matrix *mx)
{
	return (const float *)(x->slots[mx->slot] + mx->offset);
}

/* Items: a part of a matrix's columns per thread, while each holds MIN_WORK. */
static void split(struct host_pool *p, struct gemm *g)
{
	const struct xrt_cs_dot *d = g->d;
	uint64_t strips = (d->n + NR - 1) / NR;
	uint64_t threads = p ? host_pool_threads(p) : 1;
	uint64_t want = d->batch >= threads ? 1 : (threads + d->batch - 1) / d->batch;
	/* strips a part needs: m <= MAX_M and k <= 2^21, so no overflow */
	uint64_t least = (MIN_WORK + d->m * d->k * NR - 1) / (d->m * d->k * NR);

	g->parts = 1;
	while (g->parts < want && g->parts < strips && strips / (g->parts + 1) >= least)
		g->parts++;
	g->width = (strips + g->parts - 1) / g->parts * NR;
	g->parts = (d->n + g->width - 1) / g->width;
}

bool host_gemm_dot(struct host_pool *p, const struct xrt_engine_ctx *x, uint32_t pc)
{
	const struct xrt_cs_dot *d = (const void *)(x->prog->base + x->prog->offsets[pc]);
	struct gemm g;

	if (!xrt_engine_use_avx512 || d->cmd.op != XRT_CS_OP_DOT ||
	    (d->cmd.flags & ~XRT_CS_DOT_ACCUMULATE) || !d->m || !d->n || !d->k ||
	    d->m > MAX_M || xrt_engine_dot_small(d))
		return false;
	if (!rows_of(&d->lhs) || !rows_of(&d->rhs) || !rows_of(&d->out) || !apart(d))
		return false;
	g = (struct gemm){ d, matrix(x, &d->lhs), matrix(x, &d->rhs), (float *)matrix(x, &d->out) };
	split(p, &g);
	host_pool_for(p, d->batch * g.parts, gemm_items, &g);
	return true;
}
#else
bool host_gemm_dot(struct host_pool *p, const struct xrt_engine_ctx *x, uint32_t pc)
{
	(void)p;
	(void)x;
	(void)pc;
	return false;
}
#endif
