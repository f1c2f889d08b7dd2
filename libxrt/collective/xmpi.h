/* SPDX-License-Identifier: MIT */
/*
 * The MPI plugin's interface: libxrt-mpi.so, built against the MPI the
 * system has (OpenMPI), is loaded with dlopen by the first call that
 * distributes (coll_mpi_world.c), so that a program that never does
 * needs no MPI.  The plugin is a thin layer over MPI calls, written
 * against mpi.h and nothing of libxrt but this header: every choice is
 * libxrt's.
 *
 * Calls return 0 or an MPI error code, which error_string() words.
 * Requests are polled with test(), never waited on, so that a caller
 * can give up at its deadline.
 */
#ifndef XRT_COLLECTIVE_XMPI_H
#define XRT_COLLECTIVE_XMPI_H

#include <stddef.h>
#include <stdint.h>

#define XMPI_ABI 4

/* Element types MPI reduces natively; XMPI_T_OTHER goes through host.fold. */
enum xmpi_type {
	XMPI_T_OTHER, XMPI_T_F32, XMPI_T_F64,
	XMPI_T_U8, XMPI_T_U16, XMPI_T_U32, XMPI_T_U64,
	XMPI_T_S8, XMPI_T_S16, XMPI_T_S32, XMPI_T_S64,
};

enum xmpi_op { XMPI_SUM, XMPI_PROD, XMPI_MIN, XMPI_MAX, XMPI_BAND, XMPI_BOR };

/* What libxrt lends the plugin. */
struct xmpi_host {
	uint32_t abi;
	/*
	 * dst[i] = op(dst[i], src[i]) for @n elements of libxrt's type
	 * @dtype and reduction @op: the reductions MPI cannot do itself.
	 */
	void (*fold)(void *dst, const void *src, uint64_t n, uint32_t dtype, uint32_t op);
};

/* An element type for iallreduce: a native one, or (OTHER) libxrt's fold. */
struct xmpi_elem {
	enum xmpi_type type;
	enum xmpi_op op;	/* for a native type */
	uint32_t size;		/* bytes, for OTHER */
	uint32_t dtype, fold_op;	/* for OTHER: as host.fold takes them */
};

struct xmpi_ops {
	uint32_t abi;
	/*
	 * Initializes MPI (thread level MULTIPLE) unless the program did;
	 * gives the world's @rank and @size, and the thread level it has.
	 */
	int (*init)(int *rank, int *size, int *thread_level);
	/*
	 * Instead of init, for processes started apart: MPI started in each,
	 * joined through Open MPI's ompi-server at @server (its URI, or
	 * file:PATH) under the name @service, the group ordered by @rank.
	 */
	int (*join)(const char *server, const char *service, int rank, int size,
		    int *thread_level);
	int (*finalize)(void);
	void (*abort)(int code);
	/* A duplicate of the world, errors returned, not fatal. */
	int (*world)(void **comm);
	/* The communicator of world ranks @ranks (@n, in order), made by them only. */
	int (*create)(const int *ranks, int n, int tag, void **comm);
	void (*free_comm)(void *comm);
	/* @n elements; @in == @out: in place.  @n at most INT32_MAX. */
	int (*iallreduce)(void *comm, const void *in, void *out, uint64_t n,
			  const struct xmpi_elem *e, void **req);
	/*
	 * Rank r's @counts[r] blocks of @block bytes each, joined in rank
	 * order into @out; this rank sends @in.  @block and every count's
	 * total at most INT32_MAX.
	 */
	int (*iallgatherv)(void *comm, const void *in, void *out, uint64_t block,
			   const uint32_t *counts, void **req);
	/*
	 * The same, returning once done: for a caller with no deadline or
	 * cancellation to poll for, where MPI's blocking collectives choose
	 * faster algorithms than the non-blocking ones.
	 */
	int (*allreduce)(void *comm, const void *in, void *out, uint64_t n,
			 const struct xmpi_elem *e);
	int (*allgatherv)(void *comm, const void *in, void *out, uint64_t block,
			  const uint32_t *counts);
	/* *@done once @req completed, then freed. */
	int (*test)(void *req, int *done);
	/* Frees @req without waiting: for a request abandoned with its job. */
	void (*forget)(void *req);
	void (*error_string)(int code, char *buf, size_t size);
	void (*processor_name)(char *buf, size_t size);
};

/* The plugin's one symbol. */
typedef const struct xmpi_ops *(*xmpi_plugin_fn)(const struct xmpi_host *host);
#define XMPI_PLUGIN_SYMBOL "xrt_mpi_plugin"
const struct xmpi_ops *xrt_mpi_plugin(const struct xmpi_host *host);

#endif /* XRT_COLLECTIVE_XMPI_H */
