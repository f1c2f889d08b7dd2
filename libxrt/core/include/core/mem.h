/* SPDX-License-Identifier: MIT */
/*
 * Allocation helpers for libxrt's own code.  Everything goes through a
 * struct xrt_allocator; NULL stands for the system allocator.
 */
#ifndef XRT_CORE_MEM_H
#define XRT_CORE_MEM_H

#include <stddef.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

/* Alignment of array data: enough for any vector unit we target. */
#define XRT_DATA_ALIGN 64

const struct xrt_allocator *xrt_mem_or_system(const struct xrt_allocator *a);

/* @size 0 allocates one byte, so a successful call never returns NULL. */
void *xrt_mem_alloc(const struct xrt_allocator *a, size_t size);
void *xrt_mem_alloc_aligned(const struct xrt_allocator *a, size_t size,
			    size_t align);
/* Zeroed array of @n elements of @size bytes; NULL on overflow too. */
void *xrt_mem_calloc(const struct xrt_allocator *a, size_t n, size_t size);
char *xrt_mem_strdup(const struct xrt_allocator *a, const char *s);
void xrt_mem_free(const struct xrt_allocator *a, void *p);

/* The status for a failed allocation of @what. */
xrt_status *xrt_status_oom(const struct xrt_allocator *a, const char *what);

#endif /* XRT_CORE_MEM_H */
