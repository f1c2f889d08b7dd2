// SPDX-License-Identifier: MIT
/*
 * Collectives in a program of one replica and one partition (cc_main
 * refuses more): every group is {0}, so a sum, gather, scatter or
 * exchange among one participant is its operands again, a permute
 * delivers to 0 only what 0 sends itself, and the ids are 0.
 */
#include "cc.h"
#include "ir/opcode.h"

/* Whether the pairs send 0 to itself (each pair is "2, source, target"). */
static bool sends_to_self(const struct ir_instr *in)
{
	const struct ir_attr *p = ir_instr_attr(in, IR_ATTR_SOURCE_TARGET_PAIRS);
	uint32_t i;

	for (i = 0; p && i + 2 < p->n; i += 3)
		if (p->ints[i + 1] == 0 && p->ints[i + 2] == 0)
			return true;
	return false;
}

/* Value @v: zeros of instruction @i's (array) shape. */
static void zeros(struct cc *cc, uint32_t i, uint32_t v)
{
	const struct xrt_shape *s = &cc->c->instrs[i].shape;

	if (!cc_alloc(cc, v, s->dtype, s->rank, s->dims) && xrt_shape_element_count(s))
		cc_fill_value(cc, &cc->vals[v].buf, (uint8_t[16]){ 0 });
}

void cc_lower_collective(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);

	switch (in->op) {
	case XRT_OP_REPLICA_ID:
	case XRT_OP_PARTITION_ID:
		zeros(cc, i, v);
		return;
	case XRT_OP_COLLECTIVE_PERMUTE:
		if (!sends_to_self(in))
			zeros(cc, i, v);	/* no one sends to 0 */
		else
			cc_alias(cc, v, cc_opnd(cc, in, 0));
		return;
	default:
		if (xrt_shape_is_tuple(&in->shape))
			cc_lower_tuple(cc, i);
		else
			cc_alias(cc, v, cc_opnd(cc, in, 0));
	}
}
