// SPDX-License-Identifier: MIT
/*
 * Fuzzes function registration: any bytes given to
 * xrt_eager_add_function() are refused with a status or registered; a
 * registered function is then called on small tensors of its argument
 * types, which lowers and compiles its body (type inference, Const
 * nodes, calls) and must succeed or fail cleanly.  A fresh context per
 * input keeps the names apart; LeakSanitizer checks every path.
 */
#include <stdint.h>
#include <stdlib.h>

#include <xrt/eager.h>

#include "xrt.pb-c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Calls the function @f registered in @c once, on [2] tensors of zeros. */
static void call(xrt_eager_context *c, const Xrt__FunctionDef *f)
{
	static const uint8_t zeros[64];
	xrt_tensor *in[8] = { NULL }, *out[8] = { NULL };
	int64_t dims[1] = { 2 };
	uint32_t nr = 8, i, n = 0;
	xrt_status *st;
	xrt_op *op = NULL;

	st = xrt_op_create(c, f->name, &op);
	for (i = 0; !st && i < f->n_input_args && i < 8; i++) {
		enum xrt_dtype t = (enum xrt_dtype)f->input_args[i]->type;

		st = xrt_tensor_from_host(c, t, 1, dims, zeros, 2 * xrt_dtype_size(t), &in[n]);
		if (!st)
			st = xrt_op_add_input(op, in[n++]);
	}
	if (!st)
		st = xrt_op_execute(op, out, &nr);
	for (i = 0; !st && i < nr; i++)
		xrt_tensor_unref(out[i]);
	for (i = 0; i < n; i++)
		xrt_tensor_unref(in[i]);
	xrt_status_free(st);
	xrt_op_destroy(op);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xrt_eager_options o = { .threads = 1 };
	xrt_eager_context *c = NULL;
	Xrt__FunctionDef *f;
	xrt_status *st;

	st = xrt_eager_context_create(&o, NULL, &c);
	if (st)
		abort();
	st = xrt_eager_add_function(c, data, size);
	if (!st) {
		f = xrt__function_def__unpack(NULL, size, data);
		if (!f)
			abort();	/* registered, so it parses */
		call(c, f);
		xrt__function_def__free_unpacked(f, NULL);
	}
	xrt_status_free(st);
	xrt_eager_context_destroy(c);
	return 0;
}
