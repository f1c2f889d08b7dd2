// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Type-checking expression programs at validation: every register is
 * written before it is read, every instruction's operand and result
 * types are ones it accepts, every field it does not use is 0.
 */
#include "ew.h"

static int is_int(u32 t)
{
	return (t >= XRT_CS_S8 && t <= XRT_CS_U64) || xs_is_sub_byte_int(t);
}

static int is_float(u32 t)
{
	return (t >= XRT_CS_F16 && t <= XRT_CS_F64) || xs_is_small_float(t);
}

static int is_complex(u32 t)
{
	return t == XRT_CS_C64 || t == XRT_CS_C128;
}

/* The real type of a complex type's parts (the type itself otherwise). */
static u32 part_type(u32 t)
{
	return t == XRT_CS_C64 ? XRT_CS_F32 : t == XRT_CS_C128 ? XRT_CS_F64 : t;
}

/* Result type of a unary function on @a, or 0 if not allowed. */
static u32 unary_type(u32 fn, u32 a)
{
	switch (fn) {
	case XRT_CS_UN_ABS:
		return is_int(a) || is_float(a) ? a : is_complex(a) ? part_type(a) : 0;
	case XRT_CS_UN_NEG:
	case XRT_CS_UN_SIGN:
		return is_int(a) || is_float(a) || is_complex(a) ? a : 0;
	case XRT_CS_UN_NOT:
		return is_int(a) || a == XRT_CS_PRED ? a : 0;
	case XRT_CS_UN_FLOOR:
	case XRT_CS_UN_CEIL:
	case XRT_CS_UN_ROUND_AFZ:
	case XRT_CS_UN_ROUND_EVEN:
	case XRT_CS_UN_LOGISTIC:
	case XRT_CS_UN_CBRT:
	case XRT_CS_UN_ERF:
		return is_float(a) ? a : 0;
	case XRT_CS_UN_SQRT:
	case XRT_CS_UN_RSQRT:
	case XRT_CS_UN_EXP:
	case XRT_CS_UN_EXPM1:
	case XRT_CS_UN_LOG:
	case XRT_CS_UN_LOG1P:
	case XRT_CS_UN_TANH:
	case XRT_CS_UN_SIN:
	case XRT_CS_UN_COS:
	case XRT_CS_UN_TAN:
		return is_float(a) || is_complex(a) ? a : 0;
	case XRT_CS_UN_IS_FINITE:
		return is_float(a) ? XRT_CS_PRED : 0;
	case XRT_CS_UN_POPCNT:
	case XRT_CS_UN_CLZ:
		return is_int(a) ? a : 0;
	case XRT_CS_UN_REAL:
	case XRT_CS_UN_IMAG:
		return is_float(a) || is_complex(a) ? part_type(a) : 0;
	}
	return 0;
}

/* Is a binary function allowed on operands of type @a (both the same)? */
static int binary_ok(u32 fn, u32 a)
{
	switch (fn) {
	case XRT_CS_BIN_ADD:
	case XRT_CS_BIN_SUB:
	case XRT_CS_BIN_MUL:
	case XRT_CS_BIN_DIV:
		return is_int(a) || is_float(a) || is_complex(a);
	case XRT_CS_BIN_REM:
		return is_int(a) || is_float(a);
	case XRT_CS_BIN_POW:
		return is_int(a) || is_float(a) || is_complex(a);
	case XRT_CS_BIN_ATAN2:
		return is_float(a) || is_complex(a);
	case XRT_CS_BIN_MAX:
	case XRT_CS_BIN_MIN:
		return is_int(a) || is_float(a) || a == XRT_CS_PRED;
	case XRT_CS_BIN_AND:
	case XRT_CS_BIN_OR:
	case XRT_CS_BIN_XOR:
		return is_int(a) || a == XRT_CS_PRED;
	case XRT_CS_BIN_SHL:
	case XRT_CS_BIN_SHR_LOGICAL:
	case XRT_CS_BIN_SHR_ARITH:
		return is_int(a);
	}
	return 0;
}

static int known_unary(u32 fn)
{
	return fn >= XRT_CS_UN_ABS && fn <= XRT_CS_UN_IMAG;
}

struct ew_state {
	struct vctx *v;
	const struct xrt_cs_operand *ops;
	u32 num_ops, num_regs;
	u8 *type;		/* per register; 0 = never written */
	u8 stores[XRT_CS_MAX_OPERANDS];
};

static int bad(struct ew_state *s, u32 i, const char *why, u64 a, u64 b)
{
	return engine_fail(s->v, i, why, a, b);
}

/* The type of source register @r, or fails. */
static int src(struct ew_state *s, u32 i, u32 r, u32 *t)
{
	if (r >= s->num_regs || !s->type[r])
		return bad(s, i, "instruction reads a register never written", r, 0);
	*t = s->type[r];
	return 0;
}

static int check_compute(struct ew_state *s, u32 i,
			 const struct xrt_cs_ew_inst *in)
{
	u32 ta = 0, tb = 0, tc = 0, base;

	if (src(s, i, in->a, &ta))
		return -1;
	switch (in->op) {
	case XRT_CS_EW_UNARY:
		if (in->b || in->c)
			return bad(s, i, "unused register fields not 0", in->b, in->c);
		if (!known_unary(in->fn))
			return bad(s, i, "unknown unary function", in->fn, 0);
		if (unary_type(in->fn, ta) != in->dtype)
			return bad(s, i, "unary function does not take this type",
				   in->fn, ta);
		return 0;
	case XRT_CS_EW_BINARY:
		if (in->c || src(s, i, in->b, &tb))
			return in->c ? bad(s, i, "unused register fields not 0", in->c, 0) : -1;
		if (in->fn == XRT_CS_BIN_COMPLEX) {
			if (ta != tb || (ta != XRT_CS_F32 && ta != XRT_CS_F64) ||
			    in->dtype != (ta == XRT_CS_F32 ? XRT_CS_C64 : XRT_CS_C128))
				return bad(s, i, "COMPLEX needs two f32 (c64) or f64 (c128)",
					   ta, tb);
			return 0;
		}
		if (ta != tb || ta != in->dtype || !binary_ok(in->fn, ta))
			return bad(s, i, "binary function does not take these types",
				   in->fn, ta);
		return 0;
	case XRT_CS_EW_COMPARE:
		if (in->c || src(s, i, in->b, &tb))
			return in->c ? bad(s, i, "unused register fields not 0", in->c, 0) : -1;
		base = in->fn & ~XRT_CS_CMP_TOTAL_ORDER;
		if (base < XRT_CS_CMP_EQ || base > XRT_CS_CMP_GE ||
		    (in->fn & 0x78))
			return bad(s, i, "unknown comparison", in->fn, 0);
		if (ta != tb || in->dtype != XRT_CS_PRED)
			return bad(s, i, "comparison of different types, or not to pred",
				   ta, tb);
		if ((in->fn & XRT_CS_CMP_TOTAL_ORDER) && !is_float(ta))
			return bad(s, i, "total order is for floats", in->fn, ta);
		if (is_complex(ta) && base != XRT_CS_CMP_EQ && base != XRT_CS_CMP_NE)
			return bad(s, i, "complex numbers only compare for equality",
				   in->fn, ta);
		return 0;
	case XRT_CS_EW_SELECT:
		if (in->fn || src(s, i, in->b, &tb) || src(s, i, in->c, &tc))
			return in->fn ? bad(s, i, "fn not 0", in->fn, 0) : -1;
		if (ta != XRT_CS_PRED || tb != tc || tb != in->dtype)
			return bad(s, i, "SELECT needs a pred and two values of its type",
				   ta, tb);
		return 0;
	case XRT_CS_EW_CONVERT:
	case XRT_CS_EW_BITCAST:
		if (in->fn || in->b || in->c)
			return bad(s, i, "unused fields not 0", in->fn, in->b);
		if (in->op == XRT_CS_EW_BITCAST &&
		    (xs_dtype_size(ta) != xs_dtype_size(in->dtype) ||
		     ta == XRT_CS_PRED || in->dtype == XRT_CS_PRED))
			return bad(s, i, "BITCAST between types of different sizes, or pred",
				   ta, in->dtype);
		return 0;
	}
	return bad(s, i, "unknown instruction", in->op, 0);
}

static int check_inst(struct ew_state *s, u32 i, const struct xrt_cs_ew_inst *in,
		      int allow_store)
{
	u32 t = 0;

	if (in->pad)
		return bad(s, i, "instruction padding not 0", 0, 0);
	if (in->op != XRT_CS_EW_CONST && (in->imm[0] || in->imm[1]))
		return bad(s, i, "imm not 0", in->op, 0);
	if (in->op == XRT_CS_EW_STORE) {
		if (!allow_store)
			return bad(s, i, "STORE in an expression that cannot store", 0, 0);
		if (in->dst || in->dtype || in->fn || in->c)
			return bad(s, i, "unused fields not 0", 0, 0);
		if (in->a >= s->num_ops || s->ops[in->a].flags != XRT_CS_OPERAND_OUT)
			return bad(s, i, "STORE to an operand that is not OUT", in->a, 0);
		if (src(s, i, in->b, &t))
			return -1;
		if (t != s->ops[in->a].dtype)
			return bad(s, i, "STORE of a register of another type",
				   t, s->ops[in->a].dtype);
		if (s->stores[in->a]++)
			return bad(s, i, "operand stored twice", in->a, 0);
		return 0;
	}
	if (in->dst >= s->num_regs)
		return bad(s, i, "register out of range", in->dst, s->num_regs);
	if (!xs_dtype_size(in->dtype))
		return bad(s, i, "unknown element type", in->dtype, 0);
	if (in->op == XRT_CS_EW_LOAD) {
		if (in->fn || in->b || in->c)
			return bad(s, i, "unused fields not 0", 0, 0);
		if (in->a >= s->num_ops || s->ops[in->a].flags != XRT_CS_OPERAND_IN)
			return bad(s, i, "LOAD from an operand that is not IN", in->a, 0);
		if (in->dtype != s->ops[in->a].dtype)
			return bad(s, i, "LOAD type differs from the operand's",
				   in->dtype, s->ops[in->a].dtype);
	} else if (in->op == XRT_CS_EW_CONST) {
		t = xs_dtype_size(in->dtype);
		if (in->fn || in->a || in->b || in->c)
			return bad(s, i, "unused fields not 0", 0, 0);
		if (!engine_zero((const u8 *)in->imm + t, sizeof(in->imm) - t))
			return bad(s, i, "CONST bytes past the element size not 0", t, 0);
		if (in->dtype == XRT_CS_PRED && in->imm[0] > 1)
			return bad(s, i, "CONST pred not 0 or 1", in->imm[0], 0);
	} else if (check_compute(s, i, in)) {
		return -1;
	}
	s->type[in->dst] = in->dtype;
	return 0;
}

int ew_check_program(struct vctx *v, const struct xrt_cs_operand *ops,
		     u32 num_ops, const struct xrt_cs_ew_inst *insts,
		     u32 num_insts, u32 num_regs, int allow_store,
		     u8 *reg_types)
{
	struct ew_state s = { v, ops, num_ops, num_regs, reg_types };
	u32 i;

	memset(reg_types, 0, XRT_CS_MAX_REGS);
	memset(s.stores, 0, sizeof(s.stores));
	for (i = 0; i < num_insts; i++) {
		if (check_inst(&s, i, &insts[i], allow_store))
			return -1;
	}
	for (i = 0; allow_store && i < num_ops; i++) {
		if (ops[i].flags == XRT_CS_OPERAND_OUT && !s.stores[i])
			return engine_fail(v, i, "OUT operand never stored", i, 0);
	}
	return 0;
}
