// SPDX-License-Identifier: MIT
/*
 * host:0's queues.  A queue runs one program at a time on its thread
 * pool (made with the queue, of XDEV_QUEUE_THREADS threads).  A run computes in the caller's thread,
 * after the jobs submitted before it; a submitted job goes to the
 * queue's worker thread (started at the first submit) and the caller
 * gets its event at once.  The job keeps what it uses through the
 * caller's hold, released when it ends.  The host does not track which
 * buffers a job uses: waiting for a buffer to be idle waits for every
 * job of the host device.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cstream/executable.h"
#include "core/mem.h"
#include "device/device.h"
#include "host_device.h"

struct xdev_event {
	atomic_uint refs;		/* the job's and the caller's */
	const struct xrt_allocator *a;
	pthread_mutex_t lock;		/* @done, @st */
	pthread_cond_t ended;
	bool done;
	xrt_status *st;
};

struct host_job {
	struct host_job *next;
	const struct xrt_executable *exe;
	struct xdev_buf *slots;		/* a copy */
	uint64_t seed;
	struct xdev_watch watch;
	bool watched;
	struct xdev_hold *hold;
	struct xdev_event *ev;
};

struct xdev_queue {
	const struct xrt_allocator *a;
	pthread_mutex_t lock;		/* the pool runs one program at a time */
	struct host_pool *pool;
	bool no_blas;
	pthread_mutex_t jobs_lock;	/* everything below */
	pthread_cond_t jobs_changed;	/* a job came or ended, or the queue goes away */
	struct host_job *head, *tail;
	/*
	 * Submitted, not ended: changed under jobs_lock, read without it by
	 * a run that has nothing to wait for (the eager path's common case)
	 */
	atomic_uint pending;
	bool has_worker, dying;
	pthread_t worker;
};

/* Jobs of the host device not yet ended, for wait_idle. */
static pthread_mutex_t busy_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t busy_ended = PTHREAD_COND_INITIALIZER;
static uint64_t busy;

static void busy_add(int d)
{
	pthread_mutex_lock(&busy_lock);
	busy += (uint64_t)(int64_t)d;
	if (!busy)
		pthread_cond_broadcast(&busy_ended);
	pthread_mutex_unlock(&busy_lock);
}

void host_wait_idle(struct xdev *d, const struct xdev_buf *b)
{
	(void)d;
	(void)b;
	pthread_mutex_lock(&busy_lock);
	while (busy)
		pthread_cond_wait(&busy_ended, &busy_lock);
	pthread_mutex_unlock(&busy_lock);
}

xrt_status *host_queue_create(struct xdev *d, const struct xrt_allocator *a, uint32_t flags,
			      struct xdev_queue **out)
{
	struct xdev_queue *q = xrt_mem_calloc(a, 1, sizeof(*q));
	uint32_t threads;
	xrt_status *st;

	(void)d;
	if (!q)
		return xrt_status_oom(a, "a queue");
	if (pthread_mutex_init(&q->lock, NULL)) {
		xrt_mem_free(a, q);
		return xrt_status_oom(a, "a queue");
	}
	if (pthread_mutex_init(&q->jobs_lock, NULL) || pthread_cond_init(&q->jobs_changed, NULL)) {
		pthread_mutex_destroy(&q->lock);
		xrt_mem_free(a, q);
		return xrt_status_oom(a, "a queue");
	}
	q->a = a;
	q->no_blas = flags & XDEV_QUEUE_NO_BLAS;
	threads = flags >> XDEV_QUEUE_THREADS_SHIFT;
	if (!threads)	/* the device's share of the CPUs */
		threads = d->info.compute_units ? d->info.compute_units : 1;
	/* now, not at the first run: a pool that cannot start says so here */
	st = host_pool_create(threads, &q->pool);
	if (st) {
		host_queue_destroy(q);
		return st;
	}
	*out = q;
	return NULL;
}

static void event_unref(struct xdev_event *e)
{
	if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	xrt_status_free(e->st);
	pthread_cond_destroy(&e->ended);
	pthread_mutex_destroy(&e->lock);
	xrt_mem_free(e->a, e);
}

/* Runs @exe now, in this thread, on the queue's pool. */
static xrt_status *run_now(struct xdev_queue *q, const struct xrt_executable *exe,
			   struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	uint32_t n = exe->num_slots, s;
	uint8_t *small[16], **ptrs = small;
	struct host_run_options o;
	xrt_status *st;

	if (n > 16) {
		ptrs = xrt_mem_calloc(q->a, n, sizeof(*ptrs));
		if (!ptrs)
			return xrt_status_oom(q->a, "slots");
	}
	for (s = 0; s < n; s++)
		ptrs[s] = slots[s].data;
	o.seed = seed;
	o.no_blas = q->no_blas;
	o.watch = w;
	pthread_mutex_lock(&q->lock);
	o.pool = q->pool;
	st = host_run_bound(exe, ptrs, &o, q->a);
	pthread_mutex_unlock(&q->lock);
	if (ptrs != small)
		xrt_mem_free(q->a, ptrs);
	return st;
}

/* The job's end: its event says how, its hold goes, the queue learns. */
static void end_job(struct xdev_queue *q, struct host_job *j, xrt_status *st)
{
	pthread_mutex_lock(&j->ev->lock);
	j->ev->st = st;
	j->ev->done = true;
	pthread_cond_broadcast(&j->ev->ended);
	pthread_mutex_unlock(&j->ev->lock);
	event_unref(j->ev);
	j->hold->release(j->hold);
	xrt_mem_free(q->a, j->slots);
	xrt_mem_free(q->a, j);
	pthread_mutex_lock(&q->jobs_lock);
	atomic_fetch_sub_explicit(&q->pending, 1, memory_order_release);
	pthread_cond_broadcast(&q->jobs_changed);
	pthread_mutex_unlock(&q->jobs_lock);
	busy_add(-1);
}

/* The worker: runs the jobs in order; once the queue goes away, cancels those left. */
static void *worker(void *arg)
{
	struct xdev_queue *q = arg;
	struct host_job *j;
	xrt_status *st;
	bool dying;

	for (;;) {
		pthread_mutex_lock(&q->jobs_lock);
		while (!q->head && !q->dying)
			pthread_cond_wait(&q->jobs_changed, &q->jobs_lock);
		j = q->head;
		if (j) {
			q->head = j->next;
			if (!q->head)
				q->tail = NULL;
		}
		dying = q->dying;
		pthread_mutex_unlock(&q->jobs_lock);
		if (!j)
			return NULL;
		if (dying)
			st = xrt_status_new(q->a, XRT_CANCELLED, "run: cancelled: its session was "
					    "destroyed before it began");
		else
			st = run_now(q, j->exe, j->slots, j->seed, j->watched ? &j->watch : NULL);
		end_job(q, j, st);
	}
}

void host_queue_destroy(struct xdev_queue *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->jobs_lock);
	q->dying = true;
	pthread_cond_broadcast(&q->jobs_changed);
	pthread_mutex_unlock(&q->jobs_lock);
	if (q->has_worker)
		pthread_join(q->worker, NULL);
	host_pool_destroy(q->pool);
	pthread_cond_destroy(&q->jobs_changed);
	pthread_mutex_destroy(&q->jobs_lock);
	pthread_mutex_destroy(&q->lock);
	xrt_mem_free(q->a, q);
}

xrt_status *host_queue_run(struct xdev_queue *q, const struct xrt_executable *exe,
			   struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	/* after the jobs submitted before it; none is the common case */
	if (atomic_load_explicit(&q->pending, memory_order_acquire)) {
		pthread_mutex_lock(&q->jobs_lock);
		while (atomic_load_explicit(&q->pending, memory_order_relaxed))
			pthread_cond_wait(&q->jobs_changed, &q->jobs_lock);
		pthread_mutex_unlock(&q->jobs_lock);
	}
	return run_now(q, exe, slots, seed, w);
}

/* A condition whose timed waits count on CLOCK_MONOTONIC, as every deadline here does. */
static int cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t attr;
	int err = pthread_condattr_init(&attr);

	if (err)
		return err;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(c, &attr);
	pthread_condattr_destroy(&attr);
	return err;
}

static xrt_status *new_job(struct xdev_queue *q, const struct xrt_executable *exe,
			   const struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			   struct xdev_hold *hold, struct host_job **out)
{
	struct host_job *j = xrt_mem_calloc(q->a, 1, sizeof(*j));
	struct xdev_event *e = xrt_mem_calloc(q->a, 1, sizeof(*e));

	if (j)
		j->slots = xrt_mem_calloc(q->a, exe->num_slots + 1, sizeof(*j->slots));
	if (!j || !e || !j->slots || pthread_mutex_init(&e->lock, NULL))
		goto oom;
	if (cond_init_monotonic(&e->ended)) {
		pthread_mutex_destroy(&e->lock);
		goto oom;
	}
	atomic_init(&e->refs, 2);
	e->a = q->a;
	memcpy(j->slots, slots, exe->num_slots * sizeof(*slots));
	j->exe = exe;
	j->seed = seed;
	j->watched = w != NULL;
	if (w)
		j->watch = *w;
	j->hold = hold;
	j->ev = e;
	*out = j;
	return NULL;
oom:
	if (j)
		xrt_mem_free(q->a, j->slots);
	xrt_mem_free(q->a, j);
	xrt_mem_free(q->a, e);
	return xrt_status_oom(q->a, "a job");
}

xrt_status *host_queue_submit(struct xdev_queue *q, const struct xrt_executable *exe,
			      struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			      struct xdev_hold *hold, struct xdev_event **out)
{
	struct host_job *j = NULL;
	xrt_status *st;

	*out = NULL;
	st = new_job(q, exe, slots, seed, w, hold, &j);
	if (st)
		return st;
	pthread_mutex_lock(&q->jobs_lock);
	if (!q->has_worker) {
		if (pthread_create(&q->worker, NULL, worker, q)) {
			pthread_mutex_unlock(&q->jobs_lock);
			event_unref(j->ev);	/* never shared: both references */
			event_unref(j->ev);
			xrt_mem_free(q->a, j->slots);
			xrt_mem_free(q->a, j);
			return xrt_status_new(q->a, XRT_RESOURCE_EXHAUSTED,
					      "submit: no thread for the queue's worker");
		}
		q->has_worker = true;
	}
	busy_add(1);
	atomic_fetch_add_explicit(&q->pending, 1, memory_order_relaxed);
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	*out = j->ev;
	pthread_cond_broadcast(&q->jobs_changed);
	pthread_mutex_unlock(&q->jobs_lock);
	return NULL;
}

xrt_status *host_event_wait(struct xdev_event *e, int64_t timeout_ns,
			    const struct xrt_allocator *a, bool *running)
{
	struct timespec until;
	xrt_status *st = NULL;
	int err = 0;

	if (timeout_ns > 0) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += timeout_ns / 1000000000;
		until.tv_nsec += timeout_ns % 1000000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
	}
	pthread_mutex_lock(&e->lock);
	while (!e->done && !err && timeout_ns) {
		if (timeout_ns < 0)
			pthread_cond_wait(&e->ended, &e->lock);
		else
			err = pthread_cond_timedwait(&e->ended, &e->lock, &until);
	}
	*running = !e->done;
	if (e->done && e->st)
		st = xrt_status_new(a, xrt_status_code(e->st), "%s", xrt_status_message(e->st));
	pthread_mutex_unlock(&e->lock);
	return st;
}

void host_event_free(struct xdev_event *e)
{
	event_unref(e);
}
