// SPDX-License-Identifier: MIT
/*
 * NVRTC compilation and its disk cache.  One translation unit per
 * program: the prelude then the program's kernels.  --fmad=false keeps
 * multiplies and adds apart as the command stream requires.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fingerprint.h"
#include "core/mem.h"
#include "cuda_compile.h"
#include "cuda_gen.h"

/* The cache folder, or false when caching is off or there is no home. */
static bool cache_dir(char *buf, size_t size)
{
	const char *env = getenv("XRT_CUDA_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && !strcmp(env, "off"))
		return false;
	if (env && *env)
		n = snprintf(buf, size, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, size, "%s/xrt/cuda", xdg);
	else if (home && *home)
		n = snprintf(buf, size, "%s/.cache/xrt/cuda", home);
	else
		return false;
	return n > 0 && (size_t)n < size;
}

/* mkdir -p of @path (a copy is cut at each slash). */
static void make_dirs(const char *path)
{
	char tmp[512];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0700);
		*p = '/';
	}
	mkdir(tmp, 0700);
}

static bool cache_read(const char *file, const struct xrt_allocator *a, void **out, size_t *size)
{
	struct stat sb;
	void *p = NULL;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	bool ok = false;

	if (fd < 0)
		return false;
	if (!fstat(fd, &sb) && sb.st_size > 0 && sb.st_size < (1 << 30)) {
		p = xrt_mem_alloc(a, (size_t)sb.st_size);
		ok = p && read(fd, p, (size_t)sb.st_size) == sb.st_size;
	}
	close(fd);
	if (!ok) {
		xrt_mem_free(a, p);
		return false;
	}
	*out = p;
	*size = (size_t)sb.st_size;
	return true;
}

/* Written to a temporary name and renamed: readers see all or nothing. */
static void cache_write(const char *dir, const char *file, const void *p, size_t size)
{
	char tmp[600];
	int fd;

	make_dirs(dir);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", file, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (write(fd, p, size) != (ssize_t)size || close(fd)) {
		unlink(tmp);
		return;
	}
	if (rename(tmp, file))
		unlink(tmp);
}

static xrt_status *nvrtc_fail(const struct cuda_api *cu, nvrtcProgram prog, nvrtcResult r,
			      const struct xrt_allocator *a)
{
	size_t n = 0;
	char *log = NULL;
	xrt_status *st;

	if (prog && cu->nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1) {
		log = xrt_mem_alloc(a, n);
		if (log && cu->nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
			log[0] = '\0';
	}
	st = xrt_status_new(a, XRT_INTERNAL, "cuda: NVRTC: %s%s%.2000s", cu->nvrtcGetErrorString(r),
			    log ? ": " : "", log ? log : "");
	xrt_mem_free(a, log);
	return st;
}

static xrt_status *nvrtc_build(const struct cuda_api *cu, const char *text, const char *arch,
			       bool cubin, const struct xrt_allocator *a, void **out, size_t *size)
{
	const char *opts[] = { arch, "--fmad=false", "--std=c++17", "-w" };
	nvrtcProgram prog = NULL;
	nvrtcResult r;
	xrt_status *st = NULL;
	size_t n = 0;
	void *p;

	r = cu->nvrtcCreateProgram(&prog, text, "xrt_program.cu", 0, NULL, NULL);
	if (r != NVRTC_SUCCESS)
		return nvrtc_fail(cu, NULL, r, a);
	r = cu->nvrtcCompileProgram(prog, 4, opts);
	if (r == NVRTC_SUCCESS)
		r = cubin ? cu->nvrtcGetCUBINSize(prog, &n) : cu->nvrtcGetPTXSize(prog, &n);
	if (r != NVRTC_SUCCESS) {
		st = nvrtc_fail(cu, prog, r, a);
		cu->nvrtcDestroyProgram(&prog);
		return st;
	}
	p = xrt_mem_alloc(a, n ? n : 1);
	if (p)
		r = cubin ? cu->nvrtcGetCUBIN(prog, p) : cu->nvrtcGetPTX(prog, p);
	if (!p)
		st = xrt_status_oom(a, "a CUDA module");
	else if (r != NVRTC_SUCCESS)
		st = nvrtc_fail(cu, prog, r, a);
	cu->nvrtcDestroyProgram(&prog);
	if (st) {
		xrt_mem_free(a, p);
		return st;
	}
	*out = p;
	*size = n;
	return NULL;
}

xrt_status *cuda_compile(const struct cuda_api *cu, const char *source, int major, int minor,
			 bool cubin, const struct xrt_allocator *a, void **out, size_t *size)
{
	size_t lp = strlen(cuda_prelude), ls = strlen(source);
	char arch[48], dir[400], file[512];
	bool cached;
	uint64_t fp[2];
	const char *why;
	xrt_status *st;
	char *text;

	cu = cuda_api_nvrtc(&why);
	if (!cu->have_nvrtc)
		return xrt_status_new(a, XRT_UNAVAILABLE, "cuda: %s", why);
	snprintf(arch, sizeof(arch), "--gpu-architecture=%s_%d%d", cubin ? "sm" : "compute",
		 major, minor);
	text = xrt_mem_alloc(a, lp + ls + sizeof(arch) + 2);
	if (!text)
		return xrt_status_oom(a, "a CUDA source");
	memcpy(text, cuda_prelude, lp);
	memcpy(text + lp, source, ls + 1);
	/* The arch goes into the fingerprint after the text, then off the end. */
	snprintf(text + lp + ls + 1, sizeof(arch) + 1, "%s", arch);
	xrt_fingerprint128(text, lp + ls + 1 + strlen(arch), fp);
	cached = cubin && cache_dir(dir, sizeof(dir));
	if (cached) {
		snprintf(file, sizeof(file), "%s/%016" PRIx64 "%016" PRIx64 ".cubin", dir, fp[0],
			 fp[1]);
		if (cache_read(file, a, out, size)) {
			xrt_mem_free(a, text);
			return NULL;
		}
	}
	st = nvrtc_build(cu, text, arch, cubin, a, out, size);
	xrt_mem_free(a, text);
	if (!st && cached)
		cache_write(dir, file, *out, *size);
	return st;
}

xrt_status *cuda_source_image(const char *source, const struct xrt_allocator *a, void **out)
{
	size_t lp = strlen(cuda_prelude), ls = strlen(source);
	char *text = xrt_mem_alloc(a, lp + ls + 1);

	if (!text)
		return xrt_status_oom(a, "a CUDA source");
	memcpy(text, cuda_prelude, lp);
	memcpy(text + lp, source, ls + 1);
	*out = text;
	return NULL;
}
