// SPDX-License-Identifier: MIT
/*
 * Fuzzes the reader of XLA's serialized modules: any bytes are refused
 * with INVALID_ARGUMENT, or read into a module whose HLO text reads back
 * and prints the same and that the verifier judges without crashing.
 *
 * Random bytes seldom make a message that gets past decoding, so the
 * mutator works on the message where the input decodes as an HloProto
 * (the seeds are XLA's own dumps, selftests/libxrt/xla/): it rewires an
 * operand or a call, changes a dimension, a type, an opcode, an index,
 * a root, a layout, a constant's length or a collective's groups,
 * pairs and channel, or drops an instruction, then encodes the message
 * again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/ir.h>
#include <xrt/wire.h>

#include "xla.pb-c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static void check_text(const xrt_module *m)
{
	xrt_module *m2;
	char *t1, *t2;
	size_t n1, n2;

	if (xrt_hlo_print(m, NULL, &t1, &n1) || xrt_hlo_parse(NULL, t1, n1, &m2) ||
	    xrt_hlo_print(m2, NULL, &t2, &n2) || n1 != n2 || memcmp(t1, t2, n1))
		abort();
	xrt_free(NULL, t1);
	xrt_free(NULL, t2);
	xrt_module_destroy(m2);
}

/* A snapshot's recorded values decode whole or not at all. */
static void check_values(const uint8_t *data, size_t size)
{
	xrt_literal **args, *result;
	uint32_t n, i;
	xrt_status *st = xrt_xla_snapshot_values(NULL, data, size, &args, &n, &result);

	if (st) {
		if (args || n || result || xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return;
	}
	for (i = 0; i < n; i++)
		xrt_literal_destroy(args[i]);
	xrt_free(NULL, args);
	xrt_literal_destroy(result);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xrt_module *m;
	xrt_status *st = xrt_hlo_parse_xla_proto(NULL, data, size, XRT_XLA_ANY, &m);

	check_values(data, size);
	if (st) {
		if (m || xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	check_text(m);
	st = xrt_module_verify(m);
	if (st && xrt_status_code(st) != XRT_INVALID_ARGUMENT)
		abort();
	xrt_status_free(st);
	xrt_module_destroy(m);
	return 0;
}

/* Mutations point fields at static data: an arena frees all at once. */
#define ARENA_BLOCKS 65536
static void *blocks[ARENA_BLOCKS];
static size_t nblocks;

static void *arena_alloc(void *ctx, size_t size)
{
	void *p = nblocks < ARENA_BLOCKS ? malloc(size) : NULL;

	(void)ctx;
	if (p)
		blocks[nblocks++] = p;
	return p;
}

static void arena_free(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

static ProtobufCAllocator arena = { arena_alloc, arena_free, NULL };

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int64_t pick(size_t n)
{
	return n ? (int64_t)(next() % n) : 0;
}

static int64_t small(void)
{
	static const int64_t v[] = { -1, 0, 1, 2, 3, 7, 64, 1 << 20, INT64_MAX };

	return v[pick(sizeof(v) / sizeof(v[0]))];
}

/* A collective's groups, iota list, pairs, channel or global ids. */
static void mutate_collective(Xla__HloInstructionProto *in)
{
	static Xla__IotaReplicaGroupListProto iota = XLA__IOTA_REPLICA_GROUP_LIST_PROTO__INIT;
	static int64_t dims[2];
	static int32_t perm[2];
	Xla__CollectiveDeviceListProto *l = in->collective_device_list;

	switch (next() % 5) {
	case 0:
		if (l && l->n_replica_groups && l->replica_groups[0]->n_replica_ids)
			l->replica_groups[0]->replica_ids[0] = small();
		break;
	case 1:
		iota.num_replica_groups = small();
		iota.num_devices_per_group = small();
		dims[0] = small();
		dims[1] = small();
		perm[0] = (int32_t)pick(3);
		perm[1] = (int32_t)pick(3);
		iota.n_iota_reshape_dims = (size_t)pick(3);
		iota.iota_reshape_dims = dims;
		iota.n_iota_transpose_perm = (size_t)pick(3);
		iota.iota_transpose_perm = perm;
		in->iota_collective_device_list = &iota;
		break;
	case 2:
		if (in->n_source_target_pairs)
			in->source_target_pairs[0]->target = small();
		break;
	case 3:
		in->channel_id = small();
		break;
	default:
		in->use_global_device_ids = !in->use_global_device_ids;
		break;
	}
}

static void mutate_instr(Xla__HloModuleProto *m, Xla__HloComputationProto *c,
			 Xla__HloInstructionProto *in)
{
	static char *const opcodes[] = {
		"add", "negate", "tuple", "get-tuple-element", "broadcast", "reshape", "reduce",
		"dot", "convolution", "gather", "scatter", "fusion", "while", "conditional",
		"constant", "parameter", "bitcast", "sort", "slice", "pad", "iota", "call",
		"all-reduce", "all-gather", "collective-permute", "all-to-all", "replica-id",
	};
	Xla__HloInstructionProto *other = c->instructions[pick(c->n_instructions)];

	switch (next() % 11) {
	case 0:
		if (in->n_operand_ids)
			in->operand_ids[pick(in->n_operand_ids)] = next() % 4 ? other->id : small();
		break;
	case 1:
		if (in->shape && in->shape->n_dimensions)
			in->shape->dimensions[pick(in->shape->n_dimensions)] = small();
		break;
	case 2:
		if (in->shape)
			in->shape->element_type = (Xla__PrimitiveType)pick(35);
		break;
	case 3:
		in->opcode = opcodes[pick(sizeof(opcodes) / sizeof(opcodes[0]))];
		break;
	case 4:
		if (in->n_dimensions)
			in->dimensions[pick(in->n_dimensions)] = small();
		break;
	case 5:
		if (in->n_called_computation_ids)
			in->called_computation_ids[pick(in->n_called_computation_ids)] =
				m->computations[pick(m->n_computations)]->id;
		break;
	case 6:
		in->tuple_index = small();
		in->parameter_number = next() % 2 ? in->parameter_number : small();
		break;
	case 7:
		c->root_id = other->id;
		break;
	case 8:
		if (in->shape && in->shape->layout && in->shape->layout->n_minor_to_major)
			in->shape->layout->minor_to_major[pick(in->shape->layout->n_minor_to_major)] =
				small();
		break;
	case 9:
		mutate_collective(in);
		break;
	default:
		if (in->literal && in->literal->n_f32s)
			in->literal->n_f32s--;
		else if (c->n_instructions > 1)
			c->n_instructions--;
		break;
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	Xla__HloProto *p;
	Xla__HloModuleProto *m;
	Xla__HloComputationProto *c;
	size_t n, k;

	rng = seed | 1;
	p = next() % 8 ? xla__hlo_proto__unpack(&arena, size, data) : NULL;
	m = p ? p->hlo_module : NULL;
	if (!m || !m->n_computations) {
		while (nblocks)
			free(blocks[--nblocks]);
		return LLVMFuzzerMutate(data, size, max_size);
	}
	for (k = 0; k < 1 + next() % 3; k++) {
		c = m->computations[pick(m->n_computations)];
		if (c->n_instructions)
			mutate_instr(m, c, c->instructions[pick(c->n_instructions)]);
	}
	n = xla__hlo_proto__get_packed_size(p);
	if (n <= max_size)
		xla__hlo_proto__pack(p, data);
	else
		n = size;
	while (nblocks)
		free(blocks[--nblocks]);
	return n;
}
