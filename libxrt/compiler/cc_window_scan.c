// SPDX-License-Identifier: MIT
/*
 * reduce-window as a running reduction: the cumulative ops JAX writes
 * (cumsum, cumprod, cummax, cummin: a window as long as the operand
 * along one dimension, padded by one less before it, or after it for
 * the reverse ones) are a SCAN, linear where the window is quadratic.
 *
 * Along the scanned dimension output i takes the elements from
 * i - lo to i - lo + size - 1 that exist (the evaluator skips padding).
 * When every window starts at or before element 0 (lo >= m - 1, m the
 * output length) and none passes the last, output i is the running
 * value at element i + c, c = size - 1 - lo, or init where i + c < 0:
 * a slice of the scan of the first m + c elements.  Windows that all end
 * at the last element are the same seen from the other end, lo and hi
 * swapped: the views are reversed and scanned forward.
 *
 * A reducer REDUCE knows is one SCAN.  Any other elementwise reducer
 * (logcumsumexp's) over more than SCAN_SEQUENTIAL_MAX elements takes log2
 * steps of doubling, each combining every
 * running value with the one 2^k before it: O(n log n), in a tree order
 * where the window would fold one by one, which XLA's associativity of
 * reducers allows; init joins once, at the end.
 */
#include "cc.h"

/* @b with dimension @d run backwards. */
static void flip(struct cc_buf *b, uint32_t d)
{
	int64_t es = (int64_t)xrt_dtype_size(b->dtype);

	if (b->dims[d] > 0)
		b->offset = (uint64_t)((int64_t)b->offset + (b->dims[d] - 1) * b->strides[d] * es);
	b->strides[d] = -b->strides[d];
}

/* Elements [start, start + len) of @b along @d. */
static struct cc_buf slice(struct cc_buf b, uint32_t d, int64_t start, int64_t len)
{
	b.offset = (uint64_t)((int64_t)b.offset +
			      start * b.strides[d] * (int64_t)xrt_dtype_size(b.dtype));
	b.dims[d] = len;
	return b;
}

static void emit_scan(struct cc *cc, uint32_t op, uint32_t d, const struct cc_buf *in,
		      const struct cc_buf *out, const void *init)
{
	struct xrt_cs_view iv = cc_csview(in), ov = cc_csview(out);

	if (!cc->err)
		cs_scan(&cc->b, op, d, &iv, &ov, init, xrt_dtype_size(in->dtype));
}

/*
 * The scanned dimension of window @w over @src, or -1 where the window
 * is no scan: one dimension wider than 1, no strides, dilations or other
 * padding.
 */
static int scan_axis(const int64_t *w, const struct cc_buf *src)
{
	int axis = -1;
	uint32_t d;

	for (d = 0; d < src->rank; d++) {
		const int64_t *fd = w + d * IR_WINDOW_FIELDS;

		if (fd[1] != 1 || fd[4] != 1 || fd[5] != 1)
			return -1;
		if (fd[0] == 1 && !fd[2] && !fd[3])
			continue;
		if (fd[0] == 1 || axis >= 0)
			return -1;
		axis = (int)d;
	}
	return axis;
}

/* Where reduce-window @in over @src is a scan: its dimension and the shift. */
struct scan_form {
	uint32_t axis;
	bool rev;	/* windows ending at the last element */
	int64_t m, c;	/* output length; output i is running value i + c */
};

static bool scan_form(const struct ir_instr *in, const struct cc_buf *src,
		      struct scan_form *sf)
{
	const int64_t *w = ir_instr_attr(in, IR_ATTR_WINDOW)->ints, *fd;
	int axis = scan_axis(w, src), rev;
	int64_t n, lo;

	if (axis < 0)
		return false;
	fd = w + axis * IR_WINDOW_FIELDS;
	n = src->dims[axis];
	sf->axis = (uint32_t)axis;
	sf->m = in->shape.dims[axis];
	for (rev = 0; rev < 2; rev++) {
		lo = rev ? fd[3] : fd[2];
		sf->c = fd[0] - 1 - lo;
		sf->rev = rev;
		if (n > 0 && sf->m > 0 && lo >= sf->m - 1 && sf->m + sf->c <= n &&
		    sf->m + sf->c > 0)
			return true;
	}
	return false;
}

/*
 * The result of @in, allocated, and the source and output views the
 * scan of @sf runs over: forward, the output's first -c elements (c < 0)
 * already holding @init (@init_buf when @init is NULL).
 */
static bool scan_views(struct cc *cc, uint32_t i, const struct scan_form *sf, const void *init,
		       const struct cc_buf *init_buf, struct cc_buf *src, struct cc_buf *out)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i), d = sf->axis;

	*src = cc->vals[cc_opnd(cc, in, 0)].buf;
	if (cc_alloc(cc, v, in->shape.dtype, in->shape.rank, in->shape.dims))
		return false;
	*out = cc->vals[v].buf;
	if (sf->rev) {
		flip(src, d);
		flip(out, d);
	}
	*src = slice(*src, d, 0, sf->m + sf->c);
	if (sf->c < 0) {	/* windows that end before element 0 hold nothing */
		struct cc_buf empty = slice(*out, d, 0, -sf->c), b;

		if (init) {
			cc_fill_value(cc, &empty, init);
		} else {	/* the scalar init broadcast */
			b = cc_spread(*init_buf, &empty);
			cc_copy(cc, &empty, &b);
		}
		*out = slice(*out, d, -sf->c, sf->m + sf->c);
	}
	return !cc->err;
}

/*
 * The running values from element c on, into @out: directly when c <= 0,
 * else through a buffer of the first m + c.  @scan writes the running
 * values of @src into a buffer of its shape.
 */
static void scan_into(struct cc *cc, const struct scan_form *sf, const struct cc_buf *src,
		      const struct cc_buf *out, const void *arg,
		      void (*scan)(struct cc *cc, const struct scan_form *sf, const struct cc_buf *src,
				   const struct cc_buf *dst, const void *arg))
{
	struct cc_buf tb, part;
	uint32_t t;

	if (sf->c <= 0) {
		scan(cc, sf, src, out, arg);
		return;
	}
	t = cc_new_val(cc);
	if (cc_alloc(cc, t, src->dtype, src->rank, src->dims))
		return;
	tb = cc->vals[t].buf;
	part = slice(tb, sf->axis, sf->c, sf->m);
	scan(cc, sf, src, &tb, arg);
	cc_copy(cc, out, &part);
	cc_release(cc, t);
}

struct known {
	uint32_t op;
	const void *init;
};

static void known_scan(struct cc *cc, const struct scan_form *sf, const struct cc_buf *src,
		       const struct cc_buf *dst, const void *arg)
{
	const struct known *k = arg;

	emit_scan(cc, k->op, sf->axis, src, dst, k->init);
}

bool cc_lower_scan_window(struct cc *cc, uint32_t i, uint32_t op, const void *init)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct cc_buf src = cc->vals[cc_opnd(cc, in, 0)].buf, out;
	struct known k = { op, init };
	struct scan_form sf;

	if (!scan_form(in, &src, &sf))
		return false;
	if (scan_views(cc, i, &sf, init, NULL, &src, &out))
		scan_into(cc, &sf, &src, &out, &k, known_scan);
	return true;
}

struct general {
	const struct ir_comp *f;
	uint32_t init;		/* the init's value */
};

/* dst = f(@a, @b), the reducer inlined; false where it cannot be. */
static bool apply(struct cc *cc, const struct ir_comp *f, uint32_t va, const struct cc_buf *a,
		  uint32_t vb, const struct cc_buf *b, const struct cc_buf *dst)
{
	uint32_t args[2] = { cc_new_view(cc, va, a), cc_new_view(cc, vb, b) };
	struct cc_saved sv;
	bool ok = !cc->err && cc_inline_comp_begin(cc, f, args, &sv);

	if (ok) {
		cc_emit_ewise_n(cc, &f->root, 1, dst);
		cc_inline_comp_end(cc, &sv);
	}
	cc_release(cc, args[0]);
	cc_release(cc, args[1]);
	return ok;
}

/* Doubling: log2 steps between two buffers, then init (first) with each. */
static void general_scan(struct cc *cc, const struct scan_form *sf, const struct cc_buf *src,
			 const struct cc_buf *dst, const void *arg)
{
	const struct general *g = arg;
	int64_t len = src->dims[sf->axis], k;
	uint32_t buf[2], cur = 0, d = sf->axis;
	struct cc_buf in, b;

	buf[0] = cc_new_val(cc);
	buf[1] = cc_new_val(cc);
	if (cc_alloc(cc, buf[0], src->dtype, src->rank, src->dims) ||
	    cc_alloc(cc, buf[1], src->dtype, src->rank, src->dims))
		return;
	cc_copy(cc, &cc->vals[buf[0]].buf, src);
	for (k = 1; k < len && !cc->err; k *= 2, cur ^= 1) {
		struct cc_buf a = cc->vals[buf[cur]].buf, o = cc->vals[buf[cur ^ 1]].buf;
		struct cc_buf head = slice(o, d, 0, k), early = slice(a, d, 0, len - k);
		struct cc_buf late = slice(a, d, k, len - k), rest = slice(o, d, k, len - k);
		struct cc_buf first = slice(a, d, 0, k);

		cc_copy(cc, &head, &first);
		if (!apply(cc, g->f, buf[cur], &early, buf[cur], &late, &rest))
			break;
	}
	in = cc->vals[buf[cur]].buf;
	b = cc_spread(cc->vals[g->init].buf, &in);
	if (!cc->err)
		apply(cc, g->f, g->init, &b, buf[cur], &in, dst);
	cc_release(cc, buf[0]);
	cc_release(cc, buf[1]);
}

/*
 * Below this many elements along the scan a general reducer folds window
 * by window, as XLA's CPU backend and the evaluator do: the doubling's
 * tree order rounds otherwise, which a reducer that rounds to 8 bits
 * each step (XLA's f8 cumsum, an add in f16 then a convert to f8e5m2)
 * turns into whole units in its last place.  Longer scans double, for
 * O(n log n).
 */
#define SCAN_SEQUENTIAL_MAX 32

bool cc_lower_scan_window_general(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct general g = { &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]],
			     cc_opnd(cc, in, 1) };
	struct cc_buf src, out, init;
	struct scan_form sf;

	if (in->num_operands != 2)
		return false;
	src = cc->vals[cc_opnd(cc, in, 0)].buf;
	if (!scan_form(in, &src, &sf) || src.dims[sf.axis] <= SCAN_SEQUENTIAL_MAX)
		return false;
	init = cc->vals[g.init].buf;
	if (scan_views(cc, i, &sf, NULL, &init, &src, &out))
		scan_into(cc, &sf, &src, &out, &g, general_scan);
	return true;
}
