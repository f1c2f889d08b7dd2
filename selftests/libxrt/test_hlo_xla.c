// SPDX-License-Identifier: MIT
/*
 * HLO text as XLA prints it: the forms its dumps use that hand-written
 * modules do not (headers with attributes, the stack frame index, ...),
 * each read, printed and read back, and malformed variants of each
 * refused with the line and column.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>

/* A module text and what its refusal says. */
struct refusal {
	const char *text, *msg;
};

/* Each of @bad is refused as INVALID_ARGUMENT with its message, and no module made. */
static void expect_refused(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			   const struct refusal *bad, size_t n)
{
	xrt_module *m;
	size_t i;

	for (i = 0; i < n; i++) {
		ASSERT_ERR(xrt_hlo_parse(a, bad[i].text, strlen(bad[i].text), &m),
			   XRT_INVALID_ARGUMENT, bad[i].msg);
		ASSERT_EQ(NULL, m);
	}
}

/* Parses @text, prints it and checks the print reads back the same. */
static xrt_module *parse_and_round_trip(struct __test_metadata *_metadata,
					const struct xrt_allocator *a, const char *text,
					char **printed)
{
	xrt_module *m, *m2;
	char *t, *t2;
	size_t n, n2;
	xrt_status *st = xrt_hlo_parse(a, text, strlen(text), &m);

	if (st) {
		TH_LOG("%s", xrt_status_message(st));
		xrt_status_free(st);
		return NULL;
	}
	st = xrt_hlo_print(m, a, &t, &n);
	if (!st)
		st = xrt_hlo_parse(a, t, n, &m2);
	if (st) {
		TH_LOG("%s", xrt_status_message(st));
		xrt_status_free(st);
		xrt_module_destroy(m);
		return NULL;
	}
	if (xrt_hlo_print(m2, a, &t2, &n2)) {
		xrt_module_destroy(m2);
		xrt_module_destroy(m);
		return NULL;
	}
	EXPECT_STREQ(t, t2);
	xrt_free(a, t2);
	xrt_module_destroy(m2);
	if (printed)
		*printed = t;
	else
		xrt_free(a, t);
	return m;
}

TEST_F(xrt, header_as_xla_prints_it)
{
	static const char *const texts[] = {
		/* a dump: a dotted name, every attribute XLA prints */
		"HloModule jit_f.167:, is_scheduled=true, "
		"entry_computation_layout={(f32[4,6]{1,0})->f32[4,6]{1,0}}, "
		"allow_spmd_sharding_propagation_to_parameters={true}, "
		"allow_spmd_sharding_propagation_to_output={true}, "
		"frontend_attributes={fingerprint_before_lhs=\"3a\"}\n\n"
		"ENTRY %main.1 (a.1: f32[4,6]) -> f32[4,6] {\n"
		"  ROOT %a.1 = f32[4,6]{1,0} parameter(0), metadata={op_name=\"a\"}\n}\n",
		/* no header at all */
		"ENTRY e {\n  ROOT a = f32[] parameter(0)\n}\n",
		/* the stack frame index of newer XLA */
		"HloModule m\n\nFileNames\n1 \"/x/y.py\"\n\nFunctionNames\n1 \"<module>\"\n\n"
		"FileLocations\n1 {file_name_id=1 function_name_id=1 line=9 end_line=9 column=8 "
		"end_column=29}\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\n"
		"ENTRY e {\n  ROOT a = f32[] parameter(0), metadata={op_name=\"a\" "
		"stack_frame_id=1}\n}\n",
	};
	static const char *const names[] = { "jit_f.167", "module", "m" };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		xrt_module *m = parse_and_round_trip(_metadata, self->a, texts[i], NULL);

		ASSERT_NE(NULL, m) TH_LOG("text %zu", i);
		EXPECT_STREQ(names[i], xrt_module_name(m));
		xrt_module_destroy(m);
	}
}

/* The counts are kept and print; the module runs on 8 devices, evaluated together. */
TEST_F(xrt, replica_and_partition_counts_are_kept)
{
	static const char text[] =
		"HloModule m, replica_count=4, num_partitions=2\n"
		"ENTRY e {\n  ROOT a = f32[] parameter(0)\n}\n";
	xrt_literal *out;
	xrt_module *m;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(0, strncmp(t, "HloModule m, replica_count=4, num_partitions=2\n", 47))
		TH_LOG("%s", t);
	xrt_free(self->a, t);
	EXPECT_EQ(4, xrt_module_num_replicas(m));
	EXPECT_EQ(2, xrt_module_num_partitions(m));
	ASSERT_ERR(xrt_ir_evaluate(m, NULL, 0, NULL, self->a, &out),
		   XRT_INVALID_ARGUMENT, "evaluate: module 'm' runs on 8 devices (replica_count=4, "
		   "num_partitions=2): evaluate it with xrt_ir_evaluate_replicated");
	xrt_module_destroy(m);
}

TEST_F(xrt, malformed_headers_name_line_and_column)
{
	static const struct refusal bad[] = {
		{ "HloModule m, replica_count=0\nENTRY e {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 1, column 28: replica_count=0: not in 1..65536" },
		{ "HloModule m, num_partitions=65537\ne {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 1, column 29: num_partitions=65537: not in 1..65536" },
		{ "HloModule m, replica_count=two\ne {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 1, column 28: expected a count" },
		{ "HloModule m\nFileNames\n1 \"a.py\"\n2\ne {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 5, column 1: expected a string or '{' after index 2 of FileNames" },
		{ "HloModule m\nStackFrames\n1 {file_location_id=1\ne {\n  ROOT a = f32[] parameter(0)\n}",
		  "line 6, column 2: unbalanced braces in an attribute value" },
	};

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* A fusion reads as a call of its computation; kind= is checked, then dropped. */
TEST_F(xrt, fusion_is_a_call)
{
	static const char text[] =
		"HloModule m\n"
		"%fused (p0: f32[2]) -> f32[2] {\n  %p0 = f32[2]{0} parameter(0)\n"
		"  ROOT %n = f32[2]{0} negate(%p0)\n}\n"
		"ENTRY %e (a: f32[2]) -> f32[2] {\n  %a = f32[2]{0} parameter(0)\n"
		"  ROOT %f = f32[2]{0} fusion(%a), kind=kLoop, calls=%fused\n}\n";
	static const char want[] = "  ROOT %f = f32[2]{0} call(%a), to_apply=%fused\n";
	xrt_module *m;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	EXPECT_NE(NULL, strstr(t, want)) TH_LOG("%s", t);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
}

/* Opcodes that compute what one of ours does read as it, and print so. */
TEST_F(xrt, opcodes_read_as_ours)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  a = f32[2]{0} parameter(0)\n"
		"  t = (f32[2]{0}) tuple(a)\n  b = (f32[2]{0}) opt-barrier(t)\n"
		"  g = f32[2]{0} get-tuple-element(b), index=0\n"
		"  d = f32[2]{0} domain(g), domain={kind=\"sharding\", entry={}, exit={}}\n"
		"  i = s32[2]{0} bitcast(d)\n  r = f32[1,2]{1,0} bitcast(d)\n"
		"  ROOT o = (s32[2]{0}, f32[1,2]{1,0}) tuple(i, r)\n}\n";
	static const char *const want[] = {
		"%b = (f32[2]{0}) copy(%t)", "%d = f32[2]{0} copy(%g)",
		"%i = s32[2]{0} bitcast-convert(%d)",
		/* a bitcast that changes the dimensions stays one */
		"%r = f32[1,2]{1,0} bitcast(%d)",
	};
	xrt_module *m;
	size_t i;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(t, want[i]) != NULL) TH_LOG("missing entry %zu of want", i);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
}

/* XLA's own custom-call targets that are one of our opcodes read as it. */
TEST_F(xrt, xla_custom_calls_read_as_ours)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[3,17]{1,0} parameter(0)\n"
		"  ROOT t = (f32[3,5]{1,0}, s32[3,5]{1,0}) custom-call(x), custom_call_target=\"TopK\", "
		"called_computations={}, api_version=API_VERSION_ORIGINAL\n}\n";
	static const struct refusal bad[] = {
		{ "HloModule m\nENTRY e {\n  x = f32[3,17] parameter(0)\n"
		  "  ROOT t = (f32[3,5], s32[3,4]) custom-call(x), custom_call_target=\"TopK\"\n}",
		  "t: custom-call TopK's result is not (T[.., k], s32[.., k]) of its operand" },
		{ "HloModule m\nENTRY e {\n  x = f32[3,17] parameter(0)\n"
		  "  ROOT t = (f32[3,5], s32[3,5]) custom-call(x, x), custom_call_target=\"TopK\"\n}",
		  "t: custom-call TopK takes one operand" },
	};
	xrt_module *m;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	EXPECT_TRUE(strstr(t, "ROOT %t = (f32[3,5]{1,0}, s32[3,5]{1,0}) topk(%x), k=5, "
			   "largest=true") != NULL) TH_LOG("%s", t);
	EXPECT_EQ(NULL, xrt_module_verify(m));
	xrt_free(self->a, t);
	xrt_module_destroy(m);
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* XLA's opcodes that are not read yet say why, not "unknown". */
TEST_F(xrt, unsupported_xla_opcodes_say_why)
{
	static const struct refusal bad[] = {
		{ "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		  "  ROOT r = f32[2] ragged-all-to-all(x, x, x, x, x, x), replica_groups={}\n}",
		  "line 4, column 19: XLA's ragged-all-to-all is not supported: XLA's CPU backend does "
		  "not run it either" },

		{ "HloModule m\nENTRY e {\n  t = token[] after-all()\n"
		  "  ROOT r = (f32[2], token[]) infeed(t)\n}",
		  "XLA's infeed is not supported: a program takes parameters and gives results" },
	};

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/*
 * Bounded dynamic dimensions read as static ones and their sizes: the
 * module prints without a "<=", and what it prints reads back the same.
 */
TEST_F(xrt, dynamic_dimensions_lower_to_static_ones)
{
	static const char text[] =
		"HloModule m\n"
		"add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
		"  ROOT s = f32[] add(a, b)\n}\n"
		"ENTRY e {\n  x = f32[<=4,3] parameter(0)\n  n = s32[] parameter(1)\n"
		"  d = f32[<=4,3] set-dimension-size(x, n), dimensions={0}\n"
		"  z = f32[] constant(0)\n"
		"  r = f32[3] reduce(d, z), dimensions={0}, to_apply=add\n"
		"  g = s32[] get-dimension-size(d), dimensions={0}\n"
		"  h = s32[] get-dimension-size(d), dimensions={1}\n"
		"  ROOT t = (f32[3], s32[], s32[], f32[<=4,3]) tuple(r, g, h, d)\n}\n";
	xrt_module *m;
	char *printed = NULL;

	m = parse_and_round_trip(_metadata, self->a, text, &printed);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, strstr(printed, "<="));
	EXPECT_EQ(NULL, strstr(printed, "dimension-size"));
	EXPECT_NE(NULL, strstr(printed, "ROOT %t.dyn"));	/* zeros past the size */
	EXPECT_NE(NULL, strstr(printed, "%h = s32[] constant(3)"));
	EXPECT_EQ(NULL, xrt_module_verify(m));
	xrt_free(self->a, printed);
	xrt_module_destroy(m);
}

/* A loop of body b and condition c; the entry makes t and ends with @end. */
#define LOOP(body, cparam, bparam, t, end) "HloModule m\nb {\n  p = " bparam " parameter(0)\n" \
	"  x = f32[<=4] get-tuple-element(p), index=0\n" body "\n}\n" \
	"c {\n  p = " cparam " parameter(0)\n  ROOT r = pred[] constant(true)\n}\n" \
	"ENTRY e {\n  x = f32[4] parameter(0)\n  t = " t "\n" \
	"  w = (f32[4]) while(t), body=b, condition=c\n" end "\n}"

/* Dynamic dimensions where they cannot be lowered, and malformed size instructions. */
TEST_F(xrt, malformed_dynamic_dimensions_say_what_is_wrong)
{
/* Branch a passes its dynamic value on, branch b returns @b_root; the operand is @op. */
#define COND(b_root, op) "HloModule m\na {\n  p = (f32[<=4]) parameter(0)\n" \
	"  g = f32[<=4] get-tuple-element(p), index=0\n  ROOT q = (f32[<=4]) tuple(g)\n}\n" \
	"b {\n  p = (f32[<=4]) parameter(0)\n  g = f32[<=4] get-tuple-element(p), index=0\n" \
	b_root "\n}\nENTRY e {\n  x = f32[4] parameter(0)\n  n = s32[] parameter(1)\n" \
	"  k = s32[] parameter(2)\n  d = f32[<=4] set-dimension-size(x, n), dimensions={0}\n" \
	"  t = (f32[<=4]) " op "\n" \
	"  ROOT r = (f32[<=4]) conditional(k, t, t), branch_computations={a, b}\n}"
#define DYN(body) "HloModule m\nENTRY e {\n  x = f32[4,3] parameter(0)\n" \
	"  n = s32[] parameter(1)\n  d = f32[<=4,3] set-dimension-size(x, n), dimensions={0}\n" \
	body "\n}"
	static const struct refusal bad[] = {
		{ DYN("  t = f32[3,<=4] transpose(d), dimensions={1,0}\n"
		      "  ROOT r = (f32[3,2], s32[3,2]) topk(t), k=2"),
		  "r: topk along dynamic dimension 1 of operand 0 is not supported" },
		{ DYN("  z = f32[] constant(0)\n  ROOT r = f32[<=5,3] pad(d, z), padding=1_0x0_0"),
		  "r: pad along dynamic dimension 0 of operand 0 is not supported" },
		{ DYN("  ROOT r = f32[3,<=4] reshape(d)"),
		  "r: reshape along dynamic dimension 0 of operand 0 is not supported" },
		{ DYN("  t = (f32[<=4,3]) tuple(d)\n  ROOT r = (f32[<=4,3]) opt-barrier(t)"),
		  "a dynamic value (operand 0) into opt-barrier is not supported" },
		{ "HloModule m\nc {\n  p = f32[4] parameter(0)\n  ROOT q = f32[4] copy(p)\n}\n"
		  "ENTRY e {\n  x = f32[4] parameter(0)\n  n = s32[] parameter(1)\n"
		  "  d = f32[<=4] set-dimension-size(x, n), dimensions={0}\n"
		  "  ROOT r = f32[4] fusion(d), kind=kLoop, calls=c\n}",
		  "r: a dynamic value (operand 0) into fusion is not supported" },
		{ DYN("  ROOT r = f32[4,3] custom-call(d), custom_call_target=\"PadToStatic\""),
		  "r: custom-call PadToStatic takes an array and gives it with an s32[] size" },
		{ DYN("  ROOT r = f32[<=4,3] custom-call(d, n), custom_call_target=\"SliceToDynamic\""),
		  "r: custom-call SliceToDynamic takes a static array and an s32[] size per" },
		{ DYN("  ROOT r = s32[] get-dimension-size(d), dimensions={2}"),
		  "r: get-dimension-size needs dimensions={d}, a dimension of its operand's 2" },
		{ DYN("  ROOT r = s64[] get-dimension-size(d), dimensions={0}"),
		  "r: get-dimension-size gives s32[]" },
		{ DYN("  ROOT r = s32[] get-dimension-size(d, n), dimensions={0}"),
		  "r: get-dimension-size takes 1 operand" },
		{ DYN("  m = s64[] parameter(2)\n"
		      "  ROOT r = f32[<=4,3] set-dimension-size(x, m), dimensions={0}"),
		  "r: set-dimension-size's size must be s32[]" },
		{ DYN("  ROOT r = f32[<=4,2] set-dimension-size(x, n), dimensions={0}"),
		  "r: set-dimension-size's result is its operand's shape" },
		{ "HloModule m\nc {\n  p = f32[<=4] parameter(0)\n  ROOT q = f32[<=4] copy(p)\n}\n"
		  "ENTRY e {\n  x = f32[4] parameter(0)\n  ROOT r = f32[4] call(x), to_apply=c\n}",
		  "computation 'c' has a parameter with a dynamic dimension: only the entry's" },
		{ "HloModule m\nc {\n  p = f32[4] parameter(0)\n  n = s32[] constant(2)\n"
		  "  ROOT q = f32[<=4] set-dimension-size(p, n), dimensions={0}\n}\n"
		  "ENTRY e {\n  x = f32[4] parameter(0)\n  ROOT r = f32[4] call(x), to_apply=c\n}",
		  "computation 'c' returns a value with a dynamic dimension: only the entry may" },
		{ LOOP("  ROOT r = (f32[<=4]) tuple(x)", "(f32[4])", "(f32[<=4])", "(f32[4]) tuple(x)",
		       "  ROOT g = f32[4] get-tuple-element(w), index=0"),
		  "w: while's body and condition differ in their parameter's dynamic dimensions" },
		{ LOOP("  ROOT r = (f32[<=4]) copy(p)", "(f32[<=4])", "(f32[<=4])", "(f32[4]) tuple(x)",
		       "  ROOT g = f32[4] get-tuple-element(w), index=0"),
		  "r: a dynamic value (operand 0) into copy is not supported" },
		{ LOOP("  ROOT r = (f32[<=4]) parameter(1)", "(f32[<=4])", "(f32[<=4])",
		       "(f32[4]) tuple(x)", "  ROOT g = f32[4] get-tuple-element(w), index=0"),
		  "computation 'b' takes a tuple with dynamic dimensions: its root must be a tuple" },
		{ LOOP("  ROOT r = (f32[<=4]) tuple(x)", "(f32[<=4])", "(f32[<=4])", "(f32[4]) tuple(x)",
		       "  ROOT g = (f32[<=4]) copy(w)"),
		  "g: a dynamic value (operand 0) into copy is not supported" },
		{ LOOP("  ROOT r = (f32[<=4]) tuple(x)", "(f32[<=4])", "(f32[<=4])", "(f32[4]) tuple(x)",
		       ""),
		  "computation 'e' returns a loop's tuple of dynamic values: not supported" },
		{ LOOP("  ROOT r = (f32[<=4]) tuple(x)", "(f32[<=4])", "(f32[<=4])", "(f32[4]) copy(x)",
		       "  ROOT g = f32[4] get-tuple-element(w), index=0"),
		  "w: a while over dynamic values takes a tuple instruction of 1 elements" },
		{ "HloModule m\nc {\n  p = (f32[<=4]) parameter(0)\n"
		  "  g = f32[<=4] get-tuple-element(p), index=0\n  ROOT q = (f32[<=4]) tuple(g)\n}\n"
		  "ENTRY e {\n  x = f32[4] parameter(0)\n  t = (f32[4]) tuple(x)\n"
		  "  ROOT r = (f32[4]) call(t), to_apply=c\n}",
		  "r: call calls computation 'c', whose tuple parameter has dynamic dimensions: "
		  "only a while may" },
		{ COND("  ROOT q = (f32[<=4], f32[<=4]) tuple(g, g)", "tuple(d)"),
		  "r: branches 1 and 0 give different dynamic dimensions" },
		{ "HloModule m\nENTRY e {\n  x = f32[3000000000] parameter(0)\n  n = s32[] parameter(1)\n"
		  "  ROOT d = f32[<=3000000000] set-dimension-size(x, n), dimensions={0}\n}",
		  "d: a dynamic dimension's bound must fit s32" },
		{ "HloModule m\nENTRY e {\n  ROOT x = f32[?] parameter(0)\n}",
		  "an unbounded dynamic dimension ('?')" },
		{ "HloModule m\nENTRY e {\n  ROOT x = f32[<4] parameter(0)\n}",
		  "expected '<=' before a dimension's bound" },
	};
#undef DYN
#undef COND
#undef LOOP

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* send and recv: pairs within one computation, each rule with its message. */
TEST_F(xrt, malformed_sends_and_recvs_say_what_is_wrong)
{
#define SR(body) "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  t = token[] after-all()\n" \
	body "\n}"
#define SEND "  s = (f32[2], u32[], token[]) send(x, t), channel_id=3\n"
	static const struct refusal bad[] = {
		{ SR("  ROOT r = (f32[2], u32[], token[]) recv(t), channel_id=3"),
		  "r: recv on channel 3 has no send before it in its computation" },
		{ SR(SEND "  ROOT r = (f32[2], u32[], token[]) send(x, t), channel_id=3"),
		  "r: a second send on channel 3" },
		{ SR(SEND "  r = (f32[2], u32[], token[]) recv(t), channel_id=3\n"
		     "  ROOT q = (f32[2], u32[], token[]) recv(t), channel_id=3"),
		  "q: a second recv on channel 3" },
		{ SR("  ROOT s = (f32[2], u32[], token[]) send(x, t)"),
		  "s: send needs a channel_id" },
		{ SR("  ROOT s = (f32[2], u32[], token[]) send(x, t), channel_id=3, "
		     "is_host_transfer=true"),
		  "send with is_host_transfer=true: a program takes parameters and gives results" },
		{ SR("  ROOT s = (f32[3], u32[], token[]) send(x, t), channel_id=3"),
		  "s: send gives (T, u32[], token[]) of its operand's T, an array" },
		{ SR("  ROOT s = (f32[2], u32[], token[]) send(x, x), channel_id=3"),
		  "s: send takes a value and a token" },
		{ SR(SEND "  ROOT r = (s32[2], u32[], token[]) recv(t), channel_id=3"),
		  "r: recv gives (T, u32[], token[]) of its send's T" },
		{ SR(SEND "  ROOT d = token[] send-done(s), channel_id=4"),
		  "d: send-done takes the send of channel 4" },
		{ SR(SEND "  ROOT d = (f32[2], token[]) recv-done(s), channel_id=3"),
		  "d: recv-done takes the recv of channel 3" },
		{ SR(SEND "  r = (f32[2], u32[], token[]) recv(t), channel_id=3\n"
		     "  ROOT d = (f32[3], token[]) recv-done(r), channel_id=3"),
		  "d: recv-done gives (T, token[]) of its recv's T" },
	};
#undef SEND
#undef SR

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* stochastic-convert: its operands' and result's types, each rule with its message. */
TEST_F(xrt, malformed_stochastic_converts_say_what_is_wrong)
{
#define SC(x, r, out) "HloModule m\nENTRY e {\n  x = " x " parameter(0)\n  b = " r \
	" parameter(1)\n  ROOT c = " out " stochastic-convert(x, b)\n}"
	static const struct refusal bad[] = {
		{ SC("s32[2]", "u32[2]", "s8[2]"), "c: stochastic-convert of a non-float operand" },
		{ SC("f32[2]", "u16[2]", "s8[2]"),
		  "random bits must be unsigned integers as wide as f32" },
		{ SC("f32[2]", "s32[2]", "s8[2]"),
		  "random bits must be unsigned integers as wide as f32" },
		{ SC("f16[2]", "u16[2]", "u8[2]"),
		  "stochastic-convert gives a signed integer (as XLA's CPU backend does)" },
		{ SC("f16[2]", "u16[2]", "f32[2]"), "gives a signed integer" },
		{ SC("f32[2]", "u32[3]", "s8[2]"), "operands and result differ in dimensions" },
		{ SC("f32[2]", "u32[2]", "s8[2,1]"), "operands and result differ in dimensions" },
		{ "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		  "  ROOT c = s8[2] stochastic-convert(x)\n}", "stochastic-convert takes 2 operands" },
	};
#undef SC

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/*
 * rng-get-and-update-state reads as a state drawn from the seed: two of
 * them differ, and another seed gives others.
 */
TEST_F(xrt, rng_state_is_drawn_from_the_seed)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  s = u64[2] rng-get-and-update-state(), delta=3\n"
		"  t = u64[2] rng-get-and-update-state(), delta=3\n"
		"  ROOT r = (u64[2], u64[2]) tuple(s, t)\n}\n";
	static const struct refusal bad[] = {
		{ "HloModule m\nENTRY e {\n  ROOT s = u64[3] rng-get-and-update-state(), delta=3\n}",
		  "s: rng-get-and-update-state takes no operand and gives u64[2]" },
		{ "HloModule m\nENTRY e {\n  ROOT s = u64[2] rng-get-and-update-state(), deltas=3\n}",
		  "attribute 'deltas' of rng-get-and-update-state is not supported" },
	};
	struct xrt_eval_options o1 = { .rng_seed = 1 }, o2 = { .rng_seed = 2 };
	xrt_literal *a = NULL, *b = NULL;
	const uint64_t *s1, *t1, *s2;
	xrt_module *m = NULL;

	ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
	ASSERT_OK(xrt_ir_evaluate(m, NULL, 0, &o1, self->a, &a));
	ASSERT_OK(xrt_ir_evaluate(m, NULL, 0, &o2, self->a, &b));
	s1 = xrt_literal_data(xrt_literal_element(a, 0));
	t1 = xrt_literal_data(xrt_literal_element(a, 1));
	s2 = xrt_literal_data(xrt_literal_element(b, 0));
	EXPECT_TRUE(s1[0] != t1[0] || s1[1] != t1[1]);
	EXPECT_TRUE(s1[0] != s2[0] || s1[1] != s2[1]);
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
	xrt_module_destroy(m);
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* dynamic-reshape: each malformed form named. */
TEST_F(xrt, malformed_dynamic_reshapes_say_what_is_wrong)
{
#define DR(out, ops) "HloModule m\nENTRY e {\n  x = f32[2,2] parameter(0)\n" \
	"  n = s32[] parameter(1)\n  h = s16[] parameter(2)\n" \
	"  ROOT r = " out " dynamic-reshape(" ops ")\n}"
	static const struct refusal bad[] = {
		{ DR("f32[<=4]", "x, n, n"), "r: dynamic-reshape takes an array and an s32[] size "
		  "per result dimension, and gives an array of its type" },
		{ DR("s32[<=4]", "x, n"), "gives an array of its type" },
		{ DR("f32[]", "x"), "gives an array of its type" },
		{ DR("f32[<=4]", "x, h"), "r: dynamic-reshape's sizes are s32[]" },
	};
#undef DR

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* bitcast-convert regrouping sub-byte bits: each malformed form named. */
TEST_F(xrt, malformed_regroupings_say_what_is_wrong)
{
#define BC(x, out) "HloModule m\nENTRY e {\n  x = " x " parameter(0)\n" \
	"  ROOT c = " out " bitcast-convert(x)\n}"
	static const struct refusal bad[] = {
		{ BC("s8[3]", "s4[3,3]"), "c: bitcast-convert from s8 to s4 regroups 2 s4 into one "
		  "s8: the narrow side needs a last dimension of 2" },
		{ BC("u2[3]", "s8[3]"), "regroups 4 u2 into one s8: the narrow side needs a last "
		  "dimension of 4" },
		{ BC("s8[3]", "s4[2,2]"), "c: bitcast-convert from s8 to s4: the wide side's "
		  "dimensions are the narrow side's but the last" },
		{ BC("s4[2,4,2]", "s8[2,3]"), "the wide side's dimensions are the narrow side's" },
	};
	static const char pred[] = BC("pred[2]", "u4[2,2]");
	xrt_module *m = NULL;
#undef BC

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
	/* pred is not regrouped (XLA has no bits of it): the verifier says so */
	ASSERT_OK(xrt_hlo_parse(self->a, pred, strlen(pred), &m));
	ASSERT_ERR(xrt_module_verify(m), XRT_INVALID_ARGUMENT, "bitcast-convert from pred to "
		   "u4: the IR holds no regrouping of bits narrower than a byte");
	xrt_module_destroy(m);
}

/* ragged-dot: the forms read, and each other one refused by name. */
TEST_F(xrt, malformed_ragged_dots_say_what_is_wrong)
{
#define RD(l, w, g, out, attrs) "HloModule m\nENTRY e {\n  a = " l " parameter(0)\n  w = " w \
	" parameter(1)\n  g = " g " parameter(2)\n  ROOT r = " out " ragged-dot(a, w, g), " attrs "\n}"
#define NC "lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, " \
	"rhs_group_dims={0}"
	static const struct refusal bad[] = {
		{ RD("f32[6,4]", "f32[3,4,2]", "s32[3]", "f32[6,2]",
		     "lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={1}, "
		     "rhs_group_dims={0}"), "ragged-dot with a ragged contracting dimension" },
		{ RD("f32[2,6,4]", "f32[3,2,4,5]", "s32[2,3]", "f32[2,6,5]",
		     "lhs_batch_dims={0}, rhs_batch_dims={1}, lhs_contracting_dims={2}, "
		     "rhs_contracting_dims={2}, lhs_ragged_dims={1}, rhs_group_dims={0}"),
		  "ragged-dot with batch dimensions is not supported yet" },
		{ RD("f32[6,4]", "f32[3,4,2]", "f32[3]", "f32[6,2]", NC),
		  "ragged-dot's group sizes are s32 or s64" },
		{ RD("f32[6,4]", "f32[3,4,2]", "s32[2]", "f32[6,2]", NC),
		  "operand and result dimensions do not agree" },
		{ RD("f32[6,4]", "f32[3,5,2]", "s32[3]", "f32[6,2]", NC),
		  "operand and result dimensions do not agree" },
		{ RD("f32[6,4]", "bf16[3,4,2]", "s32[3]", "f32[6,2]", NC),
		  "ragged-dot of f32 x bf16 to f32: one real type is supported" },
		{ RD("f32[6,4]", "f32[3,4,2]", "s32[3]", "f32[6,2]",
		     "lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}"),
		  "one lhs ragged dimension and one rhs group dimension" },
		{ RD("f32[6,4]", "f32[3,4,2]", "s32[3]", "f32[6,2]",
		     "lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={3}, "
		     "rhs_group_dims={0}"), "lhs_ragged_dims={3} is not a dimension of lhs" },
		{ RD("f32[6,4,1]", "f32[3,4,2]", "s32[3]", "f32[6,2]", NC),
		  "supported for lhs [m, k], rhs [g, k, n] and group_sizes [g] only" },
	};
#undef NC
#undef RD

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* A tuple may come without its shape: its operands give it. */
TEST_F(xrt, a_tuple_may_leave_its_shape_out)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  a = f32[2]{0} parameter(0)\n  b = s32[] parameter(1)\n"
		"  e = tuple()\n  ROOT t = tuple(a, b, e)\n}\n";
	static const struct refusal bad[] = {
		{ "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT n = negate(a)\n}",
		  "line 4, column 12: expected an element type or '('" },
	};
	xrt_module *m;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	EXPECT_TRUE(strstr(t, "ROOT %t = (f32[2]{0}, s32[], ()) tuple(%a, %b, %e)") != NULL)
		TH_LOG("%s", t);
	EXPECT_EQ(NULL, xrt_module_verify(m));
	xrt_free(self->a, t);
	xrt_module_destroy(m);
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* Tokens hold no data: the empty tuple; after-all and add-dependency drop them. */
TEST_F(xrt, tokens_read_as_empty_tuples)
{
	static const char text[] =
		"HloModule m, entry_computation_layout={(token[], f32[2]{0})->(token[], f32[2]{0})}\n"
		"ENTRY e {\n  t = token[] parameter(0)\n  x = f32[2]{0} parameter(1)\n"
		"  a = token[] after-all()\n  b = token[] after-all(t, a)\n"
		"  n = f32[2]{0} negate(x)\n  d = f32[2]{0} add-dependency(n, b)\n"
		"  ROOT r = (token[], f32[2]{0}) tuple(b, d)\n}\n";
	static const char *const want[] = {
		"%t = () parameter(0)", "%a = () tuple()", "%b = () tuple()",
		"%d = f32[2]{0} copy(%n)", "ROOT %r = ((), f32[2]{0}) tuple(%b, %d)",
	};
	static const struct refusal bad[] = {
		{ "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		  "  ROOT a = token[] after-all(x)\n}", "a: operand 0 is not a token" },
		{ "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		  "  ROOT d = f32[2] add-dependency(x, x)\n}", "d: operand 1 is not a token" },
		{ "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		  "  ROOT d = f32[2] add-dependency(x)\n}", "add-dependency takes a value and a token" },
		{ "HloModule m\nENTRY e {\n  ROOT t = token[2] parameter(0)\n}",
		  "expected '[]' after token" },
	};
	xrt_module *m;
	size_t i;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(t, want[i]) != NULL) TH_LOG("missing entry %zu in %s", i, t);
	EXPECT_EQ(NULL, xrt_module_verify(m));
	xrt_free(self->a, t);
	xrt_module_destroy(m);
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* The asynchronous forms read as the work they wrap. */
TEST_F(xrt, async_forms_read_as_their_work)
{
	static const char *const want[] = {
		"%st.operands0 = (f32[3]{0}, f32[3]{0}) tuple(%x, %y)",
		"%st.call0 = f32[3]{0} call(%x, %y), to_apply=%wrapped",
		"%st.context0 = s32[] constant(0)",
		"tuple(%st.operands0, %st.call0, %st.context0)",
		"%up = ((f32[3]{0}, f32[3]{0}), f32[3]{0}, s32[]) copy(%st)",
		"%dn = f32[3]{0} get-tuple-element(%up), index=1",
		"%cs.copy0 = f32[2,3]{1,0} copy(%m)",
		"%cs = (f32[2,3]{1,0}, f32[2,3]{0,1}, u32[]) tuple(%cs.copy0, %m, %cs.context0)",
		"%cd = f32[2,3]{1,0} get-tuple-element(%cs), index=0",
	};
#define ASYNC(decl) "HloModule m\n%w (a: f32[]) -> f32[] {\n  ROOT %a = f32[] parameter(0)\n}\n" \
	"ENTRY e {\n  x = f32[] parameter(0)\n  " decl "\n}"
	static const struct refusal bad[] = {
		{ ASYNC("ROOT s = ((f32[]), f32[], s32[]) async-start(x)"),
		  "s: async-start without calls=" },
		{ ASYNC("ROOT s = f32[] async-start(x), calls=%w"),
		  "s: async-start's shape is not (operands, result, context...)" },
		{ ASYNC("ROOT s = (f32[], f32[], s32[]) async-start(x), calls=%w"),
		  "s: async-start's operands are not a tuple" },
		{ ASYNC("ROOT s = ((f32[]), f32[], (s32[])) async-start(x), calls=%w"),
		  "s: async-start's context 0 is a tuple" },
		{ ASYNC("ROOT s = (f32[], f32[], u32[]) copy-start(x, x)"),
		  "s: copy-start takes one operand" },
		{ ASYNC("s = ((f32[]), f32[], s32[]) async-start(x), calls=%w\n"
			"  ROOT d = f32[] async-done(s, s)"), "d: async-done takes the start" },
	};
	char path[1024], *text, *t;
	xrt_module *m;
	size_t n, i;

	static const char no_args[] =
		"HloModule m\n%w () -> f32[] {\n  ROOT %c = f32[] constant(2)\n}\n"
		"ENTRY e {\n  s = ((), f32[], s32[]) async-start(), calls=%w\n"
		"  ROOT d = f32[] async-done(s)\n}\n";

	/* a wrapped computation of no arguments */
	m = parse_and_round_trip(_metadata, self->a, no_args, NULL);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, xrt_module_verify(m));
	xrt_module_destroy(m);
	snprintf(path, sizeof(path), "%s/xla_async.hlo", HLO_CORPUS_DIR);
	text = test_slurp(path, &n);
	ASSERT_NE(NULL, text);
	m = parse_and_round_trip(_metadata, self->a, text, &t);
	free(text);
	ASSERT_NE(NULL, m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(t, want[i]) != NULL) TH_LOG("missing entry %zu in %s", i, t);
	EXPECT_EQ(NULL, xrt_module_verify(m));
	xrt_free(self->a, t);
	xrt_module_destroy(m);
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/*
 * What cannot change a value is dropped; every other attribute is known
 * or refused, so that none that changes a result is ignored.
 */
TEST_F(xrt, unknown_attributes_are_refused)
{
	static const struct refusal bad[] = {
		{ "HloModule m\ne {\n  a = f32[2] parameter(0)\n"
		  "  ROOT f = f32[2] fusion(a), kind=kFast, calls=e\n}",
		  "line 4, column 35: expected a fusion kind (kLoop, kInput, kOutput or kCustom)" },
		{ "HloModule m\ne {\n  a = f32[2,2] parameter(0)\n"
		  "  ROOT d = f32[2,2] dot(a, a), lhs_contracting_dims={1}, "
		  "rhs_contracting_dims={0}, sparsity=L.1@2:4\n}",
		  "line 4, column 84: attribute 'sparsity' of dot is not supported" },
		{ "HloModule m\ne {\n  ROOT a = f32[2] parameter(0), kind=kLoop\n}",
		  "line 3, column 33: attribute 'kind' of parameter is not supported" },
		{ "HloModule m\ne {\n  ROOT a = f32[2] parameter(0), frobnicate={1}\n}",
		  "line 3, column 33: attribute 'frobnicate' of parameter is not supported" },
	};
	static const char inert[] =
		"HloModule m\ne {\n  ROOT a = f32[2]{0} parameter(0), metadata={op_name=\"a\" "
		"source_file=\"x.py\" source_line=3}, sharding={devices=[2]0,1}, "
		"backend_config={\"flag\":[\"}\"]}, frontend_attributes={a=\"1\"}, "
		"origin={{\"v\"}}, statistics_viz={stat_index_to_visualize=-1}, "
		"result_accuracy={tolerance={atol=0 rtol=0 ulps=1}}, operand_precision={highest}\n}";
	xrt_module *m;

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
	ASSERT_OK(xrt_hlo_parse(self->a, inert, strlen(inert), &m));
	xrt_module_destroy(m);
}

/* An array written as one value, and a pred written as a number. */
TEST_F(xrt, constants_as_xla_writes_them)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  a = f32[2,3] constant(1.5)\n  b = pred[] constant(1)\n"
		"  c = pred[2] constant({0, true})\n  z = s8[0,4] constant(7)\n"
		"  ROOT t = (f32[2,3], pred[], pred[2], s8[0,4]) tuple(a, b, c, z)\n}";
	static const char *const want[] = {
		"f32[2,3]{1,0} constant({{1.5, 1.5, 1.5}, {1.5, 1.5, 1.5}})",
		"pred[] constant(true)", "pred[2]{0} constant({false, true})",
	};
	static const struct refusal bad[] = {
		{ "HloModule m\ne {\n  ROOT a = s8[4] constant(300)\n}",
		  "line 3, column 27: '300' is not a s8 value" },
		{ "HloModule m\ne {\n  ROOT a = s8[0] constant(x)\n}",
		  "line 3, column 27: 'x' is not a s8 value" },
		{ "HloModule m\ne {\n  ROOT a = pred[] constant(2)\n}",
		  "line 3, column 28: expected true or false" },
	};
	xrt_module *m;
	size_t i;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(t, want[i]) != NULL) TH_LOG("missing entry %zu in %s", i, t);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

#define BATCHED_GATHER(ix, attrs)                                              \
	"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  i = " ix " parameter(1)\n"  \
	"  ROOT g = f32[2,2] gather(x, i), offset_dims={}, collapsed_slice_dims={1}, "  \
	"start_index_map={1}, index_vector_dim=2, slice_sizes={1,1}" attrs "\n}"

TEST_F(xrt, malformed_batching_dimensions)
{
	static const struct refusal bad[] = {
		{ BATCHED_GATHER("s32[2,2]", ", operand_batching_dims={0}"),
		  "g: operand_batching_dims without start_indices_batching_dims" },
		{ BATCHED_GATHER("s32[2,2]", ", start_indices_batching_dims={0}"),
		  "g: start_indices_batching_dims without operand_batching_dims" },
		{ BATCHED_GATHER("s32[2,2]", ", operand_batching_dims={0,1}, "
				 "start_indices_batching_dims={0}"),
		  "g: 2 operand_batching_dims for 1 start_indices_batching_dims" },
		{ BATCHED_GATHER("s32[2,2]", ", operand_batching_dims={2}, "
				 "start_indices_batching_dims={0}"),
		  "g: batching dimension pair 0 (2, 0) out of range" },
		{ BATCHED_GATHER("s32[2,2]", ", operand_batching_dims={0}, "
				 "start_indices_batching_dims={2}"),
		  "g: batching dimension pair 0 (0, 2) out of range" },
		{ BATCHED_GATHER("s32[3,2]", ", operand_batching_dims={0}, "
				 "start_indices_batching_dims={0}"),
		  "g: batching dimension pair 0 has sizes 2 and 3" },
		{ BATCHED_GATHER("f32[2,2]", ", operand_batching_dims={0}, "
				 "start_indices_batching_dims={0}"),
		  "g: batching dimensions need array operands and integer indices" },
	};

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* The instructions the rewrite adds take names no instruction has. */
TEST_F(xrt, batching_rewrite_names_are_fresh)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n"
		"  g.batch0 = s32[2,2] parameter(1)\n"
		"  g = f32[2,2] gather(x, g.batch0), offset_dims={}, collapsed_slice_dims={1}, "
		"start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, "
		"index_vector_dim=2, slice_sizes={1,1}\n"
		"  ROOT n = f32[2,2] negate(g)\n}";
	xrt_module *m;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	EXPECT_TRUE(strstr(t, "%g.batch0.1 = s32[2,2,1]{2,1,0} iota(), iota_dimension=0") != NULL)
		TH_LOG("%s", t);
	EXPECT_TRUE(strstr(t, "ROOT %n = f32[2,2]{1,0} negate(%g)") != NULL) TH_LOG("%s", t);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
}

#define FFT(in, out, attrs)                                                     \
	"HloModule m\nENTRY e {\n  x = " in " parameter(0)\n  ROOT f = " out " fft(x)" attrs "\n}"

TEST_F(xrt, malformed_fft)
{
	static const struct refusal bad[] = {
		{ FFT("c64[8]", "c64[8]", ", fft_length={8}"),
		  "f: fft_type missing is none of FFT, IFFT, RFFT and IRFFT" },
		{ FFT("c64[8]", "c64[8]", ", fft_type=DCT, fft_length={8}"),
		  "f: fft_type DCT is none of FFT, IFFT, RFFT and IRFFT" },
		{ FFT("c64[8]", "c64[8]", ", fft_type=FFT"), "f: fft_length needs 1 to 3 lengths" },
		{ FFT("c64[2,2,2,2]", "c64[2,2,2,2]", ", fft_type=FFT, fft_length={2,2,2,2}"),
		  "f: fft_length needs 1 to 3 lengths" },
		{ FFT("c64[8]", "c64[8]", ", fft_type=FFT, fft_length={2,4}"),
		  "f: the operand has fewer dimensions than fft_length" },
		{ FFT("c64[8]", "c64[8]", ", fft_type=FFT, fft_length={4}"),
		  "f: dimension 0 has 8 elements, fft_length wants 4" },
		{ FFT("c64[8]", "f32[8]", ", fft_type=IRFFT, fft_length={8}"),
		  "f: dimension 0 has 8 elements, fft_length wants 5" },
		{ FFT("f32[8]", "c64[8]", ", fft_type=FFT, fft_length={8}"),
		  "f: a complex fft of f32" },
		{ FFT("c64[8]", "c64[5]", ", fft_type=RFFT, fft_length={8}"), "f: RFFT of c64" },
		{ FFT("f16[8]", "c64[5]", ", fft_type=RFFT, fft_length={8}"), "f: RFFT of f16" },
		{ FFT("c64[1031]", "c64[1031]", ", fft_type=FFT, fft_length={1031}"),
		  "f: fft_length 1031: a length over 1024 must be a product of two factors up to "
		  "1024" },
		{ FFT("c64[2097152]", "c64[2097152]", ", fft_type=FFT, fft_length={2097152}"),
		  "f: fft_length 2097152: lengths are 1 to 1048576 here" },
		{ FFT("c64[0]", "c64[0]", ", fft_type=FFT, fft_length={0}"),
		  "f: fft_length 0: lengths are 1 to 1048576 here" },
		{ FFT("c64[8]", "c64[8]", ", fft_type=FFT, fft_length={8}, fft_scale=2"),
		  "attribute 'fft_scale' of fft is not supported" },
		/* the declared result is checked like any other */
		{ FFT("f32[8]", "c64[8]", ", fft_type=RFFT, fft_length={8}"),
		  "f: this fft gives c64 with 5 elements in its last dimension" },
		{ FFT("c64[8]", "c128[8]", ", fft_type=FFT, fft_length={8}"),
		  "f: this fft gives c64 with 8 elements" },
		{ FFT("c64[2,5]", "f32[3,8]", ", fft_type=IRFFT, fft_length={8}"),
		  "f: this fft gives f32 with 8 elements in its last dimension and the others" },
	};

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

#define MIXED(l, r, out, op)                                                    \
	"HloModule m\nENTRY e {\n  x = " l " parameter(0)\n  y = " r " parameter(1)\n"  \
	"  ROOT d = " out " " op "\n}"
#define DOT "dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}"
#define CONV "convolution(x, y), window={size=2}, dim_labels=b0f_0io->b0f"

/* Operands of two types read as converts to one, or are refused where none is exact. */
TEST_F(xrt, mixed_operand_types)
{
	static const struct { const char *text, *want; } good[] = {
		{ MIXED("s8[2,3]", "s16[3,4]", "s32[2,4]", DOT), "%d.as1 = s32[3,4]{1,0} convert(%y)" },
		{ MIXED("bf16[2,3]", "f32[3,4]", "f32[2,4]", DOT), "dot(%d.as0, %y)" },
		/* the result cannot hold f32: the wider operand's type */
		{ MIXED("f32[2,3]", "bf16[3,4]", "bf16[2,4]", DOT),
		  "%d.as1 = f32[3,4]{1,0} convert(%y)" },
		{ MIXED("u8[1,5,2]", "s8[2,2,3]", "s32[1,4,3]", CONV),
		  "convolution(%d.as0, %d.as1)" },
		{ MIXED("f32[2,3]", "c64[3,4]", "c64[2,4]", DOT), "%d.as0 = c64[2,3]{1,0} convert(%x)" },
	};
	static const struct refusal bad[] = {
		{ MIXED("f16[2,3]", "bf16[3,4]", "f16[2,4]", DOT),
		  "d: dot of f16 and bf16: neither converts exactly to the other or to f16" },
		{ MIXED("s64[2,3]", "u64[3,4]", "s64[2,4]", DOT),
		  "d: dot of s64 and u64: neither converts exactly" },
		{ MIXED("c64[1,5,2]", "f64[2,2,3]", "c64[1,4,3]", CONV),
		  "d: convolution of c64 and f64: neither converts exactly" },
	};
	xrt_module *m;
	size_t i;
	char *t;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		m = parse_and_round_trip(_metadata, self->a, good[i].text, &t);
		ASSERT_NE(NULL, m) TH_LOG("case %zu", i);
		EXPECT_TRUE(strstr(t, good[i].want) != NULL) TH_LOG("case %zu: %s", i, t);
		EXPECT_EQ(NULL, xrt_module_verify(m)) TH_LOG("case %zu", i);
		xrt_free(self->a, t);
		xrt_module_destroy(m);
	}
	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

#define BN(decl) "HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n" \
	"  c = f32[3] parameter(1)\n  h = f16[3] parameter(2)\n  ROOT b = " decl "\n}"

TEST_F(xrt, malformed_batch_norms)
{
	static const struct refusal bad[] = {
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-training(x, c), epsilon=0.1, "
		     "feature_index=1"), "b: batch-norm-training takes 3 operands" },
		/* no operand at all: found by make check-long's fuzzer (a NULL read) */
		{ BN("f32[2,3] batch-norm-grad()"), "b: batch-norm-grad takes 5 operands" },
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-training(x, c, c), feature_index=1"),
		  "b: batch-norm-training needs epsilon and feature_index" },
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-training(x, c, c), epsilon=tiny, "
		     "feature_index=1"), "b: epsilon 'tiny' is not a number" },
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-training(x, c, c), epsilon=0.1, "
		     "feature_index=2"), "b: feature_index 2 out of range for rank 2" },
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-training(x, c, h), epsilon=0.1, "
		     "feature_index=1"), "b: operand 2 is not f32 with one value per feature" },
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-training(x, x, c), epsilon=0.1, "
		     "feature_index=1"), "b: operand 1 is not f32 with one value per feature" },
		{ BN("(f32[2,3], f32[3], f32[3]) batch-norm-grad(x, c, c, c, c), epsilon=0.1, "
		     "feature_index=1"), "b: operand 4 is not f32 of the operand's dimensions" },
		{ BN("f32[2,3] batch-norm-training(x, c, c), epsilon=0.1, feature_index=1"),
		  "b: the result is not (operand's shape, per feature, per feature)" },
		{ BN("f32[3,2] batch-norm-inference(x, c, c, c, c), epsilon=0.1, feature_index=1"),
		  "b: the result is not the operand's shape" },
		{ BN("f32[3] batch-norm-inference(c, c, c, c, c), epsilon=0.1, feature_index=0, "
		     "momentum=0.9"), "attribute 'momentum' of batch-norm-inference is not supported" },
	};

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

#define LA(decl) "HloModule m\nENTRY e {\n  a = f32[3,3] parameter(0)\n" \
	"  b = f32[3,2] parameter(1)\n  c = s32[3,3] parameter(2)\n  ROOT r = " decl "\n}"

TEST_F(xrt, malformed_linear_algebra)
{
	static const struct refusal bad[] = {
		{ LA("f32[3,3] cholesky(a, a), lower=true"), "r: cholesky takes one operand" },
		{ LA("f32[3,2] cholesky(b), lower=true"),
		  "r: cholesky needs square matrices and gives their shape" },
		{ LA("s32[3,3] cholesky(c), lower=true"),
		  "r: the operand is not a floating-point or complex matrix (rank 2 or more)" },
		{ LA("f32[3,2] triangular-solve(a), left_side=true, lower=true"),
		  "r: triangular-solve takes a and b" },
		{ LA("f32[3,2] triangular-solve(a, b), left_side=false, lower=true"),
		  "r: a is not square, or b does not fit it (right side)" },
		{ LA("f32[3,2] triangular-solve(a, b), left_side=true, lower=true, "
		     "transpose_a=CONJUGATE"),
		  "r: transpose_a CONJUGATE is none of NO_TRANSPOSE, TRANSPOSE and ADJOINT" },
		{ LA("f32[2,3] triangular-solve(a, b), left_side=true, lower=true"),
		  "r: the result is not b's shape" },
		{ LA("f32[3,2] triangular-solve(a, b), left_side=true, lower=true, pivot=true"),
		  "attribute 'pivot' of triangular-solve is not supported" },
	};

	expect_refused(_metadata, self->a, bad, sizeof(bad) / sizeof(bad[0]));
}

/* A short text cannot make the reader build gigabytes of DFT matrices. */
TEST_F(xrt, fft_matrices_have_a_budget)
{
	char text[4096];
	xrt_module *m;
	int i, n;

	/* each c128[1024] fft is a 16 MiB matrix: 16 fit in 256 MiB, the 17th does not */
	n = snprintf(text, sizeof(text), "HloModule m\nENTRY e {\n  x = c128[1024] parameter(0)\n");
	for (i = 0; i < 17; i++)
		n += snprintf(text + n, sizeof(text) - n, "  f%d = c128[1024] fft(x), fft_type=FFT, "
			      "fft_length={1024}\n", i);
	snprintf(text + n, sizeof(text) - n, "  ROOT r = c128[1024] add(f0, f16)\n}");
	ASSERT_ERR(xrt_hlo_parse(self->a, text, strlen(text), &m), XRT_INVALID_ARGUMENT,
		   "f16: the DFT matrices of this module's ffts pass 256 MiB");
	ASSERT_EQ(NULL, m);
}

/* An fft reads as a DFT matrix and a dot per dimension, and prints so. */
TEST_F(xrt, fft_reads_as_dots)
{
	static const char text[] = "HloModule m\nENTRY e {\n  x = f32[3,6] parameter(0)\n"
				   "  ROOT f = c64[3,4] fft(x), fft_type=RFFT, fft_length={3,6}\n}";
	static const char *const want[] = {
		"%f.dft0 = c64[3,6]{1,0} convert(%x)",
		"%f.dft1 = c64[6,4]{1,0} constant({{(1, 0), (1, 0), (1, 0), (1, 0)}, "
		"{(1, 0), (0.5, -0.8660254), (-0.5, -0.8660254), (-1, 0)}",
		"%f.dft2 = c64[3,4]{1,0} dot(%f.dft0, %f.dft1), lhs_contracting_dims={1}, "
		"rhs_contracting_dims={0}",
		"%f.dft3 = c64[3,3]{1,0} constant(",
		"%f.dft4 = c64[4,3]{1,0} dot(%f.dft2, %f.dft3), lhs_contracting_dims={0}",
		"%f.dft5 = c64[3,4]{1,0} transpose(%f.dft4), dimensions={1,0}",
		"ROOT %f = c64[3,4]{1,0} copy(%f.dft5)",
	};
	xrt_module *m;
	size_t i;
	char *t;

	m = parse_and_round_trip(_metadata, self->a, text, &t);
	ASSERT_NE(NULL, m);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		EXPECT_TRUE(strstr(t, want[i]) != NULL) TH_LOG("missing entry %zu in %s", i, t);
	EXPECT_TRUE(strstr(t, "fft(") == NULL) TH_LOG("%s", t);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
}

/* Every allocation of the dump-style and batching modules may fail, cleanly. */
TEST_F(xrt, xla_forms_survive_every_failing_allocation)
{
	static const char *const files[] = { "xla_dump_style.hlo", "gather_scatter_batching.hlo",
					      "fft.hlo", "xla_async.hlo", "batch_norm.hlo",
					      "linalg.hlo", "dynamic.hlo", "send_recv.hlo",
					      "regroup.hlo" };
	char path[1024], *text;
	size_t n, f;
	long k;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		snprintf(path, sizeof(path), "%s/%s", HLO_CORPUS_DIR, files[f]);
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
				TH_LOG("%s, allocation %ld: %s", files[f], k,
				       xrt_status_message(st));
			xrt_status_free(st);
			ASSERT_EQ(NULL, m);
			ASSERT_EQ(0, self->ta.live) TH_LOG("leak after failing allocation %ld", k);
		}
		ASSERT_GT(k, 50);
		test_alloc_fail_at(&self->ta, 0);
		free(text);
	}
}

TEST_HARNESS_MAIN
