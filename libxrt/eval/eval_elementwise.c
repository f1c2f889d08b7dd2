// SPDX-License-Identifier: MIT
/*
 * Elementwise opcodes: the result element at each position from the
 * operand elements at the same position (scalars stand for any
 * position where the opcode allows them).
 */
#include <string.h>

#include "core/mem.h"
#include "eval/eval.h"

static const struct xrt_shape *result_shape(const struct ev *ev)
{
	return &ev->in->shape;
}

static struct ev_val *result(struct ev *ev)
{
	return ev_new(ev, result_shape(ev));
}

/* Element @k of @v, or its only element when it is a scalar. */
static struct ev_scalar at(const struct ev_val *v, int64_t k)
{
	return v->n == 1 && !v->shape.rank ? v->e[0] : v->e[k];
}

static struct ev_val *select_op(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *r;
	int64_t k;

	/* A scalar predicate picks a whole operand (tuples too). */
	if (!ops[0]->shape.rank)
		return ev_copy(ev, ops[0]->e[0].u ? ops[1] : ops[2]);
	r = result(ev);
	for (k = 0; r && k < r->n; k++)
		r->e[k] = ops[0]->e[k].u ? ops[1]->e[k] : ops[2]->e[k];
	return r;
}

static struct ev_val *clamp_op(struct ev *ev, struct ev_val *const *ops)
{
	enum xrt_dtype t = ops[1]->shape.dtype;
	struct ev_val *r = result(ev);
	int64_t k;

	/* clamp(lo, x, hi) = min(max(x, lo), hi), NaN propagating as in max and min. */
	for (k = 0; r && k < r->n; k++) {
		struct ev_scalar v = ev_binary(XRT_OP_MAXIMUM, t, at(ops[0], k), ops[1]->e[k]);

		r->e[k] = ev_binary(XRT_OP_MINIMUM, t, at(ops[2], k), v);
	}
	return r;
}

/* Bytes of each operand element, regrouped into result elements. */
static struct ev_val *bitcast_convert(struct ev *ev, struct ev_val *const *ops)
{
	enum xrt_dtype from = ops[0]->shape.dtype, to = result_shape(ev)->dtype;
	size_t fs = xrt_dtype_size(from), ts = xrt_dtype_size(to), bytes;
	struct ev_val *r = result(ev);
	unsigned char *buf;
	int64_t k;

	if (!r)
		return NULL;
	bytes = (size_t)ops[0]->n * fs;
	buf = xrt_mem_calloc(ev->a, bytes ? bytes : 1, 1);
	if (!buf) {
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		ev_free(ev, r);
		return NULL;
	}
	for (k = 0; k < ops[0]->n; k++)
		ev_store_bytes(from, ops[0]->e[k], buf + k * fs);
	for (k = 0; k < r->n; k++)
		r->e[k] = ev_load_bytes(to, buf + k * ts);
	xrt_mem_free(ev->a, buf);
	return r;
}

static struct ev_val *map_op(struct ev *ev, struct ev_val *const *ops)
{
	const struct ir_comp *f = ev_comp(ev, IR_ATTR_TO_APPLY, 0);
	uint32_t n = ev->in->num_operands, i;
	enum xrt_dtype types[2 * XRT_MAX_RANK];
	struct ev_scalar args[2 * XRT_MAX_RANK];
	struct ev_val *r = result(ev);
	int64_t k;

	for (i = 0; i < n && i < 2 * XRT_MAX_RANK; i++)
		types[i] = ops[i]->shape.dtype;
	if (n > 2 * XRT_MAX_RANK) {
		ev_fail(ev, XRT_UNIMPLEMENTED, "map of more than %d operands", 2 * XRT_MAX_RANK);
		ev_free(ev, r);
		return NULL;
	}
	for (k = 0; r && k < r->n; k++) {
		for (i = 0; i < n; i++)
			args[i] = ops[i]->e[k];
		if (!ev_call_scalars(ev, f, types, args, n, &r->e[k], 1)) {
			ev_free(ev, r);
			return NULL;
		}
	}
	return r;
}

struct ev_val *ev_elementwise(struct ev *ev, struct ev_val *const *ops)
{
	enum xrt_opcode op = ev->in->op;
	enum xrt_dtype t = ops[0]->shape.dtype, rt = result_shape(ev)->dtype;
	struct ev_val *r;
	int64_t k;

	switch (op) {
	case XRT_OP_SELECT:
		return select_op(ev, ops);
	case XRT_OP_CLAMP:
		return clamp_op(ev, ops);
	case XRT_OP_BITCAST_CONVERT:
		return bitcast_convert(ev, ops);
	case XRT_OP_MAP:
		return map_op(ev, ops);
	default:
		break;
	}
	r = result(ev);
	for (k = 0; r && k < r->n; k++) {
		struct ev_scalar x = ops[0]->e[k];

		if (op == XRT_OP_CONVERT)
			r->e[k] = ev_convert(t, rt, x);
		else if (op == XRT_OP_REDUCE_PRECISION)
			r->e[k] = ev_reduce_precision(t, x, ev_int(ev, IR_ATTR_EXPONENT_BITS, 0),
						      ev_int(ev, IR_ATTR_MANTISSA_BITS, 0));
		else if (op == XRT_OP_COMPARE)
			r->e[k].u = ev_compare(ev_word(ev, IR_ATTR_DIRECTION),
					       ev_word(ev, IR_ATTR_TYPE), t, x, ops[1]->e[k]);
		else if (xrt_opcode_is_binary(op))
			r->e[k] = ev_binary(op, t, x, ops[1]->e[k]);
		else
			r->e[k] = ev_unary(op, t, x);
	}
	return r;
}
