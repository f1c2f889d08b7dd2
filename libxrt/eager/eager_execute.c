// SPDX-License-Identifier: MIT
/*
 * Executing an op: check its inputs, place them, find (or compile) its
 * kernel by the key kept on the op, and run the kernel's program on the
 * inputs' buffers and new output tensors.
 */
#include <string.h>

#include "core/mem.h"
#include "core/shape.h"
#include "cstream/executable.h"
#include "runtime/cache.h"
#include "eager_internal.h"

/* Resource handles have no element type. */
static const char *type_word(enum xrt_dtype t)
{
	return t == XRT_INVALID ? "resource" : xrt_dtype_name(t);
}

/* Every input there, of the type the op expects; required attributes set. */
static xrt_status *check(const xrt_op *op)
{
	const struct op_def *d = op->def;
	uint32_t i, k = 0, n, j;

	if (op->next_def_input != d->num_inputs)
		return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
				      "%s: expected %u inputs, got %u", d->name, d->num_inputs,
				      op->next_def_input);
	for (i = 0; i < d->num_attrs; i++) {
		if (!d->attrs[i].has_default && !op->attrs[i].set)
			return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
					      "%s: attribute '%s' is not set", d->name,
					      d->attrs[i].name);
	}
	for (i = 0; i < d->num_inputs; i++) {
		enum xrt_dtype want = eager_input_type(op, i);

		n = eager_input_count(op, i);
		for (j = 0; j < n; j++, k++) {
			if (op->inputs[k]->dtype != want)
				return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
						      "%s: input #%u was expected to be a %s "
						      "tensor but is a %s tensor", d->name, k,
						      type_word(want),
						      type_word(op->inputs[k]->dtype));
		}
	}
	return NULL;
}

/*
 * The device: the op's, else that of the first input not on host:0
 * (the seed's rule), else the context's default.
 */
static uint32_t pick_device(const xrt_op *op)
{
	uint32_t i;

	if (op->device >= 0)
		return (uint32_t)op->device;
	for (i = 0; i < op->num_inputs; i++) {
		if (op->inputs[i]->device)
			return op->inputs[i]->device;
	}
	return op->c->default_device;
}

/* Inputs on another device are copied there, or refused. */
static xrt_status *place(xrt_op *op, uint32_t dev)
{
	xrt_tensor *moved;
	xrt_status *st;
	uint32_t i;

	for (i = 0; i < op->num_inputs; i++) {
		/* a variable stays; its value comes to @dev (eager_vars_begin) */
		if (op->inputs[i]->device == dev || op->inputs[i]->var)
			continue;
		if (op->c->placement == XRT_PLACEMENT_EXPLICIT)
			return xrt_status_new(op->c->a, XRT_INVALID_ARGUMENT,
					      "cannot compute %s as input #%u was expected to be "
					      "on %s but is actually on %s", op->def->name, i,
					      op->c->devices[dev],
					      op->c->devices[op->inputs[i]->device]);
		st = xrt_tensor_copy_to_device(op->inputs[i], op->c->devices[dev], &moved);
		if (st)
			return st;
		xrt_tensor_unref(op->inputs[i]);
		op->inputs[i] = moved;
	}
	return NULL;
}

/*
 * Records the result leaves of @exe, the kernel @op is about to keep, and
 * their byte sizes: an unchanged op makes its outputs from these.
 */
static xrt_status *learn_outputs(xrt_op *op, const struct xrt_executable *exe)
{
	uint64_t n = xrt_shape_leaf_count(&exe->result);
	uint32_t i, leaf;

	if (n > EAGER_MAX_OUTPUTS)
		return xrt_status_new(op->c->a, XRT_INTERNAL,
				      "%s: its kernel returns %llu arrays, more than %u",
				      op->def->name, (unsigned long long)n, EAGER_MAX_OUTPUTS);
	for (i = 0; i < n; i++) {
		leaf = i;
		op->out_shape[i] = xrt_shape_nth_leaf(&exe->result, &leaf);
		op->out_bytes[i] = xrt_shape_byte_size(op->out_shape[i]);
	}
	op->num_outs = (uint32_t)n;
	return NULL;
}

/* Output tensors for the result leaves learn_outputs() recorded. */
static xrt_status *new_outputs(xrt_op *op, uint32_t dev, xrt_tensor **outs, uint32_t *n)
{
	xrt_status *st = NULL;
	uint32_t i;

	*n = 0;
	for (i = 0; !st && i < op->num_outs; i++) {
		st = eager_tensor_new(op->c, dev, op->out_shape[i], op->out_bytes[i], &outs[i]);
		if (!st)
			(*n)++;
	}
	return st;
}

/*
 * The seed of a random op's numbers: from its seed attributes and how
 * many times it ran, so that a seeded op gives one sequence every time
 * the program runs, and each execution new numbers.
 */
static uint64_t seed_of(xrt_op *op)
{
	uint64_t s = (uint64_t)eager_attr_int(op, "seed") * 0x9e3779b97f4a7c15ull ^
		     (uint64_t)eager_attr_int(op, "seed2");

	if (!eager_attr_int(op, "seed") && !eager_attr_int(op, "seed2"))
		s = (uint64_t)(uintptr_t)op ^ 0x5851f42d4c957f2dull;	/* unseeded */
	return (s ^ op->runs++) * 0xd1b54a32d192ed03ull + 1;
}

xrt_status *eager_queue(xrt_eager_context *c, uint32_t dev, struct xdev_queue **out)
{
	xrt_status *st = NULL;

	pthread_mutex_lock(&c->queue_lock);
	if (!c->queue[dev])
		st = c->dev[dev]->ops->queue_create(c->dev[dev], c->a, 0, &c->queue[dev]);
	*out = c->queue[dev];
	pthread_mutex_unlock(&c->queue_lock);
	return st;
}

/* The tensor input @i gives the kernel: for a variable, its value. */
static const xrt_tensor *param_tensor(const xrt_op *op, uint32_t i)
{
	return op->inputs[i]->var ? op->var_values[i] : op->inputs[i];
}

/* What one run binds: the op's parameter tensors, its outputs, on device @dev or host:0. */
struct binding {
	const xrt_op *op;
	const uint32_t *param;	/* parameter p is input param[p] */
	xrt_tensor **outs;
	bool on_host;
	struct xdev_buf *slots;
};

static xrt_status *bind_slot(void *ctx, uint32_t s, const struct xexe_slot *sl)
{
	struct binding *b = ctx;
	const xrt_tensor *t = sl->kind == XEXE_SLOT_PARAM ? param_tensor(b->op, b->param[sl->param]) :
			      b->outs[sl->leaf];

	/* host:0's tensors are the context's memory: the buffer is their data */
	b->slots[s] = b->on_host ? (struct xdev_buf){ .data = t->data, .size = t->bytes } : t->buf;
	return NULL;
}

/* @exe on the op's device, through its queue (host:0's own for device 0). */
static xrt_status *run_on(xrt_op *op, uint32_t dev, const struct xrt_executable *exe,
			  xrt_tensor **outs, const uint32_t *param, uint64_t seed)
{
	xrt_eager_context *c = op->c;
	struct xdev_buf small[16];
	struct binding b = { op, param, outs, !c->dev[dev], small };
	struct xdev_queue *q = c->host_queue;
	struct xdev *d = c->host;
	xrt_status *st = NULL;

	if (exe->num_slots > 16) {
		b.slots = xrt_mem_calloc(c->a, exe->num_slots, sizeof(*b.slots));
		if (!b.slots)
			return xrt_status_oom(c->a, "slots");
	}
	if (!b.on_host) {
		d = c->dev[dev];
		st = eager_queue(c, dev, &q);
	}
	if (!st)
		st = xexe_bind(exe, bind_slot, &b);
	if (!st)
		st = d->ops->run(q, exe, b.slots, seed, NULL);
	if (b.slots != small)
		xrt_mem_free(c->a, b.slots);
	return st;
}

static xrt_status *run(xrt_op *op, uint32_t dev, const struct xrt_executable *exe,
		       xrt_tensor **outs)
{
	uint32_t i, p = 0, param[EAGER_MAX_INPUTS];
	uint64_t seed = 0;

	if (op->def->lower == eager_lower_random)
		seed = seed_of(op);
	/* Parameter p is the p-th input that is not constant. */
	for (i = 0; i < op->num_inputs; i++) {
		if (!op->input_constant[i])
			param[p++] = i;
	}
	return run_on(op, dev, exe, outs, param, seed);
}

/* The seed's contract: as many outputs as there is room for; the rest dropped. */
static void hand_out(xrt_tensor **outs, uint32_t n, xrt_tensor **retvals, uint32_t *num_retvals)
{
	uint32_t i;

	if (*num_retvals > n)
		*num_retvals = n;
	for (i = 0; i < n; i++) {
		if (i < *num_retvals)
			retvals[i] = outs[i];
		else
			xrt_tensor_unref(outs[i]);
	}
}

/* A stateful op runs directly. */
static xrt_status *run_exec(xrt_op *op, xrt_tensor **retvals, uint32_t *num_retvals)
{
	xrt_tensor *outs[EAGER_MAX_OUTPUTS] = { NULL };
	uint32_t n = 0;
	xrt_status *st = op->def->exec(op, outs, &n);

	if (!st)
		hand_out(outs, n, retvals, num_retvals);
	return st;
}

/*
 * The kernel of @op on @dev, found or compiled, run into new @outs
 * (@n of them).
 */
static xrt_status *run_kernel(xrt_op *op, uint32_t dev, xrt_tensor **outs, uint32_t *n)
{
	const struct xrt_executable *exe;
	struct centry *e = NULL;
	xrt_status *st;

	/*
	 * An op unchanged since it last ran (any change drops key_valid) was
	 * checked then and runs the kernel it found: no checks, hash or lock.
	 */
	if (!op->key_valid || op->key_device != dev || !op->entry) {
		st = check(op);
		if (!st)
			st = place(op, dev);
		if (st)
			return st;
		if (op->entry)
			centry_unref(op->entry);
		op->entry = NULL;
		eager_op_key(op, dev);
		e = kernel_cache_find(op->c->kernels, op->key);
		if (!e) {
			st = kernel_cache_add(op->c->kernels, op, &e);
			if (st)
				return st;
		}
		st = learn_outputs(op, centry_exe(e));
		if (st) {
			centry_unref(e);
			return st;
		}
		op->entry = e;
	}
	exe = centry_exe(op->entry);
	st = new_outputs(op, dev, outs, n);
	return st ? st : run(op, dev, exe, outs);
}

xrt_status *xrt_op_execute(xrt_op *op, xrt_tensor **retvals, uint32_t *num_retvals)
{
	xrt_tensor *outs[EAGER_MAX_OUTPUTS] = { NULL };
	bool vars;
	xrt_status *st;
	uint32_t dev, n = 0, i;

	if (!op || !num_retvals || (*num_retvals && !retvals))
		return xrt_status_new(op ? op->c->a : NULL, XRT_INVALID_ARGUMENT,
				      "execute: %s is NULL", !op ? "the op" : "retvals");
	dev = pick_device(op);
	if (op->def->exec) {
		st = check(op);
		if (!st)
			st = place(op, dev);
		return st ? st : run_exec(op, retvals, num_retvals);
	}
	vars = eager_fn_has_resources(op->def);
	if (vars) {
		st = eager_vars_begin(op, dev);
		if (st)
			return st;
	}
	st = run_kernel(op, dev, outs, &n);
	if (vars)
		st = eager_vars_end(op, outs, &n, st);
	if (st) {
		for (i = 0; i < EAGER_MAX_OUTPUTS; i++)
			xrt_tensor_unref(outs[i]);
		return st;
	}
	hand_out(outs, n, retvals, num_retvals);
	return NULL;
}
