// SPDX-License-Identifier: MIT
/*
 * Expression programs as straight-line CUDA: each instruction becomes a
 * variable (v<i>) of its register's class, computed by the prelude's
 * helpers with the function and type as literals, so the compiler keeps
 * only the arithmetic of the case at hand.  EWISE runs one over each
 * element of its iteration space.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cuda_gen_internal.h"

static void unary(char *e, size_t n, const struct xrt_cs_ew_inst *in, uint32_t at,
		  const char *a)
{
	uint32_t t = in->dtype;

	if (in->fn == XRT_CS_UN_IS_FINITE) {
		snprintf(e, n, "finite_f((double)(%s))", a);
	} else if (cg_is_cplx(at)) {
		const char *mk = at == XRT_CS_C64 ? "to64" : "to128";

		if (in->fn == XRT_CS_UN_REAL || in->fn == XRT_CS_UN_IMAG)
			snprintf(e, n, "(%s).%s", a, in->fn == XRT_CS_UN_REAL ? "re" : "im");
		else if (in->fn == XRT_CS_UN_ABS)
			snprintf(e, n, "(%s)xs_hypot((double)(%s).re, (double)(%s).im)",
				 cg_reg_type(t), a, a);
		else
			snprintf(e, n, "%s(cun(%u, cof(%s)))", mk, in->fn, a);
	} else if (cg_is_int(t)) {
		snprintf(e, n, "iun(%u, %u, %s)", in->fn, t, a);
	} else if (cg_is_f32c(t)) {
		snprintf(e, n, "fun(%u, %u, %s)", in->fn, t, a);
	} else {
		snprintf(e, n, "dun(%u, %s)", in->fn, a);
	}
}

static void binary(char *e, size_t n, const struct xrt_cs_ew_inst *in, uint32_t at,
		   const char *a, const char *b)
{
	uint32_t t = in->dtype;

	if (in->fn == XRT_CS_BIN_COMPLEX)
		snprintf(e, n, "%s(%s, %s)", t == XRT_CS_C64 ? "mk64" : "mk128", a, b);
	else if (cg_is_cplx(t))
		snprintf(e, n, "%s(cbin(%u, cof(%s), cof(%s)))", t == XRT_CS_C64 ? "to64" : "to128",
			 in->fn, a, b);
	else if (cg_is_int(t))
		snprintf(e, n, "ibin(%u, %u, %s, %s)", in->fn, t, a, b);
	else if (cg_is_f32c(t))
		snprintf(e, n, "fbin(%u, %u, %s, %s)", in->fn, t, a, b);
	else
		snprintf(e, n, "dbin(%u, %s, %s)", in->fn, a, b);
	(void)at;
}

static void compare(char *e, size_t n, const struct xrt_cs_ew_inst *in, uint32_t at,
		    const char *a, const char *b)
{
	if (cg_is_cplx(at))
		snprintf(e, n, "ccmp(%u, cof(%s), cof(%s))", in->fn, a, b);
	else if (cg_is_int(at))
		snprintf(e, n, "icmp(%u, %u, %s, %s)", in->fn, at, a, b);
	else
		snprintf(e, n, "dcmp(%u, (double)(%s), (double)(%s))", in->fn, a, b);
}

/* The bits of register @a of type @from, as a u64 expression. */
static void bits_of(char *e, size_t n, uint32_t from, const char *a)
{
	if (cg_is_int(from))
		snprintf(e, n, "bits_i(%u, %s)", from, a);
	else if (cg_is_f32c(from))
		snprintf(e, n, "bits_f(%u, %s)", from, a);
	else if (from == XRT_CS_F64)
		snprintf(e, n, "bits_d(%s)", a);
	else
		snprintf(e, n, "((u64)__float_as_uint((%s).re) | (u64)__float_as_uint((%s).im) << 32)",
			 a, a);
}

static void bitcast(char *e, size_t n, uint32_t to, uint32_t from, const char *a)
{
	char b[300];

	bits_of(b, sizeof(b), from, a);
	if (cg_is_int(to))
		snprintf(e, n, "xs_int_wrap(%u, %s)", to, b);
	else if (cg_is_f32c(to))
		snprintf(e, n, "f_of_bits(%u, %s)", to, b);
	else if (to == XRT_CS_F64)
		snprintf(e, n, "__longlong_as_double((s64)%s)", b);
	else
		snprintf(e, n, "mk64(__uint_as_float((u32)%s), __uint_as_float((u32)(%s >> 32)))",
			 b, b);
}

const char *cg_expr(struct cg *g, const struct xrt_cs_operand *ops, const char (*ptr)[CG_PTR_LEN],
		    const struct xrt_cs_ew_inst *insts, uint32_t num_insts, uint32_t want,
		    char *name, size_t name_size)
{
	int last[XRT_CS_MAX_REGS];
	uint32_t type[XRT_CS_MAX_REGS] = { 0 }, i;
	char e[1024], va[16], vb[16], vc[16];

	memset(last, -1, sizeof(last));
	for (i = 0; i < num_insts; i++) {
		const struct xrt_cs_ew_inst *in = &insts[i];
		uint32_t at = in->a < XRT_CS_MAX_REGS ? type[in->a] : 0;

		snprintf(va, sizeof(va), "v%d", in->a < XRT_CS_MAX_REGS ? last[in->a] : -1);
		snprintf(vb, sizeof(vb), "v%d", in->b < XRT_CS_MAX_REGS ? last[in->b] : -1);
		snprintf(vc, sizeof(vc), "v%d", in->c < XRT_CS_MAX_REGS ? last[in->c] : -1);
		switch (in->op) {
		case XRT_CS_EW_LOAD:
			cg_load(e, sizeof(e), ops[in->a].dtype, ptr[in->a]);
			break;
		case XRT_CS_EW_CONST:
			cg_const(e, sizeof(e), in->dtype, in->imm);
			break;
		case XRT_CS_EW_UNARY:
			unary(e, sizeof(e), in, at, va);
			break;
		case XRT_CS_EW_BINARY:
			binary(e, sizeof(e), in, at, va, vb);
			break;
		case XRT_CS_EW_COMPARE:
			compare(e, sizeof(e), in, at, va, vb);
			break;
		case XRT_CS_EW_SELECT:
			snprintf(e, sizeof(e), "%s ? %s : %s", va, vb, vc);
			break;
		case XRT_CS_EW_CONVERT:
			cg_convert(e, sizeof(e), in->dtype, at, va);
			break;
		case XRT_CS_EW_BITCAST:
			bitcast(e, sizeof(e), in->dtype, at, va);
			break;
		case XRT_CS_EW_STORE:
			cg_store(g, ops[in->a].dtype, ptr[in->a], vb);
			continue;
		default:
			cg_fail(g, "expression instruction %u: op %u", i, in->op);
			return NULL;
		}
		cg_printf(&g->t, "\t%s v%u = %s;\n", cg_reg_type(in->dtype), i, e);
		last[in->dst] = (int)i;
		type[in->dst] = in->dtype;
	}
	if (want == ~0u)
		return NULL;
	snprintf(name, name_size, "v%d", last[want]);
	return name;
}

void cg_ewise(struct cg *g, const struct xrt_cs_ewise *c, struct cg_step *st)
{
	const struct xrt_cs_operand *src = (const void *)(c + 1);
	const struct xrt_cs_ew_inst *insts = (const void *)(src + c->num_operands);
	struct xrt_cs_operand ops[XRT_CS_MAX_OPERANDS];
	__s64 strides[XRT_CS_MAX_OPERANDS][XRT_CS_MAX_RANK];
	char ptr[XRT_CS_MAX_OPERANDS][CG_PTR_LEN];
	__u64 dims[XRT_CS_MAX_RANK], n;
	uint32_t rank = c->rank, i;
	struct cg_kernel *k = &st->kernel[0];

	memcpy(dims, c->dims, sizeof(dims));
	n = cg_count(rank, dims);
	for (i = 0; i < c->num_operands; i++)
		memcpy(strides[i], src[i].strides, sizeof(strides[i]));
	cg_merge_dims(&rank, dims, c->num_operands, strides);
	cg_kernel_init(g, k, n);
	for (i = 0; i < c->num_operands; i++) {
		ops[i] = src[i];
		memcpy(ops[i].strides, strides[i], sizeof(strides[i]));
		cg_use_slot(g, k, ops[i].slot);
	}
	cg_open(g, k);
	cg_printf(&g->t, "FOR_EACH(e, %lluull) {\n", n);
	cg_unravel(g, "c", "e", rank, dims, n <= UINT32_MAX);
	for (i = 0; i < c->num_operands; i++)
		cg_operand_ptr(ptr[i], sizeof(ptr[i]), &ops[i], "c", rank);
	cg_expr(g, ops, (const char (*)[CG_PTR_LEN])ptr, insts, c->num_insts, ~0u, NULL, 0);
	cg_printf(&g->t, "}\n}\n");
}
