// SPDX-License-Identifier: MIT
/*
 * The evaluator's driver: arguments in, computations evaluated
 * instruction by instruction, the result out.
 */
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

xrt_status *xrt_ir_evaluate(const xrt_module *m, const xrt_literal *const *args,
			    uint32_t num_args, const struct xrt_eval_options *options,
			    const struct xrt_allocator *alloc, xrt_literal **out)
{
	struct ev ev = { .m = m, .a = alloc };
	struct ev_val **vals = NULL, *r = NULL;
	const struct ir_comp *entry;
	xrt_status *st;
	uint32_t i;

	if (!out || !m)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "evaluate: %s is NULL",
				      out ? "module" : "out");
	*out = NULL;
	st = xrt_module_verify(m);
	if (!st)
		st = ir_module_check_single(m, alloc, "evaluate");
	if (!st)
		st = check_args(m, args, num_args, alloc);
	if (st)
		return st;
	if (options) {
		ev.seed = options->rng_seed;
		ev.max_iterations = options->max_iterations;
		if (options->timeout_ns)
			ev.deadline_ns = ev_now_ns() + options->timeout_ns;
	}
	entry = &m->comps[m->entry];
	vals = xrt_mem_calloc(alloc, num_args + 1, sizeof(*vals));
	if (!vals)
		return xrt_status_oom(alloc, "evaluation");
	for (i = 0; i < num_args && !ev.err; i++)
		vals[i] = ev_from_literal(&ev, args[i]);
	if (!ev.err)
		r = ev_call(&ev, entry, vals, num_args);
	if (r)
		*out = ev_to_literal(&ev, r, &entry->instrs[entry->root].shape);
	ev_free(&ev, r);
	for (i = 0; i < num_args; i++)
		ev_free(&ev, vals[i]);
	xrt_mem_free(alloc, vals);
	return ev.err;
}
