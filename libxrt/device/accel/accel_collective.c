// SPDX-License-Identifier: MIT
/*
 * Collectives on an accel device.  The kernel never meets another
 * device: a job ends at the first COLLECTIVE it reaches, as if it had
 * completed, and QUEUE_STATUS says where (stop_pc).  Its buffers are
 * mapped here, so the runtime performs the collective on them through
 * the run's communicator, as the host device does between its commands,
 * and submits the program again from the command after it (start_pc).
 * The arena, which holds every value between commands, is the queue's
 * and stays bound from job to job.
 */
#include "cstream/executable.h"
#include "device/device_program.h"
#include "accel.h"

/* Whether every view of @c has its slot mapped here. */
static bool views_mapped(const struct xrt_engine_ctx *x, const struct xrt_cs_collective *c)
{
	uint32_t k;

	for (k = 0; k < 2u * c->num_in; k++)
		if (!x->slots[xrt_engine_collective_view(c, k)->slot])
			return false;
	return true;
}

xrt_status *adev_collective(const struct xrt_executable *exe, uint8_t *const *data,
			    uint32_t pc, const struct xdev_watch *w)
{
	const struct xdev_program *p;
	struct xrt_engine_ctx x = { 0 };
	const struct xrt_cs_collective *c;
	xrt_status *st = xdev_program_of(exe, &p);

	if (st)
		return st;
	x.prog = &p->prog;
	x.slots = data;
	c = pc < p->prog.num_commands ? xrt_engine_collective_of(&x, pc) : NULL;
	if (!c || !views_mapped(&x, c))
		return xrt_status_new(NULL, XRT_INTERNAL, "run: the driver stopped the job at "
				      "command %u, not a COLLECTIVE on the job's buffers", pc);
	return xdev_collective_run(exe, &x, pc, w, NULL);
}
