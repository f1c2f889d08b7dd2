// SPDX-License-Identifier: MIT
/*
 * One instruction at a time: open it on its operands, attach its
 * attributes, then infer or check its shape with the verifier's own
 * rules and hand out the value, or drop it and keep the error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "builder_internal.h"
#include "verify.h"

static struct bld_frame *top(xrt_builder *b)
{
	return &b->frames[b->depth - 1];
}

void bld_fail(xrt_builder *b, const char *fn, const struct ir_instr *in, const char *fmt, ...)
{
	char msg[256], where[160] = "";
	va_list ap;

	if (b->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (b->depth && in)
		snprintf(where, sizeof(where), "computation '%s', instruction '%s' (%s): ",
			 top(b)->c.name, in->name ? in->name : "?", xrt_opcode_name(in->op));
	else if (b->depth)
		snprintf(where, sizeof(where), "computation '%s': ", top(b)->c.name);
	b->err = xrt_status_new(b->a, XRT_INVALID_ARGUMENT, "%s: %s%s", fn, where, msg);
}

void bld_oom(xrt_builder *b, const char *fn)
{
	if (!b->err)
		b->err = xrt_status_new(b->a, XRT_RESOURCE_EXHAUSTED, "%s: out of memory", fn);
}

bool bld_need(xrt_builder *b, const char *fn, struct ir_instr *in, const void *p, uint32_t n,
	      const char *what)
{
	if (p || !n)
		return true;
	bld_fail(b, fn, in, "%s is NULL", what);
	return false;
}

void bld_check_name(xrt_builder *b, const char *fn, const struct ir_instr *in)
{
	const struct ir_comp *c = &top(b)->c;
	const char *dot = strrchr(in->name, '.');
	size_t i;

	if (!bld_is_identifier(in->name)) {
		bld_fail(b, fn, in, "the name is not an HLO identifier");
		return;
	}
	if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1) &&
	    xrt_opcode_from_name(in->name, (size_t)(dot - in->name)) != XRT_OP_COUNT) {
		bld_fail(b, fn, in, "names like this one are the builder's own");
		return;
	}
	for (i = 0; i < c->num_instrs; i++) {
		if (&c->instrs[i] != in && !strcmp(c->instrs[i].name, in->name)) {
			bld_fail(b, fn, in, "the name is taken");
			return;
		}
	}
}

static int grow_instrs(xrt_builder *b, struct bld_frame *f)
{
	struct ir_instr *ni;
	uint32_t cap;

	if (f->c.num_instrs < f->cap)
		return 0;
	cap = f->cap ? 2 * f->cap : 16;
	ni = xrt_mem_calloc(b->a, cap, sizeof(*ni));
	if (!ni)
		return -1;
	if (f->c.num_instrs)
		memcpy(ni, f->c.instrs, f->c.num_instrs * sizeof(*ni));
	xrt_mem_free(b->a, f->c.instrs);
	f->c.instrs = ni;
	f->cap = cap;
	return 0;
}

struct ir_instr *bld_open(xrt_builder *b, const char *fn, enum xrt_opcode op,
			  const xrt_value *opnds, uint32_t n)
{
	struct bld_frame *f;
	struct ir_instr *in;
	char name[64];
	uint32_t i;

	if (!b || b->err || !b->m)
		return NULL;
	f = top(b);
	if (!bld_need(b, fn, NULL, opnds, n, "the operand array"))
		return NULL;
	if (grow_instrs(b, f)) {
		bld_oom(b, fn);
		return NULL;
	}
	in = &f->c.instrs[f->c.num_instrs];
	memset(in, 0, sizeof(*in));
	in->op = op;
	snprintf(name, sizeof(name), "%s.%llu", xrt_opcode_name(op),
		 (unsigned long long)b->next_name++);
	in->name = xrt_mem_strdup(b->a, name);
	in->operands = xrt_mem_calloc(b->a, n ? n : 1, sizeof(*in->operands));
	if (!in->name || !in->operands) {
		bld_oom(b, fn);
		goto fail;
	}
	for (i = 0; i < n; i++) {
		int64_t k = bld_local(b, opnds[i]);

		if (k < 0) {
			bld_fail(b, fn, in, "operand %u is not a value of computation '%s'", i,
				 f->c.name);
			goto fail;
		}
		in->operands[i] = (uint32_t)k;
	}
	in->num_operands = n;
	f->c.num_instrs++;
	return in;
fail:
	ir_instr_release(b->a, in);
	return NULL;
}

const struct xrt_shape *bld_opnd(const xrt_builder *b, const struct ir_instr *in, uint32_t i)
{
	return &b->frames[b->depth - 1].c.instrs[in->operands[i]].shape;
}

static int add_value(xrt_builder *b, uint32_t instr)
{
	if (b->num_vals == b->val_cap) {
		uint32_t cap = b->val_cap ? 2 * b->val_cap : 64;
		struct bld_val *nv;

		if (cap > INT32_MAX)
			return -1;
		nv = xrt_mem_calloc(b->a, cap, sizeof(*nv));
		if (!nv)
			return -1;
		if (b->num_vals)
			memcpy(nv, b->vals, b->num_vals * sizeof(*nv));
		xrt_mem_free(b->a, b->vals);
		b->vals = nv;
		b->val_cap = cap;
	}
	b->vals[b->num_vals].frame = top(b)->serial;
	b->vals[b->num_vals].instr = instr;
	b->num_vals++;
	return 0;
}

xrt_value bld_close(xrt_builder *b, const char *fn, struct ir_instr *in, bool infer)
{
	struct bld_frame *f = top(b);
	struct vfy v = { b->m, &f->c, in, NULL, infer ? &in->shape : NULL };
	xrt_value out = { b->tag, -1 };

	if (!b->err && vfy_instr(&v)) {
		b->err = v.err ? xrt_status_annotate(v.err, "%s", fn) :
				 xrt_status_new(b->a, XRT_INTERNAL,
						"%s: a check failed without a message", fn);
	}
	if (!b->err && add_value(b, f->c.num_instrs - 1))
		bld_oom(b, fn);
	if (b->err) {
		ir_instr_release(b->a, in);
		f->c.num_instrs--;
		return out;
	}
	out.id = (int32_t)(b->num_vals - 1);
	return out;
}

static void add_attr(xrt_builder *b, const char *fn, struct ir_instr *in, struct ir_attr *attr)
{
	struct ir_attr *na;
	uint32_t i;

	na = b->err ? NULL : xrt_mem_calloc(b->a, in->num_attrs + 1, sizeof(*na));
	if (!na) {
		bld_oom(b, fn);
		ir_attr_release(b->a, attr);
		return;
	}
	/* Sorted by key, as the parser keeps them: that is the printing order. */
	for (i = 0; i < in->num_attrs && in->attrs[i].key < attr->key; i++)
		na[i] = in->attrs[i];
	na[i] = *attr;
	for (; i < in->num_attrs; i++)
		na[i + 1] = in->attrs[i];
	xrt_mem_free(b->a, in->attrs);
	in->attrs = na;
	in->num_attrs++;
}

void bld_ints(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	      const int64_t *vals, uint32_t n)
{
	uint32_t per = ir_attr_ints_per(ir_attr_kind(key));
	struct ir_attr attr = { key, n, NULL, NULL };

	if (b->err || !bld_need(b, fn, in, vals, n, ir_attr_name(key)))
		return;
	attr.ints = xrt_mem_calloc(b->a, (size_t)n * per + 1, sizeof(int64_t));
	if (!attr.ints) {
		bld_oom(b, fn);
		return;
	}
	if (n)
		memcpy(attr.ints, vals, (size_t)n * per * sizeof(int64_t));
	add_attr(b, fn, in, &attr);
}

void bld_int(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	     int64_t val)
{
	bld_ints(b, fn, in, key, &val, 1);
}

void bld_word(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	      const char *word)
{
	struct ir_attr attr = { key, 0, NULL, NULL };

	if (b->err || !bld_need(b, fn, in, word, 1, ir_attr_name(key)))
		return;
	attr.str = xrt_mem_strdup(b->a, word);
	if (!attr.str) {
		bld_oom(b, fn);
		return;
	}
	add_attr(b, fn, in, &attr);
}

void bld_comps(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	       const xrt_comp *comps, uint32_t n)
{
	int64_t ids[64];
	uint32_t i;

	if (b->err || !bld_need(b, fn, in, comps, n, ir_attr_name(key)))
		return;
	if (n > 64) {
		bld_fail(b, fn, in, "%u computations, at most 64", n);
		return;
	}
	for (i = 0; i < n; i++) {
		if (comps[i].builder != b->tag || comps[i].id < 0 ||
		    (uint32_t)comps[i].id >= b->m->num_comps) {
			bld_fail(b, fn, in, "%s: not a computation this builder finished",
				 ir_attr_name(key));
			return;
		}
		ids[i] = comps[i].id;
	}
	bld_ints(b, fn, in, key, ids, n);
}

void bld_window(xrt_builder *b, const char *fn, struct ir_instr *in,
		const struct xrt_window_dim *w, uint32_t rank)
{
	int64_t f[XRT_MAX_RANK * IR_WINDOW_FIELDS];
	uint32_t i;

	if (b->err || !bld_need(b, fn, in, w, rank, "the window"))
		return;
	if (rank > XRT_MAX_RANK) {
		bld_fail(b, fn, in, "a window of %u dimensions", rank);
		return;
	}
	for (i = 0; i < rank; i++) {
		int64_t *d = f + i * IR_WINDOW_FIELDS;

		d[0] = w[i].size;
		d[1] = w[i].stride;
		d[2] = w[i].pad_low;
		d[3] = w[i].pad_high;
		d[4] = w[i].base_dilation;
		d[5] = w[i].window_dilation;
		d[6] = w[i].reversal;
	}
	bld_ints(b, fn, in, IR_ATTR_WINDOW, f, rank);
}

void bld_shape(xrt_builder *b, const char *fn, struct ir_instr *in, const struct xrt_shape *s)
{
	xrt_status *st;

	if (b->err || !bld_need(b, fn, in, s, 1, "the shape"))
		return;
	st = xrt_shape_validate(s);
	if (st) {
		bld_fail(b, fn, in, "%s", xrt_status_message(st));
		xrt_status_free(st);
		return;
	}
	xrt_shape_deinit(&in->shape);
	st = xrt_shape_copy(&in->shape, b->a, s);
	if (st) {
		xrt_status_free(st);
		bld_oom(b, fn);
	}
}
