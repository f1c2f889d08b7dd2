// SPDX-License-Identifier: MIT
/*
 * NumPy's .npy format (format versions 1.0 to 3.0): a magic string, a
 * version, a header dict {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), } padded to 64 bytes, then the elements.  Read for
 * --input, written for --output.  Little-endian only, as libxrt's data.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/literal.h"
#include "xrt_run.h"

static const char magic[6] = { '\x93', 'N', 'U', 'M', 'P', 'Y' };

/* NumPy's type strings for libxrt's types ('|' for single bytes). */
static const struct { const char *descr; enum xrt_dtype t; } types[] = {
	{ "|b1", XRT_PRED }, { "|i1", XRT_S8 }, { "<i2", XRT_S16 }, { "<i4", XRT_S32 },
	{ "<i8", XRT_S64 }, { "|u1", XRT_U8 }, { "<u2", XRT_U16 }, { "<u4", XRT_U32 },
	{ "<u8", XRT_U64 }, { "<f2", XRT_F16 }, { "<f4", XRT_F32 }, { "<f8", XRT_F64 },
	{ "<c8", XRT_C64 }, { "<c16", XRT_C128 },
};

bool run_is_npy(const char *data, size_t len)
{
	return len >= sizeof(magic) && !memcmp(data, magic, sizeof(magic));
}

static xrt_status *bad(const char *path, const char *why)
{
	return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: not a .npy file xrt-run reads: %s",
			      path, why);
}

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/*
 * A quoted Python string at @p ('...' or "..."), without escapes: its
 * text into @out (@size bytes); just past it, or NULL.
 */
static const char *quoted(const char *p, char *out, size_t size)
{
	char q = *p;
	size_t n = 0;

	if (q != '\'' && q != '"')
		return NULL;
	for (p++; *p && *p != q; p++) {
		if (*p == '\\' || n + 1 >= size)
			return NULL;
		out[n++] = *p;
	}
	out[n] = 0;
	return *p ? p + 1 : NULL;
}

static bool set_descr(const char *d, enum xrt_dtype *t)
{
	size_t i;

	/* '=' (native) is little-endian here; '<' and '|' alike for bytes */
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const char *want = types[i].descr;

		if (!strcmp(d, want) || ((d[0] == '=' || (d[0] == '<' && want[0] == '|')) &&
					 !strcmp(d + 1, want + 1))) {
			*t = types[i].t;
			return true;
		}
	}
	return false;
}

/* A shape tuple "(2, 3)", "(4,)" or "()" at @p: just past it, or NULL. */
static const char *shape_tuple(const char *p, uint32_t *rank, int64_t *dims)
{
	if (*p++ != '(')
		return NULL;
	for (*rank = 0;;) {
		char *end;
		long long v;

		p = skip_space(p);
		if (*p == ')')
			return p + 1;
		if (*p < '0' || *p > '9' || *rank >= XRT_MAX_RANK)
			return NULL;
		v = strtoll(p, &end, 10);
		if (v < 0 || v == LLONG_MAX)
			return NULL;
		dims[(*rank)++] = v;
		p = skip_space(end);
		if (*p == ',')
			p++;
		else if (*p != ')')
			return NULL;
	}
}

/*
 * The header dict, as numpy reads it: exactly the keys descr,
 * fortran_order and shape, each once, then nothing but white space.
 */
static xrt_status *parse_header(const char *path, const char *hdr, enum xrt_dtype *t,
				bool *fortran, uint32_t *rank, int64_t *dims)
{
	const char *p = skip_space(hdr);
	char key[32], descr[16];
	unsigned int seen = 0, bit;

	if (*p++ != '{')
		return bad(path, "the header is not a dict");
	for (;;) {
		p = skip_space(p);
		if (*p == '}')
			break;
		p = quoted(p, key, sizeof(key));
		bit = !p ? 0 : !strcmp(key, "descr") ? 1 : !strcmp(key, "fortran_order") ? 2 :
		      !strcmp(key, "shape") ? 4 : 0;
		if (!bit)
			return bad(path, "a header key other than descr, fortran_order and shape");
		if (seen & bit)
			return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
					      "%s: not a .npy file xrt-run reads: the header has '%s' twice",
					      path, key);
		seen |= bit;
		p = skip_space(p);
		if (*p++ != ':')
			return bad(path, "a header key without ':'");
		p = skip_space(p);
		if (bit == 1) {
			p = quoted(p, descr, sizeof(descr));
			if (!p || !set_descr(descr, t))
				return bad(path, "an element type it does not know (big-endian, objects, ...)");
		} else if (bit == 2) {
			*fortran = !strncmp(p, "True", 4);
			if (!*fortran && strncmp(p, "False", 5))
				return bad(path, "fortran_order is neither True nor False");
			p += *fortran ? 4 : 5;
		} else {
			p = shape_tuple(p, rank, dims);
			if (!p)
				return bad(path, "a bad shape (rank above 8?)");
		}
		p = skip_space(p);
		if (*p == ',')
			p++;
		else if (*p != '}')
			return bad(path, "the header dict is malformed");
	}
	if (seen != 7)
		return bad(path, "the header lacks descr, fortran_order or shape");
	if (*skip_space(p + 1))
		return bad(path, "something follows the header dict");
	return NULL;
}

xrt_status *run_npy_read(const char *path, const char *data, size_t len, xrt_literal **out)
{
	int64_t dims[XRT_MAX_RANK], m2m[XRT_MAX_RANK];
	size_t hlen, off, need;
	enum xrt_dtype t = XRT_INVALID;
	uint32_t rank = 0, i;
	bool fortran = false;
	struct xrt_shape s;
	xrt_status *st;
	char *hdr;

	if (len < 10 || (data[6] != 1 && data[6] != 2 && data[6] != 3))
		return bad(path, "an unknown format version");
	/* version 1: a 2-byte header length; 2 and 3: 4 bytes */
	off = data[6] == 1 ? 10 : 12;
	if (len < off)
		return bad(path, "the header runs past the end");
	hlen = (size_t)(uint8_t)data[8] | (size_t)(uint8_t)data[9] << 8;
	if (off == 12)
		hlen |= (size_t)(uint8_t)data[10] << 16 | (size_t)(uint8_t)data[11] << 24;
	if (hlen > len - off)
		return bad(path, "the header runs past the end");
	hdr = malloc(hlen + 1);
	if (!hdr)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	memcpy(hdr, data + off, hlen);
	hdr[hlen] = 0;
	st = strlen(hdr) != hlen ? bad(path, "a NUL byte in the header") :
				   parse_header(path, hdr, &t, &fortran, &rank, dims);
	free(hdr);
	if (!st)
		st = xrt_shape_init_array(&s, t, rank, dims);
	if (st)
		return st;
	if (fortran) {	/* column-major: dimension 0 varies fastest */
		for (i = 0; i < rank; i++)
			m2m[i] = i;
		st = xrt_shape_set_layout(&s, m2m);
		if (st)
			return st;
	}
	need = xrt_shape_byte_size(&s);
	if (len - off - hlen != need)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "%s: %zu bytes of elements, the shape needs %zu", path,
				      len - off - hlen, need);
	return xrt_literal_create_from(NULL, &s, data + off + hlen, need, out);
}

/* One array to @path, row-major whatever its layout. */
static xrt_status *write_array(const char *path, const xrt_literal *lit)
{
	const struct xrt_shape *ls = xrt_literal_shape(lit);
	char hdr[256], shape[160] = "";
	size_t n, hl, i, bytes = xrt_literal_size(lit);
	struct xrt_shape rm;
	const char *descr = NULL;
	void *rows;
	xrt_status *st;
	FILE *f;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (types[i].t == ls->dtype)
			descr = types[i].descr;
	}
	if (!descr)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "%s: NumPy has no %s type", path, xrt_dtype_name(ls->dtype));
	for (n = 0, i = 0; i < ls->rank; i++)
		n += (size_t)snprintf(shape + n, sizeof(shape) - n, "%lld%s",
				      (long long)ls->dims[i], ls->rank == 1 ? "," :
				      i + 1 < ls->rank ? ", " : "");
	hl = (size_t)snprintf(hdr, sizeof(hdr),
			      "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr,
			      shape);
	/* spaces, then a newline, to a multiple of 64 with the 10-byte preamble */
	while ((10 + hl + 1) % 64)
		hdr[hl++] = ' ';
	hdr[hl++] = '\n';
	st = xrt_shape_init_array(&rm, ls->dtype, ls->rank, ls->dims);
	if (st)
		return st;
	rows = malloc(bytes ? bytes : 1);
	if (!rows)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	xrt_elems_relayout(rows, &rm, xrt_literal_data(lit), ls);
	f = fopen(path, "wb");
	if (!f || fwrite(magic, 1, 6, f) != 6 || fputc(1, f) == EOF || fputc(0, f) == EOF ||
	    fputc((int)(hl & 0xff), f) == EOF || fputc((int)(hl >> 8), f) == EOF ||
	    fwrite(hdr, 1, hl, f) != hl || fwrite(rows, 1, bytes, f) != bytes) {
		if (f)
			fclose(f);
		free(rows);
		return xrt_status_new(NULL, XRT_UNAVAILABLE, "%s: cannot write it", path);
	}
	free(rows);
	if (fclose(f))
		return xrt_status_new(NULL, XRT_UNAVAILABLE, "%s: cannot write it", path);
	return NULL;
}

xrt_status *run_npy_write(const char *path, const xrt_literal *lit)
{
	uint32_t i, n;
	char name[4096];
	size_t len = strlen(path);
	xrt_status *st = NULL;

	if (!xrt_shape_is_tuple(xrt_literal_shape(lit)))
		return write_array(path, lit);
	/* a tuple: PATH.0.npy, PATH.1.npy, ... (the .npy of PATH dropped first) */
	if (len > 4 && !strcmp(path + len - 4, ".npy"))
		len -= 4;
	n = xrt_literal_tuple_count(lit);
	for (i = 0; !st && i < n; i++) {
		snprintf(name, sizeof(name), "%.*s.%u.npy", (int)len, path, i);
		st = run_npy_write(name, xrt_literal_element(lit, i));
	}
	return st;
}
