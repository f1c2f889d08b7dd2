/* SPDX-License-Identifier: MIT */
/*
 * Compiling generated sources with NVRTC, with an on-disk cache.
 */
#ifndef XRT_DEVICE_CUDA_COMPILE_H
#define XRT_DEVICE_CUDA_COMPILE_H

#include <stddef.h>

#include "cuda_api.h"

/*
 * The prelude and @source compiled for compute capability @major.@minor:
 * a cubin (@cubin) or PTX.  The image is malloc'ed into *@out (free with
 * the allocator).  Cubins are kept in $XRT_CUDA_CACHE, else
 * $XDG_CACHE_HOME/xrt/cuda, else ~/.cache/xrt/cuda, named by a
 * fingerprint of everything that went in; "XRT_CUDA_CACHE=off" turns the
 * cache off.  A compile error is INTERNAL with NVRTC's log (a bug of the
 * generator: the device never sees user text).
 */
xrt_status *cuda_compile(const struct cuda_api *api, const char *source, int major, int minor,
			 bool cubin, const struct xrt_allocator *a, void **out, size_t *size);

/*
 * The prelude and @source as one NUL-terminated text, which is what a
 * module is loaded from when XRT_CUDA_LOAD_SOURCE is set: the tests'
 * CPU stand-in for the driver (selftests/libxrt/support/fake_cuda.c)
 * builds modules from source, having no GPU to run a cubin on.
 */
xrt_status *cuda_source_image(const char *source, const struct xrt_allocator *a, void **out);

#endif /* XRT_DEVICE_CUDA_COMPILE_H */
