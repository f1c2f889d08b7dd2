// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer objects: GEM shmem objects that count against the device's
 * memory size, and against the share of the client that made them,
 * while they live.  An imported buffer counts against nobody here: its
 * exporter pays for it.
 */
#include <linux/kref.h>
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <drm/drm_gem.h>
#include <drm/drm_utils.h>
#include <drm/drm_vma_manager.h>

#include "xrt_drv.h"

/**
 * struct xrt_bo - a buffer object
 * @base: the shmem object
 * @charged: bytes counted in the device's memory use (0 for imports)
 * @account: the client they count against (a reference), or NULL
 */
struct xrt_bo {
	struct drm_gem_shmem_object base;
	u64 charged;
	struct xrt_account *account;
};

static struct xrt_bo *to_xrt_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct xrt_bo, base.base);
}

static void xrt_bo_free(struct drm_gem_object *obj)
{
	struct xrt_device *xdev = to_xrt_device(obj->dev);
	struct xrt_bo *bo = to_xrt_bo(obj);

	xrt_memory_uncharge(xdev, bo->account, bo->charged);
	xrt_account_put(bo->account);
	atomic_dec(&xdev->live_bos);
	drm_gem_shmem_free(&bo->base);
}

static const struct drm_gem_object_funcs xrt_bo_funcs = {
	.free = xrt_bo_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/* Called by the shmem helper for created and imported objects alike. */
struct drm_gem_object *xrt_gem_create_object(struct drm_device *drm,
					     size_t size)
{
	struct xrt_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &xrt_bo_funcs;
	atomic_inc(&to_xrt_device(drm)->live_bos);
	return &bo->base.base;
}

struct xrt_account *xrt_account_new(u64 limit)
{
	struct xrt_account *acct = kzalloc(sizeof(*acct), GFP_KERNEL);

	if (!acct)
		return NULL;
	kref_init(&acct->refs);
	atomic64_set(&acct->used, 0);
	acct->limit = limit;
	return acct;
}

static void account_free(struct kref *ref)
{
	kfree(container_of(ref, struct xrt_account, refs));
}

void xrt_account_put(struct xrt_account *acct)
{
	if (acct)
		kref_put(&acct->refs, account_free);
}

/*
 * Device memory: buffers, and the program copies and workspace of jobs,
 * counted against the device (-ENOSPC past its size, whoever holds it)
 * and then the client (@acct, when there is one: -EDQUOT past its share
 * while the device still has room).  @bytes is at most the device's
 * size, itself below 2^53, so neither sum can wrap an s64.
 */
int xrt_memory_charge(struct xrt_device *xdev, struct xrt_account *acct, u64 bytes)
{
	if (bytes > xdev->memory_size)
		return -ENOSPC;
	if (atomic64_add_return(bytes, &xdev->memory_used) > xdev->memory_size) {
		atomic64_sub(bytes, &xdev->memory_used);
		return -ENOSPC;
	}
	if (acct && atomic64_add_return(bytes, &acct->used) > acct->limit) {
		atomic64_sub(bytes, &acct->used);
		atomic64_sub(bytes, &xdev->memory_used);
		return -EDQUOT;
	}
	return 0;
}

void xrt_memory_uncharge(struct xrt_device *xdev, struct xrt_account *acct, u64 bytes)
{
	if (acct)
		atomic64_sub(bytes, &acct->used);
	atomic64_sub(bytes, &xdev->memory_used);
}

int xrt_ioctl_bo_create(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct xrt_device *xdev = to_xrt_device(drm);
	struct xrt_file *xfile = file->driver_priv;
	struct drm_xrt_bo_create *a = data;
	struct drm_gem_shmem_object *shmem;
	struct xrt_bo *bo;
	u64 size;
	int ret;

	if (a->flags || a->handle || !a->size || a->size > xdev->memory_size)
		return -EINVAL;
	size = PAGE_ALIGN(a->size);
	if (atomic_add_unless(&xdev->fault.fail_alloc, -1, 0))
		return -ENOMEM;
	ret = xrt_memory_charge(xdev, xfile->account, size);
	if (ret)
		return ret;
	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem)) {
		xrt_memory_uncharge(xdev, xfile->account, size);
		return PTR_ERR(shmem);
	}
	bo = to_xrt_bo(&shmem->base);
	bo->charged = size;
	bo->account = xfile->account;
	kref_get(&bo->account->refs);
	/* The handle last: nothing can fail after userspace may see it. */
	ret = drm_gem_handle_create(file, &shmem->base, &a->handle);
	drm_gem_object_put(&shmem->base);
	if (!ret)
		a->size = size;
	return ret;
}

int xrt_ioctl_bo_info(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct drm_xrt_bo_info *a = data;
	struct drm_gem_object *obj;
	int ret;

	if (a->pad || a->size || a->mmap_offset)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, a->handle);
	if (!obj)
		return -ENOENT;
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret) {
		a->size = obj->size;
		a->mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	}
	drm_gem_object_put(obj);
	return ret;
}

int xrt_ioctl_bo_wait(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct drm_xrt_bo_wait *a = data;
	struct drm_gem_object *obj;
	long ret;

	if (a->flags)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, a->handle);
	if (!obj)
		return -ENOENT;
	ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_READ, true,
				    drm_timeout_abs_to_jiffies(a->timeout_ns));
	drm_gem_object_put(obj);
	if (ret == 0)
		return -ETIMEDOUT;
	return ret < 0 ? ret : 0;
}
