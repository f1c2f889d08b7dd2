// SPDX-License-Identifier: MIT
/*
 * Modules large in what an input controls: a chain of 200,000
 * instructions and tuples of 100,000 leaves, through parse, the wire
 * form, verify, compile and run, on the host and through the XRT API
 * (with the tuple donated).  Each must work, with the right values; the
 * costs (linear, not quadratic) are measured by tools/xrt-bench's scale
 * rows, not asserted here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "compiler/compiler.h"
#include "device/host/host_device.h"

#define CHAIN	200000
#define LEAVES	100000

/* Text that grows as it is printed into. */
struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->cap - t->len < 256) {
		t->cap = t->cap ? 2 * t->cap : 1 << 20;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			abort();
	}
	va_start(ap, fmt);
	n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* x0 = parameter; x_i = abs(x_{i-1}) every third, negate otherwise. */
static struct text chain_text(void)
{
	struct text t = { NULL, 0, 0 };
	int i;

	put(&t, "HloModule chain\nENTRY e {\n  x0 = f32[3] parameter(0)\n");
	for (i = 1; i < CHAIN; i++)
		put(&t, "  %sx%d = f32[3] %s(x%d)\n", i == CHAIN - 1 ? "ROOT " : "", i,
		    i % 3 ? "negate" : "abs", i - 1);
	put(&t, "}\n");
	return t;
}

/* (x, -x, x, -x, ...) of LEAVES scalars. */
static struct text wide_text(void)
{
	struct text t = { NULL, 0, 0 };
	int i;

	put(&t, "HloModule wide\nENTRY e {\n  x = f32[] parameter(0)\n  n = f32[] negate(x)\n"
	    "  ROOT r = (");
	for (i = 0; i < LEAVES; i++)
		put(&t, "%sf32[]", i ? ", " : "");
	put(&t, ") tuple(");
	for (i = 0; i < LEAVES; i++)
		put(&t, "%s%s", i ? ", " : "", i % 2 ? "n" : "x");
	put(&t, ")\n}\n");
	return t;
}

/* A parameter of LEAVES scalars, each passed through get-tuple-element. */
static struct text pass_text(void)
{
	struct text t = { NULL, 0, 0 };
	int i;

	put(&t, "HloModule pass\nENTRY e {\n  p = (");
	for (i = 0; i < LEAVES; i++)
		put(&t, "%sf32[]", i ? ", " : "");
	put(&t, ") parameter(0)\n");
	for (i = 0; i < LEAVES; i++)
		put(&t, "  g%d = f32[] get-tuple-element(p), index=%d\n", i, i);
	put(&t, "  ROOT r = (");
	for (i = 0; i < LEAVES; i++)
		put(&t, "%sf32[]", i ? ", " : "");
	put(&t, ") tuple(");
	for (i = 0; i < LEAVES; i++)
		put(&t, "%sg%d", i ? ", " : "", i);
	put(&t, ")\n}\n");
	return t;
}

static xrt_literal *scalars(const struct xrt_allocator *a, uint32_t rank, const float *v)
{
	struct xrt_shape s;
	xrt_literal *lit = NULL;
	int64_t dims[1] = { 3 };

	if (xrt_shape_init_array(&s, XRT_F32, rank, dims) ||
	    xrt_literal_create_from(a, &s, v, rank ? 12 : 4, &lit))
		return NULL;
	return lit;
}

TEST_F(xrt, a_chain_of_200000_parses_serializes_compiles_and_runs)
{
	static const float x[3] = { 1.5f, -2.0f, 0.25f };
	struct text t = chain_text();
	struct xrt_executable *exe = NULL;
	xrt_module *m = NULL, *m2 = NULL;
	xrt_literal *arg = scalars(self->a, 1, x), *want = NULL, *got = NULL;
	const float *r;
	void *bytes = NULL;
	size_t size = 0;
	char why[256];
	int i, neg;

	ASSERT_NE(NULL, arg);
	ASSERT_OK(xrt_hlo_parse(self->a, t.s, t.len, &m));
	free(t.s);
	ASSERT_OK(xrt_module_serialize(m, self->a, &bytes, &size));
	ASSERT_OK(xrt_module_deserialize(self->a, bytes, size, &m2));
	xrt_free(self->a, bytes);
	ASSERT_OK(cc_compile(m2, NULL, self->a, &exe));
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)&arg, 1, NULL, self->a, &got));
	ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)&arg, 1, NULL, self->a, &want));
	EXPECT_TRUE(xrt_literal_equal(want, got, why, sizeof(why))) TH_LOG("%s", why);
	/* by hand: the last abs is at 199998 (a multiple of 3); one negate follows */
	for (i = CHAIN - 1, neg = 0; i % 3; i--)
		neg ^= 1;
	r = xrt_literal_data(got);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(neg ? -__builtin_fabsf(x[i]) : __builtin_fabsf(x[i]), r[i]);
	xrt_literal_destroy(arg);
	xrt_literal_destroy(want);
	xrt_literal_destroy(got);
	xexe_destroy(exe);
	xrt_module_destroy(m);
	xrt_module_destroy(m2);
}

TEST_F(xrt, a_tuple_of_100000_leaves_compiles_and_runs)
{
	static const float x = 3.5f;
	struct text t = wide_text();
	struct xrt_executable *exe = NULL;
	xrt_literal *arg = scalars(self->a, 0, &x), *got = NULL;
	xrt_module *m = NULL;
	uint32_t i;

	ASSERT_NE(NULL, arg);
	ASSERT_OK(xrt_hlo_parse(self->a, t.s, t.len, &m));
	free(t.s);
	ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)&arg, 1, NULL, self->a, &got));
	ASSERT_EQ(LEAVES, xrt_literal_tuple_count(got));
	for (i = 0; i < LEAVES; i++)
		ASSERT_EQ(i % 2 ? -x : x,
			  *(const float *)xrt_literal_data(xrt_literal_element(got, i)));
	xrt_literal_destroy(arg);
	xrt_literal_destroy(got);
	xexe_destroy(exe);
	xrt_module_destroy(m);
}

/* Through the XRT API, the tuple argument released: every leaf donated. */
TEST_F(xrt, a_donated_tuple_of_100000_leaves_through_the_api)
{
	const struct xrt_execution_config cfg = { 0, 0, true, false };
	struct text t = pass_text();
	xrt_literal **leaves = calloc(LEAVES, sizeof(*leaves)), *tuple = NULL, *got = NULL;
	xrt_handle c, h, r;
	xrt_session *s = NULL;
	uint32_t i;

	ASSERT_NE(NULL, leaves);
	for (i = 0; i < LEAVES; i++) {
		float v = (float)i;

		leaves[i] = scalars(NULL, 0, &v);
		ASSERT_NE(NULL, leaves[i]);
	}
	ASSERT_OK(xrt_literal_make_tuple(NULL, leaves, LEAVES, &tuple));
	free(leaves);
	ASSERT_OK(xrt_session_create(NULL, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, t.s, t.len, &c));
	free(t.s);
	ASSERT_OK(xrt_allocate(s, tuple, &h));
	ASSERT_OK(xrt_execute(s, c, &h, 1, &cfg, &r));
	ASSERT_OK(xrt_read_literal(s, r, true, &got));
	for (i = 0; i < LEAVES; i++)
		ASSERT_EQ((float)i, *(const float *)xrt_literal_data(xrt_literal_element(got, i)));
	xrt_literal_destroy(tuple);
	xrt_literal_destroy(got);
	xrt_session_destroy(s);
}

TEST_HARNESS_MAIN
