// SPDX-License-Identifier: MIT
/*
 * The XRT API's sessions and allocations: the seed's raw API scenarios
 * (ReadAndWriteState, ReadAndWriteStateAutoFree, SubBuffer, MakeTuple)
 * with its values, misuse, the memory limit, every allocation failing
 * in turn, and threads sharing a session.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/xrt.h>

/* An array literal of @t and @dims holding @data, or NULL (out of memory). */
static xrt_literal *array(const struct xrt_allocator *a, enum xrt_dtype t, uint32_t rank,
			  const int64_t *dims, const void *data)
{
	struct xrt_shape s;
	xrt_literal *l = NULL;
	xrt_status *st = xrt_shape_init_array(&s, t, rank, dims);

	if (!st)
		st = xrt_literal_create_from(a, &s, data, xrt_shape_byte_size(&s), &l);
	xrt_status_free(st);
	return l;
}

static xrt_literal *array_f32(const struct xrt_allocator *a, const float *v, int64_t n)
{
	return array(a, XRT_F32, 1, &n, v);
}

static xrt_literal *scalar_f32(const struct xrt_allocator *a, float v)
{
	return array(a, XRT_F32, 0, NULL, &v);
}

static xrt_literal *matrix_s32(const struct xrt_allocator *a)
{
	static const int32_t m[4] = { 4, 5, 6, 7 };
	static const int64_t d[2] = { 2, 2 };

	return array(a, XRT_S32, 2, d, m);
}

static xrt_literal *tuple_of(const struct xrt_allocator *a, xrt_literal *x, xrt_literal *y)
{
	xrt_literal *e[2] = { x, y }, *t = NULL;
	xrt_status *st = x && y ? xrt_literal_make_tuple(a, e, 2, &t) : NULL;

	if (!t) {
		xrt_status_free(st);
		xrt_literal_destroy(x);
		xrt_literal_destroy(y);
	}
	return t;
}

/* The seed's values: (f32[2] {1, 3}, s32[2,2] {{4, 5}, {6, 7}}). */
static xrt_literal *two_element_tuple(const struct xrt_allocator *a)
{
	static const float v[2] = { 1, 3 };

	return tuple_of(a, array_f32(a, v, 2), matrix_s32(a));
}

/* ((f32[2], s32[2,2]), f32[] 12) */
static xrt_literal *nested_tuple(const struct xrt_allocator *a)
{
	return tuple_of(a, two_element_tuple(a), scalar_f32(a, 12));
}

/* (12, (12, (f32[2], s32[2,2]))) */
static xrt_literal *make_tuple0(const struct xrt_allocator *a)
{
	return tuple_of(a, scalar_f32(a, 12), tuple_of(a, scalar_f32(a, 12),
						       two_element_tuple(a)));
}

/* Reads @h (releasing it) and compares it with @want, which is freed. */
#define EXPECT_HOLDS(s, h, release, want)                                     \
	do {                                                                  \
		xrt_literal *_w = (want), *_g = NULL;                         \
		char _why[256] = "";                                          \
		ASSERT_NE(NULL, _w);                                          \
		ASSERT_OK(xrt_read_literal((s), (h), (release), &_g));        \
		EXPECT_TRUE(xrt_literal_equal(_w, _g, _why, sizeof(_why)))    \
			TH_LOG("%s", _why);                                   \
		xrt_literal_destroy(_w);                                      \
		xrt_literal_destroy(_g);                                      \
	} while (0)

static xrt_session *open_session(struct __test_metadata *_metadata,
				 const struct xrt_allocator *a)
{
	xrt_session *s = NULL;

	ASSERT_OK(xrt_session_create(NULL, a, &s));
	return s;
}

TEST_F(xrt, read_and_write_state)
{
	xrt_session *s = open_session(_metadata, self->a);
	xrt_literal *v = two_element_tuple(self->a), *got = NULL;
	xrt_handle h;

	ASSERT_OK(xrt_allocate(s, v, &h));
	xrt_literal_destroy(v);
	EXPECT_HOLDS(s, h, false, two_element_tuple(self->a));
	EXPECT_EQ(24u, xrt_session_memory_in_use(s));
	ASSERT_OK(xrt_release_allocations(s, &h, 1));
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	ASSERT_ERR(xrt_read_literal(s, h, false, &got), XRT_NOT_FOUND, "no allocation");
	EXPECT_EQ(NULL, got);
	xrt_session_destroy(s);
}

TEST_F(xrt, read_and_write_state_auto_free)
{
	xrt_session *s = open_session(_metadata, self->a);
	xrt_literal *v = two_element_tuple(self->a), *got = NULL;
	xrt_handle h;

	ASSERT_OK(xrt_allocate(s, v, &h));
	xrt_literal_destroy(v);
	EXPECT_HOLDS(s, h, true, two_element_tuple(self->a));
	ASSERT_ERR(xrt_read_literal(s, h, true, &got), XRT_NOT_FOUND, "no allocation");
	ASSERT_ERR(xrt_release_allocations(s, &h, 1), XRT_NOT_FOUND, "no allocation");
	xrt_session_destroy(s);
}

TEST_F(xrt, sub_buffer)
{
	static const int64_t i0[] = { 0 }, i1[] = { 1 }, i00[] = { 0, 0 };
	static const float v[2] = { 1, 3 };
	xrt_session *s = open_session(_metadata, self->a);
	xrt_literal *n = nested_tuple(self->a), *got = NULL;
	xrt_handle base, s0, s1, s00;

	ASSERT_OK(xrt_allocate(s, n, &base));
	xrt_literal_destroy(n);
	ASSERT_OK(xrt_sub_tuple(s, base, i0, 1, false, &s0));
	ASSERT_OK(xrt_sub_tuple(s, base, i1, 1, false, &s1));
	ASSERT_OK(xrt_sub_tuple(s, base, i00, 2, true, &s00));
	/* the base moved out: gone; its parts live on in the sub-tuples */
	ASSERT_ERR(xrt_read_literal(s, base, false, &got), XRT_NOT_FOUND, "no allocation");
	EXPECT_HOLDS(s, s0, true, two_element_tuple(self->a));
	EXPECT_HOLDS(s, s1, true, scalar_f32(self->a, 12));
	EXPECT_HOLDS(s, s00, true, array_f32(self->a, v, 2));
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_session_destroy(s);
}

static const struct xrt_tuple_node leaf0 = { 0, false, NULL, 0 };

TEST_F(xrt, make_tuple_as_the_seed_does)
{
	/* the seed's three descriptions */
	static const struct xrt_tuple_node desc0 = { 0, true, NULL, 0 };
	static const struct xrt_tuple_node sub11[] = { { 0, false, NULL, 0 },
						       { 1, false, NULL, 0 } };
	static const struct xrt_tuple_node sub1[] = { { 0, false, NULL, 0 },
						      { 0, false, sub11, 2 } };
	static const struct xrt_tuple_node desc1 = { 0, false, sub1, 2 };
	static const struct xrt_tuple_node sub2[] = { { 1, true, NULL, 0 },
						      { 0, true, NULL, 0 } };
	static const struct xrt_tuple_node desc2 = { 0, false, sub2, 2 };
	xrt_session *s = open_session(_metadata, self->a);
	xrt_literal *t = two_element_tuple(self->a), *c = scalar_f32(self->a, 12), *got = NULL;
	xrt_handle h0, h1, h2, h3, h4, in[2];

	ASSERT_OK(xrt_allocate(s, t, &h0));
	ASSERT_OK(xrt_allocate(s, c, &h1));
	xrt_literal_destroy(t);
	xrt_literal_destroy(c);
	ASSERT_OK(xrt_make_tuple(s, &desc0, &h0, 1, &h2));	/* forwards h0, releases it */
	ASSERT_ERR(xrt_read_literal(s, h0, false, &got), XRT_NOT_FOUND, "no allocation");
	in[0] = h1;
	in[1] = h2;
	ASSERT_OK(xrt_make_tuple(s, &desc1, in, 2, &h3));
	ASSERT_OK(xrt_make_tuple(s, &desc2, in, 2, &h4));
	ASSERT_ERR(xrt_read_literal(s, h1, false, &got), XRT_NOT_FOUND, "no allocation");
	ASSERT_ERR(xrt_read_literal(s, h2, false, &got), XRT_NOT_FOUND, "no allocation");
	EXPECT_HOLDS(s, h3, true, make_tuple0(self->a));
	EXPECT_HOLDS(s, h4, true, nested_tuple(self->a));
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_session_destroy(s);
}

TEST_F(xrt, shared_buffers_see_writes_and_outlive_releases)
{
	static const int64_t i0[] = { 0 };
	static const float v[2] = { 1, 3 }, w[2] = { -5, 8 };
	xrt_session *s = open_session(_metadata, self->a);
	xrt_literal *t = two_element_tuple(self->a), *nw = array_f32(self->a, w, 2);
	static const struct xrt_tuple_node pair[] = { { 0, false, NULL, 0 },
						      { 0, false, NULL, 0 } };
	static const struct xrt_tuple_node twice = { 0, false, pair, 2 };
	xrt_handle base, part, dup;

	ASSERT_OK(xrt_allocate(s, t, &base));
	ASSERT_OK(xrt_sub_tuple(s, base, i0, 1, false, &part));
	/* an input used twice, never released: both places share it */
	ASSERT_OK(xrt_make_tuple(s, &twice, &part, 1, &dup));
	ASSERT_OK(xrt_release_allocations(s, &base, 1));
	EXPECT_HOLDS(s, part, false, array_f32(self->a, v, 2));
	ASSERT_OK(xrt_write_literal(s, part, nw));
	EXPECT_HOLDS(s, dup, false,
		     tuple_of(self->a, array_f32(self->a, w, 2), array_f32(self->a, w, 2)));
	ASSERT_OK(xrt_release_allocations(s, &part, 1));
	EXPECT_HOLDS(s, dup, true,
		     tuple_of(self->a, array_f32(self->a, w, 2), array_f32(self->a, w, 2)));
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_literal_destroy(t);
	xrt_literal_destroy(nw);
	xrt_session_destroy(s);
}

TEST_F(xrt, misuse_gets_clear_errors_and_changes_nothing)
{
	static const int64_t i0[] = { 0 }, i5[] = { 5 }, i00[] = { 0, 0, 0 };
	static const struct xrt_tuple_node out_of_range[] = { { 2, false, NULL, 0 } };
	static const struct xrt_tuple_node bad_index = { 0, false, out_of_range, 1 };
	static const struct xrt_tuple_node rep[] = { { 0, true, NULL, 0 },
						     { 0, false, NULL, 0 } };
	static const struct xrt_tuple_node repeated_released = { 0, false, rep, 2 };
	static const struct xrt_tuple_node no_children = { 0, false, NULL, 3 };
	static const struct xrt_tuple_node empty = { 0, false, rep, 0 };
	xrt_session *s = open_session(_metadata, self->a);
	xrt_literal *t = two_element_tuple(self->a), *c = scalar_f32(self->a, 1), *got = NULL;
	struct xrt_shape shape;
	xrt_handle h, h2, out = 77, in[2];
	float buf[3];

	ASSERT_OK(xrt_allocate(s, t, &h));
	ASSERT_OK(xrt_allocate(s, c, &h2));
	in[0] = h;
	in[1] = h2;
	ASSERT_ERR(xrt_make_tuple(s, &bad_index, in, 2, &out), XRT_INVALID_ARGUMENT,
		   "input index 2 with 2 inputs");
	ASSERT_ERR(xrt_make_tuple(s, &repeated_released, in, 2, &out), XRT_INVALID_ARGUMENT,
		   "input 0 is used 2 times and released");
	ASSERT_ERR(xrt_make_tuple(s, &no_children, in, 2, &out), XRT_INVALID_ARGUMENT,
		   "3 children and no array");
	ASSERT_ERR(xrt_make_tuple(s, &empty, in, 2, &out), XRT_INVALID_ARGUMENT,
		   "an empty tuple in the description");
	ASSERT_ERR(xrt_make_tuple(s, &leaf0, in, 0, &out), XRT_INVALID_ARGUMENT,
		   "input index 0 with 0 inputs");
	ASSERT_ERR(xrt_make_tuple(s, NULL, in, 2, &out), XRT_INVALID_ARGUMENT,
		   "the description is NULL");
	ASSERT_ERR(xrt_sub_tuple(s, h, i5, 1, false, &out), XRT_INVALID_ARGUMENT,
		   "index 0 (5) of allocation 1: out of range");
	ASSERT_ERR(xrt_sub_tuple(s, h, i00, 3, false, &out), XRT_INVALID_ARGUMENT,
		   "index 1 (0) of allocation 1: an array has no elements");
	ASSERT_ERR(xrt_sub_tuple(s, h, i0, 0, false, &out), XRT_INVALID_ARGUMENT,
		   "an empty index");
	ASSERT_ERR(xrt_write_literal(s, h, c), XRT_INVALID_ARGUMENT,
		   "a f32[] literal into allocation 1 of (f32[2]");
	ASSERT_ERR(xrt_read_data(s, h, true, buf, sizeof(buf)), XRT_INVALID_ARGUMENT, "is a tuple");
	ASSERT_ERR(xrt_read_data(s, h2, true, buf, sizeof(buf)), XRT_INVALID_ARGUMENT,
		   "room for 12 bytes, allocation 2 has 4");
	ASSERT_OK(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 3 }));
	ASSERT_ERR(xrt_allocate_data(s, &shape, buf, 8, &out), XRT_INVALID_ARGUMENT,
		   "8 bytes for a shape of 12");
	ASSERT_ERR(xrt_read_literal(s, 0, false, &got), XRT_NOT_FOUND, "no allocation 0");
	ASSERT_ERR(xrt_read_literal(s, -1, false, &got), XRT_NOT_FOUND, "no allocation -1");
	ASSERT_ERR(xrt_read_literal(s, 99, false, &got), XRT_NOT_FOUND, "no allocation 99");
	EXPECT_EQ(77, out);
	/* nothing above changed or released anything */
	EXPECT_HOLDS(s, h, false, two_element_tuple(self->a));
	EXPECT_HOLDS(s, h2, false, scalar_f32(self->a, 1));
	/* releases: every known one goes, the first unknown one is named */
	in[1] = 12345;
	ASSERT_ERR(xrt_release_allocations(s, in, 2), XRT_NOT_FOUND, "no allocation 12345");
	ASSERT_ERR(xrt_release_allocations(s, &h, 1), XRT_NOT_FOUND, "no allocation 1 ");
	ASSERT_OK(xrt_release_allocations(s, &h2, 1));
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_literal_destroy(t);
	xrt_literal_destroy(c);
	xrt_session_destroy(s);
}

TEST_F(xrt, handles_are_per_session_and_devices_by_name)
{
	struct xrt_session_options o = { "tpu:3", 0, false };
	xrt_session *a = NULL, *b = open_session(_metadata, self->a);
	xrt_literal *c = scalar_f32(self->a, 2), *got = NULL;
	xrt_handle h;

	ASSERT_ERR(xrt_session_create(&o, self->a, &a), XRT_NOT_FOUND,
		   "no device 'tpu:3' (devices here: host:0");
	EXPECT_EQ(NULL, a);
	o.device = "99";
	ASSERT_ERR(xrt_session_create(&o, self->a, &a), XRT_NOT_FOUND, "no device '99'");
	o.device = "0";
	ASSERT_OK(xrt_session_create(&o, self->a, &a));
	EXPECT_STREQ("host:0", xrt_session_device(a));
	xrt_session_destroy(a);
	o.device = "host";
	ASSERT_OK(xrt_session_create(&o, self->a, &a));
	EXPECT_STREQ("host:0", xrt_session_device(a));
	ASSERT_OK(xrt_allocate(a, c, &h));
	ASSERT_ERR(xrt_read_literal(b, h, false, &got), XRT_NOT_FOUND, "in this session");
	xrt_literal_destroy(c);
	xrt_session_destroy(a);	/* releases h */
	xrt_session_destroy(b);
}

/*
 * staged:0 keeps its buffers where the host reaches them only through
 * the device's read and write, as a GPU does: trees cross between it and
 * host:0 both ways, and layouts other than the program's are relaid.
 */
TEST_F(xrt, transfers_cross_between_mapped_and_unmapped_devices)
{
	struct xrt_session_options ho = { "host:0", 0, false }, so = { "staged:0", 0, false };
	const char *text = "HloModule t\nENTRY %m (x: f32[2,3]) -> f32[2,3] {\n"
			   "  %x = f32[2,3] parameter(0)\n  ROOT %n = f32[2,3] negate(%x)\n}\n";
	xrt_session *h = NULL, *g = NULL;
	xrt_literal *v = nested_tuple(self->a), *col = NULL, *got = NULL;
	xrt_handle a, b, back, c, x, r;
	struct xrt_shape sh;
	float *f;
	int i;

	ASSERT_OK(xrt_session_create(&ho, self->a, &h));
	ASSERT_OK(xrt_session_create(&so, self->a, &g));
	EXPECT_STREQ("staged:0", xrt_session_device(g));
	ASSERT_OK(xrt_allocate(h, v, &a));
	ASSERT_OK(xrt_transfer(h, a, g, &b));
	EXPECT_HOLDS(g, b, false, nested_tuple(self->a));
	ASSERT_OK(xrt_transfer(g, b, h, &back));
	EXPECT_HOLDS(h, back, true, nested_tuple(self->a));
	/* a column-major argument is relaid through host memory */
	ASSERT_OK(xrt_shape_parse(&sh, self->a, "f32[2,3]{0,1}"));
	ASSERT_OK(xrt_literal_create(self->a, &sh, &col));
	f = xrt_literal_mutable_data(col);
	for (i = 0; i < 6; i++)
		f[i] = (float)i;	/* column-major: x[r][c] = c * 2 + r */
	ASSERT_OK(xrt_compile_hlo(g, text, strlen(text), &c));
	ASSERT_OK(xrt_allocate(g, col, &x));
	ASSERT_OK(xrt_execute(g, c, &x, 1, NULL, &r));
	ASSERT_OK(xrt_read_literal(g, r, true, &got));
	f = xrt_literal_mutable_data(got);
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(-(float)((i % 3) * 2 + i / 3), f[i]) TH_LOG("element %d", i);
	}
	xrt_literal_destroy(got);
	xrt_literal_destroy(col);
	xrt_literal_destroy(v);
	xrt_shape_deinit(&sh);
	xrt_session_destroy(h);
	xrt_session_destroy(g);
}

TEST_F(xrt, transfers_copy_trees_between_sessions)
{
	xrt_session *a = open_session(_metadata, self->a), *b = NULL;
	struct xrt_session_options tiny = { NULL, 16, false };
	xrt_literal *v = nested_tuple(self->a);
	xrt_handle h, copy, other;

	ASSERT_OK(xrt_session_create(&tiny, self->a, &b));
	ASSERT_OK(xrt_allocate(a, v, &h));
	/* b's limit (16 bytes) is less than the tuple: nothing is left behind */
	ASSERT_ERR(xrt_transfer(a, h, b, &copy), XRT_RESOURCE_EXHAUSTED, "limit of 16");
	EXPECT_EQ(0u, xrt_session_memory_in_use(b));
	xrt_session_destroy(b);
	b = open_session(_metadata, self->a);
	ASSERT_OK(xrt_transfer(a, h, b, &copy));
	EXPECT_EQ(xrt_session_memory_in_use(a), xrt_session_memory_in_use(b));
	/* a copy: writing one leaves the other */
	ASSERT_OK(xrt_write_literal(a, h, v));
	xrt_literal_destroy(v);
	EXPECT_HOLDS(b, copy, true, nested_tuple(self->a));
	EXPECT_HOLDS(a, h, false, nested_tuple(self->a));
	/* and back, into the same session too */
	ASSERT_OK(xrt_transfer(a, h, a, &other));
	EXPECT_NE(h, other);
	EXPECT_HOLDS(a, other, true, nested_tuple(self->a));
	ASSERT_ERR(xrt_transfer(b, h, a, &other), XRT_NOT_FOUND, "no allocation");
	ASSERT_ERR(xrt_transfer(a, h, NULL, &other), XRT_INVALID_ARGUMENT,
		   "the destination session is NULL");
	ASSERT_ERR(xrt_transfer(NULL, h, a, &other), XRT_INVALID_ARGUMENT,
		   "the source session is NULL");
	xrt_session_destroy(a);
	xrt_session_destroy(b);
}

TEST_F(xrt, memory_limit_is_enforced_and_recovers)
{
	struct xrt_session_options o = { NULL, 100, false };
	xrt_session *s = NULL;
	struct xrt_shape shape;
	xrt_handle h1, h2, h3;

	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	ASSERT_OK(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 16 }));
	ASSERT_OK(xrt_allocate_uninitialized(s, &shape, &h1));
	ASSERT_ERR(xrt_allocate_uninitialized(s, &shape, &h2), XRT_RESOURCE_EXHAUSTED,
		   "64 more bytes would pass the session's limit of 100 (64 in use)");
	EXPECT_EQ(64u, xrt_session_memory_in_use(s));
	ASSERT_OK(xrt_release_allocations(s, &h1, 1));
	ASSERT_OK(xrt_allocate_uninitialized(s, &shape, &h3));
	EXPECT_EQ(64u, xrt_session_memory_in_use(s));
	xrt_release_all_allocations(s);
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_session_destroy(s);
}

/* The seed scenarios in a row; any error ends the run (returned). */
static xrt_status *scenarios(const struct xrt_allocator *a)
{
	static const int64_t i00[] = { 0, 0 };
	static const struct xrt_tuple_node sub[] = { { 1, true, NULL, 0 }, { 0, true, NULL, 0 } };
	static const struct xrt_tuple_node desc = { 0, false, sub, 2 };
	xrt_literal *n = nested_tuple(a), *c = scalar_f32(a, 12), *got = NULL;
	xrt_session *s = NULL;
	xrt_handle h = 0, h1, p = 0, in[2];
	xrt_status *st = n && c ? xrt_session_create(NULL, a, &s) :
				  xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "test literals");

	if (!st)
		st = xrt_allocate(s, n, &h);
	if (!st)
		st = xrt_allocate(s, c, &h1);
	if (!st)
		st = xrt_sub_tuple(s, h, i00, 2, false, &p);
	in[0] = h;
	in[1] = p;
	if (!st)
		st = xrt_make_tuple(s, &desc, in, 2, &h);
	if (!st)
		st = xrt_read_literal(s, h, true, &got);
	xrt_literal_destroy(got);
	xrt_literal_destroy(n);
	xrt_literal_destroy(c);
	xrt_session_destroy(s);
	return st;
}

TEST_F(xrt, every_allocation_failing_in_turn_fails_cleanly)
{
	long runs = 0;

	test_fail_sweep(_metadata, &self->ta, scenarios, &runs);
	EXPECT_GT(runs, 20);
}

struct worker {
	xrt_session *s;
	unsigned seed;
	int errors;		/* anything but what racing on handles explains */
};

/* Handles every thread picks from: others may release them at any time. */
static _Atomic xrt_handle shared[256];
static atomic_uint shared_next;

static uint32_t next_rand(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void publish(xrt_handle h)
{
	atomic_store(&shared[atomic_fetch_add(&shared_next, 1) % 256], h);
}

/* One random operation on a random shared handle (possibly released). */
static void one_op(struct worker *w)
{
	static const int64_t i0[] = { 0 };
	xrt_handle h = atomic_load(&shared[next_rand(&w->seed) % 256]), out;
	struct xrt_tuple_node leafs[2] = { { 0, false, NULL, 0 }, { 0, false, NULL, 0 } };
	struct xrt_tuple_node desc = { 0, false, leafs, 2 };
	float v = (float)(next_rand(&w->seed) % 1000);
	uint32_t op;
	xrt_literal *l = NULL;
	xrt_status *st = NULL;

	switch ((op = next_rand(&w->seed) % 6)) {
	case 0:
	case 1:
		l = tuple_of(NULL, scalar_f32(NULL, v), scalar_f32(NULL, -v));
		st = l ? xrt_allocate(w->s, l, &out) : NULL;
		if (!st && l)
			publish(out);
		break;
	case 2:
		st = xrt_read_literal(w->s, h, next_rand(&w->seed) % 4 == 0, &l);
		break;
	case 3:
		st = xrt_sub_tuple(w->s, h, i0, 1, next_rand(&w->seed) & 1, &out);
		if (!st)
			publish(out);
		break;
	case 4:
		st = xrt_make_tuple(w->s, &desc, &h, 1, &out);
		if (!st)
			publish(out);
		break;
	default:
		st = xrt_release_allocations(w->s, &h, 1);
	}
	xrt_literal_destroy(l);
	/* a handle another thread released; element 0 of an array (sub-tuple only) */
	if (st && xrt_status_code(st) != XRT_NOT_FOUND &&
	    !(op == 3 && xrt_status_code(st) == XRT_INVALID_ARGUMENT))
		w->errors++;
	xrt_status_free(st);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int i;

	for (i = 0; i < 1000; i++)
		one_op(w);
	return NULL;
}

/* 8 threads x 1000 random operations on one session (system allocator). */
TEST_F(xrt, threads_share_a_session)
{
	struct worker w[8];
	pthread_t t[8];
	xrt_session *s = NULL;
	int i;

	ASSERT_OK(xrt_session_create(NULL, NULL, &s));
	for (i = 0; i < 8; i++) {
		w[i] = (struct worker){ s, (unsigned)i * 7919u + 1, 0 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, work, &w[i]));
	}
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].errors) TH_LOG("thread %d", i);
	}
	xrt_release_all_allocations(s);
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_session_destroy(s);
}

TEST_HARNESS_MAIN
