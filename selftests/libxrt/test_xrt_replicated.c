// SPDX-License-Identifier: MIT
/*
 * xrt_execute_replicated() on host devices host:0..7: every collective,
 * in loops and branches, with different values on every device, gives
 * the reference evaluator's bits device by device; arguments on the
 * wrong device, shared sessions, devices that fail, stall or wait at
 * different collectives end with an error naming the replica, never a
 * hang, and leave no result behind.  With XRT_REPLICATED_DEVICES (the
 * VM gives "accel:0,accel:1,accel:2,accel:3") the same on those devices,
 * device d on entry d modulo their number, and each device's fdinfo
 * shows the jobs it ran.
 */
#include <dirent.h>
#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"
#include "test_elems.h"
#include "test_collectives.h"
#include "test_mlp.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "collective/collective.h"
#include "compiler/compiler.h"
#include "cstream/executable.h"
#include "device/host/host_device.h"

#define MAX_DEV 8

/* As ASSERT_OK, going on after a failure. */
#define EXPECT_OK_STATUS(expr)                                                \
	do {                                                                  \
		xrt_status *_st = (expr);                                     \
		if (_st)                                                      \
			TH_LOG("%s: %s", #expr, xrt_status_message(_st));     \
		EXPECT_EQ(NULL, _st);                                         \
		xrt_status_free(_st);                                         \
	} while (0)

struct world {
	xrt_session *s[MAX_DEV];
	xrt_module *m;
	xrt_handle comp[MAX_DEV], args[MAX_DEV], out[MAX_DEV];
	xrt_literal *in[MAX_DEV];
	uint32_t n, num_args;
};

/*
 * The device replicated device @d runs on: host:@d, or entry @d modulo
 * their number of XRT_REPLICATED_DEVICES (two devices of a run may then
 * share one, each in a session of its own).
 */
static void device_name(uint32_t d, char *buf, size_t size)
{
	const char *list = getenv("XRT_REPLICATED_DEVICES"), *p, *end;
	uint32_t n = 1, k;

	if (!list || !*list) {
		snprintf(buf, size, "host:%u", d);
		return;
	}
	for (p = list; *p; p++)
		n += *p == ',';
	for (p = list, k = d % n; k; k--)
		p = strchr(p, ',') + 1;
	end = strchr(p, ',');
	snprintf(buf, size, "%.*s", (int)(end ? end - p : (ptrdiff_t)strlen(p)), p);
}

/* Sessions on host:0..@n-1, @text compiled in each, argument k of device d filled from d. */
static void setup(struct __test_metadata *_metadata, struct world *w, const char *text)
{
	struct xrt_session_options o = { .host_devices = MAX_DEV };
	char name[16];
	uint32_t d, k;

	memset(w, 0, sizeof(*w));
	ASSERT_OK(xrt_hlo_parse(NULL, text, strlen(text), &w->m));
	w->n = xrt_module_num_replicas(w->m) * xrt_module_num_partitions(w->m);
	w->num_args = xrt_module_num_params(w->m);
	ASSERT_LE(w->num_args, 1);
	for (d = 0; d < w->n; d++) {
		device_name(d, name, sizeof(name));
		o.device = name;
		ASSERT_OK(xrt_session_create(&o, NULL, &w->s[d]));
		ASSERT_OK(xrt_compile_module(w->s[d], w->m, &w->comp[d]));
		if (!w->num_args)
			continue;
		ASSERT_OK(xrt_literal_create(NULL, xrt_module_param_shape(w->m, 0), &w->in[d]));
		/* small integers, exact in every type */
		for (k = 0; k < xrt_shape_element_count(xrt_literal_shape(w->in[d])); k++)
			test_set(w->in[d], k, (double)(3 * d + k % 5) - 4);
		ASSERT_OK(xrt_allocate(w->s[d], w->in[d], &w->args[d]));
	}
}

static void teardown(struct world *w)
{
	uint32_t d;

	for (d = 0; d < w->n; d++) {
		xrt_session_destroy(w->s[d]);
		xrt_literal_destroy(w->in[d]);
	}
	xrt_module_destroy(w->m);
}

/* Runs replicated and evaluates; every device's result equal, bit for bit. */
static void agrees(struct __test_metadata *_metadata, const char *text)
{
	xrt_literal *want[MAX_DEV] = { NULL }, *got = NULL;
	struct xrt_replicated_config c = { .base.rng_seed = 5 };
	struct xrt_eval_options eo = { 5, 0, 0 };
	char why[256];
	struct world w;
	uint32_t d;

	setup(_metadata, &w, text);
	ASSERT_OK(xrt_execute_replicated(w.s, w.n, w.comp, w.args, w.num_args, &c, w.out));
	ASSERT_OK(xrt_ir_evaluate_replicated(w.m, (const xrt_literal *const *)w.in, w.num_args,
					     &eo, NULL, want));
	for (d = 0; d < w.n; d++) {
		ASSERT_OK(xrt_read_literal(w.s[d], w.out[d], true, &got));
		EXPECT_TRUE(xrt_literal_equal(want[d], got, why, sizeof(why)))
			TH_LOG("device %u: %s\n%s", d, why, text);
		xrt_literal_destroy(got);
		xrt_literal_destroy(want[d]);
	}
	teardown(&w);
}

/* Every collective on several types and group shapes, as the evaluator has it. */
TEST_F_TIMEOUT(xrt, every_collective_gives_the_evaluators_bits, 300)
{
	static const char *const types[] = { "f32", "bf16", "f16", "s32", "u8", "f64", "s64" };
	static const char *const groups[] = { "{}", "{{0,2},{1,3}}", "{{3,2,1,0}}",
					      "[2,2]<=[2,2]T(1,0)" };
	static const char *const reducers[] = { "add", "maximum", "minimum", "multiply" };
	char text[2048];
	size_t t, g, r;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
			const char *ty = types[t], *gr = groups[g];
			int size = g == 0 || g == 2 ? 4 : 2;

			for (r = 0; r < 4; r++) {
				test_all_reduce_text(text, sizeof(text), ty, gr, reducers[r]);
				agrees(_metadata, text);
			}
			test_movers_text(text, sizeof(text), ty, gr, size, "add");
			agrees(_metadata, text);
		}
}

/*
 * Reducers the REDUCE command has no op for (here a - b, whose fold
 * order shows): the arrays gathered (all-reduce) or exchanged
 * (reduce-scatter along either dimension), then folded in the group's
 * order, as the evaluator folds.
 */
TEST_F_TIMEOUT(xrt, other_reducers_fold_in_the_groups_order, 300)
{
	static const char *const types[] = { "f32", "s32", "bf16", "u8", "f64" };
	static const char *const groups[] = { "{}", "{{0,2},{1,3}}", "{{3,2,1,0}}",
					      "[2,2]<=[2,2]T(1,0)" };
	char text[2048];
	size_t t, g;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
			int size = g == 0 || g == 2 ? 4 : 2;

			snprintf(text, sizeof(text),
				 "HloModule m, replica_count=4\n" RED("%1$s", "subtract")
				 "ENTRY e {\n x = %1$s[4,8] parameter(0)\n y = %1$s[4,8] negate(x)\n"
				 " r = %1$s[4,8] all-reduce(x), replica_groups=%2$s, to_apply=f\n"
				 " t = (%1$s[4,8], %1$s[4,8]) all-reduce(x, y), replica_groups=%2$s, "
				 "to_apply=f\n"
				 " s = %1$s[4,%3$d] reduce-scatter(x), replica_groups=%2$s, "
				 "dimensions={1}, to_apply=f\n"
				 " u = %1$s[%4$d,8] reduce-scatter(y), replica_groups=%2$s, "
				 "dimensions={0}, to_apply=f\n"
				 " ROOT o = (%1$s[4,8], (%1$s[4,8], %1$s[4,8]), %1$s[4,%3$d], "
				 "%1$s[%4$d,8]) tuple(r, t, s, u)\n}\n",
				 types[t], groups[g], 8 / size, 4 / size);
			agrees(_metadata, text);
		}
	/* in a loop body, on 2 x 2 devices across partitions */
	agrees(_metadata, "HloModule m, replica_count=2, num_partitions=2\n" RED("s32", "subtract")
	       "cond { s = (s32[], s32[3]) parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
	       " n = s32[] constant(3)\n ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
	       "body { s = (s32[], s32[3]) parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
	       " v = s32[3] get-tuple-element(s), index=1\n one = s32[] constant(1)\n"
	       " j = s32[] add(i, one)\n r = s32[3] all-reduce(v), channel_id=1, "
	       "replica_groups={{0,1}}, to_apply=f\n ROOT t = (s32[], s32[3]) tuple(j, r)\n}\n"
	       "ENTRY e {\n x = s32[3] parameter(0)\n z = s32[] constant(0)\n"
	       " i = (s32[], s32[3]) tuple(z, x)\n"
	       " ROOT w = (s32[], s32[3]) while(i), condition=cond, body=body\n}\n");
}

/* Such a reducer among groups of different sizes is not compiled: the program is one. */
TEST_F(xrt, other_reducers_need_groups_of_one_size)
{
	static const char text[] = "HloModule m, replica_count=4\n" RED("f32", "subtract")
		"ENTRY e {\n x = f32[3] parameter(0)\n"
		" ROOT r = f32[3] all-reduce(x), replica_groups={{0},{1,2,3}}, to_apply=f\n}\n";
	struct xrt_session_options o = { .host_devices = 4 };
	xrt_session *s = NULL;
	xrt_handle c;

	ASSERT_OK(xrt_session_create(&o, NULL, &s));
	ASSERT_ERR(xrt_compile_hlo(s, text, strlen(text), &c), XRT_UNIMPLEMENTED,
		   "all-reduce with to_apply that is not add, multiply, minimum, maximum, and or "
		   "or, among groups of different sizes");
	xrt_session_destroy(s);
}

/* Tuple forms, the ids and the three cross-partition modes, on 2 x 2 and 2 x 3 devices. */
TEST_F(xrt, tuples_ids_and_partitions)
{
	agrees(_metadata, "HloModule m, replica_count=4\n" RED("f32", "add")
	       "ENTRY e {\n x = f32[3] parameter(0)\n y = f32[3] negate(x)\n"
	       " r = (f32[3], f32[3]) all-reduce(x, y), replica_groups={{0,1},{2,3}}, "
	       "to_apply=f\n"
	       " z = f32[3] add(x, x)\n w = f32[3] multiply(x, x)\n"
	       " t = (f32[3], f32[3], f32[3], f32[3]) all-to-all(x, y, z, w), replica_groups={}\n"
	       " g = (f32[6], f32[6]) all-gather(x, y), replica_groups={{1,0},{3,2}}, "
	       "dimensions={0}\n"
	       " ROOT o = ((f32[3], f32[3]), (f32[3], f32[3], f32[3], f32[3]), (f32[6], f32[6])) "
	       "tuple(r, t, g)\n}\n");
	agrees(_metadata, "HloModule m, replica_count=2, num_partitions=3\n" RED("s32", "add")
	       "ENTRY e {\n x = s32[2] parameter(0)\n rid = u32[] replica-id()\n"
	       " pid = u32[] partition-id()\n"
	       " a = s32[2] all-reduce(x), replica_groups={}, to_apply=f\n"
	       " b = s32[2] all-reduce(x), channel_id=1, replica_groups={{1,0}}, to_apply=f\n"
	       " c = s32[2] all-reduce(x), channel_id=2, replica_groups={{0,4},{1,2,3,5}}, "
	       "use_global_device_ids=true, to_apply=f\n"
	       " d = s32[2] collective-permute(x), channel_id=3, source_target_pairs={{0,2},{2,1}}\n"
	       " e = s32[12] all-gather(x), channel_id=4, replica_groups={{1,0}}, "
	       "dimensions={0}\n"
	       " ROOT o = (u32[], u32[], s32[2], s32[2], s32[2], s32[2], s32[12]) "
	       "tuple(rid, pid, a, b, c, d, e)\n}\n");
}

/* A while loop whose trip count is all-reduced, an all-reduce in its body, branches by replica. */
TEST_F_TIMEOUT(xrt, collectives_in_loops_and_branches, 120)
{
	agrees(_metadata, "HloModule m, replica_count=3\n" RED("s32", "add")
	       "cond { s = (s32[], s32[4], s32[]) parameter(0)\n"
	       " i = s32[] get-tuple-element(s), index=0\n n = s32[] get-tuple-element(s), index=2\n"
	       " ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
	       "body { s = (s32[], s32[4], s32[]) parameter(0)\n"
	       " i = s32[] get-tuple-element(s), index=0\n v = s32[4] get-tuple-element(s), index=1\n"
	       " n = s32[] get-tuple-element(s), index=2\n one = s32[] constant(1)\n"
	       " i1 = s32[] add(i, one)\n all = s32[4] all-reduce(v), replica_groups={}, "
	       "to_apply=f\n p = s32[4] collective-permute(all), "
	       "source_target_pairs={{0,1},{1,2},{2,0}}\n"
	       " ROOT t = (s32[], s32[4], s32[]) tuple(i1, p, n)\n}\n"
	       "ENTRY e {\n x = s32[4] parameter(0)\n c = s32[1] slice(x), slice={[0:1]}\n"
	       " c0 = s32[] reshape(c)\n k = s32[] constant(5)\n c1 = s32[] add(c0, k)\n"
	       " n = s32[] all-reduce(c1), replica_groups={}, to_apply=f\n zero = s32[] constant(0)\n"
	       " init = (s32[], s32[4], s32[]) tuple(zero, x, n)\n"
	       " ROOT w = (s32[], s32[4], s32[]) while(init), condition=cond, body=body\n}\n");
	agrees(_metadata, "HloModule m, replica_count=4\n" RED("f32", "add")
	       "low { x = f32[5] parameter(0)\n"
	       " ROOT s = f32[5] all-reduce(x), replica_groups={{0,1},{2,3}}, to_apply=f\n}\n"
	       "high { x = f32[5] parameter(0)\n y = f32[5] multiply(x, x)\n"
	       " ROOT s = f32[5] all-reduce(y), replica_groups={{0,1},{2,3}}, to_apply=f\n}\n"
	       "ENTRY e {\n x = f32[5] parameter(0)\n rid = u32[] replica-id()\n"
	       " two = u32[] constant(2)\n hi = pred[] compare(rid, two), direction=GE\n"
	       " ROOT c = f32[5] conditional(hi, x, x), true_computation=high, "
	       "false_computation=low\n}\n");
}

#define ALL_REDUCE_4 "HloModule m, replica_count=4\n" RED("f32", "add") \
	"ENTRY e {\n x = f32[3] parameter(0)\n" \
	" ROOT r = f32[3] all-reduce(x), replica_groups={}, to_apply=f\n}\n"

/* What the call itself refuses: each names the replica, and nothing runs. */
TEST_F(xrt, malformed_calls_are_refused)
{
	struct xrt_replicated_config c = { { 0 }, NULL };
	static const uint32_t twice[4] = { 0, 1, 1, 3 }, past[4] = { 0, 1, 2, 9 };
	xrt_handle swapped[4], other = 0;
	xrt_session *holes[4];
	char shared[128], name[16];
	struct world w;
	uint64_t in_use;

	setup(_metadata, &w, ALL_REDUCE_4);
	in_use = xrt_session_memory_in_use(w.s[1]);
	/* replica 1 given device 0's argument: its session does not know the handle */
	memcpy(swapped, w.args, sizeof(swapped));
	swapped[1] = w.args[0];
	if (swapped[1] == w.args[1])	/* handles may coincide across sessions: make one up */
		swapped[1] = w.args[1] + 1000;
	ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, swapped, 1, NULL, w.out), XRT_NOT_FOUND,
		   "replica 1: execute: argument 0");
	c.device_assignment = twice;
	device_name(1, name, sizeof(name));
	snprintf(shared, sizeof(shared), "replica 1 and replica 2 both run in session 1 (%s)",
		 name);
	ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, &c, w.out),
		   XRT_INVALID_ARGUMENT, shared);
	c.device_assignment = past;
	ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, &c, w.out),
		   XRT_INVALID_ARGUMENT, "replica 3: execute: runs in session 9 of 4");
	ASSERT_ERR(xrt_execute_replicated(w.s, 3, w.comp, w.args, 1, NULL, w.out),
		   XRT_INVALID_ARGUMENT, "replica 3: execute: runs in session 3 of 3");
	memcpy(holes, w.s, sizeof(holes));
	holes[2] = NULL;
	ASSERT_ERR(xrt_execute_replicated(holes, 4, w.comp, w.args, 1, NULL, w.out),
		   XRT_INVALID_ARGUMENT, "replica 2: execute: runs in session 2 of 4, which is NULL");
	{
		/* device 0's session is read first, for the device count: checked first too */
		static const uint32_t first_null[4] = { 2, 1, 0, 3 }, first_past[4] = { 7, 1, 2, 0 };

		c.device_assignment = first_null;
		ASSERT_ERR(xrt_execute_replicated(holes, 4, w.comp, w.args, 1, &c, w.out),
			   XRT_INVALID_ARGUMENT, "replica 0: execute: runs in session 2 of 4, "
			   "which is NULL");
		c.device_assignment = first_past;
		ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, &c, w.out),
			   XRT_INVALID_ARGUMENT, "replica 0: execute: runs in session 7 of 4, "
			   "which is not there");
		c.device_assignment = NULL;
	}
	ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, NULL, 1, NULL, w.out),
		   XRT_INVALID_ARGUMENT, "args is NULL");
	ASSERT_ERR(xrt_execute_replicated(NULL, 4, w.comp, w.args, 1, NULL, w.out),
		   XRT_INVALID_ARGUMENT, "no sessions");
	c.device_assignment = NULL;
	c.base.device_ordinal = 1;
	ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, &c, w.out),
		   XRT_INVALID_ARGUMENT, "device ordinal 1");
	/* a compilation of one device among those of four */
	{
		static const char one[] = "HloModule o\nENTRY e {\n x = f32[3] parameter(0)\n"
					  " ROOT r = f32[3] negate(x)\n}\n";
		xrt_handle comps[4];

		ASSERT_OK(xrt_compile_hlo(w.s[2], one, strlen(one), &other));
		memcpy(comps, w.comp, sizeof(comps));
		comps[2] = other;
		ASSERT_ERR(xrt_execute_replicated(w.s, 4, comps, w.args, 1, NULL, w.out),
			   XRT_INVALID_ARGUMENT, "replica 2: execute: its compilation is of 1 "
			   "replicas x 1 partitions, device 0's of 4 x 1");
	}
	/* nothing was made, nothing released: the arguments still read */
	EXPECT_EQ(in_use, xrt_session_memory_in_use(w.s[1]));
	ASSERT_OK(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, NULL, w.out));
	teardown(&w);
}

/* One replica's loop never ends: the run fails at its deadline, every device, with no result. */
TEST_F(xrt, failures_end_every_device)
{
	static const char looping[] = "HloModule m, replica_count=4\n" RED("s32", "add")
		"cond { i = s32[] parameter(0)\n rid = u32[] replica-id()\n"
		" r = s32[] convert(rid)\n k = s32[] constant(TRIPS)\n n = s32[] multiply(r, k)\n"
		" ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
		"body { i = s32[] parameter(0)\n one = s32[] constant(1)\n"
		" ROOT j = s32[] add(i, one)\n}\n"
		"ENTRY e {\n x = s32[] parameter(0)\n w = s32[] while(x), condition=cond, body=body\n"
		" ROOT s = s32[] all-reduce(w), replica_groups={}, to_apply=f\n}\n";
	static const char branching[] = "HloModule m, replica_count=2\n" RED("s32", "add")
		"low { x = s32[] parameter(0)\n ROOT s = s32[] LOW\n}\n"
		"high { x = s32[] parameter(0)\n ROOT s = s32[] HIGH\n}\n"
		"ENTRY e {\n x = s32[] parameter(0)\n rid = u32[] replica-id()\n"
		" one = u32[] constant(1)\n hi = pred[] compare(rid, one), direction=GE\n"
		" ROOT c = s32[] conditional(hi, x, x), true_computation=high, "
		"false_computation=low\n}\n";
	struct xrt_replicated_config c = { { 0 }, NULL };
	char text[2048], *p;
	struct world w;
	xrt_status *st;

	/* replicas 1 to 3 pass the iteration bound; replica 0 waits, then is cancelled */
	snprintf(text, sizeof(text), "%s", looping);
	p = strstr(text, "TRIPS");
	memcpy(p, "100  ", 5);
	setup(_metadata, &w, text);
	c.base.max_iterations = 10;
	st = xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, &c, w.out);
	EXPECT_EQ(XRT_DEADLINE_EXCEEDED, xrt_status_code(st));
	EXPECT_NE(NULL, strstr(xrt_status_message(st), "more than 10 iterations"))
		TH_LOG("%s", xrt_status_message(st));
	EXPECT_NE(NULL, strstr(xrt_status_message(st), "replica "));
	xrt_status_free(st);
	teardown(&w);
	/* one loops past the deadline while the others wait for it */
	memcpy(strstr(text, "100  "), "99999", 5);
	setup(_metadata, &w, text);
	c.base.max_iterations = 0;
	c.base.timeout_ns = 100 * 1000 * 1000;
	ASSERT_ERR(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, &c, w.out),
		   XRT_DEADLINE_EXCEEDED, "replica ");
	teardown(&w);
	/* replica 1 never comes; then each branch its own all-reduce */
	snprintf(text, sizeof(text), "%.*sall-reduce(x), replica_groups={}, to_apply=f%.*s"
		 "negate(x)%s", (int)(strstr(branching, "LOW") - branching), branching,
		 (int)(strstr(branching, "HIGH") - strstr(branching, "LOW") - 3),
		 strstr(branching, "LOW") + 3, strstr(branching, "HIGH") + 4);
	setup(_metadata, &w, text);
	ASSERT_ERR(xrt_execute_replicated(w.s, 2, w.comp, w.args, 1, NULL, w.out),
		   XRT_FAILED_PRECONDITION, "replica 0: computation 'low', instruction 's' "
		   "(all-reduce): device 1 of the group ended without reaching it");
	teardown(&w);
	snprintf(text, sizeof(text), "%.*sall-reduce(x), replica_groups={}, to_apply=f%.*s"
		 "all-reduce(x), replica_groups={}, to_apply=f%s",
		 (int)(strstr(branching, "LOW") - branching), branching,
		 (int)(strstr(branching, "HIGH") - strstr(branching, "LOW") - 3),
		 strstr(branching, "LOW") + 3, strstr(branching, "HIGH") + 4);
	setup(_metadata, &w, text);
	ASSERT_ERR(xrt_execute_replicated(w.s, 2, w.comp, w.args, 1, NULL, w.out),
		   XRT_FAILED_PRECONDITION, "the devices wait at different collectives");
	teardown(&w);
}

TEST_F_TIMEOUT(xrt, data_parallel_training_matches_one_replica, 120)
{
	static const int64_t dw1[] = { 8, 16 }, db1[] = { 16 }, dw2[] = { 16, 4 }, db2[] = { 4 };
	const struct xrt_tolerance tol = { 1e-5, 1e-6 };
	struct xrt_session_options o = { .host_devices = 4 };
	xrt_session *s[4] = { NULL };
	xrt_handle comp[4], args[4 * 6], out[4], one_comp, one_args[6], one_out;
	xrt_literal *w[4], *one = NULL, *got = NULL;
	char text[8192], name[16], why[256];
	uint32_t d, k;

	w[0] = test_randoms(2, dw1, 1, 0);
	w[1] = test_randoms(1, db1, 2, 0);
	w[2] = test_randoms(2, dw2, 3, 0);
	w[3] = test_randoms(1, db2, 4, 0);
	for (d = 0; d < 4; d++) {
		device_name(d, name, sizeof(name));
		o.device = name;
		ASSERT_OK(xrt_session_create(&o, NULL, &s[d]));
	}
	/* one replica, the whole batch of 32 */
	test_mlp_text(text, sizeof(text), 1, 32, 32);
	ASSERT_OK(xrt_compile_hlo(s[0], text, strlen(text), &one_comp));
	for (k = 0; k < 4; k++)
		ASSERT_OK(xrt_allocate(s[0], w[k], &one_args[k]));
	{
		xrt_literal *x = test_randoms(2, (int64_t[]){ 32, 8 }, 5, 0);
		xrt_literal *y = test_randoms(2, (int64_t[]){ 32, 4 }, 6, 0);

		ASSERT_OK(xrt_allocate(s[0], x, &one_args[4]));
		ASSERT_OK(xrt_allocate(s[0], y, &one_args[5]));
		xrt_literal_destroy(x);
		xrt_literal_destroy(y);
	}
	ASSERT_OK(xrt_execute(s[0], one_comp, one_args, 6, NULL, &one_out));
	ASSERT_OK(xrt_read_literal(s[0], one_out, true, &one));
	/* four replicas, each on its 8 rows: the same random streams, skipped to the rows */
	test_mlp_text(text, sizeof(text), 4, 8, 32);
	for (d = 0; d < 4; d++) {
		xrt_literal *x = test_randoms(2, (int64_t[]){ 8, 8 }, 5, 64 * d);
		xrt_literal *y = test_randoms(2, (int64_t[]){ 8, 4 }, 6, 32 * d);

		ASSERT_OK(xrt_compile_hlo(s[d], text, strlen(text), &comp[d]));
		for (k = 0; k < 4; k++)
			ASSERT_OK(xrt_allocate(s[d], w[k], &args[6 * d + k]));
		ASSERT_OK(xrt_allocate(s[d], x, &args[6 * d + 4]));
		ASSERT_OK(xrt_allocate(s[d], y, &args[6 * d + 5]));
		xrt_literal_destroy(x);
		xrt_literal_destroy(y);
	}
	ASSERT_OK(xrt_execute_replicated(s, 4, comp, args, 6, NULL, out));
	for (d = 0; d < 4; d++) {
		ASSERT_OK(xrt_read_literal(s[d], out[d], true, &got));
		EXPECT_TRUE(xrt_literal_near(one, got, &tol, why, sizeof(why)))
			TH_LOG("replica %u: %s", d, why);
		xrt_literal_destroy(got);
	}
	/* and the weights moved: ten steps are not nothing */
	{
		xrt_literal *first = xrt_literal_element(one, 0);

		EXPECT_FALSE(xrt_literal_equal(w[0], first, why, sizeof(why)));
	}
	xrt_literal_destroy(one);
	for (k = 0; k < 4; k++)
		xrt_literal_destroy(w[k]);
	for (d = 0; d < 4; d++)
		xrt_session_destroy(s[d]);
}

/* An xrt.ExecutionConfig: core 2, key 3, rng_seed 4, common_config 9 { replica_id 1 }. */
static size_t exec_config(uint8_t *b, const char *key, uint32_t replica, uint32_t core,
			  uint32_t timeout_ms)
{
	size_t n = 0, k = strlen(key);

	(void)timeout_ms;
	b[n++] = 2 << 3;
	b[n++] = (uint8_t)core;
	b[n++] = 3 << 3 | 2;
	b[n++] = (uint8_t)k;
	memcpy(b + n, key, k);
	n += k;
	b[n++] = 9 << 3 | 2;
	b[n++] = 2;
	b[n++] = 1 << 3;
	b[n++] = (uint8_t)replica;
	return n;
}

struct call {
	xrt_session *s;
	xrt_handle comp, arg, out;
	uint8_t cfg[64];
	size_t cfg_size;
	xrt_status *st;
	pthread_t t;
};

static void *call_execute(void *arg)
{
	struct call *c = arg;

	c->st = xrt_execute_proto(c->s, c->comp, &c->arg, 1, c->cfg, c->cfg_size, &c->out);
	return NULL;
}

/*
 * The XRT ops: four calls with one execution_instance_key, each in its
 * thread and session, are the replicas x cores of one execution; the
 * same key twice for one device, a replica past the count, and a core
 * without a key are refused.
 */
/*
 * Two calls for one device under one key: the second to come is
 * ALREADY_EXISTS at once, and the first runs with the others.  The calls
 * are started 200 ms apart, so that both come before the run can end.
 */
static void one_device_twice(struct __test_metadata *_metadata, struct world *w)
{
	static const struct timespec apart = { 0, 200 * 1000 * 1000 };
	struct call c[5];
	uint32_t k, errors = 0, d;

	for (k = 0; k < 5; k++) {
		d = k < 2 ? 0 : k - 1;
		c[k] = (struct call){ w->s[d], w->comp[d], w->args[d] };
		c[k].cfg_size = exec_config(c[k].cfg, "twice", d / 2, d % 2, 0);
		ASSERT_EQ(0, pthread_create(&c[k].t, NULL, call_execute, &c[k]));
		if (k < 2)
			nanosleep(&apart, NULL);
	}
	for (k = 0; k < 5; k++)
		pthread_join(c[k].t, NULL);
	for (k = 0; k < 2; k++) {
		if (!c[k].st) {
			EXPECT_OK_STATUS(xrt_release_allocations(w->s[0], &c[k].out, 1));
			continue;
		}
		errors++;
		EXPECT_EQ(XRT_ALREADY_EXISTS, xrt_status_code(c[k].st));
		EXPECT_NE(NULL, strstr(xrt_status_message(c[k].st), "execution_instance_key "
				       "'twice' has replica 0 core 0 already"))
			TH_LOG("%s", xrt_status_message(c[k].st));
		xrt_status_free(c[k].st);
	}
	EXPECT_EQ(1, errors);
	for (k = 2; k < 5; k++) {
		EXPECT_OK_STATUS(c[k].st);
		if (!c[k].st)
			EXPECT_OK_STATUS(xrt_release_allocations(w->s[k - 1], &c[k].out, 1));
	}
}

TEST_F(xrt, xrt_ops_join_by_execution_instance_key)
{
	static const char text[] = "HloModule m, replica_count=2, num_partitions=2\n"
		RED("f32", "add") "ENTRY e {\n x = f32[3] parameter(0)\n"
		" a = f32[3] all-reduce(x), channel_id=1, replica_groups={{0,1}}, to_apply=f\n"
		" pid = u32[] partition-id()\n rid = u32[] replica-id()\n"
		" ROOT t = (f32[3], u32[], u32[]) tuple(a, rid, pid)\n}\n";
	xrt_literal *want[4] = { NULL }, *got = NULL;
	struct xrt_eval_options eo = { 0 };
	struct call c[4];
	char why[256];
	struct world w;
	uint32_t d;
	uint8_t cfg[64];
	size_t n;

	setup(_metadata, &w, text);
	for (d = 0; d < 4; d++) {
		c[d] = (struct call){ w.s[d], w.comp[d], w.args[d] };
		c[d].cfg_size = exec_config(c[d].cfg, "step-1", d / 2, d % 2, 0);
		ASSERT_EQ(0, pthread_create(&c[d].t, NULL, call_execute, &c[d]));
	}
	for (d = 0; d < 4; d++)
		pthread_join(c[d].t, NULL);
	ASSERT_OK(xrt_ir_evaluate_replicated(w.m, (const xrt_literal *const *)w.in, 1, &eo, NULL,
					     want));
	for (d = 0; d < 4; d++) {
		char name[16];

		device_name(d, name, sizeof(name));
		if (!strncmp(name, "cuda:", 5)) {	/* their memory: xrt_execute_replicated only */
			ASSERT_ERR(c[d].st, XRT_UNIMPLEMENTED, "calls joined by "
				   "execution_instance_key meet in host memory");
			xrt_literal_destroy(want[d]);
			continue;
		}
		ASSERT_OK(c[d].st);
		ASSERT_OK(xrt_read_literal(w.s[d], c[d].out, true, &got));
		EXPECT_TRUE(xrt_literal_equal(want[d], got, why, sizeof(why)))
			TH_LOG("device %u: %s", d, why);
		xrt_literal_destroy(got);
		xrt_literal_destroy(want[d]);
	}
	{
		char name[16];

		device_name(0, name, sizeof(name));
		if (strncmp(name, "cuda:", 5))
			one_device_twice(_metadata, &w);
	}
	n = exec_config(cfg, "", 1, 0, 0);
	ASSERT_ERR(xrt_execute_proto(w.s[0], w.comp[0], &w.args[0], 1, cfg, n, &w.out[0]),
		   XRT_INVALID_ARGUMENT, "replica 1, core 0 without an execution_instance_key");
	n = exec_config(cfg, "k", 2, 0, 0);
	ASSERT_ERR(xrt_execute_proto(w.s[0], w.comp[0], &w.args[0], 1, cfg, n, &w.out[0]),
		   XRT_INVALID_ARGUMENT, "replica 2, core 0 of a program of 2 replicas x 2 cores");
	teardown(&w);
}

/*
 * What the engine cannot check without the group is checked when the
 * collective runs: a group table whose sizes do not fit the program's
 * arrays (here, device 0 alone in a group of one, gathering into room
 * for two) is refused, naming the instruction.
 */
TEST_F(xrt, group_sizes_checked_when_the_collective_runs)
{
	static const char text[] = "HloModule m, replica_count=2\nENTRY e {\n"
		" x = f32[2] parameter(0)\n"
		" ROOT g = f32[4] all-gather(x), replica_groups={}, dimensions={0}\n}\n";
	struct xrt_executable *exe = NULL;
	struct xdev_comm *comm = NULL;
	struct xdev_peer peer;
	struct xdev_watch w = { 0 };
	struct host_run_options ro = { 0 };
	xrt_literal *x = NULL, *out = NULL;
	xrt_module *m = NULL;
	struct xexe_group *g;

	ASSERT_OK(xrt_hlo_parse(NULL, text, strlen(text), &m));
	ASSERT_OK(cc_compile(m, NULL, NULL, &exe));
	ASSERT_EQ(1, exe->num_groups);
	g = &exe->groups[0];
	g->group_of[0] = 0;	/* {0}, {1} */
	g->group_of[1] = 1;
	g->start[0] = 0;
	g->start[1] = 1;
	g->start[2] = 2;
	g->members[0] = 0;
	g->members[1] = 1;
	ASSERT_OK(xcoll_local_create(2, NULL, &comm));
	peer = (struct xdev_peer){ comm, 0, 0, 0 };
	w.peer = &peer;
	ro.watch = &w;
	ASSERT_OK(xrt_literal_create(NULL, xrt_module_param_shape(m, 0), &x));
	ASSERT_ERR(host_run(exe, (const xrt_literal *const *)&x, 1, &ro, NULL, &out),
		   XRT_FAILED_PRECONDITION, "computation 'e', instruction 'g' (all-gather): a "
		   "gathered dimension is not the group's size times the input's (4, 2)");
	/* and a run with no peer at all: its collectives need the others */
	ro.watch = NULL;
	ASSERT_ERR(host_run(exe, (const xrt_literal *const *)&x, 1, &ro, NULL, &out),
		   XRT_FAILED_PRECONDITION, "a program of 2 x 1 devices run alone");
	xrt_literal_destroy(x);
	xcoll_local_destroy(comm);
	xexe_destroy(exe);
	xrt_module_destroy(m);
}

/* A device whose runs do not meet collectives is refused, naming the replica. */
TEST_F(xrt, devices_that_cannot_meet_are_refused)
{
	static const char text[] = "HloModule m, replica_count=2\n" RED("f32", "add")
		"ENTRY e {\n x = f32[3] parameter(0)\n"
		" ROOT r = f32[3] all-reduce(x), replica_groups={}, to_apply=f\n}\n";
	struct xrt_session_options o = { .host_devices = 2 };
	xrt_literal *x = NULL;
	xrt_status *st;
	xrt_session *s[2];
	xrt_handle c[2], a[2], out[2];
	uint32_t d;

	ASSERT_OK(xrt_literal_create(NULL, &(struct xrt_shape){ .dtype = XRT_F32, .rank = 1,
							       .dims = { 3 } }, &x));
	for (d = 0; d < 2; d++) {
		o.device = d ? "staged:0" : "host:0";
		ASSERT_OK(xrt_session_create(&o, NULL, &s[d]));
		ASSERT_OK(xrt_compile_hlo(s[d], text, strlen(text), &c[d]));
		ASSERT_OK(xrt_allocate(s[d], x, &a[d]));
	}
	ASSERT_ERR(xrt_execute_replicated(s, 2, c, a, 1, NULL, out), XRT_UNIMPLEMENTED,
		   "replica 1: execute: staged:0: replicated runs take host, accel and cuda "
		   "devices for now");
	xrt_session_destroy(s[1]);
	/* a GPU meets only GPUs (where the run has them: the fake ones, or real) */
	o.device = "cuda:0";
	st = xrt_session_create(&o, NULL, &s[1]);
	xrt_status_free(st);
	if (!st) {
		ASSERT_OK(xrt_compile_hlo(s[1], text, strlen(text), &c[1]));
		ASSERT_OK(xrt_allocate(s[1], x, &a[1]));
		ASSERT_ERR(xrt_execute_replicated(s, 2, c, a, 1, NULL, out), XRT_UNIMPLEMENTED,
			   "replica 1: execute: cuda:0 meets host:0: devices whose memory the "
			   "host does not map meet only devices of their own kind");
	} else {
		s[1] = NULL;	/* no cuda device here: that case runs on the fake GPUs */
	}
	for (d = 0; d < 2; d++)
		xrt_session_destroy(s[d]);
	xrt_literal_destroy(x);
}

/* The compute time fdinfo reports for the open file of render node @node, or -1. */
static long long fdinfo_compute(const char *node)
{
	char path[300], target[256], line[256];
	long long ns = -1, v;
	struct dirent *e;
	DIR *dir = opendir("/proc/self/fd");
	ssize_t len;
	FILE *f;

	while (dir && (e = readdir(dir))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (strcmp(target, node))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", e->d_name);
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "drm-engine-compute: %lld ns", &v) == 1)
				ns = v > ns ? v : ns;
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return ns;
}

/*
 * On the devices XRT_REPLICATED_DEVICES names (the VM's accel:0..3):
 * each device's open file shows compute time once a replicated run with
 * a collective ran a job on it, and the run gives the host's bits.
 */
TEST_F(xrt, every_device_runs_its_jobs)
{
	const char *list = getenv("XRT_REPLICATED_DEVICES");
	struct world w;
	char node[64];
	uint32_t d;

	if (!list || strncmp(list, "accel:", 6))
		SKIP(return, "XRT_REPLICATED_DEVICES names no accel devices (the VM's do)");
	agrees(_metadata, ALL_REDUCE_4);
	setup(_metadata, &w, ALL_REDUCE_4);
	ASSERT_OK(xrt_execute_replicated(w.s, 4, w.comp, w.args, 1, NULL, w.out));
	for (d = 0; d < 4; d++) {
		char name[16];

		device_name(d, name, sizeof(name));
		/* accel:N is the Nth render node, renderD128 + N in the VM */
		snprintf(node, sizeof(node), "/dev/dri/renderD%u", 128 + atoi(name + 6));
		EXPECT_LT(0, fdinfo_compute(node)) TH_LOG("%s (%s): no compute time", name, node);
	}
	teardown(&w);
}

TEST_HARNESS_MAIN
