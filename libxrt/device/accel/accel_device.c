// SPDX-License-Identifier: MIT
/*
 * Finding and opening xrt_accel devices, and their buffers.  accel:N is
 * the N-th render node, in minor order, whose driver is xrt_accel:
 * libdrm's drmGetDevices2 does not list platform devices, so each node
 * is opened and asked its driver's name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "core/mem.h"
#include "accel.h"

#define FIRST_RENDER_MINOR	128
#define LAST_RENDER_MINOR	191

int adev_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, request, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? errno : 0;
}

static enum xrt_code errno_code(int err)
{
	switch (err) {
	case EINVAL:
	case E2BIG:
		return XRT_INVALID_ARGUMENT;
	case ENOENT:
		return XRT_NOT_FOUND;
	case ENOMEM:
	case ENOSPC:
	case EDQUOT:
		return XRT_RESOURCE_EXHAUSTED;
	case ETIMEDOUT:
	case ETIME:
	case ELOOP:
		return XRT_DEADLINE_EXCEEDED;
	case ECANCELED:
		return XRT_ABORTED;
	case ENODEV:
	case EIO:
		return XRT_UNAVAILABLE;
	case EACCES:
	case EPERM:
		return XRT_PERMISSION_DENIED;
	default:
		return XRT_INTERNAL;
	}
}

xrt_status *adev_errno(const struct accel_dev *d, const struct xrt_allocator *a,
			const char *what, int err)
{
	/* "Disk quota exceeded" says nothing here: the driver's share per client */
	if (err == EDQUOT)
		return xrt_status_new(a, XRT_RESOURCE_EXHAUSTED,
				      "%s: %s: this client's share of device memory is used up "
				      "(the driver's client_memory_mb; errno %d)", d->base.info.name,
				      what, err);
	return xrt_status_new(a, errno_code(err), "%s: %s: %s (errno %d)", d->base.info.name,
			      what, strerror(err), err);
}

static bool is_accel(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool yes = v && !strcmp(v->name, "xrt_accel");

	drmFreeVersion(v);
	return yes;
}

/* Opens the @ordinal-th xrt_accel render node: its descriptor, or -1. */
static int open_nth(uint32_t ordinal)
{
	char path[64];
	int m, fd;

	for (m = FIRST_RENDER_MINOR; m <= LAST_RENDER_MINOR; m++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", m);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_accel(fd) && !ordinal--)
			return fd;
		close(fd);
	}
	return -1;
}

static uint64_t param(int fd, uint32_t p)
{
	struct drm_xrt_get_param g = { .param = p };

	return adev_ioctl(fd, DRM_IOCTL_XRT_GET_PARAM, &g) ? 0 : g.value;
}

static void describe(int fd, uint32_t ordinal, struct xrt_device_info *info)
{
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "accel:%u", ordinal);
	info->kind = XRT_DEVICE_ACCEL;
	info->ordinal = ordinal;
	info->memory_bytes = param(fd, DRM_XRT_PARAM_MEMORY_SIZE);
	info->compute_units = 1;	/* one engine per device */
}

static void adev_list(struct xrt_device_info *v, size_t max, size_t *n)
{
	uint32_t ordinal;
	int fd;

	for (ordinal = 0; *n < max; ordinal++) {
		fd = open_nth(ordinal);
		if (fd < 0)
			return;
		describe(fd, ordinal, &v[(*n)++]);
		close(fd);
	}
}

xrt_status *adev_buf_new(struct accel_dev *d, uint64_t bytes, const struct xrt_allocator *a,
			  struct xdev_buf *out)
{
	struct drm_xrt_bo_create c = { .size = bytes ? bytes : 1 };
	struct drm_xrt_bo_info i = { 0 };
	struct drm_gem_close cl = { 0 };
	void *p;
	int err;

	memset(out, 0, sizeof(*out));
	if (d->max_bo_size && bytes > d->max_bo_size)
		return xrt_status_new(a, XRT_RESOURCE_EXHAUSTED,
				      "%s: a buffer of %llu bytes; the largest the device makes "
				      "is %llu", d->base.info.name, (unsigned long long)bytes,
				      (unsigned long long)d->max_bo_size);
	err = adev_ioctl(d->fd, DRM_IOCTL_XRT_BO_CREATE, &c);
	if (err)
		return adev_errno(d, a, "DRM_IOCTL_XRT_BO_CREATE", err);
	i.handle = c.handle;
	err = adev_ioctl(d->fd, DRM_IOCTL_XRT_BO_INFO, &i);
	p = err ? MAP_FAILED : mmap(NULL, i.size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
				    (off_t)i.mmap_offset);
	if (p == MAP_FAILED) {
		xrt_status *st = adev_errno(d, a, err ? "DRM_IOCTL_XRT_BO_INFO" : "mmap",
					     err ? err : errno);

		cl.handle = c.handle;
		adev_ioctl(d->fd, DRM_IOCTL_GEM_CLOSE, &cl);
		return st;
	}
	out->data = p;
	out->size = i.size;
	out->bo = c.handle;
	return NULL;
}

void adev_buf_free(struct accel_dev *d, struct xdev_buf *b)
{
	struct drm_gem_close cl = { .handle = b->bo };

	if (!b->bo)
		return;
	if (b->data)
		munmap(b->data, b->size);
	adev_ioctl(d->fd, DRM_IOCTL_GEM_CLOSE, &cl);
	memset(b, 0, sizeof(*b));
}

/*
 * A buffer for the caller.  When the device is full, the programs it
 * keeps give way (they upload again when next run; a job running one
 * holds its buffers, so their memory comes back when it ends).
 */
static xrt_status *dev_alloc(struct xdev *x, uint64_t bytes, const struct xrt_allocator *a,
			     struct xdev_buf *out)
{
	struct accel_dev *d = to_accel(x);
	xrt_status *st = adev_buf_new(d, bytes, a, out);

	if (!st || xrt_status_code(st) != XRT_RESOURCE_EXHAUSTED || !adev_programs_kept(d))
		return st;
	xrt_status_free(st);
	pthread_mutex_lock(&d->lock);
	adev_programs_free(d);
	pthread_mutex_unlock(&d->lock);
	return adev_buf_new(d, bytes, a, out);
}

static void dev_free(struct xdev *d, struct xdev_buf *b, const struct xrt_allocator *a)
{
	(void)a;
	adev_buf_free(to_accel(d), b);
}

/* PRIME: the buffer leaves @from as a dma-buf and comes into @x. */
static xrt_status *dev_import(struct xdev *x, struct xdev *from, const struct xdev_buf *b,
			      const struct xrt_allocator *a, struct xdev_buf *out)
{
	struct accel_dev *d = to_accel(x);
	int fd, err;

	memset(out, 0, sizeof(*out));
	if (from->ops != x->ops)
		return xrt_status_new(a, XRT_UNIMPLEMENTED, "%s: cannot import a buffer of %s",
				      x->info.name, from->info.name);
	if (drmPrimeHandleToFD(to_accel(from)->fd, b->bo, DRM_CLOEXEC | DRM_RDWR, &fd))
		return adev_errno(to_accel(from), a, "DRM_IOCTL_PRIME_HANDLE_TO_FD", errno);
	err = drmPrimeFDToHandle(d->fd, fd, &out->bo) ? errno : 0;
	close(fd);
	if (err)
		return adev_errno(d, a, "DRM_IOCTL_PRIME_FD_TO_HANDLE", err);
	out->size = b->size;
	return NULL;
}

static void dev_wait_idle(struct xdev *x, const struct xdev_buf *b)
{
	struct drm_xrt_bo_wait w = { .handle = b->bo, .timeout_ns = INT64_MAX };

	/* the driver's job timeout bounds the wait */
	adev_ioctl(to_accel(x)->fd, DRM_IOCTL_XRT_BO_WAIT, &w);
}

static void dev_destroy(struct xdev *x)
{
	struct accel_dev *d = to_accel(x);

	adev_programs_free(d);
	pthread_mutex_destroy(&d->lock);
	close(d->fd);
	free(d);
}

static const struct xdev_ops accel_ops = {
	.alloc = dev_alloc,
	.free = dev_free,
	.import = dev_import,
	.wait_idle = dev_wait_idle,
	.queue_create = adev_queue_create,
	.queue_destroy = adev_queue_destroy,
	.run = adev_run,
	.submit = adev_submit,
	.event_wait = adev_event_wait,
	.event_free = adev_event_free,
	.destroy = dev_destroy,
	.collectives = true,
};

static xrt_status *adev_create(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out)
{
	struct accel_dev *d;
	int fd = open_nth(ordinal);

	if (fd < 0)
		return xrt_status_new(a, XRT_NOT_FOUND, "no accel:%u", ordinal);
	/* Shared by every user in the process: not from one caller's allocator. */
	d = calloc(1, sizeof(*d));
	if (!d || pthread_mutex_init(&d->lock, NULL)) {
		free(d);
		close(fd);
		return xrt_status_oom(a, "an accel device");
	}
	d->base.ops = &accel_ops;
	describe(fd, ordinal, &d->base.info);
	d->fd = fd;
	d->max_bo_size = param(fd, DRM_XRT_PARAM_MAX_BO_SIZE);
	d->run_limits = param(fd, DRM_XRT_PARAM_CAPABILITIES) & DRM_XRT_CAP_RUN_LIMITS;
	d->collectives = param(fd, DRM_XRT_PARAM_CAPABILITIES) & DRM_XRT_CAP_COLLECTIVES;
	*out = &d->base;
	return NULL;
}

const struct xdev_driver xdev_accel_driver = {
	.prefix = "accel",
	.kind = XRT_DEVICE_ACCEL,
	.list = adev_list,
	.create = adev_create,
};
