// SPDX-License-Identifier: MIT
/*
 * XLA's asynchronous forms, read as the synchronous work they wrap: one
 * program runs each instruction to its end, so starting, updating and
 * finishing are one step here.
 *
 *   async-start(args), calls=C   ((args...), R, context...)  becomes
 *       tuple(tuple(args), call(args) to C, zeros for the context)
 *   async-update(s)              copy(s)
 *   async-done(s)                get-tuple-element(s), index=1
 *   copy-start(x)                (T, T, context)  becomes
 *       tuple(copy(x), x, zeros for the context)
 *   copy-done(s)                 get-tuple-element(s), index=0
 *   all-reduce-start(x)          all-reduce(x)
 *   all-reduce-done(s)           copy(s)
 *   all-gather-start(x), collective-permute-start(x)
 *                                (operands, result, context...)  becomes
 *       tuple(x or tuple(xs), the collective of x, zeros for the context)
 *   all-gather-done(s), collective-permute-done(s)
 *                                get-tuple-element(s), index=1
 *
 * The verifier then checks the pieces like any others (the tuple's
 * shape against its operands, the call against C's signature).
 */
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "hlo_parse.h"

enum form { NONE, ASYNC_START, ASYNC_UPDATE, ASYNC_DONE, COPY_START, COPY_DONE,
	     REDUCE_START, REDUCE_DONE, GATHER_START, GATHER_DONE, PERMUTE_START, PERMUTE_DONE };

static enum form form_of(const char *s, size_t n)
{
	static const char *const names[] = {
		NULL, "async-start", "async-update", "async-done", "copy-start", "copy-done",
		"all-reduce-start", "all-reduce-done", "all-gather-start", "all-gather-done",
		"collective-permute-start", "collective-permute-done",
	};
	uint32_t i;

	for (i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !memcmp(s, names[i], n))
			return (enum form)i;
	return NONE;
}

enum xrt_opcode hlo_async_op(const char *s, size_t n)
{
	switch (form_of(s, n)) {
	case ASYNC_START:
	case COPY_START:
	case GATHER_START:
	case PERMUTE_START:
		return XRT_OP_TUPLE;
	case REDUCE_START:
		return XRT_OP_ALL_REDUCE;
	case ASYNC_UPDATE:
	case REDUCE_DONE:
		return XRT_OP_COPY;
	case ASYNC_DONE:
	case COPY_DONE:
	case GATHER_DONE:
	case PERMUTE_DONE:
		return XRT_OP_GET_TUPLE_ELEMENT;
	default:
		return XRT_OP_COUNT;
	}
}

/* Fills slot @at with @op of shape @s (deep-copied), named @base.@what@k. */
static struct ir_instr *add_shaped(struct hp *p, uint32_t at, enum xrt_opcode op,
				   const char *base, const char *what, uint32_t k,
				   const struct xrt_shape *s)
{
	struct ir_instr *in = hp_add_instr(p, at, op, base, what, k, XRT_F32, 0, NULL);
	xrt_status *st;

	if (!in)
		return NULL;
	st = xrt_shape_copy(&in->shape, p->a, s);
	if (st) {
		xrt_status_free(st);
		hp_oom(p);
		return NULL;
	}
	return in;
}

/* Slots from @at on take zeros for the context elements (2 on) of @g's shape. */
static int contexts(struct hp *p, uint32_t *at, uint32_t g, uint32_t *ops)
{
	const struct xrt_shape *s = &p->cur->instrs[g].shape;
	uint32_t j;

	for (j = 2; j < s->tuple_count; j++) {
		struct ir_instr *c = add_shaped(p, *at, XRT_OP_CONSTANT, p->cur->instrs[g].name,
						"context", j - 2, &s->tuple[j]);
		xrt_status *st;

		if (!c)
			return -1;
		st = xrt_literal_create(p->a, &c->shape, &c->literal);
		if (st) {
			xrt_status_free(st);
			return hp_oom(p);
		}
		ops[j] = (*at)++;
	}
	return 0;
}

/* The start's declared shape: (operands, result, context arrays...). */
static int check_start(struct hp *p, const struct ir_instr *in, const char *what)
{
	const struct xrt_shape *s = &in->shape;
	uint32_t j;

	if (!xrt_shape_is_tuple(s) || s->tuple_count < 2 || s->tuple_count > 2 + 8)
		return hp_fail(p, "%s: %s's shape is not (operands, result, context...)",
			       in->name, what);
	for (j = 2; j < s->tuple_count; j++)
		if (xrt_shape_is_tuple(&s->tuple[j]))
			return hp_fail(p, "%s: %s's context %u is a tuple", in->name, what, j - 2);
	return 0;
}

static int async_start(struct hp *p)
{
	uint32_t g = p->cur->num_instrs - 1, at, n, ops[10], callee;
	struct ir_instr *in = &p->cur->instrs[g], *t, *c;
	const struct ir_attr *calls = ir_instr_attr(in, IR_ATTR_CALLS);

	if (!calls)
		return hp_fail(p, "%s: async-start without calls=", in->name);
	if (check_start(p, in, "async-start"))
		return -1;
	if (!xrt_shape_is_tuple(&in->shape.tuple[0]))
		return hp_fail(p, "%s: async-start's operands are not a tuple", in->name);
	callee = (uint32_t)calls->ints[0];
	hp_drop_attr(p->a, in, IR_ATTR_CALLS);
	n = in->shape.tuple_count;
	if (hp_make_room(p, n, &at))
		return -1;
	g = p->cur->num_instrs - 1;
	in = &p->cur->instrs[g];
	t = add_shaped(p, at, XRT_OP_TUPLE, in->name, "operands", 0, &in->shape.tuple[0]);
	if (!t || hp_set_operands(p, t, in->operands, in->num_operands))
		return -1;
	ops[0] = at++;
	c = add_shaped(p, at, XRT_OP_CALL, in->name, "call", 0, &in->shape.tuple[1]);
	if (!c || hp_set_operands(p, c, in->operands, in->num_operands) ||
	    hp_int_attr(p, c, IR_ATTR_TO_APPLY, callee))
		return -1;
	ops[1] = at++;
	if (contexts(p, &at, g, ops))
		return -1;
	return hp_become(p, XRT_OP_TUPLE, ops, n);
}

static int copy_start(struct hp *p)
{
	uint32_t g = p->cur->num_instrs - 1, at, n, ops[10];
	struct ir_instr *in = &p->cur->instrs[g], *c;

	if (in->num_operands != 1)
		return hp_fail(p, "%s: copy-start takes one operand", in->name);
	if (check_start(p, in, "copy-start"))
		return -1;
	n = in->shape.tuple_count;
	if (hp_make_room(p, n - 1, &at))
		return -1;
	g = p->cur->num_instrs - 1;
	in = &p->cur->instrs[g];
	ops[1] = in->operands[0];
	c = add_shaped(p, at, XRT_OP_COPY, in->name, "copy", 0, &in->shape.tuple[0]);
	if (!c || hp_set_operands(p, c, &ops[1], 1))
		return -1;
	ops[0] = at++;
	if (contexts(p, &at, g, ops))
		return -1;
	return hp_become(p, XRT_OP_TUPLE, ops, n);
}

/*
 * The start of an all-gather or collective-permute: the collective takes
 * the start's operands and attributes, the start becomes the tuple.
 */
static int collective_start(struct hp *p, enum xrt_opcode op, const char *what)
{
	uint32_t g = p->cur->num_instrs - 1, at, n, ops[10];
	struct ir_instr *in = &p->cur->instrs[g], *t, *c;

	if (!in->num_operands)
		return hp_fail(p, "%s: %s takes operands", in->name, what);
	if (check_start(p, in, what))
		return -1;
	n = in->shape.tuple_count;
	if (hp_make_room(p, n - 1 + (in->num_operands > 1), &at))
		return -1;
	g = p->cur->num_instrs - 1;
	in = &p->cur->instrs[g];
	ops[0] = in->operands[0];
	if (in->num_operands > 1) {
		t = add_shaped(p, at, XRT_OP_TUPLE, in->name, "operands", 0, &in->shape.tuple[0]);
		if (!t || hp_set_operands(p, t, in->operands, in->num_operands))
			return -1;
		ops[0] = at++;
	}
	c = add_shaped(p, at, op, in->name, "collective", 0, &in->shape.tuple[1]);
	if (!c || hp_set_operands(p, c, in->operands, in->num_operands))
		return -1;
	c->attrs = in->attrs;
	c->num_attrs = in->num_attrs;
	in->attrs = NULL;
	in->num_attrs = 0;
	ops[1] = at++;
	if (contexts(p, &at, g, ops))
		return -1;
	return hp_become(p, XRT_OP_TUPLE, ops, n);
}

int hlo_unasync(struct hp *p, const char *s, size_t n)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	enum form f = form_of(s, n);

	switch (f) {
	case ASYNC_START:
		return async_start(p);
	case COPY_START:
		return copy_start(p);
	case GATHER_START:
		return collective_start(p, XRT_OP_ALL_GATHER, "all-gather-start");
	case PERMUTE_START:
		return collective_start(p, XRT_OP_COLLECTIVE_PERMUTE, "collective-permute-start");
	case ASYNC_UPDATE:
	case ASYNC_DONE:
	case COPY_DONE:
	case REDUCE_DONE:
	case GATHER_DONE:
	case PERMUTE_DONE:
		/* XLA may print the wrapped computation on each of them */
		hp_drop_attr(p->a, in, IR_ATTR_CALLS);
		if (in->num_operands != 1)
			return hp_fail(p, "%s: %.*s takes the start", in->name, (int)n, s);
		if (f == ASYNC_UPDATE || f == REDUCE_DONE)
			return 0;
		return hp_int_attr(p, in, IR_ATTR_INDEX, f != COPY_DONE);
	default:
		return 0;
	}
}
