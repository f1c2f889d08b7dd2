// SPDX-License-Identifier: MIT
/*
 * A stand-in for the CUDA driver (libcuda.so.1) that runs on the CPU, so
 * that libxrt's CUDA device (cuda_device.c, cuda_queue.c) runs whole in
 * the tests of machines without a GPU.  Memory is host memory, copies
 * happen at once (streams and events are always complete), and a module
 * is CUDA source (libxrt passes its source instead of a cubin when
 * XRT_CUDA_LOAD_SOURCE is set), built by g++ against the CPU emulation
 * of CUDA's threads (cuda_emu.hpp) and loaded with dlopen.  One device,
 * "cuda:0", of compute capability 9.0, or FAKE_CUDA_DEVICES of them
 * (at most 8), sharing the memory (fake_nccl.c exchanges among them).
 * Work on a stream waits, here in the caller, for what fake_nccl.c has
 * pending on it (stream order).  The functions take the names and
 * types of cuda.h, whose macros give them the versioned symbol names the
 * real driver exports.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>

#define FAKE_MEMORY	(2ull << 30)

struct CUfunc_st {
	void (*wrapper)(void **);
	int (*launch)(void (*)(void **), void **, unsigned int, unsigned int);
	struct CUfunc_st *next;
};

struct CUmod_st {
	void *so;
	char dir[64];
	struct CUfunc_st *fns;	/* freed with the module */
};

struct CUstream_st {
	int unused;
};

struct CUevent_st {
	CUstream stream;	/* the stream it was last recorded on */
};

struct CUctx_st {
	int unused;
};

static struct CUctx_st primary;
static unsigned long long in_use;

CUresult cuInit(unsigned int flags)
{
	return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **str)
{
	*str = error == CUDA_ERROR_OUT_OF_MEMORY ? "out of memory" : "fake CUDA error";
	return CUDA_SUCCESS;
}

static int device_count(void)
{
	const char *e = getenv("FAKE_CUDA_DEVICES");
	int n = e ? atoi(e) : 1;

	return n < 1 ? 1 : n > 8 ? 8 : n;
}

CUresult cuDeviceGetCount(int *count)
{
	*count = device_count();
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
	if (ordinal < 0 || ordinal >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	*dev = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	(void)dev;
	snprintf(name, (size_t)len, "fake GPU (CPU emulation)");
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
	(void)dev;
	*bytes = FAKE_MEMORY;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute attr, CUdevice dev)
{
	(void)dev;
	switch (attr) {
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		*v = 4;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		*v = 9;
		break;
	default:
		*v = 0;
		break;
	}
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	(void)dev;
	*ctx = &primary;
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	(void)dev;
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	(void)ctx;
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	return CUDA_SUCCESS;
}

/* The size sits before the block, for the accounting of cuMemFree. */
CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
	uint8_t *m;

	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	if (bytes > FAKE_MEMORY - __atomic_load_n(&in_use, __ATOMIC_RELAXED))
		return CUDA_ERROR_OUT_OF_MEMORY;
	m = aligned_alloc(256, 256 + (bytes + 255) / 256 * 256);
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(m, &bytes, sizeof(bytes));
	__atomic_fetch_add(&in_use, bytes, __ATOMIC_RELAXED);
	*p = (CUdeviceptr)(uintptr_t)(m + 256);
	return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr p)
{
	uint8_t *m = (uint8_t *)(uintptr_t)p - 256;
	size_t bytes;

	memcpy(&bytes, m, sizeof(bytes));
	__atomic_fetch_sub(&in_use, bytes, __ATOMIC_RELAXED);
	free(m);
	return CUDA_SUCCESS;
}

CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned int flags)
{
	(void)flags;
	*p = aligned_alloc(64, (bytes + 63) / 64 * 64);
	return *p ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuMemFreeHost(void *p)
{
	free(p);
	return CUDA_SUCCESS;
}

/*
 * Operations fake_nccl.c has enqueued on @s and not finished: kernels and
 * copies happen at once here, NCCL's meetings once every rank came.
 */
static int nccl_busy(CUstream s)
{
	static int (*busy)(const void *);
	static int looked;
	void *h;

	if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
		h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_NOLOAD);
		if (h)
			*(void **)&busy = dlsym(h, "fake_nccl_busy");
		if (busy)	/* found once it is loaded: look until then */
			__atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
	}
	return busy ? busy(s) : 0;
}

CUresult cuStreamSynchronize(CUstream s)
{
	while (nccl_busy(s))
		usleep(50);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	cuStreamSynchronize(s);	/* after what NCCL has pending on it */
	memcpy((void *)(uintptr_t)dst, src, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	cuStreamSynchronize(s);	/* after what NCCL has pending on it */
	memcpy(dst, (const void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	cuStreamSynchronize(s);	/* after what NCCL has pending on it */
	memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s)
{
	cuStreamSynchronize(s);	/* after what NCCL has pending on it */
	memset((void *)(uintptr_t)dst, v, n);
	return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *s, unsigned int flags)
{
	(void)flags;
	*s = calloc(1, sizeof(**s));
	return *s ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuStreamDestroy(CUstream s)
{
	free(s);
	return CUDA_SUCCESS;
}


CUresult cuEventCreate(CUevent *e, unsigned int flags)
{
	(void)flags;
	*e = calloc(1, sizeof(**e));
	return *e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuEventRecord(CUevent e, CUstream s)
{
	e->stream = s;
	return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent e)
{
	return nccl_busy(e->stream) ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent e)
{
	return cuStreamSynchronize(e->stream);
}

CUresult cuEventDestroy(CUevent e)
{
	free(e);
	return CUDA_SUCCESS;
}

/* Appends to a growing string; false when out of memory. */
static int put(char **t, size_t *len, const char *s, size_t n)
{
	char *p = realloc(*t, *len + n + 1);

	if (!p)
		return 0;
	memcpy(p + *len, s, n);
	*len += n;
	p[*len] = '\0';
	*t = p;
	return 1;
}

/*
 * For each kernel "extern "C" __global__ void __launch_bounds__(N) NAME(T a, ...)",
 * a wrapper NAME__w(void **params) that calls it with *(T *)params[i].
 */
static int wrappers(const char *src, char **t, size_t *len)
{
	static const char mark[] = "extern \"C\" __global__ void __launch_bounds__(";
	const char *p = src;
	char line[4096];

	while ((p = strstr(p, mark))) {
		const char *name = strchr(p + sizeof(mark) - 1, ')') + 2;
		const char *open = strchr(name, '('), *close = strchr(open, ')'), *a = open + 1;
		int i = 0, at;

		at = snprintf(line, sizeof(line), "extern \"C\" void %.*s__w(void **a) { %.*s(",
			      (int)(open - name), name, (int)(open - name), name);
		while (a < close) {
			const char *comma = memchr(a, ',', (size_t)(close - a)), *end = comma ? comma : close;
			const char *id = end;

			while (id > a && id[-1] != ' ' && id[-1] != '*')
				id--;
			at += snprintf(line + at, sizeof(line) - (size_t)at, "%s*(%.*s*)a[%d]",
				       i ? ", " : "", (int)(id - a), a, i);
			i++;
			a = comma ? comma + 2 : close;
		}
		at += snprintf(line + at, sizeof(line) - (size_t)at, "); }\n");
		if (!put(t, len, line, (size_t)at))
			return 0;
		p = close;
	}
	return 1;
}

CUresult cuModuleLoadData(CUmodule *mod, const void *image)
{
	struct CUmod_st *m = calloc(1, sizeof(*m));
	char path[128], cmd[512], *t = NULL, *shim = NULL;
	size_t len = 0, n = 0;
	FILE *f = fopen(CUDA_EMU_SHIM, "r");
	int ok = f != NULL;

	if (ok) {
		shim = malloc(1 << 20);
		n = shim ? fread(shim, 1, (1 << 20) - 1, f) : 0;
		fclose(f);
		ok = n > 0;
	}
	snprintf(m->dir, sizeof(m->dir), "/tmp/xrt-fake-cuda-XXXXXX");
	ok = ok && m && mkdtemp(m->dir) && put(&t, &len, "#define XRT_CUDA_EMU 1\n", 23) &&
	     put(&t, &len, shim, n) && put(&t, &len, image, strlen(image)) &&
	     wrappers(image, &t, &len);
	free(shim);
	if (ok) {
		snprintf(path, sizeof(path), "%s/module.cpp", m->dir);
		f = fopen(path, "w");
		ok = f && fwrite(t, 1, len, f) == len;
		if (f)
			fclose(f);
	}
	free(t);
	snprintf(cmd, sizeof(cmd), "g++ -std=gnu++17 -O1 -fPIC -shared -w -ffp-contract=off "
		 "-o %s/module.so %s/module.cpp 2>&1 | head -c 2000 >&2", m ? m->dir : "", m ? m->dir : "");
	ok = ok && !system(cmd);
	snprintf(path, sizeof(path), "%s/module.so", m ? m->dir : "");
	if (ok)
		m->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", m ? m->dir : "/nonexistent");
	if (m && m->dir[0] == '/' && system(cmd))
		ok = 0;
	if (!ok || !m->so) {
		free(m);
		return CUDA_ERROR_INVALID_IMAGE;
	}
	*mod = m;
	return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule mod)
{
	struct CUfunc_st *f;

	while ((f = mod->fns)) {
		mod->fns = f->next;
		free(f);
	}
	dlclose(mod->so);
	free(mod);
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *fn, CUmodule mod, const char *name)
{
	struct CUfunc_st *f = calloc(1, sizeof(*f));
	char w[128];

	snprintf(w, sizeof(w), "%s__w", name);
	if (f) {
		*(void **)&f->wrapper = dlsym(mod->so, w);
		*(void **)&f->launch = dlsym(mod->so, "emu_launch");
	}
	if (!f || !f->wrapper || !f->launch) {
		free(f);
		return CUDA_ERROR_NOT_FOUND;
	}
	f->next = mod->fns;
	mod->fns = f;
	*fn = f;
	return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
			unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,
			CUstream s, void **params, void **extra)
{
	cuStreamSynchronize(s);	/* after what NCCL has pending on it */
	if (gy != 1 || gz != 1 || by != 1 || bz != 1 || shared || extra || bx > 1024)
		return CUDA_ERROR_INVALID_VALUE;
	/* three blocks exercise the kernels' grid-stride loops and keep tests short */
	return f->launch(f->wrapper, params, gx < 3 ? gx : 3, bx) ? CUDA_ERROR_LAUNCH_FAILED :
								  CUDA_SUCCESS;
}
