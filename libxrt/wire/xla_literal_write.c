// SPDX-License-Identifier: MIT
/*
 * Literals as xla.LiteralProto messages, as the original XRT's
 * XRTReadLiteral returns them: a ShapeProto with the literal's layout
 * and the elements, in that layout's order, in the field of their type.
 * The message borrows the literal's bytes where the field's form is
 * theirs; pred, stored a byte each, becomes repeated bools.
 */
#include <string.h>

#include <xrt/wire.h>

#include "core/mem.h"
#include "wire/wire.h"

static int xla_type_of(enum xrt_dtype t)
{
	switch (t) {
	case XRT_PRED: return XLA__PRIMITIVE_TYPE__PRED;
	case XRT_S8: return XLA__PRIMITIVE_TYPE__S8;
	case XRT_S16: return XLA__PRIMITIVE_TYPE__S16;
	case XRT_S32: return XLA__PRIMITIVE_TYPE__S32;
	case XRT_S64: return XLA__PRIMITIVE_TYPE__S64;
	case XRT_U8: return XLA__PRIMITIVE_TYPE__U8;
	case XRT_U16: return XLA__PRIMITIVE_TYPE__U16;
	case XRT_U32: return XLA__PRIMITIVE_TYPE__U32;
	case XRT_U64: return XLA__PRIMITIVE_TYPE__U64;
	case XRT_F16: return XLA__PRIMITIVE_TYPE__F16;
	case XRT_BF16: return XLA__PRIMITIVE_TYPE__BF16;
	case XRT_F32: return XLA__PRIMITIVE_TYPE__F32;
	case XRT_F64: return XLA__PRIMITIVE_TYPE__F64;
	case XRT_C64: return XLA__PRIMITIVE_TYPE__C64;
	case XRT_C128: return XLA__PRIMITIVE_TYPE__C128;
	case XRT_S4: return XLA__PRIMITIVE_TYPE__S4;
	case XRT_U4: return XLA__PRIMITIVE_TYPE__U4;
	case XRT_S2: return XLA__PRIMITIVE_TYPE__S2;
	case XRT_U2: return XLA__PRIMITIVE_TYPE__U2;
	case XRT_F8E5M2: return XLA__PRIMITIVE_TYPE__F8E5M2;
	case XRT_F8E4M3FN: return XLA__PRIMITIVE_TYPE__F8E4M3FN;
	case XRT_F8E4M3B11FNUZ: return XLA__PRIMITIVE_TYPE__F8E4M3B11FNUZ;
	case XRT_F8E5M2FNUZ: return XLA__PRIMITIVE_TYPE__F8E5M2FNUZ;
	case XRT_F8E4M3FNUZ: return XLA__PRIMITIVE_TYPE__F8E4M3FNUZ;
	case XRT_F8E4M3: return XLA__PRIMITIVE_TYPE__F8E4M3;
	case XRT_F8E3M4: return XLA__PRIMITIVE_TYPE__F8E3M4;
	case XRT_F8E8M0FNU: return XLA__PRIMITIVE_TYPE__F8E8M0FNU;
	case XRT_F4E2M1FN: return XLA__PRIMITIVE_TYPE__F4E2M1FN;
	default: return XLA__PRIMITIVE_TYPE__TUPLE;
	}
}

/* One message of the tree, and what it owns beside its children. */
struct node {
	Xla__LiteralProto lit;
	Xla__ShapeProto shape;
	Xla__LayoutProto layout;
	int64_t dims[XRT_MAX_RANK], m2m[XRT_MAX_RANK];
	protobuf_c_boolean *preds;
	Xla__LiteralProto **elems;
	Xla__ShapeProto **elem_shapes;
};

static void free_node(const struct xrt_allocator *a, struct node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; n->elems && i < n->lit.n_tuple_literals; i++)
		free_node(a, (struct node *)n->elems[i]);	/* lit is the first member */
	xrt_mem_free(a, n->elems);
	xrt_mem_free(a, n->elem_shapes);
	xrt_mem_free(a, n->preds);
	xrt_mem_free(a, n);
}

/* Points @l's field of type @t at the @n elements of @data. */
static xrt_status *put_values(const struct xrt_allocator *a, struct node *nd,
			      enum xrt_dtype t, const void *data, size_t bytes, size_t n)
{
	Xla__LiteralProto *l = &nd->lit;
	ProtobufCBinaryData b = { bytes, (uint8_t *)data };
	ProtobufCBinaryData *bytes_field = wire_xla_byte_values(l, t);
	size_t i;

	if (bytes_field) {	/* one byte each, the value in the low bits */
		*bytes_field = b;
		return NULL;
	}
	switch (t) {
	case XRT_PRED:
		nd->preds = xrt_mem_calloc(a, n ? n : 1, sizeof(*nd->preds));
		if (!nd->preds)
			return xrt_status_oom(a, "an xla.LiteralProto");
		for (i = 0; i < n; i++)
			nd->preds[i] = ((const uint8_t *)data)[i] != 0;
		l->n_preds = n;
		l->preds = nd->preds;
		break;
	case XRT_S8: l->s8s = b; break;
	case XRT_U8: l->u8s = b; break;
	case XRT_S16: l->s16s = b; break;
	case XRT_U16: l->u16s = b; break;
	case XRT_F16: l->f16s = b; break;
	case XRT_BF16: l->bf16s = b; break;
	case XRT_S32: l->n_s32s = n; l->s32s = (int32_t *)data; break;
	case XRT_U32: l->n_u32s = n; l->u32s = (uint32_t *)data; break;
	case XRT_S64: l->n_s64s = n; l->s64s = (int64_t *)data; break;
	case XRT_U64: l->n_u64s = n; l->u64s = (uint64_t *)data; break;
	case XRT_F32: l->n_f32s = n; l->f32s = (float *)data; break;
	case XRT_F64: l->n_f64s = n; l->f64s = (double *)data; break;
	case XRT_C64: l->n_c64s = 2 * n; l->c64s = (float *)data; break;
	default: l->n_c128s = 2 * n; l->c128s = (double *)data; break;
	}
	return NULL;
}

static xrt_status *build(const struct xrt_allocator *a, const xrt_literal *lit, struct node **out)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	struct node *nd = xrt_mem_calloc(a, 1, sizeof(*nd));
	xrt_status *st = NULL;
	uint32_t i;

	*out = nd;
	if (!nd)
		return xrt_status_oom(a, "an xla.LiteralProto");
	xla__literal_proto__init(&nd->lit);
	xla__shape_proto__init(&nd->shape);
	xla__layout_proto__init(&nd->layout);
	nd->lit.shape = &nd->shape;
	nd->shape.element_type = xla_type_of(s->dtype);
	if (xrt_shape_is_tuple(s)) {
		uint32_t n = xrt_literal_tuple_count(lit);

		nd->elems = xrt_mem_calloc(a, n ? n : 1, sizeof(*nd->elems));
		nd->elem_shapes = xrt_mem_calloc(a, n ? n : 1, sizeof(*nd->elem_shapes));
		if (!nd->elems || !nd->elem_shapes)
			return xrt_status_oom(a, "an xla.LiteralProto");
		nd->lit.tuple_literals = nd->elems;
		nd->shape.tuple_shapes = nd->elem_shapes;
		for (i = 0; i < n && !st; i++) {
			struct node *e;

			st = build(a, xrt_literal_element(lit, i), &e);
			nd->elems[i] = e ? &e->lit : NULL;
			nd->lit.n_tuple_literals = i + 1;
			nd->elem_shapes[i] = e ? &e->shape : NULL;
			nd->shape.n_tuple_shapes = i + 1;
		}
		return st;
	}
	for (i = 0; i < s->rank; i++) {
		nd->dims[i] = s->dims[i];
		nd->m2m[i] = s->minor_to_major[i];
	}
	nd->shape.n_dimensions = s->rank;
	nd->shape.dimensions = nd->dims;
	if (s->rank) {	/* the order the values are in */
		nd->layout.n_minor_to_major = s->rank;
		nd->layout.minor_to_major = nd->m2m;
		nd->shape.layout = &nd->layout;
	}
	return put_values(a, nd, s->dtype, xrt_literal_data(lit), xrt_literal_size(lit),
			  xrt_literal_size(lit) / xrt_dtype_size(s->dtype));
}

xrt_status *xrt_literal_to_xla_proto(const xrt_literal *lit, const struct xrt_allocator *alloc,
				     void **out, size_t *out_size)
{
	struct node *root = NULL;
	xrt_status *st;

	if (!lit || !out || !out_size)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "xla.LiteralProto: NULL argument");
	*out = NULL;
	*out_size = 0;
	st = build(alloc, lit, &root);
	if (!st)
		st = wire_pack(alloc, &root->lit.base, out, out_size);
	free_node(alloc, root);
	return st;
}
