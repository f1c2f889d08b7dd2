// SPDX-License-Identifier: MIT
/*
 * dot and convolution with operands of two element types (s8 x s16,
 * bf16 x f32: XLA allows them, the result type given), read as the same
 * instruction on operands converted to one type first.  The type is the
 * result's when both operands convert to it exactly, else the wider
 * operand's when the other converts to it exactly; any other pair has no
 * meaning that does not depend on where one rounds, and is refused.
 * Every device and the evaluator then see operands of one type.
 */
#include <string.h>

#include "hlo_parse.h"

/* Significant bits of a real type: integers hold magnitudes below 2^bits. */
static int bits(enum xrt_dtype t, bool *sign)
{
	*sign = true;
	switch (t) {
	case XRT_PRED: *sign = false; return 1;
	case XRT_S8: return 7;
	case XRT_S16: return 15;
	case XRT_S32: return 31;
	case XRT_S64: return 63;
	case XRT_U8: *sign = false; return 8;
	case XRT_U16: *sign = false; return 16;
	case XRT_U32: *sign = false; return 32;
	case XRT_U64: *sign = false; return 64;
	case XRT_BF16: return 8;
	case XRT_F16: return 11;
	case XRT_F32: case XRT_C64: return 24;
	case XRT_F64: case XRT_C128: return 53;
	case XRT_S4: return 3;
	case XRT_U4: *sign = false; return 4;
	case XRT_S2: return 1;
	case XRT_U2: *sign = false; return 2;
	case XRT_F8E5M2: case XRT_F8E5M2FNUZ: return 3;
	case XRT_F8E4M3FN: case XRT_F8E4M3B11FNUZ: case XRT_F8E4M3FNUZ: case XRT_F8E4M3: return 4;
	case XRT_F8E3M4: return 5;
	case XRT_F8E8M0FNU: *sign = false; return 1;
	case XRT_F4E2M1FN: return 2;
	default: return -1;
	}
}

/* Every value of @from is a value of @to. */
static bool exact_into(enum xrt_dtype from, enum xrt_dtype to)
{
	bool fs, ts, ff = xrt_dtype_is_float(from) || xrt_dtype_is_complex(from);
	bool tf = xrt_dtype_is_float(to) || xrt_dtype_is_complex(to);
	int fb = bits(from, &fs), tb = bits(to, &ts);

	if (from == to)
		return true;
	if (fb < 0 || tb < 0 || (xrt_dtype_is_complex(from) && !xrt_dtype_is_complex(to)))
		return false;
	/*
	 * Into a small float only its own integers (never into f8e8m0fnu,
	 * which has no zero).  Out of one into any wider float: each lies
	 * within f16's range and precision (subnormals included) but
	 * f8e8m0fnu, whose range is f32's.
	 */
	if (xrt_dtype_is_small_float(to))
		return !ff && to != XRT_F8E8M0FNU && fb <= tb;
	if (xrt_dtype_is_small_float(from))
		return tf && fb <= tb && !(from == XRT_F8E8M0FNU && to == XRT_F16);
	if (ff)		/* bf16 into f16 has the bits but not the range */
		return tf && fb <= tb && !(from == XRT_BF16 && to == XRT_F16);
	if (tf)		/* integers: every magnitude fits the significand */
		return fb <= tb;
	return (ts || !fs) && fb <= tb;
}

/* Operand @k of instruction @g converted to @t, in the empty slot *@at. */
static int convert_operand(struct hp *p, uint32_t g, uint32_t *at, uint32_t k,
			   enum xrt_dtype t)
{
	struct ir_instr *in = &p->cur->instrs[g], *c;
	uint32_t src = in->operands[k];
	const struct xrt_shape *o = &p->cur->instrs[src].shape;

	c = hp_add_instr(p, *at, XRT_OP_CONVERT, in->name, "as", k, t, o->rank, o->dims);
	if (!c || hp_set_operands(p, c, &src, 1))
		return -1;
	in->operands[k] = (*at)++;
	return 0;
}

int hlo_unmix(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	enum xrt_dtype t, lt, rt, ot = in->shape.dtype;
	const struct xrt_shape *l, *r;
	uint32_t at, g, k;

	if ((in->op != XRT_OP_DOT && in->op != XRT_OP_CONVOLUTION) || in->num_operands != 2)
		return 0;
	l = &p->cur->instrs[in->operands[0]].shape;
	r = &p->cur->instrs[in->operands[1]].shape;
	if (xrt_shape_is_tuple(l) || xrt_shape_is_tuple(r) || l->dtype == r->dtype)
		return 0;
	lt = l->dtype;
	rt = r->dtype;
	if (exact_into(lt, ot) && exact_into(rt, ot))
		t = ot;
	else if (exact_into(lt, rt))
		t = rt;
	else if (exact_into(rt, lt))
		t = lt;
	else
		return hp_fail(p, "%s: %s of %s and %s: neither converts exactly to the other "
			       "or to %s", in->name, xrt_opcode_name(in->op), xrt_dtype_name(lt),
			       xrt_dtype_name(rt), xrt_dtype_name(ot));
	if (hp_make_room(p, (lt != t) + (rt != t), &at))
		return -1;
	g = p->cur->num_instrs - 1;	/* the dot, after the new slots */
	for (k = 0; k < 2; k++) {
		const struct ir_instr *o = &p->cur->instrs[p->cur->instrs[g].operands[k]];

		if (o->shape.dtype != t && convert_operand(p, g, &at, k, t))
			return -1;
	}
	return 0;
}
