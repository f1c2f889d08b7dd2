// SPDX-License-Identifier: MIT
/*
 * Printing modules as canonical HLO text: every shape with its layout,
 * operands by name, attributes in a fixed order, no metadata.
 */
#include <inttypes.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "core/shape_format.h"
#include "ir/ir.h"

static void print_ints(struct fmtbuf *f, const int64_t *v, uint32_t n,
		       uint32_t step, const char *sep)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fmtbuf_printf(f, "%s%" PRId64, i ? sep : "", v[i * step]);
}

static void print_window(struct fmtbuf *f, const struct ir_attr *a)
{
	static const char *const names[] = { "size", "stride", "pad", "lhs_dilate",
					     "rhs_dilate", "rhs_reversal" };
	static const int64_t dflt[] = { -1, 1, 0, 1, 1, 0 };
	uint32_t field, d, col;
	bool first = true;

	fmtbuf_puts(f, "{");
	for (field = 0; field < 6; field++) {
		bool all_default = field > 0;

		col = field < 3 ? field : field + 1;
		for (d = 0; d < a->n; d++) {
			const int64_t *w = a->ints + d * IR_WINDOW_FIELDS;

			if (w[col] != dflt[field] || (field == 2 && w[3]))
				all_default = false;
		}
		if (all_default)
			continue;
		fmtbuf_printf(f, "%s%s=", first ? "" : " ", names[field]);
		first = false;
		for (d = 0; d < a->n; d++) {
			const int64_t *w = a->ints + d * IR_WINDOW_FIELDS;

			if (field == 2)
				fmtbuf_printf(f, "%s%" PRId64 "_%" PRId64, d ? "x" : "",
					      w[2], w[3]);
			else
				fmtbuf_printf(f, "%s%" PRId64, d ? "x" : "", w[col]);
		}
	}
	fmtbuf_puts(f, "}");
}

/* {{0,1},{2,3}}: the groups written out, however they were read. */
void ir_put_string(struct fmtbuf *f, const char *s, size_t n)
{
	size_t i;

	fmtbuf_puts(f, "\"");
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fmtbuf_printf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fmtbuf_printf(f, "\\%03o", c);
		else
			fmtbuf_printf(f, "%c", c);
	}
	fmtbuf_puts(f, "\"");
}

static void print_groups(struct fmtbuf *f, const struct ir_attr *a)
{
	uint32_t i = 0, len;

	fmtbuf_puts(f, "{");
	while (i < a->n) {
		len = (uint32_t)a->ints[i];
		fmtbuf_printf(f, "%s{", i ? "," : "");
		print_ints(f, a->ints + i + 1, len, 1, ",");
		fmtbuf_puts(f, "}");
		i += len + 1;
	}
	fmtbuf_puts(f, "}");
}

/*
 * Whether @s is one brace-enclosed value as the reader skips one (its
 * strings' escapes passed over): a typed FFI dictionary printed bare, as
 * XLA prints it, reads back the same.  Else it is printed as a string.
 */
static bool one_value(const char *s)
{
	size_t i = 0;
	int depth = 0;

	if (s[0] != '{')
		return false;
	do {
		if (!s[i])
			return false;
		if (s[i] == '"') {
			for (i++; s[i] && s[i] != '"'; i++)
				i += s[i] == '\\' && s[i + 1];
			if (!s[i++])
				return false;
			continue;
		}
		depth += s[i] == '{' ? 1 : s[i] == '}' ? -1 : 0;
		i++;
	} while (depth);
	return !s[i];
}

/*
 * A custom call's operand_layout_constraints as XLA writes them: each
 * operand's shape in its layout (the verifier matched ranks and
 * operands; an operand it did not, as written, prints its type alone).
 */
static void print_layouts(struct fmtbuf *f, const struct ir_comp *c, const struct ir_instr *in,
			  const struct ir_attr *a)
{
	struct xrt_shape s;
	uint32_t i = 0, k, d;
	int64_t r;

	fmtbuf_puts(f, "{");
	for (k = 0; i < a->n; k++) {
		const struct xrt_shape *o = k < in->num_operands ? &c->instrs[in->operands[k]].shape :
					    NULL;

		memset(&s, 0, sizeof(s));
		s.dtype = o && !xrt_shape_is_tuple(o) ? o->dtype : XRT_F32;
		r = a->ints[i++];
		s.rank = r > 0 && r <= XRT_MAX_RANK ? (uint32_t)r : 0;
		for (d = 0; d < s.rank && i < a->n; d++, i++) {
			s.dims[d] = o && o->rank == s.rank ? o->dims[d] : 1;
			s.minor_to_major[d] = (uint8_t)a->ints[i];
		}
		fmtbuf_puts(f, k ? ", " : "");
		xrt_shape_print(f, &s, true);
	}
	fmtbuf_puts(f, "}");
}

static void print_attr(struct fmtbuf *f, const xrt_module *m, const struct ir_comp *c,
		       const struct ir_instr *in, const struct ir_attr *a)
{
	uint32_t i;

	fmtbuf_printf(f, ", %s=", ir_attr_name(a->key));
	if (a->key == IR_ATTR_BACKEND_CONFIG && ir_is_typed_ffi(in) && one_value(a->str)) {
		fmtbuf_puts(f, a->str);	/* a dictionary, as XLA prints it */
		return;
	}
	if (a->key == IR_ATTR_OPERAND_LAYOUT_CONSTRAINTS) {
		print_layouts(f, c, in, a);
		return;
	}
	switch (ir_attr_kind(a->key)) {
	case IR_INTS:
		fmtbuf_puts(f, "{");
		print_ints(f, a->ints, a->n, 1, ",");
		fmtbuf_puts(f, "}");
		break;
	case IR_INT:
		fmtbuf_printf(f, "%" PRId64, a->ints[0]);
		break;
	case IR_BOOL:
		fmtbuf_puts(f, a->ints[0] ? "true" : "false");
		break;
	case IR_WORD:
		fmtbuf_puts(f, a->str);
		break;
	case IR_STRING:
		ir_put_string(f, a->str, strlen(a->str));
		break;
	case IR_SLICE:
		fmtbuf_puts(f, "{");
		for (i = 0; i < a->n; i++)
			fmtbuf_printf(f, "%s[%" PRId64 ":%" PRId64 ":%" PRId64 "]",
				      i ? ", " : "", a->ints[3 * i], a->ints[3 * i + 1],
				      a->ints[3 * i + 2]);
		fmtbuf_puts(f, "}");
		break;
	case IR_PADDING:
		for (i = 0; i < a->n; i++)
			fmtbuf_printf(f, "%s%" PRId64 "_%" PRId64 "_%" PRId64, i ? "x" : "",
				      a->ints[3 * i], a->ints[3 * i + 1], a->ints[3 * i + 2]);
		break;
	case IR_WINDOW:
		print_window(f, a);
		break;
	case IR_GROUPS:
		print_groups(f, a);
		break;
	case IR_COMP:
		fmtbuf_printf(f, "%%%s", m->comps[a->ints[0]].name);
		break;
	case IR_COMPS:
		fmtbuf_puts(f, "{");
		for (i = 0; i < a->n; i++)
			fmtbuf_printf(f, "%s%%%s", i ? ", " : "", m->comps[a->ints[i]].name);
		fmtbuf_puts(f, "}");
		break;
	}
}

static void print_instr(struct fmtbuf *f, const xrt_module *m,
			const struct ir_comp *c, uint32_t idx)
{
	const struct ir_instr *in = &c->instrs[idx];
	uint32_t i;

	fmtbuf_printf(f, "  %s%%%s = ", idx == c->root ? "ROOT " : "", in->name);
	xrt_shape_print(f, &in->shape, true);
	fmtbuf_printf(f, " %s(", xrt_opcode_name(in->op));
	if (in->op == XRT_OP_CONSTANT)
		xrt_literal_print_values(f, in->literal);
	else if (in->op == XRT_OP_PARAMETER)
		fmtbuf_printf(f, "%" PRId64, in->parameter);
	for (i = 0; i < in->num_operands; i++)
		fmtbuf_printf(f, "%s%%%s", i ? ", " : "", c->instrs[in->operands[i]].name);
	fmtbuf_puts(f, ")");
	for (i = 0; i < in->num_attrs; i++)
		print_attr(f, m, c, in, &in->attrs[i]);
	fmtbuf_puts(f, "\n");
}

static void print_comp(struct fmtbuf *f, const xrt_module *m, uint32_t ci)
{
	const struct ir_comp *c = &m->comps[ci];
	uint32_t i, k, n = 0;

	fmtbuf_printf(f, "%s%%%s (", ci == m->entry ? "ENTRY " : "", c->name);
	/* Parameters in number order. */
	for (k = 0; n < c->num_params && k <= c->num_instrs; k++) {
		for (i = 0; i < c->num_instrs; i++) {
			const struct ir_instr *in = &c->instrs[i];

			if (in->op != XRT_OP_PARAMETER || in->parameter != (int64_t)k)
				continue;
			fmtbuf_printf(f, "%s%s: ", n++ ? ", " : "", in->name);
			xrt_shape_print(f, &in->shape, true);
		}
	}
	fmtbuf_puts(f, ") -> ");
	xrt_shape_print(f, &c->instrs[c->root].shape, true);
	fmtbuf_puts(f, " {\n");
	for (i = 0; i < c->num_instrs; i++)
		print_instr(f, m, c, i);
	fmtbuf_puts(f, "}\n");
}

static size_t print_module(const xrt_module *m, char *buf, size_t size)
{
	struct fmtbuf f;
	uint32_t i;

	fmtbuf_init(&f, buf, size);
	fmtbuf_printf(&f, "HloModule %s", m->name);
	if (m->replica_count)
		fmtbuf_printf(&f, ", replica_count=%u", m->replica_count);
	if (m->num_partitions)
		fmtbuf_printf(&f, ", num_partitions=%u", m->num_partitions);
	fmtbuf_puts(&f, "\n");
	for (i = 0; i < m->num_comps; i++) {
		fmtbuf_puts(&f, "\n");
		print_comp(&f, m, i);
	}
	return f.len;
}

xrt_status *xrt_hlo_print(const xrt_module *m, const struct xrt_allocator *alloc,
			  char **out, size_t *len)
{
	size_t n;

	if (!m || !out)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "HLO print: NULL argument");
	n = print_module(m, NULL, 0);
	*out = xrt_mem_alloc(alloc, n + 1);
	if (!*out)
		return xrt_status_oom(alloc, "HLO text");
	print_module(m, *out, n + 1);
	if (len)
		*len = n;
	return NULL;
}
