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

#include "../core/fmtbuf.h"
#include "cs_builder.h"

static const char *const dtype_names[] = {
	[XRT_CS_PRED] = "pred", [XRT_CS_S8] = "s8", [XRT_CS_S16] = "s16",
	[XRT_CS_S32] = "s32", [XRT_CS_S64] = "s64", [XRT_CS_U8] = "u8",
	[XRT_CS_U16] = "u16", [XRT_CS_U32] = "u32", [XRT_CS_U64] = "u64",
	[XRT_CS_F16] = "f16", [XRT_CS_BF16] = "bf16", [XRT_CS_F32] = "f32",
	[XRT_CS_F64] = "f64", [XRT_CS_C64] = "c64", [XRT_CS_C128] = "c128",
};

static const char *dtype_name(uint32_t t)
{
	if (t < sizeof(dtype_names) / sizeof(dtype_names[0]) && dtype_names[t])
		return dtype_names[t];
	return "?";
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

static void print_command(struct fmtbuf *f, const struct xrt_cs_cmd *c)
{
	const struct xrt_cs_copy *cp = (const void *)c;
	const struct xrt_cs_fill *fl = (const void *)c;
	const struct xrt_cs_jump *j = (const void *)c;

	fmtbuf_printf(f, "%-6s", cs_op_name(c->op));
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
		else
			fmtbuf_printf(f, " <- 0x%016llx%016llx",
				      (unsigned long long)fl->value[1],
				      (unsigned long long)fl->value[0]);
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
	if (size < sizeof(*h) || h->slots_offset > size ||
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
		const struct xrt_cs_cmd *c = (const void *)((const uint8_t *)data + at);

		if (at + sizeof(*c) > size || c->size < sizeof(*c) ||
		    c->size > size - at) {
			fmtbuf_puts(&f, "(truncated)\n");
			break;
		}
		fmtbuf_printf(&f, "%u: ", i);
		print_command(&f, c);
		at += c->size;
	}
	return f.len;
}
