// SPDX-License-Identifier: MIT
/*
 * The XRT API's compilations and executions: the seed's CompileAndExecute
 * and CompileAndExecuteReturnTuple with its values, the compile cache
 * (hits, failures cached, eight threads compiling one module once,
 * eviction with live handles), argument checking, and releases.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xrt_test.h"
#include "test_cases.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/wire.h>
#include <xrt/xrt.h>

#include "xrt.pb-c.h"

static const char add_and_scale[] =
	"HloModule AddAndScale\nENTRY e {\n  p0 = f32[2] parameter(0)\n  p1 = f32[2] parameter(1)\n"
	"  sum = f32[2] add(p0, p1)\n  c = f32[] constant(3)\n"
	"  cb = f32[2] broadcast(c), dimensions={}\n  ROOT r = f32[2] multiply(sum, cb)\n}\n";

static const char add_and_tuple[] =
	"HloModule AddAndTuple\nENTRY e {\n  p0 = f32[2] parameter(0)\n  p1 = f32[2] parameter(1)\n"
	"  sum = f32[2] add(p0, p1)\n  ROOT r = (f32[2]) tuple(sum)\n}\n";

static xrt_handle put(struct __test_metadata *_metadata, xrt_session *s, float a, float b)
{
	const float v[2] = { a, b };
	struct xrt_shape shape;
	xrt_handle h = 0;

	ASSERT_OK(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 2 }));
	ASSERT_OK(xrt_allocate_data(s, &shape, v, sizeof(v), &h));
	return h;
}

/* Reads the f32[2] at index path @idx (length @n) of @h into @got. */
static void get2(struct __test_metadata *_metadata, xrt_session *s, xrt_handle h,
		 const int64_t *idx, uint32_t n, float *got)
{
	xrt_handle e = h;

	if (n)
		ASSERT_OK(xrt_sub_tuple(s, h, idx, n, true, &e));
	ASSERT_OK(xrt_read_data(s, e, true, got, 8));
	ASSERT_ERR(xrt_release_allocations(s, &e, 1), XRT_NOT_FOUND, "no allocation");
}

TEST_F(xrt, compile_and_execute)
{
	const struct xrt_execution_config cfg = { 0, 0, true, true };
	xrt_session *s = NULL;
	xrt_handle c, args[2], r;
	float got[2];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &c));
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute(s, c, args, 2, &cfg, &r));
	get2(_metadata, s, r, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	EXPECT_EQ(21.0f, got[1]);
	/* released by the run, as the config asked */
	ASSERT_ERR(xrt_release_allocations(s, args, 1), XRT_NOT_FOUND, "no allocation");
	ASSERT_ERR(xrt_release_compilations(s, &c, 1), XRT_NOT_FOUND, "no compilation");
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_session_destroy(s);
}

/*
 * Asynchronous runs: results usable at once (as arguments of the next
 * run, in order), read when ready, events that say so, on every device
 * (the VM stage runs it on accel:0).
 */
TEST_F(xrt, asynchronous_runs_chain_and_complete)
{
	xrt_session *s = NULL;
	xrt_handle c, a, b, r1, r2, r3;
	xrt_event *e1 = NULL, *e2 = NULL;
	xrt_status *st;
	float got[2];
	int polls = 0;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &c));
	a = put(_metadata, s, 1, 2);
	b = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute_async(s, c, (xrt_handle[]){ a, b }, 2, NULL, &r1, &e1));
	/* r1 = {27, 21} is an argument before it is computed */
	ASSERT_OK(xrt_execute_async(s, c, (xrt_handle[]){ r1, a }, 2, NULL, &r2, &e2));
	ASSERT_OK(xrt_execute_async(s, c, (xrt_handle[]){ r2, r2 }, 2, NULL, &r3, NULL));
	while ((st = xrt_event_wait(e2, 0)) && xrt_status_code(st) == XRT_DEADLINE_EXCEEDED) {
		xrt_status_free(st);
		polls++;
	}
	ASSERT_EQ(NULL, st);
	ASSERT_OK(xrt_event_wait(e1, -1));	/* done before e2: in order */
	ASSERT_OK(xrt_event_wait(e1, 0));	/* and it stays done */
	get2(_metadata, s, r2, NULL, 0, got);
	EXPECT_EQ(84.0f, got[0]);
	EXPECT_EQ(69.0f, got[1]);
	get2(_metadata, s, r3, NULL, 0, got);	/* no event: the read waits */
	EXPECT_EQ(504.0f, got[0]);
	EXPECT_EQ(414.0f, got[1]);
	get2(_metadata, s, r1, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	xrt_event_destroy(e1);
	/* errors before the start come back at once, with no event */
	ASSERT_ERR(xrt_execute_async(s, c, &a, 1, NULL, &r1, &e1), XRT_INVALID_ARGUMENT,
		   "1 arguments for a program of 2 parameters");
	EXPECT_EQ(NULL, e1);
	ASSERT_ERR(xrt_event_wait(NULL, 0), XRT_INVALID_ARGUMENT, "event is NULL");
	xrt_event_destroy(NULL);
	fprintf(stderr, "# %s: %d polls before the second run ended\n", xrt_session_device(s),
		polls);
	xrt_event_destroy(e2);
	xrt_session_destroy(s);
}

TEST_F(xrt, compile_and_execute_return_tuple)
{
	static const int64_t i0[] = { 0 };
	xrt_session *s = NULL;
	struct xrt_program_shape ps;
	xrt_handle c, args[2], r;
	float got[2];
	char text[64];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_tuple, sizeof(add_and_tuple) - 1, &c));
	ASSERT_OK(xrt_compilation_shape(s, c, self->a, &ps));
	ASSERT_EQ(2u, ps.num_params);
	xrt_shape_format(&ps.result, text, sizeof(text));
	EXPECT_STREQ("(f32[2]{0})", text);
	xrt_program_shape_deinit(&ps);
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute(s, c, args, 2, NULL, &r));
	get2(_metadata, s, r, i0, 1, got);
	EXPECT_EQ(9.0f, got[0]);
	EXPECT_EQ(7.0f, got[1]);
	/* not released this time: run again on the same inputs */
	ASSERT_OK(xrt_execute(s, c, args, 2, NULL, &r));
	get2(_metadata, s, r, i0, 1, got);
	EXPECT_EQ(9.0f, got[0]);
	ASSERT_OK(xrt_release_allocations(s, args, 2));
	ASSERT_OK(xrt_release_compilations(s, &c, 1));
	xrt_session_destroy(s);
}

TEST_F(xrt, arguments_are_checked_against_the_program)
{
	xrt_session *s = NULL;
	struct xrt_shape shape;
	struct xrt_execution_config cfg = { 3, 0, false, false };
	xrt_handle c, args[2], wrong, r = 99;
	int32_t iv[2] = { 1, 2 };

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &c));
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 3, 4);
	ASSERT_ERR(xrt_execute(s, c, args, 1, NULL, &r), XRT_INVALID_ARGUMENT,
		   "1 arguments for a program of 2 parameters");
	ASSERT_OK(xrt_shape_init_array(&shape, XRT_S32, 1, (int64_t[]){ 2 }));
	ASSERT_OK(xrt_allocate_data(s, &shape, iv, sizeof(iv), &wrong));
	args[1] = wrong;
	ASSERT_ERR(xrt_execute(s, c, args, 2, NULL, &r), XRT_INVALID_ARGUMENT,
		   "argument 1 is s32[2]{0}, parameter 1 takes f32[2]{0}");
	args[1] = 4242;
	ASSERT_ERR(xrt_execute(s, c, args, 2, NULL, &r), XRT_NOT_FOUND,
		   "argument 1: no allocation 4242");
	ASSERT_ERR(xrt_execute(s, args[0], args, 2, NULL, &r), XRT_NOT_FOUND,
		   "no compilation 2");
	ASSERT_ERR(xrt_execute(s, c, args, 2, &cfg, &r), XRT_INVALID_ARGUMENT,
		   "device ordinal 3");
	EXPECT_EQ(99, r);
	/* a compilation handle is no allocation */
	ASSERT_ERR(xrt_release_allocations(s, &c, 1), XRT_NOT_FOUND, "no allocation 1");
	xrt_session_destroy(s);	/* releases what is left */
}

/* A custom call of 257 arrays: past XRT_CS_CALL_MAX_VIEWS, refused by the compiler. */
static char *too_wide_call(void)
{
	char *t = malloc(8192);
	size_t n;
	int i;

	if (!t)
		return NULL;
	n = (size_t)sprintf(t, "HloModule bad\nENTRY e {\n  x = f32[2] parameter(0)\n"
			    "  ROOT r = f32[2] custom-call(x");
	for (i = 1; i < 257; i++)
		n += (size_t)sprintf(t + n, ", x");
	sprintf(t + n, "), custom_call_target=\"wide\"\n}\n");
	return t;
}

TEST_F(xrt, compile_errors_name_the_instruction_and_are_cached)
{
	struct xrt_compile_cache_stats before, after;
	char *bad = too_wide_call();
	xrt_session *s = NULL;
	xrt_handle c = 5;

	ASSERT_NE(NULL, bad);
	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_ERR(xrt_compile_hlo(s, "HloModule", 9, &c), XRT_INVALID_ARGUMENT, "line 1");
	ASSERT_ERR(xrt_compile_hlo(s, bad, strlen(bad), &c), XRT_UNIMPLEMENTED,
		   "instruction 'r' (custom-call)");
	xrt_compile_cache_stats(&before);
	ASSERT_ERR(xrt_compile_hlo(s, bad, strlen(bad), &c), XRT_UNIMPLEMENTED,
		   "a custom call of more than 256 arrays in and out");
	xrt_compile_cache_stats(&after);
	EXPECT_EQ(before.compiles, after.compiles);	/* the failure came from the cache */
	EXPECT_EQ(before.hits + 1, after.hits);
	EXPECT_EQ(5, c);
	xrt_session_destroy(s);
	free(bad);
}

struct compiler_thread {
	xrt_session *s;
	const char *text;
	xrt_status *st;
	xrt_handle h;
};

static void *compile_one(void *arg)
{
	struct compiler_thread *t = arg;

	t->st = xrt_compile_hlo(t->s, t->text, strlen(t->text), &t->h);
	return NULL;
}

/* Eight threads ask for one new module at once: one compilation. */
TEST_F(xrt, concurrent_compiles_of_one_module_compile_once)
{
	char text[512];
	struct xrt_compile_cache_stats before, after;
	struct compiler_thread t[8];
	pthread_t th[8];
	xrt_session *s = NULL;
	int i;

	/* a module no other test compiled */
	snprintf(text, sizeof(text), "HloModule once\nENTRY e {\n  x = f32[64] parameter(0)\n"
		 "  c = f32[] constant(%d.5)\n  b = f32[64] broadcast(c), dimensions={}\n"
		 "  ROOT r = f32[64] multiply(x, b)\n}\n", (int)getpid() % 1000);
	ASSERT_OK(xrt_session_create(NULL, NULL, &s));
	xrt_compile_cache_stats(&before);
	for (i = 0; i < 8; i++) {
		t[i] = (struct compiler_thread){ s, text, NULL, 0 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, compile_one, &t[i]));
	}
	for (i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		ASSERT_EQ(NULL, t[i].st);
	}
	xrt_compile_cache_stats(&after);
	EXPECT_EQ(before.compiles + 1, after.compiles);
	EXPECT_EQ(before.hits + 7, after.hits);
	for (i = 1; i < 8; i++)
		EXPECT_NE(t[0].h, t[i].h);	/* eight handles on one entry */
	xrt_session_destroy(s);
}

/* Over the limits the oldest entries go; one still held lives and comes back. */
TEST_F(xrt, eviction_keeps_what_handles_hold)
{
	struct xrt_compile_cache_stats st0, st1, st2;
	xrt_session *s = NULL;
	xrt_handle held, other, again, args[2], r;
	float got[2];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &held));
	ASSERT_OK(xrt_compile_hlo(s, add_and_tuple, sizeof(add_and_tuple) - 1, &other));
	ASSERT_OK(xrt_release_compilations(s, &other, 1));
	xrt_compile_cache_stats(&st0);
	xrt_compile_cache_limits(0, 0);	/* evict everything */
	xrt_compile_cache_stats(&st1);
	EXPECT_EQ(0u, st1.entries);
	EXPECT_GE(st1.evictions, st0.evictions + 2);
	/* the held program still runs */
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute(s, held, args, 2, NULL, &r));
	get2(_metadata, s, r, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	xrt_compile_cache_limits(1024, 256ull << 20);
	/* compiled again: the held entry comes back, no compilation */
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &again));
	xrt_compile_cache_stats(&st2);
	EXPECT_EQ(st1.compiles, st2.compiles);
	EXPECT_EQ(1u, st2.entries);
	ASSERT_OK(xrt_release_allocations(s, args, 2));
	xrt_session_destroy(s);
}

/*
 * A compile that hits the cache takes a reference of its own: with two
 * handles on one entry, releasing the first and evicting everything
 * leaves the second's program running, and compiling the module again
 * finds that entry (no compilation).
 */
TEST_F(xrt, a_cache_hit_holds_its_own_reference)
{
	struct xrt_compile_cache_stats st0, st1;
	xrt_handle first, second, again, args[2], r;
	xrt_session *s = NULL;
	float got[2];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &first));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &second));
	ASSERT_OK(xrt_release_compilations(s, &first, 1));
	xrt_compile_cache_stats(&st0);
	xrt_compile_cache_limits(0, 0);
	xrt_compile_cache_limits(1024, 256ull << 20);
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute(s, second, args, 2, NULL, &r));
	get2(_metadata, s, r, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &again));
	xrt_compile_cache_stats(&st1);
	EXPECT_EQ(st0.compiles, st1.compiles);
	ASSERT_OK(xrt_release_allocations(s, args, 2));
	xrt_session_destroy(s);
}

/* Modules that differ only in a constant: distinct cache entries. */
static void compile_nth(struct __test_metadata *_metadata, xrt_session *s, int n)
{
	char text[256];
	xrt_handle h;

	snprintf(text, sizeof(text),
		 "HloModule m%d\nENTRY e {\n  x = f32[2] parameter(0)\n"
		 "  c = f32[] constant(%d)\n  b = f32[2] broadcast(c), dimensions={}\n"
		 "  ROOT r = f32[2] add(x, b)\n}\n", n, n);
	ASSERT_OK(xrt_compile_hlo(s, text, strlen(text), &h));
	ASSERT_OK(xrt_release_compilations(s, &h, 1));
}

/* The entry limit is the most kept: at it nothing goes, one past it the oldest. */
TEST_F(xrt, eviction_starts_past_the_entry_limit)
{
	struct xrt_compile_cache_stats st0, st1, st2;
	xrt_session *s = NULL;
	int i;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	xrt_compile_cache_limits(0, 0);		/* empty */
	xrt_compile_cache_limits(3, 256ull << 20);
	xrt_compile_cache_stats(&st0);
	EXPECT_EQ(0u, st0.entries);
	for (i = 0; i < 3; i++)
		compile_nth(_metadata, s, i);
	xrt_compile_cache_stats(&st1);
	EXPECT_EQ(3u, st1.entries);
	EXPECT_EQ(st0.evictions, st1.evictions);
	compile_nth(_metadata, s, 3);
	xrt_compile_cache_stats(&st2);
	EXPECT_EQ(3u, st2.entries);
	EXPECT_EQ(st1.evictions + 1, st2.evictions);
	/* the oldest went: compiling it again compiles; the newest is a hit */
	compile_nth(_metadata, s, 3);
	xrt_compile_cache_stats(&st1);
	EXPECT_EQ(st2.compiles, st1.compiles);
	compile_nth(_metadata, s, 0);
	xrt_compile_cache_stats(&st2);
	EXPECT_EQ(st1.compiles + 1, st2.compiles);
	xrt_compile_cache_limits(1024, 256ull << 20);
	xrt_session_destroy(s);
}

/* CompileAndExecute end to end; the first error ends it (returned). */
static xrt_status *scenario(const struct xrt_allocator *a)
{
	static const float v0[2] = { 1, 2 }, v1[2] = { 8, 5 };
	const struct xrt_execution_config cfg = { 0, 0, true, true };
	xrt_handle c = 0, args[2] = { 0, 0 }, r = 0;
	struct xrt_shape shape;
	xrt_session *s = NULL;
	float got[2];
	xrt_status *st = xrt_session_create(NULL, a, &s);

	if (!st)
		st = xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 2 });
	if (!st)
		st = xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &c);
	if (!st)
		st = xrt_allocate_data(s, &shape, v0, 8, &args[0]);
	if (!st)
		st = xrt_allocate_data(s, &shape, v1, 8, &args[1]);
	if (!st)
		st = xrt_execute(s, c, args, 2, &cfg, &r);
	if (!st)
		st = xrt_read_data(s, r, false, got, 8);
	if (!st && (got[0] != 27 || got[1] != 21))
		st = xrt_status_new(NULL, XRT_INTERNAL, "wrong result");
	xrt_session_destroy(s);
	return st;
}

TEST_F(xrt, every_allocation_failing_in_turn_fails_cleanly)
{
	long runs = 0;

	test_fail_sweep(_metadata, &self->ta, scenario, &runs);
	EXPECT_GT(runs, 10);
}

/* Packs a protobuf-c message into malloc'ed bytes. */
static void *pack(const ProtobufCMessage *m, size_t *n)
{
	void *b;

	*n = protobuf_c_message_get_packed_size(m);
	b = malloc(*n + 1);
	if (b)
		protobuf_c_message_pack(m, b);
	return b;
}

TEST_F(xrt, the_wire_forms_of_the_seed_ops)
{
	static const float v0[2] = { 1, 2 }, v1[2] = { 8, 5 };
	Xrt__Computation comp = XRT__COMPUTATION__INIT;
	Xrt__ComputationConfig cc = XRT__COMPUTATION_CONFIG__INIT;
	Xrt__Allocation al = XRT__ALLOCATION__INIT;
	Xrt__ExecutionConfig ec = XRT__EXECUTION_CONFIG__INIT;
	Xrt__TupleNode leaf = XRT__TUPLE_NODE__INIT, root = XRT__TUPLE_NODE__INIT, *kids[2];
	xrt_literal *lit = NULL, *back = NULL;
	struct xrt_shape shape;
	xrt_session *s = NULL;
	xrt_handle c, args[2], r, t;
	void *b, *lb;
	size_t n, ln;
	char why[128];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	/* compile: HLO text body; the config's signature checked; replicas become the module's */
	comp.body_case = XRT__COMPUTATION__BODY_HLO_TEXT;
	comp.hlo_text = (char *)add_and_scale;
	comp.config = &cc;
	cc.num_replicas = 2;
	b = pack(&comp.base, &n);
	ASSERT_OK(xrt_compile_proto(s, b, n, &c));
	ASSERT_OK(xrt_release_compilations(s, &c, 1));
	free(b);
	cc.num_replicas = 1;
	b = pack(&comp.base, &n);
	ASSERT_OK(xrt_compile_proto(s, b, n, &c));
	free(b);
	ASSERT_ERR(xrt_compile_proto(s, "\xff\xff\xff", 3, &c), XRT_INVALID_ARGUMENT,
		   "computation");
	comp.body_case = XRT__COMPUTATION__BODY__NOT_SET;
	b = pack(&comp.base, &n);
	ASSERT_ERR(xrt_compile_proto(s, b, n, &c), XRT_INVALID_ARGUMENT, "has no body");
	free(b);
	/* allocate from Allocation messages */
	ASSERT_OK(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 2 }));
	ASSERT_OK(xrt_literal_create_from(self->a, &shape, v0, 8, &lit));
	ASSERT_OK(xrt_literal_serialize(lit, self->a, &lb, &ln));
	al.contents_case = XRT__ALLOCATION__CONTENTS_LITERAL;
	al.literal = xrt__literal__unpack(NULL, ln, lb);
	ASSERT_NE(NULL, al.literal);
	b = pack(&al.base, &n);
	ASSERT_OK(xrt_allocate_proto(s, b, n, &args[0]));
	free(b);
	al.device_ordinal = 1;
	b = pack(&al.base, &n);
	ASSERT_ERR(xrt_allocate_proto(s, b, n, &t), XRT_INVALID_ARGUMENT, "device ordinal 1");
	free(b);
	xrt__literal__free_unpacked(al.literal, NULL);
	xrt_free(self->a, lb);
	xrt_literal_destroy(lit);
	ASSERT_OK(xrt_allocate_data(s, &shape, v1, 8, &args[1]));
	/* execute with an ExecutionConfig message that releases the inputs */
	ec.release_input_handles = true;
	b = pack(&ec.base, &n);
	ASSERT_OK(xrt_execute_proto(s, c, args, 2, b, n, &r));
	free(b);
	ASSERT_ERR(xrt_release_allocations(s, args, 1), XRT_NOT_FOUND, "no allocation");
	/* a tuple of the result from a TupleNode, read back as a Literal message */
	leaf.input_index = 0;
	kids[0] = kids[1] = &leaf;
	root.n_children = 2;
	root.children = kids;
	b = pack(&root.base, &n);
	ASSERT_OK(xrt_make_tuple_proto(s, b, n, &r, 1, &t));
	free(b);
	ASSERT_OK(xrt_read_proto(s, t, true, self->a, &lb, &ln));
	ASSERT_OK(xrt_literal_deserialize(self->a, lb, ln, &back));
	xrt_free(self->a, lb);
	{
		static const float w[2] = { 27, 21 };
		xrt_literal *e[2] = { NULL, NULL }, *want = NULL;

		ASSERT_OK(xrt_literal_create_from(self->a, &shape, w, 8, &e[0]));
		ASSERT_OK(xrt_literal_create_from(self->a, &shape, w, 8, &e[1]));
		ASSERT_OK(xrt_literal_make_tuple(self->a, e, 2, &want));
		EXPECT_TRUE(xrt_literal_equal(want, back, why, sizeof(why))) TH_LOG("%s", why);
		xrt_literal_destroy(want);
	}
	xrt_literal_destroy(back);
	ASSERT_ERR(xrt_read_proto(s, t, false, self->a, &lb, &ln), XRT_NOT_FOUND, "no allocation");
	xrt_session_destroy(s);
}

/* XLA's serialized modules compile, directly and in a Computation, as their text does. */
TEST_F(xrt, xla_protos_compile_as_their_text)
{
	Xrt__Computation comp = XRT__COMPUTATION__INIT;
	xrt_literal *want, *got;
	char path[1024], *text, *pb;
	xrt_session *s = NULL;
	size_t tn, pn, n;
	xrt_handle c;
	char why[256];
	void *b;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	snprintf(path, sizeof(path), "%s/mlp_grad.before.hlo", XLA_DIR);
	text = test_slurp(path, &tn);
	snprintf(path, sizeof(path), "%s/mlp_grad.before.pb", XLA_DIR);
	pb = test_slurp(path, &pn);
	ASSERT_TRUE(text && pb);
	ASSERT_OK(xrt_compile_hlo(s, text, tn, &c));
	want = test_run_random(s, c, self->a);
	ASSERT_NE(NULL, want);
	ASSERT_OK(xrt_release_compilations(s, &c, 1));
	ASSERT_OK(xrt_compile_xla_proto(s, pb, pn, &c));
	got = test_run_random(s, c, self->a);
	ASSERT_NE(NULL, got);
	EXPECT_TRUE(xrt_literal_equal(want, got, why, sizeof(why))) TH_LOG("%s", why);
	xrt_literal_destroy(got);
	ASSERT_OK(xrt_release_compilations(s, &c, 1));
	comp.body_case = XRT__COMPUTATION__BODY_XLA_MODULE;
	comp.xla_module.data = (uint8_t *)pb;
	comp.xla_module.len = pn;
	b = pack(&comp.base, &n);
	ASSERT_OK(xrt_compile_proto(s, b, n, &c));
	free(b);
	got = test_run_random(s, c, self->a);
	ASSERT_NE(NULL, got);
	EXPECT_TRUE(xrt_literal_equal(want, got, why, sizeof(why))) TH_LOG("%s", why);
	xrt_literal_destroy(got);
	ASSERT_OK(xrt_release_compilations(s, &c, 1));
	/* bad bytes and bad arguments: precise errors, nothing kept */
	ASSERT_ERR(xrt_compile_xla_proto(s, "\xff\xff\xff", 3, &c), XRT_INVALID_ARGUMENT, "");
	ASSERT_ERR(xrt_compile_xla_proto(s, NULL, 4, &c), XRT_INVALID_ARGUMENT, "the data is NULL");
	ASSERT_ERR(xrt_compile_xla_proto(s, pb, pn, NULL), XRT_INVALID_ARGUMENT, "out is NULL");
	comp.xla_module.len = pn / 2;
	b = pack(&comp.base, &n);
	ASSERT_ERR(xrt_compile_proto(s, b, n, &c), XRT_INVALID_ARGUMENT, "");
	free(b);
	/* no bytes at all: no module in them */
	ASSERT_ERR(xrt_compile_xla_proto(s, NULL, 0, &c), XRT_INVALID_ARGUMENT, "");
	comp.xla_module.data = NULL;
	comp.xla_module.len = 0;
	b = pack(&comp.base, &n);
	ASSERT_ERR(xrt_compile_proto(s, b, n, &c), XRT_INVALID_ARGUMENT, "");
	free(b);
	xrt_literal_destroy(want);
	free(text);
	free(pb);
	xrt_session_destroy(s);
}

/* xla/gen.py's x, f32[4,6] of k / 7, as a literal (its values in *@in). */
static xrt_literal *jax_x(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			  float **in)
{
	static const int64_t dims[] = { 4, 6 };
	struct xrt_shape shape;
	xrt_literal *x = NULL;
	int k;

	EXPECT_EQ(NULL, xrt_shape_init_array(&shape, XRT_F32, 2, dims));
	EXPECT_EQ(NULL, xrt_literal_create(a, &shape, &x));
	xrt_shape_deinit(&shape);
	if (!x)
		return NULL;
	*in = xrt_literal_mutable_data(x);
	for (k = 0; k < 24; k++)
		(*in)[k] = (float)k / 7;
	return x;
}

/*
 * xla/@file (HLO text, or XLA's proto for a .pb) compiled, run on @arg
 * and read back (NULL on failure, logged).
 */
static xrt_literal *run_xla_file(struct __test_metadata *_metadata, xrt_session *s,
				 const char *file, xrt_handle arg)
{
	xrt_literal *got = NULL;
	xrt_status *st;
	xrt_handle c, r;
	char path[1024], *text;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", XLA_DIR, file);
	text = test_slurp(path, &n);
	EXPECT_NE(NULL, text);
	if (!text)
		return NULL;
	st = strstr(file, ".pb") ? xrt_compile_xla_proto(s, text, n, &c) :
				   xrt_compile_hlo(s, text, n, &c);
	if (!st) {
		st = xrt_execute(s, c, &arg, 1, NULL, &r);
		if (!st)
			st = xrt_read_literal(s, r, true, &got);
		xrt_status_free(xrt_release_compilations(s, &c, 1));
	}
	if (st)
		TH_LOG("%s: %s", file, xrt_status_message(st));
	EXPECT_EQ(NULL, st);
	xrt_status_free(st);
	free(text);
	return got;
}

/*
 * JAX's collectives over one device (xla/gen.py): psum, all_gather,
 * psum_scatter, ppermute, all_to_all and pmax each give the operand
 * back, axis_index 0, so the program adds x six times, as JAX ran it.
 * The text before and after XLA's optimizations (async forms and all)
 * and the proto give exactly that.
 */
TEST_F(xrt, jax_collectives_on_one_device_give_what_jax_gives)
{
	static const char *const files[] = { "collectives.before.hlo", "collectives.after.hlo",
					     "collectives.after.pb" };
	xrt_literal *x, *got;
	xrt_session *s = NULL;
	const float *out;
	xrt_handle arg;
	size_t f;
	float *in;
	int k;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	x = jax_x(_metadata, self->a, &in);
	ASSERT_NE(NULL, x);
	ASSERT_OK(xrt_allocate(s, x, &arg));
	for (f = 0; f < 3; f++) {
		got = run_xla_file(_metadata, s, files[f], arg);
		ASSERT_NE(NULL, got);
		out = xrt_literal_data(got);
		for (k = 0; k < 24; k++) {
			volatile float want = in[k];
			int j;

			for (j = 1; j < 6; j++)
				want += in[k];
			EXPECT_EQ(want, out[k]) TH_LOG("element %d", k);
		}
		xrt_literal_destroy(got);
	}
	ASSERT_OK(xrt_release_allocations(s, &arg, 1));
	xrt_literal_destroy(x);
	xrt_session_destroy(s);
}

/* xla/narrow.expected: JAX's values, as a constant (shape line, value line). */
static xrt_literal *jax_narrow_expected(struct __test_metadata *_metadata,
					const struct xrt_allocator *a, const char *name)
{
	char path[1024], *text, *nl, *mod;
	xrt_literal *lit = NULL;
	xrt_module *m;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s.expected", XLA_DIR, name);
	text = test_slurp(path, &n);
	EXPECT_NE(NULL, text);
	nl = text ? strchr(text, '\n') : NULL;
	EXPECT_NE(NULL, nl);
	if (!nl)
		return NULL;
	*nl = 0;
	mod = malloc(n + 64);
	snprintf(mod, n + 64, "HloModule e\nENTRY e {\n  ROOT c = %s constant(%s)\n}", text,
		 nl + 1);
	EXPECT_EQ(NULL, xrt_hlo_parse(a, mod, strlen(mod), &m));
	EXPECT_EQ(NULL, xrt_ir_evaluate(m, NULL, 0, NULL, a, &lit));
	xrt_module_destroy(m);
	free(mod);
	free(text);
	return lit;
}

/*
 * JAX's program of XLA's 8-bit and 4-bit floats and sub-byte integers
 * (xla/gen.py's narrow), compiled: exactly JAX's values, from the text
 * before and after XLA's optimizations and from the proto.
 */
TEST_F(xrt, jax_narrow_types_give_what_jax_gives)
{
	static const char *const names[] = { "narrow", "narrow_ops", "regroup" };
	static const char *const files[] = { ".before.hlo", ".after.hlo", ".after.pb" };
	xrt_literal *x, *got, *want;
	xrt_session *s = NULL;
	char path[64];
	xrt_handle arg;
	size_t f, k;
	float *in;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	x = jax_x(_metadata, self->a, &in);
	ASSERT_NE(NULL, x);
	ASSERT_OK(xrt_allocate(s, x, &arg));
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		want = jax_narrow_expected(_metadata, self->a, names[k]);
		ASSERT_NE(NULL, want);
		for (f = 0; f < 3; f++) {
			snprintf(path, sizeof(path), "%s%s", names[k], files[f]);
			got = run_xla_file(_metadata, s, path, arg);
			ASSERT_NE(NULL, got);
			EXPECT_TRUE(xrt_literal_equal(want, got, NULL, 0)) TH_LOG("%s", path);
			xrt_literal_destroy(got);
		}
		xrt_literal_destroy(want);
	}
	ASSERT_OK(xrt_release_allocations(s, &arg, 1));
	xrt_literal_destroy(x);
	xrt_session_destroy(s);
}

TEST_F(xrt, operations_are_counted_and_timed)
{
	struct xrt_op_stats ex, rel, bad;
	struct xrt_memory_info mem;
	xrt_session *s = NULL;
	xrt_handle c, args[2], r;
	int i;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &c));
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 8, 5);
	for (i = 0; i < 20; i++) {
		ASSERT_OK(xrt_execute(s, c, args, 2, NULL, &r));
		ASSERT_OK(xrt_release_allocations(s, &r, 1));
	}
	ASSERT_ERR(xrt_release_allocations(s, &r, 1), XRT_NOT_FOUND, "no allocation");
	ASSERT_OK(xrt_session_stats(s, XRT_STAT_EXECUTE, &ex));
	ASSERT_OK(xrt_session_stats(s, XRT_STAT_RELEASE, &rel));
	EXPECT_EQ(20u, ex.calls);
	EXPECT_EQ(0u, ex.errors);
	EXPECT_EQ(21u, rel.calls);
	EXPECT_EQ(1u, rel.errors);
	EXPECT_GT(ex.p50_ns, 0u);
	EXPECT_LE(ex.p50_ns, ex.p90_ns);
	EXPECT_LE(ex.p90_ns, ex.p99_ns);
	EXPECT_LE(ex.p99_ns, ex.max_ns);
	EXPECT_STREQ("execute", xrt_op_kind_name(XRT_STAT_EXECUTE));
	ASSERT_ERR(xrt_session_stats(s, XRT_STAT_COUNT, &bad), XRT_INVALID_ARGUMENT,
		   "unknown operation kind");
	ASSERT_OK(xrt_session_memory(s, &mem));
	EXPECT_EQ(16u, mem.in_use);	/* the two f32[2] arguments */
	EXPECT_GT(mem.total, mem.in_use);
	EXPECT_EQ(0u, mem.limit);
	xrt_session_destroy(s);
}

TEST_F(xrt, chained_execution_frees_intermediates)
{
	xrt_session *s = NULL;
	xrt_handle tup, scale, x, y, out[2] = { 0, 0 };
	float got[2];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_tuple, sizeof(add_and_tuple) - 1, &tup));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &scale));
	x = put(_metadata, s, 1, 2);
	y = put(_metadata, s, 8, 5);
	{
		const struct xrt_chain_ref in2[] = { { 0, -1 }, { 1, -1 } };
		const struct xrt_chain_ref in3[] = { { 2, 0 }, { 0, -1 } };
		const struct xrt_chain_ref in4[] = { { 3, -1 }, { 3, -1 } };
		const struct xrt_chain_step steps[] = {
			{ x, 0, NULL, 0, 0 },
			{ y, 0, NULL, 0, 0 },
			{ 0, tup, in2, 2, 0 },		/* (x + y) = (9, 7) */
			{ 0, scale, in3, 2, 0 },	/* (9 + 1, 7 + 2) * 3 = (30, 27) */
			{ 0, scale, in4, 2, 0 },	/* (30 + 30) * 3 = 180, (27 + 27) * 3 = 162 */
		};
		const struct xrt_chain_ref results[] = { { 4, -1 }, { 2, 0 } };
		const struct xrt_chain_ref bad_in[] = { { 3, -1 }, { 0, -1 } };
		const struct xrt_chain_step bad[] = {
			{ x, 0, NULL, 0, 0 },
			{ 0, scale, bad_in, 2, 0 },
		};
		const struct xrt_chain_ref elem[] = { { 0, 5 } };

		ASSERT_OK(xrt_execute_chained(s, steps, 5, results, 2, out));
		/* x and y, and the two results: step 3's value went after its reader */
		EXPECT_EQ(32u, xrt_session_memory_in_use(s));
		get2(_metadata, s, out[0], NULL, 0, got);
		EXPECT_EQ(180.0f, got[0]);
		EXPECT_EQ(162.0f, got[1]);
		get2(_metadata, s, out[1], NULL, 0, got);
		EXPECT_EQ(9.0f, got[0]);
		EXPECT_EQ(7.0f, got[1]);
		out[0] = out[1] = 0;
		ASSERT_ERR(xrt_execute_chained(s, bad, 2, results, 0, out), XRT_INVALID_ARGUMENT,
			   "step 1 reads step 3, which does not come before it");
		ASSERT_ERR(xrt_execute_chained(s, steps, 5, elem, 1, out), XRT_INVALID_ARGUMENT,
			   "reads element 5 of step 0, which has 0");
		EXPECT_EQ(0, out[0]);
		EXPECT_EQ(16u, xrt_session_memory_in_use(s));	/* nothing left behind */
	}
	xrt_session_destroy(s);
}

/*
 * Released inputs give their buffers to the results: with a memory
 * limit the inputs fill, a run that needs new memory fails and one that
 * donates works.  An input shared with another allocation is not
 * donated, and what shares it keeps its values.
 */
TEST_F(xrt, released_inputs_are_donated_to_the_results)
{
	static const int64_t i0[] = { 0 };
	static const struct xrt_tuple_node one[] = { { 0, false, NULL, 0 } };
	static const struct xrt_tuple_node wrap = { 0, false, one, 1 };
	const struct xrt_execution_config keep = { 0, 0, false, false };
	const struct xrt_execution_config give = { 0, 0, true, false };
	struct xrt_session_options o = { NULL, 16, false };	/* room for two f32[2] */
	xrt_session *s = NULL;
	xrt_handle c, args[2], r, r2, tup;
	float got[2];

	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &c));
	args[0] = put(_metadata, s, 1, 2);
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_ERR(xrt_execute(s, c, args, 2, &keep, &r), XRT_RESOURCE_EXHAUSTED,
		   "would pass the session's limit of 16");
	ASSERT_OK(xrt_execute(s, c, args, 2, &give, &r));
	EXPECT_EQ(8u, xrt_session_memory_in_use(s));	/* an input became the result */
	ASSERT_ERR(xrt_release_allocations(s, args, 1), XRT_NOT_FOUND, "no allocation");
	get2(_metadata, s, r, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	EXPECT_EQ(21.0f, got[1]);
	/* x shared with a tuple: only y is donated, and the tuple still holds (1, 2) */
	args[0] = put(_metadata, s, 1, 2);
	ASSERT_OK(xrt_make_tuple(s, &wrap, args, 1, &tup));
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute(s, c, args, 2, &give, &r2));
	EXPECT_EQ(16u, xrt_session_memory_in_use(s));
	get2(_metadata, s, r2, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	get2(_metadata, s, tup, i0, 1, got);
	EXPECT_EQ(1.0f, got[0]);
	EXPECT_EQ(2.0f, got[1]);
	EXPECT_EQ(0u, xrt_session_memory_in_use(s));
	xrt_session_destroy(s);
}

/*
 * A donated buffer holds one result, of its own shape: x (f32[2])
 * becomes the first f32[2] leaf, not the f32[4] one before it nor the
 * second f32[2] after it.  The session's limit fits the run with that
 * donation only (32 bytes, not 40).
 */
TEST_F(xrt, a_donor_holds_a_result_of_its_shape_only)
{
	static const char text[] =
		"HloModule shapes\nENTRY e {\n  x = f32[2] parameter(0)\n"
		"  w = f32[4] concatenate(x, x), dimensions={0}\n  y = f32[2] add(x, x)\n"
		"  z = f32[2] multiply(x, y)\n"
		"  ROOT r = (f32[4], f32[2], f32[2]) tuple(w, y, z)\n}\n";
	static const int64_t i0[] = { 0 }, i1[] = { 1 }, i2[] = { 2 };
	const struct xrt_execution_config give = { 0, 0, true, false };
	struct xrt_session_options o = { NULL, 32, false };
	xrt_handle c, x, r, e;
	xrt_session *s = NULL;
	float got[4];

	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, text, sizeof(text) - 1, &c));
	x = put(_metadata, s, 1, 2);
	ASSERT_OK(xrt_execute(s, c, &x, 1, &give, &r));
	ASSERT_OK(xrt_sub_tuple(s, r, i0, 1, false, &e));
	ASSERT_OK(xrt_read_data(s, e, true, got, 16));
	EXPECT_EQ(1.0f, got[0]);
	EXPECT_EQ(2.0f, got[3]);
	ASSERT_OK(xrt_sub_tuple(s, r, i1, 1, false, &e));
	ASSERT_OK(xrt_read_data(s, e, true, got, 8));
	EXPECT_EQ(2.0f, got[0]);
	EXPECT_EQ(4.0f, got[1]);
	get2(_metadata, s, r, i2, 1, got);
	EXPECT_EQ(2.0f, got[0]);
	EXPECT_EQ(8.0f, got[1]);
	xrt_session_destroy(s);
}

/*
 * A tuple parameter whose leaves differ in type and shape, the result
 * its leaves the other way round: each slot binds its own leaf.
 */
TEST_F(xrt, tuple_leaves_of_different_shapes_bind_to_their_slots)
{
	static const char text[] =
		"HloModule mixed\nENTRY e {\n  p = (f32[2], s32[3], f64[]) parameter(0)\n"
		"  a = f32[2] get-tuple-element(p), index=0\n"
		"  b = s32[3] get-tuple-element(p), index=1\n"
		"  d = f64[] get-tuple-element(p), index=2\n"
		"  nb = s32[3] negate(b)\n  na = f32[2] negate(a)\n"
		"  ROOT r = (f64[], s32[3], f32[2]) tuple(d, nb, na)\n}\n";
	static const char want[] = "(f64[] 0.25, s32[3] {-7, -8, -9}, f32[2] {-1.5, 2})";
	static const float a[2] = { 1.5f, -2 };
	static const int32_t b[3] = { 7, 8, 9 };
	static const double d = 0.25;
	xrt_literal *leaf[3], *in = NULL, *out = NULL;
	struct xrt_shape sa, sb, sd;
	xrt_handle c, h, r;
	xrt_session *s = NULL;
	char text_out[256];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, text, sizeof(text) - 1, &c));
	ASSERT_OK(xrt_shape_init_array(&sa, XRT_F32, 1, (int64_t[]){ 2 }));
	ASSERT_OK(xrt_shape_init_array(&sb, XRT_S32, 1, (int64_t[]){ 3 }));
	ASSERT_OK(xrt_shape_init_array(&sd, XRT_F64, 0, NULL));
	ASSERT_OK(xrt_literal_create_from(self->a, &sa, a, sizeof(a), &leaf[0]));
	ASSERT_OK(xrt_literal_create_from(self->a, &sb, b, sizeof(b), &leaf[1]));
	ASSERT_OK(xrt_literal_create_from(self->a, &sd, &d, sizeof(d), &leaf[2]));
	ASSERT_OK(xrt_literal_make_tuple(self->a, leaf, 3, &in));
	ASSERT_OK(xrt_allocate(s, in, &h));
	ASSERT_OK(xrt_execute(s, c, &h, 1, NULL, &r));
	ASSERT_OK(xrt_read_literal(s, r, true, &out));
	xrt_literal_format(out, text_out, sizeof(text_out));
	EXPECT_STREQ(want, text_out);
	xrt_literal_destroy(in);
	xrt_literal_destroy(out);
	xrt_session_destroy(s);
}

/*
 * A released tuple argument is donated only if no one else holds any of
 * its elements: here x is also its own handle, so the run must not
 * compute into x's buffer, and x still reads (1, 2).
 */
TEST_F(xrt, a_tuple_element_held_elsewhere_is_not_donated)
{
	static const char pairs[] =
		"HloModule pairs\nENTRY e {\n  p = (f32[2], f32[2]) parameter(0)\n"
		"  a = f32[2] get-tuple-element(p), index=0\n"
		"  b = f32[2] get-tuple-element(p), index=1\n"
		"  d = f32[2] add(a, a)\n  e = f32[2] add(b, a)\n"
		"  ROOT r = (f32[2], f32[2]) tuple(d, e)\n}\n";
	static const struct xrt_tuple_node two[] = { { 0, false, NULL, 0 },
						     { 1, false, NULL, 0 } };
	static const struct xrt_tuple_node pair = { 0, false, two, 2 };
	static const int64_t i0[] = { 0 }, i1[] = { 1 };
	const struct xrt_execution_config give = { 0, 0, true, false };
	xrt_handle c, xy[2], tup, r, e;
	xrt_session *s = NULL;
	float got[2];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, pairs, sizeof(pairs) - 1, &c));
	xy[0] = put(_metadata, s, 1, 2);
	xy[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_make_tuple(s, &pair, xy, 2, &tup));
	ASSERT_OK(xrt_release_allocations(s, &xy[1], 1));	/* y: the tuple's alone */
	ASSERT_OK(xrt_execute(s, c, &tup, 1, &give, &r));
	ASSERT_OK(xrt_sub_tuple(s, r, i0, 1, false, &e));
	ASSERT_OK(xrt_read_data(s, e, true, got, 8));
	EXPECT_EQ(2.0f, got[0]);
	EXPECT_EQ(4.0f, got[1]);
	get2(_metadata, s, r, i1, 1, got);
	EXPECT_EQ(9.0f, got[0]);
	EXPECT_EQ(7.0f, got[1]);
	get2(_metadata, s, xy[0], NULL, 0, got);	/* untouched */
	EXPECT_EQ(1.0f, got[0]);
	EXPECT_EQ(2.0f, got[1]);
	xrt_session_destroy(s);
}

/* The endless loop: its condition is a constant true. */
static const char endless[] =
	"HloModule endless\ncond {\n  p = (s32[], f32[2]) parameter(0)\n"
	"  ROOT t = pred[] constant(true)\n}\nbody {\n  p = (s32[], f32[2]) parameter(0)\n"
	"  i = s32[] get-tuple-element(p), index=0\n  x = f32[2] get-tuple-element(p), index=1\n"
	"  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  y = f32[2] negate(x)\n"
	"  ROOT t = (s32[], f32[2]) tuple(j, y)\n}\nENTRY main {\n  x = f32[2] parameter(0)\n"
	"  zero = s32[] constant(0)\n  t = (s32[], f32[2]) tuple(zero, x)\n"
	"  w = (s32[], f32[2]) while(t), condition=cond, body=body\n"
	"  ROOT r = f32[2] get-tuple-element(w), index=1\n}\n";

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * An endless while with a 1 s timeout fails with DEADLINE_EXCEEDED
 * naming the loop, and the same session then runs another program.
 */
TEST_F(xrt, a_deadline_stops_an_endless_loop)
{
	const struct xrt_execution_config cfg = { 0, 0, false, false, 1000000000ull, 0, NULL };
	xrt_handle c, add, args[2], r;
	xrt_session *s = NULL;
	float got[2];
	double t0;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, endless, sizeof(endless) - 1, &c));
	args[0] = put(_metadata, s, 1, 2);
	t0 = seconds();
	ASSERT_ERR(xrt_execute(s, c, args, 1, &cfg, &r), XRT_DEADLINE_EXCEEDED,
		   "in computation 'main', instruction 'w' (while)");
	TH_LOG("stopped after %.3f s (a 1 s deadline)", seconds() - t0);
	EXPECT_LT(seconds() - t0, 60.0);	/* it ends: the figure is in the log */
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &add));
	args[1] = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute(s, add, args, 2, NULL, &r));
	get2(_metadata, s, r, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	xrt_session_destroy(s);
}

static void *cancel_soon(void *arg)
{
	usleep(100000);
	xrt_cancel_request(arg);
	return NULL;
}

/* A cancel raised from another thread stops the run (CANCELLED); reset, the flag lets runs be. */
TEST_F(xrt, a_cancel_from_another_thread_stops_the_run)
{
	struct xrt_execution_config cfg = { 0 };
	xrt_cancel *cancel = NULL;
	xrt_handle c, x, r;
	xrt_session *s = NULL;
	pthread_t t;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_cancel_create(&cancel));
	cfg.cancel = cancel;
	ASSERT_OK(xrt_compile_hlo(s, endless, sizeof(endless) - 1, &c));
	x = put(_metadata, s, 1, 2);
	ASSERT_EQ(0, pthread_create(&t, NULL, cancel_soon, cancel));
	ASSERT_ERR(xrt_execute(s, c, &x, 1, &cfg, &r), XRT_CANCELLED,
		   "in computation 'main', instruction 'w' (while)");
	pthread_join(t, NULL);
	/* raised stays raised until reset: the next run stops at once */
	ASSERT_ERR(xrt_execute(s, c, &x, 1, &cfg, &r), XRT_CANCELLED, "cancelled");
	xrt_cancel_reset(cancel);
	cfg.max_iterations = 3;
	ASSERT_ERR(xrt_execute(s, c, &x, 1, &cfg, &r), XRT_DEADLINE_EXCEEDED,
		   "more than 3 iterations");
	xrt_cancel_destroy(cancel);
	xrt_session_destroy(s);
}

/* cuda decides a loop's jumps on the host while it submits: its submit runs the loop. */
static bool async_loops(xrt_session *s)
{
	return strncmp(xrt_session_device(s), "cuda", 4) != 0;
}

/*
 * An endless loop run asynchronously returns at once and runs on while
 * its compilation and argument handles are released (the run holds what
 * it uses); a run queued behind it waits; the deadline stops the first,
 * the second then completes, and reading the first's result gives its
 * error.
 */
TEST_F(xrt, an_async_run_returns_at_once_and_holds_what_it_uses)
{
	const struct xrt_execution_config cfg = { 0, 0, false, false, 1000000000ull, 0, NULL };
	xrt_handle c, add, x, a, b, r, r2;
	xrt_event *e = NULL, *e2 = NULL;
	xrt_session *s = NULL;
	float got[2];

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	if (!async_loops(s))
		SKIP(xrt_session_destroy(s); return, "%s runs a loop's jumps as it submits",
		     xrt_session_device(s));
	ASSERT_OK(xrt_compile_hlo(s, endless, sizeof(endless) - 1, &c));
	ASSERT_OK(xrt_compile_hlo(s, add_and_scale, sizeof(add_and_scale) - 1, &add));
	x = put(_metadata, s, 1, 2);
	a = put(_metadata, s, 1, 2);
	b = put(_metadata, s, 8, 5);
	ASSERT_OK(xrt_execute_async(s, c, &x, 1, &cfg, &r, &e));
	ASSERT_OK(xrt_release_compilations(s, &c, 1));
	ASSERT_OK(xrt_release_allocations(s, &x, 1));
	ASSERT_OK(xrt_execute_async(s, add, (xrt_handle[]){ a, b }, 2, NULL, &r2, &e2));
	ASSERT_ERR(xrt_event_wait(e, 100000000), XRT_DEADLINE_EXCEEDED, "still runs");
	ASSERT_ERR(xrt_event_wait(e2, 0), XRT_DEADLINE_EXCEEDED, "still runs");
	EXPECT_FALSE(xrt_event_ended(e));
	/* the same code, a run that ended: xrt_event_ended() tells them apart */
	ASSERT_ERR(xrt_event_wait(e, -1), XRT_DEADLINE_EXCEEDED, "deadline passed");
	EXPECT_TRUE(xrt_event_ended(e));
	EXPECT_FALSE(xrt_event_ended(NULL));
	ASSERT_OK(xrt_event_wait(e2, -1));
	get2(_metadata, s, r2, NULL, 0, got);
	EXPECT_EQ(27.0f, got[0]);
	EXPECT_EQ(21.0f, got[1]);
	ASSERT_ERR(xrt_read_data(s, r, false, got, sizeof(got)), XRT_DEADLINE_EXCEEDED,
		   "the run computing this allocation failed");
	xrt_event_destroy(e);
	xrt_event_destroy(e2);
	xrt_session_destroy(s);
}

/* The devices whose asynchronous runs watch the cancel flag (the host's worker does). */
static bool async_cancels(xrt_session *s)
{
	return !strcmp(xrt_session_device(s), "host:0") ||
	       !strcmp(xrt_session_device(s), "staged:0");
}

/*
 * A cancel stops an asynchronous run even with its flag destroyed at
 * once (the run holds it); destroying a session cancels the run queued
 * behind a running one, and its event outlives the session.
 */
TEST_F(xrt, an_async_run_is_cancelled_and_a_session_waits_for_its_runs)
{
	struct xrt_execution_config cfg = { 0 };
	xrt_handle c, x, r, r2;
	xrt_event *e = NULL, *e2 = NULL;
	xrt_cancel *cancel = NULL;
	xrt_session *s = NULL;
	xrt_status *st;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	if (!async_cancels(s))
		SKIP(xrt_session_destroy(s); return, "%s: an asynchronous run's cancel flag is "
		     "not watched", xrt_session_device(s));
	ASSERT_OK(xrt_cancel_create(&cancel));
	cfg.cancel = cancel;
	ASSERT_OK(xrt_compile_hlo(s, endless, sizeof(endless) - 1, &c));
	x = put(_metadata, s, 1, 2);
	ASSERT_OK(xrt_execute_async(s, c, &x, 1, &cfg, &r, &e));
	ASSERT_ERR(xrt_event_wait(e, 50000000), XRT_DEADLINE_EXCEEDED, "still runs");
	xrt_cancel_request(cancel);
	xrt_cancel_destroy(cancel);
	ASSERT_ERR(xrt_event_wait(e, -1), XRT_CANCELLED,
		   "in computation 'main', instruction 'w' (while)");
	xrt_event_destroy(e);
	/* a second run, stopped by its deadline, and one queued behind it */
	cfg.cancel = NULL;
	cfg.timeout_ns = 500000000ull;
	ASSERT_OK(xrt_execute_async(s, c, &x, 1, &cfg, &r, &e));
	ASSERT_OK(xrt_execute_async(s, c, &x, 1, &cfg, &r2, &e2));
	ASSERT_ERR(xrt_event_wait(e, 50000000), XRT_DEADLINE_EXCEEDED, "still runs");
	xrt_session_destroy(s);		/* waits for the first, cancels the second */
	ASSERT_ERR(xrt_event_wait(e, 0), XRT_DEADLINE_EXCEEDED, "deadline passed");
	st = xrt_event_wait(e2, 0);
	ASSERT_NE(NULL, st);
	EXPECT_EQ(XRT_CANCELLED, xrt_status_code(st));
	EXPECT_NE(NULL, strstr(xrt_status_message(st), "destroyed before it began"));
	xrt_status_free(st);
	xrt_event_destroy(e);
	xrt_event_destroy(e2);
}

/*
 * max_iterations bounds every execution of every loop, as the evaluator
 * counts: an outer loop of 3 iterations around an inner one of 5 runs
 * with a bound of 5 (the inner count starts again each time) and fails
 * with 4, in the evaluator's words.
 */
TEST_F(xrt, max_iterations_count_as_the_evaluator_counts)
{
	static const char nested[] =
		"HloModule nested\n"
		"icond {\n  p = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  n = s32[] constant(5)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
		"ibody {\n  p = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  a = s32[] get-tuple-element(p), index=1\n  one = s32[] constant(1)\n"
		"  j = s32[] add(i, one)\n  b = s32[] add(a, one)\n"
		"  ROOT t = (s32[], s32[]) tuple(j, b)\n}\n"
		"ocond {\n  p = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
		"obody {\n  p = (s32[], s32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  a = s32[] get-tuple-element(p), index=1\n  zero = s32[] constant(0)\n"
		"  s = (s32[], s32[]) tuple(zero, a)\n"
		"  inner = (s32[], s32[]) while(s), condition=icond, body=ibody\n"
		"  b = s32[] get-tuple-element(inner), index=1\n  one = s32[] constant(1)\n"
		"  j = s32[] add(i, one)\n  ROOT t = (s32[], s32[]) tuple(j, b)\n}\n"
		"ENTRY main {\n  zero = s32[] constant(0)\n  s = (s32[], s32[]) tuple(zero, zero)\n"
		"  outer = (s32[], s32[]) while(s), condition=ocond, body=obody\n"
		"  ROOT r = s32[] get-tuple-element(outer), index=1\n}\n";
	struct xrt_execution_config cfg = { 0 };
	struct xrt_eval_options eo = { 0, 4, 0 };
	xrt_literal *lit = NULL;
	xrt_module *m = NULL;
	xrt_session *s = NULL;
	xrt_handle c, r;
	int32_t got = 0;

	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, nested, sizeof(nested) - 1, &c));
	cfg.max_iterations = 5;
	ASSERT_OK(xrt_execute(s, c, NULL, 0, &cfg, &r));
	ASSERT_OK(xrt_read_data(s, r, true, &got, 4));
	EXPECT_EQ(15, got);
	cfg.max_iterations = 4;
	ASSERT_ERR(xrt_execute(s, c, NULL, 0, &cfg, &r), XRT_DEADLINE_EXCEEDED,
		   "computation 'obody', instruction 'inner' (while): more than 4 iterations");
	ASSERT_OK(xrt_hlo_parse(self->a, nested, sizeof(nested) - 1, &m));
	ASSERT_ERR(xrt_ir_evaluate(m, NULL, 0, &eo, self->a, &lit), XRT_DEADLINE_EXCEEDED,
		   "computation 'obody', instruction 'inner' (while): more than 4 iterations");
	xrt_module_destroy(m);
	xrt_session_destroy(s);
}

TEST_HARNESS_MAIN
