// SPDX-License-Identifier: MIT
/*
 * Replicated executions: one program on D devices (replica x partitions
 * + partition), each device's run in a session on it, all started
 * together in threads of this process and meeting at their collectives
 * through one in-process communicator.  The arguments and results are
 * per device, as handles of the device's session.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective/collective.h"
#include "core/mem.h"
#include "cstream/executable.h"
#include "runtime/cache.h"
#include "xrt_internal.h"
#include "xrt_replicated.h"

static void device_name(const struct replicated *r, uint32_t d, char *buf, size_t size)
{
	if (r->partitions > 1)
		snprintf(buf, size, "replica %u partition %u", d / r->partitions,
			 d % r->partitions);
	else
		snprintf(buf, size, "replica %u", d);
}

/* @st with the device's name in front. */
xrt_status *xrep_named(const struct replicated *r, uint32_t d, xrt_status *st)
{
	char name[64];
	xrt_status *n;

	if (!st)
		return NULL;
	device_name(r, d, name, sizeof(name));
	n = xrt_status_new(r->a, xrt_status_code(st), "%s: %s", name, xrt_status_message(st));
	xrt_status_free(st);
	return n;
}

static uint32_t session_of(const struct replicated *r, uint32_t d)
{
	return r->c && r->c->device_assignment ? r->c->device_assignment[d] : d;
}

/* Each device in a session of its own, every session given. */
static xrt_status *check_assignment(const struct replicated *r, uint32_t num_sessions)
{
	char a[64], b[64];
	uint32_t d, k;

	for (d = 0; d < r->devices; d++) {
		uint32_t s = session_of(r, d);

		if (s >= num_sessions || !r->sessions[s])
			return xrep_named(r, d, xrt_status_new(r->a, XRT_INVALID_ARGUMENT,
							  "execute: runs in session %u of %u, "
							  "which is %s", s, num_sessions,
							  s >= num_sessions ? "not there" : "NULL"));
		for (k = 0; k < d; k++) {
			if (session_of(r, k) != s)
				continue;
			device_name(r, k, a, sizeof(a));
			device_name(r, d, b, sizeof(b));
			return xrt_status_new(r->a, XRT_INVALID_ARGUMENT,
					      "execute: %s and %s both run in session %u (%s): a "
					      "device runs one of them at a time", a, b, s,
					      r->sessions[s]->dev->info.name);
		}
	}
	return NULL;
}

/* Part @p's compilation, its arguments, and that the program is one of D devices. */
xrt_status *xrep_gather(struct replicated *r, struct part *p, uint32_t replicas)
{
	const struct xrt_executable *exe;
	xrt_status *st;
	uint32_t k;

	st = xhandle_get(p->s, r->compilations[p->slot], HK_COMPILE, (void **)&p->e);
	if (st)
		return st;
	exe = centry_exe(p->e);
	if (exe->num_replicas != replicas || exe->num_partitions != r->partitions)
		return xrt_status_new(r->a, XRT_INVALID_ARGUMENT, "execute: its compilation is "
				      "of %u replicas x %u partitions, device 0's of %u x %u",
				      exe->num_replicas, exe->num_partitions, replicas,
				      r->partitions);
	if (!p->s->dev->ops->collectives)
		return xrt_status_new(r->a, XRT_UNIMPLEMENTED, "execute: %s: replicated runs "
				      "take host, accel and cuda devices for now",
				      p->s->dev->info.name);
	p->args = xrt_mem_calloc(r->a, r->num_args + 1, sizeof(*p->args));
	if (!p->args)
		return xrt_status_oom(r->a, "a replicated execution");
	for (k = 0; k < r->num_args; k++) {
		st = xalloc_get(p->s, r->args[(size_t)p->slot * r->num_args + k], &p->args[k]);
		if (st)
			return xrt_status_annotate(st, "execute: argument %u", k);
	}
	return NULL;
}

/*
 * The run's communicator: the one the devices make for their own memory
 * (cuda's, over NCCL) when they are all of such a driver, else the
 * in-process one, on memory the host maps.
 */
static xrt_status *make_comm(struct replicated *r)
{
	const struct xdev_ops *ops = r->parts[0].s->dev->ops;
	struct xdev **devs;
	xrt_status *st;
	uint32_t d;

	for (d = 1; d < r->devices; d++) {
		const struct xdev *x = r->parts[d].s->dev;

		if ((ops->comm_create || x->ops->comm_create) && x->ops != ops)
			return xrep_named(r, d, xrt_status_new(r->a, XRT_UNIMPLEMENTED,
							  "execute: %s meets %s: devices whose "
							  "memory the host does not map meet only "
							  "devices of their own kind",
							  x->info.name,
							  r->parts[0].s->dev->info.name));
	}
	if (!ops->comm_create)
		return xcoll_local_create(r->devices, r->a, &r->comm);
	devs = xrt_mem_calloc(r->a, r->devices, sizeof(*devs));
	if (!devs)
		return xrt_status_oom(r->a, "a replicated execution");
	for (d = 0; d < r->devices; d++)
		devs[d] = r->parts[d].s->dev;
	st = ops->comm_create(devs, r->devices, NULL, r->a, &r->comm);
	xrt_mem_free(r->a, devs);
	return st;
}

static void run_part(void *arg)
{
	struct part *p = arg;

	p->st = xexec_nodes(p->s, p->e, p->args, p->num_args, p->seed, &p->w, &p->result, NULL);
	p->peer.comm->ops->finish(p->peer.comm, p->peer.device, p->st != NULL);
}

/*
 * Every device's run in a thread of its own: device 0's in this one, the
 * others' on kept workers; those that cannot start fail at once.
 */
void xrep_run_all(struct replicated *r, uint64_t seed)
{
	const struct xdev_watch *limits;
	struct xworker_latch latch;
	struct xdev_watch base;
	uint32_t d, here = 0, first = r->devices;

	limits = xexec_watch(r->c ? &r->c->base : NULL, &base);
	for (d = 0; d < r->devices; d++) {
		struct part *p = &r->parts[d];

		if (!p->s)
			continue;
		if (!here++)
			first = d;
		p->w = limits ? *limits : (struct xdev_watch){ 0 };
		p->peer = (struct xdev_peer){ r->comm, d, d / r->partitions, d % r->partitions };
		p->w.peer = &p->peer;
		p->seed = seed;
		p->num_args = r->num_args;
	}
	if (!here)
		return;
	xworker_latch_init(&latch, here - 1);
	for (d = first + 1; d < r->devices; d++) {
		if (!r->parts[d].s)
			continue;
		if (xworker_start(run_part, &r->parts[d], &latch))
			continue;
		r->parts[d].st = xrt_status_new(r->a, XRT_RESOURCE_EXHAUSTED,
						"execute: no thread for the device");
		r->comm->ops->finish(r->comm, d, true);
		xworker_latch_down(&latch);	/* it will not */
	}
	run_part(&r->parts[first]);
	xworker_latch_wait(&latch);
}

/* The error of the device that failed of itself (not CANCELLED by another), named. */
xrt_status *xrep_first_error(struct replicated *r)
{
	uint32_t d, pick = r->devices;
	xrt_status *st;

	for (d = 0; d < r->devices; d++)
		if (r->parts[d].st && (pick == r->devices ||
				       (xrt_status_code(r->parts[pick].st) == XRT_CANCELLED &&
					xrt_status_code(r->parts[d].st) != XRT_CANCELLED)))
			pick = d;
	if (pick == r->devices)
		return NULL;
	st = xrep_named(r, pick, r->parts[pick].st);
	r->parts[pick].st = NULL;
	for (d = 0; d < r->devices; d++) {
		xrt_status_free(r->parts[d].st);
		r->parts[d].st = NULL;
	}
	return st;
}

/* The results as handles of their sessions; on failure none stays. */
xrt_status *xrep_results(struct replicated *r, xrt_handle *out)
{
	xrt_status *st = NULL;
	uint32_t d;

	for (d = 0; d < r->devices && !st; d++) {
		struct part *p = &r->parts[d];

		if (!p->s)
			continue;
		st = xalloc_add(p->s, p->result, &out[p->slot]);
		p->result = NULL;	/* the handle took it, or it is freed */
	}
	if (st)	/* out of memory: release those made */
		while (--d > 0)
			if (r->parts[d - 1].s)
				xrt_status_free(xrt_release_allocations(r->parts[d - 1].s,
									&out[r->parts[d - 1].slot],
									1));
	return st;
}

/* What a successful run releases: the inputs, the compilations, as the config says. */
void xrep_release(struct replicated *r)
{
	uint32_t d;

	for (d = 0; r->c && d < r->devices; d++) {
		struct part *p = &r->parts[d];

		if (!p->s)
			continue;
		if (r->c->base.release_inputs)
			xrt_status_free(xrt_release_allocations(p->s, &r->args[(size_t)p->slot *
								       r->num_args],
								r->num_args));
		if (r->c->base.release_compilation)
			centry_unref(xhandle_take(p->s, r->compilations[p->slot], HK_COMPILE));
	}
}

void xrep_free_parts(struct replicated *r)
{
	uint32_t d, k;

	for (d = 0; d < r->devices; d++) {
		struct part *p = &r->parts[d];

		if (!p->s)
			continue;
		for (k = 0; p->args && k < r->num_args; k++)
			xnode_unref(p->s, p->args[k]);
		xrt_mem_free(r->a, p->args);
		if (p->result)
			xnode_unref(p->s, p->result);
		centry_unref(p->e);
		xrt_status_free(p->st);
	}
	xrt_mem_free(r->a, r->parts);
}

static xrt_status *check_call(xrt_session *const *sessions, uint32_t num_sessions,
			      const xrt_handle *compilations, const xrt_handle *args,
			      uint32_t num_args, const struct xrt_replicated_config *c,
			      xrt_handle *out)
{
	const struct xrt_allocator *a = sessions && num_sessions && sessions[0] ?
					sessions[0]->a : NULL;

	if (!sessions || !num_sessions || !compilations || !out || (num_args && !args))
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "execute: %s",
				      !sessions || !num_sessions ? "no sessions" :
				      !compilations ? "compilations is NULL" :
				      !out ? "out is NULL" : "args is NULL");
	if (!sessions[0])
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "execute: session 0 is NULL");
	if (c && c->base.device_ordinal)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "execute: device ordinal %d: the "
				      "device assignment places the devices",
				      c->base.device_ordinal);
	return NULL;
}

xrt_status *xrt_execute_replicated(xrt_session *const *sessions, uint32_t num_sessions,
				   const xrt_handle *compilations, const xrt_handle *args,
				   uint32_t num_args, const struct xrt_replicated_config *c,
				   xrt_handle *out)
{
	struct replicated r = { sessions, compilations, args, num_args, 0, 1, c };
	const struct xrt_executable *exe;
	struct centry *e0 = NULL;
	xrt_status *st = check_call(sessions, num_sessions, compilations, args, num_args, c, out);
	uint32_t d, replicas = 1;

	if (st)
		return st;
	if (xrt_distributed_rank(NULL, &d) && d > 1 && !(c && c->this_process_only))
		return xrep_spread(sessions, num_sessions, compilations, args, num_args, c, out);
	r.a = sessions[0]->a;
	/* device 0's compilation says how many devices there are */
	d = c && c->device_assignment ? c->device_assignment[0] : 0;
	if (d >= num_sessions || !sessions[d])
		return xrt_status_new(r.a, XRT_INVALID_ARGUMENT, "replica 0: execute: runs in "
				      "session %u of %u, which is %s", d, num_sessions,
				      d >= num_sessions ? "not there" : "NULL");
	st = xhandle_get(sessions[d], compilations[0], HK_COMPILE, (void **)&e0);
	if (st)
		return xrt_status_annotate(st, "execute: device 0's compilation");
	exe = centry_exe(e0);
	replicas = exe->num_replicas;
	r.partitions = exe->num_partitions;
	r.devices = replicas * r.partitions;
	centry_unref(e0);
	st = check_assignment(&r, num_sessions);
	r.parts = st ? NULL : xrt_mem_calloc(r.a, r.devices, sizeof(*r.parts));
	if (!st && !r.parts)
		st = xrt_status_oom(r.a, "a replicated execution");
	for (d = 0; !st && d < r.devices; d++) {
		r.parts[d].slot = d;
		r.parts[d].s = sessions[session_of(&r, d)];
		st = xrep_named(&r, d, xrep_gather(&r, &r.parts[d], replicas));
	}
	if (!st)
		st = make_comm(&r);
	if (!st) {
		xrep_run_all(&r, c && c->base.rng_seed ? c->base.rng_seed : xexec_fresh_seed());
		st = xrep_first_error(&r);
	}
	if (!st)
		st = xrep_results(&r, out);
	if (!st)
		xrep_release(&r);
	if (r.parts)
		xrep_free_parts(&r);
	if (r.comm && r.comm->ops->destroy)
		r.comm->ops->destroy(r.comm);
	else
		xcoll_local_destroy(r.comm);
	return st;
}

/*
 * Replicated executions made of separate calls (the XRT ops): calls with
 * one execution_instance_key are the devices of one execution, each
 * running its device in its own thread and session.  The first to come
 * makes the joint (its communicator, and the seed all use when none is
 * given); the last to leave frees it.  A device that never comes is
 * waited for at collectives until the others' deadlines: give the calls
 * a timeout.
 */
struct joint {
	struct joint *next;
	char key[XRT_MAX_INSTANCE_KEY + 1];
	struct xdev_comm *comm;
	uint32_t devices, replicas, partitions, joined, left;
	uint8_t *taken;
	uint64_t seed;
};

static pthread_mutex_t joints_lock = PTHREAD_MUTEX_INITIALIZER;
static struct joint *joints;

static void joint_free(struct joint *j)
{
	xcoll_local_destroy(j->comm);
	free(j->taken);
	free(j);
}

/* Under the lock: the joint of @key for a program of @r x @p devices, made when new. */
static xrt_status *joint_of(const struct xrt_allocator *a, const char *key, uint32_t r,
			    uint32_t p, struct joint **out)
{
	struct joint *j;

	for (j = joints; j; j = j->next)
		if (!strcmp(j->key, key))
			break;
	if (j && (j->replicas != r || j->partitions != p))
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "execute: execution_instance_key "
				      "'%s' runs a program of %u x %u devices, this one of %u x %u",
				      key, j->replicas, j->partitions, r, p);
	if (!j) {
		j = calloc(1, sizeof(*j));
		if (j)
			j->taken = calloc(r * p, 1);
		xrt_status *st = j && j->taken ? xcoll_local_create(r * p, NULL, &j->comm) : NULL;

		if (!j || !j->taken || st) {
			if (j)
				free(j->taken);
			free(j);
			return st ? st : xrt_status_oom(a, "a joint execution");
		}
		strcpy(j->key, key);
		j->devices = r * p;
		j->replicas = r;
		j->partitions = p;
		j->seed = xexec_fresh_seed();
		j->next = joints;
		joints = j;
	}
	*out = j;
	return NULL;
}

static void joint_leave(struct joint *j)
{
	struct joint **p;

	pthread_mutex_lock(&joints_lock);
	if (++j->left == j->devices) {
		for (p = &joints; *p != j; p = &(*p)->next)
			;
		*p = j->next;
		joint_free(j);
	}
	pthread_mutex_unlock(&joints_lock);
}

xrt_status *xexec_join(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
		       uint32_t n, const struct xrt_execution_config *c, const char *key,
		       uint32_t replica, uint32_t core, xrt_handle *out)
{
	struct xrt_execution_config cfg = c ? *c : (struct xrt_execution_config){ 0 };
	struct centry *e = NULL;
	struct xdev_peer peer;
	struct joint *j = NULL;
	uint32_t r, p, d;
	xrt_status *st = xhandle_get(s, compilation, HK_COMPILE, (void **)&e);

	if (st)
		return st;
	r = centry_exe(e)->num_replicas;
	p = centry_exe(e)->num_partitions;
	centry_unref(e);
	if (replica >= r || core >= p)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT, "execute: replica %u, core %u of "
				      "a program of %u replicas x %u cores", replica, core, r, p);
	if (s->dev->ops->comm_create)
		return xrt_status_new(s->a, XRT_UNIMPLEMENTED, "execute: %s: calls joined by "
				      "execution_instance_key meet in host memory; run this "
				      "device's replicas with xrt_execute_replicated",
				      s->dev->info.name);
	d = replica * p + core;
	pthread_mutex_lock(&joints_lock);
	st = joint_of(s->a, key, r, p, &j);
	if (!st && j->taken[d])
		st = xrt_status_new(s->a, XRT_ALREADY_EXISTS, "execute: execution_instance_key "
				    "'%s' has replica %u core %u already", key, replica, core);
	if (!st) {
		j->taken[d] = 1;
		j->joined++;
	}
	pthread_mutex_unlock(&joints_lock);
	if (st)
		return st;
	if (!cfg.rng_seed)
		cfg.rng_seed = (uint32_t)j->seed | 1;
	peer = (struct xdev_peer){ j->comm, d, replica, core };
	st = xexec_execute_as(s, compilation, args, n, &cfg, &peer, out);
	j->comm->ops->finish(j->comm, d, st != NULL);
	joint_leave(j);
	return st ? xrep_named(&(struct replicated){ .partitions = p, .a = s->a }, d, st) : NULL;
}
