// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * COLLECTIVE: arrays exchanged with the devices running the same
 * program.  As for CALL, the engine checks the views and runs nothing:
 * the executor stops before the command, performs it through its
 * communicator, and goes on after it (xrt_engine_collective_of()).
 * What depends on the group (its size dividing a dimension) is the
 * executor's to check, from the table the command's group indexes.
 */
#include "engine_internal.h"

#define MSG_GATHERED "COLLECTIVE: a gathered dimension is not a multiple of the input's"
#define MSG_SCATTERED "COLLECTIVE: a scattered dimension does not divide the input's"
#define MSG_DENSE "COLLECTIVE: a view is not dense and row-major"
#define MSG_TUPLE "COLLECTIVE: ALL_TO_ALL_TUPLE's views are not of one shape"
#define MSG_COUNTS "COLLECTIVE: num_in and num_out not equal, from 1 to XRT_CS_COLL_MAX_VIEWS"
#define MSG_OVERLAP "COLLECTIVE: an output overlaps another view"

static const struct xrt_cs_view *views(const struct xrt_cs_collective *c)
{
	return (const void *)(c + 1);
}

static int check_op(struct vctx *v, const struct xrt_cs_collective *c, u32 dtype)
{
	int reduces = c->kind == XRT_CS_COLL_ALL_REDUCE || c->kind == XRT_CS_COLL_REDUCE_SCATTER;

	if (!reduces)
		return c->op ? engine_fail(v, ~0u,
					   "COLLECTIVE: op set for a kind that does not reduce",
					   c->op, c->kind) : 0;
	if (c->op < XRT_CS_RED_SUM || c->op > XRT_CS_RED_OR)
		return engine_fail(v, ~0u, "COLLECTIVE: op is not SUM to OR", c->op, 0);
	if (!engine_red_allows(c->op, dtype))
		return engine_fail(v, ~0u, "COLLECTIVE: op does not take the dtype", c->op,
				   dtype);
	return 0;
}

/* Whether @kind joins (ALL_GATHER) or cuts (REDUCE_SCATTER) or splits dimension dim. */
static int takes_dim(u32 kind)
{
	return kind == XRT_CS_COLL_ALL_GATHER || kind == XRT_CS_COLL_REDUCE_SCATTER ||
	       kind == XRT_CS_COLL_ALL_TO_ALL;
}

/* out's dims against in's: the same, but for @dim of a gather or a scatter. */
static int check_pair(struct vctx *v, const struct xrt_cs_collective *c, u32 k,
		      const struct xrt_cs_view *in, const struct xrt_cs_view *out)
{
	u32 d;

	if (in->dtype != out->dtype || in->rank != out->rank)
		return engine_fail(v, k, "COLLECTIVE: an output's dtype or rank is not its input's",
				   out->dtype, out->rank);
	if (takes_dim(c->kind) && c->dim >= in->rank)
		return engine_fail(v, k, "COLLECTIVE: dim not below the rank", c->dim, in->rank);
	for (d = 0; d < in->rank; d++) {
		u64 a = in->dims[d], b = out->dims[d];

		if (d == c->dim && c->kind == XRT_CS_COLL_ALL_GATHER) {
			if (a ? b % a : b)
				return engine_fail(v, k, MSG_GATHERED, b, a);
		} else if (d == c->dim && c->kind == XRT_CS_COLL_REDUCE_SCATTER) {
			if (b ? a % b : a)
				return engine_fail(v, k, MSG_SCATTERED, b, a);
		} else if (a != b) {
			return engine_fail(v, k, "COLLECTIVE: an output's dims are not its input's",
					   d, b);
		}
	}
	return 0;
}

static int same_shape(const struct xrt_cs_view *a, const struct xrt_cs_view *b)
{
	u32 d;

	if (a->dtype != b->dtype || a->rank != b->rank)
		return 0;
	for (d = 0; d < a->rank; d++)
		if (a->dims[d] != b->dims[d])
			return 0;
	return 1;
}

static int check_views(struct vctx *v, const struct xrt_cs_collective *c)
{
	const struct xrt_cs_view *w = views(c);
	u32 n = c->num_in, k;

	for (k = 0; k < 2 * n; k++)
		if (engine_check_view(v, k, &w[k], k < n ? XRT_CS_SLOT_READ : XRT_CS_SLOT_WRITE) ||
		    engine_check_dense(v, k, &w[k], MSG_DENSE))
			return -1;
	for (k = 0; k < n; k++) {
		if (c->kind == XRT_CS_COLL_ALL_TO_ALL_TUPLE) {
			if (!same_shape(&w[k], &w[0]) || !same_shape(&w[n + k], &w[0]))
				return engine_fail(v, k, MSG_TUPLE, k, 0);
		} else if (check_pair(v, c, k, &w[k], &w[n + k])) {
			return -1;
		}
		if (check_op(v, c, w[k].dtype))
			return -1;
	}
	return engine_views_apart(v, views(c), c->num_in, 2u * c->num_in, MSG_OVERLAP);
}

static int coll_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_collective *c = cmd;

	if (c->cmd.flags || c->pad || c->reserved)
		return engine_fail(v, ~0u, "COLLECTIVE: flags, pad or reserved not 0",
				   c->cmd.flags, c->reserved);
	if (c->kind < XRT_CS_COLL_ALL_REDUCE || c->kind > XRT_CS_COLL_BROADCAST)
		return engine_fail(v, ~0u, "COLLECTIVE: unknown kind", c->kind, 0);
	if (!takes_dim(c->kind) && c->dim)
		return engine_fail(v, ~0u, "COLLECTIVE: dim set for a kind without one", c->dim,
				   c->kind);
	if (!c->num_in || c->num_in != c->num_out || c->num_in > XRT_CS_COLL_MAX_VIEWS)
		return engine_fail(v, ~0u, MSG_COUNTS, c->num_in, c->num_out);
	if (size != sizeof(*c) + 2ull * c->num_in * sizeof(struct xrt_cs_view))
		return engine_fail(v, ~0u, "COLLECTIVE: size is not that of its views", size,
				   c->num_in);
	return check_views(v, c);
}

static u32 no_phases(const void *cmd)
{
	return 0;
}

const struct cmd_ops engine_collective_ops = {
	.name = "COLLECTIVE",
	.fixed_size = sizeof(struct xrt_cs_collective),
	.validate = coll_validate,
	.phases = no_phases,
};

const struct xrt_cs_collective *xrt_engine_collective_of(const struct xrt_engine_ctx *x,
							 u32 pc)
{
	const struct xrt_cs_cmd *c = (const void *)(x->prog->base + x->prog->offsets[pc]);

	return c->op == XRT_CS_OP_COLLECTIVE ? (const void *)c : 0;
}

const struct xrt_cs_view *xrt_engine_collective_view(const struct xrt_cs_collective *c, u32 i)
{
	return &views(c)[i];
}
