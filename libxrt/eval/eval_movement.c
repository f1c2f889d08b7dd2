// SPDX-License-Identifier: MIT
/*
 * Opcodes that move elements without computing: each result element is
 * found from its index (result index -> operand index), the simplest
 * statement of each opcode.
 */
#include <string.h>

#include "eval/eval.h"

/* Walks every index of result @r; @body uses idx and k. */
#define FOR_EACH_INDEX(r, idx, k)                                             \
	for (memset(idx, 0, sizeof(idx)), k = 0; k < (r)->n;                  \
	     k++, ev_next((r)->shape.rank, (r)->shape.dims, idx))

static struct ev_val *iota(struct ev *ev)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	int64_t d = ev_int(ev, IR_ATTR_IOTA_DIMENSION, 0), idx[XRT_MAX_RANK], k;
	struct ev_scalar x = { { 0 }, 0 };

	if (!r)
		return NULL;
	FOR_EACH_INDEX(r, idx, k) {
		x.s = idx[d];
		r->e[k] = ev_convert(XRT_S64, r->shape.dtype, x);
	}
	return r;
}

struct ev_val *ev_tuple(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	uint32_t i;

	for (i = 0; r && i < r->num_elems; i++) {
		ev_free(ev, r->elems[i]);
		r->elems[i] = ev_copy(ev, ops[i]);
		if (!r->elems[i]) {
			ev_free(ev, r);
			return NULL;
		}
	}
	return r;
}

/* bitcast reinterprets the bytes of one layout as another shape's. */
static struct ev_val *bitcast(struct ev *ev, struct ev_val *const *ops)
{
	const struct xrt_shape *from = &ev->c->instrs[ev->in->operands[0]].shape;
	xrt_literal *a = ev_to_literal(ev, ops[0], from), *b = NULL;
	struct ev_val *r = NULL;
	xrt_status *st;

	if (!a)
		return NULL;
	st = xrt_literal_create_from(ev->a, &ev->in->shape, xrt_literal_data(a),
				     xrt_literal_size(a), &b);
	if (st) {
		ev_fail(ev, xrt_status_code(st), "%s", xrt_status_message(st));
		xrt_status_free(st);
	} else {
		r = ev_from_literal(ev, b);
	}
	xrt_literal_destroy(a);
	xrt_literal_destroy(b);
	return r;
}

static struct ev_val *reshape(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);

	if (r)	/* row-major order is what reshape keeps */
		memcpy(r->e, ops[0]->e, (size_t)r->n * sizeof(*r->e));
	return r;
}

/* Each result element read from the operand index its opcode maps it to. */
static struct ev_val *gathered(struct ev *ev, const struct ev_val *a, int op)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	int64_t idx[XRT_MAX_RANK], src[XRT_MAX_RANK] = { 0 }, k;
	const int64_t *p;
	uint32_t n, i;

	p = ev_ints(ev, op == XRT_OP_SLICE ? IR_ATTR_SLICE : IR_ATTR_DIMENSIONS, &n);
	if (!r)
		return NULL;
	FOR_EACH_INDEX(r, idx, k) {
		switch (op) {
		case XRT_OP_BROADCAST:
			for (i = 0; i < n; i++)
				src[i] = idx[p[i]];
			break;
		case XRT_OP_TRANSPOSE:
			for (i = 0; i < n; i++)
				src[p[i]] = idx[i];
			break;
		case XRT_OP_SLICE:
			for (i = 0; i < n; i++)
				src[i] = p[3 * i] + idx[i] * p[3 * i + 2];
			break;
		default:	/* reverse */
			memcpy(src, idx, sizeof(src));
			for (i = 0; i < n; i++)
				src[p[i]] = a->shape.dims[p[i]] - 1 - idx[p[i]];
		}
		r->e[k] = a->e[ev_offset(a->shape.rank, a->shape.dims, src)];
	}
	return r;
}

static struct ev_val *concatenate(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	int64_t d = ev_int(ev, IR_ATTR_DIMENSIONS, 0), base = 0, idx[XRT_MAX_RANK], k;
	uint32_t i;

	for (i = 0; r && i < ev->in->num_operands; i++) {
		const struct ev_val *a = ops[i];

		FOR_EACH_INDEX(a, idx, k) {
			int64_t dst[XRT_MAX_RANK];

			memcpy(dst, idx, sizeof(dst));
			dst[d] += base;
			r->e[ev_offset(r->shape.rank, r->shape.dims, dst)] = a->e[k];
		}
		base += a->shape.dims[d];
	}
	return r;
}

/* Operand element idx lands at low + idx * (interior + 1), if inside. */
static struct ev_val *pad(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	const struct ev_val *a = ops[0];
	int64_t idx[XRT_MAX_RANK], k;
	uint32_t n, d;
	const int64_t *p = ev_ints(ev, IR_ATTR_PADDING, &n);

	if (!r)
		return NULL;
	for (k = 0; k < r->n; k++)
		r->e[k] = ops[1]->e[0];
	FOR_EACH_INDEX(a, idx, k) {
		int64_t dst[XRT_MAX_RANK];
		bool inside = true;

		for (d = 0; d < a->shape.rank; d++) {
			dst[d] = p[3 * d] + idx[d] * (p[3 * d + 2] + 1);
			inside = inside && dst[d] >= 0 && dst[d] < r->shape.dims[d];
		}
		if (inside)
			r->e[ev_offset(r->shape.rank, r->shape.dims, dst)] = a->e[k];
	}
	return r;
}

struct ev_val *ev_movement(struct ev *ev, struct ev_val *const *ops)
{
	switch (ev->in->op) {
	case XRT_OP_IOTA:
		return iota(ev);
	case XRT_OP_TUPLE:
		return ev_tuple(ev, ops);
	case XRT_OP_GET_TUPLE_ELEMENT:
		return ev_copy(ev, ops[0]->elems[ev_int(ev, IR_ATTR_INDEX, 0)]);
	case XRT_OP_COPY:
		return ev_copy(ev, ops[0]);
	case XRT_OP_BITCAST:
		return bitcast(ev, ops);
	case XRT_OP_RESHAPE:
		return reshape(ev, ops);
	case XRT_OP_CONCATENATE:
		return concatenate(ev, ops);
	case XRT_OP_PAD:
		return pad(ev, ops);
	case XRT_OP_BROADCAST:
	case XRT_OP_TRANSPOSE:
	case XRT_OP_SLICE:
	case XRT_OP_REVERSE:
		return gathered(ev, ops[0], ev->in->op);
	default:
		ev_fail(ev, XRT_UNIMPLEMENTED, "no evaluator for this opcode");
		return NULL;
	}
}
