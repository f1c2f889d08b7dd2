// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Running a validated program: dispatch to the commands, and a simple
 * sequential driver in bounded steps.
 */
#include "engine_internal.h"

u32 engine_one_phase(const void *cmd)
{
	return 1;
}

u64 engine_elem_items(u64 n)
{
	return (n + ENGINE_ITEM_ELEMS - 1) / ENGINE_ITEM_ELEMS;
}

static const struct xrt_cs_cmd *command(const struct xrt_engine_ctx *x, u32 pc)
{
	return (const void *)(x->prog->base + x->prog->offsets[pc]);
}

u32 xrt_engine_phases(const struct xrt_engine_ctx *x, u32 pc)
{
	const struct xrt_cs_cmd *c = command(x, pc);

	return engine_valid_ops(c)->phases(c);
}

u64 xrt_engine_items(const struct xrt_engine_ctx *x, u32 pc, u32 phase)
{
	const struct xrt_cs_cmd *c = command(x, pc);

	return engine_valid_ops(c)->items(x, c, phase);
}

void xrt_engine_run_items(const struct xrt_engine_ctx *x, u32 pc, u32 phase,
			  u64 first, u64 count, void *thread_ws)
{
	const struct xrt_cs_cmd *c = command(x, pc);

	if (count)
		engine_valid_ops(c)->run(x, c, phase, first, count, thread_ws);
}

u32 xrt_engine_next(const struct xrt_engine_ctx *x, u32 pc)
{
	const struct xrt_cs_cmd *c = command(x, pc);

	if (c->op == XRT_CS_OP_JUMP)
		return engine_jump_next(x, c, pc);
	return pc + 1;
}

int xrt_engine_step(const struct xrt_engine_ctx *x, struct xrt_engine_cursor *c,
		    u64 budget, void *thread_ws)
{
	u32 n = x->prog->num_commands, next;

	while (c->pc < n) {
		u32 phases = xrt_engine_phases(x, c->pc);

		if (xrt_engine_call_of(x, c->pc) || xrt_engine_collective_of(x, c->pc))
			return -1;	/* its executor runs it, around this */

		while (c->phase < phases) {
			u64 items = xrt_engine_items(x, c->pc, c->phase);
			u64 k = engine_min(items - c->item, budget);

			xrt_engine_run_items(x, c->pc, c->phase, c->item, k,
					     thread_ws);
			c->item += k;
			budget -= k;
			if (c->item < items)
				return 0;
			c->item = 0;
			c->phase++;
		}
		c->phase = 0;
		next = xrt_engine_next(x, c->pc);
		/* only a JUMP has no phases */
		if (!phases && x->jumped && x->jumped(x->jumped_arg, c->pc, next))
			return -1;
		c->pc = next;
		/* A loop of empty commands must still yield. */
		if (!budget--)
			return 0;
	}
	return 1;
}
