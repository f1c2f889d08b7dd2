/* SPDX-License-Identifier: MIT */
/*
 * What the lowering of bounded dynamic dimensions shares between its
 * files: hlo_dynamic.c (sizes, routes, masks, the entry points),
 * hlo_dynamic_move.c (reverse, concatenate and reshape that move values
 * by their sizes) and hlo_dynamic_loop.c (while loops over dynamic
 * values).
 */
#ifndef XRT_IR_HLO_DYNAMIC_H
#define XRT_IR_HLO_DYNAMIC_H

#include "hlo_parse.h"

#define NONE UINT32_MAX
#define MAX_MASKED 16		/* operands whose padding may be replaced */

/* Where an operand's dynamic dimension goes in the instruction just read. */
enum way { W_SKIP, W_CARRY, W_MASK, W_MASK_CARRY, W_MOVE, W_SPLIT, W_MIX };

struct route {
	enum way way;
	uint32_t to;		/* the result's dimension (CARRY) */
	int64_t factor;		/* a merging reshape's: the size times it (below -1: over it) */
	uint32_t fill;		/* MASK: the scalar instruction, or NONE for zero */
	uint32_t from, to_end;	/* a compacting reshape's group of operand dimensions */
};

/* A rewrite's plan; the emitter first, expand() finds the rest from it. */
struct plan {
	struct hp_emit e;
	uint32_t ops[MAX_MASKED];	/* the operands, then their replacements */
	uint8_t masked[MAX_MASKED];	/* dimensions whose padding is replaced */
	uint32_t fill[MAX_MASKED];
	uint8_t moved;			/* reverse's or concatenate's dimensions to move */
	uint8_t paired;			/* a binary op's dimensions of two sizes */
	uint32_t pair[XRT_MAX_RANK];	/* operand 1's size there */
	uint32_t total;			/* the moved result's size (expand_move()) */
	uint32_t rs_from, rs_to;	/* a compacting reshape's group of operand dimensions,
					 * a splitting one's of result dimensions */
	bool split;			/* a reshape splitting a dynamic dimension, moved */
	uint32_t split_dim;		/* that operand dimension */
	int64_t divisor;		/* its size over this: the result dimension's */
	struct hp_dyn out;		/* the result's sizes, before scaling */
	uint32_t sized[XRT_MAX_RANK];	/* after it: expand()'s */
	uint8_t replaced;		/* operands pair_sizes() replaced */
	int64_t factor[XRT_MAX_RANK];	/* >1: out.size[d] times it */
};

struct ir_instr *hd_last(struct hp *p);
/* The sizes of instruction @v's dynamic dimensions, or NULL. */
const struct hp_dyn *hd_dyn_of(struct hp *p, uint32_t v);
/* Whether @v is a loop's tuple, its elements' sizes among its elements. */
bool hd_is_loop(struct hp *p, uint32_t v);
/* Whether @v or, through tuple instructions, any element of it is dynamic. */
bool hd_holds_dyn(struct hp *p, uint32_t v, uint32_t depth);
uint32_t hd_s32_const(struct plan *pl, int64_t v);
void hd_plan_init(struct hp *p, struct plan *pl, const struct ir_instr *in);

/* The reverse, concatenate or reshape just read, its dynamic dimensions moved. */
int hd_move(struct hp *p, struct plan *pl);
/* The dynamic-reshape just read, as a gather of the values inside its operand's sizes. */
int hd_dynamic_reshape(struct hp *p);

/* The loop computation @comp's, or NULL. */
const struct hp_loop *hd_loop_of(struct hp *p, uint32_t comp);
/* A tuple parameter with "<=" dimensions outside the entry: a loop's. */
int hd_loop_param(struct hp *p, struct ir_instr *in);
/* get-tuple-element @i of loop tuple @t: its sizes, read from their elements. */
int hd_loop_element(struct hp *p, uint32_t t, const struct hp_loop *l, int64_t i);
/* A while over dynamic values (*@done), its tuple given their sizes. */
int hd_loop_while(struct hp *p, struct ir_instr *in, bool *done);
/* The root of a loop's body or condition, or of a conditional's branch. */
int hd_loop_root(struct hp *p, const struct hp_loop *l);
/* A conditional over dynamic values (*@done): its operands and result given their sizes. */
int hd_loop_conditional(struct hp *p, struct ir_instr *in, bool *done);
/* The sizes of loop tuple @t (hd_is_loop()): its parameter's, or its root's. */
const struct hp_loop *hd_loop_desc(struct hp *p, uint32_t t);

#endif /* XRT_IR_HLO_DYNAMIC_H */
