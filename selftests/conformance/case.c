// SPDX-License-Identifier: MIT
/*
 * Reading the files gen.py writes.  A literal line is "in SHAPE VALUE"
 * or "out SHAPE VALUE"; its value is read as the constant of a module of
 * one instruction, by the HLO reader and the evaluator, as xrt-run reads
 * --input files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/evaluate.h>

#include "case.h"
#include "test_alloc.h"

const char *const case_forms[4] = { ".before.hlo", ".after.hlo", ".before.pb", ".after.pb" };

static xrt_status *literal_line(const struct xrt_allocator *a, const char *text, xrt_literal **out)
{
	static const char head[] = "HloModule c\nENTRY e {\n  ROOT c = ";
	const char *space = strchr(text, ' ');
	size_t n = strlen(text) + sizeof(head) + 32;
	char *hlo = malloc(n);
	xrt_module *m = NULL;
	xrt_status *st;

	if (!space || !hlo) {
		free(hlo);
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "not a literal: %.40s", text);
	}
	snprintf(hlo, n, "%s%.*s constant(%s)\n}\n", head, (int)(space - text), text, space + 1);
	st = xrt_hlo_parse(a, hlo, strlen(hlo), &m);
	if (!st)
		st = xrt_ir_evaluate(m, NULL, 0, NULL, a, out);
	xrt_module_destroy(m);
	free(hlo);
	return st;
}

static xrt_status *take_line(const struct xrt_allocator *a, struct conf_case *c, char *line)
{
	xrt_literal **to = NULL;
	unsigned int *count = NULL;

	if (!strncmp(line, "tol ", 4))
		return tol_class_from_name(line + 4, &c->tol) ? NULL :
			xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: tolerance %s", c->name, line + 4);
	if (!strncmp(line, "in ", 3))
		to = c->in, count = &c->num_in, line += 3;
	else if (!strncmp(line, "out ", 4))
		to = c->out, count = &c->num_out, line += 4;
	else if (line[0] == '#' || !line[0])
		return NULL;
	if (!to)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: line %.20s", c->name, line);
	if (*count == CASE_MAX_VALUES)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: over %d values", c->name,
				      CASE_MAX_VALUES);
	return literal_line(a, line, &to[(*count)++]);
}

xrt_status *case_read(const struct xrt_allocator *a, const char *dir, const char *name,
		      struct conf_case *c)
{
	char path[1024], *text, *line, *next;
	xrt_status *st = NULL;
	size_t n;

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(path, sizeof(path), "%s/%s.io", dir, name);
	text = test_slurp(path, &n);
	if (!text)
		return xrt_status_new(NULL, XRT_NOT_FOUND, "cannot read %s", path);
	for (line = text; line && !st; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		st = take_line(a, c, line);
	}
	free(text);
	if (st)
		case_free(c);
	return st;
}

void case_free(struct conf_case *c)
{
	unsigned int i;

	for (i = 0; i < c->num_in; i++)
		xrt_literal_destroy(c->in[i]);
	for (i = 0; i < c->num_out; i++)
		xrt_literal_destroy(c->out[i]);
	c->num_in = c->num_out = 0;
}

xrt_status *case_module(const struct xrt_allocator *a, const char *dir, const char *name,
			const char *form, xrt_module **out)
{
	char path[1024], *data;
	xrt_status *st;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, form);
	data = test_slurp(path, &n);
	if (!data)
		return xrt_status_new(NULL, XRT_NOT_FOUND, "cannot read %s", path);
	if (strstr(form, ".pb"))
		st = xrt_hlo_parse_xla_proto(a, data, n, XRT_XLA_ANY, out);
	else
		st = xrt_hlo_parse(a, data, n, out);
	free(data);
	return st;
}
