// SPDX-License-Identifier: MIT
/*
 * Calls inlined before lowering, as XLA's CPU pipeline does first.  JAX
 * writes jnp.where and other wrapped functions as `call`s, also inside
 * reducers, comparators and scatter computations, which the compiler
 * applies as fused kernels of elementwise instructions only; with the
 * calls inlined, those computations are elementwise again.
 *
 * The flattened module is the compiler's own view of the caller's: the
 * same computations at the same indices (attributes name them by
 * index), each instruction a copy of the original's struct sharing its
 * name, shape, attributes and literal, with its own operand list.  A
 * call's callee instructions take its place, in order (so rng draws and
 * side effects keep their order), the callee's parameters read the
 * call's operands, and the call's users read the callee's root.
 * Nothing of it is freed but what it made.
 */
#include <string.h>

#include "cc.h"
#include "core/mem.h"

/* Past this many instructions in a computation, calls stay calls. */
#define INLINE_MAX_INSTRS (1u << 20)

struct inl {
	const xrt_module *m;
	const struct xrt_allocator *a;
	struct ir_comp *flat;		/* parallel to m->comps */
	uint8_t *state;			/* 0 to do, 1 doing, 2 done */
	bool failed, oom;
};

/* Appends a copy of @in to @c (room made by the caller), operands mapped by @map. */
static uint32_t append(struct inl *x, struct ir_comp *c, const struct ir_instr *in,
		       const uint32_t *map)
{
	struct ir_instr *out = &c->instrs[c->num_instrs];
	uint32_t k;

	*out = *in;
	out->operands = NULL;
	if (in->num_operands) {
		out->operands = xrt_mem_calloc(x->a, in->num_operands, sizeof(*out->operands));
		if (!out->operands) {
			x->failed = x->oom = true;
			return 0;
		}
	}
	for (k = 0; k < in->num_operands; k++)
		out->operands[k] = map[in->operands[k]];
	return c->num_instrs++;
}

/* How many instructions @c has with its calls inlined (callees already flat). */
static uint64_t flat_size(const struct inl *x, const struct ir_comp *c)
{
	uint64_t n = 0;
	uint32_t k;

	for (k = 0; k < c->num_instrs; k++) {
		const struct ir_instr *in = &c->instrs[k];

		n += in->op == XRT_OP_CALL ?
		     x->flat[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]].num_instrs : 1;
	}
	return n;
}

static void flatten(struct inl *x, uint32_t ci);

/* The callee of call @in inlined into @c; its root's new index. */
static uint32_t inline_call(struct inl *x, struct ir_comp *c, const struct ir_instr *in,
			    const uint32_t *map)
{
	const struct ir_comp *f = &x->flat[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	uint32_t *fmap = xrt_mem_calloc(x->a, f->num_instrs + 1, sizeof(*fmap)), j, r = 0;

	if (!fmap) {
		x->failed = x->oom = true;
		return 0;
	}
	for (j = 0; j < f->num_instrs && !x->failed; j++) {
		const struct ir_instr *b = &f->instrs[j];

		fmap[j] = b->op == XRT_OP_PARAMETER ? map[in->operands[b->parameter]] :
			  append(x, c, b, fmap);
	}
	if (f->num_instrs)
		r = fmap[f->root];
	xrt_mem_free(x->a, fmap);
	return r;
}

static void flatten(struct inl *x, uint32_t ci)
{
	const struct ir_comp *c = &x->m->comps[ci];
	struct ir_comp *out = &x->flat[ci];
	uint32_t *map, k;
	uint64_t n;

	if (x->state[ci] || x->failed) {
		x->failed |= x->state[ci] == 1;		/* a cycle: the verifier refuses them */
		return;
	}
	x->state[ci] = 1;
	for (k = 0; k < c->num_instrs; k++) {
		if (c->instrs[k].op == XRT_OP_CALL)
			flatten(x, (uint32_t)ir_instr_attr(&c->instrs[k], IR_ATTR_TO_APPLY)->ints[0]);
	}
	n = x->failed ? 0 : flat_size(x, c);
	if (n > INLINE_MAX_INSTRS)
		x->failed = true;
	*out = *c;
	out->instrs = x->failed ? NULL : xrt_mem_calloc(x->a, n + 1, sizeof(*out->instrs));
	map = x->failed ? NULL : xrt_mem_calloc(x->a, c->num_instrs + 1, sizeof(*map));
	out->num_instrs = 0;
	if (!x->failed && (!out->instrs || !map))
		x->failed = x->oom = true;
	for (k = 0; k < c->num_instrs && !x->failed; k++) {
		const struct ir_instr *in = &c->instrs[k];

		map[k] = in->op == XRT_OP_CALL ? inline_call(x, out, in, map) :
			 append(x, out, in, map);
	}
	if (!x->failed)
		out->root = map[c->root];
	xrt_mem_free(x->a, map);
	x->state[ci] = 2;
}

void cc_flat_free(const struct xrt_allocator *a, xrt_module *flat)
{
	uint32_t c, k;

	if (!flat)
		return;
	for (c = 0; c < flat->num_comps; c++) {
		for (k = 0; flat->comps[c].instrs && k < flat->comps[c].num_instrs; k++)
			xrt_mem_free(a, flat->comps[c].instrs[k].operands);
		xrt_mem_free(a, flat->comps[c].instrs);
	}
	xrt_mem_free(a, flat->comps);
	xrt_mem_free(a, atomic_load(&flat->entry_params));
	xrt_mem_free(a, flat);
}

static bool has_calls(const xrt_module *m)
{
	uint32_t c, k;

	for (c = 0; c < m->num_comps; c++) {
		for (k = 0; k < m->comps[c].num_instrs; k++) {
			if (m->comps[c].instrs[k].op == XRT_OP_CALL)
				return true;
		}
	}
	return false;
}

xrt_status *cc_flatten_calls(const xrt_module *m, const struct xrt_allocator *a,
			     xrt_module **out)
{
	struct inl x = { .m = m, .a = a };
	xrt_module *flat;
	uint32_t c;

	*out = NULL;
	if (!has_calls(m))
		return NULL;
	flat = xrt_mem_calloc(a, 1, sizeof(*flat));
	x.flat = xrt_mem_calloc(a, m->num_comps, sizeof(*x.flat));
	x.state = xrt_mem_calloc(a, m->num_comps, 1);
	if (!flat || !x.flat || !x.state) {
		xrt_mem_free(a, flat);
		xrt_mem_free(a, x.flat);
		xrt_mem_free(a, x.state);
		return xrt_status_oom(a, "inlining calls");
	}
	flat->alloc = a;
	flat->name = m->name;
	flat->comps = x.flat;
	flat->num_comps = m->num_comps;
	flat->entry = m->entry;
	flat->replica_count = m->replica_count;
	flat->num_partitions = m->num_partitions;
	for (c = 0; c < m->num_comps && !x.failed; c++)
		flatten(&x, c);
	xrt_mem_free(a, x.state);
	if (x.failed) {		/* too big: calls stay calls */
		cc_flat_free(a, flat);
		return x.oom ? xrt_status_oom(a, "inlining calls") : NULL;
	}
	*out = flat;
	return NULL;
}
