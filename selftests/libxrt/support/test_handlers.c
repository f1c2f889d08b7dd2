// SPDX-License-Identifier: MIT
/* The corpus's custom-call handlers (test_handlers.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/custom_call.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "test_cases.h"
#include "test_handlers.h"

/* Whether @b is an f32 array of @n elements. */
static int f32_of(const struct xrt_ffi_buffer *b, uint64_t n)
{
	return b->dtype == XRT_F32 && b->size == n * sizeof(float);
}

static xrt_status *my_kernel(void *user, const struct xrt_ffi_call *c)
{
	const float *x = c->num_args == 1 ? c->args[0].data : NULL;
	float *y = c->num_results == 1 ? c->results[0].data : NULL;
	uint64_t n = c->num_args == 1 ? c->args[0].size / sizeof(float) : 0, i;

	(void)user;
	if (!x || !y || !f32_of(&c->args[0], n) || !f32_of(&c->results[0], n))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "takes f32[n], gives f32[n]");
	for (i = 0; i < n; i++)
		y[i] = 2 * x[i] + 1;
	return NULL;
}

static xrt_status *pair(void *user, const struct xrt_ffi_call *c)
{
	uint64_t n, i;
	const float *a, *x;
	float *p;
	int32_t count = 0;

	(void)user;
	if (c->num_args != 2 || c->num_results != 2)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "takes two arrays, gives two");
	n = c->args[0].size / sizeof(float);
	if (!f32_of(&c->args[0], n) || !f32_of(&c->args[1], n) || !f32_of(&c->results[0], n) ||
	    c->results[1].dtype != XRT_S32 || c->results[1].rank)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "takes (f32[n], f32[n]), gives (f32[n], s32[])");
	a = c->args[0].data;
	x = c->args[1].data;
	p = c->results[0].data;
	for (i = 0; i < n; i++) {
		p[i] = a[i] * x[i];
		count += a[i] > 0;
	}
	memcpy(c->results[1].data, &count, sizeof(count));
	return NULL;
}

static xrt_status *seven(void *user, const struct xrt_ffi_call *c)
{
	(void)user;
	if (c->num_args || c->num_results != 1 || !f32_of(&c->results[0], 1) ||
	    c->results[0].rank)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "takes nothing, gives f32[]");
	*(float *)c->results[0].data = 7;
	return NULL;
}

static void register_all(void)
{
	xrt_status *st = xrt_custom_call_register("my_kernel", my_kernel, NULL);

	if (!st)
		st = xrt_custom_call_register("pair\"quoted", pair, NULL);
	if (!st)
		st = xrt_custom_call_register("seven", seven, NULL);
	if (st)
		abort();	/* a test bug: each is registered once */
}

void test_register_handlers(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, register_all);
}

/* @text's module on @s with a zero f32[2]: the status of the run. */
static xrt_status *run_text(xrt_session *s, const char *text, const struct xrt_allocator *a)
{
	xrt_literal *x = NULL, *out = NULL;
	xrt_module *m = NULL;
	xrt_status *st = xrt_hlo_parse(a, text, strlen(text), &m);

	if (!st)
		st = xrt_literal_create(a, xrt_module_param_shape(m, 0), &x);
	if (!st)
		st = test_run_module(s, m, &x, 1, &out);
	xrt_literal_destroy(out);
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
	return st;
}

xrt_status *test_device_refuses_custom_calls(const char *device, const struct xrt_allocator *a,
					     const char *why)
{
	static const char call[] =
		"HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		"  ROOT r = f32[2] custom-call(x), custom_call_target=\"my_kernel\"\n}\n";
	static const char plain[] =
		"HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  ROOT r = f32[2] negate(x)\n}\n";
	struct xrt_session_options o = { device, 0, false };
	xrt_session *s = NULL;
	xrt_status *st, *got;

	test_register_handlers();
	st = xrt_session_create(&o, a, &s);
	if (st)
		return st;
	got = run_text(s, call, a);
	if (xrt_status_code(got) != XRT_UNIMPLEMENTED || !strstr(xrt_status_message(got), why))
		st = xrt_status_new(NULL, XRT_INTERNAL, "%s ran a custom call: %s", device,
				    got ? xrt_status_message(got) : "OK");
	else
		st = run_text(s, plain, a);	/* and goes on working */
	xrt_status_free(got);
	xrt_session_destroy(s);
	return st;
}
