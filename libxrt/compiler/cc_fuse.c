// SPDX-License-Identifier: MIT
/*
 * The fusion plan: an elementwise instruction read once, by an
 * elementwise instruction or a reduce, is computed inside that user's
 * kernel rather than stored (it is marked CK_INLINE).  A kernel's tree is
 * bounded so that its operands, instructions and registers fit the
 * command's limits.  cc_ewise.c emits the kernels the plan makes.
 */
#include <string.h>

#include "core/mem.h"
#include "cc.h"
#include "cc_ewp.h"

#define TREE_NODES	40	/* instructions of one fused tree, at most */
#define TREE_LEAVES	12	/* operand reads of one fused tree, at most */

bool cc_is_elementwise(const struct ir_instr *in)
{
	enum xrt_opcode op = in->op;

	return xrt_opcode_is_unary(op) || xrt_opcode_is_binary(op) || op == XRT_OP_COMPARE ||
	       op == XRT_OP_SELECT || op == XRT_OP_CLAMP || op == XRT_OP_CONVERT ||
	       op == XRT_OP_BITCAST_CONVERT || op == XRT_OP_REDUCE_PRECISION;
}

/*
 * Can @in's expression operand @k be computed inside it?  A reduce only
 * when it becomes one REDUCE command: one with a computation the command
 * has no op for is a loop over a stored copy of its input.
 */
static bool hosts(const struct cc *cc, const struct ir_comp *c, const struct ir_instr *in,
		  uint32_t k)
{
	const struct xrt_shape *s = &c->instrs[in->operands[k]].shape;

	if (in->op == XRT_OP_REDUCE)
		return in->num_operands == 2 && k == 0 &&
		       cc_reducer_op(&cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]],
				     in->shape.dtype);
	if (!cc_is_elementwise(in) || xrt_shape_is_tuple(s))
		return false;
	/* bitcast-convert between sizes reshapes: not elementwise */
	return in->op != XRT_OP_BITCAST_CONVERT ||
	       xrt_dtype_size(s->dtype) == xrt_dtype_size(in->shape.dtype);
}

struct tree {
	uint32_t nodes, leaves;
};

static struct tree tree_of(struct cc *cc, const struct tree *t, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	/* reduce-precision is some twenty kernel instructions */
	struct tree r = { in->op == XRT_OP_REDUCE_PRECISION ? 8 : 1, 0 };
	uint32_t k;

	for (k = 0; k < in->num_operands; k++) {
		uint32_t o = in->operands[k];

		if (IV(cc, o).kind == CK_INLINE) {
			r.nodes += t[o].nodes;
			r.leaves += t[o].leaves;
		} else {
			r.leaves++;
		}
	}
	return r;
}

/* The inline operand of @i with the biggest tree, or ~0u. */
static uint32_t biggest_inline(struct cc *cc, const struct tree *t, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t k, best = ~0u;

	for (k = 0; k < in->num_operands; k++) {
		uint32_t o = in->operands[k];

		if (IV(cc, o).kind == CK_INLINE && (best == ~0u || t[o].nodes > t[best].nodes))
			best = o;
	}
	return best;
}

void cc_mark_inline(struct cc *cc, const bool *live)
{
	const struct ir_comp *c = cc->c;
	uint32_t *user, i, k, b;
	struct tree *t;

	user = xrt_mem_calloc(cc->a, c->num_instrs + 1, sizeof(*user));
	t = xrt_mem_calloc(cc->a, c->num_instrs + 1, sizeof(*t));
	if (!user || !t) {
		cc_oom(cc);
		goto out;
	}
	/* the user of each value read once (dead readers do not count) */
	for (i = 0; i < c->num_instrs; i++) {
		const struct ir_instr *in = &c->instrs[i];

		for (k = 0; live[i] && k < in->num_operands; k++)
			user[in->operands[k]] = hosts(cc, c, in, k) ? i + 1 : 0;
	}
	for (i = 0; i < c->num_instrs && !cc->o.no_fusion; i++) {
		const struct ir_instr *in = &c->instrs[i];

		if (!live[i] || (!cc_is_elementwise(in) && in->op != XRT_OP_REDUCE))
			continue;
		/*
		 * A tree too big for one kernel stores its biggest branch.  One
		 * with no branch left (a reduce of many inputs) is as small as
		 * it gets: its own lowering deals with its operands.
		 */
		for (t[i] = tree_of(cc, t, i);
		     (t[i].nodes > TREE_NODES || t[i].leaves > TREE_LEAVES) &&
		     (b = biggest_inline(cc, t, i)) != ~0u;
		     t[i] = tree_of(cc, t, i))
			IV(cc, b).kind = CK_UNSET;
		/* read once, by a kernel that can host it, and not a result */
		if (cc_is_elementwise(in) && IV(cc, i).uses == 1 && user[i] && i != c->root &&
		    IV(cc, i).kind == CK_UNSET)
			IV(cc, i).kind = CK_INLINE;
	}
out:
	xrt_mem_free(cc->a, user);
	xrt_mem_free(cc->a, t);
}

static void consume_under(struct cc *cc, uint32_t v)
{
	const struct ir_instr *in = &cc->c->instrs[v];
	uint32_t k;

	for (k = 0; k < in->num_operands; k++) {
		uint32_t o = in->operands[k];

		if (IV(cc, o).kind == CK_INLINE)
			consume_under(cc, o);
		else
			cc_consume(cc, cc->base + o);
	}
}

void cc_consume_tree(struct cc *cc, uint32_t root)
{
	consume_under(cc, root);
}
