// SPDX-License-Identifier: MIT
/*
 * XLA's serialized modules: HloModuleProto, HloProto (its field 1) and
 * HloSnapshot (field 1 of that), as XLA dumps them.  The message is
 * checked (ids unique, references resolved, calls acyclic), ordered
 * callees first as HLO text requires, written as HLO text and read by
 * the text reader.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/ir.h>

#include "core/fmtbuf.h"
#include "core/mem.h"
#include "wire/wire.h"
#include "xla_proto.h"

__attribute__((format(printf, 2, 3)))
int xp_fail(struct xp *x, const char *fmt, ...)
{
	va_list ap;

	if (x->err[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(x->err, sizeof(x->err), fmt, ap);
	va_end(ap);
	return -1;
}

static int id_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct xp_id *)a)->id, y = ((const struct xp_id *)b)->id;

	return (x > y) - (x < y);
}

static const struct xp_id *find(const struct xp_id *v, size_t n, int64_t id)
{
	struct xp_id key = { .id = id };

	return n ? bsearch(&key, v, n, sizeof(*v), id_cmp) : NULL;
}

const struct xp_id *xp_instr(const struct xp *x, int64_t id)
{
	return find(x->instr_ids, x->ninstr_ids, id);
}

const struct xp_id *xp_comp(const struct xp *x, int64_t id)
{
	return find(x->comp_ids, x->m->n_computations, id);
}

/* Sorts @v and refuses repeated ids, naming @what. */
static int sort_ids(struct xp *x, struct xp_id *v, size_t n, const char *what)
{
	size_t i;

	qsort(v, n, sizeof(*v), id_cmp);
	for (i = 1; i < n; i++) {
		if (v[i].id == v[i - 1].id)
			return xp_fail(x, "two %s have id %lld", what, (long long)v[i].id);
	}
	return 0;
}

static int index_ids(struct xp *x, const struct xrt_allocator *a)
{
	const Xla__HloModuleProto *m = x->m;
	size_t n = 0, i, j;

	for (i = 0; i < m->n_computations; i++)
		n += m->computations[i]->n_instructions;
	x->instr_ids = xrt_mem_calloc(a, n ? n : 1, sizeof(*x->instr_ids));
	x->comp_ids = xrt_mem_calloc(a, m->n_computations, sizeof(*x->comp_ids));
	x->order = xrt_mem_calloc(a, m->n_computations, sizeof(*x->order));
	if (!x->instr_ids || !x->comp_ids || !x->order)
		return -2;
	for (i = 0, n = 0; i < m->n_computations; i++) {
		x->comp_ids[i] = (struct xp_id){ m->computations[i]->id, (uint32_t)i, 0 };
		for (j = 0; j < m->computations[i]->n_instructions; j++)
			x->instr_ids[n++] = (struct xp_id){
				m->computations[i]->instructions[j]->id, (uint32_t)i, (uint32_t)j };
	}
	x->ninstr_ids = n;
	return sort_ids(x, x->instr_ids, n, "instructions") ||
	       sort_ids(x, x->comp_ids, m->n_computations, "computations");
}

/*
 * x->order: every computation after the ones it calls, depth first
 * with an explicit stack (a deep call chain must not exhaust the C
 * stack); a cycle is refused.
 */
static int order_comps(struct xp *x, const struct xrt_allocator *a)
{
	const Xla__HloModuleProto *m = x->m;
	size_t n = m->n_computations, done = 0, top, i;
	uint8_t *state = xrt_mem_calloc(a, n, 1);	/* 0 new, 1 open, 2 done */
	struct frame { uint32_t comp; size_t instr, call; } *st;
	int rc = 0;

	st = xrt_mem_calloc(a, n, sizeof(*st));
	if (!state || !st) {
		xrt_mem_free(a, state);
		xrt_mem_free(a, st);
		return -2;
	}
	for (i = 0; i < n && !rc; i++) {
		if (state[i])
			continue;
		st[0] = (struct frame){ (uint32_t)i, 0, 0 };
		state[i] = 1;
		top = 1;
		while (top && !rc) {
			struct frame *fr = &st[top - 1];
			const Xla__HloComputationProto *c = m->computations[fr->comp];
			const struct xp_id *callee;

			if (fr->instr == c->n_instructions) {
				state[fr->comp] = 2;
				x->order[done++] = fr->comp;
				top--;
				continue;
			}
			if (fr->call == c->instructions[fr->instr]->n_called_computation_ids) {
				fr->instr++;
				fr->call = 0;
				continue;
			}
			callee = xp_comp(x, c->instructions[fr->instr]->called_computation_ids[fr->call++]);
			if (!callee)
				rc = xp_fail(x, "computation '%s', instruction '%s' calls a computation "
					     "that is not in the module", c->name,
					     c->instructions[fr->instr]->name);
			else if (state[callee->comp] == 1)
				rc = xp_fail(x, "computation '%s' calls itself, through '%s'",
					     m->computations[callee->comp]->name, c->name);
			else if (!state[callee->comp]) {
				state[callee->comp] = 1;
				st[top++] = (struct frame){ callee->comp, 0, 0 };
			}
		}
	}
	xrt_mem_free(a, state);
	xrt_mem_free(a, st);
	return rc;
}

/* XLA's rule: the entry by id, else by name, else the last computation. */
static int find_entry(struct xp *x)
{
	const Xla__HloModuleProto *m = x->m;
	const struct xp_id *e;
	size_t i;

	if (m->entry_computation_id) {
		e = xp_comp(x, m->entry_computation_id);
		if (!e)
			return xp_fail(x, "the entry computation id %lld is none of the module's",
				       (long long)m->entry_computation_id);
		x->entry = e->comp;
		return 0;
	}
	x->entry = (uint32_t)m->n_computations - 1;
	if (!m->entry_computation_name[0])
		return 0;
	for (i = 0; i < m->n_computations; i++) {
		if (!strcmp(m->computations[i]->name, m->entry_computation_name)) {
			x->entry = (uint32_t)i;
			return 0;
		}
	}
	return xp_fail(x, "the entry computation '%s' is none of the module's",
		       m->entry_computation_name);
}

/* The module as HLO text, NUL-terminated, or NULL with x->err set (or OOM). */
static char *module_text(struct xp *x, const struct xrt_allocator *a, size_t *len, int *oom)
{
	struct fmtbuf f;
	char *text;
	int rc;

	*oom = 0;
	if (!x->m->n_computations) {
		xp_fail(x, "the module has no computations");
		return NULL;
	}
	rc = index_ids(x, a);
	if (!rc)
		rc = order_comps(x, a);
	if (!rc)
		rc = find_entry(x);
	if (rc == -2)
		*oom = 1;
	if (rc)
		return NULL;
	fmtbuf_init(&f, NULL, 0);
	if (xp_write_module(x, &f))
		return NULL;
	*len = f.len;
	text = xrt_mem_alloc(a, f.len + 1);
	if (!text) {
		*oom = 1;
		return NULL;
	}
	fmtbuf_init(&f, text, *len + 1);
	xp_write_module(x, &f);
	return text;
}

xrt_status *xla_module_from_msg(const struct xrt_allocator *a, const Xla__HloModuleProto *m,
				xrt_module **out)
{
	struct xp x = { .m = m };
	xrt_status *st = NULL;
	size_t len = 0;
	char *text;
	int oom;

	text = module_text(&x, a, &len, &oom);
	xrt_mem_free(a, x.instr_ids);
	xrt_mem_free(a, x.comp_ids);
	xrt_mem_free(a, x.order);
	if (!text)
		return oom ? xrt_status_oom(a, "an XLA module") :
			     xrt_status_new(a, XRT_INVALID_ARGUMENT, "HloModuleProto: %s", x.err);
	st = xrt_hlo_parse(a, text, len, out);
	xrt_mem_free(a, text);
	if (st && xrt_status_code(st) != XRT_RESOURCE_EXHAUSTED)
		st = xrt_status_annotate(st, "HloModuleProto '%s', as HLO text", m->name);
	return st;
}

/* The HloModuleProto inside @msg of @form, or NULL. */
static const Xla__HloModuleProto *module_of(enum xrt_xla_form form, const ProtobufCMessage *msg)
{
	const Xla__HloProto *hp = NULL;

	switch (form) {
	case XRT_XLA_HLO_MODULE:
		return (const Xla__HloModuleProto *)msg;
	case XRT_XLA_HLO_PROTO:
		hp = (const Xla__HloProto *)msg;
		break;
	case XRT_XLA_HLO_SNAPSHOT:
		hp = ((const Xla__HloSnapshot *)msg)->hlo;
		break;
	default:
		return NULL;
	}
	return hp ? hp->hlo_module : NULL;
}

static const ProtobufCMessageDescriptor *descriptor_of(enum xrt_xla_form form)
{
	switch (form) {
	case XRT_XLA_HLO_MODULE:
		return &xla__hlo_module_proto__descriptor;
	case XRT_XLA_HLO_PROTO:
		return &xla__hlo_proto__descriptor;
	case XRT_XLA_HLO_SNAPSHOT:
		return &xla__hlo_snapshot__descriptor;
	default:
		return NULL;
	}
}

static const char *form_name(enum xrt_xla_form form)
{
	return form == XRT_XLA_HLO_MODULE ? "xla.HloModuleProto" :
	       form == XRT_XLA_HLO_PROTO ? "xla.HloProto" : "xla.HloSnapshot";
}

/* Does @m look like a module: computations, each with named instructions? */
static bool plausible(const Xla__HloModuleProto *m)
{
	size_t i, j;

	if (!m || !m->n_computations)
		return false;
	for (i = 0; i < m->n_computations; i++) {
		const Xla__HloComputationProto *c = m->computations[i];

		if (!c->n_instructions)
			return false;
		for (j = 0; j < c->n_instructions; j++) {
			if (!c->instructions[j]->opcode[0] || !c->instructions[j]->shape)
				return false;
		}
	}
	return true;
}

/*
 * Decodes @data as @form and reads its module into *@out.  Returns the
 * status; or, when @quiet, NULL with *@not_it set where the bytes are
 * not that form (no status made: nothing is allocated for a guess that
 * fails, so running out of memory always shows).
 */
static xrt_status *parse_form(const struct xrt_allocator *a, const void *data, size_t len,
			      enum xrt_xla_form form, bool quiet, bool *not_it,
			      xrt_module **out)
{
	const ProtobufCMessageDescriptor *desc = descriptor_of(form);
	struct wire_alloc w;
	ProtobufCMessage *msg = NULL;
	const Xla__HloModuleProto *m;
	xrt_status *st;

	wire_alloc_init(&w, a);
	if (quiet) {
		/* the nesting check's status, if any, comes from the system */
		st = wire_check_nesting(NULL, desc, data, len, WIRE_MAX_NESTING);
		if (!st)
			msg = protobuf_c_message_unpack(desc, &w.pb, len, data);
		xrt_status_free(st);
		if (!msg && w.failed)
			return xrt_status_oom(a, form_name(form));
		*not_it = !msg || !plausible(module_of(form, msg));
		if (*not_it) {
			if (msg)
				protobuf_c_message_free_unpacked(msg, &w.pb);
			return NULL;
		}
	} else {
		st = wire_unpack(&w, desc, data, len, form_name(form), &msg);
		if (st)
			return st;
	}
	m = module_of(form, msg);
	if (!m)
		st = xrt_status_new(a, XRT_INVALID_ARGUMENT, "%s: no module in it",
				    form_name(form));
	else
		st = xla_module_from_msg(a, m, out);
	protobuf_c_message_free_unpacked(msg, &w.pb);
	return st;
}

xrt_status *xrt_hlo_parse_xla_proto(const struct xrt_allocator *alloc, const void *data,
				    size_t len, enum xrt_xla_form form, xrt_module **out)
{
	static const enum xrt_xla_form tries[] = { XRT_XLA_HLO_SNAPSHOT, XRT_XLA_HLO_PROTO,
						   XRT_XLA_HLO_MODULE };
	xrt_status *st;
	bool not_it;
	size_t i;

	if (!out || (!data && len))
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "XLA proto parse: NULL argument");
	*out = NULL;
	if (form != XRT_XLA_ANY) {
		if (!descriptor_of(form))
			return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
					      "XLA proto parse: form %d is none of enum xrt_xla_form",
					      (int)form);
		return parse_form(alloc, data, len, form, false, &not_it, out);
	}
	/*
	 * Each form's bytes could decode as another: take the first that
	 * holds a module; else what reading them as a module says.
	 */
	for (i = 0; i + 1 < sizeof(tries) / sizeof(tries[0]); i++) {
		st = parse_form(alloc, data, len, tries[i], true, &not_it, out);
		if (st || !not_it)
			return st;
	}
	return parse_form(alloc, data, len, XRT_XLA_HLO_MODULE, false, &not_it, out);
}
