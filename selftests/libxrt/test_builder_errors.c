// SPDX-License-Identifier: MIT
/*
 * The C builder by hand: a small module prints exactly as written; each
 * bad call fails there, with a message naming the function, the
 * computation and what is wrong, and the builder then refuses further
 * work without leaking; running out of memory anywhere fails cleanly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/builder.h>
#include <xrt/ir.h>

static const char expected_text[] =
	"HloModule sums\n"
	"\n"
	"%add (a: f32[], b: f32[]) -> f32[] {\n"
	"  %a = f32[] parameter(0)\n"
	"  %b = f32[] parameter(1)\n"
	"  ROOT %add.0 = f32[] add(%a, %b)\n"
	"}\n"
	"\n"
	"ENTRY %main (x: f32[2,3]{1,0}, w: f32[3,4]{1,0}) -> (f32[2]{0}, f32[2,4]{1,0}) {\n"
	"  %x = f32[2,3]{1,0} parameter(0)\n"
	"  %w = f32[3,4]{1,0} parameter(1)\n"
	"  %multiply.1 = f32[2,3]{1,0} multiply(%x, %x)\n"
	"  %constant.2 = f32[] constant(0)\n"
	"  %reduce.3 = f32[2]{0} reduce(%multiply.1, %constant.2), dimensions={1}, to_apply=%add\n"
	"  %dot.4 = f32[2,4]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
	"  ROOT %tuple.5 = (f32[2]{0}, f32[2,4]{1,0}) tuple(%reduce.3, %dot.4)\n"
	"}\n";

/* (sum over rows of x*x, x . w), built by hand. */
static xrt_status *build_sums(const struct xrt_allocator *a, xrt_module **out)
{
	static const int64_t one = 1, zero = 0;
	struct xrt_dot_dims dd = { NULL, NULL, 0, &one, &zero, 1 };
	struct xrt_shape sx, sw, scalar;
	xrt_value x, w, p, r, t[2];
	xrt_literal *lit = NULL;
	xrt_builder *b = NULL;
	xrt_status *st;
	xrt_comp add;
	float z = 0;

	xrt_shape_init_array(&sx, XRT_F32, 2, (int64_t[]){ 2, 3 });
	xrt_shape_init_array(&sw, XRT_F32, 2, (int64_t[]){ 3, 4 });
	xrt_shape_init_array(&scalar, XRT_F32, 0, NULL);
	st = xrt_literal_create_from(a, &scalar, &z, sizeof(z), &lit);
	if (!st)
		st = xrt_builder_create(a, "sums", "main", &b);
	if (st) {
		xrt_literal_destroy(lit);
		return st;
	}
	x = xrt_build_parameter(b, 0, &sx, "x");
	w = xrt_build_parameter(b, 1, &sw, "w");
	xrt_builder_begin(b, "add");
	p = xrt_build_parameter(b, 0, &scalar, "a");
	r = xrt_build_parameter(b, 1, &scalar, "b");
	add = xrt_builder_end(b, xrt_build_binary(b, XRT_OP_ADD, p, r));
	p = xrt_build_binary(b, XRT_OP_MULTIPLY, x, x);
	r = xrt_build_constant(b, lit);
	t[0] = xrt_build_reduce(b, &p, &r, 1, add, &one, 1);
	t[1] = xrt_build_dot(b, x, w, &dd, XRT_INVALID);
	st = xrt_builder_build(b, xrt_build_tuple(b, t, 2), out);
	xrt_builder_destroy(b);
	xrt_literal_destroy(lit);
	return st;
}

TEST_F(xrt, hand_built_module_prints_as_written)
{
	xrt_module *m = NULL;
	char *text = NULL;
	size_t len = 0;

	ASSERT_OK(build_sums(self->a, &m));
	ASSERT_OK(xrt_module_verify(m));
	ASSERT_OK(xrt_hlo_print(m, self->a, &text, &len));
	EXPECT_STREQ(expected_text, text);
	xrt_free(self->a, text);
	xrt_module_destroy(m);
}

TEST_F(xrt, allocation_failures_fail_cleanly)
{
	long n, ok = 0;

	for (n = 1; n < 2000 && !ok; n++) {
		xrt_module *m = NULL;
		xrt_status *st;

		test_alloc_fail_at(&self->ta, n);
		self->ta.failed = false;
		st = build_sums(self->a, &m);
		if (!self->ta.failed) {
			ASSERT_OK(st);
			ok = n;
		} else {
			ASSERT_EQ(XRT_RESOURCE_EXHAUSTED, xrt_status_code(st))
				TH_LOG("allocation %ld: %s", n, xrt_status_message(st));
			xrt_status_free(st);
			ASSERT_EQ(NULL, m);
		}
		xrt_module_destroy(m);
		test_alloc_fail_at(&self->ta, 0);
		ASSERT_EQ(0, self->ta.live) TH_LOG("allocation %ld leaked", n);
	}
	ASSERT_GT(ok, 20);
}

/* What every bad call starts from. */
struct prelude {
	xrt_builder *b;
	struct xrt_shape sx, su, s64, scalar;
	xrt_value x, w, i, p, u, zero, inner;
	xrt_comp add, lt, neg;
	xrt_literal *lit;
};

static xrt_comp scalar_fn(struct prelude *P, const char *name, int kind)
{
	struct xrt_shape t;
	xrt_value a, b;

	xrt_builder_begin(P->b, name);
	a = xrt_build_parameter(P->b, 0, &P->scalar, "a");
	if (kind == 1)
		return xrt_builder_end(P->b, xrt_build_unary(P->b, XRT_OP_NEGATE, a));
	b = xrt_build_parameter(P->b, 1, &P->scalar, "b");
	P->inner = b;
	if (kind == 2)
		return xrt_builder_end(P->b, xrt_build_compare(P->b, a, b, XRT_CMP_LT,
							       XRT_CMP_DEFAULT));
	(void)t;
	return xrt_builder_end(P->b, xrt_build_binary(P->b, XRT_OP_ADD, a, b));
}

static xrt_status *prelude_init(struct prelude *P, const struct xrt_allocator *a)
{
	xrt_shape_init_array(&P->sx, XRT_F32, 2, (int64_t[]){ 2, 3 });
	xrt_shape_init_array(&P->su, XRT_U32, 2, (int64_t[]){ 2, 3 });
	xrt_shape_init_array(&P->s64, XRT_U64, 1, (int64_t[]){ 2 });
	xrt_shape_init_array(&P->scalar, XRT_F32, 0, NULL);
	xrt_status *st = xrt_literal_create(a, &P->scalar, &P->lit);

	if (!st)
		st = xrt_builder_create(a, "bad", "main", &P->b);
	if (st)
		return st;
	P->x = xrt_build_parameter(P->b, 0, &P->sx, "x");
	P->w = xrt_build_parameter(P->b, 1, &(struct xrt_shape){ XRT_F32, 2, { 3, 4 }, { 1, 0 } },
				   "w");
	P->i = xrt_build_parameter(P->b, 2, &(struct xrt_shape){ XRT_S32 }, "i");
	P->p = xrt_build_parameter(P->b, 3, &(struct xrt_shape){ XRT_PRED }, "p");
	P->u = xrt_build_parameter(P->b, 4, &P->su, "u");
	P->zero = xrt_build_constant(P->b, P->lit);
	P->add = scalar_fn(P, "add", 0);
	P->neg = scalar_fn(P, "neg", 1);
	P->lt = scalar_fn(P, "lt", 2);
	return xrt_builder_error(P->b) ? xrt_status_new(a, XRT_INTERNAL, "prelude failed") : NULL;
}

#define CASE(n, call, msg)                                                    \
	case n:                                                               \
		*want = msg;                                                  \
		return call

/* Bad call number @k; *want gets what its error must say.  */
static xrt_value bad_call(struct prelude *P, int k, const char **want)
{
	static const int64_t d0[] = { 0 }, d1[] = { 1 }, d2[] = { 2 }, d00[] = { 0, 0 };
	static const int64_t d11[] = { 1, 1 }, d33[] = { 3, 3 }, d32[] = { 3, 2 };
	static const int64_t d01[] = { 0, 1 }, d5[] = { 5 };
	struct xrt_window_dim w0[2] = { { 0, 1, 0, 0, 1, 1, false }, { 1, 1, 0, 0, 1, 1, false } };
	struct xrt_window_dim w1[2] = { { 1, 1, 0, 0, 1, 1, false }, { 1, 1, 0, 0, 1, 1, false } };
	struct xrt_dot_dims dd = { NULL, NULL, 0, d1, d0, 1 };
	struct xrt_gather_dims gd = { d0, 1, d0, 1, d0, 1, 1 };
	struct xrt_shape f7 = { XRT_F32, 1, { 7 }, { 0 } };
	xrt_value xs[2] = { P->x, P->w }, ds[2] = { P->i, P->x };
	xrt_value forged = { P->x.builder ^ 0x5a5a, 0 }, dead = { P->x.builder, 9999 };
	xrt_comp bogus = { P->add.builder, -1 };
	xrt_builder *b = P->b;

	switch (k) {
	CASE(0, xrt_build_binary(b, XRT_OP_ADD, P->x, P->u), "operand 1 is u32, operand 0 is f32");
	CASE(1, xrt_build_binary(b, XRT_OP_ABS, P->x, P->x), "abs (18) is not a binary opcode");
	CASE(2, xrt_build_unary(b, XRT_OP_ADD, P->x), "add (44) is not a unary opcode");
	CASE(3, xrt_build_unary(b, XRT_OP_NOT, P->x), "not does not take f32");
	CASE(4, xrt_build_compare(b, P->x, P->x, 9, XRT_CMP_DEFAULT),
	     "direction 9 or type 0 unknown");
	CASE(5, xrt_build_select(b, P->x, P->x, P->x), "operand 0 is f32, expected pred");
	CASE(6, xrt_build_convert(b, P->x, XRT_TUPLE), "result is not an array");
	CASE(7, xrt_build_get_tuple_element(b, P->x, 0), "operand 0 is not a tuple");
	CASE(8, xrt_build_reshape(b, P->x, 1, d5), "reshape changes the element type or count");
	CASE(9, xrt_build_broadcast(b, P->x, 2, d32, d01),
	     "operand dimension 0 (2) maps to result dimension 0 (3)");
	CASE(10, xrt_build_transpose(b, P->x, d00), "dimension 0 repeated");
	CASE(11, xrt_build_slice(b, P->x, d00, d33, d11),
	     "slice range 0 [0:3:1] does not fit dimension 2");
	CASE(12, xrt_build_slice(b, P->x, NULL, NULL, NULL), "start, limit or stride is NULL");
	CASE(13, xrt_build_dynamic_slice(b, P->x, ds, d11),
	     "operand 2 has rank 2, expected a scalar");
	CASE(14, xrt_build_concatenate(b, xs, 2, 0), "operand 1 dimension 1 differs");
	CASE(15, xrt_build_pad(b, P->x, P->x, d00, d00, d00),
	     "operand 1 has rank 2, expected a scalar");
	CASE(16, xrt_build_reverse(b, P->x, d2, 1),
	     "dimensions: dimension 2 out of range for rank 2");
	CASE(17, xrt_build_reduce(b, &P->x, &P->x, 1, P->add, d1, 1),
	     "operand 1 has rank 2, expected a scalar");
	CASE(18, xrt_build_reduce(b, &P->x, &P->zero, 1, P->neg, d1, 1),
	     "computation 'neg' takes 1 parameters, expected 2");
	CASE(19, xrt_build_reduce_window(b, &P->x, &P->zero, 1, P->add, w0),
	     "window dimension 0 has a size, stride or dilation below 1");
	CASE(20, xrt_build_dot(b, P->x, P->x, &dd, XRT_INVALID),
	     "contracting dimension 0 sizes differ (3, 2)");
	CASE(21, xrt_build_convolution(b, P->x, P->w, w0, "bad", 1, 1, XRT_INVALID),
	     "dim_labels missing or not of rank 2");
	CASE(22, xrt_build_gather(b, P->x, P->i, &gd, d11, false),
	     "index_vector_dim 1 out of range");
	CASE(23, xrt_build_scatter(b, xs, 0, P->i, xs, P->add, NULL, false, false),
	     "0 operands (1 to 8) or NULL arrays");
	CASE(24, xrt_build_sort(b, &P->x, 1, 0, P->add, false),
	     "comparator 'add' does not return pred[]");
	CASE(25, xrt_build_while(b, P->add, P->add, P->x), "'add' takes 2 parameters, expected 1");
	CASE(26, xrt_build_conditional(b, P->i, P->x, P->neg, P->x, P->neg),
	     "predicate is s32, expected pred");
	CASE(27, xrt_build_case(b, P->p, &P->neg, &P->zero, 1),
	     "branch index is pred, expected s32");
	CASE(28, xrt_build_call(b, P->neg, &P->x, 1),
	     "computation 'neg' parameter 0 differs from operand 0");
	CASE(29, xrt_build_map(b, &P->x, 1, P->add), "'add' takes 2 parameters, expected 1");
	CASE(30, xrt_build_rng(b, P->zero, P->x, XRT_RNG_NORMAL, &P->sx),
	     "operand 1 has rank 2, expected a scalar");
	CASE(31, xrt_build_rng_bit_generator(b, P->x, XRT_RNG_PHILOX, &P->su),
	     "state must be u64[n]");
	CASE(32, xrt_build_custom_call(b, NULL, &P->x, 1, &P->sx), "custom_call_target is NULL");
	CASE(33, xrt_build_parameter(b, 0, &P->sx, "again"), "parameter number 0 used twice");
	CASE(34, xrt_build_parameter(b, 9, &P->sx, "add.3"),
	     "names like this one are the builder's own");
	CASE(35, xrt_build_parameter(b, 9, &P->sx, "x"),
	     "instruction 'x' (parameter): the name is taken");
	CASE(36, xrt_build_parameter(b, 9, &P->sx, "1x"), "the name is not an HLO identifier");
	CASE(37, xrt_build_iota(b, &P->sx, 2), "iota_dimension 2 for f32 of rank 2");
	CASE(38, xrt_build_constant(b, NULL), "the literal is NULL");
	CASE(39, xrt_build_unary(b, XRT_OP_NEGATE, forged),
	     "operand 0 is not a value of computation 'main'");
	CASE(40, xrt_build_unary(b, XRT_OP_NEGATE, P->inner),
	     "operand 0 is not a value of computation 'main'");
	CASE(41, xrt_build_tuple(b, &dead, 1), "operand 0 is not a value of computation 'main'");
	CASE(42, xrt_build_call(b, bogus, &P->x, 1),
	     "to_apply: not a computation this builder finished");
	CASE(43, xrt_build_reduce_precision(b, P->x, 0, 1), "exponent_bits 0 (>= 1)");
	CASE(44, xrt_build_bitcast(b, P->x, &f7), "bitcast changes the byte size");
	CASE(45, xrt_build_clamp(b, P->x, P->w, P->x),
	     "operand 0 is neither a scalar nor of operand 1's shape");
	CASE(46, xrt_build_select_and_scatter(b, P->x, P->add, w1, P->x, P->zero, P->add),
	     "comparator 'add' does not return pred[]");
	CASE(47, xrt_build_rng_bit_generator(b, P->x, 7, &P->su), "algorithm 7 unknown");
	CASE(48, xrt_build_iota(b, NULL, 0), "the shape is NULL");
	CASE(49, xrt_build_dot(b, P->x, P->w, NULL, XRT_INVALID), "the dimension numbers is NULL");
	CASE(50, xrt_build_topk(b, P->x, 99, true), "k=99, but rows have");
	CASE(51, xrt_build_topk(b, P->zero, 1, false), "topk of a scalar");
	CASE(52, xrt_build_topk(b, P->x, -1, true), "k=-1, but rows have");
	default:
		*want = NULL;
		return forged;
	}
}

TEST_F(xrt, bad_calls_fail_at_the_call)
{
	const char *want;
	int k;

	for (k = 0;; k++) {
		struct prelude P = { 0 };
		xrt_module *m = NULL;
		xrt_value v;
		char msg[512];

		ASSERT_OK(prelude_init(&P, self->a));
		v = bad_call(&P, k, &want);
		if (!want) {
			xrt_builder_destroy(P.b);
			xrt_literal_destroy(P.lit);
			break;
		}
		EXPECT_GT(0, v.id) TH_LOG("case %d succeeded", k);
		ASSERT_NE(NULL, xrt_builder_error(P.b)) TH_LOG("case %d: no error", k);
		snprintf(msg, sizeof(msg), "%s", xrt_status_message(xrt_builder_error(P.b)));
		EXPECT_EQ(XRT_INVALID_ARGUMENT, xrt_status_code(xrt_builder_error(P.b)));
		EXPECT_NE(NULL, strstr(msg, want)) TH_LOG("case %d: '%s' lacks '%s'", k, msg, want);
		EXPECT_EQ(0, strncmp(msg, "xrt_build", 9)) TH_LOG("case %d: '%s'", k, msg);
		/* Later calls do nothing; build reports the first error. */
		EXPECT_GT(0, xrt_build_unary(P.b, XRT_OP_NEGATE, P.x).id);
		EXPECT_STREQ(msg, xrt_status_message(xrt_builder_error(P.b)));
		ASSERT_ERR(xrt_builder_build(P.b, P.x, &m), XRT_INVALID_ARGUMENT, msg);
		EXPECT_EQ(NULL, m);
		xrt_builder_destroy(P.b);
		xrt_literal_destroy(P.lit);
		ASSERT_EQ(0, self->ta.live) TH_LOG("case %d leaked", k);
	}
	EXPECT_EQ(53, k);
}

TEST_F(xrt, misuse_of_computations_and_build)
{
	struct prelude P = { 0 };
	xrt_module *m = NULL, *m2 = NULL;
	xrt_builder *b = NULL;

	ASSERT_OK(prelude_init(&P, self->a));
	xrt_builder_end(P.b, P.x);
	ASSERT_ERR(xrt_builder_build(P.b, P.x, &m), XRT_INVALID_ARGUMENT,
		   "xrt_builder_end: computation 'main': no sub-computation is open");
	xrt_builder_destroy(P.b);

	ASSERT_OK(xrt_builder_create(self->a, "m", "main", &b));
	xrt_builder_begin(b, "main");
	ASSERT_ERR(xrt_builder_build(b, P.x, &m), XRT_INVALID_ARGUMENT,
		   "xrt_builder_begin: computation 'main': computation name 'main' is taken");
	xrt_builder_destroy(b);

	ASSERT_OK(xrt_builder_create(self->a, "m", "main", &b));
	xrt_builder_begin(b, "open");
	ASSERT_ERR(xrt_builder_build(b, P.x, &m), XRT_INVALID_ARGUMENT,
		   "sub-computation 'open' is still open");
	xrt_builder_destroy(b);

	/* Parameters 0 and 2 but no 1: the gap is found when the computation ends. */
	ASSERT_OK(xrt_builder_create(self->a, "m", "main", &b));
	xrt_build_parameter(b, 0, &P.scalar, "a");
	xrt_build_parameter(b, 2, &P.scalar, "c");
	ASSERT_ERR(xrt_builder_build(b, P.x, &m), XRT_INVALID_ARGUMENT,
		   "xrt_builder_build: computation 'main': the root is not a value of this computation");
	xrt_builder_destroy(b);
	ASSERT_OK(xrt_builder_create(self->a, "m", "main", &b));
	P.x = xrt_build_parameter(b, 0, &P.scalar, "a");
	xrt_build_parameter(b, 2, &P.scalar, "c");
	ASSERT_ERR(xrt_builder_build(b, P.x, &m), XRT_INVALID_ARGUMENT,
		   "parameter number 2, the computation has 2");
	xrt_builder_destroy(b);

	/* A builder builds once. */
	ASSERT_OK(xrt_builder_create(self->a, "m", "main", &b));
	P.x = xrt_build_parameter(b, 0, &P.scalar, "a");
	ASSERT_OK(xrt_builder_build(b, P.x, &m));
	ASSERT_ERR(xrt_builder_build(b, P.x, &m2), XRT_FAILED_PRECONDITION, "already built");
	EXPECT_GT(0, xrt_build_unary(b, XRT_OP_NEGATE, P.x).id);
	xrt_builder_destroy(b);
	xrt_module_destroy(m);

	ASSERT_ERR(xrt_builder_create(self->a, "bad name", "main", &b), XRT_INVALID_ARGUMENT,
		   "module name 'bad name' is not an HLO identifier");
	ASSERT_ERR(xrt_builder_create(self->a, "m", NULL, &b), XRT_INVALID_ARGUMENT,
		   "computation name '(null)' is not an HLO identifier");
	ASSERT_ERR(xrt_builder_build(NULL, P.x, &m), XRT_INVALID_ARGUMENT, "builder is NULL");
	EXPECT_EQ(NULL, xrt_builder_error(NULL));
	EXPECT_GT(0, xrt_build_unary(NULL, XRT_OP_NEGATE, P.x).id);
	xrt_builder_end(NULL, P.x);
	xrt_builder_begin(NULL, "x");
	xrt_builder_destroy(NULL);
	xrt_literal_destroy(P.lit);
}

TEST_HARNESS_MAIN
