// SPDX-License-Identifier: MIT
/*
 * Packing and unpacking protobuf-c messages through libxrt's allocator,
 * with the input checked before protobuf-c sees it.
 */
#include <stdint.h>
#include <string.h>

#include "core/mem.h"
#include "wire/wire.h"

/* The protobuf spec's limit on one message. */
#define WIRE_MAX_MESSAGE (((size_t)1 << 31) - 1)

static void *pb_alloc(void *data, size_t size)
{
	struct wire_alloc *w = data;
	void *p = xrt_mem_alloc(w->alloc, size);

	if (!p)
		w->failed = true;
	return p;
}

static void pb_free(void *data, void *ptr)
{
	struct wire_alloc *w = data;

	xrt_mem_free(w->alloc, ptr);
}

void wire_alloc_init(struct wire_alloc *w, const struct xrt_allocator *a)
{
	w->pb.alloc = pb_alloc;
	w->pb.free = pb_free;
	w->pb.allocator_data = w;
	w->alloc = a;
	w->failed = false;
}

xrt_status *wire_unpack(struct wire_alloc *w,
			const ProtobufCMessageDescriptor *desc,
			const void *data, size_t size, const char *what,
			ProtobufCMessage **out)
{
	xrt_status *st;

	*out = NULL;
	if (!data && size)
		return xrt_status_new(w->alloc, XRT_INVALID_ARGUMENT,
				      "%s: data is NULL", what);
	if (size > WIRE_MAX_MESSAGE)
		return xrt_status_new(w->alloc, XRT_INVALID_ARGUMENT,
				      "%s: %zu bytes exceed the 2 GiB message limit",
				      what, size);
	st = wire_check_nesting(w->alloc, desc, data, size, WIRE_MAX_NESTING);
	if (st)
		return xrt_status_annotate(st, "%s", what);
	*out = protobuf_c_message_unpack(desc, &w->pb, size, data);
	if (*out)
		return NULL;
	if (w->failed)
		return xrt_status_oom(w->alloc, what);
	return xrt_status_new(w->alloc, XRT_INVALID_ARGUMENT,
			      "%s: malformed %s message", what, desc->name);
}

xrt_status *wire_pack(const struct xrt_allocator *a,
		      const ProtobufCMessage *msg, void **out,
		      size_t *out_size)
{
	size_t n = protobuf_c_message_get_packed_size(msg);
	uint8_t *buf;

	if (n > WIRE_MAX_MESSAGE)
		return xrt_status_new(a, XRT_RESOURCE_EXHAUSTED,
				      "%zu bytes exceed the 2 GiB message limit",
				      n);
	buf = xrt_mem_alloc(a, n);
	if (!buf)
		return xrt_status_oom(a, "serialized bytes");
	if (protobuf_c_message_pack(msg, buf) != n) {
		xrt_mem_free(a, buf);
		return xrt_status_new(a, XRT_INTERNAL,
				      "packed size changed while packing");
	}
	*out = buf;
	*out_size = n;
	return NULL;
}
