// SPDX-License-Identifier: MIT
/*
 * COPY, FILL and RNG: one thread per element.  Copies move bits (an
 * element type of the right size), so NaN payloads survive; RNG makes
 * element i from Philox-4x32-10 at counter (i, stream) as the engine
 * does, so both give the same numbers for the same seed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/scalar.h"
#include "cuda_gen_internal.h"

static void copy(struct cg *g, const struct xrt_cs_copy *c, struct cg_step *st)
{
	__s64 strides[2][XRT_CS_MAX_RANK];
	__u64 dims[XRT_CS_MAX_RANK], n = cg_count(c->dst.rank, c->dst.dims);
	uint32_t rank = c->dst.rank;
	const char *t = cg_bits_type(xs_dtype_size(c->dst.dtype));
	char dst[CG_PTR_LEN], src[CG_PTR_LEN];
	struct cg_kernel *k = &st->kernel[0];

	memcpy(dims, c->dst.dims, sizeof(dims));
	memcpy(strides[0], c->dst.strides, sizeof(strides[0]));
	memcpy(strides[1], c->src.strides, sizeof(strides[1]));
	cg_merge_dims(&rank, dims, 2, strides);
	cg_kernel_init(g, k, n);
	cg_use_slot(g, k, c->dst.slot);
	cg_use_slot(g, k, c->src.slot);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n", n);
	cg_unravel(g, "c", "e", rank, dims, n <= UINT32_MAX);
	cg_view_ptr(dst, sizeof(dst), &c->dst, strides[0], rank, "c");
	cg_view_ptr(src, sizeof(src), &c->src, strides[1], rank, "c");
	cg_printf(&g->t, "\t*(%s *)(%s) = *(const %s *)(%s);\n}\n}\n", t, dst, t, src);
}

static void fill(struct cg *g, const struct xrt_cs_fill *c, struct cg_step *st)
{
	__u64 n = cg_count(c->dst.rank, c->dst.dims);
	uint32_t es = xs_dtype_size(c->dst.dtype);
	char dst[CG_PTR_LEN], val[300];
	struct cg_kernel *k = &st->kernel[0];

	cg_kernel_init(g, k, n);
	cg_use_slot(g, k, c->dst.slot);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n", n);
	cg_unravel(g, "c", "e", c->dst.rank, c->dst.dims, n <= UINT32_MAX);
	cg_view_ptr(dst, sizeof(dst), &c->dst, c->dst.strides, c->dst.rank, "c");
	if (c->mode == XRT_CS_FILL_IOTA) {
		char idx[32];

		snprintf(idx, sizeof(idx), "(s64)c%u", c->iota_dim);
		cg_convert(val, sizeof(val), c->dst.dtype, XRT_CS_S64, idx);
		cg_store(g, c->dst.dtype, dst, val);
	} else if (es == 16) {
		cg_printf(&g->t, "\tb16 b = { 0x%016llxull, 0x%016llxull };\n"
			  "\t*(b16 *)(%s) = b;\n", c->value[0], c->value[1], dst);
	} else {
		__u64 v = es == 8 ? c->value[0] : c->value[0] & ((1ull << (es * 8)) - 1);

		cg_printf(&g->t, "\t*(%s *)(%s) = (%s)0x%llxull;\n", cg_bits_type(es), dst,
			  cg_bits_type(es), v);
	}
	cg_printf(&g->t, "}\n}\n");
}

/* The largest value of float type @t below @hi, as a double. */
static double below(uint32_t t, double hi)
{
	__u64 b64;
	uint32_t b32;
	uint16_t h;
	float f;

	switch (t) {
	case XRT_CS_F64:
		memcpy(&b64, &hi, 8);
		b64 = hi == 0 ? 0x8000000000000001ull : hi > 0 ? b64 - 1 : b64 + 1;
		memcpy(&hi, &b64, 8);
		return hi;
	case XRT_CS_F32:
		f = (float)hi;
		memcpy(&b32, &f, 4);
		b32 = f > 0 ? b32 - 1 : f == 0 ? 0x80000001u : b32 + 1;
		memcpy(&f, &b32, 4);
		return f;
	default:
		h = t == XRT_CS_F16 ? engine_f64_to_f16(hi) : xs_f64_to_bf16(hi);
		h = (h & 0x7fff) == 0 ? 0x8001 : (h & 0x8000) ? h + 1 : h - 1;
		return t == XRT_CS_F16 ? engine_f16_to_f32(h) : xs_bf16_to_f32(h);
	}
}

/* Rounds double expression "v" to float type @t, as a double. */
static const char *round_expr(uint32_t t)
{
	switch (t) {
	case XRT_CS_F16:
		return "(double)h2f(d2h(v))";
	case XRT_CS_BF16:
		return "(double)bf2f(d2bf(v))";
	case XRT_CS_F32:
		return "(double)(float)v";
	default:
		return "v";
	}
}

static void rng(struct cg *g, const struct xrt_cs_rng *c, struct cg_step *st)
{
	const struct xrt_cs_view *d = &c->dst;
	const struct xrt_cs_scalar *at = (const void *)(c + 1);
	__u64 n = cg_count(d->rank, d->dims);
	uint32_t t = d->dtype;
	double lo, hi, bl;
	char dst[CG_PTR_LEN], ptr[CG_PTR_LEN], ld[CG_PTR_LEN + 64];
	struct cg_kernel *k = &st->kernel[0];
	__u64 blb;

	memcpy(&lo, &c->params[0], 8);
	memcpy(&hi, &c->params[1], 8);
	cg_kernel_init(g, k, n);
	cg_use_slot(g, k, d->slot);
	if (c->cmd.flags & XRT_CS_RNG_STREAM_AT)
		cg_use_slot(g, k, at->slot);
	cg_use_seed(g, k);
	cg_open(g, k);
	if (c->cmd.flags & XRT_CS_RNG_STREAM_AT) {
		snprintf(ptr, sizeof(ptr), "s%u + %llull", at->slot, at->offset);
		cg_load(ld, sizeof(ld), XRT_CS_U64, ptr);
	} else {
		snprintf(ld, sizeof(ld), "%lluull", c->stream);
	}
	cg_printf(&g->t, "const u64 rng_stream = %s;\n"
		  "FOR_EACH(e, %lluull) {\n"
		  "\tu32 w[4] = { (u32)e, (u32)(e >> 32), (u32)rng_stream, (u32)(rng_stream >> 32) };\n"
		  "\txs_philox(w, seed);\n", ld, n);
	cg_unravel(g, "c", "e", d->rank, d->dims, n <= UINT32_MAX);
	cg_view_ptr(dst, sizeof(dst), d, d->strides, d->rank, "c");
	if (c->distribution == XRT_CS_RNG_BITS) {
		cg_printf(&g->t, "\t*(%s *)(%s) = (%s)(w[0] | (u64)w[1] << 32);\n}\n}\n",
			  cg_mem_type(t), dst, cg_mem_type(t));
		return;
	}
	if (c->distribution == XRT_CS_RNG_UNIFORM) {
		bl = below(t, hi);
		memcpy(&blb, &bl, 8);
		cg_printf(&g->t, "\tdouble u = %s;\n",
			  t == XRT_CS_F64 ?
			  "(double)(((u64)w[0] | (u64)w[1] << 32) >> 11) * 1.1102230246251565e-16" :
			  "(double)(w[0] >> 8) * 5.9604644775390625e-08");
		cg_printf(&g->t, "\tdouble lo = __longlong_as_double(0x%016llxll), "
			  "hi = __longlong_as_double(0x%016llxll);\n"
			  "\tdouble v = lo + (hi - lo) * u;\n\tv = %s;\n"
			  "\tif (v >= hi) v = __longlong_as_double(0x%016llxll);\n",
			  c->params[0], c->params[1], round_expr(t), blb);
	} else {
		cg_printf(&g->t, "\tdouble u1 = (double)((((u64)w[0] | (u64)w[1] << 32) >> 11) + 1)"
			  " * 1.1102230246251565e-16;\n"
			  "\tdouble u2 = (double)(((u64)w[2] | (u64)w[3] << 32) >> 11)"
			  " * 1.1102230246251565e-16;\n"
			  "\tdouble v = __longlong_as_double(0x%016llxll) + "
			  "__longlong_as_double(0x%016llxll) * "
			  "(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));\n\tv = %s;\n",
			  c->params[0], c->params[1], round_expr(t));
	}
	cg_store(g, t, dst, t == XRT_CS_F64 ? "v" : "(float)v");
	cg_printf(&g->t, "}\n}\n");
	(void)lo;
}

void cg_move(struct cg *g, const struct xrt_cs_cmd *c, struct cg_step *st)
{
	switch (c->op) {
	case XRT_CS_OP_COPY:
		copy(g, (const void *)c, st);
		break;
	case XRT_CS_OP_FILL:
		fill(g, (const void *)c, st);
		break;
	case XRT_CS_OP_RNG:
		rng(g, (const void *)c, st);
		break;
	case XRT_CS_OP_CALL:	/* the device refuses such programs before this */
		cg_fail(g, "CALL: a custom call runs code of the process, not a GPU kernel");
		break;
	default:
		cg_fail(g, "unknown op %u", c->op);
		break;
	}
}
