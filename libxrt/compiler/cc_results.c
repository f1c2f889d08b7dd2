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
#include <stdlib.h>

#include "core/mem.h"
#include "cc.h"

/*
 * The leaves of the donated parameters, each a buffer a result leaf of
 * its exact shape may take: sorted by a hash of the shape, then by their
 * order (parameters as the entry lists them, leaves in tuple order), so
 * that a result leaf takes the first free one of its shape in O(log n)
 * plus the equal hashes; taken ones are skipped through @next, which
 * points past runs of them (shortened as they are walked).
 */
struct donor {
	uint64_t key;
	uint32_t order, slot, next;
	bool taken;
	const struct xrt_shape *shape;
};

struct donors {
	struct donor *d;
	uint32_t n;
};

static uint64_t shape_key(const struct xrt_shape *s)
{
	uint64_t h = 1469598103934665603ull ^ ((uint64_t)s->dtype << 8 | s->rank);
	uint32_t i;

	for (i = 0; i < s->rank; i++)
		h = (h ^ (uint64_t)s->dims[i]) * 1099511628211ull ^ s->minor_to_major[i];
	return h * 1099511628211ull;
}

static void collect(struct cc *cc, uint32_t v, const struct xrt_shape *ps, struct donors *ds)
{
	const struct cc_val *x = &cc->vals[v];
	uint32_t k;

	if (xrt_shape_is_tuple(ps)) {
		for (k = 0; k < x->num_elems; k++)
			collect(cc, x->elems[k], &ps->tuple[k], ds);
		return;
	}
	ds->d[ds->n] = (struct donor){ shape_key(ps), ds->n, x->buf.slot, 0, false, ps };
	ds->n++;
}

static int by_key(const void *a, const void *b)
{
	const struct donor *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool is_donated(const struct cc *cc, const struct ir_instr *in)
{
	return in->op == XRT_OP_PARAMETER && in->parameter < 64 &&
	       (cc->o.donated >> in->parameter & 1);
}

static int make_donors(struct cc *cc, struct donors *ds)
{
	const struct ir_comp *c = cc->c;
	uint64_t total = 0;
	uint32_t i;

	ds->d = NULL;
	ds->n = 0;
	for (i = 0; cc->o.donated && i < c->num_instrs; i++) {
		if (is_donated(cc, &c->instrs[i]))
			total += xrt_shape_leaf_count(&c->instrs[i].shape);
	}
	if (!total)
		return 0;
	ds->d = xrt_mem_calloc(cc->a, total, sizeof(*ds->d));
	if (!ds->d)
		return -1;
	for (i = 0; i < c->num_instrs; i++) {
		if (is_donated(cc, &c->instrs[i]))
			collect(cc, cc_iv(cc, i), &c->instrs[i].shape, ds);
	}
	qsort(ds->d, ds->n, sizeof(*ds->d), by_key);
	for (i = 0; i < ds->n; i++)
		ds->d[i].next = i + 1;
	return 0;
}

/* The first donor at or after @j not taken, shortening the walk there. */
static uint32_t first_free(struct donors *ds, uint32_t j)
{
	uint32_t end = j, t;

	while (end < ds->n && ds->d[end].taken)
		end = ds->d[end].next;
	while (j < ds->n && ds->d[j].taken && ds->d[j].next != end) {
		t = ds->d[j].next;
		ds->d[j].next = end;
		j = t;
	}
	return end;
}

/* The slot of a donated parameter's leaf that can hold @s, or -1. */
static int64_t donor(struct donors *ds, const struct xrt_shape *s)
{
	uint64_t key = shape_key(s);
	uint32_t lo = 0, hi = ds->n, j;

	while (lo < hi) {	/* the first entry of @key */
		uint32_t mid = lo + (hi - lo) / 2;

		if (ds->d[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (j = first_free(ds, lo); j < ds->n && ds->d[j].key == key;
	     j = first_free(ds, j + 1)) {
		if (xrt_shape_equal(ds->d[j].shape, s)) {
			ds->d[j].taken = true;
			return ds->d[j].slot;
		}
	}
	return -1;
}

static void plan(struct cc *cc, struct donors *ds, int64_t i, const struct xrt_shape *s)
{
	const struct ir_comp *c = cc->c;
	uint32_t k, slot;
	int64_t d;
	struct cc_buf b;

	if (xrt_shape_is_tuple(s)) {
		bool direct = i >= 0 && c->instrs[i].op == XRT_OP_TUPLE;

		for (k = 0; k < s->tuple_count && !cc->err; k++)
			plan(cc, ds, direct ? (int64_t)c->instrs[i].operands[k] : -1, &s->tuple[k]);
		return;
	}
	d = donor(ds, s);
	if (d >= 0) {
		cc->slots[d].result_leaf = cc->num_results;
		cc->b.slots[d].flags |= XRT_CS_SLOT_WRITE;
		cc->result_slots[cc->num_results++] = (uint32_t)d;
		return;
	}
	slot = cc_add_slot(cc, XEXE_SLOT_RESULT, xrt_shape_byte_size(s),
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
	struct donors ds;

	cc->placed = xrt_mem_calloc(cc->a, c->num_instrs + 1, sizeof(*cc->placed));
	cc->result_slots = xrt_mem_calloc(cc->a, xrt_shape_leaf_count(&c->instrs[c->root].shape) + 1,
					  sizeof(*cc->result_slots));
	if (!cc->placed || !cc->result_slots || make_donors(cc, &ds)) {
		cc_oom(cc);
		return;
	}
	plan(cc, &ds, c->root, &c->instrs[c->root].shape);
	xrt_mem_free(cc->a, ds.d);
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
	return cc->slots[slot].kind == XEXE_SLOT_PARAM && cc->slots[slot].result_leaf >= 0;
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
