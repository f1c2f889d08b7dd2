// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * RNG: counter-based random numbers.  Element i of the destination
 * (row-major) is made from one Philox-4x32-10 block with key = the
 * execution's seed and counter = (i, stream), so the numbers do not
 * depend on how elements are split among items or threads.  The stream
 * is the command's, or (STREAM_AT) a u64 in memory, which a program
 * counts up between passes of a loop.
 *
 * From the block's words w0..w3:
 *   BITS     u32: w0; u64: w0 | w1 << 32
 *   UNIFORM  f64: u = (w0 | w1 << 32) >> 11 scaled by 2^-53; others
 *            u = w0 >> 8 scaled by 2^-24; lo + (hi - lo) u in double,
 *            rounded to the type, and moved below hi if it rounded to hi
 *            (so values lie in [lo rounded, hi))
 *   NORMAL   Box-Muller: u1 = (53 bits of w0, w1, plus 1) 2^-53 in
 *            (0, 1], u2 = 53 bits of w2, w3 2^-53;
 *            mean + stddev sqrt(-2 ln u1) cos(2 pi u2), rounded once
 */
#include "emath.h"
#include "ew.h"

/* 2^-53 and 2^-24: random bits to a fraction in [0, 1), exactly. */
#define TWO_M53	(1.0 / (1ull << 53))
#define TWO_M24	(1.0 / (1u << 24))

static int is_float(u32 t)
{
	return t >= XRT_CS_F16 && t <= XRT_CS_F64;
}

/* The stream's scalar: a u64 the command reads and does not write. */
static int stream_at_validate(struct vctx *v, const struct xrt_cs_rng *c)
{
	const struct xrt_cs_scalar *s = (const void *)(c + 1);
	u64 lo, hi;

	if (c->stream)
		return engine_fail(v, 1, "RNG: stream not 0 with STREAM_AT", 0, 0);
	if (engine_check_scalar(v, 1, s, XRT_CS_U64))
		return -1;
	engine_span_bytes(c->dst.offset, xs_dtype_size(c->dst.dtype), c->dst.rank,
			  c->dst.dims, c->dst.strides, &lo, &hi);
	if (engine_overlap(c->dst.slot, lo, hi, s->slot, s->offset, s->offset + 8))
		return engine_fail(v, 1, "RNG: dst overlaps the stream's scalar", lo, s->offset);
	return 0;
}

static int rng_validate(struct vctx *v, const void *cmd, u32 size)
{
	const struct xrt_cs_rng *c = cmd;
	double a, b;

	if ((c->cmd.flags & ~XRT_CS_RNG_STREAM_AT) || c->pad)
		return engine_fail(v, ~0u, "RNG: unknown flags or padding not 0", c->cmd.flags, 0);
	if (size != sizeof(*c) + (c->cmd.flags ? sizeof(struct xrt_cs_scalar) : 0))
		return engine_fail(v, ~0u, "RNG: size is not that of the command and its scalars",
				   size, sizeof(*c));
	if (engine_check_view(v, 0, &c->dst, XRT_CS_SLOT_WRITE))
		return -1;
	if (c->cmd.flags && stream_at_validate(v, c))
		return -1;
	a = xs_bits_f64(c->params[0]);
	b = xs_bits_f64(c->params[1]);
	switch (c->distribution) {
	case XRT_CS_RNG_BITS:
		if (c->dst.dtype != XRT_CS_U32 && c->dst.dtype != XRT_CS_U64)
			return engine_fail(v, 0, "RNG: bits need u32 or u64", c->dst.dtype, 0);
		if (c->params[0] || c->params[1])
			return engine_fail(v, ~0u, "RNG: params not 0 for bits", 0, 0);
		return 0;
	case XRT_CS_RNG_UNIFORM:
	case XRT_CS_RNG_NORMAL:
		if (!is_float(c->dst.dtype))
			return engine_fail(v, 0, "RNG: a distribution needs a float type",
					   c->dst.dtype, 0);
		if (a - a != 0 || b - b != 0)	/* inf or NaN */
			return engine_fail(v, ~0u, "RNG: params not finite", c->params[0],
					   c->params[1]);
		if (c->distribution == XRT_CS_RNG_UNIFORM ? !(a < b) : !(b >= 0))
			return engine_fail(v, ~0u, c->distribution == XRT_CS_RNG_UNIFORM ?
					   "RNG: uniform needs low < high" :
					   "RNG: normal needs stddev >= 0", c->params[0],
					   c->params[1]);
		return 0;
	}
	return engine_fail(v, ~0u, "RNG: unknown distribution", c->distribution, 0);
}

static u64 rng_items(const struct xrt_engine_ctx *x, const void *cmd, u32 phase)
{
	const struct xrt_cs_rng *c = cmd;

	return engine_elem_items(engine_count(c->dst.rank, c->dst.dims));
}

/* The largest value of type @t below @hi, in the register format. */
static double below(u32 t, double hi)
{
	u8 reg[16];
	u64 bits;

	switch (t) {
	case XRT_CS_F64:
		memcpy(&bits, &hi, 8);
		bits += hi > 0 ? -1ull : 1;
		if (hi == 0)
			bits = 0x8000000000000001ull;
		return xs_bits_f64(bits);
	default: {
		u16 h = t == XRT_CS_F16 ? engine_f64_to_f16(hi) :
			t == XRT_CS_BF16 ? xs_f64_to_bf16(hi) : 0;
		float f = (float)hi;
		u32 fb;

		if (t == XRT_CS_F32) {
			memcpy(&fb, &f, 4);
			fb = f > 0 ? fb - 1 : f == 0 ? 0x80000001u : fb + 1;
			memcpy(&f, &fb, 4);
			return f;
		}
		h = (h & 0x7fff) == 0 ? 0x8001 : (h & 0x8000) ? h + 1 : h - 1;
		memcpy(reg, &h, 2);
		ew_load(t, &f, reg, 1, 1);
		return f;
	}
	}
}

/* Rounds @v to type @t and writes it in the register format. */
static double rounded(u32 t, double v)
{
	switch (t) {
	case XRT_CS_F16:
		return engine_f16_to_f32(engine_f64_to_f16(v));
	case XRT_CS_BF16:
		return xs_bf16_to_f32(xs_f64_to_bf16(v));
	case XRT_CS_F32:
		return (float)v;
	default:
		return v;
	}
}

static void element(const struct xrt_cs_rng *c, u64 seed, u64 stream, u64 i, u8 *p)
{
	u32 w[4] = { (u32)i, (u32)(i >> 32), (u32)stream, (u32)(stream >> 32) };
	u32 t = c->dst.dtype;
	double lo = xs_bits_f64(c->params[0]), hi = xs_bits_f64(c->params[1]), u, u1, u2, v;
	float f;
	u64 b;

	xs_philox(w, seed);
	if (c->distribution == XRT_CS_RNG_BITS) {
		b = w[0] | (u64)w[1] << 32;
		memcpy(p, &b, xs_dtype_size(t));
		return;
	}
	if (c->distribution == XRT_CS_RNG_UNIFORM) {
		u = t == XRT_CS_F64 ? (double)((w[0] | (u64)w[1] << 32) >> 11) * TWO_M53 :
				      (double)(w[0] >> 8) * TWO_M24;
		v = rounded(t, lo + (hi - lo) * u);
		if (v >= hi)
			v = below(t, hi);
	} else {
		u1 = (double)(((w[0] | (u64)w[1] << 32) >> 11) + 1) * TWO_M53;
		u2 = (double)((w[2] | (u64)w[3] << 32) >> 11) * TWO_M53;
		v = lo + hi * (__builtin_sqrt(-2.0 * em_log(u1)) *
			       em_cos(6.283185307179586 * u2));
		v = rounded(t, v);
	}
	if (t == XRT_CS_F64) {
		memcpy(p, &v, 8);
	} else {
		f = (float)v;
		ew_store(t, p, 1, &f, 1);
	}
}

static void rng_run(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		    u64 first, u64 count, void *ws)
{
	const struct xrt_cs_rng *c = cmd;
	const struct xrt_cs_view *d = &c->dst;
	u32 es = xs_dtype_size(d->dtype), r = d->rank;
	u64 n = engine_count(r, d->dims), s0 = first * ENGINE_ITEM_ELEMS, j, lin;
	const struct xrt_cs_scalar *at = (const void *)(c + 1);
	u64 stream = c->stream, len;
	struct row_iter it;

	if (c->cmd.flags & XRT_CS_RNG_STREAM_AT)
		memcpy(&stream, engine_ptr(x, at->slot, at->offset), 8);

	row_iter_init(&it, r, d->dims, s0, engine_min(count * ENGINE_ITEM_ELEMS, n - s0));
	lin = s0;
	while (row_iter_next(&it, &len)) {
		u8 *p = engine_ptr(x, d->slot, d->offset) +
			row_iter_offset(&it, d->strides) * (s64)es;

		for (j = 0; j < len; j++)
			element(c, x->rng_seed, stream, lin + j,
				p + (s64)j * (r ? d->strides[r - 1] : 0) * (s64)es);
		lin += len;
		row_iter_advance(&it, len);
	}
}

const struct cmd_ops engine_rng_ops = {
	.name = "RNG",
	.fixed_size = sizeof(struct xrt_cs_rng),
	.validate = rng_validate,
	.phases = engine_one_phase,
	.items = rng_items,
	.run = rng_run,
};
