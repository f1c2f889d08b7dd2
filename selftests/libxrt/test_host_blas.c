// SPDX-License-Identifier: MIT
/*
 * The host device's DOT through OpenBLAS: its results against the
 * evaluator, and OpenBLAS's packing buffers advised onto huge pages
 * before the first product (Documentation/devices.rst says why).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xrt_test.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>

#include "compiler/compiler.h"
#include "device/host/host_device.h"
#include "test_cases.h"

static const char mlp_layer[] =
	"HloModule m\nENTRY e {\n  x = f32[64,512] parameter(0)\n"
	"  w = f32[512,512] parameter(1)\n"
	"  ROOT d = f32[64,512] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";

/* The transparent huge page mode in brackets: "always", "madvise" or "never". */
static void thp_mode(char *mode, size_t size)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128], *a, *b;

	snprintf(mode, size, "none");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
		*b = 0;
		snprintf(mode, size, "%s", a + 1);
	}
	fclose(f);
}

/* The THPeligible field of the mapping holding @p, or -1. */
static int thp_eligible(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi, at = (unsigned long)p;
	char line[512];
	int inside = 0, v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			inside = at >= lo && at < hi;
		else if (inside && sscanf(line, "THPeligible: %d", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

TEST_F(xrt, blas_buffers_on_huge_pages)
{
	void *(*take)(int) = (void *(*)(int))dlsym(RTLD_DEFAULT, "blas_memory_alloc");
	void (*give)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "blas_memory_free");
	/* 512 f32 products of either sign, against the evaluator's doubles */
	const struct xrt_tolerance tol = { 1e-4, 1e-4 };
	xrt_literal *args[2] = { NULL }, *want = NULL, *got = NULL;
	struct xrt_executable *exe = NULL;
	xrt_module *m = NULL;
	uint64_t state = 5;
	char mode[32], why[512];
	void *buf;
	int i;

	if (!take || !give)
		SKIP(return, "libxrt is built without OpenBLAS");
	ASSERT_OK(xrt_hlo_parse(self->a, mlp_layer, strlen(mlp_layer), &m));
	ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
	for (i = 0; i < 2; i++) {
		ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, i), &args[i]));
		test_fill_random(args[i], &state);
	}
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)args, 2, NULL, self->a, &got));
	ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, 2, NULL, self->a, &want));
	EXPECT_TRUE(xrt_literal_near(want, got, &tol, why, sizeof(why))) TH_LOG("%s", why);
	thp_mode(mode, sizeof(mode));
	buf = take(0);
	ASSERT_NE(NULL, buf);
	if (!strcmp(mode, "madvise") || !strcmp(mode, "always")) {
		EXPECT_EQ(1, thp_eligible(buf)) TH_LOG("THP mode %s", mode);
	} else {
		TH_LOG("transparent huge pages are %s here: nothing to check", mode);
	}
	give(buf);
	for (i = 0; i < 2; i++)
		xrt_literal_destroy(args[i]);
	xrt_literal_destroy(want);
	xrt_literal_destroy(got);
	cc_executable_destroy(exe);
	xrt_module_destroy(m);
}

TEST_HARNESS_MAIN
