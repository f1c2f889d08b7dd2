// SPDX-License-Identifier: MIT
/*
 * Reading the evaluator's case file; random inputs for corpus modules.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/dtype.h>
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

/* SplitMix64 */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

void test_fill_random(xrt_literal *lit, uint64_t *state)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	size_t es, n, k;
	uint8_t *d;
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		for (i = 0; i < s->tuple_count; i++)
			test_fill_random(xrt_literal_element(lit, i), state);
		return;
	}
	es = xrt_dtype_size(s->dtype);
	n = xrt_literal_size(lit) / es;
	d = xrt_literal_mutable_data(lit);
	for (k = 0; k < n; k++) {
		uint64_t r = rnd(state);
		double f = (double)(r >> 11) * 0x1p-51 - 2.0;
		float x = (float)f, y = (float)((double)(r & 0xffff) / 16384.0 - 2.0);
		int64_t v = (int64_t)(r % 16) - (xrt_dtype_is_signed(s->dtype) ? 8 : 0);
		uint16_t h;

		if (xrt_dtype_is_small_float(s->dtype)) {	/* f8e8m0fnu: only positives */
			d[k] = xrt_small_float_from_f64(s->dtype, s->dtype == XRT_F8E8M0FNU ?
							fabs(f) * 4 : f * 2);
			continue;
		}
		if (xrt_dtype_bits(s->dtype) < 8 && s->dtype != XRT_PRED) {	/* s4 ... u2 */
			d[k] = (uint8_t)(v & ((1 << xrt_dtype_bits(s->dtype)) - 1));
			continue;
		}
		switch (s->dtype) {
		case XRT_PRED: d[k] = r & 1; break;
		case XRT_F16: h = xrt_f16_from_f32(x); memcpy(d + k * 2, &h, 2); break;
		case XRT_BF16: h = xrt_bf16_from_f32(x); memcpy(d + k * 2, &h, 2); break;
		case XRT_F32: memcpy(d + k * 4, &x, 4); break;
		case XRT_F64: memcpy(d + k * 8, &f, 8); break;
		case XRT_C64: memcpy(d + k * 8, &x, 4); memcpy(d + k * 8 + 4, &y, 4); break;
		case XRT_C128:
			memcpy(d + k * 16, &f, 8);
			f = (double)y;
			memcpy(d + k * 16 + 8, &f, 8);
			break;
		default: memcpy(d + k * es, &v, es); break;
		}
	}
}

xrt_status *test_run_module(xrt_session *s, const xrt_module *m, xrt_literal *const *args,
			    uint32_t n, xrt_literal **out)
{
	xrt_handle c = 0, h[16] = { 0 }, r = 0;
	struct xrt_execution_config cfg = { 0, 42, false, false };
	xrt_status *st = n > 16 ? xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "more than 16 args") :
		       xrt_compile_module(s, m, &c);
	uint32_t i;

	for (i = 0; !st && i < n; i++)
		st = xrt_allocate(s, args[i], &h[i]);
	if (!st)
		st = xrt_execute(s, c, h, n, &cfg, &r);
	if (!st)
		st = xrt_read_literal(s, r, true, out);
	xrt_release_all_allocations(s);
	if (c)
		xrt_status_free(xrt_release_compilations(s, &c, 1));
	return st;
}

xrt_literal *test_run_random(xrt_session *s, xrt_handle c, const struct xrt_allocator *a)
{
	struct xrt_program_shape ps;
	xrt_literal *lit = NULL, *out = NULL;
	xrt_handle args[16], r;
	uint64_t state = 7;
	xrt_status *st;
	uint32_t i;

	st = xrt_compilation_shape(s, c, a, &ps);
	if (st) {
		xrt_status_free(st);
		return NULL;
	}
	for (i = 0; !st && i < ps.num_params && i < 16; i++) {
		st = xrt_literal_create(a, &ps.params[i], &lit);
		if (st)
			break;
		test_fill_random(lit, &state);
		st = xrt_allocate(s, lit, &args[i]);
		xrt_literal_destroy(lit);
		if (st)
			break;
	}
	if (!st)
		st = xrt_execute(s, c, args, i, NULL, &r);
	if (!st)
		st = xrt_read_literal(s, r, true, &out);
	if (st) {
		xrt_status_free(st);
		out = NULL;	/* only a read that succeeds gives one */
	}
	xrt_status_free(xrt_release_allocations(s, args, i));
	xrt_program_shape_deinit(&ps);
	return out;
}
