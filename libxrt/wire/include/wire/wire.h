/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the wire-format converters.
 */
#ifndef XRT_WIRE_INTERNAL_H
#define XRT_WIRE_INTERNAL_H

#include <protobuf-c/protobuf-c.h>

#include <xrt/literal.h>
#include <xrt/shape.h>

#include "xla.pb-c.h"
#include "xrt.pb-c.h"

/* Deepest message nesting accepted on the wire, before unpacking. */
#define WIRE_MAX_NESTING (2 * XRT_MAX_TUPLE_DEPTH + 8)

/*
 * A protobuf-c allocator over an xrt_allocator that remembers whether an
 * allocation failed, since protobuf-c reports that like malformed input.
 */
struct wire_alloc {
	ProtobufCAllocator pb;
	const struct xrt_allocator *alloc;
	bool failed;
};

void wire_alloc_init(struct wire_alloc *w, const struct xrt_allocator *a);

/*
 * Checks the bytes and unpacks them as @desc; names @what in errors.
 * Free the result with protobuf_c_message_free_unpacked(msg, &w->pb).
 */
xrt_status *wire_unpack(struct wire_alloc *w,
			const ProtobufCMessageDescriptor *desc,
			const void *data, size_t size, const char *what,
			ProtobufCMessage **out);

/* Packs @msg into newly allocated bytes. */
xrt_status *wire_pack(const struct xrt_allocator *a,
		      const ProtobufCMessage *msg, void **out,
		      size_t *out_size);

/*
 * Checks that @data is well-formed wire data for @desc with messages
 * nested at most @max_depth deep.  Returns NULL or INVALID_ARGUMENT.
 */
xrt_status *wire_check_nesting(const struct xrt_allocator *a,
			       const ProtobufCMessageDescriptor *desc,
			       const uint8_t *data, size_t size,
			       unsigned int max_depth);

/* Shape <-> message.  @path names the field in errors, e.g. "shape". */
xrt_status *wire_shape_from_msg(struct xrt_shape *shape,
				const struct xrt_allocator *a,
				const Xrt__Shape *msg, const char *path);
xrt_status *wire_shape_to_msg(const struct xrt_shape *shape,
			      const struct xrt_allocator *a,
			      Xrt__Shape **out);
void wire_shape_msg_free(const struct xrt_allocator *a, Xrt__Shape *msg);

/* Literal <-> message; the message borrows the literal's data. */
xrt_status *wire_literal_to_msg(const xrt_literal *lit,
				const struct xrt_allocator *a, Xrt__Literal **out);
void wire_literal_msg_free(const struct xrt_allocator *a, Xrt__Literal *msg);
xrt_status *wire_literal_from_msg(const struct xrt_allocator *alloc,
				  const Xrt__Literal *msg, const char *path,
				  xrt_literal **out);

/* A literal from an unpacked xla.LiteralProto (xla_literal.c). */
xrt_status *wire_literal_from_xla(const struct xrt_allocator *a, const Xla__LiteralProto *l,
				  xrt_literal **out);

/* A shape from an unpacked xla.ShapeProto (xla_literal.c). */
/* XRT's type of an xla.PrimitiveType (tuples and unknown ones: XRT_INVALID). */
enum xrt_dtype wire_dtype_from_xla(int t);
/*
 * The bytes field holding @l's values of type @t, for the types stored
 * one byte per element (s4 ... f8e8m0fnu); NULL for every other type.
 */
ProtobufCBinaryData *wire_xla_byte_values(Xla__LiteralProto *l, enum xrt_dtype t);
xrt_status *wire_shape_from_xla(const struct xrt_allocator *a, const Xla__ShapeProto *s,
				struct xrt_shape *out);

/* A module from an unpacked xla.HloModuleProto (xla_proto.c). */
struct xrt_module;
xrt_status *xla_module_from_msg(const struct xrt_allocator *alloc, const Xla__HloModuleProto *m,
				struct xrt_module **out);

/* A module from an unpacked xrt.IrModule message (ir_wire_read.c). */
xrt_status *ir_module_from_msg(const struct xrt_allocator *alloc, const Xrt__IrModule *msg,
			       struct xrt_module **out);

#endif /* XRT_WIRE_INTERNAL_H */
