// SPDX-License-Identifier: MIT
/*
 * The eager API: contexts, tensors, ops with attributes, the kernel
 * cache, input checks, clean failure at every allocation; the seed's
 * scenarios with their values.  The ops by family are in
 * test_eager_ops.c, variables in test_eager_vars.c, functions in
 * test_eager_functions.c.
 */
#include <math.h>

#include "eager_test.h"

const char *eager_registry_check(void);

TEST_F(xrt, registry_is_sorted_and_whole)
{
	EXPECT_EQ(NULL, eager_registry_check());
}

/* The host queue's threads are a 16-bit field of its flags: more is refused, not wrapped. */
TEST_F(xrt, context_refuses_more_threads_than_a_queue_takes)
{
	struct xrt_eager_options o = { .threads = 65536 };
	xrt_eager_context *c = NULL;

	ASSERT_ERR(xrt_eager_context_create(&o, self->a, &c), XRT_INVALID_ARGUMENT,
		   "at most 65535");
	EXPECT_EQ(NULL, c);
	o.threads = 3;
	ASSERT_OK(xrt_eager_context_create(&o, self->a, &c));
	xrt_eager_context_destroy(c);
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

/*
 * XLA's narrow types through the eager API: Cast into and out of them
 * rounds as ml_dtypes does (1.3 is 1.25 in f8e4m3fn, 500 is NaN there and
 * 512 in f8e5m2); TF's arithmetic ops do not take them, and say so.
 */
TEST_F(xrt, casts_reach_the_narrow_types)
{
	static const struct { enum xrt_dtype t; float want[4]; } cases[] = {
		{ XRT_F8E4M3FN, { 1.25f, -2.5f, NAN, 8 } },
		{ XRT_F8E5M2, { 1.25f, -2.5f, 512, 8 } },
		{ XRT_S4, { 1, -2, 7, 7 } },	/* out of range saturates, as XLA's convert */
	};
	xrt_eager_context *c = NULL;
	int64_t dims[1] = { 4 };
	xrt_tensor *f, *out, *back;
	xrt_literal *lit;
	const float *v;
	uint32_t nr;
	xrt_op *op;
	size_t k, e;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	f = F32(c, 1, dims, 1.3, -2.6, 500.0, 7.9);
	ASSERT_OK(xrt_op_create(c, "Cast", &op));
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ASSERT_OK(xrt_op_reset(op, "Cast", NULL));
		ASSERT_OK(xrt_op_add_input(op, f));
		ASSERT_OK(xrt_op_set_attr_type(op, "DstT", cases[k].t));
		nr = 1;
		ASSERT_OK(xrt_op_execute(op, &out, &nr));
		EXPECT_EQ(cases[k].t, xrt_tensor_dtype(out));
		ASSERT_OK(xrt_op_reset(op, "Cast", NULL));	/* and back to f32 */
		ASSERT_OK(xrt_op_add_input(op, out));
		ASSERT_OK(xrt_op_set_attr_type(op, "DstT", XRT_F32));
		nr = 1;
		ASSERT_OK(xrt_op_execute(op, &back, &nr));
		ASSERT_OK(xrt_tensor_resolve(back, &lit));
		v = xrt_literal_data(lit);
		for (e = 0; e < 4; e++) {
			if (isnan(cases[k].want[e])) {
				EXPECT_TRUE(isnan(v[e])) TH_LOG("case %zu", k);
			} else {
				EXPECT_EQ(cases[k].want[e], v[e]) TH_LOG("case %zu, %zu", k, e);
			}
		}
		xrt_literal_destroy(lit);
		xrt_tensor_unref(back);
		ASSERT_OK(xrt_op_reset(op, "Neg", NULL));
		ASSERT_ERR(xrt_op_add_input(op, out), XRT_INVALID_ARGUMENT,
			   "Neg: attribute 'T' does not allow");
		xrt_tensor_unref(out);
	}
	ASSERT_ERR(xrt_op_set_attr_type(op, "T", XRT_TUPLE), XRT_INVALID_ARGUMENT,
		   "Neg: attribute 'T': 16 is not an element type");
	xrt_op_destroy(op);
	xrt_tensor_unref(f);
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
