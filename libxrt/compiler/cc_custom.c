// SPDX-License-Identifier: MIT
/*
 * custom-call: one CALL command, its arguments each operand array (a
 * tuple's arrays depth first), dense and row-major (copied first where
 * a view is not), its results fresh arrays of the instruction's shape.
 * An operand constrained to another layout (operand_layout_constraints),
 * or a result declared in one, is a dense array in that layout: its view
 * has the dims in physical order, and the call table says how they map
 * back (a handler sees the array's own dims and the layout's bytes).
 * What it calls goes in the executable's call table, at the index the
 * command names: the target, the instruction's place for messages, a
 * typed FFI call's attribute dictionary (read once, here), another
 * version's backend_config string.  The device resolves the target when
 * the call runs.
 */
#include <stdio.h>
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"
#include "cc.h"

struct views {
	struct xrt_cs_view v[XRT_CS_CALL_MAX_VIEWS];
	uint8_t perm[XRT_CS_CALL_MAX_VIEWS][XRT_MAX_RANK];	/* view dim -> array dim */
	bool permuted;
	uint32_t n;
	uint32_t temps[XRT_CS_CALL_MAX_VIEWS];	/* dense copies to release after */
	uint32_t num_temps;
};

static bool room(struct cc *cc, struct views *w)
{
	if (w->n < XRT_CS_CALL_MAX_VIEWS)
		return true;
	cc_fail(cc, XRT_UNIMPLEMENTED, "a custom call of more than %d arrays in and out",
		XRT_CS_CALL_MAX_VIEWS);
	return false;
}

/* @b's view with exact row-major strides (@b is dense: dims of 1 may have any). */
static void add_view(struct views *w, const struct cc_buf *b)
{
	struct xrt_cs_view *v = &w->v[w->n];
	int64_t s = 1;
	int d;

	*v = cc_csview(b);
	for (d = (int)b->rank - 1; d >= 0; d--) {
		v->strides[d] = s;
		s *= b->dims[d];
		w->perm[w->n][d] = (uint8_t)d;
	}
	w->n++;
}

/* Whether @m2m (of @rank dims) is the row-major layout. */
static bool row_major(const uint8_t *m2m, uint32_t rank)
{
	uint32_t i;

	for (i = 0; i < rank; i++)
		if (m2m[i] != rank - 1 - i)
			return false;
	return true;
}

/*
 * Array value @v, allocated here as @dtype[@dims] in layout @m2m: its
 * bytes as a row-major view of the physical dims, and @v itself the
 * logical view of them.
 */
static void add_laid_out(struct cc *cc, uint32_t v, enum xrt_dtype dtype, uint32_t rank,
			 const int64_t *dims, const uint8_t *m2m, struct views *w)
{
	struct xrt_shape s = { .dtype = dtype, .rank = rank };
	int64_t n = 1, phys[XRT_MAX_RANK];
	struct cc_buf b;
	uint32_t j;

	/* copied first: @dims may be a value's, which allocating can move */
	memcpy(s.dims, dims, rank * sizeof(*dims));
	memcpy(s.minor_to_major, m2m, rank);
	for (j = 0; j < rank; j++) {
		n *= s.dims[j];
		phys[j] = s.dims[m2m[rank - 1 - j]];	/* major to minor */
	}
	if (cc_alloc(cc, v, dtype, 1, &n))
		return;
	b = cc_layout(cc->vals[v].buf.slot, &s);
	b.offset = cc->vals[v].buf.offset;
	cc->vals[v].buf = b;
	b = cc_dense(b.slot, b.offset, dtype, rank, phys);
	add_view(w, &b);
	for (j = 0; j < rank; j++)
		w->perm[w->n - 1][j] = m2m[rank - 1 - j];
	w->permuted = true;
}

/*
 * The arrays of value @x, each dense (a copy where it is not); an array
 * operand constrained to layout @m2m (not NULL), a copy in that layout.
 */
static void add_args(struct cc *cc, uint32_t x, const uint8_t *m2m, struct views *w)
{
	const struct cc_val *val = &cc->vals[x];
	uint32_t i, t;

	if (val->kind == CK_TUPLE) {
		for (i = 0; i < val->num_elems && !cc->err; i++)
			add_args(cc, cc->vals[x].elems[i], NULL, w);
		return;
	}
	if (!room(cc, w))
		return;
	if (m2m && !row_major(m2m, val->buf.rank)) {
		t = cc_new_val(cc);	/* may move cc->vals: val is stale after */
		if (cc->err)
			return;
		add_laid_out(cc, t, cc->vals[x].buf.dtype, cc->vals[x].buf.rank,
			     cc->vals[x].buf.dims, m2m, w);
		if (cc->err)
			return;
		cc_copy(cc, &cc->vals[t].buf, &cc->vals[x].buf);
		w->temps[w->num_temps++] = t;
		return;
	}
	if (cc_is_dense(&val->buf)) {
		add_view(w, &val->buf);
		return;
	}
	t = cc_new_val(cc);
	if (cc->err || cc_alloc(cc, t, cc->vals[x].buf.dtype, cc->vals[x].buf.rank,
				cc->vals[x].buf.dims))
		return;
	cc_copy(cc, &cc->vals[t].buf, &cc->vals[x].buf);
	w->temps[w->num_temps++] = t;
	add_view(w, &cc->vals[t].buf);
}

/* Value @v: fresh arrays of shape @s (a tuple of them), each a result view. */
static void add_results(struct cc *cc, uint32_t v, const struct xrt_shape *s, struct views *w)
{
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		if (!cc_tuple_init(cc, v, s->tuple_count))
			return;
		for (i = 0; i < s->tuple_count && !cc->err; i++)
			add_results(cc, cc_tuple_add(cc, v), &s->tuple[i], w);
		return;
	}
	if (!room(cc, w))
		return;
	if (!row_major(s->minor_to_major, s->rank))
		add_laid_out(cc, v, s->dtype, s->rank, s->dims, s->minor_to_major, w);
	else if (!cc_alloc(cc, v, s->dtype, s->rank, s->dims))
		add_view(w, &cc->vals[v].buf);
}

/* The call table's entry for @in and its views @w; its index, or -1 (the error set). */
static int64_t add_call(struct cc *cc, const struct ir_instr *in, const struct views *w)
{
	const char *cfg = ir_instr_attr(in, IR_ATTR_BACKEND_CONFIG) ?
			  ir_instr_attr(in, IR_ATTR_BACKEND_CONFIG)->str : "";
	bool typed = ir_is_typed_ffi(in);
	struct xexe_call *c;
	char where[256];
	xrt_status *st;

	if (cc->num_calls == cc->call_cap) {
		uint32_t cap = cc->call_cap ? 2 * cc->call_cap : 4;

		c = xrt_mem_calloc(cc->a, cap, sizeof(*c));
		if (!c)
			return cc_oom(cc), -1;
		if (cc->num_calls)
			memcpy(c, cc->calls, cc->num_calls * sizeof(*c));
		xrt_mem_free(cc->a, cc->calls);
		cc->calls = c;
		cc->call_cap = cap;
	}
	snprintf(where, sizeof(where), "computation '%s', instruction '%s'", cc->c->name,
		 in->name);
	c = &cc->calls[cc->num_calls++];
	c->target = xrt_mem_strdup(cc->a, ir_instr_attr(in, IR_ATTR_CUSTOM_CALL_TARGET)->str);
	c->where = xrt_mem_strdup(cc->a, where);
	c->opaque = xrt_mem_strdup(cc->a, typed ? "" : cfg);
	st = xffi_attrs_parse(cc->a, typed ? cfg : "", typed ? strlen(cfg) : 0, &c->attrs);
	if (st) {	/* the verifier read it: only memory can fail here */
		xrt_status_free(st);
		return cc_oom(cc), -1;
	}
	if (w->permuted) {
		c->layouts = xrt_mem_calloc(cc->a, w->n, sizeof(*c->layouts));
		if (c->layouts)
			memcpy(c->layouts, w->perm, w->n * sizeof(*c->layouts));
	}
	if (!c->target || !c->where || !c->opaque || (w->permuted && !c->layouts))
		return cc_oom(cc), -1;
	return cc->num_calls - 1;
}

void cc_lower_custom_call(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct views *w = xrt_mem_calloc(cc->a, 1, sizeof(*w));
	uint8_t m2m[XRT_MAX_RANK];
	uint32_t k, num_args;
	int64_t call;

	if (!w) {
		cc_oom(cc);
		return;
	}
	for (k = 0; k < in->num_operands && !cc->err; k++)
		add_args(cc, cc_opnd(cc, in, k), ir_operand_layout(in, k, m2m) ? m2m : NULL, w);
	num_args = w->n;
	if (!cc->err)
		add_results(cc, cc_iv(cc, i), &in->shape, w);
	call = cc->err ? -1 : add_call(cc, in, w);
	if (call >= 0)
		cs_call(&cc->b, (uint32_t)call, w->v, num_args, w->n - num_args);
	for (k = 0; k < w->num_temps; k++)
		cc_release(cc, w->temps[k]);
	xrt_mem_free(cc->a, w);
}
