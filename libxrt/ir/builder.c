// SPDX-License-Identifier: MIT
/*
 * The builder's life: the module it fills, the stack of open
 * computations, and handing the module over.
 */
#include <stdatomic.h>
#include <string.h>

#include "core/mem.h"
#include "builder_internal.h"
#include "verify.h"

/* Tags tell one builder's values from another's; 0 is never used. */
static atomic_uint next_tag = 1;

/* HLO identifiers: a letter or '_', then letters, digits, '_', '.', '-'. */
bool bld_is_identifier(const char *s)
{
	size_t i;

	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (i = 1; s[i]; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-'))
			return false;
	}
	return i <= 256;
}

static bool name_taken(const xrt_builder *b, const char *name)
{
	uint32_t i;

	for (i = 0; i < b->m->num_comps; i++) {
		if (!strcmp(b->m->comps[i].name, name))
			return true;
	}
	for (i = 0; i < b->depth; i++) {
		if (!strcmp(b->frames[i].c.name, name))
			return true;
	}
	return false;
}

static int push_frame(xrt_builder *b, const char *fn, const char *name)
{
	struct bld_frame *f;

	if (!bld_is_identifier(name)) {
		bld_fail(b, fn, NULL, "computation name '%s' is not an HLO identifier",
			 name ? name : "(null)");
		return -1;
	}
	if (name_taken(b, name)) {
		bld_fail(b, fn, NULL, "computation name '%s' is taken", name);
		return -1;
	}
	if (b->depth == b->frame_cap) {
		uint32_t cap = b->frame_cap ? 2 * b->frame_cap : 4;

		f = xrt_mem_calloc(b->a, cap, sizeof(*f));
		if (!f)
			goto oom;
		if (b->depth)
			memcpy(f, b->frames, b->depth * sizeof(*f));
		xrt_mem_free(b->a, b->frames);
		b->frames = f;
		b->frame_cap = cap;
	}
	f = &b->frames[b->depth];
	memset(f, 0, sizeof(*f));
	f->c.name = xrt_mem_strdup(b->a, name);
	if (!f->c.name)
		goto oom;
	f->serial = b->next_serial++;
	b->depth++;
	return 0;
oom:
	bld_oom(b, fn);
	return -1;
}

xrt_status *xrt_builder_create(const struct xrt_allocator *alloc, const char *module_name,
			       const char *entry_name, xrt_builder **out)
{
	xrt_builder *b;

	if (!out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "builder: out is NULL");
	*out = NULL;
	if (!bld_is_identifier(module_name))
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "builder: module name '%s' is not an HLO identifier",
				      module_name ? module_name : "(null)");
	b = xrt_mem_calloc(alloc, 1, sizeof(*b));
	if (!b)
		return xrt_status_oom(alloc, "a builder");
	b->a = alloc;
	b->tag = atomic_fetch_add(&next_tag, 1) ?: atomic_fetch_add(&next_tag, 1);
	b->m = xrt_mem_calloc(alloc, 1, sizeof(*b->m));
	if (b->m) {
		b->m->alloc = alloc;
		b->m->name = xrt_mem_strdup(alloc, module_name);
	}
	if (!b->m || !b->m->name) {
		xrt_builder_destroy(b);
		return xrt_status_oom(alloc, "a builder");
	}
	if (push_frame(b, "builder", entry_name)) {
		xrt_status *st = b->err;

		b->err = NULL;
		xrt_builder_destroy(b);
		return st;
	}
	*out = b;
	return NULL;
}

void xrt_builder_destroy(xrt_builder *b)
{
	uint32_t i;

	if (!b)
		return;
	for (i = 0; i < b->depth; i++)
		ir_comp_release(b->a, &b->frames[i].c);
	xrt_mem_free(b->a, b->frames);
	xrt_mem_free(b->a, b->vals);
	xrt_module_destroy(b->m);
	xrt_status_free(b->err);
	xrt_mem_free(b->a, b);
}

const xrt_status *xrt_builder_error(const xrt_builder *b)
{
	return b ? b->err : NULL;
}

void xrt_builder_begin(xrt_builder *b, const char *name)
{
	if (b && !b->err && b->m)
		push_frame(b, "xrt_builder_begin", name);
}

int64_t bld_local(const xrt_builder *b, xrt_value v)
{
	if (!b->depth || v.builder != b->tag || v.id < 0 || (uint32_t)v.id >= b->num_vals ||
	    b->vals[v.id].frame != b->frames[b->depth - 1].serial)
		return -1;
	return b->vals[v.id].instr;
}

/* Close the innermost computation into the module; its index or -1. */
static int32_t pop_frame(xrt_builder *b, const char *fn, xrt_value root)
{
	struct bld_frame *f = &b->frames[b->depth - 1];
	struct vfy v = { b->m, &f->c, NULL, NULL, NULL };
	int64_t r = bld_local(b, root);
	uint32_t i;

	if (r < 0) {
		bld_fail(b, fn, NULL, "the root is not a value of this computation");
		return -1;
	}
	f->c.root = (uint32_t)r;
	f->c.num_params = 0;
	for (i = 0; i < f->c.num_instrs; i++)
		f->c.num_params += f->c.instrs[i].op == XRT_OP_PARAMETER;
	if (vfy_params(&v)) {
		if (xrt_status_code(v.err) == XRT_RESOURCE_EXHAUSTED)
			bld_oom(b, fn);
		else
			bld_fail(b, fn, NULL, "%s", xrt_status_message(v.err));
		xrt_status_free(v.err);
		return -1;
	}
	if (b->m->num_comps == b->comp_cap) {
		uint32_t cap = b->comp_cap ? 2 * b->comp_cap : 4;
		struct ir_comp *c = xrt_mem_calloc(b->a, cap, sizeof(*c));

		if (!c) {
			bld_oom(b, fn);
			return -1;
		}
		if (b->m->num_comps)
			memcpy(c, b->m->comps, b->m->num_comps * sizeof(*c));
		xrt_mem_free(b->a, b->m->comps);
		b->m->comps = c;
		b->comp_cap = cap;
	}
	b->m->comps[b->m->num_comps] = f->c;
	memset(f, 0, sizeof(*f));
	b->depth--;
	return (int32_t)b->m->num_comps++;
}

xrt_comp xrt_builder_end(xrt_builder *b, xrt_value root)
{
	xrt_comp c = { b ? b->tag : 0, -1 };

	if (!b || b->err || !b->m)
		return c;
	if (b->depth < 2) {
		bld_fail(b, "xrt_builder_end", NULL,
			 "no sub-computation is open (the entry ends with xrt_builder_build)");
		return c;
	}
	c.id = pop_frame(b, "xrt_builder_end", root);
	return c;
}

xrt_status *xrt_builder_build(xrt_builder *b, xrt_value root, xrt_module **out)
{
	const char *fn = "xrt_builder_build";
	int32_t entry;
	xrt_status *st;

	if (!b || !out)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: %s is NULL", fn,
				      b ? "out" : "builder");
	*out = NULL;
	if (!b->m)
		return xrt_status_new(b->a, XRT_FAILED_PRECONDITION,
				      "%s: the module was already built", fn);
	if (!b->err && b->depth != 1)
		bld_fail(b, fn, NULL, "sub-computation '%s' is still open",
			 b->frames[b->depth - 1].c.name);
	if (b->err)
		return xrt_status_new(b->a, xrt_status_code(b->err), "%s",
				      xrt_status_message(b->err));
	entry = pop_frame(b, fn, root);
	if (entry < 0)
		return xrt_status_new(b->a, xrt_status_code(b->err), "%s",
				      xrt_status_message(b->err));
	b->m->entry = (uint32_t)entry;
	/* Each instruction was checked as it came; this checks the whole. */
	st = xrt_module_verify(b->m);
	if (st)
		return xrt_status_annotate(st, "%s: the module does not verify", fn);
	*out = b->m;
	b->m = NULL;
	return NULL;
}

const struct xrt_shape *xrt_value_shape(const xrt_builder *b, xrt_value v)
{
	uint32_t i;

	if (!b || v.builder != b->tag || v.id < 0 || (uint32_t)v.id >= b->num_vals)
		return NULL;
	for (i = 0; i < b->depth; i++) {
		if (b->frames[i].serial == b->vals[v.id].frame)
			return &b->frames[i].c.instrs[b->vals[v.id].instr].shape;
	}
	return NULL;
}
