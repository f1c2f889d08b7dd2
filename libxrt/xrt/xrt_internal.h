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

struct xnode {
	atomic_uint refs;
	struct xrt_shape shape;		/* the whole node's */
	uint8_t *data;			/* arrays: the device buffer */
	uint64_t bytes;			/* arrays: its size, as accounted */
	struct xnode **kids;		/* tuples: shape.tuple_count elements */
};

struct hslot {
	xrt_handle h;			/* 0 empty, -1 deleted */
	struct xnode *node;
};

struct xrt_session {
	const struct xrt_allocator *a;
	char device[32];
	pthread_mutex_t lock;		/* the table and the counters */
	struct hslot *tab;
	uint64_t cap, used, live;	/* used: live and deleted slots */
	xrt_handle next;		/* never reused */
	uint64_t memory_limit;
	atomic_uint_fast64_t memory_in_use;
};

/* Nodes (xrt_node.c).  Each "new" returns a node holding one reference. */
xrt_status *xnode_from_shape(xrt_session *s, const struct xrt_shape *shape,
			     struct xnode **out);
xrt_status *xnode_from_literal(xrt_session *s, const xrt_literal *lit, struct xnode **out);
/* A tuple of @kids (each gets a reference). */
xrt_status *xnode_tuple(xrt_session *s, struct xnode *const *kids, uint32_t n,
			struct xnode **out);
void xnode_ref(struct xnode *n);
void xnode_unref(xrt_session *s, struct xnode *n);
xrt_status *xnode_to_literal(xrt_session *s, const struct xnode *n, xrt_literal **out);
/* Copies @lit (a compatible shape) into @n's buffers. */
void xnode_write(struct xnode *n, const xrt_literal *lit);

/* Handles (xrt_handles.c). */
/* A new handle for @node, which it takes over (its one reference). */
xrt_status *xhandle_add(xrt_session *s, struct xnode *node, xrt_handle *out);
/* The node of @h with a reference taken, or NOT_FOUND naming @h. */
xrt_status *xhandle_get(xrt_session *s, xrt_handle h, struct xnode **out);
/* Drops @h from the table; its node (reference and all), or NULL. */
struct xnode *xhandle_take(xrt_session *s, xrt_handle h);
xrt_status *xhandle_not_found(xrt_session *s, xrt_handle h);

#endif /* XRT_XRT_INTERNAL_H */
