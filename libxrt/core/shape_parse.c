// SPDX-License-Identifier: MIT
/*
 * Reading shapes in HLO syntax.
 *
 *   shape := array | '(' [shape {',' shape}] ')'
 *   array := type '[' [dim {',' dim}] ']' ['{' [dim {',' dim}] '}']
 *   dim   := N | '<=' N    (a bound: HLO modules only, told to the caller)
 *
 * Blanks and comments (XLA prints a slash-star index=5 star-slash before
 * every fifth element of a long tuple) may stand between tokens, except before a layout's '{', which
 * must follow the ']' directly (in HLO text a blank and a brace after a
 * shape open a computation).  A missing layout is the default.
 */
#include <ctype.h>
#include <string.h>

#include <xrt/shape.h>

#include "core/mem.h"
#include "core/shape.h"

struct parser {
	const char *text;
	size_t len;
	size_t pos;
	const struct xrt_allocator *alloc;
	uint32_t depth;
	struct xshape_dyn *dyn;	/* NULL: "<=N" is refused */
};

static xrt_status *fail(struct parser *p, const char *what)
{
	return xrt_status_new(p->alloc, XRT_INVALID_ARGUMENT, "%s", what);
}

/* Skips blanks and whole comments; an unterminated one stays for the error. */
static void skip_blanks(struct parser *p)
{
	size_t e;

	for (;;) {
		while (p->pos < p->len && isspace((unsigned char)p->text[p->pos]))
			p->pos++;
		if (p->pos + 1 >= p->len || p->text[p->pos] != '/' ||
		    p->text[p->pos + 1] != '*')
			return;
		for (e = p->pos + 2; e + 1 < p->len; e++)
			if (p->text[e] == '*' && p->text[e + 1] == '/')
				break;
		if (e + 1 >= p->len)
			return;
		p->pos = e + 2;
	}
}

static bool peek(struct parser *p, char c)
{
	skip_blanks(p);
	return p->pos < p->len && p->text[p->pos] == c;
}

static bool accept(struct parser *p, char c)
{
	if (!peek(p, c))
		return false;
	p->pos++;
	return true;
}

static xrt_status *parse_int(struct parser *p, int64_t *out)
{
	uint64_t v = 0;

	skip_blanks(p);
	if (p->pos >= p->len || !isdigit((unsigned char)p->text[p->pos]))
		return fail(p, "expected a number");
	while (p->pos < p->len && isdigit((unsigned char)p->text[p->pos])) {
		v = v * 10 + (uint64_t)(p->text[p->pos] - '0');
		if (v > XRT_MAX_BYTES)
			return fail(p, "number too large");
		p->pos++;
	}
	*out = (int64_t)v;
	return NULL;
}

/* ":E(n)" after a layout's dimensions (the ':' taken): n, in *@bits. */
static xrt_status *parse_element_size(struct parser *p, int64_t *bits)
{
	xrt_status *st;

	if (!accept(p, 'E') || !accept(p, '('))
		return fail(p, "a layout with tiles or memory space (':' after minor_to_major) "
			    "is not supported");
	st = parse_int(p, bits);
	if (!st && !accept(p, ')'))
		st = fail(p, "expected ')'");
	if (!st && !peek(p, '}'))
		st = fail(p, "a layout with tiles or memory space after its element size is "
			  "not supported");
	return st;
}

/*
 * Parses "[a,b]" or "{a,b}" (the opening bracket already taken); a
 * layout may end with ":E(n)", whose n goes to *@bits (else 0).
 */
static xrt_status *parse_list(struct parser *p, char close, int64_t *v,
			      uint32_t *n, int64_t *bits, uint8_t *bounds)
{
	xrt_status *st;

	*n = 0;
	if (bounds)
		*bounds = 0;
	if (bits)
		*bits = 0;
	if (accept(p, close))
		return NULL;
	if (close == '}' && accept(p, ':')) {	/* a scalar's: "s4[]{:E(4)}" */
		st = parse_element_size(p, bits);
		if (!st && !accept(p, close))
			st = fail(p, "expected '}'");
		return st;
	}
	do {
		if (*n == XRT_MAX_RANK)
			return fail(p, "more than 8 dimensions");
		if (peek(p, '?'))
			return fail(p, "an unbounded dynamic dimension ('?'): every size must be "
				    "known to compile");
		if (peek(p, '<') && (!bounds || !p->dyn))
			return fail(p, bounds ? "a bounded dynamic dimension ('<=N') is read "
					"only in HLO modules" : "expected a number");
		if (peek(p, '<')) {
			p->pos++;
			if (!accept(p, '='))
				return fail(p, "expected '<=' before a dimension's bound");
			*bounds |= (uint8_t)(1u << *n);
		}
		st = parse_int(p, &v[(*n)++]);
		if (st)
			return st;
	} while (accept(p, ','));
	if (close == '}' && accept(p, ':')) {
		st = parse_element_size(p, bits);
		if (st)
			return st;
	}
	if (!accept(p, close))
		return fail(p, close == ']' ? "expected ',' or ']'" :
					      "expected ',' or '}'");
	return NULL;
}

/* Records the bounds of the array leaf just read, counted in p->dyn. */
static xrt_status *note_bounds(struct parser *p, uint8_t bounds)
{
	struct xshape_dyn *d = p->dyn;

	if (d->leaves >= XSHAPE_DYN_LEAVES)
		return fail(p, "a bounded dynamic dimension past a tuple's 64th array");
	d->mask[d->leaves] = bounds;
	d->any = true;
	return NULL;
}

static xrt_status *parse_array(struct parser *p, struct xrt_shape *out)
{
	int64_t dims[XRT_MAX_RANK], m2m[XRT_MAX_RANK], bits;
	size_t start = p->pos;
	uint8_t bounds;
	enum xrt_dtype t;
	uint32_t rank, n;
	xrt_status *st;

	while (p->pos < p->len && isalnum((unsigned char)p->text[p->pos]))
		p->pos++;
	t = xrt_dtype_from_name(p->text + start, p->pos - start);
	if (t == XRT_INVALID && p->pos - start == 5 && !memcmp(p->text + start, "token", 5)) {
		/* XLA's ordering value holds no data: the empty tuple here */
		if (!accept(p, '[') || !accept(p, ']'))
			return fail(p, "expected '[]' after token");
		out->dtype = XRT_TUPLE;
		out->allocator = p->alloc;
		return NULL;
	}
	if (t == XRT_INVALID) {
		static const char *const later[] = { "s1", "u1" };
		size_t w = p->pos - start, i;

		for (i = 0; i < sizeof(later) / sizeof(later[0]); i++)
			if (strlen(later[i]) == w && !memcmp(p->text + start, later[i], w))
				break;
		p->pos = start;
		if (i < sizeof(later) / sizeof(later[0]))
			return xrt_status_new(p->alloc, XRT_INVALID_ARGUMENT,
					      "element type '%s' (XLA's 1-bit integers) is "
					      "not supported", later[i]);
		return fail(p, "expected an element type or '('");
	}
	if (!accept(p, '['))
		return fail(p, "expected '['");
	st = parse_list(p, ']', dims, &rank, NULL, &bounds);
	if (!st && bounds)
		st = note_bounds(p, bounds);
	if (st)
		return st;
	if (p->dyn && p->dyn->leaves < UINT32_MAX)
		p->dyn->leaves++;
	st = xrt_shape_init_array(out, t, rank, dims);
	if (st)
		return st;
	/* The layout touches the ']': "f32[2] {" is a shape and a brace. */
	if (p->pos >= p->len || p->text[p->pos] != '{')
		return NULL;
	p->pos++;
	start = p->pos;
	st = parse_list(p, '}', m2m, &n, &bits, NULL);
	if (!st && n != rank) {
		p->pos = start;
		st = fail(p, "layout length differs from the rank");
	}
	/*
	 * XLA packs sub-byte elements (E(4) on s4): a fact of its buffers.
	 * Here they take a byte each with the same values; any other size
	 * would change what the bytes mean, and is refused.
	 */
	if (!st && bits && (bits != xrt_dtype_bits(t) || bits >= 8)) {
		p->pos = start;
		st = xrt_status_new(p->alloc, XRT_INVALID_ARGUMENT,
				    "a layout element size E(%lld) is supported only as the "
				    "width of a sub-byte type, not on %s",
				    (long long)bits, xrt_dtype_name(t));
	}
	if (!st)
		st = xrt_shape_set_layout(out, m2m);
	return st;
}

static xrt_status *parse_shape(struct parser *p, struct xrt_shape *out);

/* Appends a parsed element to a growing array of shapes. */
static xrt_status *push(struct parser *p, struct xrt_shape **v, uint32_t *n,
			uint32_t *cap, const struct xrt_shape *s)
{
	struct xrt_shape *nv;

	if (*n == XRT_MAX_TUPLE_SIZE)
		return fail(p, "tuple has too many elements");
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		nv = xrt_mem_alloc(p->alloc, *cap * sizeof(*nv));
		if (!nv)
			return xrt_status_oom(p->alloc, "a tuple shape");
		if (*n)
			memcpy(nv, *v, *n * sizeof(*nv));
		xrt_mem_free(p->alloc, *v);
		*v = nv;
	}
	(*v)[(*n)++] = *s;
	return NULL;
}

static xrt_status *parse_tuple(struct parser *p, struct xrt_shape *out)
{
	struct xrt_shape *elems = NULL, e;
	uint32_t n = 0, cap = 0, i;
	xrt_status *st = NULL;

	if (++p->depth > XRT_MAX_TUPLE_DEPTH)
		return fail(p, "tuples nest too deep");
	if (!accept(p, ')')) {
		do {
			st = parse_shape(p, &e);
			if (!st) {
				st = push(p, &elems, &n, &cap, &e);
				if (st)
					xrt_shape_deinit(&e);
			}
		} while (!st && accept(p, ','));
		if (!st && !accept(p, ')'))
			st = fail(p, "expected ',' or ')'");
	}
	p->depth--;
	if (!st) {
		/* Moves the parsed elements into the tuple. */
		out->dtype = XRT_TUPLE;
		out->tuple_count = n;
		out->tuple = elems;
		out->allocator = p->alloc;
		st = xrt_shape_validate(out);
		if (!st)
			return NULL;
		memset(out, 0, sizeof(*out));
	}
	for (i = 0; i < n; i++)
		xrt_shape_deinit(&elems[i]);
	xrt_mem_free(p->alloc, elems);
	return st;
}

static xrt_status *parse_shape(struct parser *p, struct xrt_shape *out)
{
	memset(out, 0, sizeof(*out));
	if (accept(p, '('))
		return parse_tuple(p, out);
	skip_blanks(p);
	return parse_array(p, out);
}

xrt_status *xrt_shape_parse_prefix(struct xrt_shape *shape,
				   const struct xrt_allocator *alloc,
				   const char *text, size_t len, size_t *end)
{
	struct parser p = { text, len, 0, alloc, 0, NULL };
	xrt_status *st = parse_shape(&p, shape);

	*end = p.pos;
	return st;
}

xrt_status *xrt_shape_parse_prefix_dyn(struct xrt_shape *shape,
				       const struct xrt_allocator *alloc, const char *text,
				       size_t len, size_t *end, struct xshape_dyn *dyn)
{
	struct parser p = { text, len, 0, alloc, 0, dyn };
	xrt_status *st;

	memset(dyn, 0, sizeof(*dyn));
	st = parse_shape(&p, shape);
	*end = p.pos;
	return st;
}

xrt_status *xrt_shape_parse(struct xrt_shape *shape,
			    const struct xrt_allocator *alloc,
			    const char *text)
{
	struct parser p = { text, 0, 0, alloc, 0, NULL };
	xrt_status *st;

	if (!shape || !text)
		return xrt_status_new(alloc, XRT_INVALID_ARGUMENT,
				      "shape parse: NULL argument");
	p.len = strlen(text);
	st = parse_shape(&p, shape);
	skip_blanks(&p);
	if (!st && p.pos != p.len) {
		xrt_shape_deinit(shape);
		st = fail(&p, "unexpected text after the shape");
	}
	if (st) {
		memset(shape, 0, sizeof(*shape));
		st = xrt_status_annotate(st, "column %zu", p.pos + 1);
	}
	return st;
}
