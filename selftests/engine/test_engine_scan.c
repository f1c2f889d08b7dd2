// SPDX-License-Identifier: MIT
/*
 * SCAN against plain loops that combine one element after another: long
 * lines crossing the chunks the phases cut, short lines many to an item,
 * reversed and strided views, integers wrapping, unsigned order, 16-bit
 * floats rounded at every step; and the validator's refusals.
 */
#include "engine_test.h"

#include <xrt/dtype.h>

TEST_F(xrt, scan_f32_sum_across_chunks)
{
	enum { N = 50000 };
	uint64_t dims[1] = { N }, init[2] = { 0, 0 };
	struct xrt_cs_view in, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	const float *x, *y;
	float acc = 0.5f;
	int i;

	memcpy(init, &acc, sizeof(acc));
	cs_builder_init(&b, NULL);
	add_buf(&b, &r, N * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, N * 4, XRT_CS_SLOT_WRITE, 0);
	for (i = 0; i < N; i++)
		((float *)r.slot[0])[i] = (float)(1.0 / (i + 1)) * (i & 1 ? -3.0f : 1.0f);
	in = cs_view_dense(0, XRT_CS_F32, 0, 1, dims);
	out = cs_view_dense(1, XRT_CS_F32, 0, 1, dims);
	cs_scan(&b, XRT_CS_RED_SUM, 0, &in, &out, init, 4);
	RUN_PROGRAM(&b, &r);
	x = (const float *)r.slot[0];
	y = (const float *)r.slot[1];
	for (i = 0; i < N; i++) {
		acc += x[i];
		ASSERT_EQ(acc, y[i]) TH_LOG("element %d", i);
	}
	run_free(&r);
}

/* s32 running maxima along dimension 1 of [7, 3000], read backwards. */
TEST_F(xrt, scan_reversed_rows_of_int_max)
{
	enum { R = 7, C = 3000 };
	uint64_t dims[2] = { R, C }, init[2] = { (uint32_t)INT32_MIN, 0 };
	struct xrt_cs_view in, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	const int32_t *x, *y;
	int i, j;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, R * C * 4, XRT_CS_SLOT_READ, 7);
	add_buf(&b, &r, R * C * 4, XRT_CS_SLOT_WRITE, 0);
	in = cs_view_dense(0, XRT_CS_S32, 0, 2, dims);
	out = cs_view_dense(1, XRT_CS_S32, 0, 2, dims);
	in.offset += (C - 1) * 4;
	in.strides[1] = -1;
	out.offset += (C - 1) * 4;
	out.strides[1] = -1;
	cs_scan(&b, XRT_CS_RED_MAX, 1, &in, &out, init, 4);
	RUN_PROGRAM(&b, &r);
	x = (const int32_t *)r.slot[0];
	y = (const int32_t *)r.slot[1];
	for (i = 0; i < R; i++) {
		int32_t m = INT32_MIN;

		for (j = C - 1; j >= 0; j--) {
			m = x[i * C + j] > m ? x[i * C + j] : m;
			ASSERT_EQ(m, y[i * C + j]) TH_LOG("row %d column %d", i, j);
		}
	}
	run_free(&r);
}

/* Lines of 3 along dimension 0 of [3, 5000] (stride 5000): products of f64. */
TEST_F(xrt, scan_short_lines_many_to_an_item)
{
	enum { L = 3, W = 5000 };
	uint64_t dims[2] = { L, W }, init[2];
	struct xrt_cs_view in, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	const double *x, *y;
	double one = 1;
	int i, j;

	memcpy(init, &one, 8);
	init[1] = 0;
	cs_builder_init(&b, NULL);
	add_buf(&b, &r, L * W * 8, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, L * W * 8, XRT_CS_SLOT_WRITE, 0);
	for (i = 0; i < L * W; i++)
		((double *)r.slot[0])[i] = 1.0 + (i % 17) / 16.0;
	in = cs_view_dense(0, XRT_CS_F64, 0, 2, dims);
	out = cs_view_dense(1, XRT_CS_F64, 0, 2, dims);
	cs_scan(&b, XRT_CS_RED_PROD, 0, &in, &out, init, 8);
	RUN_PROGRAM(&b, &r);
	x = (const double *)r.slot[0];
	y = (const double *)r.slot[1];
	for (j = 0; j < W; j++) {
		double p = 1;

		for (i = 0; i < L; i++) {
			p *= x[i * W + j];
			ASSERT_EQ(p, y[i * W + j]) TH_LOG("line %d element %d", j, i);
		}
	}
	run_free(&r);
}

/*
 * By row across phases: [100, 1500] along dimension 0, 1500 lines side
 * by side in rows of up to 1024, a phase every 16 positions; and s32
 * sums of the same shape, which wrap.
 */
TEST_F(xrt, scan_rows_across_phases)
{
	enum { L = 100, W = 1500 };
	uint64_t dims[2] = { L, W }, init[2] = { 0, 0 };
	struct xrt_cs_view in, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	const float *x, *y;
	const int32_t *xi, *yi;
	int i, j;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, L * W * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, L * W * 4, XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, L * W * 4, XRT_CS_SLOT_READ, 3);
	add_buf(&b, &r, L * W * 4, XRT_CS_SLOT_WRITE, 0);
	for (i = 0; i < L * W; i++)
		((float *)r.slot[0])[i] = (float)(1.0 / (i % 97 + 1)) * (i & 2 ? -1.5f : 1.0f);
	in = cs_view_dense(0, XRT_CS_F32, 0, 2, dims);
	out = cs_view_dense(1, XRT_CS_F32, 0, 2, dims);
	cs_scan(&b, XRT_CS_RED_SUM, 0, &in, &out, init, 4);
	in = cs_view_dense(2, XRT_CS_S32, 0, 2, dims);
	out = cs_view_dense(3, XRT_CS_S32, 0, 2, dims);
	cs_scan(&b, XRT_CS_RED_SUM, 0, &in, &out, init, 4);
	RUN_PROGRAM(&b, &r);
	x = (const float *)r.slot[0];
	y = (const float *)r.slot[1];
	xi = (const int32_t *)r.slot[2];
	yi = (const int32_t *)r.slot[3];
	for (j = 0; j < W; j++) {
		float acc = 0;
		uint32_t ai = 0;

		for (i = 0; i < L; i++) {
			acc += x[i * W + j];
			ai += (uint32_t)xi[i * W + j];
			ASSERT_EQ(acc, y[i * W + j]) TH_LOG("line %d element %d", j, i);
			ASSERT_EQ((int32_t)ai, yi[i * W + j]) TH_LOG("s32 line %d element %d", j, i);
		}
	}
	run_free(&r);
}

/* u64 minima compare unsigned; s8 sums wrap; f16 sums round at each step. */
TEST_F(xrt, scan_unsigned_wrapping_and_half)
{
	static const uint64_t u[6] = { 5, 1ull << 63, 3, ~0ull, 2, 7 };
	static const int8_t s[6] = { 100, 50, -20, 127, -128, 1 };
	uint64_t d6[1] = { 6 }, dh[1] = { 4000 }, most[2] = { ~0ull, 0 }, zero[2] = { 0, 0 };
	struct xrt_cs_view in, out;
	struct cs_builder b;
	struct run r = { .n = 0 };
	uint64_t m = ~0ull;
	float h = 0;
	int8_t acc = 0;
	int i;

	cs_builder_init(&b, NULL);
	add_buf(&b, &r, sizeof(u), XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, sizeof(u), XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, sizeof(s), XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, sizeof(s), XRT_CS_SLOT_WRITE, 0);
	add_buf(&b, &r, 4000 * 2, XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, 4000 * 2, XRT_CS_SLOT_WRITE, 0);
	memcpy(r.slot[0], u, sizeof(u));
	memcpy(r.slot[2], s, sizeof(s));
	for (i = 0; i < 4000; i++)
		((uint16_t *)r.slot[4])[i] = xrt_f16_from_f32(0.1f + (float)(i % 7) * 0.01f);
	in = cs_view_dense(0, XRT_CS_U64, 0, 1, d6);
	out = cs_view_dense(1, XRT_CS_U64, 0, 1, d6);
	cs_scan(&b, XRT_CS_RED_MIN, 0, &in, &out, most, 8);
	in = cs_view_dense(2, XRT_CS_S8, 0, 1, d6);
	out = cs_view_dense(3, XRT_CS_S8, 0, 1, d6);
	cs_scan(&b, XRT_CS_RED_SUM, 0, &in, &out, zero, 1);
	in = cs_view_dense(4, XRT_CS_F16, 0, 1, dh);
	out = cs_view_dense(5, XRT_CS_F16, 0, 1, dh);
	cs_scan(&b, XRT_CS_RED_SUM, 0, &in, &out, zero, 2);
	RUN_PROGRAM(&b, &r);
	for (i = 0; i < 6; i++) {
		m = u[i] < m ? u[i] : m;
		acc = (int8_t)(uint8_t)((uint8_t)acc + (uint8_t)s[i]);
		ASSERT_EQ(m, ((uint64_t *)r.slot[1])[i]) TH_LOG("u64 element %d", i);
		ASSERT_EQ(acc, ((int8_t *)r.slot[3])[i]) TH_LOG("s8 element %d", i);
	}
	for (i = 0; i < 4000; i++) {
		h = xrt_f16_to_f32(xrt_f16_from_f32(h + xrt_f16_to_f32(((uint16_t *)r.slot[4])[i])));
		ASSERT_EQ(xrt_f16_from_f32(h), ((uint16_t *)r.slot[5])[i]) TH_LOG("f16 element %d", i);
	}
	run_free(&r);
}

/* A SCAN that one field makes invalid is refused with its reason. */
TEST_F(xrt, scan_refusals)
{
	static const struct {
		int what;
		const char *needle;
	} cases[] = {
		{ 0, "SCAN: dim is not below the rank" },
		{ 1, "SCAN: op does not take the type" },
		{ 2, "SCAN: op does not take the type" },
		{ 3, "SCAN: out overlaps in" },
		{ 4, "SCAN: bad init bytes" },
		{ 5, "SCAN: flags, padding or reserved not 0" },
		{ 6, "SCAN: in and out dims differ" },
		{ 7, "SCAN: in and out differ in type or rank" },
	};
	uint64_t dims[2] = { 4, 4 }, init[2] = { 0, 0 };
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct xrt_cs_view in = cs_view_dense(0, XRT_CS_F32, 0, 2, dims);
		struct xrt_cs_view out = cs_view_dense(1, XRT_CS_F32, 0, 2, dims);
		struct xdev_program p;
		struct cs_builder b;
		struct xrt_cs_scan *c;
		uint32_t op = XRT_CS_RED_SUM, dim = 1;
		void *prog;
		size_t size;

		cs_builder_init(&b, NULL);
		cs_add_slot(&b, 64, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
		cs_add_slot(&b, 64, XRT_CS_SLOT_WRITE);
		switch (cases[k].what) {
		case 0: dim = 2; break;
		case 1: op = XRT_CS_RED_ARGMAX; break;
		case 2: op = XRT_CS_RED_AND; break;
		case 3: out.slot = 0; out.offset = 4; in.dims[0] = out.dims[0] = 3; break;
		case 4: init[1] = 1; break;
		case 6: out.dims[1] = 2; break;
		case 7: out.dtype = XRT_CS_S32; break;
		}
		c = cs_append(&b, XRT_CS_OP_SCAN, sizeof(*c));
		ASSERT_NE(NULL, c);
		c->op = (uint8_t)op;
		c->dim = (uint8_t)dim;
		memcpy(c->init, init, sizeof(init));
		c->in = in;
		c->out = out;
		if (cases[k].what == 5)
			c->reserved = 1;
		init[1] = 0;
		ASSERT_OK(cs_finish(&b, &prog, &size));
		ASSERT_ERR(xdev_program_load(&p, self->a, prog, size), XRT_INVALID_ARGUMENT,
			   cases[k].needle);
		xrt_free(NULL, prog);
	}
}

TEST_HARNESS_MAIN
