// SPDX-License-Identifier: MIT
/*
 * REDUCE in the command stream's order, so a sum is the same on the GPU
 * as on the engine: eight threads take one segment of an output, thread
 * l the elements j = l, l + 8, ... (lane l), then combine as the tree
 * ((0+1)+(2+3))+((4+5)+(6+7)) through warp shuffles.  With one segment
 * per output the same kernel adds init and stores; with more, segments
 * go to scratch and a second kernel folds them in order, one thread per
 * output.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/scalar.h"
#include "cuda_gen_internal.h"

enum acc_class { ACC_INT, ACC_REAL, ACC_CPLX };

struct red {
	const struct xrt_cs_reduce *c;
	const struct xrt_cs_operand *ops;
	const struct xrt_cs_ew_inst *insts;
	uint32_t vtype, out, out_idx, kr, rr;
	__u64 kdims[XRT_CS_MAX_RANK], rdims[XRT_CS_MAX_RANK];
	__s64 kstr[XRT_CS_MAX_OPERANDS][XRT_CS_MAX_RANK];
	__s64 rstr[XRT_CS_MAX_OPERANDS][XRT_CS_MAX_RANK];
	__u64 outputs, reduced, segments;
	enum acc_class acc;
	bool arg, narrow;
};

static void red_init(struct red *r, const struct xrt_cs_reduce *c)
{
	uint32_t d, i, outs = 0;

	memset(r, 0, sizeof(*r));
	r->c = c;
	r->ops = (const void *)(c + 1);
	r->insts = (const void *)(r->ops + c->num_operands);
	for (i = 0; i < c->num_insts; i++)
		if (r->insts[i].op != XRT_CS_EW_STORE && r->insts[i].dst == c->value_reg)
			r->vtype = r->insts[i].dtype;
	for (i = 0; i < c->num_operands; i++) {
		if (r->ops[i].flags != XRT_CS_OPERAND_OUT)
			continue;
		if (!outs++)
			r->out = i;
		else
			r->out_idx = i;
	}
	r->outputs = 1;
	r->reduced = 1;
	for (d = 0; d < c->rank; d++) {
		bool red = c->reduce_mask & (1u << d);
		uint32_t at = red ? r->rr++ : r->kr++;

		for (i = 0; i < c->num_operands; i++) {
			if (red)
				r->rstr[i][at] = r->ops[i].strides[d];
			else
				r->kstr[i][at] = r->ops[i].strides[d];
		}
		if (red) {
			r->rdims[at] = c->dims[d];
			r->reduced *= c->dims[d];
		} else {
			r->kdims[at] = c->dims[d];
			r->outputs *= c->dims[d];
		}
	}
	r->segments = (r->reduced + XRT_CS_REDUCE_SEGMENT - 1) / XRT_CS_REDUCE_SEGMENT;
	r->arg = c->op == XRT_CS_RED_ARGMIN || c->op == XRT_CS_RED_ARGMAX;
	r->acc = r->vtype >= XRT_CS_PRED && r->vtype <= XRT_CS_U64 ? ACC_INT :
		 r->vtype == XRT_CS_C64 || r->vtype == XRT_CS_C128 ? ACC_CPLX : ACC_REAL;
	r->narrow = r->outputs <= UINT32_MAX && r->reduced <= UINT32_MAX;
}

static const char *acc_type(const struct red *r)
{
	return r->acc == ACC_INT ? "s64" : r->acc == ACC_REAL ? "double" : "cd";
}

/* Declares "a"/"ai" (prefix @p) as the identity. */
static void acc_identity(struct cg *g, const struct red *r, const char *p)
{
	const char *id;
	char buf[64];

	if (r->acc == ACC_INT) {
		snprintf(buf, sizeof(buf), "red_id_i(%u, %u)", r->c->op, r->vtype);
		id = buf;
	} else if (r->acc == ACC_REAL) {
		snprintf(buf, sizeof(buf), "(double)red_id_f(%u)", r->c->op);
		id = buf;
	} else {
		id = r->c->op == XRT_CS_RED_PROD ? "cdv(1.0, 0.0)" : "cdv(0.0, 0.0)";
	}
	cg_printf(&g->t, "\t%s %s = %s; s64 %si = RED_NO_INDEX;\n", acc_type(r), p, id, p);
}

/* "a (+)= (b, bi)" */
static void acc_combine(struct cg *g, const struct red *r, const char *a, const char *b,
			const char *bi)
{
	if (r->acc == ACC_INT)
		cg_printf(&g->t, "\tcomb_i(%u, %u, &%s, &%si, %s, %s);\n", r->c->op, r->vtype, a, a,
			  b, bi);
	else if (r->acc == ACC_REAL)
		cg_printf(&g->t, "\tcomb_d(%u, %u, &%s, &%si, %s, %s);\n", r->c->op, r->vtype, a, a,
			  b, bi);
	else
		cg_printf(&g->t, "\tcomb_c(%u, %u, &%s, %s);\n", r->c->op, r->vtype, a, b);
}

/* The output's start value: init (or the identity with no index, for ARG). */
static void acc_init(struct cg *g, const struct red *r, const char *p)
{
	char lit[200];

	if (r->arg) {
		acc_identity(g, r, p);
		return;
	}
	cg_const(lit, sizeof(lit), r->vtype, r->c->init);
	cg_printf(&g->t, "\t%s %s = %s(%s); s64 %si = RED_NO_INDEX;\n", acc_type(r), p,
		  r->acc == ACC_CPLX ? "cof" : r->acc == ACC_REAL ? "(double)" : "", lit, p);
}

/* Stores accumulator @p at output coordinates k0.. . */
static void acc_store(struct cg *g, const struct red *r, const char *p)
{
	const struct xrt_cs_operand *o = &r->ops[r->out];
	char off[300], ptr[CG_PTR_LEN], val[64];

	cg_offset(off, sizeof(off), "k", r->kr, r->kstr[r->out]);
	snprintf(ptr, sizeof(ptr), "s%u + %llull + (%s) * %u", o->slot, o->offset, off,
		 xs_dtype_size(o->dtype));
	if (r->acc == ACC_CPLX)
		snprintf(val, sizeof(val), "%s(%s)", o->dtype == XRT_CS_C64 ? "to64" : "to128", p);
	else if (r->acc == ACC_REAL && o->dtype != XRT_CS_F64)
		snprintf(val, sizeof(val), "(float)%s", p);
	else
		snprintf(val, sizeof(val), "%s", p);
	cg_store(g, o->dtype, ptr, val);
	if (!r->arg)
		return;
	o = &r->ops[r->out_idx];
	cg_offset(off, sizeof(off), "k", r->kr, r->kstr[r->out_idx]);
	snprintf(ptr, sizeof(ptr), "s%u + %llull + (%s) * %u", o->slot, o->offset, off,
		 xs_dtype_size(o->dtype));
	snprintf(val, sizeof(val), "%si == RED_NO_INDEX ? 0 : %si", p, p);
	cg_store(g, o->dtype, ptr, val);
}

static void use_slots(struct cg *g, const struct red *r, struct cg_kernel *k)
{
	uint32_t i;

	for (i = 0; i < r->c->num_operands; i++)
		cg_use_slot(g, k, r->ops[i].slot);
}

/* The value of reduced element j (coordinates r0..) of output k0.. into "v". */
static void value(struct cg *g, const struct red *r)
{
	char ptr[XRT_CS_MAX_OPERANDS][CG_PTR_LEN], ko[300], ro[300], name[16];
	const char *v;
	uint32_t i;

	for (i = 0; i < r->c->num_operands; i++) {
		const struct xrt_cs_operand *o = &r->ops[i];

		cg_offset(ko, sizeof(ko), "k", r->kr, r->kstr[i]);
		cg_offset(ro, sizeof(ro), "r", r->rr, r->rstr[i]);
		snprintf(ptr[i], sizeof(ptr[i]), "s%u + %llull + (%s + %s) * %u", o->slot,
			 o->offset, ko, ro, xs_dtype_size(o->dtype));
	}
	v = cg_expr(g, r->ops, (const char (*)[CG_PTR_LEN])ptr, r->insts, r->c->num_insts,
		    r->c->value_reg, name, sizeof(name));
	if (!v)
		return;
	if (r->acc == ACC_CPLX)
		cg_printf(&g->t, "\tcd v = cof(%s);\n", v);
	else
		cg_printf(&g->t, "\t%s v = (%s)%s;\n", acc_type(r), acc_type(r), v);
}

static void shuffle_tree(struct cg *g, const struct red *r)
{
	cg_printf(&g->t, "\tfor (int w = 1; w < 8; w <<= 1) {\n");
	if (r->acc == ACC_CPLX)
		cg_printf(&g->t, "\tcd o = cdv(__shfl_xor_sync(~0u, a.re, w), "
			  "__shfl_xor_sync(~0u, a.im, w));\n");
	else
		cg_printf(&g->t, "\t%s o = __shfl_xor_sync(~0u, a, w);\n", acc_type(r));
	cg_printf(&g->t, "\ts64 oi = __shfl_xor_sync(~0u, ai, w);\n"
		  "\tif (lane & w) {\n\t%s m = a; s64 mi = ai; a = o; ai = oi;\n", acc_type(r));
	acc_combine(g, r, "a", "m", "mi");
	cg_printf(&g->t, "\t} else {\n");
	acc_combine(g, r, "a", "o", "oi");
	cg_printf(&g->t, "\t}\n\t}\n");
}

/* Segments: one group of 8 threads each. */
static void segments_kernel(struct cg *g, const struct red *r, struct cg_kernel *k)
{
	__u64 items = r->outputs * r->segments, total = (items * 8 + 31) / 32 * 32;
	const char *it = r->narrow ? "u32" : "u64";

	cg_kernel_init(g, k, total);
	use_slots(g, r, k);
	if (r->segments > 1)
		cg_use_scratch(g, k, items * 32);
	cg_open(g, k);
	cg_printf(&g->t, "for (u64 g = (u64)blockIdx.x * blockDim.x + threadIdx.x; g < %llu"
		  "ull; g += (u64)gridDim.x * blockDim.x) {\n", total);
	cg_printf(&g->t, "\tu64 item = g >> 3; u32 lane = (u32)g & 7;\n"
		  "\tbool live = item < %lluull;\n"
		  "\t%s o = (%s)(item / %lluull), sg = (%s)(item %% %lluull);\n",
		  items, it, it, r->segments, it, r->segments);
	acc_identity(g, r, "a");
	cg_printf(&g->t, "\tif (live) {\n");
	cg_unravel(g, "k", "o", r->kr, r->kdims, r->narrow);
	cg_printf(&g->t, "\t%s j0 = sg * %u, jn = %lluull - j0 < %u ? (%s)(%llu"
		  "ull - j0) : %u;\n", it, XRT_CS_REDUCE_SEGMENT, r->reduced,
		  XRT_CS_REDUCE_SEGMENT, it, r->reduced, XRT_CS_REDUCE_SEGMENT);
	cg_printf(&g->t, "\tfor (%s q = lane; q < jn; q += 8) {\n\t%s j = j0 + q;\n", it, it);
	cg_unravel(g, "r", "j", r->rr, r->rdims, r->narrow);
	value(g, r);
	acc_combine(g, r, "a", "v", "(s64)j");
	cg_printf(&g->t, "\t}\n\t}\n");
	shuffle_tree(g, r);
	cg_printf(&g->t, "\tif (live && lane == 0) {\n");
	if (r->segments == 1) {
		cg_unravel(g, "k", "o", r->kr, r->kdims, r->narrow);
		acc_init(g, r, "f");
		acc_combine(g, r, "f", "a", "ai");
		acc_store(g, r, "f");
	} else if (r->acc == ACC_CPLX) {
		cg_printf(&g->t, "\twsv *p = (wsv *)ws + item; p->re = a.re; p->im = a.im;\n");
	} else {
		cg_printf(&g->t, "\twsv *p = (wsv *)ws + item; p->%s = a; p->idx = ai;\n",
			  r->acc == ACC_INT ? "i" : "re");
	}
	cg_printf(&g->t, "\t}\n}\n}\n");
}

/* init (+) each segment in order, one thread per output. */
static void finish_kernel(struct cg *g, const struct red *r, struct cg_kernel *k)
{
	cg_kernel_init(g, k, r->outputs);
	use_slots(g, r, k);
	if (r->segments)
		cg_use_scratch(g, k, r->outputs * r->segments * 32);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(o, %lluull) {\n", r->outputs);
	cg_unravel(g, "k", "o", r->kr, r->kdims, r->narrow);
	acc_init(g, r, "f");
	if (r->segments) {
		cg_printf(&g->t, "\tconst wsv *p = (const wsv *)ws + o * %lluull;\n"
			  "\tfor (u64 s = 0; s < %lluull; s++) {\n", r->segments,
			  r->segments);
		if (r->acc == ACC_CPLX)
			acc_combine(g, r, "f", "cdv(p[s].re, p[s].im)", "0");
		else
			acc_combine(g, r, "f", r->acc == ACC_INT ? "p[s].i" : "p[s].re", "p[s].idx");
		cg_printf(&g->t, "\t}\n");
	}
	acc_store(g, r, "f");
	cg_printf(&g->t, "}\n}\n");
}

void cg_reduce(struct cg *g, const struct xrt_cs_reduce *c, struct cg_step *st)
{
	struct red r;

	red_init(&r, c);
	if (r.acc == ACC_CPLX && c->op != XRT_CS_RED_SUM && c->op != XRT_CS_RED_PROD) {
		cg_fail(g, "REDUCE op %u of complex values", c->op);
		return;
	}
	if (!r.outputs)
		return;
	if (r.segments)
		segments_kernel(g, &r, &st->kernel[0]);
	if (r.segments != 1)
		finish_kernel(g, &r, &st->kernel[r.segments ? 1 : 0]);
}
