// SPDX-License-Identifier: MIT
/*
 * DOT as the format defines it: each output element its start value plus
 * the products for k = 0, 1, ... added one at a time, for f32 by fmaf()
 * (one rounding, the engine's fused step), for the other types multiply
 * then add (the source is compiled with --fmad=false, so nothing else is
 * fused), so this kernel gives the engine's bits.  It is the exact path (no_blas) and the one
 * for types and layouts cuBLAS does not take; cuda_run.c gives the rest
 * to cuBLAS.
 */
#include <inttypes.h>
#include <stdio.h>

#include "engine/scalar.h"
#include "cuda_gen_internal.h"

static void matrix_row(char *buf, size_t size, const struct xrt_cs_matrix *m, const char *b,
		       const char *r, const char *c)
{
	snprintf(buf, size, "s%u + %llull + ((s64)%s * %lldll + (s64)%s * %lld"
		 "ll + (s64)%s * %lldll) * %u", m->slot, m->offset, b, m->batch_stride, r,
		 m->row_stride, c, m->col_stride, xs_dtype_size(m->dtype));
}

void cg_dot(struct cg *g, const struct xrt_cs_dot *c, struct cg_step *st)
{
	__u64 n = c->batch * c->m * c->n;
	uint32_t it = c->lhs.dtype, ot = c->out.dtype;
	const char *acc = cg_reg_type(ot);
	char l[CG_PTR_LEN], r[CG_PTR_LEN], o[CG_PTR_LEN], lx[CG_PTR_LEN + 64], ly[CG_PTR_LEN + 64];
	char ld[CG_PTR_LEN + 64];
	struct cg_kernel *k = &st->kernel[0];

	st->dot = c;
	cg_kernel_init(g, k, n);
	cg_use_slot(g, k, c->lhs.slot);
	cg_use_slot(g, k, c->rhs.slot);
	cg_use_slot(g, k, c->out.slot);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n"
		  "\tu64 t = e, j = t %% %lluull; t /= %lluull;\n"
		  "\tu64 i = t %% %lluull, bb = t / %lluull;\n",
		  n, c->n, c->n, c->m, c->m);
	matrix_row(o, sizeof(o), &c->out, "bb", "i", "j");
	if (c->cmd.flags & XRT_CS_DOT_ACCUMULATE) {
		cg_load(ld, sizeof(ld), ot, o);
		cg_printf(&g->t, "\t%s acc = %s;\n", acc, ld);
	} else {
		cg_printf(&g->t, "\t%s acc = %s;\n", acc, ot == XRT_CS_C64 ? "mk64(0.0f, 0.0f)" :
			  ot == XRT_CS_C128 ? "mk128(0.0, 0.0)" : "0");
	}
	matrix_row(l, sizeof(l), &c->lhs, "bb", "i", "p");
	matrix_row(r, sizeof(r), &c->rhs, "bb", "p", "j");
	cg_load(lx, sizeof(lx), it, l);
	cg_load(ly, sizeof(ly), it, r);
	cg_printf(&g->t, "\tfor (u64 p = 0; p < %lluull; p++) {\n"
		  "\t%s x = %s, y = %s;\n", c->k, cg_reg_type(it), lx, ly);
	switch (ot) {
	case XRT_CS_F32:
		cg_printf(&g->t, "\tacc = fmaf(x, y, acc);\n");
		break;
	case XRT_CS_F64:
		cg_printf(&g->t, "\tacc = acc + x * y;\n");
		break;
	case XRT_CS_C64:
	case XRT_CS_C128: {
		const char *to = ot == XRT_CS_C64 ? "to64" : "to128";

		cg_printf(&g->t, "\tacc = %s(cbin(%u, cof(acc), cof(%s(cbin(%u, cof(x), cof(y))))));\n",
			  to, XRT_CS_BIN_ADD, to, XRT_CS_BIN_MUL);
		break;
	}
	default:
		cg_printf(&g->t, "\tacc = ibin(%u, %u, acc, ibin(%u, %u, x, y));\n",
			  XRT_CS_BIN_ADD, ot, XRT_CS_BIN_MUL, ot);
		break;
	}
	cg_printf(&g->t, "\t}\n");
	cg_store(g, ot, o, "acc");
	cg_printf(&g->t, "}\n}\n");
}
