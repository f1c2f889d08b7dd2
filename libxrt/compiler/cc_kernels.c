// SPDX-License-Identifier: MIT
/*
 * Hand-written kernels: the EWISE commands the lowering of control
 * flow, sorts, random numbers and scatters needs that no instruction
 * tree describes (a loop counter's step, a compare-and-swap, a select
 * step), written instruction by instruction over cc_ewp.h.
 */
#include "core/mem.h"
#include "cc.h"
#include "cc_ewp.h"

void cc_emit_convert(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *src)
{
	struct ewp *e = ewp_new_small(cc, dst);

	if (!e)
		return;
	ewp_put(e, XRT_CS_EW_LOAD, 0, src->dtype, 0, ewp_operand(e, src, XRT_CS_OPERAND_IN), 0, 0,
	    NULL, 0);
	ewp_put(e, XRT_CS_EW_CONVERT, 0, dst->dtype, 1, 0, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, dst, XRT_CS_OPERAND_OUT), 1, 0, NULL, 0);
	ewp_emit_small(e, dst, 2);
}

void cc_emit_compare_eq(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *a,
			const struct cc_buf *b)
{
	struct ewp *e = ewp_new_small(cc, dst);

	if (!e)
		return;
	ewp_put(e, XRT_CS_EW_LOAD, 0, a->dtype, 0, ewp_operand(e, a, XRT_CS_OPERAND_IN), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, b->dtype, 1, ewp_operand(e, b, XRT_CS_OPERAND_IN), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_EQ, XRT_PRED, 2, 0, 1, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, dst, XRT_CS_OPERAND_OUT), 2, 0, NULL, 0);
	ewp_emit_small(e, dst, 3);
}

void cc_emit_rng_bounds(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *raw,
			const struct cc_buf *a, const struct cc_buf *b, bool normal)
{
	enum xrt_dtype t = dst->dtype, w = xrt_dtype_is_float(t) ? XRT_F64 : XRT_U64;
	struct ewp *e = ewp_new_small(cc, dst);
	uint8_t in = XRT_CS_OPERAND_IN;

	if (!e)
		return;
	/* r0 raw, r1 a, r2 b, in the wide type; r3 scratch; r4 the predicate */
	ewp_put(e, XRT_CS_EW_LOAD, 0, raw->dtype, 0, ewp_operand(e, raw, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, a->dtype, 1, ewp_operand(e, a, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, b->dtype, 2, ewp_operand(e, b, in), 0, 0, NULL, 0);
	/* an empty range (b <= a) or a result rounded up to b gives a */
	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LT, XRT_PRED, 4, 1, 2, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONVERT, 0, w, 0, 0, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONVERT, 0, w, 1, 1, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONVERT, 0, w, 3, 2, 0, 0, NULL, 0);
	if (normal) {		/* a + b z */
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_MUL, w, 0, 3, 0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, w, 0, 1, 0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_CONVERT, 0, t, 0, 0, 0, 0, NULL, 0);
	} else {		/* a + (b - a) u, or a + bits mod (b - a) */
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_SUB, w, 3, 3, 1, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_BINARY, w == XRT_F64 ? XRT_CS_BIN_MUL : XRT_CS_BIN_REM, w, 0, 0,
		    3, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, w, 0, 1, 0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_CONVERT, 0, t, 0, 0, 0, 0, NULL, 0);
		if (w == XRT_F64) {
			ewp_put(e, XRT_CS_EW_LOAD, 0, b->dtype, 2, ewp_operand(e, b, in), 0, 0, NULL, 0);
			ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LT, XRT_PRED, 4, 0, 2, 0, NULL, 0);
		}
		ewp_put(e, XRT_CS_EW_LOAD, 0, a->dtype, 1, ewp_operand(e, a, in), 0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_SELECT, 0, t, 0, 4, 0, 1, NULL, 0);
	}
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, dst, XRT_CS_OPERAND_OUT), 0, 0, NULL, 0);
	ewp_emit_small(e, dst, 5);
}

void cc_emit_count_step(struct cc *cc, const struct cc_buf *c, const struct cc_buf *p,
			int64_t limit)
{
	struct ewp *e = ewp_new_small(cc, c);
	uint64_t one = 1;

	if (!e)
		return;
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_S64, 0, ewp_operand(e, c, XRT_CS_OPERAND_IN), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONST, 0, XRT_S64, 1, 0, 0, 0, &one, 8);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, XRT_S64, 0, 0, 1, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONST, 0, XRT_S64, 1, 0, 0, 0, &limit, 8);
	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_LT, XRT_PRED, 2, 0, 1, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, c, XRT_CS_OPERAND_OUT), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, p, XRT_CS_OPERAND_OUT), 2, 0, NULL, 0);
	ewp_emit_small(e, c, 3);
}

void cc_emit_increment(struct cc *cc, const struct cc_buf *c)
{
	struct ewp *e = ewp_new_small(cc, c);
	uint64_t one = 1;

	if (!e)
		return;
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_U64, 0, ewp_operand(e, c, XRT_CS_OPERAND_IN), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_CONST, 0, XRT_U64, 1, 0, 0, 0, &one, 8);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_ADD, XRT_U64, 0, 0, 1, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, c, XRT_CS_OPERAND_OUT), 0, 0, NULL, 0);
	ewp_emit_small(e, c, 2);
}

void cc_emit_masked_n(struct cc *cc, const uint32_t *roots, uint32_t n,
		      const struct cc_buf *outs, const struct cc_buf *mask)
{
	struct ewp *e = ewp_new_small(cc, &outs[0]);
	uint32_t r[8], m, o, k;

	if (!e)
		return;
	if (n > 8) {
		cc_unimplemented(cc, "a kernel with more than 8 results");
		xrt_mem_free(cc->a, e);
		return;
	}
	/* every result computed before any is stored: outputs may be inputs */
	for (k = 0; k < n; k++)
		r[k] = ewp_emit_root(e, roots[k]);
	if (mask) {
		m = ewp_reg(e);
		o = ewp_reg(e);
		ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_PRED, m, ewp_operand(e, mask, XRT_CS_OPERAND_IN), 0, 0,
		    NULL, 0);
	}
	for (k = 0; mask && k < n; k++) {
		ewp_put(e, XRT_CS_EW_LOAD, 0, outs[k].dtype, o, ewp_operand(e, &outs[k], XRT_CS_OPERAND_IN),
		    0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_SELECT, 0, outs[k].dtype, r[k], m, r[k], o, NULL, 0);
	}
	for (k = 0; k < n; k++)
		ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, &outs[k], XRT_CS_OPERAND_OUT), r[k], 0,
		    NULL, 0);
	ewp_emit_small(e, &outs[0], e->num_regs);
}

void cc_emit_swap_step(struct cc *cc, uint32_t root, const struct cc_buf *a,
		       const struct cc_buf *b, uint32_t n)
{
	struct ewp *e = ewp_new_small(cc, &a[0]);
	uint32_t s, ra[8], rb[8], t, k;

	if (!e)
		return;
	s = ewp_emit_root(e, root);
	for (k = 0; k < n && k < 8; k++) {
		ra[k] = ewp_reg(e);
		rb[k] = ewp_reg(e);
		t = ewp_reg(e);
		ewp_put(e, XRT_CS_EW_LOAD, 0, a[k].dtype, ra[k], ewp_operand(e, &a[k], XRT_CS_OPERAND_IN),
		    0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_LOAD, 0, b[k].dtype, rb[k], ewp_operand(e, &b[k], XRT_CS_OPERAND_IN),
		    0, 0, NULL, 0);
		ewp_put(e, XRT_CS_EW_SELECT, 0, a[k].dtype, t, s, rb[k], ra[k], NULL, 0);
		ewp_put(e, XRT_CS_EW_SELECT, 0, a[k].dtype, rb[k], s, ra[k], rb[k], NULL, 0);
		ewp_give(e, ra[k]);
		ra[k] = t;
	}
	for (k = 0; k < n && k < 8; k++) {
		ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, &a[k], XRT_CS_OPERAND_OUT), ra[k], 0,
		    NULL, 0);
		ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, &b[k], XRT_CS_OPERAND_OUT), rb[k], 0,
		    NULL, 0);
	}
	ewp_emit_small(e, &a[0], e->num_regs);
}

/* Register @r = the offset: @j, or the s32 scalar @jv read at run time. */
static void put_offset(struct ewp *e, uint32_t r, const struct cc_buf *space,
		       const struct cc_buf *jv, int32_t j)
{
	struct cc_buf b;

	if (!jv) {
		ewp_put(e, XRT_CS_EW_CONST, 0, XRT_S32, r, 0, 0, 0, &j, 4);
		return;
	}
	b = cc_spread(*jv, space);
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_S32, r, ewp_operand(e, &b, XRT_CS_OPERAND_IN), 0, 0,
		NULL, 0);
}

void cc_emit_select_step(struct cc *cc, uint32_t sel_root, const struct cc_buf *h,
			 const struct cc_buf *b, const struct cc_buf *jb, const struct cc_buf *c,
			 const struct cc_buf *m, const struct cc_buf *jv, int32_t j)
{
	struct ewp *e = ewp_new_small(cc, h);
	uint8_t in = XRT_CS_OPERAND_IN, out = XRT_CS_OPERAND_OUT;
	uint32_t rs, rh, rm, t, rc, rb;

	if (!e)
		return;
	rs = ewp_emit_root(e, sel_root);	/* select(best, candidate): keep best */
	rh = ewp_reg(e);
	rm = ewp_reg(e);
	t = ewp_reg(e);
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_PRED, rh, ewp_operand(e, h, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_PRED, rm, ewp_operand(e, m, in), 0, 0, NULL, 0);
	/* take = valid and (no best yet or not keep) */
	ewp_put(e, XRT_CS_EW_UNARY, XRT_CS_UN_NOT, XRT_PRED, rs, rs, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_UNARY, XRT_CS_UN_NOT, XRT_PRED, t, rh, 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_OR, XRT_PRED, t, t, rs, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_AND, XRT_PRED, t, t, rm, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_BINARY, XRT_CS_BIN_OR, XRT_PRED, rh, rh, rm, 0, NULL, 0);
	rc = rs;	/* free now */
	rb = rm;
	ewp_put(e, XRT_CS_EW_LOAD, 0, c->dtype, rc, ewp_operand(e, c, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, b->dtype, rb, ewp_operand(e, b, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_SELECT, 0, b->dtype, rb, t, rc, rb, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_S32, rc, ewp_operand(e, jb, in), 0, 0, NULL, 0);
	put_offset(e, rm = ewp_reg(e), h, jv, j);
	ewp_put(e, XRT_CS_EW_SELECT, 0, XRT_S32, rc, t, rm, rc, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, b, out), rb, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, jb, out), rc, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, h, out), rh, 0, NULL, 0);
	ewp_emit_small(e, h, e->num_regs);
}

void cc_emit_scatter_step(struct cc *cc, uint32_t root, const struct cc_buf *r,
			  const struct cc_buf *jb, const struct cc_buf *jv, int32_t j)
{
	struct ewp *e = ewp_new_small(cc, jb);
	uint8_t in = XRT_CS_OPERAND_IN;
	uint32_t rn, rj, rk, rr;

	if (!e)
		return;
	rn = ewp_emit_root(e, root);
	rj = ewp_reg(e);
	rk = ewp_reg(e);
	rr = ewp_reg(e);
	ewp_put(e, XRT_CS_EW_LOAD, 0, XRT_S32, rj, ewp_operand(e, jb, in), 0, 0, NULL, 0);
	put_offset(e, rk, jb, jv, j);
	ewp_put(e, XRT_CS_EW_COMPARE, XRT_CS_CMP_EQ, XRT_PRED, rk, rj, rk, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_LOAD, 0, r->dtype, rr, ewp_operand(e, r, in), 0, 0, NULL, 0);
	ewp_put(e, XRT_CS_EW_SELECT, 0, r->dtype, rr, rk, rn, rr, NULL, 0);
	ewp_put(e, XRT_CS_EW_STORE, 0, 0, 0, ewp_operand(e, r, XRT_CS_OPERAND_OUT), rr, 0, NULL, 0);
	ewp_emit_small(e, jb, e->num_regs);
}
