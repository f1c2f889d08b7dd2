// SPDX-License-Identifier: MIT
/*
 * cuda:N behind the device interface.  Buffers are plain device memory
 * (cuMemAlloc); the host reaches them through a pinned staging buffer of
 * two halves, so that copying one half in host memory overlaps the DMA
 * of the other.  Each program is compiled by NVRTC once per device (and
 * once per machine, through the disk cache) and kept with its constants,
 * the 64 most recently used.  The device is the primary context of the
 * GPU, shared with anything else in the process using the runtime API.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cstream/executable.h"
#include "device/device_program.h"
#include "core/mem.h"
#include "cuda_compile.h"
#include "cuda_device.h"

#define STAGING_HALF	(8u << 20)
#define KEPT_MODULES	64

xrt_status *cudev_enter(struct cuda_dev *d)
{
	CUresult r = d->cu->cuCtxSetCurrent(d->ctx);

	return r == CUDA_SUCCESS ? NULL : cuda_error(d->a, d->cu, r, "cuCtxSetCurrent",
						     (int)d->base.info.ordinal);
}

static xrt_status *fail(struct cuda_dev *d, CUresult r, const char *what,
			const struct xrt_allocator *a)
{
	return cuda_error(a, d->cu, r, what, (int)d->base.info.ordinal);
}

static xrt_status *cuda_alloc(struct xdev *xd, uint64_t bytes, const struct xrt_allocator *a,
			      struct xdev_buf *out)
{
	struct cuda_dev *d = to_cuda(xd);
	CUdeviceptr p = 0;
	xrt_status *st = cudev_enter(d);
	CUresult r;

	memset(out, 0, sizeof(*out));
	if (st)
		return st;
	/* 256-byte granules: zero-byte buffers get an address of their own */
	r = d->cu->cuMemAlloc(&p, bytes ? bytes : 1);
	if (r != CUDA_SUCCESS)
		return fail(d, r, "cuMemAlloc", a);
	out->addr = p;
	out->size = bytes;
	return NULL;
}

static void cuda_free(struct xdev *xd, struct xdev_buf *b, const struct xrt_allocator *a)
{
	struct cuda_dev *d = to_cuda(xd);
	xrt_status *st = cudev_enter(d);

	(void)a;
	xrt_status_free(st);
	if (!st && b->addr)
		d->cu->cuMemFree(b->addr);
	b->addr = 0;
}

/* Waits for every queue: a buffer may be read by any of them. */
static void cuda_wait_idle(struct xdev *xd, const struct xdev_buf *b)
{
	struct cuda_dev *d = to_cuda(xd);
	xrt_status *st = cudev_enter(d);

	(void)b;
	xrt_status_free(st);
	if (!st)
		d->cu->cuCtxSynchronize();
}

/* Host to device through the staging halves; the device's lock is held. */
static CUresult put_locked(struct cuda_dev *d, CUdeviceptr dst, const uint8_t *src, uint64_t n)
{
	uint64_t at = 0;
	int half = 0;
	CUresult r = CUDA_SUCCESS;

	while (at < n && r == CUDA_SUCCESS) {
		uint64_t len = n - at < STAGING_HALF ? n - at : STAGING_HALF;
		uint8_t *stage = d->staging + (size_t)half * STAGING_HALF;

		r = d->cu->cuEventSynchronize(d->staged[half]);
		if (r != CUDA_SUCCESS)
			break;
		memcpy(stage, src + at, len);
		r = d->cu->cuMemcpyHtoDAsync(dst + at, stage, len, d->copy);
		if (r == CUDA_SUCCESS)
			r = d->cu->cuEventRecord(d->staged[half], d->copy);
		at += len;
		half ^= 1;
	}
	if (r == CUDA_SUCCESS)
		r = d->cu->cuStreamSynchronize(d->copy);
	return r;
}

/* Device to host: the next half's copy is under way while this one is read. */
static CUresult get_locked(struct cuda_dev *d, uint8_t *dst, CUdeviceptr src, uint64_t n)
{
	uint64_t at = 0, next = 0;
	int half = 0;
	CUresult r = CUDA_SUCCESS;

	while (at < n && r == CUDA_SUCCESS) {
		/* keep one copy ahead */
		while (next < n && next < at + 2 * (uint64_t)STAGING_HALF && r == CUDA_SUCCESS) {
			uint64_t len = n - next < STAGING_HALF ? n - next : STAGING_HALF;
			int h = (int)((next / STAGING_HALF) & 1);

			r = d->cu->cuMemcpyDtoHAsync(d->staging + (size_t)h * STAGING_HALF,
						     src + next, len, d->copy);
			if (r == CUDA_SUCCESS)
				r = d->cu->cuEventRecord(d->staged[h], d->copy);
			next += len;
		}
		if (r != CUDA_SUCCESS)
			break;
		{
			uint64_t len = n - at < STAGING_HALF ? n - at : STAGING_HALF;

			r = d->cu->cuEventSynchronize(d->staged[half]);
			if (r == CUDA_SUCCESS)
				memcpy(dst + at, d->staging + (size_t)half * STAGING_HALF, len);
			at += len;
			half ^= 1;
		}
	}
	return r;
}

static xrt_status *cuda_write(struct xdev *xd, struct xdev_buf *b, uint64_t off, const void *src,
			      uint64_t n, const struct xrt_allocator *a)
{
	struct cuda_dev *d = to_cuda(xd);
	xrt_status *st = cudev_enter(d);
	CUresult r;

	if (st)
		return st;
	pthread_mutex_lock(&d->lock);
	r = put_locked(d, b->addr + off, src, n);
	pthread_mutex_unlock(&d->lock);
	return r == CUDA_SUCCESS ? NULL : fail(d, r, "a copy to the device", a);
}

static xrt_status *cuda_read(struct xdev *xd, const struct xdev_buf *b, uint64_t off, void *dst,
			     uint64_t n, const struct xrt_allocator *a)
{
	struct cuda_dev *d = to_cuda(xd);
	xrt_status *st = cudev_enter(d);
	CUresult r;

	if (st)
		return st;
	pthread_mutex_lock(&d->lock);
	r = get_locked(d, dst, b->addr + off, n);
	pthread_mutex_unlock(&d->lock);
	return r == CUDA_SUCCESS ? NULL : fail(d, r, "a copy from the device", a);
}

static void module_free(struct cuda_dev *d, struct cuda_module *m)
{
	if (m->mod)
		d->cu->cuModuleUnload(m->mod);
	if (m->consts)
		d->cu->cuMemFree(m->consts);
	cuda_plan_release(&m->plan);
	xrt_mem_free(d->a, m->fn);
	xrt_mem_free(d->a, m);
}

/* Drops the least recently used idle module past the limit. */
static void evict_locked(struct cuda_dev *d)
{
	struct cuda_module **p, **victim = NULL;

	if (d->num_modules < KEPT_MODULES)
		return;
	for (p = &d->modules; *p; p = &(*p)->next)
		if (!(*p)->refs && (!victim || (*p)->last_use < (*victim)->last_use))
			victim = p;
	if (!victim)
		return;
	{
		struct cuda_module *m = *victim;

		*victim = m->next;
		d->num_modules--;
		/* kernels launched from it may still be queued */
		d->cu->cuCtxSynchronize();
		module_free(d, m);
	}
}

static uint32_t kernel_count(const struct cuda_plan *plan)
{
	uint32_t n = 0, i, k;

	for (i = 0; i < plan->num_steps; i++)
		for (k = 0; k < 2; k++)
			if (plan->steps[i].kernel[k].threads && plan->steps[i].kernel[k].index >= n)
				n = plan->steps[i].kernel[k].index + 1;
	return n;
}

static xrt_status *load(struct cuda_dev *d, const struct xrt_executable *exe,
			struct cuda_module *m)
{
	void *image = NULL;
	size_t size = 0;
	const struct xdev_program *loaded;
	char name[32];
	xrt_status *st;
	CUresult r;
	uint32_t i, k;

	st = xdev_program_of(exe, &loaded);
	if (!st)
		st = cuda_plan_build(&loaded->prog, "", d->a, &m->plan);
	if (st)
		return st;
	m->num_fn = kernel_count(&m->plan);
	m->fn = xrt_mem_calloc(d->a, m->num_fn ? m->num_fn : 1, sizeof(*m->fn));
	if (!m->fn)
		return xrt_status_oom(d->a, "a CUDA module");
	if (m->num_fn) {
		st = getenv("XRT_CUDA_LOAD_SOURCE") ?
		     cuda_source_image(m->plan.source, d->a, &image) :
		     cuda_compile(d->cu, m->plan.source, d->major, d->minor, true, d->a, &image,
				  &size);
		if (st)
			return st;
		r = d->cu->cuModuleLoadData(&m->mod, image);
		xrt_mem_free(d->a, image);
		if (r != CUDA_SUCCESS)
			return fail(d, r, "cuModuleLoadData", d->a);
	}
	for (i = 0; i < m->plan.num_steps; i++) {
		for (k = 0; k < 2; k++) {
			const struct cg_kernel *kn = &m->plan.steps[i].kernel[k];

			if (!kn->threads)
				continue;
			snprintf(name, sizeof(name), "k%u", kn->index);
			r = d->cu->cuModuleGetFunction(&m->fn[kn->index], m->mod, name);
			if (r != CUDA_SUCCESS)
				return fail(d, r, "cuModuleGetFunction", d->a);
		}
	}
	if (exe->constants_size) {
		r = d->cu->cuMemAlloc(&m->consts, exe->constants_size);
		if (r == CUDA_SUCCESS)
			r = put_locked(d, m->consts, exe->constants, exe->constants_size);
		if (r != CUDA_SUCCESS)
			return fail(d, r, "uploading constants", d->a);
	}
	return NULL;
}

xrt_status *cudev_module(struct cuda_dev *d, const struct xrt_executable *exe,
			 struct cuda_module **out)
{
	struct cuda_module *m;
	xrt_status *st = xdev_refuse_calls(exe, "a CUDA device", "its programs run as kernels "
					   "on the GPU", d->a);

	*out = NULL;
	if (st)
		return st;
	pthread_mutex_lock(&d->lock);
	for (m = d->modules; m && m->exe_id != exe->id; m = m->next)
		;
	if (!m) {
		evict_locked(d);
		m = xrt_mem_calloc(d->a, 1, sizeof(*m));
		st = m ? load(d, exe, m) : xrt_status_oom(d->a, "a CUDA module");
		if (st && m) {
			module_free(d, m);
			m = NULL;
		} else if (m) {
			m->exe_id = exe->id;
			m->next = d->modules;
			d->modules = m;
			d->num_modules++;
		}
	}
	if (m) {
		m->refs++;
		m->last_use = ++d->clock;
	}
	pthread_mutex_unlock(&d->lock);
	*out = m;
	return st;
}

void cudev_module_unref(struct cuda_dev *d, struct cuda_module *m)
{
	pthread_mutex_lock(&d->lock);
	m->refs--;
	pthread_mutex_unlock(&d->lock);
}

static void cuda_destroy(struct xdev *xd)
{
	struct cuda_dev *d = to_cuda(xd);
	struct cuda_module *m;

	xrt_status_free(cudev_enter(d));
	d->cu->cuCtxSynchronize();
	while ((m = d->modules)) {
		d->modules = m->next;
		module_free(d, m);
	}
	if (d->staging)
		d->cu->cuMemFreeHost(d->staging);
	if (d->staged[0])
		d->cu->cuEventDestroy(d->staged[0]);
	if (d->staged[1])
		d->cu->cuEventDestroy(d->staged[1]);
	if (d->copy)
		d->cu->cuStreamDestroy(d->copy);
	if (d->ctx)
		d->cu->cuDevicePrimaryCtxRelease(d->dev);
	pthread_mutex_destroy(&d->lock);
	xrt_mem_free(d->a, d);
}

static const struct xdev_ops cuda_ops = {
	.alloc = cuda_alloc,
	.free = cuda_free,
	.write = cuda_write,
	.read = cuda_read,
	.wait_idle = cuda_wait_idle,
	.queue_create = cuda_queue_create,
	.queue_destroy = cuda_queue_destroy,
	.run = cuda_run,
	.submit = cuda_submit,
	.event_wait = cuda_event_wait,
	.event_free = cuda_event_free,
	.destroy = cuda_destroy,
	.collectives = true,
	.comm_create = cuda_comm_create,
};

/* The listing of device @i. */
static bool describe(const struct cuda_api *cu, int i, struct xrt_device_info *info)
{
	size_t mem = 0;
	int sms = 0;
	CUdevice dev;

	if (cu->cuDeviceGet(&dev, i) != CUDA_SUCCESS || cu->cuDeviceTotalMem(&mem, dev) ||
	    cu->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev))
		return false;
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "cuda:%d", i);
	info->kind = XRT_DEVICE_CUDA;
	info->ordinal = (uint32_t)i;
	info->memory_bytes = mem;
	info->compute_units = (uint32_t)sms;
	return true;
}

static void cuda_dev_list(struct xrt_device_info *v, size_t max, size_t *n)
{
	const struct cuda_api *cu = cuda_api_get();
	int count = 0, i;

	if (!cu->have_driver || cu->cuDeviceGetCount(&count) != CUDA_SUCCESS)
		return;
	for (i = 0; i < count && *n < max; i++)
		if (describe(cu, i, &v[*n]))
			(*n)++;
}

static xrt_status *setup(struct cuda_dev *d, uint32_t ordinal)
{
	const struct cuda_api *cu = d->cu;
	CUresult r;

	r = cu->cuDeviceGet(&d->dev, (int)ordinal);
	if (r == CUDA_SUCCESS)
		r = cu->cuDeviceGetAttribute(&d->major,
					     CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->dev);
	if (r == CUDA_SUCCESS)
		r = cu->cuDeviceGetAttribute(&d->minor,
					     CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->dev);
	if (r == CUDA_SUCCESS)
		r = cu->cuDevicePrimaryCtxRetain(&d->ctx, d->dev);
	if (r != CUDA_SUCCESS)
		return fail(d, r, "opening the device", d->a);
	r = cu->cuCtxSetCurrent(d->ctx);
	if (r == CUDA_SUCCESS)
		r = cu->cuStreamCreate(&d->copy, CU_STREAM_NON_BLOCKING);
	if (r == CUDA_SUCCESS)
		r = cu->cuEventCreate(&d->staged[0], CU_EVENT_DISABLE_TIMING);
	if (r == CUDA_SUCCESS)
		r = cu->cuEventCreate(&d->staged[1], CU_EVENT_DISABLE_TIMING);
	if (r == CUDA_SUCCESS)
		r = cu->cuMemHostAlloc((void **)&d->staging, 2 * (size_t)STAGING_HALF, 0);
	return r == CUDA_SUCCESS ? NULL : fail(d, r, "setting up the device", d->a);
}

static xrt_status *cuda_dev_create(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out)
{
	const struct cuda_api *cu = cuda_api_get();
	struct cuda_dev *d;
	xrt_status *st;

	if (!cu->have_driver)
		return xrt_status_new(a, XRT_NOT_FOUND, "cuda: %s", cu->why);
	d = xrt_mem_calloc(a, 1, sizeof(*d));
	if (!d)
		return xrt_status_oom(a, "a CUDA device");
	d->cu = cu;
	d->a = a;
	d->base.ops = &cuda_ops;
	if (pthread_mutex_init(&d->lock, NULL)) {
		xrt_mem_free(a, d);
		return xrt_status_oom(a, "a CUDA device");
	}
	if (!describe(cu, (int)ordinal, &d->base.info)) {
		pthread_mutex_destroy(&d->lock);
		xrt_mem_free(a, d);
		return xrt_status_new(a, XRT_NOT_FOUND, "no GPU %u", ordinal);
	}
	st = setup(d, ordinal);
	if (st) {
		cuda_destroy(&d->base);
		return st;
	}
	*out = &d->base;
	return NULL;
}

const struct xdev_driver xdev_cuda_driver = {
	.prefix = "cuda",
	.kind = XRT_DEVICE_CUDA,
	.list = cuda_dev_list,
	.create = cuda_dev_create,
	.says_why = true,	/* no driver, no GPU, a failed cuInit */
};
