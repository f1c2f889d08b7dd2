// SPDX-License-Identifier: MIT
/*
 * REDUCE against references written from the format's definition: the
 * segment/lane/tree order for float sums and products, plain loops where
 * the order cannot matter (integers, min, max, and, or, arg ops).
 */
#include <complex.h>
#include <inttypes.h>
#include <math.h>

#include "engine_test.h"

#include <xrt/dtype.h>

#define SEG XRT_CS_REDUCE_SEGMENT
#define LANES XRT_CS_REDUCE_LANES

static struct xrt_cs_ew_inst inst(uint8_t op, uint8_t fn, uint8_t dtype,
				  uint8_t dst, uint8_t a, uint8_t b)
{
	struct xrt_cs_ew_inst in = { op, fn, dtype, dst, a, b, 0, 0, { 0, 0 } };

	return in;
}

/* The documented order for a sum of @n values with rounding @round. */
static double ordered_sum(const double *v, uint64_t n, double init,
			  double (*round)(double), int prod)
{
	double acc = init;
	uint64_t s, j;

	for (s = 0; s * SEG < n; s++) {
		double lane[LANES];
		uint32_t w, i;

		for (i = 0; i < LANES; i++)
			lane[i] = prod ? 1 : 0;
		for (j = s * SEG; j < n && j < (s + 1) * SEG; j++) {
			i = (uint32_t)((j - s * SEG) % LANES);
			lane[i] = round(prod ? lane[i] * v[j] : lane[i] + v[j]);
		}
		for (w = 1; w < LANES; w *= 2)
			for (i = 0; i + w < LANES; i += 2 * w)
				lane[i] = round(prod ? lane[i] * lane[i + w] : lane[i] + lane[i + w]);
		acc = round(prod ? acc * lane[0] : acc + lane[0]);
	}
	return acc;
}

static double round_f32(double x)
{
	return (float)x;
}

static double round_f16(double x)
{
	return xrt_f16_to_f32(xrt_f16_from_f64(x));
}

static double round_f64(double x)
{
	return x;
}

/* Runs a 2-operand reduce (one IN, one OUT) over [rows, cols] along @mask. */
static void run_reduce(struct __test_metadata *_metadata, uint32_t op,
		       uint32_t in_t, uint32_t val_t, const uint64_t *dims,
		       uint32_t rank, uint32_t mask, const void *in, void *out,
		       uint64_t out_n, const void *init, int64_t *index,
		       uint32_t index_t, int square)
{
	uint64_t n_in = 1, i;
	int64_t in_st[XRT_CS_MAX_RANK], out_st[XRT_CS_MAX_RANK], s_in = 1, s_out = 1;
	struct xrt_cs_operand ops[3];
	struct xrt_cs_ew_inst p[4];
	struct cs_builder b;
	struct run r = { .n = 0 };
	uint32_t k = 0, nops = 2;
	int d;

	for (d = (int)rank - 1; d >= 0; d--) {
		in_st[d] = s_in;
		s_in *= (int64_t)dims[d];
		out_st[d] = (mask >> d) & 1 ? 0 : s_out;
		if (!((mask >> d) & 1))
			s_out *= (int64_t)dims[d];
	}
	for (i = 0; i < rank; i++)
		n_in *= dims[i];
	cs_builder_init(&b, NULL);
	add_buf(&b, &r, n_in * xs_dtype_size(in_t), XRT_CS_SLOT_READ, 0);
	add_buf(&b, &r, out_n * xs_dtype_size(val_t), XRT_CS_SLOT_WRITE, 0);
	memcpy(r.slot[0], in, n_in * xs_dtype_size(in_t));
	ops[0] = cs_operand(0, in_t, XRT_CS_OPERAND_IN, 0, rank, in_st);
	ops[1] = cs_operand(1, val_t, XRT_CS_OPERAND_OUT, 0, rank, out_st);
	if (index) {
		add_buf(&b, &r, out_n * xs_dtype_size(index_t), XRT_CS_SLOT_WRITE, 0);
		ops[2] = cs_operand(2, index_t, XRT_CS_OPERAND_OUT, 0, rank, out_st);
		nops = 3;
	}
	p[k++] = inst(XRT_CS_EW_LOAD, 0, in_t, 0, 0, 0);
	if (in_t != val_t)
		p[k++] = inst(XRT_CS_EW_CONVERT, 0, val_t, 0, 0, 0);
	if (square)
		p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, val_t, 1, 0, 0);
	cs_reduce(&b, op, rank, dims, mask, ops, nops, p, k, 2, square ? 1 : 0, init,
		  init ? xs_dtype_size(val_t) : 0);
	RUN_PROGRAM(&b, &r);
	memcpy(out, r.slot[1], out_n * xs_dtype_size(val_t));
	if (index)
		for (i = 0; i < out_n; i++)
			index[i] = index_t == XRT_CS_S32 ? ((int32_t *)r.slot[2])[i] :
				   ((int64_t *)r.slot[2])[i];
	run_free(&r);
}

TEST_F(xrt, f32_sum_orders_and_phases)
{
	/* [37, 5000] over axis 1: five segments per output, two phases. */
	static float in[37 * 5000], out[37];
	static double col[5000];
	uint64_t dims[2] = { 37, 5000 };
	float init = 0.5f;
	uint32_t i, j;

	for (i = 0; i < 37 * 5000; i++)
		in[i] = (float)sin(i * 0.37) * 1000.0f / (float)(i % 97 + 1);
	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_F32, XRT_CS_F32, dims, 2, 2,
		   in, out, 37, &init, NULL, 0, 0);
	for (i = 0; i < 37; i++) {
		for (j = 0; j < 5000; j++)
			col[j] = in[i * 5000 + j];
		ASSERT_EQ((float)ordered_sum(col, 5000, init, round_f32, 0), out[i])
			TH_LOG("row %u", i);
	}
}

TEST_F(xrt, f32_sum_over_outer_axes)
{
	/* [300, 7, 11] over axes 0 and 2: 3300 elements per output. */
	static float in[300 * 7 * 11], out[7];
	static double v[3300];
	uint64_t dims[3] = { 300, 7, 11 };
	uint32_t a, b, c, n;

	for (a = 0; a < 300 * 7 * 11; a++)
		in[a] = (float)cos(a * 1.3) / 3.0f;
	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_F32, XRT_CS_F32, dims, 3, 5,
		   in, out, 7, NULL, NULL, 0, 0);
	for (b = 0; b < 7; b++) {
		n = 0;
		for (a = 0; a < 300; a++)
			for (c = 0; c < 11; c++)
				v[n++] = in[(a * 7 + b) * 11 + c];
		ASSERT_EQ((float)ordered_sum(v, n, 0, round_f32, 0), out[b]) TH_LOG("b %u", b);
	}
}

TEST_F(xrt, whole_array_to_scalar_and_fused_square)
{
	static uint16_t in[100003];
	static double v[100003];
	uint64_t dims[1] = { 100003 };
	float out;
	uint32_t i;

	for (i = 0; i < 100003; i++) {
		in[i] = xrt_f16_from_f64(sin(i) * 4);
		v[i] = (double)xrt_f16_to_f32(in[i]);
		v[i] = (float)(v[i] * v[i]);
	}
	/* sum(convert<f32>(x)^2) over an f16 input. */
	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_F16, XRT_CS_F32, dims, 1, 1,
		   in, &out, 1, NULL, NULL, 0, 1);
	ASSERT_EQ((float)ordered_sum(v, 100003, 0, round_f32, 0), out);
}

/* In f32 each step, rounded to f16 once at the end: in f16 it would stall. */
TEST_F(xrt, f16_sum_accumulates_in_f32)
{
	static uint16_t in[3000], out;
	static double v[3000];
	uint64_t dims[1] = { 3000 };
	uint32_t i;

	for (i = 0; i < 3000; i++) {
		in[i] = xrt_f16_from_f64(1.0 / (i % 13 + 1));
		v[i] = xrt_f16_to_f32(in[i]);
	}
	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_F16, XRT_CS_F16, dims, 1, 1,
		   in, &out, 1, NULL, NULL, 0, 0);
	ASSERT_EQ(xrt_f16_from_f64(ordered_sum(v, 3000, 0, round_f32, 0)), out);
	ASSERT_NE(xrt_f16_from_f64(ordered_sum(v, 3000, 0, round_f16, 0)), out);
}

TEST_F(xrt, f64_product_and_complex_sum)
{
	static double in[2000], out[2], v[1000];
	static double complex cin[1500], cout;
	uint64_t dims[2] = { 2, 1000 }, cd[1] = { 1500 };
	double complex want = 0;
	uint32_t i, r;

	for (i = 0; i < 2000; i++)
		in[i] = 1.0 + sin(i) / 500;
	run_reduce(_metadata, XRT_CS_RED_PROD, XRT_CS_F64, XRT_CS_F64, dims, 2, 2,
		   in, out, 2, NULL, NULL, 0, 0);
	/* The init is 0 bytes here: a product from 0 stays 0. */
	ASSERT_EQ(0.0, out[0]);
	run_reduce(_metadata, XRT_CS_RED_PROD, XRT_CS_F64, XRT_CS_F64, dims, 2, 2,
		   in, out, 2, &(double){ 1 }, NULL, 0, 0);
	for (r = 0; r < 2; r++) {
		memcpy(v, in + r * 1000, sizeof(v));
		ASSERT_EQ(ordered_sum(v, 1000, 1, round_f64, 1), out[r]);
	}
	for (i = 0; i < 1500; i++)
		cin[i] = sin(i) + I * cos(i * 3);
	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_C128, XRT_CS_C128, cd, 1, 1,
		   cin, &cout, 1, NULL, NULL, 0, 0);
	for (i = 0; i < 1500; i++)
		want += cin[i];
	ASSERT_LE(cabs(cout - want), 1e-12);
}

TEST_F(xrt, integers_min_max_and_or)
{
	static int32_t vs32[64 * 70], vs32o[64];
	static uint8_t vu8[64 * 70], vu8o[64], p[64 * 70], po[64];
	uint64_t dims[2] = { 64, 70 };
	uint32_t i, j;

	for (i = 0; i < 64 * 70; i++) {
		vs32[i] = (int32_t)(i * 2654435761u);
		vu8[i] = (uint8_t)(i * 37);
		p[i] = (i % 71) != 5;
	}
	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_S32, XRT_CS_S32, dims, 2, 2,
		   vs32, vs32o, 64, NULL, NULL, 0, 0);
	for (i = 0; i < 64; i++) {
		uint32_t want = 0;

		for (j = 0; j < 70; j++)
			want += (uint32_t)vs32[i * 70 + j];
		ASSERT_EQ((int32_t)want, vs32o[i]);
	}
	run_reduce(_metadata, XRT_CS_RED_MIN, XRT_CS_S32, XRT_CS_S32, dims, 2, 2,
		   vs32, vs32o, 64, &(int32_t){ INT32_MAX }, NULL, 0, 0);
	run_reduce(_metadata, XRT_CS_RED_MAX, XRT_CS_U8, XRT_CS_U8, dims, 2, 2,
		   vu8, vu8o, 64, NULL, NULL, 0, 0);
	run_reduce(_metadata, XRT_CS_RED_AND, XRT_CS_PRED, XRT_CS_PRED, dims, 2, 2,
		   p, po, 64, &(uint8_t){ 1 }, NULL, 0, 0);
	for (i = 0; i < 64; i++) {
		int32_t mn = INT32_MAX;
		uint8_t mx = 0, all = 1;

		for (j = 0; j < 70; j++) {
			mn = vs32[i * 70 + j] < mn ? vs32[i * 70 + j] : mn;
			mx = vu8[i * 70 + j] > mx ? vu8[i * 70 + j] : mx;
			all &= p[i * 70 + j];
		}
		ASSERT_EQ(mn, vs32o[i]);
		ASSERT_EQ(mx, vu8o[i]);
		ASSERT_EQ(all, po[i]) TH_LOG("row %u", i);
	}
}

TEST_F(xrt, float_max_nan_and_signed_zero)
{
	float in[4][5] = {
		{ 1, NAN, 3, -2, 0 },
		{ -0.0f, 0.0f, -0.0f, -0.0f, -1 },
		{ -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY },
		{ 2, 7, 7, -1, 3 },
	};
	uint64_t dims[2] = { 4, 5 };
	float mx[4], mn[4];
	float ninf = -INFINITY, pinf = INFINITY;

	run_reduce(_metadata, XRT_CS_RED_MAX, XRT_CS_F32, XRT_CS_F32, dims, 2, 2,
		   in, mx, 4, &ninf, NULL, 0, 0);
	run_reduce(_metadata, XRT_CS_RED_MIN, XRT_CS_F32, XRT_CS_F32, dims, 2, 2,
		   in, mn, 4, &pinf, NULL, 0, 0);
	ASSERT_TRUE(isnan(mx[0]));
	ASSERT_TRUE(isnan(mn[0]));
	ASSERT_EQ(0.0f, mx[1]);
	ASSERT_FALSE(signbit(mx[1]));
	ASSERT_EQ(-1.0f, mn[1]);
	ASSERT_EQ(-INFINITY, mx[2]);
	ASSERT_EQ(7.0f, mx[3]);
	ASSERT_EQ(-1.0f, mn[3]);
}

/* max/min of @n in order: NaN propagates, +0 above -0. */
static float ref_pick(int min, const float *v, uint64_t n, float init)
{
	float a = init;
	uint64_t i;

	for (i = 0; i < n; i++) {
		float x = v[i];

		if (isnan(a))
			break;
		if (isnan(x) || (min ? x < a : x > a) ||
		    (x == a && x == 0 && (min ? signbit(x) : !signbit(x))))
			a = x;
	}
	return a;
}

/* Long rows: the vectorized lanes, segments and leftovers meet NaN and zeros. */
TEST_F(xrt, float_max_min_long_rows)
{
	enum { ROWS = 6, N = 2999 };
	static float in[ROWS][N];
	uint64_t dims[2] = { ROWS, N }, i, r, seed = 7;
	float mx[ROWS], mn[ROWS], ninf = -INFINITY, pinf = INFINITY;
	int op;

	for (r = 0; r < ROWS; r++)
		for (i = 0; i < N; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			in[r][i] = (float)((int64_t)(seed >> 33) % 20001 - 10000) / 7.0f;
		}
	in[1][1500] = NAN;
	for (i = 0; i < N; i++)
		in[2][i] = i % 3 ? -0.0f : 0.0f;
	for (i = 0; i < N; i++)
		in[3][i] = -0.0f;
	in[3][N - 1] = 0.0f;	/* in the leftovers */
	in[4][2047] = INFINITY;
	in[4][12] = -INFINITY;
	in[5][7] = NAN;
	for (op = 0; op < 2; op++) {
		float *out = op ? mn : mx;

		run_reduce(_metadata, op ? XRT_CS_RED_MIN : XRT_CS_RED_MAX, XRT_CS_F32,
			   XRT_CS_F32, dims, 2, 2, in, out, ROWS, op ? &pinf : &ninf, NULL, 0, 0);
		for (r = 0; r < ROWS; r++) {
			float want = ref_pick(op, in[r], N, op ? pinf : ninf);

			if (isnan(want)) {
				EXPECT_TRUE(isnan(out[r])) TH_LOG("op %d row %" PRIu64, op, r);
			} else {
				EXPECT_EQ(want, out[r]) TH_LOG("op %d row %" PRIu64, op, r);
				EXPECT_EQ(signbit(want), signbit(out[r]))
					TH_LOG("op %d row %" PRIu64 ": the sign of zero", op, r);
			}
		}
	}
}

TEST_F(xrt, argmax_and_argmin_first_index)
{
	static float in[3 * 2500], out[3];
	static int32_t si[3 * 2500], so[3];
	uint64_t dims[2] = { 3, 2500 };
	int64_t idx[3];
	uint32_t i;

	for (i = 0; i < 3 * 2500; i++) {
		in[i] = (float)(i % 1000);	/* max 999 first at 999 in each row */
		si[i] = -(int32_t)(i % 700);	/* min first at 699 in each row */
	}
	in[2500 + 1700] = NAN;			/* row 1: first NaN wins */
	in[2500 + 2400] = NAN;
	run_reduce(_metadata, XRT_CS_RED_ARGMAX, XRT_CS_F32, XRT_CS_F32, dims, 2, 2,
		   in, out, 3, NULL, idx, XRT_CS_S64, 0);
	ASSERT_EQ(999, idx[0]);
	ASSERT_EQ(999.0f, out[0]);
	ASSERT_EQ(1700, idx[1]);
	ASSERT_TRUE(isnan(out[1]));
	/* Row 2 starts at element 5000: 5000 % 1000 == 0, so 999 at 999. */
	ASSERT_EQ(999, idx[2]);
	run_reduce(_metadata, XRT_CS_RED_ARGMIN, XRT_CS_S32, XRT_CS_S32, dims, 2, 2,
		   si, so, 3, NULL, idx, XRT_CS_S32, 0);
	for (i = 0; i < 3; i++) {
		uint32_t j, best = 0;

		for (j = 1; j < 2500; j++)
			if (si[i * 2500 + j] < si[i * 2500 + best])
				best = j;
		ASSERT_EQ(best, idx[i]);
		ASSERT_EQ(si[i * 2500 + best], so[i]);
	}
}

TEST_F(xrt, empty_reduction_gives_init)
{
	uint64_t dims[2] = { 3, 0 };
	float in[1] = { 0 }, out[3], init = 42.5f;

	run_reduce(_metadata, XRT_CS_RED_SUM, XRT_CS_F32, XRT_CS_F32, dims, 2, 2,
		   in, out, 3, &init, NULL, 0, 0);
	ASSERT_EQ(42.5f, out[0]);
	ASSERT_EQ(42.5f, out[2]);
}

/* A valid f32 row-sum of [4, 8], spoiled case by case. */
static xrt_status *load_bad(uint32_t op, uint32_t mask, int64_t out_stride1,
			    uint32_t nouts, uint32_t val_t, uint32_t idx_t,
			    uint64_t init, uint32_t value_reg)
{
	uint64_t dims[2] = { 4, 8 };
	int64_t in_st[2] = { 8, 1 }, out_st[2] = { 1, out_stride1 };
	struct xrt_cs_operand ops[3];
	struct xrt_cs_ew_inst p[1];
	struct xdev_program prog;
	struct cs_builder b;
	xrt_status *st;
	size_t size;
	void *bytes;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, 256, XRT_CS_SLOT_READ);
	cs_add_slot(&b, 64, XRT_CS_SLOT_WRITE);
	cs_add_slot(&b, 64, XRT_CS_SLOT_WRITE);
	ops[0] = cs_operand(0, val_t, XRT_CS_OPERAND_IN, 0, 2, in_st);
	ops[1] = cs_operand(1, val_t, XRT_CS_OPERAND_OUT, 0, 2, out_st);
	ops[2] = cs_operand(2, idx_t, XRT_CS_OPERAND_OUT, 0, 2, out_st);
	p[0] = inst(XRT_CS_EW_LOAD, 0, val_t, 0, 0, 0);
	cs_reduce(&b, op, 2, dims, mask, ops, 1 + nouts, p, 1, 2, value_reg,
		  &init, 8);
	st = cs_finish(&b, &bytes, &size);
	if (!st)
		st = xdev_program_load(&prog, NULL, bytes, size);
	if (!st)
		xdev_program_release(&prog);
	xrt_free(NULL, bytes);
	return st;
}

TEST_F(xrt, malformed_reduces)
{
	uint32_t f = XRT_CS_F32;

	ASSERT_OK(load_bad(XRT_CS_RED_SUM, 2, 0, 1, f, 0, 0, 0));
	ASSERT_ERR(load_bad(XRT_CS_RED_SUM, 2, 1, 1, f, 0, 0, 0), XRT_INVALID_ARGUMENT,
		   "output stride along a reduced dimension");
	ASSERT_ERR(load_bad(XRT_CS_RED_SUM, 2, 0, 2, f, f, 0, 0), XRT_INVALID_ARGUMENT,
		   "wrong number of OUT operands");
	ASSERT_ERR(load_bad(XRT_CS_RED_ARGMAX, 2, 0, 1, f, 0, 0, 0), XRT_INVALID_ARGUMENT,
		   "wrong number of OUT operands");
	ASSERT_ERR(load_bad(XRT_CS_RED_AND, 2, 0, 1, f, 0, 0, 0), XRT_INVALID_ARGUMENT,
		   "op or output type does not fit the value");
	ASSERT_ERR(load_bad(XRT_CS_RED_SUM, 2, 0, 1, f, 0, 1ull << 40, 0),
		   XRT_INVALID_ARGUMENT, "bad init bytes");
	ASSERT_ERR(load_bad(XRT_CS_RED_ARGMAX, 2, 0, 2, f, XRT_CS_S16, 0, 0),
		   XRT_INVALID_ARGUMENT, "index output not s32 or s64");
	ASSERT_ERR(load_bad(XRT_CS_RED_ARGMAX, 2, 0, 2, f, XRT_CS_S32, 7, 0),
		   XRT_INVALID_ARGUMENT, "bad init bytes");
	ASSERT_ERR(load_bad(XRT_CS_RED_SUM, 2, 0, 1, f, 0, 0, 1), XRT_INVALID_ARGUMENT,
		   "value register never written");
	ASSERT_ERR(load_bad(XRT_CS_RED_SUM, 4, 0, 1, f, 0, 0, 0), XRT_INVALID_ARGUMENT,
		   "mask past the rank");
	ASSERT_ERR(load_bad(9, 2, 0, 1, f, 0, 0, 0), XRT_INVALID_ARGUMENT,
		   "REDUCE: unknown op");
}

/*
 * Found by fuzzing: with a reduced dimension of 0 the inputs reach
 * nothing, but every output is still written (with init), so outputs
 * must fit their slots over the kept dimensions.
 */
TEST_F(xrt, empty_reduction_outputs_are_bounds_checked)
{
	uint64_t dims[2] = { 4, 0 };
	int64_t in_st[2] = { 0, 1 }, out_st[2] = { 1, 0 };
	struct xrt_cs_operand ops[2];
	struct xrt_cs_ew_inst p[1] = { inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0, 0) };
	struct xdev_program prog;
	struct cs_builder b;
	size_t size;
	void *bytes;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, 4, XRT_CS_SLOT_READ);
	cs_add_slot(&b, 12, XRT_CS_SLOT_WRITE);	/* 4 outputs need 16 */
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, in_st);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 2, out_st);
	cs_reduce(&b, XRT_CS_RED_SUM, 2, dims, 2, ops, 2, p, 1, 1, 0, NULL, 0);
	ASSERT_OK(cs_finish(&b, &bytes, &size));
	ASSERT_ERR(xdev_program_load(&prog, self->a, bytes, size), XRT_INVALID_ARGUMENT,
		   "view reaches past the end of its slot");
	xrt_free(NULL, bytes);
}

TEST_HARNESS_MAIN
