// SPDX-License-Identifier: MIT
/*
 * The communicator of cuda devices: NCCL, loaded when a replicated run
 * first needs it.  Device d of the run is rank d of one NCCL
 * communicator, a GPU per rank: ncclCommInitAll in one process, or, for
 * a run spread over processes, ncclCommInitRank by each process for its
 * devices, with the unique id the process of device 0 made (shared
 * through the process group's exchange).  At a COLLECTIVE each
 * device's run enqueues its part on its own stream, after the commands
 * before it and before those after it:
 *
 * - ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER and BROADCAST use NCCL's
 *   collectives, on the world or, for a group of fewer devices, on a
 *   communicator split from it the first time the command runs (color:
 *   the group's first device; key: the place in the group, so that the
 *   ranks follow the group's order);
 * - ALL_TO_ALL, its tuple form and PERMUTE are NCCL sends and receives
 *   among the members, on the world.
 *
 * A block that is not contiguous (a dimension gathered, scattered or
 * split that is not the outermost) moves through a contiguous copy, one
 * row at a time.  The run then waits for the stream, polling its
 * deadline, its cancel flag and the other devices' failures; any of
 * them aborts this device's communicators, which NCCL requires of a
 * wait that must end.  A split communicator is non-blocking and polled
 * the same way.  As the in-process communicator does, the wait also
 * ends when a member of the group ended without entering the
 * collective, or when every running device waits and no group has all
 * its members in (they wait at different collectives): each rank counts
 * the times it entered each command, and says where it waits.  Across
 * processes only the devices here are seen: the others count as there,
 * and a group that never completes ends at the run's deadline.  Reductions fold in NCCL's order, not the group's: the
 * bits of a floating-point sum may differ from the evaluator's.
 */
#include <string.h>
#include <time.h>

#include "core/mem.h"
#include "cuda_nccl.h"

static struct nccl_comm *to_nccl(struct xdev_comm *c)
{
	return (struct nccl_comm *)c;
}

static xrt_status *nccl_run(struct xdev_comm *xc, uint32_t d, const struct xdev_collective *op,
			    const struct xdev_watch *w)
{
	struct nccl_comm *c = to_nccl(xc);
	CUstream s = op->stream;
	ncclComm_t comm = NULL;
	ncclResult_t res = ncclSuccess;
	CUresult cr = CUDA_SUCCESS;
	xrt_status *st = nccl_check(op);
	uint32_t k;

	if (!st && !c->ranks[d].world)
		st = xrt_status_new(NULL, XRT_CANCELLED, "%s: the device's communicator was "
				    "aborted", op->where);
	if (st)
		return st;
	nccl_enter(c, d, op);
	st = nccl_rendezvous(c, d, op, w);
	if (st) {
		nccl_leave(c, d);
		return st;
	}
	switch (op->cmd->kind) {
	case XRT_CS_COLL_ALL_REDUCE:
	case XRT_CS_COLL_BROADCAST:
		if (!st)
			st = nccl_group_comm(c, d, op, w, &comm);
		if (!st)
			res = nccl_reduce_or_broadcast(c, op, comm, s);
		break;
	case XRT_CS_COLL_ALL_GATHER:
	case XRT_CS_COLL_REDUCE_SCATTER:
		if (!st)
			st = nccl_group_comm(c, d, op, w, &comm);
		if (!st)
			st = nccl_gather_or_scatter(c, d, op, comm, s, &res);
		break;
	case XRT_CS_COLL_ALL_TO_ALL:
		for (k = 0; !st && k < op->cmd->num_in && res == ncclSuccess; k++)
			res = nccl_exchange(c, d, op, k, s, &cr, &st);
		break;
	default:
		if (!st)
			res = nccl_send_recv(c, d, op, s, &cr);
		break;
	}
	if (!st && comm && res == ncclInProgress)
		st = nccl_settle(c, d, comm, res, op, w, op->where);
	else if (!st && res != ncclSuccess)
		st = nccl_fail(c, d, res, op->where);
	if (!st && cr != CUDA_SUCCESS)
		st = cuda_error(NULL, c->cu, cr, op->where, (int)c->ranks[d].dev->base.info.ordinal);
	if (!st)
		st = nccl_wait_done(c, d, op, w, s);
	nccl_leave(c, d);
	return st;
}

static void nccl_finish(struct xdev_comm *xc, uint32_t d, bool failed)
{
	struct nccl_comm *c = to_nccl(xc);

	if (failed)	/* first: the others see a failure, not a device gone */
		atomic_store(&c->failed, true);
	pthread_mutex_lock(&c->lock);
	c->ranks[d].where.ended = true;
	pthread_mutex_unlock(&c->lock);
}

static void nccl_destroy(struct xdev_comm *xc)
{
	struct nccl_comm *c = to_nccl(xc);
	uint32_t d, k;

	for (d = 0; c->ranks && d < c->base.num_devices; d++) {
		struct nccl_rank *r = &c->ranks[d];

		if (!r->dev)
			continue;
		cudev_enter(r->dev);
		for (k = 0; k < r->num_splits; k++)
			if (r->splits[k].comm)
				c->cu->ncclCommDestroy(r->splits[k].comm);
		if (r->world)
			c->cu->ncclCommDestroy(r->world);
		for (k = 0; k < 2; k++)
			if (r->tmp[k])
				c->cu->cuMemFree(r->tmp[k]);
		if (r->done)
			c->cu->cuEventDestroy(r->done);
	}
	pthread_mutex_destroy(&c->lock);
	xrt_mem_free(c->a, c->ranks);
	xrt_mem_free(c->a, c);
}

static const struct xdev_comm_ops nccl_ops = {
	.run = nccl_run,
	.finish = nccl_finish,
	.destroy = nccl_destroy,
};

/* Each rank here: its device and event; every GPU at most once (NCCL's rule). */
static xrt_status *bind_ranks(struct nccl_comm *c, struct xdev *const *devs, uint32_t n,
			      int *ordinals)
{
	uint32_t d, e;
	CUresult r;

	for (d = 0; d < n; d++) {
		struct nccl_rank *rk = &c->ranks[d];
		xrt_status *st;

		if (!devs[d])
			continue;	/* another process runs it */
		rk->dev = to_cuda(devs[d]);
		ordinals[d] = (int)devs[d]->info.ordinal;
		for (e = 0; e < d; e++)
			if (devs[e] && ordinals[e] == ordinals[d])
				return xrt_status_new(c->a, XRT_UNIMPLEMENTED, "replica devices %u "
						      "and %u both on %s: NCCL runs one rank "
						      "per GPU", e, d, devs[d]->info.name);
		st = cudev_enter(rk->dev);
		if (st)
			return st;
		r = c->cu->cuEventCreate(&rk->done, CU_EVENT_DISABLE_TIMING);
		if (r != CUDA_SUCCESS)
			return cuda_error(c->a, c->cu, r, "an event", ordinals[d]);
	}
	return NULL;
}

/* Every device in one process: one call makes every rank. */
static xrt_status *init_all(struct nccl_comm *c, uint32_t n, const int *ordinals)
{
	ncclComm_t *worlds = xrt_mem_calloc(c->a, n, sizeof(*worlds));
	ncclResult_t r;
	uint32_t d;

	if (!worlds)
		return xrt_status_oom(c->a, "a communicator");
	r = c->cu->ncclCommInitAll(worlds, (int)n, ordinals);
	for (d = 0; r == ncclSuccess && d < n; d++)
		c->ranks[d].world = worlds[d];
	xrt_mem_free(c->a, worlds);
	return r == ncclSuccess ? NULL :
	       xrt_status_new(c->a, XRT_INTERNAL, "ncclCommInitAll of %u cuda devices: %s", n,
			      c->cu->ncclGetErrorString(r));
}

/* What a process says before the ranks join: whether it can, and rank 0's id. */
struct nccl_hello {
	uint32_t ok, has_id;
	ncclUniqueId id;
};

/* @st, every rank here that began to join aborted (NCCL's rule for one that did not). */
static xrt_status *abort_joining(struct nccl_comm *c, uint32_t n, xrt_status *st)
{
	uint32_t d;

	for (d = 0; d < n; d++)
		if (c->ranks[d].world) {
			c->cu->ncclCommAbort(c->ranks[d].world);
			c->ranks[d].world = NULL;
		}
	return st;
}

/*
 * Polls the ranks here until each has joined (non-blocking ones), as
 * long as @w lets the run wait; on failure every rank here is aborted.
 */
static xrt_status *joined(struct nccl_comm *c, uint32_t n, const struct xdev_watch *w)
{
	struct timespec pause = { 0, 100000 };
	ncclResult_t r = ncclInProgress;
	uint32_t d;

	xrt_status *st = NULL;

	while (r == ncclInProgress && !st) {
		r = ncclSuccess;
		for (d = 0; d < n && r == ncclSuccess; d++)
			if (c->ranks[d].world)
				c->cu->ncclCommGetAsyncError(c->ranks[d].world, &r);
		if (r == ncclInProgress && w && w->deadline_ns && nccl_now_ns() >= w->deadline_ns)
			st = xrt_status_new(c->a, XRT_DEADLINE_EXCEEDED, "the cuda devices of "
					    "the other processes did not join NCCL's world "
					    "by the deadline");
		else if (r == ncclInProgress)
			nanosleep(&pause, NULL);
		else if (r != ncclSuccess)
			st = xrt_status_new(c->a, XRT_INTERNAL, "ncclCommInitRankConfig: %s",
					    c->cu->ncclGetErrorString(r));
	}
	return st ? abort_joining(c, n, st) : NULL;
}

/*
 * Devices across processes: the process running device 0 makes NCCL's
 * unique id and every process learns it in one exchange, which every
 * process takes even when it failed before (@st), so that none waits
 * for it; then each device here joins as its device number, in one
 * NCCL group (this thread joins them all), non-blocking so that the
 * wait for the others keeps to the run's deadline.
 */
static xrt_status *init_spread(struct nccl_comm *c, uint32_t n, const struct xdev_spread *sp,
			       xrt_status *st)
{
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	struct nccl_hello me = { 0 }, *all;
	const ncclUniqueId *id = NULL;
	ncclResult_t r = ncclSuccess;
	uint32_t k, d;

	if (!st && c->ranks[0].dev) {
		r = c->cu->ncclGetUniqueId(&me.id);
		me.has_id = r == ncclSuccess;
		if (r != ncclSuccess)
			st = xrt_status_new(c->a, XRT_INTERNAL, "ncclGetUniqueId: %s",
					    c->cu->ncclGetErrorString(r));
	}
	me.ok = !st;
	all = xrt_mem_calloc(c->a, sp->size, sizeof(*all));
	if (!all) {	/* the others then fail at their deadline: nothing else is sure */
		xrt_status_free(st);
		return xrt_status_oom(c->a, "a communicator");
	}
	{
		xrt_status *ex = sp->exchange(&me, sizeof(me), all, sp->w,
					      "sharing NCCL's unique id");

		if (ex) {
			xrt_status_free(st);
			st = ex;
		}
	}
	for (k = 0; k < sp->size && !st; k++) {
		if (!all[k].ok)
			st = xrt_status_new(c->a, XRT_ABORTED, "rank %u could not make its part of "
					    "NCCL's world (its own error says why)", k);
		if (all[k].has_id)
			id = &all[k].id;
	}
	if (!st && !id)
		st = xrt_status_new(c->a, XRT_INTERNAL, "no process made NCCL's unique id");
	if (st) {
		xrt_mem_free(c->a, all);
		return st;
	}
	cfg.blocking = 0;
	c->cu->ncclGroupStart();
	for (d = 0; d < n && r == ncclSuccess; d++) {
		if (!c->ranks[d].dev)
			continue;
		st = cudev_enter(c->ranks[d].dev);	/* NCCL's device: the current one */
		if (st)
			break;
		r = c->cu->ncclCommInitRankConfig(&c->ranks[d].world, (int)n, *id, (int)d, &cfg);
		if (r == ncclInProgress)
			r = ncclSuccess;
	}
	if (c->cu->ncclGroupEnd() != ncclSuccess && r == ncclSuccess)
		r = ncclInProgress;	/* the ranks say how it ends */
	xrt_mem_free(c->a, all);
	if (!st && r != ncclSuccess && r != ncclInProgress)
		st = xrt_status_new(c->a, XRT_INTERNAL, "ncclCommInitRankConfig: %s",
				    c->cu->ncclGetErrorString(r));
	return st ? abort_joining(c, n, st) : joined(c, n, sp->w);
}

xrt_status *cuda_comm_create(struct xdev *const *devs, uint32_t n,
			     const struct xdev_spread *spread, const struct xrt_allocator *a,
			     struct xdev_comm **out)
{
	const char *why = "";
	const struct cuda_api *cu = cuda_api_nccl(&why);
	struct nccl_comm *c;
	int *ordinals = NULL;
	xrt_status *st = NULL;

	c = xrt_mem_calloc(a, 1, sizeof(*c));
	if (c && pthread_mutex_init(&c->lock, NULL)) {
		xrt_mem_free(a, c);
		c = NULL;
	}
	if (c) {
		c->ranks = xrt_mem_calloc(a, n, sizeof(*c->ranks));
		ordinals = xrt_mem_calloc(a, n, sizeof(*ordinals));
		c->base = (struct xdev_comm){ &nccl_ops, n };
		c->cu = cu;
		c->a = a;
	}
	if (!c || !c->ranks || !ordinals)
		st = xrt_status_oom(a, "a communicator");
	else if (!cu->have_nccl)
		st = xrt_status_new(a, XRT_UNIMPLEMENTED, "cuda devices meet through NCCL: %s",
				    why);
	if (!st)
		st = bind_ranks(c, devs, n, ordinals);
	if (spread && c && c->ranks)
		st = init_spread(c, n, spread, st);
	else if (spread)	/* no communicator to make: the others still learn it */
		st = init_spread(&(struct nccl_comm){ .cu = cu, .a = a }, 0, spread, st);
	else if (!st)
		st = init_all(c, n, ordinals);
	if (st && c && c->ranks) {
		nccl_destroy(&c->base);
		c = NULL;
	} else if (st && c) {
		pthread_mutex_destroy(&c->lock);
		xrt_mem_free(a, c);
		c = NULL;
	}
	xrt_mem_free(a, ordinals);
	*out = c ? &c->base : NULL;
	return st;
}
