/* SPDX-License-Identifier: MIT */
/*
 * The builder's state and the steps every opcode function takes: open
 * an instruction on its operands, attach attributes, close it (infer and
 * check its shape).  A failure anywhere records the builder's error and
 * the instruction is dropped at close.
 */
#ifndef XRT_IR_BUILDER_INTERNAL_H
#define XRT_IR_BUILDER_INTERNAL_H

#include <xrt/builder.h>

#include "ir/ir.h"

/* An open computation. */
struct bld_frame {
	struct ir_comp c;
	uint32_t cap;
	uint32_t serial;
};

/* Where value ids point: a frame and an instruction in it. */
struct bld_val {
	uint32_t frame;
	uint32_t instr;
};

struct xrt_builder {
	const struct xrt_allocator *a;
	xrt_module *m;		/* the finished computations */
	uint32_t comp_cap;
	struct bld_frame *frames;
	uint32_t depth, frame_cap;
	struct bld_val *vals;
	uint32_t num_vals, val_cap;
	uint32_t tag, next_serial;
	uint64_t next_name;
	xrt_status *err;
};

/* The instruction @v names in the innermost computation, or -1. */
int64_t bld_local(const xrt_builder *b, xrt_value v);
void bld_oom(xrt_builder *b, const char *fn);
bool bld_is_identifier(const char *s);
/* Records the first error: "@fn: computation 'c'[, instruction 'i']: ...". */
void bld_fail(xrt_builder *b, const char *fn, const struct ir_instr *in,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Start instruction @op on @n operands in the innermost computation;
 * NULL (error recorded) if the builder failed before, an operand is not
 * a value of that computation, or memory runs out.
 */
struct ir_instr *bld_open(xrt_builder *b, const char *fn, enum xrt_opcode op,
			  const xrt_value *opnds, uint32_t n);
/* Operand @i's shape. */
const struct xrt_shape *bld_opnd(const xrt_builder *b, const struct ir_instr *in, uint32_t i);
/*
 * Infer the shape (when @in->shape holds only a result type or nothing)
 * or check the given one, and hand out the value; or drop @in.
 */
xrt_value bld_close(xrt_builder *b, const char *fn, struct ir_instr *in, bool infer);

/* Attributes: @n elements of ints_per(kind) ints each. */
void bld_ints(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	      const int64_t *vals, uint32_t n);
void bld_int(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	     int64_t val);
void bld_word(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	      const char *word);
void bld_comps(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
	       const xrt_comp *comps, uint32_t n);
void bld_window(xrt_builder *b, const char *fn, struct ir_instr *in,
		const struct xrt_window_dim *w, uint32_t rank);
/* Set @in->shape to a copy of @s (a given shape, checked to be valid). */
void bld_shape(xrt_builder *b, const char *fn, struct ir_instr *in, const struct xrt_shape *s);
/*
 * A parameter's name must be an HLO identifier, unused in its
 * computation, and not of the form the builder gives ("add.7").
 */
void bld_check_name(xrt_builder *b, const char *fn, const struct ir_instr *in);
/* Fails unless @p is non-NULL or @n is 0. */
bool bld_need(xrt_builder *b, const char *fn, struct ir_instr *in, const void *p,
	      uint32_t n, const char *what);

#endif /* XRT_IR_BUILDER_INTERNAL_H */
