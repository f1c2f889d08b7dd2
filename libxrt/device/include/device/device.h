/* SPDX-License-Identifier: MIT */
/*
 * The device interface: what the runtime and the eager layer ask of a
 * device driver (host, accel).  A device hands out buffers the host can
 * read and write in place (host memory, or a mapping of a buffer object)
 * and runs compiled programs over them on a queue.  Devices are opened
 * by name and shared by everyone in the process who opens the same name:
 * the accel driver opens the render node once and keeps the programs it
 * uploaded for all sessions.
 */
#ifndef XRT_DEVICE_DEVICE_H
#define XRT_DEVICE_DEVICE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/device.h>
#include <xrt/status.h>

struct xrt_executable;
struct xdev;
struct xdev_queue;
struct xdev_event;

/*
 * A device buffer.  @data is where the host reads and writes it, valid
 * while the buffer lives, on devices whose memory the host can map
 * (host, accel); NULL on the others (cuda), whose buffers the host
 * reaches through the device's read and write.  @addr is the buffer's
 * device address there; @bo the accel driver's GEM handle.  A live
 * buffer has @data or @addr set, zero-byte ones too.
 */
struct xdev_buf {
	uint8_t *data;
	uint64_t size;
	uint64_t addr;
	uint32_t bo;
};

/* The host computes DOT with the engine, never OpenBLAS. */
#define XDEV_QUEUE_NO_BLAS	0x1u
/*
 * Bits 16 to 31: the threads a host queue computes on, the caller's
 * included (0: one per CPU); other devices ignore them.
 */
#define XDEV_QUEUE_THREADS_SHIFT	16
#define XDEV_QUEUE_MAX_THREADS		0xffffu
#define XDEV_QUEUE_THREADS(n)		((uint32_t)(n) << XDEV_QUEUE_THREADS_SHIFT)

/*
 * What may stop a run before its end (struct xrt_execution_config's
 * limits): a flag anyone may raise, a CLOCK_MONOTONIC deadline (0:
 * none), an iteration bound for every execution of every while loop (0:
 * none).  NULL: none of them.
 */
struct xdev_peer;

struct xdev_watch {
	const atomic_bool *cancel;
	uint64_t deadline_ns;
	uint64_t max_iterations;
	/*
	 * The run's place among devices running the program together (a
	 * replicated execution), whose collectives it meets; NULL: alone.
	 */
	const struct xdev_peer *peer;
};

/*
 * Collectives.  A replicated execution runs one program on D devices
 * (replica x partitions + partition); each device's run is given its
 * place (struct xdev_peer) and, at every COLLECTIVE command, hands the
 * command's arrays with its group to the execution's communicator,
 * which returns once this device's outputs are written.  Communicators
 * implement struct xdev_comm_ops: the in-process one on host memory
 * (libxrt/collective/), and those a device makes for its own memory
 * (xdev_ops.comm_create: cuda's over NCCL).
 */
struct xrt_cs_collective;
struct xdev_comm;

/*
 * One array of a COLLECTIVE on this device: dense and row-major; @data
 * is the device's address (a host pointer where the host maps it).
 */
struct xdev_coll_array {
	uint8_t *data;
	uint32_t dtype, rank;		/* enum xrt_cs_dtype */
	const unsigned long long *dims;	/* the view's (__u64) */
};

struct xdev_collective {
	const struct xrt_cs_collective *cmd;	/* kind, op, dim, num_in */
	const struct xdev_coll_array *in, *out;	/* cmd->num_in of each */
	const uint32_t *members;	/* the group: device ids, in its order */
	uint32_t size, me;		/* the group's size, this device's place */
	int32_t source;			/* PERMUTE: the place sending here; -1: none */
	/* PERMUTE: by device id, the device each receives from (-1: none) */
	const int32_t *source_of;
	uint32_t pc;			/* the command, the same on every device */
	const char *where;		/* the instruction, for messages */
	void *stream;			/* the device's stream the exchange follows (cuda) */
};

struct xdev_comm_ops {
	/*
	 * Performs @op for @device; returns once its outputs are written,
	 * or fails (CANCELLED when another device failed; DEADLINE_EXCEEDED
	 * or CANCELLED by @w) without waiting longer.
	 */
	xrt_status *(*run)(struct xdev_comm *c, uint32_t device, const struct xdev_collective *op,
			   const struct xdev_watch *w);
	/* @device's run ended (@failed: with an error): no one waits for it any more. */
	void (*finish)(struct xdev_comm *c, uint32_t device, bool failed);
	/* Frees a communicator a device made (comm_create); NULL for the others. */
	void (*destroy)(struct xdev_comm *c);
};

struct xdev_comm {
	const struct xdev_comm_ops *ops;
	uint32_t num_devices;
};

/*
 * A communicator's processes (a run spread over the process group):
 * exchange() puts every process's @bytes at @all, in rank order, in one
 * step every process takes at the same point of the communicator's
 * making, for as long as @w lets it wait.
 */
struct xdev_spread {
	uint32_t rank, size;
	xrt_status *(*exchange)(const void *mine, uint32_t bytes, void *all,
				const struct xdev_watch *w, const char *where);
	const struct xdev_watch *w;
};

struct xdev_peer {
	struct xdev_comm *comm;
	uint32_t device;		/* replica x partitions + partition */
	uint32_t replica, partition;
};

struct xrt_engine_ctx;
/*
 * The COLLECTIVE at @pc of @x, run by @exe's executor: its arrays, its
 * group from @exe's table for @w->peer's device, the sizes that depend
 * on the group checked, then the communicator (device_collective.c).
 */
xrt_status *xdev_collective_run(const struct xrt_executable *exe, const struct xrt_engine_ctx *x,
				uint32_t pc, const struct xdev_watch *w, void *stream);

/*
 * A run's watch, for executors that step through a program on the host
 * (device_watch.c): asked after a command, it says when to stop
 * (cancelled, past the deadline, a loop past its iterations), naming the
 * command and the innermost loop.
 */
struct xrt_engine_prog;

struct xdev_watcher {
	const struct xdev_watch *w;
	const struct xrt_executable *exe;
	const struct xrt_engine_prog *prog;	/* exe's program, as the engine validated it */
	const struct xrt_allocator *a;
	uint64_t *counts;	/* per loop of exe: iterations of its current execution */
	uint32_t since_clock;
};

xrt_status *xdev_watch_init(struct xdev_watcher *hw, const struct xrt_executable *exe,
			    const struct xrt_engine_prog *prog, const struct xdev_watch *w,
			    const struct xrt_allocator *a);
void xdev_watch_deinit(struct xdev_watcher *hw);
/* Command @pc ran and @next comes: NULL, or the status that stops the run. */
xrt_status *xdev_watch_step(struct xdev_watcher *hw, uint32_t pc, uint32_t next);
/*
 * Where a run of @exe stopped at command @pc, as the watcher says it
 * ("at command 7 (dot), in while loop 'w'"): "before its first command"
 * when @pc is past the program.
 */
void xdev_watch_where(const struct xrt_executable *exe, uint32_t pc, char *buf, size_t size);

/*
 * What keeps a submitted job's executable and buffers alive (the
 * caller's references), released by the device once the job is done
 * with them, on any thread.
 */
struct xdev_hold {
	void (*release)(struct xdev_hold *h);
};

struct xdev_ops {
	/* A buffer of at least @bytes; RESOURCE_EXHAUSTED when it does not fit. */
	xrt_status *(*alloc)(struct xdev *d, uint64_t bytes, const struct xrt_allocator *a,
			     struct xdev_buf *out);
	void (*free)(struct xdev *d, struct xdev_buf *b, const struct xrt_allocator *a);
	/*
	 * @b, a buffer of device @from, as a buffer of this device that
	 * jobs can use (unmapped: @out->data is NULL), shared not copied;
	 * free it with free.  NULL where devices cannot share (then data
	 * moves through host memory); UNIMPLEMENTED for a pair that cannot.
	 */
	xrt_status *(*import)(struct xdev *d, struct xdev *from, const struct xdev_buf *b,
			      const struct xrt_allocator *a, struct xdev_buf *out);
	/*
	 * Copies between host memory and @b at byte @off, returning when
	 * done; NULL on devices whose buffers have @data (use it).  Jobs
	 * still using @b must be waited for first (wait_idle).
	 */
	xrt_status *(*write)(struct xdev *d, struct xdev_buf *b, uint64_t off, const void *src,
			     uint64_t n, const struct xrt_allocator *a);
	xrt_status *(*read)(struct xdev *d, const struct xdev_buf *b, uint64_t off, void *dst,
			    uint64_t n, const struct xrt_allocator *a);
	/* Returns when no job uses @b (NULL where jobs never outlive a run). */
	void (*wait_idle)(struct xdev *d, const struct xdev_buf *b);
	/*
	 * A queue: programs on one queue run one at a time, in order.
	 * @flags: XDEV_QUEUE_*.
	 */
	xrt_status *(*queue_create)(struct xdev *d, const struct xrt_allocator *a, uint32_t flags,
				    struct xdev_queue **out);
	void (*queue_destroy)(struct xdev_queue *q);
	/*
	 * Runs @exe with the buffers of its PARAM and RESULT slots in @slots
	 * (exe->num_slots entries; the others are the device's to fill) and
	 * returns when the results can be read.  ABORTED when the device
	 * stopped the job (the queue then takes no more: make a new one).
	 */
	xrt_status *(*run)(struct xdev_queue *q, const struct xrt_executable *exe,
			   struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w);
	/*
	 * Like run, but returns once the job is queued, with an event that
	 * tells when it is done (*@out NULL: done already, well).  @w is
	 * copied.  On success the device owns @hold and releases it once
	 * the job needs neither @exe nor the buffers of @slots any more (at
	 * once when the device holds its own references: the driver's GEM
	 * objects, a stream); on failure the caller keeps it.
	 */
	xrt_status *(*submit)(struct xdev_queue *q, const struct xrt_executable *exe,
			      struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			      struct xdev_hold *hold, struct xdev_event **out);
	/*
	 * Waits up to @timeout_ns (negative: as long as it takes; 0: just
	 * looks): *@running true (and NULL) while the job runs; else NULL
	 * when it completed, or what stopped it (allocated with @a).
	 */
	xrt_status *(*event_wait)(struct xdev_event *e, int64_t timeout_ns,
				  const struct xrt_allocator *a, bool *running);
	void (*event_free)(struct xdev_event *e);
	/* Frees the device when its last user is gone. */
	void (*destroy)(struct xdev *d);
	/* run meets the other devices at COLLECTIVE commands (w->peer's communicator) */
	bool collectives;
	/*
	 * NULL, or a communicator among @devs (@n, all of this driver),
	 * each device d of a replicated run on devs[d], for arrays in the
	 * devices' own memory; destroyed with its ops' destroy.  Without
	 * it devices meet through the in-process communicator, on memory
	 * the host maps.  @spread: NULL in one process; for a run spread
	 * over processes, how they share what they must (devs[d] is NULL
	 * for the devices other processes run).
	 */
	xrt_status *(*comm_create)(struct xdev *const *devs, uint32_t n,
				   const struct xdev_spread *spread,
				   const struct xrt_allocator *a, struct xdev_comm **out);
};

struct xdev {
	const struct xdev_ops *ops;
	struct xrt_device_info info;
	unsigned int refs;		/* under the open devices' lock (device_ref.c) */
	struct xdev *next;
};

/*
 * Open devices are shared: one struct xdev per driver and ordinal, with a
 * count of its users (device_ref.c).  xdev_ref() takes one more
 * reference, xdev_unref() drops one and destroys the device with the last.
 */
void xdev_ref(struct xdev *d);
void xdev_unref(struct xdev *d);

/*
 * For the registry: the list of open devices, under its lock.
 * xdev_shared_find() returns the open device of @kind and @ordinal (no
 * reference taken) or NULL; xdev_shared_add() takes a reference on @d,
 * listing it with the first.
 */
void xdev_shared_lock(void);
void xdev_shared_unlock(void);
struct xdev *xdev_shared_find(enum xrt_device_kind kind, uint32_t ordinal);
void xdev_shared_add(struct xdev *d);

/*
 * A device driver, as the registry (libxrt/registry/registry.c) lists
 * it: its devices are named "PREFIX:N".  @list appends the devices
 * present to @v (room for @max), counting in @n; NULL for a test driver,
 * opened by name and never listed.  @create opens device @ordinal
 * (NOT_FOUND when there is none); @says_why: its NOT_FOUND message says
 * why there is no device, and opening passes it on.
 */
struct xdev_driver {
	const char *prefix;
	enum xrt_device_kind kind;
	void (*list)(struct xrt_device_info *v, size_t max, size_t *n);
	xrt_status *(*create)(uint32_t ordinal, const struct xrt_allocator *a, struct xdev **out);
	bool says_why;
	/* NULL, or makes at least @n devices exist (the host's virtual devices) */
	void (*raise_count)(uint32_t n);
};

static inline bool xdev_is_host(const struct xdev *d)
{
	return d->info.kind == XRT_DEVICE_HOST;
}

/* Whether the host reads and writes this device's buffers in place. */
static inline bool xdev_is_mapped(const struct xdev *d)
{
	return !d->ops->read;
}

static inline bool xdev_buf_live(const struct xdev_buf *b)
{
	return b->data || b->addr;
}

/* @n bytes of host memory into @b at @off: in place, or the device's write. */
xrt_status *xdev_write(struct xdev *d, struct xdev_buf *b, uint64_t off, const void *src,
		       uint64_t n, const struct xrt_allocator *a);
/* @n bytes of @b at @off into host memory. */
xrt_status *xdev_read(struct xdev *d, const struct xdev_buf *b, uint64_t off, void *dst,
		      uint64_t n, const struct xrt_allocator *a);

/*
 * staged:0's kind, outside the public enum: host:0's engine behind
 * buffers the host reaches only through read and write
 * (host/host_staged.c), a test driver.
 */
#define XDEV_KIND_STAGED	0x100

#endif /* XRT_DEVICE_DEVICE_H */
