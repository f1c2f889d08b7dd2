/* SPDX-License-Identifier: MIT */
/*
 * Malformed programs, each a valid base program with one thing wrong and
 * the validator's reason for it.  The engine tests check the reasons;
 * the driver tests check that SUBMIT rejects each with EINVAL.
 */
#ifndef XRT_MALFORMED_PROGRAMS_H
#define XRT_MALFORMED_PROGRAMS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cstream/cs_builder.h"

/* A valid program: COPY f32[4] slot 0 -> slot 1, FILL slot 1, JUMP. */
struct base {
	struct xrt_cs_header h;
	struct xrt_cs_slot slots[3];
	struct xrt_cs_copy copy;
	struct xrt_cs_fill fill;
	struct xrt_cs_jump jump;
} __attribute__((aligned(64)));

/* The bytes of the program: the struct without its tail padding. */
#define BASE_SIZE (offsetof(struct base, jump) + sizeof(struct xrt_cs_jump))

static void make_base(struct base *p)
{
	uint64_t dims[] = { 4 };

	memset(p, 0, sizeof(*p));
	p->h.magic = XRT_CS_MAGIC;
	p->h.version = XRT_CS_VERSION;
	p->h.header_size = sizeof(p->h);
	p->h.size = BASE_SIZE;
	p->h.num_slots = 3;
	p->h.num_commands = 3;
	p->h.slots_offset = offsetof(struct base, slots);
	p->h.commands_offset = offsetof(struct base, copy);
	p->slots[0] = (struct xrt_cs_slot){ 16, XRT_CS_SLOT_READ, 0 };
	p->slots[1] = (struct xrt_cs_slot){ 16, XRT_CS_SLOT_WRITE, 0 };
	p->slots[2] = (struct xrt_cs_slot){ 1, XRT_CS_SLOT_READ, 0 };
	p->copy.cmd = (struct xrt_cs_cmd){ XRT_CS_OP_COPY, 0, sizeof(p->copy) };
	p->copy.src = cs_view_dense(0, XRT_CS_F32, 0, 1, dims);
	p->copy.dst = cs_view_dense(1, XRT_CS_F32, 0, 1, dims);
	p->fill.cmd = (struct xrt_cs_cmd){ XRT_CS_OP_FILL, 0, sizeof(p->fill) };
	p->fill.mode = XRT_CS_FILL_IOTA;
	p->fill.dst = cs_view_dense(1, XRT_CS_S32, 0, 1, dims);
	p->jump.cmd = (struct xrt_cs_cmd){ XRT_CS_OP_JUMP, 0, sizeof(p->jump) };
	p->jump.mode = XRT_CS_JUMP_IF_TRUE;
	p->jump.target = 0;
	p->jump.pred = (struct xrt_cs_scalar){ .slot = 2, .dtype = XRT_CS_PRED };
}

/*
 * A valid program for the host's engine: CALL 0 with slot 0's f32[4] in
 * and slot 1's f32[4] out.  The kernel refuses it whole: its jobs call
 * no code of the process.
 */
struct call_base {
	struct xrt_cs_header h;
	struct xrt_cs_slot slots[3];
	struct xrt_cs_call call;
	struct xrt_cs_view views[2];
} __attribute__((aligned(64)));

#define CALL_BASE_SIZE (offsetof(struct call_base, views) + 2 * sizeof(struct xrt_cs_view))

static inline void make_call_base(struct call_base *p)
{
	uint64_t dims[] = { 4 };

	memset(p, 0, sizeof(*p));
	p->h.magic = XRT_CS_MAGIC;
	p->h.version = XRT_CS_VERSION;
	p->h.header_size = sizeof(p->h);
	p->h.size = CALL_BASE_SIZE;
	p->h.num_slots = 3;
	p->h.num_commands = 1;
	p->h.slots_offset = offsetof(struct call_base, slots);
	p->h.commands_offset = offsetof(struct call_base, call);
	p->slots[0] = (struct xrt_cs_slot){ 16, XRT_CS_SLOT_READ, 0 };
	p->slots[1] = (struct xrt_cs_slot){ 16, XRT_CS_SLOT_WRITE, 0 };
	p->slots[2] = (struct xrt_cs_slot){ 32, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0 };
	p->call.cmd = (struct xrt_cs_cmd){ XRT_CS_OP_CALL, 0,
					   sizeof(p->call) + 2 * sizeof(struct xrt_cs_view) };
	p->call.num_args = 1;
	p->call.num_results = 1;
	p->views[0] = cs_view_dense(0, XRT_CS_F32, 0, 1, dims);
	p->views[1] = cs_view_dense(1, XRT_CS_F32, 0, 1, dims);
}

/*
 * A valid program for the host's engine: a COLLECTIVE gathering slot
 * 0's f32[2] into slot 1's f32[4] along dimension 0, among group 3.
 */
struct coll_base {
	struct xrt_cs_header h;
	struct xrt_cs_slot slots[3];
	struct xrt_cs_collective coll;
	struct xrt_cs_view views[2];
} __attribute__((aligned(64)));

#define COLL_BASE_SIZE (offsetof(struct coll_base, views) + 2 * sizeof(struct xrt_cs_view))

static inline void make_coll_base(struct coll_base *p)
{
	uint64_t in[] = { 2 }, out[] = { 4 };

	memset(p, 0, sizeof(*p));
	p->h.magic = XRT_CS_MAGIC;
	p->h.version = XRT_CS_VERSION;
	p->h.header_size = sizeof(p->h);
	p->h.size = COLL_BASE_SIZE;
	p->h.num_slots = 3;
	p->h.num_commands = 1;
	p->h.slots_offset = offsetof(struct coll_base, slots);
	p->h.commands_offset = offsetof(struct coll_base, coll);
	p->slots[0] = (struct xrt_cs_slot){ 16, XRT_CS_SLOT_READ, 0 };
	p->slots[1] = (struct xrt_cs_slot){ 16, XRT_CS_SLOT_WRITE, 0 };
	p->slots[2] = (struct xrt_cs_slot){ 32, XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE, 0 };
	p->coll.cmd = (struct xrt_cs_cmd){ XRT_CS_OP_COLLECTIVE, 0,
					   sizeof(p->coll) + 2 * sizeof(struct xrt_cs_view) };
	p->coll.kind = XRT_CS_COLL_ALL_GATHER;
	p->coll.group = 3;
	p->coll.num_in = p->coll.num_out = 1;
	p->views[0] = cs_view_dense(0, XRT_CS_F32, 0, 1, in);
	p->views[1] = cs_view_dense(1, XRT_CS_F32, 0, 1, out);
}

struct bad {
	const char *needle;
	void (*mutate)(struct base *p);
};

#define CASE(name, ...) static void name(struct base *p) { __VA_ARGS__; }

CASE(m_magic, p->h.magic = 0x1234)
CASE(m_version, p->h.version = 2)
CASE(m_header_size, p->h.header_size = 64)
CASE(m_flags, p->h.flags = 1)
CASE(m_reserved, p->h.reserved[2] = 5)
CASE(m_size, p->h.size += 8)
CASE(m_slots_out, p->h.num_slots = 1u << 30)
CASE(m_slots_align, p->h.slots_offset = 65)
CASE(m_cmds_before_slots, p->h.commands_offset = 80)
CASE(m_too_many_cmds, p->h.num_commands = 100000)
CASE(m_cmds_short, p->h.num_commands = 2)
CASE(m_cmds_long, p->h.num_commands = 4)
CASE(m_slot_flags, p->slots[0].flags = 4)
CASE(m_slot_reserved, p->slots[1].reserved = 1)
CASE(m_slot_huge, p->slots[0].size = ~0ull)
CASE(m_opcode, p->copy.cmd.op = 16)
CASE(m_cmd_size, p->copy.cmd.size = 12)
CASE(m_cmd_size_small, p->copy.cmd.size = 8)
CASE(m_copy_flags, p->copy.cmd.flags = 1)
CASE(m_copy_dtype, p->copy.src.dtype = XRT_CS_S32)
CASE(m_copy_rank, p->copy.src.rank = 2; p->copy.src.dims[1] = 1; p->copy.src.strides[1] = 1)
CASE(m_copy_dims, p->copy.src.dims[0] = 3)
CASE(m_slot_range, p->copy.src.slot = 3)
CASE(m_bad_dtype, p->copy.src.dtype = 16; p->copy.dst.dtype = 16)
CASE(m_write_ro, p->copy.dst.slot = 0; p->copy.src.slot = 1; p->slots[1].flags = XRT_CS_SLOT_READ)
CASE(m_read_wo, p->slots[0].flags = XRT_CS_SLOT_WRITE)
CASE(m_past_end, p->copy.src.offset = 4)
CASE(m_before, p->copy.src.strides[0] = -1)
CASE(m_misaligned, p->copy.dst.offset = 2)
CASE(m_past_rank, p->copy.src.strides[3] = 1)
CASE(m_past_rank_first, p->copy.src.dims[1] = 1)
CASE(m_past_rank_first_stride, p->copy.dst.strides[1] = 1)
CASE(m_rank9, p->copy.src.rank = 9; p->copy.dst.rank = 9)
CASE(m_stride_huge, p->copy.src.strides[0] = INT64_MIN)
CASE(m_dim_huge, p->copy.src.dims[0] = 1ull << 63; p->copy.dst.dims[0] = 1ull << 63)
CASE(m_view_pad, p->copy.dst.pad = 1)
CASE(m_overlap, p->slots[0].flags = XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE;
     p->copy.dst.slot = 0; p->copy.src.dims[0] = 3; p->copy.dst.dims[0] = 3;
     p->copy.dst.offset = 4)
CASE(m_fill_mode, p->fill.mode = 4)
CASE(m_fill_id_dim, p->fill.mode = XRT_CS_FILL_REPLICA_ID; p->fill.iota_dim = 1)
CASE(m_fill_id_pred, p->fill.mode = XRT_CS_FILL_PARTITION_ID; p->fill.iota_dim = 0;
     p->fill.dst.dtype = XRT_CS_PRED)
CASE(m_iota_dim, p->fill.iota_dim = 1)
CASE(m_iota_pred, p->fill.dst.dtype = XRT_CS_PRED; p->fill.dst.dims[0] = 4)
CASE(m_iota_value, p->fill.value[1] = 1)
CASE(m_const_pred, p->fill.mode = XRT_CS_FILL_CONSTANT; p->fill.dst.dtype = XRT_CS_PRED;
     p->fill.value[0] = 2)
CASE(m_const_tail, p->fill.mode = XRT_CS_FILL_CONSTANT; p->fill.value[0] = 1ull << 40)
CASE(m_const_iota_dim, p->fill.mode = XRT_CS_FILL_CONSTANT; p->fill.iota_dim = 1)
CASE(m_jump_target, p->jump.target = 4)
CASE(m_jump_mode, p->jump.mode = 3)
CASE(m_jump_pred_type, p->jump.pred.dtype = XRT_CS_U8)
CASE(m_jump_pred_slot, p->jump.pred.slot = 1)
CASE(m_jump_always_pred, p->jump.mode = XRT_CS_JUMP_ALWAYS)
CASE(m_jump_pred_past, p->jump.pred.offset = 1)
/*
 * 16 one-byte elements whose offset wraps the element index to 8 before
 * the slot: once accepted, a write (or a read) of the bytes before it.
 */
static void u8_views(struct base *p)
{
	uint64_t dims[] = { 16 };

	p->copy.src = cs_view_dense(0, XRT_CS_U8, 0, 1, dims);
	p->copy.dst = cs_view_dense(1, XRT_CS_U8, 0, 1, dims);
}

CASE(m_wrap_write, u8_views(p); p->copy.dst.offset = -8ull)
CASE(m_wrap_read, u8_views(p); p->copy.src.offset = -8ull)
CASE(m_wrap_f32, p->copy.src.offset = -16ull)
CASE(m_wrap_scalar, p->jump.pred.offset = -1ull)
CASE(m_offset_past_empty, p->fill.dst.dims[0] = 0; p->fill.dst.offset = 20)
CASE(m_neg_stride_limit, p->copy.src.dims[0] = 2; p->copy.dst.dims[0] = 2;
     p->copy.src.strides[0] = -(1ll << 60); p->copy.src.offset = 8)
CASE(m_stride_bytes, p->copy.src.dims[0] = 1; p->copy.dst.dims[0] = 1;
     p->copy.src.strides[0] = 1ll << 61)

static const struct bad cases[] = {
#define C(f, t) { t, f }
	C(m_magic, "bad magic"),
	C(m_version, "unsupported version"),
	C(m_header_size, "header_size differs"),
	C(m_flags, "header flags or reserved words not 0"),
	C(m_reserved, "header flags or reserved words not 0"),
	C(m_size, "header size differs from the program's"),
	C(m_slots_out, "slot table outside the program"),
	C(m_slots_align, "slot table outside the program"),
	C(m_cmds_before_slots, "commands_offset outside"),
	C(m_too_many_cmds, "more commands than bytes"),
	C(m_cmds_short, "bytes after the last command"),
	C(m_cmds_long, "command header past the end"),
	C(m_slot_flags, "unknown slot flags"),
	C(m_slot_reserved, "slot reserved word not 0"),
	C(m_slot_huge, "slot larger than 2^62"),
	C(m_opcode, "command 0 (UNKNOWN): unknown opcode"),
	C(m_cmd_size, "bad command size"),
	C(m_cmd_size_small, "bad command size"),
	C(m_copy_flags, "COPY: flags or reserved not 0"),
	C(m_copy_dtype, "dst and src element types differ"),
	C(m_copy_rank, "dst and src ranks differ"),
	C(m_copy_dims, "dst and src dims differ"),
	C(m_slot_range, "part 1: slot out of range"),
	C(m_bad_dtype, "unknown element type"),
	C(m_write_ro, "part 0: writes a slot not marked WRITE"),
	C(m_read_wo, "part 1: reads a slot not marked READ"),
	C(m_past_end, "view reaches past the end of its slot"),
	C(m_before, "view reaches before its slot"),
	C(m_misaligned, "offset not a multiple of the element size"),
	C(m_past_rank, "dims or strides past the rank not 0"),
	C(m_past_rank_first, "dims or strides past the rank not 0"),
	C(m_past_rank_first_stride, "dims or strides past the rank not 0"),
	C(m_rank9, "rank above 8"),
	C(m_stride_huge, "stride too large"),
	C(m_dim_huge, "dimension above 2^62"),
	C(m_view_pad, "view padding not 0"),
	C(m_overlap, "COPY: dst overlaps src"),
	C(m_fill_mode, "FILL: unknown mode"),
	C(m_fill_id_dim, "FILL: iota_dim or value set for an id"),
	C(m_fill_id_pred, "FILL: an id as pred"),
	C(m_iota_dim, "FILL: iota_dim not below the rank"),
	C(m_iota_pred, "FILL: iota of pred"),
	C(m_iota_value, "FILL: value not 0 for an iota"),
	C(m_const_pred, "FILL: pred value not 0 or 1"),
	C(m_const_tail, "FILL: value bytes past the element size not 0"),
	C(m_const_iota_dim, "FILL: iota_dim set for a constant"),
	C(m_jump_target, "JUMP: target past the end"),
	C(m_jump_mode, "JUMP: unknown mode"),
	C(m_jump_pred_type, "scalar of the wrong element type"),
	C(m_jump_pred_slot, "reads a slot not marked READ"),
	C(m_jump_always_pred, "JUMP: predicate set for ALWAYS"),
	C(m_jump_pred_past, "view reaches past the end of its slot"),
	C(m_wrap_write, "part 0: view starts past the end of its slot"),
	C(m_wrap_read, "part 1: view starts past the end of its slot"),
	C(m_wrap_f32, "part 1: view starts past the end of its slot"),
	C(m_wrap_scalar, "view starts past the end of its slot"),
	C(m_offset_past_empty, "view starts past the end of its slot"),
	C(m_neg_stride_limit, "view reaches before its slot"),
	C(m_stride_bytes, "part 1: stride too large"),
#undef C
};

#define NUM_MALFORMED (sizeof(cases) / sizeof(cases[0]))

#endif /* XRT_MALFORMED_PROGRAMS_H */
