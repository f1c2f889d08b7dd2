// SPDX-License-Identifier: MIT
/*
 * Results.  Before lowering, each leaf of the root's shape gets a slot:
 * the buffer of a donated parameter leaf of the same shape (type, dims
 * and layout) when one is free, else a RESULT slot of its own.  An entry
 * instruction computing a leaf (through the root tuple) is placed in its
 * RESULT slot when the slot has the dense layout it computes.  After
 * lowering, the leaves not computed in place are copied: first those
 * into RESULT slots (they only read), then those into donated buffers,
 * any source still living in a donated buffer moved to the arena first,
 * so that no copy reads what another wrote.
 */
#include "../core/mem.h"
#include "cc.h"

/* A free leaf of parameter value @v (shape @ps) with shape @want: its slot, or -1. */
static int64_t find_donor(struct cc *cc, uint32_t v, const struct xrt_shape *ps,
			  const struct xrt_shape *want)
{
	const struct cc_val *x = &cc->vals[v];
	uint32_t k;
	int64_t r;

	if (xrt_shape_is_tuple(ps)) {
		for (k = 0; k < x->num_elems; k++) {
			r = find_donor(cc, x->elems[k], &ps->tuple[k], want);
			if (r >= 0)
				return r;
		}
		return -1;
	}
	if (cc->slots[x->buf.slot].result_leaf >= 0 || !xrt_shape_equal(ps, want))
		return -1;
	return x->buf.slot;
}

/* The slot of a donated parameter's leaf that can hold @s, or -1. */
static int64_t donor(struct cc *cc, const struct xrt_shape *s)
{
	const struct ir_comp *c = cc->c;
	uint32_t i;
	int64_t r;

	for (i = 0; cc->o.donated && i < c->num_instrs; i++) {
		const struct ir_instr *in = &c->instrs[i];

		if (in->op != XRT_OP_PARAMETER || in->parameter >= 64 ||
		    !(cc->o.donated >> in->parameter & 1))
			continue;
		r = find_donor(cc, cc_iv(cc, i), &in->shape, s);
		if (r >= 0)
			return r;
	}
	return -1;
}

static void plan(struct cc *cc, int64_t i, const struct xrt_shape *s)
{
	const struct ir_comp *c = cc->c;
	uint32_t k, slot;
	int64_t d;
	struct cc_buf b;

	if (xrt_shape_is_tuple(s)) {
		bool direct = i >= 0 && c->instrs[i].op == XRT_OP_TUPLE;

		for (k = 0; k < s->tuple_count && !cc->err; k++)
			plan(cc, direct ? (int64_t)c->instrs[i].operands[k] : -1, &s->tuple[k]);
		return;
	}
	d = donor(cc, s);
	if (d >= 0) {
		cc->slots[d].result_leaf = cc->num_results;
		cc->b.slots[d].flags |= XRT_CS_SLOT_WRITE;
		cc->result_slots[cc->num_results++] = (uint32_t)d;
		return;
	}
	slot = cc_add_slot(cc, CC_SLOT_RESULT, xrt_shape_byte_size(s),
			   XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	if (cc->err)
		return;
	cc->slots[slot].leaf = cc->num_results;
	cc->result_slots[cc->num_results++] = slot;
	b = cc_layout(slot, s);
	if (i >= 0 && !cc->placed[i] && c->instrs[i].op != XRT_OP_PARAMETER && cc_is_dense(&b))
		cc->placed[i] = slot + 1;
}

void cc_plan_results(struct cc *cc)
{
	const struct ir_comp *c = cc->c;

	cc->placed = xrt_mem_calloc(cc->a, c->num_instrs + 1, sizeof(*cc->placed));
	cc->result_slots = xrt_mem_calloc(cc->a, xrt_shape_leaf_count(&c->instrs[c->root].shape) + 1,
					  sizeof(*cc->result_slots));
	if (!cc->placed || !cc->result_slots) {
		cc_oom(cc);
		return;
	}
	plan(cc, c->root, &c->instrs[c->root].shape);
}

bool cc_same_buf(const struct cc_buf *a, const struct cc_buf *b)
{
	uint32_t d;

	if (a->slot != b->slot || a->offset != b->offset || a->dtype != b->dtype ||
	    a->rank != b->rank)
		return false;
	for (d = 0; d < a->rank; d++) {
		if (a->dims[d] != b->dims[d] || (a->dims[d] > 1 && a->strides[d] != b->strides[d]))
			return false;
	}
	return true;
}

/* The value of each result leaf under @v (shape @s), in order. */
static void leaves(const struct cc *cc, uint32_t v, const struct xrt_shape *s, uint32_t *out,
		   const struct xrt_shape **shapes, uint32_t *n)
{
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		for (i = 0; i < s->tuple_count; i++)
			leaves(cc, cc->vals[v].elems[i], &s->tuple[i], out, shapes, n);
		return;
	}
	shapes[*n] = s;
	out[(*n)++] = v;
}

static bool donated_slot(const struct cc *cc, uint32_t slot)
{
	return cc->slots[slot].kind == CC_SLOT_PARAM && cc->slots[slot].result_leaf >= 0;
}

void cc_bind_results(struct cc *cc)
{
	const struct ir_comp *c = cc->c;
	uint32_t n = 0, k, pass, *v, *tmp;
	const struct xrt_shape **shapes;

	if (cc->err)
		return;
	v = xrt_mem_calloc(cc->a, 2 * (size_t)cc->num_results + 1, sizeof(*v));
	shapes = xrt_mem_calloc(cc->a, cc->num_results + 1, sizeof(*shapes));
	if (!v || !shapes) {
		cc_oom(cc);
		goto out;
	}
	tmp = v + cc->num_results;
	leaves(cc, cc_iv(cc, c->root), &c->instrs[c->root].shape, v, shapes, &n);
	for (pass = 0; pass < 3 && !cc->err; pass++) {
		for (k = 0; k < n && !cc->err; k++) {
			struct cc_buf dst = cc_layout(cc->result_slots[k], shapes[k]);
			struct cc_buf src = cc->vals[v[k]].buf;

			if (cc_same_buf(&dst, &src) || donated_slot(cc, dst.slot) != (pass > 0))
				continue;
			if (pass == 1 && donated_slot(cc, src.slot)) {
				/* pass 1: sources in donated buffers out of the way */
				tmp[k] = cc_new_val(cc);
				if (!cc_alloc(cc, tmp[k], src.dtype, src.rank, src.dims))
					cc_copy(cc, &cc->vals[tmp[k]].buf, &src);
				continue;
			}
			if (pass == 1)
				continue;
			if (tmp[k])
				src = cc->vals[tmp[k]].buf;
			cc_copy(cc, &dst, &src);
		}
	}
out:
	xrt_mem_free(cc->a, v);
	xrt_mem_free(cc->a, shapes);
}
