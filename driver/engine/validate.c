// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Program validation: the header, the slot table, and every command,
 * with overflow-checked arithmetic throughout.  Nothing is trusted.
 */
#include "engine_internal.h"

const struct cmd_ops *const engine_cmd_table[ENGINE_NUM_OPS] = {
	[XRT_CS_OP_COPY] = &engine_copy_ops,
	[XRT_CS_OP_FILL] = &engine_fill_ops,
	[XRT_CS_OP_EWISE] = &engine_ewise_ops,
	[XRT_CS_OP_REDUCE] = &engine_reduce_ops,
	[XRT_CS_OP_DOT] = &engine_dot_ops,
	[XRT_CS_OP_GATHER] = &engine_gather_ops,
	[XRT_CS_OP_SCATTER] = &engine_scatter_ops,
	[XRT_CS_OP_DYNAMIC_SLICE] = &engine_dslice_ops,
	[XRT_CS_OP_DYNAMIC_UPDATE_SLICE] = &engine_dupdate_ops,
	[XRT_CS_OP_SORT] = &engine_sort_ops,
	[XRT_CS_OP_RNG] = &engine_rng_ops,
	[XRT_CS_OP_JUMP] = &engine_jump_ops,
	[XRT_CS_OP_SCAN] = &engine_scan_ops,
	[XRT_CS_OP_CALL] = &engine_call_ops,
	[XRT_CS_OP_COLLECTIVE] = &engine_collective_ops,
};

const struct cmd_ops *engine_cmd_ops(u32 op)
{
	if (op >= ENGINE_NUM_OPS)
		return 0;
	return engine_cmd_table[op];
}

int engine_fail(struct vctx *v, u32 part, const char *reason, u64 a, u64 b)
{
	v->err->command = v->command;
	v->err->part = part;
	v->err->reason = reason;
	v->err->value[0] = a;
	v->err->value[1] = b;
	return -1;
}

int engine_zero(const void *p, size_t n)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i])
			return 0;
	}
	return 1;
}

static int check_header(struct vctx *v, const u8 *data, u64 size)
{
	const struct xrt_cs_header *h = (const void *)data;
	u64 slots_end;

	if (!data || ((unsigned long)data & 7))
		return engine_fail(v, ~0u, "program is not 8-byte aligned", 0, 0);
	if (size < sizeof(*h))
		return engine_fail(v, ~0u, "program shorter than its header",
				   size, sizeof(*h));
	if (h->magic != XRT_CS_MAGIC)
		return engine_fail(v, ~0u, "bad magic", h->magic, XRT_CS_MAGIC);
	if (h->version != XRT_CS_VERSION)
		return engine_fail(v, ~0u, "unsupported version", h->version,
				   XRT_CS_VERSION);
	if (h->header_size != sizeof(*h))
		return engine_fail(v, ~0u, "header_size differs from this version's",
				   h->header_size, sizeof(*h));
	if (h->flags || !engine_zero(h->reserved, sizeof(h->reserved)))
		return engine_fail(v, ~0u, "header flags or reserved words not 0",
				   h->flags, 0);
	if (h->size != size)
		return engine_fail(v, ~0u, "header size differs from the program's",
				   h->size, size);
	if ((h->slots_offset & 7) || h->slots_offset < sizeof(*h) ||
	    h->slots_offset > size ||
	    h->num_slots > (size - h->slots_offset) / sizeof(struct xrt_cs_slot))
		return engine_fail(v, ~0u, "slot table outside the program",
				   h->slots_offset, h->num_slots);
	if (check_mul_overflow((u64)h->num_slots, (u64)sizeof(struct xrt_cs_slot),
			       &slots_end) ||
	    check_add_overflow(slots_end, h->slots_offset, &slots_end) ||
	    (h->commands_offset & 7) || h->commands_offset < slots_end ||
	    h->commands_offset > size)
		return engine_fail(v, ~0u, "commands_offset outside the program",
				   h->commands_offset, size);
	/* Every command takes at least 8 bytes. */
	if (h->num_commands > (size - h->commands_offset) / 8)
		return engine_fail(v, ~0u, "more commands than bytes for them",
				   h->num_commands, size);
	return 0;
}

int xrt_engine_count_commands(const void *data, u64 size, u32 *count,
			      struct xrt_engine_error *err)
{
	struct vctx v = { 0, err, ~0u };

	if (check_header(&v, data, size))
		return -1;
	*count = ((const struct xrt_cs_header *)data)->num_commands;
	return 0;
}

static int check_slots(struct vctx *v)
{
	const struct xrt_cs_slot *s = v->prog->slots;
	u32 i;

	for (i = 0; i < v->prog->num_slots; i++) {
		if (s[i].flags & ~XRT_CS_SLOT_FLAGS)
			return engine_fail(v, i, "unknown slot flags", s[i].flags, 0);
		if (s[i].reserved)
			return engine_fail(v, i, "slot reserved word not 0", 0, 0);
		if (s[i].size > (1ull << 62))
			return engine_fail(v, i, "slot larger than 2^62 bytes",
					   s[i].size, 0);
	}
	return 0;
}

static int check_command(struct vctx *v, u64 at)
{
	const struct xrt_cs_cmd *c = (const void *)(v->prog->base + at);
	const struct cmd_ops *ops;
	u64 left = v->prog->size - at;

	if (left < sizeof(*c))
		return engine_fail(v, ~0u, "command header past the end", at, 0);
	ops = engine_cmd_ops(c->op);
	if (!ops)
		return engine_fail(v, ~0u, "unknown opcode", c->op, 0);
	if (c->size & 7 || c->size < ops->fixed_size || c->size > left)
		return engine_fail(v, ~0u, "bad command size", c->size,
				   ops->fixed_size);
	return ops->validate(v, c, c->size);
}

/* The header and the slot table, and @prog set up for the commands. */
static int validate_start(struct vctx *v, const void *data, u64 size, u32 *offsets,
			  u8 *plans)
{
	struct xrt_engine_prog *prog = v->prog;
	const struct xrt_cs_header *h = data;

	if (!offsets || !plans)
		return engine_fail(v, ~0u, "no room for command offsets or plans",
				   !offsets, !plans);
	if (check_header(v, data, size))
		return -1;
	prog->base = data;
	prog->size = size;
	prog->slots = (const void *)(prog->base + h->slots_offset);
	prog->num_slots = h->num_slots;
	prog->num_commands = h->num_commands;
	prog->offsets = offsets;
	prog->plans = plans;
	prog->thread_ws_size = 0;
	prog->shared_ws_size = 0;
	return check_slots(v);
}

/*
 * The commands from *@next, @budget of them at most; where the next one
 * starts follows from the last one checked, so nothing else is kept
 * between calls.
 */
int xrt_engine_validate_some(struct xrt_engine_prog *prog, const void *data,
			     u64 size, u32 *offsets, u8 *plans,
			     struct xrt_engine_error *err, u32 *next, u32 budget)
{
	const struct xrt_cs_header *h = data;
	struct vctx v = { prog, err, ~0u };
	u32 i = *next, end;
	u64 at;

	if (!i && validate_start(&v, data, size, offsets, plans))
		return -1;
	if (i > prog->num_commands)
		return engine_fail(&v, ~0u, "validation resumed past the last command", i, 0);
	at = i ? offsets[i - 1] + ((const struct xrt_cs_cmd *)(prog->base + offsets[i - 1]))->size :
		 h->commands_offset;
	end = prog->num_commands - i > budget ? i + budget : prog->num_commands;
	for (; i < end; i++) {
		v.command = i;
		offsets[i] = (u32)at;
		if (at > 0xffffffffull)
			return engine_fail(&v, ~0u, "program larger than 4 GiB", at, 0);
		if (check_command(&v, at))
			return -1;
		at += ((const struct xrt_cs_cmd *)(prog->base + at))->size;
	}
	*next = i;
	if (i < prog->num_commands)
		return 0;
	v.command = ~0u;
	if (at != size)
		return engine_fail(&v, ~0u, "bytes after the last command", at, size);
	return 1;
}

int xrt_engine_validate(struct xrt_engine_prog *prog, const void *data,
			u64 size, u32 *offsets, u8 *plans,
			struct xrt_engine_error *err)
{
	u32 next = 0;

	return xrt_engine_validate_some(prog, data, size, offsets, plans, err, &next,
					~0u) == 1 ? 0 : -1;
}
