// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs (not ABI): engine statistics, live objects, fault injection.
 *
 *   stats            live buffers, bytes, jobs, queues; job counts; busy
 *   fail_next_alloc  write N: the next N buffer creations fail (ENOMEM)
 *   hang_next_job    write N: the next N jobs hang until the timeout
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "xrt_drv.h"

static int stats_show(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;
	struct xrt_device *xdev = to_xrt_device(node->minor->dev);

	seq_printf(m, "live_bos: %d\n", atomic_read(&xdev->live_bos));
	seq_printf(m, "memory_used: %lld\n", atomic64_read(&xdev->memory_used));
	seq_printf(m, "memory_size: %llu\n", xdev->memory_size);
	seq_printf(m, "live_jobs: %d\n", atomic_read(&xdev->live_jobs));
	seq_printf(m, "live_queues: %d\n", atomic_read(&xdev->live_queues));
	seq_printf(m, "jobs_done: %lld\n", atomic64_read(&xdev->jobs_done));
	seq_printf(m, "jobs_failed: %lld\n", atomic64_read(&xdev->jobs_failed));
	seq_printf(m, "resets: %lld\n", atomic64_read(&xdev->resets));
	seq_printf(m, "busy_ns: %lld\n", atomic64_read(&xdev->busy_ns));
	seq_printf(m, "engine: %s\n", xrt_engine_name(xdev));
	return 0;
}

static const struct drm_info_list xrt_debugfs_list[] = {
	{ "stats", stats_show, 0 },
};

void xrt_debugfs_init(struct drm_minor *minor)
{
	struct xrt_device *xdev = to_xrt_device(minor->dev);

	drm_debugfs_create_files(xrt_debugfs_list, ARRAY_SIZE(xrt_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_atomic_t("fail_next_alloc", 0600, minor->debugfs_root,
				&xdev->fault.fail_alloc);
	debugfs_create_atomic_t("hang_next_job", 0600, minor->debugfs_root,
				&xdev->fault.hang_job);
}
