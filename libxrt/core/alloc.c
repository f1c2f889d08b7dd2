// SPDX-License-Identifier: MIT
/*
 * The system allocator and the helpers every part of libxrt allocates
 * through.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

static void *system_alloc(void *self, size_t size, size_t align)
{
	void *p = NULL;

	(void)self;
	if (align <= _Alignof(max_align_t))
		return malloc(size);
	if (posix_memalign(&p, align, size))
		return NULL;
	return p;
}

static void system_free(void *self, void *ptr)
{
	(void)self;
	free(ptr);
}

static const struct xrt_allocator system_allocator = {
	.self = NULL,
	.alloc = system_alloc,
	.free = system_free,
};

const struct xrt_allocator *xrt_allocator_system(void)
{
	return &system_allocator;
}

const struct xrt_allocator *xrt_mem_or_system(const struct xrt_allocator *a)
{
	return a ? a : &system_allocator;
}

void *xrt_mem_alloc_aligned(const struct xrt_allocator *a, size_t size,
			    size_t align)
{
	a = xrt_mem_or_system(a);
	return a->alloc(a->self, size ? size : 1, align);
}

void *xrt_mem_alloc(const struct xrt_allocator *a, size_t size)
{
	return xrt_mem_alloc_aligned(a, size, _Alignof(max_align_t));
}

void *xrt_mem_calloc(const struct xrt_allocator *a, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = xrt_mem_alloc(a, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

char *xrt_mem_strdup(const struct xrt_allocator *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xrt_mem_alloc(a, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

void xrt_mem_free(const struct xrt_allocator *a, void *p)
{
	if (!p)
		return;
	a = xrt_mem_or_system(a);
	a->free(a->self, p);
}

void xrt_free(const struct xrt_allocator *alloc, void *ptr)
{
	xrt_mem_free(alloc, ptr);
}

xrt_status *xrt_status_oom(const struct xrt_allocator *a, const char *what)
{
	return xrt_status_new(a, XRT_RESOURCE_EXHAUSTED,
			      "out of memory allocating %s", what);
}
