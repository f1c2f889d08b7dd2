// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running jobs: the scheduler callbacks and the worker that drives the
 * engine.  run_job hands the job to a worker and returns its hardware
 * fence at once; the worker runs the program in bounded FPU sections,
 * yielding between them, and stops early when asked (timeout, queue
 * destroyed).
 */
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>
#include <asm/fpu/api.h>

#include "xrt_job.h"

static const char *fence_driver_name(struct dma_fence *f)
{
	return XRT_DRIVER_NAME;
}

static const char *fence_timeline_name(struct dma_fence *f)
{
	return "engine";
}

static const struct dma_fence_ops xrt_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = fence_timeline_name,
};

void xrt_job_free(struct xrt_job *job)
{
	u32 i;

	for (i = 0; i < job->num_slots; i++) {
		if (job->vaddrs && job->vaddrs[i])
			drm_gem_shmem_vunmap(to_drm_gem_shmem_obj(job->bos[i]),
					     &job->maps[i]);
		if (job->bos[i])
			drm_gem_object_put(job->bos[i]);
	}
	kvfree(job->bos);
	kvfree(job->maps);
	kvfree(job->vaddrs);
	kvfree(job->program);
	kvfree(job->offsets);
	kvfree(job->plans);
	kvfree(job->workspace);
	kvfree(job->loops);
	kvfree(job->counts);
	xrt_memory_uncharge(job->queue->xfile->xdev, job->queue->xfile->account, job->charged);
	if (job->hw_fence)
		dma_fence_put(job->hw_fence);
	else
		kfree(job->fence_mem);
	kfree(job);
}

/*
 * Why the job must stop now, or 0: stopped by the timeout, its queue
 * going away or cancelled (QUEUE_CANCEL), its deadline passed.
 */
static int stop_reason(struct xrt_job *job)
{
	int why = atomic_read(&job->stop);

	if (!why && (atomic_read(&job->queue->dying) ||
		     job->number < (u64)atomic64_read(&job->queue->cancel_below)))
		why = -ECANCELED;
	if (!why && job->deadline_ns && ktime_get_ns() >= job->deadline_ns)
		why = -ETIME;
	return why;
}

/* A job made to hang (debugfs fault injection) waits to be stopped. */
static int hang(struct xrt_job *job)
{
	int why;

	while (!(why = stop_reason(job)))
		usleep_range(1000, 2000);
	return why;
}

/*
 * Called by the engine inside a long item (struct xrt_engine_ctx.yield),
 * in the FPU section execute() opened: leave it for a moment so that the
 * scheduler can run others, and ask the item to stop if the job must.
 */
static int job_yield(void *arg)
{
	struct xrt_job *job = arg;

	kernel_fpu_end();
	cond_resched();
	kernel_fpu_begin();
	return stop_reason(job) != 0;
}

/*
 * Called by the engine after each JUMP (struct xrt_engine_ctx.jumped):
 * a loop's exit jump not taken is one more iteration of that execution
 * of the loop, taken it ends it.  Past max_iterations the job stops.
 */
static int job_jumped(void *arg, u32 pc, u32 next)
{
	struct xrt_job *job = arg;
	u32 lo = 0, hi = job->num_loops, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (job->loops[mid] < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == job->num_loops || job->loops[lo] != pc)
		return 0;
	if (next != pc + 1) {
		job->counts[lo] = 0;
		return 0;
	}
	if (++job->counts[lo] <= job->max_iterations)
		return 0;
	atomic_set(&job->queue->last_loop, lo);
	return 1;
}

static int execute(struct xrt_job *job)
{
	struct xrt_engine_ctx ctx = {
		.prog = &job->prog,
		.slots = job->vaddrs,
		.shared_ws = job->shared_ws,
		.rng_seed = job->rng_seed,
		.yield = job_yield,
		.yield_arg = job,
		.jumped = job->max_iterations ? job_jumped : NULL,
		.jumped_arg = job,
		.replica_id = job->replica_id,
		.partition_id = job->partition_id,
	};
	struct xrt_engine_cursor cur = { .pc = job->start_pc };
	u64 budget = max(READ_ONCE(xrt_chunk_items), 1u);
	bool started = false;
	int done, why;

	for (;;) {
		why = stop_reason(job);
		if (why)
			break;
		kernel_fpu_begin();
		done = xrt_engine_step(&ctx, &cur, budget, job->thread_ws);
		kernel_fpu_end();
		started = true;
		if (done < 0 && xrt_engine_collective_of(&ctx, cur.pc)) {
			/* userspace performs it and resumes after it */
			atomic_set(&job->queue->stop_pc, (int)cur.pc);
			return 0;
		}
		if (done < 0) {
			why = -ELOOP;	/* job_jumped: a loop ran past its bound */
			break;
		}
		if (done) {
			atomic_set(&job->queue->stop_pc, -1);
			return 0;
		}
		cond_resched();
	}
	/* Where it stopped: the command it was in or about to run. */
	atomic_set(&job->queue->last_pc, started ? (int)cur.pc : -1);
	return why;
}

void xrt_job_work(struct work_struct *work)
{
	struct xrt_job *job = container_of(work, struct xrt_job, work);
	struct xrt_queue *q = job->queue;
	struct xrt_device *xdev = q->xfile->xdev;
	u64 t0 = ktime_get_ns(), dt;
	int err;

	if (atomic_add_unless(&xdev->fault.hang_job, -1, 0))
		err = hang(job);
	else
		err = execute(job);
	dt = ktime_get_ns() - t0;
	atomic64_add(dt, &q->xfile->busy_ns);
	atomic64_add(dt, &xdev->busy_ns);
	if (err) {
		/* The scheduler does not pass a hardware fence's error on. */
		dma_fence_set_error(job->hw_fence, err);
		dma_fence_set_error(&job->base.s_fence->finished, err);
		atomic_set(&q->last_error, err);
		atomic64_inc(&xdev->jobs_failed);
	} else {
		atomic64_inc(&q->completed);
		atomic64_inc(&xdev->jobs_done);
	}
	dma_fence_signal(job->hw_fence);
}

static struct dma_fence *xrt_run_job(struct drm_sched_job *sj)
{
	struct xrt_job *job = to_xrt_job(sj);
	struct xrt_queue *q = job->queue;
	struct xrt_hw_fence *f = job->fence_mem;
	int why;

	if (sj->s_fence->finished.error)
		return NULL;
	/* A queue that was reset or is going away runs nothing more. */
	if (atomic_read(&q->guilty) || atomic_read(&q->dying)) {
		atomic_set(&q->last_error, -ECANCELED);
		atomic_set(&q->last_pc, -1);
		return ERR_PTR(-ECANCELED);
	}
	/* cancelled while it waited, or out of time before it began */
	why = stop_reason(job);
	if (why) {
		atomic_set(&q->last_error, why);
		atomic_set(&q->last_pc, -1);
		return ERR_PTR(why);
	}
	spin_lock_init(&f->lock);
	dma_fence_init(&f->base, &xrt_fence_ops, &f->lock, q->fence_context,
		       ++q->fence_seqno);
	job->hw_fence = &f->base;
	queue_work(q->wq, &job->work);
	/* The scheduler takes this reference; the job keeps the first. */
	return dma_fence_get(&f->base);
}

/*
 * The job ran too long.  Stop the scheduler so that it keeps the job,
 * ask the worker to stop at its next chunk and wait for it, then let
 * the scheduler complete the job (with the error the worker set) and go
 * on.  The queue is marked guilty: it runs nothing more.  Other queues
 * have their own schedulers and never notice.
 */
static enum drm_gpu_sched_stat xrt_timedout_job(struct drm_sched_job *sj)
{
	struct xrt_job *job = to_xrt_job(sj);
	struct xrt_queue *q = job->queue;

	drm_sched_stop(&q->sched, sj);
	atomic_cmpxchg(&job->stop, 0, -ETIMEDOUT);
	flush_work(&job->work);
	if (job->hw_fence->error == -ETIMEDOUT) {
		atomic_set(&q->guilty, 1);
		atomic_inc(&q->resets);
		atomic64_inc(&q->xfile->xdev->resets);
		drm_warn(&q->xfile->xdev->drm, "%s: job stopped after %u ms; queue reset\n",
			 q->name, xrt_job_timeout_ms);
	}
	drm_sched_start(&q->sched, true);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void xrt_free_job(struct drm_sched_job *sj)
{
	struct xrt_job *job = to_xrt_job(sj);
	struct xrt_queue *q = job->queue;
	struct xrt_device *xdev = q->xfile->xdev;

	drm_sched_job_cleanup(sj);
	xrt_job_free(job);
	atomic_dec(&xdev->live_jobs);
	/* Keyed by address only: safe even if the queue is freed at once. */
	if (atomic_dec_and_test(&q->live_jobs))
		wake_up_var(&q->live_jobs);
}

const struct drm_sched_backend_ops xrt_sched_ops = {
	.run_job = xrt_run_job,
	.timedout_job = xrt_timedout_job,
	.free_job = xrt_free_job,
};
