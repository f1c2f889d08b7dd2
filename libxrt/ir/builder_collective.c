// SPDX-License-Identifier: MIT
/*
 * Builder functions for the collectives, and the module's replica and
 * partition counts the verifier reads their groups against.
 */
#include "core/mem.h"
#include "builder_internal.h"

static const xrt_value none = { 0, -1 };

void xrt_builder_set_replicas(xrt_builder *b, uint32_t replica_count, uint32_t num_partitions)
{
	static const char fn[] = "xrt_builder_set_replicas";

	if (!b || b->err || !b->m)
		return;
	if (b->num_vals) {
		/* instructions already checked against the old counts */
		bld_fail(b, fn, NULL, "the counts come before the first instruction");
		return;
	}
	if (replica_count < 1 || replica_count > IR_MAX_REPLICAS || num_partitions < 1 ||
	    num_partitions > IR_MAX_REPLICAS) {
		bld_fail(b, fn, NULL, "replica_count=%u and num_partitions=%u: each must be in "
			 "1..%d", replica_count, num_partitions, IR_MAX_REPLICAS);
		return;
	}
	b->m->replica_count = replica_count;
	b->m->num_partitions = num_partitions;
}

/* @c's groups as GROUPS ints (each group: its size, then its ids). */
static void set_groups(xrt_builder *b, const char *fn, struct ir_instr *in,
		       const struct xrt_collective *c)
{
	uint64_t n = c ? (uint64_t)c->num_groups * ((uint64_t)c->group_size + 1) : 0;
	int64_t *ints;
	uint32_t g, k;

	if (!n) {
		bld_ints(b, fn, in, IR_ATTR_REPLICA_GROUPS, NULL, 0);	/* one group of all */
		return;
	}
	if (!c->groups || !c->group_size || n > IR_MAX_GROUP_INTS) {
		bld_fail(b, fn, in, "%u groups of %u ids%s: expected 1 to %d ids in all",
			 c->num_groups, c->group_size, c->groups ? "" : " at NULL",
			 IR_MAX_REPLICAS);
		return;
	}
	ints = xrt_mem_calloc(b->a, (size_t)n, sizeof(*ints));
	if (!ints) {
		bld_oom(b, fn);
		return;
	}
	for (g = 0; g < c->num_groups; g++) {
		ints[g * (c->group_size + 1)] = c->group_size;
		for (k = 0; k < c->group_size; k++)
			ints[g * (c->group_size + 1) + 1 + k] = c->groups[g * c->group_size + k];
	}
	bld_ints(b, fn, in, IR_ATTR_REPLICA_GROUPS, ints, (uint32_t)n);
	xrt_mem_free(b->a, ints);
}

/* Groups, channel and global ids: what every collective but the permute takes. */
static void set_collective(xrt_builder *b, const char *fn, struct ir_instr *in,
			   const struct xrt_collective *c)
{
	set_groups(b, fn, in, c);
	if (c && c->channel_id)
		bld_int(b, fn, in, IR_ATTR_CHANNEL_ID, c->channel_id);
	if (c && c->use_global_device_ids)
		bld_int(b, fn, in, IR_ATTR_USE_GLOBAL_DEVICE_IDS, 1);
	if (c && c->constrain_layout)
		bld_int(b, fn, in, IR_ATTR_CONSTRAIN_LAYOUT, 1);
}

xrt_value xrt_build_all_reduce(xrt_builder *b, const xrt_value *x, uint32_t n, xrt_comp f,
			       const struct xrt_collective *c)
{
	static const char fn[] = "xrt_build_all_reduce";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_ALL_REDUCE, x, n);

	if (!in)
		return none;
	set_collective(b, fn, in, c);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_all_gather(xrt_builder *b, const xrt_value *x, uint32_t n, int64_t dim,
			       const struct xrt_collective *c)
{
	static const char fn[] = "xrt_build_all_gather";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_ALL_GATHER, x, n);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_DIMENSIONS, dim);
	set_collective(b, fn, in, c);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_reduce_scatter(xrt_builder *b, const xrt_value *x, uint32_t n, int64_t dim,
				   xrt_comp f, const struct xrt_collective *c)
{
	static const char fn[] = "xrt_build_reduce_scatter";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_REDUCE_SCATTER, x, n);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_DIMENSIONS, dim);
	set_collective(b, fn, in, c);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_all_to_all(xrt_builder *b, const xrt_value *x, uint32_t n, int64_t dim,
			       const struct xrt_collective *c)
{
	static const char fn[] = "xrt_build_all_to_all";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_ALL_TO_ALL, x, n);

	if (!in)
		return none;
	if (dim >= 0)
		bld_int(b, fn, in, IR_ATTR_DIMENSIONS, dim);
	set_collective(b, fn, in, c);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_collective_broadcast(xrt_builder *b, const xrt_value *x, uint32_t n,
					 const struct xrt_collective *c)
{
	static const char fn[] = "xrt_build_collective_broadcast";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_COLLECTIVE_BROADCAST, x, n);

	if (!in)
		return none;
	set_collective(b, fn, in, c);
	return bld_close(b, fn, in, true);
}

/* @num_pairs (source, target) pairs as GROUPS ints: "2, source, target" each. */
static void set_pairs(xrt_builder *b, const char *fn, struct ir_instr *in, const int64_t *pairs,
		      uint32_t num_pairs)
{
	int64_t *ints;
	uint32_t k;

	if (num_pairs > IR_MAX_GROUP_INTS / 3) {
		bld_fail(b, fn, in, "%u source-target pairs: at most %d", num_pairs,
			 IR_MAX_GROUP_INTS / 3);
		return;
	}
	if (!bld_need(b, fn, in, pairs, num_pairs, "source_target_pairs"))
		return;
	ints = xrt_mem_calloc(b->a, (size_t)num_pairs * 3 + 1, sizeof(*ints));
	if (!ints) {
		bld_oom(b, fn);
		return;
	}
	for (k = 0; k < num_pairs; k++) {
		ints[3 * k] = 2;
		ints[3 * k + 1] = pairs[2 * k];
		ints[3 * k + 2] = pairs[2 * k + 1];
	}
	bld_ints(b, fn, in, IR_ATTR_SOURCE_TARGET_PAIRS, ints, num_pairs * 3);
	xrt_mem_free(b->a, ints);
}

xrt_value xrt_build_collective_permute(xrt_builder *b, xrt_value x, const int64_t *pairs,
				       uint32_t num_pairs, int64_t channel_id)
{
	static const char fn[] = "xrt_build_collective_permute";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_COLLECTIVE_PERMUTE, &x, 1);

	if (!in)
		return none;
	set_pairs(b, fn, in, pairs, num_pairs);
	if (channel_id)
		bld_int(b, fn, in, IR_ATTR_CHANNEL_ID, channel_id);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_replica_id(xrt_builder *b)
{
	static const char fn[] = "xrt_build_replica_id";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_REPLICA_ID, NULL, 0);

	return in ? bld_close(b, fn, in, true) : none;
}

xrt_value xrt_build_partition_id(xrt_builder *b)
{
	static const char fn[] = "xrt_build_partition_id";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_PARTITION_ID, NULL, 0);

	return in ? bld_close(b, fn, in, true) : none;
}
