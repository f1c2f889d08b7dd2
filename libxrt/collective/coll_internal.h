/* SPDX-License-Identifier: MIT */
/*
 * The in-process communicator's parts: a meeting of one group at one
 * command, and the exchange each member makes once the group is whole.
 */
#ifndef XRT_COLLECTIVE_INTERNAL_H
#define XRT_COLLECTIVE_INTERNAL_H

#include "device/device.h"

struct xcoll_meeting {
	struct xcoll_meeting *next;
	uint32_t pc, leader, size;
	uint32_t arrived, left;
	uint32_t done;				/* members past the exchange */
	const struct xdev_collective **ops;	/* per place in the group */
};

/* The elements of @a under its dimensions [@from, @to). */
uint64_t xcoll_count(const struct xdev_coll_array *a, uint32_t from, uint32_t to);

/*
 * @op for the member at op->me: reads the others' inputs in @mt and, for
 * an all-reduce, writes its folded share into their outputs too.
 */
void xcoll_exchange(const struct xcoll_meeting *mt, const struct xdev_collective *op);

#endif /* XRT_COLLECTIVE_INTERNAL_H */
