/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The soft engine: validates and runs command-stream programs
 * (uapi/drm/xrt_accel_cs.h).  The same sources run in the kernel module's
 * job worker and in libxrt's host device.
 *
 * Validation happens once per program and checks everything; execution
 * then trusts the program and needs only that every bound buffer is at
 * least as large as its slot says.
 *
 * Execution is split so that callers control time and parallelism: a
 * command has phases that run in order; a phase has items that are
 * independent of each other and may run in any order or in parallel; an
 * item is small enough to bound a kernel FPU section.  Results never
 * depend on how items are scheduled.
 */
#ifndef XRT_ENGINE_H
#define XRT_ENGINE_H

#include "engine/shim.h"
#include <drm/xrt_accel_cs.h>

/**
 * xrt_engine_use_avx2 - let kernels use 8-wide AVX2 vectors and FMA
 *
 * 0 by default.  Set it once, before running anything, where the CPU
 * has AVX2 and FMA and (in the kernel) its state is saved by the FPU
 * sections.  Results are the same bits either way: the engine fuses a
 * multiply with an add only in DOT's accumulation, and there always,
 * with the instruction or, without it, an exactly rounded equivalent.
 */
extern int xrt_engine_use_avx2;

/**
 * xrt_engine_use_avx512 - let kernels use 16-wide AVX-512 vectors
 *
 * 0 by default.  Set it, with xrt_engine_use_avx2, where the CPU has
 * AVX-512 F, VL, DQ and BW and (in the kernel) the FPU sections save
 * their state.  The same operations in the same order: the same bits.
 */
extern int xrt_engine_use_avx512;

/**
 * struct xrt_engine_error - why a program was rejected
 * @command: index of the offending command; ~0u for the header or slots
 * @part: index of the operand, instruction or slot at fault; ~0u if none
 * @reason: a static description
 * @value: numbers @reason refers to, in its order
 */
struct xrt_engine_error {
	u32 command;
	u32 part;
	const char *reason;
	u64 value[2];
};

/**
 * struct xrt_engine_prog - a validated program
 * @base: the program bytes (not copied; must stay unchanged)
 * @size: their length
 * @slots: the slot table inside @base
 * @num_slots: its length
 * @num_commands: number of commands
 * @offsets: byte offset of each command, filled by validation
 * @plans: what validation worked out for running each command, at the
 *         command's own byte offset (see xrt_engine_validate())
 * @thread_ws_size: bytes of workspace each executing thread needs
 * @shared_ws_size: bytes of workspace one execution shares among threads
 */
struct xrt_engine_prog {
	const u8 *base;
	u64 size;
	const struct xrt_cs_slot *slots;
	u32 num_slots;
	u32 num_commands;
	u32 *offsets;
	u8 *plans;
	u64 thread_ws_size;
	u64 shared_ws_size;
};

/**
 * xrt_engine_count_commands() - read the command count from a header
 * @data: program bytes
 * @size: their length
 * @count: receives the number of commands (to size the offsets array)
 * @err: receives the reason on failure
 *
 * Return: 0, or -1 when the header is malformed.
 */
int xrt_engine_count_commands(const void *data, u64 size, u32 *count,
			      struct xrt_engine_error *err);

/**
 * xrt_engine_validate() - check a whole program
 * @prog: receives the validated program
 * @data: program bytes; 8-byte aligned
 * @size: their length
 * @offsets: room for the count xrt_engine_count_commands() gave
 * @plans: @size bytes, 8-byte aligned, kept as long as @prog is used
 * @err: receives the first problem on failure
 *
 * Some commands (EWISE, REDUCE) decide at validation how they will run
 * (which operands are read in place, which constants are filled once)
 * instead of at every execution.  Each keeps that plan in @plans at the
 * byte offset of the command in @data, and no plan is larger than its
 * command, so @size bytes always suffice.  Bytes of @plans under other
 * commands are left as they were.
 *
 * Return: 0, or -1 when the program is malformed.
 */
int xrt_engine_validate(struct xrt_engine_prog *prog, const void *data,
			u64 size, u32 *offsets, u8 *plans,
			struct xrt_engine_error *err);

/**
 * xrt_engine_validate_some() - xrt_engine_validate(), a bounded piece at a
 *                              time
 * @prog: as xrt_engine_validate(), the same on every call
 * @data: likewise
 * @size: likewise
 * @offsets: likewise
 * @plans: likewise
 * @err: likewise
 * @next: 0 on the first call (the header and slots are checked then);
 *        the next command to check, kept by the callee between calls
 * @budget: the most commands this call checks
 *
 * Each command's check costs at most a bounded amount (its size is
 * bounded), so a caller that must not hold the CPU for long (the kernel,
 * in an FPU section) checks a program in pieces of @budget commands.
 *
 * Return: 1 when the program is valid, 0 when commands remain, -1 when
 * it is malformed.
 */
int xrt_engine_validate_some(struct xrt_engine_prog *prog, const void *data,
			     u64 size, u32 *offsets, u8 *plans,
			     struct xrt_engine_error *err, u32 *next, u32 budget);

/**
 * struct xrt_engine_ctx - one execution of a program
 * @prog: the validated program
 * @slots: base address of each slot's buffer, each at least the slot's
 *         size, aligned to 64 bytes
 * @shared_ws: @prog->shared_ws_size bytes of workspace
 * @rng_seed: seed for random numbers
 * @yield: NULL, or called now and then inside an item that runs long
 *         (SORT's), so that an executor which must not hold its thread
 *         for long (the kernel, whose workers run items with preemption
 *         off) can let others run.  Nonzero asks the item to stop
 *         early; what it leaves in its outputs is then undefined.
 * @yield_arg: passed to @yield
 * @jumped: NULL, or called by xrt_engine_step() after each JUMP with its
 *          index and the command that comes next; nonzero stops the run
 *          there (an executor counting a loop's iterations)
 * @jumped_arg: passed to @jumped
 * @replica_id: what FILL's REPLICA_ID writes: the replica this execution
 *              runs as among devices running the program together
 * @partition_id: what FILL's PARTITION_ID writes
 */
struct xrt_engine_ctx {
	const struct xrt_engine_prog *prog;
	u8 *const *slots;
	void *shared_ws;
	u64 rng_seed;
	int (*yield)(void *arg);
	void *yield_arg;
	int (*jumped)(void *arg, u32 pc, u32 next);
	void *jumped_arg;
	u32 replica_id;
	u32 partition_id;
};

/** xrt_engine_phases() - number of phases of command @pc (0 for JUMP) */
u32 xrt_engine_phases(const struct xrt_engine_ctx *x, u32 pc);

/** xrt_engine_items() - number of items of phase @phase of command @pc */
u64 xrt_engine_items(const struct xrt_engine_ctx *x, u32 pc, u32 phase);

/**
 * xrt_engine_run_items() - run items [@first, @first + @count) of a phase
 * @x: the execution
 * @pc: the command
 * @phase: the phase
 * @first: the first item
 * @count: how many
 * @thread_ws: @prog->thread_ws_size bytes private to the caller's thread
 */
void xrt_engine_run_items(const struct xrt_engine_ctx *x, u32 pc, u32 phase,
			  u64 first, u64 count, void *thread_ws);

/**
 * xrt_engine_next() - the command after @pc, once @pc has run
 * @x: the execution
 * @pc: the command that ran
 *
 * Return: the next command; prog->num_commands means the program ended.
 */
u32 xrt_engine_next(const struct xrt_engine_ctx *x, u32 pc);

/**
 * xrt_engine_dot_small() - whether DOT @c takes the small-product path
 * @c: a validated DOT command
 *
 * Some small f32 products (at most 32 columns and 32^3 multiply-adds,
 * rows of B and C contiguous; cmd_dot.c says which) run straight from
 * the operands, without packing: callers that could hand a DOT to a
 * BLAS library leave these to the engine, which is faster for them.
 *
 * Return: 1 if it does, else 0.
 */
int xrt_engine_dot_small(const struct xrt_cs_dot *c);

/**
 * struct xrt_engine_cursor - where a sequential run stands
 * @pc: the current command
 * @phase: the current phase of it
 * @item: the next item of that phase
 */
struct xrt_engine_cursor {
	u32 pc;
	u32 phase;
	u64 item;
};

/**
 * xrt_engine_step() - run a program on one thread, a bounded piece at a
 *                     time
 * @x: the execution
 * @c: the cursor; zero it to start
 * @budget: the most items to run in this call (at least 1)
 * @thread_ws: the thread's workspace
 *
 * Return: 1 when the program has finished, 0 when more remains, -1 when
 * x->jumped asked to stop (the cursor stays on the jump) or at a CALL
 * or a COLLECTIVE, which only its executor makes (the cursor stays on
 * it).
 */
int xrt_engine_step(const struct xrt_engine_ctx *x, struct xrt_engine_cursor *c,
		    u64 budget, void *thread_ws);

/**
 * xrt_engine_call_of() - command @pc, if it is a CALL
 * @x: the execution
 * @pc: a command
 *
 * A CALL has no phases: the executor that keeps the program's call table
 * makes the call itself, with the addresses xrt_engine_view_data() gives
 * its views, then goes on at xrt_engine_next().  The kernel's build
 * refuses CALL at validation.
 *
 * Return: the validated command, or NULL for any other.
 */
const struct xrt_cs_call *xrt_engine_call_of(const struct xrt_engine_ctx *x, u32 pc);

/** xrt_engine_call_view() - view @i of validated CALL @c (arguments, then results) */
const struct xrt_cs_view *xrt_engine_call_view(const struct xrt_cs_call *c, u32 i);

/**
 * xrt_engine_collective_of() - command @pc, if it is a COLLECTIVE
 * @x: the program and its buffers
 * @pc: a command index below the program's count
 *
 * A COLLECTIVE has no phases: the executor exchanges its views (the
 * addresses xrt_engine_view_data() gives) with the other devices
 * through its communicator, then goes on at xrt_engine_next().  In the
 * kernel a job ends there, and userspace, once it has performed the
 * collective on the job's buffers, submits the rest as a new job.
 *
 * Return: the validated command, or NULL for any other.
 */
const struct xrt_cs_collective *xrt_engine_collective_of(const struct xrt_engine_ctx *x,
							 u32 pc);

/**
 * xrt_engine_collective_view() - view @i of validated COLLECTIVE @c
 * @c: the command
 * @i: below 2 x num_in: the inputs, then the outputs
 *
 * Return: the view.
 */
const struct xrt_cs_view *xrt_engine_collective_view(const struct xrt_cs_collective *c, u32 i);

/** xrt_engine_view_data() - the address of validated view @v's element {0, ...} */
u8 *xrt_engine_view_data(const struct xrt_engine_ctx *x, const struct xrt_cs_view *v);

#endif /* XRT_ENGINE_H */
