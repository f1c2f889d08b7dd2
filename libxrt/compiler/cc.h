/* SPDX-License-Identifier: MIT */
/*
 * The compiler's state while it lowers one computation: a value per
 * instruction (where it lives, or that it is computed inside its user's
 * fused kernel), the arena's free space, the constants, the program
 * being built.
 */
#ifndef XRT_COMPILER_CC_H
#define XRT_COMPILER_CC_H

#include "cstream/cs_builder.h"
#include "ir/ir.h"
#include "compiler/compiler.h"

/* An array in a slot: a strided view (elements), offset in bytes. */
struct cc_buf {
	uint32_t slot;
	uint64_t offset;
	enum xrt_dtype dtype;
	uint32_t rank;
	int64_t dims[XRT_MAX_RANK];
	int64_t strides[XRT_MAX_RANK];
};

enum cc_kind {
	CK_UNSET,
	CK_INLINE,	/* computed inside its one user's EWISE or REDUCE */
	CK_BUF,		/* an array in a slot (possibly a view of another) */
	CK_TUPLE,	/* a tuple of other values, known at compile time */
};

/*
 * Value lifetimes.  Every instruction of the computation being lowered
 * is a value (cc->base + i); lowering adds more (views, tuple elements,
 * temporaries: cc_new_val).  Four counts and places decide when storage
 * is free:
 *
 * - @uses: reads of the value not yet emitted, counted over the whole
 *   computation before lowering starts (count_uses in cc_main.c), plus
 *   one for the root, which is never released.  cc_consume() is called
 *   as each read is emitted; at zero the value lets go of its storage
 *   (cc_release).  An inline value (CK_INLINE) is never stored, so it
 *   has nothing to let go: its operands are consumed where its user's
 *   kernel reads them (cc_consume_tree).
 * - @owner: the value whose storage a CK_BUF is.  A value that made its
 *   storage (cc_alloc) owns it; a view (cc_view, a bitcast, a slice
 *   laid over its operand) names its source's owner.
 * - @holds: on an owner, the live values using its storage: itself, its
 *   views, the tuples holding them (cc_hold, cc_release).  The storage
 *   is free when the last of them goes.
 * - @arena_off, @arena_size: where an owner's storage sits in the arena
 *   (slot XEXE_ARENA_SLOT); -1 once it went back to the free list
 *   (cc_values.c), or for storage outside the arena (the constants, a
 *   parameter's slot, a result placed in its RESULT slot).  The arena's
 *   size is the highest offset in use at any point (cc->arena_top).
 *
 * So the arena holds, at each command, only what is still to be read;
 * a program's results and parameters are never in it.
 */
struct cc_val {
	enum cc_kind kind;
	struct cc_buf buf;
	uint32_t owner;		/* CK_BUF: the value whose storage this is */
	uint32_t *elems;	/* CK_TUPLE: value indices */
	uint32_t num_elems;
	uint32_t uses;		/* reads not yet emitted (+1 for the root) */
	uint32_t holds;		/* owner: live values using the storage */
	int64_t arena_off;	/* owner in the arena: its offset; else -1 */
	uint64_t arena_size;
	bool is_const;		/* in the constants slot */
};

struct cc_free {
	uint64_t off, size;
};

struct cc {
	const xrt_module *m;
	const struct ir_comp *c;
	const struct xrt_allocator *a;
	struct cc_options o;
	struct cs_builder b;
	struct cc_val *vals;		/* one per instruction, then extra */
	uint32_t num_vals, val_cap;
	struct cc_free *free;		/* the arena's free ranges, by offset */
	uint32_t num_free, free_cap;
	uint64_t arena_top;		/* bytes of arena in use at most */
	uint8_t *consts;		/* the constants blob */
	size_t consts_size, consts_cap;
	struct xexe_slot *slots;		/* the plan, parallel to b's slots */
	uint32_t num_slots, slot_cap;
	const struct ir_instr *in;	/* the instruction being lowered */
	uint32_t base;			/* value of instruction 0 of cc->c */
	/*
	 * Per entry instruction whose array is a result leaf: its RESULT
	 * slot + 1, so cc_alloc places it there and no final copy is
	 * needed; 0 elsewhere.  Result slots in leaf order.
	 */
	uint32_t *placed;
	uint32_t branch_depth;		/* inside while or conditional bodies */
	uint64_t rng_streams;		/* RNG commands so far */
	/*
	 * When an rng may run more than once (in a loop body) or not at all
	 * (in a branch), its stream is a u64 counted up at run time, this
	 * value + 1; 0 when every rng runs once and has a fixed stream.
	 */
	uint32_t rng_counter;
	uint32_t *result_slots;
	uint32_t num_results;
	struct xexe_loop *loops;		/* the while loops lowered, for the executable */
	uint32_t num_loops, loop_cap;
	struct xexe_call *calls;		/* the custom calls lowered, likewise */
	uint32_t num_calls, call_cap;
	struct xexe_group *groups;		/* the collectives' groups, likewise */
	uint32_t num_groups, group_cap;
	xrt_status *err;
};

#define CC_ALIGN 64

/*
 * *@out = @m with every call inlined (cc_inline.c), sharing @m's
 * instructions' contents; NULL where @m has no call or would grow past
 * a million instructions a computation (then calls are lowered as
 * calls).  Freed by cc_flat_free().  Fails only out of memory.
 */
xrt_status *cc_flatten_calls(const xrt_module *m, const struct xrt_allocator *a,
			     xrt_module **out);
void cc_flat_free(const struct xrt_allocator *a, xrt_module *flat);

/* Records the first error, naming the instruction being lowered. */
void cc_fail(struct cc *cc, enum xrt_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cc_oom(struct cc *cc);
#define cc_unimplemented(cc, what) \
	cc_fail(cc, XRT_UNIMPLEMENTED, "%s is not compiled yet", what)

/* Slots: adds one to the program and the plan; its index. */
uint32_t cc_add_slot(struct cc *cc, enum xexe_slot_kind kind, uint64_t size, uint32_t flags);

/* Values. */
uint32_t cc_new_val(struct cc *cc);	/* an extra value; its index */
/* A new value owning a dense array of @t and @dims in the arena (errors recorded). */
uint32_t cc_temp(struct cc *cc, enum xrt_dtype t, uint32_t rank, const int64_t *dims);
/* The scalar of @dtype at byte @byte of @b's storage, for a command to read. */
struct xrt_cs_scalar cc_scalar_at(const struct cc_buf *b, uint64_t byte, uint32_t dtype);
/* A dense row-major array of @t and @dims, in the arena, owned by @v. */
int cc_alloc(struct cc *cc, uint32_t v, enum xrt_dtype t, uint32_t rank, const int64_t *dims);
/* @v becomes a view @buf of @src's storage. */
void cc_view(struct cc *cc, uint32_t v, uint32_t src, const struct cc_buf *buf);
/* @v becomes a tuple of room for @n elements, none yet (false: out of memory). */
bool cc_tuple_init(struct cc *cc, uint32_t v, uint32_t n);
/* A new value appended to tuple @v; its index. */
uint32_t cc_tuple_add(struct cc *cc, uint32_t v);
/* A new value viewing @src's storage as @buf; its index. */
uint32_t cc_new_view(struct cc *cc, uint32_t src, const struct cc_buf *buf);
/* Storage references of a live value (recursive for tuples). */
void cc_hold(struct cc *cc, uint32_t v);
void cc_release(struct cc *cc, uint32_t v);
/* One read of @v is done; at the last, its storage is released. */
void cc_consume(struct cc *cc, uint32_t v);
/*
 * Values are numbered globally; the instructions of the computation
 * being lowered (cc->c, one instance of it) are values cc->base + i.
 */
static inline uint32_t cc_iv(const struct cc *cc, uint32_t i)
{
	return cc->base + i;
}

/* The value of operand @k of @in. */
static inline uint32_t cc_opnd(const struct cc *cc, const struct ir_instr *in, uint32_t k)
{
	return cc->base + in->operands[k];
}

/* Views and commands on bufs. */
struct cc_buf cc_dense(uint32_t slot, uint64_t offset, enum xrt_dtype t, uint32_t rank,
		       const int64_t *dims);
/* The buf of @s's layout (parameters and results). */
struct cc_buf cc_layout(uint32_t slot, const struct xrt_shape *s);
/* Scalar buf @scalar viewed over @like's dimensions (strides 0). */
struct cc_buf cc_spread(struct cc_buf scalar, const struct cc_buf *like);
bool cc_is_dense(const struct cc_buf *b);
struct xrt_cs_view cc_csview(const struct cc_buf *b);
void cc_copy(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *src);
/* Every element of @dst = the element at @value. */
void cc_fill_value(struct cc *cc, const struct cc_buf *dst, const void *value);
/*
 * Copies @src into @dst at lo + i * step per dimension, leaving out what
 * falls outside (negative lo, short dst).
 */
void cc_place(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *src,
	      const int64_t *lo, const int64_t *step);
/* Bytes of a constant element @b points at (1 element), or NULL. */
const void *cc_const_elem(const struct cc *cc, uint32_t v);
/* Appends @size bytes to the constants (aligned); their offset. */
uint64_t cc_add_const(struct cc *cc, const void *data, size_t size);

/* Fusion (cc_fuse.c). */
bool cc_is_elementwise(const struct ir_instr *in);
/* Marks what is computed inside its user (@live: what the root needs). */
void cc_mark_inline(struct cc *cc, const bool *live);
/* Emits the EWISE computing @root (not inline) into @out. */
void cc_emit_ewise(struct cc *cc, uint32_t root, const struct cc_buf *out);
/*
 * One EWISE computing the @n trees @roots into @outs (over the first's
 * space); all computed before any is stored, so an out may be an input.
 */
void cc_emit_ewise_n(struct cc *cc, const uint32_t *roots, uint32_t n,
		     const struct cc_buf *outs);
/* Like cc_emit_ewise_n, but each out keeps its value where @mask (if any) is false. */
void cc_emit_masked_n(struct cc *cc, const uint32_t *roots, uint32_t n,
		      const struct cc_buf *outs, const struct cc_buf *mask);
/*
 * One compare-exchange step of a sort over @n operands: where the
 * comparator (root @root, inlined, its parameters bound to b_0, a_0,
 * b_1, a_1, ...) says @b[0] goes before @a[0], every @a[k] and @b[k]
 * swap.
 */
void cc_emit_swap_step(struct cc *cc, uint32_t root, const struct cc_buf *a,
		       const struct cc_buf *b, uint32_t n);
/*
 * select-and-scatter's steps for window offset @j, over the source's
 * space, with the select or scatter computation inlined (its root
 * @sel_root / @root):  where the candidate @c is valid (@m) and no best
 * is held (@h) or select(best @b, @c) is false, best = @c and its offset
 * @jb = @j;  then @r = scatter(@r, source) where @jb == @j.  With @jv,
 * the offset is the s32 scalar @jv holds at run time (in a loop), not @j.
 */
void cc_emit_select_step(struct cc *cc, uint32_t sel_root, const struct cc_buf *h,
			 const struct cc_buf *b, const struct cc_buf *jb, const struct cc_buf *c,
			 const struct cc_buf *m, const struct cc_buf *jv, int32_t j);
void cc_emit_scatter_step(struct cc *cc, uint32_t root, const struct cc_buf *r,
			  const struct cc_buf *jb, const struct cc_buf *jv, int32_t j);
/*
 * Hand-written kernels over @space's iteration space: registers, the
 * instructions of the command stream (XRT_CS_EW_*), loads and stores of
 * bufs over the space; cc_ew_emit() emits the EWISE and frees it.
 */
struct ewp;
struct ewp *cc_ew_new(struct cc *cc, const struct cc_buf *space);
uint32_t cc_ew_reg(struct ewp *e);
void cc_ew_free(struct ewp *e, uint32_t r);
void cc_ew_put(struct ewp *e, uint8_t op, uint8_t fn, enum xrt_dtype t, uint32_t dst,
	       uint32_t a, uint32_t b, uint32_t c);
void cc_ew_const(struct ewp *e, enum xrt_dtype t, uint32_t dst, uint64_t imm);
void cc_ew_load(struct ewp *e, uint32_t dst, const struct cc_buf *b);
void cc_ew_store(struct ewp *e, const struct cc_buf *b, uint32_t src);
void cc_ew_emit(struct ewp *e, const struct cc_buf *space);
/* Emits REDUCE of the fused tree under operand 0 of @root. */
void cc_emit_reduce(struct cc *cc, uint32_t root);
/* dst = src converted to dst's dtype (one small EWISE). */
void cc_emit_convert(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *src);
/* dst (pred) = a == b, one kernel. */
void cc_emit_compare_eq(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *a,
			const struct cc_buf *b);
/*
 * rng's values from @raw with bounds @a, @b as the evaluator makes them:
 * floats a + (b - a) u (u in [0, 1) from @raw), below b else a; normal
 * a + b z (z from @raw); integers a + raw mod (b - a), a if b <= a.
 */
void cc_emit_rng_bounds(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *raw,
			const struct cc_buf *a, const struct cc_buf *b, bool normal);
/*
 * The identity of REDUCE @op in type @t, as the element's bytes in @buf
 * (16 bytes): -0 for float sums, 1, -inf or the least integer, +inf or
 * the greatest, all ones, 0.  NULL where it has none (max of complex).
 */
const void *cc_red_identity(uint32_t op, enum xrt_dtype t, uint8_t *buf);
/* The REDUCE op that combining with binary @op in type @t is, or 0. */
uint32_t cc_reducer_of(enum xrt_opcode op, enum xrt_dtype t);
/* The REDUCE op of a reducer computation (add, max, ... of its two parameters), or 0. */
uint32_t cc_reducer_op(const struct ir_comp *f, enum xrt_dtype t);
/*
 * REDUCE @in (a view over the iteration space) into @out (over the same
 * space, stride 0 where @mask reduces), starting from @init.
 */
void cc_emit_reduce_view(struct cc *cc, uint32_t op, const struct cc_buf *in,
			 const struct cc_buf *out, uint32_t mask, const void *init);
/* Consumes the non-inline operands under @root's fused tree. */
void cc_consume_tree(struct cc *cc, uint32_t root);

/* Value @v is value @e again: the same array (a view), or the same tuple. */
void cc_alias(struct cc *cc, uint32_t v, uint32_t e);
/*
 * Lowers an instance of computation @f, its parameters bound to the
 * values @args; the root's value (holding one pending read: consume it).
 */
uint32_t cc_lower_comp(struct cc *cc, const struct ir_comp *f, const uint32_t *args);

/*
 * Results (cc_results.c): a slot per result leaf planned before lowering
 * (a donated parameter's where one matches), then each leaf copied there
 * unless computed in place.
 */
void cc_plan_results(struct cc *cc);
void cc_bind_results(struct cc *cc);
/* The same elements of the same slot, in the same order. */
bool cc_same_buf(const struct cc_buf *a, const struct cc_buf *b);

/* Value @v holds @lit: an array in the constants, or a tuple of such. */
void cc_lower_literal(struct cc *cc, uint32_t v, const xrt_literal *lit);

/*
 * A scalar computation applied elementwise: @f's parameters bound to
 * the values @args, its constants lowered, its other instructions
 * inline, ready for cc_emit_ewise_n of its roots (cc->c is @f until
 * cc_inline_comp_end).  False (the error set) when @f is not all
 * elementwise or is too big.
 */
struct cc_saved {
	const struct ir_comp *c;
	uint32_t base;
};
bool cc_inline_comp_begin(struct cc *cc, const struct ir_comp *f, const uint32_t *args,
			  struct cc_saved *sv);
void cc_inline_comp_end(struct cc *cc, const struct cc_saved *sv);

/* Simplification (cc_fold.c). */
/*
 * Lowers constants and their views, and folds what computes on them
 * alone, marking each in @done; @live: what the root needs.
 */
void cc_fold(struct cc *cc, const bool *live, bool *done);
/* The operand @in returns unchanged (an exact identity), or -1. */
int cc_identity(const struct cc *cc, const struct ir_instr *in);

/* The rest of the opcodes (cc_lower.c, cc_dot.c, cc_control.c). */
void cc_lower(struct cc *cc, uint32_t i);
void cc_lower_dot(struct cc *cc, uint32_t i);
/*
 * DOT commands for a product of any k: runs of at most the device's
 * longest k, each after the first adding to @mo.  The sums go in the
 * same order, so the bits are those of one command.
 */
void cc_emit_dot(struct cc *cc, uint32_t flags, uint64_t batch, uint64_t m, uint64_t n,
		 uint64_t k, const struct xrt_cs_matrix *ml, const struct xrt_cs_matrix *mr,
		 const struct xrt_cs_matrix *mo);
void cc_lower_control(struct cc *cc, uint32_t i);
/* custom-call @i as a CALL command and an entry of cc->calls (cc_custom.c). */
void cc_lower_custom_call(struct cc *cc, uint32_t i);
void cc_lower_reduce_window(struct cc *cc, uint32_t i);
/*
 * reduce-window @i as a SCAN where its windows are the prefixes or the
 * suffixes of one dimension (cumsum and its kin); false where they are
 * not, nothing emitted.  @op is the REDUCE op of its reducer.
 */
bool cc_lower_scan_window(struct cc *cc, uint32_t i, uint32_t op, const void *init);
/* The same for any other elementwise reducer of one input, by doubling. */
bool cc_lower_scan_window_general(struct cc *cc, uint32_t i);
/* reduce-window offset by offset, for what one REDUCE cannot do. */
void cc_lower_window_general(struct cc *cc, uint32_t i);
void cc_lower_convolution(struct cc *cc, uint32_t i);
void cc_lower_gather(struct cc *cc, uint32_t i);
/* Whether @v is among the @n values at @l. */
bool cc_listed(const int64_t *l, uint32_t n, int64_t v);
/* A new dense value (*@v) holding @b's elements; its buf. */
struct cc_buf cc_dense_copy(struct cc *cc, const struct cc_buf *b, uint32_t *v);
/*
 * Indices @ix as an [n, k] view, k along index vector dimension @ivd
 * (1 past the rank: k = 1); a dense copy in *@tmp where they do not flatten.
 */
struct cc_buf cc_index_vectors(struct cc *cc, const struct cc_buf *ix, int64_t ivd,
			       uint32_t *k, uint32_t *tmp);
void cc_lower_scatter(struct cc *cc, uint32_t i);
void cc_lower_rng(struct cc *cc, uint32_t i);
/* Before the entry's body: the run-time rng counter, if one is needed. */
void cc_rng_counter_init(struct cc *cc);
/* Collectives among one participant (cc_collective.c). */
void cc_lower_collective(struct cc *cc, uint32_t i);
/* The devices the program runs on together: replicas x partitions. */
uint32_t cc_devices(const struct cc *cc);
/* The group table entry of collective @in; its index, or -1 (the error set). */
int64_t cc_collective_group(struct cc *cc, const struct ir_instr *in);
/* Row-major view of dense @b (a dimension of 1 may have had any stride). */
struct xrt_cs_view cc_row_major_view(const struct cc_buf *b);
/*
 * An all-reduce or reduce-scatter whose to_apply is not a REDUCE op:
 * the blocks moved by a COLLECTIVE, then folded (cc_collective_fold.c).
 */
void cc_lower_collective_fold(struct cc *cc, uint32_t i, int64_t group);
/* A tuple of instruction @i's operands. */
void cc_lower_tuple(struct cc *cc, uint32_t i);
void cc_lower_sort(struct cc *cc, uint32_t i);
void cc_lower_topk(struct cc *cc, uint32_t i);
void cc_lower_rng_bit_generator(struct cc *cc, uint32_t i);
void cc_lower_reduce_loop(struct cc *cc, uint32_t i);
/*
 * @acc (a dense array of @m elements) = rows 0 to @s-1 of @rows (dense
 * [@s, @m]) folded left to right with in's to_apply, a binary
 * computation of scalars, one element at a time (cc_reduce.c).
 */
void cc_fold_rows(struct cc *cc, const struct ir_instr *in, uint32_t acc, uint32_t rows,
		  int64_t s, int64_t m);
void cc_lower_select_and_scatter(struct cc *cc, uint32_t i);
/* A jump (target set later by cc_land when @target is 0); its place. */
size_t cc_jump(struct cc *cc, uint32_t mode, uint32_t target, uint32_t pred);
/* The jump at @at now goes to the next command. */
void cc_land(struct cc *cc, size_t at);
/* c += 1; p = c < @limit (c s64, p pred, both scalars). */
void cc_emit_count_step(struct cc *cc, const struct cc_buf *c, const struct cc_buf *p,
			int64_t limit);
/* c += 1 (c a u64 scalar). */
void cc_emit_increment(struct cc *cc, const struct cc_buf *c);

#endif /* XRT_COMPILER_CC_H */
