// SPDX-License-Identifier: MIT
/*
 * The reference evaluator against values computed without it: every
 * case of eval/eval_cases.txt (written by eval/gen_eval_cases.py from
 * numpy and exact integer and fraction arithmetic) evaluates to its
 * expected literal.  Then what the cases cannot show: arguments and
 * their layouts, errors, the iteration limit, the generators' known
 * answers, running out of memory.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"
#include "test_handlers.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>

#include "eval/eval.h"
#include "test_cases.h"

#define SEED 42		/* the seed gen_eval_structural.py assumes */

/* Runs one case; NULL if it passes, else why (malloc'd). */
static char *run_case(const struct xrt_allocator *a, const struct test_case *c)
{
	struct xrt_eval_options opt = { SEED, 0 };
	xrt_literal *got = NULL, *want = NULL;
	xrt_module *m = NULL;
	char why[512] = "", *msg;
	xrt_status *st;
	bool ok = false;

	st = xrt_hlo_parse(a, c->module, strlen(c->module), &m);
	if (!st)
		st = xrt_ir_evaluate(m, NULL, 0, &opt, a, &got);
	if (!st)
		st = test_case_expected(a, c, &want);
	if (st)
		snprintf(why, sizeof(why), "%s", xrt_status_message(st));
	else if (c->exact)
		ok = xrt_literal_equal(want, got, why, sizeof(why));
	else
		ok = xrt_literal_near(want, got, &c->tol, why, sizeof(why));
	xrt_status_free(st);
	xrt_literal_destroy(got);
	xrt_literal_destroy(want);
	xrt_module_destroy(m);
	if (ok)
		return NULL;
	msg = malloc(800);
	snprintf(msg, 800, "%s: %s", c->name, why);
	return msg;
}

TEST_F(xrt, every_case_matches_its_expected_value)
{
	size_t len = 0;
	char *text = test_slurp(EVAL_CASES, &len), *p = text;
	int cases = 0, failures = 0;
	struct test_case c;

	ASSERT_NE(NULL, text);
	while (test_case_next(&p, &c)) {
		char *why = run_case(self->a, &c);

		if (why) {
			TH_LOG("%s", why);
			failures++;
		}
		free(why);
		cases++;
	}
	free(text);
	EXPECT_EQ(0, failures);
	EXPECT_GE(cases, 600);
}

static const char loop_text[] =
	"HloModule loop\n"
	"%cond (s: s32[]) -> pred[] {\n"
	"  %s = s32[] parameter(0)\n"
	"  %n = s32[] constant(1000)\n"
	"  ROOT %r = pred[] compare(%s, %n), direction=LT\n"
	"}\n"
	"%body (s: s32[]) -> s32[] {\n"
	"  %s = s32[] parameter(0)\n"
	"  %one = s32[] constant(1)\n"
	"  ROOT %r = s32[] add(%s, %one)\n"
	"}\n"
	"ENTRY %main (x: f32[2,3], i: s32[]) -> (f32[3,2], s32[]) {\n"
	"  %x = f32[2,3]{1,0} parameter(0)\n"
	"  %i = s32[] parameter(1)\n"
	"  %t = f32[3,2]{0,1} transpose(%x), dimensions={1,0}\n"
	"  %w = s32[] while(%i), condition=%cond, body=%body\n"
	"  ROOT %r = (f32[3,2]{0,1}, s32[]) tuple(%t, %w)\n"
	"}\n";

static xrt_module *parse(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			 const char *text)
{
	xrt_module *m = NULL;

	ASSERT_OK(xrt_hlo_parse(a, text, strlen(text), &m));
	return m;
}

/* f32[2,3] {{1, 2, 3}, {4, 5, 6}} stored column-major, and s32[] 7. */
static void loop_args(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		      xrt_literal **args)
{
	static const float cm[6] = { 1, 4, 2, 5, 3, 6 };
	struct xrt_shape sx, si;
	int32_t seven = 7;

	ASSERT_OK(xrt_shape_parse(&sx, a, "f32[2,3]{0,1}"));
	ASSERT_OK(xrt_shape_parse(&si, a, "s32[]"));
	ASSERT_OK(xrt_literal_create_from(a, &sx, cm, sizeof(cm), &args[0]));
	ASSERT_OK(xrt_literal_create_from(a, &si, &seven, sizeof(seven), &args[1]));
}

TEST_F(xrt, arguments_in_any_layout_and_result_in_the_root_layout)
{
	xrt_module *m = parse(_metadata, self->a, loop_text);
	xrt_literal *args[2] = { NULL, NULL }, *out = NULL;
	char buf[256];

	loop_args(_metadata, self->a, args);
	ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 2, NULL, self->a, &out));
	xrt_literal_format(out, buf, sizeof(buf));
	EXPECT_STREQ("(f32[3,2]{0,1} {{1, 4}, {2, 5}, {3, 6}}, s32[] 1000)", buf);
	xrt_literal_destroy(out);
	xrt_literal_destroy(args[0]);
	xrt_literal_destroy(args[1]);
	xrt_module_destroy(m);
}

TEST_F(xrt, bad_arguments_and_modules_are_refused)
{
	xrt_module *m = parse(_metadata, self->a, loop_text), *cc;
	struct xrt_eval_options few = { 0, 10 };
	xrt_literal *args[2] = { NULL, NULL }, *out = NULL;

	loop_args(_metadata, self->a, args);
	ASSERT_ERR(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 1, NULL, self->a, &out),
		   XRT_INVALID_ARGUMENT, "1 arguments for the 2 parameters of 'main'");
	{
		const xrt_literal *swapped[2] = { args[1], args[0] };

		ASSERT_ERR(xrt_ir_evaluate(m, swapped, 2, NULL, self->a, &out),
			   XRT_INVALID_ARGUMENT, "argument 0 is s32[], parameter 'x' is f32[2,3]");
	}
	{
		const xrt_literal *holes[2] = { args[0], NULL };

		ASSERT_ERR(xrt_ir_evaluate(m, holes, 2, NULL, self->a, &out),
			   XRT_INVALID_ARGUMENT, "argument 1 is NULL");
	}
	ASSERT_ERR(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 2, &few, self->a, &out),
		   XRT_DEADLINE_EXCEEDED,
		   "instruction 'w' (while): more than 10 iterations");
	ASSERT_ERR(xrt_ir_evaluate(NULL, NULL, 0, NULL, self->a, &out), XRT_INVALID_ARGUMENT,
		   "module is NULL");
	EXPECT_EQ(NULL, out);
	cc = parse(_metadata, self->a,
		   "HloModule c\nENTRY e {\n  %x = f32[2] parameter(0)\n"
		   "  ROOT %r = f32[2] custom-call(%x), custom_call_target=\"fancy_op\"\n}\n");
	ASSERT_ERR(xrt_ir_evaluate(cc, (const xrt_literal *const *)args, 1, NULL, self->a, &out),
		   XRT_INVALID_ARGUMENT, "argument 0 is f32[2,3]{0,1}, parameter 'x' is f32[2]");
	xrt_module_destroy(cc);
	cc = parse(_metadata, self->a,
		   "HloModule c\nENTRY e {\n  %x = f32[2] constant({1, 2})\n"
		   "  ROOT %r = f32[2] custom-call(%x), custom_call_target=\"fancy_op\"\n}\n");
	ASSERT_ERR(xrt_ir_evaluate(cc, NULL, 0, NULL, self->a, &out), XRT_NOT_FOUND,
		   "instruction 'r': custom-call target 'fancy_op' is not registered");
	xrt_module_destroy(cc);
	cc = parse(_metadata, self->a,
		   "HloModule c\nENTRY e {\n  %x = f32[2] constant({1, 2})\n"
		   "  ROOT %r = f32[3] negate(%x)\n}\n");
	ASSERT_ERR(xrt_ir_evaluate(cc, NULL, 0, NULL, self->a, &out), XRT_INVALID_ARGUMENT,
		   "shape is f32[3], its operands give f32[2]");
	xrt_module_destroy(cc);
	xrt_literal_destroy(args[0]);
	xrt_literal_destroy(args[1]);
	xrt_module_destroy(m);
}

TEST_F(xrt, generators_give_the_published_known_answers)
{
	/* Random123's kat_vectors for Philox4x32-10 and Threefry2x32-20. */
	static const uint32_t zero[4], ones[4] = { ~0u, ~0u, ~0u, ~0u };
	static const uint32_t pi_ctr[4] = { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 };
	static const uint32_t pi_key[2] = { 0xa4093822, 0x299f31d0 };
	uint32_t out[4];

	ev_philox4x32(zero, zero, out);
	EXPECT_EQ(0x6627e8d5u, out[0]);
	EXPECT_EQ(0xe169c58du, out[1]);
	EXPECT_EQ(0xbc57ac4cu, out[2]);
	EXPECT_EQ(0x9b00dbd8u, out[3]);
	ev_philox4x32(ones, ones, out);
	EXPECT_EQ(0x408f276du, out[0]);
	EXPECT_EQ(0x41c83b0eu, out[1]);
	EXPECT_EQ(0xa20bc7c6u, out[2]);
	EXPECT_EQ(0x6d5451fdu, out[3]);
	ev_philox4x32(pi_key, pi_ctr, out);
	EXPECT_EQ(0xd16cfe09u, out[0]);
	EXPECT_EQ(0x94fdccebu, out[1]);
	EXPECT_EQ(0x5001e420u, out[2]);
	EXPECT_EQ(0x24126ea1u, out[3]);
	ev_threefry2x32(zero, zero, out);
	EXPECT_EQ(0x6b200159u, out[0]);
	EXPECT_EQ(0x99ba4efeu, out[1]);
	ev_threefry2x32(ones, ones, out);
	EXPECT_EQ(0x1cb996fcu, out[0]);
	EXPECT_EQ(0xbb002be7u, out[1]);
	ev_threefry2x32(pi_ctr + 2, pi_ctr, out);	/* ctr then key, as the vectors list them */
	EXPECT_EQ(0xc4923a9cu, out[0]);
	EXPECT_EQ(0x483df7a0u, out[1]);
}

TEST_F(xrt, same_seed_same_numbers_other_seed_others)
{
	static const char text[] =
		"HloModule r\nENTRY e {\n  %a = f32[] constant(0)\n  %b = f32[] constant(1)\n"
		"  %x = f32[64] rng(%a, %b), distribution=rng_uniform\n"
		"  %y = f32[64] rng(%a, %b), distribution=rng_uniform\n"
		"  ROOT %t = (f32[64], f32[64]) tuple(%x, %y)\n}\n";
	struct xrt_eval_options s1 = { 1, 0 }, s2 = { 2, 0 };
	xrt_module *m = parse(_metadata, self->a, text);
	xrt_literal *a = NULL, *b = NULL, *c = NULL;

	ASSERT_OK(xrt_ir_evaluate(m, NULL, 0, &s1, self->a, &a));
	ASSERT_OK(xrt_ir_evaluate(m, NULL, 0, &s1, self->a, &b));
	ASSERT_OK(xrt_ir_evaluate(m, NULL, 0, &s2, self->a, &c));
	EXPECT_TRUE(xrt_literal_equal(a, b, NULL, 0));
	EXPECT_FALSE(xrt_literal_equal(a, c, NULL, 0));
	/* Two rng instructions draw different numbers. */
	EXPECT_FALSE(xrt_literal_equal(xrt_literal_element(a, 0), xrt_literal_element(a, 1), NULL, 0));
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
	xrt_literal_destroy(c);
	xrt_module_destroy(m);
}

TEST_F_TIMEOUT(xrt, every_corpus_module_evaluates, 120)
{
	struct test_corpus c = { 0 };
	int files = 0;

	test_register_handlers();	/* custom_calls.hlo's targets */

	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		xrt_module *m = parse(_metadata, self->a, c.text);
		uint32_t n = xrt_module_num_computations(m), i;
		const struct ir_comp *e = &m->comps[m->entry];
		xrt_literal *args[16] = { NULL }, *out = NULL;
		xrt_status *st;

		(void)n;
		for (i = 0; i < e->num_instrs; i++) {
			if (e->instrs[i].op == XRT_OP_PARAMETER)
				ASSERT_OK(xrt_literal_create(self->a, &e->instrs[i].shape,
							     &args[e->instrs[i].parameter]));
		}
		st = xrt_ir_evaluate(m, (const xrt_literal *const *)args, e->num_params, NULL,
				     self->a, &out);
		EXPECT_EQ(NULL, st) TH_LOG("%s: %s", c.name, xrt_status_message(st));
		if (!st)
			EXPECT_TRUE(xrt_shape_compatible(&e->instrs[e->root].shape,
							 xrt_literal_shape(out)));
		xrt_status_free(st);
		xrt_literal_destroy(out);
		for (i = 0; i < e->num_params; i++)
			xrt_literal_destroy(args[i]);
		xrt_module_destroy(m);
		files++;
	}
	EXPECT_GE(files, 60);
}

TEST_F(xrt, allocation_failures_fail_cleanly)
{
	xrt_module *m = parse(_metadata, self->a, loop_text);
	xrt_literal *args[2] = { NULL, NULL };
	long n, ok = 0;

	loop_args(_metadata, self->a, args);
	for (n = 1; n < 100000 && !ok; n++) {
		xrt_literal *out = NULL;
		xrt_status *st;

		bool failed;

		test_alloc_fail_at(&self->ta, self->ta.count + n);
		st = xrt_ir_evaluate(m, (const xrt_literal *const *)args, 2, NULL, self->a, &out);
		failed = self->ta.failed;
		test_alloc_fail_at(&self->ta, 0);
		if (!failed) {
			ASSERT_OK(st);
			ok = n;
		} else {
			ASSERT_EQ(XRT_RESOURCE_EXHAUSTED, xrt_status_code(st))
				TH_LOG("allocation %ld: %s", n, xrt_status_message(st));
			xrt_status_free(st);
			ASSERT_EQ(NULL, out);
		}
		xrt_literal_destroy(out);
		/* Every one at first, then a sample of the thousands in the loop. */
		if (n > 300)
			n += 96;
	}
	EXPECT_GT(ok, 100);
	xrt_literal_destroy(args[0]);
	xrt_literal_destroy(args[1]);
	xrt_module_destroy(m);
}

TEST_HARNESS_MAIN
