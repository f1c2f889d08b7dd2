// SPDX-License-Identifier: MIT
/*
 * The NCCL stand-in's communicators across processes, over MPI (which
 * libxrt's process group started, with MPI_THREAD_MULTIPLE).  A unique
 * id is a tag.  Ranks join at their group's end in one MPI_Allgather of
 * every process of the job, each saying which ranks of which ids it
 * holds: a communicator of ncclCommInitRank spans MPI_COMM_WORLD.  A
 * collective round goes out once every rank here has its part: this
 * process's parts and their bytes, one message to each other process
 * holding ranks, tagged for the communicator; received, they join the
 * round as remote parts, and the round completes in each process for
 * its own ranks (fake_complete, the same fold in rank order).  A send
 * or receive to a rank of another process is an MPI_Isend or MPI_Irecv
 * tagged with both ranks.  Progress is made when the stand-ins are
 * polled (fake_nccl_busy, ncclCommGetAsyncError).
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_nccl.h"

#define ID_MAGIC "fake-nccl-id"
#define TAGS 128		/* MPI tags of a communicator: moves by rank pair, rounds */
#define ROUND_TAG 64
#define MAX_JOINS 4
#define MAX_TAG ((1 << 22) - 2)

struct join {
	int tag, n;
	ncclComm_t comms[MAX_RANKS];
};

/* A message going out, freed once MPI is done with it. */
struct out {
	MPI_Request req;
	void *buf;
	struct out *next;
};

struct wire_part {
	uint64_t seq, count, bytes;
	int32_t rank, kind, root, color, key, t, op, pad;
};

static MPI_Comm world = MPI_COMM_NULL;
static struct clique *crossing;
static struct join joins[MAX_JOINS];
static int num_joins;
static struct out *outs;

void procs_make_id(ncclUniqueId *id)
{
	static unsigned int made;
	int tag = (int)(((unsigned int)getpid() * 2654435761u + made++ * 7919u) % MAX_TAG) + 1;

	memcpy(id->internal, ID_MAGIC, sizeof(ID_MAGIC));
	memcpy(id->internal + 16, &tag, sizeof(tag));
}

ncclResult_t procs_join(ncclComm_t comm, int n, const ncclUniqueId *id, int rank)
{
	int tag, k, up = 0;

	MPI_Initialized(&up);
	if (!up || memcmp(id->internal, ID_MAGIC, sizeof(ID_MAGIC)))
		return ncclInvalidUsage;
	memcpy(&tag, id->internal + 16, sizeof(tag));
	for (k = 0; k < num_joins && joins[k].tag != tag; k++)
		;
	if (k == MAX_JOINS)
		return ncclInvalidUsage;
	if (k == num_joins)
		joins[num_joins++] = (struct join){ .tag = tag, .n = n };
	if (joins[k].n != n || joins[k].comms[rank])
		return ncclInvalidUsage;
	joins[k].comms[rank] = comm;
	return ncclSuccess;
}

/* Join @j's clique from every process's records @all (@size x MAX_JOINS of tag, mask). */
static ncclResult_t joined(const struct join *j, const int *all, int size, int me)
{
	struct clique *c = fake_clique_new(j->n);
	int q, k, r, owned = 0;

	if (!c)
		return ncclSystemError;
	for (r = 0; r < j->n; r++)
		c->owner[r] = -1;
	for (q = 0; q < size; q++)
		for (k = 0; k < MAX_JOINS; k++)
			for (r = 0; all[(q * MAX_JOINS + k) * 2] == j->tag && r < j->n; r++)
				if (all[(q * MAX_JOINS + k) * 2 + 1] & (1 << r)) {
					owned += c->owner[r] < 0;
					c->owner[r] = q;
				}
	if (owned != j->n) {	/* a rank nobody holds, or held twice */
		free(c);
		return ncclInvalidUsage;
	}
	c->tag = j->tag;
	c->me = me;
	c->refs = 0;
	for (r = 0; r < j->n; r++)
		if (j->comms[r]) {
			j->comms[r]->c = c;
			j->comms[r]->ready = 1;
			c->refs++;
		}
	c->next = crossing;
	crossing = c;
	return ncclSuccess;
}

ncclResult_t procs_group_end(void)
{
	int mine[MAX_JOINS * 2] = { 0 }, *all, size, me, k, r;
	ncclResult_t res = ncclSuccess;

	if (!num_joins)
		return ncclSuccess;
	if (world == MPI_COMM_NULL)
		MPI_Comm_dup(MPI_COMM_WORLD, &world);
	MPI_Comm_size(world, &size);
	MPI_Comm_rank(world, &me);
	for (k = 0; k < num_joins; k++) {
		mine[2 * k] = joins[k].tag;
		for (r = 0; r < joins[k].n; r++)
			mine[2 * k + 1] |= joins[k].comms[r] ? 1 << r : 0;
	}
	all = calloc((size_t)size, sizeof(mine));
	if (!all || MPI_Allgather(mine, MAX_JOINS * 2, MPI_INT, all, MAX_JOINS * 2, MPI_INT,
				  world) != MPI_SUCCESS)
		res = ncclSystemError;
	for (k = 0; k < num_joins && res == ncclSuccess; k++)
		res = joined(&joins[k], all, size, me);
	free(all);
	num_joins = 0;
	memset(joins, 0, sizeof(joins));
	return res;
}

void procs_split(struct clique *c, const struct clique *parent, uint64_t seq, int color)
{
	uint64_t h = ((uint64_t)parent->tag * 1000003u + seq * 9176u + (uint64_t)color * 31u);

	c->tag = (int)(h % MAX_TAG) + 1;
	c->next = crossing;
	crossing = c;
}

void procs_drop(struct clique *c)
{
	struct clique **at;

	for (at = &crossing; *at; at = &(*at)->next)
		if (*at == c) {
			*at = c->next;
			return;
		}
}

int procs_post(struct clique *c, struct part *p)
{
	int send = p->kind == K_SEND, src = send ? p->rank : p->peer;
	int dst = send ? p->peer : p->rank, tag;
	MPI_Request *req;

	if (!c->tag || c->owner[p->peer] == c->me)
		return 0;
	req = malloc(sizeof(*req));
	if (!req)
		return 0;	/* never matched: the wait ends at the run's deadline */
	tag = c->tag * TAGS + src * 8 + dst;
	if (send)
		MPI_Isend(p->send, (int)p->count, MPI_BYTE, c->owner[p->peer], tag, world, req);
	else
		MPI_Irecv(p->recv, (int)p->count, MPI_BYTE, c->owner[p->peer], tag, world, req);
	p->req = req;
	return 1;
}

void procs_cancel(struct part *p)
{
	MPI_Request *req = p->req;

	if (p->kind == K_RECV)
		MPI_Cancel(req);
	MPI_Request_free(req);
	free(req);
	p->req = NULL;
}

/* The bytes of @p's send buffer that the other processes need. */
static size_t wire_bytes(const struct clique *c, const struct part *p)
{
	size_t b = p->count * fake_type_size(p->t);

	switch (p->kind) {
	case K_SCATTER: return b * (size_t)c->n;
	case K_BCAST: return p->rank == p->root ? b : 0;
	case K_SPLIT: return 0;
	default: return b;
	}
}

/* This process's parts of round @seq, with their bytes, in a message of *@size. */
static void *round_message(struct clique *c, uint64_t seq, size_t *size)
{
	struct part *p;
	char *buf, *at;

	*size = 0;
	for (p = c->parts; p; p = p->next)
		if (!p->remote && p->kind != K_SEND && p->kind != K_RECV && p->seq == seq)
			*size += sizeof(struct wire_part) + wire_bytes(c, p);
	at = buf = malloc(*size + 1);
	for (p = c->parts; buf && p; p = p->next) {
		struct wire_part w = { seq, p->count, wire_bytes(c, p), p->rank, (int32_t)p->kind,
				       p->root, p->color, p->key, (int32_t)p->t, (int32_t)p->op,
				       0 };

		if (p->remote || p->kind == K_SEND || p->kind == K_RECV || p->seq != seq)
			continue;
		memcpy(at, &w, sizeof(w));
		if (w.bytes)
			memcpy(at + sizeof(w), p->send, w.bytes);
		at += sizeof(w) + w.bytes;
	}
	return buf;
}

ncclResult_t procs_send_round(struct clique *c, uint64_t seq)
{
	int here = 0, have = 0, r, q;
	struct part *p;
	size_t size;

	if (!c->tag || seq < c->sent)
		return ncclSuccess;
	for (r = 0; r < c->n; r++)
		here += c->owner[r] == c->me;
	for (p = c->parts; p; p = p->next)
		have += !p->remote && p->kind != K_SEND && p->kind != K_RECV && p->seq == seq;
	if (have < here)
		return ncclSuccess;
	for (q = 0; q < c->n; q++) {	/* each other process once: at its first rank */
		struct out *o;

		for (r = 0; r < q && c->owner[r] != c->owner[q]; r++)
			;
		if (r < q || c->owner[q] == c->me)
			continue;
		o = calloc(1, sizeof(*o));
		if (!o || !(o->buf = round_message(c, seq, &size))) {
			free(o);
			return ncclSystemError;
		}
		MPI_Isend(o->buf, (int)size, MPI_BYTE, c->owner[q], c->tag * TAGS + ROUND_TAG,
			  world, &o->req);
		o->next = outs;
		outs = o;
	}
	c->sent = seq + 1;
	return ncclSuccess;
}

/* A round's message from another process: its parts joined to @c's, the round tried. */
static void take_round(struct clique *c, const char *buf, size_t size)
{
	uint64_t seq = UINT64_MAX;
	size_t at = 0;

	while (at + sizeof(struct wire_part) <= size) {
		struct wire_part w;
		struct part *p = calloc(1, sizeof(*p)), **tail;

		memcpy(&w, buf + at, sizeof(w));
		at += sizeof(w);
		if (!p || at + w.bytes > size || w.rank < 0 || w.rank >= c->n) {
			free(p);
			return;
		}
		*p = (struct part){ .kind = (enum kind)w.kind, .rank = w.rank, .root = w.root,
				    .color = w.color, .key = w.key, .seq = w.seq,
				    .count = w.count, .t = (ncclDataType_t)w.t,
				    .op = (ncclRedOp_t)w.op, .remote = 1 };
		p->own = malloc(w.bytes + 1);
		if (p->own)
			memcpy(p->own, buf + at, w.bytes);
		p->send = p->own;
		at += w.bytes;
		for (tail = &c->parts; *tail; tail = &(*tail)->next)
			;
		*tail = p;
		seq = w.seq;
	}
	if (seq != UINT64_MAX)
		fake_complete(c, seq);
}

/* Sends and receives to other processes that ended: their parts retired. */
static void moves_done(struct clique *c)
{
	struct part *p;
	int done;

	for (p = c->parts; p; p = p->next) {
		if (!p->req)
			continue;
		done = 0;
		MPI_Test(p->req, &done, MPI_STATUS_IGNORE);
		if (!done)
			continue;
		free(p->req);
		p->req = NULL;
		fake_retire(c, p);
		moves_done(c);
		return;
	}
}

void procs_progress(void)
{
	struct out **at = &outs, *o;
	struct clique *c;
	MPI_Status s;
	int flag, size;
	char *buf;

	while ((o = *at)) {
		flag = 0;
		MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE);
		if (flag) {
			*at = o->next;
			free(o->buf);
			free(o);
		} else {
			at = &o->next;
		}
	}
	for (c = crossing; c; c = c->next) {
		moves_done(c);
		for (;;) {
			flag = 0;
			MPI_Iprobe(MPI_ANY_SOURCE, c->tag * TAGS + ROUND_TAG, world, &flag, &s);
			if (!flag)
				break;
			MPI_Get_count(&s, MPI_BYTE, &size);
			buf = malloc((size_t)size + 1);
			if (!buf)
				break;
			MPI_Recv(buf, size, MPI_BYTE, s.MPI_SOURCE, s.MPI_TAG, world,
				 MPI_STATUS_IGNORE);
			take_round(c, buf, (size_t)size);
			free(buf);
		}
	}
}
