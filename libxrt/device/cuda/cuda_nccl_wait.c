// SPDX-License-Identifier: MIT
/*
 * Where the ranks of the NCCL communicator stand, and its waits: each
 * rank counts its entries into each command and says which collective
 * it waits in, so that a wait ends when a member ended without reaching
 * the collective, when every device waits and no group is whole, on
 * another device's failure, the deadline or a cancel; ending it aborts
 * the rank's communicators, as NCCL requires of a wait that must end.
 */
#include <string.h>
#include <time.h>

#include "cuda_nccl.h"

xrt_status *nccl_fail(struct nccl_comm *c, uint32_t d, ncclResult_t r, const char *what)
{
	return xrt_status_new(NULL, XRT_INTERNAL, "cuda:%u: %s: %s", c->ranks[d].dev->base.info.ordinal,
			      what, c->cu->ncclGetErrorString(r));
}

uint64_t nccl_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Every communicator of rank @d aborted: what NCCL lets a wait end with. */
static void abort_rank(struct nccl_comm *c, uint32_t d)
{
	struct nccl_rank *r = &c->ranks[d];
	uint32_t k;

	for (k = 0; k < r->num_splits; k++)
		if (r->splits[k].comm)
			c->cu->ncclCommAbort(r->splits[k].comm);
	if (r->world)
		c->cu->ncclCommAbort(r->world);
	memset(r->splits, 0, sizeof(r->splits));
	r->num_splits = 0;
	r->world = NULL;
}

/* The times rank @d entered command @pc (UINT64_MAX: not counted, a full table). */
static uint64_t entered(const struct nccl_where *wh, uint32_t pc)
{
	uint32_t k;

	for (k = 0; k < wh->num_seen; k++)
		if (wh->seen[k].pc == pc)
			return wh->seen[k].entered;
	return wh->num_seen == MAX_SEEN ? UINT64_MAX : 0;
}

/* Rank @d enters @op: counted, and waiting in it. */
void nccl_enter(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op)
{
	struct nccl_where *wh = &c->ranks[d].where;
	uint32_t k;

	pthread_mutex_lock(&c->lock);
	for (k = 0; k < wh->num_seen && wh->seen[k].pc != op->pc; k++)
		;
	if (k == wh->num_seen && k < MAX_SEEN)
		wh->seen[wh->num_seen++].pc = op->pc;
	wh->at = op;
	wh->at_count = k < MAX_SEEN ? ++wh->seen[k].entered : 0;
	pthread_mutex_unlock(&c->lock);
}

void nccl_leave(struct nccl_comm *c, uint32_t d)
{
	pthread_mutex_lock(&c->lock);
	c->ranks[d].where.at = NULL;
	pthread_mutex_unlock(&c->lock);
}

/* Whether every member of the group rank @w waits in has entered it (those elsewhere: as if). */
static bool whole(struct nccl_comm *c, const struct nccl_where *wh)
{
	const struct nccl_rank *m;
	uint32_t k;

	for (k = 0; k < wh->at->size; k++) {
		m = &c->ranks[wh->at->members[k]];
		if (m->dev && entered(&m->where, wh->at->pc) < wh->at_count)
			return false;
	}
	return true;
}

/*
 * Under c->lock: FAILED_PRECONDITION when a member of @op's group ended
 * without entering it, or when the devices wait at different collectives.
 */
static xrt_status *cannot_end(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op)
{
	const struct nccl_where *me = &c->ranks[d].where, *wh;
	uint32_t k, n = c->base.num_devices;

	for (k = 0; k < op->size; k++) {
		wh = &c->ranks[op->members[k]].where;
		if (wh->ended && entered(wh, op->pc) < me->at_count)
			return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "%s: device %u of the "
					      "group ended without reaching it", op->where,
					      op->members[k]);
	}
	for (k = 0; k < n; k++) {
		wh = &c->ranks[k].where;
		if (!c->ranks[k].dev || (!wh->ended && (!wh->at || whole(c, wh))))
			return NULL;	/* elsewhere, running, or a group that will complete */
	}
	return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "%s: the devices wait at "
			      "different collectives", op->where);
}

/* NULL while the wait may go on; else why it ends (the rank then aborted). */
xrt_status *nccl_stop_reason(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			       const struct xdev_watch *w)
{
	xrt_status *st = NULL;

	if (atomic_load(&c->failed))
		st = xrt_status_new(NULL, XRT_CANCELLED, "%s: another device failed", op->where);
	if (!st) {
		pthread_mutex_lock(&c->lock);
		st = cannot_end(c, d, op);
		pthread_mutex_unlock(&c->lock);
	}
	if (!st && w && w->cancel && atomic_load(w->cancel))
		st = xrt_status_new(NULL, XRT_CANCELLED, "%s: cancelled", op->where);
	else if (!st && w && w->deadline_ns && nccl_now_ns() >= w->deadline_ns)
		st = xrt_status_new(NULL, XRT_DEADLINE_EXCEEDED, "%s: deadline passed waiting for "
				    "the group", op->where);
	if (st)
		abort_rank(c, d);
	return st;
}

/* Waits while @comm's last call is in progress (a non-blocking communicator). */
xrt_status *nccl_settle(struct nccl_comm *c, uint32_t d, ncclComm_t comm, ncclResult_t r,
			  const struct xdev_collective *op, const struct xdev_watch *w,
			  const char *what)
{
	xrt_status *st;

	while (r == ncclInProgress) {
		st = nccl_stop_reason(c, d, op, w);
		if (st)
			return st;
		c->cu->ncclCommGetAsyncError(comm, &r);
	}
	return r == ncclSuccess ? NULL : nccl_fail(c, d, r, what);
}

/* The communicator of @op's group for rank @d: the world, or one split for the command. */
xrt_status *nccl_group_comm(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			      const struct xdev_watch *w, ncclComm_t *out)
{
	struct nccl_rank *r = &c->ranks[d];
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	ncclResult_t res;
	uint32_t k;

	*out = r->world;
	for (k = 0; k < op->size && op->members[k] == k; k++)
		;
	if (k == c->base.num_devices)	/* every device, in order: the world's ranks */
		return NULL;
	for (k = 0; k < r->num_splits; k++)
		if (r->splits[k].pc == op->pc) {
			*out = r->splits[k].comm;
			return NULL;
		}
	if (r->num_splits == MAX_SPLITS)
		return xrt_status_new(NULL, XRT_UNIMPLEMENTED, "%s: more than %d collectives of "
				      "groups smaller than the run on cuda", op->where, MAX_SPLITS);
	cfg.blocking = 0;
	r->splits[r->num_splits].pc = op->pc;
	res = c->cu->ncclCommSplit(r->world, (int)op->members[0], (int)op->me,
				   &r->splits[r->num_splits].comm, &cfg);
	r->num_splits++;
	*out = r->splits[r->num_splits - 1].comm;
	return nccl_settle(c, d, *out, res, op, w, "ncclCommSplit");
}

/*
 * Waits until every member of the group entered this collective: NCCL
 * matches calls by their order alone, so members at different
 * collectives must never meet (they fail here, as they would in host
 * memory).
 */
xrt_status *nccl_rendezvous(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			      const struct xdev_watch *w)
{
	struct timespec pause = { 0, 20000 };
	xrt_status *st;
	bool all;

	for (;;) {
		pthread_mutex_lock(&c->lock);
		all = whole(c, &c->ranks[d].where);
		pthread_mutex_unlock(&c->lock);
		if (all)
			return NULL;
		st = nccl_stop_reason(c, d, op, w);
		if (st)
			return st;
		nanosleep(&pause, NULL);
	}
}

/* Waits for the stream to pass the exchange, as long as the run may. */
xrt_status *nccl_wait_done(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			     const struct xdev_watch *w, CUstream s)
{
	const struct cuda_api *cu = c->cu;
	struct nccl_rank *r = &c->ranks[d];
	struct timespec pause = { 0, 20000 };
	CUresult res = cu->cuEventRecord(r->done, s);
	xrt_status *st;

	if (res == CUDA_SUCCESS)
		res = cu->cuEventQuery(r->done);
	while (res == CUDA_ERROR_NOT_READY) {
		st = nccl_stop_reason(c, d, op, w);
		if (st)
			return st;
		nanosleep(&pause, NULL);
		res = cu->cuEventQuery(r->done);
	}
	return res == CUDA_SUCCESS ? NULL :
	       cuda_error(NULL, cu, res, "a collective", (int)r->dev->base.info.ordinal);
}

