// SPDX-License-Identifier: MIT
/*
 * The translation of a program, and the pieces of kernels every command
 * uses: arguments, coordinates, offsets, element types.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "engine/scalar.h"
#include "cuda_gen_internal.h"

void cg_fail(struct cg *g, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	if (g->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	g->err = xrt_status_new(g->a, XRT_UNIMPLEMENTED, "cuda: command %u: %s", g->pc, msg);
}

void cg_kernel_init(struct cg *g, struct cg_kernel *k, __u64 threads)
{
	memset(k, 0, sizeof(*k));
	k->index = g->next_kernel++;
	k->threads = threads;
	k->block = CG_BLOCK;
}

static void use(struct cg *g, struct cg_kernel *k, uint8_t kind, uint32_t slot)
{
	uint32_t i;

	for (i = 0; i < k->num_args; i++)
		if (k->arg_kind[i] == kind && k->arg_slot[i] == slot)
			return;
	if (k->num_args == CG_MAX_ARGS) {
		cg_fail(g, "more than %d kernel arguments", CG_MAX_ARGS);
		return;
	}
	k->arg_kind[k->num_args] = kind;
	k->arg_slot[k->num_args++] = slot;
}

void cg_use_slot(struct cg *g, struct cg_kernel *k, uint32_t slot)
{
	use(g, k, CG_ARG_SLOT, slot);
}

void cg_use_scratch(struct cg *g, struct cg_kernel *k, __u64 bytes)
{
	use(g, k, CG_ARG_SCRATCH, 0);
	if (bytes > g->scratch)
		g->scratch = bytes;
}

void cg_use_seed(struct cg *g, struct cg_kernel *k)
{
	use(g, k, CG_ARG_SEED, 0);
}

void cg_open(struct cg *g, const struct cg_kernel *k)
{
	uint32_t i;

	cg_printf(&g->t, "\nextern \"C\" __global__ void __launch_bounds__(%u) %sk%u(", k->block,
		  g->prefix, k->index);
	for (i = 0; i < k->num_args; i++) {
		const char *sep = i ? ", " : "";

		switch (k->arg_kind[i]) {
		case CG_ARG_SLOT:
			cg_printf(&g->t, "%schar *s%u", sep, k->arg_slot[i]);
			break;
		case CG_ARG_SCRATCH:
			cg_printf(&g->t, "%schar *ws", sep);
			break;
		default:
			cg_printf(&g->t, "%su64 seed", sep);
			break;
		}
	}
	cg_printf(&g->t, ")\n{\n");
}

void cg_unravel(struct cg *g, const char *c, const char *lin, uint32_t rank,
		const __u64 *dims, bool narrow)
{
	const char *it = narrow ? "u32" : "u64";
	int d;

	if (!rank)
		return;
	cg_printf(&g->t, "\t%s %st = (%s)(%s);\n", it, c, it, lin);
	for (d = (int)rank - 1; d > 0; d--)
		cg_printf(&g->t, "\t%s %s%d = %st %% %lluu; %st /= %lluu;\n", it, c, d,
			  c, dims[d], c, dims[d]);
	cg_printf(&g->t, "\t%s %s0 = %st;\n", it, c, c);
}

void cg_offset(char *buf, size_t size, const char *c, uint32_t rank, const __s64 *strides)
{
	size_t at = 0;
	uint32_t d;

	buf[0] = '\0';
	for (d = 0; d < rank && at < size; d++) {
		int w;

		if (!strides[d])
			continue;
		w = snprintf(buf + at, size - at, "%s(s64)%s%u * %lldll", at ? " + " : "",
			     c, d, strides[d]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (!at)
		snprintf(buf, size, "0");
}

void cg_merge_dims(uint32_t *rank, __u64 *dims, uint32_t n,
		   __s64 (*strides)[XRT_CS_MAX_RANK])
{
	uint32_t r = 0, d, i;

	/* Walk outermost to innermost, keeping a merged list. */
	for (d = 0; d < *rank; d++) {
		bool merge = r > 0;

		if (dims[d] == 1)
			continue;
		for (i = 0; merge && i < n; i++)
			merge = strides[i][r - 1] == strides[i][d] * (__s64)dims[d];
		if (merge) {
			dims[r - 1] *= dims[d];
			for (i = 0; i < n; i++)
				strides[i][r - 1] = strides[i][d];
			continue;
		}
		dims[r] = dims[d];
		for (i = 0; i < n; i++)
			strides[i][r] = strides[i][d];
		r++;
	}
	for (d = r; d < XRT_CS_MAX_RANK; d++) {
		dims[d] = 0;
		for (i = 0; i < n; i++)
			strides[i][d] = 0;
	}
	*rank = r;
}

const char *cg_reg_type(uint32_t dtype)
{
	if (xs_is_small_float(dtype))
		return "float";
	switch (dtype) {
	case XRT_CS_F16:
	case XRT_CS_BF16:
	case XRT_CS_F32:
		return "float";
	case XRT_CS_F64:
		return "double";
	case XRT_CS_C64:
		return "c64";
	case XRT_CS_C128:
		return "c128";
	default:
		return "s64";
	}
}

const char *cg_bits_type(uint32_t size)
{
	switch (size) {
	case 1:
		return "u8";
	case 2:
		return "u16";
	case 4:
		return "u32";
	case 8:
		return "u64";
	default:
		return "b16";
	}
}

const char *cg_mem_type(uint32_t dtype)
{
	static const char *const names[] = {
		[XRT_CS_PRED] = "u8", [XRT_CS_S8] = "s8", [XRT_CS_S16] = "s16",
		[XRT_CS_S32] = "s32", [XRT_CS_S64] = "s64", [XRT_CS_U8] = "u8",
		[XRT_CS_U16] = "u16", [XRT_CS_U32] = "u32", [XRT_CS_U64] = "u64",
		[XRT_CS_F16] = "u16", [XRT_CS_BF16] = "u16", [XRT_CS_F32] = "float",
		[XRT_CS_F64] = "double", [XRT_CS_C64] = "c64", [XRT_CS_C128] = "c128",
	};

	return dtype < sizeof(names) / sizeof(names[0]) && names[dtype] ? names[dtype] : "u8";
}

void cg_load(char *buf, size_t size, uint32_t dtype, const char *ptr)
{
	const char *m = cg_mem_type(dtype);

	if (xs_is_small_float(dtype)) {
		snprintf(buf, size, "xs_small_to_f32(%u, *(const u8 *)(%s))", dtype, ptr);
		return;
	}
	if (xs_is_sub_byte_int(dtype)) {	/* the low bits */
		snprintf(buf, size, "xs_int_wrap(%u, *(const u8 *)(%s))", dtype, ptr);
		return;
	}
	switch (dtype) {
	case XRT_CS_PRED:
		snprintf(buf, size, "(s64)(*(const u8 *)(%s) != 0)", ptr);
		break;
	case XRT_CS_F16:
		snprintf(buf, size, "h2f(*(const u16 *)(%s))", ptr);
		break;
	case XRT_CS_BF16:
		snprintf(buf, size, "bf2f(*(const u16 *)(%s))", ptr);
		break;
	case XRT_CS_F32:
	case XRT_CS_F64:
	case XRT_CS_C64:
	case XRT_CS_C128:
		snprintf(buf, size, "*(const %s *)(%s)", m, ptr);
		break;
	default:
		snprintf(buf, size, "(s64)*(const %s *)(%s)", m, ptr);
		break;
	}
}

void cg_store(struct cg *g, uint32_t dtype, const char *ptr, const char *val)
{
	const char *m = cg_mem_type(dtype);

	if (xs_is_small_float(dtype)) {
		cg_printf(&g->t, "\t*(u8 *)(%s) = xs_f32_to_small(%u, %s);\n", ptr, dtype, val);
		return;
	}
	if (xs_is_sub_byte_int(dtype)) {	/* the low bits, the rest clear */
		cg_printf(&g->t, "\t*(u8 *)(%s) = (u8)xs_int_bits(%u, %s);\n", ptr, dtype, val);
		return;
	}
	switch (dtype) {
	case XRT_CS_F16:
		cg_printf(&g->t, "\t*(u16 *)(%s) = f2h(%s);\n", ptr, val);
		break;
	case XRT_CS_BF16:
		cg_printf(&g->t, "\t*(u16 *)(%s) = f2bf(%s);\n", ptr, val);
		break;
	default:
		cg_printf(&g->t, "\t*(%s *)(%s) = (%s)(%s);\n", m, ptr, m, val);
		break;
	}
}

/* Element bits of @dtype from an immediate, sign-extended for signed integers. */
static __u64 imm_bits(uint32_t dtype, const __u64 *imm)
{
	uint32_t w = cg_is_int(dtype) && dtype != XRT_CS_PRED ? xs_int_width(dtype) :
		     xs_dtype_size(dtype) * 8;
	__u64 v = imm[0];

	if (w < 64)
		v &= (1ull << w) - 1;
	if (cg_is_int(dtype) && !cg_is_unsigned(dtype) && dtype != XRT_CS_PRED && w < 64 &&
	    (v >> (w - 1)))
		v |= ~0ull << w;
	return v;
}

static uint32_t f32_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

void cg_const(char *buf, size_t size, uint32_t dtype, const __u64 *imm)
{
	__u64 v = imm_bits(dtype, imm);

	if (xs_is_small_float(dtype)) {
		snprintf(buf, size, "__uint_as_float(0x%08xu)",
			 f32_bits(xs_small_to_f32(dtype, (uint8_t)v)));
		return;
	}
	switch (dtype) {
	case XRT_CS_F16:
		snprintf(buf, size, "__uint_as_float(0x%08xu)",
			 f32_bits(engine_f16_to_f32((uint16_t)v)));
		break;
	case XRT_CS_BF16:
		snprintf(buf, size, "__uint_as_float(0x%08xu)",
			 f32_bits(xs_bf16_to_f32((uint16_t)v)));
		break;
	case XRT_CS_F32:
		snprintf(buf, size, "__uint_as_float(0x%08llxu)", v);
		break;
	case XRT_CS_F64:
		snprintf(buf, size, "__longlong_as_double(0x%016llxll)", v);
		break;
	case XRT_CS_C64:
		snprintf(buf, size, "mk64(__uint_as_float(0x%08llxu), "
			 "__uint_as_float(0x%08llxu))", imm[0] & 0xffffffffu, imm[0] >> 32);
		break;
	case XRT_CS_C128:
		snprintf(buf, size, "mk128(__longlong_as_double(0x%016llxll), "
			 "__longlong_as_double(0x%016llxll))", imm[0], imm[1]);
		break;
	case XRT_CS_PRED:
		snprintf(buf, size, "(s64)%d", v != 0);
		break;
	default:
		snprintf(buf, size, "(s64)0x%016llxull", v);
		break;
	}
}

/* A real value (float class or double) converted to real or integer @to. */
static void real_to(char *buf, size_t size, uint32_t to, const char *v, bool from_double)
{
	if (cg_is_int(to))
		snprintf(buf, size, "xs_real_to_int(%u, (double)(%s))", to, v);
	else if (to == XRT_CS_F64)
		snprintf(buf, size, "(double)(%s)", v);
	else if (from_double)
		snprintf(buf, size, "d2fc(%u, %s)", to, v);
	else
		snprintf(buf, size, "f2fc(%u, %s)", to, v);
}

void cg_convert(char *buf, size_t size, uint32_t to, uint32_t from, const char *v)
{
	char part[200];

	if (cg_is_int(from)) {
		if (cg_is_int(to))
			snprintf(buf, size, "xs_int_wrap(%u, (u64)(%s))", to, v);
		else if (cg_is_f32c(to))
			snprintf(buf, size, "i2f(%u, %u, %s)", to, from, v);
		else if (to == XRT_CS_F64)
			snprintf(buf, size, "i2d(%u, %s)", from, v);
		else if (to == XRT_CS_C64)
			snprintf(buf, size, "mk64(i2f(%u, %u, %s), 0.0f)", XRT_CS_F32, from, v);
		else
			snprintf(buf, size, "mk128(i2d(%u, %s), 0.0)", from, v);
		return;
	}
	if (!cg_is_cplx(from)) {
		if (to == XRT_CS_C64) {
			real_to(part, sizeof(part), XRT_CS_F32, v, from == XRT_CS_F64);
			snprintf(buf, size, "mk64(%s, 0.0f)", part);
		} else if (to == XRT_CS_C128) {
			snprintf(buf, size, "mk128((double)(%s), 0.0)", v);
		} else {
			real_to(buf, size, to, v, from == XRT_CS_F64);
		}
		return;
	}
	snprintf(part, sizeof(part), "(%s).re", v);
	if (to == XRT_CS_C64)
		snprintf(buf, size, "mk64((float)(%s).re, (float)(%s).im)", v, v);
	else if (to == XRT_CS_C128)
		snprintf(buf, size, "mk128((double)(%s).re, (double)(%s).im)", v, v);
	else if (to == XRT_CS_PRED)
		snprintf(buf, size, "(s64)((%s).re != 0 || (%s).im != 0)", v, v);
	else
		real_to(buf, size, to, part, from == XRT_CS_C128);
}

void cg_view_ptr(char *buf, size_t size, const struct xrt_cs_view *v, const __s64 *strides,
		 uint32_t rank, const char *c)
{
	char off[300];

	cg_offset(off, sizeof(off), c, rank, strides);
	snprintf(buf, size, "s%u + %llull + (%s) * %u", v->slot, v->offset, off,
		 xs_dtype_size(v->dtype));
}

void cg_operand_ptr(char *buf, size_t size, const struct xrt_cs_operand *op, const char *c,
		    uint32_t rank)
{
	char off[300];

	cg_offset(off, sizeof(off), c, rank, op->strides);
	snprintf(buf, size, "s%u + %llull + (%s) * %u", op->slot, op->offset, off,
		 xs_dtype_size(op->dtype));
}

static const struct xrt_cs_cmd *command(const struct xrt_engine_prog *p, uint32_t pc)
{
	return (const void *)(p->base + p->offsets[pc]);
}

/* A FILL of the run's id: the host writes it, into a u32 or s32 scalar. */
static void fill_id(struct cg *g, const struct xrt_cs_fill *c, struct cg_step *st)
{
	if ((c->dst.dtype != XRT_CS_U32 && c->dst.dtype != XRT_CS_S32) ||
	    cg_count(c->dst.rank, c->dst.dims) != 1) {
		cg_fail(g, "a replica or partition id into other than one 32-bit integer");
		return;
	}
	st->kind = CG_STEP_FILL_ID;
	st->fill = c;
}

static void translate(struct cg *g, const struct xrt_cs_cmd *c, struct cg_step *st)
{
	st->kind = CG_STEP_KERNELS;
	switch (c->op) {
	case XRT_CS_OP_EWISE:
		cg_ewise(g, (const void *)c, st);
		break;
	case XRT_CS_OP_REDUCE:
		cg_reduce(g, (const void *)c, st);
		break;
	case XRT_CS_OP_DOT:
		cg_dot(g, (const void *)c, st);
		break;
	case XRT_CS_OP_SORT:
		cg_sort(g, (const void *)c, st);
		break;
	case XRT_CS_OP_GATHER:
	case XRT_CS_OP_SCATTER:
	case XRT_CS_OP_SCAN:
	case XRT_CS_OP_DYNAMIC_SLICE:
	case XRT_CS_OP_DYNAMIC_UPDATE_SLICE:
		cg_indexed(g, c, st);
		break;
	case XRT_CS_OP_JUMP:
		st->kind = CG_STEP_JUMP;
		st->jump = (const void *)c;
		break;
	case XRT_CS_OP_COLLECTIVE:
		st->kind = CG_STEP_COLLECTIVE;
		break;
	case XRT_CS_OP_CALL:
		cg_fail(g, "a custom call runs code of the process, not of the GPU");
		break;
	case XRT_CS_OP_FILL:
		if (((const struct xrt_cs_fill *)c)->mode == XRT_CS_FILL_REPLICA_ID ||
		    ((const struct xrt_cs_fill *)c)->mode == XRT_CS_FILL_PARTITION_ID) {
			fill_id(g, (const void *)c, st);
			break;
		}
		cg_move(g, c, st);
		break;
	default:	/* COPY, FILL, RNG */
		cg_move(g, c, st);
		break;
	}
}

xrt_status *cuda_plan_build(const struct xrt_engine_prog *p, const char *prefix,
			    const struct xrt_allocator *a, struct cuda_plan *out)
{
	struct cg g = { .prefix = prefix, .a = a };

	memset(out, 0, sizeof(*out));
	out->alloc = a;
	out->steps = xrt_mem_calloc(a, p->num_commands ? p->num_commands : 1,
				    sizeof(*out->steps));
	if (!out->steps)
		return xrt_status_oom(a, "a CUDA plan");
	out->num_steps = p->num_commands;
	cg_text_init(&g.t, a);
	for (g.pc = 0; g.pc < p->num_commands && !g.err && !g.t.oom; g.pc++)
		translate(&g, command(p, g.pc), &out->steps[g.pc]);
	if (!g.err && g.t.oom)
		g.err = xrt_status_oom(a, "a CUDA source");
	if (g.err) {
		cg_text_release(&g.t);
		cuda_plan_release(out);
		return g.err;
	}
	out->source = g.t.p;
	out->source_len = g.t.len;
	out->scratch_bytes = g.scratch;
	if (!out->source) {	/* a program of jumps only */
		out->source = xrt_mem_calloc(a, 1, 1);
		if (!out->source) {
			cuda_plan_release(out);
			return xrt_status_oom(a, "a CUDA source");
		}
	}
	return NULL;
}

void cuda_plan_release(struct cuda_plan *plan)
{
	xrt_mem_free(plan->alloc, plan->source);
	xrt_mem_free(plan->alloc, plan->steps);
	memset(plan, 0, sizeof(*plan));
}
