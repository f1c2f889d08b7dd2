/* SPDX-License-Identifier: MIT */
/*
 * Building, checking and printing command-stream programs
 * (uapi/drm/xrt_accel_cs.h).  Used by the compiler and the tests.
 *
 * A builder collects slots and commands; errors are sticky, so a
 * sequence of calls needs one check, at cs_finish().
 */
#ifndef XRT_CSTREAM_BUILDER_H
#define XRT_CSTREAM_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

#include <drm/xrt_accel_cs.h>

struct cs_builder {
	const struct xrt_allocator *alloc;
	uint8_t *cmds;			/* command bytes */
	size_t len, cap;
	struct xrt_cs_slot *slots;
	uint32_t num_slots, slot_cap;
	uint32_t num_commands;
	xrt_status *err;		/* the first failure, kept */
};

void cs_builder_init(struct cs_builder *b, const struct xrt_allocator *alloc);
void cs_builder_release(struct cs_builder *b);

/* Adds a slot; returns its index. */
uint32_t cs_add_slot(struct cs_builder *b, uint64_t size, uint32_t flags);

/*
 * Appends a zeroed command of @size bytes (rounded up to 8) with its
 * header set; returns it, or NULL after an error.  The pointer is valid
 * until the next append.
 */
void *cs_append(struct cs_builder *b, uint16_t op, size_t size);

/* A row-major view of @dims at @offset. */
struct xrt_cs_view cs_view_dense(uint32_t slot, uint32_t dtype, uint64_t offset,
				 uint32_t rank, const uint64_t *dims);
/* A view with explicit strides. */
struct xrt_cs_view cs_view(uint32_t slot, uint32_t dtype, uint64_t offset,
			   uint32_t rank, const uint64_t *dims,
			   const int64_t *strides);

void cs_copy(struct cs_builder *b, const struct xrt_cs_view *dst,
	     const struct xrt_cs_view *src);
void cs_fill_constant(struct cs_builder *b, const struct xrt_cs_view *dst,
		      const void *value, size_t size);
void cs_fill_iota(struct cs_builder *b, const struct xrt_cs_view *dst,
		  uint32_t dim);
/* @dst = the job's replica or partition id (@mode XRT_CS_FILL_REPLICA_ID or _PARTITION_ID). */
void cs_fill_id(struct cs_builder *b, const struct xrt_cs_view *dst, uint32_t mode);
void cs_jump(struct cs_builder *b, uint32_t mode, uint32_t target,
	     const struct xrt_cs_scalar *pred);

/* An operand of an expression command over @rank dims. */
struct xrt_cs_operand cs_operand(uint32_t slot, uint32_t dtype, uint32_t flags,
				 uint64_t offset, uint32_t rank,
				 const int64_t *strides);
/* An EWISE command with its operands and instructions. */
void cs_ewise(struct cs_builder *b, uint32_t rank, const uint64_t *dims,
	      const struct xrt_cs_operand *ops, uint32_t num_ops,
	      const struct xrt_cs_ew_inst *insts, uint32_t num_insts,
	      uint32_t num_regs);

/*
 * A REDUCE command: @ops are the IN operands then the OUT operand(s);
 * @init the initial value's bytes (@init_size of them).
 */
void cs_reduce(struct cs_builder *b, uint32_t op, uint32_t rank,
	       const uint64_t *dims, uint32_t reduce_mask,
	       const struct xrt_cs_operand *ops, uint32_t num_ops,
	       const struct xrt_cs_ew_inst *insts, uint32_t num_insts,
	       uint32_t num_regs, uint32_t value_reg, const void *init,
	       size_t init_size);

/* GATHER / SCATTER with index_map[0..k-1]. */
void cs_gather(struct cs_builder *b, const struct xrt_cs_view *operand,
	       const struct xrt_cs_view *indices, const struct xrt_cs_view *out,
	       uint32_t k, const uint8_t *index_map);
void cs_scatter(struct cs_builder *b, uint32_t combiner, uint32_t mode,
		const struct xrt_cs_view *operand,
		const struct xrt_cs_view *indices,
		const struct xrt_cs_view *updates, uint32_t k,
		const uint8_t *index_map);
/* DYNAMIC_SLICE (@update 0) or DYNAMIC_UPDATE_SLICE (1). */
void cs_dynamic_slice(struct cs_builder *b, int update,
		      const struct xrt_cs_view *operand,
		      const struct xrt_cs_view *slice,
		      const struct xrt_cs_scalar *starts);
void cs_sort(struct cs_builder *b, uint32_t flags, uint32_t rank,
	     const uint64_t *dims, uint32_t dim,
	     const struct xrt_cs_operand *ops, uint32_t num_ops,
	     uint32_t num_keys);
/* out = the running @op of @in along @dim, from @init (@size bytes). */
/* CALL @target with @num_args argument views, then @num_results result views, at @views. */
void cs_call(struct cs_builder *b, uint32_t target, const struct xrt_cs_view *views,
	     uint32_t num_args, uint32_t num_results);
/*
 * COLLECTIVE @kind (reduction @op, dimension @dim) among group @group:
 * @n input views, then @n output views, at @views.
 */
void cs_collective(struct cs_builder *b, uint32_t kind, uint32_t op, uint32_t dim,
		   uint32_t group, const struct xrt_cs_view *views, uint32_t n);
void cs_scan(struct cs_builder *b, uint32_t op, uint32_t dim, const struct xrt_cs_view *in,
	     const struct xrt_cs_view *out, const void *init, size_t size);
void cs_rng(struct cs_builder *b, uint32_t distribution, uint64_t stream,
	    const struct xrt_cs_view *dst, double p0, double p1);
/* The same, its stream the u64 @stream points at when it runs (STREAM_AT). */
void cs_rng_at(struct cs_builder *b, uint32_t distribution, const struct xrt_cs_scalar *stream,
	       const struct xrt_cs_view *dst, double p0, double p1);

/* A DOT command; @flags XRT_CS_DOT_*. */
void cs_dot(struct cs_builder *b, uint32_t flags, uint64_t batch, uint64_t m,
	    uint64_t n, uint64_t k, const struct xrt_cs_matrix *lhs,
	    const struct xrt_cs_matrix *rhs, const struct xrt_cs_matrix *out);

/*
 * Finishes the program: header, slot table, commands, in one allocation
 * aligned to 64 bytes (free with xrt_free(b->alloc, *prog)).  Returns the
 * first error of the build instead, if any.  The builder is released.
 */
xrt_status *cs_finish(struct cs_builder *b, void **prog, size_t *size);

/* The name of an opcode, "UNKNOWN" for others. */
const char *cs_op_name(uint32_t op);

/* Prints a program, one line per command (malloc-free: into @buf). */
size_t cs_dump(const void *data, size_t size, char *buf, size_t buf_size);

#endif /* XRT_CSTREAM_BUILDER_H */
