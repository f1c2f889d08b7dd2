// SPDX-License-Identifier: MIT
/*
 * Builder functions for parameters, constants and the opcodes that work
 * element by element or move data around.
 */
#include "core/mem.h"
#include "builder_internal.h"

static const xrt_value none = { 0, -1 };

/* Per-dimension triples (slice, padding) interleaved from three arrays. */
static void triples(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
		    const int64_t *x, const int64_t *y, const int64_t *z, const char *names)
{
	const struct xrt_shape *s = bld_opnd(b, in, 0);
	int64_t v[XRT_MAX_RANK * 3];
	uint32_t i;

	if (!bld_need(b, fn, in, x && y && z ? x : NULL, s->rank, names))
		return;
	for (i = 0; i < s->rank && i < XRT_MAX_RANK; i++) {
		v[3 * i] = x[i];
		v[3 * i + 1] = y[i];
		v[3 * i + 2] = z[i];
	}
	bld_ints(b, fn, in, key, v, s->rank);
}

xrt_value xrt_build_parameter(xrt_builder *b, int64_t number, const struct xrt_shape *shape,
			      const char *name)
{
	static const char fn[] = "xrt_build_parameter";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_PARAMETER, NULL, 0);
	const struct ir_comp *c;
	uint32_t i;

	if (!in)
		return none;
	c = &b->frames[b->depth - 1].c;
	if (number < 0 || number > UINT32_MAX)
		bld_fail(b, fn, in, "parameter number %lld", (long long)number);
	for (i = 0; i + 1 < c->num_instrs; i++) {
		if (c->instrs[i].op == XRT_OP_PARAMETER && c->instrs[i].parameter == number)
			bld_fail(b, fn, in, "parameter number %lld used twice", (long long)number);
	}
	in->parameter = number;
	bld_shape(b, fn, in, shape);
	/* Keep the user's name: it is what HLO text shows in the signature. */
	if (name && !b->err) {
		char *copy = xrt_mem_strdup(b->a, name);

		if (!copy) {
			bld_oom(b, fn);
		} else {
			/* The generated name goes unused: so may its number. */
			xrt_mem_free(b->a, in->name);
			in->name = copy;
			b->next_name--;
		}
		bld_check_name(b, fn, in);
	}
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_constant(xrt_builder *b, const xrt_literal *lit)
{
	static const char fn[] = "xrt_build_constant";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_CONSTANT, NULL, 0);
	xrt_status *st;

	if (!in)
		return none;
	if (bld_need(b, fn, in, lit, 1, "the literal")) {
		st = xrt_literal_clone(b->a, lit, &in->literal);
		if (st) {
			b->err = xrt_status_annotate(st, "%s", fn);
		} else {
			bld_shape(b, fn, in, xrt_literal_shape(in->literal));
		}
	}
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_iota(xrt_builder *b, const struct xrt_shape *shape, int64_t dim)
{
	static const char fn[] = "xrt_build_iota";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_IOTA, NULL, 0);

	if (!in)
		return none;
	bld_shape(b, fn, in, shape);
	bld_int(b, fn, in, IR_ATTR_IOTA_DIMENSION, dim);
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_unary(xrt_builder *b, enum xrt_opcode op, xrt_value x)
{
	static const char fn[] = "xrt_build_unary";
	struct ir_instr *in;

	if ((op < XRT_OP_ABS || op > XRT_OP_IMAG) && op != XRT_OP_COPY) {
		if (b && !b->err && b->m)
			bld_fail(b, fn, NULL, "%s (%d) is not a unary opcode",
				 xrt_opcode_name(op), op);
		return none;
	}
	in = bld_open(b, fn, op, &x, 1);
	return in ? bld_close(b, fn, in, true) : none;
}

xrt_value xrt_build_binary(xrt_builder *b, enum xrt_opcode op, xrt_value x, xrt_value y)
{
	static const char fn[] = "xrt_build_binary";
	const xrt_value xy[2] = { x, y };
	struct ir_instr *in;

	if (op < XRT_OP_ADD || op > XRT_OP_SHIFT_RIGHT_LOGICAL) {
		if (b && !b->err && b->m)
			bld_fail(b, fn, NULL, "%s (%d) is not a binary opcode", xrt_opcode_name(op),
				 op);
		return none;
	}
	in = bld_open(b, fn, op, xy, 2);
	return in ? bld_close(b, fn, in, true) : none;
}

xrt_value xrt_build_compare(xrt_builder *b, xrt_value x, xrt_value y, enum xrt_compare_dir dir,
			    enum xrt_compare_type type)
{
	static const char fn[] = "xrt_build_compare";
	static const char *const dirs[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };
	static const char *const types[] = { NULL, "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED" };
	const xrt_value xy[2] = { x, y };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_COMPARE, xy, 2);

	if (!in)
		return none;
	if ((unsigned int)dir > XRT_CMP_GE || (unsigned int)type > XRT_CMP_UNSIGNED)
		bld_fail(b, fn, in, "comparison direction %d or type %d unknown", dir, type);
	else
		bld_word(b, fn, in, IR_ATTR_DIRECTION, dirs[dir]);
	if (type != XRT_CMP_DEFAULT && !b->err)
		bld_word(b, fn, in, IR_ATTR_TYPE, types[type]);
	return bld_close(b, fn, in, true);
}

static xrt_value ternary(xrt_builder *b, const char *fn, enum xrt_opcode op, xrt_value x,
			 xrt_value y, xrt_value z)
{
	const xrt_value xyz[3] = { x, y, z };
	struct ir_instr *in = bld_open(b, fn, op, xyz, 3);

	return in ? bld_close(b, fn, in, true) : none;
}

xrt_value xrt_build_select(xrt_builder *b, xrt_value pred, xrt_value on_true, xrt_value on_false)
{
	return ternary(b, "xrt_build_select", XRT_OP_SELECT, pred, on_true, on_false);
}

xrt_value xrt_build_clamp(xrt_builder *b, xrt_value lo, xrt_value x, xrt_value hi)
{
	return ternary(b, "xrt_build_clamp", XRT_OP_CLAMP, lo, x, hi);
}

/* The result type rides in the shape; inference supplies the dims. */
static xrt_value converted(xrt_builder *b, const char *fn, enum xrt_opcode op, xrt_value x,
			   enum xrt_dtype t)
{
	struct ir_instr *in = bld_open(b, fn, op, &x, 1);

	if (!in)
		return none;
	in->shape.dtype = t;
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_convert(xrt_builder *b, xrt_value x, enum xrt_dtype dtype)
{
	return converted(b, "xrt_build_convert", XRT_OP_CONVERT, x, dtype);
}

xrt_value xrt_build_bitcast_convert(xrt_builder *b, xrt_value x, enum xrt_dtype dtype)
{
	return converted(b, "xrt_build_bitcast_convert", XRT_OP_BITCAST_CONVERT, x, dtype);
}

xrt_value xrt_build_reduce_precision(xrt_builder *b, xrt_value x, int64_t exponent_bits,
				     int64_t mantissa_bits)
{
	static const char fn[] = "xrt_build_reduce_precision";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_REDUCE_PRECISION, &x, 1);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_EXPONENT_BITS, exponent_bits);
	bld_int(b, fn, in, IR_ATTR_MANTISSA_BITS, mantissa_bits);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_tuple(xrt_builder *b, const xrt_value *elems, uint32_t n)
{
	static const char fn[] = "xrt_build_tuple";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_TUPLE, elems, n);

	return in ? bld_close(b, fn, in, true) : none;
}

xrt_value xrt_build_get_tuple_element(xrt_builder *b, xrt_value t, int64_t index)
{
	static const char fn[] = "xrt_build_get_tuple_element";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_GET_TUPLE_ELEMENT, &t, 1);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_INDEX, index);
	return bld_close(b, fn, in, true);
}

/* An array of the operand's type with the given dims. */
static void array_of(xrt_builder *b, const char *fn, struct ir_instr *in, uint32_t rank,
		     const int64_t *dims)
{
	const struct xrt_shape *a = bld_opnd(b, in, 0);
	struct xrt_shape s;
	xrt_status *st;

	if (b->err || !bld_need(b, fn, in, dims, rank, "the dimensions"))
		return;
	if (xrt_shape_is_tuple(a)) {
		bld_fail(b, fn, in, "operand 0 is a tuple, expected an array");
		return;
	}
	st = xrt_shape_init_array(&s, a->dtype, rank, dims);
	if (st) {
		bld_fail(b, fn, in, "%s", xrt_status_message(st));
		xrt_status_free(st);
		return;
	}
	bld_shape(b, fn, in, &s);
}

xrt_value xrt_build_reshape(xrt_builder *b, xrt_value x, uint32_t rank, const int64_t *dims)
{
	static const char fn[] = "xrt_build_reshape";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_RESHAPE, &x, 1);

	if (!in)
		return none;
	array_of(b, fn, in, rank, dims);
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_bitcast(xrt_builder *b, xrt_value x, const struct xrt_shape *shape)
{
	static const char fn[] = "xrt_build_bitcast";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_BITCAST, &x, 1);

	if (!in)
		return none;
	bld_shape(b, fn, in, shape);
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_broadcast(xrt_builder *b, xrt_value x, uint32_t rank, const int64_t *dims,
			      const int64_t *bdims)
{
	static const char fn[] = "xrt_build_broadcast";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_BROADCAST, &x, 1);

	if (!in)
		return none;
	array_of(b, fn, in, rank, dims);
	bld_ints(b, fn, in, IR_ATTR_DIMENSIONS, bdims, bld_opnd(b, in, 0)->rank);
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_transpose(xrt_builder *b, xrt_value x, const int64_t *perm)
{
	static const char fn[] = "xrt_build_transpose";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_TRANSPOSE, &x, 1);

	if (!in)
		return none;
	bld_ints(b, fn, in, IR_ATTR_DIMENSIONS, perm, bld_opnd(b, in, 0)->rank);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_slice(xrt_builder *b, xrt_value x, const int64_t *start,
			  const int64_t *limit, const int64_t *stride)
{
	static const char fn[] = "xrt_build_slice";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_SLICE, &x, 1);

	if (!in)
		return none;
	triples(b, fn, in, IR_ATTR_SLICE, start, limit, stride, "start, limit or stride");
	return bld_close(b, fn, in, true);
}

/* @x, then one scalar start per dimension of @x. */
static struct ir_instr *open_with_starts(xrt_builder *b, const char *fn, enum xrt_opcode op,
					 const xrt_value *lead, uint32_t nlead,
					 const xrt_value *starts)
{
	const struct xrt_shape *s = xrt_value_shape(b, lead[0]);
	xrt_value ops[2 + XRT_MAX_RANK];
	uint32_t i, rank = s && !xrt_shape_is_tuple(s) ? s->rank : 0;

	if (b && !b->err && b->m && !starts && rank) {
		bld_fail(b, fn, NULL, "the start indices are NULL");
		return NULL;
	}
	for (i = 0; i < nlead; i++)
		ops[i] = lead[i];
	for (i = 0; i < rank; i++)
		ops[nlead + i] = starts[i];
	return bld_open(b, fn, op, ops, nlead + rank);
}

xrt_value xrt_build_dynamic_slice(xrt_builder *b, xrt_value x, const xrt_value *starts,
				  const int64_t *sizes)
{
	static const char fn[] = "xrt_build_dynamic_slice";
	struct ir_instr *in = open_with_starts(b, fn, XRT_OP_DYNAMIC_SLICE, &x, 1, starts);

	if (!in)
		return none;
	bld_ints(b, fn, in, IR_ATTR_DYNAMIC_SLICE_SIZES, sizes, in->num_operands - 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_dynamic_update_slice(xrt_builder *b, xrt_value x, xrt_value update,
					 const xrt_value *starts)
{
	static const char fn[] = "xrt_build_dynamic_update_slice";
	const xrt_value lead[2] = { x, update };
	struct ir_instr *in = open_with_starts(b, fn, XRT_OP_DYNAMIC_UPDATE_SLICE, lead, 2, starts);

	return in ? bld_close(b, fn, in, true) : none;
}

xrt_value xrt_build_concatenate(xrt_builder *b, const xrt_value *xs, uint32_t n, int64_t dim)
{
	static const char fn[] = "xrt_build_concatenate";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_CONCATENATE, xs, n);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_DIMENSIONS, dim);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_pad(xrt_builder *b, xrt_value x, xrt_value value, const int64_t *low,
			const int64_t *high, const int64_t *interior)
{
	static const char fn[] = "xrt_build_pad";
	const xrt_value xv[2] = { x, value };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_PAD, xv, 2);

	if (!in)
		return none;
	triples(b, fn, in, IR_ATTR_PADDING, low, high, interior, "low, high or interior");
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_reverse(xrt_builder *b, xrt_value x, const int64_t *dims, uint32_t n)
{
	static const char fn[] = "xrt_build_reverse";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_REVERSE, &x, 1);

	if (!in)
		return none;
	bld_ints(b, fn, in, IR_ATTR_DIMENSIONS, dims, n);
	return bld_close(b, fn, in, true);
}
