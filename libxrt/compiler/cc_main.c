// SPDX-License-Identifier: MIT
/*
 * The compiler's driver: slots for the arena, the constants, each
 * parameter leaf and each result leaf; dead instructions dropped;
 * fusion decided; every live instruction lowered in order; the results
 * copied to their slots in the layouts the root's shape declares.
 */
#include <stdatomic.h>
#include <string.h>

#include <stdlib.h>

#include "core/mem.h"
#include "cc.h"

/* Marks what the root needs and counts each value's reads. */
static int count_uses(struct cc *cc, bool *live)
{
	const struct ir_comp *c = cc->c;
	uint32_t i, k;

	live[c->root] = true;
	for (i = 0; i < c->num_instrs; i++) {
		/* run, used or not; its results are never released */
		if (ir_has_side_effect(&c->instrs[i]) && !live[i]) {
			live[i] = true;
			cc->vals[cc_iv(cc, i)].uses++;
		}
	}
	for (i = c->num_instrs; i-- > 0;) {
		const struct ir_instr *in = &c->instrs[i];

		if (!live[i])
			continue;
		for (k = 0; k < in->num_operands; k++) {
			live[in->operands[k]] = true;
			cc->vals[cc_opnd(cc, in, k)].uses++;
		}
	}
	cc->vals[cc_iv(cc, c->root)].uses++;	/* the result: never released */
	return 0;
}

/* Parameter @p's leaves become slots; @v its value (a tuple of leaves). */
static void bind_param(struct cc *cc, uint32_t v, const struct xrt_shape *s, uint32_t p,
		       uint32_t *leaf)
{
	struct cc_val *x;
	uint32_t i, e;

	if (!xrt_shape_is_tuple(s)) {
		uint32_t slot = cc_add_slot(cc, XEXE_SLOT_PARAM, xrt_shape_byte_size(s),
					    XRT_CS_SLOT_READ);

		if (cc->err)
			return;
		cc->slots[slot].param = p;
		cc->slots[slot].leaf = (*leaf)++;
		x = &cc->vals[v];
		x->kind = CK_BUF;
		x->buf = cc_layout(slot, s);
		x->owner = v;
		x->holds = 1;	/* never freed */
		return;
	}
	if (!cc_tuple_init(cc, v, s->tuple_count))
		return;
	for (i = 0; i < s->tuple_count && !cc->err; i++) {
		e = cc_tuple_add(cc, v);
		bind_param(cc, e, &s->tuple[i], p, leaf);
	}
}

static void consume_operands(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t k;

	if (cc_is_elementwise(in) || in->op == XRT_OP_REDUCE) {
		cc_consume_tree(cc, i);
		return;
	}
	for (k = 0; k < in->num_operands; k++)
		cc_consume(cc, cc_opnd(cc, in, k));
}

/*
 * Lowers the instructions of cc->c (an instance based at cc->base);
 * parameters bound to @args (values), or to slots when @args is NULL.
 */
static void lower_body(struct cc *cc, const uint32_t *args)
{
	const struct ir_comp *c = cc->c;
	bool *live = xrt_mem_calloc(cc->a, 2 * (size_t)c->num_instrs + 1, sizeof(*live));
	bool *done;	/* lowered before the rest */
	uint32_t i;

	if (!live) {
		cc_oom(cc);
		return;
	}
	done = live + c->num_instrs;
	count_uses(cc, live);
	for (i = 0; i < c->num_instrs && !cc->err; i++) {
		const struct ir_instr *in = &c->instrs[i];

		if (in->op != XRT_OP_PARAMETER)
			continue;
		if (args)
			cc_alias(cc, cc_iv(cc, i), args[in->parameter]);
		else if (cc->vals[cc_iv(cc, i)].kind == CK_UNSET)
			bind_param(cc, cc_iv(cc, i), &in->shape, (uint32_t)in->parameter,
				   &(uint32_t){ 0 });
	}
	cc_fold(cc, live, done);
	cc_mark_inline(cc, live);
	for (i = 0; i < c->num_instrs && !cc->err; i++) {
		if (!live[i] || done[i] || c->instrs[i].op == XRT_OP_PARAMETER ||
		    cc->vals[cc_iv(cc, i)].kind == CK_INLINE)
			continue;
		cc->in = &c->instrs[i];
		cc_lower(cc, i);
		if (!cc->err)
			consume_operands(cc, i);
	}
	/* a parameter nothing reads gives its hold back now */
	for (i = 0; i < c->num_instrs && !cc->err; i++) {
		if (c->instrs[i].op == XRT_OP_PARAMETER && !live[i] && args)
			cc_release(cc, cc_iv(cc, i));
	}
	xrt_mem_free(cc->a, live);
}

uint32_t cc_lower_comp(struct cc *cc, const struct ir_comp *f, const uint32_t *args)
{
	const struct ir_comp *c = cc->c;
	const struct ir_instr *in = cc->in;
	uint32_t base = cc->base, i, nb = cc->num_vals, root;

	for (i = 0; i < f->num_instrs && !cc->err; i++)
		cc_new_val(cc);
	if (cc->err)
		return 0;
	cc->c = f;
	cc->base = nb;
	lower_body(cc, args);
	root = cc_iv(cc, f->root);
	cc->c = c;
	cc->base = base;
	cc->in = in;
	return root;
}

static void lower_entry(struct cc *cc)
{
	const struct ir_comp *c = cc->c;
	uint32_t i;

	/* parameters first: donated ones may hold results */
	for (i = 0; i < c->num_instrs && !cc->err; i++) {
		if (c->instrs[i].op == XRT_OP_PARAMETER)
			bind_param(cc, cc_iv(cc, i), &c->instrs[i].shape,
				   (uint32_t)c->instrs[i].parameter, &(uint32_t){ 0 });
	}
	cc_plan_results(cc);
	cc_rng_counter_init(cc);
	lower_body(cc, NULL);
	cc->in = NULL;
	cc_bind_results(cc);
}

static int by_exit(const void *a, const void *b)
{
	const struct xexe_loop *x = a, *y = b;

	return x->exit < y->exit ? -1 : x->exit > y->exit;
}

/* The leaves of @s into @out from *@n, in tuple order. */
static void flatten(const struct xrt_shape *s, const struct xrt_shape **out, size_t *n)
{
	uint32_t i;

	if (!xrt_shape_is_tuple(s)) {
		out[(*n)++] = s;
		return;
	}
	for (i = 0; i < s->tuple_count; i++)
		flatten(&s->tuple[i], out, n);
}

/* Each PARAM and RESULT slot's shape, from one walk of every tuple. */
static xrt_status *point_slots(struct xrt_executable *exe, const struct xrt_allocator *a)
{
	size_t total = xrt_shape_leaf_count(&exe->result), n = 0, r;
	const struct xrt_shape **leaves;
	size_t *base;
	uint32_t p, s;

	for (p = 0; p < exe->num_params; p++)
		total += xrt_shape_leaf_count(&exe->params[p]);
	leaves = xrt_mem_calloc(a, total + 1, sizeof(*leaves));
	base = xrt_mem_calloc(a, exe->num_params + 1, sizeof(*base));
	if (!leaves || !base) {
		xrt_mem_free(a, leaves);
		xrt_mem_free(a, base);
		return xrt_status_oom(a, "an executable");
	}
	for (p = 0; p < exe->num_params; p++) {
		base[p] = n;
		flatten(&exe->params[p], leaves, &n);
	}
	r = n;
	flatten(&exe->result, leaves, &n);
	for (s = 0; s < exe->num_slots; s++) {
		struct xexe_slot *sl = &exe->slots[s];

		if (sl->kind == XEXE_SLOT_PARAM)
			sl->shape = leaves[base[sl->param] + sl->leaf];
		else if (sl->kind == XEXE_SLOT_RESULT)
			sl->shape = leaves[r + sl->leaf];
	}
	xrt_mem_free(a, leaves);
	xrt_mem_free(a, base);
	return NULL;
}

static xrt_status *finish(struct cc *cc, struct xrt_executable *exe)
{
	const struct ir_comp *c = cc->c;
	xrt_status *st;
	uint32_t i;

	/* The arena and the constants are sized now that all is placed. */
	cc->b.slots[0].size = cc->slots[0].size = cc->arena_top ? cc->arena_top : CC_ALIGN;
	cc->b.slots[1].size = cc->slots[1].size = cc->consts_size ? cc->consts_size : CC_ALIGN;
	exe->num_commands = cc->b.num_commands;
	st = cs_finish(&cc->b, &exe->program, &exe->program_size);
	if (st)
		return st;
	exe->slots = cc->slots;
	exe->num_slots = cc->num_slots;
	cc->slots = NULL;
	exe->loops = cc->loops;
	exe->num_loops = cc->num_loops;
	cc->loops = NULL;
	cc->num_loops = 0;
	exe->calls = cc->calls;
	exe->num_calls = cc->num_calls;
	cc->calls = NULL;
	cc->num_calls = 0;
	exe->groups = cc->groups;
	exe->num_groups = cc->num_groups;
	cc->groups = NULL;
	cc->num_groups = 0;
	exe->num_replicas = xrt_module_num_replicas(cc->m);
	exe->num_partitions = xrt_module_num_partitions(cc->m);
	if (exe->num_loops)	/* by exit jump: the driver wants them so */
		qsort(exe->loops, exe->num_loops, sizeof(*exe->loops), by_exit);
	exe->constants = cc->consts ? cc->consts : xrt_mem_alloc_aligned(cc->a, CC_ALIGN, CC_ALIGN);
	exe->constants_size = cc->consts_size;
	cc->consts = NULL;
	exe->num_params = c->num_params;
	exe->params = xrt_mem_calloc(cc->a, c->num_params + 1, sizeof(*exe->params));
	if (!exe->constants || !exe->params)
		return xrt_status_oom(cc->a, "an executable");
	for (i = 0; i < c->num_instrs && !st; i++) {
		if (c->instrs[i].op == XRT_OP_PARAMETER)
			st = xrt_shape_copy(&exe->params[c->instrs[i].parameter], cc->a,
					    &c->instrs[i].shape);
	}
	if (!st)
		st = xrt_shape_copy(&exe->result, cc->a, &c->instrs[c->root].shape);
	if (!st)
		st = point_slots(exe, cc->a);
	return st;
}

xrt_status *cc_compile(const xrt_module *m, const struct cc_options *o,
		       const struct xrt_allocator *alloc, struct xrt_executable **out)
{
	struct cc cc;
	struct xrt_executable *exe;
	xrt_module *flat;
	xrt_status *st;
	uint32_t i;

	if (!m || !out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "compile: %s is NULL",
				      m ? "out" : "module");
	*out = NULL;
	st = xrt_module_verify(m);
	if (!st)
		st = cc_flatten_calls(m, alloc, &flat);
	if (st)
		return st;
	memset(&cc, 0, sizeof(cc));
	cc.m = flat ? flat : m;
	cc.c = &cc.m->comps[m->entry];
	cc.a = alloc;
	if (o)
		cc.o = *o;
	cs_builder_init(&cc.b, alloc);
	/* at XEXE_ARENA_SLOT and XEXE_CONSTANTS_SLOT */
	cc_add_slot(&cc, XEXE_SLOT_ARENA, CC_ALIGN, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	cc_add_slot(&cc, XEXE_SLOT_CONSTANTS, CC_ALIGN, XRT_CS_SLOT_READ);
	for (i = 0; i < cc.c->num_instrs && !cc.err; i++)
		cc_new_val(&cc);
	if (!cc.err)
		lower_entry(&cc);
	exe = cc.err ? NULL : xexe_create(alloc);
	if (!cc.err && !exe)
		cc_oom(&cc);
	if (exe) {
		st = finish(&cc, exe);
		if (st) {
			xexe_destroy(exe);
			exe = NULL;
		}
	} else {
		cs_builder_release(&cc.b);
		st = cc.err;
		cc.err = NULL;
	}
	for (i = 0; i < cc.num_vals; i++)
		xrt_mem_free(alloc, cc.vals[i].elems);
	xrt_mem_free(alloc, cc.vals);
	xrt_mem_free(alloc, cc.free);
	xrt_mem_free(alloc, cc.placed);
	xrt_mem_free(alloc, cc.result_slots);
	for (i = 0; i < cc.num_loops; i++)
		xrt_mem_free(alloc, cc.loops[i].where);
	xrt_mem_free(alloc, cc.loops);
	xexe_free_calls(alloc, cc.calls, cc.num_calls);
	xexe_free_groups(alloc, cc.groups, cc.num_groups);
	xrt_mem_free(alloc, cc.slots);
	xrt_mem_free(alloc, cc.consts);
	xrt_status_free(cc.err);
	cc_flat_free(alloc, flat);
	*out = exe;
	return st;
}
