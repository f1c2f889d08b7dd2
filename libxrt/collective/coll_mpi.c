// SPDX-License-Identifier: MIT
/*
 * The communicator of a replicated run spread over processes.  This
 * process runs some of the devices, each in a thread; a group's members
 * here meet as in the in-process communicator, and the last of them to
 * arrive drives the exchange with the other processes over MPI, on the
 * group's own communicator (made when the run starts):
 *
 * - all-reduce: the members here fold their inputs into the first one's
 *   output (none to fold when it is alone: MPI reads its input), one
 *   MPI_Iallreduce in place makes it the group's, the others copy it.
 *   MPI sums in its own order, as NCCL does, not the group's.
 * - the others: MPI_Iallgatherv joins every member's inputs, each
 *   process's members in a block, and each member here computes its
 *   outputs from them as in-process members do (coll_exchange.c).
 *
 * The driver polls MPI against the run's deadline and cancellation; the
 * members here wait for it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collective/collective.h"
#include "coll_internal.h"
#include "coll_mpi.h"
#include "core/mem.h"
#include "cstream/executable.h"
#include "engine/scalar.h"

/* A group with members here: its MPI communicator (NULL: all of them here). */
struct rgroup {
	uint32_t size, nranks;
	uint32_t *members;	/* device ids, in the group's order */
	uint32_t *ranks;	/* world ranks, in the order of their first member */
	uint32_t *counts;	/* members per rank, in that order */
	void *comm;
};

enum phase { GATHERING, EXCHANGED, FAILED };

struct mmeet {
	struct mmeet *next;
	uint32_t pc, leader, expected, arrived, done, left;
	enum phase phase;
	char why[256];
	const struct xdev_collective **ops;	/* by place; those here only */
	struct xcoll_meeting view;		/* every member's inputs, for the exchange */
	struct xdev_collective *remote;
	struct xdev_coll_array *arrays;
	uint8_t *buf;
};

struct mrun {
	struct xdev_comm base;
	const struct xrt_allocator *a;
	uint32_t me;
	uint32_t *rank_of;
	struct rgroup *groups;
	uint32_t num_groups;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct mmeet *meetings;
	bool failed;
};

static uint64_t count(const struct xdev_coll_array *a)
{
	return xcoll_count(a, 0, a->rank);
}

static uint64_t bytes(const struct xdev_coll_array *a)
{
	return count(a) * xs_dtype_size(a->dtype);
}

static const struct rgroup *group_of(const struct mrun *r, const struct xdev_collective *op)
{
	uint32_t k;

	for (k = 0; k < r->num_groups; k++)
		if (r->groups[k].size == op->size &&
		    !memcmp(r->groups[k].members, op->members, op->size * sizeof(uint32_t)))
			return &r->groups[k];
	return NULL;
}

/* MPI's own reduction for @dtype and @op where it computes ours; else libxrt's fold. */
static struct xmpi_elem elem_of(uint32_t dtype, uint32_t op)
{
	static const enum xmpi_type uns[] = { XMPI_T_U8, XMPI_T_U16, 0, XMPI_T_U32,
					      0, 0, 0, XMPI_T_U64 };
	static const enum xmpi_type sgn[] = { XMPI_T_S8, XMPI_T_S16, 0, XMPI_T_S32,
					      0, 0, 0, XMPI_T_S64 };
	struct xmpi_elem e = { XMPI_T_OTHER, 0, xs_dtype_size(dtype), dtype, op };
	bool is_signed = dtype >= XRT_CS_S8 && dtype <= XRT_CS_S64;
	bool is_int = is_signed || (dtype >= XRT_CS_U8 && dtype <= XRT_CS_U64);

	if ((dtype == XRT_CS_F32 || dtype == XRT_CS_F64) &&
	    (op == XRT_CS_RED_SUM || op == XRT_CS_RED_PROD)) {
		/* min and max stay ours: NaN wins them, as it does not in MPI */
		e.type = dtype == XRT_CS_F32 ? XMPI_T_F32 : XMPI_T_F64;
		e.op = op == XRT_CS_RED_SUM ? XMPI_SUM : XMPI_PROD;
	} else if (is_int) {
		/* wrapping sums and products: the same bits as unsigned */
		bool ordered = op == XRT_CS_RED_MIN || op == XRT_CS_RED_MAX;

		e.type = (ordered && is_signed ? sgn : uns)[e.size - 1];
		e.op = op == XRT_CS_RED_SUM ? XMPI_SUM : op == XRT_CS_RED_PROD ? XMPI_PROD :
		       op == XRT_CS_RED_MIN ? XMPI_MIN : op == XRT_CS_RED_MAX ? XMPI_MAX :
		       op == XRT_CS_RED_AND ? XMPI_BAND : XMPI_BOR;
	}
	return e;
}

#define MAX_PIECE (1ull << 30)	/* MPI counts are ints */

static xrt_status *reduce_across(const struct rgroup *g, uint8_t *data, uint64_t n,
				 uint32_t dtype, uint32_t op, const struct xdev_collective *c,
				 const struct xdev_watch *w, const uint8_t *in)
{
	const struct xmpi_elem e = elem_of(dtype, op);
	uint64_t es = xs_dtype_size(dtype), at, len;
	xrt_status *st = NULL;
	void *req;
	int rc;

	for (at = 0; at < n && !st; at += len) {
		const uint8_t *from = in ? in + at * es : data + at * es;

		len = n - at < MAX_PIECE ? n - at : MAX_PIECE;
		if (xcoll_mpi_unbounded(w)) {
			rc = xcoll_mpi_ops()->allreduce(g->comm, from, data + at * es, len, &e);
			st = rc ? xcoll_mpi_failed(c->where, rc) : NULL;
			continue;
		}
		rc = xcoll_mpi_ops()->iallreduce(g->comm, from, data + at * es, len, &e, &req);
		st = rc ? xcoll_mpi_failed(c->where, rc) :
			  xcoll_mpi_wait(req, w, c->where, g->ranks, g->nranks);
	}
	return st;
}

/* All-reduce: the members here folded into the first one's output, then across. */
static xrt_status *all_reduce(struct mmeet *mt, const struct rgroup *g,
			      const struct xdev_collective *op, const struct xdev_watch *w)
{
	uint32_t first = 0, k, m;
	xrt_status *st = NULL;

	while (!mt->ops[first])
		first++;
	for (k = 0; k < op->cmd->num_in && !st; k++) {
		const struct xdev_coll_array *out = &mt->ops[first]->out[k];
		const uint8_t *in = mt->ops[first]->in[k].data;
		uint64_t n = count(out);

		if (mt->expected > 1 || !g->comm) {
			if (in != out->data)
				memmove(out->data, in, bytes(out));
			for (m = first + 1; m < op->size; m++)
				if (mt->ops[m])
					xcoll_fold(out->data, mt->ops[m]->in[k].data, n, out->dtype,
						   op->cmd->op);
			in = NULL;
		}
		if (g->comm)
			st = reduce_across(g, out->data, n, out->dtype, op->cmd->op, op, w,
					   in == out->data ? NULL : in);
	}
	return st;
}

/* Where member @m's inputs lie among the gathered ones: its block's number. */
static uint64_t block_of(const struct mrun *r, const struct rgroup *g,
			 const struct xdev_collective *op, uint32_t m)
{
	uint32_t rank = r->rank_of[op->members[m]], k, before = 0;

	for (k = 0; g->ranks[k] != rank; k++)
		before += g->counts[k];
	for (k = 0; k < m; k++)
		before += r->rank_of[op->members[k]] == rank;
	return before;
}

/* The others: every member's inputs gathered into mt->buf, seen as mt->view. */
static xrt_status *gather(struct mrun *r, struct mmeet *mt, const struct rgroup *g,
			  const struct xdev_collective *op, const struct xdev_watch *w)
{
	uint32_t k, m, nin = op->cmd->num_in;
	uint64_t block = 0, at;
	uint8_t *send;
	void *req;
	int rc;

	for (k = 0; k < nin; k++)
		block += bytes(&op->in[k]);
	mt->buf = xrt_mem_alloc(r->a, block * (op->size + mt->expected) + 1);
	mt->remote = xrt_mem_calloc(r->a, op->size, sizeof(*mt->remote));
	mt->arrays = xrt_mem_calloc(r->a, (size_t)op->size * nin + 1, sizeof(*mt->arrays));
	mt->view.ops = xrt_mem_calloc(r->a, op->size, sizeof(*mt->view.ops));
	if (!mt->buf || !mt->remote || !mt->arrays || !mt->view.ops)
		return xrt_status_oom(r->a, "a collective across processes");
	send = mt->buf + block * op->size;
	for (m = 0, at = 0; m < op->size; m++)
		for (k = 0; mt->ops[m] && k < nin; k++) {
			memcpy(send + at, mt->ops[m]->in[k].data, bytes(&op->in[k]));
			at += bytes(&op->in[k]);
		}
	for (m = 0; m < op->size; m++) {
		uint8_t *from = mt->buf + block_of(r, g, op, m) * block;

		for (k = 0; k < nin; k++) {
			mt->arrays[m * nin + k] = op->in[k];
			mt->arrays[m * nin + k].data = from;
			from += bytes(&op->in[k]);
		}
		mt->remote[m].in = &mt->arrays[m * nin];
		mt->view.ops[m] = &mt->remote[m];
	}
	mt->view.size = op->size;
	if (xcoll_mpi_unbounded(w)) {
		rc = xcoll_mpi_ops()->allgatherv(g->comm, send, mt->buf, block, g->counts);
		return rc ? xcoll_mpi_failed(op->where, rc) : NULL;
	}
	rc = xcoll_mpi_ops()->iallgatherv(g->comm, send, mt->buf, block, g->counts, &req);
	return rc ? xcoll_mpi_failed(op->where, rc) :
		    xcoll_mpi_wait(req, w, op->where, g->ranks, g->nranks);
}

/* The last member here to arrive: the exchange with the other processes. */
static xrt_status *drive(struct mrun *r, struct mmeet *mt, const struct xdev_collective *op,
			 const struct xdev_watch *w)
{
	const struct rgroup *g = group_of(r, op);

	if (!g)
		return xrt_status_new(r->a, XRT_INTERNAL, "%s: a group the run did not prepare",
				      op->where);
	if (op->cmd->kind == XRT_CS_COLL_ALL_REDUCE)
		return all_reduce(mt, g, op, w);
	if (!g->comm) {		/* every member here: read in place */
		mt->view.ops = mt->ops;
		mt->view.size = op->size;
		return NULL;
	}
	return gather(r, mt, g, op, w);
}

/* A member's own outputs, once the exchange is made. */
static void finish_member(const struct mmeet *mt, const struct xdev_collective *op)
{
	uint32_t first = 0, k;

	if (op->cmd->kind != XRT_CS_COLL_ALL_REDUCE) {
		xcoll_exchange(&mt->view, op);
		return;
	}
	while (!mt->ops[first])
		first++;
	for (k = 0; first != op->me && k < op->cmd->num_in; k++)
		memcpy(op->out[k].data, mt->ops[first]->out[k].data, bytes(&op->out[k]));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Under the lock: why a member waiting for the others here must stop, or NULL. */
static xrt_status *wait_failed(const struct mrun *r, const struct xdev_collective *op,
			       const struct xdev_watch *w)
{
	if (r->failed)
		return xrt_status_new(r->a, XRT_CANCELLED, "%s: another device failed",
				      op->where);
	if (w && w->cancel && atomic_load(w->cancel))
		return xrt_status_new(r->a, XRT_CANCELLED, "%s: cancelled waiting for the group",
				      op->where);
	if (w && w->deadline_ns && now_ns() >= w->deadline_ns)
		return xrt_status_new(r->a, XRT_DEADLINE_EXCEEDED,
				      "%s: deadline passed waiting for the group", op->where);
	return NULL;
}

/* Cancellation is a flag: waits wake this often to look at it. */
#define POLL_NS 10000000ull

static void wait_a_while(struct mrun *r)
{
	uint64_t until = now_ns() + POLL_NS;
	struct timespec ts = { (time_t)(until / 1000000000u), (long)(until % 1000000000u) };

	pthread_cond_timedwait(&r->cond, &r->lock, &ts);
}

static void close_meeting(struct mrun *r, struct mmeet *mt)
{
	struct mmeet **p = &r->meetings;

	while (*p != mt)
		p = &(*p)->next;
	*p = mt->next;
	if (mt->view.ops != mt->ops)
		xrt_mem_free(r->a, (void *)mt->view.ops);
	xrt_mem_free(r->a, mt->remote);
	xrt_mem_free(r->a, mt->arrays);
	xrt_mem_free(r->a, mt->buf);
	xrt_mem_free(r->a, mt->ops);
	xrt_mem_free(r->a, mt);
}

/* Under the lock: the meeting @op joins, opened when new; NULL: no memory. */
static struct mmeet *join(struct mrun *r, const struct xdev_collective *op)
{
	struct mmeet *mt;
	uint32_t m;

	for (;;) {
		for (mt = r->meetings; mt; mt = mt->next)
			if (mt->pc == op->pc && mt->leader == op->members[0])
				break;
		/* a meeting of this key past its gathering is the last pass's */
		if (!mt || mt->phase == GATHERING)
			break;
		pthread_cond_wait(&r->cond, &r->lock);
	}
	if (mt)
		return mt;
	mt = xrt_mem_calloc(r->a, 1, sizeof(*mt));
	if (mt)
		mt->ops = xrt_mem_calloc(r->a, op->size, sizeof(*mt->ops));
	if (!mt || !mt->ops) {
		xrt_mem_free(r->a, mt);
		return NULL;
	}
	mt->pc = op->pc;
	mt->leader = op->members[0];
	for (m = 0; m < op->size; m++)
		mt->expected += r->rank_of[op->members[m]] == r->me;
	mt->next = r->meetings;
	r->meetings = mt;
	return mt;
}

/* Under the lock: until the exchange is made, or a status (the arrival undone). */
static xrt_status *wait_exchange(struct mrun *r, struct mmeet *mt,
				 const struct xdev_collective *op, const struct xdev_watch *w,
				 bool *withdrew)
{
	xrt_status *st;

	while (mt->phase == GATHERING) {
		/* once all are here the driver polls the deadline: wait for it */
		st = mt->arrived < mt->expected ? wait_failed(r, op, w) : NULL;
		if (st) {
			mt->ops[op->me] = NULL;
			if (!--mt->arrived)
				close_meeting(r, mt);
			*withdrew = true;
			return st;
		}
		wait_a_while(r);
	}
	if (mt->phase == FAILED)
		return xrt_status_new(r->a, XRT_ABORTED, "%s: %s", op->where, mt->why);
	return NULL;
}

/* Under the lock: the member leaves; the last one out closes the meeting. */
static void leave(struct mrun *r, struct mmeet *mt)
{
	if (++mt->done == mt->expected)
		pthread_cond_broadcast(&r->cond);
	while (mt->done < mt->expected)
		pthread_cond_wait(&r->cond, &r->lock);
	if (++mt->left == mt->expected) {
		close_meeting(r, mt);
		pthread_cond_broadcast(&r->cond);
	}
}

static xrt_status *mpi_run(struct xdev_comm *c, uint32_t device, const struct xdev_collective *op,
			   const struct xdev_watch *w)
{
	struct mrun *r = (struct mrun *)c;
	bool withdrew = false;
	struct mmeet *mt;
	xrt_status *st = NULL;

	(void)device;
	pthread_mutex_lock(&r->lock);
	mt = join(r, op);
	if (!mt) {
		pthread_mutex_unlock(&r->lock);
		return xrt_status_oom(r->a, "a collective's meeting");
	}
	mt->ops[op->me] = op;
	if (++mt->arrived < mt->expected) {
		st = wait_exchange(r, mt, op, w, &withdrew);
	} else {
		pthread_mutex_unlock(&r->lock);
		st = drive(r, mt, op, w);
		pthread_mutex_lock(&r->lock);
		mt->phase = st ? FAILED : EXCHANGED;
		if (st)
			snprintf(mt->why, sizeof(mt->why), "%s", xrt_status_message(st));
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	if (withdrew)	/* before the meeting was whole */
		return st;
	if (!st)
		finish_member(mt, op);
	pthread_mutex_lock(&r->lock);
	leave(r, mt);
	pthread_mutex_unlock(&r->lock);
	return st;
}

static void mpi_finish(struct xdev_comm *c, uint32_t device, bool failed)
{
	struct mrun *r = (struct mrun *)c;

	(void)device;
	pthread_mutex_lock(&r->lock);
	r->failed |= failed;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static void mpi_destroy(struct xdev_comm *c)
{
	struct mrun *r = (struct mrun *)c;
	uint32_t k;

	if (!r)
		return;
	while (r->meetings)	/* only a run that never came back leaves one */
		close_meeting(r, r->meetings);
	for (k = 0; k < r->num_groups; k++) {
		xrt_mem_free(r->a, r->groups[k].members);
		xrt_mem_free(r->a, r->groups[k].ranks);
		xrt_mem_free(r->a, r->groups[k].counts);
	}
	xrt_mem_free(r->a, r->groups);
	xrt_mem_free(r->a, r->rank_of);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	xrt_mem_free(r->a, r);
}

static const struct xdev_comm_ops mpi_ops = {
	.run = mpi_run,
	.finish = mpi_finish,
	.destroy = mpi_destroy,
};

/* Group @grp of table @t, when it has members here: its ranks and communicator. */
static xrt_status *prepare_group(struct mrun *r, const struct xexe_group *t, uint32_t grp,
				 const uint32_t *gid, struct rgroup *g)
{
	uint32_t size = t->start[grp + 1] - t->start[grp], m, k, here = 0;
	const uint32_t *members = &t->members[t->start[grp]];
	uint32_t *gids;
	int *ranks;
	xrt_status *st = NULL;

	g->size = size;
	g->members = xrt_mem_alloc(r->a, size * sizeof(uint32_t) + 1);
	g->ranks = xrt_mem_calloc(r->a, size + 1, sizeof(uint32_t));
	g->counts = xrt_mem_calloc(r->a, size + 1, sizeof(uint32_t));
	gids = xrt_mem_alloc(r->a, size * sizeof(uint32_t) + 1);
	ranks = xrt_mem_alloc(r->a, size * sizeof(int) + 1);
	if (!g->members || !g->ranks || !g->counts || !gids || !ranks)
		st = xrt_status_oom(r->a, "a group across processes");
	for (m = 0; !st && m < size; m++) {
		uint32_t rank = r->rank_of[members[m]];

		g->members[m] = members[m];
		gids[m] = gid[members[m]];
		here += rank == r->me;
		for (k = 0; k < g->nranks && g->ranks[k] != rank; k++)
			;
		if (k == g->nranks) {
			ranks[k] = (int)rank;
			g->ranks[g->nranks++] = rank;
		}
		g->counts[k]++;
	}
	if (!st && here && g->nranks > 1)
		st = xcoll_mpi_group(gids, size, ranks, g->nranks, &g->comm);
	xrt_mem_free(r->a, gids);
	xrt_mem_free(r->a, ranks);
	return st;
}

/* How many groups table @t makes of the @n devices. */
static uint32_t groups_in(const struct xexe_group *t, uint32_t n)
{
	uint32_t d, count = 0;

	for (d = 0; d < n; d++)
		if (t->group_of[d] + 1 > count)
			count = t->group_of[d] + 1;
	return count;
}

static xrt_status *prepare_groups(struct mrun *r, const struct xrt_executable *exe,
				  const uint32_t *gid, uint32_t n)
{
	uint32_t t, grp, total = 0;
	xrt_status *st = NULL;

	for (t = 0; t < exe->num_groups; t++)
		total += groups_in(&exe->groups[t], n);
	r->groups = xrt_mem_calloc(r->a, total + 1, sizeof(*r->groups));
	if (!r->groups)
		return xrt_status_oom(r->a, "a run across processes");
	/* every process in the same order: a communicator's ranks make it together */
	for (t = 0; t < exe->num_groups && !st; t++)
		for (grp = 0; grp < groups_in(&exe->groups[t], n) && !st; grp++)
			st = prepare_group(r, &exe->groups[t], grp, gid,
					   &r->groups[r->num_groups++]);
	return st;
}

xrt_status *xcoll_mpi_create(uint32_t n, const uint32_t *rank_of, const uint32_t *gid,
			     const struct xrt_executable *exe, const struct xrt_allocator *a,
			     struct xdev_comm **out)
{
	struct mrun *r = xrt_mem_calloc(a, 1, sizeof(*r));
	pthread_condattr_t attr;
	xrt_status *st;

	*out = NULL;
	if (r)
		r->rank_of = xrt_mem_alloc(a, n * sizeof(uint32_t) + 1);
	if (!r || !r->rank_of) {
		xrt_mem_free(a, r);
		return xrt_status_oom(a, "a run across processes");
	}
	r->base.ops = &mpi_ops;
	r->base.num_devices = n;
	r->a = a;
	r->me = xcoll_mpi_rank();
	memcpy(r->rank_of, rank_of, n * sizeof(uint32_t));
	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cond, &attr);
	pthread_condattr_destroy(&attr);
	st = prepare_groups(r, exe, gid, n);
	if (st) {
		mpi_destroy(&r->base);
		return st;
	}
	*out = &r->base;
	return NULL;
}
