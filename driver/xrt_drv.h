/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xrt_accel: a render-only DRM driver whose "hardware" is the soft
 * engine run by kernel workers.  Shared declarations of the driver's
 * files.
 */
#ifndef XRT_DRV_H
#define XRT_DRV_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/gpu_scheduler.h>

#include <drm/xrt_accel.h>

#define XRT_DRIVER_NAME		"xrt_accel"
#define XRT_MAX_SLOTS		4096
#define XRT_MAX_IN_SYNCS	64
#define XRT_MAX_QUEUES		16
/* Validation runs in one FPU section: this bounds how long. */
#define XRT_MAX_PROGRAM_SIZE	(4u << 20)
/* Workspace one job may ask the kernel for (thread + shared). */
#define XRT_MAX_WORKSPACE	(256ull << 20)

/* Module parameters (xrt_drv.c). */
extern unsigned int xrt_job_timeout_ms;
extern unsigned int xrt_chunk_items;

/**
 * struct xrt_fault - fault injection armed through debugfs
 * @fail_alloc: the next buffer allocation fails with ENOMEM
 * @hang_job: the next job to start spins without progress until stopped
 */
struct xrt_fault {
	atomic_t fail_alloc;
	atomic_t hang_job;
};

/**
 * struct xrt_device - one virtual accelerator
 * @drm: the DRM device
 * @memory_size: bytes of device memory
 * @memory_used: bytes held by buffer objects now
 * @live_bos: buffer objects alive now
 * @live_jobs: jobs alive now
 * @live_queues: queues alive now
 * @jobs_done: jobs that ran to the end
 * @jobs_failed: jobs that ended with an error
 * @resets: jobs stopped by the timeout
 * @busy_ns: nanoseconds the engine spent running jobs
 * @avx2: the engine may use AVX2
 * @avx512: the engine may use AVX-512
 * @wq: workers that run normal-priority jobs
 * @wq_high: workers that run high-priority jobs
 * @next_client_id: source of drm-client-id values
 * @fault: fault injection
 */
struct xrt_device {
	struct drm_device drm;
	u64 memory_size;
	atomic64_t memory_used;
	atomic_t live_bos;
	atomic_t live_jobs;
	atomic_t live_queues;
	atomic64_t jobs_done;
	atomic64_t jobs_failed;
	atomic64_t resets;
	atomic64_t busy_ns;
	bool avx2;
	bool avx512;
	struct workqueue_struct *wq;
	struct workqueue_struct *wq_high;
	atomic64_t next_client_id;
	struct xrt_fault fault;
};

/**
 * struct xrt_account - one client's share of device memory
 * @refs: the open file holds one, and each buffer charged to it one, so
 *        that a buffer shared on (PRIME) stays charged to its exporter
 *        after the exporter's file closed
 * @used: bytes charged now
 * @limit: the most it may hold
 */
struct xrt_account {
	struct kref refs;
	atomic64_t used;
	u64 limit;
};

/**
 * struct xrt_file - one open file of the device
 * @xdev: the device
 * @queues: queues by id
 * @client_id: the drm-client-id of fdinfo
 * @busy_ns: nanoseconds the engine spent on this file's jobs
 * @account: the memory it holds and may hold
 */
struct xrt_file {
	struct xrt_device *xdev;
	struct xarray queues;
	u64 client_id;
	atomic64_t busy_ns;
	struct xrt_account *account;
};

/**
 * struct xrt_queue - an execution queue: a scheduler with one entity
 * @sched: the scheduler; one per queue so that a hang stops only it
 * @entity: the entity jobs are pushed to
 * @refs: references: the id table holds one, each ioctl using it one
 * @xfile: the file that made it
 * @wq: the workers its jobs run on
 * @push_lock: serializes arming and pushing jobs
 * @fence_context: context of its hardware fences
 * @fence_seqno: the last hardware fence's number
 * @live_jobs: its jobs alive now
 * @idle: woken when @live_jobs drops to 0
 * @dying: the queue is being destroyed: stop and cancel its jobs
 * @guilty: a job was stopped by the timeout; new jobs are refused
 * @resets: number of such jobs
 * @last_error: negative errno of the last failed job
 * @submitted: jobs submitted
 * @cancel_below: jobs numbered below it (by @submitted at push) stop
 * @completed: jobs that ran to the end without error
 * @last_loop: the loop index that stopped the last job stopped by
 *             max_iterations, or ~0
 * @last_pc: the command at which the last job stopped by a limit stopped,
 *           or ~0 (it had not started)
 * @stop_pc: the COLLECTIVE at which the last completed job stopped, or ~0
 *           when it ran to its end
 * @name: the scheduler's name
 */
struct xrt_queue {
	struct drm_gpu_scheduler sched;
	struct drm_sched_entity entity;
	struct kref refs;
	struct xrt_file *xfile;
	struct workqueue_struct *wq;
	struct mutex push_lock; /* arm and push as one step */
	u64 fence_context;
	u64 fence_seqno;
	atomic_t live_jobs;
	wait_queue_head_t idle;
	atomic_t dying;
	atomic_t guilty;
	atomic_t resets;
	atomic_t last_error;
	atomic64_t submitted;
	atomic64_t cancel_below;
	atomic64_t completed;
	atomic_t last_loop;
	atomic_t last_pc;
	atomic_t stop_pc;
	char name[32];
};

static inline struct xrt_device *to_xrt_device(struct drm_device *drm)
{
	return container_of(drm, struct xrt_device, drm);
}

/* xrt_drv.c: the widest vectors the engine uses, "avx512", "avx2" or "sse2" */
const char *xrt_engine_name(const struct xrt_device *xdev);

/* xrt_gem.c */
int xrt_memory_charge(struct xrt_device *xdev, struct xrt_account *acct, u64 bytes);
void xrt_memory_uncharge(struct xrt_device *xdev, struct xrt_account *acct, u64 bytes);
struct xrt_account *xrt_account_new(u64 limit);
void xrt_account_put(struct xrt_account *acct);
struct drm_gem_object *xrt_gem_create_object(struct drm_device *drm,
					     size_t size);
int xrt_ioctl_bo_create(struct drm_device *drm, void *data,
			struct drm_file *file);
int xrt_ioctl_bo_info(struct drm_device *drm, void *data,
		      struct drm_file *file);
int xrt_ioctl_bo_wait(struct drm_device *drm, void *data,
		      struct drm_file *file);

/* xrt_queue.c */
int xrt_ioctl_queue_create(struct drm_device *drm, void *data,
			   struct drm_file *file);
int xrt_ioctl_queue_destroy(struct drm_device *drm, void *data,
			    struct drm_file *file);
int xrt_ioctl_queue_cancel(struct drm_device *drm, void *data,
			   struct drm_file *file);
int xrt_ioctl_queue_status(struct drm_device *drm, void *data,
			   struct drm_file *file);
struct xrt_queue *xrt_queue_get(struct xrt_file *xfile, u32 id);
void xrt_queue_put(struct xrt_queue *q);
void xrt_queues_destroy_all(struct xrt_file *xfile);

/* xrt_job.c */
extern const struct drm_sched_backend_ops xrt_sched_ops;
int xrt_ioctl_submit(struct drm_device *drm, void *data,
		     struct drm_file *file);

/* xrt_debugfs.c, xrt_fdinfo.c */
void xrt_debugfs_init(struct drm_minor *minor);
void xrt_show_fdinfo(struct seq_file *m, struct file *f);

#endif /* XRT_DRV_H */
