// SPDX-License-Identifier: MIT
/*
 * Moving data between devices.  Every device's buffers are mapped into
 * this process, so a copy through host memory always works; two devices
 * that share buffers (two accel devices, through PRIME) copy on the
 * receiving device instead: it imports the source buffer and runs a copy
 * program over it, and the bytes never pass through this process.
 */
#include <stdio.h>
#include <string.h>

#include <xrt/ir.h>

#include "core/mem.h"
#include "cstream/executable.h"
#include "runtime/cache.h"
#include "runtime/copy.h"

/* The program u8[@bytes] -> its copy, from the compile cache. */
static xrt_status *copy_program(uint64_t bytes, const struct xrt_allocator *a,
				struct centry **out)
{
	char text[160];
	xrt_module *m = NULL;
	xrt_status *st;
	int n = snprintf(text, sizeof(text),
			 "HloModule copy\nENTRY e {\n  p = u8[%llu] parameter(0)\n"
			 "  ROOT c = u8[%llu] copy(p)\n}\n",
			 (unsigned long long)bytes, (unsigned long long)bytes);

	st = xrt_hlo_parse(a, text, (size_t)n, &m);
	if (!st)
		st = ccache_get(m, 0, a, out);
	xrt_module_destroy(m);
	return st;
}

/* @src (a buffer of @to, imported) copied into @dst by a run on @q. */
static xrt_status *copy_on_device(struct xdev *to, struct xdev_queue *q,
				  const struct xdev_buf *src, struct xdev_buf *dst, uint64_t bytes,
				  const struct xrt_allocator *a)
{
	const struct xrt_executable *exe;
	struct xdev_buf slots[8];
	struct centry *e = NULL;
	xrt_status *st = copy_program(bytes, a, &e);
	uint32_t s;

	if (st)
		return st;
	exe = centry_exe(e);
	st = exe->num_slots <= 8 ? NULL :
	     xrt_status_new(a, XRT_INTERNAL, "a copy program of %u slots", exe->num_slots);
	for (s = 0; !st && s < exe->num_slots; s++) {
		enum xexe_slot_kind k = exe->slots[s].kind;

		slots[s] = k == XEXE_SLOT_PARAM ? *src : k == XEXE_SLOT_RESULT ? *dst :
			   (struct xdev_buf){ 0 };
	}
	if (!st)
		st = to->ops->run(q, exe, slots, 1, NULL);
	centry_unref(e);
	return st;
}

/* Between two devices neither of which the host maps: through host memory. */
static xrt_status *bounce(struct xdev *from, const struct xdev_buf *src, struct xdev *to,
			  struct xdev_buf *dst, uint64_t bytes, const struct xrt_allocator *a)
{
	void *tmp = bytes <= SIZE_MAX ? xrt_mem_alloc_aligned(a, bytes, 64) : NULL;
	xrt_status *st;

	if (!tmp)
		return xrt_status_oom(a, "a transfer through host memory");
	st = xdev_read(from, src, 0, tmp, bytes, a);
	if (!st)
		st = xdev_write(to, dst, 0, tmp, bytes, a);
	xrt_mem_free(a, tmp);
	return st;
}

xrt_status *xcopy_buffer(struct xdev *from, const struct xdev_buf *src, struct xdev *to,
			 struct xdev_queue *q, struct xdev_buf *dst, uint64_t bytes,
			 const struct xrt_allocator *a)
{
	struct xdev_buf shared;
	xrt_status *st;

	if (!bytes)
		return NULL;
	if (from != to && to->ops->import && from->info.kind == to->info.kind) {
		st = to->ops->import(to, from, src, a, &shared);
		if (st)
			return st;
		st = copy_on_device(to, q, &shared, dst, bytes, a);
		to->ops->free(to, &shared, a);
		return st;
	}
	if (from->ops->wait_idle)
		from->ops->wait_idle(from, src);
	if (dst->data)
		return xdev_read(from, src, 0, dst->data, bytes, a);
	if (src->data)
		return xdev_write(to, dst, 0, src->data, bytes, a);
	return bounce(from, src, to, dst, bytes, a);
}
