/* SPDX-License-Identifier: MIT */
/*
 * A conformance case as gen.py writes it: NAME.io (the inputs and XLA's
 * outputs, as HLO literals, and the tolerance class) beside the module's
 * four forms (NAME.before.hlo, .after.hlo, .before.pb, .after.pb).
 */
#ifndef XRT_CONFORMANCE_CASE_H
#define XRT_CONFORMANCE_CASE_H

#include <xrt/ir.h>
#include <xrt/literal.h>

#include "compare.h"

#define CASE_MAX_VALUES 32

struct conf_case {
	char name[160];			/* GROUP/NAME, as INDEX lists it */
	enum tol_class tol;
	unsigned int num_in, num_out;
	xrt_literal *in[CASE_MAX_VALUES];
	xrt_literal *out[CASE_MAX_VALUES];
};

/* The forms a case's module comes in, as file suffixes. */
extern const char *const case_forms[4];

/* Reads @dir/@name.io into @c; on failure @c holds nothing. */
xrt_status *case_read(const struct xrt_allocator *a, const char *dir, const char *name,
		      struct conf_case *c);

void case_free(struct conf_case *c);

/* The module of form @form (an entry of case_forms) of case @name. */
xrt_status *case_module(const struct xrt_allocator *a, const char *dir, const char *name,
			const char *form, xrt_module **out);

#endif /* XRT_CONFORMANCE_CASE_H */
