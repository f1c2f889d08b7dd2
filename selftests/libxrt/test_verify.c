// SPDX-License-Identifier: MIT
/*
 * The verifier: the corpus verifies; each broken module fails with the
 * instruction named and what is wrong with it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/ir.h>
#include <xrt/wire.h>

/* The opcode table, to check the corpus covers it. */
#include "ir/ir.h"
#include "ir/opcode.h"

/* Helper computations every case may call. */
static const char prelude[] =
	"HloModule v\n"
	"%add (a: f32[], b: f32[]) -> f32[] {\n"
	"  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
	"  ROOT %r = f32[] add(%a, %b)\n}\n"
	"%lt (a: f32[], b: f32[]) -> pred[] {\n"
	"  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
	"  ROOT %r = pred[] compare(%a, %b), direction=LT\n}\n"
	"%neg (a: f32[2]) -> f32[2] {\n"
	"  %a = f32[2]{0} parameter(0)\n  ROOT %r = f32[2]{0} negate(%a)\n}\n"
	"ENTRY %e {\n"
	"  %x = f32[2]{0} parameter(0)\n  %y = f32[2,3]{1,0} parameter(1)\n"
	"  %i = s32[] parameter(2)\n  %s = f32[] parameter(3)\n"
	"  %p = pred[] parameter(4)\n  %u = u32[2]{0} parameter(5)\n";

static xrt_status *verify_body(const struct xrt_allocator *a, const char *body)
{
	char text[4096];
	xrt_module *m;
	xrt_status *st;

	snprintf(text, sizeof(text), "%s%s\n}\n", prelude, body);
	st = xrt_hlo_parse(a, text, strlen(text), &m);
	if (st)
		return xrt_status_annotate(st, "(parse)");
	st = xrt_module_verify(m);
	xrt_module_destroy(m);
	return st;
}

/* Every corpus module verifies, and together they use every opcode. */
TEST_F(xrt, corpus_verifies_and_covers_every_opcode)
{
	bool used[XRT_OP_COUNT] = { false };
	struct test_corpus c = { 0 };
	int files = 0, op;

	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		char *printed;
		xrt_module *m;
		size_t n;

		ASSERT_NE(NULL, c.text) TH_LOG("%s", c.name);
		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m));
		EXPECT_EQ(NULL, xrt_module_verify(m)) TH_LOG("%s", c.name);
		/* The canonical text names each opcode as " name(". */
		ASSERT_OK(xrt_hlo_print(m, self->a, &printed, &n));
		for (op = 0; op < XRT_OP_COUNT; op++) {
			char pat[64];

			snprintf(pat, sizeof(pat), " %s(", xrt_opcode_name((enum xrt_opcode)op));
			used[op] |= strstr(printed, pat) != NULL;
		}
		xrt_free(self->a, printed);
		xrt_module_destroy(m);
		files++;
	}
	ASSERT_GE(files, 70);
	for (op = 0; op < XRT_OP_COUNT; op++) {
		EXPECT_TRUE(used[op]) TH_LOG("no corpus module uses %s",
					     xrt_opcode_name((enum xrt_opcode)op));
	}
}

TEST_F(xrt, well_formed_bodies_verify)
{
	static const char *const good[] = {
		"  ROOT %r = f32[2]{0} add(%x, %x)",
		"  ROOT %r = pred[2]{0} compare(%x, %x), direction=GE, type=TOTALORDER",
		"  ROOT %r = f32[3,2]{0,1} transpose(%y), dimensions={1,0}",
		"  ROOT %r = f32[2,3]{1,0} broadcast(%x), dimensions={0}",
		"  ROOT %r = f32[2]{0} reduce(%y, %s), dimensions={1}, to_apply=%add",
		"  ROOT %r = f32[2]{0} call(%x), to_apply=%neg",
		"  ROOT %r = f32[2]{0} conditional(%p, %x, %x), true_computation=%neg, false_computation=%neg",
		"  ROOT %r = f32[2,3]{1,0} sort(%y), dimensions={1}, to_apply=%lt",
		"  ROOT %r = f32[1,3]{1,0} dynamic-slice(%y, %i, %i), dynamic_slice_sizes={1,3}",
		"  ROOT %r = s32[2,3]{1,0} convert(%y)",
		"  ROOT %r = f32[6]{0} reshape(%y)",
		"  ROOT %r = f32[2]{0} clamp(%s, %x, %s)",
		"  ROOT %r = f32[2]{0} select(%p, %x, %x)",
		"  ROOT %r = f32[2]{0} bitcast-convert(%u)",
	};
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ASSERT_OK(verify_body(self->a, good[i]));
}

TEST_F(xrt, shape_errors_name_the_instruction)
{
	static const struct { const char *body, *msg; } bad[] = {
		{ "  ROOT %r = f32[3]{0} add(%x, %x)",
		  "instruction 'r' (add): shape is f32[3], its operands give f32[2]" },
		{ "  ROOT %r = f32[2]{0} add(%x, %u)", "operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} add(%x, %y)", "operand 1 has rank 2, operand 0 has 1" },
		{ "  ROOT %r = f32[2]{0} add(%x)", "1 operands, expected 2" },
		/* One case at least for every opcode the cases above leave out. */
		{ "  ROOT %r = u32[2]{0} floor(%u)",
		  "instruction 'r' (floor): floor does not take u32" },
		{ "  ROOT %r = u32[2]{0} ceil(%u)",
		  "instruction 'r' (ceil): ceil does not take u32" },
		{ "  ROOT %r = u32[2]{0} round-nearest-afz(%u)",
		  "instruction 'r' (round-nearest-afz): round-nearest-afz does not take u32" },
		{ "  ROOT %r = u32[2]{0} round-nearest-even(%u)",
		  "instruction 'r' (round-nearest-even): round-nearest-even does not take u32" },
		{ "  ROOT %r = u32[2]{0} exponential-minus-one(%u)",
		  "instruction 'r' (exponential-minus-one): exponential-minus-one does not take u32" },
		{ "  ROOT %r = u32[2]{0} log(%u)",
		  "instruction 'r' (log): log does not take u32" },
		{ "  ROOT %r = u32[2]{0} log-plus-one(%u)",
		  "instruction 'r' (log-plus-one): log-plus-one does not take u32" },
		{ "  ROOT %r = u32[2]{0} logistic(%u)",
		  "instruction 'r' (logistic): logistic does not take u32" },
		{ "  ROOT %r = u32[2]{0} sqrt(%u)",
		  "instruction 'r' (sqrt): sqrt does not take u32" },
		{ "  ROOT %r = u32[2]{0} rsqrt(%u)",
		  "instruction 'r' (rsqrt): rsqrt does not take u32" },
		{ "  ROOT %r = u32[2]{0} cbrt(%u)",
		  "instruction 'r' (cbrt): cbrt does not take u32" },
		{ "  ROOT %r = u32[2]{0} tanh(%u)",
		  "instruction 'r' (tanh): tanh does not take u32" },
		{ "  ROOT %r = u32[2]{0} sine(%u)",
		  "instruction 'r' (sine): sine does not take u32" },
		{ "  ROOT %r = u32[2]{0} cosine(%u)",
		  "instruction 'r' (cosine): cosine does not take u32" },
		{ "  ROOT %r = u32[2]{0} tan(%u)",
		  "instruction 'r' (tan): tan does not take u32" },
		{ "  ROOT %r = u32[2]{0} erf(%u)",
		  "instruction 'r' (erf): erf does not take u32" },
		{ "  ROOT %r = f32[3]{0} abs(%x)",
		  "instruction 'r' (abs): shape is f32[3], its operands give f32[2]" },
		{ "  ROOT %r = f32[3]{0} negate(%x)",
		  "instruction 'r' (negate): shape is f32[3], its operands give f32[2]" },
		{ "  ROOT %r = f32[3]{0} sign(%x)",
		  "instruction 'r' (sign): shape is f32[3], its operands give f32[2]" },
		{ "  ROOT %r = f32[2]{0} not(%x)",
		  "instruction 'r' (not): not does not take f32" },
		{ "  ROOT %r = f32[2]{0} is-finite(%x)",
		  "instruction 'r' (is-finite): shape is f32[2], its operands give pred[2]" },
		{ "  ROOT %r = f32[2]{0} count-leading-zeros(%x)",
		  "instruction 'r' (count-leading-zeros): count-leading-zeros does not take f32" },
		{ "  ROOT %r = f32[2]{0} real(%u)",
		  "instruction 'r' (real): real does not take u32" },
		{ "  ROOT %r = f32[2]{0} subtract(%x, %u)",
		  "instruction 'r' (subtract): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} multiply(%x, %u)",
		  "instruction 'r' (multiply): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} divide(%x, %u)",
		  "instruction 'r' (divide): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} remainder(%x, %u)",
		  "instruction 'r' (remainder): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} power(%x, %u)",
		  "instruction 'r' (power): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} maximum(%x, %u)",
		  "instruction 'r' (maximum): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} minimum(%x, %u)",
		  "instruction 'r' (minimum): operand 1 is u32, operand 0 is f32" },
		{ "  ROOT %r = f32[2]{0} atan2(%u, %u)",
		  "instruction 'r' (atan2): atan2 does not take u32" },
		{ "  ROOT %r = c64[2]{0} complex(%u, %u)",
		  "instruction 'r' (complex): complex does not take u32" },
		{ "  ROOT %r = f32[2]{0} and(%x, %x)",
		  "instruction 'r' (and): and does not take f32" },
		{ "  ROOT %r = f32[2]{0} or(%x, %x)",
		  "instruction 'r' (or): or does not take f32" },
		{ "  ROOT %r = f32[2]{0} xor(%x, %x)",
		  "instruction 'r' (xor): xor does not take f32" },
		{ "  ROOT %r = f32[2]{0} shift-right-arithmetic(%x, %x)",
		  "instruction 'r' (shift-right-arithmetic): shift-right-arithmetic does not take f32" },
		{ "  ROOT %r = f32[2]{0} shift-right-logical(%x, %x)",
		  "instruction 'r' (shift-right-logical): shift-right-logical does not take f32" },
		{ "  ROOT %r = f32[2]{0} clamp(%x, %y, %x)",
		  "instruction 'r' (clamp): operand 0 is neither a scalar nor of operand 1's shape" },
		{ "  %c = f32[] constant(1)\n  ROOT %r = f32[2]{0} copy(%c)",
		  "instruction 'r' (copy): shape is f32[2], its operands give f32[]" },
		{ "  ROOT %r = f32[3]{0} copy(%x)",
		  "instruction 'r' (copy): shape is f32[3], its operands give f32[2]" },
		{ "  ROOT %r = f32[3]{0} bitcast(%x)",
		  "instruction 'r' (bitcast): bitcast changes the byte size" },
		{ "  ROOT %r = s32[3]{0} convert(%x)",
		  "instruction 'r' (convert): shape is s32[3], its operands give s32[2]" },
		{ "  ROOT %r = s8[2]{0} bitcast-convert(%x)",
		  "instruction 'r' (bitcast-convert): shape is s8[2], its operands give s8[2,4]" },
		{ "  ROOT %r = f32[2]{0} reverse(%x), dimensions={1}",
		  "instruction 'r' (reverse): dimensions: dimension 1 out of range for rank 1" },
		{ "  ROOT %r = f32[2,3]{1,0} select-and-scatter(%y, %y, %s), window={size=1x1}, select=%add, scatter=%add",
		  "instruction 'r' (select-and-scatter): comparator 'add' does not return pred[]" },
		{ "  ROOT %r = f32[2,3]{1,0} select-and-scatter(%y, %x, %s), window={size=1x1}, select=%lt, scatter=%add",
		  "instruction 'r' (select-and-scatter): source's rank differs from the operand's" },
		{ "  ROOT %r = f32[2,3]{1,0} convolution(%y, %y), window={size=1}, dim_labels=b0f_0io->b0f",
		  "instruction 'r' (convolution): dim_labels missing or not of rank 2" },
		{ "  ROOT %r = f32[2,3]{1,0} convolution(%y, %y), window={size=3}, dim_labels=bf_io->bf",
		  "instruction 'r' (convolution): feature or batch group counts do not divide the dimensions" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%lt",
		  "instruction 'r' (scatter): update computation 'lt' is not (f32[], f32[]) -> f32[]" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={5}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): scatter_dims_to_operand_dims: dimension 5 out of range for rank 2" },
		{ "  ROOT %r = f32[2]{0} while(%x), condition=%neg, body=%neg",
		  "instruction 'r' (while): condition 'neg' does not return pred[]" },
		{ "  ROOT %r = f32[2]{0} while(%x), condition=%lt, body=%neg",
		  "instruction 'r' (while): computation 'lt' takes 2 parameters, expected 1" },
		{ "  ROOT %r = (u32[2]{0}, u32[4]{0}) rng-bit-generator(%u), algorithm=rng_default",
		  "instruction 'r' (rng-bit-generator): state must be u64[n]" },
		{ "  %k = u64[2]{0} parameter(6)\n"
		  "  ROOT %r = (u64[2]{0}, u32[4]{0}) rng-bit-generator(%k), algorithm=rng_mt",
		  "algorithm 'rng_mt', expected rng_default, rng_philox or rng_three_fry" },
		{ "  ROOT %r = f32[2]{0} custom-call(%x)",
		  "instruction 'r' (custom-call): attribute 'custom_call_target' missing" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): 1 window and 0 inserted dimensions for an operand of rank 2" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): index vectors of 1 entries for 2 scatter_dims_to_operand_dims" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=3, to_apply=%add",
		  "instruction 'r' (scatter): index_vector_dim 3 out of range" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={0}, inserted_window_dims={1}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): updates dimension 1 (3) differs from indices dimension 0 (1)" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,4]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): update window dimension 1 (4) exceeds operand dimension 1 (3)" },
		{ "  %ix = s32[2,1]{1,0} constant({{0},{1}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): updates dimension 0 (1) differs from indices dimension 0 (2)" },
		/* the variadic form */
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = f32[2,3]{1,0} scatter(%y, %y, %ix, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): 4 operands, expected n operands, the indices and n updates" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = (f32[2,3]{1,0}, f32[2]{0}) scatter(%y, %x, %ix, %up, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): operand 1's dimensions differ from operand 0's" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  %uu = u32[1,3]{1,0} convert(%up)\n  ROOT %r = (f32[2,3]{1,0}, f32[2,3]{1,0}) scatter(%y, %y, %ix, %up, %uu), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): updates 1's type differs from operand 1's" },
		{ "  %ix = s32[1,1]{1,0} constant({{0}})\n  %up = f32[1,3]{1,0} broadcast(%s), dimensions={}\n  ROOT %r = (f32[2,3]{1,0}, f32[2,3]{1,0}) scatter(%y, %y, %ix, %up, %up), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%add",
		  "instruction 'r' (scatter): computation 'add' takes 2 parameters, expected 4" },
		{ "  ROOT %r = f32[2]{0} imag(%u)",
		  "instruction 'r' (imag): imag does not take u32" },
		/* Found by fuzz_ir_wire: attribute arithmetic overflowed int64. */
		{ "  ROOT %r = f32[2]{0} pad(%x, %s), padding=9223372036854775807_1",
		  "padding of dimension 0 overflows" },
		{ "  ROOT %r = f32[2]{0} reduce-window(%x, %s), window={size=2 "
		  "pad=9223372036854775807_9223372036854775807}, to_apply=%add",
		  "window dimension 0 overflows" },
		{ "  ROOT %r = f32[2]{0} reduce-window(%x, %s), window={size=9223372036854775807 "
		  "rhs_dilate=4}, to_apply=%add",
		  "window dimension 0 overflows" },
		{ "  ROOT %r = f32[2]{0} slice(%x), slice={[0:2:9223372036854775807]}",
		  "shape is f32[2], its operands give f32[1]" },
		/* Operands that must share operand 0's dimensions. */
		{ "  ROOT %r = f32[2]{0} map(%x, %y), dimensions={0}, to_apply=%add",
		  "(map): operand 1 has rank 2, operand 0 has 1" },
		{ "  %z = f32[3]{0} parameter(6)\n  ROOT %r = f32[2]{0} map(%x, %z), dimensions={0}, "
		  "to_apply=%add", "(map): operand 1's dimension 0 differs from operand 0's" },
		{ "  ROOT %r = (f32[2]{0}, f32[2,3]{1,0}) sort(%x, %y), dimensions={0}, to_apply=%lt",
		  "(sort): operand 1 has rank 2, operand 0 has 1" },
		{ "  %z = f32[3]{0} parameter(6)\n  ROOT %r = (f32[], f32[]) reduce(%x, %z, %s, %s), "
		  "dimensions={0}, to_apply=%add",
		  "(reduce): operand 1's dimension 0 differs from operand 0's" },
		/* Regressions found by the ir_wire fuzzer: no operands at all. */
		{ "  ROOT %r = f32[2]{0} broadcast(), dimensions={}", "0 operands, expected 1" },
		{ "  ROOT %r = f32[2]{0} dynamic-update-slice()", "0 operands" },
		{ "  ROOT %r = f32[2]{0} concatenate(), dimensions={0}", "0 operands" },
		{ "  ROOT %r = f32[2]{0} gather()", "0 operands" },
		{ "  ROOT %r = u32[2]{0} exponential(%u)", "exponential does not take u32" },
		{ "  ROOT %r = f32[2]{0} popcnt(%x)", "popcnt does not take f32" },
		{ "  ROOT %r = f32[2]{0} shift-left(%x, %x)", "shift-left does not take f32" },
		{ "  ROOT %r = pred[2]{0} compare(%x, %x)", "attribute 'direction' missing" },
		{ "  ROOT %r = pred[2]{0} compare(%x, %x), direction=XX", "unknown comparison direction 'XX'" },
		{ "  ROOT %r = pred[2]{0} compare(%u, %u), direction=LT, type=FLOAT",
		  "comparison type FLOAT on u32" },
		{ "  ROOT %r = f32[2]{0} select(%x, %x, %x)", "operand 0 is f32, expected pred" },
		{ "  ROOT %r = f32[3,2]{1,0} transpose(%y), dimensions={0,0}", "dimension 0 repeated" },
		{ "  ROOT %r = f32[3,2]{1,0} transpose(%y), dimensions={1,2}",
		  "dimension 2 out of range for rank 2" },
		{ "  ROOT %r = f32[2,3]{1,0} broadcast(%x), dimensions={1}",
		  "operand dimension 0 (2) maps to result dimension 1 (3)" },
		{ "  ROOT %r = f32[7]{0} reshape(%y)", "reshape changes the element type or count" },
		{ "  ROOT %r = f32[1]{0} slice(%x), slice={[1:3]}", "does not fit dimension 2" },
		{ "  ROOT %r = f32[2]{0} reduce(%y, %s), dimensions={2}, to_apply=%add",
		  "dimension 2 out of range" },
		{ "  ROOT %r = f32[2]{0} reduce(%y, %i), dimensions={1}, to_apply=%add",
		  "init 0's type differs from input 0's" },
		{ "  ROOT %r = f32[2]{0} reduce(%y, %s), dimensions={1}, to_apply=%lt",
		  "computation 'lt' does not return a f32 scalar" },
		{ "  ROOT %r = f32[2]{0} reduce(%y, %s), dimensions={1}, to_apply=%neg",
		  "computation 'neg' takes 1 parameters, expected 2" },
		{ "  ROOT %r = f32[2]{0} call(%y), to_apply=%neg",
		  "computation 'neg' parameter 0 differs from operand 0" },
		{ "  ROOT %r = f32[2]{0} conditional(%i, %x, %x), true_computation=%neg, false_computation=%neg",
		  "predicate is s32, expected pred" },
		{ "  ROOT %r = f32[2,3]{1,0} sort(%y), dimensions={1}, to_apply=%add",
		  "comparator 'add' does not return pred[]" },
		{ "  ROOT %r = f32[1,4]{1,0} dynamic-slice(%y, %i, %i), dynamic_slice_sizes={1,4}",
		  "slice size 4 outside dimension 1 (3)" },
		{ "  ROOT %r = f32[1,3]{1,0} dynamic-slice(%y, %s, %i), dynamic_slice_sizes={1,3}",
		  "start index operand 1 is not an integer" },
		{ "  ROOT %r = f32[2]{0} get-tuple-element(%x), index=0", "operand 0 is not a tuple" },
		{ "  %t = (f32[2]{0}) tuple(%x)\n  ROOT %r = f32[2]{0} get-tuple-element(%t), index=1",
		  "index 1 outside a tuple of 1" },
		{ "  ROOT %r = (f32[2]{0}, s32[]) tuple(%x, %s)", "shape is (f32[2], s32[]), its operands give (f32[2], f32[])" },
		{ "  ROOT %r = f32[2,3]{1,0} dot(%x, %y), lhs_contracting_dims={0}, rhs_contracting_dims={1}",
		  "contracting dimension 0 sizes differ (2, 3)" },
		{ "  ROOT %r = f32[3]{0} dot(%x, %y), lhs_contracting_dims={0}, rhs_contracting_dims={0}, lhs_batch_dims={0}",
		  "batch or contracting dimension lists differ in length" },
		{ "  ROOT %r = f32[4]{0} concatenate(%x, %u), dimensions={0}", "operand 1's rank or type differs" },
		{ "  ROOT %r = f32[2]{0} pad(%x, %i), padding=0_0", "padding value's type differs" },
		{ "  ROOT %r = s32[2]{0} iota(), iota_dimension=1", "iota_dimension 1 for s32 of rank 1" },
		{ "  ROOT %r = f32[2]{0} reduce-precision(%x), exponent_bits=0, mantissa_bits=2",
		  "exponent_bits 0" },
		{ "  ROOT %r = f32[2]{0} rng(%s, %s), distribution=rng_cauchy",
		  "distribution must be rng_uniform or rng_normal" },
		/* the parser refuses these two before the verifier sees them */
		{ "  ROOT %r = f32[2,3]{1,0} parameter(9)", "parameter(9) 'r', but it has 7 parameters" },
		{ "  ROOT %r = f32[2,3]{1,0} parameter(0)", "parameter(0) twice ('r')" },
		{ "  ROOT %r = f32[1]{0} reduce-window(%x, %s), window={size=2 stride=0}, to_apply=%add",
		  "size, stride or dilation below 1" },
		{ "  ROOT %r = f32[2]{0} map(%x, %x), dimensions={0}, to_apply=%neg",
		  "computation 'neg' parameter 0 is not a f32 scalar" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ASSERT_ERR(verify_body(self->a, bad[i].body), XRT_INVALID_ARGUMENT, bad[i].msg);
	ASSERT_GE(sizeof(bad) / sizeof(bad[0]), 35);
}

/*
 * An operand that does not come before its instruction (a cycle, or a
 * forward use) fails verification.  The readers refuse both; a module
 * changed in memory is how another producer could make one.
 */
TEST_F(xrt, operands_come_before_their_instruction)
{
	static const char text[] = "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
				   "  b = f32[] negate(a)\n  ROOT c = f32[] negate(b)\n}\n";
	uint32_t *ops[2];
	xrt_module *m = NULL;
	int k;

	ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
	ASSERT_OK(xrt_module_verify(m));
	ops[0] = &m->comps[0].instrs[1].operands[0];	/* b of c: a forward use */
	ops[1] = &m->comps[0].instrs[2].operands[0];	/* c of itself: a cycle */
	for (k = 0; k < 2; k++) {
		uint32_t was = *ops[k];

		*ops[k] = 2;
		ASSERT_ERR(xrt_module_verify(m), XRT_INVALID_ARGUMENT,
			   "operand 0 does not come before the instruction");
		*ops[k] = was;
	}
	ASSERT_OK(xrt_module_verify(m));
	xrt_module_destroy(m);
}

/*
 * Parameter numbers: the readers check them, and so does the verifier,
 * for a module changed in memory: a number used twice, one past the
 * count, a negative one.
 */
TEST_F(xrt, parameter_numbers_verified_in_memory)
{
	static const char text[] = "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n"
				   "  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n";
	static const struct {
		int64_t number;
		const char *want;
	} c[] = {
		{ 0, "parameter number 0 used twice" },
		{ 2, "parameter number 2, the computation has 2" },
		{ -1, "parameter number -1, the computation has 2" },
	};
	xrt_module *m = NULL;
	size_t k;

	ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		m->comps[0].instrs[1].parameter = c[k].number;
		ASSERT_ERR(xrt_module_verify(m), XRT_INVALID_ARGUMENT, c[k].want);
	}
	m->comps[0].instrs[1].parameter = 1;
	ASSERT_OK(xrt_module_verify(m));
	xrt_module_destroy(m);
}

TEST_HARNESS_MAIN
