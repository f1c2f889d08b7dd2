// SPDX-License-Identifier: MIT
/*
 * The process group of the public API (xrt_distributed_init() and its
 * kin): the launcher's, joined through MPI (libxrt/collective/).
 */
#include <stdlib.h>

#include "collective/collective.h"
#include "xrt_internal.h"

xrt_status *xrt_distributed_init(const struct xrt_distributed_options *o)
{
	uint32_t rank, size;
	xrt_status *st;

	struct xcoll_join j = { o ? o->coordinator : NULL, 0, 0 };

	if (o && (o->rank < -1 || o->size < 0))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "distributed init: rank %d, "
				      "size %d", o->rank, o->size);
	if (j.coordinator && (o->rank < 0 || o->size < 1 || o->rank >= o->size))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "distributed init: a "
				      "coordinator needs this process's rank and the size: rank "
				      "%d of %d", o->rank, o->size);
	if (j.coordinator && xrt_distributed_launched())
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "distributed init: a "
				      "coordinator for processes a launcher started: leave it "
				      "to the launcher");
	j.rank = o ? (uint32_t)o->rank : 0;
	j.size = o ? (uint32_t)o->size : 0;
	st = xcoll_mpi_init(j.coordinator ? &j : NULL, &rank, &size);
	if (st)
		return xrt_status_annotate(st, "distributed init");
	if (o && ((o->rank >= 0 && (uint32_t)o->rank != rank) ||
		  (o->size > 0 && (uint32_t)o->size != size)))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "distributed init: rank %d of "
				      "%d asked, the launcher made this process rank %u of %u",
				      o->rank, o->size, rank, size);
	return NULL;
}

bool xrt_distributed_rank(uint32_t *rank, uint32_t *size)
{
	return xcoll_mpi_up(rank, size);
}

bool xrt_distributed_launched(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE",
					    "SLURM_NTASKS", "MPI_LOCALNRANKS" };
	size_t k;

	for (k = 0; k < sizeof(vars) / sizeof(vars[0]); k++) {
		const char *v = getenv(vars[k]);

		if (v && atol(v) > 1)
			return true;
	}
	return false;
}

xrt_status *xrt_distributed_shutdown(void)
{
	return xcoll_mpi_shutdown();
}

void xrt_distributed_abort(int status)
{
	xcoll_mpi_abort(status);
}

bool xrt_distributed_broken(void)
{
	xrt_status *st = xcoll_mpi_check();

	xrt_status_free(st);
	return st != NULL;
}
