// SPDX-License-Identifier: MIT
/*
 * Loading the CUDA driver, NVRTC, cuBLAS and NCCL with dlopen, once.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "cuda_api.h"

static struct cuda_api api;
static pthread_once_t driver_once = PTHREAD_ONCE_INIT, nvrtc_once = PTHREAD_ONCE_INIT,
		      blas_once = PTHREAD_ONCE_INIT, nccl_once = PTHREAD_ONCE_INIT;
static char nvrtc_why[160], blas_why[160], nccl_why[160];

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
			snprintf(why, 160, "%s lacks %s", lib, XSTR(name)); \
			ok = false;					\
		}							\
	}

static bool load_driver(void)
{
	static const char *const names[] = { "libcuda.so.1", NULL };
	const char *lib = "libcuda.so.1";
	char *why = api.why;
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(why, 160, "no CUDA driver (libcuda.so.1 does not load)");
		return false;
	}
	CUDA_DRIVER_FUNCTIONS(LOAD)
	if (ok && api.cuInit(0) != CUDA_SUCCESS) {
		snprintf(why, 160, "cuInit failed: no usable GPU");
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
	char *why = nvrtc_why;
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(why, 160, "NVRTC (libnvrtc.so) does not load");
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
	char *why = blas_why;
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(why, 160, "cuBLAS (libcublas.so) does not load");
		return false;
	}
	CUDA_BLAS_FUNCTIONS(LOAD)
	return ok;
}

static bool load_nccl(void)
{
	static const char *const names[] = { "libnccl.so.2", "libnccl.so", NULL };
	const char *lib = "libnccl";
	char *why = nccl_why;
	void *h = open_first(names);
	bool ok = h != NULL;

	if (!h) {
		snprintf(why, 160, "NCCL (libnccl.so.2) does not load");
		return false;
	}
	CUDA_NCCL_FUNCTIONS(LOAD)
	return ok;
}

static void nccl_load(void)
{
	api.have_nccl = load_nccl();
}

const struct cuda_api *cuda_api_nccl(const char **why)
{
	pthread_once(&nccl_once, nccl_load);
	*why = nccl_why;
	return &api;
}

static void driver_load(void)
{
	api.have_driver = load_driver();
}

static void nvrtc_load(void)
{
	api.have_nvrtc = load_nvrtc();
}

static void blas_load(void)
{
	api.have_blas = load_blas();
}

const struct cuda_api *cuda_api_get(void)
{
	pthread_once(&driver_once, driver_load);
	return &api;
}

const struct cuda_api *cuda_api_nvrtc(const char **why)
{
	pthread_once(&nvrtc_once, nvrtc_load);
	*why = nvrtc_why;
	return &api;
}

const struct cuda_api *cuda_api_blas(void)
{
	pthread_once(&blas_once, blas_load);
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
