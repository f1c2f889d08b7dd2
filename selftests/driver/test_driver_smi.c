// SPDX-License-Identifier: MIT
/*
 * xrt-smi against the loaded driver: while this test holds a buffer and
 * a queue and has run a job, xrt-smi must list both devices with the
 * module's parameters, the debugfs counters, and this process as a
 * client with its memory and engine time.  XRT_SMI names the binary (the
 * VM stage sets it); without it there is nothing to test.
 */
#include <sys/wait.h>

#include "driver_test.h"

/* Runs xrt-smi with @args; its output (malloc'd), NULL when it failed. */
static char *smi(const char *args)
{
	const char *bin = getenv("XRT_SMI");
	char cmd[512], *out = NULL;
	size_t len = 0, cap = 0, n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", bin, args);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			out = realloc(out, cap);
		}
		n = fread(out + len, 1, 4096, p);
		len += n;
	} while (n);
	out[len] = '\0';
	if (pclose(p)) {
		fprintf(stderr, "# %s failed:\n%s\n", cmd, out);
		free(out);
		return NULL;
	}
	return out;
}

/* The number after "@key": in @json at or after @from; -1 when absent. */
static long long json_num(const char *from, const char *key)
{
	char needle[64];
	const char *p;

	snprintf(needle, sizeof(needle), "\"%s\": ", key);
	p = strstr(from, needle);
	return p ? strtoll(p + strlen(needle), NULL, 10) : -1;
}

/* Runs @p once on @queue writing @bo, and waits; 0 or -errno. */
static int run_once(int fd, uint32_t queue, uint32_t bo, const struct prog *p)
{
	uint32_t sync, slots[1] = { bo };
	struct accel_job j = { .prog = p->bo, .slots = slots, .num_slots = 1,
			       .prog_size = p->size, .queue = queue };
	int ret = accel_syncobj_create(fd, &sync);

	if (ret)
		return ret;
	j.out_sync = sync;
	ret = accel_submit(fd, &j);
	if (!ret)
		ret = accel_syncobj_wait(fd, sync, 60000);
	accel_syncobj_destroy(fd, sync);
	return ret;
}

FIXTURE(smi) {
	int fd;
	uint32_t bo, queue;
};

FIXTURE_SETUP(smi)
{
	struct prog p = { 0 };

	if (!getenv("XRT_SMI"))
		SKIP(return, "XRT_SMI does not name xrt-smi");
	self->fd = accel_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("no xrt_accel device");
	ASSERT_EQ(0, accel_bo_create(self->fd, 1 << 20, &self->bo));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &self->queue));
	/* one job, so that the engine time is not zero */
	ASSERT_EQ(0, prog_fill(self->fd, 1 << 16, 7, 4, &p));
	ASSERT_EQ(0, run_once(self->fd, self->queue, self->bo, &p));
	prog_free(self->fd, &p);
}

FIXTURE_TEARDOWN(smi)
{
	if (!getenv("XRT_SMI"))
		return;
	accel_queue_destroy(self->fd, self->queue);
	accel_bo_close(self->fd, self->bo);
	close(self->fd);
}

TEST_F(smi, json_lists_both_devices_and_this_client)
{
	char *out = smi("--json"), *a0, *a1, *me, needle[64];

	ASSERT_NE(NULL, out);
	a0 = strstr(out, "\"name\": \"accel:0\"");
	a1 = strstr(out, "\"name\": \"accel:1\"");
	ASSERT_NE(NULL, a0) TH_LOG("%s", out);
	ASSERT_NE(NULL, a1) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"name\": \"host:0\""));
	EXPECT_EQ(256ll << 20, json_num(a0, "memory_total"));
	EXPECT_LE(1ll << 20, json_num(a0, "memory_used"));
	EXPECT_EQ(2000, json_num(a0, "job_timeout_ms"));
	EXPECT_EQ(DRM_XRT_ABI_VERSION, json_num(a0, "abi_version"));
	EXPECT_EQ(16, json_num(a0, "max_queues"));
	EXPECT_NE(NULL, strstr(a0, "\"prime\""));
	/* root in the VM: the counters are there */
	EXPECT_LE(1, json_num(a0, "live_queues"));
	EXPECT_LE(1, json_num(a0, "live_bos"));
	EXPECT_LE(1, json_num(a0, "jobs_done"));
	EXPECT_LT(0, json_num(a0, "busy_ns"));
	/* the other device has nothing of ours */
	EXPECT_EQ(0, json_num(a1, "live_queues"));
	snprintf(needle, sizeof(needle), "\"pid\": %d, ", getpid());
	me = strstr(out, needle);
	ASSERT_NE(NULL, me) TH_LOG("no client with pid %d: %s", getpid(), out);
	EXPECT_EQ(0, strncmp(strchr(me, ',') + 2, "\"process\": \"test_driver_smi\"", 28));
	EXPECT_EQ(0, strncmp(strstr(me, "\"device\": "), "\"device\": \"accel:0\"", 19));
	EXPECT_LE(1ll << 20, json_num(me, "memory_bytes"));
	EXPECT_LT(0, json_num(me, "engine_ns"));
	free(out);
}

TEST_F(smi, table_and_watch)
{
	char *out = smi(""), line[64];

	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\naccel:0   accel  ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\naccel:1   accel  "));
	EXPECT_NE(NULL, strstr(out, "/ 256.0 MiB"));
	snprintf(line, sizeof(line), "\n%-8d test_driver_smi  accel:0", getpid());
	EXPECT_NE(NULL, strstr(out, line)) TH_LOG("%s", out);
	free(out);
	/* a refresh gives rates: zero or more, never null, for the devices */
	out = smi("--json --watch=0.2 --count=1");
	ASSERT_NE(NULL, out);
	EXPECT_EQ(NULL, strstr(strstr(out, "\"name\": \"accel:0\""), "\"busy_percent\": null"))
		TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
