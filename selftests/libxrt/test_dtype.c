// SPDX-License-Identifier: MIT
/*
 * Element types and the 16-bit float conversions.
 *
 * Rounding is checked two ways: against hand-worked bit patterns, and
 * exhaustively against a property that needs no second implementation:
 * every 16-bit value round-trips, and every midpoint between two
 * neighbours goes to the one with an even mantissa.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

TEST(names_and_sizes)
{
	static const struct { enum xrt_dtype t; const char *n; size_t s; } v[] = {
		{ XRT_PRED, "pred", 1 }, { XRT_S8, "s8", 1 },
		{ XRT_S16, "s16", 2 }, { XRT_S32, "s32", 4 },
		{ XRT_S64, "s64", 8 }, { XRT_U8, "u8", 1 },
		{ XRT_U16, "u16", 2 }, { XRT_U32, "u32", 4 },
		{ XRT_U64, "u64", 8 }, { XRT_F16, "f16", 2 },
		{ XRT_BF16, "bf16", 2 }, { XRT_F32, "f32", 4 },
		{ XRT_F64, "f64", 8 }, { XRT_C64, "c64", 8 },
		{ XRT_C128, "c128", 16 },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ASSERT_STREQ(v[i].n, xrt_dtype_name(v[i].t));
		ASSERT_EQ(v[i].s, xrt_dtype_size(v[i].t));
		ASSERT_EQ(v[i].t, xrt_dtype_from_name(v[i].n, strlen(v[i].n)));
		ASSERT_TRUE(xrt_dtype_is_array(v[i].t));
	}
	ASSERT_EQ(XRT_INVALID, xrt_dtype_from_name("f3", 2));
	ASSERT_EQ(XRT_INVALID, xrt_dtype_from_name("tuple", 5));
	ASSERT_EQ(XRT_INVALID, xrt_dtype_from_name("f32x", 4));
	ASSERT_EQ(XRT_F32, xrt_dtype_from_name("f32x", 3));
	ASSERT_EQ(0, xrt_dtype_size(XRT_TUPLE));
	ASSERT_EQ(0, xrt_dtype_size((enum xrt_dtype)1000));
	ASSERT_STREQ("invalid", xrt_dtype_name((enum xrt_dtype)-3));
	ASSERT_FALSE(xrt_dtype_is_array(XRT_TUPLE));
	ASSERT_FALSE(xrt_dtype_is_array(XRT_INVALID));
}

TEST(narrow_types)
{
	static const struct { enum xrt_dtype t; const char *n; unsigned int bits; } v[] = {
		{ XRT_S4, "s4", 4 }, { XRT_U4, "u4", 4 }, { XRT_S2, "s2", 2 },
		{ XRT_U2, "u2", 2 }, { XRT_F8E5M2, "f8e5m2", 8 },
		{ XRT_F8E4M3FN, "f8e4m3fn", 8 }, { XRT_F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8 },
		{ XRT_F8E5M2FNUZ, "f8e5m2fnuz", 8 }, { XRT_F8E4M3FNUZ, "f8e4m3fnuz", 8 },
		{ XRT_F8E4M3, "f8e4m3", 8 }, { XRT_F8E3M4, "f8e3m4", 8 },
		{ XRT_F8E8M0FNU, "f8e8m0fnu", 8 }, { XRT_F4E2M1FN, "f4e2m1fn", 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		ASSERT_STREQ(v[i].n, xrt_dtype_name(v[i].t));
		ASSERT_EQ(1, xrt_dtype_size(v[i].t));
		ASSERT_EQ(v[i].bits, xrt_dtype_bits(v[i].t));
		ASSERT_EQ(v[i].t, xrt_dtype_from_name(v[i].n, strlen(v[i].n)));
		ASSERT_TRUE(xrt_dtype_is_array(v[i].t));
		ASSERT_EQ(i >= 4, xrt_dtype_is_small_float(v[i].t));
		ASSERT_EQ(i >= 4, xrt_dtype_is_float(v[i].t));
		ASSERT_EQ(i < 4, xrt_dtype_is_integer(v[i].t));
	}
	ASSERT_TRUE(xrt_dtype_is_signed(XRT_S4));
	ASSERT_FALSE(xrt_dtype_is_signed(XRT_U2));
	ASSERT_FALSE(xrt_dtype_is_small_float(XRT_F16));
	ASSERT_EQ(1, xrt_dtype_bits(XRT_PRED));
	ASSERT_EQ(32, xrt_dtype_bits(XRT_F32));
	ASSERT_EQ(0, xrt_dtype_bits(XRT_TUPLE));
	ASSERT_EQ(0, xrt_small_float_from_f64(XRT_F32, 1.0));
	ASSERT_EQ(0, xrt_small_float_to_f64(XRT_S4, 3));
}

/* The same bits, NaNs of either sign the same. */
static bool same_value(double a, double b)
{
	return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/*
 * Every code's value and the rounding of 9000 doubles in the nine small
 * float types, against ml_dtypes' tables (small_float/gen_small_float.py).
 */
TEST(small_float_tables)
{
	FILE *f = fopen(SMALL_FLOAT_CASES, "r");
	char line[256], name[32], kind[16], x[64], y[64];
	unsigned int code, decodes = 0, encodes = 0;

	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		enum xrt_dtype t;
		double v;

		if (line[0] == '#')
			continue;
		/* "T decode CODE VALUE" or "T encode VALUE CODE" */
		ASSERT_EQ(4, sscanf(line, "%31s %15s %63s %63s", name, kind, x, y));
		if (!strcmp(kind, "decode")) {
			code = (unsigned int)atoi(x);
			strcpy(x, y);
		} else {
			code = (unsigned int)atoi(y);
		}
		t = xrt_dtype_from_name(name, strlen(name));
		ASSERT_TRUE(xrt_dtype_is_small_float(t)) TH_LOG("%s", line);
		v = strtod(x, NULL);	/* "nan", "-nan" and hexadecimal */
		if (!strcmp(kind, "encode")) {
			ASSERT_EQ(code, xrt_small_float_from_f64(t, v)) TH_LOG("%s", line);
			encodes++;
		} else {
			ASSERT_TRUE(same_value(v, xrt_small_float_to_f64(t, (uint8_t)code)))
				TH_LOG("%s: got %a", line, xrt_small_float_to_f64(t, (uint8_t)code));
			decodes++;
		}
	}
	fclose(f);
	ASSERT_EQ(8 * 256 + 16, decodes);
	ASSERT_LT(9000, encodes);
}

TEST(classes)
{
	ASSERT_TRUE(xrt_dtype_is_float(XRT_BF16));
	ASSERT_FALSE(xrt_dtype_is_float(XRT_C64));
	ASSERT_TRUE(xrt_dtype_is_complex(XRT_C128));
	ASSERT_TRUE(xrt_dtype_is_integer(XRT_U8));
	ASSERT_FALSE(xrt_dtype_is_integer(XRT_PRED));
	ASSERT_TRUE(xrt_dtype_is_signed(XRT_S16));
	ASSERT_FALSE(xrt_dtype_is_signed(XRT_U64));
	ASSERT_TRUE(xrt_dtype_is_signed(XRT_F16));
}

static float from_bits(uint32_t b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

TEST(f16_known_values)
{
	ASSERT_EQ(0x3c00, xrt_f16_from_f32(1.0f));
	ASSERT_EQ(0xc000, xrt_f16_from_f32(-2.0f));
	ASSERT_EQ(0x7bff, xrt_f16_from_f32(65504.0f));	/* max finite */
	ASSERT_EQ(0x7bff, xrt_f16_from_f32(65519.0f));	/* below the midpoint */
	ASSERT_EQ(0x7c00, xrt_f16_from_f32(65520.0f));	/* midpoint: to inf */
	ASSERT_EQ(0x7c00, xrt_f16_from_f32(1e10f));
	ASSERT_EQ(0xfc00, xrt_f16_from_f32(-INFINITY));
	ASSERT_EQ(0x0001, xrt_f16_from_f32(from_bits(0x33800001))); /* > half min sub */
	ASSERT_EQ(0x0000, xrt_f16_from_f32(from_bits(0x33000000))); /* 2^-25: tie to 0 */
	ASSERT_EQ(0x0002, xrt_f16_from_f32(from_bits(0x33c00000))); /* 1.5 * 2^-24: tie to even 2 */
	ASSERT_EQ(0x0002, xrt_f16_from_f32(from_bits(0x34200000))); /* 2.5 * 2^-24: tie to even 2 */
	ASSERT_EQ(0x0400, xrt_f16_from_f32(6.103515625e-05f)); /* min normal */
	ASSERT_EQ(0x8000, xrt_f16_from_f32(-0.0f));
	ASSERT_EQ(0x3c00, xrt_f16_from_f64(1.0 + 1.0 / 2048));	/* tie: to even 1.0 */
	ASSERT_EQ(0x3c02, xrt_f16_from_f64(1.0 + 3.0 / 2048));	/* tie: to even */
	ASSERT_EQ(0x3c01, xrt_f16_from_f64(1.0 + 1.0 / 2048 + 1e-12));
	/* A double just above a tie must not double-round through float. */
	ASSERT_EQ(0x3c01, xrt_f16_from_f64(1.00048828125000001 + 1e-15));
	ASSERT_TRUE(isnan(xrt_f16_to_f32(xrt_f16_from_f32(NAN))));
	ASSERT_EQ(0x7e00, xrt_f16_from_f32(NAN) & 0x7fff);
	ASSERT_EQ(1.0f, xrt_f16_to_f32(0x3c00));
	ASSERT_EQ(5.9604644775390625e-08f, xrt_f16_to_f32(0x0001));
	ASSERT_EQ(65504.0f, xrt_f16_to_f32(0x7bff));
}

TEST(bf16_known_values)
{
	ASSERT_EQ(0x3f80, xrt_bf16_from_f32(1.0f));
	ASSERT_EQ(0x3f80, xrt_bf16_from_f32(from_bits(0x3f808000))); /* tie to even */
	ASSERT_EQ(0x3f82, xrt_bf16_from_f32(from_bits(0x3f818000))); /* tie to even */
	ASSERT_EQ(0x3f81, xrt_bf16_from_f32(from_bits(0x3f808001)));
	ASSERT_EQ(0x7f80, xrt_bf16_from_f32(from_bits(0x7f7fffff))); /* to inf */
	ASSERT_EQ(0x7f7f, xrt_bf16_from_f32(from_bits(0x7f7f7fff)));
	ASSERT_EQ(0x0001, xrt_bf16_from_f32(from_bits(0x00010000)));  /* subnormal */
	ASSERT_EQ(0x0000, xrt_bf16_from_f32(from_bits(0x00008000)));  /* tie to 0 */
	ASSERT_EQ(0x0001, xrt_bf16_from_f32(from_bits(0x00008001)));
	ASSERT_EQ(0x8000, xrt_bf16_from_f32(-0.0f));
	ASSERT_EQ(0x7fc0, xrt_bf16_from_f32(NAN) & 0x7fff);
	/* A NaN whose payload is only in the low bits stays NaN. */
	ASSERT_TRUE(isnan(xrt_bf16_to_f32(xrt_bf16_from_f32(from_bits(0x7f800001)))));
	ASSERT_EQ(1.0f, xrt_bf16_to_f32(0x3f80));
}

/* Every pattern round-trips; each midpoint rounds to the even neighbour. */
static void check_exhaustive(struct __test_metadata *_metadata,
			     uint16_t (*narrow)(double), float (*widen)(uint16_t),
			     uint16_t exp_mask)
{
	uint32_t h;

	for (h = 0; h < 0x10000; h++) {
		double v, next, mid;
		uint16_t even;

		if ((h & exp_mask) == exp_mask)	/* inf and NaN */
			continue;
		v = widen((uint16_t)h);
		ASSERT_EQ(h, narrow(v)) TH_LOG("pattern 0x%04x", h);
		if (((h + 1) & exp_mask) == exp_mask && !((h + 1) & ~exp_mask & 0x7fff))
			continue;	/* the next pattern is infinity */
		next = widen((uint16_t)(h + 1));
		mid = v / 2 + next / 2;
		even = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
		ASSERT_EQ(even, narrow(mid)) TH_LOG("midpoint above 0x%04x", h);
		ASSERT_EQ(h + 1, narrow(nextafter(mid, 2 * next)))
			TH_LOG("just above the midpoint above 0x%04x", h);
		ASSERT_EQ(h, narrow(nextafter(mid, v)))
			TH_LOG("just below the midpoint above 0x%04x", h);
	}
}

TEST(f16_exhaustive)
{
	check_exhaustive(_metadata, xrt_f16_from_f64, xrt_f16_to_f32, 0x7c00);
}

TEST(bf16_exhaustive)
{
	check_exhaustive(_metadata, xrt_bf16_from_f64, xrt_bf16_to_f32, 0x7f80);
}

TEST_HARNESS_MAIN
