/* SPDX-License-Identifier: MIT */
/*
 * The XRT API's insides: allocation trees and the session's handle table.
 *
 * An allocation is a tree of nodes shaped like its shape: a leaf holds an
 * array's device buffer, a tuple node its elements.  Nodes are
 * refcounted and never change shape once made, so sub-tuples and tuples
 * made of other allocations share them: a handle holds one reference on
 * its root.  A session's handles live in an open-addressing table (O(1)
 * lookups) under the session's lock; a lookup takes a node reference
 * before the lock is dropped, so a concurrent release never frees a node
 * in use.
 */
#ifndef XRT_XRT_INTERNAL_H
#define XRT_XRT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include <xrt/xrt.h>

#include "device/device.h"
#include "runtime/cache.h"

struct xnode {
	atomic_uint refs;
	struct xrt_shape shape;		/* the whole node's */
	struct xdev_buf buf;		/* arrays: the device buffer */
	uint64_t bytes;			/* arrays: its size, as accounted */
	struct xrt_event *job;		/* arrays: the asynchronous run writing it */
	struct xnode **kids;		/* tuples: shape.tuple_count elements */
};

enum hkind { HK_ALLOC = 1, HK_COMPILE = 2 };

struct hslot {
	xrt_handle h;			/* 0 empty, -1 deleted */
	enum hkind kind;
	void *obj;			/* struct xnode or struct centry */
};

#define XSTAT_BUCKETS 128	/* quarter powers of two of nanoseconds */

/* One operation kind's counters; updated without the session's lock. */
struct xstat {
	atomic_uint_fast64_t calls, errors, max_ns;
	atomic_uint_fast64_t bucket[XSTAT_BUCKETS];
};

struct xrt_session {
	const struct xrt_allocator *a;
	struct xdev *dev;		/* its name is the session's device */
	pthread_mutex_t lock;		/* the table and the counters */
	struct hslot *tab;
	uint64_t cap, used, live;	/* used: live and deleted slots */
	xrt_handle next;		/* never reused */
	uint64_t memory_limit;
	uint32_t queue_flags;		/* XDEV_QUEUE_* */
	atomic_uint_fast64_t memory_in_use;
	struct xstat stats[XRT_STAT_COUNT];
	pthread_mutex_t run_lock;	/* guards making @queue */
	struct xdev_queue *_Atomic queue;	/* made at the first execution */
};

/* Operation counters (xrt_stats.c): a clock, and a call's outcome. */
uint64_t xstat_now(void);
void xstat_record(xrt_session *s, enum xrt_op_kind op, uint64_t t0, const xrt_status *st);

/*
 * Runs @entry's program on argument nodes (checked against its
 * parameters) with the rng @seed (0: a fresh one); the result node, one
 * reference (xrt_exec.c).  With @event, only starts the run: *@event is
 * its event (a reference), the result's leaves hold it until they are
 * read, and the run holds the entry, the arguments, the result and the
 * cancel flag until it ends.
 */
xrt_status *xexec_nodes(xrt_session *s, struct centry *entry, struct xnode **args,
			uint32_t n, uint64_t seed, const struct xdev_watch *w,
			struct xnode **result, struct xrt_event **event);
/*
 * Workers for the devices of replicated runs (xrt_workers.c): threads
 * kept parked between runs.  xworker_start() hands fn(arg) to one (false
 * when no thread can be had); the latch, made for the runs handed out,
 * falls when every one has returned.
 */
struct xworker_latch {
	pthread_mutex_t lock;
	pthread_cond_t done;
	uint32_t left;
};

void xworker_latch_init(struct xworker_latch *l, uint32_t n);
/* One run fewer to wait for (one that could not be handed out). */
void xworker_latch_down(struct xworker_latch *l);
/* Waits until the latch falls, then frees what it holds. */
void xworker_latch_wait(struct xworker_latch *l);
bool xworker_start(void (*fn)(void *arg), void *arg, struct xworker_latch *l);

/* The longest execution_instance_key of the XRT ops. */
#define XRT_MAX_INSTANCE_KEY 256
/*
 * One device of a replicated execution whose devices are separate calls
 * (the XRT ops' execution_instance_key, xrt_replicated.c): runs device
 * @replica x cores + @core of @compilation in @s, meeting the calls of
 * the same @key at collectives.
 */
xrt_status *xexec_join(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
		       uint32_t n, const struct xrt_execution_config *c, const char *key,
		       uint32_t replica, uint32_t core, xrt_handle *out);
/* xrt_execute() as one device of a replicated run (@peer; NULL: alone). */
xrt_status *xexec_execute_as(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			     uint32_t n, const struct xrt_execution_config *c,
			     const struct xdev_peer *peer, xrt_handle *out);

/* A fresh odd seed for a run whose caller gives none. */
uint64_t xexec_fresh_seed(void);
/* The limits of @c as the devices take them (NULL: none); @w is the storage. */
const struct xdev_watch *xexec_watch(const struct xrt_execution_config *c,
				     struct xdev_watch *w);

/* The session's queue, made at its first use (xrt_session.c). */
xrt_status *xsession_queue(xrt_session *s, struct xdev_queue **out);

/* Events of asynchronous runs (xrt_event.c); each "new" holds one reference. */
xrt_status *xevent_new(const struct xrt_allocator *a, struct xdev *dev, struct xdev_event *ev,
		       struct xrt_event **out);
void xevent_ref(struct xrt_event *e);
void xevent_unref(struct xrt_event *e);
/* As xrt_event_wait(), the error allocated with @a. */
xrt_status *xevent_wait(struct xrt_event *e, int64_t timeout_ns, const struct xrt_allocator *a);
/* Whether the run is known to have failed (nothing waited for). */
bool xevent_failed(struct xrt_event *e);

/* Nodes (xrt_node.c).  Each "new" returns a node holding one reference. */
xrt_status *xnode_from_shape(xrt_session *s, const struct xrt_shape *shape,
			     struct xnode **out);
xrt_status *xnode_from_literal(xrt_session *s, const xrt_literal *lit, struct xnode **out);
/* Like xnode_from_shape, leaving out the buffers of leaves @skip marks (@leaf counts). */
xrt_status *xnode_from_shape_skip(xrt_session *s, const struct xrt_shape *shape,
				  const bool *skip, uint32_t *leaf, struct xnode **out);
/* @n has @refs references and its subtree is shared with nothing. */
bool xnode_exclusive(const struct xnode *n, unsigned refs);
/* @to takes @from's buffer (and its memory charge); @from has none left. */
void xnode_move_buffer(struct xnode *to, struct xnode *from);
/* A tuple of @kids (each gets a reference). */
xrt_status *xnode_tuple(xrt_session *s, struct xnode *const *kids, uint32_t n,
			struct xnode **out);
void xnode_ref(struct xnode *n);
void xnode_unref(xrt_session *s, struct xnode *n);
xrt_status *xnode_to_literal(xrt_session *s, const struct xnode *n, xrt_literal **out);
/*
 * Waits for the runs writing @n's leaves: NULL, or the error of one that
 * failed (then the values are not there).
 */
xrt_status *xnode_settle(xrt_session *s, const struct xnode *n);
/*
 * Copies @lit (a compatible shape) into @n's buffers once no run writes
 * or reads them.
 */
xrt_status *xnode_write(xrt_session *s, struct xnode *n, const xrt_literal *lit);
/* Leaf @n's values from host memory laid out as @ss (relaid when it differs). */
xrt_status *xnode_write_leaf(xrt_session *s, struct xnode *n, const void *src,
		      const struct xrt_shape *ss);

/* Handles (xrt_handles.c), of allocations (nodes) and compilations (entries). */
/* A new handle for @obj of @kind, which it takes over (its one reference). */
xrt_status *xhandle_add(xrt_session *s, enum hkind kind, void *obj, xrt_handle *out);
/* The object of @h with a reference taken, or NOT_FOUND naming @h. */
xrt_status *xhandle_get(xrt_session *s, xrt_handle h, enum hkind kind, void **out);
/* Drops @h from the table; its object (reference and all), or NULL. */
void *xhandle_take(xrt_session *s, xrt_handle h, enum hkind kind);
xrt_status *xhandle_not_found(xrt_session *s, xrt_handle h, enum hkind kind);
/* Releases @n handles of @kind; NOT_FOUND names the first unknown one. */
xrt_status *xhandle_release(xrt_session *s, const xrt_handle *h, uint32_t n, enum hkind kind);
/* Drops a reference on a handle's object of @kind. */
void xhandle_unref(xrt_session *s, enum hkind kind, void *obj);

/* Allocation handles, typed. */
static inline xrt_status *xalloc_add(xrt_session *s, struct xnode *n, xrt_handle *out)
{
	return xhandle_add(s, HK_ALLOC, n, out);
}

static inline xrt_status *xalloc_get(xrt_session *s, xrt_handle h, struct xnode **out)
{
	return xhandle_get(s, h, HK_ALLOC, (void **)out);
}

static inline struct xnode *xalloc_take(xrt_session *s, xrt_handle h)
{
	return xhandle_take(s, h, HK_ALLOC);
}

#endif /* XRT_XRT_INTERNAL_H */
