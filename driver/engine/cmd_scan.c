// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SCAN: running reductions along one dimension (cumulative sums,
 * products, maxima, ...).  The scanned dimension is cut into chunks, one
 * phase each, run in order; within a phase the lines are independent and
 * shared out among the items.  A chunk after the first starts from the
 * result just before it, read back from the output.
 *
 * Two ways through a chunk, the same bits either way:
 *  - by line, where a line's elements lie closer together than the
 *    lines: each line is loaded a register block at a time (ew_load gives
 *    every type its compute representation) and scanned in place;
 *  - by row, where neighbouring lines lie closer (a scan along an outer
 *    dimension): up to EW_BLOCK lines side by side are a row of
 *    registers, and each step combines a row of inputs into it with the
 *    vector code of the EWISE binary function.
 * Each item stays within ENGINE_ITEM_ELEMS elements either way.
 */
#include "engine_internal.h"
#include "ew.h"

#define CHUNK	ENGINE_ITEM_ELEMS

struct scan {
	const struct xrt_cs_scan *c;
	u64 len;		/* of the scanned dimension */
	u64 lines;		/* the other dimensions' elements */
	u32 orank;		/* the other dimensions */
	u64 odims[XRT_CS_MAX_RANK];
	u32 oaxis[XRT_CS_MAX_RANK];
	int by_row;
	u64 chunk;		/* positions per phase */
	u64 per_item;		/* by line: lines per item; by row: lines per row */
	u64 rows;		/* by row: rows of the innermost other dimension */
};

static u64 magnitude(s64 v)
{
	return v < 0 ? (u64)-(v + 1) + 1 : (u64)v;
}

static void scan_init(struct scan *s, const struct xrt_cs_scan *c)
{
	u64 per, inner;
	u32 d, last;

	s->c = c;
	s->len = c->in.dims[c->dim];
	s->lines = 1;
	s->orank = 0;
	for (d = 0; d < c->in.rank; d++) {
		if (d == c->dim)
			continue;
		s->odims[s->orank] = c->in.dims[d];
		s->oaxis[s->orank++] = d;
		s->lines *= c->in.dims[d];
	}
	/* by row where the innermost other dimension is wide and nearer */
	inner = s->orank ? s->odims[s->orank - 1] : 1;
	last = s->orank ? s->oaxis[s->orank - 1] : 0;
	s->by_row = inner >= 8 && s->orank &&
		    magnitude(c->in.strides[last]) < magnitude(c->in.strides[c->dim]);
	if (s->by_row) {
		s->per_item = inner < EW_BLOCK ? inner : EW_BLOCK;
		s->chunk = CHUNK / s->per_item;
		s->rows = (s->lines / inner) * ((inner + s->per_item - 1) / s->per_item);
		/* a phase count past 32 bits: by line, with its longer chunks */
		if ((s->len + s->chunk - 1) / s->chunk <= 0x7fffffff)
			return;
		s->by_row = 0;
	}
	per = s->len < CHUNK ? s->len : CHUNK;
	s->chunk = CHUNK;
	s->per_item = per ? CHUNK / per : 1;
}

static int scan_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_scan *c = cmd;
	u32 i, es = xs_dtype_size(c->in.dtype);
	u64 ilo, ihi, olo, ohi;

	if (size != sizeof(*c))
		return engine_fail(v, ~0u, "SCAN: size is not sizeof(struct xrt_cs_scan)",
				   size, sizeof(*c));
	if (c->cmd.flags || c->pad || c->reserved)
		return engine_fail(v, ~0u, "SCAN: flags, padding or reserved not 0", 0, 0);
	if (engine_check_view(v, 0, &c->in, XRT_CS_SLOT_READ) ||
	    engine_check_view(v, 1, &c->out, XRT_CS_SLOT_WRITE))
		return -1;
	if (c->out.dtype != c->in.dtype || c->out.rank != c->in.rank)
		return engine_fail(v, ~0u, "SCAN: in and out differ in type or rank",
				   c->in.dtype, c->out.dtype);
	for (i = 0; i < c->in.rank; i++) {
		if (c->out.dims[i] != c->in.dims[i])
			return engine_fail(v, ~0u, "SCAN: in and out dims differ", i, 0);
	}
	if (c->dim >= c->in.rank)
		return engine_fail(v, ~0u, "SCAN: dim is not below the rank", c->dim,
				   c->in.rank);
	if (c->in.dims[c->dim] > XRT_CS_SCAN_MAX_LEN)
		return engine_fail(v, 0, "SCAN: the scanned dimension is too long",
				   c->in.dims[c->dim], XRT_CS_SCAN_MAX_LEN);
	if (c->op < XRT_CS_RED_SUM || c->op > XRT_CS_RED_OR ||
	    !engine_red_allows(c->op, c->in.dtype))
		return engine_fail(v, ~0u, "SCAN: op does not take the type", c->op,
				   c->in.dtype);
	es = es > sizeof(c->init) ? sizeof(c->init) : es;
	if (!engine_zero((const u8 *)c->init + es, sizeof(c->init) - es) ||
	    (c->in.dtype == XRT_CS_PRED && c->init[0] > 1))
		return engine_fail(v, ~0u, "SCAN: bad init bytes", c->init[0], c->init[1]);
	es = xs_dtype_size(c->in.dtype);
	engine_span_bytes(c->in.offset, es, c->in.rank, c->in.dims, c->in.strides, &ilo,
			  &ihi);
	engine_span_bytes(c->out.offset, es, c->out.rank, c->out.dims, c->out.strides, &olo,
			  &ohi);
	if (engine_overlap(c->in.slot, ilo, ihi, c->out.slot, olo, ohi))
		return engine_fail(v, ~0u, "SCAN: out overlaps in", olo, ilo);
	if (2 * EW_REG_BYTES > v->prog->thread_ws_size)
		v->prog->thread_ws_size = 2 * EW_REG_BYTES;
	return 0;
}

static u32 scan_phases(const void *cmd)
{
	struct scan s;

	scan_init(&s, cmd);
	/* at least one, even when empty: only a JUMP has none */
	return s.len > s.chunk ? (u32)((s.len + s.chunk - 1) / s.chunk) : 1;
}

static u64 scan_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	struct scan s;

	scan_init(&s, cmd);
	if (!s.len || !s.lines)
		return 0;
	return s.by_row ? s.rows : (s.lines + s.per_item - 1) / s.per_item;
}

/* The running value of integers: wrapping is done once per block. */
static void scan_int(u32 fn, u32 t, s64 *acc, s64 *a, u32 n)
{
	int un64 = t == XRT_CS_U64;
	s64 r = *acc;
	u32 i;

	for (i = 0; i < n; i++) {
		s64 x = a[i];

		switch (fn) {
		case XRT_CS_BIN_ADD:
			r = (s64)((u64)r + (u64)x);
			break;
		case XRT_CS_BIN_MUL:
			r = (s64)((u64)r * (u64)x);
			break;
		case XRT_CS_BIN_MIN:
			r = (un64 ? (u64)x < (u64)r : x < r) ? x : r;
			break;
		case XRT_CS_BIN_MAX:
			r = (un64 ? (u64)x > (u64)r : x > r) ? x : r;
			break;
		case XRT_CS_BIN_AND:
			r &= x;
			break;
		default:
			r |= x;
			break;
		}
		a[i] = r;
	}
	/* sums and products wrap the same whenever they are cut to width */
	ew_int_wrap(t, a, n);
	*acc = a[n - 1];
}

/*
 * One step of the running value @r with @x.  MAX and MIN as EWISE has
 * them: a NaN wins (the running value's first); of equal values (+0 and
 * -0 among them) max keeps the AND of the bits, min the OR.
 */
#define SCAN_FLOAT(name, type, utype)						\
static __always_inline type name##_step(u32 fn, type r, type x)		\
{										\
	utype br, bx;								\
	type e;									\
										\
	switch (fn) {								\
	case XRT_CS_BIN_ADD:							\
		return r + x;							\
	case XRT_CS_BIN_MUL:							\
		return r * x;							\
	default:								\
		memcpy(&br, &r, sizeof(br));					\
		memcpy(&bx, &x, sizeof(bx));					\
		br = fn == XRT_CS_BIN_MAX ? br & bx : br | bx;			\
		memcpy(&e, &br, sizeof(e));					\
		e = r == x ? e : x;						\
		if (fn == XRT_CS_BIN_MAX)					\
			return r > x || r != r ? r : e;				\
		return r < x || r != r ? r : e;					\
	}									\
}										\
										\
/* The loop per function, so that each is a tight one. */		\
static void name(u32 fn, u32 t, type *acc, type *a, u32 n)			\
{										\
	type r = *acc;								\
	u32 i;									\
										\
	if (sizeof(type) == 4 && t != XRT_CS_F32) {	/* 16-bit: each step rounds */	\
		for (i = 0; i < n; i++) {					\
			r = name##_step(fn, r, a[i]);				\
			ew_round_half(t, (float *)&r, 1);			\
			a[i] = r;						\
		}								\
	} else if (fn == XRT_CS_BIN_ADD) {					\
		for (i = 0; i < n; i++) {					\
			r = r + a[i];						\
			a[i] = r;						\
		}								\
	} else if (fn == XRT_CS_BIN_MUL) {					\
		for (i = 0; i < n; i++) {					\
			r = r * a[i];						\
			a[i] = r;						\
		}								\
	} else if (fn == XRT_CS_BIN_MAX) {					\
		for (i = 0; i < n; i++) {					\
			r = name##_step(XRT_CS_BIN_MAX, r, a[i]);		\
			a[i] = r;						\
		}								\
	} else {								\
		for (i = 0; i < n; i++) {					\
			r = name##_step(XRT_CS_BIN_MIN, r, a[i]);		\
			a[i] = r;						\
		}								\
	}									\
	*acc = r;								\
}

SCAN_FLOAT(scan_f32, float, u32)
SCAN_FLOAT(scan_f64, double, u64)

/* Complex sums and products, one element at a time through EWISE. */
static void scan_complex(u32 fn, u32 t, void *acc, u8 *a, u32 n)
{
	u32 es = t == XRT_CS_C64 ? 8 : 16, i;

	for (i = 0; i < n; i++) {
		void *e = a + (u64)i * es;

		if (t == XRT_CS_C64)
			ew_c64_binary(fn, e, acc, e, 1);
		else
			ew_c128_binary(fn, e, acc, e, 1);
		memcpy(acc, e, es);
	}
}

/* Scans @n elements of register block @a on from the running value @acc. */
static void scan_block(u32 fn, u32 t, void *acc, void *a, u32 n)
{
	switch (ew_class_of(t)) {
	case EW_INT:
		scan_int(fn, t, acc, a, n);
		break;
	case EW_F32:
		scan_f32(fn, t, acc, a, n);
		break;
	case EW_F64:
		scan_f64(fn, t, acc, a, n);
		break;
	default:
		scan_complex(fn, t, acc, a, n);
		break;
	}
}

/* Element offsets of line @l's first element in @in and @out. */
static void line_base(const struct scan *s, u64 l, s64 *ib, s64 *ob)
{
	u32 k = s->orank;

	*ib = 0;
	*ob = 0;
	while (k--) {
		u64 i = l % s->odims[k];
		u32 d = s->oaxis[k];

		l /= s->odims[k];
		*ib += (s64)i * s->c->in.strides[d];
		*ob += (s64)i * s->c->out.strides[d];
	}
}

static void scan_line(const struct xrt_engine_ctx *x, const struct scan *s, u64 l,
		      u64 p0, u64 n, u8 *ws)
{
	const struct xrt_cs_scan *c = s->c;
	u32 t = c->in.dtype, es = xs_dtype_size(t), fn = xs_red_binary(c->op);
	s64 is = c->in.strides[c->dim], os = c->out.strides[c->dim], ib, ob;
	const u8 *in = engine_ptr(x, c->in.slot, c->in.offset);
	u8 *out = engine_ptr(x, c->out.slot, c->out.offset);
	void *a = ew_reg(ws, 0), *acc = ew_reg(ws, 1);
	u64 off;

	line_base(s, l, &ib, &ob);
	if (p0)
		ew_load(t, acc, out + (ob + (s64)(p0 - 1) * os) * (s64)es, os, 1);
	else
		ew_const(t, acc, c->init, 1);
	for (off = p0; off < p0 + n; off += EW_BLOCK) {
		u32 bn = (u32)engine_min(p0 + n - off, EW_BLOCK);

		ew_load(t, a, in + (ib + (s64)off * is) * (s64)es, is, bn);
		scan_block(fn, t, acc, a, bn);
		ew_store(t, out + (ob + (s64)off * os) * (s64)es, os, a, bn);
	}
}

/* Row @g (by row) of the chunk from position @p0, @n positions long. */
static void scan_row(const struct xrt_engine_ctx *x, const struct scan *s, u64 g, u64 p0,
		     u64 n, u8 *ws)
{
	const struct xrt_cs_scan *c = s->c;
	u64 inner = s->odims[s->orank - 1], per_line = (inner + s->per_item - 1) / s->per_item;
	u64 first = (g % per_line) * s->per_item;
	u32 t = c->in.dtype, es = xs_dtype_size(t), fn = xs_red_binary(c->op);
	u32 last = s->oaxis[s->orank - 1], w = (u32)engine_min(inner - first, s->per_item);
	s64 is = c->in.strides[c->dim], os = c->out.strides[c->dim], ib, ob;
	s64 il = c->in.strides[last], ol = c->out.strides[last];
	const u8 *in = engine_ptr(x, c->in.slot, c->in.offset);
	u8 *out = engine_ptr(x, c->out.slot, c->out.offset);
	void *a = ew_reg(ws, 0), *acc = ew_reg(ws, 1);
	u64 j;

	line_base(s, (g / per_line) * inner + first, &ib, &ob);
	if (p0)
		ew_load(t, acc, out + (ob + (s64)(p0 - 1) * os) * (s64)es, ol, w);
	else
		ew_const(t, acc, c->init, w);
	for (j = p0; j < p0 + n; j++) {
		ew_load(t, a, in + (ib + (s64)j * is) * (s64)es, il, w);
		ew_binary_of(fn, t, acc, acc, a, w);
		ew_store(t, out + (ob + (s64)j * os) * (s64)es, ol, acc, w);
	}
}

static void scan_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		     u64 first, u64 count, void *ws)
{
	u64 p0, n, l, end;
	struct scan s;

	scan_init(&s, cmd);
	p0 = (u64)phase * s.chunk;
	n = engine_min(s.len - p0, s.chunk);
	if (s.by_row) {
		for (l = first; l < first + count; l++)
			scan_row(x, &s, l, p0, n, ws);
		return;
	}
	end = engine_min((first + count) * s.per_item, s.lines);
	for (l = first * s.per_item; l < end; l++)
		scan_line(x, &s, l, p0, n, ws);
}

const struct cmd_ops engine_scan_ops = {
	.name = "SCAN",
	.fixed_size = sizeof(struct xrt_cs_scan),
	.validate = scan_validate,
	.phases = scan_phases,
	.items = scan_items,
	.run = scan_run,
};
