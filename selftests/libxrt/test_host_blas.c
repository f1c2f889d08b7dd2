// SPDX-License-Identifier: MIT
/*
 * The host device's DOT through OpenBLAS (and, where it takes them, its
 * own AVX-512 kernel: test_host_gemm.c): results against the evaluator
 * (products, and a convolution whose kernel positions after the first
 * add to the output), the same bits on any thread count, and
 * OpenBLAS's packing buffers advised onto huge pages before the first
 * product (Documentation/compiler.rst).
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
#include "test_thp.h"

/* large enough for OpenBLAS, small enough for the evaluator under ASan */
static const char product[] =
	"HloModule m\nENTRY e {\n  x = f32[64,128] parameter(0)\n"
	"  w = f32[128,96] parameter(1)\n"
	"  ROOT d = f32[64,96] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";

/* its lhs read transposed: OpenBLAS's, never the host's AVX-512 kernel */
static const char transposed_product[] =
	"HloModule m\nENTRY e {\n  x = f32[128,64] parameter(0)\n"
	"  w = f32[128,96] parameter(1)\n"
	"  ROOT d = f32[64,96] dot(x, w), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n";

/* 9 kernel positions: one DOT of 128x48x40 each, the last 8 accumulating */
static const char conv_layer[] =
	"HloModule m\nENTRY e {\n  x = f32[2,10,10,40] parameter(0)\n"
	"  w = f32[3,3,40,48] parameter(1)\n"
	"  ROOT c = f32[2,8,8,48] convolution(x, w), window={size=3x3}, "
	"dim_labels=b01f_01io->b01f\n}\n";

/* A two-parameter module compiled for the host, with seeded random arguments. */
struct product {
	xrt_module *m;
	struct xrt_executable *exe;
	xrt_literal *args[2];
};

static void product_open(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			 const char *text, uint64_t seed, struct product *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	ASSERT_OK(xrt_hlo_parse(a, text, strlen(text), &p->m));
	ASSERT_OK(cc_compile(p->m, NULL, a, &p->exe));
	for (i = 0; i < 2; i++) {
		ASSERT_OK(xrt_literal_create(a, xrt_module_param_shape(p->m, i), &p->args[i]));
		test_fill_random(p->args[i], &seed);
	}
}

static void product_close(struct product *p)
{
	int i;

	for (i = 0; i < 2; i++)
		xrt_literal_destroy(p->args[i]);
	xexe_destroy(p->exe);
	xrt_module_destroy(p->m);
}

/* Runs @text on seeded inputs with OpenBLAS and without; both against the evaluator. */
static void against_evaluator(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			      const char *text)
{
	/* up to 360 f32 products of either sign, against the evaluator's doubles */
	const struct xrt_tolerance tol = { 1e-4, 1e-4 };
	const struct host_run_options own = { 0, NULL, true };
	xrt_literal *want = NULL, *blas = NULL, *engine = NULL;
	struct product p;
	char why[512];

	product_open(_metadata, a, text, 5, &p);
	ASSERT_OK(host_run(p.exe, (const xrt_literal *const *)p.args, 2, NULL, a, &blas));
	ASSERT_OK(host_run(p.exe, (const xrt_literal *const *)p.args, 2, &own, a, &engine));
	ASSERT_OK(xrt_ir_evaluate(p.m, (const xrt_literal *const *)p.args, 2, NULL, a, &want));
	EXPECT_TRUE(xrt_literal_near(want, blas, &tol, why, sizeof(why))) TH_LOG("BLAS: %s", why);
	EXPECT_TRUE(xrt_literal_near(want, engine, &tol, why, sizeof(why)))
		TH_LOG("engine: %s", why);
	xrt_literal_destroy(want);
	xrt_literal_destroy(blas);
	xrt_literal_destroy(engine);
	product_close(&p);
}

TEST_F(xrt, products_and_accumulating_products)
{
	against_evaluator(_metadata, self->a, product);
	against_evaluator(_metadata, self->a, transposed_product);
	against_evaluator(_metadata, self->a, conv_layer);
}

/*
 * The bits do not follow the thread count (tiles that did failed here,
 * on the f64 case), and the tiles land where they belong: each product
 * against the engine's own.  k over OpenBLAS's depth blocks, m and n no
 * tile divides, the lhs transposed, f32 and f64; the last one, its rhs
 * transposed, is cut in columns on any machine of two cores or more (n is
 * its longer side).
 */
static const char *const tiled[] = {
	"HloModule m\nENTRY e {\n  x = f32[300,1000] parameter(0)\n"
	"  w = f32[1000,700] parameter(1)\n"
	"  ROOT d = f32[300,700] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
	"HloModule m\nENTRY e {\n  x = f64[777,260] parameter(0)\n"
	"  w = f64[777,333] parameter(1)\n"
	"  ROOT d = f64[260,333] dot(x, w), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n",
	"HloModule m\nENTRY e {\n  x = f32[300,64] parameter(0)\n"
	"  w = f32[1100,64] parameter(1)\n"
	"  ROOT d = f32[300,1100] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
};

TEST_F(xrt, any_thread_count_gives_the_same_bits)
{
	/* up to 1000 products of either sign, summed in other orders */
	const struct xrt_tolerance tol = { 1e-4, 1e-4 };
	const struct host_run_options own = { 0, NULL, true };
	size_t c;

	for (c = 0; c < sizeof(tiled) / sizeof(tiled[0]); c++) {
		xrt_literal *one = NULL, *many = NULL, *engine = NULL;
		struct host_pool *pool = NULL;
		struct product p;
		char why[512];
		uint32_t t;

		product_open(_metadata, self->a, tiled[c], 11, &p);
		ASSERT_OK(host_run(p.exe, (const xrt_literal *const *)p.args, 2, NULL, self->a,
				   &one));
		ASSERT_OK(host_run(p.exe, (const xrt_literal *const *)p.args, 2, &own, self->a,
				   &engine));
		EXPECT_TRUE(xrt_literal_near(engine, one, &tol, why, sizeof(why)))
			TH_LOG("case %zu against the engine: %s", c, why);
		xrt_literal_destroy(engine);
		for (t = 2; t <= 5; t++) {
			ASSERT_OK(host_pool_create(t, &pool));
			ASSERT_OK(host_run(p.exe, (const xrt_literal *const *)p.args, 2,
					   &(struct host_run_options){ 0, pool, false }, self->a,
					   &many));
			EXPECT_TRUE(xrt_literal_equal(one, many, why, sizeof(why)))
				TH_LOG("case %zu, %u threads: %s", c, t, why);
			xrt_literal_destroy(many);
			host_pool_destroy(pool);
		}
		xrt_literal_destroy(one);
		product_close(&p);
	}
}

TEST_F(xrt, blas_buffers_on_huge_pages)
{
	void *(*take)(int) = (void *(*)(int))dlsym(RTLD_DEFAULT, "blas_memory_alloc");
	void (*give)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "blas_memory_free");
	char mode[32];
	void *buf;

	if (!take || !give)
		SKIP(return, "libxrt is built without OpenBLAS");
	/* the first product through OpenBLAS advises the buffers */
	against_evaluator(_metadata, self->a, transposed_product);
	test_thp_mode(mode, sizeof(mode));
	buf = take(0);
	ASSERT_NE(NULL, buf);
	if (!strcmp(mode, "madvise") || !strcmp(mode, "always")) {
		EXPECT_EQ(1, test_thp_eligible(buf)) TH_LOG("THP mode %s", mode);
	} else {
		TH_LOG("transparent huge pages are %s here: nothing to check", mode);
	}
	give(buf);
}

TEST_HARNESS_MAIN
