/* SPDX-License-Identifier: MIT */
/*
 * The HLO text reader's cursor and helpers, shared by the files that
 * read modules, attributes and constants.
 */
#ifndef XRT_IR_HLO_PARSE_H
#define XRT_IR_HLO_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/shape.h"
#include "ir/ir.h"
#include "ir_names.h"

/*
 * The sizes a value's bounded dynamic dimensions have (hlo_dynamic.c):
 * bit d of @mask set, dimension d's size is the s32[] instruction
 * @size[d] of the computation.  A tuple instruction holds none: its
 * elements' are looked up through it.
 */
struct hp_dyn {
	uint8_t mask;
	uint32_t size[XRT_MAX_RANK];
	uint32_t loop;	/* a loop's tuple: its sizes are elements, as computation loop - 1 has them */
	bool out;	/* ... as its root has them (a conditional's result), not its parameter */
};

/*
 * A computation whose tuple parameter has "<=" dimensions (a while's
 * body or condition): the dimensions @mask of each of its @elems
 * elements, their sizes appended as @hidden more s32[] elements.
 */
struct hp_loop {
	uint32_t elems, hidden;
	uint8_t mask[XSHAPE_DYN_LEAVES];
};

struct hp {
	const char *t;
	size_t len, pos;
	const struct xrt_allocator *a;
	xrt_module *m;
	struct ir_comp *cur;	/* the computation being read */
	uint32_t instr_cap;
	bool have_entry;
	xrt_status *err;	/* the first error */
	size_t err_pos;		/* where it happened */
	struct ir_names instr_names;	/* of @cur's instructions */
	struct ir_names comp_names;
	/* the opcode of the instruction being read, when it is rewritten once read
	 * (fft, batch-norm-*, cholesky, triangular-solve: read as a copy until
	 * then), else NULL */
	const char *pseudo;
	uint64_t dft_bytes;	/* the fft rewrite's matrices so far */
	/* dynamic dimensions (hlo_dynamic.c) */
	int64_t inferred;		/* a reshape's inferred_dimension, or -1 */
	struct xshape_dyn shape_dyn;	/* of the last shape read */
	struct xshape_dyn decl;		/* of the instruction being read */
	struct hp_dyn *dyn;		/* by instruction of @cur; NULL: none so far */
	uint32_t dyn_cap;
	struct hp_dyn dyn_next;		/* the instruction being read's, once rewritten */
	bool in_entry;			/* @cur was written ENTRY */
	uint32_t dyn_param_comp;	/* a computation with a "<=" parameter, or UINT32_MAX */
	uint32_t dyn_root_comp;		/* one not written ENTRY returning a dynamic value */
	struct hp_channel {		/* the sends and recvs of @cur (hlo_sendrecv.c) */
		int64_t channel;
		uint32_t at;
		bool send;
	} *chans;
	uint32_t num_chans, chans_cap;
	struct hp_loop *loops;		/* by computation; NULL: none so far */
	uint32_t loops_cap;
	struct hp_loop *outs;		/* their roots', by computation, where read */
	uint32_t outs_cap;
};

/* Each returns 0, or -1 with p->err set (the first error wins). */
int hp_fail(struct hp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hp_oom(struct hp *p);
void hp_skip(struct hp *p);
bool hp_peek(struct hp *p, char c);
bool hp_accept(struct hp *p, char c);
int hp_expect(struct hp *p, char c, const char *where);
bool hp_keyword(struct hp *p, const char *kw);
int hp_name(struct hp *p, const char **s, size_t *n, const char *what);
int hp_word(struct hp *p, const char **s, size_t *n, const char *what);
int hp_int(struct hp *p, int64_t *v, const char *what);
int hp_shape(struct hp *p, struct xrt_shape *s);
int hp_skip_value(struct hp *p);
int hp_find_comp(struct hp *p, const char *s, size_t n, uint32_t *idx);
int hp_grow(struct hp *p, void **v, uint32_t *cap, uint32_t need, size_t size);
char *hp_strdup(struct hp *p, const char *s, size_t n);
char *hp_string(struct hp *p);

/* ", name=value" has been read up to the name: reads name=value. */
int hlo_parse_attr(struct hp *p, struct ir_instr *in);
/* Adds @attr (a key @in lacks) to @in, which takes what it owns; freed on failure. */
int hp_put_attr(struct hp *p, struct ir_instr *in, struct ir_attr *attr);
/* Building rewrites (hlo_rewrite.c); each returns -1 with p->err set on failure. */
struct ir_attr *hp_find_attr(struct ir_instr *in, enum ir_attr_key key);
/* The one value of integer attribute @key, or -1 when it is absent or not one. */
int64_t hp_one_int(const struct ir_instr *in, enum ir_attr_key key);
/* Whether every array of @s has the default (row-major) layout. */
bool hp_row_major(const struct xrt_shape *s);
void hp_drop_attr(const struct xrt_allocator *a, struct ir_instr *in, enum ir_attr_key key);
/* Appends @add to attribute @key (made if absent); sorted when @sort. */
int hp_extend(struct hp *p, struct ir_instr *in, enum ir_attr_key key, const int64_t *add,
	      uint32_t n, bool sort);
/* Fills the empty slot @at with @op of @dtype[@dims], named @base.@what@k (fresh). */
struct ir_instr *hp_add_instr(struct hp *p, uint32_t at, enum xrt_opcode op, const char *base,
			      const char *what, uint32_t k, enum xrt_dtype dtype, uint32_t rank,
			      const int64_t *dims);
int hp_set_operands(struct hp *p, struct ir_instr *in, const uint32_t *ops, uint32_t n);
int hp_int_attr(struct hp *p, struct ir_instr *in, enum ir_attr_key key, int64_t v);
/* @extra empty slots before the instruction just read, which moves after them: *@at the first. */
int hp_make_room(struct hp *p, uint32_t extra, uint32_t *at);

/*
 * A rewrite emitted in two passes: a dry one (@dry) only counts slots in
 * @at, the second fills the room hp_make_room() made from @at on.  Names
 * are @base.@what@k; a failure sets @failed (and p->err) and the rest of
 * the pass emits nothing.
 */
struct hp_emit {
	struct hp *p;
	bool dry, failed;
	uint32_t at, k;
	char base[64];
	const char *what;
};

/* @op of @t[@dims] over @ops; its index. */
uint32_t hp_emit(struct hp_emit *e, enum xrt_opcode op, enum xrt_dtype t, uint32_t rank,
		 const int64_t *dims, const uint32_t *ops, uint32_t n);
/* A tuple of @ops, of shape @s (copied). */
uint32_t hp_emit_tuple(struct hp_emit *e, const struct xrt_shape *s, const uint32_t *ops,
		       uint32_t n);
/* Appends @x to integer attribute @key of instruction @v. */
void hp_emit_ints(struct hp_emit *e, uint32_t v, enum ir_attr_key key, const int64_t *x,
		  uint32_t n);
/*
 * Runs @expand dry (counting), makes the room, runs it again to fill it;
 * *@out is what the second run returns.  0, or -1 with p->err set.
 */
int hp_emit_twice(struct hp_emit *e, uint32_t (*expand)(struct hp_emit *e, void *ctx), void *ctx,
		  uint32_t *out);
/* hp_emit_twice() with the room after the computation's last instruction. */
int hp_emit_after(struct hp_emit *e, uint32_t (*expand)(struct hp_emit *e, void *ctx),
		  void *ctx, uint32_t *out);
/* Sets word attribute @key (direction=LT, ...) of instruction @v to @w. */
void hp_emit_word(struct hp_emit *e, uint32_t v, enum ir_attr_key key, const char *w);
/* A zero constant of @t[@dims]; *@data its bytes to fill (NULL in the dry pass). */
uint32_t hp_emit_const(struct hp_emit *e, enum xrt_dtype t, uint32_t rank, const int64_t *dims,
		       uint8_t **data);
/* Elements [@from, @to) of @v, stride 1. */
uint32_t hp_emit_slice(struct hp_emit *e, uint32_t v, enum xrt_dtype t, uint32_t rank,
		       const int64_t *from, const int64_t *to);
/* The instruction just read becomes @op of @ops, its attributes dropped. */
int hp_become(struct hp *p, enum xrt_opcode op, const uint32_t *ops, uint32_t n);

/* Rewrites the gather or scatter just read if it has batching dimensions. */
int hlo_unbatch(struct hp *p);
/* The opcode async-start, copy-done and the rest read as, or XRT_OP_COUNT. */
enum xrt_opcode hlo_async_op(const char *s, size_t n);
/* Rewrites the instruction just read, whose opcode was @s, if it is one of them. */
int hlo_unasync(struct hp *p, const char *s, size_t n);
/* Reads the custom-call just read as our opcode where its target is one (hlo_custom.c). */
int hlo_uncustom(struct hp *p);
/* The rng-get-and-update-state just read, as a state drawn from the seed (hlo_rngstate.c). */
int hlo_unrngstate(struct hp *p);
/* Rewrites the bitcast-convert just read into shifts where it regroups sub-byte bits. */
int hlo_unregroup(struct hp *p);
/* Converts the dot or convolution just read to operands of one type. */
int hlo_unmix(struct hp *p);
/* Rewrites the fft just read into dots with DFT matrices. */
int hlo_unfft(struct hp *p);
/* Rewrites the batch-norm-* just read into its arithmetic. */
int hlo_unbatchnorm(struct hp *p);
/* Rewrites the cholesky or triangular-solve just read into row and column steps. */
int hlo_unlinalg(struct hp *p);
/* Rewrites the stochastic-convert just read into its arithmetic (hlo_stochastic.c). */
int hlo_unstochastic(struct hp *p);
/* Rewrites the send, recv or their -done just read (hlo_sendrecv.c). */
int hlo_unsendrecv(struct hp *p);
/* Rewrites the ragged-dot just read into dots and masks (hlo_ragged.c). */
int hlo_unragged(struct hp *p);
/*
 * Bounded dynamic dimensions, lowered as they are read (hlo_dynamic.c):
 * hlo_dynamic() reads get-/set-dimension-size and the SliceToDynamic
 * and PadToStatic custom calls, masks what the instruction just read
 * must not see past its operands' sizes, and works out its own;
 * hlo_dynamic_done() files them once every other rewrite is done.
 */
int hlo_dynamic(struct hp *p, const char *op, size_t n);
int hlo_dynamic_done(struct hp *p);
/* At the end of a computation: its dynamic result gets zeros past its sizes. */
int hlo_dynamic_root(struct hp *p);
/* The value of a constant, by the instruction's shape. */
int hlo_parse_literal(struct hp *p, struct ir_instr *in);

#endif /* XRT_IR_HLO_PARSE_H */
