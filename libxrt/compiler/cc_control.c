// SPDX-License-Identifier: MIT
/*
 * Control flow stays on the device: while becomes condition, a jump out
 * when it fails, the body, the new state copied over the old and a jump
 * back; conditional becomes jumps around its branches, each copying its
 * result into buffers both share; call is the callee lowered in place.
 * Computations are lowered once per use (an instance), so the arena
 * schedule inside a loop is the same on every iteration.
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "cc.h"

/* Fresh arena buffers for every leaf of @s; the value holding them. */
static uint32_t fresh(struct cc *cc, const struct xrt_shape *s)
{
	uint32_t v = cc_new_val(cc), i, e;

	if (cc->err)
		return v;
	if (!xrt_shape_is_tuple(s)) {
		cc_alloc(cc, v, s->dtype, s->rank, s->dims);
		return v;
	}
	if (!cc_tuple_init(cc, v, s->tuple_count))
		return v;
	for (i = 0; i < s->tuple_count && !cc->err; i++) {
		e = fresh(cc, &s->tuple[i]);
		cc->vals[v].elems[i] = e;
		cc->vals[v].num_elems = i + 1;
	}
	return v;
}

/* The array leaves of value @v, in order. */
static uint32_t leaves(const struct cc *cc, uint32_t v, uint32_t *out, uint32_t n)
{
	uint32_t i;

	if (cc->vals[v].kind != CK_TUPLE) {
		if (out)
			out[n] = v;
		return n + 1;
	}
	for (i = 0; i < cc->vals[v].num_elems; i++)
		n = leaves(cc, cc->vals[v].elems[i], out, n);
	return n;
}

/*
 * The leaves of @dst (fresh buffers) = those of @src.  A source leaf
 * stored in one of @dst's buffers (a body returning its state swapped)
 * goes through a temporary first, so no copy reads what another wrote.
 */
static void assign(struct cc *cc, uint32_t dst, uint32_t src)
{
	uint32_t n = leaves(cc, dst, NULL, 0), *d, *s, *t, i, j;

	d = xrt_mem_calloc(cc->a, 3 * n + 1, sizeof(*d));
	if (!d) {
		cc_oom(cc);
		return;
	}
	s = d + n;
	t = s + n;
	leaves(cc, dst, d, 0);
	leaves(cc, src, s, 0);
	for (i = 0; i < n && !cc->err; i++) {
		const struct cc_val *x = &cc->vals[s[i]];

		t[i] = ~0u;
		if (cc_same_buf(&x->buf, &cc->vals[d[i]].buf))
			continue;
		for (j = 0; j < n; j++) {
			if (x->owner == cc->vals[d[j]].owner) {
				t[i] = cc_new_val(cc);
				if (!cc_alloc(cc, t[i], x->buf.dtype, x->buf.rank, x->buf.dims))
					cc_copy(cc, &cc->vals[t[i]].buf, &cc->vals[s[i]].buf);
				break;
			}
		}
	}
	for (i = 0; i < n && !cc->err; i++) {
		if (t[i] != ~0u) {
			cc_copy(cc, &cc->vals[d[i]].buf, &cc->vals[t[i]].buf);
			cc_release(cc, t[i]);
		} else if (!cc_same_buf(&cc->vals[s[i]].buf, &cc->vals[d[i]].buf)) {
			cc_copy(cc, &cc->vals[d[i]].buf, &cc->vals[s[i]].buf);
		}
	}
	xrt_mem_free(cc->a, d);
}

/* A jump whose target is set later: its byte offset in the program. */
size_t cc_jump(struct cc *cc, uint32_t mode, uint32_t target, uint32_t pred)
{
	struct xrt_cs_scalar p;
	size_t at = cc->b.len;

	memset(&p, 0, sizeof(p));
	if (mode != XRT_CS_JUMP_ALWAYS) {
		p.slot = cc->vals[pred].buf.slot;
		p.dtype = XRT_CS_PRED;
		p.offset = cc->vals[pred].buf.offset;
	}
	cs_jump(&cc->b, mode, target, mode == XRT_CS_JUMP_ALWAYS ? NULL : &p);
	return at;
}

void cc_land(struct cc *cc, size_t at)
{
	if (!cc->err && cc->b.cmds)
		((struct xrt_cs_jump *)(cc->b.cmds + at))->target = cc->b.num_commands;
}

static const struct ir_comp *called(const struct cc *cc, const struct ir_instr *in,
				    enum ir_attr_key key, uint32_t i)
{
	return &cc->m->comps[ir_instr_attr(in, key)->ints[i]];
}

/* Runs @f on @arg into @res; the value it gave is consumed. */
static void branch_into(struct cc *cc, const struct ir_comp *f, uint32_t arg, uint32_t res)
{
	uint32_t r = cc_lower_comp(cc, f, &arg);

	if (!cc->err)
		assign(cc, res, r);
	if (!cc->err)
		cc_consume(cc, r);
}

/* Records a while loop's commands and name for the executable. */
static void note_loop(struct cc *cc, const struct ir_instr *in, uint32_t top, uint32_t exit,
		      uint32_t back)
{
	struct xexe_loop *l;
	char where[256];

	if (cc->err)
		return;
	if (cc->num_loops == cc->loop_cap) {
		uint32_t cap = cc->loop_cap ? 2 * cc->loop_cap : 4;

		l = xrt_mem_calloc(cc->a, cap, sizeof(*l));
		if (!l) {
			cc_oom(cc);
			return;
		}
		if (cc->num_loops)
			memcpy(l, cc->loops, cc->num_loops * sizeof(*l));
		xrt_mem_free(cc->a, cc->loops);
		cc->loops = l;
		cc->loop_cap = cap;
	}
	snprintf(where, sizeof(where), "computation '%s', instruction '%s' (while)", cc->c->name,
		 in->name);
	l = &cc->loops[cc->num_loops];
	l->where = xrt_mem_strdup(cc->a, where);
	if (!l->where) {
		cc_oom(cc);
		return;
	}
	l->top = top;
	l->exit = exit;
	l->back = back;
	cc->num_loops++;
}

static void lower_while(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *cond = called(cc, in, IR_ATTR_CONDITION, 0);
	const struct ir_comp *body = called(cc, in, IR_ATTR_BODY, 0);
	uint32_t state = fresh(cc, &in->shape), top, p, exit, back;
	size_t out;

	assign(cc, state, cc_opnd(cc, in, 0));
	cc->branch_depth++;
	top = cc->b.num_commands;
	p = cc_lower_comp(cc, cond, &state);
	exit = cc->b.num_commands;
	out = cc_jump(cc, XRT_CS_JUMP_IF_FALSE, 0, p);
	cc_consume(cc, p);
	branch_into(cc, body, state, state);
	back = cc->b.num_commands;
	cc_jump(cc, XRT_CS_JUMP_ALWAYS, top, 0);
	cc_land(cc, out);
	note_loop(cc, in, top, exit, back);
	cc->branch_depth--;
	cc_alias(cc, cc_iv(cc, i), state);
	cc_release(cc, state);	/* the loop's value holds the state now */
}

/* pred[] = (index == k), into a fresh buffer. */
static uint32_t index_is(struct cc *cc, uint32_t index, int32_t k)
{
	uint32_t v = cc_new_val(cc), c = cc_new_val(cc);

	if (cc_alloc(cc, v, XRT_PRED, 0, NULL))
		return v;
	/* the constant k, compared by a one-instruction kernel */
	cc->vals[c].kind = CK_BUF;
	cc->vals[c].is_const = true;
	cc->vals[c].owner = c;
	cc->vals[c].buf = cc_dense(1, cc_add_const(cc, &k, sizeof(k)), XRT_S32, 0, NULL);
	cc_hold(cc, c);
	cc_emit_compare_eq(cc, &cc->vals[v].buf, &cc->vals[index].buf, &cc->vals[c].buf);
	cc_release(cc, c);
	return v;
}

static void lower_conditional(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *br = ir_instr_attr(in, IR_ATTR_BRANCH_COMPUTATIONS);
	uint32_t res = fresh(cc, &in->shape), n = br ? br->n : 2, k, *preds;
	size_t *ends, skip;

	preds = xrt_mem_calloc(cc->a, n + 1, sizeof(*preds));
	ends = xrt_mem_calloc(cc->a, n + 1, sizeof(*ends));
	if (!preds || !ends) {
		cc_oom(cc);
		goto out;
	}
	for (k = 0; k + 1 < n && br; k++)
		preds[k] = index_is(cc, cc_opnd(cc, in, 0), (int32_t)k);
	if (!br)
		preds[0] = cc_opnd(cc, in, 0);
	cc->branch_depth++;
	for (k = 0; k < n && !cc->err; k++) {
		const struct ir_comp *f = br ? called(cc, in, IR_ATTR_BRANCH_COMPUTATIONS, k) :
					  called(cc, in, k ? IR_ATTR_FALSE_COMPUTATION :
						 IR_ATTR_TRUE_COMPUTATION, 0);

		if (k + 1 == n) {	/* the last branch: what is left */
			branch_into(cc, f, cc_opnd(cc, in, 1 + k), res);
			break;
		}
		skip = cc_jump(cc, XRT_CS_JUMP_IF_FALSE, 0, preds[k]);
		branch_into(cc, f, cc_opnd(cc, in, 1 + k), res);
		ends[k] = cc_jump(cc, XRT_CS_JUMP_ALWAYS, 0, 0);
		cc_land(cc, skip);
	}
	cc->branch_depth--;
	for (k = 0; k + 1 < n; k++) {
		cc_land(cc, ends[k]);
		if (br)
			cc_release(cc, preds[k]);
	}
	cc_alias(cc, cc_iv(cc, i), res);
	cc_release(cc, res);
out:
	xrt_mem_free(cc->a, preds);
	xrt_mem_free(cc->a, ends);
}

void cc_lower_control(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t args[64], k, r;

	switch (in->op) {
	case XRT_OP_WHILE:
		lower_while(cc, i);
		return;
	case XRT_OP_CONDITIONAL:
		lower_conditional(cc, i);
		return;
	default:	/* call: the callee in place */
		if (in->num_operands > 64) {
			cc_unimplemented(cc, "call with more than 64 operands");
			return;
		}
		for (k = 0; k < in->num_operands; k++)
			args[k] = cc_opnd(cc, in, k);
		r = cc_lower_comp(cc, called(cc, in, IR_ATTR_TO_APPLY, 0), args);
		if (cc->err)
			return;
		cc_alias(cc, cc_iv(cc, i), r);
		cc_consume(cc, r);
	}
}
