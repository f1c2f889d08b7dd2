/* SPDX-License-Identifier: MIT */
/*
 * Expression programs, the instructions of one EWISE or REDUCE command
 * as the compiler builds them: shared by the EWISE emission
 * (cc_ewise.c) and the hand-written kernels (cc_kernels.c).
 */
#ifndef XRT_COMPILER_CC_EWP_H
#define XRT_COMPILER_CC_EWP_H

#include "cc.h"

/* The value of instruction @i of the computation being lowered. */
#define IV(cc, i) ((cc)->vals[(cc)->base + (i)])

#define PINS		4	/* constants with a register of their own */

/* An expression program being built for one EWISE or REDUCE. */
struct ewp {
	struct cc *cc;
	uint32_t rank;
	const int64_t *dims;
	struct xrt_cs_operand ops[XRT_CS_MAX_OPERANDS];
	uint32_t num_ops;
	struct xrt_cs_ew_inst insts[XRT_CS_MAX_INSTS];
	uint32_t num_insts;
	uint32_t busy;		/* bit r: register r holds a live value */
	uint32_t pinned;	/* bit r: register r holds a constant for good */
	uint32_t num_regs;
	struct {
		uint8_t bytes[16];
		enum xrt_dtype dtype;
		uint32_t reg;
	} pin[PINS];
	uint32_t num_pins;
};

/* Appends an instruction (@imm: @imm_size bytes of a CONST's value, or NULL). */
void ewp_put(struct ewp *e, uint8_t op, uint8_t fn, enum xrt_dtype t, uint32_t dst, uint32_t a,
	     uint32_t b, uint32_t c, const void *imm, size_t imm_size);
/* A free register, now busy; ewp_give() frees it. */
uint32_t ewp_reg(struct ewp *e);
void ewp_give(struct ewp *e, uint32_t r);
/* The operand index of @b over the iteration space (shared when equal). */
uint32_t ewp_operand(struct ewp *e, const struct cc_buf *b, uint8_t flags);
/* Emits the tree of @root as if it were inline; its register. */
uint32_t ewp_emit_root(struct ewp *e, uint32_t root);
/* A program over @dst's iteration space (NULL: out of memory, recorded). */
struct ewp *ewp_new_small(struct cc *cc, const struct cc_buf *dst);
/* Appends @e's command (its iteration space flattened where it can) and frees @e. */
void ewp_emit_small(struct ewp *e, const struct cc_buf *dst, uint32_t num_regs);

#endif /* XRT_COMPILER_CC_EWP_H */
