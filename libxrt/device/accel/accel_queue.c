// SPDX-License-Identifier: MIT
/*
 * Running programs on an accel device.  A queue is a driver queue with
 * a syncobj for its jobs' fences and an arena buffer kept from run to
 * run.  Programs are uploaded once per device (program and constants in
 * two buffer objects) and kept, the least recently used dropped when the
 * table is full: a job holds references on its buffers, so dropping a
 * program never disturbs one that runs; when the device is full, the
 * kept programs give way to new buffers (accel_device.c).  A run
 * submits, waits for the fence, and asks the queue whether the job
 * completed (one ioctl) or, once asynchronous jobs shared the queue, the
 * fence's own error.  A program that meets other devices runs as a chain
 * of jobs, one to each COLLECTIVE and one after the last, the runtime
 * performing each collective between two (accel_collective.c).  An
 * asynchronous job signals a syncobj of its own, its event.  A job
 * stopped by the driver's timeout leaves the queue refusing work, and
 * every later run on it is ABORTED.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "cstream/executable.h"
#include "core/mem.h"
#include "accel.h"
#include "device/device_program.h"

struct xdev_queue {
	struct accel_dev *d;
	const struct xrt_allocator *a;
	pthread_mutex_t lock;		/* one run at a time */
	uint32_t id, sync;
	uint64_t completed;		/* jobs the driver says completed */
	struct xdev_buf arena;
	bool reset;			/* the driver stopped a job: no more runs */
	bool had_async;			/* completed counts more than our runs */
};

struct xdev_event {
	struct accel_dev *d;		/* a device reference */
	uint32_t sync;
	const struct xrt_allocator *a;
};

xrt_status *adev_queue_create(struct xdev *x, const struct xrt_allocator *a, uint32_t flags,
			       struct xdev_queue **out)
{
	struct accel_dev *d = to_accel(x);
	struct drm_xrt_queue_create c = { .priority = DRM_XRT_PRIORITY_NORMAL };
	struct xdev_queue *q = xrt_mem_calloc(a, 1, sizeof(*q));
	xrt_status *st;
	int err;

	(void)flags;	/* the engine's DOT is the only one here */
	if (!q || pthread_mutex_init(&q->lock, NULL)) {
		xrt_mem_free(a, q);
		return xrt_status_oom(a, "a queue");
	}
	q->d = d;
	q->a = a;
	err = adev_ioctl(d->fd, DRM_IOCTL_XRT_QUEUE_CREATE, &c);
	if (err) {
		st = adev_errno(d, a, "DRM_IOCTL_XRT_QUEUE_CREATE", err);
		goto fail;
	}
	q->id = c.queue_id;
	if (drmSyncobjCreate(d->fd, 0, &q->sync)) {
		st = adev_errno(d, a, "DRM_IOCTL_SYNCOBJ_CREATE", errno);
		goto fail;
	}
	*out = q;
	return NULL;
fail:
	adev_queue_destroy(q);
	return st;
}

void adev_queue_destroy(struct xdev_queue *q)
{
	struct drm_xrt_queue_destroy qd;

	if (!q)
		return;
	if (q->id) {
		qd = (struct drm_xrt_queue_destroy){ .queue_id = q->id };
		adev_ioctl(q->d->fd, DRM_IOCTL_XRT_QUEUE_DESTROY, &qd);
	}
	if (q->sync)
		drmSyncobjDestroy(q->d->fd, q->sync);
	adev_buf_free(q->d, &q->arena);
	pthread_mutex_destroy(&q->lock);
	xrt_mem_free(q->a, q);
}

void adev_programs_free(struct accel_dev *d)
{
	uint32_t i;

	for (i = 0; i < ACCEL_PROGRAMS; i++) {
		if (d->programs[i].pins)
			continue;
		adev_buf_free(d, &d->programs[i].prog);
		adev_buf_free(d, &d->programs[i].consts);
		d->programs[i].exe_id = 0;
	}
}

bool adev_programs_kept(struct accel_dev *d)
{
	bool any = false;
	uint32_t i;

	pthread_mutex_lock(&d->lock);
	for (i = 0; i < ACCEL_PROGRAMS && !any; i++)
		any = d->programs[i].exe_id != 0;
	pthread_mutex_unlock(&d->lock);
	return any;
}

/* @exe's program on the device, uploaded now if it is not; under d->lock. */
static xrt_status *program_of(struct accel_dev *d, const struct xrt_executable *exe,
			      const struct xrt_allocator *a, struct accel_program **out)
{
	struct accel_program *p, *victim = NULL;
	xrt_status *st;
	uint32_t i;

	for (i = 0; i < ACCEL_PROGRAMS; i++) {
		p = &d->programs[i];
		if (p->exe_id == exe->id) {
			p->last_use = ++d->clock;
			*out = p;
			return NULL;
		}
		if (!p->pins && (!victim || (victim->exe_id && (!p->exe_id ||
							       p->last_use < victim->last_use))))
			victim = p;
	}
	if (!victim)
		return xrt_status_new(a, XRT_RESOURCE_EXHAUSTED, "%s: all %u kept programs are "
				      "in runs waiting at collectives", d->base.info.name,
				      ACCEL_PROGRAMS);
	adev_buf_free(d, &victim->prog);
	adev_buf_free(d, &victim->consts);
	victim->exe_id = 0;
	st = adev_buf_new(d, exe->program_size, a, &victim->prog);
	if (!st)
		st = adev_buf_new(d, xexe_slot_size(exe, XEXE_SLOT_CONSTANTS), a, &victim->consts);
	if (st) {
		adev_buf_free(d, &victim->prog);
		return st;
	}
	memcpy(victim->prog.data, exe->program, exe->program_size);
	memcpy(victim->consts.data, exe->constants, exe->constants_size);
	victim->exe_id = exe->id;
	victim->last_use = ++d->clock;
	*out = victim;
	return NULL;
}

/* Each slot's buffer object: the caller's, the arena, the constants. */
static void slot_handles(struct xdev_queue *q, const struct xrt_executable *exe,
			 const struct xdev_buf *slots, const struct accel_program *p,
			 uint32_t *bo)
{
	uint32_t s;

	for (s = 0; s < exe->num_slots; s++) {
		switch (exe->slots[s].kind) {
		case XEXE_SLOT_ARENA:
			bo[s] = q->arena.bo;
			break;
		case XEXE_SLOT_CONSTANTS:
			bo[s] = p->consts.bo;
			break;
		default:
			bo[s] = slots[s].bo;
			break;
		}
	}
}

static xrt_status *queue_reset(struct xdev_queue *q)
{
	return xrt_status_new(q->a, XRT_ABORTED,
			      "%s: the session's queue was reset after a job ran too long;"
			      " open a new session", q->d->base.info.name);
}

/*
 * Uploads what is missing and submits the job, which starts at command
 * @start; with @pin, pins the program and gives it.
 */
static xrt_status *submit(struct xdev_queue *q, const struct xrt_executable *exe,
			  const struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			  uint32_t *bo, uint32_t sync, uint32_t start, struct accel_program **pin)
{
	struct accel_dev *d = q->d;
	struct drm_xrt_submit sub = { 0 };
	struct accel_program *p = NULL;
	uint32_t *exits = NULL, i;
	xrt_status *st;
	int err;

	st = xdev_refuse_calls(exe, "an accel device", "its jobs run in the kernel, which "
			       "calls no code of a process", q->a);
	if (st)
		return st;
	/* the loops' exit jumps, ascending (the compiler keeps them so) */
	if (w && w->max_iterations && d->run_limits && exe->num_loops &&
	    exe->num_loops <= DRM_XRT_MAX_LOOPS) {
		exits = xrt_mem_calloc(q->a, exe->num_loops, sizeof(*exits));
		if (!exits)
			return xrt_status_oom(q->a, "the loops of a job");
		for (i = 0; i < exe->num_loops; i++)
			exits[i] = exe->loops[i].exit;
		sub.loops_ptr = (uintptr_t)exits;
		sub.num_loops = exe->num_loops;
		sub.max_iterations = w->max_iterations;
	}
	pthread_mutex_lock(&d->lock);
	st = program_of(d, exe, q->a, &p);
	if (!st) {
		slot_handles(q, exe, slots, p, bo);
		sub.queue_id = q->id;
		sub.program_handle = p->prog.bo;
		sub.num_slots = exe->num_slots;
		sub.program_size = exe->program_size;
		sub.slots_ptr = (uintptr_t)bo;
		sub.out_sync = sync;
		sub.rng_seed = seed;
		/* the deadline travels with the job; an iteration bound does not yet */
		sub.deadline_ns = w && d->run_limits ? w->deadline_ns : 0;
		sub.start_pc = start;
		if (w && w->peer) {
			sub.replica_id = w->peer->replica;
			sub.partition_id = w->peer->partition;
		}
		err = adev_ioctl(d->fd, DRM_IOCTL_XRT_SUBMIT, &sub);
		if (err == ECANCELED)	/* an asynchronous job was stopped */
			q->reset = true;
		if (err)
			st = q->reset ? queue_reset(q) :
					adev_errno(d, q->a, "DRM_IOCTL_XRT_SUBMIT", err);
		if (!st && pin) {
			p->pins++;
			*pin = p;
		}
	}
	pthread_mutex_unlock(&d->lock);
	xrt_mem_free(q->a, exits);
	return st;
}

static xrt_status *stopped(struct accel_dev *d, const struct xrt_allocator *a)
{
	return xrt_status_new(a, XRT_ABORTED,
			      "%s: the job ran past the device's time limit and was stopped;"
			      " the session's queue was reset", d->base.info.name);
}

/* How the signalled fence in @sync ended: NULL, or its error. */
static xrt_status *fence_error(struct accel_dev *d, uint32_t sync, const struct xrt_allocator *a)
{
	struct sync_file_info info;
	int fd, err;

	if (drmSyncobjExportSyncFile(d->fd, sync, &fd))
		return adev_errno(d, a, "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD", errno);
	memset(&info, 0, sizeof(info));
	err = ioctl(fd, SYNC_IOC_FILE_INFO, &info) ? errno : 0;
	close(fd);
	if (err)
		return adev_errno(d, a, "SYNC_IOC_FILE_INFO", err);
	if (info.status >= 0)
		return NULL;
	if (info.status == -ETIMEDOUT)
		return stopped(d, a);
	if (info.status == -ELOOP)
		return xrt_status_new(a, XRT_DEADLINE_EXCEEDED, "%s: run: a while loop ran past "
				      "max_iterations", d->base.info.name);
	if (info.status == -ETIME)
		return xrt_status_new(a, XRT_DEADLINE_EXCEEDED, "%s: run: deadline passed (the "
				      "driver stopped the job; the queue goes on)", d->base.info.name);
	if (info.status == -ECANCELED)
		return xrt_status_new(a, XRT_ABORTED, "%s: the job was cancelled: its queue was "
				      "reset or destroyed first", d->base.info.name);
	return adev_errno(d, a, "the job", -info.status);
}

/*
 * Waits for the job; with a cancel flag to watch, in slices of 10 ms,
 * and cancels the queue's jobs (not the queue) once it is raised.
 * Whether it did, in *@cancelled.
 */
static xrt_status *wait_job(struct xdev_queue *q, const struct xdev_watch *w, bool *cancelled)
{
	struct accel_dev *d = q->d;
	struct drm_xrt_queue_cancel qc = { .queue_id = q->id };
	struct timespec t;
	int64_t until;
	int err;

	*cancelled = false;
	if (!w || !w->cancel || !d->run_limits) {
		if (drmSyncobjWait(d->fd, &q->sync, 1, INT64_MAX, 0, NULL))
			return adev_errno(d, q->a, "DRM_IOCTL_SYNCOBJ_WAIT", errno);
		return NULL;
	}
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		until = t.tv_sec * 1000000000ll + t.tv_nsec + 10000000;
		if (!drmSyncobjWait(d->fd, &q->sync, 1, until, 0, NULL))
			return NULL;
		if (errno != ETIME && errno != ETIMEDOUT)
			return adev_errno(d, q->a, "DRM_IOCTL_SYNCOBJ_WAIT", errno);
		if (!*cancelled && atomic_load(w->cancel)) {
			err = adev_ioctl(d->fd, DRM_IOCTL_XRT_QUEUE_CANCEL, &qc);
			if (err)
				return adev_errno(d, q->a, "DRM_IOCTL_XRT_QUEUE_CANCEL", err);
			*cancelled = true;
		}
	}
}

/*
 * What a job that ended with @err (positive) was stopped by, if by a
 * limit, and where (QUEUE_STATUS: the loop @loop, the command @pc).
 */
static xrt_status *limit_error(struct xdev_queue *q, int err, bool cancelled,
			       const struct xrt_executable *exe, const struct xdev_watch *w,
			       const struct drm_xrt_queue_status *qs)
{
	const char *dev = q->d->base.info.name;
	char where[256] = "";

	if (exe && qs)
		xdev_watch_where(exe, qs->last_pc, where, sizeof(where));
	if (err == ELOOP && exe && w && qs && qs->last_loop < exe->num_loops)
		return xrt_status_new(q->a, XRT_DEADLINE_EXCEEDED,
				      "%s: run: %s: more than %llu iterations", dev,
				      exe->loops[qs->last_loop].where,
				      (unsigned long long)w->max_iterations);
	if (err == ECANCELED && cancelled)
		return xrt_status_new(q->a, XRT_CANCELLED, "%s: run: cancelled%s%s (the driver "
				      "stopped the job; the queue goes on)", dev, *where ? " " : "",
				      where);
	if (err == ETIME)
		return xrt_status_new(q->a, XRT_DEADLINE_EXCEEDED, "%s: run: deadline passed%s%s "
				      "(the driver stopped the job; the queue goes on)", dev,
				      *where ? " " : "", where);
	return NULL;
}

/* Waits for the job and tells how it ended. */
static xrt_status *finish(struct xdev_queue *q, const struct xrt_executable *exe,
			  const struct xdev_watch *w)
{
	struct accel_dev *d = q->d;
	struct drm_xrt_queue_status qs = { .queue_id = q->id };
	bool cancelled;
	xrt_status *st = wait_job(q, w, &cancelled);
	int err = 0;

	if (st)
		return st;
	if (q->had_async) {
		st = fence_error(d, q->sync, q->a);
		if (st && cancelled && xrt_status_code(st) == XRT_ABORTED) {
			xrt_status_free(st);	/* ours, not a reset */
			return limit_error(q, ECANCELED, true, NULL, NULL, NULL);
		}
		if (st && xrt_status_code(st) == XRT_ABORTED)
			q->reset = true;
		return st;
	}
	err = adev_ioctl(d->fd, DRM_IOCTL_XRT_QUEUE_STATUS, &qs);
	if (err)
		return adev_errno(d, q->a, "DRM_IOCTL_XRT_QUEUE_STATUS", err);
	if (qs.completed > q->completed) {
		q->completed = qs.completed;
		return NULL;
	}
	if (qs.flags & DRM_XRT_QUEUE_GUILTY) {
		q->reset = true;
		return stopped(d, q->a);
	}
	st = limit_error(q, -qs.last_error, cancelled, exe, w, &qs);
	if (st)
		return st;
	return adev_errno(d, q->a, "the job", qs.last_error < 0 ? -qs.last_error : EIO);
}

/* The COLLECTIVE the last job stopped at, or ~0 when it ran to its end. */
static xrt_status *stop_of(struct xdev_queue *q, uint32_t *stop)
{
	struct drm_xrt_queue_status qs = { .queue_id = q->id };
	int err = adev_ioctl(q->d->fd, DRM_IOCTL_XRT_QUEUE_STATUS, &qs);

	if (err)
		return adev_errno(q->d, q->a, "DRM_IOCTL_XRT_QUEUE_STATUS", err);
	*stop = qs.stop_pc;
	return NULL;
}

/* NULL when the driver can run @exe: one that meets other devices needs it to stop at them. */
static xrt_status *check_devices(struct xdev_queue *q, const struct xrt_executable *exe)
{
	if (!exe->num_groups && exe->num_replicas * exe->num_partitions <= 1)
		return NULL;
	if (q->d->collectives)
		return NULL;
	return xrt_status_new(q->a, XRT_UNIMPLEMENTED, "%s: a program of %u x %u devices: this "
			      "xrt_accel driver's jobs do not stop at collectives (no "
			      "DRM_XRT_CAP_COLLECTIVES)", q->d->base.info.name, exe->num_replicas,
			      exe->num_partitions);
}

/* Each slot's mapping, as the job of program @p sees it. */
static void slot_data(struct xdev_queue *q, const struct xrt_executable *exe,
		      const struct xdev_buf *slots, const struct accel_program *p, uint8_t **data)
{
	uint32_t s;

	for (s = 0; s < exe->num_slots; s++) {
		switch (exe->slots[s].kind) {
		case XEXE_SLOT_ARENA:
			data[s] = q->arena.data;
			break;
		case XEXE_SLOT_CONSTANTS:
			data[s] = p->consts.data;
			break;
		default:
			data[s] = slots[s].data;
			break;
		}
	}
}

/*
 * The jobs of one run: from the start to a COLLECTIVE, the collective
 * performed here, from after it to the next, and so on to the end.  The
 * program stays pinned meanwhile: a collective may read its constants.
 */
static xrt_status *run_jobs(struct xdev_queue *q, const struct xrt_executable *exe,
			    struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			    uint32_t *bo, uint8_t **data)
{
	struct accel_program *p = NULL;
	uint32_t start = 0, stop = ~0u;
	xrt_status *st;

	for (;;) {
		st = submit(q, exe, slots, seed, w, bo, q->sync, start,
			    exe->num_groups && !p ? &p : NULL);
		if (!st)
			st = finish(q, exe, w);
		if (!st && exe->num_groups)
			st = stop_of(q, &stop);
		if (st || stop == ~0u)
			break;
		if (start == 0)
			slot_data(q, exe, slots, p, data);
		st = adev_collective(exe, data, stop, w);
		if (st)
			break;
		start = stop + 1;
	}
	if (p) {
		pthread_mutex_lock(&q->d->lock);
		p->pins--;
		pthread_mutex_unlock(&q->d->lock);
	}
	return st;
}

static xrt_status *ensure_arena(struct xdev_queue *q, uint64_t size)
{
	if (q->arena.bo && q->arena.size >= size)
		return NULL;
	adev_buf_free(q->d, &q->arena);
	return adev_buf_new(q->d, size, q->a, &q->arena);
}

/* @w: its deadline and cancel flag are kept; an iteration bound not yet. */
xrt_status *adev_run(struct xdev_queue *q, const struct xrt_executable *exe,
		      struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	uint32_t small[32], *bo = small;
	uint8_t *small_data[32], **data = small_data;
	xrt_status *st = check_devices(q, exe);

	if (st)
		return st;
	if (exe->num_slots > 32) {
		bo = xrt_mem_calloc(q->a, exe->num_slots, sizeof(*bo));
		data = xrt_mem_calloc(q->a, exe->num_slots, sizeof(*data));
		if (!bo || !data) {
			xrt_mem_free(q->a, bo);
			xrt_mem_free(q->a, data);
			return xrt_status_oom(q->a, "slots");
		}
	}
	pthread_mutex_lock(&q->lock);
	if (q->reset)
		st = queue_reset(q);
	else
		st = ensure_arena(q, xexe_slot_size(exe, XEXE_SLOT_ARENA));
	if (!st)
		st = run_jobs(q, exe, slots, seed, w, bo, data);
	pthread_mutex_unlock(&q->lock);
	if (bo != small) {
		xrt_mem_free(q->a, bo);
		xrt_mem_free(q->a, data);
	}
	return st;
}

static void event_free(struct xdev_event *e)
{
	if (!e)
		return;
	if (e->sync)
		drmSyncobjDestroy(e->d->fd, e->sync);
	xdev_unref(&e->d->base);
	xrt_mem_free(e->a, e);
}

xrt_status *adev_submit(struct xdev_queue *q, const struct xrt_executable *exe,
			struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			struct xdev_hold *hold, struct xdev_event **out)
{
	struct accel_dev *d = q->d;
	struct xdev_event *e = xrt_mem_calloc(q->a, 1, sizeof(*e));
	uint32_t small[32], *bo = small;
	xrt_status *st = NULL;

	*out = NULL;
	if (!e)
		return xrt_status_oom(q->a, "an event");
	xdev_ref(&d->base);
	e->d = d;
	e->a = q->a;
	if (exe->num_slots > 32)
		bo = xrt_mem_calloc(q->a, exe->num_slots, sizeof(*bo));
	if (!bo)
		st = xrt_status_oom(q->a, "slots");
	else if (drmSyncobjCreate(d->fd, 0, &e->sync))
		st = adev_errno(d, q->a, "DRM_IOCTL_SYNCOBJ_CREATE", errno);
	if (!st && exe->num_groups)
		st = xrt_status_new(q->a, XRT_UNIMPLEMENTED, "%s: a program with collectives runs "
				    "to its end only synchronously: its jobs stop at each one",
				    d->base.info.name);
	if (!st) {
		pthread_mutex_lock(&q->lock);
		st = q->reset ? queue_reset(q) : ensure_arena(q, xexe_slot_size(exe, XEXE_SLOT_ARENA));
		if (!st)
			st = submit(q, exe, slots, seed, w, bo, e->sync, 0, NULL);
		q->had_async = true;
		pthread_mutex_unlock(&q->lock);
	}
	if (bo != small)
		xrt_mem_free(q->a, bo);
	if (st) {
		event_free(e);
		return st;
	}
	hold->release(hold);	/* the driver holds the program copy and the buffers */
	*out = e;
	return NULL;
}

xrt_status *adev_event_wait(struct xdev_event *e, int64_t timeout_ns,
			    const struct xrt_allocator *a, bool *running)
{
	struct timespec now;
	int64_t until = INT64_MAX;

	*running = false;
	if (timeout_ns >= 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		until = now.tv_sec * 1000000000ll + now.tv_nsec;
		until = timeout_ns > INT64_MAX - until ? INT64_MAX : until + timeout_ns;
	}
	if (drmSyncobjWait(e->d->fd, &e->sync, 1, until, 0, NULL)) {
		if (errno != ETIME && errno != ETIMEDOUT)
			return adev_errno(e->d, a, "DRM_IOCTL_SYNCOBJ_WAIT", errno);
		*running = true;
		return NULL;
	}
	return fence_error(e->d, e->sync, a);
}

void adev_event_free(struct xdev_event *e)
{
	event_free(e);
}
