/* SPDX-License-Identifier: MIT */
/*
 * A growing text buffer for generated sources.  Errors are sticky: a
 * sequence of appends needs one check, of @oom, at the end.
 */
#ifndef XRT_DEVICE_CUDA_TEXT_H
#define XRT_DEVICE_CUDA_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <xrt/alloc.h>

struct cg_text {
	const struct xrt_allocator *a;
	char *p;
	size_t len, cap;
	bool oom;
};

void cg_text_init(struct cg_text *t, const struct xrt_allocator *a);
void cg_text_release(struct cg_text *t);
void cg_printf(struct cg_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* XRT_DEVICE_CUDA_TEXT_H */
