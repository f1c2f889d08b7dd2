// SPDX-License-Identifier: MIT
/*
 * while loops over bounded dynamic values: a computation whose tuple
 * parameter has "<=N" elements (a while's body or condition) gets the
 * sizes of those dimensions as s32[] elements after its own; the
 * while's operand tuple gets its elements' sizes (a static element's
 * bound), the body's root tuple passes them on, and get-tuple-element
 * of the loop's tuple reads them back.
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "hlo_dynamic.h"

const struct hp_loop *hd_loop_of(struct hp *p, uint32_t comp)
{
	return p->loops && comp < p->loops_cap && p->loops[comp].elems ? &p->loops[comp] : NULL;
}

/* Where the size of element @i's dimension @d lies in a loop's tuple. */
static uint32_t hidden_at(const struct hp_loop *l, uint32_t i, uint32_t d)
{
	uint32_t at = l->elems, j;

	for (j = 0; j < i; j++)
		at += (uint32_t)__builtin_popcount(l->mask[j]);
	return at + (uint32_t)__builtin_popcount(l->mask[i] & ((1u << d) - 1));
}

/* @s with @l->hidden s32[] elements after its own. */
static int extended(struct hp *p, const struct xrt_shape *s, const struct hp_loop *l,
		    struct xrt_shape *out)
{
	struct xrt_shape *el = xrt_mem_calloc(p->a, s->tuple_count + l->hidden, sizeof(*el));
	xrt_status *st;
	uint32_t i;

	if (!el)
		return hp_oom(p);
	memcpy(el, s->tuple, s->tuple_count * sizeof(*el));	/* copied below */
	for (i = 0; i < l->hidden; i++)
		el[s->tuple_count + i] = (struct xrt_shape){ .dtype = XRT_S32 };
	st = xrt_shape_init_tuple(out, p->a, el, s->tuple_count + l->hidden);
	xrt_mem_free(p->a, el);
	if (st) {
		xrt_status_free(st);
		return hp_oom(p);
	}
	return 0;
}

/* The instruction just read gets shape @s extended by @l. */
static int extend_shape(struct hp *p, const struct hp_loop *l)
{
	struct ir_instr *in = hd_last(p);
	struct xrt_shape ext;

	if (extended(p, &in->shape, l, &ext))
		return -1;
	xrt_shape_deinit(&in->shape);
	in->shape = ext;
	return 0;
}

/*
 * A tuple parameter with "<=" dimensions outside the entry makes its
 * computation a loop's: the sizes come as elements after its own.
 */
int hd_loop_param(struct hp *p, struct ir_instr *in)
{
	const struct xrt_shape *s = &in->shape;
	uint32_t c = (uint32_t)(p->cur - p->m->comps), i;
	struct hp_loop l = { 0 };

	if (!xrt_shape_is_tuple(s) || in->parameter || s->tuple_count > XSHAPE_DYN_LEAVES ||
	    p->decl.leaves != s->tuple_count) {
		if (p->dyn_param_comp == UINT32_MAX)
			p->dyn_param_comp = c;
		return 0;
	}
	for (i = 0; i < s->tuple_count; i++)
		if (xrt_shape_is_tuple(&s->tuple[i]))
			return hp_fail(p, "%s: a tuple within a loop's tuple of dynamic values is "
				       "not supported", in->name);
	l.elems = s->tuple_count;
	memcpy(l.mask, p->decl.mask, sizeof(l.mask));
	for (i = 0; i < l.elems; i++)
		l.hidden += (uint32_t)__builtin_popcount(l.mask[i]);
	if (hp_grow(p, (void **)&p->loops, &p->loops_cap, c + 1, sizeof(*p->loops)))
		return -1;
	p->loops[c] = l;
	p->dyn_next.loop = c + 1;
	return extend_shape(p, &p->loops[c]);
}

struct elem_ctx {
	uint32_t t, i, d[XRT_MAX_RANK], at[XRT_MAX_RANK], n, out[XRT_MAX_RANK];
};

static uint32_t expand_sizes(struct hp_emit *e, void *ctx)
{
	struct elem_ctx *x = ctx;
	uint32_t k;

	for (k = 0; k < x->n; k++) {
		x->out[k] = hp_emit(e, XRT_OP_GET_TUPLE_ELEMENT, XRT_S32, 0, NULL, &x->t, 1);
		hp_emit_ints(e, x->out[k], IR_ATTR_INDEX, (int64_t[]){ x->at[k] }, 1);
	}
	return 0;
}

/* get-tuple-element @i of a loop's tuple: its sizes, read from their elements. */
int hd_loop_element(struct hp *p, uint32_t t, const struct hp_loop *l, int64_t i)
{
	struct elem_ctx x = { .t = t, .i = (uint32_t)i };
	struct plan pl;
	uint32_t d, ignored;

	if (i < 0 || i >= (int64_t)l->elems || !l->mask[i])
		return 0;
	for (d = 0; d < XRT_MAX_RANK; d++) {
		if (l->mask[i] & (1u << d)) {
			x.d[x.n] = d;
			x.at[x.n++] = hidden_at(l, x.i, d);
		}
	}
	hd_plan_init(p, &pl, hd_last(p));
	if (hp_emit_twice(&pl.e, expand_sizes, &x, &ignored))
		return -1;
	p->dyn_next.mask = l->mask[i];
	for (d = 0; d < x.n; d++)
		p->dyn_next.size[x.d[d]] = x.out[d];
	return 0;
}

struct tuple_ctx {
	const struct hp_loop *l;
	const struct xrt_shape *shape;	/* the extended tuple's */
	uint32_t n, ops[];		/* the elements, then the sizes */
};

/* The elements' sizes by the loop's mask (bounds where static), and their tuple. */
static uint32_t expand_tuple(struct hp_emit *e, void *ctx)
{
	struct tuple_ctx *x = ctx;
	struct plan *pl = (struct plan *)e;
	uint32_t i, d, k = x->l->elems;

	for (i = 0; i < x->l->elems; i++) {
		const struct hp_dyn *en = hd_dyn_of(e->p, x->ops[i]);
		const struct xrt_shape *s = &e->p->cur->instrs[x->ops[i]].shape;

		for (d = 0; d < XRT_MAX_RANK; d++) {
			if (!(x->l->mask[i] & (1u << d)))
				continue;
			x->ops[k++] = en && (en->mask & (1u << d)) ? en->size[d] :
				      hd_s32_const(pl, d < s->rank ? s->dims[d] : 0);
		}
	}
	return hp_emit_tuple(e, x->shape, x->ops, k);
}

/* Whether @in's elements carry no dynamic dimension the loop does not. */
static int check_elements(struct hp *p, const struct ir_instr *t, const struct hp_loop *l,
			  const char *who)
{
	uint32_t i;

	for (i = 0; i < l->elems; i++) {
		const struct hp_dyn *en = hd_dyn_of(p, t->operands[i]);

		if ((en && (en->mask & ~l->mask[i])) ||
		    xrt_shape_is_tuple(&p->cur->instrs[t->operands[i]].shape))
			return hp_fail(p, "%s: element %u has dynamic dimensions the loop's "
				       "parameter does not", who, i);
	}
	return 0;
}

/*
 * A tuple of @t's elements and their sizes, @t's shape extended by @l;
 * its index in *@out.  Before the instruction just read, or after the
 * computation's last one.  @who names @t's user in messages.
 */
static int loop_tuple(struct hp *p, const struct ir_instr *t, const struct hp_loop *l,
		      const char *who, bool after, uint32_t *out)
{
	struct tuple_ctx *x;
	struct xrt_shape shape;
	struct plan pl;
	int rc;

	if (check_elements(p, t, l, who) || extended(p, &t->shape, l, &shape))
		return -1;
	x = xrt_mem_calloc(p->a, 1, sizeof(*x) + (l->elems + l->hidden) * sizeof(x->ops[0]));
	if (!x) {
		xrt_shape_deinit(&shape);
		return hp_oom(p);
	}
	x->l = l;
	x->shape = &shape;
	memcpy(x->ops, t->operands, l->elems * sizeof(x->ops[0]));
	hd_plan_init(p, &pl, t);
	rc = after ? hp_emit_after(&pl.e, expand_tuple, x, out) :
		     hp_emit_twice(&pl.e, expand_tuple, x, out);
	xrt_mem_free(p->a, x);
	xrt_shape_deinit(&shape);
	return rc;
}

static bool same_desc(const struct hp_loop *a, const struct hp_loop *b)
{
	return a->elems == b->elems && !memcmp(a->mask, b->mask, sizeof(a->mask));
}

/* A while whose body and condition take dynamic values: its tuple gets their sizes. */
int hd_loop_while(struct hp *p, struct ir_instr *in, bool *done)
{
	const struct ir_attr *b = ir_instr_attr(in, IR_ATTR_BODY);
	const struct ir_attr *c = ir_instr_attr(in, IR_ATTR_CONDITION);
	const struct hp_loop *lb, *lc;
	const struct ir_instr *t;
	uint32_t v;

	*done = false;
	if (!b || !c || b->n != 1 || c->n != 1 || in->num_operands != 1)
		return 0;
	lb = hd_loop_of(p, (uint32_t)b->ints[0]);
	lc = hd_loop_of(p, (uint32_t)c->ints[0]);
	if (!lb && !lc)
		return 0;
	*done = true;
	if (!lb || !lc || lb->elems != lc->elems || memcmp(lb->mask, lc->mask, sizeof(lb->mask)))
		return hp_fail(p, "%s: while's body and condition differ in their parameter's "
			       "dynamic dimensions", in->name);
	if ((uint32_t)b->ints[0] < p->outs_cap && p->outs[b->ints[0]].elems &&
	    !same_desc(&p->outs[b->ints[0]], lb))
		return hp_fail(p, "%s: while's body returns other dynamic dimensions than its "
			       "parameter has", in->name);
	t = &p->cur->instrs[in->operands[0]];
	if (t->op != XRT_OP_TUPLE || t->num_operands != lb->elems)
		return hp_fail(p, "%s: a while over dynamic values takes a tuple instruction of "
			       "%u elements", in->name, lb->elems);
	if (loop_tuple(p, t, lb, in->name, false, &v))
		return -1;
	in = hd_last(p);
	in->operands[0] = v;
	p->dyn_next.loop = (uint32_t)b->ints[0] + 1;
	return extend_shape(p, lb);
}

/*
 * What root tuple @r of a computation whose parameter is @l carries: @l's
 * dimensions where it has as many elements and no others (a while's
 * body), else each element's own dynamic ones (a conditional's branch).
 */
static int root_desc(struct hp *p, const struct ir_instr *r, const struct hp_loop *l,
		     struct hp_loop *out)
{
	uint32_t i;
	bool same = r->num_operands == l->elems;

	memset(out, 0, sizeof(*out));
	if (r->num_operands > XSHAPE_DYN_LEAVES)
		return hp_fail(p, "%s: a tuple of more than %d dynamic values", r->name,
			       XSHAPE_DYN_LEAVES);
	for (i = 0; i < r->num_operands; i++) {
		const struct hp_dyn *en = hd_dyn_of(p, r->operands[i]);

		if (xrt_shape_is_tuple(&p->cur->instrs[r->operands[i]].shape) &&
		    hd_holds_dyn(p, r->operands[i], 0))
			return hp_fail(p, "%s: a tuple within a tuple of dynamic values is not "
				       "supported", r->name);
		out->mask[i] = en ? en->mask : 0;
		same = same && !(out->mask[i] & ~l->mask[i]);
	}
	if (same) {
		*out = *l;
		return 0;
	}
	out->elems = r->num_operands;
	for (i = 0; i < out->elems; i++)
		out->hidden += (uint32_t)__builtin_popcount(out->mask[i]);
	return 0;
}

/*
 * The root of a computation with dynamic parameter @l: its tuple gets
 * the sizes it carries (root_desc(), kept in p->outs); a condition's
 * pred stays.
 */
int hd_loop_root(struct hp *p, const struct hp_loop *l)
{
	struct ir_comp *c = p->cur;
	const struct ir_instr *r = &c->instrs[c->root];
	uint32_t k = (uint32_t)(c - p->m->comps), v;
	struct hp_loop out;

	if (!xrt_shape_is_tuple(&r->shape) && !hd_holds_dyn(p, c->root, 0))
		return 0;	/* a condition's pred */
	if (r->op != XRT_OP_TUPLE)
		return hp_fail(p, "computation '%s' takes a tuple with dynamic dimensions: its root "
			       "must be a tuple instruction", c->name);
	if (root_desc(p, r, l, &out) ||
	    hp_grow(p, (void **)&p->outs, &p->outs_cap, k + 1, sizeof(*p->outs)))
		return -1;
	p->outs[k] = out;
	if (!out.hidden)
		return 0;
	if (loop_tuple(p, r, &p->outs[k], c->name, true, &v))
		return -1;
	c->root = v;
	return 0;
}

/* The sizes computation @k's root carries, or NULL where it carries none. */
static const struct hp_loop *out_of(struct hp *p, uint32_t k)
{
	return p->outs && k < p->outs_cap && p->outs[k].hidden ? &p->outs[k] : NULL;
}

/* Branch computation @k of conditional @in: operand @k + 1 takes its parameter's sizes. */
static int branch_operand(struct hp *p, uint32_t k, uint32_t comp)
{
	const struct hp_loop *l = hd_loop_of(p, comp);
	struct ir_instr *in = hd_last(p);
	const struct ir_instr *t = &p->cur->instrs[in->operands[k + 1]];
	uint32_t v;

	if (!l) {
		if (hd_holds_dyn(p, in->operands[k + 1], 0))
			return hp_fail(p, "%s: branch %u takes a dynamic value, but its parameter "
				       "has no dynamic dimension", in->name, k);
		return 0;
	}
	if (t->op != XRT_OP_TUPLE || t->num_operands != l->elems)
		return hp_fail(p, "%s: branch %u takes dynamic values: its operand must be a "
			       "tuple instruction of %u elements", in->name, k, l->elems);
	if (loop_tuple(p, t, l, in->name, false, &v))
		return -1;
	hd_last(p)->operands[k + 1] = v;
	return 0;
}

/*
 * A conditional whose branches take or give dynamic values: each
 * branch's operand gets its parameter's sizes; the branches' roots
 * must carry the same ones, which its result then carries.
 */
int hd_loop_conditional(struct hp *p, struct ir_instr *in, bool *done)
{
	const struct ir_attr *b = ir_instr_attr(in, IR_ATTR_BRANCH_COMPUTATIONS);
	const struct ir_attr *bt = ir_instr_attr(in, IR_ATTR_TRUE_COMPUTATION);
	const struct ir_attr *bf = ir_instr_attr(in, IR_ATTR_FALSE_COMPUTATION);
	uint32_t comps[64], n = 0, k;
	const struct hp_loop *out = NULL;
	bool any = false;

	*done = false;
	if (b && b->n <= 64) {
		for (k = 0; k < b->n; k++)
			comps[n++] = (uint32_t)b->ints[k];
	} else if (bt && bf && bt->n == 1 && bf->n == 1) {
		comps[n++] = (uint32_t)bt->ints[0];
		comps[n++] = (uint32_t)bf->ints[0];
	}
	if (!n || in->num_operands != n + 1)
		return 0;	/* the verifier says what is wrong */
	for (k = 0; k < n; k++)
		any = any || hd_loop_of(p, comps[k]) || out_of(p, comps[k]);
	if (!any)
		return 0;
	*done = true;
	for (k = 0; k < n; k++) {
		const struct hp_loop *o = out_of(p, comps[k]);

		if (k && (!o != !out || (o && !same_desc(o, out))))
			return hp_fail(p, "%s: branches %u and 0 give different dynamic dimensions",
				       in->name, k);
		out = o;
	}
	for (k = 0; k < n; k++)
		if (branch_operand(p, k, comps[k]))
			return -1;
	if (!out)
		return 0;
	p->dyn_next.loop = comps[0] + 1;
	p->dyn_next.out = true;
	return extend_shape(p, out);
}

/* The sizes of loop tuple @t: its parameter's, or its root's for a conditional's. */
const struct hp_loop *hd_loop_desc(struct hp *p, uint32_t t)
{
	const struct hp_dyn *d = &p->dyn[t];

	return d->out ? &p->outs[d->loop - 1] : &p->loops[d->loop - 1];
}
