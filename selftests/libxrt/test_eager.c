// SPDX-License-Identifier: MIT
/*
 * The eager API: contexts, tensors, ops with attributes, the kernel
 * cache, input checks; the seed's scenarios with their values and each
 * registered op against known values.
 */
#include <math.h>
#include <string.h>

#include <xrt/eager.h>
#include <xrt/xrt.h>

#include "xrt.pb-c.h"

#include "xrt_test.h"

const char *eager_registry_check(void);

/* Equal, both NaN, or |want - got| <= tol. */
static bool near(double want, double got, double tol)
{
	return want == got || (isnan(want) && isnan(got)) || fabs(want - got) <= tol;
}

#define EXPECT_NEAR(want, got, tol) EXPECT_TRUE(near((want), (got), (tol)))

/* A context plus helpers that keep tests short. */
static xrt_tensor *make(struct __test_metadata *_metadata, xrt_eager_context *c,
			enum xrt_dtype t, uint32_t rank, const int64_t *dims, const void *data,
			size_t size)
{
	xrt_tensor *x = NULL;

	ASSERT_OK(xrt_tensor_from_host(c, t, rank, dims, data, size, &x));
	return x;
}

#define I32(c, rank, dims, ...)                                                \
	make(_metadata, c, XRT_S32, rank, dims, (const int32_t[]){ __VA_ARGS__ }, \
	     sizeof((const int32_t[]){ __VA_ARGS__ }))

#define F32(c, rank, dims, ...)                                                \
	make(_metadata, c, XRT_F32, rank, dims, (const float[]){ __VA_ARGS__ }, \
	     sizeof((const float[]){ __VA_ARGS__ }))

/* Runs a one-output op on @n inputs; the output. */
static xrt_tensor *run1(struct __test_metadata *_metadata, xrt_eager_context *c,
			const char *name, xrt_tensor *const *in, uint32_t n)
{
	xrt_tensor *out = NULL;
	uint32_t k, nr = 1;
	xrt_op *op = NULL;

	ASSERT_OK(xrt_op_create(c, name, &op));
	for (k = 0; k < n; k++)
		ASSERT_OK(xrt_op_add_input(op, in[k]));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_EQ(1, nr);
	xrt_op_destroy(op);
	return out;
}

static const float *data_f32(struct __test_metadata *_metadata, xrt_tensor *t, xrt_literal **l)
{
	ASSERT_OK(xrt_tensor_resolve(t, l));
	return xrt_literal_data(*l);
}

TEST_F(xrt, registry_is_sorted_and_whole)
{
	EXPECT_EQ(NULL, eager_registry_check());
}

TEST_F(xrt, context_lists_devices)
{
	xrt_eager_context *c = NULL;
	uint32_t i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_LE(1, xrt_eager_num_devices(c));
	for (i = 0; i < xrt_eager_num_devices(c); i++)
		EXPECT_LT(0, (int)strlen(xrt_eager_device_name(c, i)));
	EXPECT_STREQ("host:0", xrt_eager_device_name(c, 0));
	EXPECT_EQ(NULL, xrt_eager_device_name(c, 99));
	xrt_eager_context_destroy(c);
	struct xrt_eager_options o = { .device = "tpu:3" };

	ASSERT_ERR(xrt_eager_context_create(&o, self->a, &c), XRT_NOT_FOUND, "tpu:3");
}

TEST_F(xrt, tensor_handle_round_trip)
{
	xrt_eager_context *c = NULL;
	int64_t dims[2] = { 2, 2 };
	xrt_literal *lit = NULL;
	xrt_tensor *t, *copy;
	const float *v;
	uint32_t d;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	t = F32(c, 2, dims, 1, 2, 3, 4);
	EXPECT_EQ(XRT_F32, xrt_tensor_dtype(t));
	EXPECT_EQ(2, xrt_tensor_rank(t));
	EXPECT_EQ(2, xrt_tensor_dim(t, 1));
	EXPECT_EQ(-1, xrt_tensor_dim(t, 2));
	/* the default device: accel:0 in the VM stage's second run */
	EXPECT_STREQ(getenv("XRT_DEVICE") ? getenv("XRT_DEVICE") : "host:0",
		     xrt_tensor_device(t));
	v = data_f32(_metadata, t, &lit);
	EXPECT_EQ(4.0f, v[3]);
	xrt_literal_destroy(lit);
	/* Copies to every device and back keep the value. */
	for (d = 0; d < xrt_eager_num_devices(c); d++) {
		ASSERT_OK(xrt_tensor_copy_to_device(t, xrt_eager_device_name(c, d), &copy));
		v = data_f32(_metadata, copy, &lit);
		EXPECT_EQ(3.0f, v[2]);
		xrt_literal_destroy(lit);
		xrt_tensor_unref(copy);
	}
	ASSERT_ERR(xrt_tensor_copy_to_device(t, "host:9", &copy), XRT_NOT_FOUND, "host:9");
	ASSERT_ERR(xrt_tensor_from_host(c, XRT_F32, 2, dims, (float[3]){ 0 }, 12, &copy),
		   XRT_INVALID_ARGUMENT, "12 bytes given, the shape needs 16");
	ASSERT_ERR(xrt_tensor_from_host(c, XRT_PRED, 1, dims, (uint8_t[2]){ 0, 2 }, 2, &copy),
		   XRT_INVALID_ARGUMENT, "pred element 1 is 2");
	xrt_tensor_unref(t);
	xrt_eager_context_destroy(c);
}

static void count_free(void *data, void *arg)
{
	(void)data;
	(*(int *)arg)++;
}

TEST_F(xrt, wrapped_memory_is_not_copied_and_given_back)
{
	static float buf[4] __attribute__((aligned(64))) = { 1, 2, 3, 4 };
	xrt_eager_context *c = NULL;
	int64_t dims[1] = { 4 };
	xrt_tensor *t, *out;
	xrt_literal *lit;
	int freed = 0;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_OK(xrt_tensor_wrap_host(c, XRT_F32, 1, dims, buf, sizeof(buf), count_free, &freed,
				       &t));
	out = run1(_metadata, c, "Neg", &t, 1);
	EXPECT_EQ(-4.0f, data_f32(_metadata, out, &lit)[3]);
	xrt_literal_destroy(lit);
	buf[0] = 10;	/* the tensor sees the caller's memory */
	{
		size_t size = 0;
		const float *d = xrt_tensor_data(out, &size);

		EXPECT_EQ((const void *)buf, xrt_tensor_data(t, NULL));
		ASSERT_NE(NULL, d);
		EXPECT_EQ(16, size);
		EXPECT_EQ(-2.0f, d[1]);
		EXPECT_EQ(NULL, xrt_tensor_data(NULL, &size));
		EXPECT_EQ(0, size);
	}
	xrt_tensor_unref(out);
	out = run1(_metadata, c, "Neg", &t, 1);
	EXPECT_EQ(-10.0f, data_f32(_metadata, out, &lit)[0]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(out);
	xrt_tensor_unref(t);
	EXPECT_EQ(1, freed);
	ASSERT_ERR(xrt_tensor_wrap_host(c, XRT_F32, 1, dims, buf + 1, 16, NULL, NULL, &t),
		   XRT_INVALID_ARGUMENT, "64-byte aligned");
	xrt_eager_context_destroy(c);
}

/* The seed's Execute: [[1,2],[3,4]] squared, num_retvals 2 reduced to 1. */
TEST_F(xrt, matmul_of_the_seed)
{
	xrt_eager_context *c = NULL;
	int64_t dims[2] = { 2, 2 };
	xrt_tensor *m, *ret[2] = { NULL, NULL };
	xrt_literal *lit;
	uint32_t nr = 2;
	const float *v;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	m = F32(c, 2, dims, 1, 2, 3, 4);
	ASSERT_OK(xrt_op_create(c, "MatMul", &op));
	ASSERT_OK(xrt_op_add_input(op, m));
	ASSERT_OK(xrt_op_add_input(op, m));
	ASSERT_OK(xrt_op_set_attr_bool(op, "transpose_a", false));
	ASSERT_OK(xrt_op_execute(op, ret, &nr));
	ASSERT_EQ(1, nr);
	EXPECT_EQ(NULL, ret[1]);
	v = data_f32(_metadata, ret[0], &lit);
	EXPECT_EQ(7.0f, v[0]);
	EXPECT_EQ(10.0f, v[1]);
	EXPECT_EQ(15.0f, v[2]);
	EXPECT_EQ(22.0f, v[3]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(ret[0]);
	/* transpose_b: [[1,2],[3,4]] x its transpose = [[5,11],[11,25]] */
	ASSERT_OK(xrt_op_set_attr_bool(op, "transpose_b", true));
	ASSERT_OK(xrt_op_execute(op, ret, &nr));
	v = data_f32(_metadata, ret[0], &lit);
	EXPECT_EQ(5.0f, v[0]);
	EXPECT_EQ(11.0f, v[1]);
	EXPECT_EQ(25.0f, v[3]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(ret[0]);
	xrt_op_destroy(op);
	xrt_tensor_unref(m);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, attribute_type_map)
{
	xrt_eager_context *c = NULL;
	enum xrt_attr_type t;
	bool is_list;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_ERR(xrt_op_name_attr_type(c, "NoSuchOp", "T", &t, &is_list), XRT_NOT_FOUND,
		   "no op or function named 'NoSuchOp'");
	ASSERT_ERR(xrt_op_name_attr_type(c, "MatMul", "no_such", &t, &is_list), XRT_NOT_FOUND,
		   "MatMul has no attribute 'no_such'");
	ASSERT_OK(xrt_op_name_attr_type(c, "MatMul", "transpose_a", &t, &is_list));
	EXPECT_EQ(XRT_ATTR_BOOL, t);
	EXPECT_FALSE(is_list);
	ASSERT_OK(xrt_op_name_attr_type(c, "Squeeze", "squeeze_dims", &t, &is_list));
	EXPECT_EQ(XRT_ATTR_INT, t);
	EXPECT_TRUE(is_list);
	ASSERT_ERR(xrt_op_create(c, "Conv9D", &op), XRT_NOT_FOUND,
		   "no op or function named 'Conv9D'");
	ASSERT_OK(xrt_op_create(c, "MatMul", &op));
	ASSERT_OK(xrt_op_attr_type(op, "T", &t, &is_list));
	EXPECT_EQ(XRT_ATTR_TYPE, t);
	ASSERT_ERR(xrt_op_set_attr_int(op, "transpose_a", 1), XRT_INVALID_ARGUMENT,
		   "MatMul: attribute 'transpose_a' is a bool, not a int");
	ASSERT_ERR(xrt_op_set_attr_int_list(op, "transpose_a", NULL, 0), XRT_INVALID_ARGUMENT,
		   "is a bool, not a list of int");
	ASSERT_ERR(xrt_op_set_attr_bool(op, "nope", true), XRT_NOT_FOUND,
		   "MatMul has no attribute 'nope'");
	ASSERT_ERR(xrt_op_set_attr_type(op, "T", XRT_PRED), XRT_INVALID_ARGUMENT,
		   "attribute 'T' does not allow pred");
	/* No registered op has these list types yet: the setters check the name and type. */
	ASSERT_ERR(xrt_op_set_attr_string_list(op, "transpose_a", (const char *[]){ "a" }, 1),
		   XRT_INVALID_ARGUMENT, "is a bool, not a list of string");
	ASSERT_ERR(xrt_op_set_attr_shape_list(op, "T", (int32_t[]){ -1 },
					      (const int64_t *[]){ NULL }, 1),
		   XRT_INVALID_ARGUMENT, "is a type, not a list of shape");
	ASSERT_ERR(xrt_op_set_attr_tensor_list(op, "nope", NULL, 0), XRT_NOT_FOUND,
		   "MatMul has no attribute 'nope'");
	xrt_op_destroy(op);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, inputs_are_checked)
{
	xrt_eager_context *c = NULL;
	int64_t dims[2] = { 2, 2 };
	int32_t iv[4] = { 1, 2, 3, 4 };
	xrt_tensor *f, *i, *v, *out = NULL;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	f = F32(c, 2, dims, 1, 2, 3, 4);
	v = F32(c, 1, dims, 1, 2);
	i = make(_metadata, c, XRT_S32, 2, dims, iv, sizeof(iv));
	ASSERT_OK(xrt_op_create(c, "MatMul", &op));
	ASSERT_OK(xrt_op_add_input(op, f));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "MatMul: expected 2 inputs, got 1");
	ASSERT_OK(xrt_op_add_input(op, i));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "MatMul: input #1 was expected to be a f32 tensor but is a s32 tensor");
	ASSERT_ERR(xrt_op_add_input(op, f), XRT_INVALID_ARGUMENT, "MatMul takes 2 inputs");
	{
		xrt_eager_context *other = NULL;
		xrt_tensor *theirs;

		ASSERT_OK(xrt_eager_context_create(NULL, self->a, &other));
		theirs = F32(other, 1, dims, 1, 2);
		ASSERT_OK(xrt_op_reset(op, "Neg", NULL));
		ASSERT_ERR(xrt_op_add_input(op, theirs), XRT_INVALID_ARGUMENT,
			   "Neg: the tensor belongs to another context");
		ASSERT_ERR(xrt_op_reset(op, "Pack", NULL) ?: xrt_op_add_input_list(op, &theirs, 1),
			   XRT_INVALID_ARGUMENT, "Pack: the tensor belongs to another context");
		xrt_tensor_unref(theirs);
		xrt_eager_context_destroy(other);
	}
	ASSERT_OK(xrt_op_reset(op, "Cast", NULL));
	ASSERT_OK(xrt_op_add_input(op, i));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "Cast: attribute 'DstT' is not set");
	ASSERT_OK(xrt_op_reset(op, "MatMul", NULL));
	ASSERT_OK(xrt_op_add_input(op, f));
	ASSERT_OK(xrt_op_add_input(op, v));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "MatMul: inputs must be matrices");
	xrt_op_destroy(op);
	xrt_tensor_unref(v);
	xrt_tensor_unref(f);
	xrt_tensor_unref(i);
	xrt_eager_context_destroy(c);
}

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

/* A reused op runs its cached kernel; a changed attribute compiles anew. */
TEST_F(xrt, reused_ops_hit_the_kernel_cache)
{
	xrt_eager_context *c = NULL;
	int64_t d2[2] = { 2, 2 };
	xrt_tensor *m, *out;
	xrt_literal *lit;
	uint32_t nr = 1;
	xrt_op *op;
	int i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	m = F32(c, 2, d2, 1, 2, 3, 4);
	ASSERT_OK(xrt_op_create(c, "MatMul", &op));
	ASSERT_OK(xrt_op_add_input(op, m));
	ASSERT_OK(xrt_op_add_input(op, m));
	for (i = 0; i < 100; i++) {
		ASSERT_OK(xrt_op_execute(op, &out, &nr));
		if (i == 99)
			EXPECT_EQ(22.0f, data_f32(_metadata, out, &lit)[3]);
		xrt_tensor_unref(out);
	}
	xrt_literal_destroy(lit);
	ASSERT_OK(xrt_op_set_attr_bool(op, "transpose_a", true));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	/* [[1,3],[2,4]] x [[1,2],[3,4]] */
	EXPECT_EQ(10.0f, data_f32(_metadata, out, &lit)[0]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(out);
	xrt_eager_clear_caches(c);
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_EQ(10.0f, data_f32(_metadata, out, &lit)[0]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(out);
	xrt_op_destroy(op);
	xrt_tensor_unref(m);
	xrt_eager_context_destroy(c);
}

/*
 * A kernel found in the cache is the finder's own reference: a second op
 * finds the first one's kernel, the compile cache evicts it and the
 * kernel cache is cleared, and the second op still runs it, without a
 * compile (the kernel lived on in its hands).
 */
TEST_F(xrt, a_found_kernel_is_held_by_its_finder)
{
	struct xrt_compile_cache_stats st0, st1;
	xrt_eager_context *c = NULL;
	int64_t d2[2] = { 2, 2 };
	xrt_tensor *m, *out;
	xrt_literal *lit;
	uint32_t nr = 1, k;
	xrt_op *op[2];

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	m = F32(c, 2, d2, 1, 2, 3, 4);
	for (k = 0; k < 2; k++) {
		ASSERT_OK(xrt_op_create(c, "MatMul", &op[k]));
		ASSERT_OK(xrt_op_add_input(op[k], m));
		ASSERT_OK(xrt_op_add_input(op[k], m));
		ASSERT_OK(xrt_op_execute(op[k], &out, &nr));	/* the second finds it */
		xrt_tensor_unref(out);
	}
	xrt_op_destroy(op[0]);
	xrt_compile_cache_stats(&st0);
	xrt_compile_cache_limits(0, 0);
	xrt_eager_clear_caches(c);
	xrt_compile_cache_limits(1024, 256ull << 20);
	ASSERT_OK(xrt_op_execute(op[1], &out, &nr));
	EXPECT_EQ(22.0f, data_f32(_metadata, out, &lit)[3]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(out);
	xrt_compile_cache_stats(&st1);
	EXPECT_EQ(st0.compiles, st1.compiles);
	xrt_op_destroy(op[1]);
	xrt_tensor_unref(m);
	xrt_eager_context_destroy(c);
}

/* Checks @t's shape and its f32 (or s64, s32) values against @want. */
static void expect_f32(struct __test_metadata *_metadata, xrt_tensor *t, uint32_t rank,
		       const int64_t *dims, const double *want, size_t n)
{
	xrt_literal *lit = NULL;
	size_t i;
	uint32_t d;

	ASSERT_EQ(rank, xrt_tensor_rank(t));
	for (d = 0; d < rank; d++) {
		ASSERT_EQ(dims[d], xrt_tensor_dim(t, d)) TH_LOG("dimension %u", d);
	}
	ASSERT_EQ(n, xrt_tensor_element_count(t));
	ASSERT_OK(xrt_tensor_resolve(t, &lit));
	for (i = 0; i < n; i++) {
		double got = xrt_tensor_dtype(t) == XRT_F32 ? ((const float *)xrt_literal_data(lit))[i] :
			     xrt_tensor_dtype(t) == XRT_S64 ?
				(double)((const int64_t *)xrt_literal_data(lit))[i] :
				((const int32_t *)xrt_literal_data(lit))[i];

		EXPECT_NEAR(want[i], got, 1e-6) TH_LOG("element %zu: %g, want %g", i, got, want[i]);
	}
	xrt_literal_destroy(lit);
}

#define EXPECT_T(t, rank, dims, ...)                                           \
	expect_f32(_metadata, t, rank, (const int64_t[])dims,                  \
		   (const double[]){ __VA_ARGS__ },                            \
		   sizeof((const double[]){ __VA_ARGS__ }) / sizeof(double))
#define DIMS(...) { __VA_ARGS__ }

/* Runs @name on two inputs, with one bool attribute set if @attr. */
static xrt_tensor *run2(struct __test_metadata *_metadata, xrt_eager_context *c,
			const char *name, xrt_tensor *a, xrt_tensor *b, const char *attr)
{
	xrt_tensor *in[2] = { a, b }, *out = NULL;
	uint32_t nr = 1;
	xrt_op *op;

	if (!attr)
		return run1(_metadata, c, name, in, 2);
	ASSERT_OK(xrt_op_create(c, name, &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_add_input(op, b));
	ASSERT_OK(xrt_op_set_attr_bool(op, attr, true));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	xrt_op_destroy(op);
	return out;
}

/* Replacing inputs: the same shapes keep the kernel, other types are refused. */
TEST_F(xrt, set_input_runs_one_op_on_new_tensors)
{
	xrt_eager_context *c = NULL, *c2 = NULL;
	int64_t d2[2] = { 2, 2 }, d3[1] = { 3 };
	xrt_tensor *a, *b, *v, *i32, *other, *out;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c2));
	a = F32(c, 2, d2, 1, 2, 3, 4);
	b = F32(c, 2, d2, 0, 1, 1, 0);
	v = F32(c, 1, d3, 1, 2, 3);
	i32 = I32(c, 2, d2, 1, 2, 3, 4);
	other = F32(c2, 2, d2, 1, 1, 1, 1);
	ASSERT_OK(xrt_op_create(c, "MatMul", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	xrt_tensor_unref(out);
	ASSERT_OK(xrt_op_set_input(op, 1, b));		/* a x b: columns swapped */
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 2, DIMS(2, 2), 2, 1, 4, 3);
	xrt_tensor_unref(out);
	ASSERT_OK(xrt_op_set_input(op, 0, b));		/* b x b = identity */
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 2, DIMS(2, 2), 1, 0, 0, 1);
	xrt_tensor_unref(out);
	ASSERT_ERR(xrt_op_set_input(op, 2, a), XRT_INVALID_ARGUMENT, "set input #2, but it has 2");
	ASSERT_ERR(xrt_op_set_input(op, 0, i32), XRT_INVALID_ARGUMENT,
		   "MatMul: input #0 is a f32 tensor; a s32 one needs xrt_op_reset()");
	ASSERT_ERR(xrt_op_set_input(op, 0, other), XRT_INVALID_ARGUMENT, "another context");
	ASSERT_ERR(xrt_op_set_input(op, 0, NULL), XRT_INVALID_ARGUMENT, "the tensor is NULL");
	/* another shape is checked again: [3] is no matrix */
	ASSERT_OK(xrt_op_set_input(op, 0, v));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT, "MatMul");
	ASSERT_OK(xrt_op_set_input(op, 0, a));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 2, DIMS(2, 2), 2, 1, 4, 3);
	xrt_tensor_unref(out);
	xrt_op_destroy(op);
	xrt_tensor_unref(a);
	xrt_tensor_unref(b);
	xrt_tensor_unref(v);
	xrt_tensor_unref(i32);
	xrt_tensor_unref(other);
	xrt_eager_context_destroy(c2);
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

/* A variable op on @var (and @value); its output if it has one. */
static xrt_status *var_op(xrt_eager_context *c, const char *name, xrt_tensor *var,
			  xrt_tensor *value, enum xrt_dtype dtype, xrt_tensor **out)
{
	uint32_t nr = out ? 1 : 0;
	xrt_status *st;
	xrt_op *op;

	st = xrt_op_create(c, name, &op);
	if (st)
		return st;
	st = xrt_op_add_input(op, var);
	if (!st && value)
		st = xrt_op_add_input(op, value);
	if (!st && strcmp(name, "DestroyResourceOp"))
		st = xrt_op_set_attr_type(op, "dtype", dtype);
	if (!st)
		st = xrt_op_execute(op, out, &nr);
	xrt_op_destroy(op);
	return st;
}

/* The seed's commented-out Variables test, made real, and what it skipped. */
TEST_F(xrt, resource_variables)
{
	xrt_eager_context *c = NULL;
	xrt_tensor *var = NULL, *twelve, *three, *ints, *read = NULL;
	int64_t d2[1] = { 2 };
	xrt_literal *lit;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_OK(xrt_op_create(c, "VarHandleOp", &op));
	ASSERT_OK(xrt_op_set_attr_type(op, "dtype", XRT_F32));
	ASSERT_OK(xrt_op_set_attr_shape(op, "shape", 0, NULL));
	ASSERT_OK(xrt_op_execute(op, &var, &nr));
	xrt_op_destroy(op);
	ASSERT_EQ(1, nr);
	EXPECT_TRUE(xrt_tensor_is_resource(var));
	EXPECT_EQ(XRT_INVALID, xrt_tensor_dtype(var));
	ASSERT_ERR(xrt_tensor_resolve(var, &lit), XRT_INVALID_ARGUMENT, "ReadVariableOp");
	ASSERT_ERR(var_op(c, "ReadVariableOp", var, NULL, XRT_F32, &read),
		   XRT_FAILED_PRECONDITION, "uninitialized");
	twelve = F32(c, 0, NULL, 12);
	three = F32(c, 0, NULL, 3);
	ints = I32(c, 1, d2, 1, 2);
	ASSERT_OK(var_op(c, "AssignVariableOp", var, twelve, XRT_F32, NULL));
	ASSERT_OK(var_op(c, "ReadVariableOp", var, NULL, XRT_F32, &read));
	EXPECT_EQ(12.0f, data_f32(_metadata, read, &lit)[0]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(read);
	ASSERT_OK(var_op(c, "AssignAddVariableOp", var, three, XRT_F32, NULL));
	ASSERT_OK(var_op(c, "AssignAddVariableOp", var, three, XRT_F32, NULL));
	ASSERT_OK(var_op(c, "ReadVariableOp", var, NULL, XRT_F32, &read));
	EXPECT_EQ(18.0f, data_f32(_metadata, read, &lit)[0]);
	xrt_literal_destroy(lit);
	xrt_tensor_unref(read);
	ASSERT_ERR(var_op(c, "AssignVariableOp", var, ints, XRT_S32, NULL), XRT_INVALID_ARGUMENT,
		   "the variable holds f32, not s32");
	ASSERT_ERR(var_op(c, "AssignVariableOp", var, twelve, XRT_S32, NULL), XRT_INVALID_ARGUMENT,
		   "input #1 was expected to be a s32 tensor but is a f32 tensor");
	{
		xrt_tensor *in[2] = { var, three };
		xrt_tensor *out = NULL;

		ASSERT_OK(xrt_op_create(c, "AddV2", &op));
		ASSERT_OK(xrt_op_add_input(op, in[1]));
		ASSERT_OK(xrt_op_add_input(op, in[0]));
		ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
			   "input #1 was expected to be a f32 tensor but is a resource tensor");
		xrt_op_destroy(op);
	}
	ASSERT_OK(var_op(c, "DestroyResourceOp", var, NULL, XRT_F32, NULL));
	ASSERT_ERR(var_op(c, "ReadVariableOp", var, NULL, XRT_F32, &read), XRT_NOT_FOUND,
		   "destroyed");
	xrt_tensor_unref(ints);
	xrt_tensor_unref(three);
	xrt_tensor_unref(twelve);
	xrt_tensor_unref(var);
	xrt_eager_context_destroy(c);
}

/* The training test's sizes: batch, inputs, hidden units, outputs. */
enum { MB = 4, MI = 3, MH = 5, MO = 2, STEPS = 40 };

static float lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return (float)(*s >> 8) / (float)(1u << 24) - 0.5f;
}

/*
 * numpy's run of the same training (eager/mlp_step.txt, written by
 * gen_mlp_step.py): the loss before each step, the final w2.
 */
static void numpy_run(struct __test_metadata *_metadata, double *loss, float *w2)
{
	size_t len = 0;
	char *text = test_slurp(MLP_STEP, &len), *p, *end;
	int step, i;

	ASSERT_NE(NULL, text);
	for (step = 0; step < STEPS; step++) {
		char key[32];

		snprintf(key, sizeof(key), "\nloss %d ", step);
		p = strstr(text, key);
		ASSERT_NE(NULL, p);
		loss[step] = strtod(p + strlen(key), NULL);
	}
	p = strstr(text, "\nw2 ");
	ASSERT_NE(NULL, p);
	for (p += 4, i = 0; i < MH * MO; i++, p = end) {
		w2[i] = strtof(p, &end);
		ASSERT_NE(p, end);
	}
	free(text);
}

/* A variable of @dtype f32 holding @data. */
static xrt_tensor *new_var(struct __test_metadata *_metadata, xrt_eager_context *c,
			   uint32_t rank, const int64_t *dims, const float *data, size_t n)
{
	xrt_tensor *var = NULL, *v = make(_metadata, c, XRT_F32, rank, dims, data, n * 4);
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_op_create(c, "VarHandleOp", &op));
	ASSERT_OK(xrt_op_set_attr_type(op, "dtype", XRT_F32));
	ASSERT_OK(xrt_op_set_attr_shape(op, "shape", (int32_t)rank, dims));
	ASSERT_OK(xrt_op_execute(op, &var, &nr));
	xrt_op_destroy(op);
	ASSERT_OK(var_op(c, "AssignVariableOp", var, v, XRT_F32, NULL));
	xrt_tensor_unref(v);
	return var;
}

static xrt_tensor *read_var(struct __test_metadata *_metadata, xrt_eager_context *c,
			    xrt_tensor *var)
{
	xrt_tensor *v = NULL;

	ASSERT_OK(var_op(c, "ReadVariableOp", var, NULL, XRT_F32, &v));
	return v;
}

/* var -= lr * grad, on the device. */
static void sgd(struct __test_metadata *_metadata, xrt_eager_context *c, xrt_tensor *var,
		xrt_tensor *grad, xrt_tensor *neg_lr)
{
	xrt_tensor *step = run2(_metadata, c, "Mul", grad, neg_lr, NULL);

	ASSERT_OK(var_op(c, "AssignAddVariableOp", var, step, XRT_F32, NULL));
	xrt_tensor_unref(step);
	xrt_tensor_unref(grad);
}

/* The loss of one step, and the step, all with eager ops. */
static double eager_step(struct __test_metadata *_metadata, xrt_eager_context *c,
			 xrt_tensor *x, xrt_tensor *t, xrt_tensor *const *vars, xrt_tensor *axis0,
			 xrt_tensor *scale, xrt_tensor *neg_lr)
{
	xrt_tensor *w1 = read_var(_metadata, c, vars[0]), *b1 = read_var(_metadata, c, vars[1]);
	xrt_tensor *w2 = read_var(_metadata, c, vars[2]), *b2 = read_var(_metadata, c, vars[3]);
	xrt_tensor *z, *h, *y, *e, *dy, *dh, *dz, *zero, *mask, *sq, *all, *lossv, *xw, *hw;
	int64_t d2[1] = { 2 };
	xrt_literal *lit;
	double loss;

	xw = run2(_metadata, c, "MatMul", x, w1, NULL);
	z = run2(_metadata, c, "BiasAdd", xw, b1, NULL);
	h = run1(_metadata, c, "Relu", &z, 1);
	hw = run2(_metadata, c, "MatMul", h, w2, NULL);
	y = run2(_metadata, c, "BiasAdd", hw, b2, NULL);
	e = run2(_metadata, c, "Sub", y, t, NULL);
	sq = run1(_metadata, c, "Square", &e, 1);
	all = I32(c, 1, d2, 0, 1);
	lossv = run2(_metadata, c, "Mean", sq, all, NULL);
	loss = data_f32(_metadata, lossv, &lit)[0];
	xrt_literal_destroy(lit);
	dy = run2(_metadata, c, "Mul", e, scale, NULL);	/* 2 (y - t) / (MB MO) */
	dh = run2(_metadata, c, "MatMul", dy, w2, "transpose_b");
	zero = run1(_metadata, c, "ZerosLike", &h, 1);
	mask = run2(_metadata, c, "Greater", h, zero, NULL);
	{
		xrt_tensor *sel[3] = { mask, dh, zero };

		dz = run1(_metadata, c, "Select", sel, 3);
	}
	sgd(_metadata, c, vars[2], run2(_metadata, c, "MatMul", h, dy, "transpose_a"), neg_lr);
	sgd(_metadata, c, vars[3], run2(_metadata, c, "Sum", dy, axis0, NULL), neg_lr);
	sgd(_metadata, c, vars[0], run2(_metadata, c, "MatMul", x, dz, "transpose_a"), neg_lr);
	sgd(_metadata, c, vars[1], run2(_metadata, c, "Sum", dz, axis0, NULL), neg_lr);
	{
		xrt_tensor *made[] = { w1, b1, w2, b2, xw, z, h, hw, y, e, dy, dh, dz, zero, mask,
				       sq, all, lossv };
		size_t i;

		for (i = 0; i < sizeof(made) / sizeof(made[0]); i++)
			xrt_tensor_unref(made[i]);
	}
	return loss;
}

/* A small MLP trained with hand-written gradients on variables. */
TEST_F(xrt, mlp_training_matches_numpy)
{
	float x[MB * MI], t[MB * MO], w1[MI * MH], b1[MH], w2[MH * MO], b2[MO];
	float final_w2[MH * MO];
	double want[STEPS];
	int64_t dx[2] = { MB, MI }, dt[2] = { MB, MO }, dw1[2] = { MI, MH }, db1[1] = { MH };
	int64_t dw2[2] = { MH, MO }, db2[1] = { MO };
	xrt_tensor *tx, *tt, *vars[4], *axis0, *scale, *neg_lr;
	xrt_eager_context *c = NULL;
	double first = 0, loss = 0;
	uint32_t seed = 42;
	int i, step;

	for (i = 0; i < MB * MI; i++)
		x[i] = lcg(&seed) * 2;
	for (i = 0; i < MB * MO; i++)
		t[i] = lcg(&seed);
	for (i = 0; i < MI * MH; i++)
		w1[i] = lcg(&seed);
	for (i = 0; i < MH; i++)
		b1[i] = lcg(&seed) * 0.1f;
	for (i = 0; i < MH * MO; i++)
		w2[i] = lcg(&seed);
	for (i = 0; i < MO; i++)
		b2[i] = lcg(&seed) * 0.1f;
	numpy_run(_metadata, want, final_w2);
	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	tx = make(_metadata, c, XRT_F32, 2, dx, x, sizeof(x));
	tt = make(_metadata, c, XRT_F32, 2, dt, t, sizeof(t));
	vars[0] = new_var(_metadata, c, 2, dw1, w1, MI * MH);
	vars[1] = new_var(_metadata, c, 1, db1, b1, MH);
	vars[2] = new_var(_metadata, c, 2, dw2, w2, MH * MO);
	vars[3] = new_var(_metadata, c, 1, db2, b2, MO);
	axis0 = I32(c, 0, NULL, 0);
	scale = F32(c, 0, NULL, 2.0f / (MB * MO));
	neg_lr = F32(c, 0, NULL, -0.1f);
	for (step = 0; step < STEPS; step++) {
		loss = eager_step(_metadata, c, tx, tt, vars, axis0, scale, neg_lr);
		EXPECT_NEAR(want[step], loss, 1e-5 * (1 + want[step]))
			TH_LOG("step %d: %g, numpy %g", step, loss, want[step]);
		if (!step)
			first = loss;
	}
	EXPECT_LT(loss, first / 2) TH_LOG("loss %g after %d steps, %g at first", loss, STEPS,
					  first);
	{
		xrt_tensor *w = read_var(_metadata, c, vars[2]);
		xrt_literal *lit;
		const float *v = data_f32(_metadata, w, &lit);

		for (i = 0; i < MH * MO; i++) {
			EXPECT_NEAR(final_w2[i], v[i], 1e-5) TH_LOG("w2[%d]", i);
		}
		xrt_literal_destroy(lit);
		xrt_tensor_unref(w);
	}
	for (i = 0; i < 4; i++)
		xrt_tensor_unref(vars[i]);
	xrt_tensor_unref(neg_lr);
	xrt_tensor_unref(scale);
	xrt_tensor_unref(axis0);
	xrt_tensor_unref(tt);
	xrt_tensor_unref(tx);
	xrt_eager_context_destroy(c);
}

/* A FunctionDef under construction: up to 4 arguments and results, 8 nodes. */
struct fnb {
	Xrt__FunctionDef f;
	Xrt__ArgDef args[4], outs[4], *argp[4], *outp[4];
	Xrt__NodeDef nodes[8], *nodep[8];
	Xrt__NamedAttr attrs[8][4], *attrp[8][4];
	Xrt__AttrValue vals[8][4];
	Xrt__NamedAttr fattrs[4], *fattrp[4];
	Xrt__AttrValue fvals[4];
	Xrt__Literal lit;
	Xrt__Shape lit_shape;
	char *inputs[8][4], *rets[4];
};

static void fnb_init(struct fnb *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	xrt__function_def__init(&b->f);
	b->f.name = (char *)name;
	b->f.input_args = b->argp;
	b->f.output_args = b->outp;
	b->f.nodes = b->nodep;
	b->f.returns = b->rets;
	b->f.attrs = b->fattrp;
}

/* An attribute of the function itself: its value is the default. */
static Xrt__AttrValue *fnb_fattr(struct fnb *b, const char *name)
{
	size_t k = b->f.n_attrs++;

	xrt__named_attr__init(&b->fattrs[k]);
	xrt__attr_value__init(&b->fvals[k]);
	b->fattrs[k].name = (char *)name;
	b->fattrs[k].value = &b->fvals[k];
	b->fattrp[k] = &b->fattrs[k];
	return &b->fvals[k];
}

static void fnb_arg(struct fnb *b, const char *name, enum xrt_dtype t)
{
	Xrt__ArgDef *a = &b->args[b->f.n_input_args];

	xrt__arg_def__init(a);
	a->name = (char *)name;
	a->type = (Xrt__ElementType)t;
	b->argp[b->f.n_input_args++] = a;
}

static void fnb_result(struct fnb *b, const char *name, const char *from, enum xrt_dtype t)
{
	Xrt__ArgDef *a = &b->outs[b->f.n_output_args];

	xrt__arg_def__init(a);
	a->name = (char *)name;
	a->type = (Xrt__ElementType)t;
	b->outp[b->f.n_output_args++] = a;
	b->rets[b->f.n_returns++] = (char *)from;
}

/* A node; returns its index for fnb_attr_*(). */
static size_t fnb_node(struct fnb *b, const char *name, const char *op, const char *in0,
		       const char *in1)
{
	size_t n = b->f.n_nodes++;
	Xrt__NodeDef *nd = &b->nodes[n];

	xrt__node_def__init(nd);
	nd->name = (char *)name;
	nd->op = (char *)op;
	nd->inputs = b->inputs[n];
	if (in0)
		nd->inputs[nd->n_inputs++] = (char *)in0;
	if (in1)
		nd->inputs[nd->n_inputs++] = (char *)in1;
	nd->attrs = b->attrp[n];
	b->nodep[n] = nd;
	return n;
}

static Xrt__AttrValue *fnb_attr(struct fnb *b, size_t n, const char *name)
{
	Xrt__NodeDef *nd = &b->nodes[n];
	size_t k = nd->n_attrs++;

	xrt__named_attr__init(&b->attrs[n][k]);
	xrt__attr_value__init(&b->vals[n][k]);
	b->attrs[n][k].name = (char *)name;
	b->attrs[n][k].value = &b->vals[n][k];
	b->attrp[n][k] = &b->attrs[n][k];
	return &b->vals[n][k];
}

static void fnb_type(struct fnb *b, size_t n, const char *name, enum xrt_dtype t)
{
	Xrt__AttrValue *v = fnb_attr(b, n, name);

	v->value_case = XRT__ATTR_VALUE__VALUE_TYPE;
	v->type = (Xrt__ElementType)t;
}

/* A resource argument: a variable the body reads and assigns. */
static void fnb_resource(struct fnb *b, const char *name)
{
	Xrt__ArgDef *a = &b->args[b->f.n_input_args];

	xrt__arg_def__init(a);
	a->name = (char *)name;
	a->resource = true;
	b->argp[b->f.n_input_args++] = a;
}

/* Node @n's attribute @name is the function's attribute @fattr. */
static void fnb_placeholder(struct fnb *b, size_t n, const char *name, const char *fattr)
{
	Xrt__AttrValue *v = fnb_attr(b, n, name);

	v->value_case = XRT__ATTR_VALUE__VALUE_PLACEHOLDER;
	v->placeholder = (char *)fattr;
}

/* Registers @b's function; the status. */
static xrt_status *fnb_add(xrt_eager_context *c, struct fnb *b)
{
	size_t size = xrt__function_def__get_packed_size(&b->f);
	uint8_t *buf = malloc(size + 1);
	xrt_status *st;

	xrt__function_def__pack(&b->f, buf);
	st = xrt_eager_add_function(c, buf, size);
	free(buf);
	return st;
}

/* The seed's FunctionDefAndExecute: MatMul of the argument by itself. */
TEST_F(xrt, function_def_and_execute)
{
	xrt_eager_context *c = NULL;
	int64_t d22[2] = { 2, 2 };
	xrt_tensor *m, *out = NULL;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "MatMulFunction");
	fnb_arg(&b, "a", XRT_F32);
	n = fnb_node(&b, "matmul", "MatMul", "a", "a");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "m", "matmul:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	EXPECT_TRUE(xrt_eager_has_function(c, "MatMulFunction"));
	/* the same definition again changes nothing; another body is refused */
	ASSERT_OK(fnb_add(c, &b));
	b.nodes[0].op = "Add";
	ASSERT_ERR(fnb_add(c, &b), XRT_ALREADY_EXISTS,
		   "function 'MatMulFunction': a different function of this name exists");
	b.nodes[0].op = "MatMul";
	b.f.name = "Relu";
	ASSERT_ERR(fnb_add(c, &b), XRT_ALREADY_EXISTS, "function 'Relu': the name is an op's");
	m = F32(c, 2, d22, 1, 2, 3, 4);
	ASSERT_OK(xrt_op_create(c, "MatMulFunction", &op));
	ASSERT_OK(xrt_op_add_input(op, m));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 2, DIMS(2, 2), 7, 10, 15, 22);
	xrt_tensor_unref(out);
	xrt_op_destroy(op);
	xrt_tensor_unref(m);
	xrt_eager_context_destroy(c);
}

/* Two results, a Const feeding an axis, the node:output:index form. */
TEST_F(xrt, functions_compile_their_whole_body)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 };
	xrt_tensor *x, *outs[2] = { NULL, NULL };
	int32_t one = 1;
	struct fnb b;
	uint32_t nr = 2;
	xrt_op *op;
	size_t n;
	Xrt__AttrValue *v;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "RowSums");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "relu", "Relu", "x", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	n = fnb_node(&b, "axis", "Const", NULL, NULL);
	fnb_type(&b, n, "dtype", XRT_S32);
	v = fnb_attr(&b, n, "value");
	v->value_case = XRT__ATTR_VALUE__VALUE_TENSOR;
	xrt__literal__init(&b.lit);
	xrt__shape__init(&b.lit_shape);
	b.lit_shape.element_type = XRT__ELEMENT_TYPE__S32;
	b.lit.shape = &b.lit_shape;
	b.lit.data.data = (uint8_t *)&one;
	b.lit.data.len = sizeof(one);
	v->tensor = &b.lit;
	n = fnb_node(&b, "sum", "Sum", "relu:features:0", "axis:0");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_type(&b, n, "Tidx", XRT_S32);
	fnb_result(&b, "sums", "sum:0", XRT_F32);
	fnb_result(&b, "relu", "relu:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	x = F32(c, 2, d23, 1, -2, 3, -4, 5, 6);
	ASSERT_OK(xrt_op_create(c, "RowSums", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, outs, &nr));
	ASSERT_EQ(2, nr);
	EXPECT_T(outs[0], 1, DIMS(2), 4, 11);
	EXPECT_T(outs[1], 2, DIMS(2, 3), 1, 0, 3, 0, 5, 6);
	xrt_tensor_unref(outs[0]);
	xrt_tensor_unref(outs[1]);
	xrt_op_destroy(op);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

/*
 * Attribute placeholders: CastSum(x) = Sum(Cast(x, DstT = out), [1],
 * keep_dims = keep), with the function's attributes out (a type, f64
 * by default) and keep (a bool, false by default) set per call.
 */
static void cast_sum(struct fnb *b, const int32_t *one)
{
	Xrt__AttrValue *v;
	size_t n;

	fnb_init(b, "CastSum");
	fnb_arg(b, "x", XRT_F32);
	v = fnb_fattr(b, "out");
	v->value_case = XRT__ATTR_VALUE__VALUE_TYPE;
	v->type = XRT__ELEMENT_TYPE__F64;
	v = fnb_fattr(b, "keep");
	v->value_case = XRT__ATTR_VALUE__VALUE_B;
	n = fnb_node(b, "cast", "Cast", "x", NULL);
	fnb_placeholder(b, n, "DstT", "out");
	n = fnb_node(b, "axis", "Const", NULL, NULL);
	fnb_type(b, n, "dtype", XRT_S32);
	v = fnb_attr(b, n, "value");
	v->value_case = XRT__ATTR_VALUE__VALUE_TENSOR;
	xrt__literal__init(&b->lit);
	xrt__shape__init(&b->lit_shape);
	b->lit_shape.element_type = XRT__ELEMENT_TYPE__S32;
	b->lit.shape = &b->lit_shape;
	b->lit.data.data = (uint8_t *)one;
	b->lit.data.len = sizeof(*one);
	v->tensor = &b->lit;
	n = fnb_node(b, "sum", "Sum", "cast:0", "axis:0");
	fnb_placeholder(b, n, "keep_dims", "keep");
	fnb_result(b, "y", "sum:0", XRT_F64);
}

TEST_F(xrt, function_attributes_fill_placeholders)
{
	static const int64_t d23[2] = { 2, 3 };
	const int32_t one = 1;
	xrt_eager_context *c = NULL;
	xrt_tensor *x, *out = NULL;
	const double *f64;
	const int32_t *s32;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	cast_sum(&b, &one);
	ASSERT_OK(fnb_add(c, &b));
	x = F32(c, 2, d23, 1.5, -2.5, 3, -4, 5.5, 6);
	/* the defaults: f64 sums of each row, rank 1 */
	ASSERT_OK(xrt_op_create(c, "CastSum", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	ASSERT_EQ(XRT_F64, xrt_tensor_dtype(out));
	ASSERT_EQ(1, xrt_tensor_rank(out));
	f64 = xrt_tensor_data(out, NULL);
	EXPECT_EQ(2.0, f64[0]);
	EXPECT_EQ(7.5, f64[1]);
	xrt_tensor_unref(out);
	/* s32 (each element truncated first), dims kept: another kernel */
	ASSERT_OK(xrt_op_set_attr_type(op, "out", XRT_S32));
	ASSERT_OK(xrt_op_set_attr_bool(op, "keep", true));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	ASSERT_EQ(XRT_S32, xrt_tensor_dtype(out));
	ASSERT_EQ(2, xrt_tensor_rank(out));
	EXPECT_EQ(1, xrt_tensor_dim(out, 1));
	s32 = xrt_tensor_data(out, NULL);
	EXPECT_EQ(2, s32[0]);
	EXPECT_EQ(7, s32[1]);
	xrt_tensor_unref(out);
	/* the attribute type map knows them; a wrong kind is refused */
	ASSERT_ERR(xrt_op_set_attr_int(op, "keep", 1), XRT_INVALID_ARGUMENT, "keep");
	xrt_op_destroy(op);
	/* a placeholder naming nothing, or another kind, or a list default */
	cast_sum(&b, &one);
	b.f.name = "Bad1";
	b.vals[2][0].placeholder = "nothing";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'sum': attribute 'keep_dims': placeholder 'nothing' names no attribute "
		   "of the function");
	cast_sum(&b, &one);
	b.f.name = "Bad2";
	b.vals[2][0].placeholder = "out";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "attribute 'keep_dims' is a bool, placeholder 'out' a type");
	cast_sum(&b, &one);
	b.f.name = "Bad3";
	b.fvals[1].value_case = XRT__ATTR_VALUE__VALUE_S;
	ASSERT_ERR(fnb_add(c, &b), XRT_UNIMPLEMENTED, "function attributes are ints, floats");
	cast_sum(&b, &one);
	b.f.name = "Bad4";
	b.fattrs[1].name = "out";	/* declared twice */
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "two attributes share a name");
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

/*
 * Step(w, x): w += w * x, then returns w as read after.  The variable ops
 * act in the order of the nodes: the read after the add sees the sum.
 */
static void step_fn(struct fnb *b)
{
	size_t n;

	fnb_init(b, "Step");
	fnb_resource(b, "w");
	fnb_arg(b, "x", XRT_F32);
	n = fnb_node(b, "r", "ReadVariableOp", "w", NULL);
	fnb_type(b, n, "dtype", XRT_F32);
	fnb_node(b, "y", "Mul", "r:0", "x");
	n = fnb_node(b, "add", "AssignAddVariableOp", "w", "y:0");
	fnb_type(b, n, "dtype", XRT_F32);
	n = fnb_node(b, "r2", "ReadVariableOp", "w", NULL);
	fnb_type(b, n, "dtype", XRT_F32);
	fnb_result(b, "after", "r2:0", XRT_F32);
}

/* Runs @name on (@a, @b) to one output (NULL on error, logged). */
static xrt_status *call2(xrt_eager_context *c, const char *name, xrt_tensor *a, xrt_tensor *b,
			 xrt_tensor **out)
{
	uint32_t nr = out ? 1 : 0;
	xrt_status *st;
	xrt_op *op;

	st = xrt_op_create(c, name, &op);
	if (!st)
		st = xrt_op_add_input(op, a);
	if (!st)
		st = xrt_op_add_input(op, b);
	if (!st)
		st = xrt_op_execute(op, out, &nr);
	xrt_op_destroy(op);
	return st;
}

TEST_F(xrt, functions_read_and_assign_variables_in_node_order)
{
	static const int64_t d2[1] = { 2 };
	xrt_eager_context *c = NULL;
	xrt_tensor *w, *w2, *x, *out = NULL, *val;
	struct fnb b;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	step_fn(&b);
	ASSERT_OK(fnb_add(c, &b));
	w = new_var(_metadata, c, 1, d2, (const float[]){ 1, 2 }, 2);
	x = F32(c, 1, d2, 3, 4);
	ASSERT_OK(call2(c, "Step", w, x, &out));
	EXPECT_T(out, 1, DIMS(2), 4, 10);	/* 1 + 1*3, 2 + 2*4 */
	xrt_tensor_unref(out);
	val = read_var(_metadata, c, w);
	EXPECT_T(val, 1, DIMS(2), 4, 10);
	xrt_tensor_unref(val);
	ASSERT_OK(call2(c, "Step", w, x, &out));	/* the same kernel, the new value */
	EXPECT_T(out, 1, DIMS(2), 16, 50);
	xrt_tensor_unref(out);
	/* Swap(a, b): both read before either is assigned; returns nothing but a + b */
	fnb_init(&b, "Swap");
	fnb_resource(&b, "a");
	fnb_resource(&b, "b");
	n = fnb_node(&b, "ra", "ReadVariableOp", "a", NULL);
	fnb_type(&b, n, "dtype", XRT_F32);
	n = fnb_node(&b, "rb", "ReadVariableOp", "b", NULL);
	fnb_type(&b, n, "dtype", XRT_F32);
	n = fnb_node(&b, "sa", "AssignVariableOp", "a", "rb:0");
	fnb_type(&b, n, "dtype", XRT_F32);
	n = fnb_node(&b, "sb", "AssignVariableOp", "b", "ra:0");
	fnb_type(&b, n, "dtype", XRT_F32);
	fnb_node(&b, "sum", "AddV2", "ra:0", "rb:0");
	fnb_result(&b, "sum", "sum:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	w2 = new_var(_metadata, c, 1, d2, (const float[]){ -1, -2 }, 2);
	ASSERT_OK(call2(c, "Swap", w, w2, &out));
	EXPECT_T(out, 1, DIMS(2), 15, 48);
	xrt_tensor_unref(out);
	val = read_var(_metadata, c, w);
	EXPECT_T(val, 1, DIMS(2), -1, -2);
	xrt_tensor_unref(val);
	val = read_var(_metadata, c, w2);
	EXPECT_T(val, 1, DIMS(2), 16, 50);
	xrt_tensor_unref(val);
	/* a value, not a variable, for the resource; and the other way round */
	ASSERT_ERR(call2(c, "Step", x, x, &out), XRT_INVALID_ARGUMENT,
		   "Step: input #0 was expected to be a resource tensor but is a f32 tensor");
	ASSERT_ERR(call2(c, "Step", w, w2, &out), XRT_INVALID_ARGUMENT,
		   "input #1 was expected to be a f32 tensor but is a resource tensor");
	xrt_tensor_unref(w2);
	xrt_tensor_unref(x);
	xrt_tensor_unref(w);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, functions_with_variables_refuse_misuse)
{
	static const int64_t d2[1] = { 2 }, d3[1] = { 3 };
	xrt_eager_context *c = NULL;
	xrt_tensor *w, *x3, *out = NULL, *val, *fresh;
	struct fnb b;
	uint32_t nr = 1;
	size_t n;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	/* at registration: a variable feeding another op, a variable op on a value */
	step_fn(&b);
	b.f.name = "Bad1";
	b.inputs[1][1] = "w";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'y': a resource argument feeds only the variable ops");
	step_fn(&b);
	b.f.name = "Bad2";
	b.inputs[0][0] = "x";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'r': a variable op's input #0 must be a resource argument");
	step_fn(&b);
	b.f.name = "Bad3";
	b.rets[0] = "w";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "a result cannot be a resource");
	step_fn(&b);
	b.f.name = "Bad4";
	b.args[0].type = XRT__ELEMENT_TYPE__F32;
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "a resource argument has no element type");
	/* in order: a read before a write that it feeds cannot come after it */
	step_fn(&b);
	b.f.name = "Bad5";
	b.inputs[2][1] = "r2:0";	/* add reads r2, which follows add */
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "the nodes form a cycle");
	/* at the call: the variable's type, its shape, its state */
	step_fn(&b);
	ASSERT_OK(fnb_add(c, &b));
	w = new_var(_metadata, c, 1, d2, (const float[]){ 1, 2 }, 2);
	x3 = F32(c, 1, d3, 1, 2, 3);
	ASSERT_ERR(call2(c, "Step", w, x3, &out), XRT_INVALID_ARGUMENT, "Mul");
	val = read_var(_metadata, c, w);	/* unchanged */
	EXPECT_T(val, 1, DIMS(2), 1, 2);
	xrt_tensor_unref(val);
	ASSERT_OK(xrt_op_create(c, "VarHandleOp", &op));
	ASSERT_OK(xrt_op_set_attr_type(op, "dtype", XRT_F32));
	ASSERT_OK(xrt_op_set_attr_shape(op, "shape", 1, d2));
	ASSERT_OK(xrt_op_execute(op, &fresh, &nr));
	xrt_op_destroy(op);
	ASSERT_ERR(call2(c, "Step", fresh, x3, &out), XRT_FAILED_PRECONDITION,
		   "Step: the variable of input #0 is uninitialized");
	xrt_tensor_unref(fresh);
	/* an assignment of another shape than the variable's is refused whole */
	fnb_init(&b, "Put");
	fnb_resource(&b, "w");
	fnb_arg(&b, "v", XRT_F32);
	n = fnb_node(&b, "set", "AssignVariableOp", "w", "v");
	fnb_type(&b, n, "dtype", XRT_F32);
	fnb_node(&b, "neg", "Neg", "v", NULL);
	fnb_result(&b, "neg", "neg:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_ERR(call2(c, "Put", w, x3, &out), XRT_INVALID_ARGUMENT,
		   "Put: the value assigned to the variable of input #0 is not of its shape");
	val = read_var(_metadata, c, w);
	EXPECT_T(val, 1, DIMS(2), 1, 2);
	xrt_tensor_unref(val);
	/* and a read of another dtype */
	step_fn(&b);
	b.f.name = "AsInt";
	b.vals[0][0].type = XRT__ELEMENT_TYPE__S32;
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_ERR(call2(c, "AsInt", w, x3, &out), XRT_INVALID_ARGUMENT,
		   "node 'r': the variable holds f32, not s32");
	xrt_tensor_unref(x3);
	xrt_tensor_unref(w);
	xrt_eager_context_destroy(c);
}

/* A function calling functions: Outer(a, b) = Square(a) + Twice(b), Twice(x) = x + x. */
TEST_F(xrt, functions_call_registered_functions)
{
	xrt_eager_context *c = NULL;
	int64_t d3[1] = { 3 };
	xrt_tensor *a, *bt, *out = NULL;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "Twice");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "sum", "AddV2", "x", "x");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "sum:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	fnb_init(&b, "Outer");
	fnb_arg(&b, "a", XRT_F32);
	fnb_arg(&b, "b", XRT_F32);
	n = fnb_node(&b, "sq", "Square", "a", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_node(&b, "tw", "Twice", "b", NULL);
	n = fnb_node(&b, "out", "AddV2", "sq:0", "tw:y:0");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "r", "out:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	/* a type attribute of an input may be left out: each call infers it */
	fnb_init(&b, "Untyped");
	fnb_arg(&b, "x", XRT_F32);
	fnb_node(&b, "n", "Neg", "x", NULL);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	a = F32(c, 1, d3, 1, -2, 3);
	ASSERT_OK(xrt_op_create(c, "Untyped", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 1, DIMS(3), -1, 2, -3);
	xrt_tensor_unref(out);
	xrt_tensor_unref(a);
	xrt_op_destroy(op);
	a = F32(c, 1, d3, 1, -2, 3);
	bt = F32(c, 1, d3, 0.5, 1, -4);
	ASSERT_OK(xrt_op_create(c, "Outer", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_add_input(op, bt));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 1, DIMS(3), 2, 6, 1);
	xrt_tensor_unref(out);
	/* the call's argument types are checked like any op's */
	ASSERT_OK(xrt_op_reset(op, "Twice", NULL));
	xrt_tensor_unref(a);
	a = I32(c, 1, d3, 1, 2, 3);
	ASSERT_OK(xrt_op_add_input(op, a));
	nr = 1;
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "Twice: input #0 was expected to be a f32 tensor but is a s32 tensor");
	xrt_op_destroy(op);
	xrt_tensor_unref(a);
	xrt_tensor_unref(bt);
	xrt_eager_context_destroy(c);
}

/* Arguments typed by an attribute: one function for every type a call brings. */
TEST_F(xrt, polymorphic_functions_take_their_types_from_the_call)
{
	xrt_eager_context *c = NULL;
	int64_t d3[1] = { 3 };
	xrt_tensor *x, *out = NULL;
	enum xrt_attr_type type;
	struct fnb b;
	bool is_list;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "Double");
	fnb_arg(&b, "x", XRT_INVALID);
	b.args[0].type_attr = "T";
	fnb_node(&b, "sum", "AddV2", "x", "x");
	fnb_result(&b, "y", "sum:0", XRT_INVALID);
	b.outs[0].type_attr = "T";
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_OK(xrt_op_name_attr_type(c, "Double", "T", &type, &is_list));
	EXPECT_EQ(XRT_ATTR_TYPE, type);
	x = F32(c, 1, d3, 1.5, -2, 3);
	ASSERT_OK(xrt_op_create(c, "Double", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_EQ(XRT_F32, xrt_tensor_dtype(out));
	EXPECT_T(out, 1, DIMS(3), 3, -4, 6);
	xrt_tensor_unref(out);
	xrt_tensor_unref(x);
	x = I32(c, 1, d3, 7, -1, 0);
	ASSERT_OK(xrt_op_reset(op, "Double", NULL));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_EQ(XRT_S32, xrt_tensor_dtype(out));
	EXPECT_T(out, 1, DIMS(3), 14, -2, 0);
	xrt_tensor_unref(out);
	/* the attribute set by hand must agree with the tensor */
	ASSERT_OK(xrt_op_reset(op, "Double", NULL));
	ASSERT_OK(xrt_op_set_attr_type(op, "T", XRT_F32));
	ASSERT_OK(xrt_op_add_input(op, x));
	nr = 1;
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "Double: input #0 was expected to be a f32 tensor but is a s32 tensor");
	xrt_op_destroy(op);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, malformed_functions_are_refused)
{
	xrt_eager_context *c = NULL;
	int32_t iv[1] = { 1 };
	int64_t d1[1] = { 1 };
	xrt_tensor *x, *out = NULL;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_ERR(xrt_eager_add_function(c, "\xff\xff\xff", 3), XRT_INVALID_ARGUMENT,
		   "not a FunctionDef message");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	fnb_node(&b, "n", "NoSuchOp", "x", NULL);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_NOT_FOUND, "function 'F': node 'n': op: no op or function "
		   "named 'NoSuchOp'");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "n", "Neg", "nowhere:0", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'n': an input names no argument or node output");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "a", "Neg", "b:0", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	n = fnb_node(&b, "b", "Neg", "a:0", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "b:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "the nodes form a cycle");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	fnb_node(&b, "n", "Cast", "x", NULL);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "node 'n': attribute 'DstT' is not set");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "n", "Neg", "x", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "n:3", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));	/* the output count is known per call */
	x = make(_metadata, c, XRT_F32, 1, d1, (float[]){ 2 }, 4);
	ASSERT_OK(xrt_op_create(c, "F", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "an input reads an output its node does not have");
	xrt_op_destroy(op);
	fnb_init(&b, "G");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "n", "Neg", "x", NULL);
	fnb_type(&b, n, "T", XRT_S32);
	fnb_result(&b, "y", "n:0", XRT_S32);
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_OK(xrt_op_create(c, "G", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "function 'G': node 'n': input #0 was expected to be a s32 tensor but is a "
		   "f32 tensor");
	xrt_tensor_unref(x);
	x = make(_metadata, c, XRT_S32, 1, d1, iv, 4);
	ASSERT_ERR(xrt_op_add_input(op, x), XRT_INVALID_ARGUMENT, "no more can be added");
	xrt_op_destroy(op);
	ASSERT_OK(xrt_op_create(c, "G", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "G: input #0 was expected to be a f32 tensor but is a s32 tensor");
	xrt_op_destroy(op);
	xrt_tensor_unref(x);
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

/* Context, tensors, an op and its execution, failing at each allocation. */
static xrt_status *eager_scenario(const struct xrt_allocator *a)
{
	static const float m[6] = { 1, 2, 3, 4, 5, 6 };
	int64_t d23[2] = { 2, 3 }, d3[1] = { 3 };
	xrt_tensor *x = NULL, *b = NULL, *out = NULL;
	xrt_eager_context *c = NULL;
	xrt_literal *lit = NULL;
	xrt_op *op = NULL;
	uint32_t nr = 1;
	xrt_status *st;

	st = xrt_eager_context_create(NULL, a, &c);
	if (!st)
		st = xrt_tensor_from_host(c, XRT_F32, 2, d23, m, sizeof(m), &x);
	if (!st)
		st = xrt_tensor_from_host(c, XRT_F32, 1, d3, m, 12, &b);
	if (!st)
		st = xrt_op_create(c, "BiasAdd", &op);
	if (!st)
		st = xrt_op_set_attr_string(op, "data_format", "NHWC");
	if (!st)
		st = xrt_op_add_input(op, x);
	if (!st)
		st = xrt_op_add_input(op, b);
	if (!st)
		st = xrt_op_execute(op, &out, &nr);
	if (!st)
		st = xrt_tensor_resolve(out, &lit);
	if (!st && ((const float *)xrt_literal_data(lit))[5] != 9.0f)
		st = xrt_status_new(NULL, XRT_INTERNAL, "wrong value");
	xrt_literal_destroy(lit);
	xrt_tensor_unref(out);
	xrt_op_destroy(op);
	xrt_tensor_unref(b);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
	return st;
}

TEST_F(xrt, every_allocation_failure_is_clean)
{
	long runs = 0;

	test_fail_sweep(_metadata, &self->ta, eager_scenario, &runs);
	TH_LOG("%ld runs", runs);
}

TEST_HARNESS_MAIN
