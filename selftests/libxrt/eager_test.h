/* SPDX-License-Identifier: MIT */
/*
 * What the eager API's tests share (test_eager*.c): tensors from
 * values, running one op, checking its output.
 */
#ifndef XRT_EAGER_TEST_H
#define XRT_EAGER_TEST_H

#include <math.h>
#include <string.h>

#include <xrt/eager.h>
#include <xrt/xrt.h>

#include "xrt_test.h"

/* Equal, both NaN, or |want - got| <= tol. */
static inline bool near(double want, double got, double tol)
{
	return want == got || (isnan(want) && isnan(got)) || fabs(want - got) <= tol;
}

#define EXPECT_NEAR(want, got, tol) EXPECT_TRUE(near((want), (got), (tol)))

/* A context plus helpers that keep tests short. */
static inline xrt_tensor *make(struct __test_metadata *_metadata, xrt_eager_context *c,
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
static inline xrt_tensor *run1(struct __test_metadata *_metadata, xrt_eager_context *c,
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

static inline const float *data_f32(struct __test_metadata *_metadata, xrt_tensor *t, xrt_literal **l)
{
	ASSERT_OK(xrt_tensor_resolve(t, l));
	return xrt_literal_data(*l);
}

/* Checks @t's shape and its f32 (or s64, s32) values against @want. */
static inline void expect_f32(struct __test_metadata *_metadata, xrt_tensor *t, uint32_t rank,
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
static inline xrt_tensor *run2(struct __test_metadata *_metadata, xrt_eager_context *c,
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

/* A variable op on @var (and @value); its output if it has one. */
static inline xrt_status *var_op(xrt_eager_context *c, const char *name, xrt_tensor *var,
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

/* A variable of @dtype f32 holding @data. */
static inline xrt_tensor *new_var(struct __test_metadata *_metadata, xrt_eager_context *c,
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

static inline xrt_tensor *read_var(struct __test_metadata *_metadata, xrt_eager_context *c,
			    xrt_tensor *var)
{
	xrt_tensor *v = NULL;

	ASSERT_OK(var_op(c, "ReadVariableOp", var, NULL, XRT_F32, &v));
	return v;
}

#endif /* XRT_EAGER_TEST_H */
