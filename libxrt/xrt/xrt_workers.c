// SPDX-License-Identifier: MIT
/*
 * Threads kept for the devices of replicated runs.  Starting a thread
 * per device per run costs tens of microseconds, more than a small
 * collective; so a device's run goes to a parked worker, or to a new
 * one, which parks again when done.  Workers live as long as the
 * process (a forked child starts with none: the parent's are not its).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "xrt_internal.h"

struct worker {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	void (*fn)(void *arg);
	void *arg;
	struct xworker_latch *latch;
	struct worker *next;		/* on the idle list */
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct worker *idle;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void forget_workers(void)
{
	pthread_mutex_init(&pool_lock, NULL);
	idle = NULL;	/* the parent's threads: not in this process */
}

static void at_fork(void)
{
	pthread_atfork(NULL, NULL, forget_workers);
}

void xworker_latch_init(struct xworker_latch *l, uint32_t n)
{
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->done, NULL);
	l->left = n;
}

void xworker_latch_wait(struct xworker_latch *l)
{
	pthread_mutex_lock(&l->lock);
	while (l->left)
		pthread_cond_wait(&l->done, &l->lock);
	pthread_mutex_unlock(&l->lock);
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->done);
}

void xworker_latch_down(struct xworker_latch *l)
{
	pthread_mutex_lock(&l->lock);
	if (!--l->left)
		pthread_cond_signal(&l->done);
	pthread_mutex_unlock(&l->lock);
}

static void *work(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		struct xworker_latch *l;

		pthread_mutex_lock(&w->lock);
		while (!w->fn)
			pthread_cond_wait(&w->wake, &w->lock);
		pthread_mutex_unlock(&w->lock);
		w->fn(w->arg);
		pthread_mutex_lock(&w->lock);
		l = w->latch;
		w->fn = NULL;
		pthread_mutex_unlock(&w->lock);
		/* parked before the latch falls: the next run finds it idle */
		pthread_mutex_lock(&pool_lock);
		w->next = idle;
		idle = w;
		pthread_mutex_unlock(&pool_lock);
		xworker_latch_down(l);
	}
	return NULL;
}

static struct worker *new_worker(void)
{
	struct worker *w = calloc(1, sizeof(*w));
	pthread_attr_t attr;
	pthread_t t;
	bool ok;

	if (!w)
		return NULL;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok = !pthread_create(&t, &attr, work, w);
	pthread_attr_destroy(&attr);
	if (!ok) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->wake);
		free(w);
		return NULL;
	}
	return w;
}

bool xworker_start(void (*fn)(void *arg), void *arg, struct xworker_latch *l)
{
	struct worker *w;

	pthread_once(&once, at_fork);
	pthread_mutex_lock(&pool_lock);
	w = idle;
	if (w)
		idle = w->next;
	pthread_mutex_unlock(&pool_lock);
	if (!w)
		w = new_worker();
	if (!w)
		return false;
	pthread_mutex_lock(&w->lock);
	w->arg = arg;
	w->latch = l;
	w->fn = fn;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	return true;
}
