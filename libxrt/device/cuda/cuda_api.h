/* SPDX-License-Identifier: MIT */
/*
 * The CUDA libraries, loaded at run time: the driver (libcuda.so.1,
 * present only where an NVIDIA driver is), NVRTC, cuBLAS and NCCL (the
 * toolkit's).  libxrt links none of them, so it loads and works where
 * they are missing: the CUDA device is then simply absent.  The types
 * come from the toolkit's headers; each pointer has the type of the
 * function it is loaded from (the _v2 entry points where cuda.h maps to
 * them).
 */
#ifndef XRT_DEVICE_CUDA_API_H
#define XRT_DEVICE_CUDA_API_H

#include <stdbool.h>

#include <cuda.h>
#include <nvrtc.h>
#include <cublas_api.h>
#include <nccl.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

#define CUDA_DRIVER_FUNCTIONS(X) \
	X(cuInit) X(cuGetErrorString) X(cuDeviceGetCount) X(cuDeviceGet) \
	X(cuDeviceGetName) X(cuDeviceTotalMem) X(cuDeviceGetAttribute) \
	X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) \
	X(cuMemAlloc) X(cuMemFree) X(cuMemHostAlloc) X(cuMemFreeHost) \
	X(cuMemcpyHtoDAsync) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync) \
	X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) \
	X(cuEventCreate) X(cuEventRecord) X(cuEventQuery) X(cuEventSynchronize) \
	X(cuEventDestroy) X(cuCtxSynchronize) X(cuMemsetD8Async) \
	X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuLaunchKernel)

#define CUDA_NVRTC_FUNCTIONS(X) \
	X(nvrtcCreateProgram) X(nvrtcDestroyProgram) X(nvrtcCompileProgram) \
	X(nvrtcGetProgramLogSize) X(nvrtcGetProgramLog) X(nvrtcGetCUBINSize) \
	X(nvrtcGetCUBIN) X(nvrtcGetPTXSize) X(nvrtcGetPTX) X(nvrtcGetErrorString)

#define CUDA_BLAS_FUNCTIONS(X) \
	X(cublasCreate_v2) X(cublasDestroy_v2) X(cublasSetStream_v2) \
	X(cublasGemmStridedBatchedEx)

#define CUDA_NCCL_FUNCTIONS(X) \
	X(ncclGetErrorString) X(ncclCommInitAll) X(ncclCommSplit) X(ncclCommDestroy) \
	X(ncclCommAbort) X(ncclCommGetAsyncError) X(ncclAllReduce) X(ncclAllGather) \
	X(ncclReduceScatter) X(ncclBroadcast) X(ncclSend) X(ncclRecv) X(ncclGroupStart) \
	X(ncclGroupEnd) X(ncclGetUniqueId) X(ncclCommInitRankConfig)

#define CUDA_API_MEMBER(name) __typeof__(name) *name;

struct cuda_api {
	CUDA_DRIVER_FUNCTIONS(CUDA_API_MEMBER)
	CUDA_NVRTC_FUNCTIONS(CUDA_API_MEMBER)
	CUDA_BLAS_FUNCTIONS(CUDA_API_MEMBER)
	CUDA_NCCL_FUNCTIONS(CUDA_API_MEMBER)
	bool have_driver, have_nvrtc, have_blas, have_nccl;
	char why[160];		/* why there is no driver, for messages */
};

/*
 * The driver, loaded once per process (cuInit included): have_driver
 * says whether it did.  Never NULL.  NVRTC and cuBLAS are large and
 * loaded only when first needed, by the functions below (have_nvrtc,
 * have_blas; *@why says what is missing).
 */
const struct cuda_api *cuda_api_get(void);
const struct cuda_api *cuda_api_nvrtc(const char **why);
const struct cuda_api *cuda_api_blas(void);
/* NCCL, for collectives among cuda devices: have_nccl, or *@why says why not. */
const struct cuda_api *cuda_api_nccl(const char **why);

/* A status for a failed driver call: "cuda:N: what: CUDA_ERROR_...". */
xrt_status *cuda_error(const struct xrt_allocator *a, const struct cuda_api *api, CUresult r,
		       const char *what, int ordinal);

#endif /* XRT_DEVICE_CUDA_API_H */
