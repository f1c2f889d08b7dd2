/* SPDX-License-Identifier: MIT */
/*
 * The wire format: shapes and literals as the serialized messages of
 * proto/xrt.proto (xrt.Shape, xrt.Literal).
 *
 * Serialization is deterministic: equal values give identical bytes, so
 * bytes can be hashed into fingerprints.  Deserialization validates
 * everything (types, dimensions, layouts, sizes, nesting depth, data
 * length) and names the first problem with its path, e.g.
 * "literal.tuple_elements[1].data: 12 bytes, shape f32[4]{0} needs 16".
 */
#ifndef XRT_WIRE_H
#define XRT_WIRE_H

#include <stddef.h>

#include <xrt/api.h>
#include <xrt/alloc.h>
#include <xrt/literal.h>
#include <xrt/shape.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * xrt_shape_serialize() - encode a shape as an xrt.Shape message
 * @shape: a valid shape
 * @alloc: allocator for the bytes and scratch (NULL: system)
 * @out: receives the bytes; free them with @alloc's free
 * @out_size: receives their length
 *
 * Return: NULL or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_shape_serialize(const struct xrt_shape *shape,
					const struct xrt_allocator *alloc,
					void **out, size_t *out_size);

/**
 * xrt_shape_deserialize() - decode and validate an xrt.Shape message
 * @shape: where to put the shape (previous content ignored)
 * @alloc: allocator (NULL: system)
 * @data: the bytes
 * @size: their length
 *
 * Return: NULL, INVALID_ARGUMENT naming the field, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_shape_deserialize(struct xrt_shape *shape,
					  const struct xrt_allocator *alloc,
					  const void *data, size_t size);

/**
 * xrt_literal_serialize() - encode a literal as an xrt.Literal message
 * @lit: a literal
 * @alloc: allocator for the bytes and scratch (NULL: system)
 * @out: receives the bytes; free them with @alloc's free
 * @out_size: receives their length
 *
 * Return: NULL, or RESOURCE_EXHAUSTED (also for a literal whose encoding
 * would not fit a protobuf message: 2 GiB).
 */
XRT_API xrt_status *xrt_literal_serialize(const xrt_literal *lit,
					  const struct xrt_allocator *alloc,
					  void **out, size_t *out_size);

/**
 * xrt_literal_from_xla_proto() - decode an xla.LiteralProto message
 * @alloc: allocator for the literal (NULL: system)
 * @data: the bytes, as XLA serializes a literal (HloSnapshot arguments,
 *	jax's serialized values)
 * @size: their length
 * @out: receives the literal
 *
 * The elements come from the field of their type (f32s, s32s, the bytes
 * of f16s, ...), in the order of the shape's layout.
 *
 * Return: NULL; INVALID_ARGUMENT for bytes that do not decode, an element
 * type XRT lacks, a tiled layout, dynamic dimensions, or values that do
 * not fill the shape; or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_literal_from_xla_proto(const struct xrt_allocator *alloc,
					       const void *data, size_t size,
					       xrt_literal **out);

/**
 * xrt_literal_to_xla_proto() - encode a literal as an xla.LiteralProto
 * @lit: the literal
 * @alloc: allocator for the bytes (NULL: system)
 * @out: receives the bytes; free them with xrt_free(@alloc, *@out)
 * @out_size: receives their length
 *
 * As the original XRT's XRTReadLiteral gives values: the shape with the
 * literal's layout, the elements in that layout's order in the field of
 * their type (pred as bools, 8- and 16-bit types as little-endian bytes);
 * tuples as tuple_literals.  xrt_literal_from_xla_proto() reads it back.
 *
 * Return: NULL, INVALID_ARGUMENT for a NULL argument, or
 * RESOURCE_EXHAUSTED (also past the 2 GiB a message may hold).
 */
XRT_API xrt_status *xrt_literal_to_xla_proto(const xrt_literal *lit,
					     const struct xrt_allocator *alloc,
					     void **out, size_t *out_size);

/**
 * xrt_xla_snapshot_values() - the values an xla.HloSnapshot recorded
 * @alloc: allocator for the literals and the array (NULL: system)
 * @data: the snapshot's bytes (XLA's --xla_dump_hlo_snapshots)
 * @size: their length
 * @args: receives an array of *@num_args literals (NULL when none); free
 *	each with xrt_literal_destroy() and the array with xrt_free(@alloc, ...)
 * @num_args: receives how many arguments it recorded
 * @result: receives the result it recorded, or NULL where it has none
 *
 * Each value reads as xrt_literal_from_xla_proto() reads one; the module
 * itself comes from xrt_hlo_parse_xla_proto().
 *
 * Return: NULL; INVALID_ARGUMENT for bytes that do not decode or a value
 * that does not (which one named); or RESOURCE_EXHAUSTED.  Nothing is
 * returned on failure.
 */
XRT_API xrt_status *xrt_xla_snapshot_values(const struct xrt_allocator *alloc,
					    const void *data, size_t size, xrt_literal ***args,
					    uint32_t *num_args, xrt_literal **result);

/**
 * xrt_literal_deserialize() - decode and validate an xrt.Literal message
 * @alloc: allocator for the literal (NULL: system)
 * @data: the bytes
 * @size: their length
 * @out: receives the literal
 *
 * Return: NULL, INVALID_ARGUMENT naming the field, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_literal_deserialize(const struct xrt_allocator *alloc,
					    const void *data, size_t size,
					    xrt_literal **out);

#ifdef __cplusplus
}
#endif

#endif /* XRT_WIRE_H */
