// SPDX-License-Identifier: MIT
/*
 * The XRT API over the wire format, as the seed's ops take it: compile
 * from an xrt.Computation, allocate from an xrt.Allocation, make a tuple
 * from an xrt.TupleNode, execute with an xrt.ExecutionConfig, read back
 * an xrt.Literal.  Each message is checked (nesting first, then every
 * field) before anything happens; the data path has raw-byte calls too.
 */
#include <string.h>

#include <xrt/wire.h>

#include "core/mem.h"
#include "wire/wire.h"
#include "xrt_internal.h"

#define ARG_CHECK(s, cond, fn)                                                \
	do {                                                                  \
		if (!(cond))                                                  \
			return xrt_status_new((s) ? (s)->a : NULL,            \
					      XRT_INVALID_ARGUMENT,           \
					      "%s: NULL argument", fn);       \
	} while (0)

/* The signature @ps asks for, against the module's; NULL if they agree. */
static xrt_status *check_signature(xrt_session *s, const Xrt__ProgramShape *ps,
				   const xrt_module *m)
{
	struct xrt_shape want;
	xrt_status *st = NULL;
	uint32_t i, n = xrt_module_num_params(m);

	if (ps->n_parameters != n)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "compile: the config's program shape has %zu parameters, "
				      "the computation %u", ps->n_parameters, n);
	for (i = 0; i <= n && !st; i++) {
		const Xrt__Shape *msg = i < n ? ps->parameters[i] : ps->result;
		const struct xrt_shape *have = i < n ? xrt_module_param_shape(m, i) :
						      xrt_module_result_shape(m);

		if (!msg)
			continue;	/* not given: not checked */
		st = wire_shape_from_msg(&want, s->a, msg, i < n ? "parameters" : "result");
		if (!st && !xrt_shape_compatible(&want, have))
			st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
					    "compile: the config's program shape differs from the "
					    "computation's at %s %u", i < n ? "parameter" : "the result",
					    i < n ? i : 0);
		xrt_shape_deinit(&want);
	}
	return st;
}

static xrt_status *compile_msg(xrt_session *s, const Xrt__Computation *c, xrt_handle *out)
{
	const Xrt__ComputationConfig *cfg = c->config;
	xrt_module *m = NULL;
	xrt_status *st;

	if (cfg && (cfg->num_replicas > 1 || cfg->num_cores_per_replica > 1))
		return xrt_status_new(s->a, XRT_UNIMPLEMENTED,
				      "compile: %d replicas of %d cores each: one core is all there "
				      "is for now", cfg->num_replicas, cfg->num_cores_per_replica);
	if (c->body_case == XRT__COMPUTATION__BODY_MODULE)
		st = ir_module_from_msg(s->a, c->module, &m);
	else if (c->body_case == XRT__COMPUTATION__BODY_HLO_TEXT)
		st = xrt_hlo_parse(s->a, c->hlo_text, strlen(c->hlo_text), &m);
	else if (c->body_case == XRT__COMPUTATION__BODY_XLA_MODULE)
		st = xrt_hlo_parse_xla_proto(s->a, c->xla_module.data, c->xla_module.len,
					     XRT_XLA_ANY, &m);
	else
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "compile: the computation has no body (module, hlo_text or "
				    "xla_module)");
	if (!st && cfg && cfg->program_shape) {
		st = xrt_module_verify(m);	/* shapes are only known once verified */
		if (!st)
			st = check_signature(s, cfg->program_shape, m);
	}
	if (!st)
		st = xrt_compile_module(s, m, out);
	xrt_module_destroy(m);
	return st;
}

xrt_status *xrt_compile_proto(xrt_session *s, const void *data, size_t size, xrt_handle *out)
{
	ProtobufCMessage *base;
	struct wire_alloc w;
	xrt_status *st;

	ARG_CHECK(s, s && out && (data || !size), "compile");
	wire_alloc_init(&w, s->a);
	st = wire_unpack(&w, &xrt__computation__descriptor, data, size, "computation", &base);
	if (st)
		return st;
	st = compile_msg(s, (const Xrt__Computation *)base, out);
	protobuf_c_message_free_unpacked(base, &w.pb);
	return st;
}

xrt_status *xrt_allocate_proto(xrt_session *s, const void *data, size_t size, xrt_handle *out)
{
	const Xrt__Allocation *msg;
	ProtobufCMessage *base;
	xrt_literal *lit = NULL;
	struct wire_alloc w;
	xrt_status *st;

	ARG_CHECK(s, s && out && (data || !size), "allocate");
	wire_alloc_init(&w, s->a);
	st = wire_unpack(&w, &xrt__allocation__descriptor, data, size, "allocation", &base);
	if (st)
		return st;
	msg = (const Xrt__Allocation *)base;
	if (msg->device_ordinal)
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "allocate: device ordinal %d, the session's device is %s",
				    msg->device_ordinal, s->dev->info.name);
	else if (!msg->value)
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT, "allocate: the allocation has no value");
	else
		st = wire_literal_from_msg(s->a, msg->value, "value", &lit);
	protobuf_c_message_free_unpacked(base, &w.pb);
	if (!st)
		st = xrt_allocate(s, lit, out);
	xrt_literal_destroy(lit);
	return st;
}

xrt_status *xrt_read_proto(xrt_session *s, xrt_handle h, bool release,
			   const struct xrt_allocator *a, void **out, size_t *out_size)
{
	xrt_literal *lit = NULL;
	xrt_status *st;

	ARG_CHECK(s, s && out && out_size, "read literal");
	*out = NULL;
	*out_size = 0;
	st = xrt_read_literal(s, h, false, &lit);
	if (!st)
		st = xrt_literal_serialize(lit, a, out, out_size);
	xrt_literal_destroy(lit);
	if (!st && release)
		xnode_unref(s, xalloc_take(s, h));
	return st;
}

/* The description tree of a TupleNode message (its nesting already checked). */
static xrt_status *to_desc(xrt_session *s, const Xrt__TupleNode *msg, struct xrt_tuple_node *d)
{
	struct xrt_tuple_node *kids;
	xrt_status *st = NULL;
	size_t k;

	memset(d, 0, sizeof(*d));
	d->input_index = msg->input_index;
	d->release_input = msg->release_input_handle;
	if (!msg->n_children)
		return NULL;
	kids = xrt_mem_calloc(s->a, msg->n_children, sizeof(*kids));
	if (!kids)
		return xrt_status_oom(s->a, "a tuple description");
	d->children = kids;
	for (k = 0; k < msg->n_children && !st; k++) {
		st = to_desc(s, msg->children[k], &kids[k]);
		d->num_children = (uint32_t)k + 1;
	}
	return st;
}

static void free_desc(xrt_session *s, const struct xrt_tuple_node *d)
{
	uint32_t k;

	for (k = 0; k < d->num_children; k++)
		free_desc(s, &d->children[k]);
	xrt_mem_free(s->a, (void *)d->children);
}

xrt_status *xrt_make_tuple_proto(xrt_session *s, const void *data, size_t size,
				 const xrt_handle *inputs, uint32_t num_inputs, xrt_handle *out)
{
	struct xrt_tuple_node desc;
	ProtobufCMessage *base;
	struct wire_alloc w;
	xrt_status *st;

	ARG_CHECK(s, s && out && (data || !size), "make tuple");
	wire_alloc_init(&w, s->a);
	st = wire_unpack(&w, &xrt__tuple_node__descriptor, data, size, "tuple node", &base);
	if (st)
		return st;
	st = to_desc(s, (const Xrt__TupleNode *)base, &desc);
	protobuf_c_message_free_unpacked(base, &w.pb);
	if (!st)
		st = xrt_make_tuple(s, &desc, inputs, num_inputs, out);
	free_desc(s, &desc);
	return st;
}

xrt_status *xrt_execute_proto(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			      uint32_t num_args, const void *config, size_t config_size,
			      xrt_handle *out)
{
	struct xrt_execution_config c;
	const Xrt__ExecutionConfig *msg;
	ProtobufCMessage *base;
	struct wire_alloc w;
	xrt_status *st;

	ARG_CHECK(s, s && out && (config || !config_size), "execute");
	wire_alloc_init(&w, s->a);
	st = wire_unpack(&w, &xrt__execution_config__descriptor, config, config_size,
			 "execution config", &base);
	if (st)
		return st;
	msg = (const Xrt__ExecutionConfig *)base;
	c = (struct xrt_execution_config){ msg->device_ordinal, msg->rng_seed,
					   msg->release_input_handles,
					   msg->release_compilation_handle };
	if (msg->core_index_in_replica)
		st = xrt_status_new(s->a, XRT_UNIMPLEMENTED,
				    "execute: core %d of a replica: one core is all there is for now",
				    msg->core_index_in_replica);
	protobuf_c_message_free_unpacked(base, &w.pb);
	return st ? st : xrt_execute(s, compilation, args, num_args, &c, out);
}
