// SPDX-License-Identifier: MIT
/*
 * Checking the collectives: who takes part (replica_groups and the
 * module's replica and partition counts, read as XLA's modes define
 * them) and the shapes that follow from how many do.
 *
 * The modes: without a channel_id the ids in the groups are replicas
 * (cross-replica).  With one, all-reduce, all-gather and reduce-scatter
 * read their ids as replicas of every partition (cross-replica-and-
 * partition), or as flattened ids replica * partitions + partition
 * with use_global_device_ids=true; the other collectives read them as
 * partitions (cross-partition).  Empty groups mean one group of all.
 */
#include <string.h>

#include "core/mem.h"
#include "verify.h"

/* How the ids of replica_groups are read. */
struct mode {
	int64_t space;	/* ids run from 0 to space - 1 */
	int64_t mult;	/* devices per listed id (the partitions, when ids are replicas) */
	int64_t all;	/* devices of one group when the groups are empty; 0: not allowed */
	const char *what;	/* "replica", "partition", "device" */
};

static int64_t partitions(const struct vfy *v)
{
	return v->m->num_partitions ? v->m->num_partitions : 1;
}

static bool flag(const struct vfy *v, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(v->in, key);

	return a && a->n && a->ints[0];
}

/* @global_ids: the opcode takes use_global_device_ids (all-reduce, all-gather, reduce-scatter). */
static int get_mode(struct vfy *v, bool global_ids, struct mode *md)
{
	static const char *const what[] = {
		[IR_CROSS_REPLICA] = "replica", [IR_CROSS_PARTITION] = "partition",
		[IR_CROSS_REPLICA_AND_PARTITION] = "replica", [IR_FLATTENED_ID] = "device",
	};
	const struct ir_attr *ch = ir_instr_attr(v->in, IR_ATTR_CHANNEL_ID);
	enum ir_coll_mode mode = ir_collective_mode(v->in);

	if (ch && (ch->n != 1 || ch->ints[0] < 1))
		return vfy_fail(v, "channel_id must be a positive number");
	if (!global_ids && ir_instr_attr(v->in, IR_ATTR_USE_GLOBAL_DEVICE_IDS))
		return vfy_fail(v, "%s takes no use_global_device_ids",
				xrt_opcode_name(v->in->op));
	if (!ch && flag(v, IR_ATTR_USE_GLOBAL_DEVICE_IDS))
		return vfy_fail(v, "use_global_device_ids=true needs a channel_id");
	md->space = ir_collective_space(v->m, mode);
	md->mult = mode == IR_CROSS_REPLICA_AND_PARTITION ? partitions(v) : 1;
	md->all = mode == IR_FLATTENED_ID ? 0 : md->space * md->mult;
	md->what = what[mode];
	return 0;
}

/* Each id below the mode's space, each once, all of them listed. */
static int check_cover(struct vfy *v, const struct ir_attr *g, const struct mode *md,
		       int64_t listed)
{
	uint8_t *seen;
	uint32_t i = 0, k;
	int ret = 0;

	if (listed != md->space)
		return vfy_fail(v, "replica_groups list %lld ids, but there are %lld %ss "
				"(each in one group)", (long long)listed, (long long)md->space,
				md->what);
	seen = xrt_mem_calloc(v->m->alloc, (size_t)md->space, 1);
	if (!seen) {
		v->err = xrt_status_oom(v->m->alloc, "the verifier");
		return -1;
	}
	while (i < g->n && !ret) {
		int64_t len = g->ints[i++];

		for (k = 0; k < len && !ret; k++, i++) {
			int64_t id = g->ints[i];

			if (id >= md->space)
				ret = vfy_fail(v, "replica_groups name %s %lld, but there are %lld",
					       md->what, (long long)id, (long long)md->space);
			else if (seen[id]++)
				ret = vfy_fail(v, "replica_groups name %s %lld twice", md->what,
					       (long long)id);
		}
	}
	xrt_mem_free(v->m->alloc, seen);
	return ret;
}

/*
 * The groups of @md: *@size is the devices in each (the same in every
 * group where @uniform; else that of the first).
 */
static int check_groups(struct vfy *v, const struct mode *md, bool uniform, int64_t *size)
{
	const struct ir_attr *g = ir_instr_attr(v->in, IR_ATTR_REPLICA_GROUPS);
	int64_t groups = g ? ir_groups_count(g->ints, g->n) : 0, listed = 0;
	uint32_t i = 0;

	if (groups < 0)
		return vfy_fail(v, "replica_groups are not well formed");
	if (!groups) {
		if (!md->all)
			return vfy_fail(v, "use_global_device_ids=true needs replica_groups");
		*size = md->all;
		return 0;
	}
	*size = g->ints[0] * md->mult;
	while (i < g->n) {
		int64_t len = g->ints[i];

		if (!len)
			return vfy_fail(v, "replica_groups has an empty group");
		if (uniform && len * md->mult != *size)
			return vfy_fail(v, "replica_groups of %lld and %lld: %s needs groups of "
					"one size", (long long)(*size / md->mult), (long long)len,
					xrt_opcode_name(v->in->op));
		listed += len;
		i += (uint32_t)len + 1;
	}
	return check_cover(v, g, md, listed);
}

/* Every operand an array; @t: their shapes; the result those, one or a tuple. */
static int result_of(struct vfy *v, const struct xrt_shape *t, uint32_t n)
{
	return n == 1 ? vfy_result_is(v, &t[0]) : vfy_result_tuple(v, t, n);
}

static int operand_arrays(struct vfy *v, uint32_t max)
{
	uint32_t k;

	if (vfy_operands(v, 1, max))
		return -1;
	for (k = 0; k < v->in->num_operands; k++)
		if (vfy_array(v, k))
			return -1;
	return 0;
}

/* all-reduce, reduce-scatter: to_apply combines two scalars of the operands' type. */
static int check_reducer(struct vfy *v)
{
	const struct ir_comp *f;
	enum xrt_dtype t = vfy_opnd(v, 0)->dtype;
	uint32_t k;

	for (k = 1; k < v->in->num_operands; k++)
		if (vfy_opnd(v, k)->dtype != t)
			return vfy_fail(v, "operand %u is %s, operand 0 %s: one to_apply reduces "
					"them all", k, xrt_dtype_name(vfy_opnd(v, k)->dtype),
					xrt_dtype_name(t));
	return vfy_called(v, IR_ATTR_TO_APPLY, &f) || vfy_reducer(v, f, 1, &t, false);
}

static int check_all_reduce(struct vfy *v)
{
	struct xrt_shape t[XRT_MAX_RANK * 8];
	struct mode md;
	int64_t size;
	uint32_t k;

	if (operand_arrays(v, sizeof(t) / sizeof(t[0])) || get_mode(v, true, &md) ||
	    check_groups(v, &md, false, &size) || check_reducer(v))
		return -1;
	for (k = 0; k < v->in->num_operands; k++)
		t[k] = *vfy_opnd(v, k);
	return result_of(v, t, v->in->num_operands);
}

/* The one dimension all-gather, reduce-scatter and array all-to-all split or join. */
static int the_dimension(struct vfy *v, int64_t *d)
{
	const int64_t *dims;
	uint32_t n, k;

	if (vfy_ints(v, IR_ATTR_DIMENSIONS, &dims, &n))
		return -1;
	if (n != 1)
		return vfy_fail(v, "%s takes one dimension, not %u", xrt_opcode_name(v->in->op), n);
	*d = dims[0];
	for (k = 0; k < v->in->num_operands; k++)
		if (*d < 0 || *d >= vfy_opnd(v, k)->rank)
			return vfy_fail(v, "dimension %lld of operand %u of rank %u", (long long)*d,
					k, vfy_opnd(v, k)->rank);
	return 0;
}

/* all-gather multiplies dimension d by the group's size, reduce-scatter divides it. */
static int check_gather_scatter(struct vfy *v, bool gather)
{
	struct xrt_shape t[XRT_MAX_RANK * 8];
	struct mode md;
	int64_t size, d, *x;
	uint32_t k;

	if (operand_arrays(v, sizeof(t) / sizeof(t[0])) || get_mode(v, true, &md) ||
	    check_groups(v, &md, true, &size) || the_dimension(v, &d) ||
	    (!gather && check_reducer(v)))
		return -1;
	for (k = 0; k < v->in->num_operands; k++) {
		t[k] = *vfy_opnd(v, k);
		x = &t[k].dims[d];
		if (gather && __builtin_mul_overflow(*x, size, x))
			return vfy_fail(v, "operand %u gathered from %lld overflows", k,
					(long long)size);
		if (!gather && *x % size)
			return vfy_fail(v, "dimension %lld of operand %u (%lld) does not split "
					"into %lld", (long long)d, k, (long long)*x, (long long)size);
		if (!gather)
			*x /= size;
	}
	return result_of(v, t, v->in->num_operands);
}

/*
 * all-to-all: an array split along its dimension into one block per
 * device, or (without dimensions) one operand per device.
 */
static int check_all_to_all(struct vfy *v)
{
	struct xrt_shape t[XRT_MAX_RANK * 8];
	uint32_t n = v->in->num_operands, k;
	struct mode md;
	int64_t size, d;

	if (operand_arrays(v, sizeof(t) / sizeof(t[0])) || get_mode(v, false, &md) ||
	    check_groups(v, &md, true, &size))
		return -1;
	for (k = 0; k < n; k++)
		t[k] = *vfy_opnd(v, k);
	if (!ir_instr_attr(v->in, IR_ATTR_DIMENSIONS)) {
		if (n != size)
			return vfy_fail(v, "all-to-all of %u operands among %lld: one per device",
					n, (long long)size);
		/* element j of the result is member j's operand of this device's place */
		for (k = 1; k < n; k++)
			if (!xrt_shape_compatible(&t[k], &t[0]))
				return vfy_fail(v, "all-to-all sends operand %u, of another shape than "
						"operand 0: every device's element k is an operand "
						"of one shape", k);
		return vfy_result_tuple(v, t, n);	/* a tuple even of one */
	}
	if (the_dimension(v, &d))
		return -1;
	if (n != 1)
		return vfy_fail(v, "all-to-all with a dimension takes one operand, not %u", n);
	if (t[0].dims[d] % size)
		return vfy_fail(v, "dimension %lld (%lld) does not split into %lld", (long long)d,
				(long long)t[0].dims[d], (long long)size);
	return result_of(v, t, 1);
}

/* Pairs of ids of the mode, each source once and each target once. */
static int check_pairs(struct vfy *v, const struct mode *md)
{
	const struct ir_attr *g = ir_instr_attr(v->in, IR_ATTR_SOURCE_TARGET_PAIRS);
	uint8_t *seen;
	uint32_t i, j;
	int ret = 0;

	if (!g)
		return vfy_fail(v, "attribute 'source_target_pairs' missing");
	if (ir_groups_count(g->ints, g->n) < 0)
		return vfy_fail(v, "source_target_pairs are not well formed");
	for (i = 0; i < g->n; i += 3) {
		if (g->ints[i] != 2)
			return vfy_fail(v, "source_target_pairs has a pair of %lld",
					(long long)g->ints[i]);
		for (j = 1; j <= 2; j++)
			if (g->ints[i + j] >= md->space)
				return vfy_fail(v, "source_target_pairs name %s %lld, but there "
						"are %lld", md->what, (long long)g->ints[i + j],
						(long long)md->space);
	}
	/* [0, space): sent from; [space, 2 space): sent to */
	seen = xrt_mem_calloc(v->m->alloc, 2 * (size_t)md->space, 1);
	if (!seen) {
		v->err = xrt_status_oom(v->m->alloc, "the verifier");
		return -1;
	}
	for (i = 0; i < g->n && !ret; i += 3)
		for (j = 1; j <= 2 && !ret; j++)
			if (seen[(j - 1) * md->space + g->ints[i + j]]++)
				ret = vfy_fail(v, "source_target_pairs send %s %s %lld twice",
					       j == 1 ? "from" : "to", md->what,
					       (long long)g->ints[i + j]);
	xrt_mem_free(v->m->alloc, seen);
	return ret;
}

static int check_permute(struct vfy *v)
{
	struct mode md;

	if (ir_instr_attr(v->in, IR_ATTR_REPLICA_GROUPS))
		return vfy_fail(v, "collective-permute takes source_target_pairs, not replica_groups");
	if (vfy_operands(v, 1, 1) || vfy_array(v, 0) || get_mode(v, false, &md) ||
	    check_pairs(v, &md))
		return -1;
	return vfy_result_is(v, vfy_opnd(v, 0));
}

static int check_broadcast(struct vfy *v)
{
	struct xrt_shape t[XRT_MAX_RANK * 8];
	struct mode md;
	int64_t size;
	uint32_t k;

	if (operand_arrays(v, sizeof(t) / sizeof(t[0])) || get_mode(v, false, &md) ||
	    check_groups(v, &md, false, &size))
		return -1;
	for (k = 0; k < v->in->num_operands; k++)
		t[k] = *vfy_opnd(v, k);
	return result_of(v, t, v->in->num_operands);
}

int vfy_collective(struct vfy *v)
{
	switch (v->in->op) {
	case XRT_OP_ALL_REDUCE:
		return check_all_reduce(v);
	case XRT_OP_ALL_GATHER:
		return check_gather_scatter(v, true);
	case XRT_OP_REDUCE_SCATTER:
		return check_gather_scatter(v, false);
	case XRT_OP_ALL_TO_ALL:
		return check_all_to_all(v);
	case XRT_OP_COLLECTIVE_PERMUTE:
		return check_permute(v);
	case XRT_OP_COLLECTIVE_BROADCAST:
		return check_broadcast(v);
	case XRT_OP_REPLICA_ID:
	case XRT_OP_PARTITION_ID:
		return vfy_operands(v, 0, 0) || vfy_result(v, XRT_U32, 0, NULL);
	default:
		return vfy_fail(v, "%s is not a collective", xrt_opcode_name(v->in->op));
	}
}
