// SPDX-License-Identifier: MIT
/*
 * Loading the CUDA driver, NVRTC and cuBLAS with dlopen, once.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuda_api.h"

static struct cuda_api api;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define STR(x) #x
#define XSTR(x) STR(x)

/* The first of @names that loads, or NULL. */
static void *open_first(const char *const *names)
{
	void *h = NULL;

	for (; *names && !h; names++)
		h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
	return h;
}

/* Every symbol of a group, or false (naming the missing one in api.why). */
#define LOAD(name)							\
	if (ok) {							\
		*(void **)&api.name = dlsym(h, XSTR(name));		\
		if (!api.name) {					\
			snprintf(api.why, sizeof(api.why), "%s lacks %s", lib, XSTR(name)); \
			ok = false;					\
		}							\
	}

static bool load_driver(void)
{
	static const char *const names[] = { "libcuda.so.1", NULL };
	const char *lib = "libcuda.so.1";
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(api.why, sizeof(api.why), "no CUDA driver (libcuda.so.1 does not load)");
		return false;
	}
	CUDA_DRIVER_FUNCTIONS(LOAD)
	if (ok && api.cuInit(0) != CUDA_SUCCESS) {
		snprintf(api.why, sizeof(api.why), "cuInit failed: no usable GPU");
		ok = false;
	}
	return ok;
}

static bool load_nvrtc(void)
{
	static const char *const names[] = {
		"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", NULL
	};
	const char *lib = "libnvrtc";
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(api.why, sizeof(api.why), "NVRTC (libnvrtc.so) does not load");
		return false;
	}
	CUDA_NVRTC_FUNCTIONS(LOAD)
	return ok;
}

static bool load_blas(void)
{
	static const char *const names[] = {
		"libcublas.so.13", "libcublas.so.12", "libcublas.so", NULL
	};
	const char *lib = "libcublas";
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(api.why, sizeof(api.why), "cuBLAS (libcublas.so) does not load");
		return false;
	}
	CUDA_BLAS_FUNCTIONS(LOAD)
	return ok;
}

static void load(void)
{
	api.have_nvrtc = load_nvrtc();
	api.have_blas = load_blas();
	api.have_driver = load_driver();
}

const struct cuda_api *cuda_api_get(void)
{
	pthread_once(&once, load);
	return &api;
}

xrt_status *cuda_error(const struct xrt_allocator *a, const struct cuda_api *cu, CUresult r,
		       const char *what, int ordinal)
{
	const char *s = NULL;

	if (cu->cuGetErrorString)
		cu->cuGetErrorString(r, &s);
	return xrt_status_new(a, r == CUDA_ERROR_OUT_OF_MEMORY ? XRT_RESOURCE_EXHAUSTED :
			      XRT_INTERNAL, "cuda:%d: %s: %s (%d)", ordinal, what,
			      s ? s : "unknown error", (int)r);
}
