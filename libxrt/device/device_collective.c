// SPDX-License-Identifier: MIT
/*
 * A COLLECTIVE command as an executor performs it: the command's views
 * as arrays of this device, its group read from the executable's table
 * for this device, the sizes the engine could not check without the
 * group (a dimension the group's size must divide, the arrays of an
 * all-to-all of one per member), then the run's communicator.
 */
#include "cstream/executable.h"
#include "device/device.h"
#include "engine/engine.h"

#define MAX_VIEWS (2 * XRT_CS_COLL_MAX_VIEWS)

static xrt_status *refuse(const struct xexe_group *g, const char *why, uint64_t a, uint64_t b)
{
	return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "%s: %s (%llu, %llu)", g->where,
			      why, (unsigned long long)a, (unsigned long long)b);
}

/* The sizes that depend on the group's size @n. */
static xrt_status *check_sizes(const struct xexe_group *g, const struct xrt_cs_collective *c,
			       const struct xdev_coll_array *in, const struct xdev_coll_array *out,
			       uint32_t n)
{
	uint32_t k;

	if (c->kind == XRT_CS_COLL_ALL_TO_ALL_TUPLE && c->num_in != n)
		return refuse(g, "an all-to-all of one array per member", c->num_in, n);
	for (k = 0; k < c->num_in; k++) {
		uint64_t a = in[k].rank ? in[k].dims[c->dim] : 1, b = out[k].rank ?
								  out[k].dims[c->dim] : 1;

		if (c->kind == XRT_CS_COLL_ALL_GATHER && b != a * n)
			return refuse(g, "a gathered dimension is not the group's size times "
				      "the input's", b, a);
		if (c->kind == XRT_CS_COLL_REDUCE_SCATTER && a != b * n)
			return refuse(g, "a scattered dimension is not the group's size times "
				      "the output's", a, b);
		if (c->kind == XRT_CS_COLL_ALL_TO_ALL && a % n)
			return refuse(g, "the group's size does not divide the split dimension",
				      a, n);
	}
	return NULL;
}

/* The place of device @d in the group starting at @members (@n of them); -1 if not there. */
static int32_t place_of(const uint32_t *members, uint32_t n, int32_t d)
{
	uint32_t k;

	for (k = 0; d >= 0 && k < n; k++)
		if (members[k] == (uint32_t)d)
			return (int32_t)k;
	return -1;
}

xrt_status *xdev_collective_run(const struct xrt_executable *exe, const struct xrt_engine_ctx *x,
				uint32_t pc, const struct xdev_watch *w, void *stream)
{
	const struct xrt_cs_collective *c = xrt_engine_collective_of(x, pc);
	const struct xdev_peer *peer = w ? w->peer : NULL;
	struct xdev_coll_array arr[MAX_VIEWS];
	struct xdev_collective op = { c };
	const struct xexe_group *g;
	uint32_t k, d, grp;

	if (!peer || !peer->comm)
		return xrt_status_new(NULL, XRT_FAILED_PRECONDITION,
				      "run: a program of %u x %u devices run alone: its "
				      "collectives need the others", exe->num_replicas,
				      exe->num_partitions);
	d = peer->device;
	if (c->group >= exe->num_groups || d >= exe->num_replicas * exe->num_partitions)
		return xrt_status_new(NULL, XRT_INTERNAL, "run: command %u names group %u of %u, "
				      "device %u", pc, c->group, exe->num_groups, d);
	g = &exe->groups[c->group];
	grp = g->group_of[d];
	op.members = &g->members[g->start[grp]];
	op.size = g->start[grp + 1] - g->start[grp];
	op.me = (uint32_t)place_of(op.members, op.size, (int32_t)d);
	op.source = g->source ? place_of(op.members, op.size, g->source[d]) : -1;
	op.source_of = g->source;
	op.pc = pc;
	op.where = g->where;
	op.stream = stream;
	for (k = 0; k < 2u * c->num_in; k++) {
		const struct xrt_cs_view *v = xrt_engine_collective_view(c, k);

		arr[k] = (struct xdev_coll_array){ xrt_engine_view_data(x, v), v->dtype, v->rank,
						   v->dims };
	}
	op.in = arr;
	op.out = arr + c->num_in;
	{
		xrt_status *st = check_sizes(g, c, op.in, op.out, op.size);

		if (st)
			return st;
	}
	return peer->comm->ops->run(peer->comm, d, &op, w);
}
