// SPDX-License-Identifier: MIT
/*
 * The devices of one evaluation and where they meet.  Each device
 * (replica x partition) runs in its own thread; at a collective it
 * joins the meeting of its group (keyed by the instruction and the
 * group's first device), leaves its operands there and waits until the
 * whole group has come.  Each then reads the others' operands to make
 * its own result, and the meeting ends once all have left, so no value
 * is copied to be shared.
 *
 * A wait ends without a meeting when another device has failed, when a
 * member of the group has finished without coming, when the deadline
 * passes, or when every running device waits and no meeting is whole
 * (they wait at different collectives): the evaluation fails, it never
 * hangs.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "core/mem.h"
#include "eval/eval.h"
#include "ir/opcode.h"

enum dev_state { RUNNING, DONE, FAILED };

struct ev_meeting {
	struct ev_meeting *next;
	const struct ir_instr *in;
	int64_t leader, size, arrived, done, left;
	struct ev_val *const **ops;	/* per place in the group */
};

struct ev_world {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int64_t n;			/* devices */
	uint8_t *state;			/* enum dev_state, per device */
	const struct ir_instr **at;	/* where each device waits; NULL: it does not */
	struct ev_meeting *meetings;
	bool stuck;			/* every running device waits, no meeting whole */
	_Atomic bool failed;
};

struct ev_world *ev_world_new(const struct xrt_allocator *a, int64_t n)
{
	struct ev_world *w = xrt_mem_calloc(a, 1, sizeof(*w));
	pthread_condattr_t attr;

	if (!w)
		return NULL;
	w->n = n;
	w->state = xrt_mem_calloc(a, (size_t)n, sizeof(*w->state));
	w->at = xrt_mem_calloc(a, (size_t)n, sizeof(*w->at));
	if (!w->state || !w->at) {
		ev_world_free(a, w);
		return NULL;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &attr);
	pthread_condattr_destroy(&attr);
	return w;
}

void ev_world_free(const struct xrt_allocator *a, struct ev_world *w)
{
	if (!w)
		return;
	if (w->state && w->at) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
	}
	xrt_mem_free(a, w->state);
	xrt_mem_free(a, w->at);
	xrt_mem_free(a, w);
}

int64_t ev_world_size(const struct ev_world *w)
{
	return w->n;
}

bool ev_world_failed(const struct ev_world *w)
{
	return w->failed;
}

void ev_world_finish(struct ev_world *w, int64_t device, bool failed)
{
	pthread_mutex_lock(&w->lock);
	w->state[device] = failed ? FAILED : DONE;
	if (failed)
		w->failed = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static struct ev_meeting *find(struct ev_world *w, const struct ir_instr *in, int64_t leader)
{
	struct ev_meeting *mt;

	for (mt = w->meetings; mt; mt = mt->next)
		if (mt->in == in && mt->leader == leader)
			return mt;
	return NULL;
}

/* Whether every running device waits and no meeting is whole: no one can go on. */
static bool all_stuck(const struct ev_world *w)
{
	const struct ev_meeting *mt;
	int64_t d;

	for (d = 0; d < w->n; d++)
		if (w->state[d] == RUNNING && !w->at[d])
			return false;
	for (mt = w->meetings; mt; mt = mt->next)
		if (mt->arrived == mt->size)
			return false;
	return true;
}

/* The device of the meeting that ended without coming, or -1. */
static int64_t gone(const struct ev_world *w, const struct ev_meeting *mt, const int64_t *devices)
{
	int64_t k;

	for (k = 0; k < mt->size; k++)
		if (!mt->ops[k] && w->state[devices[k]] != RUNNING)
			return devices[k];
	return -1;
}

/* Why the wait of @ev at @mt cannot end well; false while it can. */
static bool wait_failed(struct ev *ev, struct ev_meeting *mt, const int64_t *devices)
{
	struct ev_world *w = ev->world;
	int64_t d;

	if (w->failed) {
		ev_fail(ev, XRT_CANCELLED, "another device failed");
		return true;
	}
	d = gone(w, mt, devices);
	if (d >= 0) {
		ev_fail(ev, XRT_FAILED_PRECONDITION, "device %lld of the group finished without "
			"reaching this collective", (long long)d);
		return true;
	}
	if (w->stuck) {
		ev_fail(ev, XRT_FAILED_PRECONDITION, "the devices wait at different collectives");
		return true;
	}
	if (ev->deadline_ns && ev_now_ns() >= ev->deadline_ns) {
		ev_fail(ev, XRT_DEADLINE_EXCEEDED, "deadline passed waiting for the group");
		return true;
	}
	return false;
}

static void wait_a_while(struct ev *ev)
{
	struct timespec ts;

	if (!ev->deadline_ns) {
		pthread_cond_wait(&ev->world->cond, &ev->world->lock);
		return;
	}
	ts.tv_sec = (time_t)(ev->deadline_ns / 1000000000u);
	ts.tv_nsec = (long)(ev->deadline_ns % 1000000000u);
	pthread_cond_timedwait(&ev->world->cond, &ev->world->lock, &ts);
}

static struct ev_meeting *open_meeting(struct ev *ev, int64_t leader, int64_t size)
{
	struct ev_world *w = ev->world;
	struct ev_meeting *mt = xrt_mem_calloc(ev->a, 1, sizeof(*mt));

	if (mt)
		mt->ops = xrt_mem_calloc(ev->a, (size_t)size, sizeof(*mt->ops));
	if (!mt || !mt->ops) {
		xrt_mem_free(ev->a, mt);
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		return NULL;
	}
	mt->in = ev->in;
	mt->leader = leader;
	mt->size = size;
	mt->next = w->meetings;
	w->meetings = mt;
	return mt;
}

static void close_meeting(struct ev *ev, struct ev_meeting *mt)
{
	struct ev_meeting **p = &ev->world->meetings;

	while (*p != mt)
		p = &(*p)->next;
	*p = mt->next;
	xrt_mem_free(ev->a, mt->ops);
	xrt_mem_free(ev->a, mt);
}

/* Waits, under the lock, until @mt is whole; false (error set, arrival undone) if it cannot be. */
static bool wait_whole(struct ev *ev, struct ev_meeting *mt, const int64_t *devices, int64_t me)
{
	struct ev_world *w = ev->world;

	w->at[ev->device] = ev->in;
	while (mt->arrived < mt->size) {
		if (!w->stuck && all_stuck(w)) {
			w->stuck = true;
			pthread_cond_broadcast(&w->cond);
		}
		if (wait_failed(ev, mt, devices)) {
			w->at[ev->device] = NULL;
			mt->ops[me] = NULL;
			if (!--mt->arrived)
				close_meeting(ev, mt);
			return false;
		}
		wait_a_while(ev);
	}
	w->at[ev->device] = NULL;
	return true;
}

struct ev_meeting *ev_meet(struct ev *ev, struct ev_val *const *ops, const int64_t *devices,
			   int64_t size, int64_t me)
{
	struct ev_world *w = ev->world;
	struct ev_meeting *mt;

	pthread_mutex_lock(&w->lock);
	/* a meeting of this key still whole is the last pass's: it ends soon */
	while ((mt = find(w, ev->in, devices[0])) && mt->arrived == mt->size)
		pthread_cond_wait(&w->cond, &w->lock);
	if (!mt)
		mt = open_meeting(ev, devices[0], size);
	if (mt) {
		mt->ops[me] = ops;
		if (++mt->arrived == size)
			pthread_cond_broadcast(&w->cond);
		else if (!wait_whole(ev, mt, devices, me))
			mt = NULL;
	}
	pthread_mutex_unlock(&w->lock);
	return mt;
}

struct ev_val *const *ev_meeting_ops(const struct ev_meeting *mt, int64_t place)
{
	return mt->ops[place];
}

/*
 * A member's operands are freed once it returns: it waits until every
 * member is done reading them.  Nothing blocks between meeting and
 * leaving, so this wait always ends.
 */
void ev_leave(struct ev *ev, struct ev_meeting *mt)
{
	struct ev_world *w = ev->world;

	pthread_mutex_lock(&w->lock);
	if (++mt->done == mt->size)
		pthread_cond_broadcast(&w->cond);
	while (mt->done < mt->size)
		pthread_cond_wait(&w->cond, &w->lock);
	if (++mt->left == mt->size) {
		close_meeting(ev, mt);
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
}
