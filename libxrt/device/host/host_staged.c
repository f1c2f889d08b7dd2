// SPDX-License-Identifier: MIT
/*
 * staged:0, host:0's engine behind buffers the host does not address in
 * place, the way a GPU's are: a buffer's data is NULL, its address is in
 * addr, and the host reaches it only through the device's read and
 * write.  It exists so that what libxrt does for such devices (writes,
 * reads, relayouts and transfers through host memory) is tested on every
 * machine, GPU or not; it is not listed, only opened by name.
 */
#include <string.h>

#include "cstream/executable.h"
#include "core/mem.h"
#include "device/device.h"
#include "host_device.h"

static struct xdev *host(void)
{
	struct xdev *h = NULL;

	xrt_status_free(host_dev_create(NULL, &h));	/* static, never fails */
	return h;
}

static xrt_status *staged_alloc(struct xdev *d, uint64_t bytes, const struct xrt_allocator *a,
				struct xdev_buf *out)
{
	xrt_status *st = host()->ops->alloc(host(), bytes, a, out);

	(void)d;
	if (st)
		return st;
	out->addr = (uintptr_t)out->data;
	out->data = NULL;
	return NULL;
}

static void staged_free(struct xdev *d, struct xdev_buf *b, const struct xrt_allocator *a)
{
	(void)d;
	b->data = (uint8_t *)(uintptr_t)b->addr;
	host()->ops->free(host(), b, a);
	b->addr = 0;
}

static xrt_status *staged_write(struct xdev *d, struct xdev_buf *b, uint64_t off, const void *src,
				uint64_t n, const struct xrt_allocator *a)
{
	(void)d;
	(void)a;
	memcpy((uint8_t *)(uintptr_t)b->addr + off, src, n);
	return NULL;
}

static xrt_status *staged_read(struct xdev *d, const struct xdev_buf *b, uint64_t off, void *dst,
			       uint64_t n, const struct xrt_allocator *a)
{
	(void)d;
	(void)a;
	memcpy(dst, (const uint8_t *)(uintptr_t)b->addr + off, n);
	return NULL;
}

static xrt_status *staged_queue_create(struct xdev *d, const struct xrt_allocator *a,
				       uint32_t flags, struct xdev_queue **out)
{
	(void)d;
	return host()->ops->queue_create(host(), a, flags, out);
}

static void staged_queue_destroy(struct xdev_queue *q)
{
	host()->ops->queue_destroy(q);
}

/* The slots as host buffers (their addresses are host pointers); NULL: out of memory. */
static struct xdev_buf *mapped(const struct xrt_executable *exe, const struct xdev_buf *slots,
			       struct xdev_buf *small, uint32_t room)
{
	struct xdev_buf *m = exe->num_slots <= room ? small :
			     xrt_mem_calloc(NULL, exe->num_slots, sizeof(*m));
	uint32_t s;

	for (s = 0; m && s < exe->num_slots; s++) {
		m[s] = slots[s];
		m[s].data = (uint8_t *)(uintptr_t)slots[s].addr;
	}
	return m;
}

static xrt_status *staged_run(struct xdev_queue *q, const struct xrt_executable *exe,
			      struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	struct xdev_buf small[16], *m = mapped(exe, slots, small, 16);
	xrt_status *st;

	if (!m)
		return xrt_status_oom(NULL, "slots");
	st = host()->ops->run(q, exe, m, seed, w);
	if (m != small)
		xrt_mem_free(NULL, m);
	return st;
}

static xrt_status *staged_submit(struct xdev_queue *q, const struct xrt_executable *exe,
				 struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
				 struct xdev_hold *hold, struct xdev_event **out)
{
	struct xdev_buf small[16], *m = mapped(exe, slots, small, 16);
	xrt_status *st;

	*out = NULL;
	if (!m)
		return xrt_status_oom(NULL, "slots");
	st = host()->ops->submit(q, exe, m, seed, w, hold, out);	/* the job copies @m */
	if (m != small)
		xrt_mem_free(NULL, m);
	return st;
}

static void staged_destroy(struct xdev *d)
{
	(void)d;	/* static, as host:0 */
}

static const struct xdev_ops staged_ops = {
	.alloc = staged_alloc,
	.free = staged_free,
	.write = staged_write,
	.read = staged_read,
	.wait_idle = host_wait_idle,
	.queue_create = staged_queue_create,
	.queue_destroy = staged_queue_destroy,
	.run = staged_run,
	.submit = staged_submit,
	.event_wait = host_event_wait,
	.event_free = host_event_free,
	.destroy = staged_destroy,
};

static xrt_status *staged_create(uint32_t ordinal, const struct xrt_allocator *a,
				 struct xdev **out)
{
	static struct xdev staged = { .ops = &staged_ops };

	if (ordinal)
		return xrt_status_new(a, XRT_NOT_FOUND, "no such device");
	staged.info = host()->info;
	strcpy(staged.info.name, "staged:0");
	staged.info.kind = (enum xrt_device_kind)XDEV_KIND_STAGED;
	*out = &staged;
	return NULL;
}

/* For tests: opened by name, never listed. */
const struct xdev_driver xdev_staged_driver = {
	.prefix = "staged",
	.kind = (enum xrt_device_kind)XDEV_KIND_STAGED,
	.create = staged_create,
};
