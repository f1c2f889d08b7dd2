// SPDX-License-Identifier: MIT
/*
 * Events of asynchronous executions.  An event wraps the device's event
 * of one job; the caller and each leaf of the job's result hold a
 * reference.  The first wait that sees the job end keeps its outcome, so
 * every later wait (and every read of the result) answers the same
 * without asking the device again.
 */
#include "core/mem.h"
#include "xrt_internal.h"

struct xrt_event {
	atomic_uint refs;
	const struct xrt_allocator *a;
	struct xdev *dev;		/* a reference */
	pthread_mutex_t lock;		/* @ended, @error */
	struct xdev_event *ev;
	bool ended;
	xrt_status *error;
};

xrt_status *xevent_new(const struct xrt_allocator *a, struct xdev *dev, struct xdev_event *ev,
		       struct xrt_event **out)
{
	struct xrt_event *e = xrt_mem_calloc(a, 1, sizeof(*e));

	if (!e || pthread_mutex_init(&e->lock, NULL)) {
		xrt_mem_free(a, e);
		return xrt_status_oom(a, "an event");
	}
	atomic_init(&e->refs, 1);
	e->a = a;
	e->dev = dev;
	xdev_ref(dev);
	e->ev = ev;
	e->ended = !ev;
	*out = e;
	return NULL;
}

void xevent_ref(struct xrt_event *e)
{
	atomic_fetch_add(&e->refs, 1);
}

void xevent_unref(struct xrt_event *e)
{
	if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	if (e->ev)
		e->dev->ops->event_free(e->ev);
	xrt_status_free(e->error);
	xdev_unref(e->dev);
	pthread_mutex_destroy(&e->lock);
	xrt_mem_free(e->a, e);
}

static xrt_status *outcome(struct xrt_event *e, const struct xrt_allocator *a)
{
	return e->error ? xrt_status_new(a, xrt_status_code(e->error), "%s",
					 xrt_status_message(e->error)) : NULL;
}

xrt_status *xevent_wait(struct xrt_event *e, int64_t timeout_ns, const struct xrt_allocator *a)
{
	bool ended, running;
	xrt_status *st;

	pthread_mutex_lock(&e->lock);
	ended = e->ended;
	st = ended ? outcome(e, a) : NULL;
	pthread_mutex_unlock(&e->lock);
	if (ended)
		return st;
	/* not under the lock: a poll must not wait behind a long wait */
	st = e->dev->ops->event_wait(e->ev, timeout_ns, e->a, &running);
	if (running)
		return xrt_status_new(a, XRT_DEADLINE_EXCEEDED, "%s: the run still runs",
				      e->dev->info.name);
	pthread_mutex_lock(&e->lock);
	if (!e->ended) {
		e->ended = true;
		e->error = st;
		st = NULL;
	}
	xrt_status_free(st);
	st = outcome(e, a);
	pthread_mutex_unlock(&e->lock);
	return st;
}

bool xevent_failed(struct xrt_event *e)
{
	bool failed;

	pthread_mutex_lock(&e->lock);
	failed = e->ended && e->error;
	pthread_mutex_unlock(&e->lock);
	return failed;
}

xrt_status *xrt_event_wait(xrt_event *e, int64_t timeout_ns)
{
	if (!e)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "event wait: the event is NULL");
	return xevent_wait(e, timeout_ns, e->a);
}

bool xrt_event_ended(xrt_event *e)
{
	bool ended;

	if (!e)
		return false;
	xrt_status_free(xevent_wait(e, 0, e->a));
	pthread_mutex_lock(&e->lock);
	ended = e->ended;
	pthread_mutex_unlock(&e->lock);
	return ended;
}

void xrt_event_destroy(xrt_event *e)
{
	xevent_unref(e);
}
