// SPDX-License-Identifier: MIT
/*
 * Error statuses.  A status is one allocation: header and message.  When
 * that allocation fails, a static status of the same code stands in, so
 * reporting an error can itself never fail.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"

struct xrt_status {
	enum xrt_code code;
	bool is_static;
	const struct xrt_allocator *alloc;
	char message[];
};

#define NUM_CODES (XRT_DATA_LOSS + 1)

static const char *const code_names[NUM_CODES] = {
	[XRT_OK] = "OK",
	[XRT_CANCELLED] = "CANCELLED",
	[XRT_UNKNOWN] = "UNKNOWN",
	[XRT_INVALID_ARGUMENT] = "INVALID_ARGUMENT",
	[XRT_DEADLINE_EXCEEDED] = "DEADLINE_EXCEEDED",
	[XRT_NOT_FOUND] = "NOT_FOUND",
	[XRT_ALREADY_EXISTS] = "ALREADY_EXISTS",
	[XRT_PERMISSION_DENIED] = "PERMISSION_DENIED",
	[XRT_RESOURCE_EXHAUSTED] = "RESOURCE_EXHAUSTED",
	[XRT_FAILED_PRECONDITION] = "FAILED_PRECONDITION",
	[XRT_ABORTED] = "ABORTED",
	[XRT_OUT_OF_RANGE] = "OUT_OF_RANGE",
	[XRT_UNIMPLEMENTED] = "UNIMPLEMENTED",
	[XRT_INTERNAL] = "INTERNAL",
	[XRT_UNAVAILABLE] = "UNAVAILABLE",
	[XRT_DATA_LOSS] = "DATA_LOSS",
};

#define STATIC_STATUS(c)                                                      \
	[c] = { .code = c, .is_static = true }

/* Fallbacks with an empty message: their text comes from code_names. */
static struct xrt_status static_statuses[NUM_CODES] = {
	STATIC_STATUS(XRT_CANCELLED),
	STATIC_STATUS(XRT_UNKNOWN),
	STATIC_STATUS(XRT_INVALID_ARGUMENT),
	STATIC_STATUS(XRT_DEADLINE_EXCEEDED),
	STATIC_STATUS(XRT_NOT_FOUND),
	STATIC_STATUS(XRT_ALREADY_EXISTS),
	STATIC_STATUS(XRT_PERMISSION_DENIED),
	STATIC_STATUS(XRT_RESOURCE_EXHAUSTED),
	STATIC_STATUS(XRT_FAILED_PRECONDITION),
	STATIC_STATUS(XRT_ABORTED),
	STATIC_STATUS(XRT_OUT_OF_RANGE),
	STATIC_STATUS(XRT_UNIMPLEMENTED),
	STATIC_STATUS(XRT_INTERNAL),
	STATIC_STATUS(XRT_UNAVAILABLE),
	STATIC_STATUS(XRT_DATA_LOSS),
};

static bool code_is_error(enum xrt_code code)
{
	return code > XRT_OK && code < NUM_CODES;
}

const char *xrt_code_name(enum xrt_code code)
{
	if (code < XRT_OK || code >= NUM_CODES)
		return "UNKNOWN_CODE";
	return code_names[code];
}

xrt_status *xrt_status_newv(const struct xrt_allocator *a,
			    enum xrt_code code, const char *fmt, va_list ap)
{
	xrt_status *s;
	va_list aq;
	int n;

	if (!code_is_error(code))
		code = XRT_INTERNAL;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		n = 0;
	s = xrt_mem_alloc(a, sizeof(*s) + (size_t)n + 1);
	if (!s)
		return &static_statuses[code];
	s->code = code;
	s->is_static = false;
	s->alloc = a;
	vsnprintf(s->message, (size_t)n + 1, fmt, ap);
	return s;
}

xrt_status *xrt_status_new(const struct xrt_allocator *alloc,
			   enum xrt_code code, const char *fmt, ...)
{
	xrt_status *s;
	va_list ap;

	va_start(ap, fmt);
	s = xrt_status_newv(alloc, code, fmt, ap);
	va_end(ap);
	return s;
}

/* Formats the annotation, then rebuilds the status with it in front. */
xrt_status *xrt_status_annotate(xrt_status *status, const char *fmt, ...)
{
	char prefix[256];
	xrt_status *s;
	va_list ap;

	if (!status || status->is_static)
		return status;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	s = xrt_status_new(status->alloc, status->code, "%s: %s", prefix,
			   status->message);
	if (s->is_static)
		return status;
	xrt_status_free(status);
	return s;
}

enum xrt_code xrt_status_code(const xrt_status *status)
{
	return status ? status->code : XRT_OK;
}

const char *xrt_status_message(const xrt_status *status)
{
	if (!status)
		return "";
	if (status->is_static)
		return code_names[status->code];
	return status->message;
}

void xrt_status_free(xrt_status *status)
{
	if (status && !status->is_static)
		xrt_mem_free(status->alloc, status);
}
