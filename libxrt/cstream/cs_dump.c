// SPDX-License-Identifier: MIT
/*
 * A readable listing of a program:
 *
 *   slot 0: 96 bytes, read
 *   0: COPY  s1+0 f32[2,3]{3,1} <- s0+0 f32[2,3]{1,2}
 *
 * Views print as slot+offset, element type, dims and {strides}.
 */
#include <stdio.h>

#include <xrt/dtype.h>

#include "core/fmtbuf.h"
#include "cstream/cs_builder.h"

/* The command stream's types are numbered as enum xrt_dtype: its names, but TUPLE. */
static const char *dtype_name(uint32_t t)
{
	if (t == XRT_TUPLE || !xrt_dtype_is_array((enum xrt_dtype)t))
		return "?";
	return xrt_dtype_name((enum xrt_dtype)t);
}

const char *cs_op_name(uint32_t op)
{
	switch (op) {
	case XRT_CS_OP_COPY:
		return "COPY";
	case XRT_CS_OP_FILL:
		return "FILL";
	case XRT_CS_OP_EWISE:
		return "EWISE";
	case XRT_CS_OP_REDUCE:
		return "REDUCE";
	case XRT_CS_OP_DOT:
		return "DOT";
	case XRT_CS_OP_GATHER:
		return "GATHER";
	case XRT_CS_OP_SCATTER:
		return "SCATTER";
	case XRT_CS_OP_DYNAMIC_SLICE:
		return "DYNAMIC_SLICE";
	case XRT_CS_OP_DYNAMIC_UPDATE_SLICE:
		return "DYNAMIC_UPDATE_SLICE";
	case XRT_CS_OP_SORT:
		return "SORT";
	case XRT_CS_OP_RNG:
		return "RNG";
	case XRT_CS_OP_JUMP:
		return "JUMP";
	case XRT_CS_OP_SCAN:
		return "SCAN";
	case XRT_CS_OP_CALL:
		return "CALL";
	case XRT_CS_OP_COLLECTIVE:
		return "COLLECTIVE";
	}
	return "UNKNOWN";
}

static void print_view(struct fmtbuf *f, const struct xrt_cs_view *v)
{
	uint32_t i, r = v->rank < XRT_CS_MAX_RANK ? v->rank : XRT_CS_MAX_RANK;

	fmtbuf_printf(f, "s%u+%llu %s[", v->slot,
		      (unsigned long long)v->offset, dtype_name(v->dtype));
	for (i = 0; i < r; i++)
		fmtbuf_printf(f, "%s%llu", i ? "," : "",
			      (unsigned long long)v->dims[i]);
	fmtbuf_puts(f, "]{");
	for (i = 0; i < r; i++)
		fmtbuf_printf(f, "%s%lld", i ? "," : "",
			      (long long)v->strides[i]);
	fmtbuf_puts(f, "}");
}

static void print_operands(struct fmtbuf *f, const struct xrt_cs_operand *o,
			   uint32_t n, uint32_t rank)
{
	uint32_t i, d;

	for (i = 0; i < n; i++) {
		fmtbuf_printf(f, "\n      %s%u s%u+%llu %s{", o[i].flags == XRT_CS_OPERAND_OUT ?
			      "out" : "in", i, o[i].slot, (unsigned long long)o[i].offset,
			      dtype_name(o[i].dtype));
		for (d = 0; d < rank && d < XRT_CS_MAX_RANK; d++)
			fmtbuf_printf(f, "%s%lld", d ? "," : "", (long long)o[i].strides[d]);
		fmtbuf_puts(f, "}");
	}
}

static const char *fn_name(uint32_t op, uint32_t fn)
{
	static const char *const un[] = { "?", "abs", "neg", "sign", "not", "floor",
		"ceil", "round_afz", "round_even", "exp", "expm1", "log", "log1p",
		"logistic", "sqrt", "rsqrt", "cbrt", "tanh", "sin", "cos", "tan",
		"erf", "is_finite", "popcnt", "clz", "real", "imag" };
	static const char *const bin[] = { "?", "add", "sub", "mul", "div", "rem",
		"pow", "max", "min", "atan2", "complex", "and", "or", "xor", "shl",
		"shr_logical", "shr_arith" };
	static const char *const cmp[] = { "?", "eq", "ne", "lt", "le", "gt", "ge" };

	if (op == XRT_CS_EW_UNARY && fn < sizeof(un) / sizeof(un[0]))
		return un[fn];
	if (op == XRT_CS_EW_BINARY && fn < sizeof(bin) / sizeof(bin[0]))
		return bin[fn];
	fn &= ~XRT_CS_CMP_TOTAL_ORDER;
	if (op == XRT_CS_EW_COMPARE && fn < sizeof(cmp) / sizeof(cmp[0]))
		return cmp[fn];
	return "?";
}

static void print_insts(struct fmtbuf *f, const struct xrt_cs_ew_inst *in,
			uint32_t n)
{
	static const char *const ops[] = { "?", "load", "const", "unary", "binary",
					   "compare", "select", "convert", "bitcast",
					   "store" };
	uint32_t i;

	for (i = 0; i < n; i++) {
		const char *op = in[i].op < 10 ? ops[in[i].op] : "?";

		if (in[i].op == XRT_CS_EW_STORE)
			fmtbuf_printf(f, "\n      out%u = r%u", in[i].a, in[i].b);
		else if (in[i].op == XRT_CS_EW_LOAD)
			fmtbuf_printf(f, "\n      r%u:%s = in%u", in[i].dst,
				      dtype_name(in[i].dtype), in[i].a);
		else if (in[i].op == XRT_CS_EW_CONST)
			fmtbuf_printf(f, "\n      r%u:%s = 0x%llx", in[i].dst,
				      dtype_name(in[i].dtype),
				      (unsigned long long)in[i].imm[0]);
		else if (in[i].op == XRT_CS_EW_UNARY || in[i].op == XRT_CS_EW_CONVERT ||
			 in[i].op == XRT_CS_EW_BITCAST)
			fmtbuf_printf(f, "\n      r%u:%s = %s r%u", in[i].dst,
				      dtype_name(in[i].dtype), in[i].op == XRT_CS_EW_UNARY ?
				      fn_name(in[i].op, in[i].fn) : op, in[i].a);
		else if (in[i].op == XRT_CS_EW_SELECT)
			fmtbuf_printf(f, "\n      r%u:%s = r%u ? r%u : r%u", in[i].dst,
				      dtype_name(in[i].dtype), in[i].a, in[i].b, in[i].c);
		else
			fmtbuf_printf(f, "\n      r%u:%s = %s r%u r%u", in[i].dst,
				      dtype_name(in[i].dtype), fn_name(in[i].op, in[i].fn),
				      in[i].a, in[i].b);
	}
}

static void print_dims(struct fmtbuf *f, const __u64 *dims, uint32_t rank)
{
	uint32_t d;

	fmtbuf_puts(f, "[");
	for (d = 0; d < rank && d < XRT_CS_MAX_RANK; d++)
		fmtbuf_printf(f, "%s%llu", d ? "," : "", (unsigned long long)dims[d]);
	fmtbuf_puts(f, "]");
}

static void print_matrix(struct fmtbuf *f, const struct xrt_cs_matrix *m)
{
	fmtbuf_printf(f, "s%u+%llu %s{%lld,%lld,%lld}", m->slot,
		      (unsigned long long)m->offset, dtype_name(m->dtype),
		      (long long)m->batch_stride, (long long)m->row_stride,
		      (long long)m->col_stride);
}

/* The variable-size commands, whose arrays must fit their size. */
static void print_expression(struct fmtbuf *f, const struct xrt_cs_cmd *c)
{
	const struct xrt_cs_ewise *e = (const void *)c;
	const struct xrt_cs_reduce *r = (const void *)c;
	const struct xrt_cs_operand *o;
	uint32_t nops, ninst, rank;
	size_t fixed, need;

	if (c->op == XRT_CS_OP_EWISE) {
		fixed = sizeof(*e);
		nops = e->num_operands;
		ninst = e->num_insts;
		rank = e->rank;
		print_dims(f, e->dims, rank);
	} else {
		fixed = sizeof(*r);
		nops = r->num_operands;
		ninst = r->num_insts;
		rank = r->rank;
		static const char *const rops[] = { "?", "sum", "prod", "min", "max",
						    "and", "or", "argmin", "argmax" };

		fmtbuf_printf(f, "%s over mask 0x%x of ", r->op < 9 ? rops[r->op] : "?",
			      r->reduce_mask);
		print_dims(f, r->dims, rank);
		fmtbuf_printf(f, ", value r%u", r->value_reg);
	}
	need = fixed + (size_t)nops * sizeof(*o) + (size_t)ninst * sizeof(struct xrt_cs_ew_inst);
	if (c->size < fixed || need > c->size) {
		fmtbuf_puts(f, " (arrays do not fit the command)");
		return;
	}
	o = (const void *)((const uint8_t *)c + fixed);
	print_operands(f, o, nops, rank);
	print_insts(f, (const void *)(o + nops), ninst);
}

/* The fixed part of each command: what must fit before it is read. */
static size_t fixed_size(uint32_t op)
{
	switch (op) {
	case XRT_CS_OP_COPY:
		return sizeof(struct xrt_cs_copy);
	case XRT_CS_OP_FILL:
		return sizeof(struct xrt_cs_fill);
	case XRT_CS_OP_EWISE:
		return sizeof(struct xrt_cs_ewise);
	case XRT_CS_OP_REDUCE:
		return sizeof(struct xrt_cs_reduce);
	case XRT_CS_OP_DOT:
		return sizeof(struct xrt_cs_dot);
	case XRT_CS_OP_GATHER:
		return sizeof(struct xrt_cs_gather);
	case XRT_CS_OP_SCATTER:
		return sizeof(struct xrt_cs_scatter);
	case XRT_CS_OP_DYNAMIC_SLICE:
	case XRT_CS_OP_DYNAMIC_UPDATE_SLICE:
		return sizeof(struct xrt_cs_dynamic_slice);
	case XRT_CS_OP_SORT:
		return sizeof(struct xrt_cs_sort);
	case XRT_CS_OP_RNG:
		return sizeof(struct xrt_cs_rng);
	case XRT_CS_OP_JUMP:
		return sizeof(struct xrt_cs_jump);
	case XRT_CS_OP_SCAN:
		return sizeof(struct xrt_cs_scan);
	case XRT_CS_OP_CALL:
		return sizeof(struct xrt_cs_call);
	case XRT_CS_OP_COLLECTIVE:
		return sizeof(struct xrt_cs_collective);
	}
	return sizeof(struct xrt_cs_cmd);
}

static void print_collective(struct fmtbuf *f, const struct xrt_cs_collective *c)
{
	static const char *const kinds[] = { "?", "all-reduce", "all-gather", "reduce-scatter",
					     "all-to-all", "all-to-all-tuple", "permute",
					     "broadcast" };
	const struct xrt_cs_view *w = (const void *)(c + 1);
	uint32_t i, n = 2u * c->num_in;

	if (c->num_in != c->num_out || c->cmd.size < sizeof(*c) + (uint64_t)n * sizeof(*w)) {
		fmtbuf_puts(f, "(views past its size)");
		return;
	}
	fmtbuf_printf(f, "%s op %u dim %u group %u:", c->kind < 8 ? kinds[c->kind] : "?", c->op,
		      c->dim, c->group);
	for (i = 0; i < n; i++) {
		fmtbuf_puts(f, i == c->num_in ? " ->" : "");
		fmtbuf_puts(f, " ");
		print_view(f, &w[i]);
	}
}

static void print_command(struct fmtbuf *f, const struct xrt_cs_cmd *c)
{
	const struct xrt_cs_copy *cp = (const void *)c;
	const struct xrt_cs_fill *fl = (const void *)c;
	const struct xrt_cs_jump *j = (const void *)c;

	fmtbuf_printf(f, "%-7s ", cs_op_name(c->op));
	if (c->size < fixed_size(c->op)) {
		fmtbuf_printf(f, "(%u bytes: too short)\n", c->size);
		return;
	}
	switch (c->op) {
	case XRT_CS_OP_COPY:
		print_view(f, &cp->dst);
		fmtbuf_puts(f, " <- ");
		print_view(f, &cp->src);
		break;
	case XRT_CS_OP_FILL:
		print_view(f, &fl->dst);
		if (fl->mode == XRT_CS_FILL_IOTA)
			fmtbuf_printf(f, " <- iota(dim %u)", fl->iota_dim);
		else if (fl->mode == XRT_CS_FILL_REPLICA_ID || fl->mode == XRT_CS_FILL_PARTITION_ID)
			fmtbuf_puts(f, fl->mode == XRT_CS_FILL_REPLICA_ID ? " <- replica id" :
				    " <- partition id");
		else
			fmtbuf_printf(f, " <- 0x%016llx%016llx",
				      (unsigned long long)fl->value[1],
				      (unsigned long long)fl->value[0]);
		break;
	case XRT_CS_OP_EWISE:
	case XRT_CS_OP_REDUCE:
		print_expression(f, c);
		break;
	case XRT_CS_OP_DOT: {
		const struct xrt_cs_dot *d = (const void *)c;

		fmtbuf_printf(f, "%llu x [%llu,%llu] x [%llu,%llu]%s ",
			      (unsigned long long)d->batch, (unsigned long long)d->m,
			      (unsigned long long)d->k, (unsigned long long)d->k,
			      (unsigned long long)d->n,
			      c->flags & XRT_CS_DOT_ACCUMULATE ? " +=" : "");
		print_matrix(f, &d->out);
		fmtbuf_puts(f, " <- ");
		print_matrix(f, &d->lhs);
		fmtbuf_puts(f, " x ");
		print_matrix(f, &d->rhs);
		break;
	}
	case XRT_CS_OP_GATHER:
	case XRT_CS_OP_SCATTER: {
		const struct xrt_cs_gather *g = (const void *)c;

		print_view(f, &g->operand);
		fmtbuf_printf(f, " %s ", c->op == XRT_CS_OP_GATHER ? "->" : "<-");
		print_view(f, &g->out);
		fmtbuf_puts(f, " at ");
		print_view(f, &g->indices);
		break;
	}
	case XRT_CS_OP_DYNAMIC_SLICE:
	case XRT_CS_OP_DYNAMIC_UPDATE_SLICE: {
		const struct xrt_cs_dynamic_slice *d = (const void *)c;

		print_view(f, &d->operand);
		fmtbuf_printf(f, " %s ", c->op == XRT_CS_OP_DYNAMIC_SLICE ? "->" : "<-");
		print_view(f, &d->slice);
		break;
	}
	case XRT_CS_OP_SORT: {
		const struct xrt_cs_sort *so = (const void *)c;

		print_dims(f, so->dims, so->rank);
		fmtbuf_printf(f, " along %u, %u keys%s%s", so->dim, so->num_keys,
			      c->flags & XRT_CS_SORT_DESCENDING ? ", descending" : "",
			      c->flags & XRT_CS_SORT_BY_VALUE ? ", floats by value" :
			      c->flags & XRT_CS_SORT_IEEE_MERGE ? ", IEEE floats, merge sort" : "");
		print_operands(f, so->operands, so->num_operands < 8 ? so->num_operands : 8,
			       so->rank);
		break;
	}
	case XRT_CS_OP_RNG: {
		const struct xrt_cs_rng *r = (const void *)c;

		const struct xrt_cs_scalar *at = (const void *)(r + 1);

		print_view(f, &r->dst);
		fmtbuf_printf(f, " <- %s stream ", r->distribution == XRT_CS_RNG_BITS ?
			      "bits" : r->distribution == XRT_CS_RNG_UNIFORM ? "uniform" :
			      "normal");
		if (c->flags & XRT_CS_RNG_STREAM_AT && c->size >= sizeof(*r) + sizeof(*at))
			fmtbuf_printf(f, "at s%u+%llu", at->slot, (unsigned long long)at->offset);
		else
			fmtbuf_printf(f, "%llu", (unsigned long long)r->stream);
		break;
	}
	case XRT_CS_OP_SCAN: {
		const struct xrt_cs_scan *sc = (const void *)c;

		print_view(f, &sc->out);
		fmtbuf_printf(f, " <- scan %u along %u from 0x%016llx%016llx of ", sc->op, sc->dim,
			      (unsigned long long)sc->init[1], (unsigned long long)sc->init[0]);
		print_view(f, &sc->in);
		break;
	}
	case XRT_CS_OP_CALL: {
		const struct xrt_cs_call *cl = (const void *)c;
		const struct xrt_cs_view *w = (const void *)(cl + 1);
		uint32_t i, n = (uint32_t)cl->num_args + cl->num_results;

		if (c->size < sizeof(*cl) + (uint64_t)n * sizeof(*w)) {
			fmtbuf_puts(f, "(views past its size)");
			break;
		}
		fmtbuf_printf(f, "call %u:", cl->target);
		for (i = 0; i < n; i++) {
			fmtbuf_puts(f, i == cl->num_args ? " ->" : "");
			fmtbuf_puts(f, " ");
			print_view(f, &w[i]);
		}
		break;
	}
	case XRT_CS_OP_COLLECTIVE:
		print_collective(f, (const void *)c);
		break;
	case XRT_CS_OP_JUMP:
		fmtbuf_printf(f, "-> %u", j->target);
		if (j->mode != XRT_CS_JUMP_ALWAYS)
			fmtbuf_printf(f, " if %ss%u+%llu", j->mode == XRT_CS_JUMP_IF_FALSE ?
				      "!" : "", j->pred.slot,
				      (unsigned long long)j->pred.offset);
		break;
	default:
		fmtbuf_printf(f, "(%u bytes)", c->size);
		break;
	}
	fmtbuf_puts(f, "\n");
}

size_t cs_dump(const void *data, size_t size, char *buf, size_t buf_size)
{
	const struct xrt_cs_header *h = data;
	const struct xrt_cs_slot *s;
	struct fmtbuf f;
	uint64_t at;
	uint32_t i;

	fmtbuf_init(&f, buf, buf_size);
	/* Any bytes may come here: check each thing before reading it. */
	if (((uintptr_t)data & 7) || size < sizeof(*h) || (h->slots_offset & 7) ||
	    h->slots_offset > size ||
	    h->num_slots > (size - h->slots_offset) / sizeof(*s)) {
		fmtbuf_puts(&f, "(not a program)\n");
		return f.len;
	}
	s = (const void *)((const uint8_t *)data + h->slots_offset);
	for (i = 0; i < h->num_slots; i++)
		fmtbuf_printf(&f, "slot %u: %llu bytes,%s%s\n", i,
			      (unsigned long long)s[i].size,
			      s[i].flags & XRT_CS_SLOT_READ ? " read" : "",
			      s[i].flags & XRT_CS_SLOT_WRITE ? " write" : "");
	at = h->commands_offset;
	for (i = 0; i < h->num_commands; i++) {
		const struct xrt_cs_cmd *c;

		if ((at & 7) || at > size || size - at < sizeof(*c)) {
			fmtbuf_puts(&f, "(truncated)\n");
			break;
		}
		c = (const void *)((const uint8_t *)data + at);
		if (c->size < sizeof(*c) || (c->size & 7) || c->size > size - at) {
			fmtbuf_puts(&f, "(truncated)\n");
			break;
		}
		fmtbuf_printf(&f, "%u: ", i);
		print_command(&f, c);
		at += c->size;
	}
	return f.len;
}
