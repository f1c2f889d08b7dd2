// SPDX-License-Identifier: MIT
/*
 * EWISE and REDUCE emission: a fused tree (cc_fuse.c) becomes one
 * command's expression program.  Registers are allocated Sethi-Ullman
 * style (the child needing more goes first), so a tree of n nodes needs
 * about log2(n) of them.  A few constants the tree reads keep a register
 * of their own for the whole kernel, so that the engine fills them once
 * per command rather than once per block.
 */
#include <math.h>
#include <string.h>

#include "core/mem.h"
#include "cc.h"
#include "cc_ewp.h"

#define PIN_BELOW	12	/* pin constants while fewer registers than this are busy */

void ewp_put(struct ewp *e, uint8_t op, uint8_t fn, enum xrt_dtype t, uint32_t dst, uint32_t a,
	     uint32_t b, uint32_t c, const void *imm, size_t imm_size)
{
	struct xrt_cs_ew_inst *in;

	if (e->num_insts == XRT_CS_MAX_INSTS) {
		cc_fail(e->cc, XRT_UNIMPLEMENTED, "a kernel of more than %d instructions is not compiled yet",
			XRT_CS_MAX_INSTS);
		return;
	}
	in = &e->insts[e->num_insts++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->fn = fn;
	in->dtype = (uint8_t)t;
	in->dst = (uint8_t)dst;
	in->a = (uint8_t)a;
	in->b = (uint8_t)b;
	in->c = (uint8_t)c;
	if (imm)
		memcpy(in->imm, imm, imm_size);
}

uint32_t ewp_reg(struct ewp *e)
{
	uint32_t r;

	for (r = 0; r < XRT_CS_MAX_REGS - 1 && (e->busy >> r & 1); r++)
		;
	if (r == XRT_CS_MAX_REGS - 1)
		cc_fail(e->cc, XRT_INTERNAL, "fused kernel needs too many registers");
	e->busy |= 1u << r;
	if (r + 1 > e->num_regs)
		e->num_regs = r + 1;
	return r;
}

void ewp_give(struct ewp *e, uint32_t r)
{
	if (!(e->pinned >> r & 1))
		e->busy &= ~(1u << r);
}

/*
 * The register holding constant @c of type @t for the whole kernel, or
 * ~0u when there is no room for one more (then the caller loads it into
 * a register of its own, each block).  Floats only: integer operands of
 * a compare may be reinterpreted in their registers (emit_node).
 */
static uint32_t pinned_const(struct ewp *e, enum xrt_dtype t, const void *c)
{
	size_t size = xrt_dtype_size(t);
	uint32_t k, r;

	for (k = 0; k < e->num_pins; k++) {
		if (e->pin[k].dtype == t && !memcmp(e->pin[k].bytes, c, size))
			return e->pin[k].reg;
	}
	if (e->num_pins == PINS || !xrt_dtype_is_float(t) ||
	    size > sizeof(e->pin[0].bytes) || __builtin_popcount(e->busy) >= PIN_BELOW)
		return ~0u;
	r = ewp_reg(e);
	e->pinned |= 1u << r;
	memset(e->pin[k].bytes, 0, sizeof(e->pin[k].bytes));
	memcpy(e->pin[k].bytes, c, size);
	e->pin[k].dtype = t;
	e->pin[k].reg = r;
	e->num_pins++;
	ewp_put(e, XRT_CS_EW_CONST, 0, t, r, 0, 0, 0, c, size);
	return r;
}

/* The operand index of @b over the iteration space (shared when equal). */
uint32_t ewp_operand(struct ewp *e, const struct cc_buf *b, uint8_t flags)
{
	int64_t st[XRT_MAX_RANK] = { 0 };
	struct xrt_cs_operand o;
	uint32_t i;

	if (b->rank == e->rank)
		memcpy(st, b->strides, sizeof(st));	/* rank 0: broadcast, strides 0 */
	o = cs_operand(b->slot, b->dtype, flags, b->offset, e->rank, st);
	for (i = 0; i < e->num_ops; i++) {
		if (!memcmp(&e->ops[i], &o, sizeof(o)))
			return i;
	}
	if (e->num_ops == XRT_CS_MAX_OPERANDS) {
		cc_fail(e->cc, XRT_UNIMPLEMENTED, "a kernel of more than %d operands is not compiled yet",
			XRT_CS_MAX_OPERANDS);
		return 0;
	}
	e->ops[e->num_ops] = o;
	return e->num_ops++;
}

/* Registers a subtree needs (Sethi-Ullman). */
#define RP_REGS	7	/* registers reduce-precision holds at once */

static uint32_t need(struct cc *cc, uint32_t v)
{
	const struct ir_instr *in = &cc->c->instrs[v];
	uint32_t n[3], k, j, best = 1;

	if (IV(cc, v).kind != CK_INLINE)
		return 1;
	for (k = 0; k < in->num_operands; k++)
		n[k] = need(cc, in->operands[k]);
	/* children in decreasing need: the i-th waits with i others held */
	for (k = 0; k < in->num_operands; k++) {
		uint32_t rank = 0;

		for (j = 0; j < in->num_operands; j++)
			rank += n[j] > n[k] || (n[j] == n[k] && j < k);
		if (n[k] + rank > best)
			best = n[k] + rank;
	}
	if (in->op == XRT_OP_REDUCE_PRECISION && best < RP_REGS)
		best = RP_REGS;
	return best;
}

static const uint8_t unary_fn[XRT_OP_COUNT] = {
	[XRT_OP_ABS] = XRT_CS_UN_ABS, [XRT_OP_NEGATE] = XRT_CS_UN_NEG,
	[XRT_OP_SIGN] = XRT_CS_UN_SIGN, [XRT_OP_NOT] = XRT_CS_UN_NOT,
	[XRT_OP_FLOOR] = XRT_CS_UN_FLOOR, [XRT_OP_CEIL] = XRT_CS_UN_CEIL,
	[XRT_OP_ROUND_AFZ] = XRT_CS_UN_ROUND_AFZ, [XRT_OP_ROUND_EVEN] = XRT_CS_UN_ROUND_EVEN,
	[XRT_OP_EXP] = XRT_CS_UN_EXP, [XRT_OP_EXPM1] = XRT_CS_UN_EXPM1,
	[XRT_OP_LOG] = XRT_CS_UN_LOG, [XRT_OP_LOG1P] = XRT_CS_UN_LOG1P,
	[XRT_OP_LOGISTIC] = XRT_CS_UN_LOGISTIC, [XRT_OP_SQRT] = XRT_CS_UN_SQRT,
	[XRT_OP_RSQRT] = XRT_CS_UN_RSQRT, [XRT_OP_CBRT] = XRT_CS_UN_CBRT,
	[XRT_OP_TANH] = XRT_CS_UN_TANH, [XRT_OP_SINE] = XRT_CS_UN_SIN,
	[XRT_OP_COSINE] = XRT_CS_UN_COS, [XRT_OP_TAN] = XRT_CS_UN_TAN,
	[XRT_OP_ERF] = XRT_CS_UN_ERF, [XRT_OP_IS_FINITE] = XRT_CS_UN_IS_FINITE,
	[XRT_OP_POPCNT] = XRT_CS_UN_POPCNT, [XRT_OP_CLZ] = XRT_CS_UN_CLZ,
	[XRT_OP_REAL] = XRT_CS_UN_REAL, [XRT_OP_IMAG] = XRT_CS_UN_IMAG,
};

static const uint8_t binary_fn[XRT_OP_COUNT] = {
	[XRT_OP_ADD] = XRT_CS_BIN_ADD, [XRT_OP_SUBTRACT] = XRT_CS_BIN_SUB,
	[XRT_OP_MULTIPLY] = XRT_CS_BIN_MUL, [XRT_OP_DIVIDE] = XRT_CS_BIN_DIV,
	[XRT_OP_REMAINDER] = XRT_CS_BIN_REM, [XRT_OP_POWER] = XRT_CS_BIN_POW,
	[XRT_OP_MAXIMUM] = XRT_CS_BIN_MAX, [XRT_OP_MINIMUM] = XRT_CS_BIN_MIN,
	[XRT_OP_ATAN2] = XRT_CS_BIN_ATAN2, [XRT_OP_COMPLEX] = XRT_CS_BIN_COMPLEX,
	[XRT_OP_AND] = XRT_CS_BIN_AND, [XRT_OP_OR] = XRT_CS_BIN_OR,
	[XRT_OP_XOR] = XRT_CS_BIN_XOR, [XRT_OP_SHIFT_LEFT] = XRT_CS_BIN_SHL,
	[XRT_OP_SHIFT_RIGHT_ARITH] = XRT_CS_BIN_SHR_ARITH,
	[XRT_OP_SHIFT_RIGHT_LOGICAL] = XRT_CS_BIN_SHR_LOGICAL,
};

/* The integer type of @t's width with the other signedness. */
static enum xrt_dtype flip_sign(enum xrt_dtype t)
{
	static const enum xrt_dtype other[] = {
		[XRT_S8] = XRT_U8, [XRT_S16] = XRT_U16, [XRT_S32] = XRT_U32, [XRT_S64] = XRT_U64,
		[XRT_U8] = XRT_S8, [XRT_U16] = XRT_S16, [XRT_U32] = XRT_S32, [XRT_U64] = XRT_S64,
	};

	return t <= XRT_U64 && other[t] ? other[t] : t;
}

static uint8_t compare_fn(const struct ir_instr *in, enum xrt_dtype t, bool *flip)
{
	static const char *const dirs[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };
	const struct ir_attr *d = ir_instr_attr(in, IR_ATTR_DIRECTION);
	const struct ir_attr *ty = ir_instr_attr(in, IR_ATTR_TYPE);
	uint8_t fn = XRT_CS_CMP_EQ, k;

	for (k = 0; k < 6; k++) {
		if (!strcmp(d->str, dirs[k]))
			fn = XRT_CS_CMP_EQ + k;
	}
	*flip = false;
	if (ty && !strcmp(ty->str, "TOTALORDER"))
		fn |= XRT_CS_CMP_TOTAL_ORDER;
	else if (ty && xrt_dtype_is_integer(t))
		*flip = !strcmp(ty->str, "SIGNED") != xrt_dtype_is_signed(t);
	return fn;
}

static uint32_t emit_node(struct ewp *e, uint32_t v);

/* Emits @in's operands in the order of their needs; their registers. */
static void emit_operands(struct ewp *e, const struct ir_instr *in, uint32_t *r)
{
	uint32_t n[3], done = 0, k, best;

	for (k = 0; k < in->num_operands; k++)
		n[k] = need(e->cc, in->operands[k]);
	while (done != (1u << in->num_operands) - 1) {
		best = ~0u;
		for (k = 0; k < in->num_operands; k++) {
			if (!(done >> k & 1) && (best == ~0u || n[k] > n[best]))
				best = k;
		}
		r[best] = emit_node(e, in->operands[best]);
		done |= 1u << best;
	}
}

/*
 * A leaf's register; with @may_pin a constant's may be its pinned one,
 * which the caller only reads.
 */
static uint32_t emit_leaf(struct ewp *e, uint32_t v, bool may_pin)
{
	const struct cc_val *x = &IV(e->cc, v);
	const void *c = x->buf.rank <= e->rank ? cc_const_elem(e->cc, e->cc->base + v) : NULL;
	uint32_t r = c && may_pin ? pinned_const(e, x->buf.dtype, c) : ~0u;

	if (r != ~0u)
		return r;
	r = ewp_reg(e);
	if (c)
		ewp_put(e, XRT_CS_EW_CONST, 0, x->buf.dtype, r, 0, 0, 0, c,
		    xrt_dtype_size(x->buf.dtype));
	else
		ewp_put(e, XRT_CS_EW_LOAD, 0, x->buf.dtype, r, ewp_operand(e, &x->buf, XRT_CS_OPERAND_IN),
		    0, 0, NULL, 0);
	return r;
}

/* @dst (a free register of type @t) = @imm. */
static void put_const(struct ewp *e, enum xrt_dtype t, uint32_t dst, uint64_t imm)
{
	ewp_put(e, XRT_CS_EW_CONST, 0, t, dst, 0, 0, 0, &imm, xrt_dtype_size(t));
}

/*
 * reduce-precision on the float's bits @x into @d: the mantissa rounded
 * to nearest even at the kept width, exponents beyond the narrow range
 * to infinity or signed zero, NaN kept (or infinity with no mantissa).
 * @d may be @x's register: @x is read only at the start.
 */
static void emit_reduce_precision(struct ewp *e, const struct ir_instr *in, uint32_t d,
				  uint32_t x)
{
	enum xrt_dtype f = in->shape.dtype;
	enum xrt_dtype u = f == XRT_F64 ? XRT_U64 : f == XRT_F32 ? XRT_U32 : XRT_U16;
	int sm = f == XRT_F16 ? 10 : f == XRT_BF16 ? 7 : f == XRT_F32 ? 23 : 52;
	int se = f == XRT_F16 ? 5 : f == XRT_F64 ? 11 : 8;
	int64_t m = ir_instr_attr(in, IR_ATTR_MANTISSA_BITS)->ints[0];
	int64_t eb = ir_instr_attr(in, IR_ATTR_EXPONENT_BITS)->ints[0];
	uint64_t sign = 1ull << (sm + se), expmask = ((1ull << se) - 1) << sm;
	uint32_t o = ewp_reg(e), v = ewp_reg(e), t = ewp_reg(e), c = ewp_reg(e);
	uint32_t p = ewp_reg(e), s = ewp_reg(e);

	ewp_put(e, XRT_CS_EW_BITCAST, 0, u, o, x, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BITCAST, 0, u, v, x, 0, 0, NULL, 0);
	if (m < sm) {
		uint64_t last = 1ull << (sm - m);

		put_const(e, u, c, (uint64_t)(sm - m));
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_SHR_LOGICAL, u, t, v, c, 0, NULL, 0);
		put_const(e, u, c, 1);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, u, t, t, c, 0, NULL, 0);
		put_const(e, u, c, (last >> 1) - 1);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, u, t, t, c, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, u, v, v, t, 0, NULL, 0);
		put_const(e, u, c, ~(last - 1));
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, u, v, v, c, 0, NULL, 0);
	}
	if (eb < se) {
		uint64_t ebias = (1ull << (se - 1)) - 1, rbias = (1ull << (eb - 1)) - 1;

		put_const(e, u, c, expmask);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, u, t, v, c, 0, NULL, 0);
		put_const(e, u, c, sign);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, u, s, v, c, 0, NULL, 0);
		/* too small: the signed zero */
		put_const(e, u, c, (ebias - rbias) << sm);
		ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LE, XRT_PRED, p, t, c, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_SELECT, 0, u, v, p, s, v, NULL, 0);
		/* too big: the signed infinity */
		put_const(e, u, c, (ebias + rbias) << sm);
		ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_GT, XRT_PRED, p, t, c, 0, NULL, 0);
		put_const(e, u, c, expmask);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_OR, u, s, s, c, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_SELECT, 0, u, v, p, s, v, NULL, 0);
	}
	/* NaN (its bits without the sign above the infinity's) */
	put_const(e, u, c, ~sign & (sign | (sign - 1)));
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, u, t, o, c, 0, NULL, 0);
	put_const(e, u, c, expmask);
	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_GT, XRT_PRED, p, t, c, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_SELECT, 0, u, v, p, m > 0 ? o : c, v, NULL, 0);
	ewp_put(e, XRT_CS_EW_BITCAST, 0, f, d, v, 0, 0, NULL, 0);
	ewp_give(e, o);
	ewp_give(e, v);
	ewp_give(e, t);
	ewp_give(e, c);
	ewp_give(e, p);
	ewp_give(e, s);
}

static uint32_t emit_node(struct ewp *e, uint32_t v)
{
	const struct ir_instr *in = &e->cc->c->instrs[v];
	enum xrt_dtype t = in->shape.dtype, ta;
	uint32_t r[3] = { 0, 0, 0 }, d, k;
	bool flip;
	uint8_t fn;

	if (IV(e->cc, v).kind != CK_INLINE)
		return emit_leaf(e, v, true);
	k = (uint32_t)cc_identity(e->cc, in);
	if (k != ~0u)	/* the operand unchanged */
		return emit_node(e, in->operands[k]);
	emit_operands(e, in, r);
	for (k = 0; k < in->num_operands; k++)
		ewp_give(e, r[k]);
	d = ewp_reg(e);
	ta = e->cc->c->instrs[in->operands[0]].shape.dtype;
	switch (in->op) {
	case XRT_OP_COMPARE:
		fn = compare_fn(in, ta, &flip);
		if (flip) {	/* compare as the other signedness: reinterpret both */
			ewp_put(e, XRT_CS_EW_BITCAST, 0, flip_sign(ta), r[0], r[0], 0, 0, NULL, 0);
			ewp_put(e, XRT_CS_EW_BITCAST, 0, flip_sign(ta), r[1], r[1], 0, 0, NULL, 0);
		}
		ewp_put(e, XRT_CS_EW_COMPARE, fn, XRT_PRED, d, r[0], r[1], 0, NULL, 0);
		break;
	case XRT_OP_SELECT:
		ewp_put(e, XRT_CS_EW_SELECT, 0, t, d, r[0], r[1], r[2], NULL, 0);
		break;
	case XRT_OP_CLAMP:	/* min(max(lo, x), hi) */
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_MAX, t, d, r[0], r[1], 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_MIN, t, d, r[2], d, 0, NULL, 0);
		break;
	case XRT_OP_CONVERT:
		ewp_put(e, XRT_CS_EW_CONVERT, 0, t, d, r[0], 0, 0, NULL, 0);
		break;
	case XRT_OP_BITCAST_CONVERT:
		ewp_put(e, XRT_CS_EW_BITCAST, 0, t, d, r[0], 0, 0, NULL, 0);
		break;
	case XRT_OP_REDUCE_PRECISION:
		emit_reduce_precision(e, in, d, r[0]);
		break;
	default:
		if (xrt_opcode_is_unary(in->op))
			ewp_put(e, XRT_CS_EW_UNARY, unary_fn[in->op], t, d, r[0], 0, 0, NULL, 0);
		else
			ewp_put(e, XRT_CS_EW_BINARY, binary_fn[in->op], t, d, r[0], r[1], 0, NULL, 0);
	}
	return d;
}

/* The tree of @root as if it were inline (the root is never inline). */
uint32_t ewp_emit_root(struct ewp *e, uint32_t root)
{
	struct cc_val *x = &IV(e->cc, root);
	enum cc_kind saved = x->kind;
	enum xrt_opcode op = e->cc->c->instrs[root].op;
	uint32_t r;

	if (op == XRT_OP_PARAMETER || op == XRT_OP_CONSTANT)	/* a map returning its input */
		return emit_leaf(e, root, false);

	x->kind = CK_INLINE;
	r = emit_node(e, root);
	x->kind = saved;
	/* callers may write a root's register: a pinned constant is copied */
	if (e->pinned >> r & 1) {
		uint32_t copy = ewp_reg(e);

		ewp_put(e, XRT_CS_EW_BITCAST, 0, e->cc->c->instrs[root].shape.dtype, copy, r, 0, 0,
		    NULL, 0);
		r = copy;
	}
	return r;
}


static void init_ewp(struct ewp *e, struct cc *cc, uint32_t rank, const int64_t *dims)
{
	memset(e, 0, sizeof(*e));
	e->cc = cc;
	e->rank = rank;
	e->dims = dims;
}

void cc_emit_ewise_n(struct cc *cc, const uint32_t *roots, uint32_t n,
		     const struct cc_buf *outs)
{
	cc_emit_masked_n(cc, roots, n, outs, NULL);
}

void cc_emit_ewise(struct cc *cc, uint32_t root, const struct cc_buf *out)
{
	cc_emit_ewise_n(cc, &root, 1, out);
}

/* Does every operand step over dim @outer as over @n of dim @inner? */
static bool walks_as_one(const struct xrt_cs_operand *ops, uint32_t num_ops, uint32_t outer,
			 uint32_t inner, uint64_t n)
{
	uint32_t i;

	for (i = 0; i < num_ops; i++) {
		if (ops[i].strides[outer] != ops[i].strides[inner] * (int64_t)n)
			return false;
	}
	return true;
}

/*
 * Makes a space of elements as flat as its operands allow: neighbouring
 * dims that every operand walks as one merge, dims of size 1 go (one is
 * kept for a single element, with stride 1: any stride reads it, and 1
 * lets it be read in place).  The same elements in the same row-major
 * order, in fewer and longer rows, which is what the executors pay by.
 * Its new rank; @dims has no zero.
 */
static uint32_t flatten(uint32_t rank, uint64_t *dims, struct xrt_cs_operand *ops,
			uint32_t num_ops)
{
	uint32_t d, k = 0, i;

	for (d = 0; d < rank; d++) {
		if (dims[d] == 1 && (k || d + 1 < rank))
			continue;
		if (k && dims[k - 1] != 1 && walks_as_one(ops, num_ops, k - 1, d, dims[d])) {
			dims[k - 1] *= dims[d];
		} else {
			dims[k] = dims[d];
			k++;
		}
		for (i = 0; i < num_ops; i++)
			ops[i].strides[k - 1] = dims[k - 1] == 1 ? 1 : ops[i].strides[d];
	}
	for (i = 0; i < num_ops; i++)
		for (d = k; d < rank; d++)
			ops[i].strides[d] = 0;
	return k;
}

/*
 * Emits @e's program over @dst's space, flattened, if it has elements,
 * and frees @e.
 */
void ewp_emit_small(struct ewp *e, const struct cc_buf *dst, uint32_t num_regs)
{
	uint64_t dims[XRT_MAX_RANK];
	uint32_t d, n = 1;

	for (d = 0; d < dst->rank; d++) {
		dims[d] = (uint64_t)dst->dims[d];
		n *= (uint32_t)(dst->dims[d] != 0);
	}
	if (!e->cc->err && n)
		cs_ewise(&e->cc->b, flatten(dst->rank, dims, e->ops, e->num_ops), dims, e->ops,
			 e->num_ops, e->insts, e->num_insts, num_regs);
	xrt_mem_free(e->cc->a, e);
}

struct ewp *ewp_new_small(struct cc *cc, const struct cc_buf *dst)
{
	struct ewp *e = xrt_mem_alloc(cc->a, sizeof(*e));

	if (!e)
		cc_oom(cc);
	else
		init_ewp(e, cc, dst->rank, dst->dims);
	return e;
}

struct ewp *cc_ew_new(struct cc *cc, const struct cc_buf *space)
{
	return ewp_new_small(cc, space);
}

uint32_t cc_ew_reg(struct ewp *e)
{
	return ewp_reg(e);
}

void cc_ew_put(struct ewp *e, uint8_t op, uint8_t fn, enum xrt_dtype t, uint32_t dst,
	       uint32_t a, uint32_t b, uint32_t c)
{
	ewp_put(e, op, fn, t, dst, a, b, c, NULL, 0);
}

void cc_ew_free(struct ewp *e, uint32_t r)
{
	ewp_give(e, r);
}

void cc_ew_const(struct ewp *e, enum xrt_dtype t, uint32_t dst, uint64_t imm)
{
	put_const(e, t, dst, imm);
}

void cc_ew_load(struct ewp *e, uint32_t dst, const struct cc_buf *b)
{
	ewp_put(e, XRT_CS_EW_LOAD, 0, b->dtype, dst, ewp_operand(e, b, XRT_CS_OPERAND_IN), 0, 0, NULL, 0);
}

void cc_ew_store(struct ewp *e, const struct cc_buf *b, uint32_t src)
{
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, b, XRT_CS_OPERAND_OUT), src, 0, NULL, 0);
}

void cc_ew_emit(struct ewp *e, const struct cc_buf *space)
{
	ewp_emit_small(e, space, e->num_regs);
}

uint32_t cc_reducer_of(enum xrt_opcode op, enum xrt_dtype t)
{
	switch (op) {
	case XRT_OP_ADD: return XRT_CS_RED_SUM;
	case XRT_OP_MULTIPLY: return XRT_CS_RED_PROD;
	case XRT_OP_MAXIMUM: return t == XRT_PRED ? XRT_CS_RED_OR : XRT_CS_RED_MAX;
	case XRT_OP_MINIMUM: return t == XRT_PRED ? XRT_CS_RED_AND : XRT_CS_RED_MIN;
	case XRT_OP_AND: return XRT_CS_RED_AND;
	case XRT_OP_OR: return XRT_CS_RED_OR;
	default: return 0;
	}
}

/* The REDUCE op of a reducer computation, or 0. */
uint32_t cc_reducer_op(const struct ir_comp *f, enum xrt_dtype t)
{
	const struct ir_instr *r = &f->instrs[f->root];
	const struct ir_instr *a, *b;

	if (r->num_operands != 2 || f->num_params != 2)
		return 0;
	a = &f->instrs[r->operands[0]];
	b = &f->instrs[r->operands[1]];
	if (a->op != XRT_OP_PARAMETER || b->op != XRT_OP_PARAMETER || a->parameter == b->parameter)
		return 0;
	return cc_reducer_of(r->op, t);
}

/*
 * A small float's identity: -0 or the +0 of a type without one for sums
 * (f8e8m0fnu has no zero: none), 1 for products, its least and greatest
 * values (infinities where it has them) for max and min.
 */
static const void *small_identity(uint32_t op, enum xrt_dtype t, uint8_t *buf)
{
	unsigned int c, codes = 1u << xrt_dtype_bits(t), best = 0;
	double bv = op == XRT_CS_RED_MAX ? INFINITY : -INFINITY;

	memset(buf, 0, 16);
	switch (op) {
	case XRT_CS_RED_SUM:
		if (t == XRT_F8E8M0FNU)
			return NULL;
		buf[0] = xrt_small_float_from_f64(t, -0.0);
		return buf;
	case XRT_CS_RED_PROD:
		buf[0] = xrt_small_float_from_f64(t, 1.0);
		return buf;
	case XRT_CS_RED_MAX:
	case XRT_CS_RED_MIN:
		for (c = 0; c < codes; c++) {
			double v = xrt_small_float_to_f64(t, (uint8_t)c);

			if (op == XRT_CS_RED_MAX ? v < bv : v > bv) {
				bv = v;
				best = c;
			}
		}
		buf[0] = (uint8_t)best;
		return buf;
	default:
		return NULL;
	}
}

const void *cc_red_identity(uint32_t op, enum xrt_dtype t, uint8_t *buf)
{
	static const uint64_t neg_zero[] = { [XRT_F16] = 0x8000, [XRT_BF16] = 0x8000,
		[XRT_F32] = 0x80000000u, [XRT_F64] = 0x8000000000000000ull,
		[XRT_C64] = 0x80000000u, [XRT_C128] = 0x8000000000000000ull };
	static const uint64_t one[] = { [XRT_F16] = 0x3c00, [XRT_BF16] = 0x3f80,
		[XRT_F32] = 0x3f800000u, [XRT_F64] = 0x3ff0000000000000ull,
		[XRT_C64] = 0x3f800000u, [XRT_C128] = 0x3ff0000000000000ull };
	static const uint64_t inf[] = { [XRT_F16] = 0x7c00, [XRT_BF16] = 0x7f80,
		[XRT_F32] = 0x7f800000u, [XRT_F64] = 0x7ff0000000000000ull };
	size_t n = xrt_dtype_size(t), part = xrt_dtype_is_complex(t) ? n / 2 : n;
	bool fl = xrt_dtype_is_float(t) || xrt_dtype_is_complex(t);
	unsigned int w = xrt_dtype_bits(t);
	uint64_t v = 0, mask = w >= 64 ? ~0ull : (1ull << w) - 1;

	if (xrt_dtype_is_small_float(t))
		return small_identity(op, t, buf);

	memset(buf, 0, 16);
	switch (op) {
	case XRT_CS_RED_SUM:
		v = fl ? neg_zero[t] : 0;
		break;
	case XRT_CS_RED_PROD:
		v = fl ? one[t] : 1;
		break;
	case XRT_CS_RED_MAX:	/* -inf, or the least integer */
	case XRT_CS_RED_MIN:	/* +inf, or the greatest */
		if (xrt_dtype_is_complex(t))
			return NULL;
		if (fl)
			v = inf[t] | (op == XRT_CS_RED_MAX ? 1ull << (8 * n - 1) : 0);
		else if (xrt_dtype_is_signed(t))
			v = op == XRT_CS_RED_MAX ? 1ull << (w - 1) : ~0ull >> (65 - w);
		else
			v = op == XRT_CS_RED_MAX ? 0 : mask;
		break;
	case XRT_CS_RED_AND:
		v = t == XRT_PRED ? 1 : mask;
		break;
	case XRT_CS_RED_OR:
		v = 0;
		break;
	default:
		return NULL;
	}
	memcpy(buf, &v, part);	/* little-endian: the low bytes; a complex's real part */
	return buf;
}

/* @out = @out OP @init, the init (a scalar) broadcast over @out. */
static void apply_init(struct cc *cc, uint32_t op, const struct cc_buf *out,
		       const struct cc_buf *init)
{
	static const uint8_t fn[] = { [XRT_CS_RED_SUM] = XRT_CS_BIN_ADD,
		[XRT_CS_RED_PROD] = XRT_CS_BIN_MUL, [XRT_CS_RED_MAX] = XRT_CS_BIN_MAX,
		[XRT_CS_RED_MIN] = XRT_CS_BIN_MIN, [XRT_CS_RED_AND] = XRT_CS_BIN_AND,
		[XRT_CS_RED_OR] = XRT_CS_BIN_OR };
	struct cc_buf b = *init;
	struct ewp *e = cc_ew_new(cc, out);
	uint32_t x, y;

	if (!e)
		return;
	b.rank = out->rank;
	memcpy(b.dims, out->dims, sizeof(b.dims));
	memset(b.strides, 0, sizeof(b.strides));
	x = cc_ew_reg(e);
	y = cc_ew_reg(e);
	cc_ew_load(e, x, out);
	cc_ew_load(e, y, &b);
	cc_ew_put(e, XRT_CS_EW_BINARY, fn[op], out->dtype, x, x, y, 0);
	cc_ew_store(e, out, x);
	cc_ew_emit(e, out);
}

void cc_emit_reduce(struct cc *cc, uint32_t root)
{
	const struct ir_instr *in = &cc->c->instrs[root];
	const struct ir_instr *src = &cc->c->instrs[in->operands[0]];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const struct ir_attr *dims = ir_instr_attr(in, IR_ATTR_DIMENSIONS);
	uint32_t op = cc_reducer_op(f, in->shape.dtype), mask = 0, d, k, r, n = 1;
	const void *init = cc_const_elem(cc, cc_opnd(cc, in, 1));
	const struct cc_buf *out = &IV(cc, root).buf;
	struct cc_buf ob = *out;
	uint64_t udims[XRT_MAX_RANK];
	uint8_t id[16];
	struct ewp *e;
	bool late = false;

	/*
	 * An init known only at run time joins once per output after a
	 * reduction from the identity: the reducer is associative and
	 * commutative, as XLA requires of it.
	 */
	if (op && !init) {
		init = cc_red_identity(op, in->shape.dtype, id);
		late = true;
	}
	if (!op || !init) {
		cc_fail(cc, XRT_UNIMPLEMENTED, "reduce with %s is not compiled yet",
			!op ? "this reducer computation" : "an init that is not a constant");
		return;
	}
	for (k = 0; k < dims->n; k++)
		mask |= 1u << dims->ints[k];
	/* The output over the input's dims: stride 0 where reduced. */
	ob.rank = src->shape.rank;
	for (d = 0, k = 0; d < src->shape.rank; d++) {
		ob.dims[d] = src->shape.dims[d];
		ob.strides[d] = mask >> d & 1 ? 0 : out->strides[k++];
		udims[d] = (uint64_t)src->shape.dims[d];
		n *= (uint32_t)(src->shape.dims[d] != 0);
	}
	e = xrt_mem_alloc(cc->a, sizeof(*e));
	if (!e) {
		cc_oom(cc);
		return;
	}
	init_ewp(e, cc, src->shape.rank, src->shape.dims);
	r = emit_node(e, in->operands[0]);
	ewp_operand(e, &ob, XRT_CS_OPERAND_OUT);
	if (!cc->err && n)
		cs_reduce(&cc->b, op, src->shape.rank, udims, mask, e->ops, e->num_ops, e->insts,
			  e->num_insts, e->num_regs, r, init, xrt_dtype_size(in->shape.dtype));
	else if (!cc->err)	/* nothing to reduce: the output is the init */
		cc_fill_value(cc, out, init);
	xrt_mem_free(cc->a, e);
	if (late && !cc->err)
		apply_init(cc, op, out, &cc->vals[cc_opnd(cc, in, 1)].buf);
}

void cc_emit_reduce_view(struct cc *cc, uint32_t op, const struct cc_buf *in,
			 const struct cc_buf *out, uint32_t mask, const void *init)
{
	uint64_t dims[XRT_MAX_RANK];
	struct ewp *e = xrt_mem_alloc(cc->a, sizeof(*e));
	uint32_t d, n = 1;

	if (!e) {
		cc_oom(cc);
		return;
	}
	init_ewp(e, cc, in->rank, in->dims);
	ewp_put(e, XRT_CS_EW_LOAD, 0, in->dtype, 0, ewp_operand(e, in, XRT_CS_OPERAND_IN), 0, 0, NULL, 0);
	ewp_operand(e, out, XRT_CS_OPERAND_OUT);
	for (d = 0; d < in->rank; d++) {
		dims[d] = (uint64_t)in->dims[d];
		n *= (uint32_t)(in->dims[d] != 0);
	}
	if (!cc->err && n)
		cs_reduce(&cc->b, op, in->rank, dims, mask, e->ops, e->num_ops, e->insts,
			  e->num_insts, 1, 0, init, xrt_dtype_size(in->dtype));
	xrt_mem_free(cc->a, e);
}
