// SPDX-License-Identifier: MIT
/*
 * Collectives by their definitions in XLA's operation semantics.  A
 * device meets its group (eval_world.c), then makes its own result
 * from the operands of every member, in the group's order: all-reduce
 * folds them left to right with to_apply, element by element, so every
 * member computes the same bits.
 */
#include <string.h>

#include "core/mem.h"
#include "eval/eval.h"
#include "ir/opcode.h"

/* One device at one collective: its group, and the operands met there. */
struct meet {
	struct ev_meeting *mt;
	int64_t *devices, size, me;
};

/* The result's array @k: the result itself unless it is a tuple. */
static struct ev_val *part(struct ev_val *r, uint32_t k)
{
	return xrt_shape_is_tuple(&r->shape) ? r->elems[k] : r;
}

/* Operand @k of the member at @place. */
static const struct ev_val *opnd(const struct meet *g, int64_t place, uint32_t k)
{
	return ev_meeting_ops(g->mt, place)[k];
}

/* Element @pos of operand @k folded over the group with to_apply, first member first. */
static bool fold(struct ev *ev, const struct meet *g, uint32_t k, int64_t pos,
		 struct ev_scalar *out)
{
	const struct ir_comp *f = ev_comp(ev, IR_ATTR_TO_APPLY, 0);
	enum xrt_dtype t[2];
	struct ev_scalar x[2];
	int64_t j;

	t[0] = t[1] = opnd(g, 0, k)->shape.dtype;
	*out = opnd(g, 0, k)->e[pos];
	for (j = 1; j < g->size; j++) {
		x[0] = *out;
		x[1] = opnd(g, j, k)->e[pos];
		if (!ev_call_scalars(ev, f, t, x, 2, out, 1))
			return false;
	}
	return true;
}

/*
 * all-reduce and reduce-scatter: element idx of the result folds element
 * idx of the operands, shifted along the scattered dimension to this
 * member's block (all-reduce: no dimension, no shift).
 */
static void reduce(struct ev *ev, const struct meet *g, struct ev_val *r, int64_t d)
{
	uint32_t k;

	for (k = 0; k < ev->in->num_operands && !ev->err; k++) {
		struct ev_val *dst = part(r, k);
		const struct xrt_shape *s = &opnd(g, 0, k)->shape;
		int64_t idx[XRT_MAX_RANK] = { 0 }, src[XRT_MAX_RANK], pos = 0;

		if (!dst->n)
			continue;
		do {
			memcpy(src, idx, sizeof(src));
			if (d >= 0)
				src[d] += g->me * dst->shape.dims[d];
			if (!fold(ev, g, k, ev_offset(s->rank, s->dims, src), &dst->e[pos++]))
				return;
		} while (ev_next(dst->shape.rank, dst->shape.dims, idx));
	}
}

/*
 * all-gather and the array all-to-all: block j of dimension @d of the
 * result comes from member j; all-to-all takes the member's block
 * @take, all-gather its whole operand.
 */
static void join(struct ev *ev, const struct meet *g, struct ev_val *r, int64_t d, int64_t take)
{
	uint32_t k;

	for (k = 0; k < ev->in->num_operands; k++) {
		struct ev_val *dst = part(r, k);
		const struct xrt_shape *s = &opnd(g, 0, k)->shape;
		int64_t blk = dst->shape.dims[d] / g->size;
		int64_t idx[XRT_MAX_RANK] = { 0 }, src[XRT_MAX_RANK], pos = 0;

		if (!dst->n)
			continue;
		do {
			memcpy(src, idx, sizeof(src));
			src[d] = take * blk + idx[d] % blk;
			dst->e[pos++] = opnd(g, idx[d] / blk, k)->e[ev_offset(s->rank, s->dims, src)];
		} while (ev_next(dst->shape.rank, dst->shape.dims, idx));
	}
}

/* Copies @src's elements into @dst (the same shape). */
static void fill(struct ev_val *dst, const struct ev_val *src)
{
	memcpy(dst->e, src->e, (size_t)dst->n * sizeof(*dst->e));
}

/* The place of @device in the group; -1 when it is not there. */
static int64_t place_of(const struct meet *g, int64_t device)
{
	int64_t k;

	for (k = 0; k < g->size; k++)
		if (g->devices[k] == device)
			return k;
	return -1;
}

static void exchange(struct ev *ev, const struct meet *g, struct ev_val *r)
{
	const int64_t *dims;
	int64_t src, j;
	uint32_t n, k;

	switch (ev->in->op) {
	case XRT_OP_ALL_REDUCE:
		reduce(ev, g, r, -1);
		return;
	case XRT_OP_REDUCE_SCATTER:
		reduce(ev, g, r, ev_ints(ev, IR_ATTR_DIMENSIONS, &n)[0]);
		return;
	case XRT_OP_ALL_GATHER:
		join(ev, g, r, ev_ints(ev, IR_ATTR_DIMENSIONS, &n)[0], 0);
		return;
	case XRT_OP_ALL_TO_ALL:
		dims = ev_ints(ev, IR_ATTR_DIMENSIONS, &n);
		if (dims)
			join(ev, g, r, dims[0], g->me);
		for (j = 0; !dims && j < g->size; j++)	/* operand me of member j */
			fill(r->elems[j], opnd(g, j, (uint32_t)g->me));
		return;
	case XRT_OP_COLLECTIVE_PERMUTE:
		src = ir_permute_source(ev->m, ev->in, ev->replica, ev->partition);
		if (src >= 0)	/* else no one sends here: zeros */
			fill(r, opnd(g, place_of(g, src), 0));
		return;
	default:	/* collective-broadcast: the group's first member's */
		for (k = 0; k < ev->in->num_operands; k++)
			fill(part(r, k), opnd(g, 0, k));
	}
}

static struct ev_val *id_of(struct ev *ev, int64_t id)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);

	if (r)
		r->e[0].u = (uint64_t)id;
	return r;
}

struct ev_val *ev_collective(struct ev *ev, struct ev_val *const *ops)
{
	struct meet g = { NULL };
	struct ev_val *r = NULL;

	if (ev->in->op == XRT_OP_REPLICA_ID)
		return id_of(ev, ev->replica);
	if (ev->in->op == XRT_OP_PARTITION_ID)
		return id_of(ev, ev->partition);
	g.devices = xrt_mem_calloc(ev->a, (size_t)ev_world_size(ev->world), sizeof(*g.devices));
	if (!g.devices) {
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		return NULL;
	}
	g.size = ir_collective_group(ev->m, ev->in, ev->replica, ev->partition, g.devices, &g.me);
	if (!g.size)
		ev_fail(ev, XRT_INTERNAL, "device %lld is in no group", (long long)ev->device);
	else
		g.mt = ev_meet(ev, ops, g.devices, g.size, g.me);
	if (g.mt) {
		r = ev_new(ev, &ev->in->shape);
		if (r)
			exchange(ev, &g, r);
		ev_leave(ev, g.mt);
	}
	xrt_mem_free(ev->a, g.devices);
	if (ev->err) {
		ev_free(ev, r);
		return NULL;
	}
	return r;
}
