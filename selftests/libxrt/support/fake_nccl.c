// SPDX-License-Identifier: MIT
/*
 * A stand-in for NCCL (libnccl.so.2) beside fake_cuda.c: the ranks of a
 * communicator are threads of this process, "device memory" is host
 * memory.  As on a GPU, a call only enqueues: it registers its part and
 * returns, and the stream it was given stays busy (fake_nccl_busy(),
 * which fake_cuda's events and stream waits ask) until the operation is
 * done.  The rank that completes a collective's meeting performs it for
 * every rank: each result folded over the ranks in rank order (so the
 * bits are the evaluator's, which folds in the group's order), all
 * computed before any is written.  A receive and its send meet the
 * same way.  A split completes when every rank asked for it.  An
 * aborted rank's pending parts are dropped and never complete, as on a
 * GPU whose peer is gone.  Ranks in other processes (ncclCommInitRank)
 * meet over MPI (fake_nccl_procs.c).  Only what libxrt's cuda
 * communicator calls is here.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_nccl.h"

#define MAX_STREAMS 64

pthread_mutex_t fake_nccl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	cudaStream_t s;
	int busy;
} streams[MAX_STREAMS];

/* Operations enqueued on @s and not done (fake_cuda's events ask). */
int fake_nccl_busy(const void *s);

int fake_nccl_busy(const void *s)
{
	int i, n = 0;

	pthread_mutex_lock(&fake_nccl_lock);
	procs_progress();
	for (i = 0; i < MAX_STREAMS; i++)
		if (streams[i].s == s)
			n += streams[i].busy;	/* entries of a stream idle before may linger */
	pthread_mutex_unlock(&fake_nccl_lock);
	return n;
}

/* Under the lock. */
static void busy(cudaStream_t s, int d)
{
	int i, free_at = -1;

	for (i = 0; i < MAX_STREAMS; i++) {
		if (streams[i].s == s && streams[i].busy) {
			streams[i].busy += d;
			return;
		}
		if (!streams[i].busy && free_at < 0)
			free_at = i;
	}
	if (d > 0 && free_at >= 0) {
		streams[free_at].s = s;
		streams[free_at].busy = d;
	}
}

const char *ncclGetErrorString(ncclResult_t r)
{
	return r == ncclSuccess ? "no error" : "fake NCCL error";
}

struct clique *fake_clique_new(int n)
{
	struct clique *c = calloc(1, sizeof(*c));

	if (c) {
		c->n = n;
		c->refs = n;
	}
	return c;
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int n, const int *devs)
{
	struct clique *c;
	int i;

	(void)devs;
	if (n < 1 || n > MAX_RANKS)
		return ncclInvalidArgument;
	c = fake_clique_new(n);
	for (i = 0; c && i < n; i++) {
		comms[i] = calloc(1, sizeof(*comms[i]));
		if (!comms[i])
			return ncclSystemError;
		*comms[i] = (struct ncclComm){ c, i, 1, 0 };
	}
	return c ? ncclSuccess : ncclSystemError;
}

/* A part leaves: its stream no longer busy, its move to another process cancelled. */
static void drop(struct part *p)
{
	if (p->req)
		procs_cancel(p);
	if (!p->remote)
		busy(p->stream, -1);
	free(p->own);
	free(p);
}

/* Drops the rank's parts (their streams no longer busy) and its reference. */
static ncclResult_t release(ncclComm_t comm)
{
	struct clique *c;
	struct part **at, *p;

	if (!comm)
		return ncclSuccess;
	pthread_mutex_lock(&fake_nccl_lock);
	c = comm->c;
	for (at = c ? &c->parts : NULL; at && *at;) {
		p = *at;
		if (p->rank == comm->rank && !p->remote) {
			*at = p->next;
			drop(p);
		} else {
			at = &p->next;
		}
	}
	if (c && --c->refs == 0) {
		while (c->parts) {
			p = c->parts;
			c->parts = p->next;
			drop(p);
		}
		procs_drop(c);
		free(c);
	}
	pthread_mutex_unlock(&fake_nccl_lock);
	free(comm);
	return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
	return release(comm);
}

ncclResult_t ncclCommAbort(ncclComm_t comm)
{
	return release(comm);
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *err)
{
	pthread_mutex_lock(&fake_nccl_lock);
	procs_progress();
	*err = comm->ready ? ncclSuccess : ncclInProgress;
	pthread_mutex_unlock(&fake_nccl_lock);
	return ncclSuccess;
}

static float half_to_float(uint16_t h, int bf)
{
	uint32_t b, e, m;
	float f;

	if (bf) {
		b = (uint32_t)h << 16;
		memcpy(&f, &b, 4);
		return f;
	}
	e = (h >> 10) & 31;
	m = h & 1023;
	if (e == 31)
		f = m ? NAN : INFINITY;
	else if (e)
		f = ldexpf((float)(m | 1024), (int)e - 25);
	else
		f = ldexpf((float)m, -24);
	return h & 0x8000 ? -f : f;
}

static uint16_t float_to_half(float f, int bf)
{
	uint16_t s = signbit(f) ? 0x8000 : 0;
	float a = fabsf(f), r;
	uint32_t b;
	int e;

	if (bf) {
		memcpy(&b, &f, 4);
		if (isnan(f))
			return (uint16_t)((b >> 16) | 0x40);
		b += 0x7fff + ((b >> 16) & 1);
		return (uint16_t)(b >> 16);
	}
	if (isnan(f))
		return 0x7e00;
	if (a >= 65520.0f)
		return s | 0x7c00;
	if (a < ldexpf(1, -14))		/* subnormal: units of 2^-24, to nearest even */
		return s | (uint16_t)nearbyintf(ldexpf(a, 24));
	frexpf(a, &e);
	r = nearbyintf(ldexpf(a, 11 - e));	/* 11 significant bits */
	if (r >= 2048.0f) {
		r /= 2;
		e++;
	}
	if (e + 14 >= 31)
		return s | 0x7c00;
	return s | (uint16_t)(((e + 14) << 10) | ((uint32_t)r & 1023));
}

static double fold_float(double a, double b, ncclRedOp_t op)
{
	if ((op == ncclMin || op == ncclMax) && (isnan(a) || isnan(b)))
		return isnan(a) ? a : b;	/* NaN wins, as REDUCE's */
	switch (op) {
	case ncclSum: return a + b;
	case ncclProd: return a * b;
	case ncclMin: return a < b ? a : b;
	default: return a > b ? a : b;
	}
}

#define INT_CASE(tag, T)							\
	case tag: {								\
		T *d = dst, s = ((const T *)src)[i];				\
		d[i] = op == ncclSum ? (T)((uint64_t)d[i] + (uint64_t)s) :	\
		       op == ncclProd ? (T)((uint64_t)d[i] * (uint64_t)s) :	\
		       op == ncclMin ? (d[i] < s ? d[i] : s) : (d[i] > s ? d[i] : s); \
		break;								\
	}

/* dst[i] = dst[i] op src[i], @n elements of @t; 16-bit floats rounded at each step. */
static void fold(void *dst, const void *src, size_t n, ncclDataType_t t, ncclRedOp_t op)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (t) {
		case ncclFloat32:
			((float *)dst)[i] = (float)fold_float(((float *)dst)[i],
							      ((const float *)src)[i], op);
			break;
		case ncclFloat64:
			((double *)dst)[i] = fold_float(((double *)dst)[i],
							((const double *)src)[i], op);
			break;
		case ncclFloat16:
		case ncclBfloat16: {
			int bf = t == ncclBfloat16;
			float v = (float)fold_float(half_to_float(((uint16_t *)dst)[i], bf),
						    half_to_float(((const uint16_t *)src)[i], bf),
						    op);

			((uint16_t *)dst)[i] = float_to_half(v, bf);
			break;
		}
		INT_CASE(ncclInt8, int8_t)
		INT_CASE(ncclUint8, uint8_t)
		INT_CASE(ncclInt32, int32_t)
		INT_CASE(ncclUint32, uint32_t)
		INT_CASE(ncclInt64, int64_t)
		INT_CASE(ncclUint64, uint64_t)
		default:
			break;
		}
	}
}

size_t fake_type_size(ncclDataType_t t)
{
	switch (t) {
	case ncclInt8: case ncclUint8: return 1;
	case ncclFloat16: case ncclBfloat16: return 2;
	case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
	default: return 8;
	}
}

/* Rank @p's result of collective @ps (every rank's part, by rank) into @out. */
static void compute(struct part **ps, int n, const struct part *p, void *out)
{
	size_t es = fake_type_size(p->t), bytes = p->count * es, off = 0;
	int k;

	switch (p->kind) {
	case K_GATHER:
		for (k = 0; k < n; k++)
			memcpy((char *)out + (size_t)k * bytes, ps[k]->send, bytes);
		return;
	case K_BCAST:
		memcpy(out, ps[p->root]->send, bytes);
		return;
	case K_SCATTER:
		off = (size_t)p->rank * bytes;
		/* fall through */
	default:
		memcpy(out, (const char *)ps[0]->send + off, bytes);
		for (k = 1; k < n; k++)
			fold(out, (const char *)ps[k]->send + off, p->count, p->t, p->op);
	}
}

static size_t out_bytes(const struct part *p, int n)
{
	return p->count * fake_type_size(p->t) * (p->kind == K_GATHER ? (size_t)n : 1);
}

/* Rank @k's place among the ranks of its color (by key, then rank). */
static int place_of(struct part **ps, int n, int k)
{
	int j, place = 0;

	for (j = 0; j < n; j++)
		if (ps[j]->color == ps[k]->color &&
		    (ps[j]->key < ps[k]->key || (ps[j]->key == ps[k]->key && j < k)))
			place++;
	return place;
}

/*
 * Every rank's part of split round @seq of @parent done: the new
 * communicators of the ranks here made, one clique a color (across
 * processes: owned where the parent's ranks are, tagged alike
 * everywhere).
 */
static void split_all(struct clique *parent, struct part **ps, uint64_t seq)
{
	int n = parent->n, i, k, m;

	for (i = 0; i < n; i++) {
		struct clique *c;

		if (ps[i]->remote || (*ps[i]->newcomm)->c)
			continue;
		for (k = 0, m = 0; k < n; k++)
			m += ps[k]->color == ps[i]->color;
		c = fake_clique_new(m);
		if (!c)
			return;
		c->refs = 0;
		c->me = parent->me;
		if (parent->tag)
			procs_split(c, parent, seq, ps[i]->color);
		for (k = 0; k < n; k++) {
			int place = place_of(ps, n, k);
			ncclComm_t nc;

			if (ps[k]->color != ps[i]->color)
				continue;
			c->owner[place] = parent->owner[k];
			if (ps[k]->remote)
				continue;
			nc = *ps[k]->newcomm;
			nc->c = c;
			nc->rank = place;
			nc->ready = 1;
			c->refs++;
		}
	}
}

/* Removes @p from its clique's list and frees it, its stream done. */
void fake_retire(struct clique *c, struct part *p)
{
	struct part **at;

	for (at = &c->parts; *at; at = &(*at)->next)
		if (*at == p) {
			*at = p->next;
			break;
		}
	drop(p);
}

/* A collective round whose parts are all here: performed for every rank. */
ncclResult_t fake_complete(struct clique *c, uint64_t seq)
{
	struct part *ps[MAX_RANKS] = { NULL }, *p;
	void *tmp[MAX_RANKS] = { NULL };
	int k, have = 0;

	for (p = c->parts; p; p = p->next)
		if (p->kind != K_SEND && p->kind != K_RECV && p->seq == seq)
			ps[p->rank] = p, have++;
	if (have < c->n)
		return ncclSuccess;
	if (ps[0]->kind == K_SPLIT) {
		split_all(c, ps, seq);
	} else {	/* the results of the ranks here */
		for (k = 0; k < c->n; k++) {
			if (ps[k]->remote)
				continue;
			tmp[k] = malloc(out_bytes(ps[k], c->n) + 1);
			if (!tmp[k])
				return ncclSystemError;
			compute(ps, c->n, ps[k], tmp[k]);
		}
		for (k = 0; k < c->n; k++) {
			if (ps[k]->remote)
				continue;
			memcpy(ps[k]->recv, tmp[k], out_bytes(ps[k], c->n));
			free(tmp[k]);
		}
	}
	for (k = 0; k < c->n; k++)
		fake_retire(c, ps[k]);
	return ncclSuccess;
}

/* A receive and the first send to it, once both are here: the bytes copied. */
static void match(struct clique *c)
{
	struct part *r, *s;

	for (r = c->parts; r; r = r->next) {
		if (r->kind != K_RECV)
			continue;
		for (s = c->parts; s; s = s->next)
			if (s->kind == K_SEND && s->rank == r->peer && s->peer == r->rank)
				break;
		if (!s)
			continue;
		memcpy(r->recv, s->send, s->count < r->count ? s->count : r->count);
		fake_retire(c, s);
		fake_retire(c, r);
		match(c);
		return;
	}
}

static ncclResult_t enqueue(ncclComm_t comm, struct part *p)
{
	struct clique *c = comm->c;
	struct part **tail;
	ncclResult_t r = ncclSuccess;

	if (!p)
		return ncclSystemError;
	pthread_mutex_lock(&fake_nccl_lock);
	p->rank = comm->rank;
	if (p->kind != K_SEND && p->kind != K_RECV)
		p->seq = comm->seq++;
	for (tail = &c->parts; *tail; tail = &(*tail)->next)
		;
	*tail = p;
	busy(p->stream, 1);
	if (p->kind == K_SEND || p->kind == K_RECV) {	/* p may be gone after */
		if (!procs_post(c, p))
			match(c);
	} else {
		uint64_t seq = p->seq;

		r = procs_send_round(c, seq);
		if (r == ncclSuccess)
			r = fake_complete(c, seq);
	}
	pthread_mutex_unlock(&fake_nccl_lock);
	return r;
}

static struct part *part(enum kind k, const void *send, void *recv, size_t count,
			 ncclDataType_t t, ncclRedOp_t op, cudaStream_t s)
{
	struct part *p = calloc(1, sizeof(*p));

	if (p)
		*p = (struct part){ .kind = k, .send = send, .recv = recv, .count = count, .t = t,
				    .op = op, .stream = s };
	return p;
}

ncclResult_t ncclAllReduce(const void *send, void *recv, size_t count, ncclDataType_t t,
			   ncclRedOp_t op, ncclComm_t comm, cudaStream_t s)
{
	return enqueue(comm, part(K_REDUCE, send, recv, count, t, op, s));
}

ncclResult_t ncclReduceScatter(const void *send, void *recv, size_t count, ncclDataType_t t,
			       ncclRedOp_t op, ncclComm_t comm, cudaStream_t s)
{
	return enqueue(comm, part(K_SCATTER, send, recv, count, t, op, s));
}

ncclResult_t ncclAllGather(const void *send, void *recv, size_t count, ncclDataType_t t,
			   ncclComm_t comm, cudaStream_t s)
{
	return enqueue(comm, part(K_GATHER, send, recv, count, t, ncclSum, s));
}

ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count, ncclDataType_t t,
			   int root, ncclComm_t comm, cudaStream_t s)
{
	struct part *p = part(K_BCAST, send, recv, count, t, ncclSum, s);

	if (p)
		p->root = root;
	return enqueue(comm, p);
}

ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *newcomm,
			   ncclConfig_t *config)
{
	struct part *p = part(K_SPLIT, NULL, NULL, 0, ncclUint8, ncclSum, NULL);
	int ready;

	(void)config;
	*newcomm = calloc(1, sizeof(**newcomm));
	if (!*newcomm || !p) {
		free(p);
		return ncclSystemError;
	}
	p->color = color;
	p->key = key;
	p->newcomm = newcomm;
	enqueue(comm, p);
	pthread_mutex_lock(&fake_nccl_lock);
	ready = (*newcomm)->ready;
	pthread_mutex_unlock(&fake_nccl_lock);
	return ready ? ncclSuccess : ncclInProgress;
}

ncclResult_t ncclSend(const void *buf, size_t count, ncclDataType_t t, int peer,
		      ncclComm_t comm, cudaStream_t s)
{
	struct part *p = part(K_SEND, buf, NULL, count * fake_type_size(t), ncclUint8, ncclSum, s);

	if (p)
		p->peer = peer;
	return enqueue(comm, p);
}

ncclResult_t ncclRecv(void *buf, size_t count, ncclDataType_t t, int peer, ncclComm_t comm,
		      cudaStream_t s)
{
	struct part *p = part(K_RECV, NULL, buf, count * fake_type_size(t), ncclUint8, ncclSum, s);

	if (p)
		p->peer = peer;
	return enqueue(comm, p);
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id)
{
	memset(id, 0, sizeof(*id));
	procs_make_id(id);
	return ncclSuccess;
}

static int group_depth;		/* under the lock */

/* A rank of @n in another process's communicator too; joined at the group's end. */
ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int n, ncclUniqueId id, int rank,
				    ncclConfig_t *config)
{
	ncclResult_t r;

	(void)config;
	if (n < 1 || n > MAX_RANKS || rank < 0 || rank >= n)
		return ncclInvalidArgument;
	*comm = calloc(1, sizeof(**comm));
	if (!*comm)
		return ncclSystemError;
	(*comm)->rank = rank;
	pthread_mutex_lock(&fake_nccl_lock);
	r = procs_join(*comm, n, &id, rank);
	if (r == ncclSuccess && !group_depth)
		r = procs_group_end();
	pthread_mutex_unlock(&fake_nccl_lock);
	if (r != ncclSuccess) {
		free(*comm);
		*comm = NULL;
	}
	return r;
}

/* Sends and receives never block here: a group only joins ranks together. */
ncclResult_t ncclGroupStart(void);	/* nccl.h declares them without prototypes */
ncclResult_t ncclGroupEnd(void);

ncclResult_t ncclGroupStart(void)
{
	pthread_mutex_lock(&fake_nccl_lock);
	group_depth++;
	pthread_mutex_unlock(&fake_nccl_lock);
	return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void)
{
	ncclResult_t r = ncclSuccess;

	pthread_mutex_lock(&fake_nccl_lock);
	if (group_depth && --group_depth == 0)
		r = procs_group_end();
	pthread_mutex_unlock(&fake_nccl_lock);
	return r;
}
