// SPDX-License-Identifier: MIT
/*
 * The in-process communicator: devices whose runs are threads of this
 * process meet at each COLLECTIVE and read one another's arrays where
 * they lie.  A meeting is keyed by the command and the group's first
 * device; every member leaves its struct xdev_collective there and
 * waits until the group is whole.  Then each makes its part of the
 * exchange (coll_exchange.c: its outputs, and for an all-reduce its
 * share of everyone's), and leaves once every member is done, so that
 * no array is freed, overwritten or read while another uses it.
 *
 * A wait ends without a meeting, and the run fails, never hangs: when
 * another device failed (CANCELLED), when a member ended without coming
 * or every running device waits and no meeting is whole
 * (FAILED_PRECONDITION), at the run's deadline or cancellation.
 */
#include <pthread.h>
#include <time.h>

#include "collective/collective.h"
#include "coll_internal.h"
#include "core/mem.h"
#include "engine/engine.h"

enum dev_state { RUNNING, DONE, FAILED };

/* Cancellation is a flag, not a signal: waits wake this often to look at it. */
#define POLL_NS 10000000ull

struct local {
	struct xdev_comm base;
	const struct xrt_allocator *a;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint8_t *state;				/* enum dev_state, per device */
	const struct xdev_collective **at;	/* where each device waits */
	struct xcoll_meeting *meetings;
	bool failed, stuck;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct xcoll_meeting *find(struct local *l, uint32_t pc, uint32_t leader)
{
	struct xcoll_meeting *mt;

	for (mt = l->meetings; mt; mt = mt->next)
		if (mt->pc == pc && mt->leader == leader)
			return mt;
	return NULL;
}

static bool all_stuck(const struct local *l)
{
	const struct xcoll_meeting *mt;
	uint32_t d;

	for (d = 0; d < l->base.num_devices; d++)
		if (l->state[d] == RUNNING && !l->at[d])
			return false;
	for (mt = l->meetings; mt; mt = mt->next)
		if (mt->arrived == mt->size)
			return false;
	return true;
}

/* Why the wait at @mt cannot end well: a status, or NULL while it can. */
static xrt_status *wait_failed(struct local *l, const struct xcoll_meeting *mt,
			       const struct xdev_collective *op, const struct xdev_watch *w)
{
	uint32_t k;

	if (l->failed)
		return xrt_status_new(l->a, XRT_CANCELLED, "%s: another device failed",
				      op->where);
	for (k = 0; k < mt->size; k++)
		if (!mt->ops[k] && l->state[op->members[k]] != RUNNING)
			return xrt_status_new(l->a, XRT_FAILED_PRECONDITION, "%s: device %u of "
					      "the group ended without reaching it", op->where,
					      op->members[k]);
	if (l->stuck)
		return xrt_status_new(l->a, XRT_FAILED_PRECONDITION,
				      "%s: the devices wait at different collectives", op->where);
	if (w && w->cancel && atomic_load(w->cancel))
		return xrt_status_new(l->a, XRT_CANCELLED, "%s: cancelled waiting for the group",
				      op->where);
	if (w && w->deadline_ns && now_ns() >= w->deadline_ns)
		return xrt_status_new(l->a, XRT_DEADLINE_EXCEEDED,
				      "%s: deadline passed waiting for the group", op->where);
	return NULL;
}

static void wait_a_while(struct local *l, const struct xdev_watch *w)
{
	uint64_t until = w && w->cancel ? now_ns() + POLL_NS : 0;
	struct timespec ts;

	if (w && w->deadline_ns && (!until || w->deadline_ns < until))
		until = w->deadline_ns;
	if (!until) {
		pthread_cond_wait(&l->cond, &l->lock);
		return;
	}
	ts.tv_sec = (time_t)(until / 1000000000u);
	ts.tv_nsec = (long)(until % 1000000000u);
	pthread_cond_timedwait(&l->cond, &l->lock, &ts);
}

static struct xcoll_meeting *open_meeting(struct local *l, const struct xdev_collective *op)
{
	struct xcoll_meeting *mt = xrt_mem_calloc(l->a, 1, sizeof(*mt));

	if (mt)
		mt->ops = xrt_mem_calloc(l->a, op->size, sizeof(*mt->ops));
	if (!mt || !mt->ops) {
		xrt_mem_free(l->a, mt);
		return NULL;
	}
	mt->pc = op->pc;
	mt->leader = op->members[0];
	mt->size = op->size;
	mt->next = l->meetings;
	l->meetings = mt;
	return mt;
}

static void close_meeting(struct local *l, struct xcoll_meeting *mt)
{
	struct xcoll_meeting **p = &l->meetings;

	while (*p != mt)
		p = &(*p)->next;
	*p = mt->next;
	xrt_mem_free(l->a, mt->ops);
	xrt_mem_free(l->a, mt);
}

/* Under the lock: until @mt is whole, or a status (the arrival undone). */
static xrt_status *wait_whole(struct local *l, struct xcoll_meeting *mt, uint32_t device,
			      const struct xdev_collective *op, const struct xdev_watch *w)
{
	xrt_status *st = NULL;

	l->at[device] = op;
	while (mt->arrived < mt->size) {
		if (!l->stuck && all_stuck(l)) {
			l->stuck = true;
			pthread_cond_broadcast(&l->cond);
		}
		st = wait_failed(l, mt, op, w);
		if (st) {
			mt->ops[op->me] = NULL;
			if (!--mt->arrived)
				close_meeting(l, mt);
			break;
		}
		wait_a_while(l, w);
	}
	l->at[device] = NULL;
	return st;
}

/* Under the lock: until every member has reached @stage (a count of @mt's). */
static void barrier(struct local *l, uint32_t *stage, uint32_t size)
{
	if (++*stage == size)
		pthread_cond_broadcast(&l->cond);
	while (*stage < size)
		pthread_cond_wait(&l->cond, &l->lock);
}

static xrt_status *meet(struct local *l, uint32_t device, const struct xdev_collective *op,
			const struct xdev_watch *w, struct xcoll_meeting **out)
{
	struct xcoll_meeting *mt;
	xrt_status *st = NULL;

	/* a whole meeting of this key is the last pass's: it ends soon */
	while ((mt = find(l, op->pc, op->members[0])) && mt->arrived == mt->size)
		pthread_cond_wait(&l->cond, &l->lock);
	if (!mt)
		mt = open_meeting(l, op);
	if (!mt)
		return xrt_status_oom(l->a, "a collective's meeting");
	mt->ops[op->me] = op;
	if (++mt->arrived == mt->size)
		pthread_cond_broadcast(&l->cond);
	else
		st = wait_whole(l, mt, device, op, w);
	*out = st ? NULL : mt;
	return st;
}

static xrt_status *local_run(struct xdev_comm *c, uint32_t device,
			     const struct xdev_collective *op, const struct xdev_watch *w)
{
	struct local *l = (struct local *)c;
	struct xcoll_meeting *mt = NULL;
	xrt_status *st;

	pthread_mutex_lock(&l->lock);
	st = meet(l, device, op, w, &mt);
	pthread_mutex_unlock(&l->lock);
	if (st)
		return st;
	/*
	 * Nothing blocks before the barrier, so every member reaches it; past
	 * it no one reads or writes this member's arrays any more.
	 */
	xcoll_exchange(mt, op);
	pthread_mutex_lock(&l->lock);
	barrier(l, &mt->done, mt->size);
	if (++mt->left == mt->size) {
		close_meeting(l, mt);
		pthread_cond_broadcast(&l->cond);
	}
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

static void local_finish(struct xdev_comm *c, uint32_t device, bool failed)
{
	struct local *l = (struct local *)c;

	pthread_mutex_lock(&l->lock);
	l->state[device] = failed ? FAILED : DONE;
	l->failed |= failed;
	pthread_cond_broadcast(&l->cond);
	pthread_mutex_unlock(&l->lock);
}

static const struct xdev_comm_ops local_ops = {
	.run = local_run,
	.finish = local_finish,
};

xrt_status *xcoll_local_create(uint32_t n, const struct xrt_allocator *a, struct xdev_comm **out)
{
	struct local *l = xrt_mem_calloc(a, 1, sizeof(*l));
	pthread_condattr_t attr;

	*out = NULL;
	if (l) {
		l->state = xrt_mem_calloc(a, n ? n : 1, sizeof(*l->state));
		l->at = xrt_mem_calloc(a, n ? n : 1, sizeof(*l->at));
	}
	if (!l || !l->state || !l->at) {
		if (l) {
			xrt_mem_free(a, l->state);
			xrt_mem_free(a, l->at);
		}
		xrt_mem_free(a, l);
		return xrt_status_oom(a, "a communicator");
	}
	l->base.ops = &local_ops;
	l->base.num_devices = n;
	l->a = a;
	pthread_mutex_init(&l->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&l->cond, &attr);
	pthread_condattr_destroy(&attr);
	*out = &l->base;
	return NULL;
}

void xcoll_local_destroy(struct xdev_comm *c)
{
	struct local *l = (struct local *)c;

	if (!l)
		return;
	while (l->meetings)	/* only a run that never came back leaves one */
		close_meeting(l, l->meetings);
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->cond);
	xrt_mem_free(l->a, l->state);
	xrt_mem_free(l->a, l->at);
	xrt_mem_free(l->a, l);
}
