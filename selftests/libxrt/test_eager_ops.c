// SPDX-License-Identifier: MIT
/*
 * The eager API's registered ops by family against known values:
 * elementwise and unary, casts and matmuls, reductions, softmax, shape
 * ops, indexing, convolution and pooling, random ops, strided slices.
 */
#include "eager_test.h"

/* Broadcasting binaries, comparisons, casts, activations: known values. */
TEST_F(xrt, elementwise_ops_broadcast_like_numpy)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 }, d3[1] = { 3 }, d21[2] = { 2, 1 };
	xrt_tensor *a, *b, *col, *in[3], *o;
	xrt_literal *lit;
	const float *v;
	const uint8_t *p;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	a = F32(c, 2, d23, 1, -2, 3, -4, 5, -6);
	b = F32(c, 1, d3, 10, 20, 30);
	col = F32(c, 2, d21, 100, 200);
	in[0] = a;
	in[1] = b;
	o = run1(_metadata, c, "AddV2", in, 2);	/* [2,3] + [3] */
	v = data_f32(_metadata, o, &lit);
	EXPECT_EQ(11.0f, v[0]);
	EXPECT_EQ(24.0f, v[5]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	in[1] = col;
	o = run1(_metadata, c, "Mul", in, 2);	/* [2,3] * [2,1] */
	v = data_f32(_metadata, o, &lit);
	EXPECT_EQ(100.0f, v[0]);
	EXPECT_EQ(-1200.0f, v[5]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	in[0] = b;
	in[1] = col;
	o = run1(_metadata, c, "Sub", in, 2);	/* [3] - [2,1] = [2,3] */
	EXPECT_EQ(2, xrt_tensor_rank(o));
	v = data_f32(_metadata, o, &lit);
	EXPECT_EQ(-90.0f, v[0]);
	EXPECT_EQ(-170.0f, v[5]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	in[0] = a;
	in[1] = F32(c, 2, d23, 1, 2, 3, 4, 5, 6);
	o = run1(_metadata, c, "Greater", in, 2);
	EXPECT_EQ(XRT_PRED, xrt_tensor_dtype(o));
	ASSERT_OK(xrt_tensor_resolve(o, &lit));
	p = xrt_literal_data(lit);
	EXPECT_EQ(0, p[0]);
	EXPECT_EQ(0, p[1]);
	xrt_literal_destroy(lit);
	in[2] = in[1];
	in[0] = o;
	in[1] = a;
	{
		xrt_tensor *eq, *sel;
		xrt_tensor *args[3] = { NULL, a, in[2] };

		args[0] = o;
		sel = run1(_metadata, c, "Select", args, 3);
		v = data_f32(_metadata, sel, &lit);
		/* a > [1..6] nowhere, so the else branch everywhere */
		EXPECT_EQ(1.0f, v[0]);
		EXPECT_EQ(6.0f, v[5]);
		xrt_literal_destroy(lit);
		xrt_tensor_unref(sel);
		args[0] = a;
		args[1] = a;
		eq = run1(_metadata, c, "Equal", args, 2);
		ASSERT_OK(xrt_tensor_resolve(eq, &lit));
		EXPECT_EQ(1, ((const uint8_t *)xrt_literal_data(lit))[4]);
		xrt_literal_destroy(lit);
		xrt_tensor_unref(eq);
	}
	xrt_tensor_unref(o);
	xrt_tensor_unref(in[2]);
	in[0] = b;
	in[1] = col;
	{
		xrt_tensor *bad[2] = { a, F32(c, 1, d21, 1, 2) };
		xrt_tensor *out = NULL;
		uint32_t nr = 1;
		xrt_op *op;

		ASSERT_OK(xrt_op_create(c, "Add", &op));
		ASSERT_OK(xrt_op_add_input(op, bad[0]));
		ASSERT_OK(xrt_op_add_input(op, bad[1]));
		ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
			   "Add: shapes do not broadcast: dimension 1 is 3 and 2");
		xrt_op_destroy(op);
		xrt_tensor_unref(bad[1]);
	}
	xrt_tensor_unref(a);
	xrt_tensor_unref(b);
	xrt_tensor_unref(col);
	xrt_eager_context_destroy(c);
}

/* Unary ops against libm, activations against their definitions. */
TEST_F(xrt, unary_ops_and_activations)
{
	static const struct { const char *name; double (*f)(double); } fns[] = {
		{ "Exp", exp }, { "Log1p", log1p }, { "Tanh", tanh }, { "Sin", sin },
		{ "Cos", cos }, { "Erf", erf }, { "Abs", fabs }, { "Floor", floor },
		{ "Ceil", ceil }, { "Expm1", expm1 },
	};
	static const float x[6] = { -2.5f, -1.0f, -0.25f, 0.0f, 0.5f, 3.0f };
	xrt_eager_context *c = NULL;
	int64_t d6[1] = { 6 };
	xrt_tensor *t, *o;
	xrt_literal *lit;
	const float *v;
	size_t f, i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	t = make(_metadata, c, XRT_F32, 1, d6, x, sizeof(x));
	for (f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
		o = run1(_metadata, c, fns[f].name, &t, 1);
		v = data_f32(_metadata, o, &lit);
		for (i = 0; i < 6; i++) {
			EXPECT_NEAR(fns[f].f(x[i]), v[i], 2e-6 * (1 + fabs(fns[f].f(x[i]))))
				TH_LOG("%s(%g)", fns[f].name, x[i]);
		}
		xrt_literal_destroy(lit);
		xrt_tensor_unref(o);
	}
	o = run1(_metadata, c, "Relu", &t, 1);
	v = data_f32(_metadata, o, &lit);
	EXPECT_EQ(0.0f, v[0]);
	EXPECT_EQ(3.0f, v[5]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	o = run1(_metadata, c, "Sigmoid", &t, 1);
	v = data_f32(_metadata, o, &lit);
	for (i = 0; i < 6; i++)
		EXPECT_NEAR(1 / (1 + exp(-x[i])), v[i], 1e-6);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	o = run1(_metadata, c, "Softplus", &t, 1);
	v = data_f32(_metadata, o, &lit);
	for (i = 0; i < 6; i++)
		EXPECT_NEAR(log1p(exp(x[i])), v[i], 2e-6);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	o = run1(_metadata, c, "Elu", &t, 1);
	v = data_f32(_metadata, o, &lit);
	EXPECT_NEAR(expm1(-2.5), v[0], 1e-6);
	EXPECT_EQ(0.5f, v[4]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	xrt_tensor_unref(t);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, cast_bias_add_squeeze_and_batch_matmul)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 }, d3[1] = { 3 }, d131[3] = { 1, 3, 1 };
	int64_t d222[3] = { 2, 2, 2 }, d22[2] = { 2, 2 };
	xrt_tensor *a, *bias, *in[2], *o;
	xrt_literal *lit;
	const int32_t *iv;
	const float *v;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	a = F32(c, 2, d23, 1.5f, -2.5f, 3.7f, -4.2f, 5.0f, -6.9f);
	ASSERT_OK(xrt_op_create(c, "Cast", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_set_attr_type(op, "DstT", XRT_S32));
	ASSERT_OK(xrt_op_execute(op, &o, &nr));
	ASSERT_OK(xrt_tensor_resolve(o, &lit));
	iv = xrt_literal_data(lit);
	EXPECT_EQ(1, iv[0]);	/* truncation toward zero */
	EXPECT_EQ(-2, iv[1]);
	EXPECT_EQ(-6, iv[5]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	xrt_op_destroy(op);

	bias = F32(c, 1, d3, 10, 20, 30);
	in[0] = a;
	in[1] = bias;
	o = run1(_metadata, c, "BiasAdd", in, 2);
	v = data_f32(_metadata, o, &lit);
	EXPECT_EQ(11.5f, v[0]);
	EXPECT_NEAR(23.1f, v[5], 1e-5);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);

	o = F32(c, 3, d131, 1, 2, 3);
	{
		xrt_tensor *sq = run1(_metadata, c, "Squeeze", &o, 1);

		EXPECT_EQ(1, xrt_tensor_rank(sq));
		EXPECT_EQ(3, xrt_tensor_dim(sq, 0));
		xrt_tensor_unref(sq);
	}
	ASSERT_OK(xrt_op_create(c, "Squeeze", &op));
	ASSERT_OK(xrt_op_add_input(op, o));
	ASSERT_OK(xrt_op_set_attr_int_list(op, "squeeze_dims", (int64_t[]){ 1 }, 1));
	{
		xrt_tensor *out = NULL;

		ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
			   "Squeeze: cannot squeeze dimension 1 of size 3");
		ASSERT_OK(xrt_op_set_attr_int_list(op, "squeeze_dims", (int64_t[]){ -1 }, 1));
		ASSERT_OK(xrt_op_execute(op, &out, &nr));
		EXPECT_EQ(2, xrt_tensor_rank(out));
		EXPECT_EQ(1, xrt_tensor_dim(out, 0));
		xrt_tensor_unref(out);
	}
	xrt_op_destroy(op);
	xrt_tensor_unref(o);

	/* [2,2,2] x [2,2]: the matrix broadcasts over the batch. */
	in[0] = F32(c, 3, d222, 1, 2, 3, 4, 5, 6, 7, 8);
	in[1] = F32(c, 2, d22, 1, 0, 0, 2);
	o = run1(_metadata, c, "BatchMatMulV2", in, 2);
	v = data_f32(_metadata, o, &lit);
	EXPECT_EQ(1.0f, v[0]);
	EXPECT_EQ(4.0f, v[1]);
	EXPECT_EQ(7.0f, v[6]);
	EXPECT_EQ(16.0f, v[7]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(o);
	xrt_tensor_unref(in[0]);
	xrt_tensor_unref(in[1]);
	xrt_tensor_unref(bias);
	xrt_tensor_unref(a);
	xrt_eager_context_destroy(c);
}

/* The first element of @t's value as an int64_t, read exactly. */
static int64_t first_s64(struct __test_metadata *_metadata, xrt_tensor *t)
{
	xrt_literal *lit = NULL;
	int64_t v;

	ASSERT_OK(xrt_tensor_resolve(t, &lit));
	ASSERT_EQ(XRT_S64, xrt_tensor_dtype(t));
	memcpy(&v, xrt_literal_data(lit), sizeof(v));
	xrt_literal_destroy(lit);
	return v;
}

/* Max starts from the type's lowest value, Min from its highest: reached exactly. */
TEST_F(xrt, integer_max_and_min_reach_the_type_extremes)
{
	static const int64_t lo[2] = { INT64_MIN, INT64_MIN }, hi[2] = { INT64_MAX, INT64_MAX };
	int64_t d2[1] = { 2 };
	xrt_eager_context *c = NULL;
	xrt_tensor *ax0, *x, *y, *o;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ax0 = I32(c, 0, NULL, 0);
	x = make(_metadata, c, XRT_S64, 1, d2, lo, sizeof(lo));
	y = make(_metadata, c, XRT_S64, 1, d2, hi, sizeof(hi));
	o = run2(_metadata, c, "Max", x, ax0, NULL);
	EXPECT_EQ(INT64_MIN, first_s64(_metadata, o));
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "Min", y, ax0, NULL);
	EXPECT_EQ(INT64_MAX, first_s64(_metadata, o));
	xrt_tensor_unref(o);
	xrt_tensor_unref(x);
	xrt_tensor_unref(y);
	xrt_tensor_unref(ax0);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, reductions_with_axes_from_a_constant_input)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 }, d1[1] = { 1 }, d2[1] = { 2 };
	xrt_tensor *x, *ax1, *ax0, *both, *neg, *o, *in[2];

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	x = F32(c, 2, d23, 1, 2, 3, 4, 5, 6);
	ax1 = I32(c, 1, d1, 1);
	ax0 = I32(c, 0, NULL, 0);
	both = I32(c, 1, d2, 0, 1);
	neg = I32(c, 1, d1, -1);
	o = run2(_metadata, c, "Sum", x, ax1, NULL);
	EXPECT_T(o, 1, DIMS(2), 6, 15);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "Sum", x, ax1, "keep_dims");
	EXPECT_T(o, 2, DIMS(2, 1), 6, 15);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "Mean", x, ax0, NULL);
	EXPECT_T(o, 1, DIMS(3), 2.5, 3.5, 4.5);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "Max", x, both, NULL);
	EXPECT_T(o, 0, DIMS(0), 6);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "Min", x, neg, NULL);
	EXPECT_T(o, 1, DIMS(2), 1, 4);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "Prod", x, ax1, NULL);
	EXPECT_T(o, 1, DIMS(2), 6, 120);
	xrt_tensor_unref(o);
	/* The axis is part of the kernel: a different value, a different result. */
	o = run2(_metadata, c, "Sum", x, ax0, NULL);
	EXPECT_T(o, 1, DIMS(3), 5, 7, 9);
	xrt_tensor_unref(o);
	in[0] = F32(c, 2, d23, 1, 5, 5, 7, 2, 3);
	o = run2(_metadata, c, "ArgMax", in[0], ax1, NULL);
	EXPECT_EQ(XRT_S64, xrt_tensor_dtype(o));
	EXPECT_T(o, 1, DIMS(2), 1, 0);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "ArgMin", in[0], ax0, NULL);
	EXPECT_T(o, 1, DIMS(3), 0, 1, 1);
	xrt_tensor_unref(o);
	{
		xrt_tensor *bad = I32(c, 1, d1, 2), *out = NULL;
		uint32_t nr = 1;
		xrt_op *op;

		ASSERT_OK(xrt_op_create(c, "Sum", &op));
		ASSERT_OK(xrt_op_add_input(op, x));
		ASSERT_OK(xrt_op_add_input(op, bad));
		ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
			   "Sum: axis 2 is out of rank 2");
		xrt_op_destroy(op);
		xrt_tensor_unref(bad);
	}
	xrt_tensor_unref(in[0]);
	xrt_tensor_unref(neg);
	xrt_tensor_unref(both);
	xrt_tensor_unref(ax0);
	xrt_tensor_unref(ax1);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, softmax_and_log_softmax)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 };
	xrt_tensor *x, *o;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	x = F32(c, 2, d23, 1, 2, 3, 1000, 1000, 1000);
	o = run1(_metadata, c, "Softmax", &x, 1);
	EXPECT_T(o, 2, DIMS(2, 3), 0.09003057, 0.24472847, 0.66524096,
		 1.0 / 3, 1.0 / 3, 1.0 / 3);
	xrt_tensor_unref(o);
	o = run1(_metadata, c, "LogSoftmax", &x, 1);
	EXPECT_T(o, 2, DIMS(2, 3), -2.4076059, -1.4076059, -0.40760596,
		 -1.0986123, -1.0986123, -1.0986123);
	xrt_tensor_unref(o);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, shape_ops_from_constant_inputs)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 }, d2[1] = { 2 }, d12[2] = { 1, 2 }, d22[2] = { 2, 2 };
	xrt_tensor *x, *k, *k2, *o, *list[2];
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	x = F32(c, 2, d23, 1, 2, 3, 4, 5, 6);
	k = I32(c, 1, d2, 3, -1);
	o = run2(_metadata, c, "Reshape", x, k, NULL);
	EXPECT_T(o, 2, DIMS(3, 2), 1, 2, 3, 4, 5, 6);
	xrt_tensor_unref(o);
	xrt_tensor_unref(k);
	k = I32(c, 1, d2, 1, 0);
	o = run2(_metadata, c, "Transpose", x, k, NULL);
	EXPECT_T(o, 2, DIMS(3, 2), 1, 4, 2, 5, 3, 6);
	xrt_tensor_unref(o);
	xrt_tensor_unref(k);
	k = I32(c, 0, NULL, -1);
	o = run2(_metadata, c, "ExpandDims", x, k, NULL);
	EXPECT_T(o, 3, DIMS(2, 3, 1), 1, 2, 3, 4, 5, 6);
	xrt_tensor_unref(o);
	xrt_tensor_unref(k);

	list[0] = x;
	list[1] = x;
	k = I32(c, 0, NULL, 1);
	ASSERT_OK(xrt_op_create(c, "ConcatV2", &op));
	ASSERT_OK(xrt_op_add_input_list(op, list, 2));
	ASSERT_OK(xrt_op_add_input(op, k));
	ASSERT_OK(xrt_op_execute(op, &o, &nr));
	EXPECT_T(o, 2, DIMS(2, 6), 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6);
	xrt_tensor_unref(o);
	xrt_op_destroy(op);
	xrt_tensor_unref(k);

	ASSERT_OK(xrt_op_create(c, "Pack", &op));
	ASSERT_OK(xrt_op_add_input_list(op, list, 2));
	ASSERT_OK(xrt_op_set_attr_int(op, "axis", 1));
	ASSERT_OK(xrt_op_execute(op, &o, &nr));
	EXPECT_T(o, 3, DIMS(2, 2, 3), 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6);
	xrt_tensor_unref(o);
	xrt_op_destroy(op);

	k = I32(c, 1, d2, 2, 2);
	k2 = F32(c, 0, NULL, 7);
	o = run2(_metadata, c, "Fill", k, k2, NULL);
	EXPECT_T(o, 2, DIMS(2, 2), 7, 7, 7, 7);
	xrt_tensor_unref(o);
	xrt_tensor_unref(k2);
	xrt_tensor_unref(k);
	o = run1(_metadata, c, "OnesLike", &x, 1);
	EXPECT_T(o, 2, DIMS(2, 3), 1, 1, 1, 1, 1, 1);
	xrt_tensor_unref(o);
	o = run1(_metadata, c, "ZerosLike", &x, 1);
	EXPECT_T(o, 2, DIMS(2, 3), 0, 0, 0, 0, 0, 0);
	xrt_tensor_unref(o);

	{
		xrt_tensor *r[3] = { I32(c, 0, NULL, 0), I32(c, 0, NULL, 10), I32(c, 0, NULL, 3) };

		o = run1(_metadata, c, "Range", r, 3);
		EXPECT_EQ(XRT_S32, xrt_tensor_dtype(o));
		EXPECT_T(o, 1, DIMS(4), 0, 3, 6, 9);
		xrt_tensor_unref(o);
		xrt_tensor_unref(r[0]);
		xrt_tensor_unref(r[1]);
		xrt_tensor_unref(r[2]);
	}

	k = I32(c, 2, d22, 1, 0, 0, 2);
	k2 = F32(c, 2, d12, 1, 2);
	o = run2(_metadata, c, "Pad", k2, k, NULL);
	EXPECT_T(o, 2, DIMS(2, 4), 0, 0, 0, 0, 1, 2, 0, 0);
	xrt_tensor_unref(o);
	xrt_tensor_unref(k);
	k = I32(c, 1, d2, 2, 2);
	o = run2(_metadata, c, "Tile", k2, k, NULL);
	EXPECT_T(o, 2, DIMS(2, 4), 1, 2, 1, 2, 1, 2, 1, 2);
	xrt_tensor_unref(o);
	xrt_tensor_unref(k);
	xrt_tensor_unref(k2);
	{
		xrt_tensor *s[3] = { x, I32(c, 1, d2, 0, 1), I32(c, 1, d2, -1, 2) };

		o = run1(_metadata, c, "Slice", s, 3);
		EXPECT_T(o, 2, DIMS(2, 2), 2, 3, 5, 6);
		xrt_tensor_unref(o);
		xrt_tensor_unref(s[1]);
		xrt_tensor_unref(s[2]);
	}
	k = I32(c, 1, d2, 4, 4);
	ASSERT_OK(xrt_op_create(c, "Reshape", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_add_input(op, k));
	ASSERT_ERR(xrt_op_execute(op, &o, &nr), XRT_INVALID_ARGUMENT,
		   "Reshape: cannot reshape 6 elements to that shape");
	xrt_op_destroy(op);
	xrt_tensor_unref(k);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, floor_division_unpack_one_hot_gather)
{
	xrt_eager_context *c = NULL;
	int64_t d4[1] = { 4 }, d2[1] = { 2 }, d23[2] = { 2, 3 }, d32[2] = { 3, 2 }, d3[1] = { 3 };
	xrt_tensor *a, *b, *o, *outs[3] = { NULL, NULL, NULL }, *in[4];
	uint32_t nr = 3;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	a = I32(c, 1, d4, 7, -7, 7, -7);
	b = I32(c, 1, d4, 2, 2, -2, -2);
	o = run2(_metadata, c, "FloorDiv", a, b, NULL);
	EXPECT_T(o, 1, DIMS(4), 3, -4, -4, 3);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "FloorMod", a, b, NULL);
	EXPECT_T(o, 1, DIMS(4), 1, 1, -1, -1);
	xrt_tensor_unref(o);
	xrt_tensor_unref(a);
	xrt_tensor_unref(b);
	a = F32(c, 1, d2, 7.5f, -7.5f);
	b = F32(c, 1, d2, 2, 2);
	o = run2(_metadata, c, "FloorDiv", a, b, NULL);
	EXPECT_T(o, 1, DIMS(2), 3, -4);
	xrt_tensor_unref(o);
	o = run2(_metadata, c, "FloorMod", a, b, NULL);
	EXPECT_T(o, 1, DIMS(2), 1.5, 0.5);
	xrt_tensor_unref(o);
	xrt_tensor_unref(a);
	xrt_tensor_unref(b);

	a = F32(c, 2, d23, 1, 2, 3, 4, 5, 6);
	ASSERT_OK(xrt_op_create(c, "Unpack", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_set_attr_int(op, "num", 2));
	ASSERT_OK(xrt_op_execute(op, outs, &nr));
	ASSERT_EQ(2, nr);
	EXPECT_T(outs[0], 1, DIMS(3), 1, 2, 3);
	EXPECT_T(outs[1], 1, DIMS(3), 4, 5, 6);
	xrt_tensor_unref(outs[0]);
	xrt_tensor_unref(outs[1]);
	xrt_op_destroy(op);
	xrt_tensor_unref(a);

	in[0] = I32(c, 1, d3, 0, 2, -1);
	in[1] = I32(c, 0, NULL, 3);
	in[2] = F32(c, 0, NULL, 1);
	in[3] = F32(c, 0, NULL, 0);
	o = run1(_metadata, c, "OneHot", in, 4);
	EXPECT_T(o, 2, DIMS(3, 3), 1, 0, 0, 0, 0, 1, 0, 0, 0);
	xrt_tensor_unref(o);
	xrt_tensor_unref(in[0]);
	xrt_tensor_unref(in[1]);
	xrt_tensor_unref(in[2]);
	xrt_tensor_unref(in[3]);

	in[0] = F32(c, 2, d32, 1, 2, 3, 4, 5, 6);
	in[1] = I32(c, 1, d2, 2, 0);
	in[2] = I32(c, 0, NULL, 0);
	o = run1(_metadata, c, "GatherV2", in, 3);
	EXPECT_T(o, 2, DIMS(2, 2), 5, 6, 1, 2);
	xrt_tensor_unref(o);
	xrt_tensor_unref(in[2]);
	xrt_tensor_unref(in[1]);
	in[1] = I32(c, 1, d2, 1, 0);
	in[2] = I32(c, 0, NULL, 1);
	o = run1(_metadata, c, "GatherV2", in, 3);
	EXPECT_T(o, 2, DIMS(3, 2), 2, 1, 4, 3, 6, 5);
	xrt_tensor_unref(o);
	xrt_tensor_unref(in[0]);
	xrt_tensor_unref(in[1]);
	xrt_tensor_unref(in[2]);
	xrt_eager_context_destroy(c);
}

/* Conv2D or a pool on a [1,3,3,1] image of 1..9 with a 2x2 window. */
static xrt_tensor *image_op(struct __test_metadata *_metadata, xrt_eager_context *c,
			    const char *name, const char *padding)
{
	int64_t img[4] = { 1, 3, 3, 1 }, flt[4] = { 2, 2, 1, 1 };
	static const int64_t ones[4] = { 1, 1, 1, 1 }, win[4] = { 1, 2, 2, 1 };
	xrt_tensor *x = F32(c, 4, img, 1, 2, 3, 4, 5, 6, 7, 8, 9), *f = NULL, *out = NULL;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_op_create(c, name, &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	if (!strcmp(name, "Conv2D")) {
		f = F32(c, 4, flt, 1, 1, 1, 1);
		ASSERT_OK(xrt_op_add_input(op, f));
	} else {
		ASSERT_OK(xrt_op_set_attr_int_list(op, "ksize", win, 4));
	}
	ASSERT_OK(xrt_op_set_attr_int_list(op, "strides", ones, 4));
	ASSERT_OK(xrt_op_set_attr_string(op, "padding", padding));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	xrt_op_destroy(op);
	xrt_tensor_unref(f);
	xrt_tensor_unref(x);
	return out;
}

TEST_F(xrt, convolution_and_pooling)
{
	xrt_eager_context *c = NULL;
	xrt_tensor *o;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	o = image_op(_metadata, c, "Conv2D", "VALID");
	EXPECT_T(o, 4, DIMS(1, 2, 2, 1), 12, 16, 24, 28);
	xrt_tensor_unref(o);
	o = image_op(_metadata, c, "Conv2D", "SAME");
	EXPECT_T(o, 4, DIMS(1, 3, 3, 1), 12, 16, 9, 24, 28, 15, 15, 17, 9);
	xrt_tensor_unref(o);
	o = image_op(_metadata, c, "MaxPool", "VALID");
	EXPECT_T(o, 4, DIMS(1, 2, 2, 1), 5, 6, 8, 9);
	xrt_tensor_unref(o);
	o = image_op(_metadata, c, "AvgPool", "SAME");
	EXPECT_T(o, 4, DIMS(1, 3, 3, 1), 3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9);
	xrt_tensor_unref(o);
	xrt_eager_context_destroy(c);
}

/* Draws @n numbers from a new op seeded with @seed; runs it @runs times. */
static void draw(struct __test_metadata *_metadata, xrt_eager_context *c, const char *name,
		 int64_t seed, int runs, float *got, int32_t n)
{
	int64_t d1[1] = { 1 };
	xrt_tensor *shape = I32(c, 1, d1, n), *out = NULL;
	xrt_literal *lit;
	uint32_t nr = 1;
	xrt_op *op;
	int r;

	ASSERT_OK(xrt_op_create(c, name, &op));
	ASSERT_OK(xrt_op_add_input(op, shape));
	ASSERT_OK(xrt_op_set_attr_type(op, "dtype", XRT_F32));
	ASSERT_OK(xrt_op_set_attr_int(op, "seed", seed));
	for (r = 0; r < runs; r++) {
		xrt_tensor_unref(out);
		ASSERT_OK(xrt_op_execute(op, &out, &nr));
	}
	ASSERT_OK(xrt_tensor_resolve(out, &lit));
	memcpy(got, xrt_literal_data(lit), (size_t)n * sizeof(float));
	xrt_literal_destroy(lit);
	xrt_tensor_unref(out);
	xrt_op_destroy(op);
	xrt_tensor_unref(shape);
}

TEST_F(xrt, seeded_random_ops)
{
	static float a[40000], b[40000], d[40000];
	xrt_eager_context *c = NULL;
	double mean = 0, var = 0;
	int i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	draw(_metadata, c, "RandomUniform", 7, 1, a, 40000);
	draw(_metadata, c, "RandomUniform", 7, 1, b, 40000);
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));	/* same seed, same numbers */
	draw(_metadata, c, "RandomUniform", 7, 2, d, 40000);
	EXPECT_NE(0, memcmp(a, d, sizeof(a)));	/* the next run, new numbers */
	/* 40000 draws: standard errors 0.0015 (uniform mean), 0.005 and 0.007 */
	for (i = 0; i < 40000; i++) {
		ASSERT_TRUE(a[i] >= 0 && a[i] < 1);
		mean += a[i];
	}
	EXPECT_NEAR(0.5, mean / 40000, 0.01);
	draw(_metadata, c, "RandomStandardNormal", 3, 1, a, 40000);
	for (mean = 0, i = 0; i < 40000; i++)
		mean += a[i];
	mean /= 40000;
	for (i = 0; i < 40000; i++)
		var += (a[i] - mean) * (a[i] - mean);
	EXPECT_NEAR(0, mean, 0.03) TH_LOG("mean %g", mean);
	EXPECT_NEAR(1, var / 40000, 0.05) TH_LOG("variance %g", var / 40000);
	xrt_eager_context_destroy(c);
}

static double c_max(double a, double b) { return a > b ? a : b; }

static double c_min(double a, double b) { return a < b ? a : b; }

static double c_add(double a, double b) { return a + b; }

static double c_sub(double a, double b) { return a - b; }

static double c_mul(double a, double b) { return a * b; }

static double c_div(double a, double b) { return a / b; }

static double c_relu6(double a) { return a < 0 ? 0 : a > 6 ? 6 : a; }

static double c_sign(double a) { return a > 0 ? 1 : a < 0 ? -1 : 0; }

static double c_rsqrt(double a) { return 1 / sqrt(a); }

static double c_neg(double a) { return -a; }

static double c_id(double a) { return a; }

/* Every elementwise op not tested above, f32 against C on the same inputs. */
TEST_F(xrt, remaining_elementwise_ops_against_c)
{
	static const struct { const char *name; double (*f)(double, double); } bin[] = {
		{ "Maximum", c_max }, { "Minimum", c_min }, { "Add", c_add }, { "Sub", c_sub },
		{ "Mul", c_mul }, { "Div", c_div }, { "RealDiv", c_div }, { "Pow", pow },
	};
	static const struct { const char *name; double (*f)(double); } un[] = {
		{ "Sqrt", sqrt }, { "Rsqrt", c_rsqrt }, { "Log", log }, { "Sign", c_sign },
		{ "Neg", c_neg }, { "Identity", c_id }, { "Relu6", c_relu6 },
	};
	static const char *const cmp[] = { "Equal", "NotEqual", "Less", "LessEqual", "Greater",
					   "GreaterEqual" };
	float x[8] = { 0.5f, 1, 2.5f, 7, 3, 0.25f, 9, 1.5f }, y[8] = { 2, 1, 0.5f, 3, 3, 4, 2, 8 };
	xrt_eager_context *c = NULL;
	int64_t d8[1] = { 8 };
	xrt_tensor *a, *b, *o;
	xrt_literal *lit;
	size_t f, i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	a = make(_metadata, c, XRT_F32, 1, d8, x, sizeof(x));
	b = make(_metadata, c, XRT_F32, 1, d8, y, sizeof(y));
	for (f = 0; f < sizeof(bin) / sizeof(bin[0]); f++) {
		const float *v;

		o = run2(_metadata, c, bin[f].name, a, b, NULL);
		v = data_f32(_metadata, o, &lit);
		for (i = 0; i < 8; i++) {
			double xi = x[i], yi = y[i], got = v[i];

			EXPECT_NEAR(bin[f].f(xi, yi), got, 2e-6 * (1 + fabs(got)))
				TH_LOG("%s(%g, %g) = %g", bin[f].name, xi, yi, got);
		}
		xrt_literal_destroy(lit);
		xrt_tensor_unref(o);
	}
	for (f = 0; f < sizeof(un) / sizeof(un[0]); f++) {
		const float *v;

		o = run1(_metadata, c, un[f].name, &a, 1);
		v = data_f32(_metadata, o, &lit);
		for (i = 0; i < 8; i++) {
			double xi = x[i], got = v[i];

			EXPECT_NEAR(un[f].f(xi), got, 2e-6 * (1 + fabs(got)))
				TH_LOG("%s(%g) = %g", un[f].name, xi, got);
		}
		xrt_literal_destroy(lit);
		xrt_tensor_unref(o);
	}
	for (f = 0; f < 6; f++) {
		const uint8_t *p;

		o = run2(_metadata, c, cmp[f], a, b, NULL);
		ASSERT_OK(xrt_tensor_resolve(o, &lit));
		p = xrt_literal_data(lit);
		for (i = 0; i < 8; i++) {
			bool want = f == 0 ? x[i] == y[i] : f == 1 ? x[i] != y[i] :
				    f == 2 ? x[i] < y[i] : f == 3 ? x[i] <= y[i] :
				    f == 4 ? x[i] > y[i] : x[i] >= y[i];

			EXPECT_EQ(want, p[i]) TH_LOG("%s at %zu", cmp[f], i);
		}
		{
			/* the comparisons drive the logical ops and SelectV2 */
			xrt_tensor *lt = run2(_metadata, c, "Less", a, b, NULL);
			xrt_tensor *and = run2(_metadata, c, "LogicalAnd", o, lt, NULL);
			xrt_tensor *or = run2(_metadata, c, "LogicalOr", o, lt, NULL);
			xrt_tensor *not = run1(_metadata, c, "LogicalNot", &o, 1);
			xrt_tensor *sel[3] = { o, a, b }, *sv;
			xrt_literal *la, *lo, *ln, *ll, *ls;
			const float *vs;

			sv = run1(_metadata, c, "SelectV2", sel, 3);
			ASSERT_OK(xrt_tensor_resolve(and, &la));
			ASSERT_OK(xrt_tensor_resolve(or, &lo));
			ASSERT_OK(xrt_tensor_resolve(not, &ln));
			ASSERT_OK(xrt_tensor_resolve(lt, &ll));
			vs = data_f32(_metadata, sv, &ls);
			for (i = 0; i < 8; i++) {
				uint8_t l = ((const uint8_t *)xrt_literal_data(ll))[i];

				EXPECT_EQ(p[i] && l, ((const uint8_t *)xrt_literal_data(la))[i]);
				EXPECT_EQ(p[i] || l, ((const uint8_t *)xrt_literal_data(lo))[i]);
				EXPECT_EQ(!p[i], ((const uint8_t *)xrt_literal_data(ln))[i]);
				float want = p[i] ? x[i] : y[i], got = vs[i];

				EXPECT_EQ(want, got);
			}
			xrt_literal_destroy(la);
			xrt_literal_destroy(lo);
			xrt_literal_destroy(ln);
			xrt_literal_destroy(ll);
			xrt_literal_destroy(ls);
			xrt_tensor_unref(sv);
			xrt_tensor_unref(not);
			xrt_tensor_unref(or);
			xrt_tensor_unref(and);
			xrt_tensor_unref(lt);
		}
		xrt_literal_destroy(lit);
		xrt_tensor_unref(o);
	}
	xrt_tensor_unref(b);
	xrt_tensor_unref(a);
	xrt_eager_context_destroy(c);
}

/* x[...] by StridedSlice with @n entries and the masks bm, em, el, na, sh. */
static xrt_tensor *strided(struct __test_metadata *_metadata, xrt_eager_context *c,
			   xrt_tensor *x, uint32_t n, const int32_t *b, const int32_t *e,
			   const int32_t *s, const int64_t masks[5])
{
	static const char *const names[5] = { "begin_mask", "end_mask", "ellipsis_mask",
					      "new_axis_mask", "shrink_axis_mask" };
	int64_t dn[1] = { n };
	xrt_tensor *in[4] = { x, make(_metadata, c, XRT_S32, 1, dn, b, n * 4),
			      make(_metadata, c, XRT_S32, 1, dn, e, n * 4),
			      make(_metadata, c, XRT_S32, 1, dn, s, n * 4) }, *out = NULL;
	uint32_t nr = 1, k;
	xrt_op *op;

	ASSERT_OK(xrt_op_create(c, "StridedSlice", &op));
	for (k = 0; k < 4; k++)
		ASSERT_OK(xrt_op_add_input(op, in[k]));
	for (k = 0; k < 5; k++)
		ASSERT_OK(xrt_op_set_attr_int(op, names[k], masks[k]));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	xrt_op_destroy(op);
	for (k = 1; k < 4; k++)
		xrt_tensor_unref(in[k]);
	return out;
}

TEST_F(xrt, strided_slice_with_every_mask)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 };
	xrt_tensor *x, *o;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	x = F32(c, 2, d23, 1, 2, 3, 4, 5, 6);
	o = strided(_metadata, c, x, 2, (int32_t[]){ 0, 0 }, (int32_t[]){ 2, 3 },
		    (int32_t[]){ 1, 2 }, (int64_t[]){ 0, 0, 0, 0, 0 });
	EXPECT_T(o, 2, DIMS(2, 2), 1, 3, 4, 6);		/* x[:, ::2] */
	xrt_tensor_unref(o);
	o = strided(_metadata, c, x, 2, (int32_t[]){ 0, 0 }, (int32_t[]){ 0, 0 },
		    (int32_t[]){ 1, -1 }, (int64_t[]){ 3, 3, 0, 0, 0 });
	EXPECT_T(o, 2, DIMS(2, 3), 3, 2, 1, 6, 5, 4);	/* x[:, ::-1] */
	xrt_tensor_unref(o);
	o = strided(_metadata, c, x, 1, (int32_t[]){ 1 }, (int32_t[]){ 2 }, (int32_t[]){ 1 },
		    (int64_t[]){ 0, 0, 0, 0, 1 });
	EXPECT_T(o, 1, DIMS(3), 4, 5, 6);		/* x[1] */
	xrt_tensor_unref(o);
	o = strided(_metadata, c, x, 2, (int32_t[]){ 0, 0 }, (int32_t[]){ 0, 0 },
		    (int32_t[]){ 1, 1 }, (int64_t[]){ 0, 0, 1, 2, 0 });
	EXPECT_T(o, 3, DIMS(2, 3, 1), 1, 2, 3, 4, 5, 6);	/* x[..., None] */
	xrt_tensor_unref(o);
	o = strided(_metadata, c, x, 2, (int32_t[]){ -1, 1 }, (int32_t[]){ 0, -1 },
		    (int32_t[]){ -1, 1 }, (int64_t[]){ 0, 1, 0, 0, 0 });
	EXPECT_T(o, 2, DIMS(2, 1), 5, 2);		/* x[-1::-1, 1:-1] */
	xrt_tensor_unref(o);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_HARNESS_MAIN
