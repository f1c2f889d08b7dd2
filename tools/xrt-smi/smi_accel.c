// SPDX-License-Identifier: MIT
/*
 * The xrt_accel devices: render nodes whose driver is xrt_accel (libdrm's
 * drmGetDevices2 does not list platform devices, so each node is asked),
 * their parameters through GET_PARAM, the platform device behind each in
 * sysfs, and the driver's counters in debugfs when they can be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/xrt_accel.h>
#include "smi.h"

static bool is_accel(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool yes = v && !strcmp(v->name, "xrt_accel");

	drmFreeVersion(v);
	return yes;
}

static uint64_t param(int fd, uint32_t p)
{
	struct drm_xrt_get_param a = { .param = p };

	return drmIoctl(fd, DRM_IOCTL_XRT_GET_PARAM, &a) ? 0 : a.value;
}

/* The platform device's name: the last part of the node's device link. */
static void platform_name(int minor, char *out, size_t size)
{
	char link[96], target[256];
	ssize_t n;
	const char *base;

	snprintf(link, sizeof(link), "/sys/class/drm/renderD%d/device", minor);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(out, size, "?");
		return;
	}
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(out, size, "%.63s", base ? base + 1 : target);
}

/* debugfs/dri/MINOR/stats, "key: value" lines. */
static void read_stats(int minor, struct smi_stats *st)
{
	char path[96], line[128], key[64], val[64];
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/stats", minor);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		long long v;

		if (sscanf(line, "%63[^:]: %63s", key, val) != 2)
			continue;
		v = strtoll(val, NULL, 10);
		if (!strcmp(key, "live_bos"))
			st->live_bos = v;
		else if (!strcmp(key, "live_jobs"))
			st->live_jobs = v;
		else if (!strcmp(key, "live_queues"))
			st->live_queues = v;
		else if (!strcmp(key, "jobs_done"))
			st->jobs_done = v;
		else if (!strcmp(key, "jobs_failed"))
			st->jobs_failed = v;
		else if (!strcmp(key, "resets"))
			st->resets = v;
		else if (!strcmp(key, "busy_ns"))
			st->busy_ns = v;
		else if (!strcmp(key, "engine"))
			snprintf(st->engine, sizeof(st->engine), "%.15s", val);
		else
			continue;
		st->valid = true;
	}
	fclose(f);
}

static void add(struct smi_snapshot *s, int minor, int fd, unsigned int ordinal)
{
	struct smi_device *d = &s->dev[s->num_dev++];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "accel:%u", ordinal);
	snprintf(d->kind, sizeof(d->kind), "accel");
	snprintf(d->node, sizeof(d->node), "/dev/dri/renderD%d", minor);
	d->minor = minor;
	d->abi_version = param(fd, DRM_XRT_PARAM_ABI_VERSION);
	d->cs_version = param(fd, DRM_XRT_PARAM_CS_VERSION);
	d->memory_total = param(fd, DRM_XRT_PARAM_MEMORY_SIZE);
	d->memory_used = param(fd, DRM_XRT_PARAM_MEMORY_USED);
	d->max_bo_size = param(fd, DRM_XRT_PARAM_MAX_BO_SIZE);
	d->max_queues = param(fd, DRM_XRT_PARAM_MAX_QUEUES);
	d->job_timeout_ms = param(fd, DRM_XRT_PARAM_JOB_TIMEOUT_MS);
	d->capabilities = param(fd, DRM_XRT_PARAM_CAPABILITIES);
	d->compute_units = 1;
	platform_name(minor, d->pdev, sizeof(d->pdev));
	read_stats(minor, &d->stats);
	d->busy_ns = d->stats.valid ? d->stats.busy_ns : -1;
	d->busy_pct = -1;
}

void smi_accel_devices(struct smi_snapshot *s)
{
	unsigned int ordinal = 0;
	char path[64];
	int minor, fd;

	for (minor = 128; minor < 192 && s->num_dev < SMI_MAX_DEVICES; minor++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				fprintf(stderr, "xrt-smi: %s: %s\n", path, strerror(errno));
			continue;
		}
		if (is_accel(fd))
			add(s, minor, fd, ordinal++);
		close(fd);
	}
}
