// SPDX-License-Identifier: MIT
/*
 * xrt.Shape messages <-> struct xrt_shape.
 *
 * Encoding is canonical: arrays of rank > 0 always carry their layout,
 * scalars and tuples never do, so equal shapes give equal bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <xrt/wire.h>

#include "core/mem.h"
#include "core/shape.h"
#include "wire/wire.h"

/* Room for a path like "literal.tuple_elements[12].shape.tuple_shapes[3]". */
#define PATH_MAX_LEN 160

__attribute__((format(printf, 3, 4)))
static xrt_status *field_error(const struct xrt_allocator *a,
			       const char *path, const char *fmt, ...)
{
	char msg[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return xrt_status_new(a, XRT_INVALID_ARGUMENT, "%s: %s", path, msg);
}

static xrt_status *array_from_msg(struct xrt_shape *shape,
				  const struct xrt_allocator *a,
				  const Xrt__Shape *msg, const char *path)
{
	int64_t m2m[XRT_MAX_RANK];
	xrt_status *st;
	size_t i;

	if (msg->n_tuple_shapes)
		return field_error(a, path, "array shape with %lld tuple_shapes",
				   (long long)msg->n_tuple_shapes);
	if (msg->n_dimensions > XRT_MAX_RANK)
		return field_error(a, path, "rank %lld exceeds the maximum 8",
				   (long long)msg->n_dimensions);
	st = xrt_shape_init_array(shape, (enum xrt_dtype)msg->element_type,
				  (uint32_t)msg->n_dimensions, msg->dimensions);
	if (st)
		return xrt_status_annotate(st, "%s", path);
	if (!msg->layout)
		return NULL;
	if (msg->layout->n_minor_to_major != msg->n_dimensions)
		return field_error(a, path, "layout length differs from rank %lld",
				   (long long)msg->n_dimensions);
	for (i = 0; i < msg->n_dimensions; i++)
		m2m[i] = msg->layout->minor_to_major[i];
	st = xrt_shape_set_layout(shape, m2m);
	if (st)
		return xrt_status_annotate(st, "%s.layout", path);
	return NULL;
}

static xrt_status *tuple_from_msg(struct xrt_shape *shape,
				  const struct xrt_allocator *a,
				  const Xrt__Shape *msg, const char *path)
{
	char sub[PATH_MAX_LEN];
	xrt_status *st;
	size_t i, n = msg->n_tuple_shapes;

	if (msg->n_dimensions || msg->layout)
		return field_error(a, path, "tuple shape with %lld dimensions or a layout",
				   (long long)msg->n_dimensions);
	if (n > XRT_MAX_TUPLE_SIZE)
		return field_error(a, path, "tuple of %lld elements is too large",
				   (long long)n);
	shape->dtype = XRT_TUPLE;
	shape->allocator = a;
	if (!n)
		return NULL;
	shape->tuple = xrt_mem_calloc(a, n, sizeof(*shape->tuple));
	if (!shape->tuple)
		return xrt_status_oom(a, "a tuple shape");
	for (i = 0; i < n; i++) {
		shape->tuple_count = (uint32_t)i + 1;
		snprintf(sub, sizeof(sub), "%s.tuple_shapes[%zu]", path, i);
		st = wire_shape_from_msg(&shape->tuple[i], a,
					 msg->tuple_shapes[i], sub);
		if (st)
			return st;
	}
	return NULL;
}

xrt_status *wire_shape_from_msg(struct xrt_shape *shape,
				const struct xrt_allocator *a,
				const Xrt__Shape *msg, const char *path)
{
	xrt_status *st;

	memset(shape, 0, sizeof(*shape));
	if (!msg)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "%s: missing",
				      path);
	if (msg->element_type == XRT__ELEMENT_TYPE__TUPLE)
		st = tuple_from_msg(shape, a, msg, path);
	else if (!xrt_dtype_is_array((enum xrt_dtype)msg->element_type))
		st = field_error(a, path, msg->element_type ?
				 "unknown element_type %lld" :
				 "element_type missing (%lld)",
				 (long long)msg->element_type);
	else
		st = array_from_msg(shape, a, msg, path);
	if (st)
		xrt_shape_deinit(shape);
	return st;
}

/* One message node with room for its layout. */
struct shape_node {
	Xrt__Shape msg;
	Xrt__Layout layout;
	int64_t m2m[XRT_MAX_RANK];
};

void wire_shape_msg_free(const struct xrt_allocator *a, Xrt__Shape *msg)
{
	size_t i;

	if (!msg)
		return;
	for (i = 0; i < msg->n_tuple_shapes; i++)
		wire_shape_msg_free(a, msg->tuple_shapes[i]);
	xrt_mem_free(a, msg->tuple_shapes);
	/* msg is the first member of its shape_node. */
	xrt_mem_free(a, msg);
}

xrt_status *wire_shape_to_msg(const struct xrt_shape *shape,
			      const struct xrt_allocator *a,
			      Xrt__Shape **out)
{
	struct shape_node *n = xrt_mem_alloc(a, sizeof(*n));
	xrt_status *st;
	uint32_t i;

	if (!n)
		return xrt_status_oom(a, "a shape message");
	xrt__shape__init(&n->msg);
	n->msg.element_type = (Xrt__ElementType)shape->dtype;
	*out = &n->msg;
	if (!xrt_shape_is_tuple(shape)) {
		/* Packing only reads: the dims are borrowed, not copied. */
		n->msg.n_dimensions = shape->rank;
		n->msg.dimensions = (int64_t *)shape->dims;
		if (!shape->rank)
			return NULL;
		xrt__layout__init(&n->layout);
		for (i = 0; i < shape->rank; i++)
			n->m2m[i] = shape->minor_to_major[i];
		n->layout.n_minor_to_major = shape->rank;
		n->layout.minor_to_major = n->m2m;
		n->msg.layout = &n->layout;
		return NULL;
	}
	if (!shape->tuple_count)
		return NULL;
	n->msg.tuple_shapes = xrt_mem_calloc(a, shape->tuple_count,
					     sizeof(*n->msg.tuple_shapes));
	if (!n->msg.tuple_shapes) {
		xrt_mem_free(a, n);
		*out = NULL;
		return xrt_status_oom(a, "a shape message");
	}
	for (i = 0; i < shape->tuple_count; i++) {
		n->msg.n_tuple_shapes = i + 1;
		st = wire_shape_to_msg(&shape->tuple[i], a,
				       &n->msg.tuple_shapes[i]);
		if (st) {
			n->msg.n_tuple_shapes = i;
			wire_shape_msg_free(a, &n->msg);
			*out = NULL;
			return st;
		}
	}
	return NULL;
}

xrt_status *xrt_shape_serialize(const struct xrt_shape *shape,
				const struct xrt_allocator *alloc, void **out,
				size_t *out_size)
{
	Xrt__Shape *msg;
	xrt_status *st;

	if (!out || !out_size)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "shape serialize: NULL argument");
	st = xrt_shape_validate(shape);
	if (st)
		return xrt_status_annotate(st, "shape serialize");
	st = wire_shape_to_msg(shape, alloc, &msg);
	if (st)
		return st;
	st = wire_pack(alloc, &msg->base, out, out_size);
	wire_shape_msg_free(alloc, msg);
	return st;
}

xrt_status *xrt_shape_deserialize(struct xrt_shape *shape,
				  const struct xrt_allocator *alloc,
				  const void *data, size_t size)
{
	ProtobufCMessage *msg;
	struct wire_alloc w;
	xrt_status *st;

	if (!shape)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "shape deserialize: shape is NULL");
	memset(shape, 0, sizeof(*shape));
	wire_alloc_init(&w, alloc);
	st = wire_unpack(&w, &xrt__shape__descriptor, data, size, "shape",
			 &msg);
	if (st)
		return st;
	st = wire_shape_from_msg(shape, alloc, (Xrt__Shape *)msg, "shape");
	if (!st) {
		st = xrt_shape_validate(shape);
		if (st) {
			xrt_shape_deinit(shape);
			st = xrt_status_annotate(st, "shape");
		}
	}
	protobuf_c_message_free_unpacked(msg, &w.pb);
	return st;
}
