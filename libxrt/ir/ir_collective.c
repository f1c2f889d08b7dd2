// SPDX-License-Identifier: MIT
/*
 * Who meets whom at a collective, as XLA's operation semantics define
 * it: the mode an instruction's attributes select, and for one device
 * (replica r, partition p) the devices of its group, in the group's
 * order.  Devices are numbered r * partitions + p (the flattened id).
 * The verifier checks the attributes; the evaluator and the compiler
 * read them through here, so that both see the same groups.
 */
#include "ir/ir.h"

static int64_t replicas(const xrt_module *m)
{
	return m->replica_count ? m->replica_count : 1;
}

static int64_t partitions(const xrt_module *m)
{
	return m->num_partitions ? m->num_partitions : 1;
}

static bool flag(const struct ir_instr *in, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a && a->n && a->ints[0];
}

/* Whether @op takes use_global_device_ids (and so reads a channel as replicas of all partitions). */
static bool takes_global_ids(enum xrt_opcode op)
{
	return op == XRT_OP_ALL_REDUCE || op == XRT_OP_ALL_GATHER || op == XRT_OP_REDUCE_SCATTER;
}

enum ir_coll_mode ir_collective_mode(const struct ir_instr *in)
{
	if (!ir_instr_attr(in, IR_ATTR_CHANNEL_ID))
		return IR_CROSS_REPLICA;
	if (!takes_global_ids(in->op))
		return IR_CROSS_PARTITION;
	if (!flag(in, IR_ATTR_USE_GLOBAL_DEVICE_IDS))
		return IR_CROSS_REPLICA_AND_PARTITION;
	return IR_FLATTENED_ID;
}

int64_t ir_collective_space(const xrt_module *m, enum ir_coll_mode mode)
{
	switch (mode) {
	case IR_CROSS_PARTITION:
		return partitions(m);
	case IR_FLATTENED_ID:
		return replicas(m) * partitions(m);
	default:
		return replicas(m);
	}
}

/* The id device (@r, @p) has among the ids @mode lists. */
static int64_t own_id(const xrt_module *m, enum ir_coll_mode mode, int64_t r, int64_t p)
{
	switch (mode) {
	case IR_CROSS_PARTITION:
		return p;
	case IR_FLATTENED_ID:
		return r * partitions(m) + p;
	default:
		return r;
	}
}

int64_t ir_collective_device(const xrt_module *m, enum ir_coll_mode mode, int64_t id,
			     int64_t r, int64_t p)
{
	switch (mode) {
	case IR_CROSS_PARTITION:
		return r * partitions(m) + id;
	case IR_FLATTENED_ID:
		return id;
	default:
		return id * partitions(m) + p;
	}
}

/*
 * The listed group holding @id: *@start its first id's index in @g,
 * and its length; 0 when no group holds it.
 */
static int64_t find_group(const struct ir_attr *g, int64_t id, uint32_t *start)
{
	uint32_t i = 0, k;

	while (i < g->n) {
		int64_t len = g->ints[i];

		for (k = 1; k <= len; k++)
			if (g->ints[i + k] == id) {
				*start = i + 1;
				return len;
			}
		i += (uint32_t)len + 1;
	}
	return 0;
}

int64_t ir_collective_group(const xrt_module *m, const struct ir_instr *in, int64_t r, int64_t p,
			    int64_t *devices, int64_t *me)
{
	const struct ir_attr *g = ir_instr_attr(in, IR_ATTR_REPLICA_GROUPS);
	enum ir_coll_mode mode = ir_collective_mode(in);
	int64_t id = own_id(m, mode, r, p), len, k, q, n = 0;
	int64_t per = mode == IR_CROSS_REPLICA_AND_PARTITION ? partitions(m) : 1;
	uint32_t start = 0;

	if (g && g->n) {
		len = find_group(g, id, &start);
	} else {
		len = ir_collective_space(m, mode);
	}
	*me = -1;
	for (k = 0; k < len; k++) {
		int64_t gid = g && g->n ? g->ints[start + k] : k;

		/* replicas of every partition: replica-major, as XLA lists them */
		for (q = 0; q < per; q++, n++) {
			devices[n] = per > 1 ? gid * per + q : ir_collective_device(m, mode, gid, r, p);
			if (devices[n] == r * partitions(m) + p)
				*me = n;
		}
	}
	return *me < 0 ? 0 : n;
}

int64_t ir_permute_source(const xrt_module *m, const struct ir_instr *in, int64_t r, int64_t p)
{
	const struct ir_attr *pairs = ir_instr_attr(in, IR_ATTR_SOURCE_TARGET_PAIRS);
	enum ir_coll_mode mode = ir_collective_mode(in);
	int64_t id = own_id(m, mode, r, p);
	uint32_t i;

	for (i = 0; pairs && i + 2 < pairs->n; i += 3)
		if (pairs->ints[i + 2] == id)
			return ir_collective_device(m, mode, pairs->ints[i + 1], r, p);
	return -1;
}
