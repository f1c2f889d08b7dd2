// SPDX-License-Identifier: MIT
/*
 * Simplification before lowering.
 *
 * Constant folding: an instruction whose operands are all constants (or
 * views of constants, or folded already) and whose result is small is
 * computed now, by the reference evaluator on a module of just that
 * instruction, as XLA folds with its own evaluator; the result goes to
 * the constants.  Instructions that call computations, draw random
 * numbers or have tuples are left to run.
 *
 * Algebraic identities that are exact for every input, NaN and signed
 * zeros included: x + -0, x - 0, x * 1, x / 1, x & all-ones, x | 0,
 * x ^ 0, converts and bitcast-converts to the same type, and select on
 * a constant predicate give one operand unchanged.
 */
#include <stdio.h>
#include <string.h>

#include <xrt/evaluate.h>

#include "core/mem.h"
#include "cc.h"
#include "ir/opcode.h"

#define FOLD_MAX_ELEMS	1024	/* result elements of a folded instruction */
#define FOLD_MAX_READ	65536	/* operand elements it may read */
#define FOLD_MAX_OPS	8	/* operands */

static bool foldable_op(const struct ir_instr *in)
{
	uint32_t k;

	switch (in->op) {
	case XRT_OP_PARAMETER:
	case XRT_OP_CONSTANT:
	case XRT_OP_RNG:
	case XRT_OP_RNG_BIT_GENERATOR:
	case XRT_OP_CUSTOM_CALL:
	case XRT_OP_TUPLE:
	case XRT_OP_GET_TUPLE_ELEMENT:
	case XRT_OP_BITCAST:	/* reads the operand's layout, which folding drops */
		return false;
	default:
		/* a collective happens on every participant, at run time */
		if (xrt_opcode_is_collective(in->op))
			return false;
		break;
	}
	for (k = 0; k < in->num_attrs; k++) {
		enum ir_attr_kind kind = ir_attr_kind(in->attrs[k].key);

		if (kind == IR_COMP || kind == IR_COMPS)
			return false;
	}
	return !xrt_shape_is_tuple(&in->shape) &&
	       xrt_shape_element_count(&in->shape) <= FOLD_MAX_ELEMS;
}

/* Every element of the constant view @b, read into @lit (default layout). */
static void read_view(const struct cc *cc, const struct cc_buf *b, xrt_literal *lit)
{
	size_t es = xrt_dtype_size(b->dtype);
	uint8_t *dst = xrt_literal_mutable_data(lit);
	int64_t idx[XRT_MAX_RANK] = { 0 }, off;
	uint64_t n = xrt_shape_element_count(xrt_literal_shape(lit)), k;
	int d;

	for (k = 0; k < n; k++) {
		off = 0;
		for (d = 0; d < (int)b->rank; d++)
			off += idx[d] * b->strides[d];
		/* signed: a reversed view steps back from its offset */
		off = (int64_t)b->offset + off * (int64_t)es;
		memcpy(dst + k * es, cc->consts + off, es);
		for (d = (int)b->rank - 1; d >= 0 && ++idx[d] == b->dims[d]; d--)
			idx[d] = 0;
	}
}

/*
 * Evaluates @in on its constant operands; the result literal, or NULL
 * (left to run) when the evaluator says no.
 */
static xrt_literal *evaluate(struct cc *cc, const struct ir_instr *in)
{
	struct ir_instr ins[FOLD_MAX_OPS + 1];
	uint32_t ops[FOLD_MAX_OPS], k;
	xrt_literal *args[FOLD_MAX_OPS] = { NULL }, *out = NULL;
	struct xrt_module m;
	struct ir_comp c = { "fold", ins, in->num_operands + 1, in->num_operands,
			     in->num_operands };
	char names[FOLD_MAX_OPS][16];
	xrt_status *st = NULL;

	memset(&m, 0, sizeof(m));
	m.alloc = cc->a;
	m.name = "fold";
	m.comps = &c;
	m.num_comps = 1;
	for (k = 0; k < in->num_operands && !st; k++) {
		const struct cc_buf *b = &cc->vals[cc_opnd(cc, in, k)].buf;

		memset(&ins[k], 0, sizeof(ins[k]));
		snprintf(names[k], sizeof(names[k]), "p%u", k);
		ins[k].name = names[k];
		ins[k].op = XRT_OP_PARAMETER;
		ins[k].parameter = k;
		st = xrt_shape_init_array(&ins[k].shape, b->dtype, b->rank, b->dims);
		if (!st)
			st = xrt_literal_create(cc->a, &ins[k].shape, &args[k]);
		if (!st)
			read_view(cc, b, args[k]);
		ops[k] = k;
	}
	ins[k] = *in;
	ins[k].operands = ops;
	if (!st)
		st = xrt_ir_evaluate(&m, (const xrt_literal *const *)args, in->num_operands, NULL,
				     cc->a, &out);
	for (k = 0; k < in->num_operands; k++)
		xrt_literal_destroy(args[k]);
	if (st && xrt_status_code(st) == XRT_RESOURCE_EXHAUSTED)
		cc_oom(cc);
	xrt_status_free(st);
	return out;
}

/* Folds instruction @i if it can; true when its value is a constant now. */
static bool fold(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint64_t read = 0;
	xrt_literal *lit;
	uint32_t k;

	if (!foldable_op(in) || in->num_operands > FOLD_MAX_OPS)
		return false;
	for (k = 0; k < in->num_operands; k++) {
		const struct cc_val *x = &cc->vals[cc_opnd(cc, in, k)];

		if (x->kind != CK_BUF || !x->is_const)
			return false;
		read += xrt_shape_element_count(&cc->c->instrs[in->operands[k]].shape);
	}
	if (read > FOLD_MAX_READ)
		return false;
	lit = evaluate(cc, in);
	if (!lit)
		return false;
	cc_lower_literal(cc, cc_iv(cc, i), lit);
	xrt_literal_destroy(lit);
	return true;
}

/* Views of constants: free, and what makes their users foldable. */
static bool is_view(enum xrt_opcode op)
{
	return op == XRT_OP_BROADCAST || op == XRT_OP_TRANSPOSE || op == XRT_OP_SLICE ||
	       op == XRT_OP_REVERSE || op == XRT_OP_RESHAPE || op == XRT_OP_COPY;
}

void cc_fold(struct cc *cc, const bool *live, bool *done)
{
	const struct ir_comp *c = cc->c;
	uint32_t i, k;

	for (i = 0; i < c->num_instrs && !cc->err; i++) {
		const struct ir_instr *in = &c->instrs[i];
		bool consts = in->num_operands > 0;

		if (!live[i] || in->op == XRT_OP_PARAMETER)
			continue;
		for (k = 0; k < in->num_operands; k++)
			consts = consts && done[in->operands[k]];
		cc->in = in;
		if (in->op == XRT_OP_CONSTANT || (consts && is_view(in->op)))
			cc_lower(cc, i);
		else if (!consts || cc->o.no_folding || !fold(cc, i))
			continue;
		done[i] = true;
		for (k = 0; k < in->num_operands; k++)
			cc_consume(cc, cc_opnd(cc, in, k));
	}
}

/* Every element of constant value @v equals the @size bytes at @want. */
static bool all_equal(const struct cc *cc, uint32_t v, const void *want, size_t size)
{
	const void *p = cc_const_elem(cc, v);

	return p && xrt_dtype_size(cc->vals[v].buf.dtype) == size && !memcmp(p, want, size);
}

static bool is_one(const struct cc *cc, uint32_t v, enum xrt_dtype t)
{
	static const uint16_t h1 = 0x3c00, b1 = 0x3f80;
	static const float f1 = 1;
	static const double d1 = 1;
	static const uint64_t i1 = 1;

	switch (t) {
	case XRT_F16: return all_equal(cc, v, &h1, 2);
	case XRT_BF16: return all_equal(cc, v, &b1, 2);
	case XRT_F32: return all_equal(cc, v, &f1, 4);
	case XRT_F64: return all_equal(cc, v, &d1, 8);
	default:
		return xrt_dtype_is_integer(t) && all_equal(cc, v, &i1, xrt_dtype_size(t));
	}
}

/* All bits @bits (0 or 1 each) in every element of @v. */
static bool is_bits(const struct cc *cc, uint32_t v, enum xrt_dtype t, int bits)
{
	uint8_t b[8];

	if (t == XRT_PRED) {
		b[0] = (uint8_t)bits;
		return all_equal(cc, v, b, 1);
	}
	memset(b, bits ? 0xff : 0, sizeof(b));
	return xrt_dtype_is_integer(t) && all_equal(cc, v, b, xrt_dtype_size(t));
}

static bool is_minus_zero(const struct cc *cc, uint32_t v, enum xrt_dtype t)
{
	static const uint16_t h = 0x8000;
	static const float f = -0.0f;
	static const double d = -0.0;

	switch (t) {
	case XRT_F16:
	case XRT_BF16: return all_equal(cc, v, &h, 2);
	case XRT_F32: return all_equal(cc, v, &f, 4);
	case XRT_F64: return all_equal(cc, v, &d, 8);
	default: return is_bits(cc, v, t, 0);
	}
}

/* +0 for floats, 0 for integers. */
static bool is_zero(const struct cc *cc, uint32_t v, enum xrt_dtype t)
{
	static const uint64_t z;

	return (xrt_dtype_is_float(t) || xrt_dtype_is_integer(t)) &&
	       all_equal(cc, v, &z, xrt_dtype_size(t));
}

int cc_identity(const struct cc *cc, const struct ir_instr *in)
{
	enum xrt_dtype t = in->shape.dtype;
	uint32_t a = in->num_operands > 0 ? cc_opnd(cc, in, 0) : 0;
	uint32_t b = in->num_operands > 1 ? cc_opnd(cc, in, 1) : 0;
	bool same = in->num_operands > 0 &&
		    cc->c->instrs[in->operands[0]].shape.dtype == t;

	switch (in->op) {
	case XRT_OP_ADD:
		return is_minus_zero(cc, b, t) ? 0 : is_minus_zero(cc, a, t) ? 1 : -1;
	case XRT_OP_SUBTRACT:
		return is_zero(cc, b, t) ? 0 : -1;
	case XRT_OP_MULTIPLY:
		return is_one(cc, b, t) ? 0 : is_one(cc, a, t) ? 1 : -1;
	case XRT_OP_DIVIDE:
		return is_one(cc, b, t) ? 0 : -1;
	case XRT_OP_AND:
		return is_bits(cc, b, t, 1) ? 0 : is_bits(cc, a, t, 1) ? 1 : -1;
	case XRT_OP_OR:
	case XRT_OP_XOR:
		return is_bits(cc, b, t, 0) ? 0 : is_bits(cc, a, t, 0) ? 1 : -1;
	case XRT_OP_CONVERT:
	case XRT_OP_BITCAST_CONVERT:
		return same ? 0 : -1;
	case XRT_OP_SELECT:
		return is_bits(cc, a, XRT_PRED, 1) ? 1 : is_bits(cc, a, XRT_PRED, 0) ? 2 : -1;
	default:
		return -1;
	}
}
