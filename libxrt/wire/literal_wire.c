// SPDX-License-Identifier: MIT
/*
 * xrt.Literal messages <-> literals.
 *
 * Every Literal message carries its shape, tuple elements included, so
 * any sub-message reads on its own; a tuple's elements must have exactly
 * the element shapes its own shape names.
 */
#include <stdio.h>
#include <string.h>

#include <xrt/wire.h>

#include "core/literal.h"
#include "core/mem.h"
#include "wire/wire.h"

#define PATH_MAX_LEN 160

/*
 * Checks @msg against @shape (the literal's shape, from the root
 * message) before anything is allocated for data: a few bytes of
 * message may declare an enormous shape.
 */
static xrt_status *check(const struct xrt_shape *shape,
			 const struct xrt_allocator *a,
			 const Xrt__Literal *msg, const char *path)
{
	char sub[PATH_MAX_LEN];
	struct xrt_shape mine;
	xrt_status *st;
	uint32_t i;

	if (!xrt_shape_is_tuple(shape)) {
		uint64_t need = xrt_shape_byte_size(shape);

		if (msg->n_tuple_elements)
			return xrt_status_new(a, XRT_INVALID_ARGUMENT,
					      "%s.tuple_elements: %zu elements in an array literal",
					      path, msg->n_tuple_elements);
		if (msg->data.len != need)
			return xrt_status_new(a, XRT_INVALID_ARGUMENT,
					      "%s.data: %zu bytes, the shape needs %llu",
					      path, msg->data.len,
					      (unsigned long long)need);
		if (shape->dtype != XRT_PRED)
			return NULL;
		st = xrt_literal_check_preds(a, msg->data.data, msg->data.len);
		return st ? xrt_status_annotate(st, "%s.data", path) : NULL;
	}
	if (msg->data.len)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "%s.data: %zu bytes in a tuple literal",
				      path, msg->data.len);
	if (msg->n_tuple_elements != shape->tuple_count)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "%s.tuple_elements: %zu elements, the shape has %u",
				      path, msg->n_tuple_elements,
				      shape->tuple_count);
	for (i = 0; i < shape->tuple_count; i++) {
		const Xrt__Literal *e = msg->tuple_elements[i];

		snprintf(sub, sizeof(sub), "%s.tuple_elements[%u]", path, i);
		st = wire_shape_from_msg(&mine, a, e->shape, sub);
		if (st)
			return st;
		if (!xrt_shape_equal(&mine, &shape->tuple[i]))
			st = xrt_status_new(a, XRT_INVALID_ARGUMENT,
					    "%s.shape differs from element %u of the tuple's shape",
					    sub, i);
		xrt_shape_deinit(&mine);
		if (!st)
			st = check(&shape->tuple[i], a, e, sub);
		if (st)
			return st;
	}
	return NULL;
}

/* Copies the data of a checked message into a literal of its shape. */
static void fill(xrt_literal *lit, const Xrt__Literal *msg)
{
	uint32_t i;

	if (lit->data) {
		if (lit->size)
			memcpy(lit->data, msg->data.data, lit->size);
		return;
	}
	for (i = 0; i < lit->shape.tuple_count; i++)
		fill(lit->elements[i], msg->tuple_elements[i]);
}

xrt_status *wire_literal_from_msg(const struct xrt_allocator *alloc,
				  const Xrt__Literal *msg, const char *path,
				  xrt_literal **out)
{
	struct xrt_shape shape;
	char spath[PATH_MAX_LEN];
	xrt_status *st;

	*out = NULL;
	snprintf(spath, sizeof(spath), "%s.shape", path);
	st = wire_shape_from_msg(&shape, alloc, msg->shape, spath);
	if (st)
		return st;
	st = xrt_shape_validate(&shape);
	if (st)
		st = xrt_status_annotate(st, "%s", spath);
	if (!st)
		st = check(&shape, alloc, msg, path);
	if (!st)
		st = xrt_literal_create_uninit(alloc, &shape, out);
	if (!st)
		fill(*out, msg);
	xrt_shape_deinit(&shape);
	return st;
}

xrt_status *xrt_literal_deserialize(const struct xrt_allocator *alloc,
				    const void *data, size_t size,
				    xrt_literal **out)
{
	ProtobufCMessage *base;
	struct wire_alloc w;
	xrt_status *st;

	if (!out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal deserialize: out is NULL");
	*out = NULL;
	wire_alloc_init(&w, alloc);
	st = wire_unpack(&w, &xrt__literal__descriptor, data, size, "literal",
			 &base);
	if (st)
		return st;
	st = wire_literal_from_msg(alloc, (const Xrt__Literal *)base, "literal", out);
	protobuf_c_message_free_unpacked(base, &w.pb);
	return st;
}

void wire_literal_msg_free(const struct xrt_allocator *a, Xrt__Literal *msg)
{
	size_t i;

	if (!msg)
		return;
	for (i = 0; i < msg->n_tuple_elements; i++)
		wire_literal_msg_free(a, msg->tuple_elements[i]);
	xrt_mem_free(a, msg->tuple_elements);
	wire_shape_msg_free(a, msg->shape);
	xrt_mem_free(a, msg);
}

/* Builds the message tree; array data is borrowed from the literal. */
xrt_status *wire_literal_to_msg(const xrt_literal *lit,
				const struct xrt_allocator *a, Xrt__Literal **out)
{
	Xrt__Literal *msg = xrt_mem_alloc(a, sizeof(*msg));
	xrt_status *st;
	uint32_t i, n = xrt_literal_tuple_count(lit);

	*out = NULL;
	if (!msg)
		return xrt_status_oom(a, "a literal message");
	xrt__literal__init(msg);
	st = wire_shape_to_msg(&lit->shape, a, &msg->shape);
	if (!st && lit->data) {
		msg->data.len = lit->size;
		msg->data.data = lit->data;
	}
	if (!st && n) {
		msg->tuple_elements = xrt_mem_calloc(a, n,
						     sizeof(*msg->tuple_elements));
		if (!msg->tuple_elements)
			st = xrt_status_oom(a, "a literal message");
	}
	for (i = 0; !st && i < n; i++) {
		st = wire_literal_to_msg(lit->elements[i], a, &msg->tuple_elements[i]);
		msg->n_tuple_elements = i + 1;
	}
	if (st) {
		wire_literal_msg_free(a, msg);
		return st;
	}
	*out = msg;
	return NULL;
}

xrt_status *xrt_literal_serialize(const xrt_literal *lit,
				  const struct xrt_allocator *alloc,
				  void **out, size_t *out_size)
{
	Xrt__Literal *msg;
	xrt_status *st;

	if (!lit || !out || !out_size)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "literal serialize: NULL argument");
	st = wire_literal_to_msg(lit, alloc, &msg);
	if (st)
		return st;
	st = wire_pack(alloc, &msg->base, out, out_size);
	wire_literal_msg_free(alloc, msg);
	return st;
}
