/* SPDX-License-Identifier: MIT */
/*
 * The allocator interface.  Every heap allocation libxrt makes goes
 * through one of these, so a program can account for, limit or
 * fault-inject the library's memory use.
 */
#ifndef XRT_ALLOC_H
#define XRT_ALLOC_H

#include <stddef.h>

#include <xrt/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct xrt_allocator - a memory allocator
 * @self: passed back as the first argument of every call
 * @alloc: returns @size bytes aligned to @align (a power of two, at most
 *         4096), or NULL when out of memory.  @size is never 0.
 * @free: frees what @alloc returned; never called with NULL
 *
 * Objects keep a pointer to the allocator they were made with, so it must
 * outlive them.  Wherever a function takes an allocator, NULL means the
 * system allocator.  An allocator may be called from several threads at
 * once.
 */
struct xrt_allocator {
	void *self;
	void *(*alloc)(void *self, size_t size, size_t align);
	void (*free)(void *self, void *ptr);
};

/**
 * xrt_allocator_system() - the allocator backed by the C library
 *
 * Blocks of 4 MiB and more are advised onto transparent huge pages
 * (where the system's mode is "madvise"; advice, not a promise).
 *
 * Return: a static allocator; never NULL.
 */
XRT_API const struct xrt_allocator *xrt_allocator_system(void);

/**
 * xrt_free() - free memory that libxrt returned from an allocator
 * @alloc: the allocator it came from (NULL: system)
 * @ptr: the memory, or NULL
 */
XRT_API void xrt_free(const struct xrt_allocator *alloc, void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* XRT_ALLOC_H */
