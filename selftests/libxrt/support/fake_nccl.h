/* SPDX-License-Identifier: MIT */
/*
 * The NCCL stand-in's state, shared by its ranks in one process
 * (fake_nccl.c) and its communicators across processes over MPI
 * (fake_nccl_procs.c).  Everything here is under fake_nccl_lock.
 */
#ifndef FAKE_NCCL_H
#define FAKE_NCCL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <nccl.h>

#define MAX_RANKS 8

enum kind { K_REDUCE, K_SCATTER, K_GATHER, K_BCAST, K_SEND, K_RECV, K_SPLIT };

/* One rank's part of an operation, waiting for the others. */
struct part {
	enum kind kind;
	int rank, peer, root, color, key;
	uint64_t seq;			/* the rank's count of collectives on the comm */
	const void *send;
	void *recv;
	size_t count;			/* elements (bytes for moves) */
	ncclDataType_t t;
	ncclRedOp_t op;
	cudaStream_t stream;
	ncclComm_t *newcomm;
	int remote;			/* another process's, its bytes in own */
	void *own;
	void *req;			/* a send or receive to another process (an MPI_Request) */
	struct part *next;
};

struct clique {
	int n, refs;
	struct part *parts;
	/* across processes: tag 0 in one process */
	int tag, me;			/* MPI tags from tag * 128; this process's MPI rank */
	int owner[MAX_RANKS];		/* the MPI rank of each rank's process */
	uint64_t sent;			/* the rounds whose parts here went out */
	struct clique *next;		/* the communicators across processes */
};

struct ncclComm {
	struct clique *c;
	int rank, ready;		/* ready: a split or join done */
	uint64_t seq;
};

extern pthread_mutex_t fake_nccl_lock;

struct clique *fake_clique_new(int n);
size_t fake_type_size(ncclDataType_t t);
/* Performs round @seq of @c if every part is here; removes the parts. */
ncclResult_t fake_complete(struct clique *c, uint64_t seq);
/* Removes @p from its clique's list and frees it, its stream done. */
void fake_retire(struct clique *c, struct part *p);

#ifdef FAKE_NCCL_PROCS
/* fake_nccl_procs.c */
/* Whether @p moves to or from another process (started, if so). */
int procs_post(struct clique *c, struct part *p);
/* Sends this process's parts of round @seq once they are all here. */
ncclResult_t procs_send_round(struct clique *c, uint64_t seq);
/* Receives and completes what has arrived; frees what went out. */
void procs_progress(void);
/* @c is freed: it stops receiving. */
void procs_drop(struct clique *c);
/* @p is dropped before its move ended: the move cancelled. */
void procs_cancel(struct part *p);
/* A unique id: a tag no other communicator of the job has. */
void procs_make_id(ncclUniqueId *id);
/* Rank @rank of @n joins @id's communicator; done at once or at the group's end. */
ncclResult_t procs_join(ncclComm_t comm, int n, const ncclUniqueId *id, int rank);
/* The joins of a group, done together. */
ncclResult_t procs_group_end(void);
/* @c, of @color split from @parent at round @seq: tagged alike in every process. */
void procs_split(struct clique *c, const struct clique *parent, uint64_t seq, int color);
#else
static inline int procs_post(struct clique *c, struct part *p) { (void)c; (void)p; return 0; }
static inline ncclResult_t procs_send_round(struct clique *c, uint64_t seq)
{
	(void)c; (void)seq;
	return ncclSuccess;
}
static inline void procs_progress(void) { }
static inline void procs_drop(struct clique *c) { (void)c; }
static inline void procs_cancel(struct part *p) { (void)p; }
static inline void procs_make_id(ncclUniqueId *id) { (void)id; }
/* Without MPI there are no other processes to join. */
static inline ncclResult_t procs_join(ncclComm_t comm, int n, const ncclUniqueId *id, int rank)
{
	(void)comm; (void)n; (void)id; (void)rank;
	return ncclInvalidUsage;
}
static inline ncclResult_t procs_group_end(void) { return ncclSuccess; }
static inline void procs_split(struct clique *c, const struct clique *p, uint64_t s, int k)
{
	(void)c; (void)p; (void)s; (void)k;
}
#endif

#endif /* FAKE_NCCL_H */
