// SPDX-License-Identifier: MIT
/*
 * The custom-call targets XLA itself emits whose work is one of our
 * opcodes, read as that opcode (a registry, by target name):
 *
 *   "TopK"   XLA's CPU backend turns a descending total-order sort
 *            whose first k are kept into custom-call(x), result (T[.., k],
 *            s32[.., k]): topk(x), k=k, largest=true
 *
 * Any other target stays a custom-call, whose handler the process
 * registers (xrt_custom_call_register()).
 */
#include <string.h>

#include "hlo_parse.h"

static bool same_lead(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return a->rank == b->rank &&
	       !memcmp(a->dims, b->dims, (a->rank - 1) * sizeof(a->dims[0]));
}

static int topk(struct hp *p, struct ir_instr *in)
{
	const struct xrt_shape *x, *r = &in->shape;

	if (in->num_operands != 1)
		return hp_fail(p, "%s: custom-call TopK takes one operand", in->name);
	x = &p->cur->instrs[in->operands[0]].shape;
	if (xrt_shape_is_tuple(x) || !x->rank || !xrt_shape_is_tuple(r) || r->tuple_count != 2 ||
	    xrt_shape_is_tuple(&r->tuple[0]) || xrt_shape_is_tuple(&r->tuple[1]) ||
	    r->tuple[0].dtype != x->dtype || r->tuple[1].dtype != XRT_S32 ||
	    !same_lead(&r->tuple[0], x) || !same_lead(&r->tuple[1], x) ||
	    r->tuple[0].dims[x->rank - 1] != r->tuple[1].dims[x->rank - 1])
		return hp_fail(p, "%s: custom-call TopK's result is not (T[.., k], s32[.., k]) of "
			       "its operand T[.., n]", in->name);
	hp_drop_attr(p->a, in, IR_ATTR_CUSTOM_CALL_TARGET);
	hp_drop_attr(p->a, in, IR_ATTR_API_VERSION);
	hp_drop_attr(p->a, in, IR_ATTR_BACKEND_CONFIG);
	hp_drop_attr(p->a, in, IR_ATTR_CUSTOM_CALL_HAS_SIDE_EFFECT);
	in->op = XRT_OP_TOPK;
	return hp_int_attr(p, in, IR_ATTR_K, r->tuple[0].dims[x->rank - 1]) ||
	       hp_int_attr(p, in, IR_ATTR_LARGEST, 1);
}

int hlo_uncustom(struct hp *p)
{
	static const struct {
		const char *target;
		int (*read)(struct hp *p, struct ir_instr *in);
	} known[] = {
		{ "TopK", topk },
	};
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	const struct ir_attr *t;
	size_t i;

	if (in->op != XRT_OP_CUSTOM_CALL)
		return 0;
	t = ir_instr_attr(in, IR_ATTR_CUSTOM_CALL_TARGET);
	for (i = 0; t && i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(t->str, known[i].target))
			return known[i].read(p, in);
	return 0;
}
