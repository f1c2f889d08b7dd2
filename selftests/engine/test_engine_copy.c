// SPDX-License-Identifier: MIT
/*
 * COPY and FILL against straightforward loops: transposes, slices,
 * broadcasts, reversals, every element size; constants and iotas of
 * every type.
 */
#include "engine_test.h"

#include <xrt/dtype.h>

/* Calls fn(index, ctx) for every index of dims, row-major. */
static void for_each_index(uint32_t rank, const uint64_t *dims,
			   void (*fn)(const uint64_t *idx, void *ctx), void *ctx)
{
	uint64_t idx[XRT_CS_MAX_RANK] = { 0 };
	uint32_t i;
	int d;

	for (i = 0; i < rank; i++) {
		if (!dims[i])
			return;
	}
	for (;;) {
		fn(idx, ctx);
		for (d = (int)rank - 1; d >= 0; d--) {
			if (++idx[d] < dims[d])
				break;
			idx[d] = 0;
		}
		if (d < 0)
			return;
	}
}

static int64_t offset_of(const struct xrt_cs_view *v, const uint64_t *idx)
{
	int64_t off = (int64_t)v->offset / (int64_t)xs_dtype_size(v->dtype);
	uint32_t i;

	for (i = 0; i < v->rank; i++)
		off += (int64_t)idx[i] * v->strides[i];
	return off;
}

struct ref_copy {
	const struct xrt_cs_view *dst, *src;
	uint8_t *dbuf;
	const uint8_t *sbuf;
	uint32_t es;
};

static void ref_copy_one(const uint64_t *idx, void *ctx)
{
	struct ref_copy *c = ctx;

	memcpy(c->dbuf + offset_of(c->dst, idx) * c->es,
	       c->sbuf + offset_of(c->src, idx) * c->es, c->es);
}

/* Copies with the engine and with loops into two destinations; compares. */
static void check_copy(struct __test_metadata *_metadata, uint32_t dtype,
		       uint32_t rank, const uint64_t *dims,
		       const int64_t *sstrides, uint64_t soff, size_t ssize,
		       const int64_t *dstrides, uint64_t doff, size_t dsize)
{
	struct cs_builder b;
	struct run r = { .n = 0 };
	struct xrt_cs_view dv, sv;
	struct ref_copy ref;
	uint8_t *want;
	uint32_t s, d;

	cs_builder_init(&b, NULL);
	s = add_buf(&b, &r, ssize, XRT_CS_SLOT_READ, 7);
	d = add_buf(&b, &r, dsize, XRT_CS_SLOT_WRITE, 9);
	sv = cs_view(s, dtype, soff, rank, dims, sstrides);
	dv = cs_view(d, dtype, doff, rank, dims, dstrides);
	cs_copy(&b, &dv, &sv);
	want = aligned_buf(dsize);
	memcpy(want, r.slot[d], dsize);
	ref = (struct ref_copy){ &dv, &sv, want, r.slot[s],
				 xs_dtype_size(dtype) };
	for_each_index(rank, dims, ref_copy_one, &ref);
	RUN_PROGRAM(&b, &r);
	EXPECT_EQ(0, memcmp(want, r.slot[d], dsize));
	free(want);
	run_free(&r);
}

TEST_F(xrt, copy_transpose_every_size)
{
	static const uint32_t types[] = { XRT_CS_U8, XRT_CS_S16, XRT_CS_F32,
					  XRT_CS_F64, XRT_CS_C128 };
	uint64_t dims[] = { 37, 129, 5 };
	int64_t src[] = { 129 * 5, 5, 1 }, dst[] = { 1, 37 * 5, 37 };
	size_t i, n = 37 * 129 * 5;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t es = xs_dtype_size(types[i]);

		check_copy(_metadata, types[i], 3, dims, src, 0, n * es, dst, 0,
			   n * es);
	}
}

TEST_F(xrt, copy_broadcast_reverse_slice)
{
	/* Broadcast a row of 1000 to 70 rows. */
	uint64_t bd[] = { 70, 1000 };
	int64_t bs[] = { 0, 1 }, dense[] = { 1000, 1 };
	/* Reverse both dims of a 300x17 matrix: start at the last element. */
	uint64_t rd[] = { 300, 17 };
	int64_t rs[] = { -17, -1 }, rdst[] = { 17, 1 };
	/* A strided slice [2:50:3, 1:9:2] of a 60x10 s64 matrix. */
	uint64_t sd[] = { 16, 4 };
	int64_t ss[] = { 30, 2 }, sdst[] = { 4, 1 };

	check_copy(_metadata, XRT_CS_F32, 2, bd, bs, 0, 4000, dense, 0,
		   70 * 1000 * 4);
	check_copy(_metadata, XRT_CS_F32, 2, rd, rs, (300 * 17 - 1) * 4,
		   300 * 17 * 4, rdst, 0, 300 * 17 * 4);
	check_copy(_metadata, XRT_CS_S64, 2, sd, ss, (2 * 10 + 1) * 8,
		   60 * 10 * 8, sdst, 0, 16 * 4 * 8);
}

TEST_F(xrt, copy_large_spans_many_items)
{
	uint64_t dims[] = { 3, 50000 };
	int64_t src[] = { 1, 3 }, dst[] = { 50000, 1 };

	check_copy(_metadata, XRT_CS_F32, 2, dims, src, 0, 150000 * 4, dst, 0,
		   150000 * 4);
}

TEST_F(xrt, copy_scalar_and_empty)
{
	uint64_t empty[] = { 4, 0, 3 };
	int64_t st[] = { 0, 0, 0 };

	check_copy(_metadata, XRT_CS_F64, 0, NULL, NULL, 8, 16, NULL, 0, 8);
	check_copy(_metadata, XRT_CS_F64, 3, empty, st, 0, 8, st, 0, 8);
}

TEST_F(xrt, fill_constants)
{
	static const uint32_t types[] = { XRT_CS_PRED, XRT_CS_S8, XRT_CS_U16,
					  XRT_CS_S32, XRT_CS_F64, XRT_CS_C128 };
	uint64_t dims[] = { 33, 17 };
	int64_t strides[] = { 1, 33 };
	size_t i, j;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		uint32_t es = xs_dtype_size(types[i]), slot;
		uint8_t value[16] = { 0 };
		struct xrt_cs_view v;
		struct cs_builder b;
		struct run r = { .n = 0 };

		rand_fill(value, es, (uint32_t)i + 1);
		if (types[i] == XRT_CS_PRED)
			value[0] = 1;
		cs_builder_init(&b, NULL);
		slot = add_buf(&b, &r, 33 * 17 * es, XRT_CS_SLOT_WRITE, 3);
		v = cs_view(slot, types[i], 0, 2, dims, strides);
		cs_fill_constant(&b, &v, value, es);
		RUN_PROGRAM(&b, &r);
		for (j = 0; j < 33 * 17; j++)
			ASSERT_EQ(0, memcmp(r.slot[0] + j * es, value, es));
		run_free(&r);
	}
}

TEST_F(xrt, fill_iota_every_type)
{
	uint64_t dims[] = { 5, 300, 2 };
	uint32_t dim, t;

	for (t = XRT_CS_S8; t <= XRT_CS_C128; t++) {
		for (dim = 0; dim < 3; dim++) {
			uint32_t es = xs_dtype_size(t);
			struct cs_builder b;
			struct run r = { .n = 0 };
			struct xrt_cs_view v;
			uint64_t i, j, k;

			cs_builder_init(&b, NULL);
			add_buf(&b, &r, 5 * 300 * 2 * es, XRT_CS_SLOT_WRITE, 5);
			v = cs_view_dense(0, t, 0, 3, dims);
			cs_fill_iota(&b, &v, dim);
			RUN_PROGRAM(&b, &r);
			for (i = 0; i < 5; i++)
				for (j = 0; j < 300; j++)
					for (k = 0; k < 2; k++) {
						uint64_t want = dim == 0 ? i : dim == 1 ? j : k;
						const uint8_t *p = r.slot[0] + ((i * 300 + j) * 2 + k) * es;
						uint8_t e[16] = { 0 };
						float f = (float)want;
						double d = (double)want;
						uint16_t h;

						if (t == XRT_CS_F16) {
							h = xrt_f16_from_f64(d);
							memcpy(e, &h, 2);
						} else if (t == XRT_CS_BF16) {
							h = xrt_bf16_from_f64(d);
							memcpy(e, &h, 2);
						} else if (t == XRT_CS_F32 || t == XRT_CS_C64) {
							memcpy(e, &f, 4);
						} else if (t == XRT_CS_F64 || t == XRT_CS_C128) {
							memcpy(e, &d, 8);
						} else {
							memcpy(e, &want, es);
						}
						ASSERT_EQ(0, memcmp(e, p, es))
							TH_LOG("type %u dim %u at %llu,%llu,%llu",
							       t, dim, (unsigned long long)i,
							       (unsigned long long)j,
							       (unsigned long long)k);
					}
			run_free(&r);
		}
	}
}

TEST_F(xrt, jump_skips_on_predicate)
{
	uint8_t pred_true = 1, seven = 7, nine = 9;
	uint32_t mode;

	for (mode = XRT_CS_JUMP_IF_TRUE; mode <= XRT_CS_JUMP_IF_FALSE; mode++) {
		struct xrt_cs_scalar p = { .slot = 0, .dtype = XRT_CS_PRED };
		struct cs_builder b;
		struct run r = { .n = 0 };
		struct xrt_cs_view v;

		cs_builder_init(&b, NULL);
		add_buf(&b, &r, 1, XRT_CS_SLOT_READ, 0);
		r.slot[0][0] = pred_true;
		add_buf(&b, &r, 1, XRT_CS_SLOT_WRITE, 0);
		v = cs_view_dense(1, XRT_CS_U8, 0, 0, NULL);
		cs_jump(&b, mode, 2, &p);		/* 0: skip 1 if ... */
		cs_fill_constant(&b, &v, &seven, 1);	/* 1 */
		cs_jump(&b, XRT_CS_JUMP_ALWAYS, 4, NULL);	/* 2 */
		cs_fill_constant(&b, &v, &nine, 1);	/* 3: never runs */
		RUN_PROGRAM(&b, &r);
		EXPECT_EQ(mode == XRT_CS_JUMP_IF_TRUE ? 0 : 7, r.slot[1][0]);
		run_free(&r);
	}
}

TEST_HARNESS_MAIN
