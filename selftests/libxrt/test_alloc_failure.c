// SPDX-License-Identifier: MIT
/*
 * Out-of-memory handling: each scenario runs once per allocation it
 * makes, with exactly that allocation failing.  Every run must end in a
 * clean RESOURCE_EXHAUSTED with nothing leaked; the run in which no
 * allocation fails must succeed.
 */
#include "xrt_test.h"

#include <xrt/wire.h>


static const char *const nested = "((f32[2,3], ()), s8[], ((u16[3]{0})), pred[2])";

static xrt_status *parse_and_copy(const struct xrt_allocator *a)
{
	struct xrt_shape s, c;
	xrt_status *st = xrt_shape_parse(&s, a, nested);

	if (st)
		return st;
	st = xrt_shape_copy(&c, a, &s);
	xrt_shape_deinit(&s);
	xrt_shape_deinit(&c);
	return st;
}

static xrt_status *make_literal(const struct xrt_allocator *a,
				xrt_literal **out)
{
	struct xrt_shape s;
	xrt_status *st = xrt_shape_parse(&s, a, nested);

	if (st)
		return st;
	st = xrt_literal_create(a, &s, out);
	xrt_shape_deinit(&s);
	return st;
}

static xrt_status *create_and_clone(const struct xrt_allocator *a)
{
	xrt_literal *lit, *copy = NULL;
	xrt_status *st = make_literal(a, &lit);

	if (st)
		return st;
	st = xrt_literal_clone(a, lit, &copy);
	xrt_literal_destroy(lit);
	xrt_literal_destroy(copy);
	return st;
}

static xrt_status *compose(const struct xrt_allocator *a)
{
	xrt_literal *parts[3] = { NULL, NULL, NULL }, *t = NULL;
	xrt_status *st = NULL;
	int i;

	for (i = 0; i < 3 && !st; i++)
		st = make_literal(a, &parts[i]);
	if (!st)
		st = xrt_literal_make_tuple(a, parts, 3, &t);
	if (st) {
		for (i = 0; i < 3; i++)
			xrt_literal_destroy(parts[i]);
		return st;
	}
	st = xrt_literal_decompose(t, parts, 3);
	for (i = 0; i < 3; i++)
		xrt_literal_destroy(parts[i]);
	return st;
}

static xrt_status *literal_wire(const struct xrt_allocator *a)
{
	xrt_literal *lit, *back = NULL;
	void *bytes = NULL;
	size_t n;
	xrt_status *st = make_literal(a, &lit);

	if (st)
		return st;
	st = xrt_literal_serialize(lit, a, &bytes, &n);
	if (!st)
		st = xrt_literal_deserialize(a, bytes, n, &back);
	xrt_free(a, bytes);
	xrt_literal_destroy(lit);
	xrt_literal_destroy(back);
	return st;
}

static xrt_status *shape_wire(const struct xrt_allocator *a)
{
	struct xrt_shape s, back;
	void *bytes = NULL;
	size_t n;
	xrt_status *st = xrt_shape_parse(&s, a, nested);

	if (st)
		return st;
	st = xrt_shape_serialize(&s, a, &bytes, &n);
	if (!st)
		st = xrt_shape_deserialize(&back, a, bytes, n);
	if (!st)
		xrt_shape_deinit(&back);
	xrt_free(a, bytes);
	xrt_shape_deinit(&s);
	return st;
}

TEST_F(xrt, shape_parse_and_copy)
{
	test_fail_sweep(_metadata, &self->ta, parse_and_copy, NULL);
}

TEST_F(xrt, literal_create_and_clone)
{
	test_fail_sweep(_metadata, &self->ta, create_and_clone, NULL);
}

TEST_F(xrt, literal_make_tuple_and_decompose)
{
	test_fail_sweep(_metadata, &self->ta, compose, NULL);
}

TEST_F(xrt, literal_serialize_and_deserialize)
{
	test_fail_sweep(_metadata, &self->ta, literal_wire, NULL);
}

TEST_F(xrt, shape_serialize_and_deserialize)
{
	test_fail_sweep(_metadata, &self->ta, shape_wire, NULL);
}

TEST_HARNESS_MAIN
