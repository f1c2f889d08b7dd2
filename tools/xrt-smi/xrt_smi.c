// SPDX-License-Identifier: MIT
/*
 * xrt-smi: the devices XRT can use and how busy they are.
 *
 *   xrt-smi [--json] [--watch[=SECONDS]] [--count=N]
 *
 * Host devices come from libxrt; accel devices from their render nodes
 * (GET_PARAM), sysfs, the driver's debugfs counters (root only) and the
 * DRM fdinfo of the processes using them.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm/xrt_accel.h>
#include "smi.h"

static const char usage[] =
	"usage: xrt-smi [--json] [--watch[=SECONDS]] [--count=N]\n"
	"  --json             one JSON object (per refresh with --watch)\n"
	"  --watch[=SECONDS]  refresh every SECONDS (default 1) with busy percentages\n"
	"  --count=N          stop after N refreshes of --watch\n";

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int take(struct smi_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->time = now();
	if (smi_host_devices(s))
		return -1;
	smi_accel_devices(s);
	smi_clients(s);
	return 0;
}

/* The device a client's platform device is. */
static const char *device_of(const struct smi_snapshot *s, const struct smi_client *c)
{
	unsigned int i;

	for (i = 0; i < s->num_dev; i++)
		if (s->dev[i].minor >= 0 && !strcmp(s->dev[i].pdev, c->pdev))
			return s->dev[i].name;
	return "?";
}

static void print_count(int64_t v, bool valid)
{
	if (valid)
		printf(" %7lld", (long long)v);
	else
		printf(" %7s", "-");
}

static const char *duration(int64_t ns, char *buf, size_t size)
{
	if (ns < 0)
		snprintf(buf, size, "-");
	else if (ns < 1000000)
		snprintf(buf, size, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, size, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.2f s", (double)ns / 1e9);
	return buf;
}

static void print_devices(const struct smi_snapshot *s)
{
	char used[32], total[32], mem[72], busy[48], t[32];
	bool no_stats = false;
	unsigned int i;

	printf("%-9s %-6s %-23s %7s %7s %7s %7s  %-18s %s\n", "DEVICE", "KIND",
	       "MEMORY USED / TOTAL", "QUEUES", "JOBS", "FAILED", "RESETS", "BUSY", "ENGINE");
	for (i = 0; i < s->num_dev; i++) {
		const struct smi_device *d = &s->dev[i];
		bool accel = d->minor >= 0;

		snprintf(mem, sizeof(mem), "%s / %s", smi_bytes(d->memory_used, used, sizeof(used)),
			 smi_bytes(d->memory_total, total, sizeof(total)));
		printf("%-9s %-6s %-23s", d->name, d->kind, mem);
		print_count(d->stats.live_queues, d->stats.valid);
		print_count(d->stats.jobs_done, d->stats.valid);
		print_count(d->stats.jobs_failed, d->stats.valid);
		print_count(d->stats.resets, d->stats.valid);
		duration(d->busy_ns, t, sizeof(t));
		if (d->busy_pct >= 0)
			snprintf(busy, sizeof(busy), "%s (%.0f%%)", t, d->busy_pct);
		else
			snprintf(busy, sizeof(busy), "%s", t);
		printf("  %-18s ", busy);
		if (accel)
			printf("%s\n", d->capabilities & DRM_XRT_CAP_AVX512 ? "avx512" :
					d->capabilities & DRM_XRT_CAP_AVX2 ? "avx2" : "sse2");
		else
			printf("%u cpus\n", d->compute_units);
		no_stats |= accel && !d->stats.valid;
	}
	if (no_stats)
		printf("(queue, job and reset counts come from debugfs: run as root to see them)\n");
}

static void print_clients(const struct smi_snapshot *s)
{
	char t[32], m[32];
	unsigned int i;

	if (!s->num_cl)
		return;
	printf("\n%-8s %-16s %-9s %-16s %s\n", "PID", "PROCESS", "DEVICE", "ENGINE TIME",
	       "MEMORY");
	for (i = 0; i < s->num_cl; i++) {
		const struct smi_client *c = &s->cl[i];
		char busy[48];

		duration((int64_t)c->engine_ns, t, sizeof(t));
		if (c->busy_pct >= 0)
			snprintf(busy, sizeof(busy), "%s (%.0f%%)", t, c->busy_pct);
		else
			snprintf(busy, sizeof(busy), "%s", t);
		printf("%-8d %-16s %-9s %-16s %s\n", (int)c->pid, c->comm, device_of(s, c), busy,
		       smi_bytes(c->memory_kib << 10, m, sizeof(m)));
	}
}

/* @v as a JSON string. */
static void json_str(const char *v)
{
	putchar('"');
	for (; *v; v++) {
		unsigned char ch = (unsigned char)*v;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_pct(const char *key, double v)
{
	if (v >= 0 && isfinite(v))
		printf(", \"%s\": %.2f", key, v);
	else
		printf(", \"%s\": null", key);
}

static void json_accel(const struct smi_device *d)
{
	static const char *const caps[] = { "avx2", "prime", "queue_status", "avx512" };
	const struct smi_stats *st = &d->stats;
	unsigned int b, n = 0;

	printf(", \"node\": ");
	json_str(d->node);
	printf(", \"platform_device\": ");
	json_str(d->pdev);
	printf(", \"abi_version\": %llu, \"cs_version\": %llu, \"max_bo_size\": %llu, "
	       "\"max_queues\": %llu, \"job_timeout_ms\": %llu, \"capabilities\": [",
	       (unsigned long long)d->abi_version, (unsigned long long)d->cs_version,
	       (unsigned long long)d->max_bo_size, (unsigned long long)d->max_queues,
	       (unsigned long long)d->job_timeout_ms);
	for (b = 0; b < sizeof(caps) / sizeof(caps[0]); b++)
		if (d->capabilities & (1ull << b))
			printf("%s\"%s\"", n++ ? ", " : "", caps[b]);
	printf("], \"counters\": ");
	if (!st->valid) {
		printf("null");
		return;
	}
	printf("{\"live_bos\": %lld, \"live_jobs\": %lld, \"live_queues\": %lld, "
	       "\"jobs_done\": %lld, \"jobs_failed\": %lld, \"resets\": %lld, \"engine\": ",
	       (long long)st->live_bos, (long long)st->live_jobs, (long long)st->live_queues,
	       (long long)st->jobs_done, (long long)st->jobs_failed, (long long)st->resets);
	json_str(st->engine);
	putchar('}');
}

static void print_json(const struct smi_snapshot *s)
{
	unsigned int i;

	printf("{\"devices\": [");
	for (i = 0; i < s->num_dev; i++) {
		const struct smi_device *d = &s->dev[i];

		printf("%s{\"name\": ", i ? ", " : "");
		json_str(d->name);
		printf(", \"kind\": ");
		json_str(d->kind);
		printf(", \"memory_total\": %llu, \"memory_used\": %llu, \"compute_units\": %u",
		       (unsigned long long)d->memory_total, (unsigned long long)d->memory_used,
		       d->compute_units);
		if (d->minor >= 0)
			json_accel(d);
		if (d->busy_ns >= 0)
			printf(", \"busy_ns\": %lld", (long long)d->busy_ns);
		else
			printf(", \"busy_ns\": null");
		json_pct("busy_percent", d->busy_pct);
		putchar('}');
	}
	printf("], \"clients\": [");
	for (i = 0; i < s->num_cl; i++) {
		const struct smi_client *c = &s->cl[i];

		printf("%s{\"pid\": %d, \"process\": ", i ? ", " : "", (int)c->pid);
		json_str(c->comm);
		printf(", \"device\": ");
		json_str(device_of(s, c));
		printf(", \"client_id\": %llu, \"engine_ns\": %llu, \"memory_bytes\": %llu",
		       (unsigned long long)c->client_id, (unsigned long long)c->engine_ns,
		       (unsigned long long)c->memory_kib << 10);
		json_pct("busy_percent", c->busy_pct);
		putchar('}');
	}
	printf("]}\n");
}

static void show(const struct smi_snapshot *s, bool json, bool clear)
{
	if (json) {
		print_json(s);
	} else {
		if (clear)
			printf("\033[H\033[2J");
		print_devices(s);
		print_clients(s);
	}
	fflush(stdout);
}

static int watch(double interval, long count, bool json)
{
	static struct smi_snapshot a, b;
	struct smi_snapshot *before = &a, *cur = &b, *t;
	bool clear = !json && isatty(STDOUT_FILENO);
	long i;

	if (take(before))
		return 1;
	for (i = 0; !count || i < count; i++) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - floor(interval)) * 1e9) };

		nanosleep(&ts, NULL);
		if (take(cur))
			return 1;
		smi_rates(cur, before);
		if (!json && !clear && i)
			putchar('\n');
		show(cur, json, clear);
		t = before;
		before = cur;
		cur = t;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", optional_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct smi_snapshot s;
	double interval = 0;
	bool json = false;
	long count = 0;
	char *end;
	int o;

	while ((o = getopt_long(argc, argv, "jw::c:h", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			json = true;
			break;
		case 'w':
			interval = optarg ? strtod(optarg, &end) : 1;
			if (optarg && (*end || !(interval >= 0.1 && interval <= 3600))) {
				fprintf(stderr, "xrt-smi: --watch wants 0.1 to 3600 seconds, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			count = strtol(optarg, &end, 10);
			if (*end || count < 1 || count > 1000000) {
				fprintf(stderr, "xrt-smi: --count wants 1 to 1000000, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			printf("%s", usage);
			return 0;
		default:
			fprintf(stderr, "%s", usage);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "xrt-smi: unexpected argument '%s'\n%s", argv[optind], usage);
		return 2;
	}
	if (count && !interval) {
		fprintf(stderr, "xrt-smi: --count goes with --watch\n");
		return 2;
	}
	if (interval)
		return watch(interval, count, json);
	if (take(&s))
		return 1;
	show(&s, json, false);
	return 0;
}
