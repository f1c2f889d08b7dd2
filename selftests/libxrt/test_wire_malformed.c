// SPDX-License-Identifier: MIT
/*
 * Malformed xrt.Literal and xrt.Shape messages: each is rejected with
 * its own message, naming the field, and leaks nothing.
 *
 * Most cases are built as well-formed protobuf with bad content through
 * the generated structs; the rest are broken bytes.
 */
#include "xrt_test.h"

#include <xrt/wire.h>

#include "xrt.pb-c.h"

/* Message builders over stack storage. */
struct shape_buf {
	Xrt__Shape msg;
	Xrt__Layout layout;
	int64_t dims[16];
	int64_t m2m[16];
};

static Xrt__Shape *array(struct shape_buf *b, Xrt__ElementType t, size_t rank,
			 const int64_t *dims)
{
	xrt__shape__init(&b->msg);
	b->msg.element_type = t;
	b->msg.n_dimensions = rank;
	b->msg.dimensions = b->dims;
	if (rank)
		memcpy(b->dims, dims, rank * sizeof(*dims));
	return &b->msg;
}

static void set_layout(struct shape_buf *b, size_t n, const int64_t *m2m)
{
	xrt__layout__init(&b->layout);
	b->layout.n_minor_to_major = n;
	b->layout.minor_to_major = b->m2m;
	memcpy(b->m2m, m2m, n * sizeof(*m2m));
	b->msg.layout = &b->layout;
}

static void set_data(Xrt__Literal *l, const void *p, size_t n)
{
	l->data.data = (uint8_t *)p;
	l->data.len = n;
}

/* Packs @lit, deserializes it, expects failure with @needle. */
#define EXPECT_REJECTED(lit, needle)                                          \
	do {                                                                  \
		uint8_t _buf[4096];                                           \
		size_t _n = xrt__literal__get_packed_size(lit);               \
		xrt_literal *_out = (xrt_literal *)1;                         \
		ASSERT_LE(_n, sizeof(_buf));                                  \
		xrt__literal__pack(lit, _buf);                                \
		ASSERT_ERR(xrt_literal_deserialize(self->a, _buf, _n, &_out), \
			   XRT_INVALID_ARGUMENT, needle);                     \
		ASSERT_EQ(NULL, _out);                                        \
	} while (0)

static const int64_t d2[] = { 2 }, d23[] = { 2, 3 };
static const float four_floats[4];

TEST_F(xrt, bad_shapes_in_literals)
{
	int64_t neg[] = { 2, -4 }, nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	int64_t huge[] = { INT64_C(1) << 40, INT64_C(1) << 40 };
	int64_t bad_perm[] = { 0, 0 }, short_m2m[] = { 0 };
	struct shape_buf sb;
	Xrt__Literal l;

	xrt__literal__init(&l);
	l.shape = array(&sb, XRT__ELEMENT_TYPE__INVALID, 1, d2);
	EXPECT_REJECTED(&l, "literal.shape: element_type missing");
	l.shape = array(&sb, (Xrt__ElementType)99, 1, d2);
	EXPECT_REJECTED(&l, "literal.shape: unknown element_type 99");
	l.shape = array(&sb, XRT__ELEMENT_TYPE__F32, 2, neg);
	EXPECT_REJECTED(&l, "literal.shape: dimension 1 is negative (-4)");
	l.shape = array(&sb, XRT__ELEMENT_TYPE__F32, 9, nine);
	EXPECT_REJECTED(&l, "literal.shape: rank 9 exceeds the maximum 8");
	l.shape = array(&sb, XRT__ELEMENT_TYPE__F32, 2, huge);
	EXPECT_REJECTED(&l, "literal.shape: f32 array of these dimensions exceeds 2^62 bytes");
	l.shape = array(&sb, XRT__ELEMENT_TYPE__F32, 2, d23);
	set_layout(&sb, 1, short_m2m);
	EXPECT_REJECTED(&l, "literal.shape: layout length differs from rank 2");
	l.shape = array(&sb, XRT__ELEMENT_TYPE__F32, 2, d23);
	set_layout(&sb, 2, bad_perm);
	EXPECT_REJECTED(&l, "literal.shape.layout: layout is not a permutation");
}

TEST_F(xrt, bad_tuple_shapes)
{
	struct shape_buf outer, inner;
	Xrt__Shape *elems[1];
	Xrt__Literal l;

	xrt__literal__init(&l);
	/* An array with tuple elements. */
	l.shape = array(&outer, XRT__ELEMENT_TYPE__F32, 1, d2);
	elems[0] = array(&inner, XRT__ELEMENT_TYPE__F32, 1, d2);
	outer.msg.n_tuple_shapes = 1;
	outer.msg.tuple_shapes = elems;
	EXPECT_REJECTED(&l, "literal.shape: array shape with 1 tuple_shapes");
	/* A tuple with dimensions. */
	outer.msg.element_type = XRT__ELEMENT_TYPE__TUPLE;
	EXPECT_REJECTED(&l, "literal.shape: tuple shape with 1 dimensions or a layout");
	/* A bad element deep in a tuple names its path. */
	outer.msg.n_dimensions = 0;
	inner.msg.element_type = XRT__ELEMENT_TYPE__INVALID;
	EXPECT_REJECTED(&l, "literal.shape.tuple_shapes[0]: element_type missing");
}

TEST_F(xrt, bad_array_data)
{
	static const uint8_t preds[] = { 0, 1, 3 };
	int64_t three[] = { 3 };
	struct shape_buf sb;
	Xrt__Literal l, e;
	Xrt__Literal *elems[1] = { &e };

	xrt__literal__init(&l);
	l.shape = array(&sb, XRT__ELEMENT_TYPE__F32, 1, d2);
	set_data(&l, four_floats, 4);
	EXPECT_REJECTED(&l, "literal.data: 4 bytes, the shape needs 8");
	set_data(&l, four_floats, 12);
	EXPECT_REJECTED(&l, "literal.data: 12 bytes, the shape needs 8");
	set_data(&l, NULL, 0);
	EXPECT_REJECTED(&l, "literal.data: 0 bytes, the shape needs 8");
	l.shape = array(&sb, XRT__ELEMENT_TYPE__PRED, 1, three);
	set_data(&l, preds, 3);
	EXPECT_REJECTED(&l, "literal.data: pred element 2 is 3, not 0 or 1");
	/* A huge declared shape is refused before anything is allocated. */
	l.shape = array(&sb, XRT__ELEMENT_TYPE__U8, 2, (int64_t[]){ INT64_C(1) << 31,
							       INT64_C(1) << 31 });
	set_data(&l, preds, 3);
	EXPECT_REJECTED(&l, "literal.data: 3 bytes, the shape needs 4611686018427387904");
	/* An array literal with element literals. */
	xrt__literal__init(&e);
	set_data(&l, preds, 2);
	l.n_tuple_elements = 1;
	l.tuple_elements = elems;
	EXPECT_REJECTED(&l, "literal.tuple_elements: 1 elements in an array literal");
}

TEST_F(xrt, bad_tuple_literals)
{
	struct shape_buf tuple_shape, e0_shape, e1_shape, wrong;
	Xrt__Shape *tshapes[2];
	Xrt__Literal l, e0, e1;
	Xrt__Literal *elems[2] = { &e0, &e1 };
	int64_t d3[] = { 3 };

	xrt__literal__init(&l);
	xrt__literal__init(&e0);
	xrt__literal__init(&e1);
	xrt__shape__init(&tuple_shape.msg);
	tuple_shape.msg.element_type = XRT__ELEMENT_TYPE__TUPLE;
	tshapes[0] = array(&e0_shape, XRT__ELEMENT_TYPE__F32, 1, d2);
	tshapes[1] = array(&e1_shape, XRT__ELEMENT_TYPE__F32, 0, NULL);
	tuple_shape.msg.n_tuple_shapes = 2;
	tuple_shape.msg.tuple_shapes = tshapes;
	l.shape = &tuple_shape.msg;
	e0.shape = tshapes[0];
	set_data(&e0, four_floats, 8);
	e1.shape = tshapes[1];
	set_data(&e1, four_floats, 4);

	l.n_tuple_elements = 1;
	l.tuple_elements = elems;
	EXPECT_REJECTED(&l, "literal.tuple_elements: 1 elements, the shape has 2");
	l.n_tuple_elements = 2;
	set_data(&l, four_floats, 4);
	EXPECT_REJECTED(&l, "literal.data: 4 bytes in a tuple literal");
	set_data(&l, NULL, 0);
	set_data(&e1, four_floats, 8);
	EXPECT_REJECTED(&l, "literal.tuple_elements[1].data: 8 bytes, the shape needs 4");
	set_data(&e1, four_floats, 4);
	e1.shape = array(&wrong, XRT__ELEMENT_TYPE__F32, 1, d3);
	EXPECT_REJECTED(&l, "literal.tuple_elements[1].shape differs from element 1");
	e1.shape = NULL;
	EXPECT_REJECTED(&l, "literal.tuple_elements[1]: missing");
}

TEST_F(xrt, tuple_too_deep)
{
	struct shape_buf sb[XRT_MAX_TUPLE_DEPTH + 2];
	Xrt__Shape *child[XRT_MAX_TUPLE_DEPTH + 2];
	Xrt__Literal l;
	uint8_t buf[4096];
	struct xrt_shape s;
	size_t n;
	int i;

	/* 65 tuples around a scalar. */
	for (i = 0; i <= XRT_MAX_TUPLE_DEPTH; i++) {
		xrt__shape__init(&sb[i].msg);
		sb[i].msg.element_type = XRT__ELEMENT_TYPE__TUPLE;
		sb[i].msg.n_tuple_shapes = 1;
		sb[i].msg.tuple_shapes = &child[i];
		child[i] = &sb[i + 1].msg;
	}
	array(&sb[XRT_MAX_TUPLE_DEPTH + 1], XRT__ELEMENT_TYPE__S32, 0, NULL);
	xrt__literal__init(&l);
	l.shape = &sb[0].msg;
	EXPECT_REJECTED(&l, "tuples nest deeper than 64");
	n = xrt__shape__pack(&sb[0].msg, buf);
	ASSERT_ERR(xrt_shape_deserialize(&s, self->a, buf, n),
		   XRT_INVALID_ARGUMENT, "shape: tuple element");
}

/* Deserializes raw bytes as a literal; expects failure with @needle. */
#define EXPECT_BYTES_REJECTED(bytes, n, needle)                               \
	do {                                                                  \
		xrt_literal *_out;                                            \
		ASSERT_ERR(xrt_literal_deserialize(self->a, (bytes), (n),     \
						   &_out),                    \
			   XRT_INVALID_ARGUMENT, needle);                     \
		ASSERT_EQ(NULL, _out);                                        \
	} while (0)

TEST_F(xrt, broken_bytes)
{
	/* Literal.shape (field 1, length 2) holding Shape.element_type F32. */
	static const uint8_t ok_prefix[] = { 0x0a, 0x02, 0x08, 0x0c };
	static const uint8_t trunc_varint[] = { 0x0a, 0x02, 0x08, 0x8c };
	static const uint8_t past_end[] = { 0x0a, 0x05, 0x08, 0x0c };
	static const uint8_t group[] = { 0x0b, 0x0c };
	static const uint8_t field0[] = { 0x02, 0x00 };
	static const uint8_t wrong_type[] = { 0x08, 0x01 };
	static const uint8_t long_varint[] = { 0x10, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0x01 };
	static const uint8_t trunc_fixed[] = { 0x0d, 0x01, 0x02 };
	uint8_t buf[16];

	EXPECT_BYTES_REJECTED(trunc_varint, sizeof(trunc_varint),
			      "malformed wire data at byte 2: truncated varint");
	EXPECT_BYTES_REJECTED(past_end, sizeof(past_end),
			      "malformed wire data at byte 0: length past the end");
	EXPECT_BYTES_REJECTED(group, sizeof(group), "unsupported wire type");
	EXPECT_BYTES_REJECTED(field0, sizeof(field0), "invalid field number");
	EXPECT_BYTES_REJECTED(wrong_type, sizeof(wrong_type),
			      "literal: malformed xrt.Literal message");
	EXPECT_BYTES_REJECTED(long_varint, sizeof(long_varint),
			      "truncated varint");
	EXPECT_BYTES_REJECTED(trunc_fixed, sizeof(trunc_fixed),
			      "truncated fixed-size field");
	/* A valid prefix cut short inside a field. */
	memcpy(buf, ok_prefix, sizeof(ok_prefix));
	EXPECT_BYTES_REJECTED(buf, 3, "length past the end");
	EXPECT_BYTES_REJECTED(NULL, 5, "data is NULL");
}

TEST_F(xrt, nesting_bomb)
{
	/* 100000 nested Literal.tuple_elements: would overflow protobuf-c's stack. */
	size_t depth = 100000, i, n = 0;
	uint8_t *buf = malloc(depth * 6);
	size_t *lens = malloc(depth * sizeof(*lens));
	xrt_literal *out;

	ASSERT_NE(NULL, buf);
	ASSERT_NE(NULL, lens);
	/* Build inside out: each level is tag 0x1a, varint length, child. */
	lens[0] = 0;
	for (i = 1; i < depth; i++) {
		size_t l = lens[i - 1], hdr = 1;

		while (l >= 0x80) {
			l >>= 7;
			hdr++;
		}
		lens[i] = lens[i - 1] + 1 + hdr;
	}
	for (i = depth - 1; i > 0; i--) {
		size_t l = lens[i - 1];

		buf[n++] = 0x1a;
		while (l >= 0x80) {
			buf[n++] = (uint8_t)(l | 0x80);
			l >>= 7;
		}
		buf[n++] = (uint8_t)l;
	}
	ASSERT_ERR(xrt_literal_deserialize(self->a, buf, n, &out),
		   XRT_INVALID_ARGUMENT, "messages nest deeper than");
	free(buf);
	free(lens);
}

TEST_F(xrt, bad_shape_messages)
{
	static const uint8_t tuple_with_layout[] = { 0x08, 0x10, 0x1a, 0x00 };
	static const uint8_t unknown_type[] = { 0x08, 0x7f };
	struct xrt_shape s;

	ASSERT_ERR(xrt_shape_deserialize(&s, self->a, tuple_with_layout,
					 sizeof(tuple_with_layout)),
		   XRT_INVALID_ARGUMENT, "shape: tuple shape with 0 dimensions or a layout");
	ASSERT_ERR(xrt_shape_deserialize(&s, self->a, unknown_type,
					 sizeof(unknown_type)),
		   XRT_INVALID_ARGUMENT, "shape: unknown element_type 127");
	ASSERT_ERR(xrt_shape_deserialize(&s, self->a, "", 0),
		   XRT_INVALID_ARGUMENT, "shape: element_type missing");
	ASSERT_ERR(xrt_shape_deserialize(NULL, self->a, "", 0),
		   XRT_INVALID_ARGUMENT, "shape is NULL");
}

TEST_HARNESS_MAIN
