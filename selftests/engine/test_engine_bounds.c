// SPDX-License-Identifier: MIT
/*
 * The validator's bounds against exact arithmetic: a view it accepts
 * names only elements that lie wholly inside their slot, whatever the
 * offset, dims and strides (values at the edges of 2^62, 2^63 and 2^64,
 * every element size, ranks 0 to 8).  The oracle computes the reach in
 * 128-bit integers, where nothing a view can hold wraps.
 */
#include "engine_test.h"

typedef unsigned __int128 u128;

#define SLOT_SIZE 4096u

static const uint32_t dtypes[] = {
	XRT_CS_PRED, XRT_CS_S8, XRT_CS_S16, XRT_CS_S32, XRT_CS_S64,
	XRT_CS_U8, XRT_CS_U16, XRT_CS_U32, XRT_CS_U64, XRT_CS_F16,
	XRT_CS_BF16, XRT_CS_F32, XRT_CS_F64, XRT_CS_C64, XRT_CS_C128,
};

static const uint64_t dim_values[] = {
	0, 1, 2, 3, 16, 255, 256, SLOT_SIZE, 1ull << 31, (1ull << 62) - 1,
	1ull << 62, (1ull << 62) + 1, 1ull << 63, ~0ull,
};

static const int64_t stride_values[] = {
	0, 1, -1, 2, -2, 16, -16, 4095, -4096, 1ll << 31, -(1ll << 31),
	(1ll << 62) - 1, 1ll << 62, -(1ll << 62), (1ll << 62) + 1,
	INT64_MAX, INT64_MIN,
};

/* Offsets for elements of @es bytes: ordinary, at the slot's end, near 2^62, 2^63, 2^64. */
static uint64_t offset_value(uint32_t es, uint32_t i)
{
	static const uint64_t base[] = {
		0, 1, SLOT_SIZE / 2, SLOT_SIZE - 16, SLOT_SIZE, SLOT_SIZE + 16,
		1ull << 62, 1ull << 63,
	};

	if (i < ARRAY_SIZE(base))
		return base[i] / es * es;
	/* 2^64 - es * k for k = 1 .. 32 */
	return 0 - (uint64_t)es * (i - ARRAY_SIZE(base) + 1);
}

#define NUM_OFFSETS (8 + 32)

/* Does every element of the view lie wholly inside a slot of @size bytes? */
static int fits(uint64_t size, uint32_t es, uint64_t offset, uint32_t rank,
		const uint64_t *dims, const int64_t *strides)
{
	u128 pos = 0, neg = 0, first = offset / es;
	uint32_t i;

	if (offset % es)
		return 0;
	for (i = 0; i < rank; i++) {
		if (!dims[i])
			return 1;	/* names no element */
	}
	for (i = 0; i < rank; i++) {
		u128 mag = strides[i] < 0 ? (u128)-(strides[i] + 1) + 1 : (u128)strides[i];

		if (strides[i] < 0)
			neg += (u128)(dims[i] - 1) * mag;
		else
			pos += (u128)(dims[i] - 1) * mag;
	}
	return neg <= first && first + pos < size / es;
}

/* Validates a FILL of @view into one slot of SLOT_SIZE bytes: accepted? */
static int accepted(const struct xrt_allocator *a, const struct xrt_cs_view *view,
		    char *why, size_t why_size)
{
	static const uint8_t zero[16];
	struct cs_builder b;
	struct xdev_program prog;
	xrt_status *st;
	size_t size;
	void *p;

	cs_builder_init(&b, a);
	cs_add_slot(&b, SLOT_SIZE, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	cs_fill_constant(&b, view, zero, sizeof(zero));
	st = cs_finish(&b, &p, &size);
	if (st) {
		snprintf(why, why_size, "build: %s", xrt_status_message(st));
		xrt_status_free(st);
		return -1;
	}
	st = xdev_program_load(&prog, a, p, size);
	xrt_free(a, p);
	if (!st) {
		xdev_program_release(&prog);
		return 1;
	}
	snprintf(why, why_size, "%s", xrt_status_message(st));
	xrt_status_free(st);
	return 0;
}

static uint32_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/* A view of @rank dims drawn from the edge values. */
static void draw(uint64_t *seed, uint32_t rank, uint32_t *dtype, uint64_t *offset,
		 uint64_t *dims, int64_t *strides)
{
	uint32_t i, es;

	*dtype = dtypes[lcg(seed) % ARRAY_SIZE(dtypes)];
	es = xs_dtype_size(*dtype);
	*offset = offset_value(es, lcg(seed) % NUM_OFFSETS);
	for (i = 0; i < rank; i++) {
		/* mostly small dims, so that the product stays in range */
		dims[i] = lcg(seed) % 3 ? 1 + lcg(seed) % 4 :
			  dim_values[lcg(seed) % ARRAY_SIZE(dim_values)];
		strides[i] = stride_values[lcg(seed) % ARRAY_SIZE(stride_values)];
	}
}

/*
 * Every view of rank 1 over the whole grid, for every element size: an
 * accepted view fits, and a rejected one that fits is rejected only by
 * one of the format's documented limits.
 */
TEST_F(xrt, rank1_grid_against_exact_reach)
{
	uint32_t t, o, d, s;
	long n_ok = 0, n_bad = 0;
	char why[256];

	for (t = 0; t < ARRAY_SIZE(dtypes); t++) {
		uint32_t es = xs_dtype_size(dtypes[t]);

		for (o = 0; o < NUM_OFFSETS; o++)
			for (d = 0; d < ARRAY_SIZE(dim_values); d++)
				for (s = 0; s < ARRAY_SIZE(stride_values); s++) {
			uint64_t off = offset_value(es, o), dims[1] = { dim_values[d] };
			int64_t strides[1] = { stride_values[s] };
			struct xrt_cs_view v = cs_view(0, dtypes[t], off, 1, dims, strides);
			int got = accepted(self->a, &v, why, sizeof(why));
			int want = fits(SLOT_SIZE, es, off, 1, dims, strides);

			ASSERT_LE(0, got) TH_LOG("%s", why);
			if (got) {
				ASSERT_TRUE(want)
					TH_LOG("accepted outside its slot: es %u offset %llu dim %llu stride %lld",
					       es, (unsigned long long)off,
					       (unsigned long long)dims[0], (long long)strides[0]);
				n_ok++;
			} else {
				n_bad++;
			}
		}
	}
	/* Both answers occur: the grid is not all one side of the bound. */
	ASSERT_LT(1000, n_ok);
	ASSERT_LT(1000, n_bad);
}

/* Ranks 0 to 8 drawn from the edges: an accepted view always fits. */
TEST_F(xrt, every_rank_against_exact_reach)
{
	uint64_t seed = 42, dims[XRT_CS_MAX_RANK], off;
	int64_t strides[XRT_CS_MAX_RANK];
	uint32_t rank, dtype, i;
	long n_ok = 0;
	char why[256];

	for (i = 0; i < 60000; i++) {
		struct xrt_cs_view v;
		int got;

		rank = i % (XRT_CS_MAX_RANK + 1);
		draw(&seed, rank, &dtype, &off, dims, strides);
		v = cs_view(0, dtype, off, rank, dims, strides);
		got = accepted(self->a, &v, why, sizeof(why));
		ASSERT_LE(0, got) TH_LOG("%s", why);
		if (got) {
			ASSERT_TRUE(fits(SLOT_SIZE, xs_dtype_size(dtype), off, rank,
					 dims, strides))
				TH_LOG("accepted outside its slot: draw %u rank %u", i, rank);
			n_ok++;
		}
	}
	ASSERT_LT(1000, n_ok);
}

/* The offsets that wrapped the old check, for every element size. */
TEST_F(xrt, offsets_near_2_64_are_refused_for_every_size)
{
	uint64_t dims[] = { 16 };
	int64_t strides[] = { 1 };
	uint32_t t, k;
	char why[256];

	for (t = 0; t < ARRAY_SIZE(dtypes); t++) {
		uint32_t es = xs_dtype_size(dtypes[t]);

		for (k = 1; k <= 64; k++) {
			struct xrt_cs_view v = cs_view(0, dtypes[t], 0 - (uint64_t)es * k,
						       1, dims, strides);

			ASSERT_EQ(0, accepted(self->a, &v, why, sizeof(why)));
			ASSERT_NE(NULL, strstr(why, "view starts past the end of its slot"))
				TH_LOG("es %u k %u: %s", es, k, why);
		}
	}
}

/* The largest views the format allows still meet the slot's bound. */
TEST_F(xrt, rank8_extreme_dims)
{
	uint64_t dims[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	int64_t strides[8] = { 0 };
	struct xrt_cs_view v;
	char why[256];
	uint32_t i;

	/* 2^62 elements along stride 0: one element, accepted */
	dims[7] = 1ull << 62;
	v = cs_view(0, XRT_CS_U8, SLOT_SIZE - 1, 8, dims, strides);
	ASSERT_EQ(1, accepted(self->a, &v, why, sizeof(why))) TH_LOG("%s", why);
	/* eight dims of 2^8: 2^64 elements, refused before any product wraps */
	for (i = 0; i < 8; i++)
		dims[i] = 256;
	v = cs_view(0, XRT_CS_U8, 0, 8, dims, strides);
	ASSERT_EQ(0, accepted(self->a, &v, why, sizeof(why)));
	ASSERT_NE(NULL, strstr(why, "more than 2^62 elements")) TH_LOG("%s", why);
	/* extents that each fit but whose sum passes the slot */
	for (i = 0; i < 8; i++) {
		dims[i] = 2;
		strides[i] = 1ll << 59;
	}
	v = cs_view(0, XRT_CS_U8, 0, 8, dims, strides);
	ASSERT_EQ(0, accepted(self->a, &v, why, sizeof(why)));
	/* negative extents summing to exactly the offset: the first byte */
	for (i = 0; i < 8; i++) {
		dims[i] = 2;
		strides[i] = -64;
	}
	v = cs_view(0, XRT_CS_U8, 8 * 64, 8, dims, strides);
	ASSERT_EQ(1, accepted(self->a, &v, why, sizeof(why))) TH_LOG("%s", why);
	v.offset -= 1;
	ASSERT_EQ(0, accepted(self->a, &v, why, sizeof(why)));
	ASSERT_NE(NULL, strstr(why, "view reaches before its slot")) TH_LOG("%s", why);
}

/*
 * Executors turn strides into bytes even along a dimension of 1: a SORT
 * over one element with a stride of 2^62 f32 elements overflowed that
 * product (fuzz_cs_gen found it under UBSan).  A stride is bounded in
 * bytes.
 */
TEST_F(xrt, strides_bounded_in_bytes)
{
	uint64_t one[] = { 1 };
	int64_t big[] = { 1ll << 61 };
	struct xrt_cs_operand op;
	struct xdev_program prog;
	struct xrt_cs_view v;
	struct cs_builder b;
	char why[256];
	size_t size;
	void *p;

	v = cs_view(0, XRT_CS_F32, 0, 1, one, big);
	ASSERT_EQ(0, accepted(self->a, &v, why, sizeof(why)));
	ASSERT_NE(NULL, strstr(why, "stride too large")) TH_LOG("%s", why);
	big[0] = 1ll << 60;
	v = cs_view(0, XRT_CS_F32, 0, 1, one, big);
	ASSERT_EQ(1, accepted(self->a, &v, why, sizeof(why))) TH_LOG("%s", why);
	big[0] = 1ll << 62;
	v = cs_view(0, XRT_CS_U8, 0, 1, one, big);
	ASSERT_EQ(1, accepted(self->a, &v, why, sizeof(why))) TH_LOG("%s", why);

	cs_builder_init(&b, self->a);
	cs_add_slot(&b, 64, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	op = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1, big);
	cs_sort(&b, 0, 1, one, 0, &op, 1, 1);
	ASSERT_OK(cs_finish(&b, &p, &size));
	ASSERT_ERR(xdev_program_load(&prog, self->a, p, size), XRT_INVALID_ARGUMENT,
		   "stride too large");
	xrt_free(self->a, p);
}

TEST_HARNESS_MAIN
