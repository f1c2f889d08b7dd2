// SPDX-License-Identifier: MIT
/*
 * Lowering one instruction.  Instructions that only re-index (broadcast,
 * transpose, slice, reverse, reshape of a dense array, copy,
 * get-tuple-element) become views of their operand and emit nothing;
 * the rest get an arena buffer and the commands that fill it.
 */
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "cc.h"
#include "ir/opcode.h"

void cc_fill_value(struct cc *cc, const struct cc_buf *dst, const void *value)
{
	struct xrt_cs_view v = cc_csview(dst);
	int64_t n = 1;
	uint32_t d;

	for (d = 0; d < dst->rank; d++)
		n *= dst->dims[d];
	if (n)
		cs_fill_constant(&cc->b, &v, value, xrt_dtype_size(dst->dtype));
}

/* An array literal's elements in row-major order, into the constants. */
static uint64_t add_literal(struct cc *cc, const xrt_literal *lit)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	size_t es = xrt_dtype_size(s->dtype), n = xrt_literal_size(lit) / es, k;
	uint8_t *rm = xrt_mem_alloc(cc->a, n * es + 1);
	struct elem_iter it;
	uint64_t off;

	if (!rm) {
		cc_oom(cc);
		return 0;
	}
	elem_iter_init(&it, s);
	for (k = 0; k < n; k++, elem_iter_next(&it))
		memcpy(rm + k * es, (const uint8_t *)xrt_literal_data(lit) + it.offset * es, es);
	off = cc_add_const(cc, rm, n * es);
	xrt_mem_free(cc->a, rm);
	return off;
}

/* Value @v holds @lit: an array in the constants, or a tuple of such. */
void cc_lower_literal(struct cc *cc, uint32_t v, const xrt_literal *lit)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	uint32_t i;

	if (!xrt_shape_is_tuple(s)) {
		struct cc_val *x = &cc->vals[v];

		x->buf = cc_dense(1, add_literal(cc, lit), s->dtype, s->rank, s->dims);
		x->kind = CK_BUF;
		x->owner = v;
		x->is_const = true;
		cc_hold(cc, v);
		return;
	}
	if (!cc_tuple_init(cc, v, s->tuple_count))
		return;
	for (i = 0; i < s->tuple_count && !cc->err; i++) {
		uint32_t e = cc_tuple_add(cc, v);

		cc_lower_literal(cc, e, xrt_literal_element(lit, i));
		cc->vals[e].uses = 1;	/* held by the tuple */
	}
}

/* A value with @src's array dense and row-major: @src, or a new copy. */
static uint32_t dense_value(struct cc *cc, uint32_t src)
{
	struct cc_buf b = cc->vals[src].buf;
	uint32_t t;

	if (cc_is_dense(&b))
		return src;
	t = cc_new_val(cc);
	if (!cc_alloc(cc, t, b.dtype, b.rank, b.dims))
		cc_copy(cc, &cc->vals[t].buf, &b);
	return t;
}

static void lower_view(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t src = cc_opnd(cc, in, 0), v = cc_iv(cc, i), n, d;
	struct cc_buf b = cc->vals[src].buf;
	size_t es = xrt_dtype_size(b.dtype);
	const int64_t *p;

	switch (in->op) {
	case XRT_OP_BROADCAST:
		p = ir_instr_attr(in, IR_ATTR_DIMENSIONS)->ints;
		b.rank = in->shape.rank;
		for (d = 0; d < b.rank; d++) {
			b.dims[d] = in->shape.dims[d];
			b.strides[d] = 0;
		}
		for (d = 0; d < cc->vals[src].buf.rank; d++)
			b.strides[p[d]] = cc->vals[src].buf.strides[d];
		break;
	case XRT_OP_TRANSPOSE:
		p = ir_instr_attr(in, IR_ATTR_DIMENSIONS)->ints;
		for (d = 0; d < b.rank; d++) {
			b.dims[d] = cc->vals[src].buf.dims[p[d]];
			b.strides[d] = cc->vals[src].buf.strides[p[d]];
		}
		break;
	case XRT_OP_SLICE:
		p = ir_instr_attr(in, IR_ATTR_SLICE)->ints;
		for (d = 0; d < b.rank; d++) {
			b.offset += (uint64_t)(p[3 * d] * b.strides[d] * (int64_t)es);
			b.dims[d] = in->shape.dims[d];
			b.strides[d] *= p[3 * d + 2];
		}
		break;
	case XRT_OP_REVERSE:
		p = ir_instr_attr(in, IR_ATTR_DIMENSIONS)->ints;
		n = ir_instr_attr(in, IR_ATTR_DIMENSIONS)->n;
		for (d = 0; d < n; d++) {
			if (b.dims[p[d]])
				b.offset += (uint64_t)((b.dims[p[d]] - 1) * b.strides[p[d]] * (int64_t)es);
			b.strides[p[d]] = -b.strides[p[d]];
		}
		break;
	case XRT_OP_RESHAPE:
		n = dense_value(cc, src);
		b = cc->vals[n].buf;
		b = cc_dense(b.slot, b.offset, b.dtype, in->shape.rank, in->shape.dims);
		cc_view(cc, v, n, &b);
		if (n != src)	/* the copy is held by the view alone */
			cc_release(cc, n);
		return;
	default:
		break;
	}
	cc_view(cc, v, src, &b);
}

/*
 * bitcast reinterprets bytes in the layouts the shapes declare: the
 * operand is written in its layout, and read back in the result's.
 */
static void lower_bitcast(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);
	const struct xrt_shape *from = &cc->c->instrs[in->operands[0]].shape;
	struct cc_buf phys, b;

	if (cc_alloc(cc, v, in->shape.dtype, 1, (int64_t[]){ (int64_t)xrt_shape_byte_size(&in->shape) /
						     (int64_t)xrt_dtype_size(in->shape.dtype) }))
		return;
	phys = cc_layout(cc->vals[v].buf.slot, from);
	phys.offset = cc->vals[v].buf.offset;
	cc_copy(cc, &phys, &cc->vals[cc_opnd(cc, in, 0)].buf);
	b = cc_layout(phys.slot, &in->shape);
	b.offset = phys.offset;
	cc->vals[v].buf = b;
}

void cc_lower_tuple(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i), k;
	struct cc_val *x = &cc->vals[v];

	x->elems = xrt_mem_calloc(cc->a, in->num_operands + 1, sizeof(uint32_t));
	if (!x->elems) {
		cc_oom(cc);
		return;
	}
	for (k = 0; k < in->num_operands; k++)
		x->elems[k] = cc_opnd(cc, in, k);
	x->num_elems = in->num_operands;
	x->kind = CK_TUPLE;
	cc_hold(cc, v);
}

/* Value @v is value @e again: the same array, or the same tuple. */
void cc_alias(struct cc *cc, uint32_t v, uint32_t e)
{
	if (cc->vals[e].kind != CK_TUPLE) {
		cc_view(cc, v, e, &cc->vals[e].buf);
		return;
	}
	cc->vals[v].elems = xrt_mem_calloc(cc->a, cc->vals[e].num_elems + 1, sizeof(uint32_t));
	if (!cc->vals[v].elems) {
		cc_oom(cc);
		return;
	}
	memcpy(cc->vals[v].elems, cc->vals[e].elems, cc->vals[e].num_elems * sizeof(uint32_t));
	cc->vals[v].num_elems = cc->vals[e].num_elems;
	cc->vals[v].kind = CK_TUPLE;
	cc_hold(cc, v);
}

static void lower_gte(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];

	cc_alias(cc, cc_iv(cc, i),
		 cc->vals[cc_opnd(cc, in, 0)].elems[ir_instr_attr(in, IR_ATTR_INDEX)->ints[0]]);
}

static void lower_concatenate(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);
	uint32_t d = (uint32_t)ir_instr_attr(in, IR_ATTR_DIMENSIONS)->ints[0], k;
	int64_t base = 0;

	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	for (k = 0; k < in->num_operands; k++) {
		const struct cc_buf *src = &cc->vals[cc_opnd(cc, in, k)].buf;
		struct cc_buf dst = cc->vals[v].buf;

		dst.offset += (uint64_t)(base * dst.strides[d] * (int64_t)xrt_dtype_size(dst.dtype));
		dst.dims[d] = src->dims[d];
		cc_copy(cc, &dst, src);
		base += src->dims[d];
	}
}

/* pad: the pad value everywhere, then the operand placed. */
static void lower_pad(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);
	const int64_t *p = ir_instr_attr(in, IR_ATTR_PADDING)->ints;
	struct cc_buf src = cc->vals[cc_opnd(cc, in, 0)].buf, dst, pv;
	const void *c = cc_const_elem(cc, cc_opnd(cc, in, 1));
	int64_t lo[XRT_MAX_RANK], step[XRT_MAX_RANK];
	uint32_t d;

	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	dst = cc->vals[v].buf;
	if (c) {
		cc_fill_value(cc, &dst, c);
	} else {
		pv = cc->vals[cc_opnd(cc, in, 1)].buf;
		pv.rank = dst.rank;
		for (d = 0; d < dst.rank; d++) {
			pv.dims[d] = dst.dims[d];
			pv.strides[d] = 0;
		}
		cc_copy(cc, &dst, &pv);
	}
	for (d = 0; d < src.rank; d++) {
		lo[d] = p[3 * d];
		step[d] = p[3 * d + 2] + 1;
	}
	cc_place(cc, &dst, &src, lo, step);
}

void cc_place(struct cc *cc, const struct cc_buf *dst0, const struct cc_buf *src0,
	      const int64_t *lo, const int64_t *step)
{
	struct cc_buf src = *src0, dst = *dst0;
	size_t es = xrt_dtype_size(src.dtype);
	uint32_t d;

	for (d = 0; d < src.rank; d++) {
		int64_t first = 0, last;

		if (lo[d] < 0)
			first = (-lo[d] + step[d] - 1) / step[d];
		last = src.dims[d] - 1;
		while (last >= first && lo[d] + last * step[d] >= dst.dims[d])
			last--;
		src.offset += (uint64_t)(first * src.strides[d] * (int64_t)es);
		src.dims[d] = last >= first ? last - first + 1 : 0;
		dst.offset += (uint64_t)((lo[d] + first * step[d]) * dst.strides[d] * (int64_t)es);
		dst.dims[d] = src.dims[d];
		dst.strides[d] *= step[d];
	}
	cc_copy(cc, &dst, &src);
}

/* The start scalars of a dynamic slice: operands @first on. */
static void starts(struct cc *cc, const struct ir_instr *in, uint32_t first,
		   struct xrt_cs_scalar *s)
{
	uint32_t d;

	memset(s, 0, XRT_CS_MAX_RANK * sizeof(*s));
	for (d = first; d < in->num_operands; d++) {
		const struct cc_buf *b = &cc->vals[cc_opnd(cc, in, d)].buf;

		s[d - first].slot = b->slot;
		s[d - first].dtype = (uint8_t)b->dtype;
		s[d - first].offset = b->offset;
	}
}

static void lower_dynamic_slice(struct cc *cc, uint32_t i, bool update)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);
	struct xrt_cs_scalar s[XRT_CS_MAX_RANK];
	struct xrt_cs_view op, sl;

	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	if (update)
		cc_copy(cc, &cc->vals[v].buf, &cc->vals[cc_opnd(cc, in, 0)].buf);
	starts(cc, in, update ? 2 : 1, s);
	op = cc_csview(update ? &cc->vals[v].buf : &cc->vals[cc_opnd(cc, in, 0)].buf);
	sl = cc_csview(update ? &cc->vals[cc_opnd(cc, in, 1)].buf : &cc->vals[v].buf);
	if (xrt_shape_element_count(&in->shape) && sl.rank == op.rank &&
	    xrt_shape_element_count(&cc->c->instrs[in->operands[update ? 1 : 0]].shape))
		cs_dynamic_slice(&cc->b, update, &op, &sl, s);
}

static void lower_iota(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);
	struct xrt_cs_view view;

	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	view = cc_csview(&cc->vals[v].buf);
	if (xrt_shape_element_count(&in->shape))
		cs_fill_iota(&cc->b, &view,
			     (uint32_t)ir_instr_attr(in, IR_ATTR_IOTA_DIMENSION)->ints[0]);
}

/*
 * bitcast-convert between sizes: the bytes of a dense row-major array
 * read as the other type, a last dimension added or removed (little
 * endian, as XLA's CPU and GPU do).
 */
static void lower_bitcast_convert(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t n = dense_value(cc, cc_opnd(cc, in, 0));
	struct cc_buf b = cc->vals[n].buf;

	b = cc_dense(b.slot, b.offset, in->shape.dtype, in->shape.rank, in->shape.dims);
	cc_view(cc, cc_iv(cc, i), n, &b);
	if (n != cc_opnd(cc, in, 0))
		cc_release(cc, n);
}

bool cc_inline_comp_begin(struct cc *cc, const struct ir_comp *f, const uint32_t *args,
			  struct cc_saved *sv)
{
	uint32_t nb = cc->num_vals, k;

	for (k = 0; k < f->num_instrs; k++) {
		const struct ir_instr *b = &f->instrs[k];

		if (b->op != XRT_OP_PARAMETER && b->op != XRT_OP_CONSTANT && b->op != XRT_OP_TUPLE &&
		    !cc_is_elementwise(b)) {
			cc_fail(cc, XRT_UNIMPLEMENTED, "applying a computation with %s",
				xrt_opcode_name(b->op));
			return false;
		}
	}
	if (f->num_instrs > XRT_CS_MAX_INSTS) {	/* cannot fit one kernel */
		cc_unimplemented(cc, "applying a computation this big");
		return false;
	}
	for (k = 0; k < f->num_instrs && !cc->err; k++)
		cc_new_val(cc);
	sv->c = cc->c;
	sv->base = cc->base;
	cc->c = f;
	cc->base = nb;
	for (k = 0; k < f->num_instrs && !cc->err; k++) {
		const struct ir_instr *b = &f->instrs[k];

		if (b->op == XRT_OP_PARAMETER)
			cc_alias(cc, nb + k, args[b->parameter]);
		else if (b->op == XRT_OP_CONSTANT)
			cc_lower_literal(cc, nb + k, b->literal);
		else if (b->op != XRT_OP_TUPLE)
			cc->vals[nb + k].kind = CK_INLINE;
	}
	return !cc->err;
}

void cc_inline_comp_end(struct cc *cc, const struct cc_saved *sv)
{
	const struct ir_comp *f = cc->c;
	uint32_t k;

	for (k = 0; k < f->num_instrs; k++) {
		if (f->instrs[k].op == XRT_OP_PARAMETER || f->instrs[k].op == XRT_OP_CONSTANT)
			cc_release(cc, cc->base + k);
	}
	cc->c = sv->c;
	cc->base = sv->base;
}

/*
 * map: its computation's scalar instructions become one fused kernel
 * over the map's shape, its parameters reading the map's operands and
 * its constants immediates.
 */
static void lower_map(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	uint32_t v = cc_iv(cc, i), args[64], k;
	struct cc_saved sv;
	struct cc_buf out;

	if (f->instrs[f->root].op == XRT_OP_TUPLE || in->num_operands > 64) {
		cc_unimplemented(cc, "map of this computation");
		return;
	}
	for (k = 0; k < in->num_operands; k++)
		args[k] = cc_opnd(cc, in, k);
	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return;
	out = cc->vals[v].buf;
	if (cc_inline_comp_begin(cc, f, args, &sv)) {
		cc_emit_ewise(cc, f->root, &out);
		cc_inline_comp_end(cc, &sv);
	}
}

void cc_lower(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);
	int k;

	if (cc_is_elementwise(in)) {
		if (in->op == XRT_OP_BITCAST_CONVERT &&
		    xrt_dtype_size(in->shape.dtype) !=
		    xrt_dtype_size(cc->c->instrs[in->operands[0]].shape.dtype)) {
			lower_bitcast_convert(cc, i);
			return;
		}
		k = cc_identity(cc, in);
		if (k >= 0 && cc->vals[cc_opnd(cc, in, (uint32_t)k)].kind == CK_BUF)
			cc_alias(cc, v, cc_opnd(cc, in, (uint32_t)k));
		else if (!cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
			cc_emit_ewise(cc, i, &cc->vals[v].buf);	/* the tree under instruction i */
		return;
	}
	switch (in->op) {
	case XRT_OP_CONSTANT:
		cc_lower_literal(cc, v, in->literal);
		return;
	case XRT_OP_BROADCAST:
	case XRT_OP_TRANSPOSE:
	case XRT_OP_SLICE:
	case XRT_OP_REVERSE:
	case XRT_OP_RESHAPE:
		lower_view(cc, i);
		return;
	case XRT_OP_COPY:
		cc_alias(cc, v, cc_opnd(cc, in, 0));
		return;
	case XRT_OP_BITCAST:
		lower_bitcast(cc, i);
		return;
	case XRT_OP_TUPLE:
		cc_lower_tuple(cc, i);
		return;
	case XRT_OP_GET_TUPLE_ELEMENT:
		lower_gte(cc, i);
		return;
	case XRT_OP_IOTA:
		lower_iota(cc, i);
		return;
	case XRT_OP_CONCATENATE:
		lower_concatenate(cc, i);
		return;
	case XRT_OP_PAD:
		lower_pad(cc, i);
		return;
	case XRT_OP_DYNAMIC_SLICE:
	case XRT_OP_DYNAMIC_UPDATE_SLICE:
		lower_dynamic_slice(cc, i, in->op == XRT_OP_DYNAMIC_UPDATE_SLICE);
		return;
	case XRT_OP_DOT:
		cc_lower_dot(cc, i);
		return;
	case XRT_OP_WHILE:
	case XRT_OP_CONDITIONAL:
	case XRT_OP_CALL:
		cc_lower_control(cc, i);
		return;
	case XRT_OP_REDUCE:
		if (in->num_operands != 2 ||
		    !cc_reducer_op(&cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]],
				   in->shape.dtype)) {
			cc_lower_reduce_loop(cc, i);
			return;
		}
		if (!cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
			cc_emit_reduce(cc, i);
		return;
	case XRT_OP_SORT:
		cc_lower_sort(cc, i);
		return;
	case XRT_OP_TOPK:
		cc_lower_topk(cc, i);
		return;
	case XRT_OP_REDUCE_WINDOW:
		cc_lower_reduce_window(cc, i);
		return;
	case XRT_OP_CONVOLUTION:
		cc_lower_convolution(cc, i);
		return;
	case XRT_OP_GATHER:
		cc_lower_gather(cc, i);
		return;
	case XRT_OP_MAP:
		lower_map(cc, i);
		return;
	case XRT_OP_SCATTER:
		cc_lower_scatter(cc, i);
		return;
	case XRT_OP_RNG:
		cc_lower_rng(cc, i);
		return;
	case XRT_OP_RNG_BIT_GENERATOR:
		cc_lower_rng_bit_generator(cc, i);
		return;
	case XRT_OP_SELECT_AND_SCATTER:
		cc_lower_select_and_scatter(cc, i);
		return;
	case XRT_OP_CUSTOM_CALL:
		cc_lower_custom_call(cc, i);
		return;
	default:
		if (xrt_opcode_is_collective(in->op))
			cc_lower_collective(cc, i);
		else
			cc_unimplemented(cc, xrt_opcode_name(in->op));
	}
}
