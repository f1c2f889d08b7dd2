// SPDX-License-Identifier: MIT
/*
 * Reading HLO text:
 *
 *   HloModule name[, attr=value]*
 *   [ENTRY] %comp [(params) -> shape] {
 *     [ROOT] %name = shape opcode(operands)[, attr=value]*
 *   }
 *
 * with // and slash-star comments anywhere.  Callees come before their
 * callers and operands before their users, as XLA prints them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "core/shape.h"
#include "hlo_parse.h"
#include "ir/ir.h"

__attribute__((format(printf, 2, 3)))
int hp_fail(struct hp *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err)
		return -1;
	va_start(ap, fmt);
	p->err = xrt_status_newv(p->a, XRT_INVALID_ARGUMENT, fmt, ap);
	va_end(ap);
	p->err_pos = p->pos;
	return -1;
}

int hp_oom(struct hp *p)
{
	if (!p->err) {
		p->err = xrt_status_oom(p->a, "HLO text");
		p->err_pos = p->pos;
	}
	return -1;
}

/* Skips blanks and comments. */
void hp_skip(struct hp *p)
{
	for (;;) {
		while (p->pos < p->len && isspace((unsigned char)p->t[p->pos]))
			p->pos++;
		if (p->pos + 1 < p->len && p->t[p->pos] == '/' && p->t[p->pos + 1] == '/') {
			while (p->pos < p->len && p->t[p->pos] != '\n')
				p->pos++;
			continue;
		}
		if (p->pos + 1 < p->len && p->t[p->pos] == '/' && p->t[p->pos + 1] == '*') {
			size_t start = p->pos;

			p->pos += 2;
			while (p->pos + 1 < p->len &&
			       !(p->t[p->pos] == '*' && p->t[p->pos + 1] == '/'))
				p->pos++;
			if (p->pos + 1 >= p->len) {
				p->pos = start;
				hp_fail(p, "unterminated comment");
				p->pos = p->len;
				return;
			}
			p->pos += 2;
			continue;
		}
		return;
	}
}

bool hp_peek(struct hp *p, char c)
{
	hp_skip(p);
	return p->pos < p->len && p->t[p->pos] == c;
}

bool hp_accept(struct hp *p, char c)
{
	if (!hp_peek(p, c))
		return false;
	p->pos++;
	return true;
}

int hp_expect(struct hp *p, char c, const char *where)
{
	if (hp_accept(p, c))
		return 0;
	return hp_fail(p, "expected '%c' %s", c, where);
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

/* A name, with or without the '%'; *s and *n get the name without it. */
int hp_name(struct hp *p, const char **s, size_t *n, const char *what)
{
	size_t start;

	hp_skip(p);
	if (p->pos < p->len && p->t[p->pos] == '%')
		p->pos++;
	start = p->pos;
	if (p->pos >= p->len || !(isalpha((unsigned char)p->t[p->pos]) ||
				  p->t[p->pos] == '_'))
		return hp_fail(p, "expected %s", what);
	while (p->pos < p->len && name_char(p->t[p->pos]))
		p->pos++;
	*s = p->t + start;
	*n = p->pos - start;
	return 0;
}

/* A bare word: letters, digits and _ - . > (dim_labels has "->"). */
int hp_word(struct hp *p, const char **s, size_t *n, const char *what)
{
	size_t start;

	hp_skip(p);
	start = p->pos;
	while (p->pos < p->len && (name_char(p->t[p->pos]) || p->t[p->pos] == '>'))
		p->pos++;
	if (p->pos == start)
		return hp_fail(p, "expected %s", what);
	*s = p->t + start;
	*n = p->pos - start;
	return 0;
}

bool hp_keyword(struct hp *p, const char *kw)
{
	size_t n = strlen(kw);

	hp_skip(p);
	if (p->pos + n > p->len || memcmp(p->t + p->pos, kw, n) ||
	    (p->pos + n < p->len && name_char(p->t[p->pos + n])))
		return false;
	p->pos += n;
	return true;
}

int hp_int(struct hp *p, int64_t *v, const char *what)
{
	char buf[32];
	size_t start, n;
	char *end;

	hp_skip(p);
	start = p->pos;
	if (p->pos < p->len && (p->t[p->pos] == '-' || p->t[p->pos] == '+'))
		p->pos++;
	while (p->pos < p->len && isdigit((unsigned char)p->t[p->pos]))
		p->pos++;
	n = p->pos - start;
	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)p->t[p->pos - 1])) {
		p->pos = start;
		return hp_fail(p, "expected %s", what);
	}
	memcpy(buf, p->t + start, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (*end || errno == ERANGE) {
		p->pos = start;
		return hp_fail(p, "%s out of range", what);
	}
	return 0;
}

char *hp_strdup(struct hp *p, const char *s, size_t n)
{
	char *d = xrt_mem_alloc(p->a, n + 1);

	if (!d) {
		if (!p->err)
			p->err = xrt_status_oom(p->a, "HLO text");
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* Grows an array of @size-byte elements to hold @need. */
int hp_grow(struct hp *p, void **v, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t n = *cap ? *cap : 8;
	void *nv;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	nv = xrt_mem_calloc(p->a, n, size);
	if (!nv)
		return hp_oom(p);
	if (*cap)
		memcpy(nv, *v, *cap * size);
	xrt_mem_free(p->a, *v);
	*v = nv;
	*cap = n;
	return 0;
}

int hp_shape(struct hp *p, struct xrt_shape *s)
{
	size_t end;
	xrt_status *st;

	hp_skip(p);
	st = xrt_shape_parse_prefix_dyn(s, p->a, p->t + p->pos, p->len - p->pos, &end,
					&p->shape_dyn);
	if (st) {
		p->pos += end;
		if (xrt_status_code(st) == XRT_RESOURCE_EXHAUSTED)
			hp_oom(p);
		else
			hp_fail(p, "%s", xrt_status_message(st));
		xrt_status_free(st);
		return -1;
	}
	p->pos += end;
	return 0;
}

/* Index of the instruction named @s in the current computation. */
static int find_instr(struct hp *p, const char *s, size_t n, uint32_t *idx)
{
	*idx = ir_names_find(&p->instr_names, s, n);
	return *idx == UINT32_MAX ? -1 : 0;
}

int hp_find_comp(struct hp *p, const char *s, size_t n, uint32_t *idx)
{
	*idx = ir_names_find(&p->comp_names, s, n);
	return *idx == UINT32_MAX ? -1 : 0;
}

static const char *instr_name(const void *ctx, uint32_t i, size_t *len)
{
	const struct hp *p = ctx;

	*len = strlen(p->cur->instrs[i].name);
	return p->cur->instrs[i].name;
}

static const char *comp_name(const void *ctx, uint32_t i, size_t *len)
{
	const struct hp *p = ctx;

	*len = strlen(p->m->comps[i].name);
	return p->m->comps[i].name;
}

/* Skips an attribute value XRT does not use: braces, a string or a word. */
/*
 * Past the string at the cursor, its escapes not read: a value skipped
 * may hold another language's (MLIR's \XX in a dictionary).
 */
static int skip_string(struct hp *p)
{
	size_t start = p->pos++;

	while (p->pos < p->len && p->t[p->pos] != '"')
		p->pos += p->t[p->pos] == '\\' && p->pos + 1 < p->len ? 2 : 1;
	if (p->pos >= p->len) {
		p->pos = start;
		return hp_fail(p, "unterminated string");
	}
	p->pos++;
	return 0;
}

int hp_skip_value(struct hp *p)
{
	const char *s;
	size_t n;
	int depth = 0;

	hp_skip(p);
	if (p->pos < p->len && p->t[p->pos] == '"')
		return skip_string(p);
	if (p->pos >= p->len || p->t[p->pos] != '{')
		return hp_word(p, &s, &n, "an attribute value");
	do {
		if (p->pos >= p->len)
			return hp_fail(p, "unbalanced braces in an attribute value");
		if (p->t[p->pos] == '"') {
			if (skip_string(p))
				return -1;
			continue;
		}
		if (p->t[p->pos] == '{')
			depth++;
		else if (p->t[p->pos] == '}')
			depth--;
		p->pos++;
	} while (depth);
	return 0;
}

/*
 * The byte escape @e (after its backslash, at most @n bytes there) stands
 * for, as XLA's printer writes them (C's: \n, \t, \r, \", \', \\, \ooo
 * octal, \xHH hex); its length in *@len; -1 if it is none of them.
 */
static int escape(const char *e, size_t n, size_t *len)
{
	static const char plain[] = "n\nt\tr\r\"\"''\\\\";
	int v = 0;
	size_t i;

	for (i = 0; n && plain[i]; i += 2) {
		if (e[0] == plain[i])
			return (*len = 1), (unsigned char)plain[i + 1];
	}
	for (i = 0; i < n && i < 3 && e[i] >= '0' && e[i] <= '7'; i++)
		v = v * 8 + (e[i] - '0');
	if (i)
		return (*len = i), v > 255 ? -1 : v;
	if (n < 3 || e[0] != 'x')
		return -1;
	for (i = 1; i < 3; i++) {
		char c = e[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return -1;
		v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return (*len = 3), v;
}

/* A quoted string, its escapes undone; NULL on error. */
char *hp_string(struct hp *p)
{
	size_t start, n = 0, len;
	char *s;
	int c;

	hp_skip(p);
	if (p->pos >= p->len || p->t[p->pos] != '"') {
		hp_fail(p, "expected a string");
		return NULL;
	}
	start = ++p->pos;
	while (p->pos < p->len && p->t[p->pos] != '"')
		p->pos += p->t[p->pos] == '\\' && p->pos + 1 < p->len ? 2 : 1;
	if (p->pos >= p->len) {
		p->pos = start - 1;
		hp_fail(p, "unterminated string");
		return NULL;
	}
	s = xrt_mem_alloc(p->a, p->pos - start + 1);
	if (!s) {
		hp_oom(p);
		return NULL;
	}
	for (len = 1; start < p->pos; start += len) {
		c = (unsigned char)p->t[start];
		len = 1;
		if (c == '\\') {
			c = escape(p->t + start + 1, p->pos - start - 1, &len);
			len++;
		}
		if (c <= 0) {
			xrt_mem_free(p->a, s);
			p->pos = start;
			hp_fail(p, c ? "a string's escape is not one of \\n \\t \\r \\\" \\' "
				"\\\\ \\ooo \\xHH" : "a string holding a NUL byte is not supported");
			return NULL;
		}
		s[n++] = (char)c;
	}
	s[n] = '\0';
	p->pos++;
	return s;
}

/* Does a shape start here: "(" or an element type name and "["? */
static bool starts_shape(struct hp *p)
{
	size_t e = p->pos;

	if (e < p->len && p->t[e] == '(')
		return true;
	while (e < p->len && isalnum((unsigned char)p->t[e]))
		e++;
	return e < p->len && p->t[e] == '[' &&
	       xrt_dtype_from_name(p->t + p->pos, e - p->pos) != XRT_INVALID;
}

/* One operand: [shape] %name. */
static int parse_operand(struct hp *p, uint32_t *idx)
{
	struct xrt_shape ignored;
	const char *s;
	size_t n, at;

	hp_skip(p);
	at = p->pos;
	/* Older XLA prints the operand's shape first: read it and drop it. */
	if (starts_shape(p)) {
		if (hp_shape(p, &ignored))
			return -1;
		xrt_shape_deinit(&ignored);
	}
	if (hp_name(p, &s, &n, "an operand name"))
		return -1;
	if (find_instr(p, s, n, idx)) {
		p->pos = at;
		return hp_fail(p, "unknown operand '%.*s'", (int)n, s);
	}
	/* the instruction is named before its operands are read: not itself */
	if (*idx == p->cur->num_instrs - 1) {
		p->pos = at;
		return hp_fail(p, "instruction '%.*s' uses itself", (int)n, s);
	}
	return 0;
}

static int parse_operands(struct hp *p, struct ir_instr *in)
{
	uint32_t cap = 0, idx;

	if (hp_expect(p, '(', "before the operands"))
		return -1;
	if (in->op == XRT_OP_CONSTANT)
		return hlo_parse_literal(p, in) || hp_expect(p, ')', "after the constant");
	if (in->op == XRT_OP_PARAMETER) {
		size_t at = (hp_skip(p), p->pos);

		if (hp_int(p, &in->parameter, "a parameter number"))
			return -1;
		if (in->parameter < 0)
			return (p->pos = at), hp_fail(p, "parameter number %lld is negative",
				       (long long)in->parameter);
		return hp_expect(p, ')', "after the parameter number");
	}
	if (hp_accept(p, ')'))
		return 0;
	do {
		if (parse_operand(p, &idx) ||
		    hp_grow(p, (void **)&in->operands, &cap, in->num_operands + 1,
			    sizeof(*in->operands)))
			return -1;
		in->operands[in->num_operands++] = idx;
	} while (hp_accept(p, ','));
	return hp_expect(p, ')', "after the operands");
}

/*
 * Opcodes that compute what one of ours does, read as it:
 * - a fusion is a call whose callee XLA chose to emit as one kernel
 *   (calls= names the callee);
 * - opt-barrier keeps XLA's passes from moving work across it and
 *   domain marks where sharding changes: both give their operand back;
 * - a token (XLA's ordering value) holds no data and reads as the empty
 *   tuple: after-all joins tokens into one, add-dependency gives its
 *   first operand back (tokens_only() drops the token operands).
 */
static enum xrt_opcode read_as(const char *s, size_t n)
{
	static const struct { const char *name; enum xrt_opcode op; } as[] = {
		{ "fusion", XRT_OP_CALL },
		{ "opt-barrier", XRT_OP_COPY },
		{ "domain", XRT_OP_COPY },
		{ "after-all", XRT_OP_TUPLE },
		{ "add-dependency", XRT_OP_COPY },
	};
	size_t i;

	for (i = 0; i < sizeof(as) / sizeof(as[0]); i++)
		if (strlen(as[i].name) == n && !memcmp(s, as[i].name, n))
			return as[i].op;
	if (hlo_async_op(s, n) != XRT_OP_COUNT)
		return hlo_async_op(s, n);	/* hlo_async.c */
	return xrt_opcode_from_name(s, n);
}

/*
 * XLA's optimized HLO writes a bitcast that only changes the element
 * type (same size, dimensions and layout) where it would write
 * bitcast-convert: the same bytes, so it reads as one, which runs
 * elementwise everywhere (a sort comparator, a fused loop).
 */
static void type_only_bitcast(struct hp *p, struct ir_instr *in)
{
	const struct xrt_shape *o, *r = &in->shape;

	if (in->op != XRT_OP_BITCAST || in->num_operands != 1)
		return;
	o = &p->cur->instrs[in->operands[0]].shape;
	if (xrt_shape_is_tuple(o) || xrt_shape_is_tuple(r) || o->dtype == r->dtype ||
	    xrt_dtype_size(o->dtype) != xrt_dtype_size(r->dtype) || o->rank != r->rank ||
	    memcmp(o->dims, r->dims, r->rank * sizeof(r->dims[0])) ||
	    memcmp(o->minor_to_major, r->minor_to_major, r->rank))
		return;
	in->op = XRT_OP_BITCAST_CONVERT;
}

static bool is_token(const struct xrt_shape *s)
{
	return xrt_shape_is_tuple(s) && !s->tuple_count;
}

/* after-all(tokens...) and add-dependency(x, token) lose their token operands. */
static int tokens_only(struct hp *p, struct ir_instr *in, const char *s, size_t n)
{
	bool all = n == 9 && !memcmp(s, "after-all", 9);
	uint32_t k, first = all ? 0 : 1;

	if (!all && !(n == 14 && !memcmp(s, "add-dependency", 14)))
		return 0;
	if (!all && in->num_operands != 2)
		return hp_fail(p, "add-dependency takes a value and a token");
	for (k = first; k < in->num_operands; k++) {
		if (!is_token(&p->cur->instrs[in->operands[k]].shape))
			return hp_fail(p, "%s: operand %u is not a token", in->name, k);
	}
	in->num_operands = first;
	return 0;
}

/* XLA opcodes not read yet, and why: better than "unknown". */
static const char *not_yet(const char *s, size_t n)
{
	static const struct { const char *op, *why; } ops[] = {
		{ "ragged-all-to-all", "XLA's CPU backend does not run it either (\"not supported "
		  "by XLA:CPU ThunkEmitter\", jaxlib 0.10.2): a GPU collective, read with "
		  "replicas on GPUs" },
		{ "infeed", "a program takes parameters and gives results: no host queues" },
		{ "outfeed", "a program takes parameters and gives results: no host queues" },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i].op) == n && !memcmp(s, ops[i].op, n))
			return ops[i].why;
	return NULL;
}

/*
 * Opcodes rewritten once read, with their attributes (hlo_fft.c,
 * hlo_batchnorm.c, hlo_linalg.c, hlo_stochastic.c, hlo_ragged.c, hlo_dynamic.c,
 * hlo_rngstate.c).
 */
static const char *pseudo_op(const char *s, size_t n)
{
	static const char *const ops[] = { "fft", "batch-norm-training", "batch-norm-inference",
					   "batch-norm-grad", "cholesky", "triangular-solve",
					   "stochastic-convert", "ragged-dot", "get-dimension-size",
					   "set-dimension-size", "dynamic-reshape", "send",
					   "send-done", "recv", "recv-done",
					   "rng-get-and-update-state" };
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i]) == n && !memcmp(s, ops[i], n))
			return ops[i];
	return NULL;
}

/* "tuple(" straight after '=': XLA's text may leave a tuple's shape out. */
static bool shapeless_tuple(struct hp *p)
{
	hp_skip(p);
	return p->pos + 6 <= p->len && !memcmp(p->t + p->pos, "tuple(", 6);
}

/* The shape of a tuple written without one: its operands' shapes. */
static int infer_tuple(struct hp *p, struct ir_instr *in)
{
	struct xrt_shape *elems = NULL;
	xrt_status *st;
	uint32_t k;

	if (in->num_operands) {
		elems = xrt_mem_calloc(p->a, in->num_operands, sizeof(*elems));
		if (!elems)
			return hp_oom(p);
	}
	for (k = 0; k < in->num_operands; k++)
		elems[k] = p->cur->instrs[in->operands[k]].shape;	/* copied below */
	st = xrt_shape_init_tuple(&in->shape, p->a, elems, in->num_operands);
	xrt_mem_free(p->a, elems);
	if (st && xrt_status_code(st) == XRT_RESOURCE_EXHAUSTED) {
		xrt_status_free(st);
		return hp_oom(p);
	}
	if (st) {
		hp_fail(p, "%s: %s", in->name, xrt_status_message(st));
		xrt_status_free(st);
		return -1;
	}
	return 0;
}

/* The rewrites of the instruction just read, opcode @s. */
static int rewrite(struct hp *p, const char *s, size_t n)
{
	if (p->pseudo && !strcmp(p->pseudo, "fft"))
		return hlo_unfft(p);
	if (p->pseudo && !strcmp(p->pseudo, "stochastic-convert"))
		return hlo_unstochastic(p);
	if (p->pseudo && !strcmp(p->pseudo, "ragged-dot"))
		return hlo_unragged(p);
	if (p->pseudo && (!strncmp(p->pseudo, "send", 4) || !strncmp(p->pseudo, "recv", 4)))
		return hlo_unsendrecv(p);
	if (p->pseudo && !strcmp(p->pseudo, "rng-get-and-update-state"))
		return hlo_unrngstate(p);
	if (p->pseudo)
		return strncmp(p->pseudo, "batch-norm-", 11) ? hlo_unlinalg(p) : hlo_unbatchnorm(p);
	return hlo_unasync(p, s, n) || hlo_uncustom(p) || hlo_unbatch(p) || hlo_unmix(p) ||
	       hlo_unregroup(p);
}

static int parse_instruction(struct hp *p, bool *root)
{
	bool infer;
	struct ir_instr *in;
	const char *s;
	size_t n, at;
	uint32_t dup;

	*root = hp_keyword(p, "ROOT");
	if (hp_grow(p, (void **)&p->cur->instrs, &p->instr_cap,
		    p->cur->num_instrs + 1, sizeof(*in)))
		return -1;
	in = &p->cur->instrs[p->cur->num_instrs];
	memset(in, 0, sizeof(*in));
	at = (hp_skip(p), p->pos);
	if (hp_name(p, &s, &n, "an instruction name"))
		return -1;
	if (!find_instr(p, s, n, &dup)) {
		p->pos = at;
		return hp_fail(p, "instruction '%.*s' defined twice", (int)n, s);
	}
	in->name = hp_strdup(p, s, n);
	/* Counted from here: a failure below releases it with the rest. */
	p->cur->num_instrs++;
	if (in->name && ir_names_add(&p->instr_names, s, n, p->cur->num_instrs - 1))
		return hp_oom(p);
	if (!in->name || hp_expect(p, '=', "after the instruction name"))
		return -1;
	infer = shapeless_tuple(p);
	if (!infer && hp_shape(p, &in->shape))
		return -1;
	p->decl = p->shape_dyn;
	if (infer)
		memset(&p->decl, 0, sizeof(p->decl));
	at = (hp_skip(p), p->pos);
	if (hp_word(p, &s, &n, "an opcode"))
		return -1;
	/* until rewritten it is a copy: its attributes parse, its operands count */
	p->pseudo = pseudo_op(s, n);
	p->inferred = -1;
	in->op = p->pseudo ? XRT_OP_COPY : read_as(s, n);
	if (in->op == XRT_OP_COUNT) {
		p->pos = at;
		if (not_yet(s, n))
			return hp_fail(p, "XLA's %.*s is not supported: %s", (int)n, s,
				       not_yet(s, n));
		return hp_fail(p, "unknown opcode '%.*s'", (int)n, s);
	}
	if (parse_operands(p, in) || tokens_only(p, in, s, n) || (infer && infer_tuple(p, in)))
		return -1;
	type_only_bitcast(p, in);
	while (hp_accept(p, ',')) {
		if (hlo_parse_attr(p, in))
			return -1;
	}
	if (in->op == XRT_OP_TOPK && !ir_instr_attr(in, IR_ATTR_LARGEST)) {
		/* XLA's default, kept so that every topk prints the same way */
		struct ir_attr yes = { .key = IR_ATTR_LARGEST, .n = 1 };

		yes.ints = xrt_mem_calloc(p->a, 1, sizeof(*yes.ints));
		if (!yes.ints)
			return hp_oom(p);
		yes.ints[0] = 1;
		if (hp_put_attr(p, in, &yes))
			return -1;
	}
	return hlo_dynamic(p, s, n) || rewrite(p, s, n) || hlo_dynamic_done(p);
}

/* Skips a computation's signature: (params) -> shape. */
static int skip_signature(struct hp *p)
{
	struct xrt_shape s;
	int depth = 0;
	size_t open;

	if (!hp_peek(p, '('))
		return 0;
	open = p->pos;
	do {
		if (p->pos >= p->len)
			return (p->pos = open), hp_fail(p, "unbalanced parentheses in a signature");
		if (p->t[p->pos] == '(')
			depth++;
		else if (p->t[p->pos] == ')')
			depth--;
		p->pos++;
	} while (depth);
	hp_skip(p);
	if (p->pos + 1 >= p->len || p->t[p->pos] != '-' || p->t[p->pos + 1] != '>')
		return hp_fail(p, "expected '->' after the parameters");
	p->pos += 2;
	if (hp_shape(p, &s))
		return -1;
	xrt_shape_deinit(&s);
	return 0;
}

static int parse_computation(struct hp *p, uint32_t *comp_cap)
{
	size_t comp_at = (hp_skip(p), p->pos);
	bool entry = hp_keyword(p, "ENTRY"), root, have_root = false;
	struct ir_comp *c;
	const char *s;
	size_t n, at;
	uint32_t dup, i;

	if (hp_grow(p, (void **)&p->m->comps, comp_cap, p->m->num_comps + 1,
		    sizeof(*c)))
		return -1;
	c = &p->m->comps[p->m->num_comps];
	memset(c, 0, sizeof(*c));
	at = (hp_skip(p), p->pos);
	if (hp_name(p, &s, &n, "a computation name"))
		return -1;
	if (!hp_find_comp(p, s, n, &dup)) {
		p->pos = at;
		return hp_fail(p, "computation '%.*s' defined twice", (int)n, s);
	}
	c->name = hp_strdup(p, s, n);
	p->m->num_comps++;
	if (c->name && ir_names_add(&p->comp_names, s, n, p->m->num_comps - 1))
		return hp_oom(p);
	if (!c->name || skip_signature(p) ||
	    hp_expect(p, '{', "to open the computation"))
		return -1;
	p->cur = c;
	p->instr_cap = 0;
	p->in_entry = entry;
	p->num_chans = 0;
	if (p->dyn)
		memset(p->dyn, 0, p->dyn_cap * sizeof(*p->dyn));
	ir_names_clear(&p->instr_names);
	while (!hp_accept(p, '}')) {
		size_t instr_at = p->pos;

		if (p->pos >= p->len)
			return hp_fail(p, "expected '}' to close computation '%s'", c->name);
		if (parse_instruction(p, &root))
			return -1;
		if (root) {
			if (have_root) {
				p->pos = instr_at;
				return hp_fail(p, "a second ROOT in computation '%s'", c->name);
			}
			have_root = true;
			c->root = c->num_instrs - 1;
		}
	}
	if (!c->num_instrs)
		return hp_fail(p, "computation '%s' is empty", c->name);
	if (!have_root)	/* XLA's rule: the last instruction */
		c->root = c->num_instrs - 1;
	if (hlo_dynamic_root(p))
		return -1;
	for (i = 0; i < c->num_instrs; i++) {
		if (c->instrs[i].op == XRT_OP_PARAMETER)
			c->num_params++;
	}
	if (entry) {
		if (p->have_entry) {
			p->pos = comp_at;
			return hp_fail(p, "a second ENTRY computation");
		}
		p->have_entry = true;
		p->m->entry = p->m->num_comps - 1;
	}
	return 0;
}

/* A module attribute: the counts are kept, the rest cannot change a value. */
static int parse_module_attr(struct hp *p)
{
	const char *s;
	size_t n, at;
	int64_t v;
	uint32_t *count = NULL;

	if (hp_word(p, &s, &n, "a module attribute") ||
	    hp_expect(p, '=', "after the attribute name"))
		return -1;
	if (n == 13 && !memcmp(s, "replica_count", n))
		count = &p->m->replica_count;
	else if (n == 14 && !memcmp(s, "num_partitions", n))
		count = &p->m->num_partitions;
	if (!count)
		return hp_skip_value(p);
	at = (hp_skip(p), p->pos);
	if (hp_int(p, &v, "a count"))
		return -1;
	if (v < 1 || v > IR_MAX_REPLICAS)
		return (p->pos = at), hp_fail(p, "%.*s=%lld: not in 1..%d", (int)n, s,
					      (long long)v, IR_MAX_REPLICAS);
	*count = (uint32_t)v;
	return 0;
}

/*
 * "HloModule name[:][, attr=value]*", which XLA's parser does not
 * require: a module without it is named after nothing.
 */
static int parse_header(struct hp *p)
{
	const char *s = "module";
	size_t n = 6;

	if (hp_keyword(p, "HloModule")) {
		if (hp_name(p, &s, &n, "a module name"))
			return -1;
		hp_accept(p, ':');
	}
	p->m->name = hp_strdup(p, s, n);
	if (!p->m->name)
		return -1;
	while (hp_accept(p, ',')) {
		if (parse_module_attr(p))
			return -1;
	}
	return 0;
}

/*
 * The stack frame index newer XLA prints after the header: FileNames,
 * FunctionNames, FileLocations and StackFrames, each a list of
 * "number value" lines.  Source positions only: skipped.
 */
static int skip_stack_frames(struct hp *p)
{
	static const char *const tables[] = { "FileNames", "FunctionNames",
					      "FileLocations", "StackFrames" };
	const char *table = "";
	int64_t id;
	size_t i;

	while (table) {
		table = NULL;
		for (i = 0; i < sizeof(tables) / sizeof(tables[0]) && !table; i++)
			if (hp_keyword(p, tables[i]))
				table = tables[i];
		if (!table)
			return 0;
		while (hp_skip(p), p->pos < p->len && isdigit((unsigned char)p->t[p->pos])) {
			if (hp_int(p, &id, "an index"))
				return -1;
			if (!hp_peek(p, '"') && !hp_peek(p, '{'))
				return hp_fail(p, "expected a string or '{' after index %lld of %s",
					       (long long)id, table);
			if (hp_skip_value(p))
				return -1;
		}
	}
	return 0;
}

static int parse_module(struct hp *p)
{
	uint32_t comp_cap = 0;

	if (parse_header(p) || skip_stack_frames(p))
		return -1;
	while (hp_skip(p), p->pos < p->len && !p->err) {
		if (parse_computation(p, &comp_cap))
			return -1;
	}
	if (p->err)
		return -1;
	if (!p->m->num_comps)
		return hp_fail(p, "the module has no computations");
	if (!p->have_entry)	/* XLA's rule: the last computation */
		p->m->entry = p->m->num_comps - 1;
	if (p->dyn_param_comp != UINT32_MAX && p->dyn_param_comp != p->m->entry)
		return hp_fail(p, "computation '%s' has a parameter with a dynamic dimension: "
			       "only the entry's may have one (its argument's size is its bound)",
			       p->m->comps[p->dyn_param_comp].name);
	if (p->loops && p->m->entry < p->loops_cap && p->loops[p->m->entry].elems)
		return hp_fail(p, "the entry computation '%s' is not written ENTRY and has a tuple "
			       "parameter with dynamic dimensions", p->m->comps[p->m->entry].name);
	if (p->dyn_root_comp != UINT32_MAX && p->dyn_root_comp != p->m->entry)
		return hp_fail(p, "computation '%s' returns a value with a dynamic dimension: "
			       "only the entry may (its result comes at its bound)",
			       p->m->comps[p->dyn_root_comp].name);
	return 0;
}

xrt_status *xrt_hlo_parse(const struct xrt_allocator *alloc, const char *text,
			  size_t len, xrt_module **out)
{
	struct hp p;
	size_t i, line = 1, col = 1;
	int rc;

	if (!out || (!text && len))
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "HLO parse: NULL argument");
	*out = NULL;
	memset(&p, 0, sizeof(p));
	p.t = text;
	p.len = len;
	p.a = alloc;
	p.m = xrt_mem_alloc(alloc, sizeof(*p.m));
	if (!p.m)
		return xrt_status_oom(alloc, "a module");
	memset(p.m, 0, sizeof(*p.m));
	p.m->alloc = alloc;
	p.dyn_param_comp = UINT32_MAX;
	p.dyn_root_comp = UINT32_MAX;
	ir_names_init(&p.instr_names, alloc, instr_name, &p);
	ir_names_init(&p.comp_names, alloc, comp_name, &p);
	rc = parse_module(&p);
	xrt_mem_free(alloc, p.dyn);
	xrt_mem_free(alloc, p.loops);
	xrt_mem_free(alloc, p.outs);
	xrt_mem_free(alloc, p.chans);
	ir_names_deinit(&p.instr_names);
	ir_names_deinit(&p.comp_names);
	if (!rc) {
		/* the text parsed; its parameters are checked as a whole */
		for (i = 0; i < p.m->num_comps && !p.err; i++)
			p.err = ir_comp_check_params(alloc, &p.m->comps[i]);
		if (!p.err) {
			*out = p.m;
			return NULL;
		}
		xrt_module_destroy(p.m);
		return xrt_status_annotate(p.err, "HLO parse");
	}
	xrt_module_destroy(p.m);
	if (xrt_status_code(p.err) == XRT_RESOURCE_EXHAUSTED)
		return p.err;
	for (i = 0; i < p.err_pos && i < len; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	return xrt_status_annotate(p.err, "line %zu, column %zu", line, col);
}
