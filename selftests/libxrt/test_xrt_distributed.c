// SPDX-License-Identifier: MIT
/*
 * xrt_execute_replicated() across processes, run under mpirun: four
 * devices, as 4 processes of one host device or 2 of two
 * (XRT_TEST_LOCAL_DEVICES).  Every collective on every group shape gives
 * the reference evaluator's bits on every device of every process; a
 * data-parallel training step matches one replica on the whole batch;
 * processes that disagree on the run, or one that cannot start its
 * devices, fail it in every process with one message, and the group
 * goes on.  With XRT_TEST_DEVICE=cuda (the CPU stand-ins for the driver
 * and for NCCL, whose ranks meet across processes over MPI) the same
 * runs go through NCCL's communicator across processes.
 *
 * One test: MPI starts once in a process, and the harness forks a
 * process per test.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"
#include "test_elems.h"
#include "test_collectives.h"
#include "test_mlp.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#define DEVICES 4

struct here {
	xrt_session *s[DEVICES];
	uint32_t rank, size, local, first;	/* this process's devices: first on */
};

/* Device @d's input of shape @sh: small integers, exact in every type. */
static xrt_literal *input_of(const struct xrt_shape *sh, uint32_t d)
{
	xrt_literal *in = NULL;
	uint64_t k;

	if (xrt_literal_create(NULL, sh, &in))
		return NULL;
	for (k = 0; k < xrt_shape_element_count(sh); k++)
		test_set(in, (int64_t)k, (double)(3 * d + k % 5) - 4);
	return in;
}

/* f32[2] {1, 2} */
static xrt_literal *pair(void)
{
	static const int64_t two = 2;
	xrt_literal *lit = NULL;
	struct xrt_shape sh;
	float *p;

	if (xrt_shape_init_array(&sh, XRT_F32, 1, &two))
		return NULL;
	xrt_status_free(xrt_literal_create(NULL, &sh, &lit));
	xrt_shape_deinit(&sh);
	if (!lit)
		return NULL;
	p = xrt_literal_mutable_data(lit);
	p[0] = 1;
	p[1] = 2;
	return lit;
}

/*
 * @text on the four devices: each device here gives the evaluator's bits,
 * with MPI's blocking collectives (no timeout) and polled ones (one).
 */
static void agrees_as(struct __test_metadata *_metadata, struct here *h, const char *text,
		      uint64_t timeout_ns)
{
	const struct xrt_replicated_config c = { .base.rng_seed = 5,
						 .base.timeout_ns = timeout_ns };
	const struct xrt_eval_options eo = { 5, 0, 0 };
	xrt_literal *in[DEVICES] = { NULL }, *want[DEVICES] = { NULL }, *got;
	xrt_handle comp[DEVICES], args[DEVICES], out[DEVICES];
	xrt_module *m = NULL;
	char why[256];
	uint32_t d, k;

	ASSERT_OK(xrt_hlo_parse(NULL, text, strlen(text), &m));
	for (d = 0; d < DEVICES; d++)
		ASSERT_NE(NULL, in[d] = input_of(xrt_module_param_shape(m, 0), d));
	for (k = 0; k < h->local; k++) {
		ASSERT_OK(xrt_compile_module(h->s[k], m, &comp[k]));
		ASSERT_OK(xrt_allocate(h->s[k], in[h->first + k], &args[k]));
	}
	ASSERT_OK(xrt_execute_replicated(h->s, h->local, comp, args, 1, &c, out));
	ASSERT_OK(xrt_ir_evaluate_replicated(m, (const xrt_literal *const *)in, 1, &eo, NULL,
					     want));
	for (k = 0; k < h->local; k++) {
		got = NULL;
		ASSERT_OK(xrt_read_literal(h->s[k], out[k], true, &got));
		EXPECT_TRUE(xrt_literal_equal(want[h->first + k], got, why, sizeof(why)))
			TH_LOG("rank %u device %u: %s\n%s", h->rank, h->first + k, why, text);
		xrt_literal_destroy(got);
		xrt_status_free(xrt_release_allocations(h->s[k], &args[k], 1));
		xrt_status_free(xrt_release_compilations(h->s[k], &comp[k], 1));
	}
	for (d = 0; d < DEVICES; d++) {
		xrt_literal_destroy(in[d]);
		xrt_literal_destroy(want[d]);
	}
	xrt_module_destroy(m);
}

static void agrees(struct __test_metadata *_metadata, struct here *h, const char *text)
{
	agrees_as(_metadata, h, text, 0);
	agrees_as(_metadata, h, text, 60ull * 1000 * 1000 * 1000);
}

static void every_collective(struct __test_metadata *_metadata, struct here *h)
{
	static const char *const types[] = { "f32", "bf16", "f16", "s32", "u8", "f64", "s64",
					     "pred" };
	/*
	 * groups across the processes, within them, of both, and whose
	 * members alternate between processes
	 */
	static const char *const groups[] = { "{}", "{{0,2},{1,3}}", "{{3,2,1,0}}",
					      "[2,2]<=[2,2]T(1,0)", "{{0,1},{2,3}}",
					      "{{0,2,1,3}}" };
	static const char *const reducers[] = { "add", "maximum", "minimum", "multiply" };
	char text[2048];
	size_t t, g, r;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
			const char *ty = types[t], *gr = groups[g];
			int size = g == 0 || g == 2 || g == 5 ? 4 : 2;

			for (r = 0; r < 4; r++) {
				test_all_reduce_text(text, sizeof(text), ty, gr,
						     !strcmp(ty, "pred") ? (r & 1 ? "or" : "and") :
						     reducers[r]);
				agrees(_metadata, h, text);
			}
			test_movers_text(text, sizeof(text), ty, gr, size,
					 !strcmp(ty, "pred") ? "or" : "add");
			agrees(_metadata, h, text);
		}
}

/* Reducers of no REDUCE op: gathered across the processes, folded in the group's order. */
static void other_reducers(struct __test_metadata *_metadata, struct here *h)
{
	static const char *const groups[] = { "{}", "{{0,2},{1,3}}", "{{3,2,1,0}}" };
	char text[2048];
	size_t g;

	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		snprintf(text, sizeof(text),
			 "HloModule m, replica_count=4\n" RED("s32", "subtract")
			 "ENTRY e {\n x = s32[4,4] parameter(0)\n"
			 " a = s32[4,4] all-reduce(x), replica_groups=%1$s, to_apply=f\n"
			 " s = s32[%2$d,4] reduce-scatter(x), replica_groups=%1$s, "
			 "dimensions={0}, to_apply=f\n"
			 " ROOT r = (s32[4,4], s32[%2$d,4]) tuple(a, s)\n}\n", groups[g],
			 g == 1 ? 2 : 1);
		agrees(_metadata, h, text);
	}
}

/* Ids, tuples and collectives inside a loop whose trip count is all-reduced. */
static void loops_and_ids(struct __test_metadata *_metadata, struct here *h)
{
	static const char text[] =
		"HloModule m, replica_count=4\n" RED("s32", "add")
		"cond { s = (s32[], s32[4]) parameter(0)\n i = s32[] get-tuple-element(s), "
		"index=0\n n = s32[] constant(5)\n ROOT lt = pred[] compare(i, n), "
		"direction=LT\n}\n"
		"body { s = (s32[], s32[4]) parameter(0)\n i = s32[] get-tuple-element(s), "
		"index=0\n v = s32[4] get-tuple-element(s), index=1\n"
		" a = s32[4] all-reduce(v), replica_groups={{0,3},{1,2}}, to_apply=f\n"
		" p = s32[4] collective-permute(a), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}\n"
		" one = s32[] constant(1)\n j = s32[] add(i, one)\n"
		" ROOT t = (s32[], s32[4]) tuple(j, p)\n}\n"
		"ENTRY e {\n x = s32[4] parameter(0)\n z = s32[] constant(0)\n"
		" t = (s32[], s32[4]) tuple(z, x)\n w = (s32[], s32[4]) while(t), condition=cond, "
		"body=body\n v = s32[4] get-tuple-element(w), index=1\n id = u32[] replica-id()\n"
		" ROOT r = (s32[4], u32[]) tuple(v, id)\n}\n";

	agrees(_metadata, h, text);
}

/* The training step of four replicas across the processes, against one on the whole batch. */
static void training(struct __test_metadata *_metadata, struct here *h)
{
	static const int64_t dw1[] = { 8, 16 }, db1[] = { 16 }, dw2[] = { 16, 4 }, db2[] = { 4 };
	const struct xrt_tolerance tol = { 1e-5, 1e-6 };
	xrt_handle comp[DEVICES], args[DEVICES * 6], out[DEVICES], one_comp, one_args[6], one_out;
	xrt_literal *w[4], *one = NULL, *got = NULL;
	char text[8192], why[256];
	uint32_t k, i;

	w[0] = test_randoms(2, dw1, 1, 0);
	w[1] = test_randoms(1, db1, 2, 0);
	w[2] = test_randoms(2, dw2, 3, 0);
	w[3] = test_randoms(1, db2, 4, 0);
	test_mlp_text(text, sizeof(text), 1, 32, 32);
	ASSERT_OK(xrt_compile_hlo(h->s[0], text, strlen(text), &one_comp));
	for (i = 0; i < 4; i++)
		ASSERT_OK(xrt_allocate(h->s[0], w[i], &one_args[i]));
	{
		xrt_literal *x = test_randoms(2, (int64_t[]){ 32, 8 }, 5, 0);
		xrt_literal *y = test_randoms(2, (int64_t[]){ 32, 4 }, 6, 0);

		ASSERT_OK(xrt_allocate(h->s[0], x, &one_args[4]));
		ASSERT_OK(xrt_allocate(h->s[0], y, &one_args[5]));
		xrt_literal_destroy(x);
		xrt_literal_destroy(y);
	}
	ASSERT_OK(xrt_execute(h->s[0], one_comp, one_args, 6, NULL, &one_out));
	ASSERT_OK(xrt_read_literal(h->s[0], one_out, true, &one));
	test_mlp_text(text, sizeof(text), 4, 8, 32);
	for (k = 0; k < h->local; k++) {
		uint32_t d = h->first + k;
		xrt_literal *x = test_randoms(2, (int64_t[]){ 8, 8 }, 5, 64 * d);
		xrt_literal *y = test_randoms(2, (int64_t[]){ 8, 4 }, 6, 32 * d);

		ASSERT_OK(xrt_compile_hlo(h->s[k], text, strlen(text), &comp[k]));
		for (i = 0; i < 4; i++)
			ASSERT_OK(xrt_allocate(h->s[k], w[i], &args[6 * k + i]));
		ASSERT_OK(xrt_allocate(h->s[k], x, &args[6 * k + 4]));
		ASSERT_OK(xrt_allocate(h->s[k], y, &args[6 * k + 5]));
		xrt_literal_destroy(x);
		xrt_literal_destroy(y);
	}
	ASSERT_OK(xrt_execute_replicated(h->s, h->local, comp, args, 6, NULL, out));
	for (k = 0; k < h->local; k++) {
		ASSERT_OK(xrt_read_literal(h->s[k], out[k], true, &got));
		EXPECT_TRUE(xrt_literal_near(one, got, &tol, why, sizeof(why)))
			TH_LOG("replica %u: %s", h->first + k, why);
		xrt_literal_destroy(got);
	}
	xrt_literal_destroy(one);
	for (i = 0; i < 4; i++)
		xrt_literal_destroy(w[i]);
}

/* @text compiled in every session here, and {1, 2} allocated as its argument. */
static void start(struct __test_metadata *_metadata, struct here *h, const char *text,
		  xrt_handle *comp, xrt_handle *args)
{
	xrt_literal *in = NULL;
	uint32_t k;

	for (k = 0; k < h->local; k++) {
		ASSERT_OK(xrt_compile_hlo(h->s[k], text, strlen(text), &comp[k]));
		ASSERT_NE(NULL, in = pair());
		ASSERT_OK(xrt_allocate(h->s[k], in, &args[k]));
		xrt_literal_destroy(in);
	}
}

/*
 * A process of another program, or one that cannot start its devices:
 * every process fails the run before any waits at a collective, and the
 * next run works.
 */
static void refusals(struct __test_metadata *_metadata, struct here *h)
{
	char text[512];
	xrt_handle comp[DEVICES], args[DEVICES], out[DEVICES];
	xrt_literal *in = NULL;
	xrt_status *st;
	uint32_t k;

	snprintf(text, sizeof(text), "HloModule m, replica_count=%d\n" RED("f32", "add")
		 "ENTRY e {\n x = f32[2] parameter(0)\n ROOT r = f32[2] all-reduce(x), "
		 "replica_groups={}, to_apply=f\n}\n", h->rank == 1 ? 8 : 4);
	start(_metadata, h, text, comp, args);
	ASSERT_ERR(xrt_execute_replicated(h->s, h->local, comp, args, 1, NULL, out),
		   XRT_INVALID_ARGUMENT, "rank 1 runs a program of 8 x 1 devices");
	for (k = 0; k < h->local; k++)
		xrt_status_free(xrt_release_compilations(h->s[k], &comp[k], 1));
	/* rank 0's argument is gone: it says so, the others that it could not start */
	snprintf(text, sizeof(text), "HloModule m, replica_count=4\n" RED("f32", "add")
		 "ENTRY e {\n x = f32[2] parameter(0)\n ROOT r = f32[2] all-reduce(x), "
		 "replica_groups={}, to_apply=f\n}\n");
	for (k = 0; k < h->local; k++)
		ASSERT_OK(xrt_compile_hlo(h->s[k], text, strlen(text), &comp[k]));
	if (h->rank == 0)
		ASSERT_OK(xrt_release_allocations(h->s[0], &args[0], 1));
	st = xrt_execute_replicated(h->s, h->local, comp, args, 1, NULL, out);
	if (h->rank == 0)
		ASSERT_ERR(st, XRT_NOT_FOUND, "session 0");
	else
		ASSERT_ERR(st, XRT_ABORTED, "rank 0 could not start its devices");
	if (h->rank == 0) {
		ASSERT_NE(NULL, in = pair());
		ASSERT_OK(xrt_allocate(h->s[0], in, &args[0]));
		xrt_literal_destroy(in);
	}
	/* and the group goes on: 4 x (1, 2) summed */
	ASSERT_OK(xrt_execute_replicated(h->s, h->local, comp, args, 1, NULL, out));
	for (k = 0; k < h->local; k++) {
		float v[2];

		ASSERT_OK(xrt_read_data(h->s[k], out[k], true, v, sizeof(v)));
		EXPECT_EQ(4.0f, v[0]);
		EXPECT_EQ(8.0f, v[1]);
	}
}

/*
 * Devices of their own memory (cuda, over NCCL) and host devices (over
 * MPI) cannot meet: rank 1 runs host devices, and every process refuses.
 */
static void kinds_must_match(struct __test_metadata *_metadata, struct here *h)
{
	static const char text[] = "HloModule m, replica_count=4\n" RED("f32", "add")
		"ENTRY e {\n x = f32[2] parameter(0)\n ROOT r = f32[2] all-reduce(x), "
		"replica_groups={}, to_apply=f\n}\n";
	struct xrt_session_options o = { .host_devices = h->local };
	struct here mixed = *h;
	xrt_handle comp[DEVICES], args[DEVICES], out[DEVICES];
	char name[16];
	uint32_t k;

	for (k = 0; h->rank == 1 && k < h->local; k++) {
		snprintf(name, sizeof(name), "host:%u", k);
		o.device = name;
		ASSERT_OK(xrt_session_create(&o, NULL, &mixed.s[k]));
	}
	start(_metadata, &mixed, text, comp, args);
	ASSERT_ERR(xrt_execute_replicated(mixed.s, h->local, comp, args, 1, NULL, out),
		   XRT_UNIMPLEMENTED, "rank 1's devices meet in host memory, rank 0's in their "
		   "own memory: they cannot meet");
	for (k = 0; k < h->local; k++) {
		xrt_status_free(xrt_release_compilations(mixed.s[k], &comp[k], 1));
		xrt_status_free(xrt_release_allocations(mixed.s[k], &args[k], 1));
		if (h->rank == 1)
			xrt_session_destroy(mixed.s[k]);
	}
}

/*
 * A process whose devices cannot join NCCL's world (rank 1 runs its two
 * devices on one GPU) fails the run with its own error, and the others
 * learn it in the exchange of the unique id instead of waiting for it.
 */
static void one_gpu_twice(struct __test_metadata *_metadata, struct here *h)
{
	static const char text[] = "HloModule m, replica_count=4\n" RED("f32", "add")
		"ENTRY e {\n x = f32[2] parameter(0)\n ROOT r = f32[2] all-reduce(x), "
		"replica_groups={}, to_apply=f\n}\n";
	struct xrt_session_options o = { .device = "cuda:0" };
	struct here twice = *h;
	xrt_handle comp[DEVICES], args[DEVICES], out[DEVICES];
	xrt_status *st;
	uint32_t k;

	if (h->rank == 1)
		ASSERT_OK(xrt_session_create(&o, NULL, &twice.s[1]));
	start(_metadata, &twice, text, comp, args);
	st = xrt_execute_replicated(twice.s, h->local, comp, args, 1, NULL, out);
	if (h->rank == 1)
		ASSERT_ERR(st, XRT_UNIMPLEMENTED, "both on cuda:0: NCCL runs one rank per GPU");
	else
		ASSERT_ERR(st, XRT_ABORTED, "rank 1 could not make its part of NCCL's world");
	for (k = 0; k < h->local; k++) {
		xrt_status_free(xrt_release_compilations(twice.s[k], &comp[k], 1));
		xrt_status_free(xrt_release_allocations(twice.s[k], &args[k], 1));
	}
	if (h->rank == 1)
		xrt_session_destroy(twice.s[1]);
}

/* No leak check: MPI keeps what it allocates until the process ends. */
FIXTURE(dist) {
	int unused;
};

FIXTURE_SETUP(dist)
{
}

FIXTURE_TEARDOWN(dist)
{
}

TEST_F_TIMEOUT(dist, every_collective_training_and_refusals, 280)
{
	const char *env = getenv("XRT_TEST_LOCAL_DEVICES"), *kind = getenv("XRT_TEST_DEVICE");
	struct xrt_session_options o = { 0 };
	struct here h = { { NULL } };
	char name[16];
	uint32_t k;

	ASSERT_OK(xrt_distributed_init(NULL));
	ASSERT_TRUE(xrt_distributed_rank(&h.rank, &h.size));
	h.local = env && *env ? (uint32_t)atoi(env) : 1;
	ASSERT_EQ(DEVICES, h.size * h.local) TH_LOG("run 4 / XRT_TEST_LOCAL_DEVICES processes");
	h.first = h.rank * h.local;
	o.host_devices = h.local;
	for (k = 0; k < h.local; k++) {
		snprintf(name, sizeof(name), "%s:%u", kind && *kind ? kind : "host", k);
		o.device = name;
		ASSERT_OK(xrt_session_create(&o, NULL, &h.s[k]));
	}
	every_collective(_metadata, &h);
	if (!kind || strcmp(kind, "cuda"))	/* NCCL has no such reducers */
		other_reducers(_metadata, &h);
	else
		kinds_must_match(_metadata, &h);
	if (kind && !strcmp(kind, "cuda") && h.local == 2)
		one_gpu_twice(_metadata, &h);
	loops_and_ids(_metadata, &h);
	training(_metadata, &h);
	refusals(_metadata, &h);
	for (k = 0; k < h.local; k++)
		xrt_session_destroy(h.s[k]);
	ASSERT_OK(xrt_distributed_shutdown());
	/* out of the group: no run spans processes, and MPI does not start again */
	ASSERT_FALSE(xrt_distributed_rank(NULL, NULL));
	ASSERT_ERR(xrt_distributed_init(NULL), XRT_FAILED_PRECONDITION,
		   "MPI does not start twice");
}

TEST_HARNESS_MAIN
