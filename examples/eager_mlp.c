// SPDX-License-Identifier: MIT
/*
 * The eager API: a two-layer MLP forward pass, one op at a time, on
 * concrete tensors: relu(x W1 + b1) W2 + b2.
 *
 *   cc eager_mlp.c $(pkg-config --cflags --libs libxrt)
 */
#include <stdio.h>

#include <xrt/eager.h>

static int failed(xrt_status *st, const char *what)
{
	if (!st)
		return 0;
	fprintf(stderr, "%s: %s\n", what, xrt_status_message(st));
	xrt_status_free(st);
	return 1;
}

/* Runs @name on @a (and @b); the output, or NULL after printing why. */
static xrt_tensor *run(xrt_op *op, const char *name, xrt_tensor *a, xrt_tensor *b)
{
	xrt_tensor *out = NULL;
	uint32_t n = 1;

	if (failed(xrt_op_reset(op, name, NULL), name) || failed(xrt_op_add_input(op, a), name) ||
	    (b && failed(xrt_op_add_input(op, b), name)) ||
	    failed(xrt_op_execute(op, &out, &n), name))
		return NULL;
	return out;
}

int main(void)
{
	static const float x[2 * 3] = { 1, 2, 3, -1, 0, 1 };
	static const float w1[3 * 4] = { 0.5f, -1, 0, 1, 0.25f, 0.5f, -0.5f, 0,
					 1, 0, 0.5f, -1 };
	static const float b1[4] = { 0, 0.5f, 0, 1 };
	static const float w2[4 * 2] = { 1, 0, 0, 1, 1, 1, -1, 0.5f };
	static const float b2[2] = { 0.1f, -0.1f };
	int64_t dx[2] = { 2, 3 }, dw1[2] = { 3, 4 }, db1[1] = { 4 }, dw2[2] = { 4, 2 };
	int64_t db2[1] = { 2 };
	xrt_tensor *t[5] = { NULL }, *h1, *h2, *h3, *h4, *y;
	xrt_eager_context *c;
	xrt_literal *lit;
	char text[256];
	xrt_op *op;
	int i, rc = 1;

	if (failed(xrt_eager_context_create(NULL, NULL, &c), "context"))
		return 1;
	if (failed(xrt_tensor_from_host(c, XRT_F32, 2, dx, x, sizeof(x), &t[0]), "x") ||
	    failed(xrt_tensor_from_host(c, XRT_F32, 2, dw1, w1, sizeof(w1), &t[1]), "w1") ||
	    failed(xrt_tensor_from_host(c, XRT_F32, 1, db1, b1, sizeof(b1), &t[2]), "b1") ||
	    failed(xrt_tensor_from_host(c, XRT_F32, 2, dw2, w2, sizeof(w2), &t[3]), "w2") ||
	    failed(xrt_tensor_from_host(c, XRT_F32, 1, db2, b2, sizeof(b2), &t[4]), "b2") ||
	    failed(xrt_op_create(c, "Identity", &op), "op"))
		goto out;
	h1 = run(op, "MatMul", t[0], t[1]);
	h2 = h1 ? run(op, "BiasAdd", h1, t[2]) : NULL;
	h3 = h2 ? run(op, "Relu", h2, NULL) : NULL;
	h4 = h3 ? run(op, "MatMul", h3, t[3]) : NULL;
	y = h4 ? run(op, "BiasAdd", h4, t[4]) : NULL;
	if (y && !failed(xrt_tensor_resolve(y, &lit), "resolve")) {
		/* worked by hand: relu([4, .5, .5, -1]) W2 + b2, relu([.5, 1.5, .5, -1]) W2 + b2 */
		static const float want[4] = { 4.6f, 0.9f, 1.1f, 1.9f };
		const float *v = xrt_literal_data(lit);

		xrt_literal_format(lit, text, sizeof(text));
		printf("mlp on %s: %s\n", xrt_tensor_device(y), text);
		rc = 0;
		for (i = 0; i < 4; i++)
			rc |= v[i] < want[i] - 1e-5f || v[i] > want[i] + 1e-5f;
		xrt_literal_destroy(lit);
	}
	xrt_tensor_unref(y);
	xrt_tensor_unref(h4);
	xrt_tensor_unref(h3);
	xrt_tensor_unref(h2);
	xrt_tensor_unref(h1);
	xrt_op_destroy(op);
out:
	for (i = 0; i < 5; i++)
		xrt_tensor_unref(t[i]);
	xrt_eager_context_destroy(c);
	return rc;
}
