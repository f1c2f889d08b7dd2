// SPDX-License-Identifier: GPL-2.0-only
/*
 * xrt_accel: module parameters, the DRM driver, its platform devices,
 * GET_PARAM and the per-file state.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>

#include "engine/engine.h"
#include "xrt_drv.h"

#define XRT_MAX_DEVICES	8

static unsigned int num_devices = 1;
module_param(num_devices, uint, 0444);
MODULE_PARM_DESC(num_devices, "number of virtual devices (1-8)");

static unsigned int memory_mb = 1024;
module_param(memory_mb, uint, 0444);
MODULE_PARM_DESC(memory_mb, "device memory of each device, MiB (all buffers together)");

/*
 * One open file's share, read when a file opens: an administrator may
 * change it for the clients that come next.  Above memory_mb is refused.
 */
static unsigned int client_memory_mb;

static int client_memory_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mb;
	int ret = kstrtouint(val, 0, &mb);

	if (ret)
		return ret;
	if (mb > memory_mb)
		return -EINVAL;
	WRITE_ONCE(client_memory_mb, mb);
	return 0;
}

static const struct kernel_param_ops client_memory_ops = {
	.set = client_memory_set,
	.get = param_get_uint,
};

module_param_cb(client_memory_mb, &client_memory_ops, &client_memory_mb, 0644);
MODULE_PARM_DESC(client_memory_mb,
		 "device memory one open file may hold, MiB, for files opened next (0: half of memory_mb)");

/* The share of a file opening now. */
static u64 client_share(const struct xrt_device *xdev)
{
	unsigned int mb = READ_ONCE(client_memory_mb);

	return mb ? (u64)mb << 20 : xdev->memory_size / 2;
}

unsigned int xrt_job_timeout_ms = 10000;
module_param_named(job_timeout_ms, xrt_job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms, "a job running longer is stopped and its queue reset");

unsigned int xrt_chunk_items = 1;
module_param_named(chunk_items, xrt_chunk_items, uint, 0644);
MODULE_PARM_DESC(chunk_items, "engine items (16 Ki elements each) per FPU section");

static struct platform_device *pdevs[XRT_MAX_DEVICES];

static u64 param_value(struct xrt_device *xdev, struct xrt_file *xfile, u32 param)
{
	switch (param) {
	case DRM_XRT_PARAM_ABI_VERSION:
		return DRM_XRT_ABI_VERSION;
	case DRM_XRT_PARAM_CS_VERSION:
		return XRT_CS_VERSION;
	case DRM_XRT_PARAM_MEMORY_SIZE:
	case DRM_XRT_PARAM_MAX_BO_SIZE:
		return xdev->memory_size;
	case DRM_XRT_PARAM_MEMORY_USED:
		return atomic64_read(&xdev->memory_used);
	case DRM_XRT_PARAM_MAX_SLOTS:
		return XRT_MAX_SLOTS;
	case DRM_XRT_PARAM_MAX_PROGRAM_SIZE:
		return XRT_MAX_PROGRAM_SIZE;
	case DRM_XRT_PARAM_MAX_IN_SYNCS:
		return XRT_MAX_IN_SYNCS;
	case DRM_XRT_PARAM_MAX_QUEUES:
		return XRT_MAX_QUEUES;
	case DRM_XRT_PARAM_CAPABILITIES:
		return DRM_XRT_CAP_PRIME | DRM_XRT_CAP_QUEUE_STATUS | DRM_XRT_CAP_RUN_LIMITS |
		       DRM_XRT_CAP_COLLECTIVES |
		       (xdev->avx2 ? DRM_XRT_CAP_AVX2 : 0) |
		       (xdev->avx512 ? DRM_XRT_CAP_AVX512 : 0);
	case DRM_XRT_PARAM_CLIENT_MEMORY_SIZE:
		return xfile->account->limit;
	case DRM_XRT_PARAM_CLIENT_MEMORY_USED:
		return atomic64_read(&xfile->account->used);
	default: /* DRM_XRT_PARAM_JOB_TIMEOUT_MS */
		return xrt_job_timeout_ms;
	}
}

static int xrt_ioctl_get_param(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct drm_xrt_get_param *a = data;

	if (a->pad || a->value || a->param >= DRM_XRT_PARAM_COUNT)
		return -EINVAL;
	a->value = param_value(to_xrt_device(drm), file->driver_priv, a->param);
	return 0;
}

static const struct drm_ioctl_desc xrt_ioctls[] = {
	DRM_IOCTL_DEF_DRV(XRT_GET_PARAM, xrt_ioctl_get_param, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_BO_CREATE, xrt_ioctl_bo_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_BO_INFO, xrt_ioctl_bo_info, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_BO_WAIT, xrt_ioctl_bo_wait, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_QUEUE_CREATE, xrt_ioctl_queue_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_QUEUE_DESTROY, xrt_ioctl_queue_destroy, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_SUBMIT, xrt_ioctl_submit, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_QUEUE_STATUS, xrt_ioctl_queue_status, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(XRT_QUEUE_CANCEL, xrt_ioctl_queue_cancel, DRM_RENDER_ALLOW),
};

static int xrt_open(struct drm_device *drm, struct drm_file *file)
{
	struct xrt_device *xdev = to_xrt_device(drm);
	struct xrt_file *xfile;

	xfile = kzalloc(sizeof(*xfile), GFP_KERNEL);
	if (!xfile)
		return -ENOMEM;
	xfile->account = xrt_account_new(client_share(xdev));
	if (!xfile->account) {
		kfree(xfile);
		return -ENOMEM;
	}
	xfile->xdev = xdev;
	xa_init_flags(&xfile->queues, XA_FLAGS_ALLOC1);
	xfile->client_id = atomic64_inc_return(&xdev->next_client_id);
	file->driver_priv = xfile;
	return 0;
}

/* Queues first: their jobs account time to the file. */
static void xrt_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct xrt_file *xfile = file->driver_priv;

	xrt_queues_destroy_all(xfile);
	xrt_account_put(xfile->account);	/* its live buffers keep it */
	kfree(xfile);
}

static const struct file_operations xrt_fops = {
	.owner = THIS_MODULE,
	DRM_GEM_FOPS,
	.show_fdinfo = xrt_show_fdinfo,
};

static const struct drm_driver xrt_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ,
	.open = xrt_open,
	.postclose = xrt_postclose,
	.gem_create_object = xrt_gem_create_object,
	DRM_GEM_SHMEM_DRIVER_OPS,
#ifdef CONFIG_DEBUG_FS
	.debugfs_init = xrt_debugfs_init,
#endif
	.ioctls = xrt_ioctls,
	.num_ioctls = ARRAY_SIZE(xrt_ioctls),
	.fops = &xrt_fops,
	.name = XRT_DRIVER_NAME,
	.desc = "XRT soft accelerator",
	.date = "20261130",
	.major = 1,
	.minor = 0,
};

static bool cpu_has_avx2(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) && boot_cpu_has(X86_FEATURE_AVX2) &&
	       boot_cpu_has(X86_FEATURE_FMA) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

static bool cpu_has_avx512(void)
{
	return cpu_has_avx2() && boot_cpu_has(X86_FEATURE_AVX512F) &&
	       boot_cpu_has(X86_FEATURE_AVX512VL) && boot_cpu_has(X86_FEATURE_AVX512DQ) &&
	       boot_cpu_has(X86_FEATURE_AVX512BW) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM | XFEATURE_MASK_AVX512,
				 NULL);
}

const char *xrt_engine_name(const struct xrt_device *xdev)
{
	return xdev->avx512 ? "avx512" : xdev->avx2 ? "avx2" : "sse2";
}

static int xrt_probe(struct platform_device *pdev)
{
	struct xrt_device *xdev;
	int ret;

	/* PRIME export maps the shmem pages for this device. */
	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	xdev = devm_drm_dev_alloc(&pdev->dev, &xrt_driver, struct xrt_device, drm);
	if (IS_ERR(xdev))
		return PTR_ERR(xdev);
	platform_set_drvdata(pdev, xdev);
	xdev->memory_size = (u64)memory_mb << 20;
	xdev->avx2 = xrt_engine_use_avx2;
	xdev->avx512 = xrt_engine_use_avx512;
	xdev->wq = alloc_workqueue("xrt-accel", WQ_UNBOUND, 0);
	xdev->wq_high = alloc_workqueue("xrt-accel-high", WQ_UNBOUND | WQ_HIGHPRI, 0);
	if (!xdev->wq || !xdev->wq_high) {
		ret = -ENOMEM;
		goto err_wq;
	}
	ret = drm_dev_register(&xdev->drm, 0);
	if (ret)
		goto err_wq;
	drm_info(&xdev->drm, "xrt_accel: %u MiB (%llu MiB a client), engine %s, timeout %u ms\n",
		 memory_mb, client_share(xdev) >> 20, xrt_engine_name(xdev),
		 xrt_job_timeout_ms);
	return 0;

err_wq:
	if (xdev->wq_high)
		destroy_workqueue(xdev->wq_high);
	if (xdev->wq)
		destroy_workqueue(xdev->wq);
	return ret;
}

static int xrt_remove(struct platform_device *pdev)
{
	struct xrt_device *xdev = platform_get_drvdata(pdev);

	drm_dev_unregister(&xdev->drm);
	destroy_workqueue(xdev->wq_high);
	destroy_workqueue(xdev->wq);
	return 0;
}

static struct platform_driver xrt_platform_driver = {
	.probe = xrt_probe,
	.remove = xrt_remove,
	.driver = {
		.name = XRT_DRIVER_NAME,
	},
};

static void unregister_devices(void)
{
	int i;

	for (i = XRT_MAX_DEVICES - 1; i >= 0; i--) {
		if (!IS_ERR_OR_NULL(pdevs[i]))
			platform_device_unregister(pdevs[i]);
		pdevs[i] = NULL;
	}
}

static int __init xrt_init(void)
{
	unsigned int i;
	int ret;

	if (!num_devices || num_devices > XRT_MAX_DEVICES || !memory_mb ||
	    !xrt_job_timeout_ms)
		return -EINVAL;
	if (client_memory_mb > memory_mb) {
		pr_err("xrt_accel: client_memory_mb %u is above memory_mb %u\n",
		       client_memory_mb, memory_mb);
		return -EINVAL;
	}
	xrt_engine_use_avx2 = cpu_has_avx2();
	xrt_engine_use_avx512 = cpu_has_avx512();
	ret = platform_driver_register(&xrt_platform_driver);
	if (ret)
		return ret;
	for (i = 0; i < num_devices; i++) {
		pdevs[i] = platform_device_register_simple(XRT_DRIVER_NAME, i,
							   NULL, 0);
		if (IS_ERR(pdevs[i])) {
			ret = PTR_ERR(pdevs[i]);
			unregister_devices();
			platform_driver_unregister(&xrt_platform_driver);
			return ret;
		}
	}
	return 0;
}

static void __exit xrt_exit(void)
{
	unregister_devices();
	platform_driver_unregister(&xrt_platform_driver);
}

module_init(xrt_init);
module_exit(xrt_exit);

MODULE_DESCRIPTION("XRT soft accelerator: runs command-stream programs");
MODULE_LICENSE("GPL");
