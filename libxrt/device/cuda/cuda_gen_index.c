// SPDX-License-Identifier: MIT
/*
 * Commands that read positions from memory: GATHER and DYNAMIC_SLICE
 * (one thread per output element), DYNAMIC_UPDATE_SLICE (one per slice
 * element) and SCATTER.  SCATTER applies its windows in order of b, as
 * the format requires when windows overlap: one block walks the windows,
 * its threads sharing each window's elements, with a barrier between
 * windows.  SCAN gives each line along its dimension one thread, which
 * walks it in order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/scalar.h"
#include "cuda_gen_internal.h"

#define SCATTER_BLOCK	1024

/* Declares "s64 <var>" as the integer at @ptr of @dtype clamped to [0, @max]. */
static void clamped(struct cg *g, const char *var, uint32_t dtype, const char *ptr, __u64 max)
{
	char ld[CG_PTR_LEN + 64];

	cg_load(ld, sizeof(ld), dtype, ptr);
	if (cg_is_unsigned(dtype))
		cg_printf(&g->t, "\ts64 %s = (u64)(%s) > %lluull ? %llull : (s64)(%s);\n",
			  var, ld, max, max, ld);
	else
		cg_printf(&g->t, "\ts64 %s = %s; %s = %s < 0 ? 0 : %s > %llull ? %llu"
			  "ll : %s;\n", var, ld, var, var, var, max, max, var);
}

/* The address of index vector entry @j of row "b" ([n, k] indices). */
static void index_ptr(char *buf, size_t size, const struct xrt_cs_view *ix, const char *b,
		      uint32_t j)
{
	snprintf(buf, size, "s%u + %llull + ((s64)%s * %lldll + %lld"
		 "ll) * %u", ix->slot, ix->offset, b, ix->strides[0],
		 (__s64)j * (ix->rank > 1 ? ix->strides[1] : 0), xs_dtype_size(ix->dtype));
}

static void gather(struct cg *g, const struct xrt_cs_gather *c, struct cg_step *st)
{
	const struct xrt_cs_view *op = &c->operand, *out = &c->out;
	__u64 n = cg_count(out->rank, out->dims);
	const char *t = cg_bits_type(xs_dtype_size(op->dtype));
	char ptr[CG_PTR_LEN], src[CG_PTR_LEN], var[16];
	struct cg_kernel *k = &st->kernel[0];
	uint32_t d, j;

	cg_kernel_init(g, k, n);
	cg_use_slot(g, k, op->slot);
	cg_use_slot(g, k, c->indices.slot);
	cg_use_slot(g, k, out->slot);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n", n);
	cg_unravel(g, "c", "e", out->rank, out->dims, n <= UINT32_MAX);
	for (d = 0; d < op->rank; d++)
		cg_printf(&g->t, "\ts64 p%u = (s64)c%u;\n", d, d + 1);
	for (j = 0; j < c->num_index_dims; j++) {
		d = c->index_map[j];
		snprintf(var, sizeof(var), "x%u", j);
		index_ptr(ptr, sizeof(ptr), &c->indices, "c0", j);
		clamped(g, var, c->indices.dtype, ptr, op->dims[d] - out->dims[d + 1]);
		cg_printf(&g->t, "\tp%u += x%u;\n", d, j);
	}
	cg_view_ptr(src, sizeof(src), op, op->strides, op->rank, "p");
	cg_view_ptr(ptr, sizeof(ptr), out, out->strides, out->rank, "c");
	cg_printf(&g->t, "\t*(%s *)(%s) = *(const %s *)(%s);\n}\n}\n", t, ptr, t, src);
}

static void dynamic_slice(struct cg *g, const struct xrt_cs_dynamic_slice *c, bool update,
			  struct cg_step *st)
{
	const struct xrt_cs_view *op = &c->operand, *sl = &c->slice;
	__u64 n = cg_count(sl->rank, sl->dims);
	const char *t = cg_bits_type(xs_dtype_size(op->dtype));
	char ptr[CG_PTR_LEN], at[CG_PTR_LEN], var[16];
	struct cg_kernel *k = &st->kernel[0];
	uint32_t d;

	cg_kernel_init(g, k, n);
	cg_use_slot(g, k, op->slot);
	cg_use_slot(g, k, sl->slot);
	for (d = 0; d < op->rank; d++)
		cg_use_slot(g, k, c->starts[d].slot);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n", n);
	cg_unravel(g, "c", "e", sl->rank, sl->dims, n <= UINT32_MAX);
	for (d = 0; d < op->rank; d++) {
		snprintf(var, sizeof(var), "x%u", d);
		snprintf(ptr, sizeof(ptr), "s%u + %llull", c->starts[d].slot,
			 c->starts[d].offset);
		clamped(g, var, c->starts[d].dtype, ptr, op->dims[d] - sl->dims[d]);
		cg_printf(&g->t, "\ts64 p%u = (s64)c%u + x%u;\n", d, d, d);
	}
	cg_view_ptr(at, sizeof(at), op, op->strides, op->rank, "p");
	cg_view_ptr(ptr, sizeof(ptr), sl, sl->strides, sl->rank, "c");
	if (update)
		cg_printf(&g->t, "\t*(%s *)(%s) = *(const %s *)(%s);\n}\n}\n", t, at, t, ptr);
	else
		cg_printf(&g->t, "\t*(%s *)(%s) = *(const %s *)(%s);\n}\n}\n", t, ptr, t, at);
}

static void combined(char *buf, size_t size, uint32_t t, uint32_t fn)
{
	if (t >= XRT_CS_PRED && t <= XRT_CS_U64)
		snprintf(buf, size, "ibin(%u, %u, cur, upd)", fn, t);
	else if (t == XRT_CS_F64)
		snprintf(buf, size, "dbin(%u, cur, upd)", fn);
	else if (t == XRT_CS_C64 || t == XRT_CS_C128)
		snprintf(buf, size, "%s(cbin(%u, cof(cur), cof(upd)))",
			 t == XRT_CS_C64 ? "to64" : "to128", fn);
	else
		snprintf(buf, size, "fbin(%u, %u, cur, upd)", fn, t);
}

static void scatter(struct cg *g, const struct xrt_cs_scatter *c, struct cg_step *st)
{
	const struct xrt_cs_view *op = &c->operand, *up = &c->updates;
	__u64 n = up->dims[0], wn = cg_count(up->rank - 1, up->dims + 1);
	char ptr[CG_PTR_LEN], at[CG_PTR_LEN], ld[CG_PTR_LEN + 64], val[200];
	struct cg_kernel *k = &st->kernel[0];
	uint32_t d, j, t = op->dtype;

	cg_kernel_init(g, k, SCATTER_BLOCK);
	k->block = SCATTER_BLOCK;
	cg_use_slot(g, k, op->slot);
	cg_use_slot(g, k, c->indices.slot);
	cg_use_slot(g, k, up->slot);
	cg_open(g, k);
	cg_printf(&g->t, "for (u64 b = 0; b < %lluull; b++) {\n\t__syncthreads();\n"
		  "\tbool skip = false;\n", n);
	for (d = 0; d < op->rank; d++)
		cg_printf(&g->t, "\ts64 x%u = 0;\n", d);
	for (j = 0; j < c->num_index_dims; j++) {
		d = c->index_map[j];
		index_ptr(ptr, sizeof(ptr), &c->indices, "b", j);
		cg_load(ld, sizeof(ld), c->indices.dtype, ptr);
		if (c->mode == XRT_CS_SCATTER_CLAMP) {
			char var[16];

			snprintf(var, sizeof(var), "y%u", j);
			clamped(g, var, c->indices.dtype, ptr, op->dims[d] - up->dims[d + 1]);
			cg_printf(&g->t, "\tx%u = y%u;\n", d, j);
		} else if (cg_is_unsigned(c->indices.dtype)) {
			cg_printf(&g->t, "\tif ((u64)(%s) > %lluull) skip = true; "
				  "else x%u = (s64)(%s);\n", ld, op->dims[d] - up->dims[d + 1], d, ld);
		} else {
			cg_printf(&g->t, "\tx%u = %s; if (x%u < 0 || x%u > %llull) skip = true;\n",
				  d, ld, d, d, op->dims[d] - up->dims[d + 1]);
		}
	}
	cg_printf(&g->t, "\tif (skip) continue;\n"
		  "\tfor (u64 e = threadIdx.x; e < %lluull; e += blockDim.x) {\n", wn);
	cg_unravel(g, "w", "e", up->rank - 1, up->dims + 1, wn <= UINT32_MAX);
	for (d = 0; d < op->rank; d++)
		cg_printf(&g->t, "\ts64 p%u = (s64)w%u + x%u;\n", d, d, d);
	cg_view_ptr(at, sizeof(at), op, op->strides, op->rank, "p");
	{
		char off[300];

		cg_offset(off, sizeof(off), "w", up->rank - 1, up->strides + 1);
		snprintf(ptr, sizeof(ptr), "s%u + %llull + ((s64)b * %lldll + %s) * %u",
			 up->slot, up->offset, up->strides[0], off, xs_dtype_size(t));
	}
	cg_load(ld, sizeof(ld), t, ptr);
	cg_printf(&g->t, "\t%s upd = %s;\n", cg_reg_type(t), ld);
	if (c->combiner == XRT_CS_SCATTER_REPLACE) {
		cg_store(g, t, at, "upd");
	} else {
		cg_load(ld, sizeof(ld), t, at);
		cg_printf(&g->t, "\t%s cur = %s;\n", cg_reg_type(t), ld);
		combined(val, sizeof(val), t, xs_red_binary(c->combiner));
		cg_store(g, t, at, val);
	}
	cg_printf(&g->t, "\t}\n}\n}\n");
}

static void scan(struct cg *g, const struct xrt_cs_scan *c, struct cg_step *st)
{
	const struct xrt_cs_view *in = &c->in, *out = &c->out;
	__s64 istr[XRT_CS_MAX_RANK], ostr[XRT_CS_MAX_RANK];
	char ioff[300], ooff[300], ld[CG_PTR_LEN + 64], at[CG_PTR_LEN], val[200], init[128];
	struct cg_kernel *k = &st->kernel[0];
	__u64 dims[XRT_CS_MAX_RANK], lines = 1, len = in->dims[c->dim];
	uint32_t d, r = 0, t = in->dtype;
	char ptr[CG_PTR_LEN];

	for (d = 0; d < in->rank; d++) {
		if (d == c->dim)
			continue;
		dims[r] = in->dims[d];
		istr[r] = in->strides[d];
		ostr[r++] = out->strides[d];
		lines *= in->dims[d];
	}
	cg_kernel_init(g, k, lines);
	cg_use_slot(g, k, in->slot);
	cg_use_slot(g, k, out->slot);
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n", lines);
	cg_unravel(g, "c", "e", r, dims, lines <= UINT32_MAX);
	cg_offset(ioff, sizeof(ioff), "c", r, istr);
	cg_offset(ooff, sizeof(ooff), "c", r, ostr);
	cg_const(init, sizeof(init), t, c->init);
	cg_printf(&g->t, "\t%s cur = %s;\n\tfor (u64 j = 0; j < %lluull; j++) {\n",
		  cg_reg_type(t), init, len);
	snprintf(ptr, sizeof(ptr), "s%u + %llull + ((%s) + (s64)j * %lldll) * %u", in->slot,
		 in->offset, ioff, in->strides[c->dim], xs_dtype_size(t));
	cg_load(ld, sizeof(ld), t, ptr);
	cg_printf(&g->t, "\t%s upd = %s;\n", cg_reg_type(t), ld);
	combined(val, sizeof(val), t, xs_red_binary(c->op));
	cg_printf(&g->t, "\tcur = %s;\n", val);
	snprintf(at, sizeof(at), "s%u + %llull + ((%s) + (s64)j * %lldll) * %u", out->slot,
		 out->offset, ooff, out->strides[c->dim], xs_dtype_size(t));
	cg_store(g, t, at, "cur");
	cg_printf(&g->t, "\t}\n}\n}\n");
}

void cg_indexed(struct cg *g, const struct xrt_cs_cmd *c, struct cg_step *st)
{
	switch (c->op) {
	case XRT_CS_OP_GATHER:
		gather(g, (const void *)c, st);
		break;
	case XRT_CS_OP_SCATTER:
		scatter(g, (const void *)c, st);
		break;
	case XRT_CS_OP_SCAN:
		scan(g, (const void *)c, st);
		break;
	default:
		dynamic_slice(g, (const void *)c, c->op == XRT_CS_OP_DYNAMIC_UPDATE_SLICE, st);
		break;
	}
}
