// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queues: each is a drm_sched scheduler with one entity, so that jobs of
 * one queue run in order, queues run concurrently, and a job that hangs
 * stops its own queue only.  The id table of the file holds a reference
 * on each queue; ioctls take another while they use it.
 */
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <drm/drm_print.h>

#include "xrt_drv.h"

static atomic_t queue_names = ATOMIC_INIT(0);

static int init_sched(struct xrt_queue *q, struct device *dev)
{
	long timeout = msecs_to_jiffies(xrt_job_timeout_ms);
#ifdef XRT_HAVE_SCHED_INIT_ARGS
	const struct drm_sched_init_args args = {
		.ops = &xrt_sched_ops,
		.credit_limit = 1,
		.hang_limit = 0,
		.timeout = timeout,
		.name = q->name,
		.dev = dev,
	};

	return drm_sched_init(&q->sched, &args);
#else
	return drm_sched_init(&q->sched, &xrt_sched_ops, 1, 0, timeout, NULL,
			      NULL, q->name, dev);
#endif
}

static struct xrt_queue *queue_new(struct xrt_file *xfile, u32 priority)
{
	struct xrt_device *xdev = xfile->xdev;
	struct drm_gpu_scheduler *sched;
	struct xrt_queue *q;
	int ret;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	kref_init(&q->refs);
	q->xfile = xfile;
	q->wq = priority == DRM_XRT_PRIORITY_HIGH ? xdev->wq_high : xdev->wq;
	mutex_init(&q->push_lock);
	q->fence_context = dma_fence_context_alloc(1);
	atomic_set(&q->last_loop, -1);
	atomic_set(&q->last_pc, -1);
	atomic_set(&q->stop_pc, -1);
	snprintf(q->name, sizeof(q->name), "xrt-q%d",
		 atomic_inc_return(&queue_names));
	ret = init_sched(q, xdev->drm.dev);
	if (ret)
		goto err_free;
	sched = &q->sched;
	ret = drm_sched_entity_init(&q->entity, DRM_SCHED_PRIORITY_NORMAL,
				    &sched, 1, NULL);
	if (ret)
		goto err_sched;
	atomic_inc(&xdev->live_queues);
	return q;

err_sched:
	drm_sched_fini(&q->sched);
err_free:
	mutex_destroy(&q->push_lock);
	kfree(q);
	return ERR_PTR(ret);
}

/*
 * Stop what runs, cancel what waits, and wait until every job is freed:
 * the scheduler must not be torn down under a pending job.
 */
static void queue_release(struct kref *ref)
{
	struct xrt_queue *q = container_of(ref, struct xrt_queue, refs);
	struct xrt_device *xdev = q->xfile->xdev;

	atomic_set(&q->dying, 1);
	drm_sched_entity_destroy(&q->entity);
	wait_var_event(&q->live_jobs, !atomic_read(&q->live_jobs));
	drm_sched_fini(&q->sched);
	mutex_destroy(&q->push_lock);
	kfree(q);
	atomic_dec(&xdev->live_queues);
}

struct xrt_queue *xrt_queue_get(struct xrt_file *xfile, u32 id)
{
	struct xrt_queue *q;

	xa_lock(&xfile->queues);
	q = xa_load(&xfile->queues, id);
	if (q)
		kref_get(&q->refs);
	xa_unlock(&xfile->queues);
	return q;
}

void xrt_queue_put(struct xrt_queue *q)
{
	kref_put(&q->refs, queue_release);
}

void xrt_queues_destroy_all(struct xrt_file *xfile)
{
	struct xrt_queue *q;
	unsigned long id;

	xa_for_each(&xfile->queues, id, q) {
		xa_erase(&xfile->queues, id);
		xrt_queue_put(q);
	}
	xa_destroy(&xfile->queues);
}

int xrt_ioctl_queue_create(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct drm_xrt_queue_create *a = data;
	struct xrt_file *xfile = file->driver_priv;
	struct xrt_queue *q;
	u32 id;
	int ret;

	if (a->flags || a->pad || a->queue_id)
		return -EINVAL;
	if (a->priority != DRM_XRT_PRIORITY_NORMAL &&
	    a->priority != DRM_XRT_PRIORITY_HIGH)
		return -EINVAL;
	q = queue_new(xfile, a->priority);
	if (IS_ERR(q))
		return PTR_ERR(q);
	ret = xa_alloc(&xfile->queues, &id, q, XA_LIMIT(1, XRT_MAX_QUEUES),
		       GFP_KERNEL);
	if (ret) {
		xrt_queue_put(q);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	a->queue_id = id;
	return 0;
}

int xrt_ioctl_queue_destroy(struct drm_device *drm, void *data,
			    struct drm_file *file)
{
	struct drm_xrt_queue_destroy *a = data;
	struct xrt_file *xfile = file->driver_priv;
	struct xrt_queue *q;

	if (a->pad)
		return -EINVAL;
	q = xa_erase(&xfile->queues, a->queue_id);
	if (!q)
		return -ENOENT;
	xrt_queue_put(q);
	return 0;
}

int xrt_ioctl_queue_cancel(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct drm_xrt_queue_cancel *a = data;
	struct xrt_queue *q;

	if (a->pad)
		return -EINVAL;
	q = xrt_queue_get(file->driver_priv, a->queue_id);
	if (!q)
		return -ENOENT;
	/* under push_lock: no job is between numbering and pushing */
	mutex_lock(&q->push_lock);
	atomic64_set(&q->cancel_below, atomic64_read(&q->submitted));
	mutex_unlock(&q->push_lock);
	xrt_queue_put(q);
	return 0;
}

int xrt_ioctl_queue_status(struct drm_device *drm, void *data,
			   struct drm_file *file)
{
	struct drm_xrt_queue_status *a = data;
	struct xrt_queue *q;

	if (a->flags || a->resets || a->last_error || a->submitted ||
	    a->completed || a->last_loop || a->last_pc || a->stop_pc || a->pad)
		return -EINVAL;
	q = xrt_queue_get(file->driver_priv, a->queue_id);
	if (!q)
		return -ENOENT;
	a->flags = atomic_read(&q->guilty) ? DRM_XRT_QUEUE_GUILTY : 0;
	a->resets = atomic_read(&q->resets);
	a->last_error = atomic_read(&q->last_error);
	a->submitted = atomic64_read(&q->submitted);
	a->completed = atomic64_read(&q->completed);
	a->last_loop = (u32)atomic_read(&q->last_loop);
	a->last_pc = (u32)atomic_read(&q->last_pc);
	a->stop_pc = (u32)atomic_read(&q->stop_pc);
	xrt_queue_put(q);
	return 0;
}
