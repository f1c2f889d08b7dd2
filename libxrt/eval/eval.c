// SPDX-License-Identifier: MIT
/*
 * The evaluator's driver: arguments in, computations evaluated
 * instruction by instruction, the result out.
 */
#include <pthread.h>
#include <string.h>

#include "core/mem.h"
#include "eval/eval.h"
#include "ir/opcode.h"

const int64_t *ev_ints(const struct ev *ev, enum ir_attr_key key, uint32_t *n)
{
	const struct ir_attr *a = ir_instr_attr(ev->in, key);

	*n = a ? a->n : 0;
	return a ? a->ints : NULL;
}

int64_t ev_int(const struct ev *ev, enum ir_attr_key key, int64_t dflt)
{
	const struct ir_attr *a = ir_instr_attr(ev->in, key);

	return a && a->n ? a->ints[0] : dflt;
}

const char *ev_word(const struct ev *ev, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(ev->in, key);

	return a ? a->str : NULL;
}

const struct ir_comp *ev_comp(const struct ev *ev, enum ir_attr_key key, uint32_t i)
{
	return &ev->m->comps[ir_instr_attr(ev->in, key)->ints[i]];
}

static bool is_elementwise(enum xrt_opcode op)
{
	return xrt_opcode_is_unary(op) || xrt_opcode_is_binary(op) || op == XRT_OP_COMPARE ||
	       op == XRT_OP_SELECT || op == XRT_OP_CLAMP || op == XRT_OP_CONVERT ||
	       op == XRT_OP_BITCAST_CONVERT || op == XRT_OP_REDUCE_PRECISION ||
	       op == XRT_OP_MAP;
}

static struct ev_val *eval_instr(struct ev *ev, struct ev_val *const *ops,
				 struct ev_val *const *args)
{
	switch (ev->in->op) {
	case XRT_OP_PARAMETER:
		return ev_copy(ev, args[ev->in->parameter]);
	case XRT_OP_CONSTANT:
		return ev_from_literal(ev, ev->in->literal);
	case XRT_OP_CUSTOM_CALL:
		return ev_custom_call(ev, ops);
	case XRT_OP_DYNAMIC_SLICE:
	case XRT_OP_DYNAMIC_UPDATE_SLICE:
	case XRT_OP_GATHER:
	case XRT_OP_SCATTER:
		return ev_indexing(ev, ops);
	case XRT_OP_REDUCE:
	case XRT_OP_SORT:
		return ev_reductions(ev, ops);
	case XRT_OP_TOPK:
		return ev_topk(ev, ops);
	case XRT_OP_REDUCE_WINDOW:
	case XRT_OP_SELECT_AND_SCATTER:
		return ev_windows(ev, ops);
	case XRT_OP_DOT:
	case XRT_OP_CONVOLUTION:
		return ev_contractions(ev, ops);
	case XRT_OP_WHILE:
	case XRT_OP_CONDITIONAL:
	case XRT_OP_CALL:
		return ev_control(ev, ops);
	case XRT_OP_RNG:
	case XRT_OP_RNG_BIT_GENERATOR:
		return ev_random(ev, ops);
	default:
		if (xrt_opcode_is_collective(ev->in->op))
			return ev_collective(ev, ops);
		return is_elementwise(ev->in->op) ? ev_elementwise(ev, ops) : ev_movement(ev, ops);
	}
}

struct ev_val *ev_call(struct ev *ev, const struct ir_comp *c, struct ev_val *const *args,
		       uint32_t n)
{
	const struct ir_comp *saved_c = ev->c;
	const struct ir_instr *saved_in = ev->in;
	struct ev_val **vals, **ops = NULL, *out = NULL;
	bool *live;
	uint32_t i, k;

	(void)n;	/* the verifier matched the arguments to the parameters */
	vals = xrt_mem_calloc(ev->a, c->num_instrs + 1, sizeof(*vals));
	if (!vals) {
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		return NULL;
	}
	/* What the root does not need is not evaluated, but for custom calls with side effects. */
	live = xrt_mem_calloc(ev->a, c->num_instrs + 1, sizeof(*live));
	if (!live) {
		xrt_mem_free(ev->a, vals);
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		return NULL;
	}
	live[c->root] = true;
	for (i = 0; i < c->num_instrs; i++)
		live[i] |= ir_has_side_effect(&c->instrs[i]);
	for (i = c->num_instrs; i-- > 0;) {
		for (k = 0; live[i] && k < c->instrs[i].num_operands; k++)
			live[c->instrs[i].operands[k]] = true;
	}
	for (i = 0; i < c->num_instrs && !ev->err; i++) {
		const struct ir_instr *in = &c->instrs[i];

		if (!live[i])
			continue;
		ev->c = c;
		ev->in = in;
		ops = xrt_mem_calloc(ev->a, in->num_operands + 1, sizeof(*ops));
		if (!ops) {
			ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
			break;
		}
		for (k = 0; k < in->num_operands; k++)
			ops[k] = vals[in->operands[k]];
		vals[i] = eval_instr(ev, ops, args);
		xrt_mem_free(ev->a, ops);
		if (!vals[i] && !ev->err)
			ev_fail(ev, XRT_INTERNAL, "no value and no error");
	}
	if (!ev->err) {
		out = vals[c->root];
		vals[c->root] = NULL;
	}
	for (i = 0; i < c->num_instrs; i++)
		ev_free(ev, vals[i]);
	xrt_mem_free(ev->a, vals);
	xrt_mem_free(ev->a, live);
	ev->c = saved_c;
	ev->in = saved_in;
	return out;
}

bool ev_call_scalars(struct ev *ev, const struct ir_comp *c, const enum xrt_dtype *types,
		     const struct ev_scalar *args, uint32_t n, struct ev_scalar *out,
		     uint32_t nout)
{
	struct ev_val *vals[2 * XRT_MAX_RANK] = { NULL }, *r = NULL;
	uint32_t i;

	for (i = 0; i < n; i++) {
		vals[i] = ev_scalar_val(ev, types[i], args[i]);
		if (!vals[i])
			goto done;
	}
	r = ev_call(ev, c, vals, n);
	if (!r)
		goto done;
	if (nout == 1 && !xrt_shape_is_tuple(&r->shape)) {
		out[0] = r->e[0];
	} else {
		for (i = 0; i < nout; i++)
			out[i] = r->elems[i]->e[0];
	}
done:
	for (i = 0; i < n; i++)
		ev_free(ev, vals[i]);
	ev_free(ev, r);
	return !ev->err;
}

static xrt_status *check_args(const xrt_module *m, const xrt_literal *const *args, uint32_t n,
			      const struct xrt_allocator *a)
{
	const struct ir_comp *c = &m->comps[m->entry];
	uint32_t i;

	if (n != c->num_params)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "evaluate: %u arguments for the %u parameters of '%s'", n,
				      c->num_params, c->name);
	if (n && !args)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "evaluate: args is NULL");
	for (i = 0; i < c->num_instrs; i++) {
		const struct ir_instr *in = &c->instrs[i];
		char want[128], got[128];

		if (in->op != XRT_OP_PARAMETER)
			continue;
		if (!args[in->parameter])
			return xrt_status_new(a, XRT_INVALID_ARGUMENT,
					      "evaluate: argument %lld is NULL",
					      (long long)in->parameter);
		if (xrt_shape_compatible(&in->shape, xrt_literal_shape(args[in->parameter])))
			continue;
		xrt_shape_format(&in->shape, want, sizeof(want));
		xrt_shape_format(xrt_literal_shape(args[in->parameter]), got, sizeof(got));
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "evaluate: argument %lld is %s, parameter '%s' is %s",
				      (long long)in->parameter, got, in->name, want);
	}
	return NULL;
}

/* One device's evaluation, in its own thread where there are several. */
struct device_run {
	struct ev ev;
	const xrt_literal *const *args;
	uint32_t num_args;
	xrt_literal *out;
	pthread_t thread;
	bool started;
};

static void *run_device(void *arg)
{
	struct device_run *d = arg;
	struct ev *ev = &d->ev;
	const struct ir_comp *entry = &ev->m->comps[ev->m->entry];
	struct ev_val **vals, *r = NULL;
	uint32_t i;

	vals = xrt_mem_calloc(ev->a, d->num_args + 1, sizeof(*vals));
	if (!vals)
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
	for (i = 0; i < d->num_args && !ev->err; i++)
		vals[i] = ev_from_literal(ev, d->args[i]);
	if (!ev->err)
		r = ev_call(ev, entry, vals, d->num_args);
	if (r)
		d->out = ev_to_literal(ev, r, &entry->instrs[entry->root].shape);
	ev_free(ev, r);
	for (i = 0; vals && i < d->num_args; i++)
		ev_free(ev, vals[i]);
	xrt_mem_free(ev->a, vals);
	ev_world_finish(ev->world, ev->device, ev->err);
	return NULL;
}

/* The error to report: the first device's that failed of itself, named when there are several. */
static xrt_status *first_error(struct device_run *d, int64_t n, int64_t partitions,
			       const struct xrt_allocator *a)
{
	int64_t i, pick = -1;
	xrt_status *st;

	for (i = 0; i < n; i++)
		if (d[i].ev.err && (pick < 0 || (xrt_status_code(d[pick].ev.err) == XRT_CANCELLED &&
						 xrt_status_code(d[i].ev.err) != XRT_CANCELLED)))
			pick = i;
	if (pick < 0 || n == 1)
		return pick < 0 ? NULL : d[pick].ev.err;
	if (partitions > 1)
		st = xrt_status_new(a, xrt_status_code(d[pick].ev.err), "replica %lld partition "
				    "%lld: %s", (long long)d[pick].ev.replica,
				    (long long)d[pick].ev.partition,
				    xrt_status_message(d[pick].ev.err));
	else
		st = xrt_status_new(a, xrt_status_code(d[pick].ev.err), "replica %lld: %s",
				    (long long)d[pick].ev.replica, xrt_status_message(d[pick].ev.err));
	for (i = 0; i < n; i++)
		xrt_status_free(d[i].ev.err);
	return st;
}

/* Runs the @n devices on their arguments, each in a thread where there are several. */
static void run_devices(struct device_run *d, int64_t n)
{
	int64_t i;

	if (n == 1) {
		run_device(&d[0]);
		return;
	}
	for (i = 0; i < n; i++) {
		d[i].started = !pthread_create(&d[i].thread, NULL, run_device, &d[i]);
		if (!d[i].started) {
			d[i].ev.err = xrt_status_new(d[i].ev.a, XRT_RESOURCE_EXHAUSTED,
						     "evaluate: no thread for the device");
			ev_world_finish(d[i].ev.world, i, true);
		}
	}
	for (i = 0; i < n; i++)
		if (d[i].started)
			pthread_join(d[i].thread, NULL);
}

static xrt_status *evaluate(const xrt_module *m, const xrt_literal *const *args,
			    uint32_t num_args, const struct xrt_eval_options *options,
			    const struct xrt_allocator *alloc, xrt_literal **out, int64_t n)
{
	int64_t partitions = m->num_partitions ? m->num_partitions : 1, i;
	struct ev_world *w = ev_world_new(alloc, n);
	struct device_run *d = xrt_mem_calloc(alloc, (size_t)n, sizeof(*d));
	uint64_t now = ev_now_ns();
	xrt_status *st;

	if (!w || !d) {
		ev_world_free(alloc, w);
		xrt_mem_free(alloc, d);
		return xrt_status_oom(alloc, "evaluation");
	}
	for (i = 0; i < n; i++) {
		d[i].ev = (struct ev){ .m = m, .a = alloc, .world = w, .device = i,
				       .replica = i / partitions, .partition = i % partitions };
		d[i].args = args ? args + i * num_args : NULL;
		d[i].num_args = num_args;
		if (options) {
			d[i].ev.seed = options->rng_seed;
			d[i].ev.max_iterations = options->max_iterations;
			if (options->timeout_ns)
				d[i].ev.deadline_ns = now + options->timeout_ns;
		}
	}
	run_devices(d, n);
	st = first_error(d, n, partitions, alloc);
	for (i = 0; i < n; i++) {
		out[i] = st ? NULL : d[i].out;
		if (st)
			xrt_literal_destroy(d[i].out);
	}
	ev_world_free(alloc, w);
	xrt_mem_free(alloc, d);
	return st;
}

/* The devices @m runs on: its replicas times its partitions. */
static int64_t devices_of(const xrt_module *m)
{
	return (int64_t)(m->replica_count ? m->replica_count : 1) *
	       (m->num_partitions ? m->num_partitions : 1);
}

xrt_status *xrt_ir_evaluate(const xrt_module *m, const xrt_literal *const *args,
			    uint32_t num_args, const struct xrt_eval_options *options,
			    const struct xrt_allocator *alloc, xrt_literal **out)
{
	xrt_status *st;

	if (!out || !m)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "evaluate: %s is NULL",
				      out ? "module" : "out");
	*out = NULL;
	st = xrt_module_verify(m);
	if (!st && devices_of(m) > 1)
		st = xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				    "evaluate: module '%s' runs on %lld devices (replica_count=%u, "
				    "num_partitions=%u): evaluate it with xrt_ir_evaluate_replicated",
				    m->name, (long long)devices_of(m),
				    m->replica_count ? m->replica_count : 1,
				    m->num_partitions ? m->num_partitions : 1);
	if (!st)
		st = check_args(m, args, num_args, alloc);
	return st ? st : evaluate(m, args, num_args, options, alloc, out, 1);
}

xrt_status *xrt_ir_evaluate_replicated(const xrt_module *m, const xrt_literal *const *args,
				       uint32_t num_args, const struct xrt_eval_options *options,
				       const struct xrt_allocator *alloc, xrt_literal **out)
{
	int64_t n, i;
	xrt_status *st;

	if (!out || !m)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "evaluate: %s is NULL",
				      out ? "module" : "out");
	st = xrt_module_verify(m);
	if (st)
		return st;
	n = devices_of(m);
	for (i = 0; i < n; i++)
		out[i] = NULL;
	if (n > XRT_EVAL_MAX_DEVICES)
		return xrt_status_new(alloc, XRT_RESOURCE_EXHAUSTED,
				      "evaluate: module '%s' runs on %lld devices; the evaluator "
				      "runs at most %d, a thread each", m->name, (long long)n,
				      XRT_EVAL_MAX_DEVICES);
	if (num_args && !args)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "evaluate: args is NULL");
	for (i = 0; i < n && !st; i++) {
		st = check_args(m, args + i * num_args, num_args, alloc);
		if (st && n > 1) {
			xrt_status *named = xrt_status_new(alloc, xrt_status_code(st),
							   "device %lld: %s", (long long)i,
							   xrt_status_message(st));

			xrt_status_free(st);
			st = named;
		}
	}
	return st ? st : evaluate(m, args, num_args, options, alloc, out, n);
}
