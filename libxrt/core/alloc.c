// SPDX-License-Identifier: MIT
/*
 * The system allocator and the helpers every part of libxrt allocates
 * through.
 */
/* MADV_HUGEPAGE is Linux's, not POSIX's */
#define _GNU_SOURCE

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/mem.h"

#define HUGE_PAGE	((uintptr_t)2 << 20)
#define HUGE_FROM	((size_t)4 << 20)

/*
 * Blocks of 4 MiB and more ask for transparent huge pages, as numpy does
 * for its arrays: where THP is "madvise" (Debian's default) a tensor
 * streamed through the engine otherwise crosses a 4 KiB page, and misses
 * the TLB, every 1024 floats.  Only the whole 2 MiB pages inside the
 * block are advised, before anything touches them; advice is no promise,
 * so its failure changes nothing.
 */
static void *advise_huge(void *p, size_t size)
{
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);

	if (p && size >= HUGE_FROM && hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	return p;
}

static void *system_alloc(void *self, size_t size, size_t align)
{
	void *p = NULL;

	(void)self;
	if (align <= _Alignof(max_align_t))
		return advise_huge(malloc(size), size);
	if (posix_memalign(&p, align, size))
		return NULL;
	return advise_huge(p, size);
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
