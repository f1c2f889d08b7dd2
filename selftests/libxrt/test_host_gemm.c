// SPDX-License-Identifier: MIT
/*
 * The host device's own f32 DOT kernel (host_gemm.c): on a CPU with
 * AVX-512 every output must be, bit for bit, its start value with the k
 * products added by fmaf() in k order, on any thread count; rows and
 * columns no micro-tile divides, depth over several blocks, padded rows,
 * batches with a shared rhs and ACCUMULATE; the columns between rows
 * stay as they were.  Elsewhere the same programs must come within
 * rounding of that sum from whichever path runs them.  And which products
 * the kernel takes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xrt_test.h"

#include "cstream/cs_builder.h"
#include "device/device_program.h"
#include "device/host/host_device.h"

struct shape {
	uint64_t batch, m, n, k;
	int64_t lda, ldb, ldc;	/* row strides, at least k, n and n */
	bool accumulate;
	bool shared_rhs;	/* batch stride 0 */
	int64_t out_bs;		/* the output's batch stride; 0: m * ldc */
};

/* One DOT over three slots, loaded through the validator. */
struct dot_prog {
	struct xdev_program p;
	void *data;
	uint64_t bytes[3];
};

static void prog_open(struct __test_metadata *_metadata, const struct shape *s, uint32_t dtype,
		      int64_t lhs_cs, struct dot_prog *d)
{
	int64_t bs[3] = { (int64_t)s->m * s->lda, s->shared_rhs ? 0 : (int64_t)s->k * s->ldb,
			  s->out_bs ? s->out_bs : (int64_t)s->m * s->ldc };
	uint64_t rows[3] = { s->m, s->k, s->m }, cols[3] = { s->k, s->n, s->n };
	int64_t ld[3] = { s->lda, s->ldb, s->ldc };
	struct xrt_cs_matrix mx[3];
	struct cs_builder b;
	size_t size;
	int i;

	memset(d, 0, sizeof(*d));
	cs_builder_init(&b, NULL);
	for (i = 0; i < 3; i++) {
		uint64_t mats = i == 1 && s->shared_rhs ? 1 : s->batch;

		/* a row's columns past the last stride too: the output's rows may overlap */
		d->bytes[i] = (mats * rows[i] * (uint64_t)ld[i] + cols[i]) *
			      (dtype == XRT_CS_F64 ? 8 : 4);
		cs_add_slot(&b, d->bytes[i], i < 2 ? XRT_CS_SLOT_READ :
				XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		mx[i] = (struct xrt_cs_matrix){ .slot = (uint32_t)i, .dtype = (uint8_t)dtype,
						.batch_stride = bs[i], .row_stride = ld[i],
						.col_stride = 1 };
	}
	if (lhs_cs != 1) {	/* read transposed: rows one apart */
		mx[0].row_stride = 1;
		mx[0].col_stride = lhs_cs;
	}
	cs_dot(&b, s->accumulate ? XRT_CS_DOT_ACCUMULATE : 0, s->batch, s->m, s->n, s->k, &mx[0],
	       &mx[1], &mx[2]);
	ASSERT_OK(cs_finish(&b, &d->data, &size));
	ASSERT_OK(xdev_program_load(&d->p, NULL, d->data, size));
}

static void prog_close(struct dot_prog *d)
{
	xdev_program_release(&d->p);
	xrt_free(NULL, d->data);
}

static void fill(float *p, uint64_t count, uint32_t seed)
{
	uint64_t i;

	for (i = 0; i < count; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (float)((int32_t)(seed >> 8) - (1 << 23)) / (float)(1 << 23);
	}
}

/* out[b][i][j] as the kernel must leave it, from the start values @out. */
static float expected(const struct shape *s, const float *a, const float *b, const float *out,
		      uint64_t bi, uint64_t i, uint64_t j)
{
	const float *ar = a + bi * s->m * s->lda + i * s->lda;
	const float *bc = b + (s->shared_rhs ? 0 : bi * s->k * s->ldb) + j;
	float acc = s->accumulate ? out[bi * s->m * s->ldc + i * s->ldc + j] : 0.0f;
	uint64_t kk;

	for (kk = 0; kk < s->k; kk++)
		acc = fmaf(ar[kk], bc[kk * s->ldb], acc);
	return acc;
}

/* Runs @d on the pool (NULL: this thread) over copies of @start; the output slot. */
static float *run_on(struct __test_metadata *_metadata, struct dot_prog *d, float *const *start,
		     struct host_pool *pool)
{
	uint8_t *slots[3];
	struct xrt_engine_ctx x = { &d->p.prog, slots, NULL, 0 };
	xrt_status *st;
	int i;

	for (i = 0; i < 3; i++) {
		slots[i] = aligned_alloc(64, (d->bytes[i] + 63) & ~63ull);
		memcpy(slots[i], start[i], d->bytes[i]);
	}
	st = host_pool_run(pool, NULL, &x, true, NULL, NULL);
	free(slots[0]);
	free(slots[1]);
	if (st)
		free(slots[2]);
	ASSERT_OK(st);
	return (float *)slots[2];
}

/* The whole output as the kernel must leave it: padding as it started. */
static float *expected_all(const struct shape *s, float *const *in)
{
	uint64_t e, all = s->batch * s->m * (uint64_t)s->ldc;
	float *want = malloc(all * sizeof(*want));

	for (e = 0; want && e < all; e++) {
		uint64_t bi = e / (s->m * s->ldc), i = e / s->ldc % s->m, j = e % s->ldc;

		want[e] = j < s->n ? expected(s, in[0], in[1], in[2], bi, i, j) : in[2][e];
	}
	return want;
}

/*
 * Every output of @got against @want, the fmaf sums: exactly where the
 * kernel runs, else within rounding; the padding of each row untouched.
 */
static void check(struct __test_metadata *_metadata, const struct shape *s, const float *want,
		  const float *got, bool exact, const char *what)
{
	uint64_t e, all = s->batch * s->m * (uint64_t)s->ldc;

	for (e = 0; e < all; e++) {
		uint64_t bi = e / (s->m * s->ldc), i = e / s->ldc % s->m, j = e % s->ldc;
		float err = fabsf(want[e] - got[e]);
		bool ok = exact || j >= s->n ? !memcmp(&want[e], &got[e], 4) :
					       err <= 1e-5f * (float)s->k;

		ASSERT_TRUE(ok)
			TH_LOG("%s, %llux%llux%llu: [%llu][%llu][%llu] is %a, not %a", what,
			       (unsigned long long)s->m, (unsigned long long)s->n,
			       (unsigned long long)s->k, (unsigned long long)bi,
			       (unsigned long long)i, (unsigned long long)j, got[e], want[e]);
	}
}

static const struct shape shapes[] = {
	{ 1, 64, 512, 512, 512, 512, 512, false, false },	/* a layer of the MLP */
	{ 1, 13, 100, 600, 600, 100, 100, false, false },	/* 5 rows, 4 columns, 88 deep */
	{ 1, 1, 33, 7, 7, 33, 33, false, false },		/* one column in the last strip */
	{ 1, 8, 17, 1000, 1000, 17, 17, true, false },	/* a partial strip alone */
	{ 1, 40, 16, 300, 300, 16, 16, false, false },	/* no second vector */
	{ 3, 9, 70, 300, 310, 80, 75, true, true },	/* padded rows, shared rhs */
	{ 1, 256, 64, 40, 40, 64, 64, false, false },	/* the most rows it takes */
	{ 2, 100, 1000, 300, 300, 1000, 1000, false, false },	/* parts of columns per thread */
	{ 2, 5, 40, 0, 1, 40, 40, false, false },	/* no depth: every output 0 */
};

TEST_F(xrt, fused_sums_in_k_order_on_any_thread_count)
{
	bool exact;
	size_t c;

	host_detect_cpu();
	exact = xrt_engine_use_avx512;
	if (!exact)
		TH_LOG("no AVX-512: the kernel declines, results checked within rounding");
	for (c = 0; c < ARRAY_SIZE(shapes); c++) {
		const struct shape *s = &shapes[c];
		float *in[3], *want;
		struct dot_prog d;
		uint32_t t;
		int i;

		prog_open(_metadata, s, XRT_CS_F32, 1, &d);
		for (i = 0; i < 3; i++) {
			in[i] = malloc(d.bytes[i]);
			ASSERT_NE(NULL, in[i]);
			fill(in[i], d.bytes[i] / 4, 7 + (uint32_t)(c * 3 + i));
		}
		want = expected_all(s, in);
		ASSERT_NE(NULL, want);
		for (t = 1; t <= 4; t++) {
			struct host_pool *pool = NULL;
			float *got;

			if (t > 1)
				ASSERT_OK(host_pool_create(t, &pool));
			got = run_on(_metadata, &d, in, pool);
			check(_metadata, s, want, got, exact, t > 1 ? "pool" : "inline");
			free(got);
			host_pool_destroy(pool);
		}
		free(want);
		for (i = 0; i < 3; i++)
			free(in[i]);
		prog_close(&d);
	}
}

/* Which DOTs the kernel takes (on a CPU with AVX-512; none elsewhere). */
TEST_F(xrt, products_the_kernel_takes)
{
	static const struct {
		struct shape s;
		uint32_t dtype;
		int64_t lhs_cs;
		bool takes;
	} c[] = {
		{ { 1, 64, 512, 512, 512, 512, 512, false, false }, XRT_CS_F32, 1, true },
		{ { 1, 256, 64, 64, 64, 64, 64, false, false }, XRT_CS_F32, 1, true },
		{ { 1, 257, 64, 64, 64, 64, 64, false, false }, XRT_CS_F32, 1, false },
		/* the engine's path for small products */
		{ { 1, 8, 8, 8, 8, 8, 8, false, false }, XRT_CS_F32, 1, false },
		{ { 1, 64, 64, 64, 64, 64, 64, false, false }, XRT_CS_F64, 1, false },
		{ { 1, 64, 64, 64, 64, 64, 64, false, false }, XRT_CS_F32, 64, false },
		/* output rows overlapping: threads must not write them at once */
		{ { 1, 4, 64, 64, 64, 64, 32, false, false }, XRT_CS_F32, 1, false },
		/* a batch of two, then its output matrices overlapping */
		{ { 2, 4, 64, 64, 64, 64, 64, false, false }, XRT_CS_F32, 1, true },
		{ { 2, 4, 64, 64, 64, 64, 64, false, false, 200 }, XRT_CS_F32, 1, false },
	};
	uint8_t *slots[3];
	size_t i;
	int j;

	host_detect_cpu();
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct dot_prog d;
		struct xrt_engine_ctx x = { NULL, slots, NULL, 0 };

		prog_open(_metadata, &c[i].s, c[i].dtype, c[i].lhs_cs, &d);
		for (j = 0; j < 3; j++) {
			slots[j] = calloc(1, d.bytes[j]);
			ASSERT_NE(NULL, slots[j]);
		}
		x.prog = &d.p.prog;
		EXPECT_EQ(c[i].takes && xrt_engine_use_avx512, host_gemm_dot(NULL, &x, 0))
			TH_LOG("case %zu", i);
		for (j = 0; j < 3; j++)
			free(slots[j]);
		prog_close(&d);
	}
}

TEST_HARNESS_MAIN
