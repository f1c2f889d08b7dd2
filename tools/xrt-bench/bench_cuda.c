// SPDX-License-Identifier: MIT
/*
 * cuda:0 against the CUDA libraries called directly, in the same run:
 * DOT (f32 and bf16 in, f32 accumulate, square 4096 and 8192) against
 * cublasGemmEx on the same device buffers; the fused chain
 * tanh(a*x+b)*c over 2^30 f32 against a device-to-device memcpy of the
 * same bytes (bandwidth: read + write); and the library's cost of
 * executing a tiny cached program against a bare kernel launch and
 * stream sync.  Nothing runs without a GPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/device.h>
#include <xrt/xrt.h>

#include "bench.h"
#include "device/cuda/cuda_api.h"
#include "device/cuda/cuda_compile.h"

static bool have_gpu(void)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;
	bool found = false;

	bench_check(xrt_devices_list(NULL, &v, &n), "devices");
	for (i = 0; i < n; i++)
		found |= v[i].kind == XRT_DEVICE_CUDA;
	xrt_free(NULL, v);
	return found;
}

static void cu_check(CUresult r, const char *what)
{
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "xrt-bench: %s: CUDA error %d\n", what, (int)r);
		exit(1);
	}
}

/* Seconds of the best of @reps runs of @h's program on @args (result released). */
static double best_exec(xrt_session *s, xrt_handle c, const xrt_handle *args, uint32_t n,
			int runs, int reps)
{
	double best = 1e9, t;
	xrt_handle r;
	int i, k;

	for (k = 0; k < reps; k++) {
		t = bench_now();
		for (i = 0; i < runs; i++) {
			bench_check(xrt_execute(s, c, args, n, NULL, &r), "execute");
			bench_check(xrt_release_allocations(s, &r, 1), "release");
		}
		t = (bench_now() - t) / runs;
		best = t < best ? t : best;
	}
	return best;
}

/* An argument made on the device by a program: no host transfer of gigabytes. */
static xrt_handle made_on_device(xrt_session *s, const char *type, int64_t n0, int64_t n1)
{
	char text[400];
	xrt_handle c, r;

	if (n1)
		snprintf(text, sizeof(text), "HloModule mk\nENTRY e {\n  c = %s[] constant(0.5)\n"
			 "  ROOT b = %s[%lld,%lld] broadcast(c), dimensions={}\n}\n", type, type,
			 (long long)n0, (long long)n1);
	else
		snprintf(text, sizeof(text), "HloModule mk\nENTRY e {\n  c = %s[] constant(0.5)\n"
			 "  ROOT b = %s[%lld] broadcast(c), dimensions={}\n}\n", type, type,
			 (long long)n0);
	bench_check(xrt_compile_hlo(s, text, strlen(text), &c), "compile an input");
	bench_check(xrt_execute(s, c, NULL, 0, NULL, &r), "make an input");
	bench_check(xrt_release_compilations(s, &c, 1), "release");
	return r;
}

/* cublasGemmEx on buffers of the same size, f32 out, f32 compute. */
static double cublas_dot(int n, bool bf16, int reps)
{
	const struct cuda_api *cu = cuda_api_blas();
	size_t in = (size_t)n * n * (bf16 ? 2 : 4), out = (size_t)n * n * 4;
	CUdeviceptr a, b, c;
	cublasHandle_t h;
	float one = 1, zero = 0;
	double best = 1e9, t;
	int k;

	cu_check(cu->cuMemAlloc(&a, in), "cuMemAlloc");
	cu_check(cu->cuMemAlloc(&b, in), "cuMemAlloc");
	cu_check(cu->cuMemAlloc(&c, out), "cuMemAlloc");
	if (!cu->have_blas || cu->cublasCreate_v2(&h) != CUBLAS_STATUS_SUCCESS)
		cu_check(CUDA_ERROR_UNKNOWN, "cublasCreate");
	for (k = 0; k <= reps; k++) {
		t = bench_now();
		cu->cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
					       (void *)(uintptr_t)b, bf16 ? CUDA_R_16BF : CUDA_R_32F,
					       n, 0, (void *)(uintptr_t)a,
					       bf16 ? CUDA_R_16BF : CUDA_R_32F, n, 0, &zero,
					       (void *)(uintptr_t)c, CUDA_R_32F, n, 0, 1,
					       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
		cu_check(cu->cuCtxSynchronize(), "cublas sgemm");
		t = bench_now() - t;
		if (k)	/* the first call loads the kernels */
			best = t < best ? t : best;
	}
	cu->cublasDestroy_v2(h);
	cu->cuMemFree(a);
	cu->cuMemFree(b);
	cu->cuMemFree(c);
	return best;
}

static void dot(struct result *r, xrt_session *s, int n, bool bf16, int reps)
{
	const char *t = bf16 ? "bf16" : "f32";
	double flops = 2.0 * n * n * n, ours;
	char text[400];
	xrt_handle c, args[2];

	snprintf(text, sizeof(text), "HloModule d\nENTRY e {\n  a = %s[%d,%d] parameter(0)\n"
		 "  b = %s[%d,%d] parameter(1)\n  ROOT d = f32[%d,%d] dot(a, b), "
		 "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n", t, n, n, t, n, n, n, n);
	bench_check(xrt_compile_hlo(s, text, strlen(text), &c), "compile dot");
	args[0] = made_on_device(s, t, n, n);
	args[1] = made_on_device(s, t, n, n);
	best_exec(s, c, args, 2, 1, 1);	/* compiles the kernels */
	ours = best_exec(s, c, args, 2, 1, reps);
	*r = (struct result){ NULL, "TFLOP/s", flops / ours / 1e12,
			      flops / cublas_dot(n, bf16, reps) / 1e12, 0.9,
			      "cublasGemmEx direct" };
	bench_check(xrt_release_allocations(s, args, 2), "release");
	bench_check(xrt_release_compilations(s, &c, 1), "release");
}

static double memcpy_d2d(size_t bytes, int reps)
{
	const struct cuda_api *cu = cuda_api_get();
	CUdeviceptr a, b;
	double best = 1e9, t;
	int k;

	cu_check(cu->cuMemAlloc(&a, bytes), "cuMemAlloc");
	cu_check(cu->cuMemAlloc(&b, bytes), "cuMemAlloc");
	for (k = 0; k <= reps; k++) {
		t = bench_now();
		cu_check(cu->cuMemcpyDtoDAsync(b, a, bytes, NULL), "cuMemcpyDtoD");
		cu_check(cu->cuCtxSynchronize(), "cuMemcpyDtoD");
		t = bench_now() - t;
		if (k)
			best = t < best ? t : best;
	}
	cu->cuMemFree(a);
	cu->cuMemFree(b);
	return best;
}

static void fused(struct result *r, xrt_session *s, int64_t n, int reps)
{
	char text[600];
	double ours, bytes = 8.0 * (double)n;
	xrt_handle c, x;

	snprintf(text, sizeof(text), "HloModule f\nENTRY e {\n  x = f32[%lld] parameter(0)\n"
		 "  a = f32[] constant(1.5)\n  b = f32[] constant(-0.25)\n  c = f32[] constant(2)\n"
		 "  ab = f32[%lld] broadcast(a), dimensions={}\n"
		 "  bb = f32[%lld] broadcast(b), dimensions={}\n"
		 "  cb = f32[%lld] broadcast(c), dimensions={}\n"
		 "  m = f32[%lld] multiply(ab, x)\n  p = f32[%lld] add(m, bb)\n"
		 "  t = f32[%lld] tanh(p)\n  ROOT y = f32[%lld] multiply(t, cb)\n}\n",
		 (long long)n, (long long)n, (long long)n, (long long)n, (long long)n,
		 (long long)n, (long long)n, (long long)n);
	bench_check(xrt_compile_hlo(s, text, strlen(text), &c), "compile fused");
	x = made_on_device(s, "f32", n, 0);
	best_exec(s, c, &x, 1, 1, 1);
	ours = best_exec(s, c, &x, 1, 1, reps);
	*r = (struct result){ "cuda fused tanh 2^30 f32", "GB/s", bytes / ours / 1e9,
			      bytes / memcpy_d2d((size_t)n * 4, reps) / 1e9, 0.8,
			      "cuMemcpyDtoD" };
	bench_check(xrt_release_allocations(s, &x, 1), "release");
	bench_check(xrt_release_compilations(s, &c, 1), "release");
}

static const char empty_kernel[] = "extern \"C\" __global__ void k0(float *p) { if (p) *p = 0; }\n";

/* A bare launch of an empty kernel and a stream sync: runs per second. */
static double bare_launch(int runs, int reps)
{
	const struct cuda_api *cu = cuda_api_get();
	CUdevice dev;
	CUmodule mod;
	CUfunction fn;
	CUstream st;
	int major = 0, minor = 0, i, k;
	void *image = NULL, *p = NULL, *params[1] = { &p };
	size_t size;
	double best = 1e9, t;

	cu_check(cu->cuDeviceGet(&dev, 0), "cuDeviceGet");
	cu->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	cu->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	bench_check(cuda_compile(cuda_api_get(), empty_kernel, major, minor, true, NULL, &image, &size),
		    "compile the empty kernel");
	cu_check(cu->cuModuleLoadData(&mod, image), "cuModuleLoadData");
	xrt_free(NULL, image);
	cu_check(cu->cuModuleGetFunction(&fn, mod, "k0"), "cuModuleGetFunction");
	cu_check(cu->cuStreamCreate(&st, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
	for (k = 0; k < reps; k++) {
		t = bench_now();
		for (i = 0; i < runs; i++) {
			cu_check(cu->cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, st, params, NULL),
				 "cuLaunchKernel");
			cu_check(cu->cuStreamSynchronize(st), "cuStreamSynchronize");
		}
		t = (bench_now() - t) / runs;
		best = t < best ? t : best;
	}
	cu->cuStreamDestroy(st);
	cu->cuModuleUnload(mod);
	return 1 / best;
}

static void tiny(struct result *r, xrt_session *s, int runs, int reps)
{
	static const char text[] = "HloModule tiny\nENTRY e {\n  a = f32[4] parameter(0)\n"
				    "  b = f32[4] parameter(1)\n  ROOT s = f32[4] add(a, b)\n}\n";
	xrt_handle c, args[2];

	bench_check(xrt_compile_hlo(s, text, strlen(text), &c), "compile tiny");
	args[0] = made_on_device(s, "f32", 4, 0);
	args[1] = made_on_device(s, "f32", 4, 0);
	best_exec(s, c, args, 2, 10, 1);
	*r = (struct result){ "cuda tiny execute", "runs/s", 1 / best_exec(s, c, args, 2, runs, reps),
			      bare_launch(runs, reps), 0, "launch + sync, bare" };
	bench_check(xrt_release_allocations(s, args, 2), "release");
	bench_check(xrt_release_compilations(s, &c, 1), "release");
}

int bench_cuda(struct result *r, bool quick)
{
	static const char *const names[] = {
		"cuda dot f32 4096", "cuda dot bf16 4096", "cuda dot f32 8192", "cuda dot bf16 8192",
	};
	const struct xrt_session_options o = { "cuda:0", 0, false };
	int reps = quick ? 2 : 5, k = 0, i;
	xrt_session *s;

	if (!have_gpu()) {
		fprintf(stderr, "xrt-bench: no GPU: the cuda group needs one (%s)\n",
			cuda_api_get()->why);
		return 0;
	}
	bench_check(xrt_session_create(&o, NULL, &s), "cuda:0");
	for (i = 0; i < (quick ? 2 : 4); i++) {
		dot(&r[k], s, i < 2 ? 4096 : 8192, i & 1, reps);
		r[k++].name = names[i];
	}
	fused(&r[k++], s, quick ? 1 << 26 : 1 << 30, reps);
	tiny(&r[k++], s, quick ? 1000 : 20000, reps);
	xrt_session_destroy(s);
	return k;
}
