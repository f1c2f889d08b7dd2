// SPDX-License-Identifier: MIT
/*
 * The evaluator running every replica and partition: each collective,
 * in each mode, on several dtypes and group shapes, with different
 * values on every device, against results computed here from the
 * definitions; collectives in loops and branches; and every way a run
 * of several devices can go wrong, each ending with an error, never a
 * hang.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"
#include "test_elems.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>

#define MAX_DEV 8

/* What device d holds at element k: small integers, exact in every dtype. */
static double value(int64_t d, int64_t k)
{
	return (double)(d * 3 + k % 5);
}

/* A run of module @text: one parameter per device filled by value(), results in @out. */
struct run {
	xrt_module *m;
	xrt_literal *in[MAX_DEV], *out[MAX_DEV];
	int64_t n;
};

static xrt_status *start(struct run *r, const struct xrt_allocator *a, const char *text,
			 const struct xrt_eval_options *eo)
{
	xrt_status *st = xrt_hlo_parse(a, text, strlen(text), &r->m);
	uint32_t np = st ? 0 : xrt_module_num_params(r->m);
	int64_t d, k;

	r->n = 0;
	if (st)
		return st;
	r->n = (int64_t)xrt_module_num_replicas(r->m) * xrt_module_num_partitions(r->m);
	for (d = 0; d < r->n && np && !st; d++) {
		st = xrt_literal_create(a, xrt_module_param_shape(r->m, 0), &r->in[d]);
		for (k = 0; !st && k < (int64_t)xrt_shape_element_count(
					       xrt_literal_shape(r->in[d])); k++)
			test_set(r->in[d], k, value(d, k));
	}
	return st ? st : xrt_ir_evaluate_replicated(r->m, (const xrt_literal *const *)r->in, np,
						     eo, a, r->out);
}

static void finish(struct run *r)
{
	int64_t d;

	for (d = 0; d < r->n; d++) {
		xrt_literal_destroy(r->in[d]);
		xrt_literal_destroy(r->out[d]);
	}
	xrt_module_destroy(r->m);
}

/* @x as type @t holds it: integers wrap, halves round (from exact integers). */
static double rounded(const char *t, double x)
{
	if (!strcmp(t, "pred"))
		return x != 0;
	if (!strcmp(t, "s8"))
		return (int8_t)(int64_t)x;
	if (!strcmp(t, "u8"))
		return (uint8_t)(int64_t)x;
	if (!strcmp(t, "f16"))
		return xrt_f16_to_f32(xrt_f16_from_f32((float)x));
	if (!strcmp(t, "bf16"))
		return xrt_bf16_to_f32(xrt_bf16_from_f32((float)x));
	return x;
}

/* Groups as rows of device ids, each row ended by -1, the list by an empty row. */
struct groups {
	const char *hlo;	/* as replica_groups writes them */
	int g[MAX_DEV + 1][MAX_DEV + 1];
};

/* The group of @d: its members into @mem, its place into *@me; the size. */
static int group_of(const struct groups *gs, int d, int *mem, int *me)
{
	int i, k;

	for (i = 0; gs->g[i][0] >= 0; i++)
		for (k = 0; gs->g[i][k] >= 0; k++)
			if (gs->g[i][k] == d) {
				for (k = 0; gs->g[i][k] >= 0; k++)
					mem[k] = gs->g[i][k];
				for (*me = 0; mem[*me] != d; (*me)++)
					;
				return k;
			}
	return 0;
}

/* Four replicas, groups of every form: all, pairs, uneven, iota with a transpose. */
static const struct groups four[] = {
	{ "{}", { { 0, 1, 2, 3, -1 }, { -1 } } },
	{ "{{0,2},{1,3}}", { { 0, 2, -1 }, { 1, 3, -1 }, { -1 } } },
	{ "{{3,1,2},{0}}", { { 3, 1, 2, -1 }, { 0, -1 }, { -1 } } },
	{ "[2,2]<=[2,2]T(1,0)", { { 0, 2, -1 }, { 1, 3, -1 }, { -1 } } },
	{ "{{3,0},{2,1}}", { { 3, 0, -1 }, { 2, 1, -1 }, { -1 } } },
};

static const char *const types[] = { "pred", "s8", "u8", "s32", "u32", "s64", "f16", "bf16",
				     "f32", "f64" };

/* all-reduce with add (or, for pred), max and multiply: the group's fold, on every device. */
TEST_F(xrt, all_reduce_folds_each_group)
{
	static const char *const ops[] = { "add", "maximum", "multiply" };
	char text[1024];
	size_t t, g, o;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (g = 0; g < sizeof(four) / sizeof(four[0]); g++)
			for (o = 0; o < 3; o++) {
				const char *op = !strcmp(types[t], "pred") ? "or" : ops[o];
				struct run r = { NULL };
				int d, k, j, mem[MAX_DEV], me, n;

				snprintf(text, sizeof(text),
					 "HloModule m, replica_count=4\n"
					 "f { a = %1$s[] parameter(0)\n b = %1$s[] parameter(1)\n"
					 " ROOT s = %1$s[] %2$s(a, b)\n}\n"
					 "ENTRY e {\n x = %1$s[2,3] parameter(0)\n"
					 " ROOT r = %1$s[2,3] all-reduce(x), replica_groups=%3$s, "
					 "to_apply=f\n}\n", types[t], op, four[g].hlo);
				ASSERT_OK(start(&r, self->a, text, NULL));
				for (d = 0; d < 4; d++) {
					n = group_of(&four[g], d, mem, &me);
					for (k = 0; k < 6; k++) {
						double want = rounded(types[t], value(mem[0], k));

						for (j = 1; j < n; j++) {
							double v = value(mem[j], k);

							want = !strcmp(op, "or") ? (want || v) :
							       o == 0 ? want + v :
							       o == 1 ? fmax(want, v) : want * v;
							want = rounded(types[t], want);
						}
						EXPECT_EQ(want, test_get(r.out[d], k))
						TH_LOG("%s %s %s: device %d element %d", types[t],
						       four[g].hlo, op, d, k);
					}
				}
				finish(&r);
			}
}

/* Element (i, j) of a row-major [rows, cols] array on device d: value(d, i * cols + j). */
static double at(int d, int i, int j, int cols)
{
	return value(d, i * cols + j);
}

/* all-gather joins the group's operands along the dimension, in the group's order. */
TEST_F(xrt, all_gather_joins_in_group_order)
{
	char text[1024];
	size_t g, dim;

	for (g = 0; g < sizeof(four) / sizeof(four[0]); g++) {
		int mem[MAX_DEV], me, n = group_of(&four[g], 0, mem, &me);

		if (four[g].g[1][0] >= 0 && four[g].g[0][2] != four[g].g[1][2])
			continue;	/* all-gather needs groups of one size */
		for (dim = 0; dim < 2; dim++) {
			struct run r = { NULL };
			int d, i, j, rows = dim ? 2 : 2 * n, cols = dim ? 3 * n : 3;

			snprintf(text, sizeof(text),
				 "HloModule m, replica_count=4\nENTRY e {\n x = s32[2,3] parameter(0)\n"
				 " ROOT r = s32[%d,%d] all-gather(x), replica_groups=%s, "
				 "dimensions={%zu}\n}\n", rows, cols, four[g].hlo, dim);
			ASSERT_OK(start(&r, self->a, text, NULL));
			for (d = 0; d < 4; d++) {
				group_of(&four[g], d, mem, &me);
				for (i = 0; i < rows; i++)
					for (j = 0; j < cols; j++) {
						int from = mem[dim ? j / 3 : i / 2];

						EXPECT_EQ(at(from, i % 2, j % 3, 3),
							  test_get(r.out[d], i * cols + j))
						TH_LOG("%s dim %zu: device %d (%d, %d)", four[g].hlo,
						       dim, d, i, j);
					}
			}
			finish(&r);
		}
	}
}

/* reduce-scatter: the group's sum, block `place` of it to each member. */
TEST_F(xrt, reduce_scatter_gives_each_member_its_block)
{
	char text[1024];
	size_t g;

	for (g = 0; g < sizeof(four) / sizeof(four[0]); g++) {
		int mem[MAX_DEV], me, n = group_of(&four[g], 0, mem, &me), d, k, j;
		struct run r = { NULL };

		if (four[g].g[1][0] >= 0 && four[g].g[0][2] != four[g].g[1][2])
			continue;
		snprintf(text, sizeof(text),
			 "HloModule m, replica_count=4\n"
			 "f { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
			 " ROOT s = f32[] add(a, b)\n}\n"
			 "ENTRY e {\n x = f32[3,8] parameter(0)\n"
			 " ROOT r = f32[3,%d] reduce-scatter(x), replica_groups=%s, dimensions={1}, "
			 "to_apply=f\n}\n", 8 / n, four[g].hlo);
		ASSERT_OK(start(&r, self->a, text, NULL));
		for (d = 0; d < 4; d++) {
			group_of(&four[g], d, mem, &me);
			for (k = 0; k < 3 * 8 / n; k++) {
				int i = k / (8 / n), c = me * (8 / n) + k % (8 / n);
				double want = 0;

				for (j = 0; j < n; j++)
					want += at(mem[j], i, c, 8);
				EXPECT_EQ(want, test_get(r.out[d], k))
				TH_LOG("%s: device %d element %d", four[g].hlo, d, k);
			}
		}
		finish(&r);
	}
}

/* all-to-all: member j's block `place` becomes block j; the tuple form sends operand `place`. */
TEST_F(xrt, all_to_all_exchanges_blocks)
{
	static const char array[] =
		"HloModule m, replica_count=4\nENTRY e {\n x = u32[4,2] parameter(0)\n"
		" ROOT r = u32[4,2] all-to-all(x), replica_groups={{3,0},{2,1}}, dimensions={0}\n}\n";
	static const char tuple[] =
		"HloModule m, replica_count=2\nENTRY e {\n x = f64[3] parameter(0)\n"
		" y = f64[3] add(x, x)\n"
		" ROOT r = (f64[3], f64[3]) all-to-all(x, y), replica_groups={{1,0}}\n}\n";
	struct run r = { NULL };
	int mem[MAX_DEV], me, d, k;

	ASSERT_OK(start(&r, self->a, array, NULL));
	for (d = 0; d < 4; d++) {
		group_of(&four[4], d, mem, &me);
		for (k = 0; k < 8; k++) {
			int i = k / 2, c = k % 2, from = mem[i / 2];

			EXPECT_EQ(at(from, me * 2 + i % 2, c, 2), test_get(r.out[d], k))
			TH_LOG("device %d element %d", d, k);
		}
	}
	finish(&r);
	ASSERT_OK(start(&r, self->a, tuple, NULL));
	for (d = 0; d < 2; d++) {
		int place = d == 1 ? 0 : 1;	/* the group lists 1 first */

		for (k = 0; k < 3; k++) {
			/* element j of the result: member j's operand `place` (x, or y = 2x) */
			EXPECT_EQ(value(1, k) * (place + 1),
				  test_get(xrt_literal_element(r.out[d], 0), k));
			EXPECT_EQ(value(0, k) * (place + 1),
				  test_get(xrt_literal_element(r.out[d], 1), k));
		}
	}
	finish(&r);
}

/* collective-permute: from each pair's source to its target, zeros where no one sends. */
TEST_F(xrt, collective_permute_follows_the_pairs)
{
	static const struct {
		const char *pairs;
		int from[4];	/* -1: zeros */
	} cases[] = {
		{ "{{0,1},{1,2},{2,3},{3,0}}", { 3, 0, 1, 2 } },
		{ "{{0,2}}", { -1, -1, 0, -1 } },
		{ "{{3,3},{1,0}}", { 1, -1, -1, 3 } },
	};
	char text[512];
	size_t c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct run r = { NULL };
		int d, k;

		snprintf(text, sizeof(text),
			 "HloModule m, replica_count=4\nENTRY e {\n x = bf16[5] parameter(0)\n"
			 " ROOT r = bf16[5] collective-permute(x), source_target_pairs=%s\n}\n",
			 cases[c].pairs);
		ASSERT_OK(start(&r, self->a, text, NULL));
		for (d = 0; d < 4; d++)
			for (k = 0; k < 5; k++)
				EXPECT_EQ(cases[c].from[d] < 0 ? 0 : value(cases[c].from[d], k),
					  test_get(r.out[d], k)) TH_LOG("%s: device %d", cases[c].pairs, d);
		finish(&r);
	}
}

/* collective-broadcast: every member gets its group's first member's operand. */
TEST_F(xrt, collective_broadcast_sends_the_first_members)
{
	static const char text[] =
		"HloModule m, replica_count=4\nENTRY e {\n x = s64[3] parameter(0)\n"
		" ROOT r = s64[3] collective-broadcast(x), replica_groups={{2,0},{1,3}}\n}\n";
	static const int from[4] = { 2, 1, 2, 1 };
	struct run r = { NULL };
	int d, k;

	ASSERT_OK(start(&r, self->a, text, NULL));
	for (d = 0; d < 4; d++)
		for (k = 0; k < 3; k++)
			EXPECT_EQ(value(from[d], k), test_get(r.out[d], k));
	finish(&r);
}

/*
 * Two replicas of two partitions (device = 2 replica + partition): the
 * ids, and each mode's groups.  Each result is a sum, gather or permute
 * whose sources show who met whom.
 */
TEST_F(xrt, modes_pick_replicas_partitions_or_devices)
{
	static const struct {
		const char *instr;
		int from[4][5];	/* per device, the devices summed (or gathered), -1 ended */
	} cases[] = {
		/* no channel: replicas of the device's partition */
		{ "all-reduce(x), replica_groups={}, to_apply=f",
		  { { 0, 2, -1 }, { 1, 3, -1 }, { 0, 2, -1 }, { 1, 3, -1 } } },
		/* a channel: the listed replicas, of every partition */
		{ "all-reduce(x), channel_id=1, replica_groups={{0,1}}, to_apply=f",
		  { { 0, 1, 2, 3, -1 }, { 0, 1, 2, 3, -1 }, { 0, 1, 2, 3, -1 },
		    { 0, 1, 2, 3, -1 } } },
		/* flattened ids */
		{ "all-reduce(x), channel_id=1, replica_groups={{0,3},{1,2}}, "
		  "use_global_device_ids=true, to_apply=f",
		  { { 0, 3, -1 }, { 1, 2, -1 }, { 1, 2, -1 }, { 0, 3, -1 } } },
	};
	char text[1024];
	size_t c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct run r = { NULL };
		int d, k, j;

		snprintf(text, sizeof(text),
			 "HloModule m, replica_count=2, num_partitions=2\n"
			 "f { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
			 " ROOT s = f32[] add(a, b)\n}\n"
			 "ENTRY e {\n x = f32[2] parameter(0)\n ROOT r = f32[2] %s\n}\n",
			 cases[c].instr);
		ASSERT_OK(start(&r, self->a, text, NULL));
		for (d = 0; d < 4; d++)
			for (k = 0; k < 2; k++) {
				double want = 0;

				for (j = 0; cases[c].from[d][j] >= 0; j++)
					want += value(cases[c].from[d][j], k);
				EXPECT_EQ(want, test_get(r.out[d], k)) TH_LOG("case %zu device %d", c, d);
			}
		finish(&r);
	}
}

/* The ids, and a gather and a permute that follow partitions or flattened ids. */
TEST_F(xrt, ids_gathers_and_permutes_across_partitions)
{
	static const char text[] =
		"HloModule m, replica_count=2, num_partitions=3\nENTRY e {\n"
		" x = s32[1] parameter(0)\n"
		" rid = u32[] replica-id()\n pid = u32[] partition-id()\n"
		" g = s32[6] all-gather(x), channel_id=1, replica_groups={{1,0}}, dimensions={0}\n"
		" p = s32[1] collective-permute(x), channel_id=2, source_target_pairs={{0,2},{2,1}}\n"
		" a = (s32[1], s32[1], s32[1]) all-to-all(x, x, x), channel_id=3, replica_groups={}\n"
		" a1 = s32[1] get-tuple-element(a), index=1\n"
		" ROOT r = (u32[], u32[], s32[6], s32[1], s32[1]) tuple(rid, pid, g, p, a1)\n}\n";
	struct run r = { NULL };
	int d, k;

	ASSERT_OK(start(&r, self->a, text, NULL));
	for (d = 0; d < 6; d++) {
		int rep = d / 3, part = d % 3;

		EXPECT_EQ(rep, test_get(xrt_literal_element(r.out[d], 0), 0));
		EXPECT_EQ(part, test_get(xrt_literal_element(r.out[d], 1), 0));
		/* replicas 1 then 0, each with its partitions in order */
		for (k = 0; k < 6; k++)
			EXPECT_EQ(value(k < 3 ? 3 + k : k - 3, 0),
				  test_get(xrt_literal_element(r.out[d], 2), k));
		/* partition 0 sends to 2, 2 to 1, within the replica */
		EXPECT_EQ(part == 0 ? 0 : value(rep * 3 + (part == 2 ? 0 : 2), 0),
			  test_get(xrt_literal_element(r.out[d], 3), 0));
		/* element 1 of the tuple: partition 1's operand `part` (every operand is x) */
		EXPECT_EQ(value(rep * 3 + 1, 0), test_get(xrt_literal_element(r.out[d], 4), 0));
	}
	finish(&r);
}

#define SUM_S32 "f { a = s32[] parameter(0)\n b = s32[] parameter(1)\n" \
	" ROOT s = s32[] add(a, b)\n}\n"

/*
 * A while loop whose trip count is an all-reduced value, with an
 * all-reduce in its body; and a conditional whose branches, taken by
 * different replicas, each meet their own group.
 */
TEST_F(xrt, collectives_in_loops_and_branches)
{
	static const char loop[] =
		"HloModule m, replica_count=3\n" SUM_S32
		"cond { s = (s32[], s32[], s32[]) parameter(0)\n"
		" i = s32[] get-tuple-element(s), index=0\n n = s32[] get-tuple-element(s), index=2\n"
		" ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
		"body { s = (s32[], s32[], s32[]) parameter(0)\n"
		" i = s32[] get-tuple-element(s), index=0\n acc = s32[] get-tuple-element(s), index=1\n"
		" n = s32[] get-tuple-element(s), index=2\n one = s32[] constant(1)\n"
		" i1 = s32[] add(i, one)\n rid = u32[] replica-id()\n r = s32[] convert(rid)\n"
		" all = s32[] all-reduce(r), replica_groups={}, to_apply=f\n"
		" acc1 = s32[] add(acc, all)\n"
		" ROOT t = (s32[], s32[], s32[]) tuple(i1, acc1, n)\n}\n"
		"ENTRY e {\n x = s32[] parameter(0)\n n = s32[] all-reduce(x), replica_groups={}, "
		"to_apply=f\n zero = s32[] constant(0)\n"
		" init = (s32[], s32[], s32[]) tuple(zero, zero, n)\n"
		" ROOT w = (s32[], s32[], s32[]) while(init), condition=cond, body=body\n}\n";
	static const char branches[] =
		"HloModule m, replica_count=4\n" SUM_S32
		"low { x = s32[] parameter(0)\n"
		" ROOT s = s32[] all-reduce(x), replica_groups={{0,1},{2,3}}, to_apply=f\n}\n"
		"high { x = s32[] parameter(0)\n ten = s32[] constant(10)\n y = s32[] multiply(x, ten)\n"
		" ROOT s = s32[] all-reduce(y), replica_groups={{0,1},{2,3}}, to_apply=f\n}\n"
		"ENTRY e {\n x = s32[] parameter(0)\n rid = u32[] replica-id()\n two = u32[] constant(2)\n"
		" hi = pred[] compare(rid, two), direction=GE\n"
		" ROOT c = s32[] conditional(hi, x, x), true_computation=high, "
		"false_computation=low\n}\n";
	struct run r = { NULL };
	int d;

	ASSERT_OK(start(&r, self->a, loop, NULL));
	for (d = 0; d < 3; d++) {
		/* n = 0 + 3 + 6 = 9 passes, each adding 0 + 1 + 2 */
		EXPECT_EQ(9, test_get(xrt_literal_element(r.out[d], 0), 0));
		EXPECT_EQ(27, test_get(xrt_literal_element(r.out[d], 1), 0));
	}
	finish(&r);
	ASSERT_OK(start(&r, self->a, branches, NULL));
	EXPECT_EQ(value(0, 0) + value(1, 0), test_get(r.out[0], 0));
	EXPECT_EQ(value(0, 0) + value(1, 0), test_get(r.out[1], 0));
	EXPECT_EQ(10 * (value(2, 0) + value(3, 0)), test_get(r.out[2], 0));
	EXPECT_EQ(10 * (value(2, 0) + value(3, 0)), test_get(r.out[3], 0));
	finish(&r);
}

/* A loop of replica-id x @trips passes, then an all-reduce. */
#define LOOPING(trips) "HloModule m, replica_count=4\n" SUM_S32 \
	"cond { i = s32[] parameter(0)\n rid = u32[] replica-id()\n r = s32[] convert(rid)\n" \
	" k = s32[] constant(" #trips ")\n n = s32[] multiply(r, k)\n" \
	" ROOT lt = pred[] compare(i, n), direction=LT\n}\n" \
	"body { i = s32[] parameter(0)\n one = s32[] constant(1)\n ROOT j = s32[] add(i, one)\n}\n" \
	"ENTRY e {\n x = s32[] parameter(0)\n w = s32[] while(x), condition=cond, body=body\n" \
	" ROOT s = s32[] all-reduce(w), replica_groups={}, to_apply=f\n}\n"

/* Replica-id picks a branch; the branches hold @low and @high. */
#define BRANCHING(low, high) "HloModule m, replica_count=2\n" SUM_S32 \
	"low { x = s32[] parameter(0)\n ROOT s = s32[] " low "\n}\n" \
	"high { x = s32[] parameter(0)\n ROOT s = s32[] " high "\n}\n" \
	"ENTRY e {\n x = s32[] parameter(0)\n rid = u32[] replica-id()\n one = u32[] constant(1)\n" \
	" hi = pred[] compare(rid, one), direction=GE\n" \
	" ROOT c = s32[] conditional(hi, x, x), true_computation=high, false_computation=low\n}\n"

/* A device that fails stops the others; each way devices cannot meet is an error, not a hang. */
TEST_F(xrt, failures_end_every_device)
{
	struct xrt_eval_options few = { 0, 10, 0 }, soon = { 0, 0, 50 * 1000 * 1000 };
	struct run r = { NULL };

	/*
	 * replicas 1 to 3 pass the iteration limit (one of them first: the
	 * others may see it and stop CANCELLED); 0 waits at the all-reduce
	 */
	{
		xrt_status *st = start(&r, self->a, LOOPING(100), &few);
		const char *msg = xrt_status_message(st);

		EXPECT_EQ(XRT_DEADLINE_EXCEEDED, xrt_status_code(st));
		EXPECT_TRUE(!strncmp(msg, "replica 1: ", 11) || !strncmp(msg, "replica 2: ", 11) ||
			    !strncmp(msg, "replica 3: ", 11)) TH_LOG("%s", msg);
		EXPECT_NE(NULL, strstr(msg, "evaluate: computation 'e', instruction 'w' (while): "
				       "more than 10 iterations"));
		xrt_status_free(st);
	}
	EXPECT_EQ(NULL, r.out[0]);
	finish(&r);
	/* replica 3 loops past the deadline, the others wait for it */
	ASSERT_ERR(start(&r, self->a, LOOPING(1000000000), &soon), XRT_DEADLINE_EXCEEDED,
		   "deadline passed");
	finish(&r);
	/* each branch its own all-reduce: no group ever whole */
	ASSERT_ERR(start(&r, self->a,
			 BRANCHING("all-reduce(x), replica_groups={}, to_apply=f",
				   "all-reduce(x), replica_groups={}, to_apply=f"), NULL),
		   XRT_FAILED_PRECONDITION, "the devices wait at different collectives");
	finish(&r);
	/* replica 1 never comes */
	ASSERT_ERR(start(&r, self->a,
			 BRANCHING("all-reduce(x), replica_groups={}, to_apply=f", "negate(x)"),
			 NULL),
		   XRT_FAILED_PRECONDITION,
		   "replica 0: evaluate: computation 'low', instruction 's' (all-reduce): device 1 "
		   "of the group finished without reaching this collective");
	finish(&r);
}

/* Arguments checked device by device; one device's evaluation is refused for several. */
TEST_F(xrt, arguments_and_entry_points_checked)
{
	static const char text[] = "HloModule m, replica_count=2\n" SUM_S32
		"ENTRY e {\n x = s32[] parameter(0)\n"
		" ROOT s = s32[] all-reduce(x), replica_groups={}, to_apply=f\n}\n";
	xrt_literal *args[2] = { NULL }, *out[2] = { NULL }, *one = NULL;
	struct xrt_shape s2, s0;
	xrt_module *m = NULL;

	ASSERT_OK(xrt_hlo_parse(self->a, text, strlen(text), &m));
	ASSERT_OK(xrt_shape_init_array(&s0, XRT_S32, 0, NULL));
	ASSERT_OK(xrt_shape_init_array(&s2, XRT_S32, 1, (int64_t[]){ 2 }));
	ASSERT_OK(xrt_literal_create(self->a, &s0, &args[0]));
	ASSERT_OK(xrt_literal_create(self->a, &s2, &args[1]));
	EXPECT_EQ(2, xrt_module_num_replicas(m));
	EXPECT_EQ(1, xrt_module_num_partitions(m));
	ASSERT_ERR(xrt_ir_evaluate_replicated(m, (const xrt_literal *const *)args, 1, NULL,
					      self->a, out),
		   XRT_INVALID_ARGUMENT, "device 1: evaluate: argument 0 is s32[2]");
	EXPECT_EQ(NULL, out[0]);
	ASSERT_ERR(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 1, NULL, self->a, &one),
		   XRT_INVALID_ARGUMENT, "runs on 2 devices (replica_count=2, num_partitions=1): "
		   "evaluate it with xrt_ir_evaluate_replicated");
	ASSERT_ERR(xrt_ir_evaluate_replicated(m, NULL, 1, NULL, self->a, out),
		   XRT_INVALID_ARGUMENT, "args is NULL");
	xrt_literal_destroy(args[0]);
	xrt_literal_destroy(args[1]);
	xrt_shape_deinit(&s0);
	xrt_shape_deinit(&s2);
	xrt_module_destroy(m);
}

TEST_HARNESS_MAIN
