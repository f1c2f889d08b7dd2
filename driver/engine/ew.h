/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Expression programs (EWISE, and REDUCE's input): registers hold blocks
 * of EW_BLOCK elements in a compute representation chosen by type class:
 *
 *   INT   pred and all integers, as s64 (sign- or zero-extended and
 *         wrapped to the type's width after every instruction)
 *   F32   f16, bf16, f32 and the small floats (f8e5m2 ...), as float
 *         (all but f32 rounded to their format after every instruction)
 *   F64   f64, as double
 *   C64   c64, as float pairs (real, imaginary)
 *   C128  c128, as double pairs
 */
#ifndef XRT_ENGINE_EW_H
#define XRT_ENGINE_EW_H

#include "engine_internal.h"

#define EW_BLOCK	1024

/*
 * Code for xrt_engine_use_avx512.  GCC keeps AVX-512 code to 256-bit
 * vectors unless asked for 512; clang (the sanitizer builds) has no
 * such attribute.
 */
#ifdef __clang__
#define ENGINE_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw")))
#else
#define ENGINE_AVX512 \
	__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")))
#endif
/* Code for xrt_engine_use_avx2. */
#define ENGINE_AVX2 __attribute__((target("avx2")))

/* Bytes of one register: EW_BLOCK elements of the widest representation. */
#define EW_REG_BYTES	(EW_BLOCK * 16)

enum ew_class { EW_INT, EW_F32, EW_F64, EW_C64, EW_C128 };

static inline enum ew_class ew_class_of(u32 dtype)
{
	if (xs_is_small_float(dtype))
		return EW_F32;
	switch (dtype) {
	case XRT_CS_F16:
	case XRT_CS_BF16:
	case XRT_CS_F32:
		return EW_F32;
	case XRT_CS_F64:
		return EW_F64;
	case XRT_CS_C64:
		return EW_C64;
	case XRT_CS_C128:
		return EW_C128;
	default:
		return EW_INT;
	}
}

/* Type-checks an expression program; 0 or -1 (v->err set). */
int ew_check_program(struct vctx *v, const struct xrt_cs_operand *ops,
		     u32 num_ops, const struct xrt_cs_ew_inst *insts,
		     u32 num_insts, u32 num_regs, int allow_store,
		     u8 *reg_types);

/* Bits of ew_plan.inst[i].flags */
/* Instruction i computes straight into the next STORE's operand. */
#define EW_FWD		1
/* CONST i's register is never overwritten: filled once per command. */
#define EW_ONCE		2
/*
 * LOAD i reads an operand that stays put along the row into a register
 * nothing else writes: filled at the row's first block (start 0) only.
 */
#define EW_UNIFORM	4
/*
 * Instruction i writes a register it reads in another representation
 * (a convert in place, say): it computes into the scratch register.
 */
#define EW_SCRATCH	8

/* What the plan says of one instruction. */
struct ew_inst_plan {
	u8 flags;	/* EW_FWD, EW_ONCE, EW_UNIFORM, EW_SCRATCH */
	u8 ta;		/* the type register a holds when it runs */
};

/*
 * How a command's expression program runs over its rows, decided at
 * validation from the command alone (it is the same for every row and
 * every execution).  It lives in the program's plan area at the
 * command's own offset, so it must not outgrow the smallest command
 * that has one (their validators check that at build time).
 */
struct ew_plan {
	/* elements of the command's space */
	u64 count;
	/* along a row, in elements */
	s64 stride[XRT_CS_MAX_OPERANDS];
	/* bytes of an element */
	u8 es[XRT_CS_MAX_OPERANDS];
	/*
	 * A LOAD may read the operand in place: contiguous, stored in the
	 * register format, and not written by the same command.
	 */
	u8 in_place[XRT_CS_MAX_OPERANDS];
	/*
	 * Ask for each contiguous operand's block after next while this
	 * one is computed.  It pays for streams from memory in a program
	 * that stores (EWISE's); a command whose operands fit in cache only
	 * spends instructions on it, and one that only reads (REDUCE's)
	 * loses to the hardware prefetcher: the 64M f32 sum ran at 1.58-1.60
	 * of numpy without, 1.21-1.26 with (huge pages; 4 KiB pages: 68-70
	 * against 64-66 runs/s).
	 */
	u8 prefetch;
	/*
	 * Write forwarded results past the caches (non-temporal stores):
	 * outputs far larger than a core's caches, which a cached store
	 * would first read from memory only to evict.  Only a program with
	 * a forwarded result (EW_FWD) has it; REDUCE's never do.
	 */
	u8 stream;
	/*
	 * Hold a streamed result back one block and write it out in
	 * pieces between the next block's unary sub-blocks: written all
	 * at once, its stores fill the core's store and fill buffers and
	 * the pass that writes them waits on memory with nothing to
	 * compute.  Only with one forwarded result and a unary pass to
	 * carry its stores (->stream implies ->prefetch, which sizes the
	 * pieces).  The fused
	 * tanh(a*x+b)*c went from 0.63-0.64 of the triad to 0.67-0.69.
	 */
	u8 defer;
	u8 pad[5];
	struct ew_inst_plan inst[];
};

/* Where a row of each operand starts, with its command's plan. */
struct ew_row {
	const struct ew_plan *plan;
	u8 *ptr[XRT_CS_MAX_OPERANDS];
	/* the registers of EW_ONCE constants hold their values */
	u8 consts_filled;
	/* With ->plan->defer: the result of the previous block, not yet all written. */
	u8 *pend_dst;
	const u8 *pend_src;
	u32 pend_bytes, pend_done;
};

/* Registers past a program's own: scratch, and two to defer a streamed result in. */
#define EW_EXTRA_REGS	3

/* Operands of a command up to this many bytes are taken to be in cache. */
#define EW_CACHED_BYTES	(1024u * 1024)
/* Forwarded outputs of commands over this many bytes are streamed. */
#define EW_STREAM_BYTES	(16u * 1024 * 1024)

/*
 * Runs the program over @n (<= EW_BLOCK) elements of a row, starting at
 * element @start of it.  @regs holds @num_regs registers, one more for
 * scratch and, where the plan defers, two more (EW_EXTRA_REGS in all).
 * @at receives where each register's values ended up: its storage, or
 * (after a LOAD in place) the operand's memory.  A row's
 * blocks come in order from @start 0 on the same @regs: its first block
 * fills the uniform LOADs' registers for the rest.
 */
void ew_run_block(const struct xrt_cs_operand *ops,
		  const struct xrt_cs_ew_inst *insts, u32 num_insts,
		  struct ew_row *row, u64 start, u32 n, u8 *regs,
		  u32 num_regs, const void **at);

/* Ends a row: writes what @row still holds back (see ew_plan's defer). */
void ew_row_end(struct ew_row *row);

/*
 * Ends a command's rows (one item of its work): orders the streamed
 * stores of a plan with ->stream before the item is reported done.
 */
void ew_rows_done(const struct ew_plan *pl);

/*
 * Fills @plan for a program over rows along dimension @axis of its
 * operands (@rank 0: a single element, no rows), @n elements in all.
 * @plan has room for @num_insts instructions.
 */
void ew_make_plan(const struct xrt_cs_operand *ops, u32 num_ops,
		  const struct xrt_cs_ew_inst *insts, u32 num_insts, u32 rank,
		  u32 axis, u64 n, struct ew_plan *plan);

/*
 * The plan of the command at @cmd, which ew_make_plan() filled at
 * validation.
 */
static inline struct ew_plan *ew_plan_of(const struct xrt_engine_prog *p,
					 const void *cmd)
{
	return (void *)(p->plans + ((const u8 *)cmd - p->base));
}

/* Register @r of the register file @regs. */
static inline void *ew_reg(u8 *regs, u32 r)
{
	return regs + (size_t)r * EW_REG_BYTES;
}

/* Per class, evaluators over @n elements; return 0 if @fn is unknown. */
void ew_int_unary(u32 fn, u32 dtype, s64 *d, const s64 *a, u32 n);
void ew_int_binary(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		   u32 n);
void ew_int_compare(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		    u32 n);
void ew_int_wrap(u32 dtype, s64 *d, u32 n);

void ew_f32_unary(u32 fn, u32 dtype, void *d, const float *a, u32 n);
void ew_f32_binary(u32 fn, void *d, const float *a, const float *b, u32 n);
void ew_f32_compare(u32 fn, s64 *d, const float *a, const float *b, u32 n);
void ew_f64_unary(u32 fn, u32 dtype, void *d, const double *a, u32 n);
void ew_f64_binary(u32 fn, void *d, const double *a, const double *b, u32 n);
void ew_f64_compare(u32 fn, s64 *d, const double *a, const double *b, u32 n);
/* Rounds a block of floats to f16 or bf16. */
void ew_round_half(u32 dtype, float *d, u32 n);
/*
 * d = fn(a, b) for @n registers of type @t's class (XRT_CS_BIN_*), rounded
 * to @t as an EWISE BINARY is; @d may be @a or @b.
 */
void ew_binary_of(u32 fn, u32 t, void *d, const void *a, const void *b, u32 n);

/* exp, tanh, logistic of f32 blocks, vectorized (vmath.c). */
void vm_exp_f32(float *d, const float *a, u32 n);
void vm_tanh_f32(float *d, const float *a, u32 n);
void vm_logistic_f32(float *d, const float *a, u32 n);
/* @fn on f32 through vmath.c if it has it: 1, else 0. */
int ew_f32_fast(u32 fn, float *d, const float *a, u32 n);

void ew_c64_unary(u32 fn, void *d, const float *a, u32 n);
void ew_c64_binary(u32 fn, float *d, const float *a, const float *b, u32 n);
void ew_c128_unary(u32 fn, void *d, const double *a, u32 n);
void ew_c128_binary(u32 fn, double *d, const double *a, const double *b,
		    u32 n);
void ew_complex_compare(u32 fn, u32 dtype, s64 *d, const void *a,
			const void *b, u32 n);
void ew_complex_from_parts(u32 dtype, void *d, const void *re,
			   const void *im, u32 n);

/* Converts @n elements between any two types, register to register. */
void ew_convert(u32 to, void *d, u32 from, const void *a, u32 n);
/* Reinterprets bits, register to register, between types of one size. */
void ew_bitcast(u32 to, void *d, u32 from, const void *a, u32 n);

/* Memory <-> register representation, for strided rows. */
void ew_load(u32 dtype, void *reg, const u8 *src, s64 stride, u32 n);
void ew_store(u32 dtype, u8 *dst, s64 stride, const void *reg, u32 n);
/* One constant broadcast into a register. */
void ew_const(u32 dtype, void *reg, const u64 *imm, u32 n);

/* Exact float remainder with the dividend's sign (C fmod). */
double engine_fmod(double x, double y);

#endif /* XRT_ENGINE_EW_H */
