// SPDX-License-Identifier: MIT
/*
 * Collectives.  A program of one device (one replica, one partition)
 * needs no COLLECTIVE: every group is {0}, so a sum, gather, scatter or
 * exchange among one participant is its operands again, a permute
 * delivers to 0 only what 0 sends itself, and the ids are 0.
 *
 * A program of D devices serves them all: replica-id and partition-id
 * are FILLs of the job's ids, and every collective is one COLLECTIVE
 * command over dense copies of its operands, into fresh arrays, naming
 * a group in the executable's table that says, for each device, whom it
 * meets (ir_collective_group(), as the evaluator reads the modes) or,
 * for a permute, whose array it receives.
 */
#include <stdio.h>
#include <string.h>

#include "cc.h"
#include "core/mem.h"
#include "ir/opcode.h"

/* The most devices a program is compiled for: each group table is a few words a device. */
#define CC_MAX_DEVICES (1u << 16)

/* Whether the pairs send 0 to itself (each pair is "2, source, target"). */
static bool sends_to_self(const struct ir_instr *in)
{
	const struct ir_attr *p = ir_instr_attr(in, IR_ATTR_SOURCE_TARGET_PAIRS);
	uint32_t i;

	for (i = 0; p && i + 2 < p->n; i += 3)
		if (p->ints[i + 1] == 0 && p->ints[i + 2] == 0)
			return true;
	return false;
}

/* Value @v: zeros of instruction @i's (array) shape. */
static void zeros(struct cc *cc, uint32_t i, uint32_t v)
{
	const struct xrt_shape *s = &cc->c->instrs[i].shape;

	if (!cc_alloc(cc, v, s->dtype, s->rank, s->dims) && xrt_shape_element_count(s))
		cc_fill_value(cc, &cc->vals[v].buf, (uint8_t[16]){ 0 });
}

static void lower_alone(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);

	switch (in->op) {
	case XRT_OP_REPLICA_ID:
	case XRT_OP_PARTITION_ID:
		zeros(cc, i, v);
		return;
	case XRT_OP_COLLECTIVE_PERMUTE:
		if (!sends_to_self(in))
			zeros(cc, i, v);	/* no one sends to 0 */
		else
			cc_alias(cc, v, cc_opnd(cc, in, 0));
		return;
	default:
		if (xrt_shape_is_tuple(&in->shape))
			cc_lower_tuple(cc, i);
		else
			cc_alias(cc, v, cc_opnd(cc, in, 0));
	}
}

uint32_t cc_devices(const struct cc *cc)
{
	return xrt_module_num_replicas(cc->m) * xrt_module_num_partitions(cc->m);
}

/* A new, zeroed entry of the group table; NULL (the error set) out of memory. */
static struct xexe_group *new_group(struct cc *cc, uint32_t n)
{
	struct xexe_group *g;

	if (cc->num_groups == cc->group_cap) {
		uint32_t cap = cc->group_cap ? 2 * cc->group_cap : 4;

		g = xrt_mem_calloc(cc->a, cap, sizeof(*g));
		if (!g)
			return cc_oom(cc), NULL;
		if (cc->num_groups)
			memcpy(g, cc->groups, cc->num_groups * sizeof(*g));
		xrt_mem_free(cc->a, cc->groups);
		cc->groups = g;
		cc->group_cap = cap;
	}
	g = &cc->groups[cc->num_groups++];
	memset(g, 0, sizeof(*g));
	g->group_of = xrt_mem_calloc(cc->a, n, sizeof(*g->group_of));
	g->start = xrt_mem_calloc(cc->a, n + 1, sizeof(*g->start));
	g->members = xrt_mem_calloc(cc->a, n, sizeof(*g->members));
	if (!g->group_of || !g->start || !g->members)
		return cc_oom(cc), NULL;
	return g;
}

/* @g's groups: each device's, met in device order, numbered as found. */
static void fill_groups(struct cc *cc, const struct ir_instr *in, struct xexe_group *g,
			int64_t *devs, uint32_t n)
{
	uint32_t parts = xrt_module_num_partitions(cc->m), d, k, num = 0, pos = 0;
	int64_t size, me;

	for (d = 0; d < n; d++)
		g->group_of[d] = UINT32_MAX;
	for (d = 0; d < n && !cc->err; d++) {
		if (g->group_of[d] != UINT32_MAX)
			continue;
		size = ir_collective_group(cc->m, in, d / parts, d % parts, devs, &me);
		g->start[num] = pos;
		for (k = 0; k < size && pos < n; k++) {
			if (g->group_of[devs[k]] != UINT32_MAX)
				break;
			g->group_of[devs[k]] = num;
			g->members[pos++] = (uint32_t)devs[k];
		}
		if (!size || k < size)
			cc_fail(cc, XRT_INTERNAL, "the groups do not partition the devices");
		num++;
	}
	g->start[num] = pos;
}

int64_t cc_collective_group(struct cc *cc, const struct ir_instr *in)
{
	uint32_t n = cc_devices(cc), parts = xrt_module_num_partitions(cc->m), d;
	struct xexe_group *g = new_group(cc, n);
	int64_t *devs = xrt_mem_calloc(cc->a, n, sizeof(*devs));
	char where[256];

	if (!g || !devs) {
		xrt_mem_free(cc->a, devs);
		return cc->err ? -1 : (cc_oom(cc), -1);
	}
	fill_groups(cc, in, g, devs, n);
	xrt_mem_free(cc->a, devs);
	if (in->op == XRT_OP_COLLECTIVE_PERMUTE) {
		g->source = xrt_mem_calloc(cc->a, n, sizeof(*g->source));
		for (d = 0; g->source && d < n; d++)
			g->source[d] = (int32_t)ir_permute_source(cc->m, in, d / parts, d % parts);
	}
	snprintf(where, sizeof(where), "computation '%s', instruction '%s' (%s)", cc->c->name,
		 in->name, xrt_opcode_name(in->op));
	g->where = xrt_mem_strdup(cc->a, where);
	if ((in->op == XRT_OP_COLLECTIVE_PERMUTE && !g->source) || !g->where)
		cc_oom(cc);
	return cc->err ? -1 : (int64_t)cc->num_groups - 1;
}

/* The command's kind; 0 (the error set) for one it has none for. */
static uint32_t kind_of(const struct ir_instr *in)
{
	switch (in->op) {
	case XRT_OP_ALL_REDUCE:
		return XRT_CS_COLL_ALL_REDUCE;
	case XRT_OP_ALL_GATHER:
		return XRT_CS_COLL_ALL_GATHER;
	case XRT_OP_REDUCE_SCATTER:
		return XRT_CS_COLL_REDUCE_SCATTER;
	case XRT_OP_ALL_TO_ALL:
		return ir_instr_attr(in, IR_ATTR_DIMENSIONS) ? XRT_CS_COLL_ALL_TO_ALL :
							       XRT_CS_COLL_ALL_TO_ALL_TUPLE;
	case XRT_OP_COLLECTIVE_PERMUTE:
		return XRT_CS_COLL_PERMUTE;
	default:
		return XRT_CS_COLL_BROADCAST;
	}
}

struct xrt_cs_view cc_row_major_view(const struct cc_buf *b)
{
	struct xrt_cs_view v = cc_csview(b);
	int64_t s = 1;
	int d;

	for (d = (int)b->rank - 1; d >= 0; d--) {
		v.strides[d] = s;
		s *= b->dims[d];
	}
	return v;
}

/* The views: each operand dense (a copy, into @temps, where not), then fresh results. */
static uint32_t add_views(struct cc *cc, uint32_t i, struct xrt_cs_view *views,
			  uint32_t *temps, uint32_t *num_temps)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t n = in->num_operands, k, v = cc_iv(cc, i), out;
	bool tuple = xrt_shape_is_tuple(&in->shape);
	struct cc_buf b;

	for (k = 0; k < n && !cc->err; k++) {
		b = cc->vals[cc_opnd(cc, in, k)].buf;
		if (!cc_is_dense(&b))
			b = cc_dense_copy(cc, &b, &temps[(*num_temps)++]);
		views[k] = cc_row_major_view(&b);
	}
	if (tuple && !cc->err)
		cc_tuple_init(cc, v, n);
	for (k = 0; k < n && !cc->err; k++) {
		const struct xrt_shape *s = tuple ? &in->shape.tuple[k] : &in->shape;

		out = tuple ? cc_tuple_add(cc, v) : v;
		if (!cc->err && !cc_alloc(cc, out, s->dtype, s->rank, s->dims))
			views[n + k] = cc_row_major_view(&cc->vals[out].buf);
	}
	return n;
}

static void lower_command(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	struct xrt_cs_view views[2 * XRT_CS_COLL_MAX_VIEWS];
	uint32_t temps[XRT_CS_COLL_MAX_VIEWS], num_temps = 0, op = 0, dim = 0, n, k;
	uint32_t kind = kind_of(in);
	const struct ir_attr *dims = ir_instr_attr(in, IR_ATTR_DIMENSIONS);
	int64_t group;

	if (in->num_operands > XRT_CS_COLL_MAX_VIEWS) {
		cc_fail(cc, XRT_UNIMPLEMENTED, "a collective of more than %d arrays",
			XRT_CS_COLL_MAX_VIEWS);
		return;
	}
	if (dims && dims->n)
		dim = (uint32_t)dims->ints[0];
	group = cc_collective_group(cc, in);
	if (group < 0)
		return;
	if (kind == XRT_CS_COLL_ALL_REDUCE || kind == XRT_CS_COLL_REDUCE_SCATTER) {
		const struct ir_comp *f = &cc->m->comps[ir_instr_attr(in, IR_ATTR_TO_APPLY)->ints[0]];

		op = cc_reducer_op(f, cc->c->instrs[in->operands[0]].shape.dtype);
		if (!op) {
			cc_lower_collective_fold(cc, i, group);
			return;
		}
	}
	n = add_views(cc, i, views, temps, &num_temps);
	if (!cc->err)
		cs_collective(&cc->b, kind, op, dim, (uint32_t)group, views, n);
	for (k = 0; k < num_temps; k++)
		cc_release(cc, temps[k]);
}

void cc_lower_collective(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	uint32_t v = cc_iv(cc, i);

	if (cc_devices(cc) == 1) {
		lower_alone(cc, i);
		return;
	}
	if (cc_devices(cc) > CC_MAX_DEVICES) {
		cc_fail(cc, XRT_UNIMPLEMENTED, "a program of %u devices: at most %u",
			cc_devices(cc), CC_MAX_DEVICES);
		return;
	}
	if (in->op == XRT_OP_REPLICA_ID || in->op == XRT_OP_PARTITION_ID) {
		struct xrt_cs_view dst;

		if (cc_alloc(cc, v, XRT_U32, 0, (const int64_t[1]){ 0 }))
			return;
		dst = cc_csview(&cc->vals[v].buf);
		cs_fill_id(&cc->b, &dst, in->op == XRT_OP_REPLICA_ID ? XRT_CS_FILL_REPLICA_ID :
								       XRT_CS_FILL_PARTITION_ID);
		return;
	}
	lower_command(cc, i);
}
