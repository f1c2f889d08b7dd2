// SPDX-License-Identifier: MIT
/*
 * xrt.IrModule messages -> modules.  Everything the rest of the front
 * end relies on without checking is checked here: names it can print
 * back, known opcodes and attribute names, attributes sorted and each
 * once, the number of values each attribute kind takes, operands that
 * come before their users, callees that come before their callers, a
 * literal on constants only and with the constant's shape.  Shapes of
 * results are left to xrt_module_verify(), as for HLO text.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "wire/wire.h"
#include "ir/ir.h"
#include "ir_names.h"

/* Longest list an attribute other than a list of callees may hold. */
#define IR_MAX_LIST 4096

struct reader {
	const struct xrt_allocator *a;
	xrt_module *m;
	uint32_t comp;		/* the computation being read */
};

static xrt_status *bad(const struct reader *r, const char *fmt, const char *arg)
{
	return xrt_status_new(r->a, XRT_INVALID_ARGUMENT, fmt, arg);
}

/* Names print bare in HLO text, so they take what the parser reads. */
static bool good_name(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++) {
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	}
	return true;
}

static bool good_word(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (!isalnum((unsigned char)*s) && !strchr("_.->", *s))
			return false;
	}
	return true;
}

static char *dup_name(struct reader *r, const char *s, const char *what,
		      xrt_status **st)
{
	char *d;

	if (!good_name(s)) {
		*st = bad(r, "%s is not a valid name", what);
		return NULL;
	}
	d = xrt_mem_strdup(r->a, s);
	if (!d)
		*st = xrt_status_oom(r->a, "a module");
	return d;
}

static xrt_status *check_attr_values(struct reader *r, enum ir_attr_kind kind,
				     const Xrt__IrAttribute *msg)
{
	size_t i, n = msg->n_ints;

	if (kind == IR_WORD || kind == IR_STRING) {
		if (n)
			return bad(r, "attribute '%s' takes text, not numbers", msg->name);
		if (kind == IR_WORD && !good_word(msg->text))
			return bad(r, "attribute '%s' is not a bare word", msg->name);
		return NULL;
	}
	if (msg->text && *msg->text)
		return bad(r, "attribute '%s' takes numbers, not text", msg->name);
	if ((kind == IR_INT || kind == IR_BOOL || kind == IR_COMP) && n != 1)
		return bad(r, "attribute '%s' takes exactly one value", msg->name);
	if (kind == IR_COMPS && !n)
		return bad(r, "attribute '%s' needs a computation", msg->name);
	if (kind == IR_GROUPS) {
		if (n > UINT32_MAX || ir_groups_count(msg->ints, (uint32_t)n) < 0)
			return bad(r, "attribute '%s' is not a list of groups", msg->name);
		return NULL;
	}
	if (n % ir_attr_ints_per(kind) ||
	    (kind != IR_COMPS && n / ir_attr_ints_per(kind) > IR_MAX_LIST))
		return bad(r, "attribute '%s' has a bad number of values", msg->name);
	/* As HLO text has them: a window and a padding have 1 to 8 dimensions. */
	if ((kind == IR_WINDOW || kind == IR_PADDING) &&
	    (!n || n / ir_attr_ints_per(kind) > XRT_MAX_RANK))
		return bad(r, "attribute '%s' needs 1 to 8 dimensions", msg->name);
	for (i = 0; i < n; i++) {
		int64_t v = msg->ints[i];

		if (kind == IR_BOOL && v != 0 && v != 1)
			return bad(r, "attribute '%s' is not 0 or 1", msg->name);
		if ((kind == IR_COMP || kind == IR_COMPS) &&
		    (v < 0 || v >= (int64_t)r->comp))
			return bad(r, "attribute '%s' calls a computation that is "
				   "not defined before its caller", msg->name);
	}
	return NULL;
}

static xrt_status *read_attr(struct reader *r, const Xrt__IrAttribute *msg,
			     int prev, struct ir_attr *at)
{
	enum ir_attr_key key;
	xrt_status *st;
	uint32_t per;

	key = ir_attr_from_name(msg->name, strlen(msg->name));
	if (key == IR_ATTR_COUNT)
		return bad(r, "unknown attribute '%s'", msg->name);
	if ((int)key <= prev)
		return bad(r, "attribute '%s' is out of order or repeated", msg->name);
	st = check_attr_values(r, ir_attr_kind(key), msg);
	if (st)
		return st;
	at->key = key;
	per = ir_attr_ints_per(ir_attr_kind(key));
	at->n = (uint32_t)(per ? msg->n_ints / per : 0);
	if (msg->n_ints) {
		at->ints = xrt_mem_alloc(r->a, msg->n_ints * sizeof(*at->ints));
		if (!at->ints)
			return xrt_status_oom(r->a, "a module");
		memcpy(at->ints, msg->ints, msg->n_ints * sizeof(*at->ints));
	}
	if (!per) {
		at->str = xrt_mem_strdup(r->a, msg->text);
		if (!at->str)
			return xrt_status_oom(r->a, "a module");
	}
	return NULL;
}

static xrt_status *read_attrs(struct reader *r, const Xrt__IrInstruction *msg,
			      struct ir_instr *in)
{
	xrt_status *st;
	size_t i;

	if (!msg->n_attributes)
		return NULL;
	if (msg->n_attributes > IR_ATTR_COUNT)
		return bad(r, "%s repeats attributes", "the instruction");
	in->attrs = xrt_mem_calloc(r->a, msg->n_attributes, sizeof(*in->attrs));
	if (!in->attrs)
		return xrt_status_oom(r->a, "a module");
	for (i = 0; i < msg->n_attributes; i++) {
		in->num_attrs = (uint32_t)i + 1;
		st = read_attr(r, msg->attributes[i], i ? (int)in->attrs[i - 1].key : -1,
			       &in->attrs[i]);
		if (st)
			return st;
	}
	return NULL;
}

static xrt_status *read_operands(struct reader *r, const Xrt__IrInstruction *msg,
				 uint32_t index, struct ir_instr *in)
{
	size_t i;

	if (!msg->n_operands)
		return NULL;
	for (i = 0; i < msg->n_operands; i++) {
		if (msg->operands[i] >= index)
			return bad(r, "%s uses an operand that does not come before it",
				   "the instruction");
	}
	in->operands = xrt_mem_alloc(r->a, msg->n_operands * sizeof(*in->operands));
	if (!in->operands)
		return xrt_status_oom(r->a, "a module");
	memcpy(in->operands, msg->operands, msg->n_operands * sizeof(*in->operands));
	in->num_operands = (uint32_t)msg->n_operands;
	return NULL;
}

static xrt_status *read_literal(struct reader *r, const Xrt__IrInstruction *msg,
				struct ir_instr *in)
{
	xrt_status *st;

	if (in->op != XRT_OP_CONSTANT) {
		if (msg->literal)
			return bad(r, "a %s has a literal", xrt_opcode_name(in->op));
		return NULL;
	}
	if (!msg->literal)
		return bad(r, "the %s has no literal", "constant");
	st = wire_literal_from_msg(r->a, msg->literal, "literal", &in->literal);
	if (st)
		return st;
	if (!xrt_shape_equal(xrt_literal_shape(in->literal), &in->shape))
		return bad(r, "the %s's literal does not have its shape", "constant");
	return NULL;
}

static xrt_status *read_instr(struct reader *r, const Xrt__IrInstruction *msg,
			      uint32_t index, struct ir_instr *in)
{
	xrt_status *st = NULL;

	in->name = dup_name(r, msg->name, "the instruction name", &st);
	if (!in->name)
		return st;
	in->op = xrt_opcode_from_name(msg->opcode, strlen(msg->opcode));
	if (in->op == XRT_OP_COUNT)
		return bad(r, "unknown opcode '%s'", msg->opcode);
	if (!msg->shape)
		return bad(r, "%s has no shape", "the instruction");
	st = wire_shape_from_msg(&in->shape, r->a, msg->shape, "shape");
	if (st)
		return st;
	if (in->op == XRT_OP_PARAMETER) {
		if (msg->parameter_number < 0 || msg->parameter_number > UINT32_MAX)
			return bad(r, "%s has a bad parameter number", "the parameter");
		in->parameter = msg->parameter_number;
	} else if (msg->parameter_number) {
		return bad(r, "a %s has a parameter number", xrt_opcode_name(in->op));
	}
	/* their text forms, parameter(N) and constant(values), have no room for operands */
	if ((in->op == XRT_OP_PARAMETER || in->op == XRT_OP_CONSTANT) && msg->n_operands)
		return bad(r, "a %s has operands", xrt_opcode_name(in->op));
	st = read_operands(r, msg, index, in);
	if (!st)
		st = read_attrs(r, msg, in);
	if (!st)
		st = read_literal(r, msg, in);
	return st;
}

static const char *instr_name(const void *ctx, uint32_t i, size_t *len)
{
	const struct ir_comp *c = ctx;

	*len = strlen(c->instrs[i].name);
	return c->instrs[i].name;
}

static const char *comp_name(const void *ctx, uint32_t i, size_t *len)
{
	const xrt_module *m = ctx;

	*len = strlen(m->comps[i].name);
	return m->comps[i].name;
}

/*
 * Adds @name as index @i of @t unless it is there: 0, 1 if it is, -1
 * out of memory.  (A table, not a scan: a message's size is the
 * sender's choice.)
 */
static int add_name(struct ir_names *t, const char *name, uint32_t i)
{
	size_t n = strlen(name);

	if (ir_names_find(t, name, n) != UINT32_MAX)
		return 1;
	return ir_names_add(t, name, n, i);
}

static xrt_status *read_comp(struct reader *r, const Xrt__IrComputation *msg,
			     struct ir_comp *c)
{
	struct ir_names names;
	xrt_status *st = NULL;
	uint32_t i;
	int taken = 0;

	c->name = dup_name(r, msg->name, "the computation name", &st);
	if (!c->name)
		return st;
	if (!msg->n_instructions || msg->n_instructions > UINT32_MAX)
		return bad(r, "computation '%s' has no instructions", c->name);
	if (msg->root >= msg->n_instructions)
		return bad(r, "computation '%s' has its root out of range", c->name);
	c->root = msg->root;
	c->instrs = xrt_mem_calloc(r->a, msg->n_instructions, sizeof(*c->instrs));
	if (!c->instrs)
		return xrt_status_oom(r->a, "a module");
	ir_names_init(&names, r->a, instr_name, c);
	for (i = 0; i < msg->n_instructions && !st; i++) {
		c->num_instrs = i + 1;
		st = read_instr(r, msg->instructions[i], i, &c->instrs[i]);
		if (!st)
			taken = add_name(&names, c->instrs[i].name, i);
		if (taken < 0)
			st = xrt_status_oom(r->a, "a module");
		else if (taken)
			st = bad(r, "instruction '%s' is defined twice", c->instrs[i].name);
		if (st)
			st = xrt_status_annotate(st, "computation '%s', instruction %u",
						 c->name, i);
		else if (c->instrs[i].op == XRT_OP_PARAMETER)
			c->num_params++;
	}
	ir_names_deinit(&names);
	return st ? st : ir_comp_check_params(r->a, c);
}

static xrt_status *read_module(struct reader *r, const Xrt__IrModule *msg)
{
	xrt_module *m = r->m;
	struct ir_names names;
	xrt_status *st = NULL;
	uint32_t i;
	int taken;

	m->name = dup_name(r, msg->name, "the module name", &st);
	if (!m->name)
		return st;
	if (!msg->n_computations || msg->n_computations > UINT32_MAX)
		return bad(r, "module '%s' has no computations", m->name);
	if (msg->entry >= msg->n_computations)
		return bad(r, "module '%s' has its entry out of range", m->name);
	m->entry = msg->entry;
	if (msg->replica_count > IR_MAX_REPLICAS || msg->num_partitions > IR_MAX_REPLICAS)
		return bad(r, "module '%s' states more than 65536 replicas or partitions",
			   m->name);
	m->replica_count = msg->replica_count;
	m->num_partitions = msg->num_partitions;
	m->comps = xrt_mem_calloc(r->a, msg->n_computations, sizeof(*m->comps));
	if (!m->comps)
		return xrt_status_oom(r->a, "a module");
	ir_names_init(&names, r->a, comp_name, m);
	for (i = 0; i < msg->n_computations && !st; i++) {
		r->comp = i;
		m->num_comps = i + 1;
		st = read_comp(r, msg->computations[i], &m->comps[i]);
		taken = st ? 0 : add_name(&names, m->comps[i].name, i);
		if (taken < 0)
			st = xrt_status_oom(r->a, "a module");
		else if (taken)
			st = bad(r, "computation '%s' is defined twice", m->comps[i].name);
	}
	ir_names_deinit(&names);
	return st;
}

xrt_status *ir_module_from_msg(const struct xrt_allocator *alloc, const Xrt__IrModule *msg,
			       xrt_module **out)
{
	struct reader r = { .a = alloc };
	xrt_status *st;

	*out = NULL;
	r.m = xrt_mem_calloc(alloc, 1, sizeof(*r.m));
	if (!r.m)
		return xrt_status_oom(alloc, "a module");
	r.m->alloc = alloc;
	st = read_module(&r, msg);
	if (st) {
		xrt_module_destroy(r.m);
		return xrt_status_annotate(st, "module deserialize");
	}
	*out = r.m;
	return NULL;
}

xrt_status *xrt_module_deserialize(const struct xrt_allocator *alloc,
				   const void *data, size_t size, xrt_module **out)
{
	struct wire_alloc w;
	ProtobufCMessage *base;
	xrt_status *st;

	if (!out || (!data && size))
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "module deserialize: NULL argument");
	*out = NULL;
	wire_alloc_init(&w, alloc);
	st = wire_unpack(&w, &xrt__ir_module__descriptor, data, size, "module", &base);
	if (st)
		return st;
	st = ir_module_from_msg(alloc, (const Xrt__IrModule *)base, out);
	protobuf_c_message_free_unpacked(base, &w.pb);
	return st;
}
