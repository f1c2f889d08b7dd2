// SPDX-License-Identifier: MIT
/*
 * A seeded random sequence of ioctls with random and mutated arguments
 * from several clients at once, for a bounded time.  Nothing is checked
 * call by call: the kernel must not oops, warn or leak (the VM stage
 * checks dmesg and the debugfs counters), and the device must still run
 * a program correctly afterwards.
 *
 * XRT_FUZZ_SECONDS (default 10) and XRT_FUZZ_SEED (default: the time)
 * control it; the seed is printed so that a failure can be replayed.
 */
#include <pthread.h>
#include <time.h>
#include <xf86drm.h>

#include "driver_test.h"
#include "malformed_programs.h"

#define CLIENTS 3
#define KEEP 16

struct client {
	int fd;
	uint64_t rng;
	uint32_t bos[KEEP], queues[KEEP], syncs[KEEP];
	double until;
	long calls;
};

static int shared_dmabuf = -1;

static uint64_t next(struct client *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return c->rng;
}

static uint32_t pick(struct client *c, const uint32_t *from)
{
	uint64_t r = next(c);

	/* Mostly a live one, sometimes anything. */
	return r % 8 ? from[r % KEEP] : (uint32_t)(r >> 32) % 64;
}

static uint64_t any_size(struct client *c)
{
	static const uint64_t sizes[] = { 0, 1, 4096, 65536, 1 << 20,
					  1ull << 40, ~0ull };
	uint64_t r = next(c);

	return r % 3 ? sizes[r % 7] : (r >> 16) % (1 << 20);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void fuzz_submit(struct client *c)
{
	uint32_t prog, slots[4], sync;
	struct drm_xrt_submit a = { 0 };
	struct base p;
	int i;

	make_base(&p);
	/* Half the programs valid, half with a byte or two changed. */
	for (i = next(c) % 2 ? 0 : 1 + (int)(next(c) % 2); i > 0; i--)
		((uint8_t *)&p)[next(c) % BASE_SIZE] = (uint8_t)next(c);
	if (accel_bo_from(c->fd, &p, BASE_SIZE, &prog))
		return;
	for (i = 0; i < 4; i++)
		slots[i] = pick(c, c->bos);
	sync = pick(c, c->syncs);
	a.queue_id = pick(c, c->queues);
	a.program_handle = next(c) % 16 ? prog : pick(c, c->bos);
	a.num_slots = next(c) % 8 ? 3 : (uint32_t)next(c) % 6;
	a.program_size = next(c) % 16 ? BASE_SIZE : any_size(c);
	a.program_offset = next(c) % 16 ? 0 : next(c) % 8192;
	a.slots_ptr = next(c) % 32 ? (uintptr_t)slots : next(c);
	a.num_in_syncs = next(c) % 4 == 0;
	a.in_syncs_ptr = (uintptr_t)&sync;
	a.out_sync = next(c) % 2 ? pick(c, c->syncs) : 0;
	a.flags = next(c) % 32 ? 0 : (uint32_t)next(c);
	a.rng_seed = next(c);
	accel_ioctl(c->fd, DRM_IOCTL_XRT_SUBMIT, &a);
	accel_bo_close(c->fd, prog);
}

static void fuzz_one(struct client *c)
{
	uint64_t r = next(c), size;
	uint32_t h, slot = (uint32_t)(next(c) % KEEP);
	struct drm_xrt_bo_wait w = { 0 };
	struct drm_xrt_queue_status st;
	uint8_t *map;

	switch (r % 12) {
	case 0:
		if (!accel_bo_create(c->fd, any_size(c), &h))
			c->bos[slot] = h;
		break;
	case 1:
		map = accel_bo_map(c->fd, pick(c, c->bos), &size);
		if (map) {
			map[next(c) % size] = (uint8_t)next(c);
			munmap(map, size);
		}
		break;
	case 2:
		w.handle = pick(c, c->bos);
		w.timeout_ns = (int64_t)(now() * 1e9) + (int64_t)(next(c) % 1000000);
		w.flags = next(c) % 16 ? 0 : 1;
		accel_ioctl(c->fd, DRM_IOCTL_XRT_BO_WAIT, &w);
		break;
	case 3:
		accel_bo_close(c->fd, pick(c, c->bos));
		break;
	case 4:
		if (!accel_queue_create(c->fd, (uint32_t)(next(c) % 3), &h))
			c->queues[slot] = h;
		break;
	case 5:
		accel_queue_destroy(c->fd, pick(c, c->queues));
		break;
	case 6:
		accel_queue_status(c->fd, pick(c, c->queues), &st);
		break;
	case 7:
		if (!accel_syncobj_create(c->fd, &h))
			c->syncs[slot] = h;
		break;
	case 8:
		accel_syncobj_destroy(c->fd, pick(c, c->syncs));
		break;
	case 9:
		if (shared_dmabuf >= 0 && !drmPrimeFDToHandle(c->fd, shared_dmabuf, &h))
			c->bos[slot] = h;
		break;
	default:
		fuzz_submit(c);
		break;
	}
	c->calls++;
}

static void *fuzz_client(void *arg)
{
	struct client *c = arg;

	while (now() < c->until)
		fuzz_one(c);
	return NULL;
}

TEST_F_TIMEOUT(dev, random_ioctls_from_several_clients, 300)
{
	const char *secs = getenv("XRT_FUZZ_SECONDS"), *seed_env = getenv("XRT_FUZZ_SEED");
	uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL);
	struct client c[CLIENTS];
	uint32_t shared, q, out, buf, got[64];
	struct prog fill = { 0 };
	pthread_t t[CLIENTS];
	long calls = 0;
	int i, fd;

	TH_LOG("seed %llu", (unsigned long long)seed);
	ASSERT_EQ(0, accel_bo_create(self->fd, 65536, &shared));
	ASSERT_EQ(0, drmPrimeHandleToFD(self->fd, shared, DRM_CLOEXEC | DRM_RDWR,
					&shared_dmabuf));
	for (i = 0; i < CLIENTS; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].fd = i ? accel_open(0) : self->fd;
		ASSERT_LE(0, c[i].fd);
		c[i].rng = seed * 0x9e3779b97f4a7c15ull + (uint64_t)i + 1;
		c[i].until = now() + (secs ? atof(secs) : 10.0);
		ASSERT_EQ(0, pthread_create(&t[i], NULL, fuzz_client, &c[i]));
	}
	for (i = 0; i < CLIENTS; i++) {
		pthread_join(t[i], NULL);
		calls += c[i].calls;
		if (i)
			close(c[i].fd);
	}
	close(shared_dmabuf);
	TH_LOG("%ld calls", calls);
	ASSERT_LT(100, calls);
	/* The device still runs a program right, for a new client. */
	fd = accel_open(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prog_fill(fd, 64, 77, 1, &fill));
	ASSERT_EQ(0, accel_bo_create(fd, 256, &buf));
	ASSERT_EQ(0, accel_queue_create(fd, 0, &q));
	ASSERT_EQ(0, accel_syncobj_create(fd, &out));
	ASSERT_EQ(0, submit(fd, q, &fill, &buf, 1, out));
	ASSERT_EQ(0, accel_syncobj_wait(fd, out, 30000));
	EXPECT_EQ(0, accel_syncobj_error(fd, out));
	ASSERT_EQ(0, accel_bo_read(fd, buf, got, sizeof(got)));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(77, got[i]);
	prog_free(fd, &fill);
	close(fd);
}

TEST_HARNESS_MAIN
