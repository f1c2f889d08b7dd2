// SPDX-License-Identifier: MIT
/*
 * XLA's serialized modules (selftests/libxrt/xla/, written by XLA from
 * small JAX programs, see gen.py): each HloProto reads as the module its
 * HLO text dump gives, in every form XLA wraps it in; malformed messages
 * fail naming what is wrong; running out of memory fails cleanly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"
#include "xla.pb-c.h"
#include "test_cases.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/wire.h>

static const char *const programs[] = {
	"collectives", "conv_pool", "indexing", "loop_and_cond", "mlp_grad", "pool_grad", "random", "types",
	"narrow", "narrow_ops", "regroup",
};

static char *slurp_xla(const char *name, const char *ext, size_t *n)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s%s", XLA_DIR, name, ext);
	return test_slurp(path, n);
}

static char *printed(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		     xrt_module *m)
{
	char *t = NULL;
	xrt_status *st = xrt_hlo_print(m, a, &t, NULL);

	EXPECT_EQ(NULL, st);
	xrt_status_free(st);
	return t;
}

static int line_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The lines of @t, sorted (in place: @t is cut up). */
static size_t sorted_lines(char *t, char **lines, size_t max)
{
	size_t n = 0;
	char *s;

	for (s = strtok(t, "\n"); s && n < max; s = strtok(NULL, "\n"))
		lines[n++] = s;
	qsort(lines, n, sizeof(*lines), line_cmp);
	return n;
}

/*
 * Before XLA's optimizations the dumps print instructions in the order
 * the proto holds them: the modules print the same.  After them the
 * text follows the schedule: the same lines, in another order.
 */
static void expect_same_module(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			       xrt_module *from_text, xrt_module *from_proto, bool same_order)
{
	static char *l1[4096], *l2[4096];
	char *t1 = printed(_metadata, a, from_text), *t2 = printed(_metadata, a, from_proto);
	size_t n1, n2, i;

	ASSERT_NE(NULL, t1);
	ASSERT_NE(NULL, t2);
	if (same_order) {
		EXPECT_STREQ(t1, t2);
	} else {
		n1 = sorted_lines(t1, l1, 4096);
		n2 = sorted_lines(t2, l2, 4096);
		ASSERT_EQ(n1, n2);
		for (i = 0; i < n1; i++)
			EXPECT_STREQ(l1[i], l2[i]);
	}
	xrt_free(a, t1);
	xrt_free(a, t2);
}

TEST_F(xrt, xla_dumps_read_as_their_text)
{
	static const char *const stages[] = { ".before", ".after" };
	size_t p, s, files = 0;

	for (p = 0; p < sizeof(programs) / sizeof(programs[0]); p++) {
		for (s = 0; s < 2; s++) {
			char ext[32];
			size_t nt, np;
			char *text, *pb;
			xrt_module *mt, *mp, *ma;

			snprintf(ext, sizeof(ext), "%s.hlo", stages[s]);
			text = slurp_xla(programs[p], ext, &nt);
			snprintf(ext, sizeof(ext), "%s.pb", stages[s]);
			pb = slurp_xla(programs[p], ext, &np);
			ASSERT_NE(NULL, text) TH_LOG("%s%s", programs[p], stages[s]);
			ASSERT_NE(NULL, pb);
			TH_LOG("%s%s", programs[p], stages[s]);
			ASSERT_OK(xrt_hlo_parse(self->a, text, nt, &mt));
			ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, pb, np, XRT_XLA_HLO_PROTO, &mp));
			ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, pb, np, XRT_XLA_ANY, &ma));
			expect_same_module(_metadata, self->a, mt, mp, s == 0);
			expect_same_module(_metadata, self->a, mp, ma, true);
			xrt_module_destroy(mt);
			xrt_module_destroy(mp);
			xrt_module_destroy(ma);
			free(text);
			free(pb);
			files++;
		}
	}
	ASSERT_EQ(22, files);
}

static xrt_literal *literal_of(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			       const char *shape, const char *value);

/* x of xla/gen.py: f32[4,6], k / 7. */
static xrt_literal *jax_x(struct __test_metadata *_metadata, const struct xrt_allocator *a)
{
	static const int64_t dims[] = { 4, 6 };
	struct xrt_shape shape;
	xrt_literal *x = NULL;
	float *in;
	int k;

	EXPECT_EQ(NULL, xrt_shape_init_array(&shape, XRT_F32, 2, dims));
	EXPECT_EQ(NULL, xrt_literal_create(a, &shape, &x));
	in = xrt_literal_mutable_data(x);
	for (k = 0; k < 24; k++)
		in[k] = (float)k / 7;
	xrt_shape_deinit(&shape);
	return x;
}

/*
 * XLA's 8-bit and 4-bit floats and sub-byte integers (xla/gen.py's
 * narrow): the evaluator gives exactly JAX's values, from the text
 * before and after XLA's optimizations (which compute in f16 and s8
 * with converts) and from the proto.
 */
TEST_F(xrt, jax_narrow_types_evaluate_to_jax_values)
{
	static const char *const names[] = { "narrow", "narrow_ops", "regroup" };
	static const char *const files[] = { ".before.hlo", ".after.hlo", ".after.pb" };
	xrt_literal *x = jax_x(_metadata, self->a), *want, *got;
	const xrt_literal *args[1] = { x };
	char *exp_text, *nl, *text;
	size_t f, n, k;
	xrt_module *m;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		exp_text = slurp_xla(names[k], ".expected", &n);
		ASSERT_NE(NULL, exp_text);
		nl = strchr(exp_text, '\n');
		ASSERT_NE(NULL, nl);
		*nl = 0;
		want = literal_of(_metadata, self->a, exp_text, nl + 1);
		ASSERT_NE(NULL, want);
		for (f = 0; f < 3; f++) {
			text = slurp_xla(names[k], files[f], &n);
			ASSERT_NE(NULL, text);
			TH_LOG("%s%s", names[k], files[f]);
			if (f < 2)
				ASSERT_OK(xrt_hlo_parse(self->a, text, n, &m));
			else
				ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, text, n, XRT_XLA_ANY, &m));
			ASSERT_OK(xrt_ir_evaluate(m, args, 1, NULL, self->a, &got));
			EXPECT_TRUE(xrt_literal_equal(want, got, NULL, 0));
			xrt_literal_destroy(got);
			xrt_module_destroy(m);
			free(text);
		}
		xrt_literal_destroy(want);
		free(exp_text);
	}
	xrt_literal_destroy(x);
}

/* The module alone, and inside a snapshot, read as the HloProto does. */
TEST_F(xrt, every_wrapping_reads_the_same)
{
	Xla__HloSnapshot snap = XLA__HLO_SNAPSHOT__INIT;
	Xla__HloProto *hp;
	size_t n, len;
	uint8_t *buf;
	char *pb = slurp_xla("loop_and_cond", ".before.pb", &n);
	xrt_module *ref, *m;
	enum xrt_xla_form f;

	ASSERT_NE(NULL, pb);
	hp = xla__hlo_proto__unpack(NULL, n, (const uint8_t *)pb);
	ASSERT_NE(NULL, hp);
	ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, pb, n, XRT_XLA_HLO_PROTO, &ref));
	for (f = XRT_XLA_ANY; f <= XRT_XLA_HLO_SNAPSHOT; f++) {
		const ProtobufCMessage *msg = f == XRT_XLA_HLO_PROTO ? &hp->base :
					      &hp->hlo_module->base;

		snap.hlo = hp;
		if (f == XRT_XLA_HLO_SNAPSHOT || f == XRT_XLA_ANY)
			msg = &snap.base;
		len = protobuf_c_message_get_packed_size(msg);
		buf = malloc(len);
		ASSERT_NE(NULL, buf);
		protobuf_c_message_pack(msg, buf);
		TH_LOG("form %d", f);
		ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, buf, len, f, &m));
		expect_same_module(_metadata, self->a, ref, m, true);
		xrt_module_destroy(m);
		free(buf);
	}
	/* a module message alone, told apart by its content */
	len = xla__hlo_module_proto__get_packed_size(hp->hlo_module);
	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	xla__hlo_module_proto__pack(hp->hlo_module, buf);
	ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, buf, len, XRT_XLA_ANY, &m));
	expect_same_module(_metadata, self->a, ref, m, true);
	xrt_module_destroy(m);
	free(buf);
	xrt_module_destroy(ref);
	xla__hlo_proto__free_unpacked(hp, NULL);
	free(pb);
}

/* One damage done to a module message, and what reading it must say. */
struct damage {
	void (*apply)(Xla__HloModuleProto *m);
	const char *msg;
};

static Xla__HloInstructionProto *instr_named(Xla__HloModuleProto *m, const char *name)
{
	size_t c, i;

	for (c = 0; c < m->n_computations; c++)
		for (i = 0; i < m->computations[c]->n_instructions; i++)
			if (!strcmp(m->computations[c]->instructions[i]->name, name))
				return m->computations[c]->instructions[i];
	return NULL;
}

/*
 * XLA has kept a collective's groups in three fields over time: the
 * old replica_groups, collective_device_list (listed or iota) and
 * iota_collective_device_list.  The dump uses the listed device list;
 * each other spelling of the same groups reads as the same module, and
 * an iota list naming more devices than there are, or more than an
 * int64 counts, is refused.
 */
TEST_F(xrt, collective_groups_read_from_every_field)
{
	static int64_t zero[] = { 0 }, one[] = { 1 }, two[] = { 2 };
	static int32_t perm0[] = { 0 };
	static Xla__ReplicaGroup g = XLA__REPLICA_GROUP__INIT, *gs[] = { &g };
	static Xla__IotaReplicaGroupListProto iota = XLA__IOTA_REPLICA_GROUP_LIST_PROTO__INIT;
	static Xla__CollectiveDeviceListProto listed = XLA__COLLECTIVE_DEVICE_LIST_PROTO__INIT,
					      iota_list = XLA__COLLECTIVE_DEVICE_LIST_PROTO__INIT;
	size_t n, len, form;
	char *pb = slurp_xla("collectives", ".before.pb", &n);
	char *text = slurp_xla("collectives", ".before.hlo", &len);
	Xla__HloInstructionProto *ar;
	Xla__HloProto *hp;
	xrt_module *ref, *m;
	uint8_t *buf;

	ASSERT_TRUE(pb && text);
	ASSERT_OK(xrt_hlo_parse(self->a, text, len, &ref));
	hp = xla__hlo_proto__unpack(NULL, n, (const uint8_t *)pb);
	ASSERT_NE(NULL, hp);
	ar = instr_named(hp->hlo_module, "psum_invariant.5");
	ASSERT_NE(NULL, ar);
	ASSERT_NE(NULL, ar->collective_device_list);
	g.n_replica_ids = 1;
	g.replica_ids = zero;
	listed.n_replica_groups = 1;
	listed.replica_groups = gs;
	iota.num_replica_groups = 1;
	iota.num_devices_per_group = 1;
	iota_list.iota_replica_group_list = &iota;
	xla__collective_device_list_proto__free_unpacked(ar->collective_device_list, NULL);
	ar->collective_device_list = NULL;
	for (form = 0; form < 7; form++) {
		ar->n_replica_groups = form == 0;
		ar->replica_groups = form == 0 ? gs : NULL;
		ar->collective_device_list = form == 1 ? &listed : form == 2 ? &iota_list : NULL;
		ar->iota_collective_device_list = form >= 3 ? &iota : NULL;
		/* [1,1]<=[1]T(0) and, from form 5, [1,1]<=[2]: two devices where there is one */
		iota.n_iota_reshape_dims = form >= 4;
		iota.iota_reshape_dims = form == 5 ? two : one;
		iota.n_iota_transpose_perm = form == 4;
		iota.iota_transpose_perm = perm0;
		/* form 6: 2^62 groups of 4, no dimensions: a count that wraps */
		iota.num_replica_groups = form == 6 ? (int64_t)1 << 62 : 1;
		iota.num_devices_per_group = form == 6 ? 4 : 1;
		iota.n_iota_reshape_dims = form == 6 ? 0 : iota.n_iota_reshape_dims;
		len = xla__hlo_proto__get_packed_size(hp);
		buf = malloc(len);
		ASSERT_NE(NULL, buf);
		xla__hlo_proto__pack(hp, buf);
		TH_LOG("form %zu", form);
		if (form < 5) {
			ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, buf, len, XRT_XLA_HLO_PROTO, &m));
			expect_same_module(_metadata, self->a, ref, m, true);
			xrt_module_destroy(m);
		} else {
			ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, buf, len, XRT_XLA_HLO_PROTO, &m),
				   XRT_INVALID_ARGUMENT, form == 5 ?
				   "1 groups of 1 are not the 2 iota ids" :
				   "its iota groups count more ids than there can be");
		}
		free(buf);
	}
	/* what the message holds now is ours: not freed with it */
	ar->n_replica_groups = 0;
	ar->replica_groups = NULL;
	ar->iota_collective_device_list = NULL;
	xla__hlo_proto__free_unpacked(hp, NULL);
	xrt_module_destroy(ref);
	free(text);
	free(pb);
}

static void unknown_operand(Xla__HloModuleProto *m)
{
	instr_named(m, "tanh.1")->operand_ids[0] = 999999;
}

static void repeated_id(Xla__HloModuleProto *m)
{
	instr_named(m, "tanh.1")->id = instr_named(m, "a.1")->id;
}

static void u1_type(Xla__HloModuleProto *m)
{
	instr_named(m, "tanh.1")->shape->element_type = XLA__PRIMITIVE_TYPE__U1;
}

static void tiled(Xla__HloModuleProto *m)
{
	static Xla__TileProto tile = XLA__TILE_PROTO__INIT, *tiles[] = { &tile };

	instr_named(m, "tanh.1")->shape->layout->n_tiles = 1;
	instr_named(m, "tanh.1")->shape->layout->tiles = tiles;
}

/* tanh.1's first dimension a bound ("<=N"), or more marks than dimensions. */
static void dynamic(Xla__HloModuleProto *m)
{
	static protobuf_c_boolean dyn[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	Xla__ShapeProto *s = instr_named(m, "tanh.1")->shape;

	s->n_is_dynamic_dimension = s->n_dimensions;
	s->is_dynamic_dimension = dyn;
}

static void too_dynamic(Xla__HloModuleProto *m)
{
	dynamic(m);
	instr_named(m, "tanh.1")->shape->n_is_dynamic_dimension = 9;
}

static void short_constant(Xla__HloModuleProto *m)
{
	size_t c, i;

	for (c = 0; c < m->n_computations; c++)
		for (i = 0; i < m->computations[c]->n_instructions; i++) {
			Xla__HloInstructionProto *in = m->computations[c]->instructions[i];

			if (!strcmp(in->opcode, "constant") && in->literal->n_f32s) {
				in->literal->n_f32s--;
				return;
			}
		}
}

/* The first constant as f32[2,2] whose layout names dimension 0 twice. */
static void repeated_layout(Xla__HloModuleProto *m)
{
	static int64_t dims[2] = { 2, 2 }, m2m[2] = { 0, 0 };
	static float v[4] = { 1, 2, 3, 4 };
	static Xla__LayoutProto lay = XLA__LAYOUT_PROTO__INIT;
	size_t c, i;

	lay.n_minor_to_major = 2;
	lay.minor_to_major = m2m;
	for (c = 0; c < m->n_computations; c++)
		for (i = 0; i < m->computations[c]->n_instructions; i++) {
			Xla__HloInstructionProto *in = m->computations[c]->instructions[i];

			if (strcmp(in->opcode, "constant"))
				continue;
			in->shape->n_dimensions = 2;
			in->shape->dimensions = dims;
			in->shape->layout = &lay;
			in->literal->shape = in->shape;
			in->literal->n_f32s = 4;
			in->literal->f32s = v;
			return;
		}
}

static void odd_name(Xla__HloModuleProto *m)
{
	static char name[] = "tanh one";

	instr_named(m, "tanh.1")->name = name;
}

static void no_shape(Xla__HloModuleProto *m)
{
	instr_named(m, "tanh.1")->shape = NULL;
}

static void bad_entry(Xla__HloModuleProto *m)
{
	m->entry_computation_id = 424242;
}

static void no_root(Xla__HloModuleProto *m)
{
	m->computations[m->n_computations - 1]->root_id = 777777;
}

static void unknown_opcode(Xla__HloModuleProto *m)
{
	static char op[] = "frobnicate";

	instr_named(m, "tanh.1")->opcode = op;
}

static void calls_itself(Xla__HloModuleProto *m)
{
	static int64_t self_id[1];
	Xla__HloComputationProto *c = m->computations[m->n_computations - 1];
	Xla__HloInstructionProto *in = instr_named(m, "tanh.1");

	self_id[0] = c->id;
	in->n_called_computation_ids = 1;
	in->called_computation_ids = self_id;
}

static void no_computations(Xla__HloModuleProto *m)
{
	m->n_computations = 0;
}

/*
 * An allocator for the damaged messages: damage points fields at
 * static data, so nothing is freed one by one; the arena goes at once.
 */
struct arena {
	ProtobufCAllocator pb;
	void *blocks[65536];
	size_t n;
};

static void *arena_alloc(void *ctx, size_t size)
{
	struct arena *a = ctx;
	void *p = a->n < 65536 ? malloc(size) : NULL;

	if (p)
		a->blocks[a->n++] = p;
	return p;
}

static void arena_free(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

static void arena_release(struct arena *a)
{
	while (a->n)
		free(a->blocks[--a->n]);
}

TEST_F(xrt, malformed_xla_modules_say_what_is_wrong)
{
	static struct arena ar = { { arena_alloc, arena_free, &ar }, { NULL }, 0 };
	static const struct damage damages[] = {
		{ unknown_operand, "instruction 'tanh.1': an operand is not an instruction of its "
				   "computation" },
		{ repeated_id, "two instructions have id" },
		{ u1_type, "instruction 'tanh.1': element type U1 (31) is not supported" },
		{ tiled, "instruction 'tanh.1': tiled layouts are not supported" },
		{ too_dynamic, "instruction 'tanh.1': a shape marks more dynamic dimensions than it "
			       "has" },
		{ short_constant, "a constant's values do not fill its shape" },
		{ repeated_layout, "a constant's layout is not a permutation" },
		{ odd_name, "instruction 'tanh one': its name is not one HLO text can hold" },
		{ no_shape, "instruction 'tanh.1': a shape is missing" },
		{ bad_entry, "the entry computation id 424242 is none of the module's" },
		{ no_root, "its root_id 777777 is none of its instructions" },
		{ unknown_opcode, "as HLO text: line 8, column 27: unknown opcode 'frobnicate'" },
		{ calls_itself, "calls itself, through" },
		{ no_computations, "HloModuleProto: the module has no computations" },
	};
	size_t n, k, len;
	char *pb = slurp_xla("mlp_grad", ".before.pb", &n);
	xrt_module *m;
	uint8_t *buf;

	ASSERT_NE(NULL, pb);
	for (k = 0; k < sizeof(damages) / sizeof(damages[0]); k++) {
		Xla__HloProto *hp = xla__hlo_proto__unpack(&ar.pb, n, (const uint8_t *)pb);

		ASSERT_NE(NULL, hp);
		damages[k].apply(hp->hlo_module);
		len = xla__hlo_module_proto__get_packed_size(hp->hlo_module);
		buf = malloc(len + 1);
		ASSERT_NE(NULL, buf);
		xla__hlo_module_proto__pack(hp->hlo_module, buf);
		arena_release(&ar);
		ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, buf, len, XRT_XLA_HLO_MODULE, &m),
			   XRT_INVALID_ARGUMENT, damages[k].msg);
		ASSERT_EQ(NULL, m);
		free(buf);
	}
	/* bytes that are no message, and a form that is none */
	ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, pb, n / 2, XRT_XLA_HLO_PROTO, &m),
		   XRT_INVALID_ARGUMENT, "xla.HloProto");
	ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, "\xff\xff\xff", 3, XRT_XLA_ANY, &m),
		   XRT_INVALID_ARGUMENT, "xla.HloModuleProto");
	ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, pb, n, (enum xrt_xla_form)9, &m),
		   XRT_INVALID_ARGUMENT, "form 9 is none of enum xrt_xla_form");
	ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, NULL, 4, XRT_XLA_ANY, &m),
		   XRT_INVALID_ARGUMENT, "NULL argument");
	ASSERT_ERR(xrt_hlo_parse_xla_proto(self->a, "", 0, XRT_XLA_ANY, &m),
		   XRT_INVALID_ARGUMENT, "the module has no computations");
	free(pb);
}

/*
 * A dimension marked dynamic reads as the text's bound ("f32[<=N]"):
 * nothing sets its size, so it is its bound, and the module is the same.
 */
TEST_F(xrt, dynamic_dimensions_read_as_bounds)
{
	static struct arena ar = { { arena_alloc, arena_free, &ar }, { NULL }, 0 };
	size_t n, len;
	char *pb = slurp_xla("mlp_grad", ".before.pb", &n);
	xrt_module *m = NULL, *plain = NULL;
	uint64_t f[2][2];
	Xla__HloProto *hp;
	uint8_t *buf;

	ASSERT_NE(NULL, pb);
	ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, pb, n, XRT_XLA_HLO_PROTO, &plain));
	hp = xla__hlo_proto__unpack(&ar.pb, n, (const uint8_t *)pb);
	ASSERT_NE(NULL, hp);
	dynamic(hp->hlo_module);
	len = xla__hlo_module_proto__get_packed_size(hp->hlo_module);
	buf = malloc(len + 1);
	ASSERT_NE(NULL, buf);
	xla__hlo_module_proto__pack(hp->hlo_module, buf);
	arena_release(&ar);
	ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, buf, len, XRT_XLA_HLO_MODULE, &m));
	ASSERT_OK(xrt_module_fingerprint(plain, f[0]));
	ASSERT_OK(xrt_module_fingerprint(m, f[1]));
	EXPECT_EQ(0, memcmp(f[0], f[1], sizeof(f[0])));
	xrt_module_destroy(m);
	xrt_module_destroy(plain);
	free(buf);
	free(pb);
}

/* The literal HLO text @value (a constant of @shape) stands for. */
static xrt_literal *literal_of(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			       const char *shape, const char *value)
{
	char text[8192];
	xrt_module *m;
	xrt_literal *l = NULL;

	snprintf(text, sizeof(text), "HloModule c\nENTRY e {\n  ROOT c = %s constant(%s)\n}", shape,
		 value);
	EXPECT_EQ(NULL, xrt_hlo_parse(a, text, strlen(text), &m));
	EXPECT_EQ(NULL, xrt_ir_evaluate(m, NULL, 0, NULL, a, &l));
	xrt_module_destroy(m);
	return l;
}

static xrt_status *from_msg(const struct xrt_allocator *a, const Xla__LiteralProto *msg,
			    xrt_literal **out)
{
	size_t n = xla__literal_proto__get_packed_size(msg);
	uint8_t *buf = malloc(n ? n : 1);
	xrt_status *st;

	xla__literal_proto__pack(msg, buf);
	st = xrt_literal_from_xla_proto(a, buf, n, out);
	free(buf);
	return st;
}

/* XLA's literals: values in their layout's order, 16-bit ones as bytes. */
TEST_F(xrt, xla_literals_read_with_their_layouts)
{
	static int64_t dims23[] = { 2, 3 }, m2m01[] = { 0, 1 }, dims2[] = { 2 };
	static float f32s[] = { 1, 4, 2, 5, 3, 6 };	/* column-major {{1,2,3},{4,5,6}} */
	static uint8_t half[] = { 0x00, 0x3c, 0x00, 0xc0 };	/* f16 1, -2 */
	static int32_t s32s[] = { -7 };
	static protobuf_c_boolean preds[] = { 1, 0 };
	Xla__LayoutProto lay = XLA__LAYOUT_PROTO__INIT;
	Xla__ShapeProto s23 = XLA__SHAPE_PROTO__INIT, ss = XLA__SHAPE_PROTO__INIT,
			sh = XLA__SHAPE_PROTO__INIT, sp = XLA__SHAPE_PROTO__INIT,
			st = XLA__SHAPE_PROTO__INIT, *tup[3] = { &ss, &sh, &sp };
	Xla__LiteralProto a = XLA__LITERAL_PROTO__INIT, ls = XLA__LITERAL_PROTO__INIT,
			  lh = XLA__LITERAL_PROTO__INIT, lp = XLA__LITERAL_PROTO__INIT,
			  t = XLA__LITERAL_PROTO__INIT, *elems[3] = { &ls, &lh, &lp };
	xrt_literal *got, *want;

	lay.n_minor_to_major = 2;
	lay.minor_to_major = m2m01;
	s23.element_type = XLA__PRIMITIVE_TYPE__F32;
	s23.n_dimensions = 2;
	s23.dimensions = dims23;
	s23.layout = &lay;
	a.shape = &s23;
	a.n_f32s = 6;
	a.f32s = f32s;
	ASSERT_OK(from_msg(self->a, &a, &got));
	want = literal_of(_metadata, self->a, "f32[2,3]", "{{1, 2, 3}, {4, 5, 6}}");
	ASSERT_TRUE(xrt_literal_equal(want, got, NULL, 0));
	xrt_literal_destroy(got);
	xrt_literal_destroy(want);

	ss.element_type = XLA__PRIMITIVE_TYPE__S32;
	ls.shape = &ss;
	ls.n_s32s = 1;
	ls.s32s = s32s;
	sh.element_type = XLA__PRIMITIVE_TYPE__F16;
	sh.n_dimensions = 1;
	sh.dimensions = dims2;
	lh.shape = &sh;
	lh.f16s.len = 4;
	lh.f16s.data = half;
	sp.element_type = XLA__PRIMITIVE_TYPE__PRED;
	sp.n_dimensions = 1;
	sp.dimensions = dims2;
	lp.shape = &sp;
	lp.n_preds = 2;
	lp.preds = preds;
	st.element_type = XLA__PRIMITIVE_TYPE__TUPLE;
	st.n_tuple_shapes = 3;
	st.tuple_shapes = tup;
	t.shape = &st;
	t.n_tuple_literals = 3;
	t.tuple_literals = elems;
	ASSERT_OK(from_msg(self->a, &t, &got));
	want = literal_of(_metadata, self->a, "(s32[], f16[2], pred[2])",
			  "(-7, {1, -2}, {true, false})");
	ASSERT_TRUE(xrt_literal_equal(want, got, NULL, 0));
	xrt_literal_destroy(got);
	xrt_literal_destroy(want);

	/* malformed: too few values, half an f16, a type XRT lacks, a lost element */
	a.n_f32s = 5;
	ASSERT_ERR(from_msg(self->a, &a, &got), XRT_INVALID_ARGUMENT,
		   "xla.LiteralProto: 5 values for 6 elements");
	lh.f16s.len = 3;
	ASSERT_ERR(from_msg(self->a, &t, &got), XRT_INVALID_ARGUMENT,
		   "a value field holds part of an element");
	lh.f16s.len = 4;
	sh.element_type = XLA__PRIMITIVE_TYPE__S1;
	ASSERT_ERR(from_msg(self->a, &t, &got), XRT_INVALID_ARGUMENT,
		   "element type 30 is not supported");
	sh.element_type = XLA__PRIMITIVE_TYPE__F8E4M3FN;	/* its values are in f8e4m3fns */
	ASSERT_ERR(from_msg(self->a, &t, &got), XRT_INVALID_ARGUMENT,
		   "xla.LiteralProto: 0 values for 2 elements");
	sh.element_type = XLA__PRIMITIVE_TYPE__F16;
	t.n_tuple_literals = 2;
	ASSERT_ERR(from_msg(self->a, &t, &got), XRT_INVALID_ARGUMENT,
		   "a tuple's literals differ from its shape's elements");
	ASSERT_ERR(xrt_literal_from_xla_proto(self->a, "\x0a\x05", 2, &got),
		   XRT_INVALID_ARGUMENT, "xla.LiteralProto");
	ASSERT_EQ(NULL, got);
}

/*
 * Every element type, in a column-major layout and in a tuple, through
 * xrt_literal_to_xla_proto() and back: the same values, the same layout.
 */
TEST_F(xrt, literals_write_as_xla_reads_them)
{
	static const char *const shapes[] = {
		"pred[2,3]{0,1}", "s8[2,3]{0,1}", "s16[3]", "s32[2,3]{0,1}", "s64[4]", "u8[5]",
		"u16[2,2]{0,1}", "u32[3]", "u64[2]", "f16[2,3]{0,1}", "bf16[3]", "f32[2,3]{0,1}",
		"f64[2]", "c64[2,2]{0,1}", "c128[3]", "f32[]", "(f32[2], (s32[], pred[3]))",
		"f32[0,3]", "s4[2,3]{0,1}", "u4[3]", "s2[4]", "u2[2]", "f8e5m2[2,2]{0,1}",
		"(f8e4m3fn[3], f8e4m3b11fnuz[2], f8e5m2fnuz[2], f8e4m3fnuz[2], f8e4m3[2])",
		"(f8e3m4[2], f8e8m0fnu[3], f4e2m1fn[4])",
	};
	uint64_t state = 3;
	size_t k;

	for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		struct xrt_shape shape;
		xrt_literal *lit, *back = NULL;
		char why[256];
		void *b;
		size_t n;

		SHAPE(shape, shapes[k]);
		ASSERT_OK(xrt_literal_create(self->a, &shape, &lit));
		test_fill_random(lit, &state);
		ASSERT_OK(xrt_literal_to_xla_proto(lit, self->a, &b, &n));
		ASSERT_OK(xrt_literal_from_xla_proto(self->a, b, n, &back));
		EXPECT_TRUE(xrt_literal_equal(lit, back, why, sizeof(why)))
			TH_LOG("%s: %s", shapes[k], why);
		EXPECT_TRUE(xrt_shape_equal(&shape, xrt_literal_shape(back)))
			TH_LOG("%s: the layout changed", shapes[k]);
		xrt_free(self->a, b);
		xrt_literal_destroy(lit);
		xrt_literal_destroy(back);
		xrt_shape_deinit(&shape);
	}
	ASSERT_ERR(xrt_literal_to_xla_proto(NULL, self->a, NULL, NULL), XRT_INVALID_ARGUMENT,
		   "NULL argument");
}

/*
 * XLA keeps a sub-byte element in a byte of its own, the value in the
 * low bits (JAX's s4 -4 is 0x0c): the high bits of what it sends are
 * not read, and what is written has them clear.
 */
TEST_F(xrt, sub_byte_values_read_from_the_low_bits)
{
	static const uint8_t vals[] = { 0x03, 0xfc, 0x0c, 0x85 };
	Xla__LiteralProto l = XLA__LITERAL_PROTO__INIT;
	Xla__ShapeProto sh = XLA__SHAPE_PROTO__INIT;
	Xla__LayoutProto lay = XLA__LAYOUT_PROTO__INIT;
	int64_t dims[1] = { 4 }, m2m[1] = { 0 };
	xrt_literal *got, *want;
	const uint8_t *d;
	void *b;
	size_t n;

	sh.element_type = XLA__PRIMITIVE_TYPE__S4;
	sh.n_dimensions = 1;
	sh.dimensions = dims;
	lay.n_minor_to_major = 1;
	lay.minor_to_major = m2m;
	lay.element_size_in_bits = 4;	/* XLA's packing: the same values here */
	sh.layout = &lay;
	l.shape = &sh;
	l.s4s.len = 4;
	l.s4s.data = (uint8_t *)vals;
	ASSERT_OK(from_msg(self->a, &l, &got));
	want = literal_of(_metadata, self->a, "s4[4]", "{3, -4, -4, 5}");
	EXPECT_TRUE(xrt_literal_equal(want, got, NULL, 0));
	d = xrt_literal_data(got);
	EXPECT_EQ(0x0c, d[1]);
	ASSERT_OK(xrt_literal_to_xla_proto(got, self->a, &b, &n));
	xrt_literal_destroy(got);
	ASSERT_OK(xrt_literal_from_xla_proto(self->a, b, n, &got));
	EXPECT_TRUE(xrt_literal_equal(want, got, NULL, 0));
	xrt_free(self->a, b);
	xrt_literal_destroy(got);
	/* a packing that is not the type's width changes what bytes mean */
	lay.element_size_in_bits = 8;
	ASSERT_ERR(from_msg(self->a, &l, &got), XRT_INVALID_ARGUMENT,
		   "element size is supported only as the width of a sub-byte type");
	sh.element_type = XLA__PRIMITIVE_TYPE__F32;
	lay.element_size_in_bits = 4;
	ASSERT_ERR(from_msg(self->a, &l, &got), XRT_INVALID_ARGUMENT,
		   "element size is supported only as the width of a sub-byte type");
	xrt_literal_destroy(want);
}

static xrt_literal *sweep_lit;

static xrt_status *write_sweep(const struct xrt_allocator *a)
{
	void *b = NULL;
	size_t n;
	xrt_status *st = xrt_literal_to_xla_proto(sweep_lit, a, &b, &n);

	xrt_free(a, b);
	return st;
}

TEST_F(xrt, writing_survives_every_failing_allocation)
{
	struct xrt_shape shape;
	uint64_t state = 5;
	long runs;

	/* the system's, not the counted allocator's: the sweep counts only the writing */
	ASSERT_OK(xrt_shape_parse(&shape, NULL, "(f32[2], (pred[3], s16[2]), c64[])"));
	ASSERT_OK(xrt_literal_create(NULL, &shape, &sweep_lit));
	test_fill_random(sweep_lit, &state);
	test_fail_sweep(_metadata, &self->ta, write_sweep, &runs);
	ASSERT_GT(runs, 5);
	xrt_literal_destroy(sweep_lit);
	xrt_shape_deinit(&shape);
}

static const char *sweep_pb;
static size_t sweep_len;

static xrt_status *read_sweep(const struct xrt_allocator *a)
{
	xrt_module *m;
	xrt_status *st = xrt_hlo_parse_xla_proto(a, sweep_pb, sweep_len, XRT_XLA_ANY, &m);

	if (!st)
		xrt_module_destroy(m);
	return st;
}

TEST_F(xrt, reading_survives_every_failing_allocation)
{
	long runs;
	size_t n;
	char *pb = slurp_xla("mlp_grad", ".after.pb", &n);

	ASSERT_NE(NULL, pb);
	sweep_pb = pb;
	sweep_len = n;
	test_fail_sweep(_metadata, &self->ta, read_sweep, &runs);
	ASSERT_GT(runs, 100);
	free(pb);
}

TEST_HARNESS_MAIN
