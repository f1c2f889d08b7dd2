// SPDX-License-Identifier: MIT
/*
 * DOT against a plain triple loop that accumulates the same way (start
 * value, then each product added in k order; f16, bf16 and f32 by fused
 * multiply-adds, libm's fmaf, other types multiply then add):
 * results must match bit for bit, for every type, with transposed and
 * broadcast operands, partial tiles and k blocks, and ACCUMULATE.
 */
#include <complex.h>
#include <math.h>
#include <inttypes.h>

#include "engine_test.h"
#include "dot_lanes.h"
#include "efma.h"

#include <xrt/dtype.h>

struct mat {
	uint32_t dtype;
	int64_t bs, rs, cs;	/* strides */
	uint64_t size;		/* bytes of the buffer */
};

static struct xrt_cs_matrix matrix(uint32_t slot, const struct mat *m)
{
	struct xrt_cs_matrix x;

	memset(&x, 0, sizeof(x));
	x.slot = slot;
	x.dtype = (uint8_t)m->dtype;
	x.batch_stride = m->bs;
	x.row_stride = m->rs;
	x.col_stride = m->cs;
	return x;
}

/* Element value as double pair (complex), from a buffer. */
static void get(uint32_t t, const uint8_t *base, int64_t e, double *re, double *im)
{
	const uint8_t *p = base + e * (int64_t)xs_dtype_size(t);
	uint16_t h;
	float f[2];
	double d[2];
	int64_t v = 0;

	*im = 0;
	switch (t) {
	case XRT_CS_F16: memcpy(&h, p, 2); *re = xrt_f16_to_f32(h); break;
	case XRT_CS_BF16: memcpy(&h, p, 2); *re = xrt_bf16_to_f32(h); break;
	case XRT_CS_F32: memcpy(f, p, 4); *re = f[0]; break;
	case XRT_CS_F64: memcpy(d, p, 8); *re = d[0]; break;
	case XRT_CS_C64: memcpy(f, p, 8); *re = f[0]; *im = f[1]; break;
	case XRT_CS_C128: memcpy(d, p, 16); *re = d[0]; *im = d[1]; break;
	case XRT_CS_S8: v = *(const int8_t *)p; *re = (double)v; break;
	case XRT_CS_U8: v = *p; *re = (double)v; break;
	default: memcpy(&v, p, 4); *re = (double)(int32_t)v; break;
	}
}

/* Fills a buffer with small values of type @t (exact in every type). */
static void fill(uint32_t t, uint8_t *p, uint64_t bytes, uint32_t seed)
{
	uint32_t es = xs_dtype_size(t);
	uint64_t i;

	for (i = 0; i < bytes / es; i++) {
		double v;
		uint16_t h;
		float f;

		seed = seed * 1103515245u + 12345u;
		v = (double)((int)(seed >> 16) % 201 - 100) / (t >= XRT_CS_F16 ? 16.0 : 1.0);
		if (t >= XRT_CS_F16 && (seed & 0x100))	/* inexact sums for floats */
			v = v / 3.0 + 1e-3;
		switch (t) {
		case XRT_CS_F16: h = xrt_f16_from_f64(v); memcpy(p + i * 2, &h, 2); break;
		case XRT_CS_BF16: h = xrt_bf16_from_f64(v); memcpy(p + i * 2, &h, 2); break;
		case XRT_CS_F32: case XRT_CS_C64:
			f = (float)v; memcpy(p + i * 4, &f, 4); break;
		case XRT_CS_F64: case XRT_CS_C128: memcpy(p + i * 8, &v, 8); break;
		case XRT_CS_S8: p[i] = (uint8_t)(int8_t)v; break;
		case XRT_CS_U8: p[i] = (uint8_t)(seed >> 20); break;
		default: { int32_t s = (int32_t)(seed >> 1); memcpy(p + i * 4, &s, 4); }
		}
	}
}

/* The expected output element, accumulated as the format says. */
static void expect(uint32_t in, uint32_t out, int accumulate, const uint8_t *a,
		   const struct mat *ma, const uint8_t *b, const struct mat *mb,
		   const uint8_t *o, const struct mat *mo, uint64_t bi, uint64_t i,
		   uint64_t j, uint64_t k, uint8_t *want)
{
	int64_t eo = (int64_t)bi * mo->bs + (int64_t)i * mo->rs + (int64_t)j * mo->cs;
	double re = 0, im = 0, ar, ai, br, bi_;
	float fre = 0, fim = 0;
	uint64_t iacc = 0;
	uint64_t kk;

	if (accumulate) {
		get(out, o, eo, &re, &im);
		fre = (float)re;
		fim = (float)im;
		if (out < XRT_CS_F16)
			memcpy(&iacc, o + eo * (int64_t)xs_dtype_size(out),
			       xs_dtype_size(out));
	}
	for (kk = 0; kk < k; kk++) {
		get(in, a, (int64_t)bi * ma->bs + (int64_t)i * ma->rs + (int64_t)kk * ma->cs, &ar, &ai);
		get(in, b, (int64_t)bi * mb->bs + (int64_t)kk * mb->rs + (int64_t)j * mb->cs, &br, &bi_);
		if (in < XRT_CS_F16)
			iacc += (uint64_t)(int64_t)ar * (uint64_t)(int64_t)br;
		else if (in <= XRT_CS_F32)
			fre = fmaf((float)ar, (float)br, fre);
		else if (in == XRT_CS_F64)
			re = re + ar * br;
		else if (in == XRT_CS_C64) {
			float pr = (float)ar * (float)br - (float)ai * (float)bi_;
			float pi = (float)ar * (float)bi_ + (float)ai * (float)br;

			fre = fre + pr;
			fim = fim + pi;
		} else {
			double pr = ar * br - ai * bi_, pi = ar * bi_ + ai * br;

			re = re + pr;
			im = im + pi;
		}
	}
	memset(want, 0, 16);
	switch (out) {
	case XRT_CS_F16: { uint16_t h = xrt_f16_from_f64(fre); memcpy(want, &h, 2); break; }
	case XRT_CS_BF16: { uint16_t h = xrt_bf16_from_f64(fre); memcpy(want, &h, 2); break; }
	case XRT_CS_F32: memcpy(want, &fre, 4); break;
	case XRT_CS_F64: memcpy(want, &re, 8); break;
	case XRT_CS_C64: memcpy(want, &fre, 4); memcpy(want + 4, &fim, 4); break;
	case XRT_CS_C128: memcpy(want, &re, 8); memcpy(want + 8, &im, 8); break;
	default: memcpy(want, &iacc, xs_dtype_size(out)); break;
	}
}

static void check_dot(struct __test_metadata *_metadata, uint32_t in, uint32_t out,
		      int accumulate, uint64_t batch, uint64_t m, uint64_t n,
		      uint64_t k, int transpose_a, int transpose_b, int broadcast_b)
{
	uint32_t ies = xs_dtype_size(in), oes = xs_dtype_size(out);
	struct mat ma = { in, (int64_t)(m * k), transpose_a ? 1 : (int64_t)k,
			  transpose_a ? (int64_t)m : 1, batch * m * k * ies };
	struct mat mb = { in, broadcast_b ? 0 : (int64_t)(k * n),
			  transpose_b ? 1 : (int64_t)n, transpose_b ? (int64_t)k : 1,
			  (broadcast_b ? 1 : batch) * k * n * ies };
	struct mat mo = { out, (int64_t)(m * n), (int64_t)n, 1, batch * m * n * oes };
	struct xrt_cs_matrix xa, xb, xo;
	struct cs_builder bld;
	struct run r = { .n = 0 };
	uint8_t *orig;
	uint64_t bi, i, j;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, ma.size, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, mb.size, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, mo.size, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	fill(in, r.slot[0], ma.size, 1 + in);
	fill(in, r.slot[1], mb.size, 2 + in);
	fill(out, r.slot[2], mo.size, 3 + in);
	orig = aligned_buf(mo.size);
	memcpy(orig, r.slot[2], mo.size);
	xa = matrix(0, &ma);
	xb = matrix(1, &mb);
	xo = matrix(2, &mo);
	cs_dot(&bld, accumulate ? XRT_CS_DOT_ACCUMULATE : 0, batch, m, n, k, &xa, &xb, &xo);
	RUN_PROGRAM(&bld, &r);
	for (bi = 0; bi < batch; bi++)
		for (i = 0; i < m; i++)
			for (j = 0; j < n; j++) {
				uint8_t want[16];
				const uint8_t *got = r.slot[2] + ((bi * m + i) * n + j) * oes;

				expect(in, out, accumulate, r.slot[0], &ma, r.slot[1], &mb,
				       orig, &mo, bi, i, j, k, want);
				ASSERT_EQ(0, memcmp(want, got, oes))
					TH_LOG("in %u out %u at [%llu][%llu][%llu]", in, out,
					       (unsigned long long)bi, (unsigned long long)i,
					       (unsigned long long)j);
			}
	free(orig);
	run_free(&r);
}

TEST_F(xrt, f32_shapes_and_layouts)
{
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 0, 1, 67, 131, 300, 0, 0, 0);
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 0, 3, 5, 17, 9, 1, 0, 0);
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 1, 2, 64, 64, 513, 0, 1, 1);
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 0, 1, 1, 1, 1, 0, 0, 0);
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 1, 2, 3, 4, 0, 0, 0, 0);
}

/*
 * Products small enough for the path without packing: every count of
 * full 8-column vectors (0 to 4) with and without leftover columns,
 * transposed A, ACCUMULATE, batches sharing B, and the limits of the
 * path on either side (32 columns, 32^3 products; 33 columns packs).
 */
static void small_products(struct __test_metadata *_metadata)
{
	static const uint64_t shapes[][3] = {	/* m, n, k */
		{ 8, 8, 8 }, { 3, 5, 7 }, { 4, 13, 9 }, { 2, 16, 1 }, { 5, 20, 11 },
		{ 6, 24, 3 }, { 7, 31, 17 }, { 32, 32, 32 }, { 1, 32, 1024 }, { 9, 33, 5 },
	};
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		uint64_t m = shapes[i][0], n = shapes[i][1], k = shapes[i][2];

		check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 0, 1, m, n, k, 0, 0, 0);
		check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 1, 3, m, n, k, 1, 0, 1);
	}
}

TEST_F(xrt, f32_small_products)
{
	small_products(_metadata);
}

/* Which products take the small path: the bits alone cannot tell. */
TEST_F(xrt, small_path_choice)
{
	static const struct {
		uint64_t m, n, k;
		uint32_t dtype;
		int64_t rhs_cs;
		int small;
	} c[] = {
		{ 8, 8, 8, XRT_CS_F32, 1, 1 },		/* eager MatMul f32[8,8] */
		{ 16, 16, 16, XRT_CS_F32, 1, 1 },	/* m * k = 256 */
		{ 16, 16, 17, XRT_CS_F32, 1, 0 },	/* narrow and long: packed */
		{ 32, 32, 32, XRT_CS_F32, 1, 1 },	/* 32^3, wide */
		{ 32, 32, 33, XRT_CS_F32, 1, 0 },	/* over 32^3 */
		{ 1, 33, 8, XRT_CS_F32, 1, 0 },		/* over 32 columns */
		{ 300, 1, 1, XRT_CS_F32, 1, 0 },	/* more rows than a tile */
		{ 8, 8, 8, XRT_CS_F64, 1, 0 },
		{ 8, 8, 8, XRT_CS_F32, 8, 0 },		/* B transposed */
		/* m * n * k wraps to 0 in 64 bits: k is bounded first */
		{ 2, 1, (uint64_t)1 << 63, XRT_CS_F32, 1, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct xrt_cs_dot d;

		memset(&d, 0, sizeof(d));
		d.cmd.op = XRT_CS_OP_DOT;
		d.batch = 1;
		d.m = c[i].m;
		d.n = c[i].n;
		d.k = c[i].k;
		d.lhs.dtype = d.rhs.dtype = d.out.dtype = (uint8_t)c[i].dtype;
		d.lhs.col_stride = 1;
		d.rhs.col_stride = c[i].rhs_cs;
		d.out.col_stride = 1;
		EXPECT_EQ(c[i].small, xrt_engine_dot_small(&d)) TH_LOG("case %zu", i);
	}
}

/*
 * Runs one DOT of @a and @b (slots 0 and 1) into a zeroed f32 output of
 * @out_floats (slot 2) in both schedules (and the kernel); copies it to @got.
 */
static void run_one_dot(struct __test_metadata *_metadata, const float *a, size_t a_floats,
			const float *b, size_t b_floats, float *got, size_t out_floats,
			const uint64_t mnk[3], const struct xrt_cs_matrix x[3])
{
	struct cs_builder bld;
	struct run r = { .n = 0 };

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, a_floats * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, b_floats * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, out_floats * 4, XRT_CS_SLOT_WRITE, 0);
	memcpy(r.slot[0], a, a_floats * 4);
	memcpy(r.slot[1], b, b_floats * 4);
	cs_dot(&bld, 0, 1, mnk[0], mnk[1], mnk[2], &x[0], &x[1], &x[2]);
	RUN_PROGRAM(&bld, &r);
	memcpy(got, r.slot[2], out_floats * 4);
	run_free(&r);
}

/* The items of one DOT over slots of @bytes, as validated. */
static uint64_t dot_items_of(struct __test_metadata *_metadata, const struct xrt_allocator *al,
			     const uint64_t bytes[3], const uint64_t mnk[3],
			     const struct xrt_cs_matrix x[3])
{
	struct xrt_engine_ctx ctx;
	struct xdev_program prog;
	struct cs_builder bld;
	uint64_t items = 0;
	size_t size;
	void *p;

	cs_builder_init(&bld, NULL);
	cs_add_slot(&bld, bytes[0], XRT_CS_SLOT_READ);
	cs_add_slot(&bld, bytes[1], XRT_CS_SLOT_READ);
	cs_add_slot(&bld, bytes[2], XRT_CS_SLOT_WRITE);
	cs_dot(&bld, 0, 1, mnk[0], mnk[1], mnk[2], &x[0], &x[1], &x[2]);
	ASSERT_OK(cs_finish(&bld, &p, &size));
	if (xdev_program_load(&prog, al, p, size) == NULL) {
		ctx = (struct xrt_engine_ctx){ &prog.prog, NULL, NULL, 0 };
		items = xrt_engine_items(&ctx, 0, 0);
		xdev_program_release(&prog);
	}
	xrt_free(NULL, p);
	return items;
}

/*
 * A dimension of one element never moves along its stride, but
 * executors still turn it into bytes: up to 2^62 bytes it is allowed,
 * and loading that one column must not compute the step (found by
 * fuzz_engine; UBSan flagged the overflow).  Past 2^62 bytes it is
 * refused (fuzz_cs_gen found SORT's step overflowing).
 */
TEST_F(xrt, one_column_stride_bounded_in_bytes)
{
	struct mat ma = { XRT_CS_F32, 0, 5, 1, 0 };
	struct mat mb = { XRT_CS_F32, 0, 1, (int64_t)1 << 60, 0 };
	struct mat mo = { XRT_CS_F32, 0, 1, (int64_t)1 << 60, 0 };
	struct xrt_cs_matrix x[3] = { matrix(0, &ma), matrix(1, &mb), matrix(2, &mo) };
	static const float a[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const float b[5] = { 1, 10, 100, 1000, 10000 };
	const uint64_t mnk[3] = { 2, 1, 5 };
	struct xdev_program prog;
	struct cs_builder bld;
	float got[2];
	size_t size;
	void *p;

	run_one_dot(_metadata, a, 10, b, 5, got, 2, mnk, x);
	EXPECT_EQ(54321.0f, got[0]);
	EXPECT_EQ(109876.0f, got[1]);
	x[1].col_stride = (int64_t)1 << 61;
	cs_builder_init(&bld, NULL);
	cs_add_slot(&bld, 40, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, 20, XRT_CS_SLOT_READ);
	cs_add_slot(&bld, 8, XRT_CS_SLOT_WRITE);
	cs_dot(&bld, 0, 1, mnk[0], mnk[1], mnk[2], &x[0], &x[1], &x[2]);
	ASSERT_OK(cs_finish(&bld, &p, &size));
	ASSERT_ERR(xdev_program_load(&prog, NULL, p, size), XRT_INVALID_ARGUMENT,
		   "part 1: stride too large");
	xrt_free(NULL, p);
}

/*
 * The output may not overlap either input, in the same slot (read and
 * write): out over lhs, out over rhs, and just apart (valid).
 */
TEST_F(xrt, out_overlapping_an_input_is_refused)
{
	struct mat m = { XRT_CS_F32, 0, 2, 1, 0 };	/* 2x2 f32: 16 bytes */
	struct xrt_cs_matrix x[3];
	const uint64_t mnk[3] = { 2, 2, 2 };
	static const uint64_t outs[3] = { 12, 20, 32 };	/* over lhs, over rhs, apart */
	struct xdev_program prog;
	struct cs_builder bld;
	size_t size, k;
	void *p;

	for (k = 0; k < 3; k++) {
		x[0] = matrix(0, &m);
		x[1] = matrix(0, &m);
		x[2] = matrix(0, &m);
		x[1].offset = 16;
		x[2].offset = outs[k];
		cs_builder_init(&bld, NULL);
		cs_add_slot(&bld, 48, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		cs_dot(&bld, 0, 1, mnk[0], mnk[1], mnk[2], &x[0], &x[1], &x[2]);
		ASSERT_OK(cs_finish(&bld, &p, &size));
		if (k < 2) {
			ASSERT_ERR(xdev_program_load(&prog, NULL, p, size), XRT_INVALID_ARGUMENT,
				   "DOT: out overlaps lhs or rhs");
		} else {
			ASSERT_OK(xdev_program_load(&prog, NULL, p, size));
			xdev_program_release(&prog);
		}
		xrt_free(NULL, p);
	}
}

/*
 * With k of 0 the operands are empty and any strides validate; the rows
 * of such an operand must not even be pointed at (found by fuzz_engine:
 * UBSan flagged the small path stepping its lhs pointer by the stride).
 * Each output is the empty sum, 0.
 */
TEST_F(xrt, empty_k_any_stride)
{
	struct mat ma = { XRT_CS_F32, 0, -((int64_t)1 << 61), (int64_t)1 << 60, 0 };
	struct mat mb = { XRT_CS_F32, 0, (int64_t)1 << 61, 1, 0 };
	struct mat mo = { XRT_CS_F32, 0, 5, 1, 0 };
	const struct xrt_cs_matrix x[3] = { matrix(0, &ma), matrix(1, &mb), matrix(2, &mo) };
	static const float a[1] = { 7 }, b[1] = { 9 };
	const uint64_t mnk[3] = { 3, 5, 0 };
	float got[15];
	int i;

	run_one_dot(_metadata, a, 1, b, 1, got, 15, mnk, x);
	for (i = 0; i < 15; i++) {
		EXPECT_EQ(0.0f, got[i]) TH_LOG("output %d", i);
	}
}

/*
 * Broadcast operands let k run to XRT_CS_DOT_MAX_K in a tiny buffer; a
 * full tile over such a k would hold a kernel worker for seconds, so
 * items shrink with k.  C[i][j] = k * a[i] * b[j], exact in f32 here.
 */
TEST_F(xrt, long_k_small_items)
{
	struct mat ma = { XRT_CS_F32, 0, 1, 0, 0 };	/* A[i][*] = a[i] */
	struct mat mb = { XRT_CS_F32, 0, 0, 1, 0 };	/* B[*][j] = b[j] */
	struct mat mo = { XRT_CS_F32, 0, 1, 1, 0 };
	struct xrt_cs_matrix x[3] = { matrix(0, &ma), matrix(1, &mb), matrix(2, &mo) };
	/* 1.3M multiply-adds: the VM stage runs it in emulation, in the kernel too */
	const uint64_t mnk[3] = { 20, 1, 1u << 16 }, wide[3] = { 2, 40, 1u << 20 };
	const uint64_t longest[3] = { 2, 40, XRT_CS_DOT_MAX_K };
	const uint64_t bytes[3] = { 20 * 4, 4, 20 * 4 }, wide_bytes[3] = { 2 * 4, 40 * 4, 80 * 4 };
	const float b = 3;
	float a[20], got[20];
	uint64_t i;

	for (i = 0; i < 20; i++)
		a[i] = (float)(i % 16);
	run_one_dot(_metadata, a, 20, &b, 1, got, 20, mnk, x);
	for (i = 0; i < 20; i++) {
		ASSERT_EQ((float)mnk[2] * a[i] * b, got[i]) TH_LOG("C[%" PRIu64 "]", i);
	}
	/* 2^27 / 2^16 = 2048 outputs an item: 8 rows of 256 columns, 20 rows in 3 */
	EXPECT_EQ(3u, dot_items_of(_metadata, self->a, bytes, mnk, x));
	/* 2^27 / 2^20 = 128 outputs: 4 rows (a micro-tile's) of 32 columns */
	mo.rs = 40;
	x[2] = matrix(2, &mo);
	EXPECT_EQ(2u, dot_items_of(_metadata, self->a, wide_bytes, wide, x));
	/* at the longest k, one 4 x 16 micro-tile an item */
	EXPECT_EQ(3u, dot_items_of(_metadata, self->a, wide_bytes, longest, x));
}

TEST_F(xrt, k_above_the_limit)
{
	struct mat ma = { XRT_CS_F32, 0, 1, 0, 0 }, mb = { XRT_CS_F32, 0, 0, 1, 0 };
	struct mat mo = { XRT_CS_F32, 0, 1, 1, 0 };
	struct xrt_cs_matrix xa = matrix(0, &ma), xb = matrix(0, &mb), xo = matrix(1, &mo);
	struct xdev_program prog;
	struct cs_builder bld;
	uint64_t k;
	size_t size;
	void *p;

	for (k = XRT_CS_DOT_MAX_K; k <= XRT_CS_DOT_MAX_K + 1; k++) {
		cs_builder_init(&bld, NULL);
		cs_add_slot(&bld, 64, XRT_CS_SLOT_READ);
		cs_add_slot(&bld, 64, XRT_CS_SLOT_WRITE);
		cs_dot(&bld, 0, 1, 1, 1, k, &xa, &xb, &xo);
		ASSERT_OK(cs_finish(&bld, &p, &size));
		if (k == XRT_CS_DOT_MAX_K) {
			ASSERT_OK(xdev_program_load(&prog, self->a, p, size));
			xdev_program_release(&prog);
		} else {
			ASSERT_ERR(xdev_program_load(&prog, self->a, p, size),
				   XRT_INVALID_ARGUMENT, "k above XRT_CS_DOT_MAX_K");
		}
		xrt_free(NULL, p);
	}
}

TEST_F(xrt, half_inputs_accumulate_in_f32)
{
	check_dot(_metadata, XRT_CS_F16, XRT_CS_F16, 0, 1, 33, 70, 129, 0, 0, 0);
	check_dot(_metadata, XRT_CS_F16, XRT_CS_F32, 1, 1, 33, 70, 129, 1, 1, 0);
	check_dot(_metadata, XRT_CS_BF16, XRT_CS_BF16, 1, 2, 20, 19, 260, 0, 1, 0);
	check_dot(_metadata, XRT_CS_BF16, XRT_CS_F32, 0, 1, 65, 3, 40, 1, 0, 0);
}

TEST_F(xrt, other_types)
{
	static const uint32_t types[] = { XRT_CS_F64, XRT_CS_C64, XRT_CS_C128,
					  XRT_CS_S8, XRT_CS_U8, XRT_CS_S32 };
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		check_dot(_metadata, types[t], types[t], 0, 2, 9, 70, 33, 0, 1, 0);
		check_dot(_metadata, types[t], types[t], 1, 1, 66, 5, 7, 1, 0, 1);
	}
}

static float from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/*
 * efma_soft() is libm's fmaf, bit for bit: on random bits of every
 * exponent, and where rounding twice would go wrong (a product and an
 * addend whose exact sum lies a hair off a tie between two floats),
 * near overflow and underflow, with zeros, infinities and NaNs.
 */
TEST_F(xrt, soft_fma_is_fmaf)
{
	static const float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0x1p-149f, 0x1p-126f,
					 0x1.fffffep127f, 0x1p64f, 0x1p-75f, 3.0f };
	uint64_t seed = 7;
	uint32_t i, j, k, n = 0;

	for (i = 0; i < 4000000; i++) {
		float a, b, c, want, got;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		a = from_bits((uint32_t)(seed >> 32));
		b = from_bits((uint32_t)seed);
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		if (i & 1) {	/* c cancels most of a * b, just off a tie of its last bits */
			float p = a * b;

			c = -p + from_bits((uint32_t)(seed >> 40)) * 0x1p-100f * p;
		} else if (i & 2) {
			/*
			 * a * b is half c's last place less a hair ((1 + x)(1 - x) of
			 * it): the sum rounded in double is the tie, which rounds to
			 * even, while the exact sum is below it.
			 */
			float x = (float)(seed & 1023) * 0x1p-23f;
			int e;

			c = from_bits((uint32_t)(seed >> 32));
			frexpf(c, &e);
			a = 1.0f + x;
			b = ldexpf(1.0f - x, e - 25) * (seed & 2048 ? -1.0f : 1.0f) *
			    (c < 0 ? -1.0f : 1.0f);
		} else {
			c = from_bits((uint32_t)(seed >> 32));
		}
		want = fmaf(a, b, c);
		got = efma_soft(a, b, c);
		if (memcmp(&want, &got, 4) && !(isnan(want) && isnan(got)))
			n++;
		ASSERT_EQ(0, n) TH_LOG("fma(%a, %a, %a): %a, efma_soft %a", a, b, c, want, got);
	}
	for (i = 0; i < 10; i++)
		for (j = 0; j < 10; j++)
			for (k = 0; k < 10; k++) {
				float sg = (i + j + k) & 1 ? -1.0f : 1.0f;
				float a = special[i], b = sg * special[j], c = special[k], w, g;

				w = fmaf(a, b, c);
				g = efma_soft(a, b, c);
				ASSERT_TRUE(!memcmp(&w, &g, 4) || (isnan(w) && isnan(g)))
					TH_LOG("fma(%a, %a, %a): %a, efma_soft %a", a, b, c, w, g);
			}
	ASSERT_TRUE(isnan(efma_soft(INFINITY, 0.0f, 1.0f)));
	ASSERT_TRUE(isnan(efma_soft(NAN, 1.0f, 1.0f)));
	ASSERT_EQ(INFINITY, efma_soft(0x1p127f, 4.0f, -0x1p127f));
}

/* The AVX2 and FMA micro-kernel gives the very same bits as efma_soft()'s. */
TEST_F(xrt, avx2_kernel_same_bits)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
		SKIP(return, "this CPU has no AVX2 with FMA");
	xrt_engine_use_avx2 = 1;
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 0, 1, 67, 131, 300, 0, 0, 0);
	check_dot(_metadata, XRT_CS_F16, XRT_CS_F32, 1, 2, 33, 70, 129, 1, 1, 0);
	check_dot(_metadata, XRT_CS_BF16, XRT_CS_BF16, 1, 1, 65, 19, 260, 0, 1, 1);
	small_products(_metadata);
	xrt_engine_use_avx2 = 0;
}

/* So does the AVX-512 one (rows in groups of 6 and 4, as with AVX2). */
TEST_F(xrt, avx512_kernel_same_bits)
{
	if (!cpu_has_avx512())
		SKIP(return, "this CPU has no AVX-512");
	use_wide_vectors(1);
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 0, 1, 67, 131, 300, 0, 0, 0);
	check_dot(_metadata, XRT_CS_F32, XRT_CS_F32, 1, 3, 10, 33, 513, 1, 0, 1);
	check_dot(_metadata, XRT_CS_F16, XRT_CS_F32, 1, 2, 33, 70, 129, 1, 1, 0);
	check_dot(_metadata, XRT_CS_BF16, XRT_CS_BF16, 1, 1, 65, 19, 260, 0, 1, 1);
	small_products(_metadata);
	use_wide_vectors(0);
}

/*
 * A few columns over a batch that lies innermost in A and the output
 * (depthwise and grouped convolutions' products): the batch goes in the
 * vector lanes, with the same bits.  A as [m][k][batch], B as
 * [batch][k][n], the output as [m][n][batch]; batches of two items with
 * lanes left over, rows past a full item, ACCUMULATE.
 */
static void check_lanes(struct __test_metadata *_metadata, uint64_t batch, uint64_t m,
			uint64_t n, uint64_t k, int accumulate)
{
	struct mat ma = { XRT_CS_F32, 1, (int64_t)(k * batch), (int64_t)batch, batch * m * k * 4 };
	struct mat mb = { XRT_CS_F32, (int64_t)(k * n), (int64_t)n, 1, batch * k * n * 4 };
	struct mat mo = { XRT_CS_F32, 1, (int64_t)(n * batch), (int64_t)batch,
			  batch * m * n * 4 };
	struct xrt_cs_matrix xa = matrix(0, &ma), xb = matrix(1, &mb), xo = matrix(2, &mo);
	struct xrt_cs_dot d = { .batch = batch, .m = m, .n = n, .k = k, .lhs = xa, .rhs = xb,
				.out = xo };
	struct cs_builder bld;
	struct run r = { .n = 0 };
	uint8_t *orig;
	uint64_t bi, i, j;

	ASSERT_TRUE(engine_dot_lanes(&d));
	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, ma.size, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, mb.size, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, mo.size, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	fill(XRT_CS_F32, r.slot[0], ma.size, 11);
	fill(XRT_CS_F32, r.slot[1], mb.size, 12);
	fill(XRT_CS_F32, r.slot[2], mo.size, 13);
	orig = aligned_buf(mo.size);
	memcpy(orig, r.slot[2], mo.size);
	cs_dot(&bld, accumulate ? XRT_CS_DOT_ACCUMULATE : 0, batch, m, n, k, &xa, &xb, &xo);
	RUN_PROGRAM(&bld, &r);
	for (bi = 0; bi < batch; bi++)
		for (i = 0; i < m; i++)
			for (j = 0; j < n; j++) {
				uint8_t want[16];

				expect(XRT_CS_F32, XRT_CS_F32, accumulate, r.slot[0], &ma, r.slot[1],
				       &mb, orig, &mo, bi, i, j, k, want);
				ASSERT_EQ(0, memcmp(want, r.slot[2] + ((i * n + j) * batch + bi) * 4, 4))
					TH_LOG("batch %llu of %llu, row %llu of %llu, column %llu, k %llu",
					       (unsigned long long)bi, (unsigned long long)batch,
					       (unsigned long long)i, (unsigned long long)m,
					       (unsigned long long)j, (unsigned long long)k);
			}
	free(orig);
	run_free(&r);
}

static void lanes_products(struct __test_metadata *_metadata)
{
	check_lanes(_metadata, 256 + 45, 70, 1, 9, 0);
	check_lanes(_metadata, 8, 33, 1, 1, 1);
	check_lanes(_metadata, 64, 5, 1, 300, 1);
	check_lanes(_metadata, 13, 40, 1, 25, 0);
	check_lanes(_metadata, 32, 37, 4, 36, 1);
	check_lanes(_metadata, 9, 3, 16, 7, 0);
}

TEST_F(xrt, batch_in_the_lanes)
{
	lanes_products(_metadata);
}

/* The same with the FMA instruction: the same bits. */
TEST_F(xrt, batch_in_the_lanes_avx2)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
		SKIP(return, "this CPU has no AVX2 with FMA");
	xrt_engine_use_avx2 = 1;
	lanes_products(_metadata);
	xrt_engine_use_avx2 = 0;
}

TEST_F(xrt, malformed_dots)
{
	static const struct {
		uint32_t in, out, flags;
		const char *needle;
	} bad[] = {
		{ XRT_CS_F32, XRT_CS_F64, 0, "output type not allowed" },
		{ XRT_CS_PRED, XRT_CS_PRED, 0, "need one type: not pred" },
		{ XRT_CS_F8E4M3FN, XRT_CS_F8E4M3FN, 0, "not pred, a small float or s4" },
		{ XRT_CS_S4, XRT_CS_S4, 0, "not pred, a small float or s4" },
		{ XRT_CS_F32, XRT_CS_F32, 2, "unknown flags" },
		{ XRT_CS_S8, XRT_CS_S32, 0, "output type not allowed" },
	};
	struct mat ma = { 0, 0, 4, 1, 64 }, mo = { 0, 0, 4, 1, 64 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct xrt_cs_matrix xa, xb, xo;
		struct xdev_program prog;
		struct cs_builder bld;
		size_t size;
		void *p;

		ma.dtype = bad[i].in;
		mo.dtype = bad[i].out;
		xa = matrix(0, &ma);
		xb = matrix(0, &ma);
		xo = matrix(1, &mo);
		cs_builder_init(&bld, NULL);
		cs_add_slot(&bld, 256, XRT_CS_SLOT_READ);
		cs_add_slot(&bld, 256, XRT_CS_SLOT_WRITE);
		cs_dot(&bld, bad[i].flags, 1, 4, 4, 4, &xa, &xb, &xo);
		ASSERT_OK(cs_finish(&bld, &p, &size));
		ASSERT_ERR(xdev_program_load(&prog, self->a, p, size),
			   XRT_INVALID_ARGUMENT, bad[i].needle);
		xrt_free(NULL, p);
	}
}

TEST_HARNESS_MAIN
