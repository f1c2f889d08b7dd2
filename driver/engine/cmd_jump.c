// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * JUMP: continue at another command, always or on a predicate.  It has
 * no phases: xrt_engine_next() evaluates it.
 */
#include "engine_internal.h"

static int jump_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_jump *c = cmd;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "JUMP: size is not sizeof(struct xrt_cs_jump)",
				   size, sizeof(*c));
	if (c->cmd.flags)
		return engine_fail(v, ~0u, "JUMP: flags not 0", c->cmd.flags, 0);
	if (c->target > v->prog->num_commands)
		return engine_fail(v, ~0u, "JUMP: target past the end", c->target,
				   v->prog->num_commands);
	switch (c->mode) {
	case XRT_CS_JUMP_ALWAYS:
		if (!engine_zero(&c->pred, sizeof(c->pred)))
			return engine_fail(v, 0, "JUMP: predicate set for ALWAYS", 0, 0);
		return 0;
	case XRT_CS_JUMP_IF_TRUE:
	case XRT_CS_JUMP_IF_FALSE:
		return engine_check_scalar(v, 0, &c->pred, XRT_CS_PRED);
	}
	return engine_fail(v, ~0u, "JUMP: unknown mode", c->mode, 0);
}

static u32 no_phases(const void *cmd)
{
	return 0;
}

u32 engine_jump_next(const struct xrt_engine_ctx *x, const void *cmd, u32 pc)
{
	const struct xrt_cs_jump *c = cmd;
	int want;
	u8 p;

	if (c->mode == XRT_CS_JUMP_ALWAYS)
		return c->target;
	p = *engine_ptr(x, c->pred.slot, c->pred.offset);
	want = c->mode == XRT_CS_JUMP_IF_TRUE;
	if (!!p == want)
		return c->target;
	return pc + 1;
}

const struct cmd_ops engine_jump_ops = {
	.name = "JUMP",
	.fixed_size = sizeof(struct xrt_cs_jump),
	.validate = jump_validate,
	.phases = no_phases,
};
