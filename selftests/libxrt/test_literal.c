// SPDX-License-Identifier: MIT
/*
 * Literals: creation, tuples, comparison and printing.
 */
#include <math.h>

#include "xrt_test.h"

/* An array literal of @text's shape filled from @data. */
#define LIT(var, text, data)                                                  \
	do {                                                                  \
		struct xrt_shape _s;                                          \
		SHAPE(_s, text);                                              \
		ASSERT_OK(xrt_literal_create_from(self->a, &_s, (data),       \
						  sizeof(data), &(var)));     \
	} while (0)

static const char *fmt(const xrt_literal *lit)
{
	static char buf[1024];

	xrt_literal_format(lit, buf, sizeof(buf));
	return buf;
}

TEST_F(xrt, create_is_zeroed)
{
	struct xrt_shape s;
	xrt_literal *lit;

	SHAPE(s, "(f32[2,2], (s8[3], pred[]))");
	ASSERT_OK(xrt_literal_create(self->a, &s, &lit));
	xrt_shape_deinit(&s);
	ASSERT_STREQ("(f32[2,2] {{0, 0}, {0, 0}}, (s8[3] {0, 0, 0}, pred[] false))",
		     fmt(lit));
	ASSERT_EQ(2, xrt_literal_tuple_count(lit));
	ASSERT_EQ(NULL, xrt_literal_data(lit));
	ASSERT_EQ(0, xrt_literal_size(lit));
	ASSERT_EQ(3, xrt_literal_size(xrt_literal_element(xrt_literal_element(lit, 1), 0)));
	ASSERT_EQ(NULL, xrt_literal_element(lit, 2));
	ASSERT_EQ(0, (uintptr_t)xrt_literal_data(xrt_literal_element(lit, 0)) % 64);
	xrt_literal_destroy(lit);
}

TEST_F(xrt, create_from_checks_size_and_preds)
{
	static const uint8_t preds[] = { 1, 0, 2 };
	static const float f[3] = { 1, 2, 3 };
	struct xrt_shape s;
	xrt_literal *lit;

	SHAPE(s, "f32[4]");
	ASSERT_ERR(xrt_literal_create_from(self->a, &s, f, sizeof(f), &lit),
		   XRT_INVALID_ARGUMENT, "12 bytes of data, the shape needs 16");
	ASSERT_EQ(NULL, lit);
	ASSERT_ERR(xrt_literal_create_from(self->a, &s, NULL, 16, &lit),
		   XRT_INVALID_ARGUMENT, "data is NULL");
	SHAPE(s, "pred[3]");
	ASSERT_ERR(xrt_literal_create_from(self->a, &s, preds, 3, &lit),
		   XRT_INVALID_ARGUMENT, "pred element 2 is 2, not 0 or 1");
	SHAPE(s, "(f32[3])");
	ASSERT_ERR(xrt_literal_create_from(self->a, &s, f, sizeof(f), &lit),
		   XRT_INVALID_ARGUMENT, "needs an array shape");
	xrt_shape_deinit(&s);
	s.dtype = XRT_F32;
	s.rank = 1;
	s.dims[0] = -1;
	ASSERT_ERR(xrt_literal_create(self->a, &s, &lit), XRT_INVALID_ARGUMENT,
		   "literal create: dimension 0 is negative");
	ASSERT_ERR(xrt_literal_create(self->a, NULL, &lit),
		   XRT_INVALID_ARGUMENT, "shape is NULL");
}

TEST_F(xrt, every_type_prints)
{
	static const int8_t s8[] = { -128, 127 };
	static const uint16_t u16[] = { 65535, 0 };
	static const int64_t s64[] = { INT64_MIN, 5 };
	static const uint64_t u64[] = { UINT64_MAX };
	static const uint16_t f16[] = { 0x3c00, 0x3555, 0x7c00, 0xfe00 };
	static const uint16_t bf16[] = { 0x3f80, 0x3eab };
	static const float f32[] = { 0.1f, -0.0f, 1e-45f, INFINITY };
	static const double f64[] = { 0.1, 1.0 / 3 };
	static const float c64[] = { 1, -2, 0.5f, 0 };
	static const double c128[] = { 1e300, -1e-300 };
	static const uint8_t pred[] = { 1, 0 };
	xrt_literal *lit;

#define CHECK(text, data, want)                                               \
	do {                                                                  \
		LIT(lit, text, data);                                         \
		EXPECT_STREQ(want, fmt(lit));                                 \
		xrt_literal_destroy(lit);                                     \
	} while (0)
	CHECK("s8[2]", s8, "s8[2] {-128, 127}");
	CHECK("u16[2]", u16, "u16[2] {65535, 0}");
	CHECK("s64[2]", s64, "s64[2] {-9223372036854775808, 5}");
	CHECK("u64[]", u64, "u64[] 18446744073709551615");
	CHECK("f16[4]", f16, "f16[4] {1, 0.3333, inf, -nan}");	/* 0xfe00: sign kept */
	CHECK("bf16[2]", bf16, "bf16[2] {1, 0.334}");
	CHECK("f32[4]", f32, "f32[4] {0.1, -0, 1e-45, inf}");
	CHECK("f64[2]", f64, "f64[2] {0.1, 0.3333333333333333}");
	CHECK("c64[2]", c64, "c64[2] {(1, -2), (0.5, 0)}");
	CHECK("c128[]", c128, "c128[] (1e+300, -1e-300)");
	CHECK("pred[2]", pred, "pred[2] {true, false}");
#undef CHECK
}

TEST_F(xrt, print_follows_layout)
{
	/* Stored column-major: logical [[1,2,3],[4,5,6]]. */
	static const int32_t v[] = { 1, 4, 2, 5, 3, 6 };
	static const float none[1];
	xrt_literal *lit;
	struct xrt_shape s;

	LIT(lit, "s32[2,3]{0,1}", v);
	ASSERT_STREQ("s32[2,3]{0,1} {{1, 2, 3}, {4, 5, 6}}", fmt(lit));
	xrt_literal_destroy(lit);
	SHAPE(s, "f32[2,0,3]");
	ASSERT_OK(xrt_literal_create_from(self->a, &s, none, 0, &lit));
	ASSERT_STREQ("f32[2,0,3] {}", fmt(lit));
	xrt_literal_destroy(lit);
}

TEST_F(xrt, make_tuple_and_decompose)
{
	static const int32_t v[] = { 1, 2 };
	static const float f[] = { 0.5f };
	xrt_literal *a, *b, *t, *t2, *parts[2], *out[2];

	LIT(a, "s32[2]", v);
	LIT(b, "f32[1]", f);
	parts[0] = a;
	parts[1] = b;
	ASSERT_OK(xrt_literal_make_tuple(self->a, parts, 2, &t));
	ASSERT_STREQ("(s32[2] {1, 2}, f32[1] {0.5})", fmt(t));
	ASSERT_EQ(a, xrt_literal_element(t, 0));
	ASSERT_OK(xrt_literal_make_tuple(self->a, &t, 1, &t2));
	ASSERT_STREQ("((s32[2] {1, 2}, f32[1] {0.5}))", fmt(t2));
	ASSERT_ERR(xrt_literal_decompose(t2, out, 0), XRT_INVALID_ARGUMENT,
		   "room for 0 elements, the tuple has 1");
	ASSERT_OK(xrt_literal_decompose(t2, out, 2));
	ASSERT_EQ(t, out[0]);
	ASSERT_OK(xrt_literal_decompose(t, out, 2));
	ASSERT_EQ(a, out[0]);
	ASSERT_EQ(b, out[1]);
	ASSERT_ERR(xrt_literal_decompose(a, out, 2), XRT_INVALID_ARGUMENT,
		   "not a tuple literal");
	parts[1] = a;
	ASSERT_ERR(xrt_literal_make_tuple(self->a, parts, 2, &t),
		   XRT_INVALID_ARGUMENT, "one literal given twice");
	parts[1] = NULL;
	ASSERT_ERR(xrt_literal_make_tuple(self->a, parts, 2, &t),
		   XRT_INVALID_ARGUMENT, "element 1 is NULL");
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
	ASSERT_OK(xrt_literal_make_tuple(self->a, NULL, 0, &t));
	ASSERT_STREQ("()", fmt(t));
	xrt_literal_destroy(t);
}

TEST_F(xrt, make_tuple_depth_limit)
{
	struct xrt_shape s;
	xrt_literal *lit, *outer;
	int i;

	SHAPE(s, "f32[]");
	ASSERT_OK(xrt_literal_create(self->a, &s, &lit));
	for (i = 0; i < XRT_MAX_TUPLE_DEPTH; i++) {
		ASSERT_OK(xrt_literal_make_tuple(self->a, &lit, 1, &outer));
		lit = outer;
	}
	ASSERT_ERR(xrt_literal_make_tuple(self->a, &lit, 1, &outer),
		   XRT_INVALID_ARGUMENT, "tuples nest deeper than 64");
	xrt_literal_destroy(lit);
}

TEST_F(xrt, clone_is_deep)
{
	static const double v[] = { 1.25, -3 };
	xrt_literal *a, *t, *c;

	LIT(a, "f64[2]", v);
	ASSERT_OK(xrt_literal_make_tuple(self->a, &a, 1, &t));
	ASSERT_OK(xrt_literal_clone(self->a, t, &c));
	((double *)xrt_literal_mutable_data(a))[0] = 7;
	ASSERT_STREQ("(f64[2] {1.25, -3})", fmt(c));
	ASSERT_FALSE(xrt_literal_equal(t, c, NULL, 0));
	xrt_literal_destroy(t);
	xrt_literal_destroy(c);
}

TEST_F(xrt, equal_names_first_difference)
{
	static const int32_t x[] = { 1, 2, 3, 4, 5, 6 };
	static const int32_t y[] = { 1, 2, 3, 4, 9, 6 };
	static const int32_t ycm[] = { 1, 4, 2, 9, 3, 6 };
	xrt_literal *a, *b, *c, *ta, *tb;
	char why[256];

	LIT(a, "s32[2,3]", x);
	LIT(b, "s32[2,3]", y);
	LIT(c, "s32[2,3]{0,1}", ycm);
	ASSERT_TRUE(xrt_literal_equal(a, a, why, sizeof(why)));
	ASSERT_FALSE(xrt_literal_equal(a, b, why, sizeof(why)));
	ASSERT_STREQ("at {1,1}: expected 5, got 9", why);
	/* Same values in another layout compare equal. */
	ASSERT_TRUE(xrt_literal_equal(b, c, why, sizeof(why)));
	ASSERT_OK(xrt_literal_make_tuple(self->a, &a, 1, &ta));
	ASSERT_OK(xrt_literal_make_tuple(self->a, &b, 1, &tb));
	ASSERT_FALSE(xrt_literal_equal(ta, tb, why, sizeof(why)));
	ASSERT_STREQ("tuple element {0}: at {1,1}: expected 5, got 9", why);
	ASSERT_FALSE(xrt_literal_equal(ta, c, why, sizeof(why)));
	ASSERT_STREQ("shape mismatch: expected (s32[2,3]), got s32[2,3]{0,1}", why);
	xrt_literal_destroy(ta);
	xrt_literal_destroy(tb);
	xrt_literal_destroy(c);
}

TEST_F(xrt, nan_and_infinity)
{
	static const float e[] = { NAN, INFINITY, -INFINITY, 1, -0.0f };
	static const float same[] = { -NAN, INFINITY, -INFINITY, 1, -0.0f };
	static const float zero[] = { NAN, INFINITY, -INFINITY, 1, 0.0f };
	static const float inf[] = { NAN, INFINITY, INFINITY, 1, -0.0f };
	static const float nan[] = { NAN, INFINITY, -INFINITY, NAN, -0.0f };
	struct xrt_tolerance tol = { .rtol = 1e-3, .atol = 1e-6 };
	xrt_literal *a, *b;
	char why[256];

	LIT(a, "f32[5]", e);
	LIT(b, "f32[5]", same);
	ASSERT_TRUE(xrt_literal_equal(a, b, why, sizeof(why)));
	ASSERT_TRUE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	xrt_literal_destroy(b);
	/* Exact compares bits: -0 is not +0; near accepts it. */
	LIT(b, "f32[5]", zero);
	ASSERT_FALSE(xrt_literal_equal(a, b, why, sizeof(why)));
	ASSERT_STREQ("at {4}: expected -0, got 0", why);
	ASSERT_TRUE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	xrt_literal_destroy(b);
	LIT(b, "f32[5]", inf);
	ASSERT_FALSE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_STREQ("at {2}: expected -inf, got inf", why);
	xrt_literal_destroy(b);
	LIT(b, "f32[5]", nan);
	ASSERT_FALSE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_STREQ("at {3}: expected 1, got nan", why);
	ASSERT_FALSE(xrt_literal_near(b, a, &tol, why, sizeof(why)));
	xrt_literal_destroy(b);
	xrt_literal_destroy(a);
}

TEST_F(xrt, near_uses_relative_and_absolute)
{
	static const double e[] = { 1000, 0 };
	static const double in[] = { 1000.9, 1e-7 };
	static const double out_rel[] = { 1001.2, 0 };
	static const double out_abs[] = { 1000, 2e-6 };
	struct xrt_tolerance tol = { .rtol = 1e-3, .atol = 1e-6 };
	struct xrt_tolerance neg = { .rtol = -1, .atol = 0 };
	xrt_literal *a, *b;
	char why[256];

	LIT(a, "f64[2]", e);
	LIT(b, "f64[2]", in);
	ASSERT_TRUE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_FALSE(xrt_literal_equal(a, b, why, sizeof(why)));
	ASSERT_FALSE(xrt_literal_near(a, b, &neg, why, sizeof(why)));
	ASSERT_STREQ("tolerances must be >= 0", why);
	xrt_literal_destroy(b);
	LIT(b, "f64[2]", out_rel);
	ASSERT_FALSE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_NE(NULL, strstr(why, "at {0}: expected 1000, got 1001.2 (|diff| 1.2"))
		TH_LOG("%s", why);
	xrt_literal_destroy(b);
	LIT(b, "f64[2]", out_abs);
	ASSERT_FALSE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_NE(NULL, strstr(why, "at {1}: expected 0, got 2e-06")) TH_LOG("%s", why);
	xrt_literal_destroy(b);
	xrt_literal_destroy(a);
}

TEST_F(xrt, near_on_half_and_complex)
{
	static const uint16_t h1[] = { 0x3c00 }, h2[] = { 0x3c01 };
	static const float c1[] = { 1, 2 }, c2[] = { 1, 2.5f };
	struct xrt_tolerance tol = { .rtol = 1e-3, .atol = 0 };
	xrt_literal *a, *b;
	char why[256];

	LIT(a, "f16[1]", h1);
	LIT(b, "f16[1]", h2);
	ASSERT_TRUE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_FALSE(xrt_literal_equal(a, b, why, sizeof(why)));
	ASSERT_STREQ("at {0}: expected 1, got 1.001", why);
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
	LIT(a, "c64[]", c1);
	LIT(b, "c64[]", c2);
	ASSERT_FALSE(xrt_literal_near(a, b, &tol, why, sizeof(why)));
	ASSERT_STREQ("at {}: expected (1, 2), got (1, 2.5)", why);
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
}

TEST_F(xrt, format_truncates)
{
	static const int32_t v[] = { 10, 20 };
	xrt_literal *lit;
	char small[8];

	LIT(lit, "s32[2]", v);
	ASSERT_EQ(strlen("s32[2] {10, 20}"), xrt_literal_format(lit, small, sizeof(small)));
	ASSERT_STREQ("s32[2] ", small);
	xrt_literal_destroy(lit);
}

TEST_HARNESS_MAIN
