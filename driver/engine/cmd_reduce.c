// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * REDUCE: an expression over the input space, combined over some axes.
 *
 * The reduced elements of each output are numbered in row-major order of
 * the reduced dimensions and cut into segments of XRT_CS_REDUCE_SEGMENT.
 * Within a segment element j goes to lane j % XRT_CS_REDUCE_LANES; lanes
 * start from the identity and combine as a balanced tree; the result is
 * init combined with segment 0, then segment 1, and so on.  Float
 * accumulators round to their type after every step, but f16 and bf16
 * ones to f32: a long sum in 16 bits stalls once the sum outgrows the
 * addends (XLA's CPU backend avoids that by summing as a tree; the
 * result rounds to the type once, when it is stored).  Integers wrap.
 *
 * When an output has one segment, one phase computes it directly.
 * Otherwise phase 0 computes segments into the shared workspace (items
 * of SEGS_PER_ITEM segments of one output) and phase 1 combines them in
 * order.
 */
#include "ew.h"

/* Workspace past the registers: reduced-axis strides per operand. */
#define RSTR_BYTES	(sizeof(s64) * XRT_CS_MAX_OPERANDS * XRT_CS_MAX_RANK)

#define SEG		XRT_CS_REDUCE_SEGMENT
#define LANES		XRT_CS_REDUCE_LANES
#define SEGS_PER_ITEM	16

/* One accumulator: a real or complex value, an integer, an index. */
struct acc {
	double re, im;
	s64 i;
	s64 idx;
};

struct red {
	const struct xrt_cs_reduce *c;
	const struct xrt_cs_operand *ops;
	const struct xrt_cs_ew_inst *insts;
	u32 vtype;		/* type of the value register */
	u32 out, out_idx;	/* OUT operand indices (out_idx: ARG only) */
	u32 kr, rr;		/* kept and reduced ranks */
	u64 kdims[XRT_CS_MAX_RANK], rdims[XRT_CS_MAX_RANK];
	u32 kaxis[XRT_CS_MAX_RANK], raxis[XRT_CS_MAX_RANK];
	u64 outputs, reduced, segments;
};

static const struct xrt_cs_operand *red_operands(const struct xrt_cs_reduce *c)
{
	return (const void *)(c + 1);
}

static int is_arg(u32 op)
{
	return op == XRT_CS_RED_ARGMIN || op == XRT_CS_RED_ARGMAX;
}

/* The type the program leaves in the value register. */
static u32 value_type(const struct xrt_cs_reduce *c,
		      const struct xrt_cs_ew_inst *in)
{
	u32 i, t = 0;

	for (i = 0; i < c->num_insts; i++)
		if (in[i].op != XRT_CS_EW_STORE && in[i].dst == c->value_reg)
			t = in[i].dtype;
	return t;
}

static void red_init(struct red *r, const struct xrt_cs_reduce *c)
{
	u32 d, i, outs = 0;

	r->c = c;
	r->ops = red_operands(c);
	r->insts = (const void *)(r->ops + c->num_operands);
	r->vtype = value_type(c, r->insts);
	r->kr = 0;
	r->rr = 0;
	r->outputs = 1;
	r->reduced = 1;
	for (d = 0; d < c->rank; d++) {
		if (c->reduce_mask & (1u << d)) {
			r->raxis[r->rr] = d;
			r->rdims[r->rr++] = c->dims[d];
			r->reduced *= c->dims[d];
		} else {
			r->kaxis[r->kr] = d;
			r->kdims[r->kr++] = c->dims[d];
			r->outputs *= c->dims[d];
		}
	}
	r->out = 0;
	r->out_idx = 0;
	for (i = 0; i < c->num_operands; i++) {
		if (r->ops[i].flags != XRT_CS_OPERAND_OUT)
			continue;
		if (outs++)
			r->out_idx = i;
		else
			r->out = i;
	}
	r->segments = (r->reduced + SEG - 1) / SEG;
}

int engine_red_allows(u32 op, u32 t)
{
	int integer = engine_is_int(t);
	int real = (t >= XRT_CS_F16 && t <= XRT_CS_F64) || xs_is_small_float(t);

	switch (op) {
	case XRT_CS_RED_SUM:
	case XRT_CS_RED_PROD:
		return integer || real || t == XRT_CS_C64 || t == XRT_CS_C128;
	case XRT_CS_RED_MIN:
	case XRT_CS_RED_MAX:
		return integer || real || t == XRT_CS_PRED;
	case XRT_CS_RED_AND:
	case XRT_CS_RED_OR:
		return integer || t == XRT_CS_PRED;
	default:
		return integer || real;
	}
}

static int reduce_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_reduce *c = cmd;
	const struct xrt_cs_operand *ops = red_operands(c);
	u32 i, d, outs = 0, es;
	u64 odims[XRT_CS_MAX_RANK];
	u8 types[XRT_CS_MAX_REGS];
	struct red r;
	u64 need, ws;

	if (c->cmd.flags || !engine_zero(c->pad, sizeof(c->pad)))
		return engine_fail(v, ~0u, "REDUCE: flags or padding not 0", 0, 0);
	if (c->op < XRT_CS_RED_SUM || c->op > XRT_CS_RED_ARGMAX)
		return engine_fail(v, ~0u, "REDUCE: unknown op", c->op, 0);
	if (c->rank > XRT_CS_MAX_RANK || c->reduce_mask >> c->rank)
		return engine_fail(v, ~0u, "REDUCE: rank above 8 or mask past the rank",
				   c->rank, c->reduce_mask);
	if (!c->num_operands || c->num_operands > XRT_CS_MAX_OPERANDS ||
	    !c->num_regs || c->num_regs > XRT_CS_MAX_REGS ||
	    !c->num_insts || c->num_insts > XRT_CS_MAX_INSTS)
		return engine_fail(v, ~0u,
				   "REDUCE: operand, register or instruction count out of range",
				   c->num_operands, c->num_insts);
	need = sizeof(*c) + c->num_operands * sizeof(*ops) +
	       (u64)c->num_insts * sizeof(struct xrt_cs_ew_inst);
	if (size != need)
		return engine_fail(v, ~0u, "REDUCE: size differs from its arrays", size, need);
	for (d = c->rank; d < XRT_CS_MAX_RANK; d++) {
		if (c->dims[d])
			return engine_fail(v, ~0u, "REDUCE: dims past the rank not 0", d, 0);
	}
	if (engine_check_operands(v, ops, c->num_operands, c->rank, c->dims) ||
	    engine_check_outputs_apart(v, ops, c->num_operands, c->rank, c->dims) ||
	    ew_check_program(v, ops, c->num_operands,
			     (const void *)(ops + c->num_operands), c->num_insts,
			     c->num_regs, 0, types))
		return -1;
	if (c->value_reg >= c->num_regs || !types[c->value_reg])
		return engine_fail(v, ~0u, "REDUCE: value register never written",
				   c->value_reg, 0);
	red_init(&r, c);
	/*
	 * Outputs are written once per kept index even when a reduced
	 * dimension is 0 (they get init): check them over the kept space,
	 * the reduced dimensions counted as 1.
	 */
	for (d = 0; d < c->rank; d++)
		odims[d] = (c->reduce_mask & (1u << d)) ? 1 : c->dims[d];
	for (i = 0; i < c->num_operands; i++) {
		u64 lo, hi, ilo, ihi;
		u32 j;

		if (ops[i].flags != XRT_CS_OPERAND_OUT)
			continue;
		outs++;
		for (d = 0; d < c->rank; d++) {
			if ((c->reduce_mask & (1u << d)) && ops[i].strides[d])
				return engine_fail(v, i,
						   "REDUCE: output stride along a reduced dimension",
						   d, 0);
		}
		if (engine_check_span(v, i, ops[i].slot, ops[i].dtype, ops[i].offset,
				      c->rank, odims, ops[i].strides, XRT_CS_SLOT_WRITE))
			return -1;
		engine_span_bytes(ops[i].offset, xs_dtype_size(ops[i].dtype), c->rank,
				  odims, ops[i].strides, &lo, &hi);
		for (j = 0; j < c->num_operands; j++) {
			const struct xrt_cs_operand *o = &ops[j];

			if (j == i)
				continue;
			engine_span_bytes(o->offset, xs_dtype_size(o->dtype), c->rank,
					  o->flags == XRT_CS_OPERAND_OUT ? odims : c->dims,
					  o->strides, &ilo, &ihi);
			if (engine_overlap(ops[i].slot, lo, hi, o->slot, ilo, ihi))
				return engine_fail(v, i, "REDUCE: output overlaps another operand",
						   i, j);
		}
	}
	if (outs != (is_arg(c->op) ? 2u : 1u))
		return engine_fail(v, ~0u, "REDUCE: wrong number of OUT operands", outs, 0);
	if (ops[r.out].dtype != r.vtype || !engine_red_allows(c->op, r.vtype))
		return engine_fail(v, r.out, "REDUCE: op or output type does not fit the value",
				   c->op, r.vtype);
	if (is_arg(c->op) && ops[r.out_idx].dtype != XRT_CS_S32 &&
	    ops[r.out_idx].dtype != XRT_CS_S64)
		return engine_fail(v, r.out_idx, "REDUCE: index output not s32 or s64",
				   ops[r.out_idx].dtype, 0);
	es = xs_dtype_size(r.vtype);
	if (!engine_zero((const u8 *)c->init + es, sizeof(c->init) - es) ||
	    (is_arg(c->op) && !engine_zero(c->init, sizeof(c->init))) ||
	    (r.vtype == XRT_CS_PRED && c->init[0] > 1))
		return engine_fail(v, ~0u, "REDUCE: bad init bytes", c->init[0], c->init[1]);
	ws = (u64)(c->num_regs + 1) * EW_REG_BYTES + RSTR_BYTES;
	if (ws > v->prog->thread_ws_size)
		v->prog->thread_ws_size = ws;
	if (r.segments > 1) {
		if (r.outputs > (1ull << 56) / r.segments)
			return engine_fail(v, ~0u, "REDUCE: needs too much workspace",
					   r.outputs, r.segments);
		ws = r.outputs * r.segments * sizeof(struct acc);
		if (ws > v->prog->shared_ws_size)
			v->prog->shared_ws_size = ws;
	}
	/* A plan of one instruction fits in the smallest command. */
	BUILD_BUG_ON(sizeof(struct ew_plan) + sizeof(struct ew_inst_plan) >
		     sizeof(struct xrt_cs_reduce) + sizeof(struct xrt_cs_operand) +
		     sizeof(struct xrt_cs_ew_inst));
	/* rows run along the last reduced dimension */
	ew_make_plan(ops, c->num_operands, r.insts, c->num_insts, r.rr,
		     r.rr ? r.raxis[r.rr - 1] : 0, engine_count(c->rank, c->dims),
		     ew_plan_of(v->prog, c));
	return 0;
}

static u32 reduce_phases(const void *cmd)
{
	struct red r;

	red_init(&r, cmd);
	return r.segments > 1 ? 2 : 1;
}

/* Outputs per item when one item computes whole outputs. */
static u64 outputs_per_item(const struct red *r)
{
	u64 per = ENGINE_ITEM_ELEMS / (r->reduced ? r->reduced : 1);

	return per ? per : 1;
}

static u64 reduce_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	struct red r;
	u64 per;

	red_init(&r, cmd);
	if (r.segments > 1 && phase == 0)
		return r.outputs * ((r.segments + SEGS_PER_ITEM - 1) / SEGS_PER_ITEM);
	per = r.segments > 1 ? 64 : outputs_per_item(&r);
	return (r.outputs + per - 1) / per;
}

/* Rounds a float accumulator to its type (16-bit floats to f32). */
static double round_to(u32 t, double v)
{
	if (xs_is_small_float(t))
		return (float)v;
	switch (t) {
	case XRT_CS_F16:
	case XRT_CS_BF16:
	case XRT_CS_F32:
	case XRT_CS_C64:
		return (float)v;
	default:
		return v;
	}
}

static int is_nan(double v)
{
	return v != v;
}

static int sign_bit(double v)
{
	u64 b;

	memcpy(&b, &v, 8);
	return (int)(b >> 63);
}

static void identity(u32 op, u32 t, struct acc *a)
{
	int un = xs_is_unsigned(t);
	u32 w = ew_class_of(t) == EW_INT ? xs_int_width(t) : 64;
	s64 imax = w == 64 ? (un ? -1 : (s64)(~0ull >> 1)) :
		   (s64)(un ? (1ull << w) - 1 : (1ull << (w - 1)) - 1);
	s64 imin = un ? 0 : w == 64 ? (s64)(1ull << 63) : -(s64)(1ull << (w - 1));

	a->im = 0;
	a->idx = (s64)(~0ull >> 1);	/* loses every tie */
	switch (op) {
	case XRT_CS_RED_SUM:
	case XRT_CS_RED_OR:
		a->re = 0;
		a->i = 0;
		break;
	case XRT_CS_RED_PROD:
		a->re = 1;
		a->i = 1;
		break;
	case XRT_CS_RED_AND:
		a->i = t == XRT_CS_PRED ? 1 : -1;
		break;
	case XRT_CS_RED_MIN:
	case XRT_CS_RED_ARGMIN:
		a->re = __builtin_inf();
		a->i = t == XRT_CS_PRED ? 1 : imax;
		break;
	default:
		a->re = -__builtin_inf();
		a->i = t == XRT_CS_PRED ? 0 : imin;
		break;
	}
}

/* Is b strictly better than a for MIN (@min) or MAX? */
static int better(u32 t, int min, const struct acc *a, const struct acc *b)
{
	int un = t >= XRT_CS_U8 && t <= XRT_CS_U64;

	if (ew_class_of(t) != EW_INT) {
		if (is_nan(a->re))
			return 0;
		if (is_nan(b->re))
			return 1;
		return min ? b->re < a->re : b->re > a->re;
	}
	if (un)
		return min ? (u64)b->i < (u64)a->i : (u64)b->i > (u64)a->i;
	return min ? b->i < a->i : b->i > a->i;
}

static int same(u32 t, const struct acc *a, const struct acc *b)
{
	if (ew_class_of(t) != EW_INT)
		return a->re == b->re || (is_nan(a->re) && is_nan(b->re));
	return a->i == b->i;
}

/* a = a (+) b */
static void combine(u32 op, u32 t, struct acc *a, const struct acc *b)
{
	int integer = ew_class_of(t) == EW_INT;
	double re;
	s64 w = 0;

	switch (op) {
	case XRT_CS_RED_SUM:
		a->re = round_to(t, a->re + b->re);
		a->im = round_to(t, a->im + b->im);
		a->i = (s64)((u64)a->i + (u64)b->i);
		break;
	case XRT_CS_RED_PROD:
		re = a->re * b->re - a->im * b->im;
		a->im = round_to(t, a->re * b->im + a->im * b->re);
		a->re = round_to(t, re);
		a->i = (s64)((u64)a->i * (u64)b->i);
		break;
	case XRT_CS_RED_AND:
		a->i &= b->i;
		break;
	case XRT_CS_RED_OR:
		a->i |= b->i;
		break;
	case XRT_CS_RED_MIN:
	case XRT_CS_RED_MAX:
		if (better(t, op == XRT_CS_RED_MIN, a, b))
			*a = *b;
		else if (!integer && a->re == b->re && a->re == 0 &&
			 (op == XRT_CS_RED_MIN) == sign_bit(b->re))
			a->re = b->re;	/* -0 below +0 */
		break;
	default:
		if (better(t, op == XRT_CS_RED_ARGMIN, a, b) ||
		    (same(t, a, b) && b->idx < a->idx))
			*a = *b;
		break;
	}
	if (integer) {
		w = a->i;
		ew_int_wrap(t, &w, 1);
		a->i = w;
	}
}

/* Reads element @e of a value register block into an accumulator. */
static void read_value(u32 t, const void *reg, u32 e, struct acc *a)
{
	a->re = 0;
	a->im = 0;
	a->i = 0;
	switch (ew_class_of(t)) {
	case EW_INT:
		a->i = ((const s64 *)reg)[e];
		break;
	case EW_F32:
		a->re = ((const float *)reg)[e];
		a->im = 0;
		break;
	case EW_F64:
		a->re = ((const double *)reg)[e];
		a->im = 0;
		break;
	case EW_C64:
		a->re = ((const float *)reg)[2 * e];
		a->im = ((const float *)reg)[2 * e + 1];
		break;
	default:
		a->re = ((const double *)reg)[2 * e];
		a->im = ((const double *)reg)[2 * e + 1];
		break;
	}
}

/*
 * Offset of output @o's element {kept index, reduced 0} per operand, the
 * inputs' only with @inputs: when a reduced dimension is 0 an input's
 * view is empty, so its strides were never checked and may be anything
 * (finish() asks for the outputs' alone).
 */
static void output_base(const struct red *r, u64 o, int inputs, s64 *base)
{
	u64 idx[XRT_CS_MAX_RANK];
	u32 i, d;
	int k;

	for (k = (int)r->kr - 1; k >= 0; k--) {
		idx[k] = o % r->kdims[k];
		o /= r->kdims[k];
	}
	for (i = 0; i < r->c->num_operands; i++) {
		base[i] = 0;
		if (!inputs && r->ops[i].flags != XRT_CS_OPERAND_OUT)
			continue;
		for (d = 0; d < r->kr; d++)
			base[i] += (s64)idx[d] * r->ops[i].strides[r->kaxis[d]];
	}
}

/*
 * Adds @n values to the lanes, element j of the segment (j from @pos)
 * to lane j % LANES; whole groups of LANES vectorize.
 */
typedef float v4f __attribute__((vector_size(4 * sizeof(u32))));
typedef double v2d __attribute__((vector_size(2 * sizeof(u64))));

static void sum_lanes(u32 t, const void *vals, u32 n, u64 pos, float *fl,
		      double *dl)
{
	u32 e = 0;

	if (t == XRT_CS_F32) {
		const float *v = vals;
		v4f a0, a1, x;

		for (; e < n && (pos + e) % LANES; e++)
			fl[(pos + e) % LANES] += v[e];
		/* Lanes 0-3 and 4-7 as two vectors: element j to lane j % 8. */
		memcpy(&a0, fl, 16);
		memcpy(&a1, fl + 4, 16);
		for (; e + LANES <= n; e += LANES) {
			/* A single stream: ask for it early (a hint, no access). */
			__builtin_prefetch(v + e + 512);
			memcpy(&x, v + e, 16);
			a0 = a0 + x;
			memcpy(&x, v + e + 4, 16);
			a1 = a1 + x;
		}
		memcpy(fl, &a0, 16);
		memcpy(fl + 4, &a1, 16);
		for (; e < n; e++)
			fl[(pos + e) % LANES] += v[e];
		return;
	}
	{
		const double *v = vals;
		v2d a[4], x;
		u32 l;

		for (; e < n && (pos + e) % LANES; e++)
			dl[(pos + e) % LANES] += v[e];
		memcpy(a, dl, sizeof(a));
		for (; e + LANES <= n; e += LANES) {
			for (l = 0; l < 4; l++) {
				memcpy(&x, v + e + 2 * l, 16);
				a[l] = a[l] + x;
			}
		}
		memcpy(dl, a, sizeof(a));
		for (; e < n; e++)
			dl[(pos + e) % LANES] += v[e];
	}
}

typedef int v4i __attribute__((vector_size(4 * sizeof(s32))));

/*
 * combine() for f32 MIN/MAX on four lanes at once: a NaN held stays, a
 * NaN met is taken, a better value is taken, and of two zeros MAX keeps
 * +0 and MIN -0.
 */
static __always_inline v4f pick4(int min, v4f a, v4f x)
{
	v4i ai, xi, take;

	memcpy(&ai, &a, 16);
	memcpy(&xi, &x, 16);
	take = (min ? x < a : x > a) | (x != x) |
	       ((x == a) & (a == 0) & (min ? xi < 0 : xi >= 0));
	take &= a == a;
	ai = (take & xi) | (~take & ai);
	memcpy(&a, &ai, 16);
	return a;
}

static float pick1(int min, float a, float x)
{
	v4f va = { a, a, a, a }, vx = { x, x, x, x };

	return pick4(min, va, vx)[0];
}

/* Like sum_lanes, for f32 MIN (@min) or MAX. */
static void pick_lanes(int min, const float *v, u32 n, u64 pos, float *fl)
{
	u32 e = 0;
	v4f a0, a1, x;

	for (; e < n && (pos + e) % LANES; e++)
		fl[(pos + e) % LANES] = pick1(min, fl[(pos + e) % LANES], v[e]);
	memcpy(&a0, fl, 16);
	memcpy(&a1, fl + 4, 16);
	for (; e + LANES <= n; e += LANES) {
		__builtin_prefetch(v + e + 512);
		memcpy(&x, v + e, 16);
		a0 = pick4(min, a0, x);
		memcpy(&x, v + e + 4, 16);
		a1 = pick4(min, a1, x);
	}
	memcpy(fl, &a0, 16);
	memcpy(fl + 4, &a1, 16);
	for (; e < n; e++)
		fl[(pos + e) % LANES] = pick1(min, fl[(pos + e) % LANES], v[e]);
}

/* Segment @s of output @o: the lanes combined as a balanced tree. */
static void segment(const struct xrt_engine_ctx *x, const struct red *r, u64 o,
		    u64 s, u8 *regs, struct acc *out)
{
	const struct xrt_cs_reduce *c = r->c;
	s64 base[XRT_CS_MAX_OPERANDS];
	/* In the workspace: the kernel's stack is small. */
	s64 (*rstr)[XRT_CS_MAX_RANK] =
		(void *)(regs + (size_t)(c->num_regs + 1) * EW_REG_BYTES);
	u64 first = s * SEG, n = engine_min(SEG, r->reduced - first), pos = 0, len, off;
	const void *at[XRT_CS_MAX_REGS];
	struct acc lane[LANES], v;
	struct row_iter it;
	struct ew_row row = { ew_plan_of(x->prog, c) };
	u32 i, d, e, w;
	/* f32 and f64 sums: lanes in the type itself, the same arithmetic. */
	int fast = c->op == XRT_CS_RED_SUM &&
		   (r->vtype == XRT_CS_F32 || r->vtype == XRT_CS_F64);
	int pick = (c->op == XRT_CS_RED_MIN || c->op == XRT_CS_RED_MAX) &&
		   r->vtype == XRT_CS_F32;
	float fl[LANES] = { 0 };
	double dl[LANES] = { 0 };

	for (i = 0; i < LANES; i++) {
		identity(c->op, r->vtype, &lane[i]);
		if (pick)
			fl[i] = (float)lane[i].re;
	}
	output_base(r, o, 1, base);
	for (i = 0; i < c->num_operands; i++)
		for (d = 0; d < r->rr; d++)
			rstr[i][d] = r->ops[i].strides[r->raxis[d]];
	row_iter_init(&it, r->rr, r->rdims, first, n);
	while (row_iter_next(&it, &len)) {
		for (i = 0; i < c->num_operands; i++)
			row.ptr[i] = engine_ptr(x, r->ops[i].slot, r->ops[i].offset) +
				     (base[i] + row_iter_offset(&it, rstr[i])) *
				     (s64)row.plan->es[i];
		for (off = 0; off < len; off += EW_BLOCK) {
			u32 bn = (u32)engine_min(len - off, EW_BLOCK);

			ew_run_block(r->ops, r->insts, c->num_insts, &row, off, bn,
				     regs, c->num_regs, at);
			if (fast) {
				sum_lanes(r->vtype, at[c->value_reg], bn, pos, fl, dl);
				pos += bn;
				continue;
			}
			if (pick) {
				pick_lanes(c->op == XRT_CS_RED_MIN, at[c->value_reg], bn, pos, fl);
				pos += bn;
				continue;
			}
			for (e = 0; e < bn; e++, pos++) {
				read_value(r->vtype, at[c->value_reg], e, &v);
				v.idx = (s64)(first + pos);
				combine(c->op, r->vtype, &lane[pos % LANES], &v);
			}
		}
		row_iter_advance(&it, len);
	}
	for (i = 0; (fast || pick) && i < LANES; i++)
		lane[i].re = r->vtype == XRT_CS_F32 ? fl[i] : dl[i];
	for (w = 1; w < LANES; w *= 2)
		for (i = 0; i + w < LANES; i += 2 * w)
			combine(c->op, r->vtype, &lane[i], &lane[i + w]);
	*out = lane[0];
}

/* init (+) segments, then the result (and index) stored. */
static void finish(const struct xrt_engine_ctx *x, const struct red *r, u64 o,
		   const struct acc *segs, u64 nseg)
{
	const struct xrt_cs_reduce *c = r->c;
	s64 base[XRT_CS_MAX_OPERANDS];
	u8 reg[16];
	struct acc a;
	u64 s;

	if (is_arg(c->op)) {
		identity(c->op, r->vtype, &a);
	} else {
		ew_const(r->vtype, reg, c->init, 1);
		read_value(r->vtype, reg, 0, &a);
	}
	for (s = 0; s < nseg; s++)
		combine(c->op, r->vtype, &a, &segs[s]);
	output_base(r, o, 0, base);
	switch (ew_class_of(r->vtype)) {
	case EW_INT:
		memcpy(reg, &a.i, 8);
		break;
	case EW_F32: {
		float f = (float)a.re;

		memcpy(reg, &f, 4);
		break;
	}
	case EW_F64:
		memcpy(reg, &a.re, 8);
		break;
	case EW_C64: {
		float f[2] = { (float)a.re, (float)a.im };

		memcpy(reg, f, 8);
		break;
	}
	default:
		memcpy(reg, &a.re, 8);
		memcpy(reg + 8, &a.im, 8);
		break;
	}
	ew_store(r->vtype, engine_ptr(x, r->ops[r->out].slot, r->ops[r->out].offset) +
		 base[r->out] * (s64)xs_dtype_size(r->vtype), 1, reg, 1);
	if (is_arg(c->op)) {
		const struct xrt_cs_operand *io = &r->ops[r->out_idx];

		if (a.idx == (s64)(~0ull >> 1))	/* nothing was reduced */
			a.idx = 0;
		ew_store(io->dtype, engine_ptr(x, io->slot, io->offset) +
			 base[r->out_idx] * (s64)xs_dtype_size(io->dtype), 1,
			 &a.idx, 1);
	}
}

static void reduce_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		       u64 first, u64 count, void *ws)
{
	struct acc *shared = x->shared_ws, seg;
	u64 it, per, o, s, s0, s1, groups;
	struct red r;

	red_init(&r, cmd);
	if (r.segments <= 1) {
		per = outputs_per_item(&r);
		for (o = first * per; o < engine_min((first + count) * per, r.outputs); o++) {
			if (r.segments)
				segment(x, &r, o, 0, ws, &seg);
			finish(x, &r, o, &seg, r.segments);
		}
		return;
	}
	if (phase == 1) {
		for (o = first * 64; o < engine_min((first + count) * 64, r.outputs); o++)
			finish(x, &r, o, shared + o * r.segments, r.segments);
		return;
	}
	groups = (r.segments + SEGS_PER_ITEM - 1) / SEGS_PER_ITEM;
	for (it = first; it < first + count; it++) {
		o = it / groups;
		s0 = it % groups * SEGS_PER_ITEM;
		s1 = engine_min(s0 + SEGS_PER_ITEM, r.segments);
		for (s = s0; s < s1; s++)
			segment(x, &r, o, s, ws, &shared[o * r.segments + s]);
	}
}

const struct cmd_ops engine_reduce_ops = {
	.name = "REDUCE",
	.fixed_size = sizeof(struct xrt_cs_reduce),
	.validate = reduce_validate,
	.phases = reduce_phases,
	.items = reduce_items,
	.run = reduce_run,
};
