// SPDX-License-Identifier: MIT
/*
 * Parameters from files (--input, one per parameter, in order): a
 * literal as xrt-run prints one, "SHAPE VALUES" ("f32[2,3] {{1, 2, 3},
 * {4, 5, 6}}", "s32[] 7"), read by wrapping it in a one-constant module
 * and evaluating that, so it takes every spelling HLO constants take; a
 * NumPy .npy file; or a serialized xrt.Literal message.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/wire.h>

#include "xrt_run.h"

/* Text: starts with an element type's name and holds a '['. */
static bool is_text(const char *data, size_t len)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)data[i]))
		i++;
	return i < len && isalpha((unsigned char)data[i]) && memchr(data, '[', len) &&
	       !memchr(data, '\0', len);
}

static xrt_status *from_text(const char *text, xrt_literal **out)
{
	const char *p = text, *q;
	xrt_module *m = NULL;
	xrt_status *st;
	size_t need;
	char *hlo;

	while (isspace((unsigned char)*p))
		p++;
	for (q = p; *q && !isspace((unsigned char)*q); q++)
		;
	need = strlen(text) + 64;
	hlo = malloc(need);
	if (!hlo)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	snprintf(hlo, need, "HloModule input\nENTRY e {\n  ROOT c = %.*s constant(%s)\n}\n",
		 (int)(q - p), p, q);
	st = xrt_hlo_parse(NULL, hlo, strlen(hlo), &m);
	free(hlo);
	if (!st)
		st = xrt_ir_evaluate(m, NULL, 0, NULL, NULL, out);
	xrt_module_destroy(m);
	return st;
}

xrt_status *run_read_input(const char *path, const struct xrt_shape *want, xrt_literal **out)
{
	char have[256], need[256];
	size_t len = 0;
	char *data = NULL;
	xrt_status *st;

	*out = NULL;
	st = run_read_file(path, &data, &len);
	if (st)
		return st;
	st = run_is_npy(data, len) ? run_npy_read(path, data, len, out) :
	     is_text(data, len) ? from_text(data, out) :
				  xrt_literal_deserialize(NULL, data, len, out);
	/* not ours: perhaps XLA's (an HloSnapshot's argument, ...) */
	if (st && !run_is_npy(data, len) && !is_text(data, len)) {
		xrt_status *xla = xrt_literal_from_xla_proto(NULL, data, len, out);

		if (!xla) {
			xrt_status_free(st);
			st = NULL;
		} else {
			xrt_status_free(xla);
		}
	}
	free(data);
	if (st) {
		/* the parser's line and column are the wrapper's, not the file's */
		const char *msg = xrt_status_message(st), *colon = strstr(msg, ": ");
		xrt_status *named;

		if (!strncmp(msg, "line ", 5) && colon)
			msg = colon + 2;
		named = xrt_status_new(NULL, xrt_status_code(st), "%s: not a literal: %s", path,
				       msg);

		xrt_status_free(st);
		return named;
	}
	if (!xrt_shape_compatible(xrt_literal_shape(*out), want)) {
		xrt_shape_format(xrt_literal_shape(*out), have, sizeof(have));
		xrt_shape_format(want, need, sizeof(need));
		xrt_literal_destroy(*out);
		*out = NULL;
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "%s: holds %s, the parameter is %s", path, have, need);
	}
	return NULL;
}
