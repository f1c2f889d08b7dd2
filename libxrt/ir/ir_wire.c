// SPDX-License-Identifier: MIT
/*
 * Modules <-> xrt.IrModule messages, and the module fingerprint: a
 * 128-bit hash of the canonical serialization, computed once per module.
 *
 * The serialization is canonical because the IR is: attributes are
 * kept sorted, every shape carries its layout, names and indices are
 * stored as they are, and protobuf-c writes fields in number order.
 */
#include <stdio.h>
#include <string.h>

#include "core/fingerprint.h"
#include "core/mem.h"
#include "wire/wire.h"
#include "ir/ir.h"

static void comp_msg_free(const struct xrt_allocator *a, Xrt__IrComputation *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n_instructions; i++) {
		Xrt__IrInstruction *in = c->instructions[i];

		if (!in)
			continue;
		wire_shape_msg_free(a, in->shape);
		wire_literal_msg_free(a, in->literal);
		xrt_mem_free(a, in->attributes ? in->attributes[0] : NULL);
		xrt_mem_free(a, in->attributes);
	}
	xrt_mem_free(a, c->instructions ? c->instructions[0] : NULL);
	xrt_mem_free(a, c->instructions);
	xrt_mem_free(a, c);
}

static void module_msg_free(const struct xrt_allocator *a, Xrt__IrModule *m)
{
	size_t i;

	for (i = 0; i < m->n_computations; i++)
		comp_msg_free(a, m->computations[i]);
	xrt_mem_free(a, m->computations);
}

static xrt_status *instr_to_msg(const struct xrt_allocator *a,
				const struct ir_instr *in, Xrt__IrInstruction *msg)
{
	Xrt__IrAttribute *attrs;
	xrt_status *st;
	uint32_t i;

	xrt__ir_instruction__init(msg);
	msg->name = in->name;
	msg->opcode = (char *)xrt_opcode_name(in->op);
	msg->n_operands = in->num_operands;
	msg->operands = in->operands;
	msg->parameter_number = in->op == XRT_OP_PARAMETER ? in->parameter : 0;
	st = wire_shape_to_msg(&in->shape, a, &msg->shape);
	if (!st && in->literal)
		st = wire_literal_to_msg(in->literal, a, &msg->literal);
	if (st || !in->num_attrs)
		return st;
	/* attributes[0] owns the block of attribute structs. */
	attrs = xrt_mem_calloc(a, in->num_attrs, sizeof(*attrs));
	msg->attributes = xrt_mem_calloc(a, in->num_attrs, sizeof(*msg->attributes));
	if (!attrs || !msg->attributes) {
		xrt_mem_free(a, attrs);
		xrt_mem_free(a, msg->attributes);
		msg->attributes = NULL;
		return xrt_status_oom(a, "a module message");
	}
	for (i = 0; i < in->num_attrs; i++) {
		const struct ir_attr *at = &in->attrs[i];

		xrt__ir_attribute__init(&attrs[i]);
		attrs[i].name = (char *)ir_attr_name(at->key);
		attrs[i].n_ints = (size_t)at->n * ir_attr_ints_per(ir_attr_kind(at->key));
		attrs[i].ints = at->ints;
		attrs[i].text = at->str ? at->str : (char *)"";
		msg->attributes[i] = &attrs[i];
	}
	msg->n_attributes = in->num_attrs;
	return NULL;
}

static xrt_status *comp_to_msg(const struct xrt_allocator *a, const struct ir_comp *c,
			       Xrt__IrComputation **out)
{
	Xrt__IrComputation *msg = xrt_mem_calloc(a, 1, sizeof(*msg));
	Xrt__IrInstruction *ins;
	xrt_status *st = NULL;
	uint32_t i;

	*out = msg;
	if (!msg)
		return xrt_status_oom(a, "a module message");
	xrt__ir_computation__init(msg);
	msg->name = c->name;
	msg->root = c->root;
	ins = xrt_mem_calloc(a, c->num_instrs, sizeof(*ins));
	msg->instructions = xrt_mem_calloc(a, c->num_instrs, sizeof(*msg->instructions));
	if (!ins || !msg->instructions) {
		xrt_mem_free(a, ins);
		return xrt_status_oom(a, "a module message");
	}
	/* instructions[0] owns the block of instruction structs. */
	for (i = 0; i < c->num_instrs && !st; i++) {
		msg->instructions[i] = &ins[i];
		msg->n_instructions = i + 1;
		st = instr_to_msg(a, &c->instrs[i], &ins[i]);
	}
	return st;
}

xrt_status *xrt_module_serialize(const xrt_module *m, const struct xrt_allocator *alloc,
				 void **out, size_t *out_size)
{
	Xrt__IrModule msg;
	xrt_status *st = NULL;
	uint32_t i;

	if (!m || !out || !out_size)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "module serialize: NULL argument");
	xrt__ir_module__init(&msg);
	msg.name = m->name;
	msg.entry = m->entry;
	msg.replica_count = m->replica_count;
	msg.num_partitions = m->num_partitions;
	msg.computations = xrt_mem_calloc(alloc, m->num_comps, sizeof(*msg.computations));
	if (!msg.computations)
		return xrt_status_oom(alloc, "a module message");
	for (i = 0; i < m->num_comps && !st; i++) {
		msg.n_computations = i + 1;
		st = comp_to_msg(alloc, &m->comps[i], &msg.computations[i]);
	}
	if (!st)
		st = wire_pack(alloc, &msg.base, out, out_size);
	module_msg_free(alloc, &msg);
	return st;
}

xrt_status *xrt_module_fingerprint(const xrt_module *m, uint64_t out[2])
{
	xrt_module *mm = (xrt_module *)m;	/* only the cache changes */
	uint64_t h[2];
	void *bytes;
	size_t n;
	xrt_status *st;

	if (!m || !out)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "module fingerprint: NULL argument");
	if (!atomic_load_explicit(&mm->have_fingerprint, memory_order_acquire)) {
		st = xrt_module_serialize(m, m->alloc, &bytes, &n);
		if (st)
			return st;
		xrt_fingerprint128(bytes, n, h);
		xrt_mem_free(m->alloc, bytes);
		atomic_store_explicit(&mm->fingerprint[0], h[0], memory_order_relaxed);
		atomic_store_explicit(&mm->fingerprint[1], h[1], memory_order_relaxed);
		atomic_store_explicit(&mm->have_fingerprint, true, memory_order_release);
	}
	out[0] = atomic_load_explicit(&mm->fingerprint[0], memory_order_relaxed);
	out[1] = atomic_load_explicit(&mm->fingerprint[1], memory_order_relaxed);
	return NULL;
}
