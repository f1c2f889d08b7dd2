// SPDX-License-Identifier: MIT
/*
 * Who uses the devices: every open xrt_accel file in /proc/PID/fdinfo
 * (the DRM fdinfo keys: drm-driver, drm-pdev, drm-client-id,
 * drm-engine-compute, drm-memory-device).  A file opened once and
 * shared (dup, fork) is one client, counted once.  Other users'
 * processes are visible to root only.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smi.h"

/* Parses one fdinfo file; true if it is an xrt_accel client. */
static bool parse_fdinfo(const char *path, struct smi_client *c)
{
	char line[256], key[64], val[128];
	bool accel = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]:%*[ \t]%127s", key, val) != 2)
			continue;
		if (!strcmp(key, "drm-driver"))
			accel = !strcmp(val, "xrt_accel");
		else if (!strcmp(key, "drm-pdev"))
			snprintf(c->pdev, sizeof(c->pdev), "%.63s", val);
		else if (!strcmp(key, "drm-client-id"))
			c->client_id = strtoull(val, NULL, 10);
		else if (!strcmp(key, "drm-engine-compute"))
			c->engine_ns = strtoull(val, NULL, 10);
		else if (!strcmp(key, "drm-memory-device"))
			c->memory_kib = strtoull(val, NULL, 10);
	}
	fclose(f);
	return accel;
}

static bool seen(const struct smi_snapshot *s, const struct smi_client *c)
{
	unsigned int i;

	for (i = 0; i < s->num_cl; i++)
		if (s->cl[i].client_id == c->client_id && !strcmp(s->cl[i].pdev, c->pdev))
			return true;
	return false;
}

static void comm_of(pid_t pid, char *out, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f || !fgets(out, (int)size, f))
		snprintf(out, size, "?");
	out[strcspn(out, "\n")] = '\0';
	if (f)
		fclose(f);
}

static void scan_pid(struct smi_snapshot *s, pid_t pid)
{
	char dir[64], path[320];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", (int)pid);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d)) && s->num_cl < SMI_MAX_CLIENTS) {
		struct smi_client c = { .pid = pid, .busy_pct = -1 };

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!parse_fdinfo(path, &c) || seen(s, &c))
			continue;
		comm_of(pid, c.comm, sizeof(c.comm));
		s->cl[s->num_cl++] = c;
	}
	closedir(d);
}

void smi_clients(struct smi_snapshot *s)
{
	struct dirent *e;
	unsigned int i, j;
	DIR *proc = opendir("/proc");

	if (!proc)
		return;
	while ((e = readdir(proc)))
		if (isdigit((unsigned char)e->d_name[0]))
			scan_pid(s, (pid_t)atoi(e->d_name));
	closedir(proc);
	/* without debugfs, a device's busy time is its visible clients' */
	for (i = 0; i < s->num_dev; i++) {
		struct smi_device *d = &s->dev[i];

		if (d->minor < 0 || d->stats.valid)
			continue;
		d->busy_ns = 0;
		for (j = 0; j < s->num_cl; j++)
			if (!strcmp(s->cl[j].pdev, d->pdev))
				d->busy_ns += (int64_t)s->cl[j].engine_ns;
	}
}

void smi_rates(struct smi_snapshot *now, const struct smi_snapshot *before)
{
	double dt = now->time - before->time;
	unsigned int i, j;

	if (dt <= 0)
		return;
	for (i = 0; i < now->num_dev; i++)
		for (j = 0; j < before->num_dev; j++)
			if (!strcmp(now->dev[i].name, before->dev[j].name) &&
			    now->dev[i].busy_ns >= before->dev[j].busy_ns &&
			    before->dev[j].busy_ns >= 0)
				now->dev[i].busy_pct = (double)(now->dev[i].busy_ns -
						before->dev[j].busy_ns) / (dt * 1e7);
	for (i = 0; i < now->num_cl; i++)
		for (j = 0; j < before->num_cl; j++)
			if (now->cl[i].client_id == before->cl[j].client_id &&
			    !strcmp(now->cl[i].pdev, before->cl[j].pdev) &&
			    now->cl[i].engine_ns >= before->cl[j].engine_ns)
				now->cl[i].busy_pct = (double)(now->cl[i].engine_ns -
						before->cl[j].engine_ns) / (dt * 1e7);
}
