// SPDX-License-Identifier: MIT
/*
 * The devices libxrt runs in-process: what xrt_devices_list() gives,
 * and for the host the memory in use from /proc/meminfo.
 */
#include <stdio.h>
#include <string.h>

#include <xrt/device.h>

#include "smi.h"

/* MemTotal - MemAvailable, in bytes; 0 when unknown. */
static uint64_t host_memory_used(void)
{
	unsigned long long total = 0, avail = 0, v;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %llu kB", &v) == 1)
			total = v;
		else if (sscanf(line, "MemAvailable: %llu kB", &v) == 1)
			avail = v;
	}
	fclose(f);
	return total > avail ? (uint64_t)(total - avail) << 10 : 0;
}

int smi_host_devices(struct smi_snapshot *s)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;
	xrt_status *st = xrt_devices_list(NULL, &v, &n);

	if (st) {
		fprintf(stderr, "xrt-smi: %s\n", xrt_status_message(st));
		xrt_status_free(st);
		return -1;
	}
	for (i = 0; i < n && s->num_dev < SMI_MAX_DEVICES; i++) {
		struct smi_device *d;

		if (v[i].kind == XRT_DEVICE_ACCEL)	/* the kernel's view comes from the node */
			continue;
		d = &s->dev[s->num_dev++];
		memset(d, 0, sizeof(*d));
		snprintf(d->name, sizeof(d->name), "%s", v[i].name);
		snprintf(d->kind, sizeof(d->kind), "%s", xrt_device_kind_name(v[i].kind));
		d->minor = -1;
		d->memory_total = v[i].memory_bytes;
		d->memory_used = v[i].kind == XRT_DEVICE_HOST ? host_memory_used() : 0;
		d->compute_units = v[i].compute_units;
		d->busy_ns = -1;
		d->busy_pct = -1;
	}
	xrt_free(NULL, v);
	return 0;
}

const char *smi_bytes(uint64_t n, char *buf, size_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u)
		snprintf(buf, size, "%.1f %s", v, unit[u]);
	else
		snprintf(buf, size, "%llu B", (unsigned long long)n);
	return buf;
}
