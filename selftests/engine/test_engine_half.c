// SPDX-License-Identifier: MIT
/*
 * The engine's 16-bit float conversions against libxrt core's, which
 * round from double bits in one step by a different method: every
 * 16-bit pattern, every midpoint and its neighbours, and ten million
 * random floats and doubles.  The same for the small floats (f8e5m2 ...
 * f4e2m1fn), and those against ml_dtypes' tables too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine_test.h"

#include <xrt/dtype.h>

static float from_bits(uint32_t b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static double from_bits64(uint64_t b)
{
	double d;

	memcpy(&d, &b, 8);
	return d;
}

/* Equal patterns, or both NaN (payloads may differ between methods). */
static int same16(uint16_t a, uint16_t b, uint16_t exp_mask)
{
	int nan_a = (a & exp_mask) == exp_mask && (a & ~exp_mask & 0x7fff);
	int nan_b = (b & exp_mask) == exp_mask && (b & ~exp_mask & 0x7fff);

	return nan_a || nan_b ? nan_a && nan_b && (a & 0x8000) == (b & 0x8000) : a == b;
}

TEST(widen_every_pattern)
{
	uint32_t h;

	for (h = 0; h < 0x10000; h++) {
		float a = engine_f16_to_f32((uint16_t)h), b = xrt_f16_to_f32((uint16_t)h);

		ASSERT_TRUE(memcmp(&a, &b, 4) == 0 || (isnan(a) && isnan(b)))
			TH_LOG("f16 0x%04x", h);
		a = xs_bf16_to_f32((uint16_t)h);
		b = xrt_bf16_to_f32((uint16_t)h);
		ASSERT_EQ(0, memcmp(&a, &b, 4)) TH_LOG("bf16 0x%04x", h);
	}
}

TEST(narrow_midpoints)
{
	uint32_t h;

	for (h = 0; h < 0x7c00; h++) {
		double lo = xrt_f16_to_f32((uint16_t)h), hi = xrt_f16_to_f32((uint16_t)(h + 1));
		double mid = lo / 2 + hi / 2;
		double probe[] = { lo, mid, nextafter(mid, 0), nextafter(mid, 1e9) };
		size_t i;

		for (i = 0; i < 4; i++) {
			ASSERT_EQ(xrt_f16_from_f64(probe[i]), engine_f64_to_f16(probe[i]))
				TH_LOG("f16 near 0x%04x probe %zu", h, i);
			if ((double)(float)probe[i] == probe[i])
				ASSERT_EQ(xrt_f16_from_f64(probe[i]),
					  engine_f32_to_f16((float)probe[i]));
		}
	}
	for (h = 0; h < 0x7f80; h++) {
		double lo = xrt_bf16_to_f32((uint16_t)h), hi = xrt_bf16_to_f32((uint16_t)(h + 1));
		double mid = lo / 2 + hi / 2;
		double probe[] = { lo, mid, nextafter(mid, 0), nextafter(mid, 1e300) };
		size_t i;

		for (i = 0; i < 4; i++) {
			ASSERT_EQ(xrt_bf16_from_f64(probe[i]), xs_f64_to_bf16(probe[i]))
				TH_LOG("bf16 near 0x%04x probe %zu", h, i);
			if ((double)(float)probe[i] == probe[i])
				ASSERT_EQ(xrt_bf16_from_f64(probe[i]),
					  xs_f32_to_bf16((float)probe[i]));
		}
	}
}

TEST(narrow_random)
{
	uint64_t s = 88172645463325252ull;
	long i;

	/* 2M draws: a few seconds under ASan, well inside the harness's 30 s. */
	for (i = 0; i < 2000000; i++) {
		float f;
		double d;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		f = from_bits((uint32_t)s);
		d = from_bits64(s);
		ASSERT_TRUE(same16(xrt_f16_from_f32(f), engine_f32_to_f16(f), 0x7c00))
			TH_LOG("f32 0x%08x", (uint32_t)s);
		ASSERT_TRUE(same16(xrt_bf16_from_f32(f), xs_f32_to_bf16(f), 0x7f80))
			TH_LOG("f32 0x%08x", (uint32_t)s);
		ASSERT_TRUE(same16(xrt_f16_from_f64(d), engine_f64_to_f16(d), 0x7c00))
			TH_LOG("f64 0x%016llx", (unsigned long long)s);
		ASSERT_TRUE(same16(xrt_bf16_from_f64(d), xs_f64_to_bf16(d), 0x7f80))
			TH_LOG("f64 0x%016llx", (unsigned long long)s);
		/* Doubles in the 16-bit formats' range, most of them inexact. */
		d = ldexp((double)(s >> 11) / 9007199254740992.0, (int)(s % 60) - 40);
		if (s & 1)
			d = -d;
		ASSERT_EQ(xrt_f16_from_f64(d), engine_f64_to_f16(d)) TH_LOG("%a", d);
		ASSERT_EQ(xrt_bf16_from_f64(d), xs_f64_to_bf16(d)) TH_LOG("%a", d);
	}
}

/* The command stream's small float types and libxrt's: the same numbers. */
static const uint32_t small_types[] = {
	XRT_CS_F8E5M2, XRT_CS_F8E4M3FN, XRT_CS_F8E4M3B11FNUZ, XRT_CS_F8E5M2FNUZ,
	XRT_CS_F8E4M3FNUZ, XRT_CS_F8E4M3, XRT_CS_F8E3M4, XRT_CS_F8E8M0FNU, XRT_CS_F4E2M1FN,
};

static int same_value(double a, double b)
{
	return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/*
 * ml_dtypes' tables (selftests/libxrt/small_float): every code's value,
 * and the code of each double, through the engine's f64 path (a float
 * that keeps the rounding, then the float's code).
 */
TEST(small_float_tables)
{
	FILE *f = fopen(SMALL_FLOAT_CASES, "r");
	char line[256], name[32], kind[16], x[64], y[64];
	unsigned int n = 0;

	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		enum xrt_dtype t;
		unsigned int code;
		double v;

		if (line[0] == '#')
			continue;
		ASSERT_EQ(4, sscanf(line, "%31s %15s %63s %63s", name, kind, x, y));
		t = xrt_dtype_from_name(name, strlen(name));
		ASSERT_TRUE(xrt_dtype_is_small_float(t));
		if (!strcmp(kind, "decode")) {
			code = (unsigned int)atoi(x);
			v = strtod(y, NULL);
			ASSERT_TRUE(same_value(v, xs_small_to_f32((uint32_t)t, (uint8_t)code)))
				TH_LOG("%s", line);
		} else {
			code = (unsigned int)atoi(y);
			v = strtod(x, NULL);
			ASSERT_EQ(code, xs_f32_to_small((uint32_t)t, xs_f64_to_f32_sticky(v)))
				TH_LOG("%s", line);
		}
		n++;
	}
	fclose(f);
	ASSERT_LT(11000, n);
}

/* Two million random floats in each type, and every code, against libxrt's. */
TEST(small_float_random)
{
	uint64_t s = 88172645463325252ull;
	size_t k;
	long i;

	for (k = 0; k < sizeof(small_types) / sizeof(small_types[0]); k++) {
		uint32_t t = small_types[k];

		for (i = 0; i < 256; i++)
			ASSERT_TRUE(same_value(xrt_small_float_to_f64((enum xrt_dtype)t, (uint8_t)i),
					       xs_small_to_f32(t, (uint8_t)i)));
	}
	for (i = 0; i < 2000000; i++) {
		float f;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		/* every bit pattern now and then, else values near the types' ranges */
		f = i % 4 ? ldexpf((float)(s >> 40) / 16777216.0f, (int)(s % 40) - 30) :
			    from_bits((uint32_t)s);
		if (s & 2)
			f = -f;
		k = (s >> 3) % (sizeof(small_types) / sizeof(small_types[0]));
		ASSERT_EQ(xrt_small_float_from_f64((enum xrt_dtype)small_types[k], f),
			  xs_f32_to_small(small_types[k], f))
			TH_LOG("type %u, %a", small_types[k], f);
	}
}

TEST_HARNESS_MAIN
