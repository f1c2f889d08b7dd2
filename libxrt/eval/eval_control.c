// SPDX-License-Identifier: MIT
/*
 * while, conditional (a predicate picks one of two computations, an
 * index one of n, the last for an index out of range) and call.
 */
#include <time.h>

#include "eval/eval.h"

uint64_t ev_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static struct ev_val *while_loop(struct ev *ev, struct ev_val *const *ops)
{
	const struct ir_comp *cond = ev_comp(ev, IR_ATTR_CONDITION, 0);
	const struct ir_comp *body = ev_comp(ev, IR_ATTR_BODY, 0);
	struct ev_val *state = ev_copy(ev, ops[0]), *p, *next;
	uint64_t iterations = 0;
	bool go;

	while (state) {
		p = ev_call(ev, cond, &state, 1);
		go = p && p->e[0].u;
		ev_free(ev, p);
		if (!go)
			break;
		if (++iterations > ev->max_iterations && ev->max_iterations) {
			ev_fail(ev, XRT_DEADLINE_EXCEEDED, "more than %llu iterations",
				(unsigned long long)ev->max_iterations);
			break;
		}
		if (ev_world_failed(ev->world)) {
			ev_fail(ev, XRT_CANCELLED, "another device failed");
			break;
		}
		if (ev->deadline_ns && ev_now_ns() >= ev->deadline_ns) {
			ev_fail(ev, XRT_DEADLINE_EXCEEDED, "deadline passed after %llu iterations",
				(unsigned long long)iterations - 1);
			break;
		}
		next = ev_call(ev, body, &state, 1);
		ev_free(ev, state);
		state = next;
	}
	if (ev->err) {
		ev_free(ev, state);
		return NULL;
	}
	return state;
}

static struct ev_val *conditional(struct ev *ev, struct ev_val *const *ops)
{
	const struct ir_attr *br = ir_instr_attr(ev->in, IR_ATTR_BRANCH_COMPUTATIONS);
	int64_t i;

	if (!br) {
		bool t = ops[0]->e[0].u;

		return ev_call(ev, ev_comp(ev, t ? IR_ATTR_TRUE_COMPUTATION :
					       IR_ATTR_FALSE_COMPUTATION, 0),
			       &ops[t ? 1 : 2], 1);
	}
	i = ops[0]->e[0].s;
	if (i < 0 || i >= br->n)
		i = br->n - 1;
	return ev_call(ev, ev_comp(ev, IR_ATTR_BRANCH_COMPUTATIONS, (uint32_t)i), &ops[1 + i], 1);
}

struct ev_val *ev_control(struct ev *ev, struct ev_val *const *ops)
{
	switch (ev->in->op) {
	case XRT_OP_WHILE:
		return while_loop(ev, ops);
	case XRT_OP_CONDITIONAL:
		return conditional(ev, ops);
	default:
		return ev_call(ev, ev_comp(ev, IR_ATTR_TO_APPLY, 0), ops, ev->in->num_operands);
	}
}
