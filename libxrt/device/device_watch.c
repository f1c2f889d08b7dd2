// SPDX-License-Identifier: MIT
/*
 * What stops a run before its end (struct xdev_watch), for the executors
 * that step through a program on the host (the host device after every
 * command, cuda at its host-side jumps): they ask here.  The cancel flag is read every
 * time (an atomic load), the clock at every jump and every 16 commands
 * (a command runs to its end first); a loop's exit jump not taken is one
 * more iteration of that execution of the loop, taken it ends that
 * execution, as the evaluator counts.  A stop names the loop it was in
 * (the innermost) and the command.
 */
#include <stdio.h>
#include <time.h>

#include "engine/engine.h"
#include "cstream/executable.h"
#include "core/mem.h"
#include "cstream/cs_builder.h"
#include "device/device.h"

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

xrt_status *xdev_watch_init(struct xdev_watcher *hw, const struct xrt_executable *exe,
			    const struct xrt_engine_prog *prog, const struct xdev_watch *w,
			    const struct xrt_allocator *a)
{
	hw->w = w;
	hw->exe = exe;
	hw->prog = prog;
	hw->a = a;
	hw->since_clock = 0;
	hw->counts = NULL;
	if (!w || !w->max_iterations || !exe->num_loops)
		return NULL;
	hw->counts = xrt_mem_calloc(a, exe->num_loops, sizeof(*hw->counts));
	return hw->counts ? NULL : xrt_status_oom(a, "loop counters");
}

void xdev_watch_deinit(struct xdev_watcher *hw)
{
	xrt_mem_free(hw->a, hw->counts);
	hw->counts = NULL;
}

/* The innermost loop holding command @pc, or -1. */
static int64_t loop_at(const struct xrt_executable *exe, uint32_t pc)
{
	int64_t best = -1;
	uint32_t i;

	for (i = 0; i < exe->num_loops; i++) {
		const struct xexe_loop *l = &exe->loops[i];

		if (l->top <= pc && pc <= l->back &&
		    (best < 0 || l->back - l->top < exe->loops[best].back - exe->loops[best].top))
			best = i;
	}
	return best;
}

/*
 * Command @pc of @exe's program, walked to from the first (error paths
 * only); NULL past the end, or where the bytes do not hold it.
 */
static const struct xrt_cs_cmd *command_at(const struct xrt_executable *exe, uint32_t pc)
{
	const struct xrt_cs_header *h = exe->program;
	const uint8_t *p = exe->program;
	const struct xrt_cs_cmd *c;
	uint64_t at;
	uint32_t i;

	if (pc >= exe->num_commands || exe->program_size < sizeof(*h))
		return NULL;
	at = h->commands_offset;
	for (i = 0;; i++) {
		if (at > exe->program_size || exe->program_size - at < sizeof(*c))
			return NULL;
		c = (const void *)(p + at);
		if (i == pc)
			return c;
		if (!c->size)
			return NULL;
		at += c->size;
	}
}

void xdev_watch_where(const struct xrt_executable *exe, uint32_t pc, char *buf, size_t size)
{
	const struct xrt_cs_cmd *c;
	int64_t l;

	c = command_at(exe, pc);
	if (!c) {
		snprintf(buf, size, "before its first command");
		return;
	}
	l = loop_at(exe, pc);
	snprintf(buf, size, "at command %u (%s)%s%s", pc, cs_op_name(c->op), l >= 0 ? ", in " : "",
		 l >= 0 ? exe->loops[l].where : "");
}

static xrt_status *stopped(const struct xdev_watcher *hw, enum xrt_code code, const char *why,
			   uint32_t pc)
{
	char where[256];

	xdev_watch_where(hw->exe, pc, where, sizeof(where));
	return xrt_status_new(hw->a, code, "run: %s %s", why, where);
}

/*
 * A jump at @pc: if it is a loop's exit, one more iteration (not taken)
 * or the loop's end.  The loops are sorted by exit: found by bisection.
 */
static xrt_status *count(struct xdev_watcher *hw, uint32_t pc, uint32_t next)
{
	const struct xrt_executable *exe = hw->exe;
	uint32_t lo = 0, hi = exe->num_loops, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (exe->loops[mid].exit < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == exe->num_loops || exe->loops[lo].exit != pc)
		return NULL;
	if (next != pc + 1)
		hw->counts[lo] = 0;
	else if (++hw->counts[lo] > hw->w->max_iterations)
		return xrt_status_new(hw->a, XRT_DEADLINE_EXCEEDED,
				      "run: %s: more than %llu iterations", exe->loops[lo].where,
				      (unsigned long long)hw->w->max_iterations);
	return NULL;
}

xrt_status *xdev_watch_step(struct xdev_watcher *hw, uint32_t pc, uint32_t next)
{
	const struct xdev_watch *w = hw->w;
	bool jump = next != pc + 1;
	const struct xrt_cs_cmd *c;
	xrt_status *st;

	if (w->cancel && atomic_load_explicit(w->cancel, memory_order_relaxed))
		return stopped(hw, XRT_CANCELLED, "cancelled", pc);
	if (hw->counts) {
		c = (const void *)(hw->prog->base + hw->prog->offsets[pc]);
		if (c->op == XRT_CS_OP_JUMP) {
			st = count(hw, pc, next);
			if (st)
				return st;
			jump = true;
		}
	}
	if (w->deadline_ns && (jump || ++hw->since_clock >= 16)) {
		hw->since_clock = 0;
		if (now_ns() >= w->deadline_ns)
			return stopped(hw, XRT_DEADLINE_EXCEEDED, "deadline passed", pc);
	}
	return NULL;
}
