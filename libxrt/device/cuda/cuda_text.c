// SPDX-License-Identifier: MIT
/*
 * The generated-source buffer: doubles as it fills.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "cuda_text.h"

void cg_text_init(struct cg_text *t, const struct xrt_allocator *a)
{
	memset(t, 0, sizeof(*t));
	t->a = a;
}

void cg_text_release(struct cg_text *t)
{
	xrt_mem_free(t->a, t->p);
	memset(t, 0, sizeof(*t));
}

static bool reserve(struct cg_text *t, size_t more)
{
	size_t cap = t->cap ? t->cap : 4096;
	char *p;

	if (t->len + more + 1 <= t->cap)
		return true;
	while (cap < t->len + more + 1)
		cap *= 2;
	p = xrt_mem_alloc(t->a, cap);
	if (!p) {
		t->oom = true;
		return false;
	}
	if (t->p)
		memcpy(p, t->p, t->len + 1);
	xrt_mem_free(t->a, t->p);
	t->p = p;
	t->cap = cap;
	return true;
}

void cg_printf(struct cg_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(t, (size_t)n)) {
		t->oom = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t->p + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}
