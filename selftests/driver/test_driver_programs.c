// SPDX-License-Identifier: MIT
/*
 * What SUBMIT does with programs: every malformed stream is refused with
 * EINVAL and leaves the device working; the program is copied at
 * submit; jobs are ordered by in-syncobjs and by the buffers they share;
 * the seed reaches the random numbers; a job ends at a COLLECTIVE and
 * resumes after it, with the ids it was given.
 */
#include "driver_test.h"
#include "malformed_programs.h"

/* Submits @bytes (a program over 3 small slots); returns 0 or -errno. */
static int submit_bytes(int fd, uint32_t q, const void *bytes, size_t size)
{
	uint32_t bo, slots[3];
	int ret, i;

	ret = accel_bo_from(fd, bytes, size, &bo);
	for (i = 0; !ret && i < 3; i++)
		ret = accel_bo_create(fd, 4096, &slots[i]);
	if (!ret) {
		struct accel_job j = {
			.prog = bo, .slots = slots, .num_slots = 3,
			.prog_size = size, .queue = q,
		};

		ret = accel_submit(fd, &j);
	}
	accel_bo_close(fd, bo);
	for (i = 0; i < 3; i++)
		accel_bo_close(fd, slots[i]);
	return ret;
}

TEST_F(dev, every_malformed_stream_is_einval)
{
	struct drm_xrt_queue_status st;
	struct base p;
	uint32_t q;
	size_t i;

	ASSERT_LE(30, NUM_MALFORMED);
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	for (i = 0; i < NUM_MALFORMED; i++) {
		make_base(&p);
		cases[i].mutate(&p);
		EXPECT_EQ(-EINVAL, submit_bytes(self->fd, q, &p, BASE_SIZE))
			TH_LOG("case %zu (%s)", i, cases[i].needle);
	}
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(0, st.submitted);
	/* The base program itself is accepted: the mutation was the fault. */
	make_base(&p);
	EXPECT_EQ(0, submit_bytes(self->fd, q, &p, BASE_SIZE));
	ASSERT_EQ(0, accel_queue_destroy(self->fd, q));
}

/* A CALL is host code: the kernel refuses it, and goes on working. */
TEST_F(dev, a_call_is_einval)
{
	struct call_base c;
	struct base p;
	uint32_t q;

	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	make_call_base(&c);
	EXPECT_EQ(-EINVAL, submit_bytes(self->fd, q, &c, CALL_BASE_SIZE));
	make_base(&p);
	EXPECT_EQ(0, submit_bytes(self->fd, q, &p, BASE_SIZE));
	ASSERT_EQ(0, accel_queue_destroy(self->fd, q));
}

TEST_F(dev, the_program_is_copied_at_submit)
{
	uint32_t q, out, slow_buf, buf, got[256];
	struct prog slow = { 0 }, p = { 0 };
	uint64_t size;
	uint8_t *bytes;
	int i;

	/*
	 * A slow job first, so the second one is still queued... (slow
	 * enough for the microseconds the overwrite takes, well inside the
	 * VM's 2 s job timeout even under emulation without AVX2)
	 */
	ASSERT_EQ(0, prog_fill(self->fd, 4 << 20, 3, 2, &slow));
	ASSERT_EQ(0, accel_bo_create(self->fd, 16 << 20, &slow_buf));
	ASSERT_EQ(0, prog_fill(self->fd, 256, 42, 1, &p));
	ASSERT_EQ(0, accel_bo_create(self->fd, 1024, &buf));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &out));
	ASSERT_EQ(0, submit(self->fd, q, &slow, &slow_buf, 1, 0));
	ASSERT_EQ(0, submit(self->fd, q, &p, &buf, 1, out));
	/* ...when its program buffer is overwritten with garbage. */
	bytes = accel_bo_map(self->fd, p.bo, &size);
	ASSERT_NE(NULL, bytes);
	memset(bytes, 0xff, size);
	munmap(bytes, size);
	ASSERT_EQ(0, accel_syncobj_wait(self->fd, out, 60000));
	EXPECT_EQ(0, accel_syncobj_error(self->fd, out));
	ASSERT_EQ(0, accel_bo_read(self->fd, buf, got, sizeof(got)));
	for (i = 0; i < 256; i++)
		ASSERT_EQ(42, got[i]);
	prog_free(self->fd, &slow);
	prog_free(self->fd, &p);
}

/*
 * A writes X (slowly) on one queue, B copies X to Y on another: B must
 * see A's data, whether it waits through a syncobj or through X itself.
 */
static void ordered_across_queues(struct __test_metadata *_metadata, int fd,
				  int explicit)
{
	uint32_t qa, qb, sa, sb, x, y, xy[2], got[1024];
	struct prog a = { 0 }, b = { 0 };
	const uint64_t n = 1 << 20;
	struct accel_job jb;
	int i;

	ASSERT_EQ(0, prog_fill(fd, n, 7, 6, &a));
	ASSERT_EQ(0, prog_copy(fd, n, &b));
	ASSERT_EQ(0, accel_bo_create(fd, n * 4, &x));
	ASSERT_EQ(0, accel_bo_create(fd, n * 4, &y));
	ASSERT_EQ(0, accel_queue_create(fd, 0, &qa));
	ASSERT_EQ(0, accel_queue_create(fd, 0, &qb));
	ASSERT_EQ(0, accel_syncobj_create(fd, &sa));
	ASSERT_EQ(0, accel_syncobj_create(fd, &sb));
	ASSERT_EQ(0, submit(fd, qa, &a, &x, 1, sa));
	xy[0] = x;
	xy[1] = y;
	jb = (struct accel_job){
		.prog = b.bo, .slots = xy, .num_slots = 2, .prog_size = b.size,
		.in_syncs = &sa, .num_in_syncs = explicit, .out_sync = sb,
		.queue = qb,
	};
	ASSERT_EQ(0, accel_submit(fd, &jb));
	ASSERT_EQ(0, accel_syncobj_wait(fd, sb, 60000));
	EXPECT_EQ(0, accel_syncobj_error(fd, sb));
	EXPECT_EQ(0, accel_syncobj_wait(fd, sa, 0)) TH_LOG("B ran before A ended");
	ASSERT_EQ(0, accel_bo_read(fd, y, got, sizeof(got)));
	for (i = 0; i < 1024; i++)
		ASSERT_EQ(7, got[i]);
	prog_free(fd, &a);
	prog_free(fd, &b);
}

TEST_F(dev, in_syncobjs_order_jobs_across_queues)
{
	ordered_across_queues(_metadata, self->fd, 1);
}

TEST_F(dev, shared_buffers_order_jobs_across_queues)
{
	ordered_across_queues(_metadata, self->fd, 0);
}

/* u32 random bits into slot 0 with @seed; returns a fingerprint. */
static int run_rng(int fd, uint64_t seed, uint32_t *bits, uint64_t n)
{
	struct cs_builder b;
	struct xrt_cs_view v;
	struct prog p = { 0 };
	struct accel_job j = { 0 };
	uint32_t buf;
	int ret;

	cs_builder_init(&b, NULL);
	v = cs_view_dense(cs_add_slot(&b, n * 4, XRT_CS_SLOT_WRITE), XRT_CS_U32,
			  0, 1, &n);
	cs_rng(&b, XRT_CS_RNG_BITS, 5, &v, 0, 0);
	ret = prog_upload(fd, &b, &p);
	if (!ret)
		ret = accel_bo_create(fd, n * 4, &buf);
	if (ret)
		return ret;
	j = (struct accel_job){ .prog = p.bo, .slots = &buf, .num_slots = 1,
				.prog_size = p.size, .rng_seed = seed };
	ret = accel_queue_create(fd, 0, &j.queue);
	if (!ret)
		ret = accel_syncobj_create(fd, &j.out_sync);
	if (!ret)
		ret = accel_submit(fd, &j);
	if (!ret)
		ret = accel_syncobj_wait(fd, j.out_sync, 30000);
	if (!ret)
		ret = accel_bo_read(fd, buf, bits, n * 4);
	prog_free(fd, &p);
	accel_bo_close(fd, buf);
	return ret;
}

TEST_F(dev, the_seed_reaches_the_random_numbers)
{
	uint32_t a[64], b[64], c[64];

	ASSERT_EQ(0, run_rng(self->fd, 1, a, 64));
	ASSERT_EQ(0, run_rng(self->fd, 1, b, 64));
	ASSERT_EQ(0, run_rng(self->fd, 2, c, 64));
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	EXPECT_NE(0, memcmp(a, c, sizeof(a)));
}

/*
 * Slot 0, u32[4]: [0] = replica id, [1] = partition id, a COLLECTIVE
 * (broadcast of [0] into [2]), [3] = 7.
 */
static int prog_stops(int fd, struct prog *p)
{
	uint64_t one = 1;
	uint32_t seven = 7, slot;
	struct xrt_cs_view v[4];
	struct cs_builder b;
	int i;

	cs_builder_init(&b, NULL);
	slot = cs_add_slot(&b, 16, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE);
	for (i = 0; i < 4; i++)
		v[i] = cs_view_dense(slot, XRT_CS_U32, 4 * i, 1, &one);
	cs_fill_id(&b, &v[0], XRT_CS_FILL_REPLICA_ID);
	cs_fill_id(&b, &v[1], XRT_CS_FILL_PARTITION_ID);
	{
		struct xrt_cs_view io[2] = { v[0], v[2] };

		cs_collective(&b, XRT_CS_COLL_BROADCAST, 0, 0, 0, io, 1);
	}
	cs_fill_constant(&b, &v[3], &seven, sizeof(seven));
	return prog_upload(fd, &b, p);
}

/* Submits @p over @bo from command @start as replica 5 partition 9, and waits. */
static int run_from(int fd, uint32_t q, const struct prog *p, uint32_t bo, uint32_t start,
		    uint32_t sync)
{
	struct accel_job j = {
		.prog = p->bo, .slots = &bo, .num_slots = 1, .prog_size = p->size,
		.out_sync = sync, .queue = q, .start_pc = start, .replica_id = 5,
		.partition_id = 9,
	};
	int ret = accel_submit(fd, &j);

	return ret ? ret : accel_syncobj_wait(fd, sync, 60000);
}

/*
 * A job ends at a COLLECTIVE, as completed, QUEUE_STATUS saying where;
 * the caller makes the collective and resumes after it.  start_pc
 * must follow a COLLECTIVE; the new fields' padding must be zero.
 */
TEST_F(dev, a_job_stops_at_a_collective_and_resumes_after_it)
{
	struct drm_xrt_queue_status st, bad;
	struct drm_xrt_submit a;
	uint32_t q, bo, sync, got[4];
	struct prog p = { 0 };
	uint64_t caps = 0;

	ASSERT_EQ(0, accel_param(self->fd, DRM_XRT_PARAM_CAPABILITIES, &caps));
	ASSERT_TRUE(caps & DRM_XRT_CAP_COLLECTIVES);
	ASSERT_EQ(0, prog_stops(self->fd, &p));
	ASSERT_EQ(0, accel_queue_create(self->fd, 0, &q));
	ASSERT_EQ(0, accel_bo_create(self->fd, 4096, &bo));
	ASSERT_EQ(0, accel_syncobj_create(self->fd, &sync));
	ASSERT_EQ(0, run_from(self->fd, q, &p, bo, 0, sync));
	ASSERT_EQ(0, accel_syncobj_error(self->fd, sync));
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(1, st.completed);
	EXPECT_EQ(2, st.stop_pc);
	ASSERT_EQ(0, accel_bo_read(self->fd, bo, got, sizeof(got)));
	EXPECT_EQ(5, got[0]);
	EXPECT_EQ(9, got[1]);
	EXPECT_EQ(0, got[2]);	/* the collective did not run, nor what follows */
	EXPECT_EQ(0, got[3]);
	/* not after a collective, past the end, the end after a FILL */
	EXPECT_EQ(-EINVAL, run_from(self->fd, q, &p, bo, 2, sync));
	EXPECT_EQ(-EINVAL, run_from(self->fd, q, &p, bo, 5, sync));
	EXPECT_EQ(-EINVAL, run_from(self->fd, q, &p, bo, 4, sync));
	EXPECT_EQ(-EINVAL, run_from(self->fd, q, &p, bo, ~0u, sync));
	ASSERT_EQ(0, run_from(self->fd, q, &p, bo, 3, sync));
	ASSERT_EQ(0, accel_queue_status(self->fd, q, &st));
	EXPECT_EQ(2, st.completed);
	EXPECT_EQ(~0u, st.stop_pc);
	ASSERT_EQ(0, accel_bo_read(self->fd, bo, got, sizeof(got)));
	EXPECT_EQ(0, got[2]);
	EXPECT_EQ(7, got[3]);
	a = (struct drm_xrt_submit){ .queue_id = q, .program_handle = p.bo, .num_slots = 1,
				     .program_size = p.size, .slots_ptr = (uintptr_t)&bo, .pad1 = 1 };
	bad = (struct drm_xrt_queue_status){ .queue_id = q, .stop_pc = 1 };
	EXPECT_EQ(-EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_SUBMIT, &a));
	EXPECT_EQ(-EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_STATUS, &bad));
	bad.stop_pc = 0;
	bad.pad = 1;
	EXPECT_EQ(-EINVAL, accel_ioctl(self->fd, DRM_IOCTL_XRT_QUEUE_STATUS, &bad));
	accel_syncobj_destroy(self->fd, sync);
	accel_bo_close(self->fd, bo);
	ASSERT_EQ(0, accel_queue_destroy(self->fd, q));
	prog_free(self->fd, &p);
}

TEST_HARNESS_MAIN
