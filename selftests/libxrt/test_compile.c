// SPDX-License-Identifier: MIT
/*
 * The compiler and the host device against the reference evaluator:
 * every corpus module the compiler lowers runs on random inputs and
 * must give the evaluator's result (exactly for integers, within a few
 * ulps for floats, whose transcendental functions and reduction orders
 * differ); fused and unfused programs give the same bits.  Every module
 * and case compiles: a refusal (UNIMPLEMENTED, naming the instruction)
 * fails the test, since each one the corpus holds has been lowered.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>

#include "compiler/compiler.h"
#include "device/host/host_device.h"
#include "test_cases.h"
#include "test_handlers.h"

struct outcome {
	int compiled, unimplemented;
};

/*
 * The host device binds the arena and the constants by their slot
 * numbers, without looking: every program must have them there, and
 * nowhere else.
 */
static bool fixed_slots_hold(const struct xrt_executable *exe)
{
	uint32_t s;

	if (exe->num_slots < XEXE_FIRST_LEAF_SLOT ||
	    exe->slots[XEXE_ARENA_SLOT].kind != XEXE_SLOT_ARENA ||
	    exe->slots[XEXE_CONSTANTS_SLOT].kind != XEXE_SLOT_CONSTANTS)
		return false;
	for (s = XEXE_FIRST_LEAF_SLOT; s < exe->num_slots; s++) {
		if (exe->slots[s].kind != XEXE_SLOT_PARAM && exe->slots[s].kind != XEXE_SLOT_RESULT)
			return false;
	}
	return true;
}

/* Compiles and runs @m on seeded inputs; compares with the evaluator. */
static void differential(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			 const char *name, const xrt_module *m, struct outcome *oc,
			 struct host_pool *pool)
{
	const struct xrt_tolerance tol = { 2e-5, 1e-6 };
	struct cc_options fused = { false }, unfused = { true };
	struct xrt_executable *exe = NULL, *exe2 = NULL;
	xrt_literal *args[16] = { NULL }, *want = NULL, *got = NULL, *got2 = NULL;
	uint32_t n = xrt_module_num_params(m), i;
	uint64_t state = 12345;
	char why[512];
	xrt_status *st;

	st = cc_compile(m, &fused, a, &exe);
	if (st) {
		EXPECT_EQ(XRT_UNIMPLEMENTED, xrt_status_code(st))
			TH_LOG("%s: %s", name, xrt_status_message(st));
		EXPECT_NE(NULL, strstr(xrt_status_message(st), "instruction '"));
		xrt_status_free(st);
		oc->unimplemented++;
		return;
	}
	oc->compiled++;
	ASSERT_OK(cc_compile(m, &unfused, a, &exe2));
	EXPECT_TRUE(fixed_slots_hold(exe) && fixed_slots_hold(exe2))
		TH_LOG("%s: the arena and constants are not slots 0 and 1", name);
	for (i = 0; i < n; i++) {
		ASSERT_OK(xrt_literal_create(a, xrt_module_param_shape(m, i), &args[i]));
		test_fill_random(args[i], &state);
	}
	ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, n, NULL, a, &want));
	st = host_run(exe, (const xrt_literal *const *)args, n, NULL, a, &got);
	if (st)
		TH_LOG("%s: %s", name, xrt_status_message(st));
	ASSERT_EQ(NULL, st);
	ASSERT_OK(host_run(exe2, (const xrt_literal *const *)args, n, NULL, a, &got2));
	EXPECT_TRUE(xrt_literal_near(want, got, &tol, why, sizeof(why)))
		TH_LOG("%s: %s", name, why);
	EXPECT_TRUE(xrt_literal_equal(got, got2, why, sizeof(why)))
		TH_LOG("%s: fused and unfused differ: %s", name, why);
	xrt_literal_destroy(got2);
	/* the same bits on four threads as on one */
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, n,
			   &(struct host_run_options){ 0, pool }, a, &got2));
	EXPECT_TRUE(xrt_literal_equal(got, got2, why, sizeof(why)))
		TH_LOG("%s: four threads differ from one: %s", name, why);
	for (i = 0; i < n; i++)
		xrt_literal_destroy(args[i]);
	xrt_literal_destroy(want);
	xrt_literal_destroy(got);
	xrt_literal_destroy(got2);
	xexe_destroy(exe);
	xexe_destroy(exe2);
}

TEST_F_TIMEOUT(xrt, corpus_on_the_host_matches_the_evaluator, 300)
{
	struct test_corpus c = { 0 };
	struct outcome oc = { 0, 0 };
	struct host_pool *pool = NULL;

	test_register_handlers();	/* custom_calls.hlo's targets */
	ASSERT_OK(host_pool_create(4, &pool));
	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		xrt_module *m = NULL;

		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m));
		differential(_metadata, self->a, c.name, m, &oc, pool);
		xrt_module_destroy(m);
	}
	host_pool_destroy(pool);
	fprintf(stderr, "# %d corpus modules compiled and matched, %d not compiled yet\n",
		oc.compiled, oc.unimplemented);
	EXPECT_GE(oc.compiled, 30);
	EXPECT_EQ(0, oc.unimplemented);	/* every corpus module compiles */
}

/*
 * The evaluator's cases, compiled: their inputs are constants, so the
 * compiler folds nothing away but sees NaN, infinities, signed zeros
 * and the integer corner cases.  Exact cases must be exact here too;
 * the others within their tolerance.
 */
/* The evaluator's cases compiled with @o; failures logged and counted. */
static void compiled_cases(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			   const struct cc_options *o, int *ran, int *skipped, int *failures)
{
	size_t len = 0;
	char *text = test_slurp(EVAL_CASES, &len), *p = text;
	struct test_case c;

	ASSERT_NE(NULL, text);
	while (test_case_next(&p, &c)) {
		struct host_run_options ro = { 42 };
		struct xrt_executable *exe = NULL;
		xrt_literal *want = NULL, *got = NULL;
		xrt_module *m = NULL;
		char why[512] = "";
		xrt_status *st;
		bool ok;

		ASSERT_OK(xrt_hlo_parse(a, c.module, strlen(c.module), &m));
		st = cc_compile(m, o, a, &exe);
		if (st) {
			EXPECT_EQ(XRT_UNIMPLEMENTED, xrt_status_code(st))
				TH_LOG("%s: %s", c.name, xrt_status_message(st));
			xrt_status_free(st);
			xrt_module_destroy(m);
			(*skipped)++;
			continue;
		}
		EXPECT_TRUE(fixed_slots_hold(exe))
			TH_LOG("%s: the arena and constants are not slots 0 and 1", c.name);
		ASSERT_OK(host_run(exe, NULL, 0, &ro, a, &got));
		ASSERT_OK(test_case_expected(a, &c, &want));
		ok = c.exact ? xrt_literal_equal(want, got, why, sizeof(why)) :
			       xrt_literal_near(want, got, &c.tol, why, sizeof(why));
		if (!ok) {
			TH_LOG("%s%s: %s", o->no_folding ? "" : "folded: ", c.name, why);
			(*failures)++;
		}
		xrt_literal_destroy(want);
		xrt_literal_destroy(got);
		xexe_destroy(exe);
		xrt_module_destroy(m);
		(*ran)++;
	}
	free(text);
}

/*
 * The evaluator's cases, compiled.  Their inputs are constants: with
 * folding off, every instruction runs on the engine and meets NaN,
 * infinities, signed zeros and the integer corner cases; with it on,
 * most fold at compile time and must give the same expected values.
 */
TEST_F(xrt, evaluator_cases_compiled_give_their_values)
{
	static const struct cc_options run = { .no_folding = true }, folded = { 0 };
	int ran = 0, skipped = 0, failures = 0, fran = 0, fskipped = 0, ffailures = 0;

	compiled_cases(_metadata, self->a, &run, &ran, &skipped, &failures);
	fprintf(stderr, "# %d evaluator cases compiled and matched, %d not compiled yet\n",
		ran - failures, skipped);
	compiled_cases(_metadata, self->a, &folded, &fran, &fskipped, &ffailures);
	fprintf(stderr, "# folding on: %d matched, %d failed, %d not compiled\n",
		fran - ffailures, ffailures, fskipped);
	EXPECT_EQ(0, failures);
	EXPECT_EQ(0, ffailures);
	EXPECT_EQ(0, skipped);	/* every case compiles, folded or not */
	EXPECT_EQ(0, fskipped);
	EXPECT_GE(ran, 500);
}

/* Big enough that every command's items are split across the workers. */
static const char big_text[] =
	"HloModule big\n"
	"%add (a: f32[], b: f32[]) -> f32[] {\n"
	"  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
	"  ROOT %r = f32[] add(%a, %b)\n}\n"
	"ENTRY %main (x: f32[64,32], w: f32[32,520], v: f32[520]) -> (f32[64], f32[64,520]) {\n"
	"  %x = f32[64,32] parameter(0)\n  %w = f32[32,520] parameter(1)\n"
	"  %v = f32[520] parameter(2)\n"
	"  %d = f32[64,520] dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
	"  %vb = f32[64,520] broadcast(%v), dimensions={1}\n"
	"  %s = f32[64,520] add(%d, %vb)\n"
	"  %t = f32[64,520] tanh(%s)\n"
	"  %z = f32[] constant(0)\n"
	"  %r = f32[64] reduce(%t, %z), dimensions={1}, to_apply=%add\n"
	"  %e = f32[64,520] exponential(%t)\n"
	"  ROOT %o = (f32[64], f32[64,520]) tuple(%r, %e)\n}\n";

TEST_F(xrt, any_thread_count_gives_the_same_bits)
{
	xrt_literal *args[3] = { NULL }, *one = NULL, *many = NULL, *want = NULL, *own = NULL;
	/* 520 f32 terms of either sign summed, against the evaluator's doubles */
	const struct xrt_tolerance tol = { 1e-4, 1e-4 };
	struct xrt_executable *exe = NULL;
	struct host_pool *pool = NULL;
	xrt_module *m = NULL;
	uint64_t state = 7;
	char why[512];
	uint32_t i, t;

	ASSERT_OK(xrt_hlo_parse(self->a, big_text, strlen(big_text), &m));
	ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
	for (i = 0; i < 3; i++) {
		ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, i), &args[i]));
		test_fill_random(args[i], &state);
	}
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, 3, NULL, self->a, &one));
	ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 3, NULL, self->a, &want));
	EXPECT_TRUE(xrt_literal_near(want, one, &tol, why, sizeof(why))) TH_LOG("%s", why);
	/* OpenBLAS (the default) and the engine's own DOT, each thread-count proof */
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, 3,
			   &(struct host_run_options){ 0, NULL, true }, self->a, &own));
	EXPECT_TRUE(xrt_literal_near(want, own, &tol, why, sizeof(why))) TH_LOG("%s", why);
	for (t = 2; t <= 5; t++) {
		ASSERT_OK(host_pool_create(t, &pool));
		ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, 3,
				   &(struct host_run_options){ 0, pool, false }, self->a, &many));
		EXPECT_TRUE(xrt_literal_equal(one, many, why, sizeof(why)))
			TH_LOG("%u threads: %s", t, why);
		xrt_literal_destroy(many);
		ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, 3,
				   &(struct host_run_options){ 0, pool, true }, self->a, &many));
		EXPECT_TRUE(xrt_literal_equal(own, many, why, sizeof(why)))
			TH_LOG("%u threads, engine DOT: %s", t, why);
		xrt_literal_destroy(many);
		host_pool_destroy(pool);
	}
	xrt_literal_destroy(own);
	for (i = 0; i < 3; i++)
		xrt_literal_destroy(args[i]);
	xrt_literal_destroy(one);
	xrt_literal_destroy(want);
	xexe_destroy(exe);
	xrt_module_destroy(m);
}

/* Keys of @t's bits @b as unsigned integers in total order. */
static uint64_t total_order(const char *t, uint64_t b)
{
	uint64_t top = t[1] == '6' ? 1ull << 63 : 1ull << 31, mask = top | (top - 1);

	if (t[0] == 's')
		return b ^ top;
	return b & top ? ~b & mask : b | top;
}

static const char *order_type;

static int by_total_order(const void *pa, const void *pb)
{
	uint64_t a = 0, b = 0, size = order_type[1] == '6' ? 8 : 4;

	memcpy(&a, pa, size);
	memcpy(&b, pb, size);
	a = total_order(order_type, a);
	b = total_order(order_type, b);
	return a < b ? -1 : a > b;
}

/*
 * A sort long enough for the wide sort (its phases shared among the
 * pool's threads, the workspace's state written by one item and read by
 * all): the bits of one thread, and the input's elements in total order.
 */
TEST_F(xrt, wide_sort_on_threads)
{
	static const char *const types[] = { "f32", "f64", "s32" };
	const uint64_t n = (1 << 20) + 3;
	struct host_pool *pool = NULL;
	char text[512];
	uint32_t ti;

	ASSERT_OK(host_pool_create(3, &pool));
	for (ti = 0; ti < 3; ti++) {
		const char *t = types[ti];
		xrt_literal *arg = NULL, *one = NULL, *many = NULL;
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;
		uint64_t state = 11 + ti, size = t[1] == '6' ? 8 : 4;
		uint8_t *want;
		char why[512];

		snprintf(text, sizeof(text),
			 "HloModule s\nlt {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n"
			 "  ROOT r = pred[] compare(a, b), direction=LT%s\n}\n"
			 "ENTRY e {\n  x = %s[%llu] parameter(0)\n"
			 "  ROOT s = %s[%llu] sort(x), dimensions={0}, to_apply=lt\n}\n",
			 t, t, t[0] == 'f' ? ", type=TOTALORDER" : "", t, (unsigned long long)n,
			 t, (unsigned long long)n);
		ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
		ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
		ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &arg));
		test_fill_random(arg, &state);
		ASSERT_OK(host_run(exe, (const xrt_literal *const *)&arg, 1, NULL, self->a, &one));
		ASSERT_OK(host_run(exe, (const xrt_literal *const *)&arg, 1,
				   &(struct host_run_options){ 0, pool }, self->a, &many));
		EXPECT_TRUE(xrt_literal_equal(one, many, why, sizeof(why)))
			TH_LOG("%s: three threads differ from one: %s", t, why);
		want = malloc(n * size);
		ASSERT_NE(NULL, want);
		memcpy(want, xrt_literal_data(arg), n * size);
		order_type = t;
		qsort(want, n, size, by_total_order);
		EXPECT_EQ(0, memcmp(want, xrt_literal_data(one), n * size)) TH_LOG("%s", t);
		free(want);
		xrt_literal_destroy(arg);
		xrt_literal_destroy(one);
		xrt_literal_destroy(many);
		xexe_destroy(exe);
		xrt_module_destroy(m);
	}
	host_pool_destroy(pool);
}

/*
 * Products longer than a DOT command allows become several, each adding
 * to the last: the engine's bits of one long sum, for every accumulation
 * type, transposed and batched operands, and convolutions.
 */
TEST_F(xrt, long_products_split_with_the_same_bits)
{
	static const char *const texts[] = {
		"HloModule m\nENTRY e {\n  a = f32[5,300] parameter(0)\n"
		"  b = f32[300,7] parameter(1)\n"
		"  ROOT d = f32[5,7] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
		"HloModule m\nENTRY e {\n  a = f32[130,4] parameter(0)\n"
		"  b = f32[3,7,130] parameter(1)\n"
		"  ROOT d = f32[4,3,7] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={2}\n}\n",
		"HloModule m\nENTRY e {\n  a = bf16[2,3,200] parameter(0)\n"
		"  b = bf16[2,200,5] parameter(1)\n"
		"  ROOT d = bf16[2,3,5] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
		"rhs_batch_dims={0}, rhs_contracting_dims={1}\n}\n",
		"HloModule m\nENTRY e {\n  a = s32[3,100] parameter(0)\n"
		"  b = s32[100] parameter(1)\n"
		"  ROOT d = s32[3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
		"HloModule m\nENTRY e {\n  a = f64[1,90] parameter(0)\n"
		"  b = f64[90,2] parameter(1)\n"
		"  ROOT d = f64[1,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
		"HloModule m\nENTRY e {\n  x = f32[1,6,6,70] parameter(0)\n"
		"  w = f32[3,3,70,4] parameter(1)\n"
		"  ROOT c = f32[1,4,4,4] convolution(x, w), window={size=3x3}, "
		"dim_labels=b01f_01io->b01f\n}\n",
	};
	const struct xrt_tolerance tol = { 1e-2, 1e-4 };
	const struct host_run_options own = { 0, NULL, true };
	size_t t;

	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		struct cc_options whole = { 0 }, split = { 0 };
		struct xrt_executable *e1 = NULL, *e2 = NULL;
		xrt_literal *args[2] = { NULL }, *want = NULL, *g1 = NULL, *g2 = NULL;
		uint64_t state = 99;
		xrt_module *m = NULL;
		char why[512];
		uint32_t i;

		split.dot_max_k = 32;
		ASSERT_OK(xrt_hlo_parse(self->a, texts[t], strlen(texts[t]), &m));
		ASSERT_OK(cc_compile(m, &whole, self->a, &e1));
		ASSERT_OK(cc_compile(m, &split, self->a, &e2));
		EXPECT_LT(e1->num_commands + 1, e2->num_commands) TH_LOG("module %zu", t);
		for (i = 0; i < 2; i++) {
			ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, i),
						     &args[i]));
			test_fill_random(args[i], &state);
		}
		ASSERT_OK(host_run(e1, (const xrt_literal *const *)args, 2, &own, self->a, &g1));
		ASSERT_OK(host_run(e2, (const xrt_literal *const *)args, 2, &own, self->a, &g2));
		ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 2, NULL, self->a,
					  &want));
		EXPECT_TRUE(xrt_literal_equal(g1, g2, why, sizeof(why)))
			TH_LOG("module %zu: split differs: %s", t, why);
		EXPECT_TRUE(xrt_literal_near(want, g2, &tol, why, sizeof(why)))
			TH_LOG("module %zu: %s", t, why);
		for (i = 0; i < 2; i++)
			xrt_literal_destroy(args[i]);
		xrt_literal_destroy(want);
		xrt_literal_destroy(g1);
		xrt_literal_destroy(g2);
		xexe_destroy(e1);
		xexe_destroy(e2);
		xrt_module_destroy(m);
	}
}

/*
 * A custom call compiles whether its target has a handler or not (it may
 * be registered later); running it without one names the target.
 */
TEST_F(xrt, custom_call_names_its_target)
{
	static const char text[] =
		"HloModule c\nENTRY e {\n  %x = f32[2] parameter(0)\n"
		"  ROOT %r = f32[2] custom-call(%x), custom_call_target=\"fancy_op\"\n}\n";
	struct xrt_executable *exe = NULL;
	const struct xrt_shape *ps;
	xrt_literal *arg = NULL, *out = NULL;
	xrt_module *m = NULL;

	ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
	ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
	ps = xrt_module_param_shape(m, 0);
	ASSERT_OK(xrt_literal_create(self->a, ps, &arg));
	ASSERT_ERR(host_run(exe, (const xrt_literal *const *)&arg, 1, NULL, self->a, &out),
		   XRT_NOT_FOUND, "computation 'e', instruction 'r': custom-call target "
		   "'fancy_op' is not registered");
	EXPECT_EQ(NULL, out);
	xrt_literal_destroy(arg);
	xexe_destroy(exe);
	xrt_module_destroy(m);
}

/*
 * The engine's GATHER and SCATTER take [n, window...], one dimension
 * more than the operand: rank-8 operands are refused by name (the
 * compiler once wrote past its arrays for them).
 */
TEST_F(xrt, rank_8_gather_and_scatter_refused_by_name)
{
	static const char gather[] =
		"HloModule g\nENTRY e {\n  o = f32[2,2,2,2,2,2,2,3] parameter(0)\n"
		"  i = s32[2,1] constant({{1},{0}})\n"
		"  ROOT g = f32[2,2,2,2,2,2,2,2] gather(o, i), offset_dims={1,2,3,4,5,6,7}, "
		"collapsed_slice_dims={7}, start_index_map={7}, index_vector_dim=1, "
		"slice_sizes={2,2,2,2,2,2,2,1}\n}\n";
	static const char scatter[] =
		"HloModule s\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
		"  ROOT s = f32[] add(a, b)\n}\nENTRY e {\n"
		"  o = f32[2,2,2,2,2,2,2,3] parameter(0)\n  i = s32[2,1] constant({{1},{0}})\n"
		"  u = f32[2,2,2,2,2,2,2,2] parameter(1)\n"
		"  ROOT s = f32[2,2,2,2,2,2,2,3] scatter(o, i, u), update_window_dims={1,2,3,4,5,6,7}, "
		"inserted_window_dims={7}, scatter_dims_to_operand_dims={7}, index_vector_dim=1, "
		"to_apply=add\n}\n";
	struct xrt_executable *exe = NULL;
	xrt_module *m = NULL;

	ASSERT_OK(xrt_hlo_parse(self->a, gather, strlen(gather), &m));
	ASSERT_ERR(cc_compile(m, NULL, self->a, &exe), XRT_UNIMPLEMENTED,
		   "instruction 'g' (gather): gather from an operand of rank 8 is not compiled yet");
	xrt_module_destroy(m);
	ASSERT_OK(xrt_hlo_parse(self->a, scatter, strlen(scatter), &m));
	ASSERT_ERR(cc_compile(m, NULL, self->a, &exe), XRT_UNIMPLEMENTED,
		   "instruction 's' (scatter): scatter into operands of rank 8 is not compiled yet");
	EXPECT_EQ(NULL, exe);
	xrt_module_destroy(m);
}

/*
 * Calls are inlined before lowering: a reducer calling a computation is
 * elementwise again, and a module whose computations call each other is
 * flattened, so it compiles; out of memory at any allocation, compiling
 * it fails cleanly.
 */
static const char calls_text[] =
	"HloModule c\nwhere {\n  p = pred[] parameter(0)\n  a = f32[] parameter(1)\n"
	"  b = f32[] parameter(2)\n  ROOT s = f32[] select(p, a, b)\n}\n"
	"max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
	"  g = pred[] compare(a, b), direction=GT\n"
	"  ROOT m = f32[] call(g, a, b), to_apply=where\n}\n"
	"inner {\n  x = f32[4,3] parameter(0)\n  z = f32[] constant(-inf)\n"
	"  ROOT r = f32[4] reduce(x, z), dimensions={1}, to_apply=max\n}\n"
	"ENTRY e {\n  x = f32[4,3] parameter(0)\n"
	"  ROOT c = f32[4] call(x), to_apply=inner\n}\n";
static xrt_module *calls_module;

static xrt_status *compile_calls(const struct xrt_allocator *a)
{
	struct xrt_executable *exe = NULL;
	xrt_status *st = cc_compile(calls_module, NULL, a, &exe);

	xexe_destroy(exe);
	return st;
}

TEST_F(xrt, calls_inlined_before_lowering)
{
	struct xrt_executable *exe = NULL;
	long runs;

	ASSERT_OK(xrt_hlo_parse(NULL, calls_text, strlen(calls_text), &calls_module));
	ASSERT_OK(cc_compile(calls_module, NULL, self->a, &exe));
	xexe_destroy(exe);
	test_fail_sweep(_metadata, &self->ta, compile_calls, &runs);
	xrt_module_destroy(calls_module);
}

/*
 * A computation applied as a kernel may hold XRT_CS_MAX_INSTS
 * instructions; one of more cannot fit a kernel and is refused so.
 */
TEST_F(xrt, computation_past_a_kernel_refused_by_name)
{
	struct xrt_executable *exe = NULL;
	size_t cap = 64 * 1024, n = 0;
	char *text = malloc(cap);
	xrt_module *m = NULL;
	int k;

	ASSERT_NE(NULL, text);
	n += (size_t)snprintf(text + n, cap - n, "HloModule big\ncmp {\n  a = f32[] parameter(0)\n"
			      "  b = f32[] parameter(1)\n  c = f32[] constant(0.5)\n");
	/* a0 = a * c, a1 = a0 * c, ... and the same of b: 263 instructions */
	n += (size_t)snprintf(text + n, cap - n, "  a0 = f32[] multiply(a, c)\n"
			      "  b0 = f32[] multiply(b, c)\n");
	for (k = 1; k < 130; k++)
		n += (size_t)snprintf(text + n, cap - n, "  a%d = f32[] multiply(a%d, c)\n"
				      "  b%d = f32[] multiply(b%d, c)\n", k, k - 1, k, k - 1);
	snprintf(text + n, cap - n, "  ROOT lt = pred[] compare(a129, b129), direction=LT\n}\n"
		 "ENTRY e {\n  x = f32[4,9] parameter(0)\n"
		 "  ROOT s = f32[4,9] sort(x), dimensions={1}, to_apply=cmp\n}\n");
	ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
	ASSERT_ERR(cc_compile(m, NULL, self->a, &exe), XRT_UNIMPLEMENTED,
		   "instruction 's' (sort): applying a computation this big is not compiled yet");
	EXPECT_EQ(NULL, exe);
	xrt_module_destroy(m);
	free(text);
}

/*
 * The bitonic network numbers positions in s32 and pads rows to a power
 * of 2: a comparator that is no plain order past 2^30 elements a row is
 * refused, saying so; one row short of it compiles.
 */
TEST_F(xrt, network_sort_refused_past_its_limit)
{
	static const char text[] =
		"HloModule s\ncmp {\n  a = u8[] parameter(0)\n  b = u8[] parameter(1)\n"
		"  x = u8[] not(a)\n  y = u8[] not(b)\n"
		"  ROOT lt = pred[] compare(x, y), direction=LT\n}\nENTRY e {\n"
		"  k = u8[%lld] parameter(0)\n"
		"  ROOT s = u8[%lld] sort(k), dimensions={0}, to_apply=cmp\n}\n";
	struct xrt_executable *exe = NULL;
	xrt_module *m = NULL;
	char buf[512];
	long long n;

	for (n = (1ll << 30) + 1; n >= 1ll << 30; n--) {
		snprintf(buf, sizeof(buf), text, n, n);
		ASSERT_OK(xrt_hlo_parse(self->a, buf, strlen(buf), &m));
		if (n > 1ll << 30) {
			ASSERT_ERR(cc_compile(m, NULL, self->a, &exe), XRT_UNIMPLEMENTED,
				   "sort over more than 2^30 elements with this comparator is not compiled yet");
		} else {
			ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
			xexe_destroy(exe);
		}
		xrt_module_destroy(m);
	}
}

/*
 * XLA leaves rng undefined for an empty range or a negative sigma: the
 * verifier refuses constant bounds of that kind, so that compile and the
 * evaluator refuse them alike, with the values as written.  (Computed
 * bounds are run by the corpus: rng_integers_and_bounds.hlo.)
 */
TEST_F(xrt, rng_bounds_refused_as_the_evaluator_refuses_them)
{
	static const struct {
		const char *t, *lo, *hi, *dist, *want;
	} c[] = {
		{ "f32", "2", "1", "rng_uniform", "rng_uniform needs low < high: low 2, high 1" },
		{ "f64", "0.5", "0.5", "rng_uniform",
		  "rng_uniform needs low < high: low 0.5, high 0.5" },
		{ "f32", "0", "inf", "rng_uniform", "rng_uniform needs finite bounds: low 0, high inf" },
		{ "f16", "1", "-2", "rng_normal", "rng_normal needs sigma >= 0: mu 1, sigma -2" },
		{ "s32", "-3", "-3", "rng_uniform", "rng_uniform needs low < high: low -3, high -3" },
		{ "u8", "200", "7", "rng_uniform", "rng_uniform needs low < high: low 200, high 7" },
		{ "s64", "9223372036854775807", "-9223372036854775808", "rng_uniform",
		  "low 9223372036854775807, high -9223372036854775808" },
	};
	struct xrt_executable *exe = NULL;
	xrt_literal *out = NULL;
	char text[512];
	size_t k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		xrt_module *m = NULL;

		snprintf(text, sizeof(text),
			 "HloModule r\nENTRY e {\n  %%a = %s[] constant(%s)\n"
			 "  %%b = %s[] constant(%s)\n"
			 "  ROOT %%r = %s[3] rng(%%a, %%b), distribution=%s\n}\n",
			 c[k].t, c[k].lo, c[k].t, c[k].hi, c[k].t, c[k].dist);
		ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
		ASSERT_ERR(cc_compile(m, NULL, self->a, &exe), XRT_INVALID_ARGUMENT, c[k].want);
		ASSERT_ERR(xrt_ir_evaluate(m, NULL, 0, NULL, self->a, &out), XRT_INVALID_ARGUMENT,
			   c[k].want);
		EXPECT_EQ(NULL, exe);
		EXPECT_EQ(NULL, out);
		xrt_module_destroy(m);
	}
}

/*
 * Results are computed in their result buffers: a fused chain and a dot
 * are one command each, with no copy after; a parameter passed through
 * and a transposed (non-default layout) result still get their copy.
 */
TEST_F(xrt, results_are_computed_in_place)
{
	static const struct { const char *text; uint32_t commands; } t[] = {
		{ "HloModule a\nENTRY e {\n  %x = f32[64] parameter(0)\n"
		  "  %c = f32[] constant(2)\n  %b = f32[64] broadcast(%c), dimensions={}\n"
		  "  %m = f32[64] multiply(%x, %b)\n  ROOT %t = f32[64] tanh(%m)\n}\n", 1 },
		{ "HloModule d\nENTRY e {\n  %a = f32[8,4] parameter(0)\n"
		  "  %b = f32[4,8] parameter(1)\n  %d = f32[8,8] dot(%a, %b), "
		  "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		  "  %n = f32[8,8] negate(%d)\n  ROOT %r = (f32[8,8], f32[8,8], f32[8,4]) "
		  "tuple(%d, %n, %a)\n}\n", 3 },
		{ "HloModule l\nENTRY e {\n  %x = f32[4,3] parameter(0)\n"
		  "  ROOT %n = f32[4,3]{0,1} negate(%x)\n}\n", 2 },
	};
	struct outcome oc = { 0, 0 };
	struct host_pool *pool = NULL;
	size_t i;

	ASSERT_OK(host_pool_create(2, &pool));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;

		ASSERT_OK(xrt_hlo_parse(self->a, t[i].text, strlen(t[i].text), &m));
		ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
		EXPECT_EQ(t[i].commands, exe->num_commands) TH_LOG("module %zu", i);
		differential(_metadata, self->a, "in place", m, &oc, pool);
		xexe_destroy(exe);
		xrt_module_destroy(m);
	}
	host_pool_destroy(pool);
	EXPECT_EQ(3, oc.compiled);
}

/*
 * Dims that every operand of an elementwise command walks as one merge,
 * and dims of size 1 go: the executors pay per row.  A broadcast or a
 * transpose keeps the dims it breaks.  Values as everywhere.
 */
TEST_F(xrt, elementwise_dims_merge_where_every_operand_allows)
{
	static const struct { const char *text; uint32_t rank; uint64_t dims[3]; } t[] = {
		{ "HloModule a\nENTRY e {\n  %x = f32[8,1,16,4] parameter(0)\n"
		  "  ROOT %n = f32[8,1,16,4] negate(%x)\n}\n", 1, { 512 } },
		{ "HloModule b\nENTRY e {\n  %x = f32[64,32] parameter(0)\n"
		  "  %b = f32[32] parameter(1)\n"
		  "  %bb = f32[64,32] broadcast(%b), dimensions={1}\n"
		  "  ROOT %s = f32[64,32] add(%x, %bb)\n}\n", 2, { 64, 32 } },
		{ "HloModule c\nENTRY e {\n  %x = f32[8,16] parameter(0)\n"
		  "  %t = f32[16,8] transpose(%x), dimensions={1,0}\n"
		  "  ROOT %n = f32[16,8] negate(%t)\n}\n", 2, { 16, 8 } },
		{ "HloModule d\nENTRY e {\n  %x = f32[1,1] parameter(0)\n"
		  "  ROOT %n = f32[1,1] negate(%x)\n}\n", 1, { 1 } },
		{ "HloModule e\nENTRY e {\n  %x = f32[4,8,2] parameter(0)\n"
		  "  %y = f32[4] parameter(1)\n"
		  "  %yb = f32[4,8,2] broadcast(%y), dimensions={0}\n"
		  "  ROOT %m = f32[4,8,2] multiply(%x, %yb)\n}\n", 2, { 4, 16 } },
		{ "HloModule f\nENTRY e {\n  %x = f32[3,4,5] parameter(0)\n"
		  "  %y = f32[4] parameter(1)\n"
		  "  %yb = f32[3,4,5] broadcast(%y), dimensions={1}\n"
		  "  ROOT %m = f32[3,4,5] subtract(%x, %yb)\n}\n", 3, { 3, 4, 5 } },
	};
	struct outcome oc = { 0, 0 };
	struct host_pool *pool = NULL;
	size_t i;

	ASSERT_OK(host_pool_create(2, &pool));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const struct xrt_cs_ewise *c;
		const struct xdev_program *lp;
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;
		uint32_t d;

		ASSERT_OK(xrt_hlo_parse(self->a, t[i].text, strlen(t[i].text), &m));
		ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
		ASSERT_EQ(1, exe->num_commands) TH_LOG("module %zu", i);
		ASSERT_OK(xdev_program_of(exe, &lp));
		c = (const void *)(lp->prog.base + lp->prog.offsets[0]);
		ASSERT_EQ(XRT_CS_OP_EWISE, c->cmd.op) TH_LOG("module %zu", i);
		EXPECT_EQ(t[i].rank, c->rank) TH_LOG("module %zu", i);
		for (d = 0; d < XRT_CS_MAX_RANK; d++) {
			EXPECT_EQ(d < 3 ? t[i].dims[d] : 0, c->dims[d])
				TH_LOG("module %zu, dim %u", i, d);
		}
		differential(_metadata, self->a, "merged dims", m, &oc, pool);
		xexe_destroy(exe);
		xrt_module_destroy(m);
	}
	host_pool_destroy(pool);
	EXPECT_EQ(6, oc.compiled);
}

/*
 * Constants computed on at compile time and exact identities leave no
 * commands behind: what remains is counted, and the values are checked
 * against the evaluator (on the unsimplified module) as everywhere.
 */
TEST_F(xrt, simplifier_folds_constants_and_drops_identities)
{
	static const struct { const char *text; uint32_t commands; } t[] = {
		/* 2 * 3 folds; x * 1 and + -0 are x: one kernel, x * 6 */
		{ "HloModule a\nENTRY e {\n  %x = f32[64] parameter(0)\n"
		  "  %c2 = f32[] constant(2)\n  %c3 = f32[] constant(3)\n"
		  "  %s = f32[] multiply(%c2, %c3)\n  %b = f32[64] broadcast(%s), dimensions={}\n"
		  "  %one = f32[] constant(1)\n  %b1 = f32[64] broadcast(%one), dimensions={}\n"
		  "  %m = f32[64] multiply(%x, %b1)\n  %z = f32[] constant(-0)\n"
		  "  %bz = f32[64] broadcast(%z), dimensions={}\n  %a = f32[64] add(%m, %bz)\n"
		  "  ROOT %r = f32[64] multiply(%a, %b)\n}\n", 1 },
		/* a dot and a transcendental of constants: only the result copy */
		{ "HloModule d\nENTRY e {\n  %a = f32[2,3] constant({{1,2,3},{4,5,6}})\n"
		  "  %b = f32[3,2] constant({{1,0},{0,1},{1,1}})\n"
		  "  %d = f32[2,2] dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		  "  ROOT %t = f32[2,2] tanh(%d)\n}\n", 1 },
		/* select on a constant predicate, convert to the same type */
		{ "HloModule s\nENTRY e {\n  %x = s32[5] parameter(0)\n  %y = s32[5] parameter(1)\n"
		  "  %p = pred[] constant(false)\n  %bp = pred[5] broadcast(%p), dimensions={}\n"
		  "  %s = s32[5] select(%bp, %x, %y)\n  %c = s32[5] convert(%s)\n"
		  "  %k = s32[] constant(-1)\n  %bk = s32[5] broadcast(%k), dimensions={}\n"
		  "  %n = s32[5] and(%c, %bk)\n  ROOT %r = s32[5] negate(%n)\n}\n", 1 },
		/* x + +0 is not x (-0 + +0 is +0): it stays */
		{ "HloModule z\nENTRY e {\n  %x = f32[4] parameter(0)\n  %z = f32[] constant(0)\n"
		  "  %b = f32[4] broadcast(%z), dimensions={}\n"
		  "  ROOT %r = f32[4] add(%x, %b)\n}\n", 1 },
		{ "HloModule p\nENTRY e {\n  %x = f32[4] parameter(0)\n  %o = f32[] constant(1)\n"
		  "  %b = f32[4] broadcast(%o), dimensions={}\n"
		  "  ROOT %r = f32[4] divide(%x, %b)\n}\n", 1 },
	};
	struct outcome oc = { 0, 0 };
	struct host_pool *pool = NULL;
	size_t i;

	ASSERT_OK(host_pool_create(2, &pool));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cc_options keep = { .no_folding = true };
		struct xrt_executable *exe = NULL, *all = NULL;
		xrt_module *m = NULL;

		ASSERT_OK(xrt_hlo_parse(self->a, t[i].text, strlen(t[i].text), &m));
		ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
		ASSERT_OK(cc_compile(m, &keep, self->a, &all));
		EXPECT_EQ(t[i].commands, exe->num_commands) TH_LOG("module %zu", i);
		EXPECT_LE(exe->num_commands, all->num_commands) TH_LOG("module %zu", i);
		differential(_metadata, self->a, "simplified", m, &oc, pool);
		xexe_destroy(exe);
		xexe_destroy(all);
		xrt_module_destroy(m);
	}
	host_pool_destroy(pool);
	EXPECT_EQ((int)(sizeof(t) / sizeof(t[0])), oc.compiled);
}

/*
 * Donated parameters hold results of their shape: no RESULT slot for
 * them, and the values still the evaluator's when results read the
 * donated inputs after the program wrote others (swaps, transposes,
 * pass-throughs) or are computed from them.
 */
TEST_F(xrt, donated_parameters_hold_results)
{
	static const struct { const char *text; uint64_t donated; uint32_t result_slots; } t[] = {
		{ "HloModule a\nENTRY e {\n  %x = f32[8] parameter(0)\n"
		  "  ROOT %t = f32[8] tanh(%x)\n}\n", 1, 0 },
		/* swapped, both donated: each read before the other is written */
		{ "HloModule s\nENTRY e {\n  %a = s32[4] parameter(0)\n  %b = s32[4] parameter(1)\n"
		  "  ROOT %r = (s32[4], s32[4]) tuple(%b, %a)\n}\n", 3, 0 },
		/* a transposed copy of itself into itself */
		{ "HloModule t\nENTRY e {\n  %a = s32[3,3] parameter(0)\n"
		  "  ROOT %r = s32[3,3] transpose(%a), dimensions={1,0}\n}\n", 1, 0 },
		/* the donated input also returned unchanged: one result takes it */
		{ "HloModule p\nENTRY e {\n  %a = f32[5] parameter(0)\n  %n = f32[5] negate(%a)\n"
		  "  ROOT %r = (f32[5], f32[5]) tuple(%n, %a)\n}\n", 1, 1 },
		/* shapes that do not match are not reused; undonated never are */
		{ "HloModule m\nENTRY e {\n  %a = f32[5] parameter(0)\n  %b = f32[5] parameter(1)\n"
		  "  %c = f32[5,1] reshape(%a)\n  %s = f32[5] add(%a, %b)\n"
		  "  ROOT %r = (f32[5,1], f32[5]) tuple(%c, %s)\n}\n", 1, 1 },
	};
	struct outcome oc = { 0, 0 };
	struct host_pool *pool = NULL;
	size_t i;

	ASSERT_OK(host_pool_create(2, &pool));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cc_options o = { .donated = t[i].donated };
		struct xrt_executable *exe = NULL;
		xrt_literal *args[2] = { NULL }, *want = NULL, *got = NULL;
		uint64_t state = 99;
		uint32_t s, results = 0, n, k;
		xrt_module *m = NULL;
		char why[256];

		ASSERT_OK(xrt_hlo_parse(self->a, t[i].text, strlen(t[i].text), &m));
		ASSERT_OK(cc_compile(m, &o, self->a, &exe));
		for (s = 0; s < exe->num_slots; s++)
			results += exe->slots[s].kind == XEXE_SLOT_RESULT;
		EXPECT_EQ(t[i].result_slots, results) TH_LOG("module %zu", i);
		n = xrt_module_num_params(m);
		for (k = 0; k < n; k++) {
			ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, k), &args[k]));
			test_fill_random(args[k], &state);
		}
		ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, n, NULL, self->a,
					  &want));
		ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, n,
				   &(struct host_run_options){ 0, pool }, self->a, &got));
		EXPECT_TRUE(xrt_literal_near(want, got, &(struct xrt_tolerance){ 2e-5, 1e-6 },
					     why, sizeof(why))) TH_LOG("module %zu: %s", i, why);
		for (k = 0; k < n; k++)
			xrt_literal_destroy(args[k]);
		xrt_literal_destroy(want);
		xrt_literal_destroy(got);
		xexe_destroy(exe);
		differential(_metadata, self->a, "donation", m, &oc, pool);
		xrt_module_destroy(m);
	}
	host_pool_destroy(pool);
}

static const char add_module[] =
	"HloModule a\nENTRY e {\n  %x = f32[4] parameter(0)\n"
	"  ROOT %y = f32[4] add(%x, %x)\n}\n";

struct loader {
	const struct xrt_executable *exe;
	const struct xdev_program *got;
	xrt_status *st;
};

static void *load_it(void *arg)
{
	struct loader *l = arg;

	l->st = xdev_program_of(l->exe, &l->got);
	return NULL;
}

/* The device validates an executable once; threads racing to do it share one program. */
TEST_F(xrt, devices_validate_an_executable_once)
{
	struct loader l[4];
	pthread_t t[4];
	const struct xdev_program *p1, *p2;
	struct xrt_executable *exe = NULL;
	xrt_module *m = NULL;
	int round, i;

	ASSERT_OK(xrt_hlo_parse(self->a, add_module, strlen(add_module), &m));
	ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
	ASSERT_OK(xdev_program_of(exe, &p1));
	ASSERT_OK(xdev_program_of(exe, &p2));
	EXPECT_EQ(p1, p2);
	EXPECT_EQ(exe->num_commands, p1->prog.num_commands);
	xexe_destroy(exe);
	for (round = 0; round < 20; round++) {
		exe = NULL;
		ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
		for (i = 0; i < 4; i++) {
			l[i] = (struct loader){ exe, NULL, NULL };
			ASSERT_EQ(0, pthread_create(&t[i], NULL, load_it, &l[i]));
		}
		for (i = 0; i < 4; i++) {
			pthread_join(t[i], NULL);
			ASSERT_OK(l[i].st);
			EXPECT_EQ(l[0].got, l[i].got) TH_LOG("round %d, thread %d", round, i);
		}
		xexe_destroy(exe);	/* frees the one form kept, and the test allocator counts */
	}
	xrt_module_destroy(m);
}

/* The compiler no longer validates: a bad command is found at the first run, and named. */
TEST_F(xrt, a_corrupt_program_is_refused_at_its_first_run)
{
	struct xrt_executable *exe = NULL;
	xrt_literal *x = NULL, *out = NULL;
	const struct xrt_cs_header *h;
	struct xrt_cs_cmd *c;
	xrt_module *m = NULL;

	ASSERT_OK(xrt_hlo_parse(self->a, add_module, strlen(add_module), &m));
	ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	h = exe->program;
	c = (struct xrt_cs_cmd *)((uint8_t *)exe->program + h->commands_offset);
	c->op = 0x7777;		/* no such opcode */
	ASSERT_ERR(host_run(exe, (const xrt_literal *const *)&x, 1, NULL, self->a, &out),
		   XRT_INVALID_ARGUMENT, "command 0");
	EXPECT_EQ(NULL, out);
	/* not kept as validated: a second run is refused the same way */
	ASSERT_ERR(host_run(exe, (const xrt_literal *const *)&x, 1, NULL, self->a, &out),
		   XRT_INVALID_ARGUMENT, "command 0");
	xrt_literal_destroy(x);
	xexe_destroy(exe);
	xrt_module_destroy(m);
}

TEST_HARNESS_MAIN
