// SPDX-License-Identifier: MIT
/*
 * libxrt-mpi.so: the MPI calls libxrt makes across processes, compiled
 * against the system's mpi.h and linked with its libmpi, loaded only by
 * a program that distributes (xmpi.h says why).  Reductions MPI has
 * natively for the type use MPI's own operation; the others (16- and
 * 8-bit floats, NaN-winning min and max, pred) use one user-defined
 * operation calling libxrt's fold, the element type and reduction
 * riding on the MPI datatype as an attribute.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "xmpi.h"

static struct xmpi_host host;
static int initialized_here;
/* The processes' communicator: MPI's world, or the one a coordinator joined. */
static MPI_Comm group_comm = MPI_COMM_NULL;

/* The non-native element types met so far, each an MPI datatype carrying itself. */
#define MAX_OTHERS 256
struct other {
	uint32_t dtype, op, size;
	MPI_Datatype type;
};
static struct other others[MAX_OTHERS];
static int num_others;
static int other_key = MPI_KEYVAL_INVALID;
static MPI_Op fold_op = MPI_OP_NULL;
static pthread_mutex_t others_lock = PTHREAD_MUTEX_INITIALIZER;

/* A request with what MPI reads until it completes. */
struct req {
	MPI_Request r;
	int *counts, *displs;
};

static void fold_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
	struct other *o = NULL;
	int found = 0;

	MPI_Type_get_attr(*type, other_key, &o, &found);
	if (found && o)
		host.fold(inout, in, (uint64_t)*len, o->dtype, o->op);
}

/* MPI started (thread level MULTIPLE) unless the program did. */
static int start_mpi(int *level)
{
	int inited = 0, rc;

	MPI_Initialized(&inited);
	if (inited)
		return MPI_Query_thread(level);
	rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, level);
	initialized_here = !rc;
	return rc;
}

/* The group's communicator set: this process's rank and the size; the fold's type key. */
static int finish_init(int *rank, int *size)
{
	int rc = MPI_Comm_set_errhandler(group_comm, MPI_ERRORS_RETURN);

	if (!rc)
		rc = MPI_Comm_rank(group_comm, rank);
	if (!rc)
		rc = MPI_Comm_size(group_comm, size);
	if (!rc && other_key == MPI_KEYVAL_INVALID)
		rc = MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN,
					    &other_key, NULL);
	if (!rc && fold_op == MPI_OP_NULL)
		rc = MPI_Op_create(fold_fn, 1, &fold_op);
	return rc;
}

static int init(int *rank, int *size, int *level)
{
	int rc = start_mpi(level);

	group_comm = MPI_COMM_WORLD;
	return rc ? rc : finish_init(rank, size);
}

/*
 * Until @group holds @size processes: each one more accepted at the port
 * (which only the group's first process, its root, reads) and merged.
 */
static int grow(MPI_Comm *group, const char *port, int size)
{
	MPI_Comm inter, merged;
	int n = 0, rc = MPI_Comm_size(*group, &n);

	while (!rc && n < size) {
		rc = MPI_Comm_accept(port, MPI_INFO_NULL, 0, *group, &inter);
		if (rc)
			break;
		rc = MPI_Intercomm_merge(inter, 0, &merged);
		MPI_Comm_free(&inter);
		if (rc)
			break;
		if (*group != MPI_COMM_SELF)
			MPI_Comm_free(group);
		*group = merged;
		n++;
	}
	return rc;
}

/* Rank 0 of a joined group: the port opened and published, every other process taken in. */
static int host_join(const char *service, int size, MPI_Comm *group)
{
	char port[MPI_MAX_PORT_NAME];
	int rc = MPI_Open_port(MPI_INFO_NULL, port);

	if (rc)
		return rc;
	rc = MPI_Publish_name(service, MPI_INFO_NULL, port);
	if (!rc) {
		rc = grow(group, port, size);
		MPI_Unpublish_name(service, MPI_INFO_NULL, port);
	}
	MPI_Close_port(port);
	return rc;
}

/* Another rank: rank 0's port looked up (for a while), connected to, then the rest taken in. */
static int guest_join(const char *service, int size, MPI_Comm *group)
{
	char port[MPI_MAX_PORT_NAME] = "";
	MPI_Comm inter;
	int tries, rc = 1;

	for (tries = 0; rc && tries < 6000; tries++) {	/* a minute */
		rc = MPI_Lookup_name(service, MPI_INFO_NULL, port);
		if (rc)
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	if (!rc)
		rc = MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter);
	if (rc)
		return rc;
	rc = MPI_Intercomm_merge(inter, 1, group);
	MPI_Comm_free(&inter);
	return rc ? rc : grow(group, "", size);
}

/*
 * Processes started apart, each its own MPI world, joined through Open
 * MPI's ompi-server at @server (its URI, or file:PATH of it): rank 0
 * publishes a port under @service, the others look it up and connect,
 * and the group, grown one process at a time, is ordered by @rank.
 */
static int join(const char *server, const char *service, int rank, int size, int *level)
{
	MPI_Comm joined = MPI_COMM_SELF;
	int rc;

	/* Open MPI reads its ompi-server's address from here when it starts */
	if (setenv("OMPI_MCA_pmix_server_uri", server, 1))
		return MPI_ERR_OTHER;
	rc = start_mpi(level);
	if (!rc)
		rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (!rc)
		rc = MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	if (!rc && size > 1)
		rc = rank ? guest_join(service, size, &joined) : host_join(service, size, &joined);
	if (!rc)
		rc = MPI_Comm_split(joined, 0, rank, &group_comm);
	if (joined != MPI_COMM_SELF)
		MPI_Comm_free(&joined);
	return rc ? rc : finish_init(&rank, &size);
}

static int finalize(void)
{
	int i;

	for (i = 0; i < num_others; i++)
		MPI_Type_free(&others[i].type);
	num_others = 0;
	if (fold_op != MPI_OP_NULL)
		MPI_Op_free(&fold_op);
	if (other_key != MPI_KEYVAL_INVALID)
		MPI_Type_free_keyval(&other_key);
	if (group_comm != MPI_COMM_WORLD && group_comm != MPI_COMM_NULL)
		MPI_Comm_free(&group_comm);
	group_comm = MPI_COMM_NULL;
	return initialized_here ? MPI_Finalize() : 0;
}

static void abort_job(int code)
{
	MPI_Abort(group_comm != MPI_COMM_NULL ? group_comm : MPI_COMM_WORLD, code);
}

/* A communicator made (@rc 0) with its errors returned, in *@comm; else @c freed. */
static int keep(MPI_Comm *c, int rc, void **comm)
{
	if (!rc)
		rc = MPI_Comm_set_errhandler(*c, MPI_ERRORS_RETURN);
	if (rc) {
		free(c);
		return rc;
	}
	*comm = c;
	return 0;
}

static int world(void **comm)
{
	MPI_Comm *c = malloc(sizeof(*c));

	if (!c)
		return MPI_ERR_NO_MEM;
	return keep(c, MPI_Comm_dup(group_comm, c), comm);
}

static int create(const int *ranks, int n, int tag, void **comm)
{
	MPI_Group all, some;
	MPI_Comm *c = malloc(sizeof(*c));
	int rc;

	if (!c)
		return MPI_ERR_NO_MEM;
	rc = MPI_Comm_group(group_comm, &all);
	if (rc) {
		free(c);
		return rc;
	}
	rc = MPI_Group_incl(all, n, ranks, &some);
	if (!rc) {
		rc = MPI_Comm_create_group(group_comm, some, tag, c);
		MPI_Group_free(&some);
	}
	MPI_Group_free(&all);
	return keep(c, rc, comm);
}

static void free_comm(void *comm)
{
	MPI_Comm *c = comm;

	if (c) {
		MPI_Comm_free(c);
		free(c);
	}
}

static MPI_Datatype native_type(enum xmpi_type t)
{
	switch (t) {
	case XMPI_T_F32: return MPI_FLOAT;
	case XMPI_T_F64: return MPI_DOUBLE;
	case XMPI_T_U8: return MPI_UINT8_T;
	case XMPI_T_U16: return MPI_UINT16_T;
	case XMPI_T_U32: return MPI_UINT32_T;
	case XMPI_T_U64: return MPI_UINT64_T;
	case XMPI_T_S8: return MPI_INT8_T;
	case XMPI_T_S16: return MPI_INT16_T;
	case XMPI_T_S32: return MPI_INT32_T;
	case XMPI_T_S64: return MPI_INT64_T;
	default: return MPI_DATATYPE_NULL;
	}
}

static MPI_Op native_op(enum xmpi_op op)
{
	switch (op) {
	case XMPI_SUM: return MPI_SUM;
	case XMPI_PROD: return MPI_PROD;
	case XMPI_MIN: return MPI_MIN;
	case XMPI_MAX: return MPI_MAX;
	case XMPI_BAND: return MPI_BAND;
	default: return MPI_BOR;
	}
}

/* The datatype carrying libxrt's element type and reduction, made once. */
static int other_type(const struct xmpi_elem *e, MPI_Datatype *out)
{
	int i, rc = 0;

	pthread_mutex_lock(&others_lock);
	for (i = 0; i < num_others; i++)
		if (others[i].dtype == e->dtype && others[i].op == e->fold_op)
			break;
	if (i == num_others && num_others == MAX_OTHERS)
		rc = MPI_ERR_NO_MEM;
	if (!rc && i == num_others) {
		struct other *o = &others[i];

		*o = (struct other){ e->dtype, e->fold_op, e->size, MPI_DATATYPE_NULL };
		rc = MPI_Type_contiguous((int)e->size, MPI_BYTE, &o->type);
		if (!rc)
			rc = MPI_Type_commit(&o->type);
		if (!rc)
			rc = MPI_Type_set_attr(o->type, other_key, o);
		if (!rc)
			num_others++;
	}
	if (!rc)
		*out = others[i].type;
	pthread_mutex_unlock(&others_lock);
	return rc;
}

/* MPI's datatype and operation for @e. */
static int type_op(uint64_t n, const struct xmpi_elem *e, MPI_Datatype *type, MPI_Op *op)
{
	*type = native_type(e->type);
	*op = native_op(e->op);
	if (n > INT_MAX || (e->type == XMPI_T_OTHER && (!e->size || e->size > INT_MAX)))
		return MPI_ERR_COUNT;
	if (e->type != XMPI_T_OTHER)
		return 0;
	*op = fold_op;
	return other_type(e, type);
}

static int allreduce(void *comm, const void *in, void *out, uint64_t n,
		     const struct xmpi_elem *e)
{
	MPI_Datatype type;
	MPI_Op op;
	int rc = type_op(n, e, &type, &op);

	return rc ? rc : MPI_Allreduce(in == out ? MPI_IN_PLACE : in, out, (int)n, type, op,
				       *(MPI_Comm *)comm);
}

static int iallreduce(void *comm, const void *in, void *out, uint64_t n,
		      const struct xmpi_elem *e, void **req)
{
	MPI_Datatype type;
	MPI_Op op;
	struct req *q;
	int rc = type_op(n, e, &type, &op);

	q = rc ? NULL : calloc(1, sizeof(*q));
	if (!rc && !q)
		rc = MPI_ERR_NO_MEM;
	if (!rc)
		rc = MPI_Iallreduce(in == out ? MPI_IN_PLACE : in, out, (int)n, type, op,
				    *(MPI_Comm *)comm, &q->r);
	if (rc) {
		free(q);
		return rc;
	}
	*req = q;
	return 0;
}

/* The counts and displacements MPI takes, in @q; the block's datatype. */
static int gather_args(MPI_Comm c, uint64_t block, const uint32_t *counts, struct req *q,
		       MPI_Datatype *type, int *me)
{
	int n = 0, r, rc, at = 0;

	rc = MPI_Comm_size(c, &n);
	if (!rc && block > INT_MAX)
		rc = MPI_ERR_COUNT;
	if (!rc) {
		q->counts = calloc((size_t)n, sizeof(int));
		q->displs = calloc((size_t)n, sizeof(int));
		if (!q->counts || !q->displs)
			rc = MPI_ERR_NO_MEM;
	}
	for (r = 0; !rc && r < n; r++) {
		if (counts[r] > (uint32_t)(INT_MAX - at))
			rc = MPI_ERR_COUNT;
		q->counts[r] = (int)counts[r];
		q->displs[r] = at;
		at += rc ? 0 : (int)counts[r];
	}
	if (!rc)
		rc = MPI_Comm_rank(c, me);
	if (!rc)
		rc = MPI_Type_contiguous((int)block, MPI_BYTE, type);
	if (!rc)
		rc = MPI_Type_commit(type);
	return rc;
}

static int allgatherv(void *comm, const void *in, void *out, uint64_t block,
		      const uint32_t *counts)
{
	MPI_Comm c = *(MPI_Comm *)comm;
	MPI_Datatype type = MPI_DATATYPE_NULL;
	struct req q = { MPI_REQUEST_NULL, NULL, NULL };
	int me = 0, rc = gather_args(c, block, counts, &q, &type, &me);

	if (!rc)
		rc = MPI_Allgatherv(in, q.counts[me], type, out, q.counts, q.displs, type, c);
	if (type != MPI_DATATYPE_NULL)
		MPI_Type_free(&type);
	free(q.counts);
	free(q.displs);
	return rc;
}

static int iallgatherv(void *comm, const void *in, void *out, uint64_t block,
		       const uint32_t *counts, void **req)
{
	MPI_Comm c = *(MPI_Comm *)comm;
	MPI_Datatype type = MPI_DATATYPE_NULL;
	struct req *q = calloc(1, sizeof(*q));
	int me = 0, rc = q ? gather_args(c, block, counts, q, &type, &me) : MPI_ERR_NO_MEM;

	if (!rc)
		rc = MPI_Iallgatherv(in, q->counts[me], type, out, q->counts, q->displs, type, c,
				     &q->r);
	if (type != MPI_DATATYPE_NULL)	/* freed once the request no longer needs it */
		MPI_Type_free(&type);
	if (rc) {
		if (q) {
			free(q->counts);
			free(q->displs);
		}
		free(q);
		return rc;
	}
	*req = q;
	return 0;
}

static void req_free(struct req *q)
{
	free(q->counts);
	free(q->displs);
	free(q);
}

static int test(void *req, int *done)
{
	struct req *q = req;
	int rc = MPI_Test(&q->r, done, MPI_STATUS_IGNORE);

	if (rc || *done)
		req_free(q);
	return rc;
}

/*
 * MPI forbids freeing or cancelling a collective's request: an abandoned
 * one, with its counts, stays MPI's until the process ends, which a
 * process group that gave up on a collective must (coll_mpi_world.c).
 */
static void forget(void *req)
{
	(void)req;
}

static void error_string(int code, char *buf, size_t size)
{
	char s[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(code, s, &len))
		len = snprintf(s, sizeof(s), "MPI error %d", code);
	snprintf(buf, size, "%.*s", len, s);
}

static void processor_name(char *buf, size_t size)
{
	char s[MPI_MAX_PROCESSOR_NAME];
	int len = 0;

	if (MPI_Get_processor_name(s, &len))
		len = 0;
	snprintf(buf, size, "%.*s", len, s);
}

static const struct xmpi_ops ops = {
	XMPI_ABI, init, join, finalize, abort_job, world, create, free_comm, iallreduce,
	iallgatherv, allreduce, allgatherv, test, forget, error_string, processor_name,
};

__attribute__((visibility("default")))
const struct xmpi_ops *xrt_mpi_plugin(const struct xmpi_host *h)
{
	if (!h || h->abi != XMPI_ABI || !h->fold)
		return NULL;
	host = *h;
	return &ops;
}
