// SPDX-License-Identifier: MIT
/*
 * A custom call's attributes as XLA prints them for API_VERSION_TYPED_FFI:
 * backend_config holds an MLIR attribute dictionary,
 *
 *   {eps = 9.99999974E-6 : f32, n = 3 : i64, name = "abc", flag = true,
 *    sizes = dense<[1, 2, 3]> : tensor<3xi32>, d = {a = 1 : i32}}
 *
 * read into a struct xrt_ffi_attrs: scalars (a number with its type, i64
 * and f64 when none is given; true and false), strings (with MLIR's \XX
 * hex escapes), 1-D dense arrays (a list, a splat, or the hex blob MLIR
 * prints for long ones), array<T: ...> and nested dictionaries.  Floats
 * may be written as their bits in hex (0x7FC00000 : f32), as MLIR does
 * for NaN and infinities.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"

#define MAX_DEPTH 16
/*
 * Attributes configure a call; they are not its data.  A bound on each
 * array keeps a short text ("dense<0> : tensor<4000000000xi64>") from
 * asking for gigabytes.
 */
#define MAX_ELEMS (UINT64_C(1) << 20)

struct fp {
	const struct xrt_allocator *a;
	const char *s;
	size_t n, pos;
	uint32_t depth;
	xrt_status *err;
};

static int fail(struct fp *p, const char *what)
{
	if (!p->err)
		p->err = xrt_status_new(p->a, XRT_INVALID_ARGUMENT,
					"attribute dictionary, byte %zu: %s", p->pos, what);
	return -1;
}

static int oom(struct fp *p)
{
	if (!p->err)
		p->err = xrt_status_oom(p->a, "an attribute dictionary");
	return -1;
}

/* Whether @c is one of @set (never the NUL that ends it). */
static bool in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

static void skip(struct fp *p)
{
	while (p->pos < p->n && in_set(p->s[p->pos], " \t\r\n"))
		p->pos++;
}

static bool accept(struct fp *p, char c)
{
	skip(p);
	if (p->pos < p->n && p->s[p->pos] == c) {
		p->pos++;
		return true;
	}
	return false;
}

static int expect(struct fp *p, char c, const char *what)
{
	return accept(p, c) ? 0 : fail(p, what);
}

static bool is_word(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && ((c >= '0' && c <= '9') || c == '$' || c == '.' || c == '-'));
}

/* A bare word at the cursor (a name, a keyword, a type); its length. */
static size_t word(struct fp *p, const char **w)
{
	size_t at;

	skip(p);
	at = p->pos;
	while (p->pos < p->n && is_word(p->s[p->pos], p->pos == at))
		p->pos++;
	*w = p->s + at;
	return p->pos - at;
}

static bool keyword(struct fp *p, const char *k)
{
	size_t at = (skip(p), p->pos), len = strlen(k);
	const char *w;

	if (word(p, &w) == len && !memcmp(w, k, len))
		return true;
	p->pos = at;
	return false;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A quoted string, its escapes undone, into a new NUL-terminated copy. */
static int string(struct fp *p, char **out, size_t *len)
{
	size_t at, k = 0;
	char *b;

	if (!accept(p, '"'))
		return fail(p, "expected a string");
	at = p->pos;
	while (p->pos < p->n && p->s[p->pos] != '"')
		p->pos += p->s[p->pos] == '\\' ? 2 : 1;
	if (p->pos >= p->n)
		return fail(p, "a string is not closed");
	b = xrt_mem_alloc(p->a, p->pos - at + 1);
	if (!b)
		return oom(p);
	for (; at < p->pos; at++) {
		int hi, lo;

		if (p->s[at] != '\\') {
			b[k++] = p->s[at];
			continue;
		}
		if (p->s[at + 1] == '\\' || p->s[at + 1] == '"') {
			b[k++] = p->s[++at];
			continue;
		}
		hi = hexval(p->s[at + 1]);
		lo = at + 2 < p->pos ? hexval(p->s[at + 2]) : -1;
		if (hi < 0 || lo < 0) {
			xrt_mem_free(p->a, b);
			p->pos = at;
			return fail(p, "a string's escape is not \\\\, \\\" or two hex digits");
		}
		b[k++] = (char)(hi * 16 + lo);
		at += 2;
	}
	b[k] = '\0';
	p->pos++;
	*out = b;
	*len = k;
	return 0;
}

/* A number as written: an integer (decimal or hex) or a decimal float. */
struct num {
	bool is_float, is_hex, neg;
	uint64_t mag;	/* integers: |value|; hex: the bits */
	double f;
};

static int number(struct fp *p, struct num *v)
{
	char buf[80];
	size_t at = (skip(p), p->pos), k;
	char *end;

	while (p->pos < p->n && in_set(p->s[p->pos], "0123456789abcdefABCDEFxX+-."))
		p->pos++;
	k = p->pos - at;
	if (!k || k >= sizeof(buf)) {
		p->pos = at;
		return fail(p, "expected a number");
	}
	memcpy(buf, p->s + at, k);
	buf[k] = '\0';
	memset(v, 0, sizeof(*v));
	v->neg = buf[0] == '-';
	v->is_hex = k > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
	v->is_float = !v->is_hex && strpbrk(buf, ".eE");
	errno = 0;
	if (v->is_float)
		v->f = strtod(buf, &end);
	else
		v->mag = strtoull(buf + v->neg, &end, v->is_hex ? 16 : 10);
	if (*end || errno == ERANGE || buf[v->neg] < '0' || buf[v->neg] > '9' ||
	    (v->is_hex && k > 18)) {
		p->pos = at;
		return fail(p, "a malformed or out-of-range number");
	}
	return 0;
}

/* An element type: i1, iN, siN, uiN, f16, bf16, f32, f64. */
static int type(struct fp *p, enum xrt_dtype *t)
{
	static const struct { const char *name; enum xrt_dtype t; } types[] = {
		{ "i1", XRT_PRED }, { "i8", XRT_S8 }, { "i16", XRT_S16 }, { "i32", XRT_S32 },
		{ "i64", XRT_S64 }, { "si8", XRT_S8 }, { "si16", XRT_S16 }, { "si32", XRT_S32 },
		{ "si64", XRT_S64 }, { "ui8", XRT_U8 }, { "ui16", XRT_U16 }, { "ui32", XRT_U32 },
		{ "ui64", XRT_U64 }, { "f16", XRT_F16 }, { "bf16", XRT_BF16 }, { "f32", XRT_F32 },
		{ "f64", XRT_F64 },
	};
	size_t at = (skip(p), p->pos), i, len;
	const char *w;

	len = word(p, &w);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (strlen(types[i].name) == len && !memcmp(types[i].name, w, len)) {
			*t = types[i].t;
			return 0;
		}
	}
	p->pos = at;
	return fail(p, "expected an element type (i1, i8 to i64, ui8 to ui64, f16, bf16, "
		    "f32 or f64)");
}

static bool is_unsigned(enum xrt_dtype t)
{
	return t == XRT_U8 || t == XRT_U16 || t == XRT_U32 || t == XRT_U64;
}

static bool is_float(enum xrt_dtype t)
{
	return t == XRT_F16 || t == XRT_BF16 || t == XRT_F32 || t == XRT_F64;
}

/* @v as a float of @t, rounded to it (hex: its bits). */
static double float_of(const struct num *v, enum xrt_dtype t)
{
	double x = v->is_float ? v->f : v->neg ? -(double)v->mag : (double)v->mag;
	union { uint32_t u; float f; } b32;
	union { uint64_t u; double f; } b64;

	if (v->is_hex && t == XRT_F64)
		return (b64.u = v->mag, b64.f);
	if (v->is_hex && t == XRT_F32)
		return (b32.u = (uint32_t)v->mag, b32.f);
	if (v->is_hex)
		return t == XRT_F16 ? xrt_f16_to_f32((uint16_t)v->mag) :
				      xrt_bf16_to_f32((uint16_t)v->mag);
	if (t == XRT_F16)
		return xrt_f16_to_f32(xrt_f16_from_f64(x));
	if (t == XRT_BF16)
		return xrt_bf16_to_f32(xrt_bf16_from_f64(x));
	return t == XRT_F32 ? (double)(float)x : x;
}

/* @v checked against @t and stored as one element of @t at @dst. */
static int element(struct fp *p, const struct num *v, enum xrt_dtype t, void *dst)
{
	unsigned int bits = (unsigned int)xrt_dtype_size(t) * 8;
	uint64_t u;

	if (is_float(t)) {
		double f = float_of(v, t);
		float f32 = (float)f;
		uint16_t h;

		if (v->is_hex && v->mag >> (bits - 1) >> 1)
			return fail(p, "a float's hex bits are wider than its type");
		if (t == XRT_F64) {
			memcpy(dst, &f, 8);
		} else if (t == XRT_F32) {
			memcpy(dst, &f32, 4);
		} else {
			h = t == XRT_F16 ? xrt_f16_from_f64(f) : xrt_bf16_from_f64(f);
			memcpy(dst, &h, 2);
		}
		return 0;
	}
	if (v->is_float)
		return fail(p, "a float where the type is an integer");
	if (t == XRT_PRED) {
		if (v->neg || v->mag > 1)
			return fail(p, "an i1 is 0 or 1");
		*(uint8_t *)dst = (uint8_t)v->mag;
		return 0;
	}
	if (is_unsigned(t) ? v->neg && v->mag :
	    v->mag > (UINT64_C(1) << (bits - 1)) - !v->neg)
		return fail(p, "an integer out of its type's range");
	if (is_unsigned(t) && bits < 64 && v->mag >> bits)
		return fail(p, "an integer out of its type's range");
	u = v->neg ? (uint64_t)0 - v->mag : v->mag;
	memcpy(dst, &u, bits / 8);	/* little-endian */
	return 0;
}

/* The value of one element of @t at @src, as a scalar attribute holds it. */
static void scalar_of(struct xrt_ffi_attr *at, const void *src)
{
	uint64_t u = 0;
	size_t size = xrt_dtype_size(at->dtype);

	if (at->dtype == XRT_F64) {
		memcpy(&at->v.f, src, 8);
	} else if (at->dtype == XRT_F32) {
		float f;

		memcpy(&f, src, 4);
		at->v.f = f;
	} else if (at->dtype == XRT_F16 || at->dtype == XRT_BF16) {
		uint16_t h;

		memcpy(&h, src, 2);
		at->v.f = at->dtype == XRT_F16 ? xrt_f16_to_f32(h) : xrt_bf16_to_f32(h);
	} else {
		memcpy(&u, src, size);
		if (!is_unsigned(at->dtype) && size < 8 && (u >> (size * 8 - 1)) & 1)
			u |= ~UINT64_C(0) << (size * 8);	/* sign-extend */
		at->v.u = u;
	}
}

static int scalar(struct fp *p, struct xrt_ffi_attr *at)
{
	uint8_t b[8];
	struct num v;

	if (number(p, &v))
		return -1;
	at->type = XRT_FFI_SCALAR;
	at->dtype = v.is_float ? XRT_F64 : XRT_S64;
	if (accept(p, ':') && type(p, &at->dtype))
		return -1;
	if (element(p, &v, at->dtype, b))
		return -1;
	scalar_of(at, b);
	return 0;
}

static int alloc_data(struct fp *p, struct xrt_ffi_attr *at, uint64_t count)
{
	void *d;

	if (count > MAX_ELEMS)
		return fail(p, "an array attribute of more than 2^20 elements");
	d = xrt_mem_calloc(p->a, (size_t)count + 1, xrt_dtype_size(at->dtype));
	if (!d)
		return oom(p);
	at->data = d;
	at->count = count;
	return 0;
}

/* Elements separated by commas until @close, each of at->dtype. */
struct list {
	struct num *v;
	uint64_t n, cap;
};

static int list_add(struct fp *p, struct list *l, const struct num *v)
{
	struct num *nv;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		if (l->cap > MAX_ELEMS)
			return fail(p, "an array attribute of more than 2^20 elements");
		nv = xrt_mem_calloc(p->a, (size_t)l->cap, sizeof(*nv));
		if (!nv)
			return oom(p);
		if (l->n)
			memcpy(nv, l->v, (size_t)l->n * sizeof(*nv));
		xrt_mem_free(p->a, l->v);
		l->v = nv;
	}
	l->v[l->n++] = *v;
	return 0;
}

/* One element: a number, or true/false (pred). */
static int list_elem(struct fp *p, struct num *v)
{
	memset(v, 0, sizeof(*v));
	if (keyword(p, "true"))
		return (v->mag = 1), 0;
	if (keyword(p, "false"))
		return 0;
	return number(p, v);
}

static int read_list(struct fp *p, struct list *l, char close)
{
	struct num v;

	if (accept(p, close))
		return 0;
	do {
		if (list_elem(p, &v) || list_add(p, l, &v))
			return -1;
	} while (accept(p, ','));
	return expect(p, close, "expected ',' or the end of the list");
}

static int fill(struct fp *p, struct xrt_ffi_attr *at, const struct list *l, uint64_t count)
{
	size_t size = xrt_dtype_size(at->dtype);
	uint64_t i;

	if (alloc_data(p, at, count))
		return -1;
	for (i = 0; i < count; i++)
		if (element(p, &l->v[l->n == 1 ? 0 : i], at->dtype, (uint8_t *)at->data + i * size))
			return -1;
	return 0;
}

/* dense<"0x..."> : the elements' little-endian bytes, in hex. */
static int hex_blob(struct fp *p, struct xrt_ffi_attr *at, const char *s, size_t len,
		    uint64_t count)
{
	size_t size = xrt_dtype_size(at->dtype), i;
	uint8_t *d;

	if (len < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (len - 2) % 2 ||
	    (len - 2) / 2 != count * size)
		return fail(p, "a dense hex blob does not hold its tensor's elements");
	if (alloc_data(p, at, count))
		return -1;
	d = (uint8_t *)at->data;
	for (i = 0; i < count * size; i++) {
		int hi = hexval(s[2 + 2 * i]), lo = hexval(s[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			return fail(p, "a dense hex blob has a character that is not hex");
		d[i] = (uint8_t)(hi * 16 + lo);
	}
	return 0;
}

/* tensor<Nxtype> or tensor<type> (one element); the count. */
static int tensor_type(struct fp *p, struct xrt_ffi_attr *at, uint64_t *count)
{
	size_t at0;

	if (!keyword(p, "tensor") || !accept(p, '<'))
		return fail(p, "expected tensor<...> after a dense array");
	*count = 1;
	skip(p);
	at0 = p->pos;
	if (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
		while (p->pos < p->n && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
			p->pos++;
		if (p->pos - at0 > 10 || p->pos >= p->n || p->s[p->pos] != 'x')
			return fail(p, "only 1-D tensors of fewer than 2^32 elements are attributes");
		*count = strtoull(p->s + at0, NULL, 10);
		p->pos++;
	}
	if (type(p, &at->dtype))
		return -1;
	return expect(p, '>', "expected '>' to close the tensor type");
}

static int dense(struct fp *p, struct xrt_ffi_attr *at)
{
	struct list l = { NULL, 0, 0 };
	char *blob = NULL;
	size_t blob_len = 0;
	uint64_t count;
	int r = -1;

	at->type = XRT_FFI_ARRAY;
	if (expect(p, '<', "expected '<' after dense"))
		return -1;
	skip(p);
	if (p->pos < p->n && p->s[p->pos] == '"') {
		if (string(p, &blob, &blob_len))
			return -1;
	} else if (accept(p, '[')) {
		if (read_list(p, &l, ']'))
			goto out;
	} else if (p->pos < p->n && p->s[p->pos] != '>') {
		struct num v;

		if (list_elem(p, &v) || list_add(p, &l, &v))
			goto out;
	}
	if (expect(p, '>', "expected '>' to close dense<...>") ||
	    expect(p, ':', "expected ': tensor<...>' after dense<...>") ||
	    tensor_type(p, at, &count))
		goto out;
	if (blob)
		r = hex_blob(p, at, blob, blob_len, count);
	else if (l.n != count && !(l.n == 1 && count))
		r = fail(p, "a dense array's elements are not its tensor's count");
	else
		r = fill(p, at, &l, count);
out:
	xrt_mem_free(p->a, l.v);
	xrt_mem_free(p->a, blob);
	return r;
}

/* array<type: e, e, ...> */
static int array(struct fp *p, struct xrt_ffi_attr *at)
{
	struct list l = { NULL, 0, 0 };
	int r = -1;

	at->type = XRT_FFI_ARRAY;
	if (expect(p, '<', "expected '<' after array") || type(p, &at->dtype))
		return -1;
	if (accept(p, ':')) {
		do {
			struct num v;

			if (list_elem(p, &v) || list_add(p, &l, &v))
				goto out;
		} while (accept(p, ','));
	}
	if (!expect(p, '>', "expected '>' to close array<...>"))
		r = fill(p, at, &l, l.n);
out:
	xrt_mem_free(p->a, l.v);
	return r;
}

static int dict(struct fp *p, struct xrt_ffi_attrs **out);

static int value(struct fp *p, struct xrt_ffi_attr *at)
{
	char *s;
	size_t len;
	bool t;

	skip(p);
	if (p->pos < p->n && p->s[p->pos] == '"') {
		if (string(p, &s, &len))
			return -1;
		at->type = XRT_FFI_STRING;
		at->data = s;
		at->count = len;
		return 0;
	}
	if (p->pos < p->n && p->s[p->pos] == '{') {
		struct xrt_ffi_attrs *d;

		if (dict(p, &d))
			return -1;
		at->type = XRT_FFI_DICT;
		at->dict = d;
		return 0;
	}
	if ((t = keyword(p, "true")) || keyword(p, "false")) {
		at->type = XRT_FFI_SCALAR;
		at->dtype = XRT_PRED;
		at->v.i = t;
		return 0;
	}
	if (keyword(p, "dense"))
		return dense(p, at);
	if (keyword(p, "array"))
		return array(p, at);
	return scalar(p, at);
}

static void attr_deinit(const struct xrt_allocator *a, struct xrt_ffi_attr *at)
{
	xrt_mem_free(a, (void *)at->name);
	xrt_mem_free(a, (void *)at->data);
	xffi_attrs_free(a, (struct xrt_ffi_attrs *)at->dict);
}

void xffi_attrs_free(const struct xrt_allocator *a, struct xrt_ffi_attrs *d)
{
	uint32_t i;

	if (!d)
		return;
	for (i = 0; i < d->count; i++)
		attr_deinit(a, (struct xrt_ffi_attr *)&d->attr[i]);
	xrt_mem_free(a, (void *)d->attr);
	xrt_mem_free(a, d);
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct xrt_ffi_attr *)x)->name,
		      ((const struct xrt_ffi_attr *)y)->name);
}

/* A name: a bare word or a quoted string; NUL-terminated copy. */
static int name(struct fp *p, char **out)
{
	const char *w;
	size_t len;

	skip(p);
	if (p->pos < p->n && p->s[p->pos] == '"') {
		if (string(p, out, &len))
			return -1;
		if (strlen(*out) != len || !len) {
			xrt_mem_free(p->a, *out);
			return fail(p, "an attribute name is empty or holds a NUL");
		}
		return 0;
	}
	len = word(p, &w);
	if (!len)
		return fail(p, "expected an attribute name");
	*out = xrt_mem_alloc(p->a, len + 1);
	if (!*out)
		return oom(p);
	memcpy(*out, w, len);
	(*out)[len] = '\0';
	return 0;
}

/* One more attribute in @d's array (grown by doubling); NULL: out of memory. */
static struct xrt_ffi_attr *grow(struct fp *p, struct xrt_ffi_attrs *d, uint32_t *cap)
{
	struct xrt_ffi_attr *na;

	if (d->count == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		na = xrt_mem_calloc(p->a, *cap, sizeof(*na));
		if (!na)
			return oom(p), NULL;
		if (d->count)
			memcpy(na, d->attr, d->count * sizeof(*na));
		xrt_mem_free(p->a, (void *)d->attr);
		d->attr = na;
	}
	return (struct xrt_ffi_attr *)&d->attr[d->count++];
}

static int entries(struct fp *p, struct xrt_ffi_attrs *d)
{
	uint32_t cap = 0, i;

	if (accept(p, '}'))
		return 0;
	do {
		struct xrt_ffi_attr *at = grow(p, d, &cap);
		char *nm;

		if (!at || name(p, &nm))
			return -1;
		at->name = nm;
		if (expect(p, '=', "expected '=' after an attribute's name") || value(p, at))
			return -1;
		if (d->count == UINT32_MAX / 2)
			return fail(p, "too many attributes");
	} while (accept(p, ','));
	if (expect(p, '}', "expected ',' or '}' after an attribute"))
		return -1;
	qsort((void *)d->attr, d->count, sizeof(d->attr[0]), by_name);
	for (i = 1; i < d->count; i++)
		if (!strcmp(d->attr[i].name, d->attr[i - 1].name))
			return fail(p, "an attribute name is given twice");
	return 0;
}

static int dict(struct fp *p, struct xrt_ffi_attrs **out)
{
	struct xrt_ffi_attrs *d;
	int r;

	if (p->depth == MAX_DEPTH)
		return fail(p, "dictionaries nest more than 16 deep");
	if (expect(p, '{', "expected '{' to open a dictionary"))
		return -1;
	d = xrt_mem_calloc(p->a, 1, sizeof(*d));
	if (!d)
		return oom(p);
	p->depth++;
	r = entries(p, d);
	p->depth--;
	if (r) {
		xffi_attrs_free(p->a, d);
		return -1;
	}
	*out = d;
	return 0;
}

xrt_status *xffi_attrs_parse(const struct xrt_allocator *a, const char *text, size_t n,
			     struct xrt_ffi_attrs **out)
{
	struct fp p = { a, text, n, 0, 0, NULL };
	struct xrt_ffi_attrs *d = NULL;

	*out = NULL;
	if (n == 0) {	/* no backend_config: no attributes */
		*out = xrt_mem_calloc(a, 1, sizeof(**out));
		return *out ? NULL : xrt_status_oom(a, "an attribute dictionary");
	}
	if (!dict(&p, &d)) {
		skip(&p);
		if (p.pos == n) {
			*out = d;
			return NULL;
		}
		fail(&p, "text after the dictionary");
	}
	xffi_attrs_free(a, d);
	return p.err;
}
