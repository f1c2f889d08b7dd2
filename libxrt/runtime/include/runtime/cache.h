/* SPDX-License-Identifier: MIT */
/*
 * The process's compile cache (rt_cache.c), under both front ends: a
 * module's executable, compiled once however many sessions, eager
 * contexts and threads ask for it.  Entries are shared: centry_ref()
 * and centry_unref().
 */
#ifndef XRT_RUNTIME_CACHE_H
#define XRT_RUNTIME_CACHE_H

#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/ir.h>
#include <xrt/status.h>

struct centry;
struct xrt_executable;
void centry_ref(struct centry *e);
void centry_unref(struct centry *e);
/*
 * The compilation of @m, from the cache or compiled now (once, however
 * many threads ask at the same time); a reference on success; @donated
 * as in struct cc_options.  A failed compilation is cached and its error
 * returned (a copy, allocated with @a) to whoever asks again.
 */
xrt_status *ccache_get(const xrt_module *m, uint64_t donated, const struct xrt_allocator *a,
		       struct centry **out);
/* The same module compiled with parameters @donated donated (bit p: parameter p). */
xrt_status *ccache_variant(const struct centry *e, uint64_t donated,
			   const struct xrt_allocator *a, struct centry **out);
const struct xrt_executable *centry_exe(const struct centry *e);

#endif /* XRT_RUNTIME_CACHE_H */
