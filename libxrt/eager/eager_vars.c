// SPDX-License-Identifier: MIT
/*
 * Resource variables: VarHandleOp makes a handle (a tensor holding a
 * variable, not elements); the variable ops read and replace its value,
 * a tensor on the device.  Values are immutable tensors, so a read is a
 * reference and an assignment swaps it; AssignAdd runs AddV2 on the
 * device.  A variable lives while any handle to it does.  A function
 * taking variables holds their locks while it runs: its program gets
 * their values and gives back the ones it assigns, stored when it ends.
 */
#include <string.h>

#include "core/mem.h"
#include "eager_internal.h"

struct eager_var {
	const struct xrt_allocator *a;
	pthread_mutex_t lock;
	enum xrt_dtype dtype;
	int32_t rank;			/* -1: any shape */
	int64_t dims[XRT_MAX_RANK];	/* -1: any size */
	xrt_tensor *value;		/* NULL until assigned */
	bool destroyed;
};

void eager_var_free(struct eager_var *v)
{
	xrt_tensor_unref(v->value);
	pthread_mutex_destroy(&v->lock);
	xrt_mem_free(v->a, v);
}

xrt_status *eager_var_handle(xrt_op *op, xrt_tensor **outs, uint32_t *n)
{
	const struct attr_val *shape = eager_attr(op, "shape");
	xrt_eager_context *c = op->c;
	struct eager_var *v;
	xrt_tensor *t;

	v = xrt_mem_calloc(c->a, 1, sizeof(*v));
	t = xrt_mem_calloc(c->a, 1, sizeof(*t));
	if (!v || !t || pthread_mutex_init(&v->lock, NULL)) {
		xrt_mem_free(c->a, v);
		xrt_mem_free(c->a, t);
		return xrt_status_oom(c->a, "a variable");
	}
	v->a = c->a;
	v->dtype = (enum xrt_dtype)eager_attr_int(op, "dtype");
	v->rank = (int32_t)shape->i;
	if (v->rank > 0)
		memcpy(v->dims, shape->list, (size_t)v->rank * sizeof(int64_t));
	atomic_init(&t->refs, 1);
	t->c = c;
	t->device = op->device >= 0 ? (uint32_t)op->device : c->default_device;
	t->dtype = XRT_INVALID;
	t->pool_class = -1;
	t->var = v;
	outs[0] = t;
	*n = 1;
	return NULL;
}

/* The handle's variable, locked, alive and of the op's dtype; else an error. */
static xrt_status *lock_var(xrt_op *op, struct eager_var **out)
{
	struct eager_var *v = op->inputs[0]->var;
	enum xrt_dtype want;

	if (!v)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: input #0 is not a resource handle", op->def->name);
	pthread_mutex_lock(&v->lock);
	if (v->destroyed) {
		pthread_mutex_unlock(&v->lock);
		return xrt_status_new(op->c->a, XRT_NOT_FOUND,
				      "%s: the variable was destroyed", op->def->name);
	}
	want = (enum xrt_dtype)eager_attr_int(op, "dtype");
	if (eager_attr_index(op->def, "dtype") >= 0 && want != v->dtype) {
		pthread_mutex_unlock(&v->lock);
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: the variable holds %s, not %s", op->def->name,
				      xrt_dtype_name(v->dtype), xrt_dtype_name(want));
	}
	*out = v;
	return NULL;
}

/* @t fits the variable's declared shape. */
static bool fits(const struct eager_var *v, const xrt_tensor *t)
{
	int32_t i;

	if (v->rank < 0)
		return true;
	if ((uint32_t)v->rank != t->rank)
		return false;
	for (i = 0; i < v->rank; i++) {
		if (v->dims[i] >= 0 && v->dims[i] != t->dims[i])
			return false;
	}
	return true;
}

xrt_status *eager_var_assign(xrt_op *op, xrt_tensor **outs, uint32_t *n)
{
	xrt_tensor *value = op->inputs[1], *old;
	struct eager_var *v;
	xrt_status *st = lock_var(op, &v);

	(void)outs;
	*n = 0;
	if (st)
		return st;
	if (!fits(v, value)) {
		pthread_mutex_unlock(&v->lock);
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "AssignVariableOp: the value's shape is not the variable's");
	}
	old = v->value;
	v->value = xrt_tensor_ref(value);
	pthread_mutex_unlock(&v->lock);
	xrt_tensor_unref(old);
	return NULL;
}

xrt_status *eager_var_read(xrt_op *op, xrt_tensor **outs, uint32_t *n)
{
	struct eager_var *v;
	xrt_status *st = lock_var(op, &v);

	*n = 0;
	if (st)
		return st;
	if (!v->value) {
		pthread_mutex_unlock(&v->lock);
		return xrt_status_new(op->c->a, XRT_FAILED_PRECONDITION,
				      "ReadVariableOp: the variable is uninitialized");
	}
	outs[0] = xrt_tensor_ref(v->value);
	*n = 1;
	pthread_mutex_unlock(&v->lock);
	return NULL;
}

/* value + delta through AddV2, with the variable locked so adds do not race. */
xrt_status *eager_var_assign_add(xrt_op *op, xrt_tensor **outs, uint32_t *n)
{
	xrt_tensor *sum = NULL, *old;
	struct eager_var *v;
	uint32_t one = 1;
	xrt_op *add = NULL;
	xrt_status *st = lock_var(op, &v);

	(void)outs;
	*n = 0;
	if (st)
		return st;
	if (!v->value)
		st = xrt_status_new(op->c->a, XRT_FAILED_PRECONDITION,
				    "AssignAddVariableOp: the variable is uninitialized");
	if (!st)
		st = xrt_op_create(op->c, "AddV2", &add);
	if (!st)
		st = xrt_op_add_input(add, v->value);
	if (!st)
		st = xrt_op_add_input(add, op->inputs[1]);
	if (!st)
		st = xrt_op_execute(add, &sum, &one);
	if (!st && !fits(v, sum))
		st = xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				    "AssignAddVariableOp: the sum's shape is not the variable's");
	old = NULL;
	if (!st) {
		old = v->value;
		v->value = sum;
		sum = NULL;
	}
	pthread_mutex_unlock(&v->lock);
	xrt_tensor_unref(sum);
	xrt_tensor_unref(old);
	xrt_op_destroy(add);
	return st ? xrt_status_annotate(st, "AssignAddVariableOp") : NULL;
}

xrt_status *eager_var_destroy(xrt_op *op, xrt_tensor **outs, uint32_t *n)
{
	struct eager_var *v = op->inputs[0]->var;
	xrt_tensor *old;

	(void)outs;
	*n = 0;
	if (!v)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "DestroyResourceOp: input #0 is not a resource handle");
	pthread_mutex_lock(&v->lock);
	if (v->destroyed && !eager_attr_int(op, "ignore_lookup_error")) {
		pthread_mutex_unlock(&v->lock);
		return xrt_status_new(op->c->a, XRT_NOT_FOUND,
				      "DestroyResourceOp: the variable was already destroyed");
	}
	v->destroyed = true;
	old = v->value;
	v->value = NULL;
	pthread_mutex_unlock(&v->lock);
	xrt_tensor_unref(old);
	return NULL;
}

static void unlock_all(xrt_op *op)
{
	uint32_t i;

	for (i = 0; i < EAGER_MAX_DEF_INPUTS; i++) {
		xrt_tensor_unref(op->var_values[i]);
		op->var_values[i] = NULL;
	}
	for (i = op->num_locked; i-- > 0;)
		pthread_mutex_unlock(&op->locked[i]->lock);
	op->num_locked = 0;
}

/* Locks @v unless held already; in address order, so two calls never deadlock. */
static void lock_sorted(xrt_op *op, struct eager_var **vars, uint32_t n)
{
	uint32_t i, j;

	for (i = 1; i < n; i++) {	/* insertion sort: at most 8 */
		struct eager_var *v = vars[i];

		for (j = i; j > 0 && vars[j - 1] > v; j--)
			vars[j] = vars[j - 1];
		vars[j] = v;
	}
	for (i = 0; i < n; i++) {
		if (i && vars[i] == vars[i - 1])
			continue;	/* the same variable twice */
		pthread_mutex_lock(&vars[i]->lock);
		op->locked[op->num_locked++] = vars[i];
	}
}

/* Input @i's variable's value, on device @dev, into op->var_values[i]. */
static xrt_status *take_value(xrt_op *op, uint32_t i, uint32_t dev)
{
	struct eager_var *v = op->inputs[i]->var;
	xrt_tensor *t = v->value;

	if (v->destroyed)
		return xrt_status_new(op->c->a, XRT_NOT_FOUND, "%s: the variable of input #%u "
				      "was destroyed", op->def->name, i);
	if (!t)
		return xrt_status_new(op->c->a, XRT_FAILED_PRECONDITION, "%s: the variable of "
				      "input #%u is uninitialized", op->def->name, i);
	if (t->device == dev) {
		op->var_values[i] = xrt_tensor_ref(t);
		return NULL;
	}
	return xrt_tensor_copy_to_device(t, op->c->devices[dev], &op->var_values[i]);
}

xrt_status *eager_vars_begin(xrt_op *op, uint32_t dev)
{
	struct eager_var *vars[EAGER_MAX_DEF_INPUTS];
	xrt_status *st = NULL;
	uint32_t i, n = 0;

	for (i = 0; i < op->num_inputs && i < EAGER_MAX_DEF_INPUTS; i++) {
		if (op->inputs[i]->var)
			vars[n++] = op->inputs[i]->var;
	}
	lock_sorted(op, vars, n);
	for (i = 0; !st && i < op->num_inputs && i < EAGER_MAX_DEF_INPUTS; i++) {
		if (!op->inputs[i]->var)
			continue;
		st = take_value(op, i, dev);
		if (!st)
			eager_op_rekey_input(op, i, op->var_values[i]);
	}
	if (st)
		unlock_all(op);
	return st;
}

xrt_status *eager_vars_end(xrt_op *op, xrt_tensor **outs, uint32_t *n, xrt_status *st)
{
	uint32_t k = eager_fn_num_assigned(op->def), i, j;
	xrt_tensor *old;

	/* all or nothing: every value must fit its variable first */
	for (i = 0, j = *n - k; !st && i < op->num_inputs && i < EAGER_MAX_DEF_INPUTS; i++) {
		if (!eager_fn_assigns(op->def, i))
			continue;
		if (!fits(op->inputs[i]->var, outs[j++]))
			st = xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT, "%s: the value assigned "
					    "to the variable of input #%u is not of its shape",
					    op->def->name, i);
	}
	for (i = 0, j = *n - k; !st && i < op->num_inputs && i < EAGER_MAX_DEF_INPUTS; i++) {
		if (!eager_fn_assigns(op->def, i))
			continue;
		old = op->inputs[i]->var->value;
		op->inputs[i]->var->value = outs[j];
		outs[j++] = NULL;
		xrt_tensor_unref(old);
	}
	if (!st)
		*n -= k;
	unlock_all(op);
	return st;
}
