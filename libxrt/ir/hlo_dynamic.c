// SPDX-License-Identifier: MIT
/*
 * Bounded dynamic dimensions ("f32[<=8]"), lowered as they are read,
 * the way XLA's dynamic padder lowers them: a value takes its bound's
 * room, and each dynamic dimension's size travels beside it as an s32[]
 * instruction (p->dyn, by instruction).  set-dimension-size(x, s) is x
 * with that size; get-dimension-size gives it back as set (XLA's CPU
 * backend does not clamp it either), or the bound of a static
 * dimension.  A size is only ever compared with an iota, so one past
 * the bound takes the whole dimension and a negative one none of it.
 * What lies past a size is padding that no value may depend on, so:
 *
 * - instructions that take a dimension along unmixed (elementwise ones,
 *   broadcast, transpose, slices and pads that leave it whole, sort and
 *   concatenate along another, reshapes that keep it major in its
 *   group) carry its size, scaled where a reshape merges it; a binary
 *   op of two sizes spreads one of size 1, else takes the smaller;
 * - reduce, and reduce-window whose output keeps the dimension's
 *   length, see the padding replaced by their init first; dot sees it
 *   replaced by zero where the dimension is contracted;
 * - reverse and concatenate along it, and reshapes that merge it below
 *   static dimensions, move the values (hlo_dynamic_move.c);
 * - anything else along a dynamic dimension is refused by name.
 *
 * An entry parameter's "<=N" takes its argument whole (the size is the
 * bound).  The entry's result comes at its bound, zeros past its sizes
 * (XLA's CPU backend, run from JAX, gives it at its bound with
 * unspecified values there); XLA's PadToStatic custom call returns the
 * sizes too.  A while and a conditional carry dynamic values with their
 * sizes in their tuples (hlo_dynamic_loop.c); no other computation may
 * take or return one.
 */
#include <stdio.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "hlo_dynamic.h"

static struct route carry_scaled(uint32_t to, int64_t factor)
{
	return (struct route){ W_CARRY, to, factor, NONE, 0, 0 };
}

struct ir_instr *hd_last(struct hp *p)
{
	return &p->cur->instrs[p->cur->num_instrs - 1];
}

/* The sizes of instruction @v's dynamic dimensions, or NULL. */
const struct hp_dyn *hd_dyn_of(struct hp *p, uint32_t v)
{
	return p->dyn && v < p->dyn_cap && p->dyn[v].mask ? &p->dyn[v] : NULL;
}

/* Whether @v is a loop's tuple, its elements' sizes among its elements. */
bool hd_is_loop(struct hp *p, uint32_t v)
{
	return p->dyn && v < p->dyn_cap && p->dyn[v].loop;
}

/* Whether @v or, through tuple instructions, any element of it is dynamic. */
bool hd_holds_dyn(struct hp *p, uint32_t v, uint32_t depth)
{
	const struct ir_instr *in = &p->cur->instrs[v];
	uint32_t i;

	if (hd_dyn_of(p, v) || hd_is_loop(p, v))
		return true;
	if (in->op != XRT_OP_TUPLE || depth > XRT_MAX_TUPLE_DEPTH)
		return false;
	for (i = 0; i < in->num_operands; i++)
		if (hd_holds_dyn(p, in->operands[i], depth + 1))
			return true;
	return false;
}

static bool in_list(const struct ir_instr *in, enum ir_attr_key key, uint32_t d, uint32_t *at)
{
	const struct ir_attr *a = ir_instr_attr(in, key);
	uint32_t i;

	for (i = 0; a && i < a->n; i++) {
		if (a->ints[i] == (int64_t)d) {
			if (at)
				*at = i;
			return true;
		}
	}
	return false;
}

/* Dimensions below @d in neither list @k1 nor @k2 (IR_ATTR_COUNT: none). */
static uint32_t free_below(const struct ir_instr *in, enum ir_attr_key k1, enum ir_attr_key k2,
			   uint32_t d)
{
	uint32_t i, n = 0;

	for (i = 0; i < d; i++) {
		bool in2 = k2 != IR_ATTR_COUNT && in_list(in, k2, i, NULL);

		n += !in_list(in, k1, i, NULL) && !in2;
	}
	return n;
}

static struct route carry(uint32_t to)
{
	return (struct route){ W_CARRY, to, 1, NONE };
}

static const struct route mix = { W_MIX, 0, 1, NONE };

static bool has_product(const int64_t *pr, uint32_t n, int64_t v)
{
	uint32_t i;

	for (i = 0; i <= n; i++)
		if (pr[i] == v)
			return true;
	return false;
}

/*
 * A reshape splitting dimension @d alone into result dimensions [k0, k1)
 * (their product its length): result dimension @kd, the inferred one,
 * takes the size over the others' lengths, as XLA's dynamic padder has
 * it.  Where @kd is the major one the values stay where they are;
 * otherwise each outer index takes its share (W_SPLIT: a gather).
 */
static struct route split(const int64_t *px, const int64_t *pr, const struct xrt_shape *r,
			  uint32_t d, int64_t kd)
{
	uint32_t k0, k1, t;
	int64_t others = 1;

	for (k0 = 0; k0 < r->rank && pr[k0] != px[d]; k0++)
		;
	for (k1 = k0 + 1; k1 <= r->rank && pr[k1] != px[d + 1]; k1++)
		;
	if (k1 > r->rank || kd < k0 || kd >= k1 || px[d + 1] / px[d] > INT32_MAX)
		return mix;
	for (t = k0; t < k1; t++)
		others *= t == kd ? 1 : r->dims[t];
	if (kd == k0)
		return carry_scaled(k0, -others);
	return (struct route){ W_SPLIT, (uint32_t)kd, others, NONE, k0, k1 };
}

/*
 * A reshape merges dimension @d of @x with its neighbours in a group
 * (the dimensions between the nearest points where both shapes' prefix
 * products meet) into one result dimension.  Where @d is the group's
 * only dynamic dimension and its major one, the values inside the sizes
 * stay in front and the size is scaled by the group's other lengths;
 * otherwise they are gathered to the front (W_MOVE), as XLA compacts
 * them.  One that splits @d alone takes result dimension @kd dynamic
 * (split()); other splits are refused.
 */
static struct route reshape(const struct xrt_shape *x, uint8_t mask, const struct xrt_shape *r,
			    uint32_t d, int64_t kd)
{
	int64_t px[XRT_MAX_RANK + 1], pr[XRT_MAX_RANK + 1], outer = 1, inner = 1;
	uint32_t g, e, k, t, others = 0;

	px[0] = pr[0] = 1;
	for (t = 0; t < x->rank; t++)
		px[t + 1] = px[t] * x->dims[t];
	for (t = 0; t < r->rank; t++)
		pr[t + 1] = pr[t] * r->dims[t];
	if (!x->dims[d] || px[x->rank] != pr[r->rank])
		return (struct route){ W_SKIP };	/* the verifier says what is wrong */
	for (g = d; g > 0 && !has_product(pr, r->rank, px[g]); g--)
		;
	/* past @d and growing: a group of ones would hold none of @d's elements */
	for (e = d + 1; e < x->rank && (!has_product(pr, r->rank, px[e]) || px[e] == px[g]); e++)
		;
	for (k = 0; k < r->rank && !(pr[k] == px[g] && pr[k + 1] == px[e]); k++)
		;
	if (k == r->rank && g == d && e == d + 1)
		return split(px, pr, r, d, kd);
	if (k == r->rank || px[e] / px[g] > INT32_MAX)	/* sizes are s32 */
		return mix;
	for (t = g; t < e; t++) {
		others += t != d && (mask & (1u << t));
		if (t < d)
			outer *= x->dims[t];
		if (t > d)
			inner *= x->dims[t];
	}
	if (outer == 1 && !others)
		return carry_scaled(k, inner);
	return (struct route){ W_MOVE, k, 1, NONE, g, e };
}

/* reduce-window keeps a dimension's length: stride 1, undilated input. */
static struct route window(const struct ir_instr *in, const struct xrt_shape *x, uint32_t d,
			   uint32_t fill)
{
	const struct ir_attr *w = ir_instr_attr(in, IR_ATTR_WINDOW);
	const int64_t *f;
	const struct xrt_shape *r = &in->shape;

	if (!w || d >= w->n)
		return (struct route){ W_SKIP };
	f = w->ints + d * IR_WINDOW_FIELDS;
	if (xrt_shape_is_tuple(r))
		r = &r->tuple[0];
	if (f[1] != 1 || f[4] != 1 || d >= r->rank || r->dims[d] != x->dims[d])
		return mix;
	return (struct route){ W_MASK_CARRY, d, 1, fill };
}

static struct route dot(const struct ir_instr *in, uint32_t o, uint32_t d, uint32_t lrank)
{
	enum ir_attr_key batch = o ? IR_ATTR_RHS_BATCH_DIMS : IR_ATTR_LHS_BATCH_DIMS;
	enum ir_attr_key contract = o ? IR_ATTR_RHS_CONTRACTING_DIMS :
					IR_ATTR_LHS_CONTRACTING_DIMS;
	const struct ir_attr *b = ir_instr_attr(in, batch);
	uint32_t at, nb = b ? b->n : 0, lfree;

	if (in_list(in, batch, d, &at))
		return carry(at);
	if (in_list(in, contract, d, NULL))
		return (struct route){ W_MASK, 0, 1, NONE };
	lfree = free_below(in, IR_ATTR_LHS_BATCH_DIMS, IR_ATTR_LHS_CONTRACTING_DIMS, lrank);
	return carry(nb + (o ? lfree : 0) + free_below(in, batch, contract, d));
}

/* Whether the opcode maps dimension d of each operand to d of its result. */
static bool elementwise(enum xrt_opcode op)
{
	switch (op) {
	case XRT_OP_COPY:
	case XRT_OP_CONVERT:
	case XRT_OP_COMPARE:
	case XRT_OP_SELECT:
	case XRT_OP_CLAMP:
	case XRT_OP_MAP:
	case XRT_OP_REDUCE_PRECISION:
		return true;
	default:
		return xrt_opcode_is_unary(op) || xrt_opcode_is_binary(op);
	}
}

/*
 * The result dimension a reshape makes dynamic where it splits one: its
 * inferred_dimension, else its one "<=" dimension; -1 if neither says.
 */
static int64_t inferred(const struct hp *p)
{
	uint8_t m = p->decl.leaves == 1 ? p->decl.mask[0] : 0;

	if (p->inferred >= 0)
		return p->inferred;
	return m && !(m & (m - 1)) ? __builtin_ctz(m) : -1;
}

static struct route route_of(struct hp *p, const struct ir_instr *in, uint32_t o, uint32_t d,
			     uint8_t mask)
{
	const struct xrt_shape *x = &p->cur->instrs[in->operands[o]].shape;
	const struct xrt_shape *r = &in->shape;
	const struct ir_attr *a;
	uint32_t n = in->num_operands / 2, at;

	if (elementwise(in->op) || in->op == XRT_OP_BITCAST_CONVERT)
		return !xrt_shape_is_tuple(r) && d < r->rank ? carry(d) : mix;
	switch (in->op) {
	case XRT_OP_BROADCAST:
		a = ir_instr_attr(in, IR_ATTR_DIMENSIONS);
		return a && d < a->n && a->ints[d] >= 0 ? carry((uint32_t)a->ints[d]) :
			(struct route){ W_SKIP };
	case XRT_OP_TRANSPOSE:
		return in_list(in, IR_ATTR_DIMENSIONS, d, &at) ? carry(at) :
								 (struct route){ W_SKIP };
	case XRT_OP_RESHAPE:
	case XRT_OP_BITCAST:
		return xrt_shape_is_tuple(r) ? mix : reshape(x, mask, r, d, inferred(p));
	case XRT_OP_REDUCE:
		if (o >= n)
			return (struct route){ W_SKIP };
		if (in_list(in, IR_ATTR_DIMENSIONS, d, NULL))
			return (struct route){ W_MASK, 0, 1, in->operands[n + o] };
		return carry(free_below(in, IR_ATTR_DIMENSIONS, IR_ATTR_COUNT, d));
	case XRT_OP_REDUCE_WINDOW:
		return o < n ? window(in, x, d, in->operands[n + o]) : (struct route){ W_SKIP };
	case XRT_OP_DOT:
		return o < 2 ? dot(in, o, d, p->cur->instrs[in->operands[0]].shape.rank) : mix;
	case XRT_OP_CONCATENATE:
		return hp_one_int(in, IR_ATTR_DIMENSIONS) == (int64_t)d ?
			(struct route){ W_MOVE, d, 1, NONE } : carry(d);
	case XRT_OP_SORT:
		return hp_one_int(in, IR_ATTR_DIMENSIONS) == (int64_t)d ? mix : carry(d);
	case XRT_OP_TOPK:
		return d + 1 == x->rank ? mix : carry(d);
	case XRT_OP_REVERSE:
		return in_list(in, IR_ATTR_DIMENSIONS, d, NULL) ?
			(struct route){ W_MOVE, d, 1, NONE } : carry(d);
	case XRT_OP_SLICE:	/* a part: static, as XLA has it (what lies there) */
		a = ir_instr_attr(in, IR_ATTR_SLICE);
		return a && d < a->n && !a->ints[3 * d] && a->ints[3 * d + 1] == x->dims[d] &&
		       a->ints[3 * d + 2] == 1 ? carry(d) : (struct route){ W_SKIP };
	case XRT_OP_PAD:
		a = ir_instr_attr(in, IR_ATTR_PADDING);
		return a && d < a->n && !a->ints[3 * d] && !a->ints[3 * d + 1] &&
		       !a->ints[3 * d + 2] ? carry(d) : mix;
	case XRT_OP_DYNAMIC_SLICE:
		a = ir_instr_attr(in, IR_ATTR_DYNAMIC_SLICE_SIZES);
		if (o)
			return mix;
		return a && d < a->n && a->ints[d] == x->dims[d] ? carry(d) :
			(struct route){ W_SKIP };
	case XRT_OP_DYNAMIC_UPDATE_SLICE:
		return !o ? carry(d) : mix;
	default:
		return mix;
	}
}

static int refuse(struct hp *p, const struct ir_instr *in, uint32_t o, uint32_t d)
{
	bool rs = in->op == XRT_OP_RESHAPE || in->op == XRT_OP_BITCAST;

	return hp_fail(p, "%s: %s along dynamic dimension %u of operand %u is not supported%s",
		       in->name, xrt_opcode_name(in->op), d, o, rs ? " (a reshape merges it, or "
		       "splits it alone with inferred_dimension or one '<=' naming the result "
		       "dimension that takes its size)" : "");
}

/*
 * Whether @rt names a result dimension the result has not: the
 * instruction's dimension numbers are past its operands' (the verifier
 * words that once the module is read), and it can carry nothing there.
 */
static bool past_result(const struct ir_instr *in, struct route rt)
{
	const struct xrt_shape *r = &in->shape;

	if (rt.way != W_CARRY && rt.way != W_MASK_CARRY && rt.way != W_MOVE &&
	    rt.way != W_SPLIT)
		return false;
	if (xrt_shape_is_tuple(r))
		r = r->tuple_count ? &r->tuple[0] : NULL;
	return !r || rt.to >= r->rank;
}

/* Plans operand @o's dimensions: what the result carries, what is masked. */
static int plan_operand(struct hp *p, const struct ir_instr *in, uint32_t o, struct plan *pl)
{
	const struct hp_dyn *e = hd_dyn_of(p, in->operands[o]);
	struct route rt;
	uint32_t d;

	for (d = 0; e && d < XRT_MAX_RANK; d++) {
		if (!(e->mask & (1u << d)))
			continue;
		rt = route_of(p, in, o, d, e->mask);
		if (past_result(in, rt))
			rt = mix;
		if (rt.way == W_MIX)
			return refuse(p, in, o, d);
		if (rt.way == W_MOVE && pl->moved && pl->moved != (1u << rt.to) &&
		    in->op != XRT_OP_REVERSE)
			return hp_fail(p, "%s: %s moving two dynamic dimensions is not supported",
				       in->name, xrt_opcode_name(in->op));
		if (rt.way == W_SPLIT && pl->moved)
			return hp_fail(p, "%s: %s moving two dynamic dimensions is not supported",
				       in->name, xrt_opcode_name(in->op));
		if ((rt.way == W_MOVE || rt.way == W_SPLIT) && rt.to < XRT_MAX_RANK) {
			pl->moved |= (uint8_t)(1u << rt.to);
			pl->rs_from = rt.from;
			pl->rs_to = rt.to_end;
			pl->split = rt.way == W_SPLIT;
			pl->split_dim = d;
			pl->divisor = rt.factor;
		}
		if ((rt.way == W_MASK || rt.way == W_MASK_CARRY) && o >= MAX_MASKED)
			return hp_fail(p, "%s: more than %d operands with dynamic dimensions",
				       in->name, MAX_MASKED);
		if (rt.way == W_MASK || rt.way == W_MASK_CARRY) {
			pl->masked[o] |= (uint8_t)(1u << d);
			pl->fill[o] = rt.fill;
		}
		if (rt.way == W_CARRY && o == 1 && xrt_opcode_is_binary(in->op) &&
		    in->num_operands == 2 && (pl->out.mask & (1u << rt.to)) &&
		    pl->out.size[rt.to] != e->size[d]) {
			pl->paired |= (uint8_t)(1u << rt.to);
			pl->pair[rt.to] = e->size[d];
		}
		if ((rt.way == W_CARRY || rt.way == W_MASK_CARRY) && rt.to < XRT_MAX_RANK &&
		    !(pl->out.mask & (1u << rt.to))) {
			pl->out.mask |= (uint8_t)(1u << rt.to);
			pl->out.size[rt.to] = e->size[d];
			pl->factor[rt.to] = rt.factor;
		}
	}
	return 0;
}

uint32_t hd_s32_const(struct plan *pl, int64_t v)
{
	uint8_t *d;
	uint32_t c = hp_emit_const(&pl->e, XRT_S32, 0, NULL, &d);

	if (d)
		memcpy(d, &(int32_t){ (int32_t)v }, 4);
	return c;
}

/*
 * @x, of shape @s, with what lies past the sizes of its dimensions @bits
 * replaced by @fill.  (@s is passed: in the dry pass @x may be a count.)
 */
static uint32_t masked(struct plan *pl, uint32_t x, const struct xrt_shape *s,
		       const struct hp_dyn *e, uint8_t bits, uint32_t fill)
{
	uint32_t rank = s->rank, d, ops[3], in = NONE, v;
	int64_t dims[XRT_MAX_RANK], dd;
	enum xrt_dtype t = s->dtype;
	uint8_t *z;

	memcpy(dims, s->dims, rank * sizeof(dims[0]));
	for (d = 0; d < rank; d++) {
		if (!(bits & (1u << d)))
			continue;
		dd = (int64_t)d;
		ops[0] = hp_emit(&pl->e, XRT_OP_IOTA, XRT_S32, 1, &dims[d], NULL, 0);
		hp_emit_ints(&pl->e, ops[0], IR_ATTR_IOTA_DIMENSION, (int64_t[]){ 0 }, 1);
		ops[1] = hp_emit(&pl->e, XRT_OP_BROADCAST, XRT_S32, 1, &dims[d], &e->size[d], 1);
		hp_emit_ints(&pl->e, ops[1], IR_ATTR_DIMENSIONS, NULL, 0);
		v = hp_emit(&pl->e, XRT_OP_COMPARE, XRT_PRED, 1, &dims[d], ops, 2);
		hp_emit_word(&pl->e, v, IR_ATTR_DIRECTION, "LT");
		v = hp_emit(&pl->e, XRT_OP_BROADCAST, XRT_PRED, rank, dims, &v, 1);
		hp_emit_ints(&pl->e, v, IR_ATTR_DIMENSIONS, &dd, 1);
		ops[0] = in;
		ops[1] = v;
		in = in == NONE ? v : hp_emit(&pl->e, XRT_OP_AND, XRT_PRED, rank, dims, ops, 2);
	}
	if (fill == NONE)
		fill = hp_emit_const(&pl->e, t, 0, NULL, &z);	/* zero */
	ops[0] = in;
	ops[1] = x;
	ops[2] = hp_emit(&pl->e, XRT_OP_BROADCAST, t, rank, dims, &fill, 1);
	hp_emit_ints(&pl->e, ops[2], IR_ATTR_DIMENSIONS, NULL, 0);
	return hp_emit(&pl->e, XRT_OP_SELECT, t, rank, dims, ops, 3);
}

static uint32_t scalar(struct plan *pl, enum xrt_opcode op, enum xrt_dtype t, uint32_t a,
		       uint32_t b)
{
	uint32_t ops[2] = { a, b };

	return hp_emit(&pl->e, op, t, 0, NULL, ops, 2);
}

static uint32_t scalar_cmp(struct plan *pl, uint32_t a, uint32_t b, const char *dir)
{
	uint32_t v = scalar(pl, XRT_OP_COMPARE, XRT_PRED, a, b);

	hp_emit_word(&pl->e, v, IR_ATTR_DIRECTION, dir);
	return v;
}

/* @x (shape @s) where @when holds, its first element along @d everywhere along @d. */
static uint32_t first_spread(struct plan *pl, uint32_t x, const struct xrt_shape *s, uint32_t d,
			     uint32_t when)
{
	int64_t from[XRT_MAX_RANK] = { 0 }, to[XRT_MAX_RANK], less[XRT_MAX_RANK], keep[XRT_MAX_RANK];
	uint32_t j, n = 0, v, ops[3];

	memcpy(to, s->dims, s->rank * sizeof(to[0]));
	to[d] = 1;
	for (j = 0; j < s->rank; j++) {
		if (j != d) {
			less[n] = s->dims[j];
			keep[n++] = j;
		}
	}
	v = hp_emit_slice(&pl->e, x, s->dtype, s->rank, from, to);
	v = hp_emit(&pl->e, XRT_OP_RESHAPE, s->dtype, n, less, &v, 1);
	ops[1] = hp_emit(&pl->e, XRT_OP_BROADCAST, s->dtype, s->rank, s->dims, &v, 1);
	hp_emit_ints(&pl->e, ops[1], IR_ATTR_DIMENSIONS, keep, n);
	ops[0] = hp_emit(&pl->e, XRT_OP_BROADCAST, XRT_PRED, s->rank, s->dims, &when, 1);
	hp_emit_ints(&pl->e, ops[0], IR_ATTR_DIMENSIONS, NULL, 0);
	ops[2] = x;
	return hp_emit(&pl->e, XRT_OP_SELECT, s->dtype, s->rank, s->dims, ops, 3);
}

/*
 * A binary op whose operands' sizes differ along @d (a, b): one of size
 * 1 spreads over the other's (XLA's implicit broadcast), else the
 * smaller is the result's.
 */
static void pair_sizes(struct plan *pl, const uint32_t *from, uint32_t d)
{
	const struct ir_comp *c = pl->e.p->cur;
	uint32_t a = pl->out.size[d], b = pl->pair[d], one = hd_s32_const(pl, 1), wa, wb, o;

	wa = scalar(pl, XRT_OP_AND, XRT_PRED, scalar_cmp(pl, a, one, "EQ"),
		    scalar_cmp(pl, a, b, "LT"));
	wb = scalar(pl, XRT_OP_AND, XRT_PRED, scalar_cmp(pl, b, one, "EQ"),
		    scalar_cmp(pl, b, a, "LT"));
	for (o = 0; o < 2; o++) {
		uint32_t x = pl->masked[o] || (pl->replaced & (1u << o)) ? pl->ops[o] : from[o];

		pl->ops[o] = first_spread(pl, x, &c->instrs[from[o]].shape, d, o ? wb : wa);
		pl->replaced |= (uint8_t)(1u << o);
	}
	o = hp_emit(&pl->e, XRT_OP_SELECT, XRT_S32, 0, NULL,
		    (uint32_t[]){ wb, a, scalar(pl, XRT_OP_MINIMUM, XRT_S32, a, b) }, 3);
	pl->sized[d] = hp_emit(&pl->e, XRT_OP_SELECT, XRT_S32, 0, NULL,
			       (uint32_t[]){ wa, b, o }, 3);
}

/* The masks and size arithmetic the plan needs (@e is its emitter). */
static uint32_t expand(struct hp_emit *e, void *ctx)
{
	struct plan *pl = (struct plan *)e;
	const uint32_t *from = ctx;
	uint32_t o, d, ops[3];

	for (o = 0; o < MAX_MASKED; o++) {
		if (pl->masked[o])
			pl->ops[o] = masked(pl, from[o], &e->p->cur->instrs[from[o]].shape,
					    hd_dyn_of(e->p, from[o]), pl->masked[o], pl->fill[o]);
	}
	for (d = 0; d < XRT_MAX_RANK; d++) {
		pl->sized[d] = pl->out.size[d];
		if (!(pl->out.mask & (1u << d)))
			continue;
		if (pl->factor[d] != 1) {
			ops[0] = pl->sized[d];
			ops[1] = hd_s32_const(pl, pl->factor[d] < 0 ? -pl->factor[d] :
						  pl->factor[d]);
			pl->sized[d] = hp_emit(e, pl->factor[d] < 0 ? XRT_OP_DIVIDE :
					       XRT_OP_MULTIPLY, XRT_S32, 0, NULL, ops, 2);
		}
	}
	pl->replaced = 0;
	for (d = 0; d < XRT_MAX_RANK; d++)
		if (pl->paired & (1u << d))
			pair_sizes(pl, from, d);
	return 0;
}

void hd_plan_init(struct hp *p, struct plan *pl, const struct ir_instr *in)
{
	uint32_t d;

	memset(pl, 0, sizeof(*pl));
	pl->e.p = p;
	pl->e.what = "dyn";
	snprintf(pl->e.base, sizeof(pl->e.base), "%.60s", in->name);
	for (d = 0; d < XRT_MAX_RANK; d++)
		pl->factor[d] = 1;
}

/* Runs the plan: its instructions before the one just read, whose operands it masks. */
static int run_plan(struct hp *p, struct plan *pl)
{
	uint32_t from[MAX_MASKED], o, d, ignored;
	bool work = false;
	struct ir_instr *in = hd_last(p);

	for (o = 0; o < MAX_MASKED && o < in->num_operands; o++) {
		from[o] = in->operands[o];
		work |= pl->masked[o] != 0;
	}
	for (d = 0; d < XRT_MAX_RANK; d++)
		work |= (pl->out.mask & (1u << d)) && pl->factor[d] != 1;
	work |= pl->paired != 0;
	if (work && hp_emit_twice(&pl->e, expand, from, &ignored))
		return -1;
	in = hd_last(p);
	for (o = 0; o < MAX_MASKED && o < in->num_operands; o++)
		if (pl->masked[o] || (pl->replaced & (1u << o)))
			in->operands[o] = pl->ops[o];
	p->dyn_next = pl->out;
	if (work)
		memcpy(p->dyn_next.size, pl->sized, sizeof(pl->sized));
	return 0;
}

/* The instruction just read becomes s32[] constant @v. */
static int become_s32(struct hp *p, int64_t v)
{
	struct ir_instr *in;
	xrt_status *st;

	if (hp_become(p, XRT_OP_CONSTANT, NULL, 0))
		return -1;
	in = hd_last(p);
	st = xrt_literal_create(p->a, &in->shape, &in->literal);
	if (st) {
		xrt_status_free(st);
		return hp_oom(p);
	}
	memcpy(in->literal->data, &(int32_t){ (int32_t)v }, 4);
	return 0;
}

static bool is_s32_scalar(const struct xrt_shape *s)
{
	return !xrt_shape_is_tuple(s) && s->dtype == XRT_S32 && !s->rank;
}

/* Operand 0 an array, its dimension dimensions={d}, the sizes s32[]. */
static int check_size_op(struct hp *p, const struct ir_instr *in, uint32_t n, uint32_t *d)
{
	const struct xrt_shape *x;
	int64_t dim = hp_one_int(in, IR_ATTR_DIMENSIONS);
	uint32_t i;

	if (in->num_operands != n)
		return hp_fail(p, "%s: %s takes %u operand%s", in->name, p->pseudo, n,
			       n > 1 ? "s" : "");
	x = &p->cur->instrs[in->operands[0]].shape;
	if (xrt_shape_is_tuple(x))
		return hp_fail(p, "%s: %s of a tuple", in->name, p->pseudo);
	if (dim < 0 || dim >= (int64_t)x->rank)
		return hp_fail(p, "%s: %s needs dimensions={d}, a dimension of its operand's %u",
			       in->name, p->pseudo, x->rank);
	for (i = 1; i < n; i++)
		if (!is_s32_scalar(&p->cur->instrs[in->operands[i]].shape))
			return hp_fail(p, "%s: %s's size must be s32[]", in->name, p->pseudo);
	*d = (uint32_t)dim;
	return 0;
}

static int get_size(struct hp *p, struct ir_instr *in)
{
	const struct hp_dyn *e;
	uint32_t d, v;

	if (check_size_op(p, in, 1, &d))
		return -1;
	if (!is_s32_scalar(&in->shape))
		return hp_fail(p, "%s: get-dimension-size gives s32[]", in->name);
	e = hd_dyn_of(p, in->operands[0]);
	if (e && (e->mask & (1u << d))) {
		v = e->size[d];
		return hp_become(p, XRT_OP_COPY, &v, 1);
	}
	return become_s32(p, p->cur->instrs[in->operands[0]].shape.dims[d]);
}

/* Arrays of one type and dimensions (layouts aside). */
static bool same_dims(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return !xrt_shape_is_tuple(a) && xrt_shape_compatible(a, b);
}

/* A constant s32[] instruction's value, or -1. */
static int64_t constant_of(struct hp *p, uint32_t v)
{
	const struct ir_instr *in = &p->cur->instrs[v];
	int32_t x;

	if (in->op != XRT_OP_CONSTANT || !in->literal)
		return -1;
	memcpy(&x, in->literal->data, 4);
	return x;
}

/* The instruction just read becomes a copy of operand 0 with the plan's sizes. */
static int become_sized(struct hp *p, struct plan *pl)
{
	uint32_t x = hd_last(p)->operands[0];

	return run_plan(p, pl) || hp_become(p, XRT_OP_COPY, &x, 1);
}

static int set_size(struct hp *p, struct ir_instr *in)
{
	const struct hp_dyn *e;
	struct plan pl;
	uint32_t d, x;
	int64_t bound;

	if (check_size_op(p, in, 2, &d))
		return -1;
	x = in->operands[0];
	if (!same_dims(&in->shape, &p->cur->instrs[x].shape))
		return hp_fail(p, "%s: set-dimension-size's result is its operand's shape",
			       in->name);
	if (p->cur->instrs[x].shape.dims[d] > INT32_MAX)
		return hp_fail(p, "%s: a dynamic dimension's bound must fit s32", in->name);
	hd_plan_init(p, &pl, in);
	e = hd_dyn_of(p, x);
	if (e)
		pl.out = *e;
	bound = p->cur->instrs[x].shape.dims[d];
	if (constant_of(p, in->operands[1]) == bound) {	/* XLA's rule: static again */
		pl.out.mask &= (uint8_t)~(1u << d);
	} else {
		pl.out.mask |= (uint8_t)(1u << d);
		pl.out.size[d] = in->operands[1];
	}
	return become_sized(p, &pl);
}

/* custom-call SliceToDynamic(x, size per dimension): x with the "<=" dimensions' sizes. */
static int slice_to_dynamic(struct hp *p, struct ir_instr *in)
{
	const struct xrt_shape *x = &p->cur->instrs[in->operands[0]].shape;
	struct plan pl;
	uint32_t d;

	if (in->num_operands != 1 + x->rank || !same_dims(&in->shape, x) ||
	    p->decl.leaves != 1 || hd_dyn_of(p, in->operands[0]))
		return hp_fail(p, "%s: custom-call SliceToDynamic takes a static array and an "
			       "s32[] size per dimension, and gives that array's shape",
			       in->name);
	for (d = 1; d < in->num_operands; d++)
		if (!is_s32_scalar(&p->cur->instrs[in->operands[d]].shape))
			return hp_fail(p, "%s: SliceToDynamic's sizes must be s32[]", in->name);
	hd_plan_init(p, &pl, in);
	pl.out.mask = p->decl.mask[0];
	for (d = 0; d < x->rank; d++)
		pl.out.size[d] = in->operands[1 + d];
	return become_sized(p, &pl);
}

/* custom-call PadToStatic(x): (x static, zeros past its sizes; s32[] size per dimension). */
static uint32_t pad_to_static(struct hp_emit *em, void *ctx)
{
	uint32_t x = *(const uint32_t *)ctx, *out = (uint32_t *)ctx + 1, d;
	const struct xrt_shape *s = &em->p->cur->instrs[x].shape;
	const struct hp_dyn *e = hd_dyn_of(em->p, x);
	struct plan *pl = (struct plan *)em;

	out[0] = e ? masked(pl, x, s, e, e->mask, NONE) :
		     hp_emit(em, XRT_OP_COPY, s->dtype, s->rank, s->dims, &x, 1);
	for (d = 0; d < s->rank; d++)
		out[1 + d] = e && (e->mask & (1u << d)) ? e->size[d] : hd_s32_const(pl, s->dims[d]);
	return 0;
}

static int pad_static(struct hp *p, struct ir_instr *in)
{
	const struct xrt_shape *x = &p->cur->instrs[in->operands[0]].shape, *r = &in->shape;
	uint32_t ops[1 + 1 + XRT_MAX_RANK], d, ignored;
	struct plan pl;

	if (in->num_operands != 1 || xrt_shape_is_tuple(x) || !xrt_shape_is_tuple(r) ||
	    r->tuple_count != x->rank + 1 || !same_dims(&r->tuple[0], x))
		return hp_fail(p, "%s: custom-call PadToStatic takes an array and gives it "
			       "with an s32[] size per dimension", in->name);
	for (d = 0; d < x->rank; d++)
		if (!is_s32_scalar(&r->tuple[1 + d]))
			return hp_fail(p, "%s: PadToStatic's sizes are s32[]", in->name);
	hd_plan_init(p, &pl, in);
	ops[0] = in->operands[0];
	d = x->rank + 1;	/* @in and @x move with the room made */
	if (hp_emit_twice(&pl.e, pad_to_static, ops, &ignored))
		return -1;
	return hp_become(p, XRT_OP_TUPLE, ops + 1, d);
}

static int custom(struct hp *p, struct ir_instr *in, bool *done)
{
	const struct ir_attr *t = ir_instr_attr(in, IR_ATTR_CUSTOM_CALL_TARGET);

	*done = t && (!strcmp(t->str, "SliceToDynamic") || !strcmp(t->str, "PadToStatic"));
	if (!*done)
		return 0;
	if (!in->num_operands || xrt_shape_is_tuple(&p->cur->instrs[in->operands[0]].shape))
		return hp_fail(p, "%s: custom-call %s takes an array first", in->name, t->str);
	return !strcmp(t->str, "PadToStatic") ? pad_static(p, in) : slice_to_dynamic(p, in);
}

/* A get-tuple-element takes its element's sizes. */
static int element(struct hp *p, const struct ir_instr *in)
{
	const struct ir_instr *t;
	const struct hp_dyn *e;
	int64_t i = in->num_operands == 1 ? hp_one_int(in, IR_ATTR_INDEX) : -1;

	if (i < 0)
		return 0;
	t = &p->cur->instrs[in->operands[0]];
	if (hd_is_loop(p, in->operands[0]))
		return hd_loop_element(p, in->operands[0], hd_loop_desc(p, in->operands[0]), i);
	e = hd_dyn_of(p, in->operands[0]);	/* a tuple whose elements share sizes */
	if (!e && t->op == XRT_OP_TUPLE && i < (int64_t)t->num_operands)
		e = hd_dyn_of(p, t->operands[i]);
	if (e)
		p->dyn_next = *e;
	return 0;
}

/* Those that never see a dynamic operand dimension: the rest are planned. */
static bool passes(enum xrt_opcode op)
{
	return op == XRT_OP_TUPLE || op == XRT_OP_GET_TUPLE_ELEMENT;
}

/* Only a while may call a loop's computation: its tuple carries the sizes. */
static int calls_loop(struct hp *p, const struct ir_instr *in)
{
	uint32_t i, k, n;

	for (i = 0; p->loops && in->op != XRT_OP_WHILE && i < in->num_attrs; i++) {
		enum ir_attr_kind kind = ir_attr_kind(in->attrs[i].key);

		n = kind == IR_COMP || kind == IR_COMPS ? in->attrs[i].n : 0;
		for (k = 0; k < n; k++) {
			uint32_t c = (uint32_t)in->attrs[i].ints[k];

			if (hd_loop_of(p, c))
				return hp_fail(p, "%s: %s calls computation '%s', whose tuple "
					       "parameter has dynamic dimensions: only a while may",
					       in->name, xrt_opcode_name(in->op),
					       p->m->comps[c].name);
		}
	}
	return 0;
}

/* Work a dynamic operand may not enter: another computation's, a rewrite's, a device's. */
static bool opaque(struct hp *p, enum xrt_opcode op, const char *s, size_t n)
{
	return p->pseudo || hlo_async_op(s, n) != XRT_OP_COUNT || op == XRT_OP_CALL ||
	       op == XRT_OP_WHILE || op == XRT_OP_CONDITIONAL || op == XRT_OP_CUSTOM_CALL ||
	       xrt_opcode_is_collective(op);
}

int hlo_dynamic(struct hp *p, const char *s, size_t n)
{
	struct ir_instr *in = hd_last(p);
	struct plan pl;
	bool done;
	uint32_t o;
	int rc;

	memset(&p->dyn_next, 0, sizeof(p->dyn_next));
	if (in->op == XRT_OP_PARAMETER && p->decl.any && !p->in_entry)
		return hd_loop_param(p, in);
	if (p->pseudo && !strncmp(p->pseudo, "get-dimension-size", 18)) {
		rc = get_size(p, in);
		p->pseudo = NULL;	/* read: the rest see what it became */
		return rc;
	}
	if (p->pseudo && !strncmp(p->pseudo, "set-dimension-size", 18)) {
		rc = set_size(p, in);
		p->pseudo = NULL;
		return rc;
	}
	if (p->pseudo && !strcmp(p->pseudo, "dynamic-reshape")) {
		rc = hd_dynamic_reshape(p);
		p->pseudo = NULL;
		return rc;
	}
	if (in->op == XRT_OP_CUSTOM_CALL && (custom(p, in, &done) || done))
		return p->err ? -1 : 0;
	if (in->op == XRT_OP_GET_TUPLE_ELEMENT)
		return element(p, in);	/* (which may move @in) */
	if (in->op == XRT_OP_CONDITIONAL && (hd_loop_conditional(p, in, &done) || done))
		return p->err ? -1 : 0;
	if (calls_loop(p, in))
		return -1;
	if (in->op == XRT_OP_WHILE && (hd_loop_while(p, in, &done) || done))
		return p->err ? -1 : 0;
	for (o = 0; in->op == XRT_OP_TUPLE && o < in->num_operands; o++)
		if (hd_is_loop(p, in->operands[o]))
			return hp_fail(p, "%s: a loop's tuple of dynamic values (operand %u) in a "
				       "tuple is not supported", in->name, o);
	if (passes(in->op) || !p->dyn)
		return 0;
	for (o = 0; o < in->num_operands; o++) {
		if (hd_dyn_of(p, in->operands[o]) && !opaque(p, in->op, s, n))
			continue;
		if (hd_holds_dyn(p, in->operands[o], 0))
			return hp_fail(p, "%s: a dynamic value (operand %u) into %.*s is not "
				       "supported", in->name, o, (int)n, s);
	}
	hd_plan_init(p, &pl, in);
	for (o = 0; o < in->num_operands; o++)
		if (plan_operand(p, in, o, &pl))
			return -1;
	if (xrt_shape_is_tuple(&in->shape) && pl.out.mask && in->op != XRT_OP_REDUCE &&
	    in->op != XRT_OP_SORT && in->op != XRT_OP_TOPK && in->op != XRT_OP_REDUCE_WINDOW)
		return hp_fail(p, "%s: %.*s of dynamic dimensions giving a tuple is not supported",
			       in->name, (int)n, s);
	if (run_plan(p, &pl))
		return -1;
	return pl.moved ? hd_move(p, &pl) : 0;
}

int hlo_dynamic_done(struct hp *p)
{
	uint32_t at = p->cur->num_instrs - 1;

	if (!p->dyn_next.mask && !p->dyn_next.loop)
		return 0;
	if (hp_grow(p, (void **)&p->dyn, &p->dyn_cap, at + 1, sizeof(*p->dyn)))
		return -1;
	p->dyn[at] = p->dyn_next;
	return 0;
}

/* @v with zeros past its sizes, through tuples: a new value, or @v itself. */
static uint32_t zero_past(struct plan *pl, uint32_t v, uint32_t depth)
{
	const struct ir_instr *in = &pl->e.p->cur->instrs[v];
	const struct hp_dyn *e = hd_dyn_of(pl->e.p, v);
	const struct xrt_shape *s = &in->shape;
	uint32_t i, n = s->tuple_count, ops[XRT_MAX_TUPLE_SIZE > 64 ? 64 : XRT_MAX_TUPLE_SIZE];
	int64_t k;
	bool changed = false;

	if (e && !xrt_shape_is_tuple(s))
		return masked(pl, v, s, e, e->mask, NONE);
	if (!xrt_shape_is_tuple(s) || depth > XRT_MAX_TUPLE_DEPTH || n > 64 ||
	    (!e && in->op != XRT_OP_TUPLE))
		return v;
	for (i = 0; i < n; i++) {
		ops[i] = in->op == XRT_OP_TUPLE ? in->operands[i] : NONE;
		if (ops[i] == NONE) {	/* a tuple whose elements share the sizes @e */
			k = i;
			ops[i] = hp_emit(&pl->e, XRT_OP_GET_TUPLE_ELEMENT, s->tuple[i].dtype,
					 s->tuple[i].rank, s->tuple[i].dims, &v, 1);
			if (!pl->e.dry && !pl->e.failed &&
			    hp_int_attr(pl->e.p, &pl->e.p->cur->instrs[ops[i]], IR_ATTR_INDEX, k))
				pl->e.failed = true;
			ops[i] = masked(pl, ops[i], &s->tuple[i], e, e->mask, NONE);
			changed = true;
			continue;
		}
		/* by what it holds: in the dry pass an index is a count */
		changed |= hd_holds_dyn(pl->e.p, ops[i], 0);
		ops[i] = zero_past(pl, ops[i], depth + 1);
		in = &pl->e.p->cur->instrs[v];	/* the emitter may have moved it */
	}
	if (!changed)
		return v;
	return hp_emit_tuple(&pl->e, s, ops, n);
}

static uint32_t zero_root(struct hp_emit *e, void *ctx)
{
	(void)ctx;
	return zero_past((struct plan *)e, e->p->cur->root, 0);
}

/*
 * The root of a computation that may be the entry: what it returns
 * past its sizes becomes 0, after it.  (XLA's CPU backend gives such a
 * result at its bound, with whatever its buffer held past the size.)
 */
int hlo_dynamic_root(struct hp *p)
{
	struct ir_comp *c = p->cur;
	struct plan pl;
	uint32_t root;
	const struct hp_loop *l = hd_loop_of(p, (uint32_t)(c - p->m->comps));

	if (l)
		return hd_loop_root(p, l);
	if (hd_is_loop(p, c->root))
		return hp_fail(p, "computation '%s' returns a loop's tuple of dynamic values: "
			       "not supported (return its elements)", c->name);
	if (!p->dyn || !hd_holds_dyn(p, c->root, 0))
		return 0;
	if (!p->in_entry && p->dyn_root_comp == UINT32_MAX)
		p->dyn_root_comp = (uint32_t)(c - p->m->comps);
	hd_plan_init(p, &pl, &c->instrs[c->root]);
	if (hp_emit_after(&pl.e, zero_root, NULL, &root))
		return -1;
	c->root = root;
	return 0;
}
