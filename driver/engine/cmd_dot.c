// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DOT: batched matrix multiply.  An item is one tile of one output
 * matrix (TILE_M x TILE_N, smaller for long k) over the whole k range.
 * Every output element is its start value plus the k products added one
 * at a time in k order, each by a fused multiply-add (rounded once: the
 * instruction, or efma_soft() where the CPU has none), whatever path
 * computes it, so results are the same on every executor and schedule.
 *
 * f16, bf16 and f32 inputs take the fast path: blocks of A and B are
 * packed into the thread's workspace as floats, and a register-tiled
 * micro-kernel accumulates each tile: 2 x 16 one element at a time with
 * efma_soft(), 6 x 16 or 4 x 16 with 8-wide vectors where the caller
 * enabled AVX2 with FMA (xrt_engine_use_avx2), and with 16-wide ones
 * where it enabled AVX-512 (xrt_engine_use_avx512): 6 x 32 or 4 x 32,
 * two panels of B at once, the tile's last odd panel 16 wide.  All give
 * the same bits.  Other types load blocks of rows or columns into the
 * workspace in the register format and sum them in plain loops
 * (tile_plain()).
 */
#include "dot_lanes.h"
#include "efma.h"
#include "ew.h"

#define TILE_M	256
#define TILE_N	256
#define BLOCK_K	256
#define MR	4
#define NR	16

/* Workspace of the fast path: packed A and B blocks, the tile's sums, A's staging. */
#define DOT_WS	((TILE_M * BLOCK_K + BLOCK_K * TILE_N + TILE_M * TILE_N + 7 * BLOCK_K) * 4)
/* Of the other types: a row's sums, a block of A's row, a row or column of B. */
#define PLAIN_ES	16	/* the widest register element, c128 */
#define PLAIN_WS	((TILE_N + 2 * BLOCK_K) * PLAIN_ES)

static int fast_path(u32 in)
{
	return in == XRT_CS_F16 || in == XRT_CS_BF16 || in == XRT_CS_F32;
}

/*
 * Products small enough that packing costs more than they do (an eager
 * 8x8 MatMul spent nine tenths of its time packing), one tile each.
 * The path runs a row of C at a time, so with fewer than three vectors
 * of columns each k waits on the add before it: such products take it
 * only while m * k is short (32x8x32 took twice OpenBLAS's time).
 * k is bounded first: with a lhs column stride of 0 any k validates, and
 * m * n * k must not wrap.
 */
#define SMALL_N		32
#define SMALL_MNK	(32 * 32 * 32)
#define SMALL_CHAIN	256

int xrt_engine_dot_small(const struct xrt_cs_dot *c)
{
	return c->lhs.dtype == XRT_CS_F32 && c->rhs.dtype == XRT_CS_F32 &&
	       c->out.dtype == XRT_CS_F32 && c->rhs.col_stride == 1 &&
	       c->out.col_stride == 1 && c->n <= SMALL_N && c->m <= TILE_M &&
	       c->k <= SMALL_MNK && c->m * c->n * c->k <= SMALL_MNK &&
	       (c->n >= 24 || c->m * c->k <= SMALL_CHAIN);
}

static int check_matrix(struct vctx *v, u32 part, const struct xrt_cs_matrix *mx,
			u64 b, u64 r, u64 c, u32 need)
{
	u64 dims[3] = { b, r, c };
	s64 strides[3] = { mx->batch_stride, mx->row_stride, mx->col_stride };

	if (!engine_zero(mx->pad, sizeof(mx->pad)))
		return engine_fail(v, part, "DOT: matrix padding not 0", 0, 0);
	return engine_check_span(v, part, mx->slot, mx->dtype, mx->offset, 3,
				 dims, strides, need);
}

static void span(const struct xrt_cs_matrix *mx, u64 b, u64 r, u64 c,
		 u64 *lo, u64 *hi)
{
	u64 dims[3] = { b, r, c };
	s64 strides[3] = { mx->batch_stride, mx->row_stride, mx->col_stride };

	engine_span_bytes(mx->offset, xs_dtype_size(mx->dtype), 3, dims,
			  strides, lo, hi);
}

static int dot_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_dot *c = cmd;
	u32 in = c->lhs.dtype, out = c->out.dtype;
	u32 need_out = XRT_CS_SLOT_WRITE;
	u64 lo[3], hi[3];

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "DOT: size is not sizeof(struct xrt_cs_dot)",
				   size, sizeof(*c));
	if ((c->cmd.flags & ~XRT_CS_DOT_ACCUMULATE) || c->reserved || c->pad)
		return engine_fail(v, ~0u, "DOT: unknown flags or reserved not 0",
				   c->cmd.flags, 0);
	if (c->rhs.dtype != in || in == XRT_CS_PRED || !xs_dtype_size(in) ||
	    xs_is_small_float(in) || xs_is_sub_byte_int(in))
		return engine_fail(v, ~0u,
				   "DOT: lhs and rhs need one type: not pred, a small float or s4 ... u2",
				   in, c->rhs.dtype);
	if (out != in && !(fast_path(in) && in != XRT_CS_F32 && out == XRT_CS_F32))
		return engine_fail(v, ~0u, "DOT: output type not allowed for the inputs",
				   out, in);
	if (c->k > XRT_CS_DOT_MAX_K)
		return engine_fail(v, ~0u, "DOT: k above XRT_CS_DOT_MAX_K (2^21)",
				   c->k, XRT_CS_DOT_MAX_K);
	if (c->cmd.flags & XRT_CS_DOT_ACCUMULATE)
		need_out |= XRT_CS_SLOT_READ;
	if (check_matrix(v, 0, &c->lhs, c->batch, c->m, c->k, XRT_CS_SLOT_READ) ||
	    check_matrix(v, 1, &c->rhs, c->batch, c->k, c->n, XRT_CS_SLOT_READ) ||
	    check_matrix(v, 2, &c->out, c->batch, c->m, c->n, need_out))
		return -1;
	span(&c->lhs, c->batch, c->m, c->k, &lo[0], &hi[0]);
	span(&c->rhs, c->batch, c->k, c->n, &lo[1], &hi[1]);
	span(&c->out, c->batch, c->m, c->n, &lo[2], &hi[2]);
	if (engine_overlap(c->out.slot, lo[2], hi[2], c->lhs.slot, lo[0], hi[0]) ||
	    engine_overlap(c->out.slot, lo[2], hi[2], c->rhs.slot, lo[1], hi[1]))
		return engine_fail(v, 2, "DOT: out overlaps lhs or rhs", 0, 0);
	if (fast_path(in) && DOT_WS > v->prog->thread_ws_size)
		v->prog->thread_ws_size = DOT_WS;
	if (!fast_path(in) && PLAIN_WS > v->prog->thread_ws_size)
		v->prog->thread_ws_size = PLAIN_WS;
	return 0;
}

/*
 * An item does at most ITEM_WORK multiply-adds, counting the padding of
 * partial micro-tiles: a kernel worker runs it with preemption off, and
 * a column stride of 0 lets any k up to XRT_CS_DOT_MAX_K validate.
 * Past ITEM_WORK / (TILE_M * TILE_N) the tile loses rows, then columns,
 * in whole micro-tiles, down to one micro-tile at the longest k.
 */
#define ITEM_WORK	(XRT_CS_DOT_MAX_K * MR * NR)

static u64 outputs_per_item(const struct xrt_cs_dot *c)
{
	return ITEM_WORK / (c->k ? c->k : 1);
}

static u64 tile_cols(const struct xrt_cs_dot *c)
{
	u64 per = outputs_per_item(c);

	return engine_min(per / MR / NR * NR, TILE_N);
}

static u64 tile_rows(const struct xrt_cs_dot *c)
{
	return engine_min(outputs_per_item(c) / tile_cols(c) / MR * MR, TILE_M);
}

static u64 dot_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	const struct xrt_cs_dot *c = cmd;

	if (!c->m || !c->n)
		return 0;
	if (engine_dot_lanes(c))
		return engine_dot_lanes_items(c);
	return c->batch * ((c->m + tile_rows(c) - 1) / tile_rows(c)) *
	       ((c->n + tile_cols(c) - 1) / tile_cols(c));
}

/* Element [b][r][col] of a matrix. */
static const u8 *at(const struct xrt_engine_ctx *x, const struct xrt_cs_matrix *mx,
		    u64 b, u64 r, u64 col)
{
	s64 e = (s64)b * mx->batch_stride + (s64)r * mx->row_stride +
		(s64)col * mx->col_stride;

	return engine_ptr(x, mx->slot, mx->offset) + e * (s64)xs_dtype_size(mx->dtype);
}

/*
 * Rows of A go to the micro-kernels in groups of 6 and 4 (AVX2) or 2:
 * the height of the group starting at row @i of @mp (a multiple of 4).
 */
static u32 group_height(u32 mp, u32 i)
{
	u32 six = mp / 6 * 6;

	if (!xrt_engine_use_avx2)
		return 2;
	if ((mp - six) % 4)
		six -= 6;
	return i < six ? 6 : 4;
}

/* dst[k][r] = src[r][k] for a group of @h rows: the k-major run a micro-kernel reads. */
static __always_inline void interleave(const float *const *src, u32 h, u32 kb, float *dst)
{
	u32 k, r;

	for (k = 0; k < kb; k++)
#pragma GCC unroll 6
		for (r = 0; r < h; r++)
			dst[(size_t)k * h + r] = src[r][k];
}

/* The same for rows whose columns lie @cs[r] apart (a depthwise convolution's patches). */
static void pack_group(const float *const *src, const s64 *cs, u32 h, u32 kb, float *dst)
{
	u32 r, k;

	for (r = 0; r < h && cs[r] == 1; r++)
		;
	if (r == h && h == 6) {
		interleave(src, 6, kb, dst);
	} else if (r == h && h == 4) {
		interleave(src, 4, kb, dst);
	} else {
		for (k = 0; k < kb; k++)
			for (r = 0; r < h; r++)
				dst[(size_t)k * h + r] = src[r][(s64)k * cs[r]];
	}
}

/*
 * Packs rows [r0, r0+rows) x cols [c0, c0+kb) of A as floats, zero rows
 * up to @mp, each group of rows as one panel holding the group's column
 * k side by side: a micro-kernel then reads one contiguous run.  Rows of
 * f32 with unit column stride are read where they lie, the others first
 * loaded into @stage (6 rows of BLOCK_K, then BLOCK_K zeros); each group
 * is written k by k, in order (a fifth of the engine's 1024^3 product
 * went to writing it a row at a time, each float h apart).
 */
static void pack_a(const struct xrt_engine_ctx *x, const struct xrt_cs_matrix *mx, u64 b,
		   u64 r0, u32 rows, u64 c0, u32 kb, float *dst, u32 mp, float *stage)
{
	int direct = mx->dtype == XRT_CS_F32;
	const float *src[6], *zeros = stage + 6 * BLOCK_K;
	s64 cs[6];
	u32 s, r, h;

	memset(stage + 6 * BLOCK_K, 0, kb * sizeof(float));
	for (s = 0; s < mp; s += h) {
		h = group_height(mp, s);
		for (r = 0; r < h; r++) {
			const u8 *p = s + r < rows ? at(x, mx, b, r0 + s + r, c0) : NULL;

			cs[r] = p && direct ? mx->col_stride : 1;
			if (!p)
				src[r] = zeros;
			else if (direct)
				src[r] = (const float *)p;
			else
				ew_load(mx->dtype, stage + r * BLOCK_K, p, mx->col_stride, kb);
			if (p && !direct)
				src[r] = stage + r * BLOCK_K;
		}
		pack_group(src, cs, h, kb, dst + (size_t)s * kb);
	}
}

int xrt_engine_use_avx2;
int xrt_engine_use_avx512;

/* Eight 32-bit float lanes. */
typedef float v8f __attribute__((vector_size(8 * sizeof(u32))));

#define LD8(p) ({ v8f _v; memcpy(&_v, (p), 32); _v; })
#define ST8(p, v) do { v8f _v = (v); memcpy((p), &_v, 32); } while (0)

/*
 * C[2][16] += A[2][kb] * B[kb][16] without the FMA instruction (the
 * kernel's SSE2 build on such a CPU, QEMU's default one): each element
 * one efma_soft() a k, eight times the time of the instruction's path.
 */
static void micro_soft(const float *a, const float *bm, u32 ldb, u32 kb, float *cm, u32 ldc)
{
	float c[2][NR];
	u32 k, r, j;

	for (r = 0; r < 2; r++)
		memcpy(c[r], cm + r * ldc, sizeof(c[r]));
	for (k = 0; k < kb; k++)
		for (r = 0; r < 2; r++)
			for (j = 0; j < NR; j++)
				c[r][j] = efma_soft(a[2 * k + r], bm[(size_t)k * ldb + j], c[r][j]);
	for (r = 0; r < 2; r++)
		memcpy(cm + r * ldc, c[r], sizeof(c[r]));
}

/* One row of micro6_avx2: (*c0, *c1) += s * (b0, b1). */
__attribute__((target("avx2,fma")))
static __always_inline void row6_avx2(float s, const v8f *b0, const v8f *b1, v8f *c0, v8f *c1)
{
	v8f x = { s, s, s, s, s, s, s, s };

	*c0 = EFMA8(x, *b0, *c0);
	*c1 = EFMA8(x, *b1, *c1);
}

/* C[6][16] with 8-wide vectors (AVX2 and FMA): 12 accumulators. */
__attribute__((target("avx2,fma")))
static void micro6_avx2(const float *a, const float *bm, u32 ldb, u32 kb, float *cm,
			u32 ldc)
{
	v8f c00 = LD8(cm), c01 = LD8(cm + 8);
	v8f c10 = LD8(cm + ldc), c11 = LD8(cm + ldc + 8);
	v8f c20 = LD8(cm + 2 * ldc), c21 = LD8(cm + 2 * ldc + 8);
	v8f c30 = LD8(cm + 3 * ldc), c31 = LD8(cm + 3 * ldc + 8);
	v8f c40 = LD8(cm + 4 * ldc), c41 = LD8(cm + 4 * ldc + 8);
	v8f c50 = LD8(cm + 5 * ldc), c51 = LD8(cm + 5 * ldc + 8);
	u32 k;

	for (k = 0; k < kb; k++) {
		const float *b = bm + (size_t)k * ldb;
		const float *ak = a + 6 * k;
		v8f b0 = LD8(b), b1 = LD8(b + 8);

		row6_avx2(ak[0], &b0, &b1, &c00, &c01);
		row6_avx2(ak[1], &b0, &b1, &c10, &c11);
		row6_avx2(ak[2], &b0, &b1, &c20, &c21);
		row6_avx2(ak[3], &b0, &b1, &c30, &c31);
		row6_avx2(ak[4], &b0, &b1, &c40, &c41);
		row6_avx2(ak[5], &b0, &b1, &c50, &c51);
	}
	ST8(cm, c00);
	ST8(cm + 8, c01);
	ST8(cm + ldc, c10);
	ST8(cm + ldc + 8, c11);
	ST8(cm + 2 * ldc, c20);
	ST8(cm + 2 * ldc + 8, c21);
	ST8(cm + 3 * ldc, c30);
	ST8(cm + 3 * ldc + 8, c31);
	ST8(cm + 4 * ldc, c40);
	ST8(cm + 4 * ldc + 8, c41);
	ST8(cm + 5 * ldc, c50);
	ST8(cm + 5 * ldc + 8, c51);
}

/* C[4][16] with 8-wide vectors (AVX2 and FMA). */
__attribute__((target("avx2,fma")))
static void micro_avx2(const float *a, const float *bm, u32 ldb, u32 kb, float *cm,
		       u32 ldc)
{
	v8f c00 = LD8(cm), c01 = LD8(cm + 8);
	v8f c10 = LD8(cm + ldc), c11 = LD8(cm + ldc + 8);
	v8f c20 = LD8(cm + 2 * ldc), c21 = LD8(cm + 2 * ldc + 8);
	v8f c30 = LD8(cm + 3 * ldc), c31 = LD8(cm + 3 * ldc + 8);
	u32 k;

	for (k = 0; k < kb; k++) {
		const float *b = bm + (size_t)k * ldb;
		float s0 = a[4 * k], s1 = a[4 * k + 1], s2 = a[4 * k + 2], s3 = a[4 * k + 3];
		v8f b0 = LD8(b), b1 = LD8(b + 8);
		v8f x0 = { s0, s0, s0, s0, s0, s0, s0, s0 };
		v8f x1 = { s1, s1, s1, s1, s1, s1, s1, s1 };
		v8f x2 = { s2, s2, s2, s2, s2, s2, s2, s2 };
		v8f x3 = { s3, s3, s3, s3, s3, s3, s3, s3 };

		c00 = EFMA8(x0, b0, c00);
		c01 = EFMA8(x0, b1, c01);
		c10 = EFMA8(x1, b0, c10);
		c11 = EFMA8(x1, b1, c11);
		c20 = EFMA8(x2, b0, c20);
		c21 = EFMA8(x2, b1, c21);
		c30 = EFMA8(x3, b0, c30);
		c31 = EFMA8(x3, b1, c31);
	}
	ST8(cm, c00);
	ST8(cm + 8, c01);
	ST8(cm + ldc, c10);
	ST8(cm + ldc + 8, c11);
	ST8(cm + 2 * ldc, c20);
	ST8(cm + 2 * ldc + 8, c21);
	ST8(cm + 3 * ldc, c30);
	ST8(cm + 3 * ldc + 8, c31);
}

/* Sixteen lanes: a row of a B panel in one vector. */
typedef float v16f __attribute__((vector_size(16 * sizeof(u32))));

/*
 * C[@h][16] with 16-wide vectors (AVX-512): one vector a row, the same
 * fused multiply-add per element as the narrower kernels.
 */
ENGINE_AVX512 __attribute__((target("fma")))
static __always_inline void rows_avx512(const float *a, const float *bm, u32 kb, float *cm,
					u32 ldc, u32 h)
{
	v16f c[6], b;
	u32 k, r;

#pragma GCC unroll 6
	for (r = 0; r < h; r++)
		memcpy(&c[r], cm + r * ldc, sizeof(c[r]));
	for (k = 0; k < kb; k++) {
		memcpy(&b, bm + (size_t)k * NR, sizeof(b));
#pragma GCC unroll 6
		for (r = 0; r < h; r++) {
			float s = a[h * k + r];
			v16f x = { s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s };

			c[r] = EFMA16(x, b, c[r]);
		}
	}
#pragma GCC unroll 6
	for (r = 0; r < h; r++)
		memcpy(cm + r * ldc, &c[r], sizeof(c[r]));
}

ENGINE_AVX512 __attribute__((target("fma")))
static void micro_avx512(const float *a, const float *bm, u32 kb, float *cm, u32 ldc, u32 h)
{
	if (h == 6)
		rows_avx512(a, bm, kb, cm, ldc, 6);
	else
		rows_avx512(a, bm, kb, cm, ldc, 4);
}

/*
 * C[@h][16 @np]: @np panels of B side by side (BLOCK_K * NR apart), a
 * vector of each a row.  A fused multiply-add waits for the one before
 * on its accumulator (4 cycles, 2 issued a cycle): one panel keeps 6 in
 * flight, half of what the FMA units take (the 1024^3 product ran at 88
 * GFLOP/s), two keep 12 (and three, with 18, ran no faster), and each
 * broadcast of A serves them all.
 */
ENGINE_AVX512 __attribute__((target("fma")))
static __always_inline void panels_avx512(const float *a, const float *bm, u32 kb, float *cm,
					  u32 ldc, u32 h, u32 np)
{
	v16f c[2][6], bv[2];
	u32 k, r, p;

#pragma GCC unroll 2
	for (p = 0; p < np; p++)
#pragma GCC unroll 6
		for (r = 0; r < h; r++)
			memcpy(&c[p][r], cm + r * ldc + p * NR, sizeof(c[p][r]));
	for (k = 0; k < kb; k++) {
#pragma GCC unroll 2
		for (p = 0; p < np; p++)
			memcpy(&bv[p], bm + ((size_t)p * BLOCK_K + k) * NR, sizeof(bv[p]));
#pragma GCC unroll 6
		for (r = 0; r < h; r++) {
			float s = a[h * k + r];
			v16f x = { s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s };

			/* one broadcast for all: the loads, not the FMAs, bound it otherwise */
			__asm__("" : "+v"(x));
#pragma GCC unroll 2
			for (p = 0; p < np; p++)
				c[p][r] = EFMA16(x, bv[p], c[p][r]);
		}
	}
#pragma GCC unroll 2
	for (p = 0; p < np; p++)
#pragma GCC unroll 6
		for (r = 0; r < h; r++)
			memcpy(cm + r * ldc + p * NR, &c[p][r], sizeof(c[p][r]));
}

ENGINE_AVX512 __attribute__((target("fma")))
static void micro2_avx512(const float *a, const float *bm, u32 kb, float *cm, u32 ldc, u32 h)
{
	if (h == 6)
		panels_avx512(a, bm, kb, cm, ldc, 6, 2);
	else
		panels_avx512(a, bm, kb, cm, ldc, 4, 2);
}

static void tile_fast(const struct xrt_engine_ctx *x, const struct xrt_cs_dot *c,
		      u64 b, u64 i0, u32 mb, u64 j0, u32 nb, float *ws)
{
	float *pa = ws, *pb = pa + TILE_M * BLOCK_K, *pc = pb + BLOCK_K * TILE_N;
	float *stage = pc + TILE_M * TILE_N;
	u32 mp = (mb + MR - 1) / MR * MR, np = (nb + NR - 1) / NR * NR;
	u32 i, j, kb;
	u64 k0;

	for (i = 0; i < mp; i++)	/* the columns the micro-kernels touch */
		memset(pc + i * TILE_N, 0, np * sizeof(float));
	if (c->cmd.flags & XRT_CS_DOT_ACCUMULATE)
		for (i = 0; i < mb; i++)
			ew_load(c->out.dtype, pc + i * TILE_N, at(x, &c->out, b, i0 + i, j0),
				c->out.col_stride, nb);
	for (k0 = 0; k0 < c->k; k0 += BLOCK_K) {
		u32 p, h, w;

		kb = (u32)engine_min(c->k - k0, BLOCK_K);
		pack_a(x, &c->lhs, b, i0, mb, k0, kb, pa, mp, stage);
		/*
		 * B panel by panel: NR columns of every k side by side, so a
		 * panel is one contiguous run (rows of the block TILE_N apart
		 * would map a panel onto a few cache sets).
		 */
		for (i = 0; i < kb; i++) {
			const u8 *src = at(x, &c->rhs, b, k0 + i, j0);
			float row[TILE_N];
			u32 whole = 0;	/* panels copied from where f32 rows lie */

			if (c->rhs.dtype == XRT_CS_F32 && c->rhs.col_stride == 1)
				for (; whole < nb / NR; whole++)
					memcpy(pb + ((size_t)whole * BLOCK_K + i) * NR,
					       src + (size_t)whole * NR * 4, NR * sizeof(float));
			if (whole * NR == np)
				continue;
			ew_load(c->rhs.dtype, row, src, c->rhs.col_stride, nb);
			for (j = nb; j < np; j++)
				row[j] = 0;
			for (p = whole; p < np / NR; p++)
				memcpy(pb + ((size_t)p * BLOCK_K + i) * NR, row + p * NR,
				       NR * sizeof(float));
		}
		/* Column panels outside: one or two panels of B stay in L1. */
		for (j = 0; j < np; j += w) {
			w = xrt_engine_use_avx512 && j + 2 * NR <= np ? 2 * NR : NR;
			for (i = 0; i < mp; i += h) {
				const float *a = pa + (size_t)i * kb;
				const float *bp = pb + j * BLOCK_K;
				float *cp = pc + i * TILE_N + j;

				h = group_height(mp, i);
				if (h > 2 && w == 2 * NR)
					micro2_avx512(a, bp, kb, cp, TILE_N, h);
				else if (h > 2 && xrt_engine_use_avx512)
					micro_avx512(a, bp, kb, cp, TILE_N, h);
				else if (h == 6)
					micro6_avx2(a, bp, NR, kb, cp, TILE_N);
				else if (h == 4)
					micro_avx2(a, bp, NR, kb, cp, TILE_N);
				else
					micro_soft(a, bp, NR, kb, cp, TILE_N);
			}
		}
	}
	/* f16 and bf16 outputs round once, here. */
	for (i = 0; i < mb; i++)
		ew_store(c->out.dtype, (u8 *)at(x, &c->out, b, i0 + i, j0),
			 c->out.col_stride, pc + i * TILE_N, nb);
}

/* A row of C while its sums are made: @nv vectors and n % 8 leftovers. */
struct small_row {
	v8f v[4];
	float tail[8];
};

/* Starts @r at zero, or at the row @o holds for ACCUMULATE. */
static __always_inline void row_start(u32 nv, u32 n, int acc, const float *o,
				      struct small_row *r)
{
	u32 t = 8 * nv, j;
	v8f z = { 0 };

	r->v[0] = z;
	r->v[1] = z;
	r->v[2] = z;
	r->v[3] = z;
	if (acc) {
		memcpy(&r->v[0], o, nv > 0 ? sizeof(v8f) : 0);
		memcpy(&r->v[1], o + 8, nv > 1 ? sizeof(v8f) : 0);
		memcpy(&r->v[2], o + 16, nv > 2 ? sizeof(v8f) : 0);
		memcpy(&r->v[3], o + 24, nv > 3 ? sizeof(v8f) : 0);
	}
	for (j = t; j < n; j++)
		r->tail[j - t] = acc ? o[j] : 0;
}

static __always_inline void row_store(u32 nv, u32 n, float *o,
				      const struct small_row *r)
{
	u32 t = 8 * nv, j;

	memcpy(o, &r->v[0], nv > 0 ? sizeof(v8f) : 0);
	memcpy(o + 8, &r->v[1], nv > 1 ? sizeof(v8f) : 0);
	memcpy(o + 16, &r->v[2], nv > 2 ? sizeof(v8f) : 0);
	memcpy(o + 24, &r->v[3], nv > 3 ? sizeof(v8f) : 0);
	for (j = t; j < n; j++)
		o[j] = r->tail[j - t];
}

/* Adds @s times the row of B at @bp, a fused multiply-add an element. */
__attribute__((target("avx2,fma")))
static __always_inline void small_step(u32 nv, u32 n, float s, const float *bp,
				       struct small_row *r)
{
	v8f sv = { s, s, s, s, s, s, s, s }, bv;
	u32 t = 8 * nv, j;

	if (nv > 0) {
		memcpy(&bv, bp, sizeof(bv));
		r->v[0] = EFMA8(sv, bv, r->v[0]);
	}
	if (nv > 1) {
		memcpy(&bv, bp + 8, sizeof(bv));
		r->v[1] = EFMA8(sv, bv, r->v[1]);
	}
	if (nv > 2) {
		memcpy(&bv, bp + 16, sizeof(bv));
		r->v[2] = EFMA8(sv, bv, r->v[2]);
	}
	if (nv > 3) {
		memcpy(&bv, bp + 24, sizeof(bv));
		r->v[3] = EFMA8(sv, bv, r->v[3]);
	}
	for (j = t; j < n; j++)
		r->tail[j - t] = __builtin_fmaf(s, bp[j], r->tail[j - t]);
}

/*
 * C = start + A B for one small f32 matrix, two rows of C at a time:
 * each row's @nv full vectors of 8 columns stay in registers (@nv is a
 * constant where this is inlined), its last n % 8 columns go one by
 * one.  The pair shares each row of B it loads, and its two chains of
 * adds overlap; an odd last row goes alone, and so do rows of more than
 * two vectors (two of those spill registers).  Each element gets its
 * products one k at a time after its start value, fused, as on the
 * packed path: the same bits.
 */
__attribute__((target("avx2,fma")))
static __always_inline void small_rows(u32 nv, const struct xrt_cs_dot *c,
				       const float *a, const float *b, float *o)
{
	u32 n = nv < SMALL_N / 8 ? (u32)c->n : SMALL_N;
	s64 astep = c->lhs.col_stride, bstep = c->rhs.row_stride;
	s64 arow = c->lhs.row_stride, orow = c->out.row_stride;
	int acc = c->cmd.flags & XRT_CS_DOT_ACCUMULATE;
	u64 kn = c->k, i, k;
	struct small_row r0, r1;

	/*
	 * Pointers from offsets of elements that are read: a stride may be far
	 * out of range of a row or k that is not (past the last, or any when
	 * k is 0), and such a pointer is undefined even unread.
	 */
	for (i = 0; nv <= 2 && i + 1 < c->m; i += 2) {
		float *oi = o + (s64)i * orow;

		row_start(nv, n, acc, oi, &r0);
		row_start(nv, n, acc, oi + orow, &r1);
		for (k = 0; k < kn; k++) {
			const float *ap = a + ((s64)i * arow + (s64)k * astep);
			const float *bp = b + (s64)k * bstep;

			small_step(nv, n, ap[0], bp, &r0);
			small_step(nv, n, ap[arow], bp, &r1);
		}
		row_store(nv, n, oi, &r0);
		row_store(nv, n, oi + orow, &r1);
	}
	for (; i < c->m; i++) {
		float *oi = o + (s64)i * orow;

		row_start(nv, n, acc, oi, &r0);
		for (k = 0; k < kn; k++)
			small_step(nv, n, a[(s64)i * arow + (s64)k * astep], b + (s64)k * bstep,
				   &r0);
		row_store(nv, n, oi, &r0);
	}
}

/* small_rows() with its vector count a constant. */
__attribute__((target("avx2,fma")))
static __always_inline void small_any(const struct xrt_cs_dot *c, const float *a,
				      const float *b, float *o)
{
	switch (c->n / 8) {
	case 0:
		small_rows(0, c, a, b, o);
		break;
	case 1:
		small_rows(1, c, a, b, o);
		break;
	case 2:
		small_rows(2, c, a, b, o);
		break;
	case 3:
		small_rows(3, c, a, b, o);
		break;
	default:	/* n is SMALL_N */
		small_rows(4, c, a, b, o);
		break;
	}
}

__attribute__((target("avx2,fma")))
static void small_fma(const struct xrt_cs_dot *c, const float *a, const float *b,
		      float *o)
{
	small_any(c, a, b, o);
}

/*
 * The same products without the FMA instruction: an element at a time,
 * its start value then efma_soft() for each k (the same bits, slowly;
 * the vector form's copies of its rows took 2.7 KiB of a kernel stack).
 */
static void small_soft(const struct xrt_cs_dot *c, const float *a, const float *b,
		       float *o)
{
	s64 astep = c->lhs.col_stride, bstep = c->rhs.row_stride;
	s64 arow = c->lhs.row_stride, orow = c->out.row_stride;
	int acc = c->cmd.flags & XRT_CS_DOT_ACCUMULATE;
	u64 i, j, k;

	for (i = 0; i < c->m; i++)
		for (j = 0; j < c->n; j++) {
			float *oij = o + (s64)i * orow + (s64)j;
			float sum = acc ? *oij : 0;

			for (k = 0; k < c->k; k++)
				sum = efma_soft(a[(s64)i * arow + (s64)k * astep],
						b[(s64)k * bstep + (s64)j], sum);
			*oij = sum;
		}
}

/* Batch @b of a product xrt_engine_dot_small() takes: straight from the operands. */
static void dot_small(const struct xrt_engine_ctx *x, const struct xrt_cs_dot *c, u64 b)
{
	/* k of 0: the operands are empty, their strides anything; never read */
	const float *pa = c->k ? (const float *)at(x, &c->lhs, b, 0, 0) : NULL;
	const float *pb = c->k ? (const float *)at(x, &c->rhs, b, 0, 0) : NULL;
	float *po = (float *)at(x, &c->out, b, 0, 0);

	if (xrt_engine_use_avx2)
		small_fma(c, pa, pb, po);
	else
		small_soft(c, pa, pb, po);
}

/*
 * Types off the fast path (integers, f64, complex): per row of the tile,
 * a block of k at a time, the row of A and then either each row of B
 * (in the register format; its columns side by side) or, for tiles
 * narrower than PLAIN_ACROSS, each column of B are loaded into the
 * workspace, and every element adds its block's products in k order to
 * its sum (s64, double, or float or double pairs).  Integers wrap at the
 * store.
 */
#define PLAIN_ACROSS	8	/* the fewest columns that take B a row at a time */

/* Bytes of one register element: s64, double and c64's float pair 8. */
static u32 rep_bytes(enum ew_class cls)
{
	return cls == EW_C128 ? 16 : 8;
}

/* acc[j] += a * b[j] for j < n: a row of B into a row of sums. */
static void plain_across(enum ew_class cls, void *acc, const void *av, const void *bv, u32 n)
{
	u32 j;

	switch (cls) {
	case EW_INT: {
		const s64 *b = bv;
		u64 a = *(const u64 *)av, *s = acc;

		for (j = 0; j < n; j++)
			s[j] += a * (u64)b[j];
		break;
	}
	case EW_C64: {
		const float *a = av, *b = bv;
		float *s = acc;

		for (j = 0; j < n; j++) {
			s[2 * j] = s[2 * j] + (a[0] * b[2 * j] - a[1] * b[2 * j + 1]);
			s[2 * j + 1] = s[2 * j + 1] + (a[0] * b[2 * j + 1] + a[1] * b[2 * j]);
		}
		break;
	}
	case EW_C128: {
		const double *a = av, *b = bv;
		double *s = acc;

		for (j = 0; j < n; j++) {
			s[2 * j] = s[2 * j] + (a[0] * b[2 * j] - a[1] * b[2 * j + 1]);
			s[2 * j + 1] = s[2 * j + 1] + (a[0] * b[2 * j + 1] + a[1] * b[2 * j]);
		}
		break;
	}
	default: {	/* f64 */
		const double *b = bv;
		double a = *(const double *)av, *s = acc;

		for (j = 0; j < n; j++)
			s[j] = s[j] + a * b[j];
		break;
	}
	}
}

/* *acc += a[k] * b[k] for k < n, in k order: a column of B into one sum. */
static void plain_down(enum ew_class cls, void *acc, const void *av, const void *bv, u32 n)
{
	u32 k;

	switch (cls) {
	case EW_INT: {
		const s64 *a = av, *b = bv;
		u64 s = *(u64 *)acc;

		for (k = 0; k < n; k++)
			s += (u64)a[k] * (u64)b[k];
		*(u64 *)acc = s;
		break;
	}
	case EW_C64: {
		const float *a = av, *b = bv;
		float *s = acc, re = s[0], im = s[1];

		for (k = 0; k < n; k++) {
			re = re + (a[2 * k] * b[2 * k] - a[2 * k + 1] * b[2 * k + 1]);
			im = im + (a[2 * k] * b[2 * k + 1] + a[2 * k + 1] * b[2 * k]);
		}
		s[0] = re;
		s[1] = im;
		break;
	}
	case EW_C128: {
		const double *a = av, *b = bv;
		double *s = acc, re = s[0], im = s[1];

		for (k = 0; k < n; k++) {
			re = re + (a[2 * k] * b[2 * k] - a[2 * k + 1] * b[2 * k + 1]);
			im = im + (a[2 * k] * b[2 * k + 1] + a[2 * k + 1] * b[2 * k]);
		}
		s[0] = re;
		s[1] = im;
		break;
	}
	default: {	/* f64 */
		const double *a = av, *b = bv;
		double s = *(double *)acc;

		for (k = 0; k < n; k++)
			s = s + a[k] * b[k];
		*(double *)acc = s;
		break;
	}
	}
}

/* Row @i of the tile, its products over k in [@k0, @k0 + @kb). */
static void plain_block(const struct xrt_engine_ctx *x, const struct xrt_cs_dot *c, u64 b,
			u64 i, u64 j0, u32 nb, u64 k0, u32 kb, u8 *ws)
{
	u32 t = c->lhs.dtype, es, j, k;
	enum ew_class cls = ew_class_of(t);
	u8 *acc = ws, *arow = acc + TILE_N * PLAIN_ES, *bv = arow + BLOCK_K * PLAIN_ES;

	es = rep_bytes(cls);
	ew_load(t, arow, at(x, &c->lhs, b, i, k0), c->lhs.col_stride, kb);
	if (nb >= PLAIN_ACROSS) {
		for (k = 0; k < kb; k++) {
			ew_load(t, bv, at(x, &c->rhs, b, k0 + k, j0), c->rhs.col_stride, nb);
			plain_across(cls, acc, arow + (size_t)k * es, bv, nb);
		}
		return;
	}
	for (j = 0; j < nb; j++) {
		ew_load(t, bv, at(x, &c->rhs, b, k0, j0 + j), c->rhs.row_stride, kb);
		plain_down(cls, acc + (size_t)j * es, arow, bv, kb);
	}
}

static void tile_plain(const struct xrt_engine_ctx *x, const struct xrt_cs_dot *c,
		       u64 b, u64 i0, u32 mb, u64 j0, u32 nb, u8 *ws)
{
	u32 t = c->lhs.dtype, i;
	u64 k0;

	for (i = 0; i < mb; i++) {
		u8 *o = (u8 *)at(x, &c->out, b, i0 + i, j0);

		memset(ws, 0, (size_t)nb * PLAIN_ES);
		if (c->cmd.flags & XRT_CS_DOT_ACCUMULATE)
			ew_load(t, ws, o, c->out.col_stride, nb);
		for (k0 = 0; k0 < c->k; k0 += BLOCK_K)
			plain_block(x, c, b, i0 + i, j0, nb, k0,
				    (u32)engine_min(c->k - k0, BLOCK_K), ws);
		if (ew_class_of(t) == EW_INT)
			ew_int_wrap(t, (s64 *)ws, nb);
		ew_store(t, o, c->out.col_stride, ws, nb);
	}
}

static void dot_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		    u64 first, u64 count, void *ws)
{
	const struct xrt_cs_dot *c = cmd;
	u64 rows = tile_rows(c), cols = tile_cols(c);
	u64 across = (c->n + cols - 1) / cols, it;
	u64 per_batch = (c->m + rows - 1) / rows * across;

	for (it = first; it < first + count && engine_dot_lanes(c); it++)
		engine_dot_lanes_run(x, c, it, ws);
	for (it = first; it < first + count && !engine_dot_lanes(c); it++) {
		u64 b = it / per_batch, t = it % per_batch;
		u64 i0 = t / across * rows, j0 = t % across * cols;
		u32 mb = (u32)engine_min(c->m - i0, rows);
		u32 nb = (u32)engine_min(c->n - j0, cols);

		if (xrt_engine_dot_small(c)) {
			dot_small(x, c, b);	/* the whole matrix: its one tile */
			continue;
		}
		if (fast_path(c->lhs.dtype)) {
			tile_fast(x, c, b, i0, mb, j0, nb, ws);
			continue;
		}
		tile_plain(x, c, b, i0, mb, j0, nb, ws);
	}
}

const struct cmd_ops engine_dot_ops = {
	.name = "DOT",
	.fixed_size = sizeof(struct xrt_cs_dot),
	.validate = dot_validate,
	.phases = engine_one_phase,
	.items = dot_items,
	.run = dot_run,
};
