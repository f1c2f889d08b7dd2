// SPDX-License-Identifier: MIT
/*
 * The host device's thread pool: every item of a job runs once, on the
 * caller and the workers, and a worker that wakes on the caller's CPU
 * moves to another one it may use.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#include "xrt_test.h"

#include "device/host/host_device.h"

enum { ITEMS = 1000 };

struct count {
	atomic_uint runs[ITEMS];
};

static void count_items(void *ctx, uint64_t first, uint64_t count, void *ws)
{
	struct count *c = ctx;
	uint64_t i;

	(void)ws;
	for (i = first; i < first + count; i++)
		atomic_fetch_add(&c->runs[i], 1);
}

TEST(every_item_runs_once_on_any_number_of_threads)
{
	uint32_t threads, i;

	for (threads = 1; threads <= 5; threads++) {
		struct host_pool *p = NULL;
		static struct count c;
		xrt_status *st = host_pool_create(threads, &p);

		ASSERT_EQ(NULL, st);
		ASSERT_EQ(threads, host_pool_threads(p));
		for (i = 0; i < ITEMS; i++)
			atomic_store(&c.runs[i], 0);
		host_pool_for(p, ITEMS, count_items, &c);
		for (i = 0; i < ITEMS; i++) {
			ASSERT_EQ(1, atomic_load(&c.runs[i])) TH_LOG("item %u, %u threads", i, threads);
		}
		host_pool_destroy(p);
	}
}

/* Two items, one each for the caller and the worker: each waits for the other. */
struct meet {
	pthread_barrier_t both;
	pthread_t caller;
	cpu_set_t pin;		/* where the worker pins itself, when @pin_worker */
	int pin_worker;
	int worker_cpu, caller_cpu;
};

static void meet_items(void *ctx, uint64_t first, uint64_t count, void *ws)
{
	struct meet *m = ctx;
	int mine = pthread_equal(pthread_self(), m->caller);

	(void)first;
	(void)count;
	(void)ws;
	if (!mine && m->pin_worker)
		sched_setaffinity(0, sizeof(m->pin), &m->pin);
	pthread_barrier_wait(&m->both);
	if (mine)
		m->caller_cpu = sched_getcpu();
	else
		m->worker_cpu = sched_getcpu();
}

/*
 * The caller and the worker are both pinned to one CPU; in the next job
 * the worker, woken there, leaves it for another (as it would on a
 * scheduler that packed the two onto one CPU).
 */
TEST(a_worker_woken_on_the_callers_cpu_moves_off)
{
	struct host_pool *p = NULL;
	struct meet m = { .worker_cpu = -1, .caller_cpu = -1 };
	cpu_set_t allowed;
	int cpu;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(allowed), &allowed));
	if (CPU_COUNT(&allowed) < 2)
		SKIP(return, "one CPU allowed: no other CPU to move to");
	for (cpu = 0; !CPU_ISSET(cpu, &allowed); cpu++)
		;
	CPU_ZERO(&m.pin);
	CPU_SET(cpu, &m.pin);
	ASSERT_EQ(NULL, host_pool_create(2, &p));
	ASSERT_EQ(0, pthread_barrier_init(&m.both, NULL, 2));
	m.caller = pthread_self();
	/* the worker pins itself to @cpu, then the caller does */
	m.pin_worker = 1;
	host_pool_for(p, 2, meet_items, &m);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(m.pin), &m.pin));
	m.pin_worker = 0;
	m.worker_cpu = -1;
	host_pool_for(p, 2, meet_items, &m);
	EXPECT_EQ(cpu, m.caller_cpu);
	EXPECT_NE(-1, m.worker_cpu);
	EXPECT_NE(cpu, m.worker_cpu) TH_LOG("the worker stayed on the caller's CPU %d", cpu);
	EXPECT_TRUE(CPU_ISSET(m.worker_cpu, &allowed));
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(allowed), &allowed));
	host_pool_destroy(p);
	pthread_barrier_destroy(&m.both);
}

TEST_HARNESS_MAIN
