// SPDX-License-Identifier: MIT
/*
 * Jobs over their lifetime: a program that never ends is stopped by the
 * timeout and resets only its queue; buffers closed and clients gone
 * while jobs run; clients and devices sharing buffers through PRIME;
 * many jobs from several threads; debugfs fault injection.
 */
#include <pthread.h>
#include <time.h>
#include <sys/wait.h>
#include <xf86drm.h>

#include "driver_test.h"

static uint64_t timeout_ms(int fd)
{
	uint64_t v = 0;

	accel_param(fd, DRM_XRT_PARAM_JOB_TIMEOUT_MS, &v);
	return v;
}

/* BO_WAIT with a deadline @ms from now. */
static int bo_wait(int fd, uint32_t handle, int64_t ms)
{
	struct drm_xrt_bo_wait w = { .handle = handle };
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	w.timeout_ns = now.tv_sec * 1000000000ll + now.tv_nsec + ms * 1000000ll;
	return accel_ioctl(fd, DRM_IOCTL_XRT_BO_WAIT, &w);
}

/* A spinning job on @q; its predicate buffer in *@pred. */
static int submit_spin(int fd, uint32_t q, uint32_t out, uint32_t *pred,
		       struct prog *p)
{
	uint8_t one = 1;
	int ret = prog_spin(fd, p);

	if (!ret)
		ret = accel_bo_from(fd, &one, 1, pred);
	if (!ret)
		ret = submit(fd, q, p, pred, 1, out);
	return ret;
}

TEST_F_TIMEOUT(dev, a_job_that_never_ends_resets_only_its_queue, 120)
{
	uint32_t bad_q, good_q, bad_out, good_out, pred, buf, got[512];
	struct prog spin = { 0 }, fill = { 0 };
	struct drm_xrt_queue_status st;
	uint64_t limit = timeout_ms(self->fd);
	int i;

	ASSERT_LT(0, limit);
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &bad_q));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &good_q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &bad_out));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &good_out));
	ASSERT_EQ(0, submit_spin(self->fd, bad_q, bad_out, &pred, &spin));
	/* Its buffer is busy: a wait with a near deadline times out. */
	EXPECT_EQ(-ETIMEDOUT, bo_wait(self->fd, pred, 100));
	/* Another queue of the device finishes while the spinner runs. */
	ASSERT_EQ(0, prog_fill(self->fd, 512, 5, 1, &fill));
	ASSERT_EQ(0, accel_bo_create(self->fd, 2048, &buf));
	ASSERT_EQ(0, submit(self->fd, good_q, &fill, &buf, 1, good_out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, good_out, (int64_t)limit / 2));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, good_out));
	EXPECT_EQ(-ETIME, accel_syncobj_wait(self->fd, bad_out, 0));
	ASSERT_EQ(0, accel_bo_read(self->fd, buf, got, sizeof(got)));
	for (i = 0; i < 512; i++)
		ASSERT_EQ(5, got[i]);
	/* The spinner is stopped after the timeout, with ETIMEDOUT. */
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, bad_out, (int64_t)limit * 4));
	EXPECT_EQ(-ETIMEDOUT, accel_syncobj_error(self->fd, bad_out));
	EXPECT_EQ(0, bo_wait(self->fd, pred, 1000));
	ASSERT_EQ(0, accel_queue_status(self->fd, bad_q, &st));
	EXPECT_EQ(DRM_XRT_QUEUE_GUILTY, st.flags);
	EXPECT_EQ(1, st.resets);
	EXPECT_EQ(-ETIMEDOUT, st.last_error);
	EXPECT_EQ(-ECANCELED, submit(self->fd, bad_q, &fill, &buf, 1, 0));
	ASSERT_EQ(0, accel_queue_status(self->fd, good_q, &st));
	EXPECT_EQ(0, st.flags);
	EXPECT_EQ(0, st.resets);
	EXPECT_EQ(1, st.completed);
	/* The good queue keeps working. */
	ASSERT_EQ(0, submit(self->fd, good_q, &fill, &buf, 1, good_out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, good_out, 30000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, good_out));
	prog_free(self->fd, &spin);
	prog_free(self->fd, &fill);
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/*
 * A job with a deadline stops at it (ETIME), well before the driver's
 * timeout, and its queue is not reset: the next job on it runs.
 */
TEST_F_TIMEOUT(dev, a_deadline_stops_a_job_and_keeps_its_queue, 120)
{
	uint32_t q, out, pred, buf, got[64];
	struct prog spin = { 0 }, fill = { 0 };
	struct drm_xrt_queue_status st;
	uint8_t one = 1;
	uint64_t t0, v;
	int i;

	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_CAPABILITIES, &v));
	ASSERT_TRUE(v & DRM_XRT_CAP_RUN_LIMITS);
	ASSERT_EQ(0, prog_spin(self->fd, &spin));
	ASSERT_EQ(0, accel_bo_from(self->fd, &one, 1, &pred));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	t0 = mono_ns();
	{
		struct accel_job j = { .prog = spin.bo, .slots = &pred, .num_slots = 1,
				       .prog_size = spin.size, .out_sync = out, .queue = q,
				       .deadline_ns = t0 + 300000000ull };

		ASSERT_EQ(0, accel_submit(self->fd, &j));
	}
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 30000));
	TH_LOG("stopped %.3f s after a 0.3 s deadline", (mono_ns() - t0) / 1e9);
	EXPECT_EQ(-ETIME, accel_syncobj_error(self->fd, out));
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(0, st.flags);		/* not guilty */
	EXPECT_EQ(0, st.resets);
	EXPECT_EQ(-ETIME, st.last_error);
	EXPECT_EQ(0, st.last_pc);	/* the spinner's only command */
	ASSERT_EQ(0, prog_fill(self->fd, 64, 9, 1, &fill));
	ASSERT_EQ(0, accel_bo_create(self->fd, 256, &buf));
	ASSERT_EQ(0, submit(self->fd, q, &fill, &buf, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 30000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, out));
	ASSERT_EQ(0, accel_bo_read(self->fd, buf, got, sizeof(got)));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(9, got[i]);
	prog_free(self->fd, &spin);
	prog_free(self->fd, &fill);
}

/*
 * A loop whose exit jump is 0 (not taken while slot 0 is 1) and whose
 * back jump is 1: with max_iterations 5 the job stops with ELOOP after
 * five iterations, QUEUE_STATUS names loop 0 and command 0, the queue
 * goes on; loops that are not conditional jumps, out of order or past the
 * program are refused.
 */
TEST_F_TIMEOUT(dev, max_iterations_stop_a_loop_and_name_it, 120)
{
	struct xrt_cs_scalar pred = { .slot = 0, .dtype = XRT_CS_PRED };
	static const uint32_t bad[][2] = { { 1, 0 }, { 0, 0 }, { 0, 5 } };
	uint32_t q, out, flag, loop0 = 0;
	struct drm_xrt_queue_status st;
	struct prog p = { 0 };
	struct accel_job j;
	struct cs_builder b;
	uint8_t one = 1;
	int k;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, 1, XRT_CS_SLOT_READ);
	cs_jump(&b, XRT_CS_JUMP_IF_FALSE, 2, &pred);
	cs_jump(&b, XRT_CS_JUMP_ALWAYS, 0, NULL);
	ASSERT_EQ(0, prog_upload(self->fd, &b, &p));
	ASSERT_EQ(0, accel_bo_from(self->fd, &one, 1, &flag));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	j = (struct accel_job){ .prog = p.bo, .slots = &flag, .num_slots = 1,
				.prog_size = p.size, .out_sync = out, .queue = q,
				.loops = &loop0, .num_loops = 1, .max_iterations = 5 };
	ASSERT_EQ(0, accel_submit(self->fd, &j));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 30000));
	EXPECT_EQ(-ELOOP, accel_syncobj_error(self->fd, out));
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(0, st.flags);
	EXPECT_EQ(0, st.last_loop);
	EXPECT_EQ(0, st.last_pc);	/* the loop's exit jump */
	EXPECT_EQ(-ELOOP, st.last_error);
	for (k = 0; k < 3; k++) {
		j.loops = k == 2 ? &bad[2][1] : bad[k];
		j.num_loops = k == 2 ? 1 : 2;
		EXPECT_EQ(-EINVAL, accel_submit(self->fd, &j)) TH_LOG("bad loops %d", k);
	}
	j.loops = &loop0;
	j.num_loops = DRM_XRT_MAX_LOOPS + 1;
	EXPECT_EQ(-EINVAL, accel_submit(self->fd, &j));
	prog_free(self->fd, &p);
}

/*
 * QUEUE_CANCEL stops the running job and the one waiting behind it
 * (ECANCELED, the second without running), and the queue takes the
 * next job as usual.
 */
TEST_F_TIMEOUT(dev, queue_cancel_stops_its_jobs_not_the_queue, 120)
{
	uint32_t q, out1, out2, pred, buf, got[64];
	struct prog spin = { 0 }, fill = { 0 };
	struct drm_xrt_queue_cancel c = { 0 };
	struct drm_xrt_queue_status st;
	int i;

	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out1));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out2));
	ASSERT_EQ(0, submit_spin(self->fd, q, out1, &pred, &spin));
	ASSERT_EQ(0, prog_fill(self->fd, 64, 4, 1, &fill));
	ASSERT_EQ(0, accel_bo_create(self->fd, 256, &buf));
	ASSERT_EQ(0, submit(self->fd, q, &fill, &buf, 1, out2));	/* waits behind */
	usleep(100000);
	c.queue_id = q;
	ASSERT_EQ(0, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CANCEL, &c));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out1, 30000));
	EXPECT_EQ(-ECANCELED, accel_syncobj_error(self->fd, out1));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out2, 30000));
	EXPECT_EQ(-ECANCELED, accel_syncobj_error(self->fd, out2));
	ASSERT_EQ(0, accel_bo_read(self->fd, buf, got, sizeof(got)));
	EXPECT_EQ(0, got[0]);		/* it never ran */
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(0, st.flags);
	EXPECT_EQ(0, st.resets);
	EXPECT_EQ(~0u, st.last_pc);	/* the last one stopped never started */
	ASSERT_EQ(0, submit(self->fd, q, &fill, &buf, 1, out2));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out2, 30000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, out2));
	ASSERT_EQ(0, accel_bo_read(self->fd, buf, got, sizeof(got)));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(4, got[i]);
	c.pad = 1;
	EXPECT_EQ(-EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CANCEL, &c));
	c = (struct drm_xrt_queue_cancel){ .queue_id = 999 };
	EXPECT_EQ(-ENOENT, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CANCEL, &c));
	prog_free(self->fd, &spin);
	prog_free(self->fd, &fill);
}

TEST_F_TIMEOUT(dev, an_injected_hang_times_out, 120)
{
	uint32_t q, out, buf;
	struct prog fill = { 0 };

	ASSERT_EQ(0, prog_fill(self->fd, 64, 1, 1, &fill));
	ASSERT_EQ(0, accel_bo_create(self->fd, 256, &buf));
	ASSERT_EQ(0, accel_queue_create(self->fd, 1, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	ASSERT_EQ(0, debugfs_write(self->fd, "hang_next_job", "1"));
	ASSERT_EQ(0, submit(self->fd, q, &fill, &buf, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, (int64_t)timeout_ms(self->fd) * 4));
	EXPECT_EQ(-ETIMEDOUT, accel_syncobj_error(self->fd, out));
	prog_free(self->fd, &fill);
}

TEST_F(dev, an_injected_allocation_failure_fails_once)
{
	uint32_t h;

	ASSERT_EQ(0, debugfs_write(self->fd, "fail_next_alloc", "1"));
	EXPECT_EQ(-ENOMEM, accel_bo_create(self->fd, 4096, &h));
	ASSERT_EQ(0, accel_bo_create(self->fd, 4096, &h));
	ASSERT_EQ(0, accel_bo_close(self->fd, h));
}

TEST_F(dev, closing_buffers_while_the_job_runs_is_safe)
{
	uint32_t q, out, buf;
	struct prog slow = { 0 };

	ASSERT_EQ(0, prog_fill(self->fd, 4 << 20, 9, 8, &slow));
	ASSERT_EQ(0, accel_bo_create(self->fd, 16 << 20, &buf));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	ASSERT_EQ(0, submit(self->fd, q, &slow, &buf, 1, out));
	ASSERT_EQ(0, accel_bo_close(self->fd, buf));
	prog_free(self->fd, &slow);
	ASSERT_EQ(0, accel_queue_destroy(self->fd, q));
	/* Destroying the queue cancels or finishes the job; either way it signals. */
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 60000));
}

/* A child submits a slow job and a spinner, then exits without waiting. */
TEST_F_TIMEOUT(dev, a_client_exiting_while_its_jobs_run_is_safe, 120)
{
	long long jobs = -1;
	int status, i;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = accel_open(0);
		uint32_t q, q2, buf, pred;
		struct prog slow = { 0 }, spin = { 0 };

		if (fd < 0 || prog_fill(fd, 4 << 20, 1, 8, &slow) ||
		    accel_bo_create(fd, 16 << 20, &buf) ||
		    accel_queue_create(fd, 0, &q) || accel_queue_create(fd, 0, &q2) ||
		    submit(fd, q, &slow, &buf, 1, 0) ||
		    submit_spin(fd, q2, 0, &pred, &spin))
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Its jobs are cancelled and freed soon, without the timeout. */
	for (i = 0; i < 200; i++) {
		jobs = debugfs_stat(self->fd, "live_jobs");
		if (jobs == 0)
			break;
		usleep(50000);
	}
	EXPECT_EQ(0, jobs);
	EXPECT_EQ(0, debugfs_stat(self->fd, "live_queues"));
}

TEST(handles_are_per_client_and_prime_shares_buffers)
{
	int a = accel_open(0), b = accel_open(0), dmabuf;
	uint32_t ha, hb, q, out, got[64];
	struct drm_xrt_bo_info info = { 0 };
	struct prog fill = { 0 };
	int i;

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, accel_bo_create(a, 4096, &ha));
	info.handle = ha;
	EXPECT_EQ(-ENOENT, accel_ioctl(b, DRM_IOCTL_XRT_BO_INFO, &info));
	ASSERT_EQ(0, drmPrimeHandleToFD(a, ha, DRM_CLOEXEC | DRM_RDWR, &dmabuf));
	ASSERT_EQ(0, drmPrimeFDToHandle(b, dmabuf, &hb));
	close(dmabuf);
	/* B computes into the shared buffer; A reads the result. */
	ASSERT_EQ(0, prog_fill(b, 64, 0x5a5a, 1, &fill));
	ASSERT_EQ(0, accel_queue_create(b, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(b, &out));
	ASSERT_EQ(0, submit(b, q, &fill, &hb, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(b, out, 30000));
	ASSERT_EQ(0, accel_bo_read(a, ha, got, sizeof(got)));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0x5a5a, got[i]);
	prog_free(b, &fill);
	close(b);
	ASSERT_EQ(0, accel_bo_close(a, ha));
	close(a);
}

#define SHARE_PARAM "/sys/module/xrt_accel/parameters/client_memory_mb"

/* Writes @value to the share parameter: 0, or -errno. */
static int set_share(const char *value)
{
	int fd = open(SHARE_PARAM, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The value of @key in @fd's fdinfo, in KiB; -1 if absent. */
static long long fdinfo_kib(int fd, const char *key)
{
	char path[64], line[256];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && line[n] == ':')
			v = strtoll(line + n + 1, NULL, 10);
	}
	fclose(f);
	return v;
}

static uint64_t param(int fd, uint32_t p)
{
	uint64_t v = ~0ull;

	accel_param(fd, p, &v);
	return v;
}

/*
 * One client cannot take every client's memory: with a 96 MiB share, A
 * holds 60 MiB and is refused 60 more (EDQUOT) while B still gets 60;
 * fdinfo and GET_PARAM report the share.  A buffer A exports and B
 * imports stays charged to A, even after A closed its file, until the
 * last handle goes.
 */
TEST(each_client_has_a_share_of_device_memory)
{
	char old[32] = "0";
	uint32_t ha, ha2, hb, hi;
	uint64_t dev0, dev1;
	int fd, a, b, dmabuf;
	ssize_t n;

	fd = open(SHARE_PARAM, O_RDONLY);
	ASSERT_LE(0, fd);
	n = read(fd, old, sizeof(old) - 1);
	close(fd);
	ASSERT_LT(0, n);
	old[n] = 0;
	EXPECT_EQ(-EINVAL, set_share("257")) TH_LOG("above memory_mb=256: refused");
	ASSERT_EQ(0, set_share("96"));
	a = accel_open(0);
	b = accel_open(0);
	ASSERT_EQ(0, set_share(old));	/* for files opened later; a and b keep 96 */
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	EXPECT_EQ(96ull << 20, param(a, DRM_XRT_PARAM_CLIENT_MEMORY_SIZE));
	EXPECT_EQ(98304, fdinfo_kib(a, "xrt-client-memory-limit"));
	dev0 = param(a, DRM_XRT_PARAM_MEMORY_USED);
	ASSERT_EQ(0, accel_bo_create(a, 60ull << 20, &ha));
	EXPECT_EQ(-EDQUOT, accel_bo_create(a, 60ull << 20, &ha2));
	ASSERT_EQ(0, accel_bo_create(b, 60ull << 20, &hb));
	EXPECT_EQ(60ull << 20, param(a, DRM_XRT_PARAM_CLIENT_MEMORY_USED));
	EXPECT_EQ(61440, fdinfo_kib(a, "xrt-client-memory"));
	EXPECT_EQ(dev0 + (120ull << 20), param(a, DRM_XRT_PARAM_MEMORY_USED));
	/* shared: B imports A's buffer and is not charged for it */
	ASSERT_EQ(0, drmPrimeHandleToFD(a, ha, DRM_CLOEXEC | DRM_RDWR, &dmabuf));
	ASSERT_EQ(0, drmPrimeFDToHandle(b, dmabuf, &hi));
	close(dmabuf);
	EXPECT_EQ(60ull << 20, param(b, DRM_XRT_PARAM_CLIENT_MEMORY_USED));
	close(a);	/* the buffer lives on in B, still charged to A's share */
	dev1 = param(b, DRM_XRT_PARAM_MEMORY_USED);
	EXPECT_EQ(dev0 + (120ull << 20), dev1);
	ASSERT_EQ(0, accel_bo_close(b, hi));
	EXPECT_EQ(dev0 + (60ull << 20), param(b, DRM_XRT_PARAM_MEMORY_USED));
	ASSERT_EQ(0, accel_bo_close(b, hb));
	EXPECT_EQ(0, param(b, DRM_XRT_PARAM_CLIENT_MEMORY_USED));
	close(b);
}

TEST(a_buffer_moves_between_devices_through_prime)
{
	int d0 = accel_open(0), d1 = accel_open(1), dmabuf;
	uint32_t h0, h1, dst, q, out, pair[2], got[256];
	struct prog copy = { 0 };
	uint32_t src[256];
	int i;

	ASSERT_LE(0, d0);
	ASSERT_LE(0, d1) TH_LOG("the VM loads the module with num_devices=2");
	for (i = 0; i < 256; i++)
		src[i] = i * 2654435761u;
	ASSERT_EQ(0, accel_bo_from(d0, src, sizeof(src), &h0));
	ASSERT_EQ(0, drmPrimeHandleToFD(d0, h0, DRM_CLOEXEC | DRM_RDWR, &dmabuf));
	ASSERT_EQ(0, drmPrimeFDToHandle(d1, dmabuf, &h1));
	close(dmabuf);
	ASSERT_EQ(0, accel_bo_create(d1, sizeof(src), &dst));
	ASSERT_EQ(0, prog_copy(d1, 256, &copy));
	ASSERT_EQ(0, accel_queue_create(d1, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(d1, &out));
	pair[0] = h1;
	pair[1] = dst;
	ASSERT_EQ(0, submit(d1, q, &copy, pair, 2, out));
	ASSERT_EQ(0, accel_syncobj_wait(d1, out, 30000));
	EXPECT_EQ(0, accel_syncobj_error(d1, out));
	ASSERT_EQ(0, accel_bo_read(d1, dst, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(src, got, sizeof(src)));
	prog_free(d1, &copy);
	close(d1);
	close(d0);
}

struct worker {
	int fd;
	uint32_t value;
	int failures;
};

#define JOBS_PER_THREAD 40

static void *submit_many(void *arg)
{
	struct worker *w = arg;
	uint32_t q, out, buf, got[128];
	struct prog p = { 0 };
	int i, j;

	if (prog_fill(w->fd, 128, w->value, 1, &p) ||
	    accel_bo_create(w->fd, 512, &buf) ||
	    accel_queue_create(w->fd, w->value & 1, &q) ||
	    accel_syncobj_create(w->fd, &out)) {
		w->failures++;
		return NULL;
	}
	for (i = 0; i < JOBS_PER_THREAD; i++) {
		if (submit(w->fd, q, &p, &buf, 1, out)) {
			w->failures++;
			continue;
		}
	}
	if (accel_syncobj_wait(w->fd, out, 60000) ||
	    accel_bo_read(w->fd, buf, got, sizeof(got)))
		w->failures++;
	for (j = 0; j < 128; j++)
		w->failures += got[j] != w->value;
	accel_queue_destroy(w->fd, q);
	return NULL;
}

TEST_F(dev, many_jobs_from_several_threads)
{
	long long done0 = debugfs_stat(self->fd, "jobs_done");
	struct worker w[4];
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++) {
		/* Two threads share the fixture's file; two open their own. */
		w[i] = (struct worker){ i < 2 ? self->fd : accel_open(0),
					0x1000u + i, 0 };
		ASSERT_LE(0, w[i].fd);
		ASSERT_EQ(0, pthread_create(&t[i], NULL, submit_many, &w[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].failures) TH_LOG("thread %d", i);
		if (i >= 2)
			close(w[i].fd);
	}
	ASSERT_LE(0, done0);
	EXPECT_EQ(done0 + 4 * JOBS_PER_THREAD, debugfs_stat(self->fd, "jobs_done"));
}

TEST_HARNESS_MAIN
