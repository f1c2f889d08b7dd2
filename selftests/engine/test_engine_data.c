// SPDX-License-Identifier: MIT
/*
 * The data-dependent commands against plain loops: GATHER (clamped
 * starts), SCATTER (ordered combining, skipped and clamped windows),
 * DYNAMIC_SLICE and DYNAMIC_UPDATE_SLICE (clamping), SORT (stable, total
 * order, several keys, strided fibers), RNG (Philox known answers,
 * determinism, ranges and moments).
 */
#include <math.h>

#include "engine_test.h"

#include <xrt/dtype.h>

static int64_t clamp(int64_t s, int64_t dim, int64_t size)
{
	return s < 0 ? 0 : s > dim - size ? dim - size : s;
}

TEST_F(xrt, gather_clamps_and_maps_dims)
{
	/* operand f32[10, 7]; 5 index pairs give (col, row) starts; out [5, 3, 4] */
	static const int32_t idx[5][2] = { { 1, 2 }, { -5, 0 }, { 100, 100 },
					   { 3, -1 }, { 6, 9 } };
	uint64_t od[2] = { 10, 7 }, id[2] = { 5, 2 }, outd[3] = { 5, 3, 4 };
	uint8_t map[2] = { 1, 0 };
	struct xrt_cs_view op, ix, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	float *o, *g;
	int64_t bi, i, j;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, 70 * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, sizeof(idx), XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, 60 * 4, XRT_CS_SLOT_WRITE, 0);
	o = (float *)r.slot[0];
	for (i = 0; i < 70; i++)
		o[i] = (float)i;
	memcpy(r.slot[1], idx, sizeof(idx));
	op = cs_view_dense(0, XRT_CS_F32, 0, 2, od);
	ix = cs_view_dense(1, XRT_CS_S32, 0, 2, id);
	out = cs_view_dense(2, XRT_CS_F32, 0, 3, outd);
	cs_gather(&b, &op, &ix, &out, 2, map);
	RUN_PROGRAM(&b, &r);
	g = (float *)r.slot[2];
	for (bi = 0; bi < 5; bi++) {
		int64_t r0 = clamp(idx[bi][1], 10, 3), c0 = clamp(idx[bi][0], 7, 4);

		for (i = 0; i < 3; i++)
			for (j = 0; j < 4; j++) {
				ASSERT_EQ(o[(r0 + i) * 7 + c0 + j], g[(bi * 3 + i) * 4 + j])
					TH_LOG("window %lld at %lld,%lld", (long long)bi,
					       (long long)i, (long long)j);
			}
	}
	run_free(&r);
}

/*
 * One-row windows (lookups): rows of @W from f32[50, W] at 70 indices,
 * some out of range; with W = 300 items (16384 elements) end inside rows,
 * with 256 they do not (the s32 dense-row path).  s32 or s64 indices,
 * dense rows or a reversed column view.
 */
static void lookups(struct __test_metadata *_metadata, uint32_t itype, int reversed, int W)
{
	enum { R = 50, N = 70 };
	uint64_t od[2] = { R, (uint64_t)W }, id[2] = { N, 1 }, outd[3] = { N, 1, (uint64_t)W };
	uint8_t map[1] = { 0 };
	struct xrt_cs_view op, ix, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	int64_t want[N];
	float *o, *g;
	int i, j;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, R * W * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, N * 8, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, N * W * 4, XRT_CS_SLOT_WRITE, 0);
	o = (float *)r.slot[0];
	for (i = 0; i < R * W; i++)
		o[i] = (float)i;
	for (i = 0; i < N; i++) {
		int64_t v = (i * 37) % 61 - 5;	/* -5 .. 55: both ends clamp */

		if (itype == XRT_CS_S32)
			((int32_t *)r.slot[1])[i] = (int32_t)v;
		else
			((int64_t *)r.slot[1])[i] = v;
		want[i] = clamp(v, R, 1);
	}
	op = cs_view_dense(0, XRT_CS_F32, 0, 2, od);
	if (reversed) {
		op.offset = (W - 1) * 4;
		op.strides[1] = -1;
	}
	ix = cs_view_dense(1, itype, 0, 2, id);
	out = cs_view_dense(2, XRT_CS_F32, 0, 3, outd);
	cs_gather(&b, &op, &ix, &out, 1, map);
	RUN_PROGRAM(&b, &r);
	g = (float *)r.slot[2];
	for (i = 0; i < N; i++)
		for (j = 0; j < W; j++) {
			int col = reversed ? W - 1 - j : j;

			ASSERT_EQ(o[want[i] * W + col], g[i * W + j])
				TH_LOG("lookup %d element %d", i, j);
		}
	run_free(&r);
}

TEST_F(xrt, gather_one_row_windows)
{
	lookups(_metadata, XRT_CS_S32, 0, 300);
	lookups(_metadata, XRT_CS_S64, 0, 300);
	lookups(_metadata, XRT_CS_S32, 1, 300);
	lookups(_metadata, XRT_CS_S32, 0, 256);
	lookups(_metadata, XRT_CS_S32, 1, 256);
}

TEST_F(xrt, scatter_combines_in_order)
{
	/* operand s32[8]; windows of 3 at starts 0, 2, 2, 6 (out of bounds), -1 */
	static const int64_t idx[5] = { 0, 2, 2, 6, -1 };
	static const int32_t upd[5][3] = { { 1, 2, 3 }, { 10, 20, 30 },
					   { 100, 200, 300 }, { 7, 7, 7 }, { 5, 5, 5 } };
	uint64_t od[1] = { 8 }, id[2] = { 5, 1 }, ud[2] = { 5, 3 };
	uint8_t map[1] = { 0 };
	uint32_t mode, comb;

	for (mode = 0; mode < 2; mode++) {
		for (comb = 0; comb <= XRT_CS_RED_MAX; comb++) {
			struct xrt_cs_view op, ix, up;
			struct cs_builder b;
			struct run r = { .n = 0 };
			int32_t want[8], *got;
			int64_t w, j;

			if (comb == XRT_CS_RED_PROD)
				continue;
			cs_builder_init(&b, NULL);
			add_buf(&b, &r, 32, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
			add_buf(&b, &r, sizeof(idx), XRT_CS_SLOT_READ, 0);
			add_buf(&b, &r, sizeof(upd), XRT_CS_SLOT_READ, 0);
			for (j = 0; j < 8; j++)
				want[j] = ((int32_t *)r.slot[0])[j] = (int32_t)j;
			memcpy(r.slot[1], idx, sizeof(idx));
			memcpy(r.slot[2], upd, sizeof(upd));
			op = cs_view_dense(0, XRT_CS_S32, 0, 1, od);
			ix = cs_view_dense(1, XRT_CS_S64, 0, 2, id);
			up = cs_view_dense(2, XRT_CS_S32, 0, 2, ud);
			cs_scatter(&b, comb, mode, &op, &ix, &up, 1, map);
			RUN_PROGRAM(&b, &r);
			for (w = 0; w < 5; w++) {
				int64_t s = idx[w];

				if (mode == XRT_CS_SCATTER_CLAMP)
					s = clamp(s, 8, 3);
				else if (s < 0 || s > 5)
					continue;
				for (j = 0; j < 3; j++) {
					int32_t *d = &want[s + j], u = upd[w][j];

					*d = comb == XRT_CS_SCATTER_REPLACE ? u :
					     comb == XRT_CS_RED_SUM ? *d + u :
					     comb == XRT_CS_RED_MIN ? (*d < u ? *d : u) :
					     (*d > u ? *d : u);
				}
			}
			got = (int32_t *)r.slot[0];
			for (j = 0; j < 8; j++) {
				ASSERT_EQ(want[j], got[j])
					TH_LOG("mode %u combiner %u at %lld", mode, comb,
					       (long long)j);
			}
			run_free(&r);
		}
	}
}

TEST_F(xrt, scatter_float_sum_is_sequential)
{
	/* 20000 updates of one element each into 3 slots: order matters. */
	static int32_t idx[20000];
	static float upd[20000];
	uint64_t od[1] = { 3 }, id[2] = { 20000, 1 }, ud[2] = { 20000, 1 };
	uint8_t map[1] = { 0 };
	struct xrt_cs_view op, ix, up;
	struct cs_builder b;
	struct run r = { .n = 0 };
	float want[3] = { 0, 0, 0 };
	int i;

	for (i = 0; i < 20000; i++) {
		idx[i] = i % 3;
		upd[i] = (float)(1.0 / (i + 1)) * (i & 1 ? -1e4f : 1.0f);
		want[i % 3] += upd[i];
	}
	cs_builder_init(&b, NULL);
	add_buf(&b, &r, 12, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, sizeof(idx), XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, sizeof(upd), XRT_CS_SLOT_READ, 0);
	memcpy(r.slot[1], idx, sizeof(idx));
	memcpy(r.slot[2], upd, sizeof(upd));
	op = cs_view_dense(0, XRT_CS_F32, 0, 1, od);
	ix = cs_view_dense(1, XRT_CS_S32, 0, 2, id);
	up = cs_view_dense(2, XRT_CS_F32, 0, 2, ud);
	cs_scatter(&b, XRT_CS_RED_SUM, XRT_CS_SCATTER_SKIP, &op, &ix, &up, 1, map);
	RUN_PROGRAM(&b, &r);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(want[i], ((float *)r.slot[0])[i]) TH_LOG("slot %d", i);
	}
	run_free(&r);
}

TEST_F(xrt, dynamic_slice_and_update_clamp)
{
	uint64_t od[2] = { 6, 9 }, sd[2] = { 4, 5 };
	static const struct { int64_t r, c; } starts[] = {
		{ 0, 0 }, { 1, 3 }, { 5, 8 }, { -3, -100 }, { 2, 100 },
	};
	size_t k;

	for (k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
		struct xrt_cs_scalar st[2] = {
			{ .slot = 2, .dtype = XRT_CS_S64, .offset = 0 },
			{ .slot = 2, .dtype = XRT_CS_S8, .offset = 8 },
		};
		struct xrt_cs_view op, sl, op2, sl2;
		struct cs_builder b;
		struct run r = { .n = 0 };
		int64_t r0 = clamp(starts[k].r, 6, 4);
		int64_t c0 = clamp(starts[k].c < -128 ? -128 : starts[k].c > 127 ? 127 :
				   starts[k].c, 9, 5);
		int8_t c8 = (int8_t)(starts[k].c < -128 ? -128 : starts[k].c > 127 ? 127 :
				     starts[k].c);
		int64_t i, j;
		uint16_t *o, *s, *u, *o2;

		cs_builder_init(&b, NULL);
		add_buf(&b, &r, 54 * 2, XRT_CS_SLOT_READ, 11);
		add_buf(&b, &r, 20 * 2, XRT_CS_SLOT_WRITE, 0);
		add_buf(&b, &r, 16, XRT_CS_SLOT_READ, 0);
		add_buf(&b, &r, 54 * 2, XRT_CS_SLOT_WRITE, 13);
		add_buf(&b, &r, 20 * 2, XRT_CS_SLOT_READ, 17);
		memcpy(r.slot[2], &starts[k].r, 8);
		memcpy(r.slot[2] + 8, &c8, 1);
		op = cs_view_dense(0, XRT_CS_BF16, 0, 2, od);
		sl = cs_view_dense(1, XRT_CS_BF16, 0, 2, sd);
		op2 = cs_view_dense(3, XRT_CS_BF16, 0, 2, od);
		sl2 = cs_view_dense(4, XRT_CS_BF16, 0, 2, sd);
		cs_dynamic_slice(&b, 0, &op, &sl, st);
		cs_dynamic_slice(&b, 1, &op2, &sl2, st);
		o2 = aligned_buf(54 * 2);
		memcpy(o2, r.slot[3], 54 * 2);
		RUN_PROGRAM(&b, &r);
		o = (uint16_t *)r.slot[0];
		s = (uint16_t *)r.slot[1];
		u = (uint16_t *)r.slot[4];
		for (i = 0; i < 4; i++)
			for (j = 0; j < 5; j++) {
				ASSERT_EQ(o[(r0 + i) * 9 + c0 + j], s[i * 5 + j]);
				o2[(r0 + i) * 9 + c0 + j] = u[i * 5 + j];
			}
		ASSERT_EQ(0, memcmp(o2, r.slot[3], 54 * 2)) TH_LOG("update %zu", k);
		free(o2);
		run_free(&r);
	}
}

/* Total order key of a float, for the reference. */
static int64_t tkey(float f)
{
	int32_t b;

	memcpy(&b, &f, 4);
	return b < 0 ? (int64_t)(~(uint32_t)b | 0x80000000u) - 0x100000000ll : b;
}

TEST_F(xrt, sort_stable_total_order_two_keys)
{
	/* [3, 500] rows: sort each row by (key0 f32, key1 u64), carrying s32 values. */
	enum { R = 3, C = 500 };
	uint64_t dims[2] = { R, C };
	int64_t st[2] = { C, 1 };
	struct xrt_cs_operand ops[3];
	struct cs_builder b;
	struct run r = { .n = 0 };
	float *k0;
	uint64_t *k1;
	int32_t *v;
	int flags, i, j;

	for (flags = 0; flags <= (int)XRT_CS_SORT_DESCENDING; flags++) {
		static float ok0[R * C];
		static uint64_t ok1[R * C];

		cs_builder_init(&b, NULL);
		add_buf(&b, &r, R * C * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
		add_buf(&b, &r, R * C * 8, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
		add_buf(&b, &r, R * C * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
		k0 = (float *)r.slot[0];
		k1 = (uint64_t *)r.slot[1];
		v = (int32_t *)r.slot[2];
		for (i = 0; i < R * C; i++) {
			static const float sp[] = { NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f };

			k0[i] = i % 7 == 0 ? sp[(i / 7) % 6] : (float)((i * 37) % 11) - 5;
			k1[i] = (uint64_t)((i * 2654435761u) % 5) << 62;
			v[i] = i;
		}
		memcpy(ok0, k0, sizeof(ok0));
		memcpy(ok1, k1, sizeof(ok1));
		for (i = 0; i < 3; i++)
			ops[i] = cs_operand((uint32_t)i, i == 0 ? XRT_CS_F32 : i == 1 ?
					    XRT_CS_U64 : XRT_CS_S32,
					    XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 2, st);
		cs_sort(&b, (uint32_t)flags, 2, dims, 1, ops, 3, 2);
		RUN_PROGRAM(&b, &r);
		for (i = 0; i < R; i++)
			for (j = 1; j < C; j++) {
				int a = v[i * C + j - 1], c = v[i * C + j];
				int64_t ka = tkey(ok0[a]), kc = tkey(ok0[c]);
				int order;

				/* values travelled with their keys */
				ASSERT_EQ(tkey(k0[i * C + j]), kc);
				ASSERT_EQ(k1[i * C + j], ok1[c]);
				order = ka != kc ? (ka < kc ? -1 : 1) :
					ok1[a] != ok1[c] ? (ok1[a] < ok1[c] ? -1 : 1) : 0;
				if (flags)
					order = -order;
				ASSERT_TRUE(order < 0 || (order == 0 && a < c))
					TH_LOG("row %d position %d: %d before %d", i, j, a, c);
				ASSERT_EQ(i, a / C);
			}
		run_free(&r);
	}
}

TEST_F(xrt, sort_along_outer_dimension)
{
	uint64_t dims[2] = { 300, 4 };
	int64_t st[2] = { 4, 1 };
	struct xrt_cs_operand op;
	struct cs_builder b;
	struct run r = { .n = 0 };
	int16_t *x;
	int i, j;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, 1200 * 2, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 5);
	op = cs_operand(0, XRT_CS_S16, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 2, st);
	cs_sort(&b, 0, 2, dims, 0, &op, 1, 1);
	RUN_PROGRAM(&b, &r);
	x = (int16_t *)r.slot[0];
	for (j = 0; j < 4; j++)
		for (i = 1; i < 300; i++)
			ASSERT_LE(x[(i - 1) * 4 + j], x[i * 4 + j]);
	run_free(&r);
}

/*
 * SORT orders keys by their bytes' value in the types it knows: a small
 * float or sub-byte key is refused (the compiler sorts those by
 * comparator network), and such a type rides along as a value.
 */
TEST_F(xrt, sort_refuses_narrow_keys)
{
	static const uint32_t types[] = { XRT_CS_F8E4M3FN, XRT_CS_F4E2M1FN, XRT_CS_S4, XRT_CS_U2 };
	uint64_t dims[1] = { 16 };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand ops[2];
	struct xdev_program prog;
	struct cs_builder b;
	size_t i, size;
	void *p;

	for (i = 0; i < 2 * sizeof(types) / sizeof(types[0]); i++) {
		uint32_t t = types[i / 2];
		int as_key = !(i & 1);

		/* 16 s32 at 0, 16 of the narrow type at 64 */
		cs_builder_init(&b, NULL);
		cs_add_slot(&b, 80, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		ops[0] = cs_operand(0, as_key ? t : XRT_CS_S32,
				    XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, as_key ? 64 : 0, 1, st);
		ops[1] = cs_operand(0, as_key ? XRT_CS_S32 : t,
				    XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, as_key ? 0 : 64, 1, st);
		cs_sort(&b, 0, 1, dims, 0, ops, 2, 1);
		ASSERT_OK(cs_finish(&b, &p, &size));
		if (as_key) {
			ASSERT_ERR(xdev_program_load(&prog, self->a, p, size), XRT_INVALID_ARGUMENT,
				   "SORT: keys of a small float or sub-byte type");
		} else {
			ASSERT_OK(xdev_program_load(&prog, self->a, p, size));
			xdev_program_release(&prog);
		}
		xrt_free(NULL, p);
	}
}

/* A key element of type @t as a double, for the reference's total order. */
static double key_value(uint32_t t, const uint8_t *p)
{
	uint32_t b = 0, e, m;
	uint16_t h;
	float f;
	double d;

	switch (t) {
	case XRT_CS_F32:
		memcpy(&f, p, 4);
		return f;
	case XRT_CS_F64:
		memcpy(&d, p, 8);
		return d;
	case XRT_CS_BF16:
		memcpy(&h, p, 2);
		b = (uint32_t)h << 16;
		break;
	default:	/* f16, decoded by hand */
		memcpy(&h, p, 2);
		e = (h >> 10) & 31;
		m = h & 1023;
		if (e == 0) {
			f = ldexpf((float)m, -24);
			return h & 0x8000 ? -(double)f : f;
		}
		b = (uint32_t)(h & 0x8000) << 16 | (e == 31 ? 255 : e - 15 + 127) << 23 | m << 13;
		break;
	}
	memcpy(&f, &b, 4);
	return f;	/* widening quiets a signalling NaN, as SORT does */
}

/* -1, 0, 1: key elements @a and @b of type @t in SORT's order. */
static int key_cmp(uint32_t t, const uint8_t *a, const uint8_t *b)
{
	uint32_t es = xs_dtype_size(t);
	uint64_t ua = 0, ub = 0;
	int64_t sa, sb;
	double da, db;

	memcpy(&ua, a, es < 8 ? es : 8);	/* keys are never complex */
	memcpy(&ub, b, es < 8 ? es : 8);
	switch (t) {
	case XRT_CS_S8:
	case XRT_CS_S16:
	case XRT_CS_S32:
	case XRT_CS_S64:
		sa = (int64_t)(ua << (64 - 8 * es)) >> (64 - 8 * es);
		sb = (int64_t)(ub << (64 - 8 * es)) >> (64 - 8 * es);
		return sa < sb ? -1 : sa > sb;
	case XRT_CS_F16:
	case XRT_CS_BF16:
	case XRT_CS_F32:
	case XRT_CS_F64:
		da = key_value(t, a);
		db = key_value(t, b);
		memcpy(&ua, &da, 8);
		memcpy(&ub, &db, 8);
		sa = (int64_t)ua < 0 ? (int64_t)(~ua | (1ull << 63)) : (int64_t)ua;
		sb = (int64_t)ub < 0 ? (int64_t)(~ub | (1ull << 63)) : (int64_t)ub;
		return sa < sb ? -1 : sa > sb;
	default:
		return ua < ub ? -1 : ua > ub;
	}
}

/*
 * @rows fibers of @cols: random keys of type @t (NaNs of every payload,
 * both zeros, infinities; about four copies of each), a u8 second key, an
 * s32 index carried along: sorted lexicographically, stably, the way
 * @flags asks, values with their keys.
 */
static void two_keys(struct __test_metadata *_metadata, uint32_t t, int flags, int rows,
		     int cols, uint32_t seed)
{
	uint64_t dims[2] = { (uint64_t)rows, (uint64_t)cols };
	int64_t st[2] = { cols, 1 };
	uint32_t es = xs_dtype_size(t), n = (uint32_t)(rows * cols);
	uint8_t *k0 = malloc((size_t)n * es), *raw = malloc((size_t)n * 8), *k1 = malloc(n);
	struct xrt_cs_operand ops[3];
	struct cs_builder b;
	struct run r = { .n = 0 };
	int32_t *v;
	int i, j;

	ASSERT_TRUE(k0 && raw && k1);
	rand_fill(raw, (size_t)n * 8, seed);
	for (i = 0; i < (int)n; i++) {
		uint32_t from = (uint32_t)i * 2654435761u % (n / 4 ? n / 4 : 1);

		memcpy(k0 + (size_t)i * es, raw + (size_t)from * es, es);
		if (t == XRT_CS_PRED)
			k0[i] &= 1;
		k1[i] = raw[i] % 3;
	}
	cs_builder_init(&b, NULL);
	add_buf(&b, &r, n * es, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, n, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, n * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	memcpy(r.slot[0], k0, (size_t)n * es);
	memcpy(r.slot[1], k1, n);
	v = (int32_t *)r.slot[2];
	for (i = 0; i < (int)n; i++)
		v[i] = i;
	ops[0] = cs_operand(0, t, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 2, st);
	ops[1] = cs_operand(1, XRT_CS_U8, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 2, st);
	ops[2] = cs_operand(2, XRT_CS_S32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 2, st);
	cs_sort(&b, (uint32_t)flags, 2, dims, 1, ops, 3, 2);
	RUN_PROGRAM(&b, &r);
	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			int c = v[i * cols + j], a = j ? v[i * cols + j - 1] : -1, order;

			ASSERT_EQ(i, c / cols) TH_LOG("type %u: row %d", t, i);
			ASSERT_EQ(0, memcmp(r.slot[0] + (size_t)(i * cols + j) * es,
					    k0 + (size_t)c * es, es));
			ASSERT_EQ(r.slot[1][i * cols + j], k1[c]);
			if (!j)
				continue;
			order = key_cmp(t, k0 + (size_t)a * es, k0 + (size_t)c * es);
			if (!order)
				order = k1[a] < k1[c] ? -1 : k1[a] > k1[c];
			if (flags)
				order = -order;
			ASSERT_TRUE(order < 0 || (order == 0 && a < c))
				TH_LOG("type %u flags %d fibers of %d, row %d position %d: %d before %d",
				       t, flags, cols, i, j, a, c);
		}
	run_free(&r);
	free(k0);
	free(raw);
	free(k1);
}

static const uint32_t every_key_type[] = {
	XRT_CS_PRED, XRT_CS_S8, XRT_CS_S16, XRT_CS_S32, XRT_CS_S64, XRT_CS_U8, XRT_CS_U16,
	XRT_CS_U32, XRT_CS_U64, XRT_CS_F16, XRT_CS_BF16, XRT_CS_F32, XRT_CS_F64 };

/* Fibers of 24000: radix passes, over 2^16 elements of work (SORT yields). */
TEST_F(xrt, sort_every_key_type_long_fibers)
{
	uint32_t ti;
	int flags;

	for (ti = 0; ti < sizeof(every_key_type) / sizeof(every_key_type[0]); ti++)
		for (flags = 0; flags <= (int)XRT_CS_SORT_DESCENDING; flags++)
			two_keys(_metadata, every_key_type[ti], flags, 2, 24000,
				 ti * 2 + (uint32_t)flags + 1);
}

/* Fibers of 1 to 40: insertion sort up to 32, radix passes past it. */
TEST_F(xrt, sort_every_key_type_short_fibers)
{
	static const int lens[] = { 1, 2, 5, 31, 32, 33, 40 };
	uint32_t ti, li;
	int flags;

	for (ti = 0; ti < sizeof(every_key_type) / sizeof(every_key_type[0]); ti++)
		for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
			for (flags = 0; flags <= (int)XRT_CS_SORT_DESCENDING; flags++)
				two_keys(_metadata, every_key_type[ti], flags, 60, lens[li],
					 ti * 16 + li * 2 + (uint32_t)flags + 1);
}

/*
 * XRT_CS_SORT_BY_VALUE: -0 and +0 tie and keep their order, as do all
 * NaNs (quiet, signalling, either sign), which come after every number
 * ascending and before them descending.
 */
TEST_F(xrt, sort_floats_by_value)
{
	static const uint32_t types[] = { XRT_CS_F16, XRT_CS_F32, XRT_CS_F64 };
	static const float vals[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN,
				      -NAN, 2.5f };
	enum { N = 900 };
	uint64_t dims[1] = { N };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand ops[2];
	struct cs_builder b;
	struct run r = { .n = 0 };
	static uint8_t k0[N * 8];
	uint32_t ti, es, t;
	int flags, i;

	for (ti = 0; ti < 3; ti++)
		for (flags = XRT_CS_SORT_BY_VALUE;
		     flags <= (int)(XRT_CS_SORT_BY_VALUE | XRT_CS_SORT_DESCENDING); flags++) {
			int32_t *v;

			t = types[ti];
			es = xs_dtype_size(t);
			for (i = 0; i < N; i++) {
				float f = vals[(i * 7 + i / 9) % 9];
				double d = f;
				uint16_t h = f != f ? (f < 0 || signbit(f) ? 0xfe00 : 0x7e00) :
					isinf(f) ? (f < 0 ? 0xfc00 : 0x7c00) :
					f == 0 ? (signbit(f) ? 0x8000 : 0) :
					f == 1 ? 0x3c00 : f == -1 ? 0xbc00 : 0x4100;
				uint32_t sn = 0x7f800001u;	/* a signalling NaN */

				if (t == XRT_CS_F16)
					memcpy(k0 + (size_t)i * 2, &h, 2);
				else if (t == XRT_CS_F32 && i % 50 == 3)
					memcpy(k0 + (size_t)i * 4, &sn, 4);
				else if (t == XRT_CS_F32)
					memcpy(k0 + (size_t)i * 4, &f, 4);
				else
					memcpy(k0 + (size_t)i * 8, &d, 8);
			}
			cs_builder_init(&b, NULL);
			add_buf(&b, &r, N * es, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
			add_buf(&b, &r, N * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
			memcpy(r.slot[0], k0, (size_t)N * es);
			v = (int32_t *)r.slot[1];
			for (i = 0; i < N; i++)
				v[i] = i;
			ops[0] = cs_operand(0, t, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1, st);
			ops[1] = cs_operand(1, XRT_CS_S32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT,
					    0, 1, st);
			cs_sort(&b, (uint32_t)flags, 1, dims, 0, ops, 2, 1);
			RUN_PROGRAM(&b, &r);
			for (i = 1; i < N; i++) {
				int a = v[i - 1], c = v[i];
				uint8_t *pa = k0 + (size_t)a * es, *pc = k0 + (size_t)c * es;
				double da = key_value(t, pa), dc = key_value(t, pc);
				int na = da != da, nc = dc != dc;
				/* NaNs above numbers and equal; -0 == +0 as doubles */
				int order = na || nc ? na - nc : (da > dc) - (da < dc);

				if (flags & XRT_CS_SORT_DESCENDING)
					order = -order;
				ASSERT_TRUE(order < 0 || (order == 0 && a < c))
					TH_LOG("type %u flags %d position %d: %d before %d", t, flags,
					       i, a, c);
				ASSERT_EQ(0, memcmp(r.slot[0] + (size_t)i * es, pc, es));
			}
			run_free(&r);
		}
}

/* The test's own top-down merge sort, the evaluator's shape, IEEE keys. */
struct ieee_keys {
	const double *k0;
	const int32_t *k1;
	int desc;
};

static int ieee_before(const struct ieee_keys *k, int32_t i, int32_t j)
{
	double a = k->k0[i], b = k->k0[j];

	if (k->desc ? a > b : a < b)
		return 1;
	if (!(a == b))		/* greater, or a NaN */
		return 0;
	return k->desc ? k->k1[i] > k->k1[j] : k->k1[i] < k->k1[j];
}

static void ieee_merge_sort(const struct ieee_keys *k, int32_t *p, int32_t *tmp, int n)
{
	int h = n / 2, i = 0, j = h, o = 0;

	if (n < 2)
		return;
	ieee_merge_sort(k, p, tmp, h);
	ieee_merge_sort(k, p + h, tmp, n - h);
	while (i < h && j < n)
		tmp[o++] = ieee_before(k, p[j], p[i]) ? p[j++] : p[i++];
	while (i < h)
		tmp[o++] = p[i++];
	while (j < n)
		tmp[o++] = p[j++];
	memcpy(p, tmp, (size_t)n * sizeof(*p));
}

/*
 * XRT_CS_SORT_IEEE_MERGE: keys as IEEE numbers (NaN unordered, zeros
 * equal), which with NaNs is no strict weak order, so the one right
 * answer is the merge sort's: element for element, for every float type,
 * both directions, fibers short and past a yield, a second integer key.
 */
TEST_F(xrt, sort_ieee_merge_is_the_evaluators_merge_sort)
{
	static const uint32_t types[] = { XRT_CS_F16, XRT_CS_BF16, XRT_CS_F32, XRT_CS_F64 };
	static const float vals[] = { 0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 2.5f,
				      -NAN, 1.0f, 2.5f };
	static const int lens[] = { 1, 2, 3, 7, 33, 1000, 70001 };
	static double kd[70001];
	static int32_t k1[70001], want[70001], tmp[70001];
	int64_t st[1] = { 1 };
	uint32_t ti, es, t;
	int li, desc, i, n;

	for (ti = 0; ti < 4; ti++)
		for (li = 0; li < 7; li++)
			for (desc = 0; desc < 2; desc++) {
				uint64_t dims[1];
				struct ieee_keys k = { kd, k1, desc };
				struct xrt_cs_operand ops[3];
				struct cs_builder b;
				struct run r = { .n = 0 };
				int32_t *v;

				t = types[ti];
				n = lens[li];
				dims[0] = (uint64_t)n;
				es = xs_dtype_size(t);
				cs_builder_init(&b, NULL);
				add_buf(&b, &r, (size_t)n * es, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
				add_buf(&b, &r, (size_t)n * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
				add_buf(&b, &r, (size_t)n * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
				for (i = 0; i < n; i++) {
					float f = vals[(i * 7 + i / 11) % 11];
					uint16_t h = f != f ? 0x7e00 : isinf(f) ? (f < 0 ? 0xfc00 : 0x7c00) :
						f == 0 ? (signbit(f) ? 0x8000 : 0) : f == 1 ? 0x3c00 :
						f == -1 ? 0xbc00 : 0x4100;
					uint32_t fb;
					double d = f;

					memcpy(&fb, &f, 4);
					if (t == XRT_CS_F16)
						memcpy(r.slot[0] + (size_t)i * 2, &h, 2);
					else if (t == XRT_CS_BF16)
						memcpy(r.slot[0] + (size_t)i * 2, (uint16_t[]){ fb >> 16 }, 2);
					else if (t == XRT_CS_F32)
						memcpy(r.slot[0] + (size_t)i * 4, &f, 4);
					else
						memcpy(r.slot[0] + (size_t)i * 8, &d, 8);
					kd[i] = key_value(t, r.slot[0] + (size_t)i * es);
					k1[i] = (i * 5) % 3;
					want[i] = i;
				}
				memcpy(r.slot[1], k1, (size_t)n * 4);
				v = (int32_t *)r.slot[2];
				for (i = 0; i < n; i++)
					v[i] = i;
				ieee_merge_sort(&k, want, tmp, n);
				ops[0] = cs_operand(0, t, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1, st);
				ops[1] = cs_operand(1, XRT_CS_S32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT,
						    0, 1, st);
				ops[2] = cs_operand(2, XRT_CS_S32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT,
						    0, 1, st);
				cs_sort(&b, XRT_CS_SORT_IEEE_MERGE | (desc ? XRT_CS_SORT_DESCENDING : 0),
					1, dims, 0, ops, 3, 2);
				RUN_PROGRAM(&b, &r);
				for (i = 0; i < n; i++) {
					ASSERT_EQ(want[i], v[i])
						TH_LOG("type %u n %d desc %d: position %d", t, n, desc, i);
					ASSERT_EQ(k1[want[i]], ((int32_t *)r.slot[1])[i]);
				}
				run_free(&r);
			}
}

/* IEEE_MERGE and BY_VALUE say different things about NaNs: not both. */
TEST_F(xrt, sort_ieee_merge_and_by_value_are_refused_together)
{
	uint64_t dims[1] = { 4 };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand op;
	struct xdev_program prog;
	struct cs_builder b;
	struct run r = { .n = 0 };
	void *bytes;
	size_t size;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, 16, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	op = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1, st);
	cs_sort(&b, XRT_CS_SORT_IEEE_MERGE | XRT_CS_SORT_BY_VALUE, 1, dims, 0, &op, 1, 1);
	ASSERT_OK(cs_finish(&b, &bytes, &size));
	ASSERT_ERR(xdev_program_load(&prog, NULL, bytes, size), XRT_INVALID_ARGUMENT,
		   "SORT: BY_VALUE and IEEE_MERGE together");
	xrt_free(NULL, bytes);
	run_free(&r);
}

static uint32_t bits_es;

static int bits_cmp(const void *a, const void *b)
{
	uint32_t x = 0, y = 0;

	memcpy(&x, a, bits_es);
	memcpy(&y, b, bits_es);
	return x < y ? -1 : x > y;
}

/* An element's bits and place, in key_cmp's order, ties by place. */
struct keyed {
	uint64_t bits;
	int i;
};

static uint32_t keyed_type;
static int keyed_desc;

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = key_cmp(keyed_type, (const uint8_t *)&a->bits, (const uint8_t *)&b->bits);

	if (keyed_desc)
		c = -c;
	return c ? c : a->i - b->i;
}

/* What a long fiber holds: each makes the wide sort take another road. */
enum keys_shape {
	KEYS_RAW,	/* random bits: 4-byte NaNs quieted, so key above bits */
	KEYS_NUMBERS,	/* no NaN: the keys travel alone */
	KEYS_FEW,	/* 0 to 999: the high digits' passes skipped */
	KEYS_SAME,	/* one value: every pass skipped */
	KEYS_SKEWED,	/* 15 in 16 share the top digit: a bucket split again */
	KEYS_NARROW,	/* and the one below: that split finds one value */
};

static void shape_keys(uint8_t *k, int n, uint32_t t, enum keys_shape shape)
{
	uint32_t es = xs_dtype_size(t);
	uint64_t v, exp = es == 8 ? 0x7ff0000000000000ull : 0x7f800000;
	uint64_t top = es == 8 ? 1ull << 62 : 1u << 30;	/* a top digit's value */
	uint64_t below = es == 8 ? (1ull << 55) - 1 : (1u << 22) - 1;
	int i;

	for (i = 0; i < n; i++) {
		v = 0;
		memcpy(&v, k + (size_t)i * es, es);
		if (shape == KEYS_NUMBERS && (v & exp) == exp)
			v &= ~(exp >> 1 & exp);	/* NaN or inf: a finite number */
		else if (shape == KEYS_FEW)
			v %= 1000;
		else if (shape == KEYS_SAME)
			v = 0x42;
		else if (shape == KEYS_SKEWED && i % 16)	/* its parts short and long */
			v = top | (v & (i % 128 ? below & ~(0x7f0ull << 11) : below));
		else if (shape == KEYS_NARROW)	/* the rest in another bucket */
			v = i % 16 ? top | (v & below >> 11) : top << 1 | (v & below);
		memcpy(k + (size_t)i * es, &v, es);
	}
}

/*
 * One fiber of a million and more (the wide sort: its passes shared out
 * in chunks among the items of several phases), of each key size and
 * shape that takes its own road; ascending and descending; against a
 * stable reference.
 */
TEST_F_TIMEOUT(xrt, sort_one_long_fiber_in_chunks, 120)
{
	static const struct {	/* each costs seconds in the emulated VM */
		uint32_t t;
		enum keys_shape shape;
		int desc;
	} cases[] = {
		{ XRT_CS_F32, KEYS_RAW, 0 }, { XRT_CS_F32, KEYS_RAW, 1 },
		{ XRT_CS_F32, KEYS_NUMBERS, 1 }, { XRT_CS_S16, KEYS_RAW, 0 },
		{ XRT_CS_S32, KEYS_RAW, 0 }, { XRT_CS_U32, KEYS_FEW, 0 },
		{ XRT_CS_F64, KEYS_RAW, 0 }, { XRT_CS_F64, KEYS_RAW, 1 },
		{ XRT_CS_S64, KEYS_FEW, 1 }, { XRT_CS_S8, KEYS_SAME, 0 },
		{ XRT_CS_U32, KEYS_SKEWED, 0 }, { XRT_CS_U32, KEYS_NARROW, 1 },
		{ XRT_CS_F64, KEYS_NARROW, 0 },
	};
	enum { N = (1 << 20) + 777 };
	static struct keyed ref[N];
	static uint8_t k0[N * 8], want[N * 8];
	uint64_t dims[1] = { N };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand op;
	struct cs_builder b;
	struct run r = { .n = 0 };
	uint32_t ci, es;
	int desc, i;

	for (ci = 0; ci < ARRAY_SIZE(cases); ci++) {
		desc = cases[ci].desc;
		keyed_type = cases[ci].t;
		keyed_desc = desc;
		es = xs_dtype_size(keyed_type);
		rand_fill(k0, (size_t)N * es, 5 + ci);
		shape_keys(k0, N, keyed_type, cases[ci].shape);
		for (i = 0; i < N; i++) {
			ref[i].bits = 0;
			memcpy(&ref[i].bits, k0 + (size_t)i * es, es);
			ref[i].i = i;
		}
		qsort(ref, N, sizeof(ref[0]), keyed_cmp);
		for (i = 0; i < N; i++)
			memcpy(want + (size_t)i * es, &ref[i].bits, es);
		cs_builder_init(&b, NULL);
		add_buf(&b, &r, (size_t)N * es, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
		memcpy(r.slot[0], k0, (size_t)N * es);
		op = cs_operand(0, keyed_type, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1,
				st);
		cs_sort(&b, desc ? XRT_CS_SORT_DESCENDING : 0, 1, dims, 0, &op, 1, 1);
		RUN_PROGRAM(&b, &r);
		ASSERT_EQ(0, memcmp(want, r.slot[0], (size_t)N * es))
			TH_LOG("type %u, shape %d, descending %d", keyed_type,
			       cases[ci].shape, desc);
		run_free(&r);
		r.n = 0;
	}
}

/* (value, index) pairs in JAX's by-value order: -0 equals +0, NaNs last. */
struct by_value {
	float v;
	int i;
};

static int by_value_cmp(const void *pa, const void *pb)
{
	const struct by_value *a = pa, *b = pb;
	int na = a->v != a->v, nb = b->v != b->v;

	if (na != nb)
		return na - nb;
	if (!na && a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i - b->i;	/* equal: their order, stably */
}

/*
 * BY_VALUE on a lone f32 key, long fibers: without -0 or NaN the keys
 * sort as words and decode; with them the packed path keeps each
 * element's bits, -0 and +0 in their order.  Against a stable reference.
 */
TEST_F(xrt, sort_by_value_lone_f32)
{
	enum { N = 3000 };
	static const float pool[] = { 1.5f, -2, 0.25f, 7, -0.5f, 3 };
	static float k0[N], want[N];
	static struct by_value ref[N];
	uint64_t dims[1] = { N };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand op;
	struct cs_builder b;
	struct run r = { .n = 0 };
	int pass, i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < N; i++) {
			k0[i] = pool[(i * 7919) % 6] * (float)(i % 5);
			if (pass && i % 97 == 0)
				k0[i] = i % 2 ? -0.0f : __builtin_nanf("");
			ref[i] = (struct by_value){ k0[i], i };
		}
		qsort(ref, N, sizeof(ref[0]), by_value_cmp);
		for (i = 0; i < N; i++)
			want[i] = k0[ref[i].i];
		cs_builder_init(&b, NULL);
		add_buf(&b, &r, sizeof(k0), XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
		memcpy(r.slot[0], k0, sizeof(k0));
		op = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1, st);
		cs_sort(&b, XRT_CS_SORT_BY_VALUE, 1, dims, 0, &op, 1, 1);
		RUN_PROGRAM(&b, &r);
		ASSERT_EQ(0, memcmp(want, r.slot[0], sizeof(want))) TH_LOG("pass %d", pass);
		run_free(&r);
		r.n = 0;
	}
}

/*
 * A lone key of up to 4 bytes travels through the sort with its bits
 * (no permutation): each comes out once, signalling NaNs included, in
 * order either way.
 */
TEST_F(xrt, sort_lone_key_keeps_its_bits)
{
	static const uint32_t types[] = { XRT_CS_PRED, XRT_CS_S8, XRT_CS_U16, XRT_CS_F16,
					  XRT_CS_BF16, XRT_CS_S32, XRT_CS_F32 };
	enum { R = 2, C = 3000 };
	uint64_t dims[2] = { R, C };
	int64_t st[2] = { C, 1 };
	static uint8_t k0[R * C * 4], out[R * C * 4];
	struct xrt_cs_operand op;
	struct cs_builder b;
	struct run r = { .n = 0 };
	uint32_t ti, es, t;
	int flags, i, j;

	for (ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++)
		for (flags = 0; flags <= (int)XRT_CS_SORT_DESCENDING; flags++) {
			t = types[ti];
			es = xs_dtype_size(t);
			rand_fill(k0, sizeof(k0), 77 + ti);
			for (i = 0; t == XRT_CS_PRED && i < R * C; i++)
				k0[i] &= 1;
			cs_builder_init(&b, NULL);
			add_buf(&b, &r, R * C * es, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
			memcpy(r.slot[0], k0, (size_t)R * C * es);
			op = cs_operand(0, t, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 2, st);
			cs_sort(&b, (uint32_t)flags, 2, dims, 1, &op, 1, 1);
			RUN_PROGRAM(&b, &r);
			memcpy(out, r.slot[0], (size_t)R * C * es);
			bits_es = es;
			for (i = 0; i < R; i++) {
				for (j = 1; j < C; j++) {
					int order = key_cmp(t, out + (size_t)(i * C + j - 1) * es,
							    out + (size_t)(i * C + j) * es);

					ASSERT_TRUE(flags ? order >= 0 : order <= 0)
						TH_LOG("type %u row %d position %d", t, i, j);
				}
				qsort(out + (size_t)i * C * es, C, es, bits_cmp);
				qsort(k0 + (size_t)i * C * es, C, es, bits_cmp);
			}
			ASSERT_EQ(0, memcmp(out, k0, (size_t)R * C * es)) TH_LOG("type %u", t);
			run_free(&r);
		}
}

static int count_yields(void *arg)
{
	return ++*(int *)arg > 1000000;
}

static int stop_at_once(void *arg)
{
	(void)arg;
	return 1;
}

/*
 * A long fiber offers to yield while it sorts; asked to stop, it leaves
 * the operands as they were.
 */
TEST(sort_yields_and_stops)
{
	enum { N = 1 << 18 };
	uint64_t dims[1] = { N };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand op = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN |
					      XRT_CS_OPERAND_OUT, 0, 1, st);
	float *x = aligned_buf(N * 4), *orig = aligned_buf(N * 4);
	struct xrt_engine_cursor cur = { 0, 0, 0 };
	struct cs_builder b;
	struct xdev_program p;
	uint8_t *slots[1] = { (uint8_t *)x };
	struct xrt_engine_ctx ctx;
	void *prog, *ws;
	size_t size;
	int calls = 0, i;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, N * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	cs_sort(&b, 0, 1, dims, 0, &op, 1, 1);
	ASSERT_OK(cs_finish(&b, &prog, &size));
	ASSERT_OK(xdev_program_load(&p, NULL, prog, size));
	ws = aligned_buf(p.prog.thread_ws_size);
	for (i = 0; i < N; i++)
		x[i] = (float)((i * 2654435761u) % 100003) - 50000;
	memcpy(orig, x, N * 4);

	ctx = (struct xrt_engine_ctx){ &p.prog, slots, NULL, 0, stop_at_once, NULL };
	while (!xrt_engine_step(&ctx, &cur, ~0ull, ws))
		;
	EXPECT_EQ(0, memcmp(x, orig, N * 4));

	ctx = (struct xrt_engine_ctx){ &p.prog, slots, NULL, 0, count_yields, &calls };
	cur = (struct xrt_engine_cursor){ 0, 0, 0 };
	while (!xrt_engine_step(&ctx, &cur, ~0ull, ws))
		;
	/* keys, two radix passes at least, the move: 5N elements of work */
	EXPECT_GE(calls, 4 * N >> 16);
	for (i = 1; i < N; i++)
		ASSERT_LE(x[i - 1], x[i]);
	free(ws);
	free(x);
	free(orig);
	xdev_program_release(&p);
	xrt_free(NULL, prog);
}

/* Philox-4x32-10 known answers (Random123's kat_vectors). */
TEST(philox_known_answers)
{
	uint32_t c0[4] = { 0, 0, 0, 0 };
	uint32_t c1[4] = { ~0u, ~0u, ~0u, ~0u };
	uint32_t c2[4] = { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 };

	xs_philox(c0, 0);
	ASSERT_EQ(0x6627e8d5u, c0[0]);
	ASSERT_EQ(0xe169c58du, c0[1]);
	ASSERT_EQ(0xbc57ac4cu, c0[2]);
	ASSERT_EQ(0x9b00dbd8u, c0[3]);
	xs_philox(c1, ~0ull);
	ASSERT_EQ(0x408f276du, c1[0]);
	ASSERT_EQ(0x41c83b0eu, c1[1]);
	ASSERT_EQ(0xa20bc7c6u, c1[2]);
	ASSERT_EQ(0x6d5451fdu, c1[3]);
	xs_philox(c2, 0x299f31d0a4093822ull);
	ASSERT_EQ(0xd16cfe09u, c2[0]);
	ASSERT_EQ(0x94fdccebu, c2[1]);
	ASSERT_EQ(0x5001e420u, c2[2]);
	ASSERT_EQ(0x24126ea1u, c2[3]);
}

TEST_F(xrt, rng_distributions)
{
	enum { N = 200000 };
	uint64_t dims[1] = { N };
	struct xrt_cs_view bits, u16v, u32v, nv;
	struct cs_builder b;
	struct run r = { .n = 0 };
	double sum = 0, sq = 0, nsum = 0, nsq = 0;
	uint32_t w[4];
	float *f, *g;
	uint16_t *h;
	int i;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, N * 4, XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, N * 2, XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, N * 4, XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, N * 4, XRT_CS_SLOT_WRITE, 0);
	bits = cs_view_dense(0, XRT_CS_U32, 0, 1, dims);
	u16v = cs_view_dense(1, XRT_CS_F16, 0, 1, dims);
	u32v = cs_view_dense(2, XRT_CS_F32, 0, 1, dims);
	nv = cs_view_dense(3, XRT_CS_F32, 0, 1, dims);
	cs_rng(&b, XRT_CS_RNG_BITS, 5, &bits, 0, 0);
	cs_rng(&b, XRT_CS_RNG_UNIFORM, 6, &u16v, -1.0, 1.0);
	cs_rng(&b, XRT_CS_RNG_UNIFORM, 7, &u32v, 2.0, 3.0);
	cs_rng(&b, XRT_CS_RNG_NORMAL, 8, &nv, 10.0, 2.0);
	RUN_PROGRAM(&b, &r);
	/* Bits: element i is Philox of (i, stream 5) under seed 1234. */
	for (i = 0; i < N; i += 997) {
		w[0] = (uint32_t)i;
		w[1] = 0;
		w[2] = 5;
		w[3] = 0;
		xs_philox(w, 1234);
		ASSERT_EQ(w[0], ((uint32_t *)r.slot[0])[i]);
	}
	h = (uint16_t *)r.slot[1];
	f = (float *)r.slot[2];
	g = (float *)r.slot[3];
	for (i = 0; i < N; i++) {
		float x = xrt_f16_to_f32(h[i]);

		ASSERT_TRUE(x >= -1 && x < 1) TH_LOG("f16 %a", x);
		ASSERT_TRUE(f[i] >= 2 && f[i] < 3) TH_LOG("f32 %a", f[i]);
		sum += f[i];
		sq += (f[i] - 2.5) * (f[i] - 2.5);
		nsum += g[i];
		nsq += (g[i] - 10.0) * (g[i] - 10.0);
	}
	/* Moments within a few standard errors. */
	ASSERT_LE(fabs(sum / N - 2.5), 4 * sqrt(1.0 / 12 / N));
	ASSERT_LE(fabs(sq / N - 1.0 / 12), 0.002);
	ASSERT_LE(fabs(nsum / N - 10.0), 4 * 2.0 / sqrt(N));
	ASSERT_LE(fabs(sqrt(nsq / N) - 2.0), 0.03);
	run_free(&r);
}

/*
 * STREAM_AT: the stream is the u64 in memory when the command runs, so
 * an RNG reading 5 draws what a fixed stream 5 draws, and a loop that
 * counts the u64 up draws new numbers each pass.
 */
TEST_F(xrt, rng_stream_read_at_run_time)
{
	enum { N = 1000 };
	uint64_t dims[1] = { N }, two = 2, *ctr;
	struct xrt_cs_scalar at = { .slot = 0, .dtype = XRT_CS_U64 };
	struct xrt_cs_view fixed, read, again, ctrv;
	struct cs_builder b;
	struct run r = { .n = 0 };
	uint32_t w[4], *u;
	int i;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, 8, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, 3 * N * 4, XRT_CS_SLOT_WRITE, 0);
	fixed = cs_view_dense(1, XRT_CS_U32, 0, 1, dims);
	read = cs_view_dense(1, XRT_CS_U32, N * 4, 1, dims);
	again = cs_view_dense(1, XRT_CS_U32, 2 * N * 4, 1, dims);
	ctr = (uint64_t *)r.slot[0];
	*ctr = 5;
	cs_rng(&b, XRT_CS_RNG_BITS, 5, &fixed, 0, 0);
	cs_rng_at(&b, XRT_CS_RNG_BITS, &at, &read, 0, 0);
	/* the counter moves on, as the compiler's increment kernel does */
	ctrv = cs_view_dense(0, XRT_CS_U64, 0, 0, NULL);
	cs_fill_constant(&b, &ctrv, &two, 8);
	cs_rng_at(&b, XRT_CS_RNG_BITS, &at, &again, 0, 0);
	RUN_PROGRAM(&b, &r);
	u = (uint32_t *)r.slot[1];
	for (i = 0; i < N; i++) {
		ASSERT_EQ(u[i], u[N + i]);
		w[0] = (uint32_t)i;
		w[1] = 0;
		w[2] = 2;
		w[3] = 0;
		xs_philox(w, 1234);
		ASSERT_EQ(w[0], u[2 * N + i]) TH_LOG("element %d", i);
	}
	run_free(&r);
}

/* A STREAM_AT scalar that is not a readable u64 apart from dst is refused. */
TEST_F(xrt, rng_stream_at_malformed)
{
	static const struct {
		int what;
		const char *needle;
	} bad[] = {
		{ 0, "RNG: unknown flags or padding not 0" },
		{ 1, "RNG: size is not that of the command and its scalars" },
		{ 2, "RNG: stream not 0 with STREAM_AT" },
		{ 3, "part 1: scalar of the wrong element type" },
		{ 4, "part 1: RNG: dst overlaps the stream's scalar" },
		{ 5, "part 1: view reaches past the end of its slot" },
		{ 6, "part 1: reads a slot not marked READ" },
	};
	uint64_t dims[1] = { 4 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct xrt_cs_scalar at = { .slot = 0, .dtype = XRT_CS_U64, .offset = 32 };
		struct xrt_cs_view dst = cs_view_dense(0, XRT_CS_U32, 0, 1, dims);
		struct xdev_program prog;
		struct xrt_cs_rng *c;
		struct cs_builder b;
		size_t size;
		void *p;

		cs_builder_init(&b, NULL);
		cs_add_slot(&b, 64, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		cs_add_slot(&b, 64, XRT_CS_SLOT_WRITE);
		switch (bad[i].what) {
		case 3: at.dtype = XRT_CS_S64; break;
		case 4: at.offset = 8; break;
		case 5: at.offset = 64; break;
		case 6: at.slot = 1; at.offset = 16; break;
		}
		cs_rng_at(&b, XRT_CS_RNG_BITS, &at, &dst, 0, 0);
		ASSERT_OK(cs_finish(&b, &p, &size));
		c = (void *)((uint8_t *)p + ((struct xrt_cs_header *)p)->commands_offset);
		if (!i) {
			char text[1024];

			cs_dump(p, size, text, sizeof(text));
			ASSERT_NE(NULL, strstr(text, "<- bits stream at s0+32\n")) TH_LOG("%s", text);
		}
		switch (bad[i].what) {
		case 0: c->cmd.flags = 2; break;
		case 1: c->cmd.flags = 0; break;
		case 2: c->stream = 1; break;
		}
		ASSERT_ERR(xdev_program_load(&prog, self->a, p, size), XRT_INVALID_ARGUMENT,
			   bad[i].needle);
		xrt_free(NULL, p);
	}
}

TEST_F(xrt, malformed_data_commands)
{
	uint64_t od[2] = { 4, 4 }, id[2] = { 2, 2 }, outd[3] = { 2, 5, 1 };
	uint8_t map[2] = { 0, 1 }, dup[2] = { 1, 1 };
	struct xrt_cs_view op = cs_view_dense(0, XRT_CS_F32, 0, 2, od);
	struct xrt_cs_view ix = cs_view_dense(1, XRT_CS_S32, 0, 2, id);
	struct xrt_cs_view fx = cs_view_dense(1, XRT_CS_F32, 0, 2, id);
	struct xrt_cs_view big = cs_view_dense(2, XRT_CS_F32, 0, 3, outd);
	struct {
		int kind;
		const char *needle;
	} cases[] = {
		{ 0, "window larger than the operand" },
		{ 1, "index_map entry out of range or repeated" },
		{ 2, "indices not [n, k] integers" },
		{ 3, "SCATTER: combiner does not take the type" },
		{ 4, "RNG: uniform needs low < high" },
		{ 5, "RNG: bits need u32 or u64" },
		{ 6, "SORT: rank, dim, operand or key count out of range" },
		{ 7, "DYNAMIC_SLICE: a start is in the written view" },
		{ 8, "index scalar not of an integer type" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xrt_cs_scalar st[2] = { { .slot = 2, .dtype = XRT_CS_S32 },
					       { .slot = 2, .dtype = XRT_CS_S32, .offset = 4 } };
		struct xrt_cs_operand so = cs_operand(0, XRT_CS_F32, 3, 0, 2, (int64_t[]){ 4, 1 });
		struct xrt_cs_view small = cs_view_dense(2, XRT_CS_F32, 0, 2, (uint64_t[]){ 2, 2 });
		struct xdev_program prog;
		struct cs_builder b;
		size_t size;
		void *p;

		cs_builder_init(&b, NULL);
		cs_add_slot(&b, 64, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		cs_add_slot(&b, 64, XRT_CS_SLOT_READ);
		cs_add_slot(&b, 64, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		switch (cases[i].kind) {
		case 0: cs_gather(&b, &op, &ix, &big, 2, map); break;
		case 1: cs_gather(&b, &op, &ix, &big, 2, dup); break;
		case 2: cs_gather(&b, &op, &fx, &big, 2, map); break;
		case 3: {
			struct xrt_cs_view up = cs_view_dense(2, XRT_CS_F32, 0, 3,
							      (uint64_t[]){ 2, 1, 1 });

			cs_scatter(&b, XRT_CS_RED_AND, 0, &op, &ix, &up, 2, map);
			break;
		}
		case 4: cs_rng(&b, XRT_CS_RNG_UNIFORM, 0, &op, 1.0, 1.0); break;
		case 5: cs_rng(&b, XRT_CS_RNG_BITS, 0, &op, 0, 0); break;
		case 6: cs_sort(&b, 0, 2, od, 2, &so, 1, 1); break;
		case 7: st[1].offset = 0; st[0].slot = 2;
			cs_dynamic_slice(&b, 0, &op, &small, st);
			break;
		default: st[1].dtype = XRT_CS_F32;
			cs_dynamic_slice(&b, 0, &op, &small, st);
			break;
		}
		ASSERT_OK(cs_finish(&b, &p, &size));
		ASSERT_ERR(xdev_program_load(&prog, self->a, p, size), XRT_INVALID_ARGUMENT,
			   cases[i].needle);
		xrt_free(NULL, p);
	}
}

/* FILL's ids: the replica and partition the execution runs as, converted like an iota. */
TEST_F(xrt, fill_writes_the_jobs_ids)
{
	uint64_t three[] = { 3 };
	struct xrt_cs_view f = cs_view_dense(0, XRT_CS_F32, 0, 1, three);
	struct xrt_cs_view h = cs_view_dense(0, XRT_CS_F16, 16, 1, three);
	struct xrt_cs_view u = cs_view_dense(0, XRT_CS_U32, 32, 0, NULL);
	struct cs_builder bb, *b = &bb;
	struct xrt_engine_cursor cur = { 0 };
	struct xdev_program p;
	uint8_t *slots[1];
	uint16_t hv[3];
	float fv[3];
	uint32_t uv;
	void *prog;
	size_t size;

	cs_builder_init(b, NULL);
	cs_add_slot(b, 64, XRT_CS_SLOT_WRITE);
	cs_fill_id(b, &f, XRT_CS_FILL_REPLICA_ID);
	cs_fill_id(b, &h, XRT_CS_FILL_PARTITION_ID);
	cs_fill_id(b, &u, XRT_CS_FILL_REPLICA_ID);
	ASSERT_OK(cs_finish(b, &prog, &size));
	ASSERT_OK(xdev_program_load(&p, NULL, prog, size));
	slots[0] = aligned_buf(64);
	{
		struct xrt_engine_ctx x = { .prog = &p.prog, .slots = slots, .replica_id = 70001,
					    .partition_id = 5 };

		while (!xrt_engine_step(&x, &cur, 1, NULL))
			;
	}
	memcpy(fv, slots[0], sizeof(fv));
	memcpy(hv, slots[0] + 16, sizeof(hv));
	memcpy(&uv, slots[0] + 32, sizeof(uv));
	EXPECT_EQ(70001.0f, fv[0]);
	EXPECT_EQ(70001.0f, fv[2]);
	EXPECT_EQ(0x4500, hv[1]);	/* 5.0 in binary16 */
	EXPECT_EQ(70001u, uv);
	free(slots[0]);
	xdev_program_release(&p);
	xrt_free(NULL, prog);
}

TEST_HARNESS_MAIN
