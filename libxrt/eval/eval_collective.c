// SPDX-License-Identifier: MIT
/*
 * Collectives as one participant sees them alone.  The evaluator runs a
 * module of one replica and one partition (ir_module_check_single), so
 * every group is {0}: a sum, gather, scatter or exchange over one
 * participant is its own operand, and a permute delivers to 0 only what
 * 0 sends itself.
 */
#include "eval/eval.h"

/* The operands themselves: one value, or the tuple of them. */
static struct ev_val *own_operands(struct ev *ev, struct ev_val *const *ops)
{
	return xrt_shape_is_tuple(&ev->in->shape) ? ev_tuple(ev, ops) : ev_copy(ev, ops[0]);
}

/* Whether participant 0 sends to itself: a pair {0,0} (each pair is "2, source, target"). */
static bool sends_to_self(const struct ev *ev)
{
	uint32_t n, i;
	const int64_t *p = ev_ints(ev, IR_ATTR_SOURCE_TARGET_PAIRS, &n);

	for (i = 0; i + 2 < n; i += 3)
		if (p[i + 1] == 0 && p[i + 2] == 0)
			return true;
	return false;
}

struct ev_val *ev_collective(struct ev *ev, struct ev_val *const *ops)
{
	switch (ev->in->op) {
	case XRT_OP_REPLICA_ID:
	case XRT_OP_PARTITION_ID:
		return ev_new(ev, &ev->in->shape);	/* u32 0 */
	case XRT_OP_COLLECTIVE_PERMUTE:
		/* a participant no one sends to gets zeros */
		return sends_to_self(ev) ? ev_copy(ev, ops[0]) : ev_new(ev, &ev->in->shape);
	default:
		return own_operands(ev, ops);
	}
}
