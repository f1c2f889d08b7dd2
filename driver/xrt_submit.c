// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_XRT_SUBMIT: copy and validate the program, bind and map its
 * buffers, collect the job's dependencies and push it to its queue.
 * Everything that can fail happens before the job is armed; after that
 * the job belongs to the scheduler.
 */
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>
#include <asm/fpu/api.h>

#include "xrt_job.h"

/* A buffer the job uses, once, with whether any slot writes it. */
struct xrt_use {
	struct drm_gem_object *obj;
	bool write;
};

static int check_args(const struct drm_xrt_submit *a)
{
	if (a->flags || a->pad || a->pad1 || a->num_loops > DRM_XRT_MAX_LOOPS)
		return -EINVAL;
	if (a->num_slots > XRT_MAX_SLOTS || a->num_in_syncs > XRT_MAX_IN_SYNCS)
		return -EINVAL;
	if (!a->program_size || a->program_size > XRT_MAX_PROGRAM_SIZE ||
	    (a->program_offset & 7))
		return -EINVAL;
	return 0;
}

/* Counts @bytes more of the job's kernel memory as device memory. */
static int charge(struct xrt_job *job, u64 bytes)
{
	struct xrt_file *xfile = job->queue->xfile;
	int ret = xrt_memory_charge(xfile->xdev, xfile->account, bytes);

	if (!ret)
		job->charged += bytes;
	return ret;
}

/* A private copy, so that userspace cannot change what was validated. */
static int copy_program(struct xrt_job *job, struct drm_file *file,
			const struct drm_xrt_submit *a)
{
	struct drm_gem_shmem_object *shmem;
	struct drm_gem_object *obj;
	struct iosys_map map;
	u64 end;
	int ret;

	obj = drm_gem_object_lookup(file, a->program_handle);
	if (!obj)
		return -ENOENT;
	ret = -EINVAL;
	if (check_add_overflow(a->program_offset, a->program_size, &end) ||
	    end > obj->size)
		goto out;
	ret = charge(job, a->program_size);
	if (ret)
		goto out;
	ret = -ENOMEM;
	job->program = kvmalloc(a->program_size, GFP_KERNEL);
	if (!job->program)
		goto out;
	shmem = to_drm_gem_shmem_obj(obj);
	ret = drm_gem_shmem_vmap(shmem, &map);
	if (ret)
		goto out;
	if (map.is_iomem)
		ret = -EINVAL;
	else
		memcpy(job->program, (u8 *)map.vaddr + a->program_offset,
		       a->program_size);
	drm_gem_shmem_vunmap(shmem, &map);
out:
	drm_gem_object_put(obj);
	return ret;
}

/*
 * The engine objects may use vector registers anywhere, validation
 * included, so it runs inside FPU sections: one for every
 * VALIDATE_BUDGET commands, each bounded in size, with a chance to
 * reschedule between them.
 */
#define VALIDATE_BUDGET	64
static int validate_program(struct xrt_job *job, struct drm_device *drm,
			    u64 size)
{
	struct xrt_engine_error err = { 0 };
	u32 count = 0, next = 0;
	int ret;

	kernel_fpu_begin();
	ret = xrt_engine_count_commands(job->program, size, &count, &err);
	kernel_fpu_end();
	if (!ret) {
		/* the plans mirror the program: as many bytes, charged alike */
		ret = charge(job, size);
		if (ret)
			return ret;
		job->offsets = kvmalloc_array(max(count, 1u), sizeof(u32),
					      GFP_KERNEL);
		job->plans = kvmalloc(size, GFP_KERNEL);
		if (!job->offsets || !job->plans)
			return -ENOMEM;
		do {
			kernel_fpu_begin();
			ret = xrt_engine_validate_some(&job->prog, job->program, size,
						       job->offsets, job->plans, &err,
						       &next, VALIDATE_BUDGET);
			kernel_fpu_end();
			cond_resched();
		} while (!ret);
		ret = ret < 0 ? ret : 0;
	}
	if (ret) {
		drm_dbg(drm, "SUBMIT: program rejected: command %d part %d: %s (%llu, %llu)\n",
			(int)err.command, (int)err.part, err.reason,
			err.value[0], err.value[1]);
		return -EINVAL;
	}
	return 0;
}

static int bind_slots(struct xrt_job *job, struct drm_file *file,
		      const struct drm_xrt_submit *a)
{
	u32 i, n = a->num_slots;
	int ret;

	if (n != job->prog.num_slots)
		return -EINVAL;
	if (!n)
		return 0;
	ret = drm_gem_objects_lookup(file, u64_to_user_ptr(a->slots_ptr), n,
				     &job->bos);
	job->num_slots = job->bos ? n : 0;
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (job->bos[i]->size < job->prog.slots[i].size)
			return -EINVAL;
	}
	job->maps = kvcalloc(n, sizeof(*job->maps), GFP_KERNEL);
	job->vaddrs = kvcalloc(n, sizeof(*job->vaddrs), GFP_KERNEL);
	if (!job->maps || !job->vaddrs)
		return -ENOMEM;
	/* Mapped now: the worker runs where allocating is not allowed. */
	for (i = 0; i < n; i++) {
		ret = drm_gem_shmem_vmap(to_drm_gem_shmem_obj(job->bos[i]),
					 &job->maps[i]);
		if (ret)
			return ret;
		job->vaddrs[i] = job->maps[i].vaddr;
		if (job->maps[i].is_iomem || !IS_ALIGNED((unsigned long)job->vaddrs[i], 64))
			return -EINVAL;
	}
	return 0;
}

static int alloc_workspace(struct xrt_job *job)
{
	u64 t = job->prog.thread_ws_size, s = job->prog.shared_ws_size;
	u8 *base;
	int ret;

	if (t > XRT_MAX_WORKSPACE || s > XRT_MAX_WORKSPACE ||
	    ALIGN(t, 64) + s > XRT_MAX_WORKSPACE)
		return -ENOSPC;
	t = ALIGN(t, 64);
	ret = charge(job, t + s);
	if (ret)
		return ret;
	/* Zeroed: no stale kernel memory can reach a result. */
	job->workspace = kvzalloc(t + s + 64, GFP_KERNEL);
	if (!job->workspace)
		return -ENOMEM;
	base = PTR_ALIGN((u8 *)job->workspace, 64);
	job->thread_ws = base;
	job->shared_ws = base + t;
	return 0;
}

static int add_in_syncs(struct xrt_job *job, struct drm_file *file,
			const struct drm_xrt_submit *a)
{
	u32 __user *handles = u64_to_user_ptr(a->in_syncs_ptr);
	struct dma_fence *fence;
	u32 i, h;
	int ret;

	for (i = 0; i < a->num_in_syncs; i++) {
		if (get_user(h, handles + i))
			return -EFAULT;
		ret = drm_syncobj_find_fence(file, h, 0, 0, &fence);
		if (ret)
			return ret;
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmp_use(const void *a, const void *b)
{
	const struct xrt_use *x = a, *y = b;

	if (x->obj == y->obj)
		return 0;
	return x->obj < y->obj ? -1 : 1;
}

/* Each buffer once (a buffer may fill several slots), writers marked. */
static u32 collect_uses(const struct xrt_job *job, struct xrt_use *uses)
{
	u32 i, n = 0;

	for (i = 0; i < job->num_slots; i++) {
		uses[i].obj = job->bos[i];
		uses[i].write = job->prog.slots[i].flags & XRT_CS_SLOT_WRITE;
	}
	sort(uses, job->num_slots, sizeof(*uses), cmp_use, NULL);
	for (i = 0; i < job->num_slots; i++) {
		if (n && uses[n - 1].obj == uses[i].obj)
			uses[n - 1].write |= uses[i].write;
		else
			uses[n++] = uses[i];
	}
	return n;
}

static void unlock_uses(struct xrt_use *uses, struct drm_gem_object **objs,
			u32 n, struct ww_acquire_ctx *ctx)
{
	if (n)
		drm_gem_unlock_reservations(objs, n, ctx);
}

/* Locks every buffer's reservation and waits on what it must wait on. */
static int lock_uses(struct xrt_job *job, struct xrt_use *uses,
		     struct drm_gem_object **objs, u32 n,
		     struct ww_acquire_ctx *ctx)
{
	u32 i;
	int ret;

	for (i = 0; i < n; i++)
		objs[i] = uses[i].obj;
	if (!n)
		return 0;
	ret = drm_gem_lock_reservations(objs, n, ctx);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		ret = dma_resv_reserve_fences(objs[i]->resv, 1);
		if (!ret)
			ret = drm_sched_job_add_implicit_dependencies(&job->base,
								      objs[i],
								      uses[i].write);
		if (ret) {
			drm_gem_unlock_reservations(objs, n, ctx);
			return ret;
		}
	}
	return 0;
}

static void push(struct xrt_job *job, struct xrt_use *uses,
		 struct drm_gem_object **objs, u32 n,
		 struct ww_acquire_ctx *ctx, struct drm_syncobj *out)
{
	struct xrt_queue *q = job->queue;
	struct xrt_device *xdev = q->xfile->xdev;
	struct dma_fence *done;
	u32 i;

	mutex_lock(&q->push_lock);
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	atomic_inc(&q->live_jobs);
	atomic_inc(&xdev->live_jobs);
	job->number = atomic64_inc_return(&q->submitted) - 1;
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&q->push_lock);

	for (i = 0; i < n; i++)
		dma_resv_add_fence(objs[i]->resv, done,
				   uses[i].write ? DMA_RESV_USAGE_WRITE :
						   DMA_RESV_USAGE_READ);
	unlock_uses(uses, objs, n, ctx);
	if (out)
		drm_syncobj_replace_fence(out, done);
	dma_fence_put(done);
}

/* Everything after the job is initialized with the scheduler. */
static int queue_job(struct xrt_job *job, struct drm_file *file,
		     const struct drm_xrt_submit *a)
{
	struct drm_syncobj *out = NULL;
	struct drm_gem_object **objs = NULL;
	struct xrt_use *uses = NULL;
	struct ww_acquire_ctx ctx;
	u32 n = 0;
	int ret;

	ret = add_in_syncs(job, file, a);
	if (ret)
		return ret;
	if (a->out_sync) {
		out = drm_syncobj_find(file, a->out_sync);
		if (!out)
			return -ENOENT;
	}
	if (job->num_slots) {
		uses = kvmalloc_array(job->num_slots, sizeof(*uses), GFP_KERNEL);
		objs = kvmalloc_array(job->num_slots, sizeof(*objs), GFP_KERNEL);
		ret = -ENOMEM;
		if (!uses || !objs)
			goto out;
		n = collect_uses(job, uses);
	}
	ret = lock_uses(job, uses, objs, n, &ctx);
	if (!ret)
		push(job, uses, objs, n, &ctx, out);
out:
	kvfree(objs);
	kvfree(uses);
	if (out)
		drm_syncobj_put(out);
	return ret;
}

/*
 * The loops' exit jumps, with max_iterations: each a conditional JUMP of
 * the validated program, strictly ascending (so the engine's hook finds
 * one by bisection); their counters.
 */
static int copy_loops(struct xrt_job *job, const struct drm_xrt_submit *a)
{
	const struct xrt_cs_jump *j;
	u32 i;

	job->max_iterations = a->max_iterations;
	if (!a->max_iterations || !a->num_loops)
		return 0;
	job->loops = kvmalloc_array(a->num_loops, sizeof(u32), GFP_KERNEL);
	job->counts = kvcalloc(a->num_loops, sizeof(u64), GFP_KERNEL);
	if (!job->loops || !job->counts)
		return -ENOMEM;
	if (copy_from_user(job->loops, u64_to_user_ptr(a->loops_ptr),
			   a->num_loops * sizeof(u32)))
		return -EFAULT;
	job->num_loops = a->num_loops;
	for (i = 0; i < a->num_loops; i++) {
		if (job->loops[i] >= job->prog.num_commands ||
		    (i && job->loops[i] <= job->loops[i - 1]))
			return -EINVAL;
		j = (const void *)(job->program + job->offsets[job->loops[i]]);
		if (j->cmd.op != XRT_CS_OP_JUMP || j->mode == XRT_CS_JUMP_ALWAYS)
			return -EINVAL;
	}
	return 0;
}

/*
 * Where the job starts: at the beginning, or resuming after a COLLECTIVE
 * (the only command a job stops at without an error).
 */
static int check_start(struct xrt_job *job, const struct drm_xrt_submit *a)
{
	const struct xrt_cs_cmd *c;

	if (!a->start_pc)
		return 0;
	if (a->start_pc > job->prog.num_commands)
		return -EINVAL;
	c = (const void *)(job->program + job->offsets[a->start_pc - 1]);
	if (c->op != XRT_CS_OP_COLLECTIVE)
		return -EINVAL;
	job->start_pc = a->start_pc;
	return 0;
}

static int prepare(struct xrt_job *job, struct drm_device *drm,
		   struct drm_file *file, const struct drm_xrt_submit *a)
{
	int ret;

	ret = copy_program(job, file, a);
	if (!ret)
		ret = validate_program(job, drm, a->program_size);
	if (!ret)
		ret = check_start(job, a);
	if (!ret)
		ret = copy_loops(job, a);
	if (!ret)
		ret = bind_slots(job, file, a);
	if (!ret)
		ret = alloc_workspace(job);
	if (ret)
		return ret;
	job->fence_mem = kzalloc(sizeof(*job->fence_mem), GFP_KERNEL);
	if (!job->fence_mem)
		return -ENOMEM;
	job->rng_seed = a->rng_seed;
	job->deadline_ns = a->deadline_ns;
	job->replica_id = a->replica_id;
	job->partition_id = a->partition_id;
	INIT_WORK(&job->work, xrt_job_work);
	return 0;
}

int xrt_ioctl_submit(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_xrt_submit *a = data;
	struct xrt_queue *q;
	struct xrt_job *job;
	int ret;

	ret = check_args(a);
	if (ret)
		return ret;
	q = xrt_queue_get(file->driver_priv, a->queue_id);
	if (!q)
		return -ENOENT;
	ret = -ECANCELED;
	if (atomic_read(&q->guilty))
		goto put_queue;
	ret = -ENOMEM;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		goto put_queue;
	job->queue = q;
	ret = prepare(job, drm, file, a);
	if (ret)
		goto free_job;
	ret = drm_sched_job_init(&job->base, &q->entity, q->xfile);
	if (ret)
		goto free_job;
	ret = queue_job(job, file, a);
	if (ret) {
		drm_sched_job_cleanup(&job->base);
		goto free_job;
	}
	xrt_queue_put(q);
	return 0;

free_job:
	xrt_job_free(job);
put_queue:
	xrt_queue_put(q);
	return ret;
}
