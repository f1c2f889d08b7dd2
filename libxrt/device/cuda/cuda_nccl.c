// SPDX-License-Identifier: MIT
/*
 * The communicator of cuda devices: NCCL, loaded when a replicated run
 * first needs it.  Device d of the run is rank d of one NCCL
 * communicator (ncclCommInitAll, a GPU per rank).  At a COLLECTIVE each
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
 * the times it entered each command, and says where it waits.  Reductions fold in NCCL's order, not the group's: the
 * bits of a floating-point sum may differ from the evaluator's.
 */
#include <string.h>

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

/* Each rank's device and event; every GPU at most once (NCCL's rule). */
static xrt_status *bind_ranks(struct nccl_comm *c, struct xdev *const *devs, uint32_t n,
			      int *ordinals)
{
	uint32_t d, e;
	CUresult r;

	for (d = 0; d < n; d++) {
		struct nccl_rank *rk = &c->ranks[d];
		xrt_status *st;

		rk->dev = to_cuda(devs[d]);
		ordinals[d] = (int)devs[d]->info.ordinal;
		for (e = 0; e < d; e++)
			if (ordinals[e] == ordinals[d])
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

xrt_status *cuda_comm_create(struct xdev *const *devs, uint32_t n, const struct xrt_allocator *a,
			     struct xdev_comm **out)
{
	const char *why = "";
	const struct cuda_api *cu = cuda_api_nccl(&why);
	struct nccl_comm *c;
	ncclComm_t *worlds;
	int *ordinals;
	xrt_status *st;
	ncclResult_t r;
	uint32_t d;

	if (!cu->have_nccl)
		return xrt_status_new(a, XRT_UNIMPLEMENTED, "cuda devices meet through NCCL: %s",
				      why);
	c = xrt_mem_calloc(a, 1, sizeof(*c));
	if (c && pthread_mutex_init(&c->lock, NULL)) {
		xrt_mem_free(a, c);
		c = NULL;
	}
	worlds = xrt_mem_calloc(a, n, sizeof(*worlds));
	ordinals = xrt_mem_calloc(a, n, sizeof(*ordinals));
	if (c)
		c->ranks = xrt_mem_calloc(a, n, sizeof(*c->ranks));
	if (!c || !c->ranks || !worlds || !ordinals) {
		st = xrt_status_oom(a, "a communicator");
		goto out;
	}
	c->base = (struct xdev_comm){ &nccl_ops, n };
	c->cu = cu;
	c->a = a;
	st = bind_ranks(c, devs, n, ordinals);
	r = st ? ncclSuccess : cu->ncclCommInitAll(worlds, (int)n, ordinals);
	if (!st && r != ncclSuccess)
		st = xrt_status_new(a, XRT_INTERNAL, "ncclCommInitAll of %u cuda devices: %s", n,
				    cu->ncclGetErrorString(r));
	for (d = 0; !st && d < n; d++)
		c->ranks[d].world = worlds[d];
out:
	if (st && c) {
		c->base.num_devices = n;
		nccl_destroy(&c->base);
		c = NULL;
	}
	xrt_mem_free(a, worlds);
	xrt_mem_free(a, ordinals);
	*out = c ? &c->base : NULL;
	return st;
}
