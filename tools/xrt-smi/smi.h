/* SPDX-License-Identifier: MIT */
/*
 * xrt-smi's picture of the machine: the devices, what the kernel says
 * about each, and the processes using them.
 */
#ifndef XRT_SMI_H
#define XRT_SMI_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define SMI_MAX_DEVICES	64
#define SMI_MAX_CLIENTS	256

/* Counters from the driver's debugfs stats file (root only). */
struct smi_stats {
	bool valid;
	int64_t live_bos, live_jobs, live_queues;
	int64_t jobs_done, jobs_failed, resets, busy_ns;
	char engine[16];
};

struct smi_device {
	char name[32];		/* host:0, accel:1 */
	char kind[8];		/* host, accel */
	char node[32];		/* /dev/dri/renderD128; empty for host */
	char pdev[64];		/* the device fdinfo names (drm-pdev) */
	int minor;		/* DRM minor; -1 for host */
	uint64_t memory_total, memory_used;
	uint32_t compute_units;	/* host: online CPUs; accel: engines */
	/* accel: from GET_PARAM */
	uint64_t abi_version, cs_version, max_bo_size, max_queues;
	uint64_t job_timeout_ms, capabilities;
	struct smi_stats stats;
	/* busy time seen: stats, else the sum over visible clients */
	int64_t busy_ns;
	double busy_pct;	/* over the last interval of --watch; <0: unknown */
};

struct smi_client {
	pid_t pid;
	char comm[32];
	char pdev[64];
	uint64_t client_id;
	uint64_t engine_ns, memory_kib;
	double busy_pct;	/* <0: unknown */
};

struct smi_snapshot {
	struct smi_device dev[SMI_MAX_DEVICES];
	unsigned int num_dev;
	struct smi_client cl[SMI_MAX_CLIENTS];
	unsigned int num_cl;
	double time;		/* CLOCK_MONOTONIC seconds when taken */
};

/* Appends host devices (libxrt's list); 0 or -1 with a message printed. */
int smi_host_devices(struct smi_snapshot *s);

/* Appends the xrt_accel render nodes, in minor order, as accel:0, accel:1, ... */
void smi_accel_devices(struct smi_snapshot *s);

/* The xrt_accel clients in /proc that this user may see. */
void smi_clients(struct smi_snapshot *s);

/* Busy percentages of @now from the counters of @before. */
void smi_rates(struct smi_snapshot *now, const struct smi_snapshot *before);

/* "1.5 GiB"-style sizes into @buf. */
const char *smi_bytes(uint64_t n, char *buf, size_t size);

#endif /* XRT_SMI_H */
