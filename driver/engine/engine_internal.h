/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Shared inside the engine: per-command operations, validation context
 * and view iteration.
 */
#ifndef XRT_ENGINE_INTERNAL_H
#define XRT_ENGINE_INTERNAL_H

#include "engine/engine.h"
#include "engine/scalar.h"

/* Elements per item: bounds one FPU section (see the kernel FPU notes). */
#define ENGINE_ITEM_ELEMS	16384u

/* Validation state of one program. */
struct vctx {
	struct xrt_engine_prog *prog;
	struct xrt_engine_error *err;
	u32 command;
};

/* What the engine knows of one opcode. */
struct cmd_ops {
	const char *name;
	u32 fixed_size;		/* size of the fixed part of the command */
	int (*validate)(struct vctx *v, const void *cmd, u32 size);
	u32 (*phases)(const void *cmd);
	u64 (*items)(const struct xrt_engine_ctx *x, const void *cmd,
		     u32 phase);
	void (*run)(const struct xrt_engine_ctx *x, const void *cmd, u32 phase,
		    u64 first, u64 count, void *ws);
};

const struct cmd_ops *engine_cmd_ops(u32 op);

#define ENGINE_NUM_OPS	(XRT_CS_OP_COLLECTIVE + 1)
/* Per opcode: its operations, NULL where there is no such command. */
extern const struct cmd_ops *const engine_cmd_table[ENGINE_NUM_OPS];

/*
 * The operations of a command validation accepted: its opcode needs no
 * check (a run asks this three times per command).
 */
static inline const struct cmd_ops *engine_valid_ops(const struct xrt_cs_cmd *c)
{
	return engine_cmd_table[c->op];
}

/* For commands with a single phase. */
u32 engine_one_phase(const void *cmd);
/* Items of ENGINE_ITEM_ELEMS elements covering @n elements. */
u64 engine_elem_items(u64 n);

/* The command after a JUMP. */
u32 engine_jump_next(const struct xrt_engine_ctx *x, const void *cmd, u32 pc);

extern const struct cmd_ops engine_copy_ops;
extern const struct cmd_ops engine_ewise_ops;
extern const struct cmd_ops engine_dot_ops;
extern const struct cmd_ops engine_reduce_ops;
extern const struct cmd_ops engine_gather_ops;
extern const struct cmd_ops engine_scatter_ops;
extern const struct cmd_ops engine_dslice_ops;
extern const struct cmd_ops engine_dupdate_ops;
extern const struct cmd_ops engine_sort_ops;
extern const struct cmd_ops engine_rng_ops;
extern const struct cmd_ops engine_fill_ops;
extern const struct cmd_ops engine_jump_ops;
extern const struct cmd_ops engine_scan_ops;
extern const struct cmd_ops engine_call_ops;
extern const struct cmd_ops engine_collective_ops;

/* Validation helpers; each returns 0 or -1 with v->err filled. */
int engine_fail(struct vctx *v, u32 part, const char *reason, u64 a, u64 b);
int engine_zero(const void *p, size_t n);

int engine_check_span(struct vctx *v, u32 part, u32 slot, u32 dtype,
		      u64 offset, u32 rank, const u64 *dims,
		      const s64 *strides, u32 need);
int engine_check_view(struct vctx *v, u32 part, const struct xrt_cs_view *view,
		      u32 need);
/*
 * Dense and row-major (the last stride 1, each other the product of the
 * dims after it), or fails with @reason.
 */
int engine_check_dense(struct vctx *v, u32 part, const struct xrt_cs_view *w,
		       const char *reason);
/* Views @first_out to @n - 1 of @w overlap none of the @n, or fail with @reason. */
int engine_views_apart(struct vctx *v, const struct xrt_cs_view *w, u32 first_out, u32 n,
		       const char *reason);
int engine_check_scalar(struct vctx *v, u32 part,
			const struct xrt_cs_scalar *s, u32 dtype);

/*
 * The byte range [*lo, *hi) a checked view can reach (empty when a
 * dimension is 0).
 */
void engine_span_bytes(u64 offset, u32 esize, u32 rank, const u64 *dims,
		       const s64 *strides, u64 *lo, u64 *hi);
/* Do two byte ranges of slots meet? */
int engine_overlap(u32 slot_a, u64 lo_a, u64 hi_a, u32 slot_b, u64 lo_b,
		   u64 hi_b);

/* Operands of an expression command over an iteration space. */
int engine_check_operands(struct vctx *v, const struct xrt_cs_operand *ops,
			  u32 n, u32 rank, const u64 *dims);
int engine_check_outputs_apart(struct vctx *v, const struct xrt_cs_operand *ops,
			       u32 n, u32 rank, const u64 *dims);

/* Integer indices read from memory, any integer type. */
int engine_is_int(u32 dtype);
/* Whether reduction @op (XRT_CS_RED_*) takes elements of type @t. */
int engine_red_allows(u32 op, u32 t);
s64 engine_read_index(const u8 *p, u32 dtype);
/* A start clamped so that [start, start + size) stays inside [0, dim). */
s64 engine_clamp_start(s64 start, u64 dim, u64 size);
int engine_check_index_scalar(struct vctx *v, u32 part,
			      const struct xrt_cs_scalar *s);

/* The number of elements of @rank dims (validated: no overflow). */
u64 engine_count(u32 rank, const u64 *dims);

/*
 * Walks a row-major range of an iteration space in rows: runs of
 * consecutive indices along the innermost dimension.
 */
struct row_iter {
	u32 rank;
	const u64 *dims;
	u64 index[XRT_CS_MAX_RANK];
	u64 left;		/* elements still to visit */
};

void row_iter_init(struct row_iter *it, u32 rank, const u64 *dims, u64 first,
		   u64 count);
/* The next row's length (0 at the end); it->index is the row's start. */
u64 row_iter_next(struct row_iter *it, u64 *len);
/* Moves past the row just returned. */
void row_iter_advance(struct row_iter *it, u64 len);
/* Element offset of it->index under @strides. */
s64 row_iter_offset(const struct row_iter *it, const s64 *strides);

/* Pointer to element 0 of a view or operand. */
static inline u8 *engine_ptr(const struct xrt_engine_ctx *x, u32 slot,
			     u64 offset)
{
	return x->slots[slot] + offset;
}

/* Copies @n elements of @esize bytes between strided places. */
void engine_copy_strided(u8 *dst, s64 dstride, const u8 *src, s64 sstride,
			 u64 n, u32 esize);

#endif /* XRT_ENGINE_INTERNAL_H */
