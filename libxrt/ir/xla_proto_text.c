// SPDX-License-Identifier: MIT
/*
 * An HloModuleProto written as HLO text: each field as the attribute
 * XLA's printer writes for it, constants as nested braces in row-major
 * order (the proto holds them in their layout's order).  What has no
 * text form here (tiled layouts, dynamic dimensions, element types XRT
 * lacks) fails with the instruction named.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <xrt/dtype.h>

#include "ir/ir.h"
#include "wire/wire.h"
#include "xla_proto.h"

/* Context for the messages: the instruction being written. */
struct wr {
	struct xp *x;
	struct fmtbuf *f;
	const Xla__HloComputationProto *c;
	const Xla__HloInstructionProto *in;
};

static int fail_at(struct wr *w, const char *what)
{
	return xp_fail(w->x, "computation '%s', instruction '%s': %s", w->c->name,
		       w->in ? w->in->name : "?", what);
}

static void put_real(struct fmtbuf *f, double v, int digits);

/* XLA's types of one byte per element added later, in XRT's terms (else INVALID). */
static enum xrt_dtype narrow_type(int t)
{
	enum xrt_dtype x = wire_dtype_from_xla(t);

	return x > XRT_TUPLE ? x : XRT_INVALID;
}

/* The bytes field of such a type's values; NULL for the other types. */
static const ProtobufCBinaryData *narrow_values(const Xla__LiteralProto *l, int t)
{
	return wire_xla_byte_values((Xla__LiteralProto *)l, narrow_type(t));
}

/* Element @i of such a type, the value in the byte's low bits. */
static void put_narrow(struct fmtbuf *f, enum xrt_dtype t, uint8_t b)
{
	unsigned int w = xrt_dtype_bits(t);

	if (xrt_dtype_is_small_float(t))
		put_real(f, xrt_small_float_to_f64(t, b), 17);
	else if (xrt_dtype_is_signed(t))
		fmtbuf_printf(f, "%d", (int8_t)(uint8_t)(b << (8 - w)) >> (8 - w));
	else
		fmtbuf_printf(f, "%u", b & ((1u << w) - 1));
}

static const char *type_name(int t)
{
	switch (t) {
	case XLA__PRIMITIVE_TYPE__PRED: return "pred";
	case XLA__PRIMITIVE_TYPE__S8: return "s8";
	case XLA__PRIMITIVE_TYPE__S16: return "s16";
	case XLA__PRIMITIVE_TYPE__S32: return "s32";
	case XLA__PRIMITIVE_TYPE__S64: return "s64";
	case XLA__PRIMITIVE_TYPE__U8: return "u8";
	case XLA__PRIMITIVE_TYPE__U16: return "u16";
	case XLA__PRIMITIVE_TYPE__U32: return "u32";
	case XLA__PRIMITIVE_TYPE__U64: return "u64";
	case XLA__PRIMITIVE_TYPE__F16: return "f16";
	case XLA__PRIMITIVE_TYPE__BF16: return "bf16";
	case XLA__PRIMITIVE_TYPE__F32: return "f32";
	case XLA__PRIMITIVE_TYPE__F64: return "f64";
	case XLA__PRIMITIVE_TYPE__C64: return "c64";
	case XLA__PRIMITIVE_TYPE__C128: return "c128";
	default: return narrow_type(t) ? xrt_dtype_name(narrow_type(t)) : NULL;
	}
}

static int bad_type(struct wr *w, int t)
{
	const ProtobufCEnumValue *v =
		protobuf_c_enum_descriptor_get_value(&xla__primitive_type__descriptor, t);
	char msg[96];

	snprintf(msg, sizeof(msg), "element type %s (%d) is not supported", v ? v->name : "?", t);
	return fail_at(w, msg);
}

static int write_shape(struct wr *w, const Xla__ShapeProto *s, int depth)
{
	const char *name;
	size_t i;

	if (!s)
		return fail_at(w, "a shape is missing");
	if (depth > XRT_MAX_TUPLE_DEPTH)
		return fail_at(w, "tuples nest too deep");
	if (s->element_type == XLA__PRIMITIVE_TYPE__TUPLE) {
		fmtbuf_puts(w->f, "(");
		for (i = 0; i < s->n_tuple_shapes; i++) {
			fmtbuf_puts(w->f, i ? ", " : "");
			if (write_shape(w, s->tuple_shapes[i], depth + 1))
				return -1;
		}
		fmtbuf_puts(w->f, ")");
		return 0;
	}
	name = type_name(s->element_type);
	if (!name)
		return bad_type(w, s->element_type);
	if (s->n_dimensions > XRT_MAX_RANK)
		return fail_at(w, "a shape has more than 8 dimensions");
	if (s->n_is_dynamic_dimension > s->n_dimensions)
		return fail_at(w, "a shape marks more dynamic dimensions than it has");
	fmtbuf_printf(w->f, "%s[", name);
	for (i = 0; i < s->n_dimensions; i++) {
		bool dyn = i < s->n_is_dynamic_dimension && s->is_dynamic_dimension[i];

		/* a bound, as the text writes it: the text's reader lowers it */
		fmtbuf_printf(w->f, "%s%s%" PRId64, i ? "," : "", dyn ? "<=" : "", s->dimensions[i]);
	}
	fmtbuf_puts(w->f, "]");
	if (s->layout && !s->layout->n_minor_to_major && s->layout->element_size_in_bits &&
	    !s->n_dimensions) {	/* a scalar's packing: the text's reader judges it */
		fmtbuf_printf(w->f, "{:E(%" PRId64 ")}", s->layout->element_size_in_bits);
		return 0;
	}
	if (!s->layout || !s->layout->n_minor_to_major)
		return 0;
	if (s->layout->n_tiles)
		return fail_at(w, "tiled layouts are not supported");
	if (s->layout->n_minor_to_major != s->n_dimensions)
		return fail_at(w, "a layout's length differs from its shape's rank");
	fmtbuf_puts(w->f, "{");
	for (i = 0; i < s->n_dimensions; i++)
		fmtbuf_printf(w->f, "%s%" PRId64, i ? "," : "", s->layout->minor_to_major[i]);
	if (s->layout->element_size_in_bits)	/* the text's reader judges it */
		fmtbuf_printf(w->f, ":E(%" PRId64 ")", s->layout->element_size_in_bits);
	fmtbuf_puts(w->f, "}");
	return 0;
}

static void put_real(struct fmtbuf *f, double v, int digits)
{
	if (isnan(v))
		fmtbuf_puts(f, signbit(v) ? "-nan" : "nan");
	else if (isinf(v))
		fmtbuf_puts(f, v < 0 ? "-inf" : "inf");
	else
		fmtbuf_printf(f, "%.*g", digits, v);
}

static uint16_t u16_at(const ProtobufCBinaryData *b, uint64_t i)
{
	return (uint16_t)(b->data[2 * i] | b->data[2 * i + 1] << 8);
}

/* Element @i (in the data's order) of @l, of type @t. */
static void put_value(struct fmtbuf *f, const Xla__LiteralProto *l, int t, uint64_t i)
{
	if (narrow_values(l, t)) {
		put_narrow(f, narrow_type(t), narrow_values(l, t)->data[i]);
		return;
	}
	switch (t) {
	case XLA__PRIMITIVE_TYPE__PRED:
		fmtbuf_puts(f, l->preds[i] ? "true" : "false");
		break;
	case XLA__PRIMITIVE_TYPE__S8:
		fmtbuf_printf(f, "%d", (int8_t)l->s8s.data[i]);
		break;
	case XLA__PRIMITIVE_TYPE__U8:
		fmtbuf_printf(f, "%u", l->u8s.data[i]);
		break;
	case XLA__PRIMITIVE_TYPE__S16:
		fmtbuf_printf(f, "%d", (int16_t)u16_at(&l->s16s, i));
		break;
	case XLA__PRIMITIVE_TYPE__U16:
		fmtbuf_printf(f, "%u", u16_at(&l->u16s, i));
		break;
	case XLA__PRIMITIVE_TYPE__S32:
		fmtbuf_printf(f, "%" PRId32, l->s32s[i]);
		break;
	case XLA__PRIMITIVE_TYPE__S64:
		fmtbuf_printf(f, "%" PRId64, l->s64s[i]);
		break;
	case XLA__PRIMITIVE_TYPE__U32:
		fmtbuf_printf(f, "%" PRIu32, l->u32s[i]);
		break;
	case XLA__PRIMITIVE_TYPE__U64:
		fmtbuf_printf(f, "%" PRIu64, l->u64s[i]);
		break;
	/* 16-bit floats are exact in a double; 17 digits read back exactly */
	case XLA__PRIMITIVE_TYPE__F16:
		put_real(f, xrt_f16_to_f32(u16_at(&l->f16s, i)), 17);
		break;
	case XLA__PRIMITIVE_TYPE__BF16:
		put_real(f, xrt_bf16_to_f32(u16_at(&l->bf16s, i)), 17);
		break;
	case XLA__PRIMITIVE_TYPE__F32:
		put_real(f, l->f32s[i], 9);
		break;
	case XLA__PRIMITIVE_TYPE__F64:
		put_real(f, l->f64s[i], 17);
		break;
	case XLA__PRIMITIVE_TYPE__C64:
		fmtbuf_puts(f, "(");
		put_real(f, l->c64s[2 * i], 9);
		fmtbuf_puts(f, ", ");
		put_real(f, l->c64s[2 * i + 1], 9);
		fmtbuf_puts(f, ")");
		break;
	default:
		fmtbuf_puts(f, "(");
		put_real(f, l->c128s[2 * i], 17);
		fmtbuf_puts(f, ", ");
		put_real(f, l->c128s[2 * i + 1], 17);
		fmtbuf_puts(f, ")");
		break;
	}
}

/* How many values of type @t @l holds. */
static uint64_t value_count(const Xla__LiteralProto *l, int t)
{
	if (narrow_values(l, t))
		return narrow_values(l, t)->len;
	switch (t) {
	case XLA__PRIMITIVE_TYPE__PRED: return l->n_preds;
	case XLA__PRIMITIVE_TYPE__S8: return l->s8s.len;
	case XLA__PRIMITIVE_TYPE__U8: return l->u8s.len;
	case XLA__PRIMITIVE_TYPE__S16: return l->s16s.len % 2 ? UINT64_MAX : l->s16s.len / 2;
	case XLA__PRIMITIVE_TYPE__U16: return l->u16s.len % 2 ? UINT64_MAX : l->u16s.len / 2;
	case XLA__PRIMITIVE_TYPE__S32: return l->n_s32s;
	case XLA__PRIMITIVE_TYPE__S64: return l->n_s64s;
	case XLA__PRIMITIVE_TYPE__U32: return l->n_u32s;
	case XLA__PRIMITIVE_TYPE__U64: return l->n_u64s;
	case XLA__PRIMITIVE_TYPE__F16: return l->f16s.len % 2 ? UINT64_MAX : l->f16s.len / 2;
	case XLA__PRIMITIVE_TYPE__BF16: return l->bf16s.len % 2 ? UINT64_MAX : l->bf16s.len / 2;
	case XLA__PRIMITIVE_TYPE__F32: return l->n_f32s;
	case XLA__PRIMITIVE_TYPE__F64: return l->n_f64s;
	case XLA__PRIMITIVE_TYPE__C64: return l->n_c64s % 2 ? UINT64_MAX : l->n_c64s / 2;
	case XLA__PRIMITIVE_TYPE__C128: return l->n_c128s % 2 ? UINT64_MAX : l->n_c128s / 2;
	default: return UINT64_MAX;
	}
}

struct lit {
	const Xla__LiteralProto *l;
	int t;
	uint32_t rank;
	const int64_t *dims;
	uint64_t stride[XRT_MAX_RANK];	/* of each dimension in the data */
};

/* Dimension @d from data offset @at, row-major, in braces. */
static void write_dim(struct fmtbuf *f, const struct lit *k, uint32_t d, uint64_t at)
{
	int64_t i;

	fmtbuf_puts(f, "{");
	for (i = 0; i < k->dims[d]; i++) {
		fmtbuf_puts(f, i ? ", " : "");
		if (d + 1 < k->rank)
			write_dim(f, k, d + 1, at + (uint64_t)i * k->stride[d]);
		else
			put_value(f, k->l, k->t, at + (uint64_t)i * k->stride[d]);
	}
	fmtbuf_puts(f, "}");
}

static int write_array(struct wr *w, const Xla__LiteralProto *l, const Xla__ShapeProto *s)
{
	struct lit k = { l, s->element_type, (uint32_t)s->n_dimensions, s->dimensions, { 0 } };
	const Xla__ShapeProto *ls = l->shape ? l->shape : s;
	uint64_t n = 1, stride = 1;
	uint32_t seen = 0;
	size_t i;

	if (!type_name(k.t))
		return bad_type(w, k.t);
	if (k.rank > XRT_MAX_RANK)
		return fail_at(w, "a constant of more than 8 dimensions");
	for (i = 0; i < k.rank; i++) {
		if (s->dimensions[i] < 0 || (s->dimensions[i] && n > XRT_MAX_BYTES / (uint64_t)s->dimensions[i]))
			return fail_at(w, "a constant's shape is too large");
		n *= (uint64_t)s->dimensions[i];
	}
	if (value_count(l, k.t) != n)
		return fail_at(w, "a constant's values do not fill its shape");
	if (ls->element_type != s->element_type || ls->n_dimensions != s->n_dimensions ||
	    (k.rank && memcmp(ls->dimensions, s->dimensions, k.rank * sizeof(*s->dimensions))))
		return fail_at(w, "a constant's literal has another shape than the instruction");
	/* the data is in the literal's layout: minor_to_major[0] varies fastest */
	for (i = 0; i < k.rank; i++) {
		size_t d = k.rank - 1 - i;

		if (ls->layout && ls->layout->n_minor_to_major == k.rank) {
			d = (size_t)ls->layout->minor_to_major[i];
			/* a repeat would leave a dimension's stride out: reads past the data */
			if (d >= k.rank || seen & 1u << d)
				return fail_at(w, "a constant's layout is not a permutation");
			seen |= 1u << d;
		}
		k.stride[d] = stride;
		stride *= (uint64_t)s->dimensions[d];
	}
	if (!k.rank)
		put_value(w->f, l, k.t, 0);
	else
		write_dim(w->f, &k, 0, 0);
	return 0;
}

static int write_literal(struct wr *w, const Xla__LiteralProto *l, const Xla__ShapeProto *s,
			 int depth)
{
	size_t i;

	if (!l || !s)
		return fail_at(w, "a constant without its literal");
	if (depth > XRT_MAX_TUPLE_DEPTH)
		return fail_at(w, "tuples nest too deep");
	if (s->element_type != XLA__PRIMITIVE_TYPE__TUPLE)
		return write_array(w, l, s);
	if (l->n_tuple_literals != s->n_tuple_shapes)
		return fail_at(w, "a tuple constant's elements differ from its shape's");
	fmtbuf_puts(w->f, "(");
	for (i = 0; i < s->n_tuple_shapes; i++) {
		fmtbuf_puts(w->f, i ? ", " : "");
		if (write_literal(w, l->tuple_literals[i], s->tuple_shapes[i], depth + 1))
			return -1;
	}
	fmtbuf_puts(w->f, ")");
	return 0;
}

static void put_ints(struct fmtbuf *f, const char *name, const int64_t *v, size_t n)
{
	size_t i;

	fmtbuf_printf(f, ", %s={", name);
	for (i = 0; i < n; i++)
		fmtbuf_printf(f, "%s%" PRId64, i ? "," : "", v[i]);
	fmtbuf_puts(f, "}");
}

static bool is_op(const Xla__HloInstructionProto *in, const char *op)
{
	return !strcmp(in->opcode, op);
}

/* window={size=.. stride=.. pad=.. lhs_dilate=.. rhs_dilate=.. rhs_reversal=..} */
static void write_window(struct fmtbuf *f, const Xla__Window *win)
{
	static const char *const names[] = { "size", "stride", "pad", "lhs_dilate",
					     "rhs_dilate", "rhs_reversal" };
	size_t k, d;

	fmtbuf_puts(f, ", window={");
	for (k = 0; k < 6; k++) {
		fmtbuf_printf(f, "%s%s=", k ? " " : "", names[k]);
		for (d = 0; d < win->n_dimensions; d++) {
			const Xla__WindowDimension *wd = win->dimensions[d];
			/* 0 is "not set" for the factors, whose default is 1 */
			int64_t v[6] = { wd->size, wd->stride ? wd->stride : 1, 0,
					 wd->base_dilation ? wd->base_dilation : 1,
					 wd->window_dilation ? wd->window_dilation : 1,
					 wd->window_reversal };

			fmtbuf_puts(f, d ? "x" : "");
			if (k == 2)
				fmtbuf_printf(f, "%" PRId64 "_%" PRId64, wd->padding_low,
					      wd->padding_high);
			else
				fmtbuf_printf(f, "%" PRId64, v[k]);
		}
	}
	fmtbuf_puts(f, "}");
}

/* dim_labels=b01f_01io->b01f from the dimension numbers. */
static int write_conv_labels(struct wr *w, const Xla__ConvolutionDimensionNumbers *cd,
			     size_t rank)
{
	char in[XRT_MAX_RANK + 1], k[XRT_MAX_RANK + 1], out[XRT_MAX_RANK + 1];
	size_t i;

	if (rank > XRT_MAX_RANK || rank < 2 || cd->n_input_spatial_dimensions != rank - 2 ||
	    cd->n_kernel_spatial_dimensions != rank - 2 ||
	    cd->n_output_spatial_dimensions != rank - 2)
		return fail_at(w, "convolution dimension numbers do not fit the rank");
	memset(in, '?', rank);
	memset(k, '?', rank);
	memset(out, '?', rank);
	in[rank] = k[rank] = out[rank] = '\0';
#define PUT(a, d, c) do { if ((d) < 0 || (size_t)(d) >= rank) goto bad; (a)[d] = (c); } while (0)
	PUT(in, cd->input_batch_dimension, 'b');
	PUT(in, cd->input_feature_dimension, 'f');
	PUT(k, cd->kernel_output_feature_dimension, 'o');
	PUT(k, cd->kernel_input_feature_dimension, 'i');
	PUT(out, cd->output_batch_dimension, 'b');
	PUT(out, cd->output_feature_dimension, 'f');
	for (i = 0; i + 2 < rank; i++) {
		PUT(in, cd->input_spatial_dimensions[i], (char)('0' + i));
		PUT(k, cd->kernel_spatial_dimensions[i], (char)('0' + i));
		PUT(out, cd->output_spatial_dimensions[i], (char)('0' + i));
	}
#undef PUT
	fmtbuf_printf(w->f, ", dim_labels=%s_%s->%s", in, k, out);
	return 0;
bad:
	return fail_at(w, "convolution dimension numbers out of range");
}

static const char *comp_name(struct wr *w, int64_t id)
{
	const struct xp_id *c = xp_comp(w->x, id);

	return c ? w->x->m->computations[c->comp]->name : NULL;
}

/* The called computations, under the names the opcode gives them. */
static int write_calls(struct wr *w)
{
	const Xla__HloInstructionProto *in = w->in;
	const char *names[2] = { "to_apply", NULL };
	size_t i, n = in->n_called_computation_ids;

	for (i = 0; i < n; i++) {
		if (!comp_name(w, in->called_computation_ids[i]))
			return fail_at(w, "it calls a computation that is not in the module");
	}
	if (!n)
		return 0;
	if (is_op(in, "while")) {	/* XLA keeps the body first */
		names[0] = "body";
		names[1] = "condition";
	} else if (is_op(in, "select-and-scatter")) {
		names[0] = "select";
		names[1] = "scatter";
	} else if (is_op(in, "fusion")) {
		names[0] = "calls";
	} else if (is_op(in, "custom-call")) {
		return 0;	/* called_computations: the target's business */
	} else if (is_op(in, "conditional")) {
		fmtbuf_puts(w->f, ", branch_computations={");
		for (i = 0; i < n; i++)
			fmtbuf_printf(w->f, "%s%%%s", i ? ", " : "",
				      comp_name(w, in->called_computation_ids[i]));
		fmtbuf_puts(w->f, "}");
		return 0;
	}
	if (n > 2 || (n == 2 && !names[1]))
		return fail_at(w, "it calls more computations than its opcode takes");
	for (i = 0; i < n; i++)
		fmtbuf_printf(w->f, ", %s=%%%s", names[i], comp_name(w, in->called_computation_ids[i]));
	return 0;
}

static bool takes_dimensions(const Xla__HloInstructionProto *in)
{
	static const char *const ops[] = { "broadcast", "transpose", "reduce", "reverse",
					   "concatenate", "map", "sort" };
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is_op(in, ops[i]))
			return true;
	return false;
}

static void write_dims_numbers(struct wr *w)
{
	const Xla__HloInstructionProto *in = w->in;
	struct fmtbuf *f = w->f;

	if (in->dot_dimension_numbers && is_op(in, "dot")) {
		const Xla__DotDimensionNumbers *d = in->dot_dimension_numbers;

		if (d->n_lhs_batch_dimensions || d->n_rhs_batch_dimensions) {
			put_ints(f, "lhs_batch_dims", d->lhs_batch_dimensions,
				 d->n_lhs_batch_dimensions);
			put_ints(f, "rhs_batch_dims", d->rhs_batch_dimensions,
				 d->n_rhs_batch_dimensions);
		}
		put_ints(f, "lhs_contracting_dims", d->lhs_contracting_dimensions,
			 d->n_lhs_contracting_dimensions);
		put_ints(f, "rhs_contracting_dims", d->rhs_contracting_dimensions,
			 d->n_rhs_contracting_dimensions);
	}
	if (in->gather_dimension_numbers && is_op(in, "gather")) {
		const Xla__GatherDimensionNumbers *g = in->gather_dimension_numbers;

		put_ints(f, "offset_dims", g->offset_dims, g->n_offset_dims);
		put_ints(f, "collapsed_slice_dims", g->collapsed_slice_dims, g->n_collapsed_slice_dims);
		put_ints(f, "start_index_map", g->start_index_map, g->n_start_index_map);
		if (g->n_operand_batching_dims || g->n_start_indices_batching_dims) {
			put_ints(f, "operand_batching_dims", g->operand_batching_dims,
				 g->n_operand_batching_dims);
			put_ints(f, "start_indices_batching_dims", g->start_indices_batching_dims,
				 g->n_start_indices_batching_dims);
		}
		fmtbuf_printf(f, ", index_vector_dim=%" PRId64, g->index_vector_dim);
		put_ints(f, "slice_sizes", in->gather_slice_sizes, in->n_gather_slice_sizes);
	}
	if (in->scatter_dimension_numbers && is_op(in, "scatter")) {
		const Xla__ScatterDimensionNumbers *s = in->scatter_dimension_numbers;

		put_ints(f, "update_window_dims", s->update_window_dims, s->n_update_window_dims);
		put_ints(f, "inserted_window_dims", s->inserted_window_dims, s->n_inserted_window_dims);
		put_ints(f, "scatter_dims_to_operand_dims", s->scatter_dims_to_operand_dims,
			 s->n_scatter_dims_to_operand_dims);
		if (s->n_input_batching_dims || s->n_scatter_indices_batching_dims) {
			put_ints(f, "input_batching_dims", s->input_batching_dims,
				 s->n_input_batching_dims);
			put_ints(f, "scatter_indices_batching_dims", s->scatter_indices_batching_dims,
				 s->n_scatter_indices_batching_dims);
		}
		fmtbuf_printf(f, ", index_vector_dim=%" PRId64, s->index_vector_dim);
	}
}

/* Is @type what a compare of @operand0's elements does anyway? XLA prints it only if not. */
static void write_group_list(struct fmtbuf *f, Xla__ReplicaGroup *const *g, size_t n)
{
	size_t i, j;

	fmtbuf_puts(f, ", replica_groups={");
	for (i = 0; i < n; i++) {
		fmtbuf_puts(f, i ? ",{" : "{");
		for (j = 0; j < g[i]->n_replica_ids; j++)
			fmtbuf_printf(f, "%s%" PRId64, j ? "," : "", g[i]->replica_ids[j]);
		fmtbuf_puts(f, "}");
	}
	fmtbuf_puts(f, "}");
}

/* [G,S]<=[dims]T(perm), which the text reader expands (and checks). */
static int write_iota_list(struct wr *w, const Xla__IotaReplicaGroupListProto *l)
{
	struct fmtbuf *f = w->f;
	int64_t all;
	size_t i;

	if (__builtin_mul_overflow(l->num_replica_groups, l->num_devices_per_group, &all))
		return fail_at(w, "its iota groups count more ids than there can be");

	fmtbuf_printf(f, ", replica_groups=[%" PRId64 ",%" PRId64 "]<=[", l->num_replica_groups,
		      l->num_devices_per_group);
	for (i = 0; i < l->n_iota_reshape_dims; i++)
		fmtbuf_printf(f, "%s%" PRId64, i ? "," : "", l->iota_reshape_dims[i]);
	if (!l->n_iota_reshape_dims)	/* XLA's default: one dimension of every id */
		fmtbuf_printf(f, "%" PRId64, all);
	fmtbuf_puts(f, "]");
	if (l->n_iota_transpose_perm) {
		fmtbuf_puts(f, "T(");
		for (i = 0; i < l->n_iota_transpose_perm; i++)
			fmtbuf_printf(f, "%s%d", i ? "," : "", l->iota_transpose_perm[i]);
		fmtbuf_puts(f, ")");
	}
	return 0;
}

/*
 * A collective's groups come in one of three fields (the newest first);
 * every collective but collective-permute prints them, empty or not.
 */
static int write_collective(struct wr *w)
{
	const Xla__HloInstructionProto *in = w->in;
	const Xla__CollectiveDeviceListProto *l = in->collective_device_list;
	struct fmtbuf *f = w->f;
	size_t i;
	int ret = 0;

	if (in->iota_collective_device_list)
		ret = write_iota_list(w, in->iota_collective_device_list);
	else if (l && l->iota_replica_group_list)
		ret = write_iota_list(w, l->iota_replica_group_list);
	else if (l && l->n_replica_groups)
		write_group_list(f, l->replica_groups, l->n_replica_groups);
	else if (in->n_replica_groups || !is_op(in, "collective-permute"))
		write_group_list(f, in->replica_groups, in->n_replica_groups);
	if (ret)
		return -1;
	if (in->n_source_target_pairs) {
		fmtbuf_puts(f, ", source_target_pairs={");
		for (i = 0; i < in->n_source_target_pairs; i++)
			fmtbuf_printf(f, "%s{%" PRId64 ",%" PRId64 "}", i ? "," : "",
				      in->source_target_pairs[i]->source,
				      in->source_target_pairs[i]->target);
		fmtbuf_puts(f, "}");
	}
	if (in->channel_id > 0)
		fmtbuf_printf(f, ", channel_id=%" PRId64, in->channel_id);
	if (in->use_global_device_ids)
		fmtbuf_puts(f, ", use_global_device_ids=true");
	if (in->constrain_layout)
		fmtbuf_puts(f, ", constrain_layout=true");
	return 0;
}

static bool is_collective(const Xla__HloInstructionProto *in)
{
	static const char *const ops[] = {
		"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
		"collective-broadcast", "all-reduce-start", "all-gather-start",
		"collective-permute-start",
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (is_op(in, ops[i]))
			return true;
	return false;
}

static bool default_comparison(const char *type, const Xla__ShapeProto *operand0)
{
	int t = operand0 ? operand0->element_type : 0;
	const char *dflt;

	if (xrt_dtype_is_array(narrow_type(t)))
		return !strcmp(type, xrt_dtype_is_float(narrow_type(t)) ? "FLOAT" :
			       xrt_dtype_is_signed(narrow_type(t)) ? "SIGNED" : "UNSIGNED");
	switch (t) {
	case XLA__PRIMITIVE_TYPE__F16: case XLA__PRIMITIVE_TYPE__BF16:
	case XLA__PRIMITIVE_TYPE__F32: case XLA__PRIMITIVE_TYPE__F64:
	case XLA__PRIMITIVE_TYPE__C64: case XLA__PRIMITIVE_TYPE__C128:
		dflt = "FLOAT";
		break;
	case XLA__PRIMITIVE_TYPE__S8: case XLA__PRIMITIVE_TYPE__S16:
	case XLA__PRIMITIVE_TYPE__S32: case XLA__PRIMITIVE_TYPE__S64:
		dflt = "SIGNED";
		break;
	default:
		dflt = "UNSIGNED";
		break;
	}
	return !strcmp(type, dflt);
}

/*
 * What a custom call's handler sees: its API version, its backend_config
 * (a typed FFI call's dictionary as it is, XLA's text form; another
 * version's bytes quoted), whether it has side effects, the layouts its
 * operands are handed over in (constrain_layout and
 * operand_shapes_with_layout).
 */
static int write_custom(struct wr *w, const Xla__HloInstructionProto *in)
{
	struct fmtbuf *f = w->f;
	int v = in->custom_call_api_version;
	const char *cfg = (const char *)in->backend_config.data;
	size_t n = in->backend_config.len;

	if (v > 0 && ir_api_version_name(v))
		fmtbuf_printf(f, ", api_version=%s", ir_api_version_name(v));
	else if (v)	/* the reader names it */
		fmtbuf_printf(f, ", api_version=API_VERSION_%d", v);
	if (in->custom_call_has_side_effect)
		fmtbuf_puts(f, ", custom_call_has_side_effect=true");
	if (in->constrain_layout && in->n_operand_shapes_with_layout) {
		fmtbuf_puts(f, ", operand_layout_constraints={");
		for (size_t i = 0; i < in->n_operand_shapes_with_layout; i++) {
			fmtbuf_puts(f, i ? ", " : "");
			if (write_shape(w, in->operand_shapes_with_layout[i], 0))
				return -1;
		}
		fmtbuf_puts(f, "}");
	}
	if (!n)
		return 0;
	fmtbuf_puts(f, ", backend_config=");
	if (v == XLA__CUSTOM_CALL_API_VERSION__API_VERSION_TYPED_FFI && cfg[0] == '{' &&
	    !memchr(cfg, '\0', n))
		fmtbuf_printf(f, "%.*s", (int)n, cfg);	/* read as text is */
	else
		ir_put_string(f, cfg, n);
	return 0;
}

static int write_attrs(struct wr *w, const Xla__ShapeProto *operand0)
{
	const Xla__HloInstructionProto *in = w->in;
	struct fmtbuf *f = w->f;
	size_t i;

	if (is_op(in, "iota")) {
		if (in->n_dimensions != 1)
			return fail_at(w, "an iota needs one dimension");
		fmtbuf_printf(f, ", iota_dimension=%" PRId64, in->dimensions[0]);
	} else if (takes_dimensions(in) || in->n_dimensions) {
		put_ints(f, "dimensions", in->dimensions, in->n_dimensions);
	}
	if (is_op(in, "get-tuple-element"))
		fmtbuf_printf(f, ", index=%" PRId64, in->tuple_index);
	if (in->n_slice_dimensions) {
		fmtbuf_puts(f, ", slice={");
		for (i = 0; i < in->n_slice_dimensions; i++) {
			const Xla__HloInstructionProto__SliceDimensions *s = in->slice_dimensions[i];

			fmtbuf_printf(f, "%s[%" PRId64 ":%" PRId64 ":%" PRId64 "]", i ? ", " : "",
				      s->start, s->limit, s->stride ? s->stride : 1);
		}
		fmtbuf_puts(f, "}");
	}
	if (in->n_dynamic_slice_sizes)
		put_ints(f, "dynamic_slice_sizes", in->dynamic_slice_sizes,
			 in->n_dynamic_slice_sizes);
	if (in->padding_config && is_op(in, "pad")) {
		fmtbuf_puts(f, ", padding=");
		for (i = 0; i < in->padding_config->n_dimensions; i++) {
			const Xla__PaddingConfig__PaddingConfigDimension *p =
				in->padding_config->dimensions[i];

			fmtbuf_printf(f, "%s%" PRId64 "_%" PRId64 "_%" PRId64, i ? "x" : "",
				      p->edge_padding_low, p->edge_padding_high, p->interior_padding);
		}
		if (!in->padding_config->n_dimensions)
			return fail_at(w, "a pad of a scalar has no text form");
	}
	if (in->window && in->window->n_dimensions)
		write_window(f, in->window);
	if (in->convolution_dimension_numbers &&
	    write_conv_labels(w, in->convolution_dimension_numbers,
			      operand0 ? operand0->n_dimensions : 0))
		return -1;
	if (in->feature_group_count > 1)
		fmtbuf_printf(f, ", feature_group_count=%" PRId64, in->feature_group_count);
	if (in->batch_group_count > 1)
		fmtbuf_printf(f, ", batch_group_count=%" PRId64, in->batch_group_count);
	write_dims_numbers(w);
	if (is_op(in, "reduce-precision"))
		fmtbuf_printf(f, ", exponent_bits=%d, mantissa_bits=%d", in->exponent_bits,
			      in->mantissa_bits);
	if (is_op(in, "topk"))
		fmtbuf_printf(f, ", k=%" PRId64 ", largest=%s", in->k, in->largest ? "true" : "false");
	if (!strncmp(in->opcode, "batch-norm-", 11))
		fmtbuf_printf(f, ", epsilon=%.9g, feature_index=%" PRId64, (double)in->epsilon,
			      in->feature_index);
	if (is_op(in, "cholesky"))
		fmtbuf_printf(f, ", lower=%s", in->cholesky_options &&
			      in->cholesky_options->lower ? "true" : "false");
	if (is_op(in, "triangular-solve") && in->triangular_solve_options) {
		static const char *const tr[] = { "INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT" };
		const Xla__TriangularSolveOptions *t = in->triangular_solve_options;

		if ((unsigned int)t->transpose_a > 3)
			return fail_at(w, "its transpose_a is none of XLA's");
		fmtbuf_printf(f, ", left_side=%s, lower=%s, unit_diagonal=%s, transpose_a=%s",
			      t->left_side ? "true" : "false", t->lower ? "true" : "false",
			      t->unit_diagonal ? "true" : "false", tr[t->transpose_a]);
	}
	if (is_op(in, "fft")) {
		static const char *const kinds[] = { "FFT", "IFFT", "RFFT", "IRFFT" };

		if ((unsigned int)in->fft_type >= 4)
			return fail_at(w, "its fft_type is none of FFT, IFFT, RFFT and IRFFT");
		fmtbuf_printf(f, ", fft_type=%s", kinds[in->fft_type]);
		put_ints(f, "fft_length", in->fft_length, in->n_fft_length);
	}
	if (is_op(in, "rng"))
		fmtbuf_puts(f, in->distribution == XLA__RANDOM_DISTRIBUTION__RNG_NORMAL ?
			    ", distribution=rng_normal" : ", distribution=rng_uniform");
	if (is_op(in, "rng-bit-generator"))
		fmtbuf_puts(f, in->rng_algorithm == XLA__RANDOM_ALGORITHM__RNG_PHILOX ?
			    ", algorithm=rng_philox" :
			    in->rng_algorithm == XLA__RANDOM_ALGORITHM__RNG_THREE_FRY ?
			    ", algorithm=rng_three_fry" : ", algorithm=rng_default");
	if (in->comparison_direction[0])
		fmtbuf_printf(f, ", direction=%s", in->comparison_direction);
	if (in->comparison_type[0] && !default_comparison(in->comparison_type, operand0))
		fmtbuf_printf(f, ", type=%s", in->comparison_type);
	if (in->is_stable)
		fmtbuf_puts(f, ", is_stable=true");
	if (in->indices_are_sorted)
		fmtbuf_puts(f, ", indices_are_sorted=true");
	if (in->unique_indices)
		fmtbuf_puts(f, ", unique_indices=true");
	if (is_collective(in) && write_collective(w))
		return -1;
	if (in->fusion_kind[0] && is_op(in, "fusion"))
		fmtbuf_printf(f, ", kind=%s", in->fusion_kind);
	if (in->custom_call_target[0]) {
		const char *s;

		fmtbuf_puts(f, ", custom_call_target=\"");
		for (s = in->custom_call_target; *s; s++)
			fmtbuf_printf(f, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
		fmtbuf_puts(f, "\"");
		if (write_custom(w, in))
			return -1;
	}
	return write_calls(w);
}

static bool isalpha_ascii(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A name the text reader reads back as it is. */
static bool readable_name(const char *s)
{
	if (!s || !(isalpha_ascii(*s) || *s == '_'))
		return false;
	for (; *s; s++) {
		if (!(isalpha_ascii(*s) || (*s >= '0' && *s <= '9') || strchr("_.-", *s)))
			return false;
	}
	return true;
}

static int write_instr(struct wr *w, bool root)
{
	const Xla__HloInstructionProto *in = w->in;
	const Xla__ShapeProto *operand0 = NULL;
	size_t i;

	if (!readable_name(in->name))
		return fail_at(w, "its name is not one HLO text can hold");
	if (!in->opcode[0] || !readable_name(in->opcode))
		return fail_at(w, "its opcode is missing or malformed");
	fmtbuf_printf(w->f, "  %s%%%s = ", root ? "ROOT " : "", in->name);
	if (write_shape(w, in->shape, 0))
		return -1;
	fmtbuf_printf(w->f, " %s(", in->opcode);
	if (is_op(in, "parameter")) {
		fmtbuf_printf(w->f, "%" PRId64, in->parameter_number);
	} else if (is_op(in, "constant")) {
		if (write_literal(w, in->literal, in->shape, 0))
			return -1;
	}
	for (i = 0; i < in->n_operand_ids; i++) {
		const struct xp_id *o = xp_instr(w->x, in->operand_ids[i]);

		if (!o || w->x->m->computations[o->comp] != w->c)
			return fail_at(w, "an operand is not an instruction of its computation");
		if (!i)
			operand0 = w->c->instructions[o->instr]->shape;
		fmtbuf_printf(w->f, "%s%%%s", i ? ", " : "", w->c->instructions[o->instr]->name);
	}
	fmtbuf_puts(w->f, ")");
	if (write_attrs(w, operand0))
		return -1;
	fmtbuf_puts(w->f, "\n");
	return 0;
}

static int write_comp(struct xp *x, struct fmtbuf *f, uint32_t k)
{
	const Xla__HloComputationProto *c = x->m->computations[k];
	struct wr w = { x, f, c, NULL };
	bool have_root = false;
	size_t i;

	if (!readable_name(c->name))
		return xp_fail(x, "computation %u: its name is not one HLO text can hold", k);
	if (!c->n_instructions)
		return xp_fail(x, "computation '%s' has no instructions", c->name);
	fmtbuf_printf(f, "\n%s%%%s {\n", k == x->entry ? "ENTRY " : "", c->name);
	for (i = 0; i < c->n_instructions; i++) {
		w.in = c->instructions[i];
		if (write_instr(&w, w.in->id == c->root_id))
			return -1;
		have_root |= w.in->id == c->root_id;
	}
	if (!have_root)
		return xp_fail(x, "computation '%s': its root_id %" PRId64 " is none of its instructions",
			       c->name, c->root_id);
	fmtbuf_puts(f, "}\n");
	return 0;
}

int xp_write_module(struct xp *x, struct fmtbuf *f)
{
	size_t i;

	if (!readable_name(x->m->name))
		return xp_fail(x, "the module's name is not one HLO text can hold");
	fmtbuf_printf(f, "HloModule %s\n", x->m->name);
	for (i = 0; i < x->m->n_computations; i++) {
		if (write_comp(x, f, x->order[i]))
			return -1;
	}
	return 0;
}
