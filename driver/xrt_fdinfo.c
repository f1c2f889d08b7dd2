// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/<pid>/fdinfo/<fd> of an open device: the keys of the kernel's
 * Documentation/gpu/drm-usage-stats.rst.  6.1 has no drm_show_fdinfo,
 * so the driver prints them itself.
 */
#include <linux/idr.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "xrt_drv.h"

/* Buffers this file holds handles to, each once per handle. */
static u64 file_memory(struct drm_file *file)
{
	struct drm_gem_object *obj;
	u64 bytes = 0;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id)
		bytes += obj->size;
	spin_unlock(&file->table_lock);
	return bytes;
}

void xrt_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct xrt_file *xfile = file->driver_priv;

	seq_printf(m, "drm-driver:\t%s\n", XRT_DRIVER_NAME);
	seq_printf(m, "drm-pdev:\t%s\n", dev_name(xfile->xdev->drm.dev));
	seq_printf(m, "drm-client-id:\t%llu\n", xfile->client_id);
	seq_printf(m, "drm-engine-compute:\t%lld ns\n",
		   atomic64_read(&xfile->busy_ns));
	seq_printf(m, "drm-memory-device:\t%llu KiB\n", file_memory(file) >> 10);
	/* what this client is charged (its buffers wherever they went) and may be */
	seq_printf(m, "xrt-client-memory:\t%lld KiB\n",
		   atomic64_read(&xfile->account->used) >> 10);
	seq_printf(m, "xrt-client-memory-limit:\t%llu KiB\n", xfile->account->limit >> 10);
}
