/* SPDX-License-Identifier: MIT */
/*
 * A replicated execution's parts, shared by the run in one process
 * (xrt_replicated.c) and the run spread over a process group
 * (xrt_spread.c).
 */
#ifndef XRT_XRT_REPLICATED_H
#define XRT_XRT_REPLICATED_H

#include "xrt_internal.h"

/* One device's part of the run. */
struct part {
	uint32_t slot;		/* its entry in the call's arrays; s: NULL if not here */
	xrt_session *s;
	struct centry *e;
	struct xnode **args;
	struct xnode *result;
	uint32_t num_args;
	struct xdev_watch w;
	struct xdev_peer peer;
	uint64_t seed;
	xrt_status *st;
};

struct replicated {
	xrt_session *const *sessions;
	const xrt_handle *compilations, *args;
	uint32_t num_args, devices, partitions;
	const struct xrt_replicated_config *c;
	const struct xrt_allocator *a;
	struct part *parts;
	struct xdev_comm *comm;
};

/* @st with device @d's name in front. */
xrt_status *xrep_named(const struct replicated *r, uint32_t d, xrt_status *st);
/* @p's compilation and arguments, from entry p->slot of the call's arrays, in p->s. */
xrt_status *xrep_gather(struct replicated *r, struct part *p, uint32_t replicas);
/* Every device here in a thread of its own; their results or errors in their parts. */
void xrep_run_all(struct replicated *r, uint64_t seed);
/* The error of the device here that failed of itself, named; NULL if none failed. */
xrt_status *xrep_first_error(struct replicated *r);
/* The results as handles, out[p->slot]; on failure none stays. */
xrt_status *xrep_results(struct replicated *r, xrt_handle *out);
/* What a successful run releases, as the config says. */
void xrep_release(struct replicated *r);
void xrep_free_parts(struct replicated *r);

/* A run spread over the process group (xrt_spread.c). */
xrt_status *xrep_spread(xrt_session *const *sessions, uint32_t num_sessions,
			const xrt_handle *compilations, const xrt_handle *args, uint32_t num_args,
			const struct xrt_replicated_config *c, xrt_handle *out);

#endif /* XRT_XRT_REPLICATED_H */
