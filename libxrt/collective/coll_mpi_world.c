// SPDX-License-Identifier: MIT
/*
 * The process group: MPI's world, reached through the MPI plugin
 * (xmpi.h), which the first xcoll_mpi_init() loads.  Every process
 * learns the others' host names and process ids, so that a process that
 * gives up waiting can say which of the others on its host are gone.
 *
 * A collective given up (deadline, cancellation, an MPI error) leaves
 * MPI in the middle of it, with no way back: MPI can neither cancel a
 * collective nor tell the others.  The group is then broken: every
 * later distributed call fails at once, and shutting down aborts the
 * job (MPI_Abort), which ends every process of it.
 */
#define _GNU_SOURCE	/* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collective/collective.h"
#include "coll_mpi.h"

#define HOST_NAME 64

struct group_comm {
	struct group_comm *next;
	uint32_t n;
	uint32_t *gids;		/* the group's members, global device ids */
	void *comm;
};

struct peer_id {
	int32_t pid;
	char host[HOST_NAME];
};

static struct {
	pthread_mutex_t lock;
	void *dl;
	const struct xmpi_ops *ops;
	bool up, ended;
	uint32_t rank, size;
	void *world;
	struct peer_id *peers;
	atomic_bool broken;
	char why[256];
	struct group_comm *comms;
} W = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Runs of this process one at a time: MPI sees their collectives in one order. */
static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct xmpi_host host = { XMPI_ABI, xcoll_fold };

/*
 * XRT_MPI_PLUGIN; beside the libxrt this code is in; where it is
 * installed; where it was built; the loader's search path.
 */
static void *open_plugin(char *why, size_t size)
{
	const char *env = getenv("XRT_MPI_PLUGIN");
	char path[4096];
	Dl_info info;
	void *h = NULL;

	/* MPI opens components that need its symbols: RTLD_GLOBAL */
	if (env && *env) {
		h = dlopen(env, RTLD_NOW | RTLD_GLOBAL);
		if (!h)
			snprintf(why, size, "%s", dlerror());
		return h;
	}
	if (dladdr((void *)open_plugin, &info) && info.dli_fname) {
		const char *slash = strrchr(info.dli_fname, '/');

		snprintf(path, sizeof(path), "%.*s/libxrt-mpi.so",
			 slash ? (int)(slash - info.dli_fname) : 1, slash ? info.dli_fname : ".");
		h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	}
	if (!h)
		h = dlopen(XRT_PLUGIN_DIR "/libxrt-mpi.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		h = dlopen(XRT_BUILD_PLUGIN_DIR "/libxrt-mpi.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		h = dlopen("libxrt-mpi.so", RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		snprintf(why, size, "%s", dlerror());
	return h;
}

static xrt_status *mpi_error(const char *what, int rc)
{
	char s[256];

	W.ops->error_string(rc, s, sizeof(s));
	return xrt_status_new(NULL, XRT_UNAVAILABLE, "%s: %s", what, s);
}

static xrt_status *load(void)
{
	char why[512] = "";
	xmpi_plugin_fn fn;

	if (W.ops)
		return NULL;
	W.dl = open_plugin(why, sizeof(why));
	if (!W.dl)
		return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "distributed runs need "
				      "libxrt-mpi.so, which is built where MPI is installed "
				      "(libopenmpi-dev): %s", why);
	*(void **)&fn = dlsym(W.dl, XMPI_PLUGIN_SYMBOL);
	W.ops = fn ? fn(&host) : NULL;
	if (!W.ops || W.ops->abi != XMPI_ABI) {
		W.ops = NULL;
		return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "libxrt-mpi.so is not of "
				      "this libxrt (interface %u)", XMPI_ABI);
	}
	return NULL;
}

/* Every rank's process id and host name, in W.peers. */
static xrt_status *meet_peers(void)
{
	struct peer_id me = { (int32_t)getpid(), "" };
	xrt_status *st;

	W.ops->processor_name(me.host, sizeof(me.host));
	W.peers = calloc(W.size, sizeof(*W.peers));
	if (!W.peers)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory: the "
				      "process group");
	st = xcoll_mpi_exchange(&me, sizeof(me), W.peers, NULL, "starting the process group");
	if (st) {
		free(W.peers);
		W.peers = NULL;
	}
	return st;
}

/* The name rank 0 publishes its port under at a coordinator. */
static void service_name(char *buf, size_t size)
{
	const char *job = getenv("XRT_DISTRIBUTED_JOB");

	snprintf(buf, size, "xrt-distributed-%s", job && *job ? job : "job");
}

xrt_status *xcoll_mpi_init(const struct xcoll_join *j, uint32_t *rank, uint32_t *size)
{
	char service[128];
	xrt_status *st;
	int r = 0, n = 0, level = 0, rc;

	pthread_mutex_lock(&W.lock);
	/* MPI starts once in a process: after its finalize it cannot again */
	st = W.ended ? xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "distributed init: the "
				      "process left its group; MPI does not start twice") :
	     W.up ? NULL : load();
	if (!st && !W.up) {
		service_name(service, sizeof(service));
		rc = j ? W.ops->join(j->coordinator, service, (int)j->rank, (int)j->size, &level) :
			 W.ops->init(&r, &n, &level);
		st = rc ? mpi_error(j ? "joining through the coordinator" : "MPI_Init_thread",
				    rc) : NULL;
		if (!st && j) {
			r = (int)j->rank;
			n = (int)j->size;
		}
		if (!st && level < 3)	/* MPI_THREAD_MULTIPLE */
			st = xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "MPI gives thread "
					    "level %d: distributed runs need "
					    "MPI_THREAD_MULTIPLE", level);
		rc = st ? 0 : W.ops->world(&W.world);
		if (rc)
			st = mpi_error("MPI_Comm_dup", rc);
		W.rank = (uint32_t)r;
		W.size = (uint32_t)n;
		if (!st)
			st = meet_peers();
		W.up = !st;
	}
	if (!st) {
		*rank = W.rank;
		*size = W.size;
	}
	pthread_mutex_unlock(&W.lock);
	return st;
}

bool xcoll_mpi_up(uint32_t *rank, uint32_t *size)
{
	bool up;

	pthread_mutex_lock(&W.lock);
	up = W.up;
	if (rank)
		*rank = up ? W.rank : 0;
	if (size)
		*size = up ? W.size : 1;
	pthread_mutex_unlock(&W.lock);
	return up;
}

xrt_status *xcoll_mpi_shutdown(void)
{
	struct group_comm *g;
	xrt_status *st = NULL;
	int rc;

	pthread_mutex_lock(&W.lock);
	if (!W.up) {
		pthread_mutex_unlock(&W.lock);
		return NULL;
	}
	if (atomic_load(&W.broken)) {
		fprintf(stderr, "xrt: rank %u: ending the job: %s\n", W.rank, W.why);
		fflush(NULL);
		W.ops->abort(1);	/* ends every process; returns only if it failed */
		_exit(1);
	}
	while ((g = W.comms)) {
		W.comms = g->next;
		W.ops->free_comm(g->comm);
		free(g->gids);
		free(g);
	}
	W.ops->free_comm(W.world);
	rc = W.ops->finalize();
	if (rc)
		st = mpi_error("MPI_Finalize", rc);
	free(W.peers);
	W.peers = NULL;
	W.up = false;
	W.ended = true;
	pthread_mutex_unlock(&W.lock);
	return st;
}

void xcoll_mpi_abort(int status)
{
	if (!xcoll_mpi_up(NULL, NULL))
		return;
	fflush(NULL);
	W.ops->abort(status);
	_exit(status);	/* MPI_Abort returned: it failed */
}

void xcoll_mpi_break(const char *why)
{
	bool was = false;

	pthread_mutex_lock(&W.lock);
	if (atomic_compare_exchange_strong(&W.broken, &was, true))
		snprintf(W.why, sizeof(W.why), "%s", why);
	pthread_mutex_unlock(&W.lock);
}

xrt_status *xcoll_mpi_check(void)
{
	if (!atomic_load(&W.broken))
		return NULL;
	return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "the process group is broken "
			      "(%s): end the job", W.why);
}

void xcoll_mpi_lock(void)
{
	pthread_mutex_lock(&run_lock);
}

void xcoll_mpi_unlock(void)
{
	pthread_mutex_unlock(&run_lock);
}

const struct xmpi_ops *xcoll_mpi_ops(void)
{
	return W.ops;
}

/* The ranks on this host whose process is gone, worded into @buf. */
static void lost_ranks(const uint32_t *ranks, uint32_t n, char *buf, size_t size)
{
	const char *me = W.peers[W.rank].host;
	size_t at = 0;
	uint32_t k, away = 0;

	buf[0] = 0;
	for (k = 0; k < n && at < size; k++) {
		const struct peer_id *p = &W.peers[ranks[k]];

		if (strcmp(p->host, me)) {
			away++;
			continue;
		}
		if (kill(p->pid, 0) && errno == ESRCH)
			at += (size_t)snprintf(buf + at, size - at, "; rank %u (pid %d on %s) is "
					       "gone", ranks[k], p->pid, p->host);
	}
	if (!at && away && at < size)
		snprintf(buf + at, size - at, "; MPI does not say whether the ranks on other "
			 "hosts live");
}

xrt_status *xcoll_mpi_lost(xrt_status *st)
{
	uint32_t *ranks = W.peers ? malloc(W.size * sizeof(*ranks)) : NULL, k, n = 0;
	xrt_status *named = NULL;
	char lost[512];

	if (!ranks)
		return st;
	for (k = 0; k < W.size; k++)
		if (k != W.rank)
			ranks[n++] = k;
	lost_ranks(ranks, n, lost, sizeof(lost));
	free(ranks);
	if (lost[0])
		named = xrt_status_new(NULL, xrt_status_code(st), "%s%s", xrt_status_message(st),
				       lost);
	if (xrt_status_code(st) == XRT_DEADLINE_EXCEEDED || xrt_status_code(st) == XRT_CANCELLED)
		xcoll_mpi_break(xrt_status_message(named ? named : st));
	if (!named)
		return st;
	xrt_status_free(st);
	return named;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Why a wait must end, or NULL to go on. */
static xrt_status *wait_over(const struct xdev_watch *w, const char *where,
			     const uint32_t *ranks, uint32_t n)
{
	char lost[512];
	int code;

	if (w && w->cancel && atomic_load(w->cancel))
		code = XRT_CANCELLED;
	else if (w && w->deadline_ns && now_ns() >= w->deadline_ns)
		code = XRT_DEADLINE_EXCEEDED;
	else if (atomic_load(&W.broken))
		return xrt_status_new(NULL, XRT_ABORTED, "%s: the process group broke (%s)",
				      where, W.why);
	else
		return NULL;
	lost_ranks(ranks, n, lost, sizeof(lost));
	return xrt_status_new(NULL, code, "%s: %s waiting for the other processes%s", where,
			      code == XRT_CANCELLED ? "cancelled" : "deadline passed", lost);
}

xrt_status *xcoll_mpi_wait(void *req, const struct xdev_watch *w, const char *where,
			   const uint32_t *ranks, uint32_t n)
{
	xrt_status *st;
	int done = 0, rc;

	for (;;) {
		rc = W.ops->test(req, &done);
		if (rc) {
			st = mpi_error(where, rc);
			break;
		}
		if (done)
			return NULL;
		st = wait_over(w, where, ranks, n);
		if (st) {
			W.ops->forget(req);
			break;
		}
		sched_yield();
	}
	xcoll_mpi_break(xrt_status_message(st));
	return st;
}

xrt_status *xcoll_mpi_failed(const char *where, int rc)
{
	xrt_status *st = mpi_error(where, rc);

	xcoll_mpi_break(xrt_status_message(st));
	return st;
}

xrt_status *xcoll_mpi_exchange(const void *mine, uint32_t bytes, void *all,
			       const struct xdev_watch *w, const char *where)
{
	uint32_t *ones = malloc(W.size * sizeof(*ones)), *ranks = malloc(W.size * sizeof(*ranks));
	xrt_status *st = NULL;
	void *req = NULL;
	uint32_t r;
	int rc;

	if (!ones || !ranks)
		st = xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory: %s", where);
	for (r = 0; !st && r < W.size; r++)
		ones[r] = 1, ranks[r] = r;
	if (!st && xcoll_mpi_unbounded(w)) {
		rc = W.ops->allgatherv(W.world, mine, all, bytes, ones);
		st = rc ? xcoll_mpi_failed(where, rc) : NULL;
	} else if (!st) {
		rc = W.ops->iallgatherv(W.world, mine, all, bytes, ones, &req);
		st = rc ? xcoll_mpi_failed(where, rc) :
			  xcoll_mpi_wait(req, w, where, W.peers ? ranks : NULL,
					 W.peers ? W.size : 0);
	}
	free(ones);
	free(ranks);
	return st;
}

/* Under W.lock: the cached communicator of @gids (@n), or NULL. */
static struct group_comm *find_comm(const uint32_t *gids, uint32_t n)
{
	struct group_comm *g;

	for (g = W.comms; g; g = g->next)
		if (g->n == n && !memcmp(g->gids, gids, n * sizeof(*gids)))
			return g;
	return NULL;
}

xrt_status *xcoll_mpi_group(const uint32_t *gids, uint32_t n, const int *ranks,
			    uint32_t num_ranks, void **comm)
{
	struct group_comm *g;
	xrt_status *st = NULL;
	int rc;

	pthread_mutex_lock(&W.lock);
	g = find_comm(gids, n);
	if (!g) {
		g = calloc(1, sizeof(*g));
		if (g)
			g->gids = malloc(n * sizeof(*gids));
		if (!g || !g->gids) {
			if (g)
				free(g);
			g = NULL;
			st = xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory: a "
					    "group's communicator");
		}
	}
	if (g && !g->comm) {
		memcpy(g->gids, gids, n * sizeof(*gids));
		g->n = n;
		rc = W.ops->create(ranks, (int)num_ranks, 0, &g->comm);
		if (rc) {
			st = mpi_error("MPI_Comm_create_group", rc);
			free(g->gids);
			free(g);
		} else {
			g->next = W.comms;
			W.comms = g;
		}
	}
	if (!st)
		*comm = g->comm;
	pthread_mutex_unlock(&W.lock);
	return st;
}

uint32_t xcoll_mpi_rank(void)
{
	return W.rank;
}
