// SPDX-License-Identifier: MIT
/*
 * Every ioctl of xrt_accel: its success path, then each bad argument
 * on its own, with the errno the uAPI documents.
 */
#include "driver_test.h"

#define EXPECT_ERR(err, call) EXPECT_EQ(-(err), (call))

/* ioctl() with a bad pointer as its argument. */
#define BAD_PTR ((void *)16)

TEST_F(dev, get_param_reports_every_parameter)
{
	uint64_t v;
	uint32_t p;

	for (p = 0; p < DRM_XRT_PARAM_COUNT; p++) {
		EXPECT_EQ(0, accel_param(self->fd, p, &v)) TH_LOG("param %u", p);
	}
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_ABI_VERSION, &v));
	EXPECT_EQ(DRM_XRT_ABI_VERSION, v);
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_CS_VERSION, &v));
	EXPECT_EQ(XRT_CS_VERSION, v);
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MEMORY_SIZE, &v));
	EXPECT_EQ(256ull << 20, v) TH_LOG("the VM loads the module with memory_mb=256");
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_CAPABILITIES, &v));
	EXPECT_TRUE(v & DRM_XRT_CAP_PRIME);
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MAX_QUEUES, &v));
	EXPECT_EQ(16, v);
}

TEST_F(dev, get_param_rejects_bad_arguments)
{
	struct drm_xrt_get_param a = { .param = DRM_XRT_PARAM_COUNT };

	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_GET_PARAM, &a));
	a = (struct drm_xrt_get_param){ .param = ~0u };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_GET_PARAM, &a));
	a = (struct drm_xrt_get_param){ .pad = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_GET_PARAM, &a));
	a = (struct drm_xrt_get_param){ .value = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_GET_PARAM, &a));
	EXPECT_ERR(EFAULT, accel_ioctl(self->fd, DRM_IOCTL_XRT_GET_PARAM, BAD_PTR));
}

TEST_F(dev, bo_create_maps_zeroed_pages)
{
	struct drm_xrt_bo_create a = { .size = 5000 };
	uint64_t size, used0, used1;
	uint32_t h;
	uint8_t *p;
	size_t i;

	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MEMORY_USED, &used0));
	ASSERT_EQ(0, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	EXPECT_EQ(8192, a.size);
	EXPECT_NE(0, a.handle);
	h = a.handle;
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MEMORY_USED, &used1));
	EXPECT_EQ(used0 + 8192, used1);
	p = accel_bo_map(self->fd, h, &size);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(8192, size);
	for (i = 0; i < size; i++)
		ASSERT_EQ(0, p[i]);
	memset(p, 0xab, size);
	munmap(p, size);
	p = accel_bo_map(self->fd, h, &size);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0xab, p[8191]);
	munmap(p, size);
	ASSERT_EQ(0, accel_bo_close(self->fd, h));
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MEMORY_USED, &used1));
	EXPECT_EQ(used0, used1);
	EXPECT_ERR(EINVAL, accel_bo_close(self->fd, h));
}

TEST_F(dev, bo_create_rejects_bad_arguments)
{
	struct drm_xrt_bo_create a = { 0 };

	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	a = (struct drm_xrt_bo_create){ .size = 4096, .flags = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	a = (struct drm_xrt_bo_create){ .size = 4096, .flags = 0x80000000u };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	a = (struct drm_xrt_bo_create){ .size = 4096, .handle = 7 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	a = (struct drm_xrt_bo_create){ .size = (256ull << 20) + 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	a = (struct drm_xrt_bo_create){ .size = ~0ull };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, &a));
	EXPECT_ERR(EFAULT, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_CREATE, BAD_PTR));
}

TEST_F(dev, memory_limit_gives_enospc_and_recovers)
{
	uint32_t h[8], extra;
	uint64_t used;
	int i, n = 0;

	/* 256 MiB of device memory: 4 x 60 MiB fit, a fifth does not. */
	for (i = 0; i < 5; i++) {
		int ret = accel_bo_create(self->fd, 60ull << 20, &h[n]);

		ASSERT_EQ(i < 4 ? 0 : -ENOSPC, ret) TH_LOG("buffer %d", i);
		n += !ret;
	}
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MEMORY_USED, &used));
	EXPECT_LE(240ull << 20, used);
	ASSERT_EQ(0, accel_bo_close(self->fd, h[0]));
	ASSERT_EQ(0, accel_bo_create(self->fd, 60ull << 20, &extra));
	ASSERT_EQ(0, accel_bo_close(self->fd, extra));
	for (i = 1; i < n; i++)
		ASSERT_EQ(0, accel_bo_close(self->fd, h[i]));
}

/* Sorts slot 0, 2^18 u32 keys: the engine needs 6 MiB of workspace. */
static int prog_big_sort(int fd, struct prog *p)
{
	uint64_t n = 1 << 18;
	int64_t stride = 1;
	struct xrt_cs_operand op;
	struct cs_builder b;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, n * 4, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	op = cs_operand(0, XRT_CS_U32, XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, 0, 1,
			&stride);
	cs_sort(&b, 0, 1, &n, 0, &op, 1, 1);
	return prog_upload(fd, &b, p);
}

TEST_F(dev, job_workspace_counts_against_device_memory)
{
	uint32_t big[5], keys, q, out;
	struct prog p = { 0 };
	int i;

	ASSERT_EQ(0, prog_big_sort(self->fd, &p));
	ASSERT_EQ(0, accel_bo_create(self->fd, 1 << 20, &keys));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	/* 252 MiB of buffers leave less than the sort's 6 MiB... */
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, accel_bo_create(self->fd, 60ull << 20, &big[i]));
	ASSERT_EQ(0, accel_bo_create(self->fd, 12ull << 20, &big[4]));
	EXPECT_EQ(-ENOSPC, submit(self->fd, q, &p, &keys, 1, out));
	/* ...and 15 MiB are enough. */
	ASSERT_EQ(0, accel_bo_close(self->fd, big[4]));
	ASSERT_EQ(0, submit(self->fd, q, &p, &keys, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 60000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, out));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, accel_bo_close(self->fd, big[i]));
	prog_free(self->fd, &p);
}

TEST_F(dev, bo_info_and_wait_reject_bad_arguments)
{
	struct drm_xrt_bo_info info = { .handle = 12345 };
	struct drm_xrt_bo_wait w = { .handle = 12345 };
	uint32_t h;

	EXPECT_ERR(ENOENT, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_INFO, &info));
	EXPECT_ERR(ENOENT, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_WAIT, &w));
	ASSERT_EQ(0, accel_bo_create(self->fd, 4096, &h));
	info = (struct drm_xrt_bo_info){ .handle = h, .pad = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_INFO, &info));
	info = (struct drm_xrt_bo_info){ .handle = h, .size = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_INFO, &info));
	EXPECT_ERR(EFAULT, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_INFO, BAD_PTR));
	w = (struct drm_xrt_bo_wait){ .handle = h, .flags = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_WAIT, &w));
	/* An idle buffer: a wait with a timeout in the past succeeds. */
	w = (struct drm_xrt_bo_wait){ .handle = h, .timeout_ns = 0 };
	EXPECT_EQ(0, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_WAIT, &w));
	info = (struct drm_xrt_bo_info){ .handle = h };
	ASSERT_EQ(0, accel_ioctl(self->fd, DRM_IOCTL_XRT_BO_INFO, &info));
	EXPECT_EQ(4096, info.size);
	EXPECT_NE(0, info.mmap_offset);
	ASSERT_EQ(0, accel_bo_close(self->fd, h));
}

TEST_F(dev, queues_are_created_counted_and_destroyed)
{
	struct drm_xrt_queue_destroy d = { .queue_id = 1, .pad = 1 };
	struct drm_xrt_queue_create c = { 0 };
	struct drm_xrt_queue_status st;
	uint32_t ids[16], extra;
	int i;

	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, accel_queue_create(self->fd, i & 1, &ids[i]));
		EXPECT_NE(0, ids[i]);
	}
	EXPECT_ERR(ENOSPC, accel_queue_create(self->fd, 0, &extra));
	ASSERT_EQ(0, accel_queue_status(self->fd, ids[3], &st));
	EXPECT_EQ(0, st.flags);
	EXPECT_EQ(0, st.resets);
	EXPECT_EQ(0, st.submitted);
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, accel_queue_destroy(self->fd, ids[i]));
	EXPECT_ERR(ENOENT, accel_queue_destroy(self->fd, ids[0]));
	EXPECT_ERR(ENOENT, accel_queue_status(self->fd, ids[0], &st));
	c.priority = 2;
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CREATE, &c));
	c = (struct drm_xrt_queue_create){ .flags = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CREATE, &c));
	c = (struct drm_xrt_queue_create){ .pad = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CREATE, &c));
	c = (struct drm_xrt_queue_create){ .queue_id = 1 };
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CREATE, &c));
	EXPECT_ERR(EFAULT, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_CREATE, BAD_PTR));
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_DESTROY, &d));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &extra));
	memset(&st, 0, sizeof(st));
	st.queue_id = extra;
	st.resets = 1;
	EXPECT_ERR(EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_STATUS, &st));
	EXPECT_ERR(EFAULT, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_STATUS, BAD_PTR));
	ASSERT_EQ(0, accel_queue_destroy(self->fd, extra));
}

TEST_F(dev, submit_runs_a_program_and_signals)
{
	struct drm_xrt_queue_status st;
	uint32_t q, out, buf, got[1024];
	struct prog p = { 0 };
	int i;

	ASSERT_EQ(0, prog_fill(self->fd, 1024, 0xdeadbeef, 1, &p));
	ASSERT_EQ(0, accel_bo_create(self->fd, 4096, &buf));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	ASSERT_EQ(0, submit(self->fd, q, &p, &buf, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 30000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, out));
	ASSERT_EQ(0, accel_bo_read(self->fd, buf, got, sizeof(got)));
	for (i = 0; i < 1024; i++)
		ASSERT_EQ(0xdeadbeef, got[i]);
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(1, st.submitted);
	EXPECT_EQ(1, st.completed);
	EXPECT_EQ(0, st.last_error);
	prog_free(self->fd, &p);
}

/* The number after @key in this process's fdinfo of @fd, or -1. */
static long long fdinfo_value(int fd, const char *key, char *text, size_t size)
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
		if (strncmp(line, key, n) || line[n] != ':')
			continue;
		v = atoll(line + n + 1);
		if (text)
			snprintf(text, size, "%s", line + n + 1);
	}
	fclose(f);
	return v;
}

TEST_F(dev, fdinfo_reports_engine_time_and_memory)
{
	uint32_t q, out, buf;
	struct prog p = { 0 };
	char text[64];
	long long t0, mem0;

	ASSERT_EQ(0, fdinfo_value(self->fd, "drm-engine-compute", NULL, 0));
	ASSERT_LE(0, fdinfo_value(self->fd, "drm-client-id", NULL, 0));
	fdinfo_value(self->fd, "drm-driver", text, sizeof(text));
	EXPECT_NE(NULL, strstr(text, "xrt_accel"));
	mem0 = fdinfo_value(self->fd, "drm-memory-device", text, sizeof(text));
	EXPECT_NE(NULL, strstr(text, "KiB"));
	ASSERT_EQ(0, accel_bo_create(self->fd, 1 << 20, &buf));
	EXPECT_EQ(mem0 + 1024, fdinfo_value(self->fd, "drm-memory-device", NULL, 0));
	ASSERT_EQ(0, prog_fill(self->fd, 1 << 18, 3, 4, &p));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	t0 = fdinfo_value(self->fd, "drm-engine-compute", NULL, 0);
	ASSERT_EQ(0, submit(self->fd, q, &p, &buf, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 30000));
	EXPECT_LT(t0, fdinfo_value(self->fd, "drm-engine-compute", NULL, 0));
	prog_free(self->fd, &p);
}

/* One valid submission, mutated one field at a time. */
FIXTURE(sub) {
	int fd;
	uint32_t q, buf, small, out;
	struct prog p;
	struct drm_xrt_submit a;
};

FIXTURE_SETUP(sub)
{
	self->fd = accel_open(0);
	ASSERT_LE(0, self->fd);
	memset(&self->p, 0, sizeof(self->p));
	ASSERT_EQ(0, prog_fill(self->fd, 2048, 1, 1, &self->p));
	ASSERT_EQ(0, accel_bo_create(self->fd, 8192, &self->buf));
	ASSERT_EQ(0, accel_bo_create(self->fd, 4096, &self->small));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &self->q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &self->out));
	self->a = (struct drm_xrt_submit){
		.queue_id = self->q, .program_handle = self->p.bo,
		.num_slots = 1, .program_size = self->p.size,
		.slots_ptr = (uintptr_t)&self->buf,
	};
}

FIXTURE_TEARDOWN(sub)
{
	close(self->fd);
}

#define SUBMIT_FAILS(err, ...)                                                \
	do {                                                                  \
		struct drm_xrt_submit a = self->a;                            \
		__VA_ARGS__;                                                  \
		EXPECT_ERR(err, accel_ioctl(self->fd, DRM_IOCTL_XRT_SUBMIT, &a)) \
			TH_LOG("%s", #__VA_ARGS__);                           \
	} while (0)

TEST_F(sub, each_bad_argument_has_its_errno)
{
	uint32_t bad_handles[2] = { 9999, 9998 }, nofence, slots[2] = { 0 };
	struct drm_xrt_queue_status st;
	uint64_t max_slots, max_syncs;

	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MAX_SLOTS, &max_slots));
	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_MAX_IN_SYNCS, &max_syncs));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &nofence));
	SUBMIT_FAILS(EINVAL, a.flags = 1);
	SUBMIT_FAILS(EINVAL, a.flags = 0x80000000u);
	SUBMIT_FAILS(ENOENT, a.queue_id = 0);
	SUBMIT_FAILS(ENOENT, a.queue_id = 77);
	SUBMIT_FAILS(ENOENT, a.program_handle = 9999);
	SUBMIT_FAILS(ENOENT, a.program_handle = 0);
	SUBMIT_FAILS(EINVAL, a.program_offset = 4);
	SUBMIT_FAILS(EINVAL, a.program_offset = 4096);
	SUBMIT_FAILS(EINVAL, a.program_offset = ~7ull);
	SUBMIT_FAILS(EINVAL, a.program_size = 0);
	SUBMIT_FAILS(EINVAL, a.program_size = ~0ull);
	SUBMIT_FAILS(EINVAL, a.program_size = 1ull << 40);
	SUBMIT_FAILS(EINVAL, a.program_size -= 8);
	SUBMIT_FAILS(EINVAL, a.num_slots = 0);
	SUBMIT_FAILS(EINVAL, a.num_slots = 2; a.slots_ptr = (uintptr_t)slots);
	SUBMIT_FAILS(EINVAL, a.num_slots = (uint32_t)max_slots + 1);
	SUBMIT_FAILS(EINVAL, a.num_slots = ~0u);
	SUBMIT_FAILS(EFAULT, a.slots_ptr = 16);
	SUBMIT_FAILS(EFAULT, a.slots_ptr = ~0ull);
	SUBMIT_FAILS(ENOENT, a.slots_ptr = (uintptr_t)bad_handles);
	SUBMIT_FAILS(EINVAL, a.slots_ptr = (uintptr_t)&self->small);
	SUBMIT_FAILS(EINVAL, a.num_in_syncs = (uint32_t)max_syncs + 1);
	SUBMIT_FAILS(EFAULT, a.num_in_syncs = 1; a.in_syncs_ptr = 16);
	SUBMIT_FAILS(ENOENT, a.num_in_syncs = 1; a.in_syncs_ptr = (uintptr_t)bad_handles);
	SUBMIT_FAILS(EINVAL, a.num_in_syncs = 1; a.in_syncs_ptr = (uintptr_t)&nofence);
	SUBMIT_FAILS(ENOENT, a.out_sync = 9999);
	EXPECT_ERR(EFAULT, accel_ioctl(self->fd, DRM_IOCTL_XRT_SUBMIT, BAD_PTR));
	/* Nothing was queued by any of them, and the queue still works. */
	ASSERT_EQ(0, accel_queue_status(self->fd, self->q, &st));
	EXPECT_EQ(0, st.submitted);
	self->a.out_sync = self->out;
	ASSERT_EQ(0, accel_ioctl(self->fd, DRM_IOCTL_XRT_SUBMIT, &self->a));
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, self->out, 30000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, self->out));
}

TEST_HARNESS_MAIN
