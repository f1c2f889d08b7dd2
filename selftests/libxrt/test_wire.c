// SPDX-License-Identifier: MIT
/*
 * The wire format: shapes and literals through xrt.Shape / xrt.Literal
 * and back, for every element type and nested tuples; deterministic
 * bytes.
 */
#include "xrt_test.h"

#include <xrt/wire.h>

/* Fills an array literal with a pattern that differs per byte. */
static void fill_pattern(xrt_literal *lit, unsigned int seed)
{
	uint8_t *p = xrt_literal_mutable_data(lit);
	size_t i, n = xrt_literal_size(lit);
	enum xrt_dtype t = xrt_literal_shape(lit)->dtype;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
		if (t == XRT_PRED)
			p[i] &= 1;
	}
}

/* Serializes, deserializes, and checks equality and stable bytes. */
static void round_trip(struct __test_metadata *_metadata,
		       const struct xrt_allocator *a, const xrt_literal *lit)
{
	void *b1 = NULL, *b2 = NULL;
	size_t n1, n2;
	xrt_literal *back;
	char why[256];

	ASSERT_OK(xrt_literal_serialize(lit, a, &b1, &n1));
	ASSERT_OK(xrt_literal_deserialize(a, b1, n1, &back));
	EXPECT_TRUE(xrt_literal_equal(lit, back, why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_TRUE(xrt_shape_equal(xrt_literal_shape(lit),
				    xrt_literal_shape(back)));
	ASSERT_OK(xrt_literal_serialize(back, a, &b2, &n2));
	EXPECT_EQ(n1, n2);
	EXPECT_EQ(0, memcmp(b1, b2, n1)) TH_LOG("bytes differ after a round trip");
	xrt_literal_destroy(back);
	xrt_free(a, b1);
	xrt_free(a, b2);
}

TEST_F(xrt, every_element_type)
{
	static const char *const shapes[] = {
		"pred[7]", "s8[3,2]", "s16[5]", "s32[2,2]{0,1}", "s64[3]",
		"u8[9]", "u16[1,1,4]", "u32[]", "u64[2]", "f16[6]",
		"bf16[3,3]", "f32[2,3,4]{1,2,0}", "f64[5]", "c64[2]",
		"c128[2,1]", "f32[0]", "f32[3,0]",
	};
	struct xrt_shape s;
	xrt_literal *lit;
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		SHAPE(s, shapes[i]);
		ASSERT_OK(xrt_literal_create(self->a, &s, &lit));
		fill_pattern(lit, (unsigned int)i);
		round_trip(_metadata, self->a, lit);
		xrt_literal_destroy(lit);
	}
}

TEST_F(xrt, nested_tuples)
{
	struct xrt_shape s;
	xrt_literal *lit;
	uint32_t i;

	SHAPE(s, "((f32[2], ()), s8[], (((u16[3]{0}))), pred[2])");
	ASSERT_OK(xrt_literal_create(self->a, &s, &lit));
	xrt_shape_deinit(&s);
	fill_pattern(xrt_literal_element(xrt_literal_element(lit, 0), 0), 1);
	fill_pattern(xrt_literal_element(lit, 1), 2);
	fill_pattern(xrt_literal_element(lit, 3), 3);
	round_trip(_metadata, self->a, lit);
	for (i = 0; i < xrt_literal_tuple_count(lit); i++)
		round_trip(_metadata, self->a, xrt_literal_element(lit, i));
	xrt_literal_destroy(lit);
}

TEST_F(xrt, deepest_tuple_round_trips)
{
	char text[2 * XRT_MAX_TUPLE_DEPTH + 8];
	struct xrt_shape s;
	xrt_literal *lit;
	int i, n = 0;

	for (i = 0; i < XRT_MAX_TUPLE_DEPTH; i++)
		text[n++] = '(';
	memcpy(text + n, "s32[]", 5);
	n += 5;
	for (i = 0; i < XRT_MAX_TUPLE_DEPTH; i++)
		text[n++] = ')';
	text[n] = '\0';
	SHAPE(s, text);
	ASSERT_OK(xrt_literal_create(self->a, &s, &lit));
	xrt_shape_deinit(&s);
	round_trip(_metadata, self->a, lit);
	xrt_literal_destroy(lit);
}

TEST_F(xrt, shapes_round_trip)
{
	static const char *const texts[] = {
		"f32[]", "s8[1,2,3,4,5,6,7,8]{3,1,7,0,2,4,6,5}", "()",
		"((), (pred[0]{0}, c128[]))",
	};
	struct xrt_shape s, back;
	void *bytes;
	size_t n, i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		SHAPE(s, texts[i]);
		ASSERT_OK(xrt_shape_serialize(&s, self->a, &bytes, &n));
		ASSERT_OK(xrt_shape_deserialize(&back, self->a, bytes, n));
		EXPECT_TRUE(xrt_shape_equal(&s, &back)) TH_LOG("%s", texts[i]);
		xrt_free(self->a, bytes);
		xrt_shape_deinit(&s);
		xrt_shape_deinit(&back);
	}
}

TEST_F(xrt, known_bytes)
{
	/* Field 1 varint F32 (12); field 2 packed [2, 3]; layout {1, 0}. */
	static const uint8_t want[] = { 0x08, 0x0c, 0x12, 0x02, 0x02, 0x03,
					0x1a, 0x04, 0x0a, 0x02, 0x01, 0x00 };
	struct xrt_shape s;
	void *bytes;
	size_t n;

	SHAPE(s, "f32[2,3]");
	ASSERT_OK(xrt_shape_serialize(&s, self->a, &bytes, &n));
	ASSERT_EQ(sizeof(want), n);
	ASSERT_EQ(0, memcmp(want, bytes, n));
	xrt_free(self->a, bytes);
}

TEST_F(xrt, empty_bytes_are_an_invalid_literal)
{
	xrt_literal *lit;

	ASSERT_ERR(xrt_literal_deserialize(self->a, "", 0, &lit),
		   XRT_INVALID_ARGUMENT, "literal.shape: missing");
	ASSERT_EQ(NULL, lit);
}

TEST_HARNESS_MAIN
