// SPDX-License-Identifier: MIT
/*
 * Lowering a call of a registered function (eager_function.c): its body
 * built into one program, node by node in the order registration found,
 * with the call's types checked and inferred and its attribute values
 * put in the nodes' placeholders.  Variable ops read and assign the
 * resource arguments' values in the order of the nodes.
 */
#include <string.h>

#include "core/mem.h"
#include "eager_fn.h"

/* The value behind @r: an argument's parameter or a node's output. */
static xrt_status *value_of(const struct lowering *l, const struct eager_fn *f, struct ref r,
			    xrt_value (*outs)[EAGER_MAX_OUTPUTS], const uint32_t *nout,
			    const char *node, xrt_value *v)
{
	if (r.node < 0) {
		*v = l->in[r.index];
		return NULL;
	}
	if (r.index >= nout[r.node])
		return eager_fn_error(l->op->c, f->msg, XRT_INVALID_ARGUMENT,
				"an input reads an output its node does not have", node);
	*v = outs[r.node][r.index];
	return NULL;
}

/* A type attribute left unset: the type of the input that gets it now. */
static void infer_type(struct xrt_op *op, uint32_t d, enum xrt_dtype t)
{
	int ta = op->type_attr[d];

	if (ta >= 0 && !op->attrs[ta].set) {
		op->attrs[ta].set = true;
		op->attrs[ta].i = t;
	}
}

/* The node's inputs into @nl, their types inferred where unset and checked. */
static xrt_status *wire_node(struct lowering *l, const struct eager_fn *f, uint32_t n,
			     struct xrt_op *op, struct lowering *nl,
			     xrt_value (*outs)[EAGER_MAX_OUTPUTS], const uint32_t *nout)
{
	const Xrt__NodeDef *nd = f->msg->nodes[n];
	const struct xrt_shape *s;
	uint32_t d, j, k = 0, cnt;
	xrt_status *st;

	for (d = 0; d < op->def->num_inputs; d++) {
		cnt = eager_input_count(op, d);
		for (j = 0; j < cnt; j++, k++) {
			struct ref r;

			if (k >= nd->n_inputs)
				return eager_fn_error(l->op->c, f->msg, XRT_INVALID_ARGUMENT,
						"too few inputs for its op", nd->name);
			r = f->inputs[n][k];
			if (op->def->inputs[d].constant) {
				if (r.node < 0 || !f->consts[r.node])
					return eager_fn_error(l->op->c, f->msg, XRT_INVALID_ARGUMENT,
							"a constant input is not fed by a Const node",
							nd->name);
				nl->consts[k] = f->consts[r.node];
				infer_type(op, d, xrt_tensor_dtype(f->consts[r.node]));
				continue;
			}
			st = value_of(l, f, r, outs, nout, nd->name, &nl->in[k]);
			if (st)
				return st;
			s = xrt_value_shape(l->b, nl->in[k]);
			if (s)
				infer_type(op, d, s->dtype);
			if (s && s->dtype != eager_input_type(op, d))
				return xrt_status_new(l->a, XRT_INVALID_ARGUMENT,
						      "function '%s': node '%s': input #%u was "
						      "expected to be a %s tensor but is a %s tensor",
						      f->msg->name, nd->name, k,
						      xrt_dtype_name(eager_input_type(op, d)),
						      xrt_dtype_name(s->dtype));
		}
	}
	if (k != nd->n_inputs)
		return eager_fn_error(l->op->c, f->msg, XRT_INVALID_ARGUMENT, "too many inputs for its op",
				nd->name);
	return NULL;
}

/* The call's values (or the defaults) of the attributes @n's placeholders name. */
static xrt_status *fill_placeholders(struct lowering *l, const struct eager_fn *f, uint32_t n,
				     struct xrt_op *op)
{
	uint32_t i;

	for (i = 0; i < f->num_ph; i++) {
		const struct placeholder *p = &f->ph[i];
		const struct attr_val *v = &l->op->attrs[p->fn_attr];
		const struct attr_def *d = &f->def.attrs[p->fn_attr];

		if (p->node != n)
			continue;
		if (!v->set && !d->has_default)
			return eager_fn_error(l->op->c, f->msg, XRT_INVALID_ARGUMENT,
					"a placeholder's attribute is not set", f->msg->nodes[n]->name);
		op->attrs[p->node_attr].set = true;
		op->attrs[p->node_attr].i = v->set ? v->i : d->def;
	}
	return NULL;
}

/* One node: its inputs wired, their types checked, its lowering run. */
static xrt_status *lower_node(struct lowering *l, const struct eager_fn *f, uint32_t n,
			      xrt_value (*outs)[EAGER_MAX_OUTPUTS], uint32_t *nout)
{
	const Xrt__NodeDef *nd = f->msg->nodes[n];
	/* a copy: the types this call infers are this call's */
	struct xrt_op *op = xrt_mem_alloc(l->a, sizeof(*op));
	struct lowering nl = { .op = op, .b = l->b, .a = l->a };
	xrt_status *st;

	if (!op)
		return xrt_status_oom(l->a, "a function node");
	*op = *f->ops[n];
	st = fill_placeholders(l, f, n, op);
	if (!st)
		st = wire_node(l, f, n, op, &nl, outs, nout);
	if (!st) {
		nl.num_in = (uint32_t)nd->n_inputs;
		st = op->def->lower(&nl);
		if (st)
			st = xrt_status_annotate(st, "function '%s': node '%s'", f->msg->name,
						 nd->name);
	}
	if (!st) {
		nout[n] = op->def->num_outputs ? op->def->num_outputs : nl.num_out;
		memcpy(outs[n], nl.out, sizeof(nl.out));
	}
	xrt_mem_free(l->a, op);
	return st;
}

/* The variable's dtype attribute of node @n (a placeholder's value if it is one). */
static xrt_status *var_dtype(struct lowering *l, const struct eager_fn *f, uint32_t n,
			     enum xrt_dtype *out)
{
	struct xrt_op op = *f->ops[n];
	xrt_status *st = fill_placeholders(l, f, n, &op);

	if (!st)
		*out = (enum xrt_dtype)eager_attr_int(&op, "dtype");
	return st;
}

/*
 * A variable op: ReadVariableOp gives the variable's value so far,
 * AssignVariableOp replaces it, AssignAddVariableOp adds to it.  @cur
 * holds each resource argument's value so far.
 */
static xrt_status *lower_var_node(struct lowering *l, const struct eager_fn *f, uint32_t n,
				  xrt_value *cur, xrt_value (*outs)[EAGER_MAX_OUTPUTS],
				  uint32_t *nout)
{
	const Xrt__NodeDef *nd = f->msg->nodes[n];
	const struct op_def *d = f->ops[n]->def;
	uint32_t r = f->inputs[n][0].index;
	const struct xrt_shape *was = xrt_value_shape(l->b, cur[r]), *s = NULL;
	enum xrt_dtype want = XRT_INVALID;
	xrt_status *st = var_dtype(l, f, n, &want);
	xrt_value v = { 0 };

	if (!st && d->exec != eager_var_read) {
		if (nd->n_inputs != 2)
			return eager_fn_error(l->op->c, f->msg, XRT_INVALID_ARGUMENT,
					"an assignment takes a resource and a value", nd->name);
		st = value_of(l, f, f->inputs[n][1], outs, nout, nd->name, &v);
		s = st ? NULL : xrt_value_shape(l->b, v);
		if (s && want == XRT_INVALID)	/* dtype left out: the value's, as eagerly */
			want = s->dtype;
	}
	if (st)
		return st;
	if (!was || was->dtype != want)
		return xrt_status_new(l->a, XRT_INVALID_ARGUMENT, "function '%s': node '%s': "
				      "the variable holds %s, not %s", f->msg->name, nd->name,
				      was ? xrt_dtype_name(was->dtype) : "nothing",
				      xrt_dtype_name(want));
	nout[n] = d->exec == eager_var_read;
	if (d->exec == eager_var_read) {
		outs[n][0] = cur[r];
		return NULL;
	}
	if (!s || s->dtype != want ||
	    (d->exec == eager_var_assign_add && !xrt_shape_equal(s, was)))
		return xrt_status_new(l->a, XRT_INVALID_ARGUMENT, "function '%s': node '%s': "
				      "the value does not fit the variable (%s)", f->msg->name,
				      nd->name, s && s->dtype == want ? "another shape" :
				      "another type");
	cur[r] = d->exec == eager_var_assign ? v : xrt_build_binary(l->b, XRT_OP_ADD, cur[r], v);
	return NULL;
}

xrt_status *eager_lower_function(struct lowering *l)
{
	const struct eager_fn *f = (const struct eager_fn *)l->op->def;
	size_t n = f->msg->n_nodes, i;
	xrt_value (*outs)[EAGER_MAX_OUTPUTS], cur[EAGER_MAX_DEF_INPUTS];
	xrt_status *st = NULL;
	uint32_t *nout, k;

	outs = xrt_mem_calloc(l->a, n + 1, sizeof(*outs));
	nout = xrt_mem_calloc(l->a, n + 1, sizeof(*nout));
	if (!outs || !nout)
		st = xrt_status_oom(l->a, "a function's values");
	for (k = 0; k < f->def.num_inputs; k++)
		cur[k] = l->in[k];	/* a variable's value at the call */
	for (i = 0; !st && i < n; i++) {
		uint32_t node = f->order[i];

		st = eager_fn_is_var_op(f->ops[node]->def) ? lower_var_node(l, f, node, cur, outs, nout) :
						     lower_node(l, f, node, outs, nout);
	}
	for (i = 0; !st && i < f->msg->n_returns; i++)
		st = value_of(l, f, f->returns[i], outs, nout, NULL, &l->out[i]);
	l->num_out = (uint32_t)f->msg->n_returns;
	/* then the last value of each variable the body assigns, in argument order */
	for (k = 0; k < f->def.num_inputs; k++) {
		if (f->writes[k])
			l->out[l->num_out++] = cur[k];
	}
	xrt_mem_free(l->a, outs);
	xrt_mem_free(l->a, nout);
	return st;
}

/* Const: its value attribute, which must be of its dtype. */
xrt_status *eager_lower_const(struct lowering *l)
{
	const struct attr_val *v = eager_attr(l->op, "value");
	enum xrt_dtype t = (enum xrt_dtype)eager_attr_int(l->op, "dtype");

	if (xrt_literal_shape(v->tensor)->dtype != t)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "value is %s, dtype %s",
				      xrt_dtype_name(xrt_literal_shape(v->tensor)->dtype),
				      xrt_dtype_name(t));
	l->out[0] = xrt_build_constant(l->b, v->tensor);
	return NULL;
}
