// SPDX-License-Identifier: MIT
/*
 * The original XRT's messages, as its clients send them, read by the wire
 * entry points.  The bytes are written here by hand from the published
 * field numbers (XLAComputation, XLAComputationConfig, XLAAllocation,
 * XLATupleNode, XRTExecutionConfig, and XLA's ShapeProto,
 * ProgramShapeProto, LiteralProto, HloSnapshot), not through our schema,
 * so a field numbered wrongly in proto/xrt.proto shows here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xrt_test.h"
#include "test_cases.h"

#include <xrt/ir.h>
#include <xrt/xrt.h>

/* A message being written: fields appended in any order. */
struct msg {
	uint8_t b[8192];
	size_t n;
};

static void varint(struct msg *m, uint64_t v)
{
	if (m->n + 10 > sizeof(m->b))
		abort();	/* the test's messages are small */
	do {
		m->b[m->n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void put_int(struct msg *m, uint32_t field, uint64_t v)
{
	varint(m, field << 3);
	varint(m, v);
}

static void put_bytes(struct msg *m, uint32_t field, const void *p, size_t n)
{
	varint(m, field << 3 | 2);
	varint(m, n);
	if (m->n + n > sizeof(m->b))
		abort();
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void put_msg(struct msg *m, uint32_t field, const struct msg *sub)
{
	put_bytes(m, field, sub->b, sub->n);
}

/* XLA's PrimitiveType numbers (xla_data.proto). */
static int xla_type(enum xrt_dtype t)
{
	switch (t) {
	case XRT_PRED: return 1;
	case XRT_S32: return 4;
	case XRT_F32: return 11;
	case XRT_F64: return 12;
	case XRT_TUPLE: return 13;
	default: return -1;
	}
}

/* An xla.ShapeProto of @s: element_type 2, dimensions 3, tuple_shapes 4, layout 5. */
static void shape_proto(struct msg *m, const struct xrt_shape *s)
{
	struct msg dims = { .n = 0 }, layout = { .n = 0 }, m2m = { .n = 0 };
	uint32_t i;

	m->n = 0;
	put_int(m, 2, (uint64_t)xla_type(s->dtype));
	if (s->dtype == XRT_TUPLE) {
		for (i = 0; i < s->tuple_count; i++) {
			struct msg e;

			shape_proto(&e, &s->tuple[i]);
			put_msg(m, 4, &e);
		}
		return;
	}
	for (i = 0; i < s->rank; i++) {
		varint(&dims, (uint64_t)s->dims[i]);
		varint(&m2m, s->minor_to_major[i]);
	}
	if (s->rank) {
		put_msg(m, 3, &dims);	/* packed */
		put_msg(&layout, 1, &m2m);
		put_msg(m, 5, &layout);
	}
}

/* An xla.ProgramShapeProto: parameters 1, result 2. */
static void program_shape_proto(struct msg *m, const struct xrt_program_shape *ps)
{
	struct msg e;
	uint32_t i;

	m->n = 0;
	for (i = 0; i < ps->num_params; i++) {
		shape_proto(&e, &ps->params[i]);
		put_msg(m, 1, &e);
	}
	shape_proto(&e, &ps->result);
	put_msg(m, 2, &e);
}

/* The session and messages of a test. */
struct wire {
	const struct xrt_allocator *a;
	xrt_session *s;
	struct msg m, cfg, sub;
};

FIXTURE(wire) {
	struct test_alloc ta;
	struct wire *w;
};

FIXTURE_SETUP(wire)
{
	test_alloc_init(&self->ta);
	self->w = calloc(1, sizeof(*self->w));
	ASSERT_NE(NULL, self->w);
	self->w->a = &self->ta.base;
	ASSERT_OK(xrt_session_create(NULL, self->w->a, &self->w->s));
}

FIXTURE_TEARDOWN(wire)
{
	xrt_session_destroy(self->w->s);
	free(self->w);
	EXPECT_EQ(0, self->ta.live) TH_LOG("allocations leaked");
	EXPECT_TRUE(test_no_leaks()) TH_LOG("LeakSanitizer found leaks");
}

static char *slurp_xla(const char *name, size_t *n)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", XLA_DIR, name);
	return test_slurp(path, n);
}

/*
 * An XLAComputation (config 1, hlo_snapshot 2) of JAX's module compiles
 * to what its text compiles to; the config's program shape (4) is checked.
 */
TEST_F(wire, an_xla_computation_compiles_and_its_program_shape_is_checked)
{
	struct msg snap = { .n = 0 }, ps = { .n = 0 };
	struct xrt_program_shape want;
	xrt_literal *a, *b;
	size_t tn, pn;
	char *text = slurp_xla("mlp_grad.before.hlo", &tn);
	char *pb = slurp_xla("mlp_grad.before.pb", &pn);
	xrt_handle c, d;
	char why[256];

	ASSERT_TRUE(text && pb);
	ASSERT_OK(xrt_compile_hlo(self->w->s, text, tn, &c));
	ASSERT_OK(xrt_compilation_shape(self->w->s, c, self->w->a, &want));
	put_bytes(&snap, 1, pb, pn);	/* HloSnapshot.hlo: XLA's dump is an HloProto */
	/* no config: compiles, and runs as the text does */
	put_msg(&self->w->m, 2, &snap);
	ASSERT_OK(xrt_compile_proto(self->w->s, self->w->m.b, self->w->m.n, &d));
	a = test_run_random(self->w->s, c, self->w->a);
	b = test_run_random(self->w->s, d, self->w->a);
	ASSERT_TRUE(a && b);
	EXPECT_TRUE(xrt_literal_equal(a, b, why, sizeof(why))) TH_LOG("%s", why);
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
	ASSERT_OK(xrt_release_compilations(self->w->s, &d, 1));
	/* the right program shape, one replica of one core, debug options skipped */
	program_shape_proto(&ps, &want);
	put_int(&self->w->cfg, 1, 1);
	put_int(&self->w->cfg, 2, 1);
	put_msg(&self->w->cfg, 4, &ps);
	put_bytes(&self->w->cfg, 7, "\x08\x01", 2);
	self->w->m.n = 0;
	put_msg(&self->w->m, 1, &self->w->cfg);
	put_msg(&self->w->m, 2, &snap);
	ASSERT_OK(xrt_compile_proto(self->w->s, self->w->m.b, self->w->m.n, &d));
	ASSERT_OK(xrt_release_compilations(self->w->s, &d, 1));
	/* a result of another shape is named */
	want.result.dims[0]++;
	program_shape_proto(&ps, &want);
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 4, &ps);
	self->w->m.n = 0;
	put_msg(&self->w->m, 1, &self->w->cfg);
	put_msg(&self->w->m, 2, &snap);
	ASSERT_ERR(xrt_compile_proto(self->w->s, self->w->m.b, self->w->m.n, &d), XRT_INVALID_ARGUMENT,
		   "compile: the config's program shape differs from the computation's at "
		   "the result");
	/* as is one parameter too few, also as core 0's shape (5) */
	want.result.dims[0]--;
	want.num_params--;
	program_shape_proto(&ps, &want);
	want.num_params++;
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 5, &ps);
	self->w->m.n = 0;
	put_msg(&self->w->m, 1, &self->w->cfg);
	put_msg(&self->w->m, 2, &snap);
	ASSERT_ERR(xrt_compile_proto(self->w->s, self->w->m.b, self->w->m.n, &d), XRT_INVALID_ARGUMENT,
		   "the config's program shape of core 0 has");
	/* a snapshot without a module */
	self->w->m.n = 0;
	put_bytes(&self->w->m, 2, "", 0);
	ASSERT_ERR(xrt_compile_proto(self->w->s, self->w->m.b, self->w->m.n, &d), XRT_INVALID_ARGUMENT,
		   "compile: hlo_snapshot holds no module");
	xrt_program_shape_deinit(&want);
	ASSERT_OK(xrt_release_compilations(self->w->s, &c, 1));
	free(text);
	free(pb);
}

static const char add_and_pair[] =
	"HloModule AddAndPair\nENTRY e {\n  p0 = f32[2] parameter(0)\n  p1 = f32[2] parameter(1)\n"
	"  sum = f32[2] add(p0, p1)\n  ROOT r = (f32[2], f32[2]) tuple(sum, p1)\n}\n";

/* Compiles add_and_pair as an XLAComputation with @cfg, expecting @code. */
static xrt_status *compile_with(struct msg *m, xrt_session *s, const struct msg *cfg,
				xrt_handle *out)
{
	m->n = 0;
	put_msg(m, 1, cfg);
	put_bytes(m, 3, add_and_pair, strlen(add_and_pair));
	return xrt_compile_proto(s, m->b, m->n, out);
}

/*
 * The config's replicas and cores become the module's (SPMD); what it
 * asks that cannot be given is refused by name; hints are skipped.
 */
TEST_F(wire, a_computation_config_is_read_field_by_field)
{
	struct msg da = { .n = 0 }, dev = { .n = 0 }, coord = { .n = 0 }, ps = { .n = 0 };
	static const char two[] = "HloModule two, replica_count=2\nENTRY e {\n"
				  "  ROOT p = f32[2] parameter(0)\n}\n";
	xrt_handle c;

	put_int(&self->w->cfg, 2, 2);	/* 2 cores: one program with partition-id on each */
	ASSERT_OK(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c));
	ASSERT_OK(xrt_release_compilations(self->w->s, &c, 1));
	self->w->cfg.n = 0;
	put_int(&self->w->cfg, 1, 4);	/* 4 replicas of a module that states 2 */
	self->w->m.n = 0;
	put_msg(&self->w->m, 1, &self->w->cfg);
	put_bytes(&self->w->m, 3, two, strlen(two));
	ASSERT_ERR(xrt_compile_proto(self->w->s, self->w->m.b, self->w->m.n, &c),
		   XRT_INVALID_ARGUMENT, "compile: the config's num_replicas is 4, the module "
		   "states replica_count=2");
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 5, &ps);	/* two per-core program shapes: MPMD */
	put_msg(&self->w->cfg, 5, &ps);
	ASSERT_ERR(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c), XRT_UNIMPLEMENTED,
		   "per-core programs (MPMD) are not supported");
	self->w->cfg.n = 0;
	put_int(&self->w->cfg, 1, (uint64_t)-3);
	ASSERT_ERR(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c), XRT_INVALID_ARGUMENT,
		   "compile: -3 replicas");
	/* HostComputeMetadata with a device_to_host entry */
	self->w->cfg.n = 0;
	put_bytes(&self->w->cfg, 3, "\x0a\x00", 2);
	ASSERT_ERR(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c), XRT_UNIMPLEMENTED,
		   "host compute is not supported");
	/* a device assignment of one core on one device is what there is */
	put_int(&coord, 1, 0);
	put_msg(&dev, 1, &coord);
	put_msg(&da, 1, &dev);
	self->w->cfg.n = 0;
	put_bytes(&self->w->cfg, 3, "", 0);	/* empty metadata: nothing asked */
	put_msg(&self->w->cfg, 6, &da);
	put_bytes(&self->w->cfg, 8, "\x0a\x04\x08\x00\x10\x01", 6);	/* stateful input 0 */
	ASSERT_OK(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c));
	ASSERT_OK(xrt_release_compilations(self->w->s, &c, 1));
	put_msg(&da, 1, &dev);
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 6, &da);
	ASSERT_ERR(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c), XRT_INVALID_ARGUMENT,
		   "the device assignment places 2 cores, the computation has 1");
	da.n = 0;
	put_msg(&dev, 1, &coord);
	put_msg(&da, 1, &dev);
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 6, &da);
	ASSERT_ERR(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c), XRT_INVALID_ARGUMENT,
		   "the device assignment places 2 replicas of core 0, the computation has 1");
}

/* An XLAAllocation's value (2) is an xla.LiteralProto: shape 1, f32s 8, s32s 4. */
TEST_F(wire, an_xla_allocation_places_its_literal_proto)
{
	static const float fv[3] = { 1.5f, -2, 0.25f };
	struct xrt_shape shape;
	struct msg lit = { .n = 0 }, vals = { .n = 0 };
	float back[3];
	xrt_handle h;

	ASSERT_OK(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 3 }));
	shape_proto(&self->w->sub, &shape);
	put_msg(&lit, 1, &self->w->sub);
	put_bytes(&lit, 8, fv, sizeof(fv));	/* packed floats, little-endian */
	put_msg(&self->w->m, 2, &lit);
	ASSERT_OK(xrt_allocate_proto(self->w->s, self->w->m.b, self->w->m.n, &h));
	ASSERT_OK(xrt_read_data(self->w->s, h, true, back, sizeof(back)));
	EXPECT_EQ(0, memcmp(fv, back, sizeof(fv))) TH_LOG("f32s read back differ");
	/* s32s, negative values as ten-byte varints */
	{
		int32_t iv[3] = { -7, 0, 1 << 30 }, ib[3];
		int k;

		shape.dtype = XRT_S32;
		shape_proto(&self->w->sub, &shape);
		for (k = 0; k < 3; k++)
			varint(&vals, (uint64_t)(int64_t)iv[k]);
		lit.n = 0;
		put_msg(&lit, 1, &self->w->sub);
		put_msg(&lit, 4, &vals);
		self->w->m.n = 0;
		put_int(&self->w->m, 1, 0);
		put_msg(&self->w->m, 2, &lit);
		ASSERT_OK(xrt_allocate_proto(self->w->s, self->w->m.b, self->w->m.n, &h));
		ASSERT_OK(xrt_read_data(self->w->s, h, true, ib, sizeof(ib)));
		EXPECT_EQ(0, memcmp(iv, ib, sizeof(iv)));
	}
	/* values that do not fill the shape, a missing value, another device */
	lit.n = 0;
	put_msg(&lit, 1, &self->w->sub);
	put_bytes(&lit, 4, "\x01\x02", 2);
	self->w->m.n = 0;
	put_msg(&self->w->m, 2, &lit);
	ASSERT_ERR(xrt_allocate_proto(self->w->s, self->w->m.b, self->w->m.n, &h), XRT_INVALID_ARGUMENT,
		   "allocate: value: xla.LiteralProto: 2 values for 3 elements");
	self->w->m.n = 0;
	put_int(&self->w->m, 1, 0);
	ASSERT_ERR(xrt_allocate_proto(self->w->s, self->w->m.b, self->w->m.n, &h), XRT_INVALID_ARGUMENT,
		   "has no value");
	self->w->m.n = 0;
	put_int(&self->w->m, 1, 2);
	put_msg(&self->w->m, 2, &lit);
	ASSERT_ERR(xrt_allocate_proto(self->w->s, self->w->m.b, self->w->m.n, &h), XRT_INVALID_ARGUMENT,
		   "device ordinal 2");
	xrt_shape_deinit(&shape);
}

/* A varint of @b at *@k (advanced); UINT64_MAX past the end. */
static uint64_t get_varint(const uint8_t *b, size_t n, size_t *k)
{
	uint64_t v = 0;
	int sh = 0;

	while (*k < n && sh < 64) {
		uint8_t c = b[(*k)++];

		v |= (uint64_t)(c & 0x7f) << sh;
		if (!(c & 0x80))
			return v;
		sh += 7;
	}
	return UINT64_MAX;
}

/* The payload of length-delimited top-level field @field of message @b, or NULL. */
static const uint8_t *field_of(const uint8_t *b, size_t n, uint32_t field, size_t *len)
{
	size_t k = 0;

	while (k < n) {
		uint64_t tag = get_varint(b, n, &k), l;

		if ((tag & 7) == 0) {
			get_varint(b, n, &k);
			continue;
		}
		if ((tag & 7) != 2)
			return NULL;	/* the writer uses varints and lengths only */
		l = get_varint(b, n, &k);
		if (l > n - k)
			return NULL;
		if (tag >> 3 == field) {
			*len = l;
			return b + k;
		}
		k += l;
	}
	return NULL;
}

/* Allocates one f32 array of @n values through an XLAAllocation. */
static xrt_status *put_f32(struct msg *m, xrt_session *s, const float *v, int64_t n,
			   xrt_handle *out)
{
	struct msg shape = { .n = 0 }, dims = { .n = 0 }, lit = { .n = 0 };

	varint(&dims, (uint64_t)n);
	put_int(&shape, 2, 11);
	if (n >= 0)
		put_msg(&shape, 3, &dims);
	put_msg(&lit, 1, &shape);
	put_bytes(&lit, 8, v, (size_t)(n > 0 ? n : 1) * sizeof(float));
	m->n = 0;
	put_msg(m, 2, &lit);
	return xrt_allocate_proto(s, m->b, m->n, out);
}

/*
 * XLATupleNode (input_index 1, release_input_handle 2, tuples 3): the
 * published example, inputs {} and {2}, structure {1, {0, 1}}.
 */
TEST_F(wire, an_xla_tuple_node_builds_the_published_example)
{
	static const float x = 4, y[2] = { 5, 6 };
	struct msg leaf0 = { .n = 0 }, leaf1 = { .n = 0 }, inner = { .n = 0 };
	struct xrt_shape got;
	xrt_handle in[2], t, e;
	float v[2];

	ASSERT_OK(put_f32(&self->w->m, self->w->s, &x, -1, &in[0]));	/* a scalar: no dims */
	ASSERT_OK(put_f32(&self->w->m, self->w->s, y, 2, &in[1]));
	put_int(&leaf0, 1, 0);
	put_int(&leaf1, 1, 1);
	put_msg(&inner, 3, &leaf0);
	put_msg(&inner, 3, &leaf1);
	self->w->m.n = 0;
	put_msg(&self->w->m, 3, &leaf1);
	put_msg(&self->w->m, 3, &inner);
	ASSERT_OK(xrt_make_tuple_proto(self->w->s, self->w->m.b, self->w->m.n, in, 2, &t));
	ASSERT_OK(xrt_allocation_shape(self->w->s, t, self->w->a, &got));
	ASSERT_EQ(2, got.tuple_count);
	EXPECT_EQ(1, got.tuple[0].rank);
	ASSERT_EQ(2, got.tuple[1].tuple_count);
	EXPECT_EQ(0, got.tuple[1].tuple[0].rank);
	xrt_shape_deinit(&got);
	ASSERT_OK(xrt_sub_tuple(self->w->s, t, (const int64_t[]){ 1, 0 }, 2, false, &e));
	ASSERT_OK(xrt_read_data(self->w->s, e, true, v, sizeof(float)));
	EXPECT_EQ(4, v[0]);
	ASSERT_OK(xrt_sub_tuple(self->w->s, t, (const int64_t[]){ 0 }, 1, true, &e));
	ASSERT_OK(xrt_read_data(self->w->s, e, true, v, sizeof(v)));
	EXPECT_EQ(6, v[1]);
	/* a leaf that releases its input: the handle goes */
	self->w->m.n = 0;
	put_int(&leaf0, 2, 1);
	put_msg(&self->w->m, 3, &leaf0);
	ASSERT_OK(xrt_make_tuple_proto(self->w->s, self->w->m.b, self->w->m.n, in, 2, &t));
	ASSERT_ERR(xrt_release_allocations(self->w->s, &in[0], 1), XRT_NOT_FOUND, "");
	ASSERT_OK(xrt_release_allocations(self->w->s, &in[1], 1));
	ASSERT_OK(xrt_release_allocations(self->w->s, &t, 1));
}

/*
 * XRTExecutionConfig: release_input_handles 5, return_exploded_tuple 7,
 * common_config 9 (replica_id 1, local_replica_mapping 2, run_id 3).
 */
TEST_F(wire, an_xrt_execution_config_explodes_the_result_tuple)
{
	static const float a[2] = { 1, 2 }, b[2] = { 10, 20 };
	struct msg common = { .n = 0 };
	xrt_handle c, in[2], *outs = NULL, r;
	uint32_t n = 0;
	float v[2];

	ASSERT_OK(compile_with(&self->w->m, self->w->s, &self->w->cfg, &c));
	ASSERT_OK(put_f32(&self->w->m, self->w->s, a, 2, &in[0]));
	ASSERT_OK(put_f32(&self->w->m, self->w->s, b, 2, &in[1]));
	put_int(&common, 3, 42);
	put_bytes(&common, 2, "\x00", 1);	/* local device 0 runs replica 0 */
	put_int(&self->w->cfg, 5, 1);
	put_int(&self->w->cfg, 7, 1);
	put_msg(&self->w->cfg, 9, &common);
	ASSERT_ERR(xrt_execute_proto(self->w->s, c, in, 2, self->w->cfg.b, self->w->cfg.n, &r),
		   XRT_INVALID_ARGUMENT, "xrt_execute_proto_handles() gives them");
	ASSERT_OK(xrt_execute_proto_handles(self->w->s, c, in, 2, self->w->cfg.b, self->w->cfg.n,
					    self->w->a, &outs, &n));
	ASSERT_EQ(2, n) TH_LOG("a handle per element of the pair");
	/* XRTReadLiteral's answer, an xla.LiteralProto: f32s are field 8 */
	{
		void *lb;
		size_t ln, fl = 0;
		const uint8_t *f32s;

		ASSERT_OK(xrt_read_xla_proto(self->w->s, outs[0], false, self->w->a, &lb, &ln));
		f32s = field_of(lb, ln, 8, &fl);
		ASSERT_NE(NULL, f32s);
		ASSERT_EQ(sizeof(v), fl);
		memcpy(v, f32s, sizeof(v));
		EXPECT_EQ(11, v[0]);
		EXPECT_EQ(22, v[1]);
		EXPECT_NE(NULL, field_of(lb, ln, 1, &fl));	/* and its shape */
		xrt_free(self->w->a, lb);
	}
	ASSERT_OK(xrt_read_data(self->w->s, outs[0], true, v, sizeof(v)));
	EXPECT_EQ(11, v[0]);
	EXPECT_EQ(22, v[1]);
	ASSERT_OK(xrt_read_data(self->w->s, outs[1], true, v, sizeof(v)));
	EXPECT_EQ(20, v[1]);
	xrt_free(self->w->a, outs);
	ASSERT_ERR(xrt_release_allocations(self->w->s, in, 1), XRT_NOT_FOUND, "");
	ASSERT_EQ(0, xrt_session_memory_in_use(self->w->s));
	/* without exploding: one handle, the tuple */
	ASSERT_OK(put_f32(&self->w->m, self->w->s, a, 2, &in[0]));
	ASSERT_OK(put_f32(&self->w->m, self->w->s, b, 2, &in[1]));
	ASSERT_OK(xrt_execute_proto_handles(self->w->s, c, in, 2, NULL, 0, NULL, &outs, &n));
	ASSERT_EQ(1, n);
	ASSERT_OK(xrt_sub_tuple(self->w->s, outs[0], (const int64_t[]){ 0 }, 1, true, &r));
	ASSERT_OK(xrt_read_data(self->w->s, r, true, v, sizeof(v)));
	EXPECT_EQ(11, v[0]);
	xrt_free(NULL, outs);
	/* another replica without a key to join by, or a local device running one */
	common.n = 0;
	put_int(&common, 1, 3);
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 9, &common);
	ASSERT_ERR(xrt_execute_proto_handles(self->w->s, c, in, 2, self->w->cfg.b, self->w->cfg.n, NULL,
					     &outs, &n), XRT_INVALID_ARGUMENT,
		   "execute: replica 3, core 0 without an execution_instance_key");
	common.n = 0;
	put_int(&common, 1, (uint64_t)-1);	/* int32 -1, sign-extended */
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 9, &common);
	ASSERT_ERR(xrt_execute_proto_handles(self->w->s, c, in, 2, self->w->cfg.b, self->w->cfg.n, NULL,
					     &outs, &n), XRT_INVALID_ARGUMENT, "execute: replica -1");
	EXPECT_EQ(0, n);
	common.n = 0;
	put_bytes(&common, 2, "\x00\x01", 2);
	self->w->cfg.n = 0;
	put_msg(&self->w->cfg, 9, &common);
	ASSERT_ERR(xrt_execute_proto_handles(self->w->s, c, in, 2, self->w->cfg.b, self->w->cfg.n, NULL,
					     &outs, &n), XRT_UNIMPLEMENTED,
		   "execute: local device 1 runs replica 1");
	self->w->cfg.n = 0;
	put_int(&self->w->cfg, 2, 1);
	ASSERT_ERR(xrt_execute_proto_handles(self->w->s, c, in, 2, self->w->cfg.b, self->w->cfg.n, NULL,
					     &outs, &n), XRT_INVALID_ARGUMENT,
		   "execute: replica 0, core 1 without an execution_instance_key");
	ASSERT_ERR(xrt_execute_proto_handles(self->w->s, c, in, 2, NULL, 0, NULL, NULL, &n),
		   XRT_INVALID_ARGUMENT, "NULL argument");
	ASSERT_OK(xrt_release_allocations(self->w->s, in, 2));
	ASSERT_OK(xrt_release_compilations(self->w->s, &c, 1));
}

TEST_HARNESS_MAIN
