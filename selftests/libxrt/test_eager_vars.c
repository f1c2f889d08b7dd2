// SPDX-License-Identifier: MIT
/*
 * The eager API's resource variables: read, assign and assign-add in
 * order, and a small MLP trained by SGD against numpy's own run.
 */
#include "eager_test.h"

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

TEST_HARNESS_MAIN
