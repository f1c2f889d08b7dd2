// SPDX-License-Identifier: MIT
/*
 * The CUDA driver's translation, checked without a GPU: every program the
 * compiler makes from the corpus (fused and unfused) and from the
 * evaluator's cases (constants not folded) becomes CUDA that NVRTC
 * compiles for the H200's architecture (sm_90).  Also the disk cache of
 * compiled modules.  Skipped where
 * NVRTC does not load (it is part of the CUDA toolkit, not the driver).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xrt_test.h"

#include <xrt/ir.h>

#include "compiler/compiler.h"
#include "device/cuda/cuda_api.h"
#include "device/cuda/cuda_compile.h"
#include "device/cuda/cuda_gen.h"
#include "test_cases.h"

/* Programs per NVRTC unit: the units stay small enough to name a culprit. */
#define BATCH	48

struct batch {
	char *text;
	size_t len, cap;
	int programs, kernels, total_programs, total_kernels, units;
	char names[BATCH][300];
};

static void append(struct batch *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->text = realloc(b->text, b->cap);
	}
	memcpy(b->text + b->len, s, n);
	b->len += n;
	b->text[b->len] = '\0';
}

static void flush(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		  struct batch *b)
{
	const struct cuda_api *cu = cuda_api_get();
	void *ptx = NULL;
	size_t n = 0;
	xrt_status *st;
	int i;

	if (!b->programs)
		return;
	st = cuda_compile(cu, b->text, 9, 0, false, a, &ptx, &n);
	for (i = 0; st && i < b->programs; i++)
		TH_LOG("in this unit: %s", b->names[i]);
	EXPECT_EQ(NULL, st) TH_LOG("%s", xrt_status_message(st));
	if (st) {
		xrt_status_free(st);
	} else {
		EXPECT_NE(NULL, strstr(ptx, ".entry"));
	}
	xrt_free(a, ptx);
	b->total_programs += b->programs;
	b->total_kernels += b->kernels;
	b->units++;
	b->programs = b->kernels = 0;
	b->len = 0;
}

/* The plan of @exe, added to the batch under a prefix of its own. */
static void add(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		struct batch *b, const char *name, const struct xrt_executable *exe)
{
	const struct xdev_program *lp;
	struct cuda_plan plan;
	char prefix[32];
	xrt_status *st;
	uint32_t i;

	snprintf(prefix, sizeof(prefix), "p%d_", b->programs);
	st = xdev_program_of(exe, &lp);
	if (!st)
		st = cuda_plan_build(&lp->prog, prefix, a, &plan);
	if (st)
		TH_LOG("%s: %s", name, xrt_status_message(st));
	ASSERT_EQ(NULL, st);
	append(b, plan.source, plan.source_len);
	for (i = 0; i < plan.num_steps; i++)
		b->kernels += (plan.steps[i].kernel[0].threads > 0) +
			      (plan.steps[i].kernel[1].threads > 0);
	snprintf(b->names[b->programs++], sizeof(b->names[0]), "%s", name);
	cuda_plan_release(&plan);
	if (b->programs == BATCH)
		flush(_metadata, a, b);
}

static const char *nvrtc_why;

#define NEED_NVRTC()                                                          \
	do {                                                                  \
		if (!cuda_api_nvrtc(&nvrtc_why)->have_nvrtc)               \
			SKIP(return, "%s", nvrtc_why);                        \
	} while (0)

TEST_F_TIMEOUT(xrt, corpus_programs_compile_for_sm_90, 300)
{
	const struct cc_options fused = { false }, unfused = { true };
	struct test_corpus c = { 0 };
	struct batch b = { 0 };

	NEED_NVRTC();
	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;
		char name[300];
		int pass;

		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m));
		for (pass = 0; pass < 2; pass++) {
			xrt_status *st = cc_compile(m, pass ? &unfused : &fused, self->a, &exe);

			if (st || exe->num_calls) {	/* not lowered yet, or host code */
				xrt_status_free(st);
				xexe_destroy(exe);
				continue;
			}
			snprintf(name, sizeof(name), "%s%s", c.name, pass ? " (unfused)" : "");
			add(_metadata, self->a, &b, name, exe);
			xexe_destroy(exe);
		}
		xrt_module_destroy(m);
	}
	flush(_metadata, self->a, &b);
	fprintf(stderr, "# %d programs, %d kernels, %d NVRTC units\n", b.total_programs,
		b.total_kernels, b.units);
	EXPECT_GE(b.total_programs, 100);
	free(b.text);
}

TEST_F_TIMEOUT(xrt, evaluator_case_programs_compile_for_sm_90, 300)
{
	const struct cc_options o = { .no_folding = true };
	size_t len = 0;
	char *text = test_slurp(EVAL_CASES, &len), *p = text;
	struct batch b = { 0 };
	struct test_case c;

	NEED_NVRTC();
	ASSERT_NE(NULL, text);
	while (test_case_next(&p, &c)) {
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;
		xrt_status *st;

		ASSERT_OK(xrt_hlo_parse(self->a, c.module, strlen(c.module), &m));
		st = cc_compile(m, &o, self->a, &exe);
		if (!st) {
			add(_metadata, self->a, &b, c.name, exe);
			xexe_destroy(exe);
		}
		xrt_status_free(st);
		xrt_module_destroy(m);
	}
	flush(_metadata, self->a, &b);
	fprintf(stderr, "# %d programs, %d kernels, %d NVRTC units\n", b.total_programs,
		b.total_kernels, b.units);
	EXPECT_GE(b.total_programs, 600);
	free(b.text);
	free(text);
}
/* A cubin is written to the cache once and read back after, the same bytes. */
TEST_F(xrt, cubins_are_cached_on_disk)
{
	static const char src[] = "extern \"C\" __global__ void k0(float *p) { p[0] = 1; }\n";
	char dir[] = "/tmp/xrt-cuda-cache-XXXXXX", cmd[128];
	void *first = NULL, *again = NULL;
	size_t n1 = 0, n2 = 0, files = 0;
	FILE *f;

	NEED_NVRTC();
	ASSERT_NE(NULL, mkdtemp(dir));
	setenv("XRT_CUDA_CACHE", dir, 1);
	ASSERT_OK(cuda_compile(cuda_api_get(), src, 9, 0, true, self->a, &first, &n1));
	snprintf(cmd, sizeof(cmd), "ls %s | grep -c '\\.cubin$'", dir);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fscanf(f, "%zu", &files));
	pclose(f);
	EXPECT_EQ(1u, files);
	ASSERT_OK(cuda_compile(cuda_api_get(), src, 9, 0, true, self->a, &again, &n2));
	ASSERT_EQ(n1, n2);
	EXPECT_EQ(0, memcmp(first, again, n1));
	/* off: nothing more written, still compiled */
	setenv("XRT_CUDA_CACHE", "off", 1);
	xrt_free(self->a, again);
	ASSERT_OK(cuda_compile(cuda_api_get(), src, 9, 0, true, self->a, &again, &n2));
	unsetenv("XRT_CUDA_CACHE");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
	xrt_free(self->a, first);
	xrt_free(self->a, again);
}

/* NVRTC's complaint comes back whole, as an INTERNAL error. */
TEST_F(xrt, a_bad_source_is_an_internal_error_with_the_log)
{
	void *out = NULL;
	size_t n = 0;

	NEED_NVRTC();
	ASSERT_ERR(cuda_compile(cuda_api_get(), "this is not CUDA;\n", 9, 0, false, self->a, &out,
				&n), XRT_INTERNAL, "NVRTC");
	EXPECT_EQ(NULL, out);
}

TEST_HARNESS_MAIN
