// SPDX-License-Identifier: MIT
/*
 * Functions: a FunctionDef (proto/xrt.proto) registered on a context
 * becomes an op whose inputs are the function's arguments.  Registering
 * checks everything that does not depend on the call: node ops exist and
 * take their attributes, every edge names an argument or a node output,
 * the nodes form no cycle, the returns are there.  Executing the op
 * compiles the whole body as one program (cached like any kernel;
 * eager_function_lower.c); the
 * types and shapes of the call are checked while it is built.  A node's
 * attribute may be a placeholder for an attribute of the function (one
 * the definition declares with its default, or an argument's type
 * attribute): each call's value goes into the node as its body is built.
 *
 * An argument may be a resource (a variable).  Only the variable ops
 * read it: ReadVariableOp, AssignVariableOp, AssignAddVariableOp, which
 * act in the order of the nodes (each is made to follow the one before
 * on the same variable).  The program gets each variable's value as a
 * parameter and returns, after the function's results, the last value
 * of each variable the body assigns; the caller stores those
 * (eager_vars.c).
 */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "wire/wire.h"
#include "eager_fn.h"
#include "eager_internal.h"
#include "xrt.pb-c.h"

xrt_status *eager_fn_error(xrt_eager_context *c, const Xrt__FunctionDef *m,
			     enum xrt_code code, const char *what, const char *node)
{
	return xrt_status_new(c->a, code, "function '%.64s'%s%.64s%s: %s", m->name,
			      node ? ": node '" : "", node ? node : "", node ? "'" : "", what);
}

/* The variable ops a function body may hold (they act on its resource arguments). */
bool eager_fn_is_var_op(const struct op_def *d)
{
	return d->exec == eager_var_read || d->exec == eager_var_assign ||
	       d->exec == eager_var_assign_add;
}

static void fn_free(xrt_eager_context *c, struct eager_fn *f)
{
	size_t i;

	for (i = 0; f->msg && i < f->msg->n_nodes; i++) {
		if (f->ops)
			xrt_op_destroy(f->ops[i]);
		if (f->inputs)
			xrt_mem_free(c->a, f->inputs[i]);
		if (f->consts)
			xrt_tensor_unref(f->consts[i]);
	}
	xrt_mem_free(c->a, f->ops);
	xrt_mem_free(c->a, f->inputs);
	xrt_mem_free(c->a, f->consts);
	xrt_mem_free(c->a, f->order);
	xrt_mem_free(c->a, f->returns);
	xrt_mem_free(c->a, f->ph);
	xrt_mem_free(c->a, f->after);
	if (f->msg)
		xrt__function_def__free_unpacked(f->msg, NULL);
	xrt_mem_free(c->a, f);
}

void eager_functions_free(xrt_eager_context *c)
{
	struct eager_fn *f, *next;

	for (f = c->functions; f; f = next) {
		next = f->next;
		fn_free(c, f);
	}
	c->functions = NULL;
}

/* The function named @name, with fn_lock held. */
static struct eager_fn *find_locked(xrt_eager_context *c, const char *name)
{
	struct eager_fn *f;

	for (f = c->functions; f && strcmp(f->def.name, name); f = f->next)
		;
	return f;
}

const struct op_def *eager_find_function(xrt_eager_context *c, const char *name)
{
	struct eager_fn *f;

	pthread_mutex_lock(&c->fn_lock);
	f = find_locked(c, name);
	pthread_mutex_unlock(&c->fn_lock);
	return f ? &f->def : NULL;
}

/* "arg", "node:i" or "node:output:i" to a ref; -1 when it names nothing. */
static int resolve(const Xrt__FunctionDef *m, const char *text, struct ref *r)
{
	const char *colon = strchr(text, ':'), *last = strrchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text), i;
	char *end;
	long idx;

	if (!colon) {
		for (i = 0; i < m->n_input_args; i++) {
			if (!strcmp(m->input_args[i]->name, text)) {
				*r = (struct ref){ -1, (uint32_t)i };
				return 0;
			}
		}
		return -1;
	}
	idx = strtol(last + 1, &end, 10);
	if (*end || end == last + 1 || idx < 0 || idx >= EAGER_MAX_OUTPUTS)
		return -1;
	for (i = 0; i < m->n_nodes; i++) {
		if (strlen(m->nodes[i]->name) == len && !strncmp(m->nodes[i]->name, text, len)) {
			*r = (struct ref){ (int32_t)i, (uint32_t)idx };
			return 0;
		}
	}
	return -1;
}

/* Sets one attribute of a node's op from its proto value. */
static xrt_status *set_attr(xrt_op *op, const Xrt__NamedAttr *na, const struct xrt_allocator *a)
{
	const Xrt__AttrValue *v = na->value;
	const Xrt__AttrList *l;
	int64_t ints[EAGER_MAX_LIST];
	xrt_literal *lit;
	struct xrt_shape s;
	xrt_status *st;
	size_t k;

	if (!v)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "attribute '%.64s' has no value",
				      na->name);
	switch (v->value_case) {
	case XRT__ATTR_VALUE__VALUE_S: {
		char buf[256];

		/* an empty string's data may be NULL, which memchr() must not see */
		if (v->s.len >= sizeof(buf) || (v->s.len && memchr(v->s.data, 0, v->s.len)))
			return xrt_status_new(a, XRT_INVALID_ARGUMENT,
					      "attribute '%.64s': a bad string", na->name);
		if (v->s.len)
			memcpy(buf, v->s.data, v->s.len);
		buf[v->s.len] = 0;
		return xrt_op_set_attr_string(op, na->name, buf);
	}
	case XRT__ATTR_VALUE__VALUE_I:
		return xrt_op_set_attr_int(op, na->name, v->i);
	case XRT__ATTR_VALUE__VALUE_F:
		return xrt_op_set_attr_float(op, na->name, v->f);
	case XRT__ATTR_VALUE__VALUE_B:
		return xrt_op_set_attr_bool(op, na->name, v->b);
	case XRT__ATTR_VALUE__VALUE_TYPE:
		return xrt_op_set_attr_type(op, na->name, (enum xrt_dtype)v->type);
	case XRT__ATTR_VALUE__VALUE_SHAPE:
		st = wire_shape_from_msg(&s, a, v->shape, na->name);
		if (st)
			return st;
		st = xrt_shape_is_tuple(&s) ? xrt_status_new(a, XRT_INVALID_ARGUMENT,
							     "attribute '%.64s' is a tuple shape",
							     na->name) :
		     xrt_op_set_attr_shape(op, na->name, (int32_t)s.rank, s.dims);
		xrt_shape_deinit(&s);
		return st;
	case XRT__ATTR_VALUE__VALUE_TENSOR:
		st = wire_literal_from_msg(a, v->tensor, na->name, &lit);
		if (st)
			return st;
		st = xrt_op_set_attr_tensor(op, na->name, lit);
		xrt_literal_destroy(lit);
		return st;
	case XRT__ATTR_VALUE__VALUE_LIST:
		l = v->list;
		if (l->n_i > EAGER_MAX_LIST || l->n_type > EAGER_MAX_LIST)
			return xrt_status_new(a, XRT_INVALID_ARGUMENT,
					      "attribute '%.64s': too long a list", na->name);
		if (l->n_type) {
			enum xrt_dtype types[EAGER_MAX_LIST];

			for (k = 0; k < l->n_type; k++)
				types[k] = (enum xrt_dtype)l->type[k];
			return xrt_op_set_attr_type_list(op, na->name, types, (uint32_t)k);
		}
		if (l->n_f)
			return xrt_op_set_attr_float_list(op, na->name, l->f, (uint32_t)l->n_f);
		for (k = 0; k < l->n_i; k++)
			ints[k] = l->i[k];
		return xrt_op_set_attr_int_list(op, na->name, ints, (uint32_t)l->n_i);
	default:	/* placeholders are resolved before (placeholder()) */
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "attribute '%.64s' has no value",
				      na->name);
	}
}

static const char *attr_type_name(enum xrt_attr_type t)
{
	switch (t) {
	case XRT_ATTR_INT:
		return "int";
	case XRT_ATTR_FLOAT:
		return "float";
	case XRT_ATTR_BOOL:
		return "bool";
	case XRT_ATTR_TYPE:
		return "type";
	default:
		return "list, string, shape or tensor";
	}
}

/*
 * Node @n's attribute @na is a placeholder: it names an attribute of the
 * function of the same kind; recorded, to be set per call.
 */
static xrt_status *placeholder(struct eager_fn *f, uint32_t n, const Xrt__NamedAttr *na,
			       const struct xrt_allocator *a)
{
	const struct op_def *d = f->ops[n]->def;
	const char *want = na->value->placeholder;
	int k = eager_attr_index(d, na->name), fi = want ? eager_attr_index(&f->def, want) : -1;

	if (k < 0)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "%s has no attribute '%.64s'",
				      d->name, na->name);
	if (fi < 0)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "attribute '%.64s': placeholder '%.64s' names no attribute "
				      "of the function", na->name, want ? want : "");
	if (d->attrs[k].type != f->def.attrs[fi].type || d->attrs[k].is_list)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "attribute '%.64s' is a %s, placeholder '%.64s' a %s",
				      na->name, attr_type_name(d->attrs[k].is_list ? XRT_ATTR_STRING :
							       d->attrs[k].type),
				      want, attr_type_name(f->def.attrs[fi].type));
	f->ph[f->num_ph++] = (struct placeholder){ n, k, fi };
	return NULL;
}

static bool is_placeholder(const struct eager_fn *f, uint32_t n, size_t k)
{
	uint32_t i;

	for (i = 0; i < f->num_ph; i++)
		if (f->ph[i].node == n && f->ph[i].node_attr == (int)k)
			return true;
	return false;
}

/*
 * Is attribute @k the type of one of @op's inputs?  Such a type may be
 * left out of a node: each call infers it from what the input gets, as
 * an eager op does from its tensors.
 */
static bool types_an_input(const xrt_op *op, size_t k)
{
	uint32_t d;

	for (d = 0; d < op->def->num_inputs; d++)
		if (op->type_attr[d] == (int)k)
			return true;
	return false;
}

/* A node's op with its attributes; its input refs; a Const node's value. */
static xrt_status *prepare_node(xrt_eager_context *c, struct eager_fn *f, size_t n)
{
	const Xrt__NodeDef *nd = f->msg->nodes[n];
	const struct attr_val *val;
	const void *values;
	xrt_status *st;
	size_t k;

	/*
	 * A registered function may be called: it was complete before this
	 * one, so calls never form a cycle.  Variable ops run outside
	 * programs, so not in a function's body.
	 */
	st = xrt_op_create(c, nd->op, &f->ops[n]);
	if (!st && f->ops[n]->def->exec && !eager_fn_is_var_op(f->ops[n]->def))
		st = xrt_status_new(c->a, XRT_UNIMPLEMENTED,
				    "op '%.64s' cannot be called in a function yet", nd->op);
	if (!st && eager_fn_has_resources(f->ops[n]->def))
		st = xrt_status_new(c->a, XRT_UNIMPLEMENTED, "a function taking variables "
				    "cannot be called in a function yet");
	for (k = 0; !st && k < nd->n_attrs; k++) {
		const Xrt__AttrValue *v = nd->attrs[k]->value;

		if (v && v->value_case == XRT__ATTR_VALUE__VALUE_PLACEHOLDER)
			st = placeholder(f, (uint32_t)n, nd->attrs[k], c->a);
		else
			st = set_attr(f->ops[n], nd->attrs[k], c->a);
	}
	for (k = 0; !st && k < f->ops[n]->def->num_attrs; k++) {
		if (!f->ops[n]->def->attrs[k].has_default && !f->ops[n]->attrs[k].set &&
		    !types_an_input(f->ops[n], k) && !is_placeholder(f, (uint32_t)n, k))
			st = xrt_status_new(c->a, XRT_INVALID_ARGUMENT, "attribute '%s' is not set",
					    f->ops[n]->def->attrs[k].name);
	}
	if (st) {
		xrt_status *e = eager_fn_error(c, f->msg, xrt_status_code(st), xrt_status_message(st),
					 nd->name);

		xrt_status_free(st);
		return e;
	}
	if (nd->n_inputs > EAGER_MAX_INPUTS)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT, "too many inputs", nd->name);
	f->inputs[n] = xrt_mem_calloc(c->a, nd->n_inputs + 1, sizeof(struct ref));
	if (!f->inputs[n])
		return xrt_status_oom(c->a, "a function");
	for (k = 0; k < nd->n_inputs; k++) {
		const struct ref *r = &f->inputs[n][k];

		if (resolve(f->msg, nd->inputs[k], &f->inputs[n][k]))
			return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
					"an input names no argument or node output", nd->name);
		/* a variable feeds the variable ops, as their input #0, only */
		if ((r->node < 0 && f->resource[r->index]) !=
		    (k == 0 && eager_fn_is_var_op(f->ops[n]->def)))
			return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT, k ?
					"a resource argument feeds only the variable ops" :
					"a variable op's input #0 must be a resource argument",
					nd->name);
	}
	if (eager_fn_is_var_op(f->ops[n]->def) && !nd->n_inputs)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
				"a variable op's input #0 must be a resource argument", nd->name);
	if (strcmp(nd->op, "Const"))
		return NULL;
	val = eager_attr(f->ops[n], "value");
	st = xrt_tensor_from_host(c, xrt_literal_shape(val->tensor)->dtype,
				  xrt_literal_shape(val->tensor)->rank,
				  xrt_literal_shape(val->tensor)->dims,
				  xrt_literal_data(val->tensor), xrt_literal_size(val->tensor),
				  &f->consts[n]);
	/* lowerings may read a constant's values: in host memory too */
	return st ? st : eager_tensor_host(f->consts[n], &values);
}

/* Depth-first: each node after the nodes it reads; a node met again while open is a cycle. */
static xrt_status *visit(xrt_eager_context *c, struct eager_fn *f, uint8_t *state, uint32_t n,
			 uint32_t *done)
{
	const Xrt__NodeDef *nd = f->msg->nodes[n];
	xrt_status *st;
	size_t k;

	if (state[n] == 2)
		return NULL;
	if (state[n] == 1)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT, "the nodes form a cycle", nd->name);
	state[n] = 1;
	for (k = 0; k < nd->n_inputs; k++) {
		if (f->inputs[n][k].node >= 0) {
			st = visit(c, f, state, (uint32_t)f->inputs[n][k].node, done);
			if (st)
				return st;
		}
	}
	if (f->after[n] >= 0) {
		st = visit(c, f, state, (uint32_t)f->after[n], done);
		if (st)
			return st;
	}
	state[n] = 2;
	f->order[(*done)++] = n;
	return NULL;
}

/* Declares type attribute @name of the function's op (once per name). */
static xrt_status *type_attr(xrt_eager_context *c, struct eager_fn *f, const char *name)
{
	uint32_t k;

	for (k = 0; k < f->def.num_attrs; k++)
		if (!strcmp(f->def.attrs[k].name, name))
			return NULL;
	if (f->def.num_attrs >= EAGER_MAX_ATTRS)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT, "too many type attributes", NULL);
	f->def.attrs[f->def.num_attrs++] = (struct attr_def){ name, XRT_ATTR_TYPE, false, false,
							      0, 0 };
	return NULL;
}

/*
 * An attribute the definition declares, with its default: an int, a
 * float, a bool or a type (the default of an argument's type attribute,
 * when it names one).
 */
static xrt_status *fn_attr(xrt_eager_context *c, struct eager_fn *f, const Xrt__NamedAttr *na)
{
	const Xrt__AttrValue *v = na->value;
	struct attr_def d = { na->name, XRT_ATTR_INT, false, true, 0, 0 };
	uint32_t k;

	if (!na->name || !*na->name || !v)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
				"an attribute has no name or no default", NULL);
	switch (v->value_case) {
	case XRT__ATTR_VALUE__VALUE_I:
		d.def = v->i;
		break;
	case XRT__ATTR_VALUE__VALUE_F:
		d.type = XRT_ATTR_FLOAT;
		memcpy(&d.def, &v->f, sizeof(v->f));
		break;
	case XRT__ATTR_VALUE__VALUE_B:
		d.type = XRT_ATTR_BOOL;
		d.def = v->b;
		break;
	case XRT__ATTR_VALUE__VALUE_TYPE:
		if ((int)v->type <= XRT_INVALID || (int)v->type >= XRT_TUPLE)
			return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
					"a type attribute's default is no element type", NULL);
		d.type = XRT_ATTR_TYPE;
		d.def = v->type;
		break;
	default:
		return eager_fn_error(c, f->msg, XRT_UNIMPLEMENTED, "function attributes are ints, "
				"floats, bools and types, with their defaults", NULL);
	}
	for (k = 0; k < f->def.num_attrs; k++) {
		if (strcmp(f->def.attrs[k].name, d.name))
			continue;
		if (f->def.attrs[k].type != XRT_ATTR_TYPE || d.type != XRT_ATTR_TYPE ||
		    f->def.attrs[k].has_default)
			return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
					"two attributes share a name", NULL);
		f->def.attrs[k] = d;	/* an argument's type attribute, with a default */
		return NULL;
	}
	if (f->def.num_attrs >= EAGER_MAX_ATTRS)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT, "too many attributes", NULL);
	f->def.attrs[f->def.num_attrs++] = d;
	return NULL;
}

/*
 * The signature as an op: an input per argument, of a fixed type or of a
 * type attribute that the call's tensors set (polymorphic functions).
 */
static xrt_status *signature(xrt_eager_context *c, struct eager_fn *f)
{
	const Xrt__FunctionDef *m = f->msg;
	size_t i, j;

	if (!m->name || !*m->name)
		return xrt_status_new(c->a, XRT_INVALID_ARGUMENT, "function '': no name");
	if (m->n_input_args > EAGER_MAX_DEF_INPUTS || !m->n_output_args ||
	    m->n_output_args > EAGER_MAX_OUTPUTS || m->n_returns != m->n_output_args)
		return eager_fn_error(c, m, XRT_INVALID_ARGUMENT, "needs at most 8 arguments, 1 to 8 "
				"results and a return for each", NULL);
	f->def.name = m->name;
	f->def.num_inputs = (uint32_t)m->n_input_args;
	f->def.num_outputs = (uint32_t)m->n_output_args;
	f->def.lower = eager_lower_function;
	for (i = 0; i < m->n_input_args; i++) {
		const Xrt__ArgDef *ad = m->input_args[i];
		xrt_status *st;

		for (j = 0; j < i; j++) {
			if (!strcmp(m->input_args[j]->name, ad->name))
				return eager_fn_error(c, m, XRT_INVALID_ARGUMENT,
						"two arguments share a name", NULL);
		}
		if (ad->resource) {
			if ((ad->type_attr && *ad->type_attr) || ad->type)
				return eager_fn_error(c, m, XRT_INVALID_ARGUMENT,
						"a resource argument has no element type", NULL);
			f->def.inputs[i] = (struct input_def){ ad->name, NULL, XRT_INVALID, NULL,
							       false };
			f->resource[i] = f->has_resources = true;
			continue;
		}
		if (ad->type_attr && *ad->type_attr) {
			/* polymorphic: the call's tensor sets the attribute */
			st = type_attr(c, f, ad->type_attr);
			if (st)
				return st;
			f->def.inputs[i] = (struct input_def){ ad->name, ad->type_attr,
							       XRT_INVALID, NULL, false };
			continue;
		}
		if ((int)ad->type <= XRT_INVALID || (int)ad->type >= XRT_TUPLE)
			return eager_fn_error(c, m, XRT_INVALID_ARGUMENT, "an argument has no type", NULL);
		f->def.inputs[i] = (struct input_def){ ad->name, NULL, (enum xrt_dtype)ad->type,
						       NULL, false };
	}
	for (i = 0; i < m->n_output_args; i++) {
		if (m->output_args[i]->resource)
			return eager_fn_error(c, m, XRT_INVALID_ARGUMENT,
					"a result cannot be a resource", NULL);
	}
	for (i = 0; i < m->n_attrs; i++) {
		xrt_status *st = fn_attr(c, f, m->attrs[i]);

		if (st)
			return st;
	}
	for (i = 0; i < m->n_nodes; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(m->nodes[j]->name, m->nodes[i]->name))
				return eager_fn_error(c, m, XRT_INVALID_ARGUMENT,
						"two nodes share a name", m->nodes[i]->name);
		}
	}
	return NULL;
}

/*
 * The variable ops on one variable act in the order of the nodes: each
 * follows the one before (visit() takes that as an edge); which
 * variables the body assigns.
 */
static xrt_status *order_var_ops(xrt_eager_context *c, struct eager_fn *f)
{
	int32_t last[EAGER_MAX_DEF_INPUTS];
	uint32_t r;
	size_t n;

	for (r = 0; r < EAGER_MAX_DEF_INPUTS; r++)
		last[r] = -1;
	for (n = 0; n < f->msg->n_nodes; n++) {
		f->after[n] = -1;
		if (!eager_fn_is_var_op(f->ops[n]->def))
			continue;
		r = f->inputs[n][0].index;
		f->after[n] = last[r];
		last[r] = (int32_t)n;
		if (f->ops[n]->def->exec != eager_var_read && !f->writes[r]) {
			f->writes[r] = true;
			f->num_writes++;
		}
	}
	if (f->msg->n_output_args + f->num_writes > EAGER_MAX_OUTPUTS)
		return eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT, "its results and the variables it "
				"assigns are more than 8", NULL);
	/* the lowering says how many outputs: the results and the variables */
	if (f->num_writes)
		f->def.num_outputs = 0;
	return NULL;
}

static xrt_status *build_fn(xrt_eager_context *c, struct eager_fn *f)
{
	size_t n = f->msg->n_nodes, i, num_attrs = 0;
	uint32_t done = 0;
	uint8_t *state;
	xrt_status *st;

	st = signature(c, f);
	if (st)
		return st;
	f->ops = xrt_mem_calloc(c->a, n + 1, sizeof(*f->ops));
	f->inputs = xrt_mem_calloc(c->a, n + 1, sizeof(*f->inputs));
	f->consts = xrt_mem_calloc(c->a, n + 1, sizeof(*f->consts));
	f->order = xrt_mem_calloc(c->a, n + 1, sizeof(*f->order));
	f->returns = xrt_mem_calloc(c->a, f->msg->n_returns + 1, sizeof(*f->returns));
	state = xrt_mem_calloc(c->a, n + 1, 1);
	for (i = 0; i < n; i++)
		num_attrs += f->msg->nodes[i]->n_attrs;
	f->ph = xrt_mem_calloc(c->a, num_attrs + 1, sizeof(*f->ph));
	f->after = xrt_mem_calloc(c->a, n + 1, sizeof(*f->after));
	if (!f->ops || !f->inputs || !f->consts || !f->order || !f->returns || !state || !f->ph ||
	    !f->after) {
		xrt_mem_free(c->a, state);
		return xrt_status_oom(c->a, "a function");
	}
	for (i = 0; !st && i < n; i++)
		st = prepare_node(c, f, i);
	if (!st)
		st = order_var_ops(c, f);
	for (i = 0; !st && i < n; i++)
		st = visit(c, f, state, (uint32_t)i, &done);
	for (i = 0; !st && i < f->msg->n_returns; i++) {
		if (resolve(f->msg, f->msg->returns[i], &f->returns[i]))
			st = eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
				      "a return names no argument or node output", NULL);
		else if (f->returns[i].node < 0 && f->resource[f->returns[i].index])
			st = eager_fn_error(c, f->msg, XRT_INVALID_ARGUMENT,
				      "a result cannot be a resource", NULL);
	}
	xrt_mem_free(c->a, state);
	return st;
}

/*
 * Adds @f unless its name is taken: by an op, or by a different function
 * (the same definition again is accepted and changes nothing, as in
 * TensorFlow).  @f belongs to @c after, or was freed.
 */
static xrt_status *insert(xrt_eager_context *c, struct eager_fn *f)
{
	struct eager_fn *old;
	xrt_status *st = NULL;

	if (eager_find_op(f->def.name)) {
		st = eager_fn_error(c, f->msg, XRT_ALREADY_EXISTS, "the name is an op's", NULL);
		fn_free(c, f);
		return st;
	}
	pthread_mutex_lock(&c->fn_lock);
	old = find_locked(c, f->def.name);
	if (!old) {
		f->next = c->functions;
		c->functions = f;
	} else if (old->size != f->size || memcmp(old->bytes, f->bytes, f->size)) {
		st = eager_fn_error(c, f->msg, XRT_ALREADY_EXISTS,
			      "a different function of this name exists", NULL);
	}
	pthread_mutex_unlock(&c->fn_lock);
	if (old)
		fn_free(c, f);
	return st;
}

xrt_status *xrt_eager_add_function(xrt_eager_context *c, const void *function_def, size_t size)
{
	struct eager_fn *f;
	xrt_status *st;

	if (!c || (!function_def && size))
		return xrt_status_new(c ? c->a : NULL, XRT_INVALID_ARGUMENT,
				      "add function: %s is NULL", c ? "the definition" : "the context");
	f = xrt_mem_calloc(c->a, 1, sizeof(*f) + size);
	if (!f)
		return xrt_status_oom(c->a, "a function");
	f->size = size;
	if (size)
		memcpy(f->bytes, function_def, size);
	f->msg = xrt__function_def__unpack(NULL, size, function_def);
	st = f->msg ? build_fn(c, f) :
		      xrt_status_new(c->a, XRT_INVALID_ARGUMENT,
				     "add function: not a FunctionDef message (%zu bytes)", size);
	if (st) {
		fn_free(c, f);
		return st;
	}
	return insert(c, f);
}

bool xrt_eager_has_function(xrt_eager_context *c, const char *name)
{
	return c && name && eager_find_function(c, name);
}

static const struct eager_fn *as_fn(const struct op_def *d)
{
	return d->lower == eager_lower_function ? (const struct eager_fn *)d : NULL;
}

bool eager_fn_has_resources(const struct op_def *d)
{
	const struct eager_fn *f = as_fn(d);

	return f && f->has_resources;
}

bool eager_fn_assigns(const struct op_def *d, uint32_t arg)
{
	const struct eager_fn *f = as_fn(d);

	return f && arg < EAGER_MAX_DEF_INPUTS && f->writes[arg];
}

uint32_t eager_fn_num_assigned(const struct op_def *d)
{
	const struct eager_fn *f = as_fn(d);

	return f ? f->num_writes : 0;
}

