// SPDX-License-Identifier: MIT
/*
 * HLO text: every module of the corpus (selftests/libxrt/hlo/) reads,
 * prints, and reads back to a module that prints the same and has the
 * same fingerprint; malformed
 * texts fail with the line and column of the problem; running out of
 * memory at any allocation fails cleanly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/ir.h>
#include <xrt/wire.h>

TEST_F(xrt, corpus_round_trips)
{
	struct test_corpus c = { 0 };
	int files = 0;

	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		char *t1, *t2;
		xrt_module *m1, *m2;
		size_t n1, n2;
		uint64_t f1[2], f2[2];

		ASSERT_NE(NULL, c.text) TH_LOG("%s", c.name);
		TH_LOG("%s", c.name);
		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m1));
		ASSERT_OK(xrt_hlo_print(m1, self->a, &t1, &n1));
		ASSERT_OK(xrt_hlo_parse(self->a, t1, n1, &m2));
		ASSERT_OK(xrt_hlo_print(m2, self->a, &t2, &n2));
		EXPECT_STREQ(t1, t2);
		ASSERT_OK(xrt_module_fingerprint(m1, f1));
		ASSERT_OK(xrt_module_fingerprint(m2, f2));
		EXPECT_EQ(f1[0], f2[0]);
		EXPECT_EQ(f1[1], f2[1]);
		xrt_free(self->a, t1);
		xrt_free(self->a, t2);
		xrt_module_destroy(m1);
		xrt_module_destroy(m2);
		files++;
	}
	ASSERT_GE(files, 70);
}

TEST_F(xrt, module_structure)
{
	static const char text[] =
		"HloModule m\n"
		"%f (a: f32[]) -> f32[] {\n  ROOT %a = f32[] parameter(0)\n}\n"
		"ENTRY %e (x: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n"
		"  ROOT %c = f32[] call(%x), to_apply=%f\n}\n";
	xrt_module *m;

	ASSERT_OK(xrt_hlo_parse(self->a, text, sizeof(text) - 1, &m));
	ASSERT_STREQ("m", xrt_module_name(m));
	ASSERT_EQ(2, xrt_module_num_computations(m));
	xrt_module_destroy(m);
}

TEST_F(xrt, malformed_texts_name_line_and_column)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "", "line 1, column 1: the module has no computations" },
		{ "HloModul m", "line 1, column 10: expected '{' to open the computation" },
		{ "HloModule", "line 1, column 10: expected a module name" },
		{ "HloModule m",
		  "line 1, column 12: the module has no computations" },
		{ "HloModule m\nENTRY e {\n}", "line 3, column 2: computation 'e' is empty" },
		{ "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n",
		  "line 4, column 1: expected '}' to close computation 'e'" },
		{ "HloModule m\ne {\n  a = f32[] frobnicate()\n}",
		  "line 3, column 13: unknown opcode 'frobnicate'" },
		{ "HloModule m\ne {\n  a f32[] parameter(0)\n}",
		  "line 3, column 5: expected '=' after the instruction name" },
		{ "HloModule m\ne {\n  a = f33[] parameter(0)\n}",
		  "line 3, column 7: expected an element type or '('" },
		{ "HloModule m\ne {\n  a = f32[] negate(b)\n}",
		  "line 3, column 20: unknown operand 'b'" },
		/* a cycle: the compiler and the evaluator recursed until the stack ran out */
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  b = f32[] add(a, b)\n}",
		  "line 4, column 20: instruction 'b' uses itself" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  a = f32[] parameter(1)\n}",
		  "line 4, column 3: instruction 'a' defined twice" },
		{ "HloModule m\ne {\n  a = f32[] parameter(x)\n}",
		  "line 3, column 23: expected a parameter number" },
		{ "HloModule m\ne {\n  a = f32[] parameter(-1)\n}",
		  "line 3, column 23: parameter number -1 is negative" },
		{ "HloModule m\ne {\n  a = f32[2] constant({1, 2, 3})\n}",
		  "line 3, column 28: more than 2 elements in dimension 0" },
		{ "HloModule m\ne {\n  a = f32[2] constant({1})\n}",
		  "line 3, column 25: expected ',' between the elements of a constant" },
		{ "HloModule m\ne {\n  a = s8[] constant(300)\n}",
		  "line 3, column 21: '300' is not a s8 value" },
		{ "HloModule m\ne {\n  a = f32[] constant(x1)\n}",
		  "line 3, column 22: 'x1' is not a number" },
		{ "HloModule m\ne {\n  a = pred[] constant(2)\n}",
		  "line 3, column 23: expected true or false" },
		{ "HloModule m\ne {\n  a = f32[2] constant({...})\n}",
		  "line 3, column 23: the constant was printed elided ({...})" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), index=x\n}",
		  "line 3, column 33: expected an integer" },
		{ "HloModule m\ne {\n  a = f32[2] iota(), iota_dimension=0, iota_dimension=0\n}",
		  "line 3, column 40: attribute 'iota_dimension' given twice" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  ROOT c = f32[] call(a), to_apply=g\n}",
		  "line 4, column 36: unknown computation 'g'" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  ROOT c = f32[] call(a), to_apply=e\n}",
		  "line 4, column 36: computation 'e' calls itself" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  s = f32[1] slice(a), slice={[0 1]}\n}",
		  "line 4, column 34: expected ':' after the slice start" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  s = f32[1] reduce-window(a, a), window={stride=1}\n}",
		  "line 4, column 52: window without a size" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  s = f32[1] reduce-window(a, a), window={size=2 stride=1x1}\n}",
		  "line 4, column 61: window field 'stride' has 2 dimensions, size has 1" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  s = f32[1] reduce-window(a, a), window={size=2 bogus=1}\n}",
		  "line 4, column 56: unknown window field 'bogus'" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), custom_call_target=\"abc\n}",
		  "line 3, column 46: unterminated string" },
		{ "HloModule m /* open\n", "line 1, column 13: unterminated comment" },
		{ "HloModule m\ne {\n  ROOT a = f32[] parameter(0)\n  ROOT b = f32[] negate(a)\n}",
		  "line 4, column 3: a second ROOT in computation 'e'" },
		{ "HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(0)\n}\nENTRY f {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 5, column 1: a second ENTRY computation" },
		{ "HloModule m\ne {\n  ROOT a = f32[] parameter(0)\n}\ne {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 5, column 1: computation 'e' defined twice" },
		{ "HloModule m\ne (a: f32[] {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 2, column 3: unbalanced parentheses in a signature" },
		{ "HloModule m\ne (a: f32[]) {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 2, column 14: expected '->' after the parameters" },
		{ "HloModule m\ne {\n  a = f32[9,9,9,9,9,9,9,9,9] parameter(0)\n}",
		  "line 3, column 27: more than 8 dimensions" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0), sharding={{replicated}",
		  "line 3, column 50: unbalanced braces in an attribute value" },
		{ "HloModule m\ne {\n  a = (f32[], s32[]) constant((1 2))\n}",
		  "line 3, column 34: expected ',' between tuple elements" },
		{ "HloModule m\ne {\n  a = c64[] constant((1; 2))\n}",
		  "line 3, column 24: expected ',' in a complex value" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), is_stable=maybe\n}",
		  "line 3, column 37: expected true or false" },
		/* Found by fuzz_hlo_parse: a constant of a huge shape was allocated first. */
		{ "HloModule m\ne {\n  a = f32[99999999,99999999] constant({0})\n}",
		  "line 3, column 39: the constant has more elements than the text has characters" },
		{ "HloModule m\ne {\n  a = f32[99999999,99999999] constant(0)\n}",
		  "line 3, column 39: an array constant written as one value is limited to 256 MiB" },
		{ "HloModule m\ne {\n  a = (f32[4000000000], f32[4000000000]) constant((0, 0))\n}",
		  "line 3, column 51: the constant has more elements than the text has characters" },
		{ "HloModule m\ne {\n  a = f32[2 parameter(0)\n}",
		  "line 3, column 13: expected ',' or ']'" },
		{ "HloModule m\ne {\n  a = f32[2]{1} parameter(0)\n}",
		  "line 3, column 16: layout is not a permutation of 0..0: entry 0 is 1" },
		{ "HloModule m\ne {\n  a = f32[2]{0 parameter(0)\n}",
		  "line 3, column 16: expected ',' or '}'" },
		{ "HloModule m\ne {\n  a = f32[-2] parameter(0)\n}",
		  "line 3, column 11: expected a number" },
		{ "HloModule m\ne {\n  a = (f32[], s32[] parameter(0)\n}",
		  "line 3, column 21: expected ',' or ')'" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0\n}",
		  "line 4, column 1: expected ')' after the parameter number" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  b = f32[] negate(a\n}",
		  "line 5, column 1: expected ')' after the operands" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  b = f32[] add(a,, a)\n}",
		  "line 4, column 19: expected an operand name" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), dimensions={1,}\n}",
		  "line 3, column 41: expected an integer" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), dimensions={x}\n}",
		  "line 3, column 39: expected an integer" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), index=99999999999999999999\n}",
		  "line 3, column 33: an integer out of range" },
		{ "HloModule m\ne {\n  a = f32[] constant(1e999x)\n}",
		  "line 3, column 22: '1e999x' is not a number" },
		{ "HloModule m\ne {\n  a = f32[] constant(\n}",
		  "line 4, column 1: expected a value" },
		{ "HloModule m\ne {\n  a = f32[2,2] constant({{1,2},{3}})\n}",
		  "line 3, column 34: expected ',' between the elements of a constant" },
		{ "HloModule m\ne {\n  a = f32[2,2] constant({1,2,3,4})\n}",
		  "line 3, column 26: expected '{' to open a dimension of the constant" },
		{ "HloModule m\ne {\n  a = u8[] constant(-1)\n}",
		  "line 3, column 21: '-1' is not a u8 value" },
		{ "HloModule m\ne {\n  a = s32[] constant(1.5)\n}",
		  "line 3, column 22: '1.5' is not a s32 value" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  c = f32[] call(a), to_apply=\n}",
		  "line 5, column 1: expected a computation name" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  c = f32[] conditional(a), branch_computations={e,}\n}",
		  "line 4, column 50: computation 'e' calls itself" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  s = f32[1] slice(a), slice={[0:1:1:1]}\n}",
		  "line 4, column 37: expected ']' to close a slice range" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  s = f32[1] slice(a), slice={0:1}\n}",
		  "line 4, column 31: expected '[' to open a slice range" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  p = f32[3] pad(a, a), padding=0_1_\n}",
		  "line 5, column 1: expected an interior padding" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  p = f32[3] pad(a, a), padding=0\n}",
		  "line 5, column 1: expected '_' between paddings" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  r = f32[1] reduce-window(a, a), window={size=2 pad=0}\n}",
		  "line 4, column 55: expected '_' between window paddings" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  r = f32[1] reduce-window(a, a), window={size=2 size=2}\n}",
		  "line 4, column 50: window field 'size' given twice" },
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n  r = f32[1] reduce-window(a, a), window={size=x}\n}",
		  "line 4, column 48: expected a window value" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n}\n}",
		  "line 5, column 1: expected a computation name" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n}\nf",
		  "line 5, column 2: expected '{' to open the computation" },
		{ "HloModule m,\ne {\n  a = f32[] parameter(0)\n}",
		  "line 2, column 3: expected '=' after the attribute name" },
		{ "HloModule m, entry_computation_layout=\ne {\n  a = f32[] parameter(0)\n}",
		  "line 2, column 3: expected a computation name" },
		{ "HloModule m\ne {\n  = f32[] parameter(0)\n}",
		  "line 3, column 3: expected an instruction name" },
		{ "HloModule m\n{\n  a = f32[] parameter(0)\n}",
		  "line 2, column 1: expected a computation name" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), direction=\n}",
		  "line 4, column 1: expected a word" },
		{ "HloModule m\ne {\n  a = pred[] constant(true)\n  b = f32[] parameter(0), is_stable=true, is_stable=false\n}",
		  "line 4, column 43: attribute 'is_stable' given twice" },
		{ "HloModule m\ne {\n  a = c64[] constant((1, 2, 3))\n}",
		  "line 3, column 27: expected ')' to close a complex value" },
		{ "HloModule m\ne {\n  a = f32[] constant(nanx)\n}",
		  "line 3, column 22: 'nanx' is not a number" },
		{ "HloModule m\ne {\n  a = bf16[] constant(1) // x\n  b = f32[] negate(z)\n}",
		  "line 4, column 20: unknown operand 'z'" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), slice={[0:1], }\n}",
		  "line 3, column 41: expected '[' to open a slice range" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0)\n  b = f32[] parameter(0\n  c = f32[] negate(a)\n}",
		  "line 5, column 3: expected ')' after the parameter number" },
		{ "HloModule m\ne {\n  a = f32[] parameter(0), dim_labels=\n}",
		  "line 4, column 1: expected a word" },
		{ "HloModule m\ne {\n  a = s32[2] iota(), iota_dimension=\n}",
		  "line 4, column 1: expected an integer" },
		{ "HloModule m\ne {\n  a = (f32[], (s32[], pred[]) parameter(0)\n}",
		  "line 3, column 31: expected ',' or ')'" },
	};
	xrt_module *m;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* The issue asks for the position in every case. */
		ASSERT_EQ(0, strncmp(bad[i].msg, "line ", 5)) TH_LOG("case %zu", i);
		ASSERT_ERR(xrt_hlo_parse(self->a, bad[i].text, strlen(bad[i].text), &m),
			   XRT_INVALID_ARGUMENT, bad[i].msg);
		ASSERT_EQ(NULL, m);
	}
	ASSERT_GE(sizeof(bad) / sizeof(bad[0]), 60);
}

/*
 * Parameter numbers are 0 .. n-1, each once, in every module a reader
 * returns: xrt_module_param_shape() of each of them is then never NULL.
 */
TEST_F(xrt, parameter_numbers_checked_at_parse)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "HloModule m\nENTRY e {\n  p = f32[2] parameter(5)\n  ROOT n = f32[2] negate(p)\n}",
		  "computation 'e': parameter(5) 'p', but it has 1 parameters" },
		{ "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(0)\n"
		  "  ROOT s = f32[] add(a, b)\n}",
		  "computation 'e': parameter(0) twice ('b')" },
		{ "HloModule m\nf {\n  x = f32[] parameter(1)\n  ROOT y = f32[] negate(x)\n}\n"
		  "ENTRY e {\n  ROOT c = f32[] constant(1)\n}",
		  "computation 'f': parameter(1) 'x'" },
	};
	const char *good = "HloModule m\nENTRY e {\n  b = f32[3] parameter(1)\n"
			   "  a = f32[2] parameter(0)\n  ROOT t = (f32[2], f32[3]) tuple(a, b)\n}";
	xrt_module *m;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_ERR(xrt_hlo_parse(self->a, bad[i].text, strlen(bad[i].text), &m),
			   XRT_INVALID_ARGUMENT, bad[i].msg);
		ASSERT_EQ(NULL, m);
	}
	ASSERT_OK(xrt_hlo_parse(self->a, good, strlen(good), &m));
	ASSERT_EQ(2, xrt_module_num_params(m));
	for (i = 0; i < 2; i++)
		ASSERT_NE(NULL, xrt_module_param_shape(m, (uint32_t)i));
	xrt_module_destroy(m);
}

TEST_F(xrt, parse_survives_every_failing_allocation)
{
	char path[1024], *text;
	size_t n;
	long k;

	snprintf(path, sizeof(path), "%s/control_flow.hlo", HLO_CORPUS_DIR);
	text = test_slurp(path, &n);
	ASSERT_NE(NULL, text);
	for (k = 1;; k++) {
		xrt_module *m = NULL;
		xrt_status *st;

		test_alloc_fail_at(&self->ta, k);
		st = xrt_hlo_parse(self->a, text, n, &m);
		if (!self->ta.failed) {
			ASSERT_OK(st);
			xrt_module_destroy(m);
			break;
		}
		ASSERT_EQ(XRT_RESOURCE_EXHAUSTED, xrt_status_code(st))
			TH_LOG("allocation %ld: %s", k, xrt_status_message(st));
		xrt_status_free(st);
		ASSERT_EQ(NULL, m);
		ASSERT_EQ(0, self->ta.live) TH_LOG("leak after failing allocation %ld", k);
	}
	ASSERT_GT(k, 50);
	test_alloc_fail_at(&self->ta, 0);
	free(text);
}

TEST_HARNESS_MAIN
