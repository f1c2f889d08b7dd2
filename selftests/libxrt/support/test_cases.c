// SPDX-License-Identifier: MIT
/*
 * Reading the evaluator's case file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/evaluate.h>
#include <xrt/ir.h>

#include "test_cases.h"

bool test_case_next(char **p, struct test_case *c)
{
	char *header = *p ? strstr(*p, "=== ") : NULL, *module, *sep, *value, *end, *next;
	char kind[64] = "", atol[64] = "";

	if (!header)
		return false;
	next = strstr(header + 4, "\n=== ");
	if (next)
		*next++ = '\0';
	*p = next;
	module = strchr(header, '\n');
	if (!module)
		return false;
	*module++ = '\0';
	sep = strstr(module, "\n---\n");
	if (!sep)
		return false;
	*sep = '\0';
	value = strchr(sep + 5, '\n');
	if (!value)
		return false;
	*value++ = '\0';
	end = strchr(value, '\n');
	if (end)
		*end = '\0';
	memset(c, 0, sizeof(*c));
	sscanf(header, "=== %127s %63s %63s", c->name, kind, atol);
	c->exact = !strcmp(kind, "exact");
	if (!c->exact) {
		c->tol.rtol = strtod(kind, NULL);
		c->tol.atol = strtod(atol, NULL);
	}
	c->module = module;
	c->shape = sep + 5;
	c->value = value;
	return true;
}

xrt_status *test_case_expected(const struct xrt_allocator *a, const struct test_case *c,
			       xrt_literal **out)
{
	size_t n = strlen(c->shape) + strlen(c->value) + 64;
	char *text = malloc(n);
	xrt_module *m = NULL;
	xrt_status *st;

	snprintf(text, n, "HloModule expect\nENTRY e {\n  ROOT r = %s constant(%s)\n}\n",
		 c->shape, c->value);
	st = xrt_hlo_parse(a, text, strlen(text), &m);
	free(text);
	if (!st)
		st = xrt_ir_evaluate(m, NULL, 0, NULL, a, out);
	xrt_module_destroy(m);
	return st;
}
