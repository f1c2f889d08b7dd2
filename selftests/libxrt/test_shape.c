// SPDX-License-Identifier: MIT
/*
 * Shapes: construction, validation, layouts, sizes, sub-shapes, and the
 * HLO text form both ways.
 */
#include "xrt_test.h"

/* Formats @s into a static buffer. */
static const char *fmt(const struct xrt_shape *s)
{
	static char buf[512];

	xrt_shape_format(s, buf, sizeof(buf));
	return buf;
}

TEST_F(xrt, array_defaults)
{
	int64_t dims[] = { 2, 3, 4 };
	struct xrt_shape s;
	int64_t strides[3];

	ASSERT_OK(xrt_shape_init_array(&s, XRT_F32, 3, dims));
	ASSERT_STREQ("f32[2,3,4]{2,1,0}", fmt(&s));
	ASSERT_EQ(24, xrt_shape_element_count(&s));
	ASSERT_EQ(96, xrt_shape_byte_size(&s));
	ASSERT_EQ(1, xrt_shape_leaf_count(&s));
	xrt_shape_strides(&s, strides);
	ASSERT_EQ(12, strides[0]);
	ASSERT_EQ(4, strides[1]);
	ASSERT_EQ(1, strides[2]);
	xrt_shape_deinit(&s);
}

TEST_F(xrt, scalar)
{
	struct xrt_shape s;

	ASSERT_OK(xrt_shape_init_array(&s, XRT_PRED, 0, NULL));
	ASSERT_STREQ("pred[]", fmt(&s));
	ASSERT_EQ(1, xrt_shape_element_count(&s));
	ASSERT_EQ(1, xrt_shape_byte_size(&s));
}

TEST_F(xrt, layout_changes_strides)
{
	int64_t dims[] = { 2, 3 }, m2m[] = { 0, 1 }, strides[2];
	struct xrt_shape s;

	ASSERT_OK(xrt_shape_init_array(&s, XRT_S16, 2, dims));
	ASSERT_OK(xrt_shape_set_layout(&s, m2m));
	ASSERT_STREQ("s16[2,3]{0,1}", fmt(&s));
	xrt_shape_strides(&s, strides);
	ASSERT_EQ(1, strides[0]);
	ASSERT_EQ(2, strides[1]);
}

TEST_F(xrt, invalid_arrays)
{
	int64_t neg[] = { 2, -1 }, big[] = { INT64_C(1) << 40, INT64_C(1) << 40 };
	int64_t nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	int64_t zero_big[] = { 0, INT64_C(1) << 40, INT64_C(1) << 40 };
	int64_t dims[] = { 2, 3 }, dup[] = { 1, 1 }, oob[] = { 0, 2 };
	struct xrt_shape s;

	ASSERT_ERR(xrt_shape_init_array(&s, XRT_F32, 2, neg),
		   XRT_INVALID_ARGUMENT, "dimension 1 is negative (-1)");
	ASSERT_ERR(xrt_shape_init_array(&s, XRT_F32, 2, big),
		   XRT_INVALID_ARGUMENT, "exceeds 2^62 bytes");
	/* A zero dimension does not excuse the others: strides would overflow. */
	ASSERT_ERR(xrt_shape_init_array(&s, XRT_F32, 3, zero_big),
		   XRT_INVALID_ARGUMENT, "exceeds 2^62 bytes");
	ASSERT_ERR(xrt_shape_init_array(&s, XRT_F32, 9, nine),
		   XRT_INVALID_ARGUMENT, "rank 9 exceeds the maximum 8");
	ASSERT_ERR(xrt_shape_init_array(&s, XRT_TUPLE, 0, NULL),
		   XRT_INVALID_ARGUMENT, "not an array type");
	ASSERT_ERR(xrt_shape_init_array(&s, (enum xrt_dtype)77, 0, NULL),
		   XRT_INVALID_ARGUMENT, "element type 77");
	ASSERT_ERR(xrt_shape_init_array(&s, XRT_F32, 2, NULL),
		   XRT_INVALID_ARGUMENT, "no dimensions");
	ASSERT_OK(xrt_shape_init_array(&s, XRT_F32, 2, dims));
	ASSERT_ERR(xrt_shape_set_layout(&s, dup), XRT_INVALID_ARGUMENT,
		   "not a permutation");
	ASSERT_ERR(xrt_shape_set_layout(&s, oob), XRT_INVALID_ARGUMENT,
		   "entry 1 is 2");
	ASSERT_STREQ("f32[2,3]{1,0}", fmt(&s));	/* unchanged */
}

TEST_F(xrt, tuples_nest_and_copy)
{
	struct xrt_shape a, b, elems[2], t, u;
	const struct xrt_shape *sub;
	int64_t path[] = { 1, 0 };

	SHAPE(a, "f32[2]");
	SHAPE(b, "(s32[], pred[3])");
	elems[0] = a;
	elems[1] = b;
	ASSERT_OK(xrt_shape_init_tuple(&t, self->a, elems, 2));
	xrt_shape_deinit(&b);
	ASSERT_STREQ("(f32[2]{0}, (s32[], pred[3]{0}))", fmt(&t));
	ASSERT_EQ(4 * 2 + 4 + 3, xrt_shape_byte_size(&t));
	ASSERT_EQ(3, xrt_shape_leaf_count(&t));
	ASSERT_OK(xrt_shape_subshape(&t, path, 2, &sub));
	ASSERT_STREQ("s32[]", fmt(sub));
	ASSERT_ERR(xrt_shape_subshape(&t, path, 3, &sub), XRT_INVALID_ARGUMENT,
		   "index position 2: s32 is not a tuple");
	path[1] = 2;
	ASSERT_ERR(xrt_shape_subshape(&t, path, 2, &sub), XRT_OUT_OF_RANGE,
		   "index position 1: 2 is outside a tuple of 2 elements");
	ASSERT_OK(xrt_shape_copy(&u, self->a, &t));
	ASSERT_TRUE(xrt_shape_equal(&t, &u));
	xrt_shape_deinit(&t);
	ASSERT_STREQ("(f32[2]{0}, (s32[], pred[3]{0}))", fmt(&u));
	xrt_shape_deinit(&u);
	xrt_shape_deinit(&a);
}

TEST_F(xrt, empty_tuple)
{
	struct xrt_shape t;

	ASSERT_OK(xrt_shape_init_tuple(&t, self->a, NULL, 0));
	ASSERT_STREQ("()", fmt(&t));
	ASSERT_EQ(0, xrt_shape_byte_size(&t));
	ASSERT_EQ(0, xrt_shape_leaf_count(&t));
	xrt_shape_deinit(&t);
}

TEST_F(xrt, equal_and_compatible)
{
	struct xrt_shape a, b, c;

	SHAPE(a, "(f32[2,3]{1,0}, u8[])");
	SHAPE(b, "(f32[2,3]{0,1}, u8[])");
	SHAPE(c, "(f32[2,3], u16[])");
	ASSERT_FALSE(xrt_shape_equal(&a, &b));
	ASSERT_TRUE(xrt_shape_compatible(&a, &b));
	ASSERT_FALSE(xrt_shape_compatible(&a, &c));
	ASSERT_TRUE(xrt_shape_equal(&a, &a));
	xrt_shape_deinit(&a);
	xrt_shape_deinit(&b);
	xrt_shape_deinit(&c);
}

TEST_F(xrt, parse_round_trips)
{
	static const char *const texts[] = {
		"f32[]", "bf16[1,2,3]{2,1,0}", "c128[0]{0}", "()",
		"(pred[], (), ((s8[4]{0})))", "u64[5,6]{0,1}",
		"(f16[2,2]{1,0}, c64[3]{0}, s64[], u32[7]{0})",
		"(s4[2]{0}, u4[], s2[3]{0}, u2[1]{0}, f8e5m2[2]{0}, f8e4m3fn[2]{0})",
		"(f8e4m3b11fnuz[2]{0}, f8e5m2fnuz[1]{0}, f8e4m3fnuz[1]{0}, f8e4m3[1]{0})",
		"(f8e3m4[1]{0}, f8e8m0fnu[1]{0}, f4e2m1fn[1]{0})",
	};
	struct xrt_shape s;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		SHAPE(s, texts[i]);
		ASSERT_STREQ(texts[i], fmt(&s));
		xrt_shape_deinit(&s);
	}
	SHAPE(s, "  ( f32 [ 2 , 3 ]{ 0 , 1 } ,s32[] )  ");
	ASSERT_STREQ("(f32[2,3]{0,1}, s32[])", fmt(&s));
	xrt_shape_deinit(&s);
	/* XLA's packing of sub-byte types is a fact of its buffers: one byte each here */
	SHAPE(s, "(s4[2,3]{0,1:E(4)}, u2[2]{0:E(2)}, f4e2m1fn[1]{0:E(4)}, s4[]{:E(4)})");
	ASSERT_STREQ("(s4[2,3]{0,1}, u2[2]{0}, f4e2m1fn[1]{0}, s4[])", fmt(&s));
	ASSERT_EQ(1, xrt_shape_byte_size(&s.tuple[1]) / 2);
	xrt_shape_deinit(&s);
}

TEST_F(xrt, parse_errors_name_the_column)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "", "column 1: expected an element type" },
		{ "f33[2]", "column 1: expected an element type" },
		{ "f32", "column 4: expected '['" },
		{ "f32[2", "column 6: expected ',' or ']'" },
		{ "f32[2,]", "column 7: expected a number" },
		{ "f32[-1]", "column 5: expected a number" },
		{ "f32[?]", "column 5: an unbounded dynamic dimension ('?'): every size must be "
			    "known to compile" },
		{ "f32[<=4]", "column 5: a bounded dynamic dimension ('<=N') is read only in HLO modules" },
		{ "f32[8,128]{1,0:T(8,128)}", "column 16: a layout with tiles or memory space "
					      "(':' after minor_to_major) is not supported" },
		{ "s4[2]{0:E(4)T(2)}", "column 13: a layout with tiles or memory space after its "
				       "element size" },
		{ "s1[2]", "column 1: element type 's1' (XLA's 1-bit integers) is not supported" },
		{ "(f32[], f8e4m3fn[2]{0:E(8)})", "column 21: a layout element size E(8) is "
						  "supported only as the width of a sub-byte type, "
						  "not on f8e4m3fn" },
		{ "s8[2]{0:E(4)}", "E(4) is supported only as the width of a sub-byte type, not "
				   "on s8" },
		{ "u2[2]{0:E(4)}", "E(4) is supported only as the width of a sub-byte type, not "
				   "on u2" },
		{ "s4[2]{0:E(4}", "expected ')'" },
		{ "token[2]", "expected '[]' after token" },
		{ "f32[1,1,1,1,1,1,1,1,1]", "more than 8 dimensions" },
		{ "f32[99999999999999999999]", "number too large" },
		{ "f32[2,3]{0}", "layout length differs from the rank" },
		{ "f32[2,3]{0,0}", "not a permutation" },
		{ "f32[2]{0", "expected ',' or '}'" },
		{ "(f32[], ", "expected an element type" },
		{ "(f32[] s32[])", "expected ',' or ')'" },
		{ "f32[] x", "column 7: unexpected text after the shape" },
		{ "f32[2] {0}", "column 8: unexpected text after the shape" },
		{ "tuple[]", "expected an element type" },
		{ "f32[4611686018427387905]", "number too large" },
		{ "f32[4611686018427387904]", "exceeds 2^62 bytes" },
		{ "s64[1073741824,1073741824]", "exceeds 2^62 bytes" },
	};
	struct xrt_shape s;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_ERR(xrt_shape_parse(&s, self->a, bad[i].text),
			   XRT_INVALID_ARGUMENT, bad[i].msg);
	}
}

TEST_F(xrt, parse_depth_limit)
{
	char text[2 * (XRT_MAX_TUPLE_DEPTH + 1) + 8];
	struct xrt_shape s;
	int i, n = 0;

	for (i = 0; i < XRT_MAX_TUPLE_DEPTH; i++)
		text[n++] = '(';
	for (i = 0; i < XRT_MAX_TUPLE_DEPTH; i++)
		text[n++] = ')';
	text[n] = '\0';
	ASSERT_OK(xrt_shape_parse(&s, self->a, text));
	xrt_shape_deinit(&s);
	memmove(text + 1, text, (size_t)n + 1);
	text[0] = '(';
	strcat(text, ")");
	ASSERT_ERR(xrt_shape_parse(&s, self->a, text), XRT_INVALID_ARGUMENT,
		   "tuples nest too deep");
}

TEST_F(xrt, validate_hand_built)
{
	struct xrt_shape s, elems[2];

	memset(&s, 0, sizeof(s));
	s.dtype = XRT_F32;
	s.rank = 2;
	s.dims[0] = 2;
	s.dims[1] = 2;
	s.minor_to_major[0] = 1;
	s.minor_to_major[1] = 1;
	ASSERT_ERR(xrt_shape_validate(&s), XRT_INVALID_ARGUMENT,
		   "not a permutation");
	s.minor_to_major[1] = 0;
	ASSERT_OK(xrt_shape_validate(&s));
	elems[0] = s;
	elems[1] = s;
	elems[1].dims[1] = -5;
	memset(&s, 0, sizeof(s));
	s.dtype = XRT_TUPLE;
	s.tuple_count = 2;
	s.tuple = elems;
	ASSERT_ERR(xrt_shape_validate(&s), XRT_INVALID_ARGUMENT,
		   "tuple element {1}: dimension 1 is negative");
	s.tuple = NULL;
	ASSERT_ERR(xrt_shape_validate(&s), XRT_INVALID_ARGUMENT,
		   "has no element array");
	s.tuple = elems;
	s.rank = 1;
	ASSERT_ERR(xrt_shape_validate(&s), XRT_INVALID_ARGUMENT,
		   "tuple shape with rank 1");
	ASSERT_ERR(xrt_shape_validate(NULL), XRT_INVALID_ARGUMENT, "NULL");
}

TEST_F(xrt, tuple_size_sum_is_bounded)
{
	struct xrt_shape big, elems[4], t;

	SHAPE(big, "u8[1073741824,1073741824,2]");	/* 2^61 bytes */
	elems[0] = big;
	elems[1] = big;
	ASSERT_OK(xrt_shape_init_tuple(&t, self->a, elems, 2));
	xrt_shape_deinit(&t);
	elems[2] = big;
	elems[3] = big;
	ASSERT_ERR(xrt_shape_init_tuple(&t, self->a, elems, 3),
		   XRT_INVALID_ARGUMENT, "exceeds 2^62 bytes");
}

TEST_F(xrt, format_truncates_like_snprintf)
{
	struct xrt_shape s;
	char small[6];

	SHAPE(s, "(f32[2], s32[])");
	ASSERT_EQ(strlen("(f32[2]{0}, s32[])"),
		  xrt_shape_format(&s, small, sizeof(small)));
	ASSERT_STREQ("(f32[", small);
	ASSERT_EQ(strlen("(f32[2]{0}, s32[])"), xrt_shape_format(&s, NULL, 0));
	xrt_shape_deinit(&s);
}

TEST_HARNESS_MAIN
