// SPDX-License-Identifier: MIT
/*
 * A CALL command on the host: the executable's call table says which
 * custom call it is; its views become the handler's buffers, in place
 * (the engine validated them: dense, inside their slots, results apart).
 * A view of an array in another layout has its dims in physical order:
 * the call table's layouts give the handler the array's dims back.
 */
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"
#include "host_device.h"

/* Calls of up to this many arrays describe them on the stack: no allocation per call. */
#define SMALL_CALL 16

xrt_status *host_call(const struct xrt_executable *exe, const struct xrt_engine_ctx *x,
		      const struct xrt_cs_call *c)
{
	uint32_t n = (uint32_t)c->num_args + c->num_results, i, d;
	struct xrt_ffi_buffer few_b[SMALL_CALL], *b = few_b;
	int64_t few_dims[SMALL_CALL * XRT_CS_MAX_RANK], *dims = few_dims;
	const struct xexe_call *e;
	struct xrt_ffi_call call;
	xrt_status *st;

	if (!exe || c->target >= exe->num_calls)
		return xrt_status_new(NULL, XRT_INTERNAL, "CALL %u: the program has %u calls",
				      c->target, exe ? exe->num_calls : 0);
	e = &exe->calls[c->target];
	if (n > SMALL_CALL) {
		b = xrt_mem_calloc(NULL, n, sizeof(*b));
		dims = xrt_mem_calloc(NULL, (size_t)n * XRT_CS_MAX_RANK, sizeof(*dims));
		if (!b || !dims) {
			xrt_mem_free(NULL, b);
			xrt_mem_free(NULL, dims);
			return xrt_status_oom(NULL, "a custom call");
		}
	}
	for (i = 0; i < n; i++) {
		const struct xrt_cs_view *v = xrt_engine_call_view(c, i);

		b[i].dtype = (enum xrt_dtype)v->dtype;	/* the command stream's numbers */
		b[i].rank = v->rank;
		b[i].dims = dims + (size_t)i * XRT_CS_MAX_RANK;
		b[i].data = xrt_engine_view_data(x, v);
		b[i].size = xrt_dtype_size(b[i].dtype);
		for (d = 0; d < v->rank; d++) {
			uint32_t to = e->layouts ? e->layouts[i][d] : d;

			dims[(size_t)i * XRT_CS_MAX_RANK + to] = (int64_t)v->dims[d];
			b[i].size *= v->dims[d];	/* validated: inside a slot */
		}
	}
	call = (struct xrt_ffi_call){ e->target, e->where, c->num_args, b, c->num_results,
				      b + c->num_args, e->attrs, e->opaque, strlen(e->opaque) };
	st = xffi_run(&call, NULL);
	if (b != few_b) {
		xrt_mem_free(NULL, b);
		xrt_mem_free(NULL, dims);
	}
	return st;
}
