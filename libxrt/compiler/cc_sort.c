// SPDX-License-Identifier: MIT
/*
 * sort.  Its operands are copied out and sorted in place.  A comparator
 * that orders the leading operands lexicographically, each by value (LT
 * or GT of its two parameters, either way round, every key the same
 * way: integers, or floats compared in total order, maybe after JAX's
 * canonical form, or as IEEE numbers), is one SORT command.  Total order
 * is a strict weak order, so any stable sort gives the evaluator's
 * result: SORT's radix sort, with XRT_CS_SORT_BY_VALUE after the
 * canonical form (-0 and +0 equal, NaNs one value, last).  The IEEE
 * comparison is none once NaNs are in the data (a NaN is unordered
 * against everything), so the result depends on the algorithm: it sorts
 * with XRT_CS_SORT_IEEE_MERGE, the evaluator's own merge sort, and the
 * two agree element for element.  Any other elementwise
 * comparator (keys in different directions, NaN or signed-zero rules of
 * its own) sorts by odd-even transposition: as many steps as the
 * sorted dimension is long, each one kernel exchanging neighbours where
 * the comparator puts the right one first.  That is stable, as the
 * evaluator's merge sort is, so a strict weak order gives the same
 * result.  It costs n^2 / 2 comparisons a row: up to 1024 the steps are
 * written out, up to 65536 they run as a loop on the device (the steps
 * repeat every two), and longer dimensions are refused.
 */
#include <string.h>

#include "cc.h"

#define NETWORK_MAX	1024	/* longer: the steps run as a loop on the device */
#define LOOP_MAX	65536	/* n^2 / 2 comparisons a row: billions past it */

/* Whether @x is a scalar float constant: a NaN (@nan), else a zero. */
static bool float_const(const struct ir_instr *x, bool nan)
{
	enum xrt_dtype t = x->shape.dtype;
	uint64_t b = 0, top, inf;
	size_t es;

	if (x->op != XRT_OP_CONSTANT || x->shape.rank ||
	    (t != XRT_F16 && t != XRT_BF16 && t != XRT_F32 && t != XRT_F64))
		return false;
	es = xrt_dtype_size(t);
	memcpy(&b, xrt_literal_data(x->literal), es);
	top = 1ull << (8 * es - 1);
	inf = t == XRT_F16 ? 0x7c00 : t == XRT_BF16 ? 0x7f80 : t == XRT_F32 ? 0x7f800000 :
	      0x7ff0000000000000ull;
	return nan ? (b & ~top) > inf : !(b & ~top);
}

/* Whether @c is compare(@x, @y) in direction @dir, floats as numbers. */
static bool ieee_compare(const struct ir_instr *c, uint32_t x, uint32_t y, const char *dir)
{
	const struct ir_attr *ty;

	if (c->op != XRT_OP_COMPARE || c->operands[0] != x || c->operands[1] != y)
		return false;
	ty = ir_instr_attr(c, IR_ATTR_TYPE);
	return !strcmp(ir_instr_attr(c, IR_ATTR_DIRECTION)->str, dir) &&
	       (!ty || !strcmp(ty->str, "FLOAT"));
}

/*
 * The parameter @x is, or whose canonical form @x is (*canonical set):
 * select(p != p, NaN, select(p == 0, 0, p)), every NaN one NaN and -0
 * +0, as JAX writes its sort comparators; NULL for anything else.
 */
static const struct ir_instr *param_of(const struct ir_comp *f, uint32_t x, bool *canonical)
{
	const struct ir_instr *s = &f->instrs[x], *in, *eq;
	uint32_t p;

	*canonical = false;
	if (s->op == XRT_OP_PARAMETER)
		return s;
	if (s->op != XRT_OP_SELECT)
		return NULL;
	in = &f->instrs[s->operands[2]];
	if (in->op != XRT_OP_SELECT)
		return NULL;
	p = in->operands[2];
	eq = &f->instrs[in->operands[0]];
	if (f->instrs[p].op != XRT_OP_PARAMETER || eq->op != XRT_OP_COMPARE ||
	    !ieee_compare(&f->instrs[s->operands[0]], p, p, "NE") ||
	    !float_const(&f->instrs[s->operands[1]], true) ||
	    !ieee_compare(eq, p, eq->operands[1], "EQ") ||
	    !float_const(&f->instrs[eq->operands[1]], false) ||
	    !float_const(&f->instrs[in->operands[1]], false))
		return NULL;
	*canonical = true;
	return &f->instrs[p];
}

/*
 * How @c compares operand @k's two parameters (2k and 2k + 1, both
 * plain or both in canonical form): 1 for LT in that order or GT the
 * other way round, -1 for the reverse, 2 for EQ, 0 for anything else.
 * Real floats compare (*mode) in total order (KEY_TOTAL), in total order
 * after JAX's canonical form (param_of(); KEY_BY_VALUE: zeros equal,
 * NaNs one value, last), or as IEEE numbers (the type FLOAT, the
 * default; KEY_IEEE).  Complex keys in none.
 */
enum { KEY_INT = -1, KEY_TOTAL, KEY_BY_VALUE, KEY_IEEE };

static int key_compare(const struct ir_comp *f, const struct ir_instr *c, uint32_t k,
		       enum xrt_dtype t, int *mode)
{
	const struct ir_attr *d, *ty;
	const struct ir_instr *a, *b;
	bool total, ca, cb;
	int up;

	if (c->op != XRT_OP_COMPARE || xrt_dtype_is_complex(t))
		return 0;
	d = ir_instr_attr(c, IR_ATTR_DIRECTION);
	ty = ir_instr_attr(c, IR_ATTR_TYPE);
	total = ty && !strcmp(ty->str, "TOTALORDER");
	if (xrt_dtype_is_float(t) && !total && ty && strcmp(ty->str, "FLOAT"))
		return 0;
	a = param_of(f, c->operands[0], &ca);
	b = param_of(f, c->operands[1], &cb);
	if (!a || !b || ca != cb || a->parameter + b->parameter != 4 * k + 1 ||
	    (a->parameter != 2 * k && b->parameter != 2 * k))
		return 0;
	*mode = !xrt_dtype_is_float(t) ? KEY_INT : !total ? KEY_IEEE : ca ? KEY_BY_VALUE :
		KEY_TOTAL;
	if (!strcmp(d->str, "EQ"))
		return 2;
	if (!strcmp(d->str, "LT"))
		up = 1;
	else if (!strcmp(d->str, "GT"))
		up = -1;
	else
		return 0;
	return a->parameter == 2 * k ? up : -up;
}

/* Operand 0 of @x, and operand 1 in *other; the two swapped if @swap. */
static const struct ir_instr *pair(const struct ir_comp *f, const struct ir_instr *x,
				   bool swap, const struct ir_instr **other)
{
	*other = &f->instrs[x->operands[!swap]];
	return &f->instrs[x->operands[swap]];
}

/*
 * The order a comparator asks for: 1 (up) or -1 (down), 0 for none that
 * SORT does.  That is a lexicographic chain over the leading operands,
 * each key one way round (key_compare()):
 *
 *   lt(0) or (eq(0) and (lt(1) or (eq(1) and ... lt(m - 1))))
 *
 * (either side of each or and and), all in the same direction, float
 * keys all compared one way (*mode, KEY_INT if none is a float);
 * *num_keys is m.
 */
static int sort_order(const struct ir_comp *f, const enum xrt_dtype *types, uint32_t n,
		      int *mode, uint32_t *num_keys)
{
	const struct ir_instr *x = &f->instrs[f->root], *lt, *rest, *eq;
	int dir = 0, floats = KEY_INT, d, sw, m, m_eq;
	uint32_t k;

	for (k = 0; k < n; k++) {
		lt = x;
		rest = NULL;
		for (sw = 0; x->op == XRT_OP_OR && sw < 2 && !rest; sw++) {
			lt = pair(f, x, sw, &rest);
			if (rest->op != XRT_OP_AND)
				rest = NULL;
		}
		if (x->op == XRT_OP_OR && !rest)
			return 0;
		/* SORT takes no key of a small float or sub-byte type: the network does */
		if (xrt_dtype_is_small_float(types[k]) ||
		    (xrt_dtype_bits(types[k]) < 8 && types[k] != XRT_PRED))
			return 0;
		d = key_compare(f, lt, k, types[k], &m);
		if ((d != 1 && d != -1) || (dir && d != dir))
			return 0;
		dir = d;
		if (m != KEY_INT) {
			if (floats != KEY_INT && floats != m)
				return 0;
			floats = m;
		}
		if (!rest) {
			*num_keys = k + 1;
			*mode = floats;
			return dir;
		}
		for (sw = 0, x = NULL; sw < 2 && !x; sw++) {
			eq = pair(f, rest, sw, &x);
			if (key_compare(f, eq, k, types[k], &m_eq) != 2 || m_eq != m)
				x = NULL;
		}
		if (!x)
			return 0;
	}
	return 0;
}

/* @x with dimension @dim cut to @len elements from @first, every @step-th. */
static struct cc_buf along(struct cc_buf x, uint32_t dim, int64_t first, int64_t len,
			   int64_t step)
{
	x.offset += (uint64_t)(first * x.strides[dim]) * xrt_dtype_size(x.dtype);
	x.dims[dim] = len;
	x.strides[dim] *= step;
	return x;
}

/*
 * One step of odd-even transposition between the even positions @ev and
 * the odd ones @od (@odd: odd i with even i + 1), swapping where the
 * comparator puts the right one first.
 */
static void transpose_step(struct cc *cc, const struct ir_comp *f, const uint32_t *ev,
			   const uint32_t *od, uint32_t n, uint32_t dim, int odd)
{
	int64_t ne = cc->vals[ev[0]].buf.dims[dim], no = cc->vals[od[0]].buf.dims[dim];
	int64_t pairs = odd ? ne - 1 : no;
	uint32_t args[16] = { 0 }, k;
	struct cc_buf a[8], b[8];
	struct cc_saved sv;

	if (pairs <= 0)
		return;
	for (k = 0; k < n; k++) {
		a[k] = along(cc->vals[odd ? od[k] : ev[k]].buf, dim, 0, pairs, 1);
		b[k] = along(cc->vals[odd ? ev[k] : od[k]].buf, dim, odd, pairs, 1);
		args[2 * k] = cc_new_view(cc, odd ? ev[k] : od[k], &b[k]);
		args[2 * k + 1] = cc_new_view(cc, odd ? od[k] : ev[k], &a[k]);
	}
	if (!cc->err && cc_inline_comp_begin(cc, f, args, &sv)) {
		cc_emit_swap_step(cc, f->root, a, b, n);
		cc_inline_comp_end(cc, &sv);
	}
	for (k = 0; k < 2 * n; k++)
		cc_release(cc, args[k]);
}

/*
 * Odd-even transposition over dimension @dim of the copies @o[0..n).
 * Each operand is split into its even and odd positions (two buffers),
 * so a step's pairs (even i with odd i, then odd i with even i + 1) are
 * views of different buffers and each is written only over itself.
 */
static void network(struct cc *cc, const struct ir_comp *f, const uint32_t *o, uint32_t n,
		    uint32_t dim)
{
	int64_t len = cc->vals[o[0]].buf.dims[dim], ne = (len + 1) / 2, no = len / 2, step;
	static const int64_t zero;
	uint32_t ev[8], od[8], k, c, p, top;
	struct cc_buf a[8], b[8], x;

	for (k = 0; k < n && !cc->err; k++) {
		x = cc->vals[o[k]].buf;
		ev[k] = cc_new_val(cc);
		od[k] = cc_new_val(cc);
		x.dims[dim] = ne;
		if (cc_alloc(cc, ev[k], x.dtype, x.rank, x.dims))
			return;
		x.dims[dim] = no;
		if (cc_alloc(cc, od[k], x.dtype, x.rank, x.dims))
			return;
		x = cc->vals[o[k]].buf;
		a[0] = along(x, dim, 0, ne, 2);
		b[0] = along(x, dim, 1, no, 2);
		cc_copy(cc, &cc->vals[ev[k]].buf, &a[0]);
		cc_copy(cc, &cc->vals[od[k]].buf, &b[0]);
	}
	if (len <= NETWORK_MAX) {
		for (step = 0; step < len && !cc->err; step++)
			transpose_step(cc, f, ev, od, n, dim, step % 2);
	} else {
		/* the steps repeat every two: a loop of len / 2 rounded up */
		c = cc_new_val(cc);
		p = cc_new_val(cc);
		if (cc_alloc(cc, c, XRT_S64, 0, NULL) || cc_alloc(cc, p, XRT_PRED, 0, NULL))
			return;
		cc_fill_value(cc, &cc->vals[c].buf, &zero);
		top = cc->b.num_commands;
		transpose_step(cc, f, ev, od, n, dim, 0);
		transpose_step(cc, f, ev, od, n, dim, 1);
		cc_emit_count_step(cc, &cc->vals[c].buf, &cc->vals[p].buf, (len + 1) / 2);
		cc_jump(cc, XRT_CS_JUMP_IF_TRUE, top, p);
		cc_release(cc, c);
		cc_release(cc, p);
	}
	for (k = 0; k < n && !cc->err; k++) {
		x = cc->vals[o[k]].buf;
		a[0] = along(x, dim, 0, ne, 2);
		b[0] = along(x, dim, 1, no, 2);
		cc_copy(cc, &a[0], &cc->vals[ev[k]].buf);
		cc_copy(cc, &b[0], &cc->vals[od[k]].buf);
		cc_release(cc, ev[k]);
		cc_release(cc, od[k]);
	}
}

void cc_lower_sort(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];
	const struct xrt_shape *s0 = &cc->c->instrs[in->operands[0]].shape;
	uint32_t v = cc_iv(cc, i), n = in->num_operands, k, d, o[8];
	uint32_t dim = (uint32_t)ir_instr_attr(in, IR_ATTR_DIMENSIONS)->ints[0];
	struct xrt_cs_operand ops[8];
	uint64_t dims[XRT_MAX_RANK];
	enum xrt_dtype types[8];
	uint32_t num_keys = 1;
	int order = 0, mode = KEY_INT;

	if (n > 8) {
		cc_unimplemented(cc, "sort of more than 8 operands");
		return;
	}
	for (k = 0; k < n; k++)
		types[k] = cc->c->instrs[in->operands[k]].shape.dtype;
	order = sort_order(f, types, n, &mode, &num_keys);
	if (!order && s0->dims[dim] > LOOP_MAX) {
		cc_unimplemented(cc, "sort over more than 65536 elements with this comparator");
		return;
	}
	if (n > 1 && !cc_tuple_init(cc, v, n))
		return;
	for (k = 0; k < n && !cc->err; k++) {
		struct cc_buf src = cc->vals[cc_opnd(cc, in, k)].buf;

		o[k] = n == 1 ? v : cc_tuple_add(cc, v);
		if (cc_alloc(cc, o[k], src.dtype, src.rank, src.dims))
			return;
		cc_copy(cc, &cc->vals[o[k]].buf, &src);
		ops[k] = cs_operand(cc->vals[o[k]].buf.slot, cc->vals[o[k]].buf.dtype,
				    XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, cc->vals[o[k]].buf.offset,
				    s0->rank, cc->vals[o[k]].buf.strides);
	}
	if (cc->err || !xrt_shape_element_count(s0))
		return;
	if (!order) {
		network(cc, f, o, n, dim);
		return;
	}
	for (d = 0; d < s0->rank; d++)
		dims[d] = (uint64_t)s0->dims[d];
	cs_sort(&cc->b, (order < 0 ? XRT_CS_SORT_DESCENDING : 0) |
		(mode == KEY_BY_VALUE ? XRT_CS_SORT_BY_VALUE : 0) |
		(mode == KEY_IEEE ? XRT_CS_SORT_IEEE_MERGE : 0), s0->rank, dims, dim, ops, n,
		num_keys);
}
