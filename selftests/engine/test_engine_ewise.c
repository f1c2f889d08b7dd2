// SPDX-License-Identifier: MIT
/*
 * EWISE against independent references: C's own operators on the native
 * types (with XLA's special cases spelled out), libm for rounding and
 * remainders, libxrt core for 16-bit floats, C99 complex arithmetic.
 */
#include <complex.h>
#include <math.h>

#include "engine_test.h"

#include <xrt/dtype.h>

#include "emath.h"
#include "ew.h"

#define N 600	/* elements per run: several blocks, a partial last one */

static struct xrt_cs_ew_inst inst(uint8_t op, uint8_t fn, uint8_t dtype,
				  uint8_t dst, uint8_t a, uint8_t b, uint8_t c)
{
	struct xrt_cs_ew_inst in = { op, fn, dtype, dst, a, b, c, 0, { 0, 0 } };

	return in;
}

/*
 * Runs out[i] = op(a[i], b[i]) (or op(a[i]) when @unary) through the
 * engine: a one-instruction program between two LOADs and a STORE.
 */
static void run_op(struct __test_metadata *_metadata, uint8_t op, uint8_t fn,
		   uint32_t in_t, uint32_t out_t, const void *a, const void *b,
		   void *out, uint32_t n)
{
	uint32_t ies = xs_dtype_size(in_t), oes = xs_dtype_size(out_t);
	struct xrt_cs_ew_inst p[4];
	struct xrt_cs_operand ops[3];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	uint64_t dims[1] = { n };
	int64_t st[1] = { 1 };
	uint32_t k = 0;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, n * ies, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, n * ies, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, n * oes, XRT_CS_SLOT_WRITE, 0);
	memcpy(r.slot[0], a, n * ies);
	memcpy(r.slot[1], b ? b : a, n * ies);
	ops[0] = cs_operand(0, in_t, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[1] = cs_operand(1, in_t, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[2] = cs_operand(2, out_t, XRT_CS_OPERAND_OUT, 0, 1, st);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, in_t, 0, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, in_t, 1, 1, 0, 0);
	p[k++] = inst(op, fn, out_t, 2, 0, op == XRT_CS_EW_BINARY ||
		      op == XRT_CS_EW_COMPARE ? 1 : 0, 0);
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 2, 2, 0);
	cs_ewise(&bld, 1, dims, ops, 3, p, k, 3);
	RUN_PROGRAM(&bld, &r);
	memcpy(out, r.slot[2], n * oes);
	run_free(&r);
}

/* Interesting integers first, then pseudo-random ones. */
static void int_inputs(uint32_t t, int64_t *v, uint32_t n, uint32_t seed)
{
	uint32_t w = xs_dtype_size(t) * 8, i;
	int un = t >= XRT_CS_U8;
	int64_t min = un ? 0 : (w == 64 ? INT64_MIN : -(INT64_C(1) << (w - 1)));
	int64_t max = un ? (w == 64 ? -1 : (INT64_C(1) << w) - 1) :
			   (w == 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1);
	int64_t special[] = { 0, 1, -1, 2, -2, 3, 7, (int64_t)w, (int64_t)w + 1,
			      min, max, min + 1, max - 1 };

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = i < 13 ? special[i] :
		       (int64_t)(((uint64_t)seed << 32) ^ ((uint64_t)seed * 2654435761u));
		if (i % 5 == 0 && i >= 13)
			v[i] = (int64_t)(seed % 17) - 8;	/* small shifts and divisors */
	}
}

/* The reference for one integer binary op on width @w, signedness @un. */
static uint64_t ref_int(uint32_t fn, uint32_t w, int un, uint64_t x, uint64_t y)
{
	uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
	int64_t sx, sy;

	x &= mask;
	y &= mask;
	/* Sign-extended views. */
	sx = (int64_t)(w == 64 || !(x >> (w - 1)) ? x : x | ~mask);
	sy = (int64_t)(w == 64 || !(y >> (w - 1)) ? y : y | ~mask);
	switch (fn) {
	case XRT_CS_BIN_ADD:
		return (x + y) & mask;
	case XRT_CS_BIN_SUB:
		return (x - y) & mask;
	case XRT_CS_BIN_MUL:
		return (x * y) & mask;
	case XRT_CS_BIN_DIV:
		if (!y)
			return mask;
		if (un)
			return x / y;
		if (sy == -1)
			return (0 - x) & mask;
		return (uint64_t)(sx / sy) & mask;
	case XRT_CS_BIN_REM:
		if (!y)
			return x;
		if (un)
			return x % y;
		if (sy == -1)
			return 0;
		return (uint64_t)(sx % sy) & mask;
	case XRT_CS_BIN_MAX:
		return un ? (x > y ? x : y) : (uint64_t)(sx > sy ? sx : sy) & mask;
	case XRT_CS_BIN_MIN:
		return un ? (x < y ? x : y) : (uint64_t)(sx < sy ? sx : sy) & mask;
	case XRT_CS_BIN_AND:
		return x & y;
	case XRT_CS_BIN_OR:
		return x | y;
	case XRT_CS_BIN_XOR:
		return x ^ y;
	case XRT_CS_BIN_SHL:
		return y >= w ? 0 : (x << y) & mask;
	case XRT_CS_BIN_SHR_LOGICAL:
		return y >= w ? 0 : x >> y;
	case XRT_CS_BIN_SHR_ARITH:	/* the top bit fills, unsigned types too */
		if (y >= w)
			return sx < 0 ? mask : 0;
		return (uint64_t)(sx < 0 ? ~(~sx >> y) : sx >> y) & mask;
	default: {	/* POW */
		uint64_t r = 1, e = un ? y : (uint64_t)sy;

		if (!un && sy < 0)
			return sx == 1 ? 1 : sx == -1 ? ((sy & 1) ? mask : 1) : 0;
		while (e) {
			if (e & 1)
				r *= x;
			x *= x;
			e >>= 1;
		}
		return r & mask;
	}
	}
}

TEST_F(xrt, integer_binary_every_type)
{
	static const uint32_t fns[] = {
		XRT_CS_BIN_ADD, XRT_CS_BIN_SUB, XRT_CS_BIN_MUL, XRT_CS_BIN_DIV,
		XRT_CS_BIN_REM, XRT_CS_BIN_MAX, XRT_CS_BIN_MIN, XRT_CS_BIN_AND,
		XRT_CS_BIN_OR, XRT_CS_BIN_XOR, XRT_CS_BIN_SHL,
		XRT_CS_BIN_SHR_LOGICAL, XRT_CS_BIN_SHR_ARITH, XRT_CS_BIN_POW,
	};
	static int64_t x[N], y[N];
	static uint8_t a[N * 8], b[N * 8], out[N * 8];
	uint32_t t, f, i;

	for (t = XRT_CS_S8; t <= XRT_CS_U64; t++) {
		uint32_t es = xs_dtype_size(t), w = es * 8;

		int_inputs(t, x, N, t);
		int_inputs(t, y, N, t * 7);
		/* Pair every special value with every other in the first 169. */
		for (i = 0; i < 169; i++) {
			x[i] = x[i / 13];
			y[i] = y[i % 13];
		}
		for (i = 0; i < N; i++) {
			memcpy(a + i * es, &x[i], es);
			memcpy(b + i * es, &y[i], es);
		}
		for (f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
			run_op(_metadata, XRT_CS_EW_BINARY, fns[f], t, t, a, b, out, N);
			for (i = 0; i < N; i++) {
				uint64_t want = ref_int(fns[f], w, t >= XRT_CS_U8,
							(uint64_t)x[i], (uint64_t)y[i]);
				uint64_t got = 0;

				memcpy(&got, out + i * es, es);
				ASSERT_EQ(want, got)
					TH_LOG("type %u fn %u: %lld op %lld", t, fns[f],
					       (long long)x[i], (long long)y[i]);
			}
		}
	}
}

TEST_F(xrt, integer_unary_and_compare)
{
	static int64_t x[N], y[N];
	static uint8_t a[N * 8], b[N * 8], out[N * 8];
	uint32_t t, i, fn;

	for (t = XRT_CS_S8; t <= XRT_CS_U64; t++) {
		uint32_t es = xs_dtype_size(t), w = es * 8;
		uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
		int un = t >= XRT_CS_U8;

		int_inputs(t, x, N, t + 3);
		int_inputs(t, y, N, t + 5);
		for (i = 0; i < N; i++) {
			memcpy(a + i * es, &x[i], es);
			memcpy(b + i * es, &y[i], es);
		}
		for (fn = XRT_CS_UN_ABS; fn <= XRT_CS_UN_CLZ; fn++) {
			if (fn > XRT_CS_UN_NOT && fn < XRT_CS_UN_POPCNT)
				continue;	/* float-only functions */
			run_op(_metadata, XRT_CS_EW_UNARY, fn, t, t, a, NULL, out, N);
			for (i = 0; i < N; i++) {
				uint64_t v = (uint64_t)x[i] & mask, got = 0, want;
				int64_t s = (int64_t)(w == 64 || !(v >> (w - 1)) ? v : v | ~mask);

				memcpy(&got, out + i * es, es);
				switch (fn) {
				case XRT_CS_UN_ABS:
					want = un || s >= 0 ? v : (0 - v) & mask;
					break;
				case XRT_CS_UN_NEG:
					want = (0 - v) & mask;
					break;
				case XRT_CS_UN_SIGN:
					want = un ? v != 0 : (uint64_t)((s > 0) - (s < 0)) & mask;
					break;
				case XRT_CS_UN_NOT:
					want = ~v & mask;
					break;
				case XRT_CS_UN_POPCNT:
					want = (uint64_t)__builtin_popcountll(v);
					break;
				default:
					want = v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)w)) : w;
					break;
				}
				ASSERT_EQ(want, got) TH_LOG("type %u fn %u of %lld", t, fn,
							    (long long)s);
			}
		}
		for (fn = XRT_CS_CMP_EQ; fn <= XRT_CS_CMP_GE; fn++) {
			run_op(_metadata, XRT_CS_EW_COMPARE, fn, t, XRT_CS_PRED, a, b, out, N);
			for (i = 0; i < N; i++) {
				uint64_t u = (uint64_t)x[i] & mask, v = (uint64_t)y[i] & mask;
				int64_t su = (int64_t)(u << (64 - w)) >> (64 - w);
				int64_t sv = (int64_t)(v << (64 - w)) >> (64 - w);
				int lt = un ? u < v : su < sv, eq = u == v, want;

				want = fn == XRT_CS_CMP_EQ ? eq : fn == XRT_CS_CMP_NE ? !eq :
				       fn == XRT_CS_CMP_LT ? lt : fn == XRT_CS_CMP_LE ? lt || eq :
				       fn == XRT_CS_CMP_GT ? !lt && !eq : !lt;
				ASSERT_EQ(want, out[i]) TH_LOG("type %u compare %u", t, fn);
			}
		}
	}
}

/* Floats worth testing: zeros, infinities, NaN, halves, tiny, huge. */
static void float_inputs(double *v, uint32_t n, uint32_t seed)
{
	static const double special[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0,
		INFINITY, -INFINITY, NAN, 1e-40, -3e-39, 1e30, -7e37,
		4503599627370497.0, 0.49999999999999994, 123.456, -0.75,
	};
	uint32_t i, ns = sizeof(special) / sizeof(special[0]);

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = i < ns ? special[i] :
		       ldexp((double)(seed % 2000000) / 1000.0 - 1000.0,
			     (int)(seed >> 27) - 16);
	}
}

#define NUM_SPECIAL 22

/*
 * Elements 22 a + b become (special a, special b) for every pair of the
 * 22 specials float_inputs() starts with; the rest stay random.  The
 * specials are copied first: filling in place would overwrite them
 * before they are read.
 */
static void special_pairs(double *x, double *y)
{
	double sx[NUM_SPECIAL], sy[NUM_SPECIAL];
	uint32_t i;

	memcpy(sx, x, sizeof(sx));
	memcpy(sy, y, sizeof(sy));
	for (i = 0; i < NUM_SPECIAL * NUM_SPECIAL; i++) {
		x[i] = sx[i / NUM_SPECIAL];
		y[i] = sy[i % NUM_SPECIAL];
	}
}

static double ref_float_binary(uint32_t fn, double x, double y)
{
	switch (fn) {
	case XRT_CS_BIN_ADD:
		return x + y;
	case XRT_CS_BIN_SUB:
		return x - y;
	case XRT_CS_BIN_MUL:
		return x * y;
	case XRT_CS_BIN_DIV:
		return x / y;
	case XRT_CS_BIN_REM:
		return fmod(x, y);
	case XRT_CS_BIN_MAX:
		if (isnan(x) || isnan(y))
			return NAN;
		if (x == y)
			return signbit(x) ? y : x;
		return fmax(x, y);
	default:
		if (isnan(x) || isnan(y))
			return NAN;
		if (x == y)
			return signbit(x) ? x : y;
		return fmin(x, y);
	}
}

/* Same bits, or both NaN. */
static int same_f64(double a, double b)
{
	return (isnan(a) && isnan(b)) || !memcmp(&a, &b, 8);
}

TEST_F(xrt, float_binary_f32_f64)
{
	static const uint32_t fns[] = { XRT_CS_BIN_ADD, XRT_CS_BIN_SUB,
		XRT_CS_BIN_MUL, XRT_CS_BIN_DIV, XRT_CS_BIN_REM,
		XRT_CS_BIN_MAX, XRT_CS_BIN_MIN };
	static double x[N], y[N], out[N];
	static float fx[N], fy[N], fout[N];
	uint32_t f, i;

	float_inputs(x, N, 1);
	float_inputs(y, N, 2);
	special_pairs(x, y);
	/* (inf, NaN) and (-0, 1e30) are among the pairs */
	ASSERT_TRUE(isinf(x[11 * NUM_SPECIAL + 13]) && isnan(y[11 * NUM_SPECIAL + 13]));
	ASSERT_TRUE(signbit(x[1 * NUM_SPECIAL + 16]) && y[1 * NUM_SPECIAL + 16] == 1e30);
	for (i = 0; i < N; i++) {
		fx[i] = (float)x[i];
		fy[i] = (float)y[i];
	}
	for (f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
		run_op(_metadata, XRT_CS_EW_BINARY, fns[f], XRT_CS_F64, XRT_CS_F64,
		       x, y, out, N);
		run_op(_metadata, XRT_CS_EW_BINARY, fns[f], XRT_CS_F32, XRT_CS_F32,
		       fx, fy, fout, N);
		for (i = 0; i < N; i++) {
			double w = ref_float_binary(fns[f], x[i], y[i]);
			float wf = (float)ref_float_binary(fns[f], fx[i], fy[i]);

			if (fns[f] <= XRT_CS_BIN_DIV)	/* float arithmetic in float */
				wf = fns[f] == XRT_CS_BIN_ADD ? fx[i] + fy[i] :
				     fns[f] == XRT_CS_BIN_SUB ? fx[i] - fy[i] :
				     fns[f] == XRT_CS_BIN_MUL ? fx[i] * fy[i] : fx[i] / fy[i];
			ASSERT_TRUE(same_f64(w, out[i]))
				TH_LOG("f64 fn %u: %a, %a: want %a got %a", fns[f], x[i],
				       y[i], w, out[i]);
			ASSERT_TRUE(same_f64(wf, fout[i]))
				TH_LOG("f32 fn %u: %a, %a: want %a got %a", fns[f], fx[i],
				       fy[i], wf, fout[i]);
		}
	}
}

TEST_F(xrt, float_unary_f32_f64)
{
	static double x[N], out[N];
	static float fx[N], fout[N];
	static int8_t pout[N];
	uint32_t fn, i;

	float_inputs(x, N, 9);
	for (i = 0; i < N; i++)
		fx[i] = (float)x[i];
	for (fn = XRT_CS_UN_ABS; fn <= XRT_CS_UN_IMAG; fn++) {
		int pred = fn == XRT_CS_UN_IS_FINITE;

		if (fn == XRT_CS_UN_NOT || (fn >= XRT_CS_UN_EXP && fn <= XRT_CS_UN_ERF &&
					    fn != XRT_CS_UN_SQRT && fn != XRT_CS_UN_RSQRT) ||
		    fn == XRT_CS_UN_POPCNT || fn == XRT_CS_UN_CLZ)
			continue;
		run_op(_metadata, XRT_CS_EW_UNARY, fn, XRT_CS_F64,
		       pred ? XRT_CS_PRED : XRT_CS_F64, x, NULL, pred ? (void *)pout : out, N);
		for (i = 0; i < N; i++) {
			double v = x[i], w;

			switch (fn) {
			case XRT_CS_UN_ABS: w = fabs(v); break;
			case XRT_CS_UN_NEG: w = -v; break;
			case XRT_CS_UN_SIGN: w = isnan(v) || v == 0 ? v : copysign(1, v); break;
			case XRT_CS_UN_FLOOR: w = floor(v); break;
			case XRT_CS_UN_CEIL: w = ceil(v); break;
			case XRT_CS_UN_ROUND_AFZ: w = round(v); break;
			case XRT_CS_UN_ROUND_EVEN: w = nearbyint(v); break;
			case XRT_CS_UN_SQRT: w = sqrt(v); break;
			case XRT_CS_UN_RSQRT: w = 1 / sqrt(v); break;
			case XRT_CS_UN_IS_FINITE: w = isfinite(v); break;
			case XRT_CS_UN_REAL: w = v; break;
			default: w = 0; break;
			}
			if (pred) {
				ASSERT_EQ((int)w, pout[i]);
			} else {
				ASSERT_TRUE(same_f64(w, out[i]))
					TH_LOG("fn %u of %a: want %a got %a", fn, v, w, out[i]);
			}
		}
		run_op(_metadata, XRT_CS_EW_UNARY, fn, XRT_CS_F32,
		       pred ? XRT_CS_PRED : XRT_CS_F32, fx, NULL, pred ? (void *)pout : fout, N);
		for (i = 0; i < N && !pred; i++) {
			float v = fx[i], w;

			switch (fn) {
			case XRT_CS_UN_ABS: w = fabsf(v); break;
			case XRT_CS_UN_NEG: w = -v; break;
			case XRT_CS_UN_SIGN: w = isnan(v) || v == 0 ? v : copysignf(1, v); break;
			case XRT_CS_UN_FLOOR: w = floorf(v); break;
			case XRT_CS_UN_CEIL: w = ceilf(v); break;
			case XRT_CS_UN_ROUND_AFZ: w = roundf(v); break;
			case XRT_CS_UN_ROUND_EVEN: w = nearbyintf(v); break;
			case XRT_CS_UN_SQRT: w = sqrtf(v); break;
			case XRT_CS_UN_RSQRT: w = 1 / sqrtf(v); break;
			case XRT_CS_UN_REAL: w = v; break;
			default: w = 0; break;
			}
			ASSERT_TRUE(same_f64(w, fout[i]))
				TH_LOG("f32 fn %u of %a: want %a got %a", fn, v, w, fout[i]);
		}
	}
}

TEST_F(xrt, float_compare_ieee_and_total_order)
{
	static double x[N], y[N];
	static uint8_t out[N];
	uint32_t fn, i;

	float_inputs(x, N, 4);
	float_inputs(y, N, 5);
	special_pairs(x, y);
	ASSERT_TRUE(isnan(x[13 * NUM_SPECIAL + 12]) && y[13 * NUM_SPECIAL + 12] == -INFINITY);
	x[0] = -NAN;
	for (fn = XRT_CS_CMP_EQ; fn <= XRT_CS_CMP_GE; fn++) {
		run_op(_metadata, XRT_CS_EW_COMPARE, fn, XRT_CS_F64, XRT_CS_PRED, x, y,
		       out, N);
		for (i = 0; i < N; i++) {
			int want = fn == XRT_CS_CMP_EQ ? x[i] == y[i] :
				   fn == XRT_CS_CMP_NE ? x[i] != y[i] :
				   fn == XRT_CS_CMP_LT ? x[i] < y[i] :
				   fn == XRT_CS_CMP_LE ? x[i] <= y[i] :
				   fn == XRT_CS_CMP_GT ? x[i] > y[i] : x[i] >= y[i];

			ASSERT_EQ(want, out[i]) TH_LOG("%a cmp %u %a", x[i], fn, y[i]);
		}
		run_op(_metadata, XRT_CS_EW_COMPARE, fn | XRT_CS_CMP_TOTAL_ORDER,
		       XRT_CS_F64, XRT_CS_PRED, x, y, out, N);
		for (i = 0; i < N; i++) {
			/* totalOrder by hand: sign, then NaN-ness, then magnitude. */
			int sx = signbit(x[i]) != 0, sy = signbit(y[i]) != 0, c;
			double ax = fabs(x[i]), ay = fabs(y[i]);
			int nx = isnan(x[i]), ny = isnan(y[i]);

			if (sx != sy)
				c = sx ? -1 : 1;
			else {
				c = nx != ny ? (nx ? 1 : -1) : nx ? 0 : (ax > ay) - (ax < ay);
				if (sx)
					c = -c;
			}
			ASSERT_EQ(fn == XRT_CS_CMP_EQ ? c == 0 : fn == XRT_CS_CMP_NE ? c != 0 :
				  fn == XRT_CS_CMP_LT ? c < 0 : fn == XRT_CS_CMP_LE ? c <= 0 :
				  fn == XRT_CS_CMP_GT ? c > 0 : c >= 0, out[i])
				TH_LOG("total %a cmp %u %a", x[i], fn, y[i]);
		}
	}
}

/* f16 and bf16 arithmetic rounds after each instruction, as XLA does. */
TEST_F(xrt, half_arithmetic_rounds_each_step)
{
	static uint16_t a[N], b[N], out[N];
	static double x[N], y[N];
	uint32_t t, fn, i;

	float_inputs(x, N, 11);
	float_inputs(y, N, 12);
	for (t = XRT_CS_F16; t <= XRT_CS_BF16; t++) {
		uint16_t (*narrow)(double) = t == XRT_CS_F16 ? xrt_f16_from_f64 :
							     xrt_bf16_from_f64;
		float (*widen)(uint16_t) = t == XRT_CS_F16 ? xrt_f16_to_f32 :
							   xrt_bf16_to_f32;

		for (i = 0; i < N; i++) {
			a[i] = narrow(x[i] / 1e3);
			b[i] = narrow(y[i] / 1e3);
		}
		for (fn = XRT_CS_BIN_ADD; fn <= XRT_CS_BIN_DIV; fn++) {
			run_op(_metadata, XRT_CS_EW_BINARY, fn, t, t, a, b, out, N);
			for (i = 0; i < N; i++) {
				float p = widen(a[i]), q = widen(b[i]);
				float r = fn == XRT_CS_BIN_ADD ? p + q : fn == XRT_CS_BIN_SUB ?
					  p - q : fn == XRT_CS_BIN_MUL ? p * q : p / q;
				uint16_t want = narrow(r);

				ASSERT_TRUE(want == out[i] ||
					    (isnan(widen(want)) && isnan(widen(out[i]))))
					TH_LOG("type %u fn %u: %a, %a: want %04x got %04x", t,
					       fn, p, q, want, out[i]);
			}
		}
	}
}

/* Reference conversion of a double to an integer type, XLA style. */
static uint64_t ref_to_int(uint32_t t, double v)
{
	uint32_t w = xs_dtype_size(t) * 8;
	uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;

	if (t == XRT_CS_PRED)
		return v != 0;
	if (isnan(v))
		return 0;
	if (t >= XRT_CS_U8) {
		if (v <= 0)
			return 0;
		if (v >= ldexp(1, (int)w))
			return mask;
		return (uint64_t)v;
	}
	if (v <= -ldexp(1, (int)w - 1))
		return (uint64_t)(-(int64_t)(mask >> 1) - 1) & mask;
	if (v >= ldexp(1, (int)w - 1))
		return mask >> 1;
	return (uint64_t)(int64_t)v & mask;
}

TEST_F(xrt, convert_between_every_pair)
{
	static double x[N];
	static uint8_t a[N * 16], out[N * 16];
	uint32_t from, to, i;

	float_inputs(x, N, 21);
	for (from = XRT_CS_PRED; from <= XRT_CS_C128; from++) {
		uint32_t fes = xs_dtype_size(from);
		double v[N];

		/* Inputs: the float values converted into @from by C. */
		for (i = 0; i < N; i++) {
			double s = from >= XRT_CS_F16 ? x[i] : trunc(fmod(x[i], 1e9));
			uint64_t u = 0;
			float f;
			uint16_t h;

			if (from < XRT_CS_F16 && !isfinite(s))
				s = 3;
			switch (from) {
			case XRT_CS_F16: h = xrt_f16_from_f64(s); memcpy(a + i * 2, &h, 2);
				v[i] = xrt_f16_to_f32(h); break;
			case XRT_CS_BF16: h = xrt_bf16_from_f64(s); memcpy(a + i * 2, &h, 2);
				v[i] = xrt_bf16_to_f32(h); break;
			case XRT_CS_F32: case XRT_CS_C64:
				f = (float)s; memset(a + i * fes, 0, fes); memcpy(a + i * fes, &f, 4);
				v[i] = f; break;
			case XRT_CS_F64: case XRT_CS_C128:
				memset(a + i * fes, 0, fes); memcpy(a + i * fes, &s, 8);
				v[i] = s; break;
			case XRT_CS_PRED:
				a[i] = s != 0; v[i] = s != 0; break;
			default:
				u = ref_to_int(from, s);
				memcpy(a + i * fes, &u, fes);
				/* The integer's value, as a double (exact here). */
				v[i] = from >= XRT_CS_U8 ? (double)u :
				       (double)((int64_t)(u << (64 - fes * 8)) >> (64 - fes * 8));
				break;
			}
		}
		for (to = XRT_CS_PRED; to <= XRT_CS_C128; to++) {
			uint32_t tes = xs_dtype_size(to);

			run_op(_metadata, XRT_CS_EW_CONVERT, 0, from, to, a, NULL, out, N);
			for (i = 0; i < N; i++) {
				uint8_t want[16] = { 0 };
				uint64_t u;
				float f;
				uint16_t h;

				switch (to) {
				case XRT_CS_F16: h = xrt_f16_from_f64(v[i]); memcpy(want, &h, 2); break;
				case XRT_CS_BF16: h = xrt_bf16_from_f64(v[i]); memcpy(want, &h, 2); break;
				case XRT_CS_F32: case XRT_CS_C64:
					f = (float)v[i]; memcpy(want, &f, 4); break;
				case XRT_CS_F64: case XRT_CS_C128:
					memcpy(want, &v[i], 8); break;
				default:
					/* Integers wrap into integers; floats saturate. */
					if (from < XRT_CS_F16 && to != XRT_CS_PRED)
						u = (uint64_t)(int64_t)v[i];
					else
						u = ref_to_int(to, v[i]);
					memcpy(want, &u, tes);
					break;
				}
				if (isnan(v[i]) && to >= XRT_CS_F16) {
					ASSERT_TRUE(isnan(to == XRT_CS_F16 ?
						xrt_f16_to_f32(*(uint16_t *)(out + i * tes)) :
						to == XRT_CS_BF16 ?
						xrt_bf16_to_f32(*(uint16_t *)(out + i * tes)) :
						to == XRT_CS_F32 || to == XRT_CS_C64 ?
						*(float *)(out + i * tes) : *(double *)(out + i * tes)));
					continue;
				}
				ASSERT_EQ(0, memcmp(want, out + i * tes, tes))
					TH_LOG("convert %u -> %u of %a", from, to, v[i]);
			}
		}
	}
}

TEST_F(xrt, complex_arithmetic)
{
	static double complex x[N], y[N], out[N];
	static float complex fx[N], fy[N], fout[N];
	static double re[N], im[N];
	uint32_t fn, i;

	float_inputs(re, N, 31);
	float_inputs(im, N, 32);
	for (i = 0; i < N; i++) {
		if (!isfinite(re[i]) || !isfinite(im[i]) || fabs(re[i]) > 1e15 ||
		    fabs(im[i]) > 1e15) {
			re[i] = 1.25;
			im[i] = -3;
		}
	}
	for (i = 0; i < N; i++) {
		x[i] = re[i] + I * im[i];
		y[i] = im[(i + 7) % N] + I * (re[(i + 3) % N] + 0.5);
		fx[i] = (float complex)x[i];
		fy[i] = (float complex)y[i];
	}
	for (fn = XRT_CS_BIN_ADD; fn <= XRT_CS_BIN_DIV; fn++) {
		run_op(_metadata, XRT_CS_EW_BINARY, fn, XRT_CS_C128, XRT_CS_C128, x, y,
		       out, N);
		run_op(_metadata, XRT_CS_EW_BINARY, fn, XRT_CS_C64, XRT_CS_C64, fx, fy,
		       fout, N);
		for (i = 0; i < N; i++) {
			double complex w = fn == XRT_CS_BIN_ADD ? x[i] + y[i] :
					   fn == XRT_CS_BIN_SUB ? x[i] - y[i] :
					   fn == XRT_CS_BIN_MUL ? x[i] * y[i] : x[i] / y[i];
			double complex wf = fn == XRT_CS_BIN_ADD ? (double complex)fx[i] + fy[i] :
					    fn == XRT_CS_BIN_SUB ? (double complex)fx[i] - fy[i] :
					    fn == XRT_CS_BIN_MUL ? (double complex)fx[i] * fy[i] :
					    (double complex)fx[i] / fy[i];
			double tol = fn == XRT_CS_BIN_DIV ? 4e-16 * cabs(w) : 0;

			/* Exact for +, -, *; division within a few ulps. */
			ASSERT_LE(cabs(out[i] - w), tol)
				TH_LOG("c128 fn %u: (%a,%a) vs (%a,%a)", fn, creal(out[i]),
				       cimag(out[i]), creal(w), cimag(w));
			ASSERT_LE(cabs((double complex)fout[i] - (float complex)wf),
				  fn == XRT_CS_BIN_DIV ? 3e-7 * cabs(wf) : 0)
				TH_LOG("c64 fn %u", fn);
		}
	}
	run_op(_metadata, XRT_CS_EW_UNARY, XRT_CS_UN_ABS, XRT_CS_C128, XRT_CS_F64, x,
	       NULL, re, N);
	for (i = 0; i < N; i++) {
		ASSERT_LE(fabs(re[i] - cabs(x[i])), 4.5e-16 * cabs(x[i]))
			TH_LOG("|%a| = %a, want %a", creal(x[i]), re[i], cabs(x[i]));
	}
}

/* The complex elementary functions against C99's, within a few ulps of |w|. */
TEST_F(xrt, complex_elementary_functions)
{
	static const uint8_t fns[] = { XRT_CS_UN_EXP, XRT_CS_UN_EXPM1, XRT_CS_UN_LOG,
				       XRT_CS_UN_LOG1P, XRT_CS_UN_SQRT, XRT_CS_UN_RSQRT,
				       XRT_CS_UN_TANH, XRT_CS_UN_SIN, XRT_CS_UN_COS,
				       XRT_CS_UN_TAN };
	enum { M = 4096 };
	static double complex x[M], y[M], out[M];
	static float complex fx[M], fout[M];
	uint32_t k, i;

	for (i = 0; i < M; i++) {
		/* a spread over [-8, 8]^2, some on the axes, some tiny */
		double re = ((int)(i * 7919 % 1601) - 800) / 100.0;
		double im = ((int)(i * 104729 % 1601) - 800) / 100.0;

		if (i % 17 == 0)
			im = 0;
		if (i % 19 == 0)
			re = 0;
		if (i % 23 == 0) {
			re *= 1e-9;
			im *= 1e-9;
		}
		x[i] = re + I * im;
		y[i] = (im / 4) + I * (re / 8);
		fx[i] = (float complex)x[i];
	}
	for (k = 0; k < sizeof(fns); k++) {
		run_op(_metadata, XRT_CS_EW_UNARY, fns[k], XRT_CS_C128, XRT_CS_C128, x, NULL,
		       out, M);
		run_op(_metadata, XRT_CS_EW_UNARY, fns[k], XRT_CS_C64, XRT_CS_C64, fx, NULL,
		       fout, M);
		for (i = 0; i < M; i++) {
			double complex w, wf;

			switch (fns[k]) {
			case XRT_CS_UN_EXP: w = cexp(x[i]); wf = cexp(fx[i]); break;
			case XRT_CS_UN_EXPM1: w = cexp(x[i]) - 1; wf = cexp(fx[i]) - 1; break;
			case XRT_CS_UN_LOG: w = clog(x[i]); wf = clog(fx[i]); break;
			case XRT_CS_UN_LOG1P:
				w = clog(1 + x[i]);
				wf = clog(1 + (double complex)fx[i]);
				break;
			case XRT_CS_UN_SQRT: w = csqrt(x[i]); wf = csqrt(fx[i]); break;
			case XRT_CS_UN_RSQRT: w = 1 / csqrt(x[i]); wf = 1 / csqrt(fx[i]); break;
			case XRT_CS_UN_TANH: w = ctanh(x[i]); wf = ctanh(fx[i]); break;
			case XRT_CS_UN_SIN: w = csin(x[i]); wf = csin(fx[i]); break;
			case XRT_CS_UN_COS: w = ccos(x[i]); wf = ccos(fx[i]); break;
			default: w = ctan(x[i]); wf = ctan(fx[i]); break;
			}
			/* expm1 and log1p near 0: C's exp(z) - 1 is the inaccurate one. */
			if ((fns[k] == XRT_CS_UN_EXPM1 || fns[k] == XRT_CS_UN_LOG1P) &&
			    cabs(x[i]) < 1e-3)
				continue;
			if (!isfinite(creal(w)) || !isfinite(cimag(w)))
				continue;	/* poles and overflow: not compared */
			ASSERT_LE(cabs(out[i] - w), 1e-14 * cabs(w) + 1e-300)
				TH_LOG("c128 fn %u of (%a, %a): (%a, %a) vs (%a, %a)", fns[k],
				       creal(x[i]), cimag(x[i]), creal(out[i]), cimag(out[i]),
				       creal(w), cimag(w));
			ASSERT_LE(cabs((double complex)fout[i] - wf), 1e-6 * cabs(wf) + 1e-37)
				TH_LOG("c64 fn %u of (%a, %a)", fns[k], crealf(fx[i]),
				       cimagf(fx[i]));
		}
	}
	/* expm1 and log1p keep their accuracy for tiny arguments. */
	for (i = 0; i < M; i++)
		x[i] = (i + 1) * 1e-12 + I * ((double)i - 2048) * 1e-12;
	run_op(_metadata, XRT_CS_EW_UNARY, XRT_CS_UN_EXPM1, XRT_CS_C128, XRT_CS_C128, x, NULL,
	       out, M);
	for (i = 0; i < M; i++)	/* expm1(z) = z + z^2/2 + ... */
		ASSERT_LE(cabs(out[i] - (x[i] + x[i] * x[i] / 2)), 1e-15 * cabs(x[i]));
	run_op(_metadata, XRT_CS_EW_UNARY, XRT_CS_UN_LOG1P, XRT_CS_C128, XRT_CS_C128, x, NULL,
	       out, M);
	for (i = 0; i < M; i++)	/* log1p(z) = z - z^2/2 + ... */
		ASSERT_LE(cabs(out[i] - (x[i] - x[i] * x[i] / 2)), 1e-15 * cabs(x[i]));
	/* pow against cpow */
	for (i = 0; i < M; i++)
		x[i] = ((int)(i * 31 % 97) - 48) / 16.0 + I * ((int)(i * 57 % 89) - 44) / 16.0;
	run_op(_metadata, XRT_CS_EW_BINARY, XRT_CS_BIN_POW, XRT_CS_C128, XRT_CS_C128, x, y, out,
	       M);
	for (i = 0; i < M; i++) {
		double complex w = cpow(x[i], y[i]);

		if (x[i] == 0 || !isfinite(creal(w)) || !isfinite(cimag(w)))
			continue;
		ASSERT_LE(cabs(out[i] - w), 1e-13 * cabs(w) + 1e-300)
			TH_LOG("pow (%a, %a)^(%a, %a)", creal(x[i]), cimag(x[i]), creal(y[i]),
			       cimag(y[i]));
	}
}

TEST_F(xrt, fused_chain_with_broadcast_and_reversal)
{
	/* out[i][j] = a[i][j] > b[j] ? a[i][j] * b[j] + 1.5 : -a[rev] */
	uint64_t dims[2] = { 37, 300 };
	int64_t dense[2] = { 300, 1 }, row[2] = { 0, 1 }, rev[2] = { -300, -1 };
	struct xrt_cs_operand ops[4];
	struct xrt_cs_ew_inst p[10];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	float c = 1.5f;
	uint32_t k = 0, i, j;
	float *a, *b, *o;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, 37 * 300 * 4, XRT_CS_SLOT_READ, 1);
	add_buf(&bld, &r, 300 * 4, XRT_CS_SLOT_READ, 2);
	add_buf(&bld, &r, 37 * 300 * 4, XRT_CS_SLOT_WRITE, 0);
	a = (float *)r.slot[0];
	b = (float *)r.slot[1];
	o = (float *)r.slot[2];
	for (i = 0; i < 37 * 300; i++)
		a[i] = (float)((int)(i * 7919 % 2001) - 1000) / 100.0f;
	for (i = 0; i < 300; i++)
		b[i] = (float)((int)(i * 104729 % 1001) - 500) / 100.0f;
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, dense);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, row);
	ops[2] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN,
			    (37 * 300 - 1) * 4, 2, rev);
	ops[3] = cs_operand(2, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 2, dense);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 1, 1, 0, 0);
	p[k++] = inst(XRT_CS_EW_COMPARE, XRT_CS_CMP_GT, XRT_CS_PRED, 2, 0, 1, 0);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F32, 1, 0, 1, 0);
	p[k] = inst(XRT_CS_EW_CONST, 0, XRT_CS_F32, 3, 0, 0, 0);
	memcpy(p[k++].imm, &c, 4);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, XRT_CS_F32, 1, 1, 3, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 2, 0, 0);
	p[k++] = inst(XRT_CS_EW_UNARY, XRT_CS_UN_NEG, XRT_CS_F32, 0, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_SELECT, 0, XRT_CS_F32, 0, 2, 1, 0);
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 3, 0, 0);
	cs_ewise(&bld, 2, dims, ops, 4, p, k, 4);
	RUN_PROGRAM(&bld, &r);
	for (i = 0; i < 37; i++)
		for (j = 0; j < 300; j++) {
			float x = a[i * 300 + j], y = b[j];
			float want = x > y ? x * y + c : -a[37 * 300 - 1 - (i * 300 + j)];

			ASSERT_EQ(want, o[i * 300 + j]) TH_LOG("at %u,%u", i, j);
		}
	run_free(&r);
}

TEST_F(xrt, in_place_update_and_widening_registers)
{
	/* x = convert<f64>(x_s8) * 2 stored over the same f64 buffer. */
	uint64_t dims[1] = { 200 };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand ops[3];
	struct xrt_cs_ew_inst p[6];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	double two = 2, *d;
	int8_t *s;
	uint32_t k = 0, i;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, 200, XRT_CS_SLOT_READ, 3);
	add_buf(&bld, &r, 200 * 8, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	s = (int8_t *)r.slot[0];
	d = (double *)r.slot[1];
	for (i = 0; i < 200; i++)
		d[i] = i;
	ops[0] = cs_operand(0, XRT_CS_S8, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[1] = cs_operand(1, XRT_CS_F64, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[2] = cs_operand(1, XRT_CS_F64, XRT_CS_OPERAND_OUT, 0, 1, st);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_S8, 0, 0, 0, 0);
	/* Convert in place: s64 register to f64 in the same register. */
	p[k++] = inst(XRT_CS_EW_CONVERT, 0, XRT_CS_F32, 0, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_CONVERT, 0, XRT_CS_F64, 0, 0, 0, 0);
	p[k] = inst(XRT_CS_EW_CONST, 0, XRT_CS_F64, 1, 0, 0, 0);
	memcpy(p[k++].imm, &two, 8);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F64, 0, 0, 1, 0);
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 2, 0, 0);
	cs_ewise(&bld, 1, dims, ops, 3, p, k, 2);
	RUN_PROGRAM(&bld, &r);
	for (i = 0; i < 200; i++)
		ASSERT_EQ((double)s[i] * 2, d[i]);
	run_free(&r);
}

/* A stored register read again afterwards: both outputs must be right. */
TEST_F(xrt, stored_register_used_again)
{
	uint64_t dims[1] = { 3000 };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand ops[4];
	struct xrt_cs_ew_inst p[7];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	float one = 1, *a, *b, *o0, *o1;
	uint32_t k = 0, i;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, 12000, XRT_CS_SLOT_READ, 3);
	add_buf(&bld, &r, 12000, XRT_CS_SLOT_READ, 4);
	add_buf(&bld, &r, 12000, XRT_CS_SLOT_WRITE, 0);
	add_buf(&bld, &r, 12000, XRT_CS_SLOT_WRITE, 0);
	a = (float *)r.slot[0];
	b = (float *)r.slot[1];
	for (i = 0; i < 3000; i++) {
		a[i] = (float)i / 7;
		b[i] = (float)(3000 - i) / 3;
	}
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[2] = cs_operand(2, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, st);
	ops[3] = cs_operand(3, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, st);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 1, 1, 0, 0);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F32, 2, 0, 1, 0);
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 2, 2, 0);
	p[k] = inst(XRT_CS_EW_CONST, 0, XRT_CS_F32, 0, 0, 0, 0);
	memcpy(p[k++].imm, &one, 4);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, XRT_CS_F32, 1, 2, 0, 0);
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 3, 1, 0);
	cs_ewise(&bld, 1, dims, ops, 4, p, k, 3);
	RUN_PROGRAM(&bld, &r);
	o0 = (float *)r.slot[2];
	o1 = (float *)r.slot[3];
	for (i = 0; i < 3000; i++) {
		ASSERT_EQ(a[i] * b[i], o0[i]);
		ASSERT_EQ(a[i] * b[i] + 1, o1[i]);
	}
	run_free(&r);
}

/*
 * Operands that stay put along a row (a per-row value broadcast over it)
 * are loaded once per row: rows of three blocks, two items (the second
 * starting mid-row), and a LOAD whose register is written again (which
 * must be loaded at every block).
 */
TEST_F(xrt, per_row_values_over_rows_of_several_blocks)
{
	enum { R = 7, C = 2500 };
	uint64_t dims[2] = { R, C };
	int64_t dense[2] = { C, 1 }, per_row[2] = { 1, 0 };
	struct xrt_cs_operand ops[4];
	struct xrt_cs_ew_inst p[8];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	float *a, *m, *sc, *o;
	uint32_t k = 0, i, j;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, R * C * 4, XRT_CS_SLOT_READ, 5);
	add_buf(&bld, &r, R * 4, XRT_CS_SLOT_READ, 6);
	add_buf(&bld, &r, R * 4, XRT_CS_SLOT_READ, 7);
	add_buf(&bld, &r, R * C * 4, XRT_CS_SLOT_WRITE, 0);
	a = (float *)r.slot[0];
	m = (float *)r.slot[1];
	sc = (float *)r.slot[2];
	o = (float *)r.slot[3];
	for (i = 0; i < R * C; i++)
		a[i] = (float)((int)(i * 7919 % 2001) - 1000) / 64.0f;
	for (i = 0; i < R; i++) {
		m[i] = (float)i * 3.25f - 7;
		sc[i] = (float)(i + 1) / 8;
	}
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, dense);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, per_row);
	ops[2] = cs_operand(2, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, per_row);
	ops[3] = cs_operand(3, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 2, dense);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 1, 1, 0, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 2, 2, 0, 0);
	/* register 2 is written again: its LOAD runs at every block */
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F32, 2, 2, 0, 0);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_SUB, XRT_CS_F32, 0, 0, 1, 0);
	p[k++] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, XRT_CS_F32, 0, 0, 2, 0);
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 3, 0, 0);
	cs_ewise(&bld, 2, dims, ops, 4, p, k, 3);
	RUN_PROGRAM(&bld, &r);
	for (i = 0; i < R; i++)
		for (j = 0; j < C; j++) {
			float x = a[i * C + j];

			ASSERT_EQ((x - m[i]) + sc[i] * x, o[i * C + j]) TH_LOG("at %u,%u", i, j);
		}
	run_free(&r);
}

/* -x * x of operand 0 into operand 1: a unary pass, then a forwarded multiply; its length. */
static uint32_t neg_square(struct xrt_cs_ew_inst *p)
{
	p[0] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0, 0, 0);
	p[1] = inst(XRT_CS_EW_UNARY, XRT_CS_UN_NEG, XRT_CS_F32, 1, 0, 0, 0);
	p[2] = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F32, 1, 1, 0, 0);
	p[3] = inst(XRT_CS_EW_STORE, 0, 0, 0, 1, 1, 0);
	return 4;
}

/*
 * A command too large for the caches: the next block's lines are asked
 * for between the sub-blocks of its unary pass, and its forwarded output
 * is written by streaming stores, here to an output 4 bytes past a
 * 16-byte boundary and of a length no block divides (the copy's head
 * and tail), 16 or 64 bytes a store as @wide says.  The elements around
 * the output stay as they were.
 */
static void long_row_streamed(struct __test_metadata *_metadata, int wide)
{
	enum { N_LONG = (1 << 21) + 1531 };	/* over EW_STREAM_BYTES of in + out */
	uint64_t dims[1] = { N_LONG };
	int64_t st[1] = { 1 };
	struct xrt_cs_operand ops[2];
	struct xrt_cs_ew_inst p[6];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	uint64_t plan[32];	/* room for the plan of 4 instructions */
	struct ew_plan *pl = (struct ew_plan *)plan;
	float *a, *o;
	uint32_t k, i;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, N_LONG * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, (N_LONG + 2) * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	a = (float *)r.slot[0];
	o = (float *)r.slot[1];
	for (i = 0; i < N_LONG; i++)
		a[i] = (float)((int)(i * 7919u % 4001u) - 2000) / 256.0f;
	o[0] = 17.0f;
	o[N_LONG + 1] = -5.0f;
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_OUT, 4, 1, st);
	k = neg_square(p);
	ew_make_plan(ops, 2, p, k, 1, 0, N_LONG, pl);
	ASSERT_TRUE(pl->prefetch && pl->stream && pl->defer && (pl->inst[2].flags & EW_FWD));
	cs_ewise(&bld, 1, dims, ops, 2, p, k, 2);
	use_wide_vectors(wide);
	RUN_PROGRAM(&bld, &r);
	use_wide_vectors(0);
	ASSERT_EQ(17.0f, o[0]);
	ASSERT_EQ(-5.0f, o[N_LONG + 1]);
	for (i = 0; i < N_LONG; i++) {
		ASSERT_EQ(-a[i] * a[i], o[i + 1]) TH_LOG("at %u", i);
	}
	run_free(&r);
}

TEST_F(xrt, long_rows_stream_their_output)
{
	long_row_streamed(_metadata, 0);
	if (cpu_has_avx512())
		long_row_streamed(_metadata, 1);
	else
		TH_LOG("no AVX-512 here: 64-byte streaming stores not run");
}

/*
 * A streamed result is held back a block and written during the next
 * one's unary pass: here updated in place (each block is written after
 * the next one is read), over rows no block divides, each row's last
 * block written when the row ends.
 */
static void rows_held_back(struct __test_metadata *_metadata, int wide)
{
	enum { R = 700, C = 3001 };	/* over EW_STREAM_BYTES of in + out */
	uint64_t dims[2] = { R, C };
	int64_t st[2] = { C + 3, 1 };
	struct xrt_cs_operand ops[2];
	struct xrt_cs_ew_inst p[5];
	struct cs_builder bld;
	struct run r = { .n = 0 };
	uint64_t plan[32];
	struct ew_plan *pl = (struct ew_plan *)plan;
	float *x, *a;
	uint32_t k, i, j;

	cs_builder_init(&bld, NULL);
	/* rows 3 floats apart: the gaps must stay as they are */
	add_buf(&bld, &r, (size_t)R * (C + 3) * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0);
	x = (float *)r.slot[0];
	for (i = 0; i < R * (C + 3); i++)
		x[i] = (float)((int)(i * 7919u % 4001u) - 2000) / 256.0f;
	a = malloc((size_t)R * (C + 3) * 4);
	ASSERT_NE(NULL, a);
	memcpy(a, x, (size_t)R * (C + 3) * 4);
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 2, st);
	ops[1] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 2, st);
	k = neg_square(p);
	ew_make_plan(ops, 2, p, k, 2, 1, (uint64_t)R * C, pl);
	ASSERT_TRUE(pl->stream && pl->defer);
	cs_ewise(&bld, 2, dims, ops, 2, p, k, 2);
	use_wide_vectors(wide);
	RUN_PROGRAM(&bld, &r);
	use_wide_vectors(0);
	for (i = 0; i < R; i++)
		for (j = 0; j < C + 3; j++) {
			float v = a[i * (C + 3) + j], want = j < C ? -v * v : v;

			ASSERT_EQ(want, x[i * (C + 3) + j]) TH_LOG("at %u,%u", i, j);
		}
	free(a);
	run_free(&r);
}

TEST_F(xrt, results_held_back_a_block_reach_every_row)
{
	rows_held_back(_metadata, 0);
	if (cpu_has_avx512())
		rows_held_back(_metadata, 1);
}

/*
 * One long input, two results: a*a and -a, the multiply first as
 * @mul_first says, the second result every @step2-th float (from its
 * register, not forwarded, unless @step2 is 1).  Checks whether the plan
 * holds a result back (@defer) and both results.
 */
static void two_results(struct __test_metadata *_metadata, bool mul_first, uint32_t step2,
			bool defer)
{
	enum { N_LONG = (3 << 19) + 77 };	/* in + two outs over EW_STREAM_BYTES */
	uint64_t dims[1] = { N_LONG };
	int64_t st[1] = { 1 }, st2[1] = { step2 };
	struct xrt_cs_operand ops[3];
	struct xrt_cs_ew_inst p[6], mul, neg;
	struct cs_builder bld;
	struct run r = { .n = 0 };
	uint64_t plan[32];
	struct ew_plan *pl = (struct ew_plan *)plan;
	float *a, *o1, *o2;
	uint32_t k = 0, i;

	cs_builder_init(&bld, NULL);
	add_buf(&bld, &r, N_LONG * 4, XRT_CS_SLOT_READ, 0);
	add_buf(&bld, &r, N_LONG * 4, XRT_CS_SLOT_WRITE, 0);
	add_buf(&bld, &r, (size_t)N_LONG * 4 * step2, XRT_CS_SLOT_WRITE, 0);
	a = (float *)r.slot[0];
	o1 = (float *)r.slot[1];
	o2 = (float *)r.slot[2];
	for (i = 0; i < N_LONG; i++)
		a[i] = (float)((int)(i * 7919u % 4001u) - 2000) / 256.0f;
	ops[0] = cs_operand(0, XRT_CS_F32, XRT_CS_OPERAND_IN, 0, 1, st);
	ops[1] = cs_operand(1, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, st);
	ops[2] = cs_operand(2, XRT_CS_F32, XRT_CS_OPERAND_OUT, 0, 1, st2);
	mul = inst(XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, XRT_CS_F32, mul_first ? 1 : 2, 0, 0, 0);
	neg = inst(XRT_CS_EW_UNARY, XRT_CS_UN_NEG, XRT_CS_F32, mul_first ? 2 : 1, 0, 0, 0);
	p[k++] = inst(XRT_CS_EW_LOAD, 0, XRT_CS_F32, 0, 0, 0, 0);
	p[k++] = mul_first ? mul : neg;
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 1, 1, 0);
	p[k++] = mul_first ? neg : mul;
	p[k++] = inst(XRT_CS_EW_STORE, 0, 0, 0, 2, 2, 0);
	ew_make_plan(ops, 3, p, k, 1, 0, N_LONG, pl);
	ASSERT_TRUE(pl->stream);
	ASSERT_EQ(defer, pl->defer);
	ASSERT_TRUE(pl->inst[1].flags & EW_FWD);
	ASSERT_EQ(step2 == 1, !!(pl->inst[3].flags & EW_FWD));
	cs_ewise(&bld, 1, dims, ops, 3, p, k, 3);
	RUN_PROGRAM(&bld, &r);
	for (i = 0; i < N_LONG; i++) {
		ASSERT_EQ(mul_first ? a[i] * a[i] : -a[i], o1[i]) TH_LOG("at %u", i);
		ASSERT_EQ(mul_first ? -a[i] : a[i] * a[i], o2[(size_t)step2 * i]) TH_LOG("at %u", i);
	}
	run_free(&r);
}

/*
 * The unary pass that writes the held-back result comes after the
 * instruction computing this block's: the two need different registers.
 */
TEST_F(xrt, result_held_back_past_the_next_blocks_result)
{
	two_results(_metadata, true, 2, true);
}

/* Two streamed results: neither is held back (one pair of registers), both are written. */
TEST_F(xrt, two_streamed_results_are_written_at_once)
{
	two_results(_metadata, false, 1, false);
}

/* The functions reach EWISE: f32 and f16 registers round their results. */
TEST_F(xrt, through_ewise)
{
	static const struct { uint8_t op, fn; double (*f)(double); } u[] = {
		{ XRT_CS_EW_UNARY, XRT_CS_UN_EXP, em_exp },
		{ XRT_CS_EW_UNARY, XRT_CS_UN_LOG1P, em_log1p },
		{ XRT_CS_EW_UNARY, XRT_CS_UN_TANH, em_tanh },
		{ XRT_CS_EW_UNARY, XRT_CS_UN_ERF, em_erf },
		{ XRT_CS_EW_UNARY, XRT_CS_UN_SIN, em_sin },
		{ XRT_CS_EW_UNARY, XRT_CS_UN_LOGISTIC, em_logistic },
	};
	uint64_t dims[1] = { 300 };
	int64_t st[1] = { 1 };
	size_t i, j;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		struct xrt_cs_operand ops[2];
		struct xrt_cs_ew_inst p[3] = {
			{ XRT_CS_EW_LOAD, 0, XRT_CS_F16, 0, 0 },
			{ u[i].op, u[i].fn, XRT_CS_F16, 1, 0 },
			{ XRT_CS_EW_STORE, 0, 0, 0, 1, 1 },
		};
		struct cs_builder b;
		struct run r = { .n = 0 };
		uint16_t *in, *out;

		cs_builder_init(&b, NULL);
		add_buf(&b, &r, 600, XRT_CS_SLOT_READ, 0);
		add_buf(&b, &r, 600, XRT_CS_SLOT_WRITE, 0);
		in = (uint16_t *)r.slot[0];
		out = (uint16_t *)r.slot[1];
		for (j = 0; j < 300; j++)
			in[j] = xrt_f16_from_f64(((double)j - 150) / 37);
		ops[0] = cs_operand(0, XRT_CS_F16, XRT_CS_OPERAND_IN, 0, 1, st);
		ops[1] = cs_operand(1, XRT_CS_F16, XRT_CS_OPERAND_OUT, 0, 1, st);
		cs_ewise(&b, 1, dims, ops, 2, p, 3, 2);
		RUN_PROGRAM(&b, &r);
		for (j = 0; j < 300; j++) {
			float x = xrt_f16_to_f32(in[j]), v;
			uint16_t want;

			/* f16 computes in f32: exp, tanh, logistic by the vectorized code */
			if (u[i].fn == XRT_CS_UN_EXP)
				vm_exp_f32(&v, &x, 1);
			else if (u[i].fn == XRT_CS_UN_TANH)
				vm_tanh_f32(&v, &x, 1);
			else if (u[i].fn == XRT_CS_UN_LOGISTIC)
				vm_logistic_f32(&v, &x, 1);
			else
				v = (float)u[i].f(x);
			want = xrt_f16_from_f32(v);

			ASSERT_EQ(want, out[j]) TH_LOG("fn %u of %a", u[i].fn, x);
		}
		run_free(&r);
	}
}

TEST_HARNESS_MAIN
