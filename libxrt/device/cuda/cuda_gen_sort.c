// SPDX-License-Identifier: MIT
/*
 * SORT: one thread per row sorts a permutation of the row's indices with
 * a merge sort (stable: an element moves ahead of one before it only
 * when its keys are strictly less), then moves every operand's row
 * through scratch into that order.  Keys compare as the format says:
 * floats by total order (or by value), lexicographically over the keys,
 * sorted bottom-up; or, for XRT_CS_SORT_IEEE_MERGE, as IEEE numbers by
 * the evaluator's top-down merge sort, whose result is then the only
 * right one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/scalar.h"
#include "cuda_gen_internal.h"

/*
 * "a < b" for two registers of @t; @by_value: floats as numbers, NaNs
 * after them (XRT_CS_SORT_BY_VALUE).
 */
static void less_expr(char *buf, size_t size, uint32_t t, bool by_value, const char *a,
		      const char *b)
{
	if (t >= XRT_CS_PRED && t <= XRT_CS_U64)
		snprintf(buf, size, "icmp(%u, %u, %s, %s)", XRT_CS_CMP_LT, t, a, b);
	else if (t == XRT_CS_C64 || t == XRT_CS_C128)
		snprintf(buf, size, "(dcmp(%u, (%s).re, (%s).re) || (dcmp(%u, (%s).re, (%s).re) && "
			 "dcmp(%u, (%s).im, (%s).im)))", XRT_CS_CMP_LT | XRT_CS_CMP_TOTAL_ORDER, a, b,
			 XRT_CS_CMP_EQ | XRT_CS_CMP_TOTAL_ORDER, a, b,
			 XRT_CS_CMP_LT | XRT_CS_CMP_TOTAL_ORDER, a, b);
	else if (by_value)
		snprintf(buf, size, "(dcmp(%u, (double)(%s), (double)(%s)) || "
			 "((double)(%s) == (double)(%s) && (double)(%s) != (double)(%s)))",
			 XRT_CS_CMP_LT, a, b, a, a, b, b);
	else
		snprintf(buf, size, "dcmp(%u, (double)(%s), (double)(%s))",
			 XRT_CS_CMP_LT | XRT_CS_CMP_TOTAL_ORDER, a, b);
}

/* Operand @i's element @idx of the current row. */
static void elem_ptr(char *buf, size_t size, const struct xrt_cs_sort *c, uint32_t i,
		     const char *idx)
{
	const struct xrt_cs_operand *o = &c->operands[i];

	snprintf(buf, size, "s%u + %llull + (base%u + (s64)%s * %lldll) * %u",
		 o->slot, o->offset, i, idx, o->strides[c->dim], xs_dtype_size(o->dtype));
}

static void comparator(struct cg *g, const struct xrt_cs_sort *c)
{
	bool desc = c->cmd.flags & XRT_CS_SORT_DESCENDING;
	bool by_value = c->cmd.flags & XRT_CS_SORT_BY_VALUE;
	char px[CG_PTR_LEN], py[CG_PTR_LEN], lx[CG_PTR_LEN + 64], ly[CG_PTR_LEN + 64];
	char lt[600], gt[600];
	uint32_t i;

	bool ieee = c->cmd.flags & XRT_CS_SORT_IEEE_MERGE;

	cg_printf(&g->t, "\tauto less = [&](u32 x, u32 y) -> bool {\n");
	for (i = 0; i < c->num_keys; i++) {
		uint32_t t = c->operands[i].dtype;

		elem_ptr(px, sizeof(px), c, i, "x");
		elem_ptr(py, sizeof(py), c, i, "y");
		cg_load(lx, sizeof(lx), t, px);
		cg_load(ly, sizeof(ly), t, py);
		cg_printf(&g->t, "\t{\n\t%s a = %s, b = %s;\n", cg_reg_type(t), lx, ly);
		if (ieee && t >= XRT_CS_F16 && t <= XRT_CS_F64) {
			/* less decides, equal goes on, anything else (NaN) is false */
			cg_printf(&g->t, "\tif ((double)a %s (double)b) return true;\n"
				  "\tif (!((double)a == (double)b)) return false;\n\t}\n",
				  desc ? ">" : "<");
			continue;
		}
		less_expr(lt, sizeof(lt), t, by_value, "a", "b");
		less_expr(gt, sizeof(gt), t, by_value, "b", "a");
		cg_printf(&g->t, "\tif (%s) return %s;\n\tif (%s) return %s;\n\t}\n", lt,
			  desc ? "false" : "true", gt, desc ? "true" : "false");
	}
	cg_printf(&g->t, "\treturn false;\n\t};\n");
}

/*
 * The evaluator's top-down merge sort of pa, as the engine runs it: a
 * stack of runs, one a level, each split at half its length, its halves
 * sorted left then right and then merged through pb.
 */
static void top_down(struct cg *g, __u64 len)
{
	cg_printf(&g->t,
		  "\tu32 *pa = (u32 *)ws + row * %lluull, *pb = pa + %lluull;\n"
		  "\tfor (u32 i = 0; i < %lluu; i++) pa[i] = i;\n"
		  "\tu32 slo[32], sn[32], ss[32];\n\tint top = 0;\n"
		  "\tslo[0] = 0; sn[0] = %lluu; ss[0] = 0;\n"
		  "\twhile (top >= 0) {\n"
		  "\tu32 lo = slo[top], n = sn[top], h = n / 2;\n"
		  "\tif (n < 2 || ss[top] == 2) {\n"
		  "\tif (n >= 2) {\n"
		  "\tu32 a = lo, b = lo + h, o = lo, mid = lo + h, hi = lo + n;\n"
		  "\twhile (a < mid && b < hi) pb[o++] = less(pa[b], pa[a]) ? pa[b++] : pa[a++];\n"
		  "\twhile (a < mid) pb[o++] = pa[a++];\n"
		  "\twhile (b < hi) pb[o++] = pa[b++];\n"
		  "\tfor (u32 i = lo; i < hi; i++) pa[i] = pb[i];\n"
		  "\t}\n\ttop--;\n\tcontinue;\n\t}\n"
		  "\tslo[top + 1] = ss[top] ? lo + h : lo;\n"
		  "\tsn[top + 1] = ss[top] ? n - h : h;\n"
		  "\tss[top + 1] = 0;\n\tss[top]++;\n\ttop++;\n\t}\n",
		  2 * len, len, len, len);
}

void cg_sort(struct cg *g, const struct xrt_cs_sort *c, struct cg_step *st)
{
	__u64 len = c->dims[c->dim], rows = 1, kdims[XRT_CS_MAX_RANK];
	uint32_t d, i, kr = 0;
	struct cg_kernel *k = &st->kernel[0];
	char off[300], p[CG_PTR_LEN];

	for (d = 0; d < c->rank; d++) {
		if (d == c->dim)
			continue;
		kdims[kr++] = c->dims[d];
		rows *= c->dims[d];
	}
	if (!rows || len < 2)
		return;
	cg_kernel_init(g, k, rows);
	for (i = 0; i < c->num_operands; i++)
		cg_use_slot(g, k, c->operands[i].slot);
	cg_use_scratch(g, k, rows * len * 24);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(row, %lluull) {\n", rows);
	cg_unravel(g, "c", "row", kr, kdims, false);
	for (i = 0; i < c->num_operands; i++) {
		__s64 str[XRT_CS_MAX_RANK] = { 0 };
		uint32_t at = 0;

		for (d = 0; d < c->rank; d++)
			if (d != c->dim)
				str[at++] = c->operands[i].strides[d];
		cg_offset(off, sizeof(off), "c", kr, str);
		cg_printf(&g->t, "\ts64 base%u = %s;\n", i, off);
	}
	comparator(g, c);
	if (c->cmd.flags & XRT_CS_SORT_IEEE_MERGE)
		top_down(g, len);
	else
		cg_printf(&g->t,
		  "\tu32 *pa = (u32 *)ws + row * %lluull, *pb = pa + %lluull;\n"
		  "\tfor (u32 i = 0; i < %lluu; i++) pa[i] = i;\n"
		  "\tfor (u32 w = 1; w < %lluu; w *= 2) {\n"
		  "\tfor (u32 lo = 0; lo < %lluu; lo += 2 * w) {\n"
		  "\tu32 mid = min(lo + w, %lluu), hi = min(lo + 2 * w, %lluu);\n"
		  "\tu32 a = lo, b = mid, o = lo;\n"
		  "\twhile (a < mid && b < hi) pb[o++] = less(pa[b], pa[a]) ? pa[b++] : pa[a++];\n"
		  "\twhile (a < mid) pb[o++] = pa[a++];\n"
		  "\twhile (b < hi) pb[o++] = pa[b++];\n"
		  "\t}\n\tu32 *sw = pa; pa = pb; pb = sw;\n\t}\n",
		  2 * len, len, len, len, len, len, len);
	cg_printf(&g->t, "\tchar *stage = ws + %lluull + row * %lluull;\n",
		  rows * len * 8, len * 16);
	for (i = 0; i < c->num_operands; i++) {
		const char *t = cg_bits_type(xs_dtype_size(c->operands[i].dtype));

		elem_ptr(p, sizeof(p), c, i, "i");
		cg_printf(&g->t, "\tfor (u32 i = 0; i < %lluu; i++) ((%s *)stage)[i] = "
			  "*(const %s *)(%s);\n", len, t, t, p);
		cg_printf(&g->t, "\tfor (u32 i = 0; i < %lluu; i++) *(%s *)(%s) = "
			  "((const %s *)stage)[pa[i]];\n", len, t, p, t);
	}
	cg_printf(&g->t, "}\n}\n");
}
