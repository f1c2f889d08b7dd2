/* SPDX-License-Identifier: MIT */
/*
 * The parts of the cuda devices' NCCL communicator (cuda_nccl.c): where
 * each rank stands and the waits (cuda_nccl_wait.c), and how each kind
 * of COLLECTIVE moves through NCCL (cuda_nccl_moves.c).
 */
#ifndef XRT_DEVICE_CUDA_NCCL_H
#define XRT_DEVICE_CUDA_NCCL_H

#include <stdatomic.h>

#include "engine/engine.h"
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

/* cuda_nccl_wait.c */
uint64_t nccl_now_ns(void);
xrt_status *nccl_fail(struct nccl_comm *c, uint32_t d, ncclResult_t r, const char *what);
/* Rank @d enters @op: counted, and waiting in it; nccl_leave: no longer waiting. */
void nccl_enter(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op);
void nccl_leave(struct nccl_comm *c, uint32_t d);
/* NULL while the wait may go on; else why it ends (the rank then aborted). */
xrt_status *nccl_stop_reason(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			     const struct xdev_watch *w);
/* Waits while @comm's last call is in progress (a non-blocking communicator). */
xrt_status *nccl_settle(struct nccl_comm *c, uint32_t d, ncclComm_t comm, ncclResult_t r,
			const struct xdev_collective *op, const struct xdev_watch *w,
			const char *what);
/* The communicator of @op's group for rank @d: the world, or one split for the command. */
xrt_status *nccl_group_comm(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			    const struct xdev_watch *w, ncclComm_t *out);
/* Waits until every member of the group entered this collective. */
xrt_status *nccl_rendezvous(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			    const struct xdev_watch *w);
/* Waits for the stream to pass the exchange, as long as the run may. */
xrt_status *nccl_wait_done(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			   const struct xdev_watch *w, CUstream s);

/* cuda_nccl_moves.c */
/* What NCCL cannot do here: a reduction of a type or op it lacks, a sub-byte type. */
xrt_status *nccl_check(const struct xdev_collective *op);
ncclResult_t nccl_reduce_or_broadcast(struct nccl_comm *c, const struct xdev_collective *op,
				      ncclComm_t comm, CUstream s);
xrt_status *nccl_gather_or_scatter(struct nccl_comm *c, uint32_t d,
				   const struct xdev_collective *op, ncclComm_t comm,
				   CUstream s, ncclResult_t *res);
ncclResult_t nccl_exchange(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			   uint32_t k, CUstream s, CUresult *cr, xrt_status **st);
ncclResult_t nccl_send_recv(struct nccl_comm *c, uint32_t d, const struct xdev_collective *op,
			    CUstream s, CUresult *cr);

#endif /* XRT_DEVICE_CUDA_NCCL_H */
