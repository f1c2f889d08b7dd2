// SPDX-License-Identifier: MIT
/*
 * The XRT API over the wire format, as the seed's ops take it: allocate
 * from an xrt.Allocation, make a tuple from an xrt.TupleNode, execute
 * with an xrt.ExecutionConfig, read back an xrt.Literal (compiling is in
 * xrt_proto_compile.c).  The messages carry the original XRT's field
 * numbers, so its clients' bytes read.  Each is checked (nesting first,
 * then every field) before anything happens; the data path has raw-byte
 * calls too.
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
	else if (msg->contents_case == XRT__ALLOCATION__CONTENTS_VALUE)
		st = wire_literal_from_xla(s->a, msg->value, &lit);
	else if (msg->contents_case == XRT__ALLOCATION__CONTENTS_LITERAL)
		st = wire_literal_from_msg(s->a, msg->literal, "literal", &lit);
	else
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "allocate: the allocation has no value (an xla.LiteralProto) "
				    "or literal (an xrt.Literal)");
	if (st && msg->contents_case == XRT__ALLOCATION__CONTENTS_VALUE)
		st = xrt_status_annotate(st, "allocate: value");
	protobuf_c_message_free_unpacked(base, &w.pb);
	if (!st)
		st = xrt_allocate(s, lit, out);
	xrt_literal_destroy(lit);
	return st;
}

/* Allocation @h read back and encoded by @encode. */
static xrt_status *read_encoded(xrt_session *s, xrt_handle h, bool release,
				const struct xrt_allocator *a, void **out, size_t *out_size,
				xrt_status *(*encode)(const xrt_literal *lit,
						      const struct xrt_allocator *a,
						      void **out, size_t *out_size))
{
	xrt_literal *lit = NULL;
	xrt_status *st;

	ARG_CHECK(s, s && out && out_size, "read literal");
	*out = NULL;
	*out_size = 0;
	st = xrt_read_literal(s, h, false, &lit);
	if (!st)
		st = encode(lit, a, out, out_size);
	xrt_literal_destroy(lit);
	if (!st && release)
		xnode_unref(s, xalloc_take(s, h));
	return st;
}

xrt_status *xrt_read_proto(xrt_session *s, xrt_handle h, bool release,
			   const struct xrt_allocator *a, void **out, size_t *out_size)
{
	return read_encoded(s, h, release, a, out, out_size, xrt_literal_serialize);
}

xrt_status *xrt_read_xla_proto(xrt_session *s, xrt_handle h, bool release,
			       const struct xrt_allocator *a, void **out, size_t *out_size)
{
	return read_encoded(s, h, release, a, out, out_size, xrt_literal_to_xla_proto);
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

/* The execution options @msg gives, or why they cannot be honoured. */
/* Where a run of the XRT ops is: its replica and core, and the execution it joins. */
struct exec_place {
	char key[XRT_MAX_INSTANCE_KEY + 1];	/* "": runs alone */
	uint32_t replica, core;
};

static xrt_status *exec_options(xrt_session *s, const Xrt__ExecutionConfig *msg,
				struct xrt_execution_config *c, struct exec_place *at)
{
	const Xrt__CommonExecutionConfig *cc = msg->common_config;
	const char *key = msg->execution_instance_key ? msg->execution_instance_key : "";
	size_t i;

	*c = (struct xrt_execution_config){ msg->device_ordinal, msg->rng_seed,
					    msg->release_input_handles,
					    msg->release_compilation_handle };
	memset(at, 0, sizeof(*at));
	if (strlen(key) > XRT_MAX_INSTANCE_KEY)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT, "execute: an "
				      "execution_instance_key of %zu bytes; at most %d",
				      strlen(key), XRT_MAX_INSTANCE_KEY);
	strcpy(at->key, key);
	if (msg->core_index_in_replica < 0 || (cc && cc->replica_id < 0))
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT, "execute: replica %d, core %d",
				      cc ? cc->replica_id : 0, msg->core_index_in_replica);
	at->replica = cc ? (uint32_t)cc->replica_id : 0;
	at->core = (uint32_t)msg->core_index_in_replica;
	if (!*key && (at->replica || at->core))
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "execute: replica %u, core %u without an "
				      "execution_instance_key: the calls of one replicated "
				      "execution join by their key", at->replica, at->core);
	for (i = 0; cc && i < cc->n_local_replica_mapping; i++) {
		if (cc->local_replica_mapping[i])
			return xrt_status_new(s->a, XRT_UNIMPLEMENTED,
					      "execute: local device %zu runs replica %d: each call "
					      "runs one device; join them by execution_instance_key",
					      i, cc->local_replica_mapping[i]);
	}
	return NULL;	/* run_id only tells concurrent runs apart */
}

/*
 * The result @h as the original XRT returns it: itself, or with @explode
 * and a tuple, one handle per element (an empty tuple gives none; @h
 * goes).  On failure nothing is left.
 */
static xrt_status *result_handles(xrt_session *s, xrt_handle h, bool explode,
				  const struct xrt_allocator *a, xrt_handle **out,
				  uint32_t *num_out)
{
	struct xrt_shape shape;
	xrt_handle *hs = NULL;
	xrt_status *st;
	uint32_t i = 0, n;
	bool tuple;

	st = xrt_allocation_shape(s, h, NULL, &shape);
	if (st)
		goto fail;
	tuple = explode && shape.dtype == XRT_TUPLE;
	n = tuple ? shape.tuple_count : 1;
	xrt_shape_deinit(&shape);
	hs = xrt_mem_calloc(a, n ? n : 1, sizeof(*hs));
	if (!hs) {
		st = xrt_status_oom(s->a, "the result handles");
		goto fail;
	}
	if (!tuple) {
		*hs = h;
		*out = hs;
		*num_out = 1;
		return NULL;
	}
	for (; i < n && !st; i++)
		st = xrt_sub_tuple(s, h, (const int64_t[]){ i }, 1, false, &hs[i]);
	if (st) {
		xrt_status_free(xrt_release_allocations(s, hs, i - 1));
		goto fail;
	}
	xrt_status_free(xrt_release_allocations(s, &h, 1));
	*out = hs;
	*num_out = n;
	return NULL;
fail:
	xrt_mem_free(a, hs);
	xrt_status_free(xrt_release_allocations(s, &h, 1));
	return st;
}

/* The options of config message @config, and whether it asks to explode. */
static xrt_status *exec_config(xrt_session *s, const void *config, size_t config_size,
			       struct xrt_execution_config *c, bool *exploded,
			       struct exec_place *at)
{
	ProtobufCMessage *base;
	struct wire_alloc w;
	xrt_status *st;

	wire_alloc_init(&w, s->a);
	st = wire_unpack(&w, &xrt__execution_config__descriptor, config, config_size,
			 "execution config", &base);
	if (st)
		return st;
	st = exec_options(s, (const Xrt__ExecutionConfig *)base, c, at);
	*exploded = ((const Xrt__ExecutionConfig *)base)->return_exploded_tuple;
	protobuf_c_message_free_unpacked(base, &w.pb);
	return st;
}

xrt_status *xrt_execute_proto_handles(xrt_session *s, xrt_handle compilation,
				      const xrt_handle *args, uint32_t num_args,
				      const void *config, size_t config_size,
				      const struct xrt_allocator *a, xrt_handle **out,
				      uint32_t *num_out)
{
	struct xrt_execution_config c;
	struct exec_place at;
	bool exploded;
	xrt_handle r;
	xrt_status *st;

	ARG_CHECK(s, s && out && num_out && (config || !config_size), "execute");
	*out = NULL;
	*num_out = 0;
	st = exec_config(s, config, config_size, &c, &exploded, &at);
	if (!st)
		st = *at.key ? xexec_join(s, compilation, args, num_args, &c, at.key, at.replica,
					  at.core, &r) :
			       xrt_execute(s, compilation, args, num_args, &c, &r);
	return st ? st : result_handles(s, r, exploded, a, out, num_out);
}

xrt_status *xrt_execute_proto(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			      uint32_t num_args, const void *config, size_t config_size,
			      xrt_handle *out)
{
	struct xrt_execution_config c;
	struct exec_place at;
	bool exploded;
	xrt_status *st;

	ARG_CHECK(s, s && out && (config || !config_size), "execute");
	st = exec_config(s, config, config_size, &c, &exploded, &at);
	if (!st && exploded)
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "execute: return_exploded_tuple asks for a handle per "
				    "element; xrt_execute_proto_handles() gives them");
	if (st)
		return st;
	return *at.key ? xexec_join(s, compilation, args, num_args, &c, at.key, at.replica,
				    at.core, out) :
			 xrt_execute(s, compilation, args, num_args, &c, out);
}
