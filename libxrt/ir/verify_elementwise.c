// SPDX-License-Identifier: MIT
/*
 * Elementwise opcodes: operands of one shape (HLO has no implicit
 * broadcasting), element types each opcode takes, result types.
 */
#include <string.h>

#include "verify.h"

static bool is_float(enum xrt_dtype t)
{
	return xrt_dtype_is_float(t);
}

static bool is_int(enum xrt_dtype t)
{
	return xrt_dtype_is_integer(t);
}

static bool is_complex(enum xrt_dtype t)
{
	return xrt_dtype_is_complex(t);
}

static enum xrt_dtype part_type(enum xrt_dtype t)
{
	return t == XRT_C64 ? XRT_F32 : t == XRT_C128 ? XRT_F64 : t;
}

/* Element type of a unary opcode's result, or XRT_INVALID if not allowed. */
static enum xrt_dtype unary_type(enum xrt_opcode op, enum xrt_dtype t)
{
	switch (op) {
	case XRT_OP_ABS:
		return is_int(t) || is_float(t) ? t : is_complex(t) ? part_type(t) : XRT_INVALID;
	case XRT_OP_NEGATE:
	case XRT_OP_SIGN:
		return is_int(t) || is_float(t) || is_complex(t) ? t : XRT_INVALID;
	case XRT_OP_NOT:
		return is_int(t) || t == XRT_PRED ? t : XRT_INVALID;
	case XRT_OP_FLOOR:
	case XRT_OP_CEIL:
	case XRT_OP_ROUND_AFZ:
	case XRT_OP_ROUND_EVEN:
	case XRT_OP_LOGISTIC:
	case XRT_OP_CBRT:
	case XRT_OP_ERF:
		return is_float(t) ? t : XRT_INVALID;
	case XRT_OP_EXP:
	case XRT_OP_EXPM1:
	case XRT_OP_LOG:
	case XRT_OP_LOG1P:
	case XRT_OP_SQRT:
	case XRT_OP_RSQRT:
	case XRT_OP_TANH:
	case XRT_OP_SINE:
	case XRT_OP_COSINE:
	case XRT_OP_TAN:
		return is_float(t) || is_complex(t) ? t : XRT_INVALID;
	case XRT_OP_IS_FINITE:
		return is_float(t) ? XRT_PRED : XRT_INVALID;
	case XRT_OP_POPCNT:
	case XRT_OP_CLZ:
		return is_int(t) ? t : XRT_INVALID;
	default:	/* real, imag */
		return is_float(t) || is_complex(t) ? part_type(t) : XRT_INVALID;
	}
}

static bool binary_ok(enum xrt_opcode op, enum xrt_dtype t)
{
	switch (op) {
	case XRT_OP_ADD:
	case XRT_OP_SUBTRACT:
	case XRT_OP_MULTIPLY:
	case XRT_OP_DIVIDE:
	case XRT_OP_POWER:
		return is_int(t) || is_float(t) || is_complex(t);
	case XRT_OP_REMAINDER:
		return is_int(t) || is_float(t);
	case XRT_OP_MAXIMUM:
	case XRT_OP_MINIMUM:
		return is_int(t) || is_float(t) || t == XRT_PRED;
	case XRT_OP_ATAN2:	/* complex: -i log((x + iy) / sqrt(x^2 + y^2)), as XLA */
		return is_float(t) || is_complex(t);
	case XRT_OP_COMPLEX:
		return t == XRT_F32 || t == XRT_F64;
	case XRT_OP_AND:
	case XRT_OP_OR:
	case XRT_OP_XOR:
		return is_int(t) || t == XRT_PRED;
	default:	/* shifts */
		return is_int(t);
	}
}

/* Operands @first.. all arrays with the dims of operand @first. */
static int same_dims(struct vfy *v, uint32_t first, uint32_t n, bool same_type)
{
	const struct xrt_shape *a = vfy_opnd(v, first);
	uint32_t i, d;

	for (i = first; i < first + n; i++) {
		const struct xrt_shape *b = vfy_opnd(v, i);

		if (vfy_array(v, i))
			return -1;
		if (b->rank != a->rank)
			return vfy_fail(v, "operand %u has rank %u, operand %u has %u",
					i, b->rank, first, a->rank);
		for (d = 0; d < a->rank; d++) {
			if (b->dims[d] != a->dims[d])
				return vfy_fail(v, "operand %u dimension %u is %lld, operand %u's is %lld",
						i, d, (long long)b->dims[d], first,
						(long long)a->dims[d]);
		}
		if (same_type && b->dtype != a->dtype)
			return vfy_fail(v, "operand %u is %s, operand %u is %s", i,
					xrt_dtype_name(b->dtype), first,
					xrt_dtype_name(a->dtype));
	}
	return 0;
}

static int check_compare(struct vfy *v, const struct xrt_shape *a)
{
	static const char *const dirs[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };
	static const char *const types[] = { "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED" };
	const struct ir_attr *d = ir_instr_attr(v->in, IR_ATTR_DIRECTION);
	const struct ir_attr *t = ir_instr_attr(v->in, IR_ATTR_TYPE);
	size_t i;

	if (!d)
		return vfy_fail(v, "attribute 'direction' missing");
	for (i = 0; i < 6 && strcmp(d->str, dirs[i]); i++)
		;
	if (i == 6)
		return vfy_fail(v, "unknown comparison direction '%s'", d->str);
	if (is_complex(a->dtype) && i > 1)
		return vfy_fail(v, "complex numbers compare only with EQ and NE");
	if (t) {
		for (i = 0; i < 4 && strcmp(t->str, types[i]); i++)
			;
		if (i == 4)
			return vfy_fail(v, "unknown comparison type '%s'", t->str);
		if (i < 2 && !is_float(a->dtype) && !is_complex(a->dtype))
			return vfy_fail(v, "comparison type %s on %s", t->str,
					xrt_dtype_name(a->dtype));
	}
	return vfy_result(v, XRT_PRED, a->rank, a->dims);
}

static int check_select(struct vfy *v)
{
	const struct xrt_shape *p = vfy_opnd(v, 0);

	if (vfy_operands(v, 3, 3) || vfy_array(v, 0))
		return -1;
	if (p->dtype != XRT_PRED)
		return vfy_fail(v, "operand 0 is %s, expected pred", xrt_dtype_name(p->dtype));
	if (!xrt_shape_compatible(vfy_opnd(v, 1), vfy_opnd(v, 2)))
		return vfy_fail(v, "operands 1 and 2 differ in shape");
	if (p->rank && same_dims(v, 0, 2, false))
		return -1;
	return vfy_result_is(v, vfy_opnd(v, 1));
}

static int check_clamp(struct vfy *v)
{
	const struct xrt_shape *x = vfy_opnd(v, 1);
	uint32_t i;

	if (vfy_operands(v, 3, 3) || vfy_array(v, 0) || vfy_array(v, 1) || vfy_array(v, 2))
		return -1;
	for (i = 0; i < 3; i += 2) {
		const struct xrt_shape *b = vfy_opnd(v, i);

		if (b->dtype != x->dtype)
			return vfy_fail(v, "operand %u is %s, operand 1 is %s", i,
					xrt_dtype_name(b->dtype), xrt_dtype_name(x->dtype));
		if (b->rank && !xrt_shape_compatible(b, x))
			return vfy_fail(v, "operand %u is neither a scalar nor of operand 1's shape", i);
	}
	return vfy_result_is(v, x);
}

/* Same size: same dims; else one trailing dimension is added or removed. */
static int check_bitcast_convert(struct vfy *v, const struct xrt_shape *a)
{
	enum xrt_dtype t = v->in->shape.dtype;
	size_t from = xrt_dtype_size(a->dtype), to;
	int64_t dims[XRT_MAX_RANK + 1];
	uint32_t rank = a->rank;

	if (xrt_shape_is_tuple(&v->in->shape) || !xrt_dtype_is_array(t))
		return vfy_fail(v, "result is not an array");
	/* XLA regroups sub-byte elements by bits (s8[] is s4[2]): HLO's reader
	 * rewrites that into shifts (hlo_subbyte.c); the IR holds no such op */
	if (xrt_dtype_bits(t) != xrt_dtype_bits(a->dtype) &&
	    (xrt_dtype_bits(t) < 8 || xrt_dtype_bits(a->dtype) < 8))
		return vfy_fail(v, "bitcast-convert from %s to %s: the IR holds no regrouping "
				"of bits narrower than a byte (HLO's reader writes it as shifts)",
				xrt_dtype_name(a->dtype), xrt_dtype_name(t));
	to = xrt_dtype_size(t);
	memcpy(dims, a->dims, sizeof(a->dims));
	if (from > to) {
		if (rank == XRT_MAX_RANK)
			return vfy_fail(v, "narrowing needs a dimension beyond the rank limit");
		dims[rank++] = (int64_t)(from / to);
	} else if (from < to) {
		if (!rank || dims[rank - 1] != (int64_t)(to / from))
			return vfy_fail(v, "widening needs a last operand dimension of %zu",
					to / from);
		rank--;
	}
	return vfy_result(v, t, rank, dims);
}

int vfy_elementwise(struct vfy *v)
{
	enum xrt_opcode op = v->in->op;
	const struct xrt_shape *a;
	enum xrt_dtype t;
	int64_t e, mb;

	if (op == XRT_OP_SELECT)
		return check_select(v);
	if (op == XRT_OP_CLAMP)
		return check_clamp(v);
	if (vfy_operands(v, 1, xrt_opcode_is_binary(op) || op == XRT_OP_COMPARE ? 2 : 1))
		return -1;
	if (xrt_opcode_is_binary(op) || op == XRT_OP_COMPARE) {
		if (vfy_operands(v, 2, 2) || same_dims(v, 0, 2, true))
			return -1;
	} else if (vfy_array(v, 0)) {
		return -1;
	}
	a = vfy_opnd(v, 0);
	if (op == XRT_OP_COMPARE)
		return check_compare(v, a);
	if (op == XRT_OP_CONVERT) {
		if (xrt_shape_is_tuple(&v->in->shape))
			return vfy_fail(v, "result is not an array");
		return vfy_result(v, v->in->shape.dtype, a->rank, a->dims);
	}
	if (op == XRT_OP_BITCAST_CONVERT)
		return check_bitcast_convert(v, a);
	if (op == XRT_OP_REDUCE_PRECISION) {
		if (!is_float(a->dtype) || xrt_dtype_is_small_float(a->dtype))
			return vfy_fail(v, "reduce-precision of %s", xrt_dtype_name(a->dtype));
		if (vfy_int(v, IR_ATTR_EXPONENT_BITS, &e) || vfy_int(v, IR_ATTR_MANTISSA_BITS, &mb))
			return -1;
		if (e < 1 || mb < 0)
			return vfy_fail(v, "exponent_bits %lld (>= 1) or mantissa_bits %lld (>= 0)",
					(long long)e, (long long)mb);
		return vfy_result_is(v, a);
	}
	if (xrt_opcode_is_unary(op)) {
		t = unary_type(op, a->dtype);
		if (t == XRT_INVALID)
			return vfy_fail(v, "%s does not take %s", xrt_opcode_name(op),
					xrt_dtype_name(a->dtype));
		return vfy_result(v, t, a->rank, a->dims);
	}
	if (!binary_ok(op, a->dtype))
		return vfy_fail(v, "%s does not take %s", xrt_opcode_name(op),
				xrt_dtype_name(a->dtype));
	t = op == XRT_OP_COMPLEX ? (a->dtype == XRT_F32 ? XRT_C64 : XRT_C128) : a->dtype;
	return vfy_result(v, t, a->rank, a->dims);
}
