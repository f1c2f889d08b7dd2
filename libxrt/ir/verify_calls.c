// SPDX-License-Identifier: MIT
/*
 * Opcodes that call computations: while, conditional, call, map.  The
 * callee's parameters must take what the caller passes, and its result
 * is the caller's.
 */
#include "verify.h"

/* @f takes exactly @n parameters, parameter i of operand @first + i's shape. */
static int takes_operands(struct vfy *v, const struct ir_comp *f, uint32_t first,
			  uint32_t n)
{
	uint32_t i;

	if (f->num_params != n)
		return vfy_fail(v, "computation '%s' takes %u parameters, expected %u",
				f->name, f->num_params, n);
	for (i = 0; i < n; i++) {
		const struct xrt_shape *p = vfy_param_shape(f, i);

		if (!p || !xrt_shape_compatible(p, vfy_opnd(v, first + i)))
			return vfy_fail(v, "computation '%s' parameter %u differs from operand %u",
					f->name, i, first + i);
	}
	return 0;
}

static int check_while(struct vfy *v)
{
	const struct ir_comp *cond, *body;
	const struct xrt_shape *c;

	if (vfy_operands(v, 1, 1) || vfy_called(v, IR_ATTR_CONDITION, &cond) ||
	    vfy_called(v, IR_ATTR_BODY, &body) || takes_operands(v, cond, 0, 1) ||
	    takes_operands(v, body, 0, 1))
		return -1;
	c = vfy_root_shape(cond);
	if (xrt_shape_is_tuple(c) || c->rank || c->dtype != XRT_PRED)
		return vfy_fail(v, "condition '%s' does not return pred[]", cond->name);
	if (!xrt_shape_compatible(vfy_root_shape(body), vfy_opnd(v, 0)))
		return vfy_fail(v, "body '%s' does not return its parameter's shape", body->name);
	return vfy_result_is(v, vfy_opnd(v, 0));
}

static int check_conditional(struct vfy *v)
{
	const struct ir_attr *br = ir_instr_attr(v->in, IR_ATTR_BRANCH_COMPUTATIONS);
	const struct xrt_shape *p = vfy_opnd(v, 0);
	const struct ir_comp *f[2], *b;
	uint32_t i;

	if (vfy_operands(v, 2, ~0u) || vfy_scalar(v, 0))
		return -1;
	if (!br) {
		if (p->dtype != XRT_PRED)
			return vfy_fail(v, "predicate is %s, expected pred", xrt_dtype_name(p->dtype));
		if (vfy_operands(v, 3, 3) || vfy_called(v, IR_ATTR_TRUE_COMPUTATION, &f[0]) ||
		    vfy_called(v, IR_ATTR_FALSE_COMPUTATION, &f[1]) ||
		    takes_operands(v, f[0], 1, 1) || takes_operands(v, f[1], 2, 1))
			return -1;
		if (!xrt_shape_compatible(vfy_root_shape(f[0]), vfy_root_shape(f[1])))
			return vfy_fail(v, "branches return different shapes");
		return vfy_result_is(v, vfy_root_shape(f[0]));
	}
	if (p->dtype != XRT_S32)
		return vfy_fail(v, "branch index is %s, expected s32", xrt_dtype_name(p->dtype));
	if (!br->n || br->n != v->in->num_operands - 1)
		return vfy_fail(v, "%u branches for %u branch operands", br->n,
				v->in->num_operands - 1);
	for (i = 0; i < br->n; i++) {
		b = &v->m->comps[br->ints[i]];
		if (takes_operands(v, b, 1 + i, 1))
			return -1;
		f[0] = &v->m->comps[br->ints[0]];
		if (!xrt_shape_compatible(vfy_root_shape(b), vfy_root_shape(f[0])))
			return vfy_fail(v, "branch %u '%s' returns another shape than branch 0",
					i, b->name);
	}
	return vfy_result_is(v, vfy_root_shape(f[0]));
}

static int check_map(struct vfy *v)
{
	const struct xrt_shape *a = vfy_opnd(v, 0), *r;
	const struct ir_comp *f;
	uint32_t i;

	if (vfy_operands(v, 1, ~0u) || vfy_called(v, IR_ATTR_TO_APPLY, &f))
		return -1;
	for (i = 0; i < v->in->num_operands; i++) {
		const struct xrt_shape *b = vfy_opnd(v, i), *p = vfy_param_shape(f, i);

		if (vfy_like_first(v, i))
			return -1;
		if (!p || xrt_shape_is_tuple(p) || p->rank || p->dtype != b->dtype)
			return vfy_fail(v, "computation '%s' parameter %u is not a %s scalar",
					f->name, i, xrt_dtype_name(b->dtype));
	}
	if (f->num_params != v->in->num_operands)
		return vfy_fail(v, "computation '%s' takes %u parameters, expected %u",
				f->name, f->num_params, v->in->num_operands);
	r = vfy_root_shape(f);
	if (xrt_shape_is_tuple(r) || r->rank)
		return vfy_fail(v, "computation '%s' does not return a scalar", f->name);
	return vfy_result(v, r->dtype, a->rank, a->dims);
}

int vfy_calls(struct vfy *v)
{
	const struct ir_comp *f;

	switch (v->in->op) {
	case XRT_OP_WHILE:
		return check_while(v);
	case XRT_OP_CONDITIONAL:
		return check_conditional(v);
	case XRT_OP_CALL:
		if (vfy_called(v, IR_ATTR_TO_APPLY, &f) ||
		    takes_operands(v, f, 0, v->in->num_operands))
			return -1;
		return vfy_result_is(v, vfy_root_shape(f));
	default:
		return check_map(v);
	}
}
