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
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "core/mem.h"
#include "engine/engine.h"
#include "engine/scalar.h"
#include "cuda_device.h"

#define MAX_SPLITS	64	/* commands with groups of their own, per device */
#define MAX_SEEN	256	/* commands whose entries a device counts */

struct nccl_split {
	uint32_t pc;
	ncclComm_t comm;
};

/* Where a rank stands, under nccl_comm.lock. */
struct nccl_where {
	bool ended;
	const struct xdev_collective *at;	/* the collective it waits in, or NULL */
	uint64_t at_count;			/* which entry of at->pc */
	struct {
		uint32_t pc;
		uint64_t entered;
	} seen[MAX_SEEN];
	uint32_t num_seen;
};

struct nccl_rank {
	struct cuda_dev *dev;
	ncclComm_t world;
	struct nccl_split splits[MAX_SPLITS];
	uint32_t num_splits;
	CUdeviceptr tmp[2];	/* staging for blocks that are not contiguous */
	uint64_t tmp_size[2];
	CUevent done;
	struct nccl_where where;
};

struct nccl_comm {
	struct xdev_comm base;
	const struct cuda_api *cu;
	const struct xrt_allocator *a;
	atomic_bool failed;
	pthread_mutex_t lock;		/* every rank's where */
	struct nccl_rank *ranks;
};

static struct nccl_comm *to_nccl(struct xdev_comm *c)
{
	return (struct nccl_comm *)c;
}

static xrt_status *nccl_fail(struct nccl_comm *c, uint32_t d, ncclResult_t r, const char *what)
{
	return xrt_status_new(NULL, XRT_INTERNAL, "cuda:%u: %s: %s", c->ranks[d].dev->base.info.ordinal,
			      what, c->cu->ncclGetErrorString(r));
}

static uint64_t now_ns(void)
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
static void enter(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op)
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

static void leave(struct nccl_comm *c, uint32_t d)
{
	pthread_mutex_lock(&c->lock);
	c->ranks[d].where.at = NULL;
	pthread_mutex_unlock(&c->lock);
}

/* Whether every member of the group rank @w waits in has entered it. */
static bool whole(struct nccl_comm *c, const struct nccl_where *wh)
{
	uint32_t k;

	for (k = 0; k < wh->at->size; k++)
		if (entered(&c->ranks[wh->at->members[k]].where, wh->at->pc) < wh->at_count)
			return false;
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
		if (!wh->ended && (!wh->at || whole(c, wh)))
			return NULL;	/* running, or a group that will complete */
	}
	return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "%s: the devices wait at "
			      "different collectives", op->where);
}

/* NULL while the wait may go on; else why it ends (the rank then aborted). */
static xrt_status *stop_reason(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
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
	else if (!st && w && w->deadline_ns && now_ns() >= w->deadline_ns)
		st = xrt_status_new(NULL, XRT_DEADLINE_EXCEEDED, "%s: deadline passed waiting for "
				    "the group", op->where);
	if (st)
		abort_rank(c, d);
	return st;
}

/* Waits while @comm's last call is in progress (a non-blocking communicator). */
static xrt_status *settle(struct nccl_comm *c, uint32_t d, ncclComm_t comm, ncclResult_t r,
			  const struct xdev_collective *op, const struct xdev_watch *w,
			  const char *what)
{
	xrt_status *st;

	while (r == ncclInProgress) {
		st = stop_reason(c, d, op, w);
		if (st)
			return st;
		c->cu->ncclCommGetAsyncError(comm, &r);
	}
	return r == ncclSuccess ? NULL : nccl_fail(c, d, r, what);
}

/* The communicator of @op's group for rank @d: the world, or one split for the command. */
static xrt_status *group_comm(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
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
	return settle(c, d, *out, res, op, w, "ncclCommSplit");
}

/* NCCL's type for @dtype, or -1 (moved as bytes, never reduced). */
static int nccl_type(uint32_t dtype)
{
	switch (dtype) {
	case XRT_CS_PRED: case XRT_CS_U8: return ncclUint8;
	case XRT_CS_S8: return ncclInt8;
	case XRT_CS_S32: return ncclInt32;
	case XRT_CS_U32: return ncclUint32;
	case XRT_CS_S64: return ncclInt64;
	case XRT_CS_U64: return ncclUint64;
	case XRT_CS_F16: return ncclFloat16;
	case XRT_CS_BF16: return ncclBfloat16;
	case XRT_CS_F32: return ncclFloat32;
	case XRT_CS_F64: return ncclFloat64;
	default: return -1;
	}
}

/* NCCL's reduction for REDUCE op @op on @dtype, or -1. */
static int nccl_op(uint32_t op, uint32_t dtype)
{
	switch (op) {
	case XRT_CS_RED_SUM: return ncclSum;
	case XRT_CS_RED_PROD: return ncclProd;
	case XRT_CS_RED_MIN: return ncclMin;
	case XRT_CS_RED_MAX: return ncclMax;
	case XRT_CS_RED_AND: return dtype == XRT_CS_PRED ? ncclMin : -1;
	case XRT_CS_RED_OR: return dtype == XRT_CS_PRED ? ncclMax : -1;
	default: return -1;
	}
}

static uint64_t elems(const struct xdev_coll_array *a)
{
	uint64_t n = 1;
	uint32_t k;

	for (k = 0; k < a->rank; k++)
		n *= a->dims[k];
	return n;
}

/* Rows outside dimension @dim and bytes of one row from @dim in, of array @a split @parts ways. */
static void split_rows(const struct xdev_coll_array *a, uint32_t dim, uint32_t parts,
		       uint64_t *rows, uint64_t *row_bytes)
{
	uint64_t inner = xs_dtype_size(a->dtype);
	uint32_t k;

	*rows = 1;
	for (k = 0; a->rank && k < dim; k++)
		*rows *= a->dims[k];
	for (k = dim; k < a->rank; k++)
		inner *= a->dims[k];
	*row_bytes = inner / parts;
}

/* A staging buffer of at least @bytes for rank @d. */
static xrt_status *staging(struct nccl_comm *c, uint32_t d, int which, uint64_t bytes)
{
	struct nccl_rank *r = &c->ranks[d];
	CUresult res;

	if (r->tmp_size[which] >= bytes)
		return NULL;
	if (r->tmp[which])
		c->cu->cuMemFree(r->tmp[which]);
	r->tmp[which] = 0;
	r->tmp_size[which] = 0;
	res = c->cu->cuMemAlloc(&r->tmp[which], bytes ? bytes : 1);
	if (res != CUDA_SUCCESS)
		return cuda_error(NULL, c->cu, res, "staging a collective",
				  (int)r->dev->base.info.ordinal);
	r->tmp_size[which] = bytes;
	return NULL;
}

/*
 * Copies between an array seen as [rows][parts][row] (@strided) and the
 * contiguous [parts][rows][row] (@packed); @pack: into packed.
 */
static CUresult repack(const struct cuda_api *cu, CUdeviceptr strided, CUdeviceptr packed,
		       uint64_t rows, uint32_t parts, uint64_t row, bool pack, CUstream s)
{
	CUresult r = CUDA_SUCCESS;
	uint64_t i, j;

	for (j = 0; j < parts && r == CUDA_SUCCESS; j++)
		for (i = 0; i < rows && r == CUDA_SUCCESS; i++) {
			CUdeviceptr a = strided + (i * parts + j) * row;
			CUdeviceptr b = packed + (j * rows + i) * row;

			r = pack ? cu->cuMemcpyDtoDAsync(b, a, row, s) :
				   cu->cuMemcpyDtoDAsync(a, b, row, s);
		}
	return r;
}

static CUdeviceptr dptr(const uint8_t *p)
{
	return (CUdeviceptr)(uintptr_t)p;
}

/* ALL_REDUCE and BROADCAST: each array on the group's communicator. */
static ncclResult_t reduce_or_broadcast(struct nccl_comm *c, const struct xdev_collective *op,
					ncclComm_t comm, CUstream s)
{
	const struct cuda_api *cu = c->cu;
	ncclResult_t r = ncclSuccess;
	uint32_t k;

	for (k = 0; k < op->cmd->num_in && r == ncclSuccess; k++) {
		const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];

		if (op->cmd->kind == XRT_CS_COLL_BROADCAST)
			r = cu->ncclBroadcast(in->data, out->data, elems(in) *
					      xs_dtype_size(in->dtype), ncclUint8, 0, comm, s);
		else
			r = cu->ncclAllReduce(in->data, out->data, elems(in),
					      (ncclDataType_t)nccl_type(in->dtype),
					      (ncclRedOp_t)nccl_op(op->cmd->op, in->dtype), comm, s);
	}
	return r;
}

/* ALL_GATHER (into staging, then placed) and REDUCE_SCATTER (from packed staging). */
static xrt_status *gather_or_scatter(struct nccl_comm *c, uint32_t d,
				     const struct xdev_collective *op, ncclComm_t comm,
				     CUstream s, ncclResult_t *res)
{
	const struct cuda_api *cu = c->cu;
	bool gather = op->cmd->kind == XRT_CS_COLL_ALL_GATHER;
	uint32_t k, n = op->size;
	uint64_t rows, row;
	CUresult cr = CUDA_SUCCESS;
	xrt_status *st = NULL;

	for (k = 0; k < op->cmd->num_in && *res == ncclSuccess && !st; k++) {
		const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];
		CUdeviceptr src = dptr(in->data), dst = dptr(out->data);

		split_rows(gather ? out : in, op->cmd->dim, n, &rows, &row);
		if (rows > 1) {
			st = staging(c, d, 0, rows * row * n);
			if (st)
				break;
			if (gather)
				dst = c->ranks[d].tmp[0];
			else
				cr = repack(cu, src, c->ranks[d].tmp[0], rows, n, row, true, s);
			if (!gather)
				src = c->ranks[d].tmp[0];
		}
		if (cr != CUDA_SUCCESS)
			break;
		if (gather)
			*res = cu->ncclAllGather((void *)(uintptr_t)src, (void *)(uintptr_t)dst,
						 rows * row, ncclUint8, comm, s);
		else
			*res = cu->ncclReduceScatter((void *)(uintptr_t)src, (void *)(uintptr_t)dst,
						     elems(out), (ncclDataType_t)nccl_type(in->dtype),
						     (ncclRedOp_t)nccl_op(op->cmd->op, in->dtype),
						     comm, s);
		if (*res == ncclSuccess && gather && rows > 1)
			cr = repack(cu, dptr(out->data), dst, rows, n, row, false, s);
	}
	if (!st && cr != CUDA_SUCCESS)
		st = cuda_error(NULL, cu, cr, "placing a collective's blocks",
				(int)c->ranks[d].dev->base.info.ordinal);
	return st;
}

/* ALL_TO_ALL of one array @k: blocks sent to and received from every member. */
static ncclResult_t exchange(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			     uint32_t k, CUstream s, CUresult *cr, xrt_status **st)
{
	const struct cuda_api *cu = c->cu;
	const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];
	struct nccl_rank *r = &c->ranks[d];
	CUdeviceptr src = dptr(in->data), dst = dptr(out->data);
	ncclResult_t res = ncclSuccess;
	uint64_t rows, row;
	uint32_t j, n = op->size;

	split_rows(in, op->cmd->dim, n, &rows, &row);
	if (rows > 1) {
		*st = staging(c, d, 0, rows * row * n);
		if (!*st)
			*st = staging(c, d, 1, rows * row * n);
		if (*st)
			return ncclSuccess;
		*cr = repack(cu, src, r->tmp[0], rows, n, row, true, s);
		src = r->tmp[0];
		dst = r->tmp[1];
	}
	if (*cr != CUDA_SUCCESS)
		return res;
	cu->ncclGroupStart();
	for (j = 0; j < n && res == ncclSuccess; j++) {
		res = cu->ncclSend((void *)(uintptr_t)(src + j * rows * row), rows * row,
				   ncclUint8, (int)op->members[j], r->world, s);
		if (res == ncclSuccess)
			res = cu->ncclRecv((void *)(uintptr_t)(dst + j * rows * row), rows * row,
					   ncclUint8, (int)op->members[j], r->world, s);
	}
	if (cu->ncclGroupEnd() != ncclSuccess && res == ncclSuccess)
		res = ncclInternalError;
	if (res == ncclSuccess && rows > 1)
		*cr = repack(cu, dptr(out->data), dst, rows, n, row, false, s);
	return res;
}

/* ALL_TO_ALL_TUPLE and PERMUTE: whole arrays sent and received on the world. */
static ncclResult_t send_recv(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			      CUstream s, CUresult *cr)
{
	const struct cuda_api *cu = c->cu;
	ncclComm_t w = c->ranks[d].world;
	ncclResult_t res = ncclSuccess;
	uint32_t j, k, n = op->cmd->num_in;

	cu->ncclGroupStart();
	for (k = 0; k < n && res == ncclSuccess; k++) {
		const struct xdev_coll_array *in = &op->in[k], *out = &op->out[k];
		uint64_t bytes = elems(in) * xs_dtype_size(in->dtype);

		if (op->cmd->kind == XRT_CS_COLL_ALL_TO_ALL_TUPLE) {
			res = cu->ncclSend(in->data, bytes, ncclUint8, (int)op->members[k], w, s);
			if (res == ncclSuccess)
				res = cu->ncclRecv(out->data, bytes, ncclUint8, (int)op->members[k],
						   w, s);
			continue;
		}
		for (j = 0; j < op->size && res == ncclSuccess; j++)
			if (op->source_of[op->members[j]] == (int32_t)d)
				res = cu->ncclSend(in->data, bytes, ncclUint8,
						   (int)op->members[j], w, s);
		if (res == ncclSuccess && op->source >= 0)
			res = cu->ncclRecv(out->data, bytes, ncclUint8,
					   (int)op->members[op->source], w, s);
		else if (res == ncclSuccess)
			*cr = cu->cuMemsetD8Async(dptr(out->data), 0, bytes, s);
	}
	if (cu->ncclGroupEnd() != ncclSuccess && res == ncclSuccess)
		res = ncclInternalError;
	return res;
}

/* What NCCL cannot do here: a reduction of a type or op it lacks, a sub-byte type. */
static xrt_status *check(const struct xdev_collective *op)
{
	bool reduces = op->cmd->kind == XRT_CS_COLL_ALL_REDUCE ||
		       op->cmd->kind == XRT_CS_COLL_REDUCE_SCATTER;
	uint32_t k;

	for (k = 0; k < op->cmd->num_in; k++) {
		uint32_t t = op->in[k].dtype;

		if (!xs_dtype_size(t) || xs_is_sub_byte_int(t))
			return xrt_status_new(NULL, XRT_UNIMPLEMENTED, "%s: arrays of a type "
					      "narrower than a byte between cuda devices",
					      op->where);
		if (reduces && (nccl_type(t) < 0 || nccl_op(op->cmd->op, t) < 0))
			return xrt_status_new(NULL, XRT_UNIMPLEMENTED, "%s: NCCL has no such "
					      "reduction of this type (dtype %u, op %u)", op->where,
					      t, op->cmd->op);
	}
	return NULL;
}

/*
 * Waits until every member of the group entered this collective: NCCL
 * matches calls by their order alone, so members at different
 * collectives must never meet (they fail here, as they would in host
 * memory).
 */
static xrt_status *rendezvous(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
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
		st = stop_reason(c, d, op, w);
		if (st)
			return st;
		nanosleep(&pause, NULL);
	}
}

/* Waits for the stream to pass the exchange, as long as the run may. */
static xrt_status *wait_done(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
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
		st = stop_reason(c, d, op, w);
		if (st)
			return st;
		nanosleep(&pause, NULL);
		res = cu->cuEventQuery(r->done);
	}
	return res == CUDA_SUCCESS ? NULL :
	       cuda_error(NULL, cu, res, "a collective", (int)r->dev->base.info.ordinal);
}

static xrt_status *nccl_run(struct xdev_comm *xc, uint32_t d, const struct xdev_collective *op,
			    const struct xdev_watch *w)
{
	struct nccl_comm *c = to_nccl(xc);
	CUstream s = op->stream;
	ncclComm_t comm = NULL;
	ncclResult_t res = ncclSuccess;
	CUresult cr = CUDA_SUCCESS;
	xrt_status *st = check(op);
	uint32_t k;

	if (!st && !c->ranks[d].world)
		st = xrt_status_new(NULL, XRT_CANCELLED, "%s: the device's communicator was "
				    "aborted", op->where);
	if (st)
		return st;
	enter(c, d, op);
	st = rendezvous(c, d, op, w);
	if (st) {
		leave(c, d);
		return st;
	}
	switch (op->cmd->kind) {
	case XRT_CS_COLL_ALL_REDUCE:
	case XRT_CS_COLL_BROADCAST:
		if (!st)
			st = group_comm(c, d, op, w, &comm);
		if (!st)
			res = reduce_or_broadcast(c, op, comm, s);
		break;
	case XRT_CS_COLL_ALL_GATHER:
	case XRT_CS_COLL_REDUCE_SCATTER:
		if (!st)
			st = group_comm(c, d, op, w, &comm);
		if (!st)
			st = gather_or_scatter(c, d, op, comm, s, &res);
		break;
	case XRT_CS_COLL_ALL_TO_ALL:
		for (k = 0; !st && k < op->cmd->num_in && res == ncclSuccess; k++)
			res = exchange(c, d, op, k, s, &cr, &st);
		break;
	default:
		if (!st)
			res = send_recv(c, d, op, s, &cr);
		break;
	}
	if (!st && comm && res == ncclInProgress)
		st = settle(c, d, comm, res, op, w, op->where);
	else if (!st && res != ncclSuccess)
		st = nccl_fail(c, d, res, op->where);
	if (!st && cr != CUDA_SUCCESS)
		st = cuda_error(NULL, c->cu, cr, op->where, (int)c->ranks[d].dev->base.info.ordinal);
	if (!st)
		st = wait_done(c, d, op, w, s);
	leave(c, d);
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
