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
 * result.  It costs n^2 / 2 comparisons a row, so it serves rows of up
 * to 1024; longer ones go through a bitonic network (below), n log^2 n
 * / 4 comparisons.
 */
#include <string.h>

#include "core/mem.h"
#include "cc.h"
#include "cc_ewp.h"

#define NETWORK_MAX	1024	/* longer: the bitonic network */
#define BITONIC_MAX	(1ll << 30)	/* positions are s32, padded to a power of 2 */

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
	uint32_t ev[8], od[8], k;
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
	for (step = 0; step < len && !cc->err; step++)
		transpose_step(cc, f, ev, od, n, dim, step % 2);
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

/*
 * Rows longer than NETWORK_MAX: a bitonic sorting network, every
 * compare-exchange putting the one the order puts first at the lower
 * position.  For each block size k = 2, 4, ..., P, position i of each
 * block meets position k - 1 - i, then for j = k/4 down to 1 position
 * i of each run of 2j meets i + j.  The operands are copied into
 * working arrays [outer, P, inner], P the row padded to a power of 2,
 * beside the positions (s32, an iota) that travel with them.  A network
 * is not stable, so "b goes before a" is taken as cmp(b, a), or neither
 * cmp(a, b) nor cmp(b, a) and b came first: for a strict weak order the
 * one stable order, the evaluator's merge sort's.  The padding holds no
 * values: it never moves, as b is never padding where it goes before a.
 * Padding starts above every element, every pair is a lower and a
 * higher position, so a pair with padding below has padding above.
 *
 * A step's lower and upper positions interleave in memory, and a kernel
 * may not write two views whose spans meet: one kernel writes where to
 * exchange (a pred per pair), then per array a kernel writes the
 * exchanged pairs into the two halves of a temporary (the upper half
 * reversed where the step pairs i with k - 1 - i, so that it lines up)
 * and one COPY puts both halves back.
 */
struct bitonic {
	uint32_t n;
	uint32_t w[9];		/* the working copies, then the positions */
	uint32_t sel;		/* pred per pair: exchange */
	int64_t outer, p, inner, len;
};

/* The pair space of a step with blocks of @block: [outer, P / block, block / 2, inner]. */
static void pair_dims(const struct bitonic *s, int64_t block, int64_t *d)
{
	d[0] = s->outer;
	d[1] = s->p / block;
	d[2] = block / 2;
	d[3] = s->inner;
}

/* Working array @k's lower (@a) and upper (@b) positions of one step. */
static void step_views(const struct cc *cc, const struct bitonic *s, uint32_t k, int64_t block,
		       bool flip, struct cc_buf *a, struct cc_buf *b)
{
	const struct cc_buf x = cc->vals[s->w[k]].buf;
	int64_t es = (int64_t)xrt_dtype_size(x.dtype);

	*a = x;
	a->rank = 4;
	pair_dims(s, block, a->dims);
	a->strides[0] = s->p * s->inner;
	a->strides[1] = block * s->inner;
	a->strides[2] = s->inner;
	a->strides[3] = 1;
	*b = *a;
	b->offset += (uint64_t)((flip ? block - 1 : block / 2) * s->inner * es);
	if (flip)
		b->strides[2] = -s->inner;
}

/* The exchange condition; see above. @c1: cmp(b, a), @c2: cmp(a, b); b real. */
static uint32_t emit_order(struct ewp *e, const struct bitonic *s, uint32_t c1, uint32_t c2,
			   uint32_t ia, uint32_t ib)
{
	int32_t len = (int32_t)s->len;
	uint32_t t = ewp_reg(e), lim = ewp_reg(e);

	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LT, XRT_PRED, t, ib, ia, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_UNARY, XRT_CS_UN_NOT, XRT_PRED, c2, c2, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, XRT_PRED, t, t, c2, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_OR, XRT_PRED, c1, c1, t, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONST, 0, XRT_S32, lim, 0, 0, 0, &len, 4);
	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LT, XRT_PRED, t, ib, lim, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, XRT_PRED, c1, c1, t, 0, NULL, 0);
	ewp_give(e, t);
	ewp_give(e, lim);
	ewp_give(e, c2);
	return c1;
}

/* sel = whether each pair exchanges: the comparator inlined both ways round. */
static void emit_select(struct cc *cc, const struct ir_comp *f, const struct bitonic *s,
			const struct cc_buf *a, const struct cc_buf *b, const struct cc_buf *sel)
{
	uint32_t ba[16] = { 0 }, ab[16], k, c1, c2, ia, ib;
	uint8_t in = XRT_CS_OPERAND_IN;
	struct cc_saved sv1, sv2;
	struct ewp *e;

	for (k = 0; k < s->n; k++) {
		ba[2 * k] = ab[2 * k + 1] = cc_new_view(cc, s->w[k], &b[k]);
		ba[2 * k + 1] = ab[2 * k] = cc_new_view(cc, s->w[k], &a[k]);
	}
	e = cc->err ? NULL : ewp_new_small(cc, sel);
	if (e && cc_inline_comp_begin(cc, f, ba, &sv1)) {
		c1 = ewp_emit_root(e, f->root);
		if (cc_inline_comp_begin(cc, f, ab, &sv2)) {
			c2 = ewp_emit_root(e, f->root);
			cc_inline_comp_end(cc, &sv2);
			ia = ewp_reg(e);
			ib = ewp_reg(e);
			ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_S32, ia, ewp_operand(e, &a[s->n], in), 0, 0,
				NULL, 0);
			ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_S32, ib, ewp_operand(e, &b[s->n], in), 0, 0,
				NULL, 0);
			c1 = emit_order(e, s, c1, c2, ia, ib);
			ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, sel, XRT_CS_OPERAND_OUT),
				c1, 0, NULL, 0);
		}
		cc_inline_comp_end(cc, &sv1);
	}
	if (e && !cc->err)
		ewp_emit_small(e, sel, e->num_regs);
	else
		xrt_mem_free(cc->a, e);
	for (k = 0; k < 2 * s->n; k++)
		if (ba[k])
			cc_release(cc, ba[k]);
}

/* @ta, @tb = @a, @b exchanged where @sel is true. */
static void emit_take(struct cc *cc, const struct cc_buf *a, const struct cc_buf *b,
		      const struct cc_buf *sel, const struct cc_buf *ta, const struct cc_buf *tb)
{
	struct ewp *e = ewp_new_small(cc, ta);
	uint8_t in = XRT_CS_OPERAND_IN, out = XRT_CS_OPERAND_OUT;
	uint32_t x, ra, rb, t;

	if (!e)
		return;
	x = ewp_reg(e);
	ra = ewp_reg(e);
	rb = ewp_reg(e);
	t = ewp_reg(e);
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_PRED, x, ewp_operand(e, sel, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, a->dtype, ra, ewp_operand(e, a, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, b->dtype, rb, ewp_operand(e, b, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_SELECT, 0, a->dtype, t, x, rb, ra, NULL, 0);
	ewp_put(e, XRT_CS_EW_SELECT, 0, a->dtype, rb, x, ra, rb, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, ta, out), t, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, tb, out), rb, 0, NULL, 0);
	ewp_emit_small(e, ta, e->num_regs);
}

/* A working array's pairs @a, @b exchanged through a temporary [2, pairs...]. */
static void exchange(struct cc *cc, const struct bitonic *s, int64_t block, bool flip,
		     const struct cc_buf *a, const struct cc_buf *b, const struct cc_buf *sel)
{
	int64_t d[5], es = (int64_t)xrt_dtype_size(a->dtype);
	uint32_t t = cc_new_val(cc), j;
	struct cc_buf ta, tb, w5, t5;

	d[0] = 2;
	pair_dims(s, block, &d[1]);
	if (cc_alloc(cc, t, a->dtype, 5, d))
		return;
	t5 = cc->vals[t].buf;
	ta = cc_dense(t5.slot, t5.offset, a->dtype, 4, &d[1]);
	tb = cc_dense(t5.slot, t5.offset + (uint64_t)(t5.strides[0] * es), a->dtype, 4, &d[1]);
	if (flip) {	/* pair i's upper one at k/2 + (k/2 - 1 - i): stored reversed */
		tb.offset += (uint64_t)((d[3] - 1) * tb.strides[2] * es);
		tb.strides[2] = -tb.strides[2];
	}
	emit_take(cc, a, b, sel, &ta, &tb);
	w5 = *a;		/* [side, outer, blocks, i, inner] of the working array */
	w5.rank = 5;
	for (j = 4; j > 0; j--) {
		w5.dims[j] = a->dims[j - 1];
		w5.strides[j] = a->strides[j - 1];
	}
	w5.dims[0] = 2;
	w5.strides[0] = block / 2 * s->inner;
	w5.strides[3] = s->inner;
	cc_copy(cc, &w5, &t5);
	cc_release(cc, t);
}

static void bitonic_step(struct cc *cc, const struct ir_comp *f, const struct bitonic *s,
			 int64_t block, bool flip)
{
	struct cc_buf a[9], b[9], sel;
	int64_t d[4];
	uint32_t k;

	for (k = 0; k <= s->n; k++)
		step_views(cc, s, k, block, flip, &a[k], &b[k]);
	pair_dims(s, block, d);
	sel = cc_dense(cc->vals[s->sel].buf.slot, cc->vals[s->sel].buf.offset, XRT_PRED, 4, d);
	emit_select(cc, f, s, a, b, &sel);
	for (k = 0; k <= s->n && !cc->err; k++)
		exchange(cc, s, block, flip, &a[k], &b[k], &sel);
}

/* @v (dense, dims @d) as [outer, @len of dimension @dim, inner], or its first @len. */
static struct cc_buf as_3d(const struct cc_buf *v, const struct bitonic *s, int64_t rows,
			   int64_t len)
{
	struct cc_buf x = *v;

	x.rank = 3;
	x.dims[0] = s->outer;
	x.dims[1] = len;
	x.dims[2] = s->inner;
	x.strides[0] = rows * s->inner;
	x.strides[1] = s->inner;
	x.strides[2] = 1;
	return x;
}

static void bitonic(struct cc *cc, const struct ir_comp *f, const uint32_t *o, uint32_t n,
		    uint32_t dim)
{
	const struct cc_buf o0 = cc->vals[o[0]].buf;
	struct bitonic s = { .n = n, .outer = 1, .inner = 1, .len = o0.dims[dim], .p = 1 };
	int64_t dims[3], block, half;
	struct cc_buf x, y;
	uint32_t k, d;

	if (s.len > BITONIC_MAX) {
		cc_unimplemented(cc, "sort over more than 2^30 elements with this comparator");
		return;
	}
	for (d = 0; d < o0.rank; d++) {
		if (d < dim)
			s.outer *= o0.dims[d];
		else if (d > dim)
			s.inner *= o0.dims[d];
	}
	while (s.p < s.len)
		s.p *= 2;
	dims[0] = s.outer;
	dims[1] = s.p / 2;
	dims[2] = s.inner;
	s.sel = cc_new_val(cc);
	if (cc_alloc(cc, s.sel, XRT_PRED, 3, dims))
		return;
	dims[1] = s.p;
	for (k = 0; k <= n && !cc->err; k++) {
		s.w[k] = cc_new_val(cc);
		if (cc_alloc(cc, s.w[k], k < n ? cc->vals[o[k]].buf.dtype : XRT_S32, 3, dims))
			return;
		x = as_3d(&cc->vals[s.w[k]].buf, &s, s.p, s.len);
		if (k == n) {
			struct xrt_cs_view iv = cc_csview(&cc->vals[s.w[k]].buf);

			cs_fill_iota(&cc->b, &iv, 1);
		} else {
			y = as_3d(&cc->vals[o[k]].buf, &s, s.len, s.len);
			cc_copy(cc, &x, &y);
		}
	}
	for (block = 2; block <= s.p && !cc->err; block *= 2) {
		bitonic_step(cc, f, &s, block, true);
		for (half = block / 4; half >= 1 && !cc->err; half /= 2)
			bitonic_step(cc, f, &s, 2 * half, false);
	}
	for (k = 0; k <= n; k++) {
		if (k < n && !cc->err) {
			x = as_3d(&cc->vals[s.w[k]].buf, &s, s.p, s.len);
			y = as_3d(&cc->vals[o[k]].buf, &s, s.len, s.len);
			cc_copy(cc, &y, &x);
		}
		if (s.w[k])
			cc_release(cc, s.w[k]);
	}
	cc_release(cc, s.sel);
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
	if (!order && s0->dims[dim] <= NETWORK_MAX) {
		network(cc, f, o, n, dim);
		return;
	}
	if (!order) {
		bitonic(cc, f, o, n, dim);
		return;
	}
	for (d = 0; d < s0->rank; d++)
		dims[d] = (uint64_t)s0->dims[d];
	cs_sort(&cc->b, (order < 0 ? XRT_CS_SORT_DESCENDING : 0) |
		(mode == KEY_BY_VALUE ? XRT_CS_SORT_BY_VALUE : 0) |
		(mode == KEY_IEEE ? XRT_CS_SORT_IEEE_MERGE : 0), s0->rank, dims, dim, ops, n,
		num_keys);
}
