// SPDX-License-Identifier: MIT
/*
 * Fuzzes the reader of typed FFI attribute dictionaries (a custom call's
 * backend_config): any text must be refused with INVALID_ARGUMENT or
 * give a dictionary whose every part holds: names sorted and unique,
 * each array's elements and each string's bytes (and its NUL) readable,
 * nested dictionaries likewise, and the getters answering every name.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ffi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint8_t sink;

/* Reads every byte of @n at @p, so the sanitizer sees any that is not there. */
static void touch(const void *p, size_t n)
{
	const volatile uint8_t *b = p;
	uint8_t x = 0;
	size_t i;

	for (i = 0; i < n; i++)
		x ^= b[i];
	sink = x;
}

static void check(const struct xrt_ffi_attrs *d, int depth)
{
	const struct xrt_ffi_attr *at;
	const void *v;
	const char *s;
	uint64_t n;
	int64_t i64;
	double f;
	size_t len;
	uint32_t k;

	if (depth > 16)
		abort();
	for (k = 0; k < d->count; k++) {
		at = &d->attr[k];
		if (!at->name[0] || (k && strcmp(d->attr[k - 1].name, at->name) >= 0))
			abort();
		if (xrt_ffi_attr_find(d, at->name) != at)
			abort();
		switch (at->type) {
		case XRT_FFI_SCALAR:
			xrt_status_free(xrt_ffi_get_int(d, at->name, &i64));
			xrt_status_free(xrt_ffi_get_float(d, at->name, &f));
			break;
		case XRT_FFI_ARRAY:
			if (xrt_ffi_get_array(d, at->name, at->dtype, &v, &n) || n != at->count)
				abort();
			touch(v, (size_t)n * xrt_dtype_size(at->dtype));
			break;
		case XRT_FFI_STRING:
			if (xrt_ffi_get_string(d, at->name, &s, &len) || ((const char *)s)[len])
				abort();
			touch(s, len + 1);
			break;
		case XRT_FFI_DICT:
			check(at->dict, depth + 1);
			break;
		default:
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xrt_ffi_attrs *d = NULL;
	xrt_status *st = xffi_attrs_parse(NULL, (const char *)data, size, &d);

	if (st) {
		if (xrt_status_code(st) != XRT_INVALID_ARGUMENT || d)
			abort();
		xrt_status_free(st);
		return 0;
	}
	check(d, 0);
	xffi_attrs_free(NULL, d);
	return 0;
}
