/* SPDX-License-Identifier: MIT */
/*
 * Communicators: what performs a COLLECTIVE among the devices of a
 * replicated execution (struct xdev_comm, device/device.h).  The
 * in-process one serves devices whose runs are threads of this process
 * (host devices): the arrays are read where they lie, never copied to
 * be shared.
 */
#ifndef XRT_COLLECTIVE_COLLECTIVE_H
#define XRT_COLLECTIVE_COLLECTIVE_H

#include <stdbool.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

#include "device/device.h"

/*
 * An in-process communicator for @n devices, for one execution: every
 * device's run calls finish once it ends.  Freed by xcoll_local_destroy()
 * once no run uses it.
 */
xrt_status *xcoll_local_create(uint32_t n, const struct xrt_allocator *a, struct xdev_comm **out);
void xcoll_local_destroy(struct xdev_comm *c);

/* Processes started apart, joined through a coordinator (Open MPI's ompi-server). */
struct xcoll_join {
	const char *coordinator;	/* its URI, or file:PATH holding it */
	uint32_t rank, size;
};

/*
 * The process group (MPI's world, or with @j the processes joined
 * through its coordinator; through the MPI plugin libxrt-mpi.so, loaded
 * by the first call): gives this process's @rank and the group's @size;
 * a second init gives them again.
 */
xrt_status *xcoll_mpi_init(const struct xcoll_join *j, uint32_t *rank, uint32_t *size);
/* Whether the group is up; its @rank and @size (0 and 1 when not; either may be NULL). */
bool xcoll_mpi_up(uint32_t *rank, uint32_t *size);
/* Ends the group (MPI_Finalize); a broken one aborts the job instead. */
xrt_status *xcoll_mpi_shutdown(void);
/* Ends every process of the group with @status; outside one, returns. */
void xcoll_mpi_abort(int status);
/* NULL, or why the group is broken and distributes no more. */
xrt_status *xcoll_mpi_check(void);
/* Distributed runs of this process, one at a time: every process meets them in one order. */
void xcoll_mpi_lock(void);
void xcoll_mpi_unlock(void);
/*
 * Every process's @bytes at @mine joined in rank order into @all, polled
 * against @w (NULL: no limit); @where names the step in messages.
 */
xrt_status *xcoll_mpi_exchange(const void *mine, uint32_t bytes, void *all,
			       const struct xdev_watch *w, const char *where);

/*
 * @st, a run's failure outside MPI (a device's own communicator), with
 * the ranks on this host whose process is gone named after its message;
 * a wait given up there (DEADLINE_EXCEEDED, CANCELLED) breaks the group,
 * as one in MPI does: the other processes may still wait in it.
 */
xrt_status *xcoll_mpi_lost(xrt_status *st);

struct xrt_executable;
/*
 * A communicator for a run of @n devices spread over the group: device d
 * runs in the process of rank @rank_of[d] as global device @gid[d]; this
 * process's devices meet here, and the others over MPI.  Every process
 * calls it at the run's start: each group's communicator is made then,
 * by its processes together.  Freed through its ops' destroy.
 */
xrt_status *xcoll_mpi_create(uint32_t n, const uint32_t *rank_of, const uint32_t *gid,
			     const struct xrt_executable *exe, const struct xrt_allocator *a,
			     struct xdev_comm **out);

/*
 * Folds @n elements of @src into @dst with reduction @op (XRT_CS_RED_SUM
 * to OR) of element type @dtype, as the engine's REDUCE combines two
 * elements: dst[i] = op(dst[i], src[i]).
 */
void xcoll_fold(void *dst, const void *src, uint64_t n, uint32_t dtype, uint32_t op);

#endif /* XRT_COLLECTIVE_COLLECTIVE_H */
