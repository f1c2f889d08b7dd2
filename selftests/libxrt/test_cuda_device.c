// SPDX-License-Identifier: MIT
/*
 * libxrt on cuda:0.  Where there is no GPU (or no CUDA driver) the
 * device must be absent and say why: not listed, NOT_FOUND when asked
 * for, libxrt otherwise unaffected; that part runs everywhere.  With a
 * GPU: every corpus module on seeded inputs matches host:0 (cuBLAS on
 * and off), every evaluator case's program (its
 * constants not folded, so each op runs on the GPU) gives host:0's
 * values within the case's tolerance, the exact DOT kernel gives the
 * host engine's bits, and the XRT API's asynchronous runs, transfers
 * and errors behave as on the other devices; NCCL as a communicator of
 * one rank performs every kind of collective.  tools/gpu-check.sh runs
 * this where a GPU is; make check runs it on fake_cuda.c, a CPU
 * stand-in for the driver (the evaluator's cases excepted: too slow
 * there, and test_cuda_emu runs their kernels).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xrt_test.h"

#include <xrt/device.h>
#include <xrt/eager.h>
#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "compiler/compiler.h"
#include "core/literal.h"
#include "core/shape.h"
#include "device/cuda/cuda_api.h"
#include "engine/engine.h"
#include "device/device.h"
#include "registry/open.h"
#include "test_cases.h"
#include "test_handlers.h"

static bool have_gpu(const struct xrt_allocator *a)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;
	bool found = false;

	if (xrt_devices_list(a, &v, &n))
		return false;
	for (i = 0; i < n; i++)
		found |= v[i].kind == XRT_DEVICE_CUDA;
	xrt_free(a, v);
	return found;
}

#define NEED_GPU()                                                            \
	do {                                                                  \
		if (!have_gpu(self->a))                                       \
			SKIP(return, "no GPU: %s", cuda_api_get()->why);      \
	} while (0)

TEST_F(xrt, without_a_gpu_cuda_is_absent_and_says_so)
{
	struct xrt_session_options o = { "cuda:0", 0, false };
	xrt_session *s = NULL;
	xrt_status *st;

	if (have_gpu(self->a))
		SKIP(return, "a GPU is here: the other cases run");
	st = xrt_session_create(&o, self->a, &s);
	ASSERT_NE(NULL, st);
	EXPECT_EQ(XRT_NOT_FOUND, xrt_status_code(st));
	EXPECT_NE(NULL, strstr(xrt_status_message(st), "cuda:0"));
	EXPECT_NE(NULL, strstr(xrt_status_message(st), "host:0"));
	/* and why: the driver's reason */
	EXPECT_NE(NULL, strstr(xrt_status_message(st), cuda_api_get()->why))
		TH_LOG("%s", xrt_status_message(st));
	xrt_status_free(st);
	/* the rest of libxrt is unaffected */
	o.device = "host:0";
	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	xrt_session_destroy(s);
	/* and the reason is recorded for messages */
	EXPECT_NE('\0', cuda_api_get()->why[0]);
}

TEST_F(xrt, cuda_is_listed_with_its_memory)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;

	NEED_GPU();
	ASSERT_OK(xrt_devices_list(self->a, &v, &n));
	for (i = 0; i < n; i++) {
		if (v[i].kind != XRT_DEVICE_CUDA)
			continue;
		EXPECT_EQ(0, strncmp(v[i].name, "cuda:", 5));
		EXPECT_LT(1ull << 30, v[i].memory_bytes);
		EXPECT_LT(0u, v[i].compute_units);
	}
	xrt_free(self->a, v);
}

/*
 * Every corpus module on seeded inputs, on cuda:0 and on host:0 (whose
 * results test_compile checks against the evaluator; random-number
 * modules only agree between devices, which share the seed's numbers).
 */
static void corpus_against_host(struct __test_metadata *_metadata, const struct xrt_allocator *a,
				bool no_blas)
{
	const struct xrt_tolerance tol = { 1e-4, 1e-5 };
	struct xrt_session_options o = { "cuda:0", 0, no_blas }, ho = { "host:0", 0, true };
	struct test_corpus c = { 0 };
	xrt_session *s = NULL, *h = NULL;
	int ran = 0, differ = 0, skipped = 0;

	ASSERT_OK(xrt_session_create(&o, a, &s));
	ASSERT_OK(xrt_session_create(&ho, a, &h));
	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		xrt_literal *args[16] = { NULL }, *want = NULL, *got = NULL;
		xrt_module *m = NULL;
		uint64_t state = 7;
		uint32_t n, i;
		char why[512] = "";
		xrt_status *st;

		ASSERT_OK(xrt_hlo_parse(a, c.text, c.len, &m));
		n = xrt_module_num_params(m);
		ASSERT_GE(16, n);
		for (i = 0; i < n; i++) {
			ASSERT_OK(xrt_literal_create(a, xrt_module_param_shape(m, i), &args[i]));
			test_fill_random(args[i], &state);
		}
		st = test_run_module(s, m, args, n, &got);
		if (st && xrt_status_code(st) == XRT_UNIMPLEMENTED) {
			skipped++;	/* the compiler's, checked by test_compile */
		} else {
			EXPECT_EQ(NULL, st) TH_LOG("%s: %s", c.name, xrt_status_message(st));
			ASSERT_OK(test_run_module(h, m, args, n, &want));
			if (!st && !xrt_literal_near(want, got, &tol, why, sizeof(why))) {
				TH_LOG("%s: %s", c.name, why);
				differ++;
			}
			ran++;
		}
		xrt_status_free(st);
		for (i = 0; i < n; i++)
			xrt_literal_destroy(args[i]);
		xrt_literal_destroy(want);
		xrt_literal_destroy(got);
		xrt_module_destroy(m);
	}
	xrt_session_destroy(s);
	xrt_session_destroy(h);
	fprintf(stderr, "# cuda:0%s: %d corpus modules, %d differ from host:0, %d not compiled\n",
		no_blas ? " (no cuBLAS)" : "", ran, differ, skipped);
	EXPECT_EQ(0, differ);
	EXPECT_LT(60, ran);
}

/* A custom call runs code of the process: the device refuses it by name, and goes on working. */
TEST_F(xrt, custom_calls_are_refused)
{
	NEED_GPU();
	ASSERT_OK(test_device_refuses_custom_calls("cuda:0", self->a,
						   "custom-call 'my_kernel' cannot run on a CUDA device: "
						   "its programs run as kernels on the GPU"));
}

TEST_F_TIMEOUT(xrt, corpus_matches_the_host, 300)
{
	NEED_GPU();
	corpus_against_host(_metadata, self->a, false);
}

TEST_F_TIMEOUT(xrt, corpus_matches_the_host_without_cublas, 300)
{
	NEED_GPU();
	corpus_against_host(_metadata, self->a, true);
}

/* Runs @exe (no parameters) on @d; each result leaf into leaves[]. */
static xrt_status *leaves_on(struct xdev *d, const struct xrt_executable *exe,
			     const struct xrt_allocator *a, xrt_literal **leaves, uint32_t *n)
{
	struct xdev_buf slots[64] = { { 0 } };
	struct xdev_queue *q = NULL;
	xrt_status *st = NULL;
	uint32_t s;

	*n = 0;
	if (exe->num_slots > 64)
		return xrt_status_new(a, XRT_UNIMPLEMENTED, "more than 64 slots");
	for (s = 0; !st && s < exe->num_slots; s++)
		if (exe->slots[s].kind == XEXE_SLOT_RESULT)
			st = d->ops->alloc(d, exe->slots[s].size, a, &slots[s]);
	if (!st)
		st = d->ops->queue_create(d, a, XDEV_QUEUE_NO_BLAS, &q);
	if (!st)
		st = d->ops->run(q, exe, slots, 42, NULL);
	for (s = 0; !st && s < exe->num_slots; s++) {
		uint32_t leaf = exe->slots[s].leaf;
		const struct xrt_shape *ls;

		if (exe->slots[s].kind != XEXE_SLOT_RESULT)
			continue;
		ls = xrt_shape_nth_leaf(&exe->result, &leaf);
		st = xrt_literal_create_uninit(a, ls, &leaves[exe->slots[s].leaf]);
		if (!st)
			st = xdev_read(d, &slots[s], 0,
				       xrt_literal_mutable_data(leaves[exe->slots[s].leaf]),
				       exe->slots[s].size, a);
		(*n)++;
	}
	if (q)
		d->ops->queue_destroy(q);
	for (s = 0; s < exe->num_slots; s++)
		if (xdev_buf_live(&slots[s]))
			d->ops->free(d, &slots[s], a);
	return st;
}

TEST_F_TIMEOUT(xrt, evaluator_case_programs_give_the_hosts_values, 300)
{
	const struct cc_options o = { .no_folding = true };
	size_t len = 0;
	char *text = test_slurp(EVAL_CASES, &len), *p = text;
	struct xdev *host = NULL, *gpu = NULL;
	int ran = 0, differ = 0, same_bits = 0;
	struct test_case c;

	NEED_GPU();
	/* a module per case is minutes on the CPU stand-in; test_cuda_emu runs these kernels */
	if (getenv("XRT_CUDA_LOAD_SOURCE"))
		SKIP(free(text); return, "the CPU stand-in for the driver: test_cuda_emu covers these");
	ASSERT_NE(NULL, text);
	ASSERT_OK(xdev_open("host:0", self->a, &host));
	ASSERT_OK(xdev_open("cuda:0", self->a, &gpu));
	while (test_case_next(&p, &c)) {
		xrt_literal *want[64] = { NULL }, *got[64] = { NULL };
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;
		uint32_t nw = 0, ng = 0, i;
		bool all_same = true;
		char why[512] = "";

		ASSERT_OK(xrt_hlo_parse(self->a, c.module, strlen(c.module), &m));
		if (cc_compile(m, &o, self->a, &exe)) {
			xrt_module_destroy(m);
			continue;	/* test_compile says why */
		}
		ASSERT_OK(leaves_on(host, exe, self->a, want, &nw));
		{
			xrt_status *st = leaves_on(gpu, exe, self->a, got, &ng);

			EXPECT_EQ(NULL, st) TH_LOG("%s: %s", c.name, xrt_status_message(st));
			xrt_status_free(st);
		}
		for (i = 0; i < nw && i < ng; i++) {
			bool ok = c.exact ? xrt_literal_equal(want[i], got[i], why, sizeof(why)) :
					    xrt_literal_near(want[i], got[i], &c.tol, why, sizeof(why));

			all_same &= xrt_literal_equal(want[i], got[i], NULL, 0);
			if (!ok) {
				TH_LOG("%s: leaf %u: %s", c.name, i, why);
				differ++;
			}
		}
		same_bits += all_same;
		for (i = 0; i < 64; i++) {
			xrt_literal_destroy(want[i]);
			xrt_literal_destroy(got[i]);
		}
		xexe_destroy(exe);
		xrt_module_destroy(m);
		ran++;
	}
	fprintf(stderr, "# %d evaluator cases on cuda:0, %d differ, %d bit-identical to host:0\n",
		ran, differ, same_bits);
	EXPECT_EQ(0, differ);
	EXPECT_LT(600, ran);
	xdev_unref(gpu);
	xdev_unref(host);
	free(text);
}

static const char dot_text[] =
	"HloModule d\n"
	"ENTRY %main (a: f32[67,301], b: f32[301,129]) -> f32[67,129] {\n"
	"  %a = f32[67,301] parameter(0)\n  %b = f32[301,129] parameter(1)\n"
	"  ROOT %d = f32[67,129] dot(%a, %b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
	"}\n";

/* The exact DOT kernel adds products in the format's order without FMA. */
TEST_F(xrt, dot_without_cublas_gives_the_engines_bits)
{
	struct xrt_session_options ho = { "host:0", 0, true }, go = { "cuda:0", 0, true };
	xrt_literal *args[2] = { NULL }, *want = NULL, *got = NULL;
	xrt_session *h = NULL, *g = NULL;
	xrt_module *m = NULL;
	uint64_t state = 3;
	char why[512] = "";
	int i;

	NEED_GPU();
	ASSERT_OK(xrt_hlo_parse(self->a, dot_text, strlen(dot_text), &m));
	for (i = 0; i < 2; i++) {
		ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, i), &args[i]));
		test_fill_random(args[i], &state);
	}
	ASSERT_OK(xrt_session_create(&ho, self->a, &h));
	ASSERT_OK(xrt_session_create(&go, self->a, &g));
	ASSERT_OK(test_run_module(h, m, args, 2, &want));
	ASSERT_OK(test_run_module(g, m, args, 2, &got));
	EXPECT_TRUE(xrt_literal_equal(want, got, why, sizeof(why))) TH_LOG("%s", why);
	xrt_literal_destroy(want);
	xrt_literal_destroy(got);
	for (i = 0; i < 2; i++)
		xrt_literal_destroy(args[i]);
	xrt_session_destroy(h);
	xrt_session_destroy(g);
	xrt_module_destroy(m);
}

/* Asynchronous runs chain on the GPU; the result moves to the host and back. */
TEST_F(xrt, async_runs_and_transfers)
{
	struct xrt_session_options go = { "cuda:0", 0, false }, ho = { "host:0", 0, false };
	const char *text = "HloModule a\nENTRY %m (x: f32[1000000]) -> f32[1000000] {\n"
			   "  %x = f32[1000000] parameter(0)\n  %c = f32[] constant(2)\n"
			   "  %b = f32[1000000] broadcast(%c), dimensions={}\n"
			   "  ROOT %y = f32[1000000] multiply(%x, %b)\n}\n";
	xrt_handle c = 0, x = 0, y = 0, z = 0, back = 0;
	xrt_session *g = NULL, *h = NULL;
	xrt_event *e1 = NULL, *e2 = NULL;
	float *v = malloc(1000000 * sizeof(float));
	struct xrt_shape sh;
	uint32_t i;

	NEED_GPU();
	ASSERT_NE(NULL, v);
	for (i = 0; i < 1000000; i++)
		v[i] = (float)i;
	ASSERT_OK(xrt_shape_parse(&sh, self->a, "f32[1000000]"));
	ASSERT_OK(xrt_session_create(&go, self->a, &g));
	ASSERT_OK(xrt_session_create(&ho, self->a, &h));
	ASSERT_OK(xrt_compile_hlo(g, text, strlen(text), &c));
	ASSERT_OK(xrt_allocate_data(g, &sh, v, 1000000 * sizeof(float), &x));
	ASSERT_OK(xrt_execute_async(g, c, &x, 1, NULL, &y, &e1));
	ASSERT_OK(xrt_execute_async(g, c, &y, 1, NULL, &z, &e2));
	ASSERT_OK(xrt_event_wait(e2, -1));
	ASSERT_OK(xrt_transfer(g, z, h, &back));
	ASSERT_OK(xrt_read_data(h, back, false, v, 1000000 * sizeof(float)));
	for (i = 0; i < 1000000; i += 999)
		ASSERT_EQ((float)i * 4, v[i]);
	xrt_event_destroy(e1);
	xrt_event_destroy(e2);
	xrt_shape_deinit(&sh);
	xrt_session_destroy(g);
	xrt_session_destroy(h);
	free(v);
}

TEST_F(xrt, a_session_limit_is_kept_on_the_gpu)
{
	struct xrt_session_options go = { "cuda:0", 1 << 20, false };
	xrt_session *g = NULL;
	struct xrt_shape sh;
	xrt_handle h = 0;

	NEED_GPU();
	ASSERT_OK(xrt_shape_parse(&sh, self->a, "f32[1000000]"));
	ASSERT_OK(xrt_session_create(&go, self->a, &g));
	ASSERT_ERR(xrt_allocate_uninitialized(g, &sh, &h), XRT_RESOURCE_EXHAUSTED, "limit");
	xrt_shape_deinit(&sh);
	xrt_session_destroy(g);
}

/* Device memory of @n f32 from @v. */
static void put(struct __test_metadata *_metadata, struct xdev *d, const struct xrt_allocator *a,
		const float *v, size_t n, struct xdev_buf *b)
{
	ASSERT_OK(d->ops->alloc(d, n * sizeof(float), a, b));
	ASSERT_OK(xdev_write(d, b, 0, v, n * sizeof(float), a));
}

/*
 * NCCL with one rank (cuda:0): each kind of COLLECTIVE, through the
 * communicator the cuda device makes, gives what a group of one gives:
 * the operands back, a permute from nobody zeros.
 */
TEST_F(xrt, nccl_of_one_rank_performs_every_collective)
{
	static const uint32_t kinds[] = { XRT_CS_COLL_ALL_REDUCE, XRT_CS_COLL_ALL_GATHER,
					  XRT_CS_COLL_REDUCE_SCATTER, XRT_CS_COLL_ALL_TO_ALL,
					  XRT_CS_COLL_BROADCAST, XRT_CS_COLL_PERMUTE,
					  XRT_CS_COLL_PERMUTE };
	static const unsigned long long dims[2] = { 2, 4 };
	static const float x[8] = { 1, -2, 3.5f, 4, 5, 6, -7, 8.25f };
	static const uint32_t members[1] = { 0 };
	const int32_t self_source[1] = { 0 }, none[1] = { -1 };
	struct xdev *d = NULL;
	struct xdev_comm *comm = NULL;
	struct xdev_buf in, out;
	float got[8];
	size_t k, i;

	NEED_GPU();
	ASSERT_OK(xdev_open("cuda:0", self->a, &d));
	ASSERT_TRUE(d->ops->comm_create != NULL);
	ASSERT_OK(d->ops->comm_create(&d, 1, NULL, self->a, &comm));
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct xrt_cs_collective cmd = { .kind = kinds[k], .dim = 1, .num_in = 1,
						 .num_out = 1 };
		bool nobody = k == 6;
		struct xdev_coll_array ai, ao;
		struct xdev_collective op = { &cmd, &ai, &ao, members, 1, 0, nobody ? -1 : 0,
					      nobody ? none : self_source, 7, "the test", NULL };

		if (kinds[k] == XRT_CS_COLL_ALL_REDUCE || kinds[k] == XRT_CS_COLL_REDUCE_SCATTER)
			cmd.op = XRT_CS_RED_SUM;
		if (kinds[k] != XRT_CS_COLL_ALL_GATHER && kinds[k] != XRT_CS_COLL_REDUCE_SCATTER &&
		    kinds[k] != XRT_CS_COLL_ALL_TO_ALL)
			cmd.dim = 0;
		put(_metadata, d, self->a, x, 8, &in);
		put(_metadata, d, self->a, (const float[8]){ 9, 9, 9, 9, 9, 9, 9, 9 }, 8, &out);
		ai = (struct xdev_coll_array){ (uint8_t *)(uintptr_t)in.addr, XRT_CS_F32, 2, dims };
		ao = (struct xdev_coll_array){ (uint8_t *)(uintptr_t)out.addr, XRT_CS_F32, 2, dims };
		ASSERT_OK(comm->ops->run(comm, 0, &op, NULL));
		ASSERT_OK(xdev_read(d, &out, 0, got, sizeof(got), self->a));
		for (i = 0; i < 8; i++)
			EXPECT_EQ(nobody ? 0.0f : x[i], got[i]) TH_LOG("kind %u at %zu", kinds[k], i);
		d->ops->free(d, &in, self->a);
		d->ops->free(d, &out, self->a);
	}
	comm->ops->finish(comm, 0, false);
	comm->ops->destroy(comm);
	xdev_unref(d);
}

TEST_HARNESS_MAIN
