// SPDX-License-Identifier: MIT
/*
 * xla.LiteralProto, as XLA serializes values (HloSnapshot arguments,
 * constants): a ShapeProto and the elements in the field of their type,
 * in the order of the shape's layout, which is how an xrt_literal keeps
 * them too.
 */
#include <stdint.h>
#include <string.h>

#include <xrt/wire.h>

#include "core/literal.h"
#include "core/mem.h"
#include "wire/wire.h"
#include "xla.pb-c.h"

enum xrt_dtype wire_dtype_from_xla(int t)
{
	switch (t) {
	case XLA__PRIMITIVE_TYPE__PRED: return XRT_PRED;
	case XLA__PRIMITIVE_TYPE__S8: return XRT_S8;
	case XLA__PRIMITIVE_TYPE__S16: return XRT_S16;
	case XLA__PRIMITIVE_TYPE__S32: return XRT_S32;
	case XLA__PRIMITIVE_TYPE__S64: return XRT_S64;
	case XLA__PRIMITIVE_TYPE__U8: return XRT_U8;
	case XLA__PRIMITIVE_TYPE__U16: return XRT_U16;
	case XLA__PRIMITIVE_TYPE__U32: return XRT_U32;
	case XLA__PRIMITIVE_TYPE__U64: return XRT_U64;
	case XLA__PRIMITIVE_TYPE__F16: return XRT_F16;
	case XLA__PRIMITIVE_TYPE__BF16: return XRT_BF16;
	case XLA__PRIMITIVE_TYPE__F32: return XRT_F32;
	case XLA__PRIMITIVE_TYPE__F64: return XRT_F64;
	case XLA__PRIMITIVE_TYPE__C64: return XRT_C64;
	case XLA__PRIMITIVE_TYPE__C128: return XRT_C128;
	case XLA__PRIMITIVE_TYPE__S4: return XRT_S4;
	case XLA__PRIMITIVE_TYPE__U4: return XRT_U4;
	case XLA__PRIMITIVE_TYPE__S2: return XRT_S2;
	case XLA__PRIMITIVE_TYPE__U2: return XRT_U2;
	case XLA__PRIMITIVE_TYPE__F8E5M2: return XRT_F8E5M2;
	case XLA__PRIMITIVE_TYPE__F8E4M3FN: return XRT_F8E4M3FN;
	case XLA__PRIMITIVE_TYPE__F8E4M3B11FNUZ: return XRT_F8E4M3B11FNUZ;
	case XLA__PRIMITIVE_TYPE__F8E5M2FNUZ: return XRT_F8E5M2FNUZ;
	case XLA__PRIMITIVE_TYPE__F8E4M3FNUZ: return XRT_F8E4M3FNUZ;
	case XLA__PRIMITIVE_TYPE__F8E4M3: return XRT_F8E4M3;
	case XLA__PRIMITIVE_TYPE__F8E3M4: return XRT_F8E3M4;
	case XLA__PRIMITIVE_TYPE__F8E8M0FNU: return XRT_F8E8M0FNU;
	case XLA__PRIMITIVE_TYPE__F4E2M1FN: return XRT_F4E2M1FN;
	default: return XRT_INVALID;
	}
}

ProtobufCBinaryData *wire_xla_byte_values(Xla__LiteralProto *l, enum xrt_dtype t)
{
	switch (t) {
	case XRT_S4: return &l->s4s;
	case XRT_U4: return &l->u4s;
	case XRT_S2: return &l->s2s;
	case XRT_U2: return &l->u2s;
	case XRT_F8E5M2: return &l->f8e5m2s;
	case XRT_F8E4M3FN: return &l->f8e4m3fns;
	case XRT_F8E4M3B11FNUZ: return &l->f8e4m3b11fnuzs;
	case XRT_F8E5M2FNUZ: return &l->f8e5m2fnuzs;
	case XRT_F8E4M3FNUZ: return &l->f8e4m3fnuzs;
	case XRT_F8E4M3: return &l->f8e4m3s;
	case XRT_F8E3M4: return &l->f8e3m4s;
	case XRT_F8E8M0FNU: return &l->f8e8m0fnus;
	case XRT_F4E2M1FN: return &l->f4e2m1fns;
	default: return NULL;
	}
}

static xrt_status *bad(const struct xrt_allocator *a, const char *what)
{
	return xrt_status_new(a, XRT_INVALID_ARGUMENT, "xla.LiteralProto: %s", what);
}

static xrt_status *shape_bad(const struct xrt_allocator *a, const char *what)
{
	return xrt_status_new(a, XRT_INVALID_ARGUMENT, "xla.ShapeProto: %s", what);
}

static xrt_status *shape_from(const struct xrt_allocator *a, const Xla__ShapeProto *s,
			      struct xrt_shape *out, int depth)
{
	struct xrt_shape elems[8] = { { 0 } }, *e = elems;
	int64_t m2m[XRT_MAX_RANK];
	xrt_status *st = NULL;
	enum xrt_dtype t;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	if (!s)
		return shape_bad(a, "a shape is missing");
	if (depth > XRT_MAX_TUPLE_DEPTH)
		return shape_bad(a, "tuples nest too deep");
	if (s->element_type == XLA__PRIMITIVE_TYPE__TUPLE) {
		n = s->n_tuple_shapes;
		if (n > XRT_MAX_TUPLE_SIZE)
			return shape_bad(a, "a tuple has too many elements");
		if (n > 8)
			e = xrt_mem_calloc(a, n, sizeof(*e));
		if (!e)
			return xrt_status_oom(a, "a literal's shape");
		for (i = 0; i < n && !st; i++)
			st = shape_from(a, s->tuple_shapes[i], &e[i], depth + 1);
		if (!st)
			st = xrt_shape_init_tuple(out, a, e, (uint32_t)n);
		while (i--)
			xrt_shape_deinit(&e[i]);
		if (e != elems)
			xrt_mem_free(a, e);
		return st;
	}
	t = wire_dtype_from_xla(s->element_type);
	if (t == XRT_INVALID)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "xla.ShapeProto: element type %d is not supported",
				      s->element_type);
	if (s->n_dimensions > XRT_MAX_RANK)
		return shape_bad(a, "more than 8 dimensions");
	for (i = 0; i < s->n_is_dynamic_dimension; i++) {
		if (s->is_dynamic_dimension[i])
			return shape_bad(a, "dynamic dimensions are not supported");
	}
	st = xrt_shape_init_array(out, t, (uint32_t)s->n_dimensions, s->dimensions);
	if (st || !s->layout)
		return st;
	if (s->layout->n_tiles)
		st = shape_bad(a, "tiled layouts are not supported");
	else if (s->layout->element_size_in_bits &&
		 (s->layout->element_size_in_bits != xrt_dtype_bits(t) ||
		  xrt_dtype_bits(t) >= 8))	/* XLA's packing of s4: same values */
		st = shape_bad(a, "a layout's element size is supported only as the width of "
			       "a sub-byte type");
	else if (!s->layout->n_minor_to_major)
		return NULL;	/* the default */
	else if (s->layout->n_minor_to_major != s->n_dimensions)
		st = shape_bad(a, "a layout's length differs from its shape's rank");
	if (!st) {
		memcpy(m2m, s->layout->minor_to_major, s->n_dimensions * sizeof(m2m[0]));
		st = xrt_shape_set_layout(out, m2m);
	}
	if (st)
		xrt_shape_deinit(out);
	return st;
}

xrt_status *wire_shape_from_xla(const struct xrt_allocator *a, const Xla__ShapeProto *s,
				struct xrt_shape *out)
{
	return shape_from(a, s, out, 0);
}

/* The elements in @b of @es bytes each; SIZE_MAX if it holds a partial one. */
static size_t count_of(size_t bytes, size_t es)
{
	return bytes % es ? SIZE_MAX : bytes / es;
}

/* Copies @n elements of @es bytes from @src (@have of them) into @dst. */
static xrt_status *take(const struct xrt_allocator *a, void *dst, const void *src,
			size_t have, uint64_t n, size_t es)
{
	if (have != n)
		return have == SIZE_MAX ?
		       bad(a, "a value field holds part of an element") :
		       xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "xla.LiteralProto: %zu values for %llu elements", have,
				      (unsigned long long)n);
	if (n && es)
		memcpy(dst, src, n * es);
	return NULL;
}

/* How many elements of type @t @l holds (SIZE_MAX: part of one). */
static size_t held(const Xla__LiteralProto *l, enum xrt_dtype t)
{
	const ProtobufCBinaryData *b = wire_xla_byte_values((Xla__LiteralProto *)l, t);

	if (b)
		return b->len;
	switch (t) {
	case XRT_PRED: return l->n_preds;
	case XRT_S8: return l->s8s.len;
	case XRT_U8: return l->u8s.len;
	case XRT_S16: return count_of(l->s16s.len, 2);
	case XRT_U16: return count_of(l->u16s.len, 2);
	case XRT_F16: return count_of(l->f16s.len, 2);
	case XRT_BF16: return count_of(l->bf16s.len, 2);
	case XRT_S32: return l->n_s32s;
	case XRT_U32: return l->n_u32s;
	case XRT_S64: return l->n_s64s;
	case XRT_U64: return l->n_u64s;
	case XRT_F32: return l->n_f32s;
	case XRT_F64: return l->n_f64s;
	case XRT_C64: return count_of(l->n_c64s, 2);
	default: return count_of(l->n_c128s, 2);
	}
}

/*
 * Checks, before anything is allocated for it, that @l's values fill
 * @s: a shape of terabytes is refused for want of values, not tried.
 */
static xrt_status *check_counts(const struct xrt_allocator *a, const Xla__LiteralProto *l,
				const struct xrt_shape *s)
{
	xrt_status *st = NULL;
	uint32_t i;

	if (!l)
		return bad(a, "a tuple element's literal is missing");
	if (!xrt_shape_is_tuple(s))
		return take(a, NULL, NULL, held(l, s->dtype), xrt_shape_element_count(s), 0);
	if (l->n_tuple_literals != s->tuple_count)
		return bad(a, "a tuple's literals differ from its shape's elements");
	for (i = 0; i < s->tuple_count && !st; i++)
		st = check_counts(a, l->tuple_literals[i], &s->tuple[i]);
	return st;
}

static xrt_status *fill_array(const struct xrt_allocator *a, const Xla__LiteralProto *l,
			      xrt_literal *lit)
{
	uint64_t n = xrt_shape_element_count(&lit->shape), i;
	const ProtobufCBinaryData *b;
	unsigned int w = xrt_dtype_bits(lit->shape.dtype);
	uint8_t *d = lit->data;
	xrt_status *st;

	b = wire_xla_byte_values((Xla__LiteralProto *)l, lit->shape.dtype);
	if (b) {	/* one byte each; only a sub-byte type's low bits count */
		st = take(a, d, b->data, b->len, n, 1);
		for (i = 0; !st && w < 8 && i < n; i++)
			d[i] &= (uint8_t)((1u << w) - 1);
		return st;
	}
	switch (lit->shape.dtype) {
	case XRT_PRED:
		if (l->n_preds != n)
			return take(a, d, NULL, l->n_preds, n, 1);
		for (i = 0; i < n; i++)
			d[i] = l->preds[i] ? 1 : 0;
		return NULL;
	case XRT_S8: return take(a, d, l->s8s.data, l->s8s.len, n, 1);
	case XRT_U8: return take(a, d, l->u8s.data, l->u8s.len, n, 1);
	/* 16-bit values travel as little-endian bytes, as they are kept */
	case XRT_S16: return take(a, d, l->s16s.data, count_of(l->s16s.len, 2), n, 2);
	case XRT_U16: return take(a, d, l->u16s.data, count_of(l->u16s.len, 2), n, 2);
	case XRT_F16: return take(a, d, l->f16s.data, count_of(l->f16s.len, 2), n, 2);
	case XRT_BF16: return take(a, d, l->bf16s.data, count_of(l->bf16s.len, 2), n, 2);
	case XRT_S32: return take(a, d, l->s32s, l->n_s32s, n, 4);
	case XRT_U32: return take(a, d, l->u32s, l->n_u32s, n, 4);
	case XRT_S64: return take(a, d, l->s64s, l->n_s64s, n, 8);
	case XRT_U64: return take(a, d, l->u64s, l->n_u64s, n, 8);
	case XRT_F32: return take(a, d, l->f32s, l->n_f32s, n, 4);
	case XRT_F64: return take(a, d, l->f64s, l->n_f64s, n, 8);
	/* complex: (real, imaginary) pairs of floats or doubles */
	case XRT_C64: return take(a, d, l->c64s, count_of(l->n_c64s, 2), n, 8);
	default: return take(a, d, l->c128s, count_of(l->n_c128s, 2), n, 16);
	}
}

static xrt_status *fill(const struct xrt_allocator *a, const Xla__LiteralProto *l,
			xrt_literal *lit, int depth)
{
	xrt_status *st = NULL;
	uint32_t i;

	if (!xrt_shape_is_tuple(&lit->shape))
		return fill_array(a, l, lit);
	if (depth > XRT_MAX_TUPLE_DEPTH)
		return bad(a, "tuples nest too deep");
	if (l->n_tuple_literals != lit->shape.tuple_count)
		return bad(a, "a tuple's literals differ from its shape's elements");
	for (i = 0; i < lit->shape.tuple_count && !st; i++)
		st = fill(a, l->tuple_literals[i], lit->elements[i], depth + 1);
	return st;
}

xrt_status *wire_literal_from_xla(const struct xrt_allocator *a, const Xla__LiteralProto *l,
				  xrt_literal **out)
{
	struct xrt_shape s;
	xrt_status *st;

	*out = NULL;
	if (!l)
		return bad(a, "missing");
	st = shape_from(a, l->shape, &s, 0);
	if (st)
		return st;
	st = check_counts(a, l, &s);
	if (!st)
		st = xrt_literal_create(a, &s, out);
	xrt_shape_deinit(&s);
	if (!st)
		st = fill(a, l, *out, 0);
	if (st) {
		xrt_literal_destroy(*out);
		*out = NULL;
	}
	return st;
}

xrt_status *xrt_literal_from_xla_proto(const struct xrt_allocator *alloc, const void *data,
				       size_t size, xrt_literal **out)
{
	struct wire_alloc w;
	ProtobufCMessage *msg;
	xrt_status *st;

	if (!out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "xla.LiteralProto: out is NULL");
	*out = NULL;
	wire_alloc_init(&w, alloc);
	st = wire_unpack(&w, &xla__literal_proto__descriptor, data, size, "xla.LiteralProto",
			 &msg);
	if (st)
		return st;
	st = wire_literal_from_xla(alloc, (const Xla__LiteralProto *)msg, out);
	protobuf_c_message_free_unpacked(msg, &w.pb);
	return st;
}

static void free_literals(xrt_literal **v, uint32_t n, const struct xrt_allocator *a)
{
	uint32_t i;

	for (i = 0; v && i < n; i++)
		xrt_literal_destroy(v[i]);
	xrt_mem_free(a, v);
}

/* The snapshot's arguments, and its result where it has one. */
static xrt_status *snapshot_values(const struct xrt_allocator *a, const Xla__HloSnapshot *sn,
				   xrt_literal ***args, uint32_t *num_args, xrt_literal **result)
{
	xrt_literal **v = NULL;
	xrt_status *st = NULL;
	uint32_t i;

	if (sn->n_arguments > 65536)
		return bad(a, "an HloSnapshot of more than 65536 arguments");
	if (sn->n_arguments) {
		v = xrt_mem_calloc(a, sn->n_arguments, sizeof(*v));
		if (!v)
			return xrt_status_oom(a, "the snapshot's arguments");
	}
	for (i = 0; i < sn->n_arguments && !st; i++) {
		st = wire_literal_from_xla(a, sn->arguments[i], &v[i]);
		if (st)
			st = xrt_status_annotate(st, "HloSnapshot argument %u", i);
	}
	if (!st && sn->result && (sn->result->shape || sn->result->n_tuple_literals)) {
		st = wire_literal_from_xla(a, sn->result, result);
		if (st)
			st = xrt_status_annotate(st, "HloSnapshot result");
	}
	if (st) {
		free_literals(v, sn->n_arguments, a);
		return st;
	}
	*args = v;
	*num_args = (uint32_t)sn->n_arguments;
	return NULL;
}

xrt_status *xrt_xla_snapshot_values(const struct xrt_allocator *alloc, const void *data,
				    size_t size, xrt_literal ***args, uint32_t *num_args,
				    xrt_literal **result)
{
	struct wire_alloc w;
	ProtobufCMessage *msg;
	xrt_status *st;

	if (!args || !num_args || !result)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT, "xla.HloSnapshot: %s is NULL",
				      !args ? "args" : !num_args ? "num_args" : "result");
	*args = NULL;
	*num_args = 0;
	*result = NULL;
	wire_alloc_init(&w, alloc);
	st = wire_unpack(&w, &xla__hlo_snapshot__descriptor, data, size, "xla.HloSnapshot", &msg);
	if (st)
		return st;
	st = snapshot_values(alloc, (const Xla__HloSnapshot *)msg, args, num_args, result);
	protobuf_c_message_free_unpacked(msg, &w.pb);
	return st;
}
