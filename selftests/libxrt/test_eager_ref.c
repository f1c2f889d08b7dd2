// SPDX-License-Identifier: MIT
/*
 * The eager ops against the reference evaluator: each op runs through the
 * kernel cache and the host device, and the very module its kernel was
 * compiled from is evaluated by the reference evaluator on the same
 * inputs; the two must agree.  Every elementwise op of the registry is
 * found and tried by itself; the structured ops come from a table.
 */
#include <math.h>
#include <string.h>

#include <xrt/eager.h>
#include <xrt/evaluate.h>

#include "xrt_test.h"
#include "eager/eager_internal.h"

const struct op_def *eager_registry_at(size_t i);

static uint32_t rng_state = 12345;

static float urand(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return (float)(rng_state >> 8) / (float)(1u << 24);
}

/* A [3,4] tensor of @t: floats in [-2, 2), integers +-[1, 9], preds 0/1. */
static xrt_tensor *random_tensor(struct __test_metadata *_metadata, xrt_eager_context *c,
				 enum xrt_dtype t, uint32_t rank, const int64_t *dims)
{
	uint8_t buf[4096];
	xrt_tensor *out = NULL;
	size_t n = 1, i;
	uint32_t d;

	for (d = 0; d < rank; d++)
		n *= (size_t)dims[d];
	for (i = 0; i < n; i++) {
		float f = urand() * 4 - 2;
		int32_t k = (int32_t)(urand() * 9) + 1;

		if (urand() < 0.5f)
			k = -k;
		if (t == XRT_F32)
			memcpy(buf + 4 * i, &f, 4);
		else if (t == XRT_S32)
			memcpy(buf + 4 * i, &k, 4);
		else
			buf[i] = urand() < 0.5f;
	}
	ASSERT_OK(xrt_tensor_from_host(c, t, rank, dims, buf, n * xrt_dtype_size(t), &out));
	return out;
}

/* Runs @op and evaluates its module on the same inputs; they must agree. */
static void against_reference(struct __test_metadata *_metadata, xrt_op *op)
{
	const struct xrt_tolerance tol = { 1e-6, 1e-6 };
	xrt_literal *args[EAGER_MAX_INPUTS], *ref = NULL, *got;
	xrt_tensor *outs[EAGER_MAX_OUTPUTS];
	uint32_t nr = EAGER_MAX_OUTPUTS, n = 0, i, k;
	xrt_module *m = NULL;
	char why[256] = "";

	ASSERT_OK(xrt_op_execute(op, outs, &nr));
	ASSERT_OK(eager_build_module(op, &m));
	for (i = 0; i < op->num_inputs; i++) {
		if (!op->input_constant[i])
			ASSERT_OK(xrt_tensor_resolve(op->inputs[i], &args[n++]));
	}
	ASSERT_OK(xrt_ir_evaluate(m, (const xrt_literal *const *)args, n, NULL, NULL, &ref));
	for (k = 0; k < nr; k++) {
		const xrt_literal *want = xrt_shape_is_tuple(xrt_literal_shape(ref)) ?
					  xrt_literal_element(ref, k) : ref;

		ASSERT_OK(xrt_tensor_resolve(outs[k], &got));
		EXPECT_TRUE(xrt_literal_near(want, got, &tol, why, sizeof(why)))
			TH_LOG("%s output %u: %s", op->def->name, k, why);
		xrt_literal_destroy(got);
		xrt_tensor_unref(outs[k]);
	}
	for (i = 0; i < n; i++)
		xrt_literal_destroy(args[i]);
	xrt_literal_destroy(ref);
	xrt_module_destroy(m);
}

/* The element type to try an op with: f32 if it allows it, else s32, else pred. */
static enum xrt_dtype pick_type(const struct op_def *d)
{
	int t = d->num_attrs ? eager_attr_index(d, "T") : -1;
	uint32_t allowed = t >= 0 ? d->attrs[t].types : 0;

	if (!d->inputs[0].type_attr)
		return d->inputs[0].fixed;
	if (!allowed || allowed & (1u << XRT_F32))
		return XRT_F32;
	return allowed & (1u << XRT_S32) ? XRT_S32 : XRT_PRED;
}

TEST_F(xrt, every_elementwise_op_agrees_with_the_evaluator)
{
	int64_t dims[2] = { 3, 4 };
	xrt_eager_context *c = NULL;
	const struct op_def *d;
	int tried = 0;
	size_t i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	for (i = 0; (d = eager_registry_at(i)); i++) {
		xrt_tensor *in[2] = { NULL, NULL };
		enum xrt_dtype t;
		xrt_op *op;
		uint32_t k;

		if (d->lower != eager_lower_unary && d->lower != eager_lower_binary &&
		    d->lower != eager_lower_compare && d->lower != eager_lower_activation &&
		    d->lower != eager_lower_floor_divmod)
			continue;
		t = pick_type(d);
		ASSERT_OK(xrt_op_create(c, d->name, &op));
		for (k = 0; k < d->num_inputs; k++) {
			in[k] = random_tensor(_metadata, c, t, 2, dims);
			ASSERT_OK(xrt_op_add_input(op, in[k]));
		}
		against_reference(_metadata, op);
		xrt_op_destroy(op);
		for (k = 0; k < d->num_inputs; k++)
			xrt_tensor_unref(in[k]);
		tried++;
	}
	TH_LOG("%d elementwise ops", tried);
	EXPECT_LE(41, tried);	/* every elementwise op registered today */
	xrt_eager_context_destroy(c);
}

/* One structured op: its inputs (constants as s32 vectors) and attributes. */
struct call {
	const char *name;
	uint32_t n;			/* inputs */
	uint32_t rank[4];
	int64_t dims[4][4];
	int32_t consts[4][4];		/* input i constant when const_len[i] */
	uint32_t const_len[4];
	const char *battr;		/* a bool attribute set true, or NULL */
	const char *iattr;		/* an int attribute and its value, or NULL */
	int64_t ival;
	const char *sattr;		/* a string attribute and its value */
	const char *sval;
	const char *lattr;		/* an int-list attribute of 4 */
	int64_t lval[4];
};

static const struct call calls[] = {
	{ "MatMul", 2, { 2, 2 }, { { 3, 5 }, { 5, 4 } } },
	{ "MatMul", 2, { 2, 2 }, { { 5, 3 }, { 5, 4 } }, .battr = "transpose_a" },
	{ "BatchMatMulV2", 2, { 3, 2 }, { { 2, 3, 5 }, { 5, 4 } } },
	{ "BiasAdd", 2, { 2, 1 }, { { 3, 4 }, { 4 } } },
	{ "Sum", 2, { 2, 1 }, { { 3, 4 } }, { { 0 }, { 1 } }, { 0, 1 } },
	{ "Mean", 2, { 3, 1 }, { { 2, 3, 4 } }, { { 0 }, { 0, 2 } }, { 0, 2 },
	  .battr = "keep_dims" },
	{ "Max", 2, { 2, 1 }, { { 3, 4 } }, { { 0 }, { 0 } }, { 0, 1 } },
	{ "Prod", 2, { 2, 1 }, { { 3, 4 } }, { { 0 }, { 1 } }, { 0, 1 } },
	{ "ArgMax", 2, { 2, 0 }, { { 3, 4 } }, { { 0 }, { 1 } }, { 0, 1 } },
	{ "ArgMin", 2, { 2, 0 }, { { 3, 4 } }, { { 0 }, { 0 } }, { 0, 1 } },
	{ "Softmax", 1, { 2 }, { { 3, 4 } } },
	{ "LogSoftmax", 1, { 2 }, { { 3, 4 } } },
	{ "Transpose", 2, { 3, 1 }, { { 2, 3, 4 } }, { { 0 }, { 2, 0, 1 } }, { 0, 3 } },
	{ "Reshape", 2, { 2, 1 }, { { 3, 4 } }, { { 0 }, { 2, -1 } }, { 0, 2 } },
	{ "Tile", 2, { 2, 1 }, { { 3, 4 } }, { { 0 }, { 2, 1 } }, { 0, 2 } },
	{ "Slice", 3, { 2, 1, 1 }, { { 3, 4 } }, { { 0 }, { 1, 1 }, { 2, -1 } }, { 0, 2, 2 } },
	{ "StridedSlice", 4, { 2, 1, 1, 1 }, { { 3, 4 } },
	  { { 0 }, { 2, 0 }, { 0, 4 }, { -1, 2 } }, { 0, 2, 2, 2 }, .iattr = "end_mask",
	  .ival = 1 },
	{ "GatherV2", 3, { 2, 1, 0 }, { { 3, 4 }, { 5 } }, { { 0 }, { 0 }, { 1 } }, { 0, 0, 1 } },
	{ "Conv2D", 2, { 4, 4 }, { { 1, 5, 5, 2 }, { 3, 3, 2, 3 } }, .sattr = "padding",
	  .sval = "SAME", .lattr = "strides", .lval = { 1, 2, 1, 1 } },
	{ "MaxPool", 1, { 4 }, { { 1, 5, 5, 2 } }, .sattr = "padding", .sval = "VALID",
	  .lattr = "strides", .lval = { 1, 2, 2, 1 } },
	{ "AvgPool", 1, { 4 }, { { 1, 5, 5, 2 } }, .sattr = "padding", .sval = "SAME",
	  .lattr = "strides", .lval = { 1, 2, 2, 1 } },
	{ "ZerosLike", 1, { 2 }, { { 3, 4 } } },
	{ "Identity", 1, { 2 }, { { 3, 4 } } },
	{ "Squeeze", 1, { 3 }, { { 3, 1, 4 } } },
	{ "Unpack", 1, { 2 }, { { 3, 4 } }, .iattr = "num", .ival = 3 },
};

TEST_F(xrt, structured_ops_agree_with_the_evaluator)
{
	xrt_eager_context *c = NULL;
	size_t i;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const struct call *cl = &calls[i];
		xrt_tensor *in[4] = { NULL };
		xrt_op *op;
		uint32_t k;

		ASSERT_OK(xrt_op_create(c, cl->name, &op));
		for (k = 0; k < cl->n; k++) {
			if (cl->const_len[k]) {
				int64_t len = cl->const_len[k];

				ASSERT_OK(xrt_tensor_from_host(c, XRT_S32, cl->rank[k] ? 1 : 0,
							       &len, cl->consts[k], 4 * len,
							       &in[k]));
			} else {
				enum xrt_dtype t = !strcmp(cl->name, "GatherV2") && k == 1 ?
						   XRT_S32 : XRT_F32;

				in[k] = random_tensor(_metadata, c, t, cl->rank[k], cl->dims[k]);
				if (t == XRT_S32) {	/* valid indices: 0..2 */
					int32_t idx[5] = { 0, 2, 1, 1, 0 };

					xrt_tensor_unref(in[k]);
					ASSERT_OK(xrt_tensor_from_host(c, XRT_S32, 1, cl->dims[k],
								       idx, sizeof(idx), &in[k]));
				}
			}
			ASSERT_OK(xrt_op_add_input(op, in[k]));
		}
		if (cl->battr)
			ASSERT_OK(xrt_op_set_attr_bool(op, cl->battr, true));
		if (cl->iattr)
			ASSERT_OK(xrt_op_set_attr_int(op, cl->iattr, cl->ival));
		if (cl->sattr)
			ASSERT_OK(xrt_op_set_attr_string(op, cl->sattr, cl->sval));
		if (cl->lattr)
			ASSERT_OK(xrt_op_set_attr_int_list(op, cl->lattr, cl->lval, 4));
		if (!strcmp(cl->name, "MaxPool") || !strcmp(cl->name, "AvgPool"))
			ASSERT_OK(xrt_op_set_attr_int_list(op, "ksize",
							   (int64_t[]){ 1, 3, 3, 1 }, 4));
		against_reference(_metadata, op);
		xrt_op_destroy(op);
		for (k = 0; k < cl->n; k++)
			xrt_tensor_unref(in[k]);
	}
	xrt_eager_context_destroy(c);
}

TEST_HARNESS_MAIN
