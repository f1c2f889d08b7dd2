// SPDX-License-Identifier: MIT
/*
 * Helpers for tests of the xrt_accel driver (see accel.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/sync_file.h>
#include <xf86drm.h>

#include "accel.h"

int accel_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, request, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

static int is_accel(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	int yes = v && !strcmp(v->name, "xrt_accel");

	drmFreeVersion(v);
	return yes;
}

int accel_open(unsigned int index)
{
	char path[64];
	int minor, fd;

	/* drmGetDevices2 does not list platform devices: ask each node. */
	for (minor = 128; minor < 192; minor++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_accel(fd) && !index--)
			return fd;
		close(fd);
	}
	return -ENODEV;
}

int accel_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_xrt_get_param a = { .param = param };
	int ret = accel_ioctl(fd, DRM_IOCTL_XRT_GET_PARAM, &a);

	*value = a.value;
	return ret;
}

int accel_bo_create(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_xrt_bo_create a = { .size = size };
	int ret = accel_ioctl(fd, DRM_IOCTL_XRT_BO_CREATE, &a);

	*handle = a.handle;
	return ret;
}

void *accel_bo_map(int fd, uint32_t handle, uint64_t *size)
{
	struct drm_xrt_bo_info a = { .handle = handle };
	void *p;

	if (accel_ioctl(fd, DRM_IOCTL_XRT_BO_INFO, &a))
		return NULL;
	p = mmap(NULL, a.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	if (p == MAP_FAILED)
		return NULL;
	*size = a.size;
	return p;
}

int accel_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close a = { .handle = handle };

	return accel_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &a);
}

int accel_queue_create(int fd, uint32_t priority, uint32_t *id)
{
	struct drm_xrt_queue_create a = { .priority = priority };
	int ret = accel_ioctl(fd, DRM_IOCTL_XRT_QUEUE_CREATE, &a);

	*id = a.queue_id;
	return ret;
}

int accel_queue_destroy(int fd, uint32_t id)
{
	struct drm_xrt_queue_destroy a = { .queue_id = id };

	return accel_ioctl(fd, DRM_IOCTL_XRT_QUEUE_DESTROY, &a);
}

int accel_queue_status(int fd, uint32_t id, struct drm_xrt_queue_status *st)
{
	memset(st, 0, sizeof(*st));
	st->queue_id = id;
	return accel_ioctl(fd, DRM_IOCTL_XRT_QUEUE_STATUS, st);
}

int accel_syncobj_create(int fd, uint32_t *handle)
{
	return drmSyncobjCreate(fd, 0, handle) ? -errno : 0;
}

int accel_syncobj_destroy(int fd, uint32_t handle)
{
	return drmSyncobjDestroy(fd, handle) ? -errno : 0;
}

int accel_syncobj_wait(int fd, uint32_t syncobj, int64_t timeout_ms)
{
	struct timespec now;
	int64_t abs;

	clock_gettime(CLOCK_MONOTONIC, &now);
	abs = now.tv_sec * 1000000000ll + now.tv_nsec + timeout_ms * 1000000ll;
	return drmSyncobjWait(fd, &syncobj, 1, abs, 0, NULL) ? -errno : 0;
}

int accel_syncobj_error(int fd, uint32_t syncobj)
{
	struct sync_file_info info;
	int sf, ret;

	if (drmSyncobjExportSyncFile(fd, syncobj, &sf))
		return -errno;
	memset(&info, 0, sizeof(info));
	ret = ioctl(sf, SYNC_IOC_FILE_INFO, &info) ? -errno : 0;
	close(sf);
	if (ret)
		return ret;
	if (info.status == 0)
		return -EBUSY;
	return info.status < 0 ? info.status : 0;
}

int accel_submit(int fd, const struct accel_job *job)
{
	struct drm_xrt_submit a = {
		.queue_id = job->queue,
		.program_handle = job->prog,
		.num_slots = job->num_slots,
		.program_size = job->prog_size,
		.slots_ptr = (uintptr_t)job->slots,
		.in_syncs_ptr = (uintptr_t)job->in_syncs,
		.num_in_syncs = job->num_in_syncs,
		.out_sync = job->out_sync,
		.rng_seed = job->rng_seed,
		.deadline_ns = job->deadline_ns,
		.loops_ptr = (uintptr_t)job->loops,
		.num_loops = job->num_loops,
		.max_iterations = job->max_iterations,
		.start_pc = job->start_pc,
		.replica_id = job->replica_id,
		.partition_id = job->partition_id,
	};

	return accel_ioctl(fd, DRM_IOCTL_XRT_SUBMIT, &a);
}

int accel_bo_from(int fd, const void *data, size_t size, uint32_t *handle)
{
	uint64_t mapped;
	void *p;
	int ret;

	ret = accel_bo_create(fd, size ? size : 1, handle);
	if (ret)
		return ret;
	p = accel_bo_map(fd, *handle, &mapped);
	if (!p) {
		ret = -errno;
		accel_bo_close(fd, *handle);
		return ret;
	}
	memcpy(p, data, size);
	munmap(p, mapped);
	return 0;
}

int accel_bo_read(int fd, uint32_t handle, void *data, size_t size)
{
	uint64_t mapped;
	void *p = accel_bo_map(fd, handle, &mapped);

	if (!p)
		return -errno;
	memcpy(data, p, size);
	munmap(p, mapped);
	return 0;
}

static int run_bound(int fd, uint32_t prog, size_t prog_size, uint64_t seed,
		     const uint32_t *bos, uint32_t num_slots)
{
	struct accel_job job = {
		.prog = prog, .slots = bos, .num_slots = num_slots,
		.prog_size = prog_size, .rng_seed = seed,
	};
	int ret;

	ret = accel_queue_create(fd, DRM_XRT_PRIORITY_NORMAL, &job.queue);
	if (ret)
		return ret;
	ret = accel_syncobj_create(fd, &job.out_sync);
	if (!ret) {
		ret = accel_submit(fd, &job);
		if (!ret)
			ret = accel_syncobj_wait(fd, job.out_sync, 60000);
		if (!ret)
			ret = accel_syncobj_error(fd, job.out_sync);
		accel_syncobj_destroy(fd, job.out_sync);
	}
	accel_queue_destroy(fd, job.queue);
	return ret;
}

int accel_run(int fd, const void *prog, size_t prog_size, uint64_t seed,
	      uint8_t *const *slots, const size_t *sizes, uint32_t num_slots)
{
	uint32_t *bos = calloc(num_slots + 1, sizeof(*bos));
	uint32_t pbo = 0, i, made = 0;
	int ret = bos ? 0 : -ENOMEM;

	if (!ret)
		ret = accel_bo_from(fd, prog, prog_size, &pbo);
	for (i = 0; !ret && i < num_slots; i++) {
		ret = accel_bo_from(fd, slots[i], sizes[i], &bos[i]);
		made += !ret;
	}
	if (!ret)
		ret = run_bound(fd, pbo, prog_size, seed, bos, num_slots);
	for (i = 0; !ret && i < num_slots; i++)
		ret = accel_bo_read(fd, bos[i], slots[i], sizes[i]);
	for (i = 0; i < made; i++)
		accel_bo_close(fd, bos[i]);
	if (pbo)
		accel_bo_close(fd, pbo);
	free(bos);
	return ret;
}
