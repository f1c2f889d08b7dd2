// SPDX-License-Identifier: MIT
/*
 * Collectives in HLO text and from the builder: the group forms XLA
 * writes (listed, empty, iota) read as the groups they define, the
 * asynchronous forms read as their work, every rule of who takes part
 * checked with a message, and one participant's results evaluated.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/builder.h>
#include <xrt/evaluate.h>
#include <xrt/ir.h>

/* As ASSERT_OK and ASSERT_ERR, going on after a failure. */
#define EXPECT_OK(expr)                                                       \
	do {                                                                  \
		xrt_status *_st = (expr);                                     \
		if (_st)                                                      \
			TH_LOG("%s: %s", #expr, xrt_status_message(_st));     \
		EXPECT_EQ(NULL, _st);                                         \
		xrt_status_free(_st);                                         \
	} while (0)
#define EXPECT_ERR(expr, code, needle)                                        \
	do {                                                                  \
		xrt_status *_st = (expr);                                     \
		const char *_m = _st ? xrt_status_message(_st) : "";          \
		if (xrt_status_code(_st) != (code) || !strstr(_m, (needle)))  \
			TH_LOG("%s: got '%s', want '%s'", #expr, _m, (needle)); \
		EXPECT_EQ((code), xrt_status_code(_st));                      \
		EXPECT_NE(NULL, strstr(_m, (needle)));                        \
		xrt_status_free(_st);                                         \
	} while (0)
/* The builder's first error is INVALID_ARGUMENT and says @needle. */
#define EXPECT_BUILDER_ERR(b, needle)                                         \
	do {                                                                  \
		const xrt_status *_e = xrt_builder_error(b);                  \
		const char *_m = _e ? xrt_status_message(_e) : "";            \
		if (!strstr(_m, (needle)))                                    \
			TH_LOG("got '%s', want '%s'", _m, (needle));          \
		EXPECT_EQ(XRT_INVALID_ARGUMENT, xrt_status_code(_e));         \
		EXPECT_NE(NULL, strstr(_m, (needle)));                        \
	} while (0)

/* A module text and what reading or verifying it says. */
struct refusal {
	const char *text, *msg;
};

#define SUM "%sum (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n" \
	"  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n"
/* A module of @n replicas whose entry takes x = f32[4,6] and is @body. */
#define MOD(n, body) "HloModule m, replica_count=" #n "\n" SUM "ENTRY e {\n" \
	"  x = f32[4,6] parameter(0)\n  " body "\n}\n"

/* Parses @text; its print (read back, the same) into *@printed. */
static xrt_module *parse_printed(struct __test_metadata *_metadata, const struct xrt_allocator *a,
				 const char *text, char **printed)
{
	xrt_module *m = NULL, *back = NULL;
	char *t2 = NULL;

	EXPECT_OK(xrt_hlo_parse(a, text, strlen(text), &m));
	if (!m)
		return NULL;
	EXPECT_OK(xrt_hlo_print(m, a, printed, NULL));
	EXPECT_OK(xrt_hlo_parse(a, *printed, strlen(*printed), &back));
	if (back)
		EXPECT_OK(xrt_hlo_print(back, a, &t2, NULL));
	if (t2)
		EXPECT_STREQ(*printed, t2);
	xrt_free(a, t2);
	xrt_module_destroy(back);
	return m;
}

/* [G,S]<=[dims]T(perm): the ids 0..n-1 laid out as dims, transposed, cut into G groups. */
TEST_F(xrt, iota_groups_expand_as_xla_defines_them)
{
	static const struct {
		const char *text, *groups;
	} cases[] = {
		{ MOD(4, "ROOT r = f32[8,6] all-gather(x), replica_groups=[2,2]<=[4], dimensions={0}"),
		  "replica_groups={{0,1},{2,3}}" },
		{ MOD(4, "ROOT r = f32[8,6] all-gather(x), replica_groups=[2,2]<=[2,2]T(1,0), "
			 "dimensions={0}"), "replica_groups={{0,2},{1,3}}" },
		{ MOD(8, "ROOT r = f32[4,24] all-gather(x), replica_groups=[2,4]<=[2,2,2]T(2,1,0), "
			 "dimensions={1}"), "replica_groups={{0,4,2,6},{1,5,3,7}}" },
		{ MOD(4, "ROOT r = f32[4,6] all-reduce(x), replica_groups=[1,4]<=[4], to_apply=%sum"),
		  "replica_groups={{0,1,2,3}}" },
	};
	xrt_literal *out = NULL;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = NULL;
		xrt_module *m = parse_printed(_metadata, self->a, cases[i].text, &t);

		ASSERT_NE(NULL, m);
		EXPECT_TRUE(strstr(t, cases[i].groups) != NULL) TH_LOG("%zu: %s", i, t);
		EXPECT_OK(xrt_module_verify(m));
		/* more than one participant: evaluated only all together */
		EXPECT_ERR(xrt_ir_evaluate(m, NULL, 0, NULL, self->a, &out), XRT_INVALID_ARGUMENT,
			   "evaluate it with xrt_ir_evaluate_replicated");
		xrt_free(self->a, t);
		xrt_module_destroy(m);
	}
}

/* Runs entry of @text on f32[4,6] @x (1/7 steps); the result. */
static xrt_literal *run(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			const char *text)
{
	static const int64_t dims[] = { 4, 6 };
	xrt_literal *x = NULL, *out = NULL;
	struct xrt_shape s;
	xrt_module *m = NULL;
	float *p;
	int k;

	EXPECT_OK(xrt_hlo_parse(a, text, strlen(text), &m));
	EXPECT_OK(xrt_shape_init_array(&s, XRT_F32, 2, dims));
	EXPECT_OK(xrt_literal_create(a, &s, &x));
	xrt_shape_deinit(&s);
	if (!m || !x) {
		xrt_module_destroy(m);
		xrt_literal_destroy(x);
		return NULL;
	}
	p = xrt_literal_mutable_data(x);
	for (k = 0; k < 24; k++)
		p[k] = (float)k / 7;
	EXPECT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)&x, 1, NULL, a, &out));
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
	return out;
}

/*
 * all-reduce-start/-done, all-gather-start/-done and
 * collective-permute-start/-done read as the collective they wrap:
 * the same results as the synchronous forms.
 */
TEST_F(xrt, async_collectives_read_as_their_work)
{
	static const char async[] = MOD(1,
		"ars = f32[4,6] all-reduce-start(x), replica_groups={{0}}, to_apply=%sum\n"
		"  ard = f32[4,6] all-reduce-done(ars)\n"
		"  ags = (f32[4,6], f32[4,6]) all-gather-start(x), channel_id=1, "
		"replica_groups={{0}}, dimensions={1}, use_global_device_ids=true\n"
		"  agd = f32[4,6] all-gather-done(ags)\n"
		"  cps = (f32[4,6], f32[4,6], u32[], u32[]) collective-permute-start(x), "
		"source_target_pairs={{0,0}}\n"
		"  cpd = f32[4,6] collective-permute-done(cps)\n"
		"  two = (f32[4,6], f32[4,6]) tuple(x, x)\n"
		"  mgs = ((f32[4,6], f32[4,6]), (f32[4,6], f32[4,6])) all-gather-start(x, x), "
		"replica_groups={}, dimensions={0}\n"
		"  mgd = (f32[4,6], f32[4,6]) all-gather-done(mgs)\n"
		"  ROOT r = (f32[4,6], f32[4,6], f32[4,6], (f32[4,6], f32[4,6])) "
		"tuple(ard, agd, cpd, mgd)");
	static const char sync[] = MOD(1,
		"ar = f32[4,6] all-reduce(x), replica_groups={{0}}, to_apply=%sum\n"
		"  ag = f32[4,6] all-gather(x), channel_id=1, replica_groups={{0}}, "
		"dimensions={1}, use_global_device_ids=true\n"
		"  cp = f32[4,6] collective-permute(x), source_target_pairs={{0,0}}\n"
		"  mg = (f32[4,6], f32[4,6]) all-gather(x, x), replica_groups={}, dimensions={0}\n"
		"  ROOT r = (f32[4,6], f32[4,6], f32[4,6], (f32[4,6], f32[4,6])) "
		"tuple(ar, ag, cp, mg)");
	static const char *const want[] = {
		"%ars = f32[4,6]{1,0} all-reduce(%x), replica_groups={{0}}, to_apply=%sum",
		"%ard = f32[4,6]{1,0} copy(%ars)",
		"%ags.collective0 = f32[4,6]{1,0} all-gather(%x), dimensions={1}, "
		"replica_groups={{0}}, channel_id=1, use_global_device_ids=true",
		"%ags = (f32[4,6]{1,0}, f32[4,6]{1,0}) tuple(%x, %ags.collective0)",
		"%agd = f32[4,6]{1,0} get-tuple-element(%ags), index=1",
		"%cps = (f32[4,6]{1,0}, f32[4,6]{1,0}, u32[], u32[]) tuple(%x, "
		"%cps.collective0, %cps.context0, %cps.context1)",
		"%mgs.operands0 = (f32[4,6]{1,0}, f32[4,6]{1,0}) tuple(%x, %x)",
	};
	xrt_literal *a = run(_metadata, self->a, async), *s = run(_metadata, self->a, sync);
	char *t = NULL, why[256];
	xrt_module *m = parse_printed(_metadata, self->a, async, &t);
	size_t i;

	ASSERT_NE(NULL, m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(t, want[i]) != NULL) TH_LOG("missing %zu in %s", i, t);
	ASSERT_TRUE(a && s);
	EXPECT_TRUE(xrt_literal_equal(a, s, why, sizeof(why))) TH_LOG("%s", why);
	xrt_literal_destroy(a);
	xrt_literal_destroy(s);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
}

/* One participant: sums, gathers and exchanges give the operand, a permute to no one zeros. */
TEST_F(xrt, one_participant_sees_its_own_values)
{
	static const char text[] = MOD(1,
		"ar = f32[4,6] all-reduce(x), replica_groups={}, to_apply=%sum\n"
		"  a2a = f32[4,6] all-to-all(x), replica_groups={{0}}, dimensions={0}\n"
		"  cp = f32[4,6] collective-permute(x), source_target_pairs={}\n"
		"  id = u32[] replica-id()\n"
		"  ROOT r = (f32[4,6], f32[4,6], f32[4,6], u32[]) tuple(ar, a2a, cp, id)");
	xrt_literal *out = run(_metadata, self->a, text);
	const float *ar, *a2a, *cp;
	int k;

	ASSERT_NE(NULL, out);
	ar = xrt_literal_data(xrt_literal_element(out, 0));
	a2a = xrt_literal_data(xrt_literal_element(out, 1));
	cp = xrt_literal_data(xrt_literal_element(out, 2));
	for (k = 0; k < 24; k++) {
		EXPECT_EQ((float)k / 7, ar[k]);
		EXPECT_EQ((float)k / 7, a2a[k]);
		EXPECT_EQ(0.0f, cp[k]);
	}
	EXPECT_EQ(0u, *(const uint32_t *)xrt_literal_data(xrt_literal_element(out, 3)));
	xrt_literal_destroy(out);
}

/* Who takes part, and the shapes that follow: each rule broken once. */
TEST_F(xrt, malformed_collectives_say_what_is_wrong)
{
	static const struct refusal unread[] = {
		{ MOD(4, "ROOT r = f32[4,6] all-reduce(x), replica_groups=[2,2]<=[3], to_apply=%sum"),
		  "2 groups of 2 are not the 3 iota ids" },
		{ MOD(4, "ROOT r = f32[4,6] all-reduce(x), "
			 "replica_groups=[4611686018427387904,4]<=[4], to_apply=%sum"),
		  "4611686018427387904 groups of 4 are not the 4 iota ids" },
		{ MOD(4, "ROOT r = f32[4,6] all-reduce(x), replica_groups={{0,1}, to_apply=%sum"),
		  "line 9, column 59: expected '{' to open a group" },
		{ MOD(1, "ROOT r = f32[4,6] all-gather-start(x), replica_groups={}, dimensions={0}"),
		  "all-gather-start's shape is not (operands, result, context...)" },
		{ MOD(1, "s = (f32[4,6], f32[4,6]) all-gather-start(x), replica_groups={}, "
			 "dimensions={0}\n  ROOT d = f32[4,6] all-gather-done(s, s)"),
		  "d: all-gather-done takes the start" },
	};
	static const struct refusal unverified[] = {
		{ MOD(2, "ROOT r = f32[4,6] all-reduce(x), replica_groups={{0}}, to_apply=%sum"),
		  "replica_groups list 1 ids, but there are 2 replicas" },
		{ MOD(2, "ROOT r = f32[4,6] all-reduce(x), replica_groups={{0,0}}, to_apply=%sum"),
		  "replica_groups name replica 0 twice" },
		{ MOD(2, "ROOT r = f32[4,6] all-reduce(x), replica_groups={{0,2}}, to_apply=%sum"),
		  "replica_groups name replica 2, but there are 2" },
		{ MOD(2, "ROOT r = f32[4,6] all-reduce(x), replica_groups={{0,1}}, "
			 "use_global_device_ids=true, to_apply=%sum"),
		  "use_global_device_ids=true needs a channel_id" },
		{ MOD(2, "ROOT r = f32[4,6] all-reduce(x), replica_groups={}, channel_id=1, "
			 "use_global_device_ids=true, to_apply=%sum"),
		  "use_global_device_ids=true needs replica_groups" },
		{ MOD(2, "ROOT r = f32[4,6] all-reduce(x), replica_groups={}, channel_id=0, "
			 "to_apply=%sum"), "channel_id must be a positive number" },
		{ MOD(3, "ROOT r = f32[4,18] all-gather(x), replica_groups={{0},{1,2}}, "
			 "dimensions={1}"), "all-gather needs groups of one size" },
		{ MOD(2, "ROOT r = f32[4,6] all-gather(x), replica_groups={}, dimensions={1}"),
		  "f32[4,12]" },
		{ MOD(3, "ROOT r = f32[4,6] reduce-scatter(x), replica_groups={}, dimensions={0}, "
			 "to_apply=%sum"), "dimension 0 of operand 0 (4) does not split into 3" },
		{ MOD(4, "ROOT r = f32[4,6] reduce-scatter(x), replica_groups={}, dimensions={2}, "
			 "to_apply=%sum"), "dimension 2 of operand 0 of rank 2" },
		{ MOD(2, "ROOT r = (f32[4,6]) all-to-all(x), replica_groups={}"),
		  "all-to-all of 1 operands among 2: one per device" },
		{ MOD(2, "y = f32[6,4] transpose(x), dimensions={1,0}\n"
			 "  ROOT r = (f32[4,6], f32[6,4]) all-to-all(x, y), replica_groups={}"),
		  "all-to-all sends operand 1, of another shape than operand 0" },
		{ MOD(2, "ROOT r = f32[4,6] collective-permute(x), source_target_pairs={{0,1},{0,0}}"),
		  "source_target_pairs send from replica 0 twice" },
		{ MOD(2, "ROOT r = f32[4,6] collective-permute(x), source_target_pairs={{0,1,1}}"),
		  "source_target_pairs has a pair of 3" },
		{ MOD(2, "ROOT r = f32[4,6] collective-permute(x), source_target_pairs={{0,5}}"),
		  "source_target_pairs name replica 5, but there are 2" },
		{ MOD(2, "ROOT r = f32[4,6] collective-permute(x), replica_groups={}"),
		  "collective-permute takes source_target_pairs, not replica_groups" },
		{ MOD(2, "ROOT r = f32[4,6] collective-permute(x), source_target_pairs={}, "
			 "channel_id=1, use_global_device_ids=true"),
		  "collective-permute takes no use_global_device_ids" },
		{ MOD(1, "ROOT r = s32[] replica-id()"), "u32[]" },
	};
	xrt_module *m = NULL;
	size_t i;

	for (i = 0; i < sizeof(unread) / sizeof(unread[0]); i++) {
		EXPECT_ERR(xrt_hlo_parse(self->a, unread[i].text, strlen(unread[i].text), &m),
			   XRT_INVALID_ARGUMENT, unread[i].msg);
		EXPECT_EQ(NULL, m);
	}
	for (i = 0; i < sizeof(unverified) / sizeof(unverified[0]); i++) {
		const char *t = unverified[i].text;

		TH_LOG("case %zu", i);
		ASSERT_OK(xrt_hlo_parse(self->a, t, strlen(t), &m));
		EXPECT_ERR(xrt_module_verify(m), XRT_INVALID_ARGUMENT, unverified[i].msg);
		xrt_module_destroy(m);
	}
}

/* The builder's collectives: the groups it is given, checked as the text's are. */
TEST_F(xrt, collectives_built_in_c)
{
	static const int64_t dims[] = { 4, 6 }, groups[] = { 0, 2, 1, 3 }, pairs[] = { 0, 1, 1, 0 };
	const struct xrt_collective c = { groups, 2, 2, 0, false, false };
	xrt_value x, s, parts[3];
	struct xrt_shape shape, scalar;
	xrt_builder *b, *sub;
	xrt_module *m = NULL;
	char *t = NULL;
	xrt_comp sum;

	ASSERT_OK(xrt_shape_init_array(&shape, XRT_F32, 2, dims));
	ASSERT_OK(xrt_shape_init_array(&scalar, XRT_F32, 0, NULL));
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &b));
	xrt_builder_set_replicas(b, 4, 1);
	xrt_builder_begin(b, "sum");
	sum = xrt_builder_end(b, xrt_build_binary(b, XRT_OP_ADD,
						  xrt_build_parameter(b, 0, &scalar, "a"),
						  xrt_build_parameter(b, 1, &scalar, "b")));
	x = xrt_build_parameter(b, 0, &shape, "x");
	parts[0] = xrt_build_all_reduce(b, &x, 1, sum, &c);
	parts[1] = xrt_build_all_gather(b, &x, 1, 0, &c);
	parts[2] = xrt_build_collective_permute(b, x, pairs, 1, 0);
	s = xrt_build_tuple(b, parts, 3);
	ASSERT_OK(xrt_builder_build(b, s, &m));
	xrt_builder_destroy(b);
	ASSERT_OK(xrt_hlo_print(m, self->a, &t, NULL));
	EXPECT_TRUE(strstr(t, "HloModule m, replica_count=4, num_partitions=1") != NULL)
		TH_LOG("%s", t);
	EXPECT_TRUE(strstr(t, "f32[8,6]{1,0} all-gather(%x), dimensions={0}, "
			   "replica_groups={{0,2},{1,3}}") != NULL) TH_LOG("%s", t);
	EXPECT_TRUE(strstr(t, "collective-permute(%x), source_target_pairs={{0,1}}") != NULL)
		TH_LOG("%s", t);
	xrt_free(self->a, t);
	xrt_module_destroy(m);

	/* the counts come first; groups checked against them; bad arguments named */
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &sub));
	x = xrt_build_parameter(sub, 0, &shape, "x");
	xrt_builder_set_replicas(sub, 2, 1);
	EXPECT_BUILDER_ERR(sub, "the counts come before the first instruction");
	xrt_builder_destroy(sub);
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &sub));
	xrt_builder_set_replicas(sub, 0, 1);
	EXPECT_BUILDER_ERR(sub, "replica_count=0 and num_partitions=1: each must be in 1..65536");
	xrt_builder_destroy(sub);
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &sub));
	xrt_builder_set_replicas(sub, 2, 1);
	x = xrt_build_parameter(sub, 0, &shape, "x");
	xrt_build_all_gather(sub, &x, 1, 0, &c);	/* ids 2 and 3 of 2 replicas */
	EXPECT_BUILDER_ERR(sub, "xrt_build_all_gather");
	xrt_builder_destroy(sub);
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &sub));
	x = xrt_build_parameter(sub, 0, &shape, "x");
	xrt_build_collective_permute(sub, x, NULL, 1, 0);
	EXPECT_BUILDER_ERR(sub, "source_target_pairs is NULL");
	xrt_builder_destroy(sub);
	xrt_shape_deinit(&shape);
	xrt_shape_deinit(&scalar);
}

TEST_HARNESS_MAIN
