// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * CALL: arrays handed to code of the submitting process (a custom call).
 * The engine checks its views and runs nothing for it: it has no
 * phases, and the executor that keeps the call table makes the call
 * between the commands before and after (xrt_engine_call_of()).  The
 * kernel's jobs run no user code, so its build refuses the command.
 */
#include "engine_internal.h"

static const struct xrt_cs_view *views(const struct xrt_cs_call *c)
{
	return (const void *)(c + 1);
}

int engine_check_dense(struct vctx *v, u32 part, const struct xrt_cs_view *w, const char *reason)
{
	u64 want = 1;
	int d;

	for (d = (int)w->rank - 1; d >= 0; d--) {
		if (w->strides[d] != (s64)want)
			return engine_fail(v, part, reason, d, 0);
		if (check_mul_overflow(want, w->dims[d], &want) || want > (1ull << 62))
			want = 0;	/* only a 0 dimension gets here: no element is reached */
	}
	return 0;
}

int engine_views_apart(struct vctx *v, const struct xrt_cs_view *w, u32 first_out, u32 n,
		       const char *reason)
{
	u64 lo[2], hi[2];
	u32 i, k;

	for (i = first_out; i < n; i++) {
		engine_span_bytes(w[i].offset, xs_dtype_size(w[i].dtype), w[i].rank, w[i].dims,
				  w[i].strides, &lo[0], &hi[0]);
		for (k = 0; k < n; k++) {
			if (k == i)
				continue;
			engine_span_bytes(w[k].offset, xs_dtype_size(w[k].dtype), w[k].rank,
					  w[k].dims, w[k].strides, &lo[1], &hi[1]);
			if (engine_overlap(w[i].slot, lo[0], hi[0], w[k].slot, lo[1], hi[1]))
				return engine_fail(v, i, reason, i, k);
		}
	}
	return 0;
}

static int call_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_call *c = cmd;
	u32 n, i;

#ifdef __KERNEL__
	return engine_fail(v, ~0u, "CALL: the kernel runs no code of the process", 0, 0);
#endif
	n = (u32)c->num_args + c->num_results;
	if (c->cmd.flags || c->reserved)
		return engine_fail(v, ~0u, "CALL: flags or reserved not 0", c->cmd.flags, 0);
	if (n > XRT_CS_CALL_MAX_VIEWS)
		return engine_fail(v, ~0u, "CALL: more views than XRT_CS_CALL_MAX_VIEWS", n,
				   XRT_CS_CALL_MAX_VIEWS);
	if (size != sizeof(*c) + (u64)n * sizeof(struct xrt_cs_view))
		return engine_fail(v, ~0u, "CALL: size is not that of its views", size, n);
	for (i = 0; i < n; i++) {
		if (engine_check_view(v, i, &views(c)[i],
				      i < c->num_args ? XRT_CS_SLOT_READ : XRT_CS_SLOT_WRITE) ||
		    engine_check_dense(v, i, &views(c)[i],
				       "CALL: a view is not dense and row-major"))
			return -1;
	}
	return engine_views_apart(v, views(c), c->num_args, n,
				  "CALL: a result overlaps another view");
}

static u32 no_phases(const void *cmd)
{
	return 0;
}

const struct cmd_ops engine_call_ops = {
	.name = "CALL",
	.fixed_size = sizeof(struct xrt_cs_call),
	.validate = call_validate,
	.phases = no_phases,
};

const struct xrt_cs_call *xrt_engine_call_of(const struct xrt_engine_ctx *x, u32 pc)
{
	const struct xrt_cs_cmd *c = (const void *)(x->prog->base + x->prog->offsets[pc]);

	return c->op == XRT_CS_OP_CALL ? (const void *)c : 0;
}

const struct xrt_cs_view *xrt_engine_call_view(const struct xrt_cs_call *c, u32 i)
{
	return &views(c)[i];
}

u8 *xrt_engine_view_data(const struct xrt_engine_ctx *x, const struct xrt_cs_view *v)
{
	return engine_ptr(x, v->slot, v->offset);
}
