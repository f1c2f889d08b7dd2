// SPDX-License-Identifier: MIT
/*
 * A replicated execution spread over the process group: every process
 * calls it together with its own sessions, which are the global devices
 * from the sum of the earlier ranks' session counts on.  The processes
 * first tell one another what they run (struct hello, one exchange):
 * the program's counts, the device assignment, the seed, and whether
 * this process could gather its devices' compilations and arguments,
 * so that a mistake in one process fails the run in every process,
 * with the same message, before any waits at a collective.  Then each
 * runs its devices, meeting the others through the MPI communicator, or
 * through the one their driver makes across processes (cuda's, NCCL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective/collective.h"
#include "core/mem.h"
#include "cstream/executable.h"
#include "runtime/cache.h"
#include "xrt_replicated.h"

struct hello {
	uint32_t sessions, replicas, partitions, num_args;
	uint32_t ok, assigned;
	uint32_t own;			/* devices of their own memory (a driver's communicator) */
	uint32_t pad;
	uint64_t seed, assignment;	/* the device assignment's hash */
};

struct spread {
	struct replicated r;
	uint32_t rank, size, offset, total;	/* this rank's first global device; all */
	uint32_t *gid, *rank_of;		/* per device */
	struct hello *all;
	struct part *here;			/* per session, until settled */
};

static uint64_t hash_assignment(const uint32_t *a, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	uint32_t d;

	for (d = 0; a && d < n; d++)
		h = (h ^ a[d]) * 1099511628211ull;
	return h;
}

/* Session k's compilation: the program's counts, and the arguments' number. */
static xrt_status *look(struct spread *s, const xrt_handle *compilations, uint32_t k,
			struct hello *me)
{
	const struct xrt_executable *exe;
	struct centry *e = NULL;
	xrt_status *st;

	st = xhandle_get(s->r.sessions[k], compilations[k], HK_COMPILE, (void **)&e);
	if (st)
		return xrt_status_annotate(st, "execute: session %u's compilation", k);
	exe = centry_exe(e);
	if (k && (exe->num_replicas != me->replicas || exe->num_partitions != me->partitions))
		st = xrt_status_new(s->r.a, XRT_INVALID_ARGUMENT, "execute: session %u's "
				    "compilation is of %u replicas x %u partitions, session 0's "
				    "of %u x %u", k, exe->num_replicas, exe->num_partitions,
				    me->replicas, me->partitions);
	me->replicas = exe->num_replicas;
	me->partitions = exe->num_partitions;
	centry_unref(e);
	return st;
}

/* What this process says of the run; its own error, if it has one, in *@st. */
static struct hello hello_of(struct spread *s, const xrt_handle *compilations,
			     uint32_t num_sessions, xrt_status **st)
{
	const struct xrt_replicated_config *c = s->r.c;
	struct hello me = { num_sessions, 0, 0, s->r.num_args, 1, 0, 0, 0,
			    c && c->base.rng_seed ? c->base.rng_seed : xexec_fresh_seed(), 0 };
	uint32_t k;

	for (k = 0; k < num_sessions && !*st; k++)
		if (!s->r.sessions[k])
			*st = xrt_status_new(s->r.a, XRT_INVALID_ARGUMENT, "execute: session %u "
					     "is NULL", k);
		else
			*st = look(s, compilations, k, &me);
	me.assigned = c && c->device_assignment;
	if (!*st && me.assigned)
		me.assignment = hash_assignment(c->device_assignment,
						me.replicas * me.partitions);
	me.ok = !*st;
	return me;
}

/* The first difference between the processes' accounts of the run, or NULL. */
static xrt_status *agree(struct spread *s)
{
	const struct hello *a = &s->all[0];
	uint32_t r;

	for (r = 0; r < s->size; r++)
		if (!s->all[r].ok)
			return xrt_status_new(s->r.a, XRT_ABORTED, "execute: rank %u could not "
					      "start its devices (its own error says why)", r);
	for (r = 1; r < s->size; r++) {
		const struct hello *b = &s->all[r];

		if (b->replicas != a->replicas || b->partitions != a->partitions ||
		    b->num_args != a->num_args)
			return xrt_status_new(s->r.a, XRT_INVALID_ARGUMENT, "execute: rank %u "
					      "runs a program of %u x %u devices and %u "
					      "arguments, rank 0 one of %u x %u and %u", r,
					      b->replicas, b->partitions, b->num_args,
					      a->replicas, a->partitions, a->num_args);
		if (b->assigned != a->assigned || b->assignment != a->assignment)
			return xrt_status_new(s->r.a, XRT_INVALID_ARGUMENT, "execute: rank %u's "
					      "device assignment is not rank 0's", r);
		if (b->own != a->own)
			return xrt_status_new(s->r.a, XRT_UNIMPLEMENTED, "execute: rank %u's "
					      "devices meet %s, rank 0's %s: they cannot meet",
					      r, b->own ? "in their own memory" : "in host memory",
					      a->own ? "in their own memory" : "in host memory");
	}
	return NULL;
}

/* Global devices: every rank's first; each device's, its rank's, and that none repeats. */
static xrt_status *place(struct spread *s)
{
	const struct xrt_replicated_config *c = s->r.c;
	uint32_t r, d, devices = s->r.devices;
	uint8_t *used;

	for (r = 0; r < s->size; r++) {
		if (r == s->rank)
			s->offset = s->total;
		s->total += s->all[r].sessions;
	}
	used = xrt_mem_calloc(s->r.a, s->total + 1, 1);
	s->gid = xrt_mem_calloc(s->r.a, devices + 1, sizeof(uint32_t));
	s->rank_of = xrt_mem_calloc(s->r.a, devices + 1, sizeof(uint32_t));
	if (!used || !s->gid || !s->rank_of) {
		xrt_mem_free(s->r.a, used);
		return xrt_status_oom(s->r.a, "a run across processes");
	}
	for (d = 0; d < devices; d++) {
		uint32_t g = c && c->device_assignment ? c->device_assignment[d] : d, at = 0;

		if (g >= s->total || used[g]) {
			xrt_mem_free(s->r.a, used);
			return xrep_named(&s->r, d, xrt_status_new(s->r.a, XRT_INVALID_ARGUMENT,
				"execute: global device %u %s (the %u processes have %u)", g,
				g >= s->total ? "is not there" : "runs another device too",
				s->size, s->total));
		}
		used[g] = 1;
		s->gid[d] = g;
		for (r = 0; at + s->all[r].sessions <= g; r++)
			at += s->all[r].sessions;
		s->rank_of[d] = r;
	}
	for (r = 0; r < s->total; r++)	/* every rank's verdict is the same */
		if (!used[r]) {
			xrt_mem_free(s->r.a, used);
			return xrt_status_new(s->r.a, XRT_INVALID_ARGUMENT, "execute: global "
					      "device %u runs no device: every session of every "
					      "process runs one", r);
		}
	xrt_mem_free(s->r.a, used);
	return NULL;
}

/* Each session's compilation and arguments, in s->here, before anyone waits on another. */
static xrt_status *gather_here(struct spread *s, uint32_t num_sessions, struct hello *me)
{
	xrt_status *st = NULL;
	uint32_t k;

	s->here = xrt_mem_calloc(s->r.a, num_sessions + 1, sizeof(*s->here));
	if (!s->here)
		return xrt_status_oom(s->r.a, "a run across processes");
	s->r.partitions = me->partitions;
	me->own = s->r.sessions[0]->dev->ops->comm_create != NULL;
	for (k = 0; k < num_sessions && !st; k++) {
		const struct xdev *x = s->r.sessions[k]->dev, *x0 = s->r.sessions[0]->dev;

		s->here[k].slot = k;
		s->here[k].s = s->r.sessions[k];
		/* a driver's communicator meets only devices of that driver */
		if ((x->ops->comm_create || x0->ops->comm_create) && x->ops != x0->ops)
			st = xrt_status_new(s->r.a, XRT_UNIMPLEMENTED, "execute: %s meets %s: "
					    "devices whose memory the host does not map meet "
					    "only devices of their own kind", x->info.name,
					    x0->info.name);
		else
			st = xrep_gather(&s->r, &s->here[k], me->replicas);
		if (st)
			st = xrt_status_annotate(st, "session %u", k);
	}
	return st;
}

/* The parts gathered, each at its device's place. */
static xrt_status *settle(struct spread *s)
{
	uint32_t d;

	s->r.parts = xrt_mem_calloc(s->r.a, s->r.devices, sizeof(*s->r.parts));
	if (!s->r.parts)
		return xrt_status_oom(s->r.a, "a run across processes");
	for (d = 0; d < s->r.devices; d++)
		if (s->rank_of[d] == s->rank) {
			s->r.parts[d] = s->here[s->gid[d] - s->offset];
			s->here[s->gid[d] - s->offset] = (struct part){ 0 };
		}
	return NULL;
}

/* After one exchange, the run's shape agreed on by every process; NULL or why not. */
static xrt_status *meet(struct spread *s, const xrt_handle *compilations, uint32_t num_sessions)
{
	const struct xrt_replicated_config *c = s->r.c;
	xrt_status *mine = NULL, *st;
	struct hello me = hello_of(s, compilations, num_sessions, &mine);
	struct xdev_watch base;

	if (!mine)
		mine = gather_here(s, num_sessions, &me);
	me.ok = !mine;
	s->all = xrt_mem_calloc(s->r.a, s->size, sizeof(*s->all));
	st = s->all ? xcoll_mpi_exchange(&me, sizeof(me), s->all,
					 xexec_watch(c ? &c->base : NULL, &base),
					 "execute: meeting the other processes") :
		      xrt_status_oom(s->r.a, "a run across processes");
	if (st || mine) {
		xrt_status_free(st ? mine : NULL);
		return st ? st : mine;
	}
	st = agree(s);
	if (!st) {
		s->r.devices = me.replicas * me.partitions;
		st = place(s);
	}
	return st ? st : settle(s);
}

/* The executable of a device here: every device's is of the same program. */
static const struct xrt_executable *exe_here(const struct spread *s)
{
	uint32_t d;

	for (d = 0; d < s->r.devices; d++)
		if (s->r.parts[d].s)
			return centry_exe(s->r.parts[d].e);
	return NULL;
}

/*
 * The run's communicator: MPI's, on memory the host maps, or the one
 * the devices' driver makes across processes for their own memory
 * (cuda's over NCCL), told which devices run here and how to exchange.
 */
static xrt_status *make_comm(struct spread *s)
{
	const struct xrt_replicated_config *c = s->r.c;
	const struct xdev_ops *ops = NULL;
	struct xdev_watch base;
	struct xdev_spread sp = { s->rank, s->size, xcoll_mpi_exchange,
				  xexec_watch(c ? &c->base : NULL, &base) };
	struct xdev **devs;
	xrt_status *st;
	uint32_t d;

	if (!s->all[0].own)
		return xcoll_mpi_create(s->r.devices, s->rank_of, s->gid, exe_here(s), s->r.a,
					&s->r.comm);
	devs = xrt_mem_calloc(s->r.a, s->r.devices, sizeof(*devs));
	if (!devs)	/* the others wait for this process until their deadline */
		return xrt_status_oom(s->r.a, "a run across processes");
	for (d = 0; d < s->r.devices; d++)
		if (s->r.parts[d].s) {
			devs[d] = s->r.parts[d].s->dev;
			ops = devs[d]->ops;
		}
	st = ops->comm_create(devs, s->r.devices, &sp, s->r.a, &s->r.comm);
	xrt_mem_free(s->r.a, devs);
	return st;
}

static void free_spread(struct spread *s, uint32_t num_sessions)
{
	struct replicated here = s->r;

	if (s->r.parts)
		xrep_free_parts(&s->r);
	here.parts = s->here;
	here.devices = s->here ? num_sessions : 0;
	if (s->here)
		xrep_free_parts(&here);
	if (s->r.comm)
		s->r.comm->ops->destroy(s->r.comm);
	xrt_mem_free(s->r.a, s->gid);
	xrt_mem_free(s->r.a, s->rank_of);
	xrt_mem_free(s->r.a, s->all);
}

xrt_status *xrep_spread(xrt_session *const *sessions, uint32_t num_sessions,
			const xrt_handle *compilations, const xrt_handle *args, uint32_t num_args,
			const struct xrt_replicated_config *c, xrt_handle *out)
{
	struct spread s = { { sessions, compilations, args, num_args, 0, 1, c, sessions[0]->a } };
	xrt_status *st = xcoll_mpi_check();
	uint32_t k;

	if (st)
		return st;
	xcoll_mpi_up(&s.rank, &s.size);
	xcoll_mpi_lock();
	st = meet(&s, compilations, num_sessions);
	/* every process knows now whether the run goes on, and goes on together */
	if (!st)
		st = make_comm(&s);
	if (!st) {
		xrep_run_all(&s.r, s.all[0].seed);
		st = xrep_first_error(&s.r);
		if (st && s.all[0].own)	/* waits MPI did not see: who is gone, and break */
			st = xcoll_mpi_lost(st);
	}
	xcoll_mpi_unlock();
	for (k = 0; k < num_sessions && st; k++)
		out[k] = 0;
	if (!st)
		st = xrep_results(&s.r, out);
	if (!st)
		xrep_release(&s.r);
	free_spread(&s, num_sessions);
	return st;
}
