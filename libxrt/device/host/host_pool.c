// SPDX-License-Identifier: MIT
/*
 * The host's worker threads.  A command phase's items are cut into
 * chunks that the caller and the workers take in turn; items are
 * independent and each writes only its own outputs (the engine's
 * contract), so the result is the same for any number of threads and
 * any order.  Small phases run on the caller alone.
 */
#define _GNU_SOURCE	/* sched_getcpu(), sched_setaffinity() */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "core/mem.h"
#include "device/device.h"
#include "host_device.h"

/* Phases with fewer items run inline, waking threads costs more (but see threaded()). */
#define INLINE_ITEMS	4

/*
 * How long a thread waits for the next job, or the caller for the last
 * workers, by polling before it sleeps.  Waking a sleeping thread takes
 * tens of microseconds (more in a virtual machine, where the idle CPU
 * halts), and a program's commands follow each other closer than that:
 * a 3-layer MLP of 64x512 products paid a quarter of its time in wakes.
 */
#define SPIN_NS		200000

struct job {
	void (*fn)(void *ctx, uint64_t first, uint64_t count, void *ws);
	void *ctx;
	uint64_t items, chunk;
	atomic_uint_fast64_t next;	/* first item not yet taken */
	atomic_uint pending;		/* workers still on this job */
	int caller_cpu;			/* where the caller put it up; -1: unknown */
};

struct host_pool {
	pthread_mutex_t lock;
	pthread_cond_t wake, done;
	pthread_t *threads;
	void **ws;			/* one engine workspace per thread */
	uint64_t ws_size;
	void *arena;			/* kept from run to run */
	uint64_t arena_size;
	void *shared;			/* the engine's shared workspace, likewise */
	uint64_t shared_size;
	uint32_t num_threads;		/* workers, the caller not counted */
	/* bumped per job, under the lock; after job is set (release) */
	atomic_uint_fast64_t generation;
	struct job *job;
	bool stop;
	uint64_t last_job_ns;		/* when the caller's last job ended */
};

static void work(struct job *j, void *ws)
{
	for (;;) {
		uint64_t first = atomic_fetch_add(&j->next, j->chunk);

		if (first >= j->items)
			return;
		j->fn(j->ctx, first, j->items - first < j->chunk ? j->items - first : j->chunk, ws);
	}
}

struct worker_arg {
	struct host_pool *p;
	uint32_t index;
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/*
 * Whether SPIN_NS have passed since *@start (0: the first poll, which
 * sets it); the clock is read every 64th poll @i only.
 */
static bool spun_out(uint64_t *start, uint32_t i)
{
	uint64_t t;

	if (i & 63)
		return false;
	t = now_ns();
	if (!*start)
		*start = t;
	return t - *start > SPIN_NS;
}

/* Polls @v for up to SPIN_NS until it differs from @old; its last value. */
static uint64_t spin_while(atomic_uint_fast64_t *v, uint64_t old)
{
	uint64_t start = 0, cur;
	uint32_t i;

	for (i = 0;; i++) {
		cur = atomic_load_explicit(v, memory_order_acquire);
		if (cur != old || spun_out(&start, i))
			return cur;
		cpu_relax();
	}
}

/*
 * Takes this worker off @cpu, the caller's, when it wakes up there and
 * another of the CPUs it may use (@allowed) is left.  A scheduler that
 * packs threads onto few CPUs (the virtual machine of these figures runs
 * its kernel with sched_vcpu_pack) can wake a sleeping worker on the CPU
 * of the thread that woke it and leave both there, each at half speed,
 * while another CPU idles: a DOT 1024 ran at one core's speed in 66 of
 * 300 timings between OpenBLAS's (a harness in xrt-bench's loop), in 1
 * of 300 with this.  The worker stays off that CPU only until it wakes on the
 * caller's CPU again, when it leaves the new one instead.
 */
static void leave_cpu(const cpu_set_t *allowed, int cpu)
{
	cpu_set_t to = *allowed;

	if (cpu < 0 || sched_getcpu() != cpu)
		return;
	CPU_CLR(cpu, &to);
	if (CPU_COUNT(&to))
		sched_setaffinity(0, sizeof(to), &to);	/* if refused, it stays */
}

static void *worker(void *arg)
{
	struct worker_arg *wa = arg;
	struct host_pool *p = wa->p;
	uint32_t me = wa->index;
	uint64_t seen = 0, gen;
	cpu_set_t allowed;

	free(wa);
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (;;) {
		if (spin_while(&p->generation, seen) == seen) {
			pthread_mutex_lock(&p->lock);
			while (!p->stop && atomic_load(&p->generation) == seen)
				pthread_cond_wait(&p->wake, &p->lock);
			pthread_mutex_unlock(&p->lock);
		}
		gen = atomic_load(&p->generation);
		if (gen == seen)
			break;	/* stopped */
		seen = gen;
		leave_cpu(&allowed, p->job->caller_cpu);
		work(p->job, p->ws[me + 1]);
		/* the job is the caller's: touch only the pool once it may be gone */
		if (atomic_fetch_sub(&p->job->pending, 1) == 1) {
			pthread_mutex_lock(&p->lock);
			pthread_cond_signal(&p->done);
			pthread_mutex_unlock(&p->lock);
		}
	}
	return NULL;
}

void host_pool_destroy(struct host_pool *p)
{
	uint32_t i;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->num_threads; i++)
		pthread_join(p->threads[i], NULL);
	for (i = 0; i <= p->num_threads; i++)
		xrt_mem_free(NULL, p->ws[i]);
	xrt_mem_free(NULL, p->arena);
	xrt_mem_free(NULL, p->shared);
	free(p->ws);
	free(p->threads);
	pthread_cond_destroy(&p->wake);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

xrt_status *host_pool_create(uint32_t threads, struct host_pool **out)
{
	struct host_pool *p = calloc(1, sizeof(*p));
	uint32_t i;

	*out = NULL;
	if (!p)
		return xrt_status_oom(NULL, "a thread pool");
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->done, NULL);
	p->threads = calloc(threads ? threads : 1, sizeof(*p->threads));
	p->ws = calloc((threads ? threads : 1) + 1, sizeof(*p->ws));
	if (!p->threads || !p->ws) {
		host_pool_destroy(p);
		return xrt_status_oom(NULL, "a thread pool");
	}
	for (i = 0; i + 1 < threads; i++) {
		struct worker_arg *wa = malloc(sizeof(*wa));

		if (!wa || (wa->p = p, wa->index = i, pthread_create(&p->threads[i], NULL, worker,
								   wa))) {
			free(wa);
			host_pool_destroy(p);
			return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED,
					      "cannot start worker thread %u", i);
		}
		p->num_threads = i + 1;
	}
	*out = p;
	return NULL;
}

uint32_t host_pool_threads(const struct host_pool *p)
{
	return p->num_threads + 1;
}

/* Every thread's workspace at least @size bytes. */
static xrt_status *reserve(struct host_pool *p, uint64_t size)
{
	uint32_t i;

	if (size <= p->ws_size)
		return NULL;
	for (i = 0; i <= p->num_threads; i++) {
		xrt_mem_free(NULL, p->ws[i]);
		p->ws[i] = xrt_mem_alloc_aligned(NULL, size, 64);
		if (!p->ws[i]) {
			p->ws_size = 0;
			return xrt_status_oom(NULL, "engine workspaces");
		}
	}
	p->ws_size = size;
	return NULL;
}

/* *@buf holding at least @size bytes, kept between runs; NULL when out of memory. */
static void *grow(void **buf, uint64_t *have, uint64_t size)
{
	if (size > *have) {
		xrt_mem_free(NULL, *buf);
		*buf = xrt_mem_alloc_aligned(NULL, size, 64);
		*have = *buf ? size : 0;
	}
	return *buf;
}

void *host_pool_shared(struct host_pool *p, uint64_t size)
{
	return grow(&p->shared, &p->shared_size, size);
}

void *host_pool_arena(struct host_pool *p, uint64_t size)
{
	return grow(&p->arena, &p->arena_size, size);
}

/* Polls for @j's workers to finish, up to SPIN_NS: whether they did. */
static bool wait_pending(struct job *j)
{
	uint64_t start = 0;
	uint32_t i;

	for (i = 0; atomic_load(&j->pending); i++) {
		if (spun_out(&start, i))
			return false;
		cpu_relax();
	}
	return true;
}

/*
 * All of @j's items over the threads; returns when every one is done.
 * Fewer than @inline_below items run on the caller alone.
 */
static void run_job(struct host_pool *p, struct job *j, void *ws, uint64_t inline_below)
{
	if (!p || !p->num_threads || j->items < inline_below) {
		j->fn(j->ctx, 0, j->items, ws);
		return;
	}
	/* a few chunks per thread, so a slow one does not hold up the rest */
	j->chunk = j->items / (4 * host_pool_threads(p)) + 1;
	atomic_store(&j->next, 0);
	atomic_store(&j->pending, p->num_threads);
	j->caller_cpu = sched_getcpu();
	pthread_mutex_lock(&p->lock);
	p->job = j;
	atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
	work(j, ws);
	if (!wait_pending(j)) {
		pthread_mutex_lock(&p->lock);
		while (atomic_load(&j->pending))
			pthread_cond_wait(&p->done, &p->lock);
		pthread_mutex_unlock(&p->lock);
	}
	p->last_job_ns = now_ns();
}

/*
 * Whether a phase of @items is worth the workers: INLINE_ITEMS or more,
 * or two or more while they still poll after the last job (within half
 * of SPIN_NS), when handing them items costs no wake.  The MLP's bias
 * and ReLU commands (two items each, right after a product) ran on the
 * caller alone while the worker polled.
 */
static bool threaded(struct host_pool *p, uint64_t items)
{
	if (!p || !p->num_threads || items < 2)
		return false;
	return items >= INLINE_ITEMS || now_ns() - p->last_job_ns < SPIN_NS / 2;
}

void host_pool_for(struct host_pool *p, uint64_t items,
		   void (*fn)(void *ctx, uint64_t first, uint64_t count, void *ws), void *ctx)
{
	struct job j = { fn, ctx, items, 0 };

	/* the callers' items are large: two are worth a thread */
	run_job(p, &j, p ? p->ws[0] : NULL, 2);
}

struct phase {
	const struct xrt_engine_ctx *x;
	uint32_t pc, phase;
};

static void engine_items(void *ctx, uint64_t first, uint64_t count, void *ws)
{
	struct phase *ph = ctx;

	xrt_engine_run_items(ph->x, ph->pc, ph->phase, first, count, ws);
}

xrt_status *host_pool_run(struct host_pool *p, const struct xrt_executable *exe,
			  const struct xrt_engine_ctx *x, bool use_blas, struct xdev_watcher *hw,
			  const struct xdev_watch *w)
{
	uint32_t next;
	uint32_t pc = 0, n = x->prog->num_commands;
	struct phase ph = { x, 0, 0 };
	void *own = NULL, *ws;
	xrt_status *st = NULL;

	if (p)
		st = reserve(p, x->prog->thread_ws_size + 64);
	else
		own = xrt_mem_alloc_aligned(NULL, x->prog->thread_ws_size + 64, 64);
	if (st || (!p && !own))
		return st ? st : xrt_status_oom(NULL, "an engine workspace");
	ws = p ? p->ws[0] : own;
	while (pc < n) {
		const struct xrt_cs_call *call = xrt_engine_call_of(x, pc);
		bool coll = !call && xrt_engine_collective_of(x, pc);
		bool fast = call || coll || (use_blas && (host_gemm_dot(p, x, pc) ||
							  host_blas_dot(p, x, pc)));

		if (call || coll) {
			st = call ? host_call(exe, x, call) : xdev_collective_run(exe, x, pc, w,
										 NULL);
			if (st)
				break;
		}
		uint32_t phases = fast ? 0 : xrt_engine_phases(x, pc);

		for (ph.pc = pc, ph.phase = 0; ph.phase < phases; ph.phase++) {
			struct job j = { engine_items, &ph, xrt_engine_items(x, pc, ph.phase), 0 };

			/* most commands of small programs: no job to set up */
			if (!threaded(p, j.items))
				xrt_engine_run_items(x, pc, ph.phase, 0, j.items, ws);
			else
				run_job(p, &j, ws, 2);
		}
		next = xrt_engine_next(x, pc);
		st = hw ? xdev_watch_step(hw, pc, next) : NULL;
		if (st)
			break;
		pc = next;
	}
	xrt_mem_free(NULL, own);
	return st;
}
