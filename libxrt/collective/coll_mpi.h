/* SPDX-License-Identifier: MIT */
/*
 * The process group's parts the MPI communicator uses (coll_mpi_world.c).
 */
#ifndef XRT_COLLECTIVE_MPI_H
#define XRT_COLLECTIVE_MPI_H

#include "device/device.h"
#include "xmpi.h"

const struct xmpi_ops *xcoll_mpi_ops(void);
uint32_t xcoll_mpi_rank(void);

/*
 * Polls @req until it completes, or until @w's deadline or cancellation
 * or an MPI error, which break the group (naming the ranks of @ranks,
 * @n, on this host whose process is gone).
 */
xrt_status *xcoll_mpi_wait(void *req, const struct xdev_watch *w, const char *where,
			   const uint32_t *ranks, uint32_t n);

/*
 * Whether a wait under @w has nothing to poll for (no deadline, no
 * cancel flag): MPI's blocking collectives then do, faster.
 */
static inline bool xcoll_mpi_unbounded(const struct xdev_watch *w)
{
	return !w || (!w->deadline_ns && !w->cancel);
}

/* An MPI error of a blocking call at @where: the group broken, the status. */
xrt_status *xcoll_mpi_failed(const char *where, int rc);

/* The group is broken, for @why; every later distributed call fails. */
void xcoll_mpi_break(const char *why);

/*
 * The communicator of the group of global devices @gids (@n), among
 * world ranks @ranks (@num_ranks, the order of their first members), made
 * by those ranks on first use and kept until shutdown.
 */
xrt_status *xcoll_mpi_group(const uint32_t *gids, uint32_t n, const int *ranks,
			    uint32_t num_ranks, void **comm);

#endif /* XRT_COLLECTIVE_MPI_H */
