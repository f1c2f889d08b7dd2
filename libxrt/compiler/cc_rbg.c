// SPDX-License-Identifier: MIT
/*
 * rng-bit-generator as one kernel over the output's elements, in the
 * evaluator's terms (Documentation/evaluator.rst): state[0] is the key,
 * state[1] (and state[2] for Philox, else the key again, as XLA has it)
 * the counter; output element k takes
 * word k of the stream (words 2k and 2k + 1, low first, for 64-bit
 * types), word w being word w % B of block w / B (B = 4 for
 * Philox-4x32-10, 2 for Threefry-2x32-20) made at counter + w / B.  Each
 * element computes its block from an iota of its index; the new state is
 * the counter advanced by the blocks used.
 */
#include <string.h>

#include "core/mem.h"
#include "cc.h"

#define OP(e, op, fn, t, d, a, b) cc_ew_put(e, XRT_CS_EW_##op, fn, t, d, a, b, 0)
#define BIN(e, fn, t, d, a, b) OP(e, BINARY, XRT_CS_BIN_##fn, t, d, a, b)
#define CVT(e, t, d, a) OP(e, CONVERT, 0, t, d, a, 0)

struct gen {
	struct ewp *e;
	uint32_t c[4];		/* counter words, then the block's words */
	uint32_t k[2];		/* key words */
	uint32_t lane;		/* the word's place in its block (u64) */
};

static uint32_t konst(struct ewp *e, enum xrt_dtype t, uint64_t v)
{
	uint32_t r = cc_ew_reg(e);

	cc_ew_const(e, t, r, v);
	return r;
}

/* @lo and @hi: the u32 halves of u64 register @x. */
static void halves(struct ewp *e, uint32_t x, uint32_t lo, uint32_t hi)
{
	uint32_t sh = konst(e, XRT_U64, 32), t = cc_ew_reg(e);

	CVT(e, XRT_U32, lo, x);
	BIN(e, SHR_LOGICAL, XRT_U64, t, x, sh);
	CVT(e, XRT_U32, hi, t);
	cc_ew_free(e, sh);
	cc_ew_free(e, t);
}

static void philox_rounds(struct gen *g)
{
	struct ewp *e = g->e;
	uint32_t ma = konst(e, XRT_U64, 0xD2511F53u), mb = konst(e, XRT_U64, 0xCD9E8D57u);
	uint32_t sh = konst(e, XRT_U64, 32), ia = konst(e, XRT_U32, 0x9E3779B9u);
	uint32_t ib = konst(e, XRT_U32, 0xBB67AE85u);
	uint32_t p0 = cc_ew_reg(e), p1 = cc_ew_reg(e), t = cc_ew_reg(e);
	uint32_t n0 = cc_ew_reg(e), n2 = cc_ew_reg(e), r, x;

	for (r = 0; r < 10; r++) {
		CVT(e, XRT_U64, p0, g->c[0]);
		BIN(e, MUL, XRT_U64, p0, p0, ma);
		CVT(e, XRT_U64, p1, g->c[2]);
		BIN(e, MUL, XRT_U64, p1, p1, mb);
		BIN(e, SHR_LOGICAL, XRT_U64, t, p1, sh);
		CVT(e, XRT_U32, n0, t);
		BIN(e, XOR, XRT_U32, n0, n0, g->c[1]);
		BIN(e, XOR, XRT_U32, n0, n0, g->k[0]);
		BIN(e, SHR_LOGICAL, XRT_U64, t, p0, sh);
		CVT(e, XRT_U32, n2, t);
		BIN(e, XOR, XRT_U32, n2, n2, g->c[3]);
		BIN(e, XOR, XRT_U32, n2, n2, g->k[1]);
		CVT(e, XRT_U32, g->c[1], p1);
		CVT(e, XRT_U32, g->c[3], p0);
		/* the new words 0 and 2 by renaming, not copying */
		x = g->c[0];
		g->c[0] = n0;
		n0 = x;
		x = g->c[2];
		g->c[2] = n2;
		n2 = x;
		BIN(e, ADD, XRT_U32, g->k[0], g->k[0], ia);
		BIN(e, ADD, XRT_U32, g->k[1], g->k[1], ib);
	}
}

static void threefry_rounds(struct gen *g)
{
	static const int rot[8] = { 13, 15, 26, 6, 17, 29, 16, 24 };
	struct ewp *e = g->e;
	uint32_t ks[3] = { g->k[0], g->k[1], konst(e, XRT_U32, 0x1BD11BDAu) };
	uint32_t x0 = g->c[0], x1 = g->c[1], t = cc_ew_reg(e), a, b;
	int i;

	BIN(e, XOR, XRT_U32, ks[2], ks[2], ks[0]);
	BIN(e, XOR, XRT_U32, ks[2], ks[2], ks[1]);
	BIN(e, ADD, XRT_U32, x0, x0, ks[0]);
	BIN(e, ADD, XRT_U32, x1, x1, ks[1]);
	for (i = 0; i < 20; i++) {
		BIN(e, ADD, XRT_U32, x0, x0, x1);
		a = konst(e, XRT_U32, (uint64_t)rot[i % 8]);
		b = konst(e, XRT_U32, (uint64_t)(32 - rot[i % 8]));
		BIN(e, SHL, XRT_U32, t, x1, a);
		BIN(e, SHR_LOGICAL, XRT_U32, x1, x1, b);
		BIN(e, OR, XRT_U32, x1, x1, t);
		BIN(e, XOR, XRT_U32, x1, x1, x0);
		cc_ew_free(e, a);
		cc_ew_free(e, b);
		if (i % 4 == 3) {
			uint32_t s = (uint32_t)(i + 1) / 4, k = konst(e, XRT_U32, s);

			BIN(e, ADD, XRT_U32, x0, x0, ks[s % 3]);
			BIN(e, ADD, XRT_U32, x1, x1, ks[(s + 1) % 3]);
			BIN(e, ADD, XRT_U32, x1, x1, k);
			cc_ew_free(e, k);
		}
	}
}

/* word @L of the block where lane == @L, over the words in @c[0..n). */
static uint32_t pick_word(struct gen *g, uint32_t n, uint32_t first)
{
	struct ewp *e = g->e;
	uint32_t v = g->c[n - 1], p = cc_ew_reg(e), l = cc_ew_reg(e);
	int k;

	for (k = (int)n - 2; k >= (int)first; k--) {
		cc_ew_const(e, XRT_U64, l, (uint64_t)k);
		OP(e, COMPARE, XRT_CS_CMP_EQ, XRT_PRED, p, g->lane, l);
		cc_ew_put(e, XRT_CS_EW_SELECT, 0, XRT_U32, v, p, g->c[k], v);
	}
	cc_ew_free(e, p);
	cc_ew_free(e, l);
	return v;
}

/* The bits: one kernel over the @n elements of @out (dense). */
static void bits_kernel(struct cc *cc, bool philox, const struct cc_buf *state, uint32_t n_state,
			const struct cc_buf *iota, const struct cc_buf *out)
{
	uint32_t words = xrt_dtype_size(out->dtype) == 8 ? 2 : 1, B = philox ? 4 : 2;
	struct ewp *e = cc_ew_new(cc, out);
	struct gen g = { e, { 0 }, { 0 }, 0 };
	struct cc_buf s = *state;
	uint32_t w, lo, hi, t, i;

	if (!e)
		return;
	for (i = 0; i < 4; i++)
		g.c[i] = cc_ew_reg(e);
	g.k[0] = cc_ew_reg(e);
	g.k[1] = cc_ew_reg(e);
	w = cc_ew_reg(e);
	lo = cc_ew_reg(e);
	hi = cc_ew_reg(e);
	t = cc_ew_reg(e);
	g.lane = cc_ew_reg(e);
	/*
	 * The state's words, broadcast: key, counter low and high.  A Philox
	 * state of two words has the key as the counter's high half, as XLA
	 * has it; otherwise a missing half is 0.
	 */
	s.rank = out->rank;
	memcpy(s.dims, out->dims, sizeof(s.dims));
	memset(s.strides, 0, sizeof(s.strides));
	cc_ew_load(e, hi, &s);
	halves(e, hi, g.k[0], g.k[1]);
	cc_ew_const(e, XRT_U64, lo, 0);
	if (!philox || n_state != 2)
		cc_ew_const(e, XRT_U64, hi, 0);
	s.offset += 8;
	if (n_state > 1)
		cc_ew_load(e, lo, &s);
	s.offset += 8;
	if (n_state > 2 && philox)
		cc_ew_load(e, hi, &s);
	/* word w = index * words; block w / B at counter + w / B, with carry */
	cc_ew_load(e, w, iota);
	cc_ew_const(e, XRT_U64, t, words == 2 ? 1 : 0);
	BIN(e, SHL, XRT_U64, w, w, t);
	cc_ew_const(e, XRT_U64, t, B - 1);
	BIN(e, AND, XRT_U64, g.lane, w, t);
	cc_ew_const(e, XRT_U64, t, philox ? 2 : 1);
	BIN(e, SHR_LOGICAL, XRT_U64, w, w, t);
	BIN(e, ADD, XRT_U64, lo, lo, w);
	OP(e, COMPARE, XRT_CS_CMP_LT, XRT_PRED, t, lo, w);
	CVT(e, XRT_U64, t, t);
	BIN(e, ADD, XRT_U64, hi, hi, t);
	halves(e, lo, g.c[0], g.c[1]);
	halves(e, hi, g.c[2], g.c[3]);
	cc_ew_free(e, lo);
	cc_ew_free(e, hi);
	cc_ew_free(e, w);
	if (philox)
		philox_rounds(&g);
	else
		threefry_rounds(&g);
	if (words == 1) {
		lo = pick_word(&g, B, 0);
		CVT(e, out->dtype, t, lo);
	} else {		/* words 0 and 1, or (Philox) 2 and 3 */
		lo = philox ? pick_word(&g, 3, 0) : g.c[0];
		if (philox) {	/* the high word beside the low one */
			g.c[2] = g.c[3];
			g.c[0] = g.c[1];
		}
		hi = philox ? pick_word(&g, 3, 0) : g.c[1];
		w = cc_ew_reg(e);
		CVT(e, XRT_U64, t, hi);
		cc_ew_const(e, XRT_U64, w, 32);
		BIN(e, SHL, XRT_U64, t, t, w);
		CVT(e, XRT_U64, w, lo);
		BIN(e, OR, XRT_U64, t, t, w);
		CVT(e, out->dtype, t, t);
	}
	cc_ew_store(e, out, t);
	cc_ew_emit(e, out);
}

/* state[1] (+ carry into state[2] for Philox) += @blocks, in place. */
static void advance(struct cc *cc, bool philox, const struct cc_buf *st, uint32_t n_state,
		    uint64_t blocks)
{
	struct cc_buf s1 = cc_dense(st->slot, st->offset + 8, XRT_U64, 0, NULL), s2 = s1;
	uint32_t r[4], k;
	struct ewp *e;

	if (n_state < 2 || !blocks)
		return;
	e = cc_ew_new(cc, &s1);
	if (!e)
		return;
	s2.offset += 8;
	for (k = 0; k < 4; k++)
		r[k] = cc_ew_reg(e);
	cc_ew_load(e, r[0], &s1);
	cc_ew_const(e, XRT_U64, r[1], blocks);
	BIN(e, ADD, XRT_U64, r[0], r[0], r[1]);
	cc_ew_store(e, &s1, r[0]);
	if (philox && n_state > 2) {
		OP(e, COMPARE, XRT_CS_CMP_LT, XRT_PRED, r[2], r[0], r[1]);
		CVT(e, XRT_U64, r[2], r[2]);
		cc_ew_load(e, r[3], &s2);
		BIN(e, ADD, XRT_U64, r[3], r[3], r[2]);
		cc_ew_store(e, &s2, r[3]);
	}
	cc_ew_emit(e, &s1);
}

void cc_lower_rng_bit_generator(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *alg = ir_instr_attr(in, IR_ATTR_ALGORITHM);
	bool philox = !alg || strcmp(alg->str, "rng_three_fry");
	const struct xrt_shape *ss = &in->shape.tuple[0], *bs = &in->shape.tuple[1];
	uint32_t v = cc_iv(cc, i), st = cc_new_val(cc), bits = cc_new_val(cc), io;
	int64_t n = (int64_t)xrt_shape_element_count(bs);
	uint32_t n_state = (uint32_t)ss->dims[0], words = xrt_dtype_size(bs->dtype) == 8 ? 2 : 1;
	struct cc_buf flat, sb;
	struct xrt_cs_view iv;

	if (cc_alloc(cc, st, XRT_U64, 1, ss->dims) ||
	    cc_alloc(cc, bits, bs->dtype, bs->rank, bs->dims))
		return;
	sb = cc->vals[st].buf;
	cc_copy(cc, &sb, &cc->vals[cc_opnd(cc, in, 0)].buf);
	if (n) {
		io = cc_new_val(cc);
		if (cc_alloc(cc, io, XRT_U64, 1, &n))
			return;
		iv = cc_csview(&cc->vals[io].buf);
		cs_fill_iota(&cc->b, &iv, 0);
		flat = cc_dense(cc->vals[bits].buf.slot, cc->vals[bits].buf.offset, bs->dtype, 1, &n);
		bits_kernel(cc, philox, &sb, n_state, &cc->vals[io].buf, &flat);
		cc_release(cc, io);
	}
	advance(cc, philox, &sb, n_state, ((uint64_t)n * words + (philox ? 3 : 1)) / (philox ? 4 : 2));
	if (!cc_tuple_init(cc, v, 2))
		return;
	cc->vals[v].elems[0] = st;
	cc->vals[v].elems[1] = bits;
	cc->vals[v].num_elems = 2;
}
