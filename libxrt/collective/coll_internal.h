/* SPDX-License-Identifier: MIT */
/*
 * The in-process communicator's parts: a meeting of one group at one
 * command, and the exchange each member makes once the group is whole.
 */
#ifndef XRT_COLLECTIVE_INTERNAL_H
#define XRT_COLLECTIVE_INTERNAL_H

#include "device/device.h"

#define XCOLL_MAX_STEPS 2

struct xcoll_meeting {
	struct xcoll_meeting *next;
	uint32_t pc, leader, size;
	uint32_t arrived, left;
	uint32_t done[XCOLL_MAX_STEPS];		/* members past each step */
	const struct xdev_collective **ops;	/* per place in the group */
};

/* The steps @op takes, each ended by a barrier of the group. */
uint32_t xcoll_steps(const struct xdev_collective *op);
/* Step @step of @op for the member at op->me, reading the others' arrays in @mt. */
void xcoll_exchange(const struct xcoll_meeting *mt, const struct xdev_collective *op,
		    uint32_t step);

#endif /* XRT_COLLECTIVE_INTERNAL_H */
