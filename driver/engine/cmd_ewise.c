// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * EWISE: a fused elementwise kernel.  Each item covers ENGINE_ITEM_ELEMS
 * elements of the iteration space in row-major order; rows are cut into
 * blocks of EW_BLOCK elements that run through the whole expression
 * program while they are in registers.
 */
#include "ew.h"

static const struct xrt_cs_operand *operands(const struct xrt_cs_ewise *c)
{
	return (const void *)(c + 1);
}

static const struct xrt_cs_ew_inst *insts(const struct xrt_cs_ewise *c)
{
	return (const void *)(operands(c) + c->num_operands);
}

/* Checks operands over an iteration space; shared with REDUCE. */
int engine_check_operands(struct vctx *v, const struct xrt_cs_operand *ops,
			  u32 n, u32 rank, const u64 *dims)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		const struct xrt_cs_operand *o = &ops[i];
		u32 need = o->flags == XRT_CS_OPERAND_IN ? XRT_CS_SLOT_READ :
							  XRT_CS_SLOT_WRITE;

		if (o->pad)
			return engine_fail(v, i, "operand padding not 0", 0, 0);
		if (o->flags != XRT_CS_OPERAND_IN && o->flags != XRT_CS_OPERAND_OUT)
			return engine_fail(v, i, "operand flags neither IN nor OUT",
					   o->flags, 0);
		for (j = rank; j < XRT_CS_MAX_RANK; j++) {
			if (o->strides[j])
				return engine_fail(v, i, "strides past the rank not 0", j, 0);
		}
		if (engine_check_span(v, i, o->slot, o->dtype, o->offset, rank,
				      dims, o->strides, need))
			return -1;
	}
	return 0;
}

/* An OUT operand may meet another operand only as the same view. */
int engine_check_outputs_apart(struct vctx *v, const struct xrt_cs_operand *ops,
			       u32 n, u32 rank, const u64 *dims)
{
	u64 lo[XRT_CS_MAX_OPERANDS], hi[XRT_CS_MAX_OPERANDS];
	u32 i, j;

	for (i = 0; i < n; i++)
		engine_span_bytes(ops[i].offset, xs_dtype_size(ops[i].dtype),
				  rank, dims, ops[i].strides, &lo[i], &hi[i]);
	for (i = 0; i < n; i++) {
		if (ops[i].flags != XRT_CS_OPERAND_OUT)
			continue;
		for (j = 0; j < n; j++) {
			int same = ops[i].slot == ops[j].slot &&
				   ops[i].offset == ops[j].offset &&
				   ops[i].dtype == ops[j].dtype;
			u32 d;

			for (d = 0; d < rank; d++)
				same = same && ops[i].strides[d] == ops[j].strides[d];

			if (j == i || !engine_overlap(ops[i].slot, lo[i], hi[i],
						      ops[j].slot, lo[j], hi[j]))
				continue;
			if (!same || ops[j].flags == XRT_CS_OPERAND_OUT)
				return engine_fail(v, i, "OUT operand overlaps another operand",
						   i, j);
		}
	}
	return 0;
}

static int ewise_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_ewise *c = cmd;
	u8 types[XRT_CS_MAX_REGS];
	u64 need, ws;
	u32 i;

	if (c->cmd.flags || c->pad)
		return engine_fail(v, ~0u, "EWISE: flags or padding not 0", 0, 0);
	if (c->rank > XRT_CS_MAX_RANK)
		return engine_fail(v, ~0u, "EWISE: rank above 8", c->rank, 0);
	if (!c->num_operands || c->num_operands > XRT_CS_MAX_OPERANDS)
		return engine_fail(v, ~0u, "EWISE: number of operands not 1..16",
				   c->num_operands, 0);
	if (!c->num_regs || c->num_regs > XRT_CS_MAX_REGS)
		return engine_fail(v, ~0u, "EWISE: number of registers not 1..32",
				   c->num_regs, 0);
	if (!c->num_insts || c->num_insts > XRT_CS_MAX_INSTS)
		return engine_fail(v, ~0u, "EWISE: number of instructions not 1..256",
				   c->num_insts, 0);
	need = sizeof(*c) + c->num_operands * sizeof(struct xrt_cs_operand) +
	       (u64)c->num_insts * sizeof(struct xrt_cs_ew_inst);
	if (size != need)
		return engine_fail(v, ~0u, "EWISE: size differs from its arrays",
				   size, need);
	for (i = c->rank; i < XRT_CS_MAX_RANK; i++) {
		if (c->dims[i])
			return engine_fail(v, ~0u, "EWISE: dims past the rank not 0", i, 0);
	}
	if (engine_check_operands(v, operands(c), c->num_operands, c->rank,
				  c->dims) ||
	    engine_check_outputs_apart(v, operands(c), c->num_operands, c->rank,
				       c->dims) ||
	    ew_check_program(v, operands(c), c->num_operands, insts(c),
			     c->num_insts, c->num_regs, 1, types))
		return -1;
	ws = (u64)(c->num_regs + EW_EXTRA_REGS) * EW_REG_BYTES;
	if (ws > v->prog->thread_ws_size)
		v->prog->thread_ws_size = ws;
	/* A plan of one instruction fits in the smallest command. */
	BUILD_BUG_ON(sizeof(struct ew_plan) + sizeof(struct ew_inst_plan) >
		     sizeof(struct xrt_cs_ewise) + sizeof(struct xrt_cs_operand) +
		     sizeof(struct xrt_cs_ew_inst));
	ew_make_plan(operands(c), c->num_operands, insts(c), c->num_insts,
		     c->rank, c->rank ? c->rank - 1 : 0,
		     engine_count(c->rank, c->dims), ew_plan_of(v->prog, c));
	return 0;
}

static u64 ewise_items(const struct xrt_engine_ctx *x, const void *cmd,
		       u32 phase)
{
	return engine_elem_items(ew_plan_of(x->prog, cmd)->count);
}

/* The program over @len elements from where @row points, block by block. */
static void run_row(const struct xrt_cs_ewise *c, struct ew_row *row, u64 len,
		    void *ws)
{
	const void *at[XRT_CS_MAX_REGS];
	u64 off;

	for (off = 0; off < len; off += EW_BLOCK)
		ew_run_block(operands(c), insts(c), c->num_insts, row, off,
			     (u32)engine_min(len - off, EW_BLOCK), ws, c->num_regs,
			     at);
	ew_row_end(row);
}

static void ewise_run(const struct xrt_engine_ctx *x, const void *cmd,
		      u32 phase, u64 first, u64 count, void *ws)
{
	const struct xrt_cs_ewise *c = cmd;
	const struct xrt_cs_operand *ops = operands(c);
	u64 start = first * ENGINE_ITEM_ELEMS;
	struct ew_row row = { ew_plan_of(x->prog, c) };
	struct row_iter it;
	u64 len;
	u32 i;

	count = engine_min(count * ENGINE_ITEM_ELEMS, row.plan->count - start);
	/* The compiler flattens dense spaces to rank 1: one row, no iterator. */
	if (c->rank <= 1) {
		for (i = 0; i < c->num_operands; i++)
			row.ptr[i] = engine_ptr(x, ops[i].slot, ops[i].offset) +
				     (s64)start * row.plan->stride[i] *
				     (s64)row.plan->es[i];
		run_row(c, &row, count, ws);
		ew_rows_done(row.plan);
		return;
	}
	row_iter_init(&it, c->rank, c->dims, start, count);
	while (row_iter_next(&it, &len)) {
		for (i = 0; i < c->num_operands; i++)
			row.ptr[i] = engine_ptr(x, ops[i].slot, ops[i].offset) +
				     row_iter_offset(&it, ops[i].strides) *
				     (s64)row.plan->es[i];
		run_row(c, &row, len, ws);
		row_iter_advance(&it, len);
	}
	ew_rows_done(row.plan);
}

const struct cmd_ops engine_ewise_ops = {
	.name = "EWISE",
	.fixed_size = sizeof(struct xrt_cs_ewise),
	.validate = ewise_validate,
	.phases = engine_one_phase,
	.items = ewise_items,
	.run = ewise_run,
};
