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

/* The root of a loop's body: its tuple gets the sizes; a condition's pred stays. */
int hd_loop_root(struct hp *p, const struct hp_loop *l)
{
	struct ir_comp *c = p->cur;
	const struct ir_instr *r = &c->instrs[c->root];
	uint32_t v;

	if (!xrt_shape_is_tuple(&r->shape) && !hd_holds_dyn(p, c->root, 0))
		return 0;	/* a condition's pred */
	if (r->op != XRT_OP_TUPLE || r->num_operands != l->elems)
		return hp_fail(p, "computation '%s' takes a tuple with dynamic dimensions: its root "
			       "must be a tuple instruction of %u elements", c->name, l->elems);
	if (loop_tuple(p, r, l, c->name, true, &v))
		return -1;
	c->root = v;
	return 0;
}

