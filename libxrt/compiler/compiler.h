/* SPDX-License-Identifier: MIT */
/*
 * The compiler: a verified module in, a command-stream program out, with
 * the plan a device needs to run it (which slot holds which parameter
 * and result leaf, how big the arena is, the embedded constants).
 */
#ifndef XRT_COMPILER_COMPILER_H
#define XRT_COMPILER_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/ir.h>
#include <xrt/shape.h>

#include "../cstream/cs_builder.h"

/* What a slot of a compiled program holds. */
enum cc_slot_kind {
	CC_SLOT_ARENA,		/* scratch of one execution */
	CC_SLOT_CONSTANTS,	/* exe->constants */
	CC_SLOT_PARAM,		/* a parameter leaf */
	CC_SLOT_RESULT,		/* a result leaf */
};

/*
 * Every program's first two slots are its arena and its constants, so a
 * device binds them without looking; parameter and result leaves follow.
 */
#define CC_ARENA_SLOT		0
#define CC_CONSTANTS_SLOT	1
#define CC_FIRST_LEAF_SLOT	2

struct cc_slot {
	enum cc_slot_kind kind;
	uint32_t param;		/* PARAM: the parameter number */
	uint32_t leaf;		/* PARAM, RESULT: the leaf, in tuple order */
	/*
	 * PARAM, RESULT: that leaf's shape, in the executable's params or
	 * result (so that binding a slot never walks a tuple for it)
	 */
	const struct xrt_shape *shape;
	uint64_t size;		/* bytes */
	/*
	 * PARAM of a donated parameter: the result leaf its buffer also
	 * holds when the program ends, or -1.  The program reads the
	 * parameter before it writes the result there.
	 */
	int64_t result_leaf;
};

struct cc_options {
	bool no_fusion;		/* one command per elementwise instruction */
	bool no_folding;	/* constants are not computed on at compile time */
	/*
	 * Bit p: parameter p is donated, its buffers may hold results of
	 * the same shape (parameters 0 to 63).
	 */
	uint64_t donated;
	/*
	 * Longest k of one DOT command; 0 means XRT_CS_DOT_MAX_K.  Longer
	 * products become several, each adding to the last (tests set it
	 * low to check the split gives the unsplit bits).
	 */
	uint64_t dot_max_k;
};

/*
 * A while loop of the program: its condition starts at command @top,
 * the JUMP_IF_FALSE at @exit leaves it (not taken: one more iteration),
 * the jump back is at @back.  @where names it as the evaluator does:
 * "computation 'c', instruction 'w' (while)".  Executors count and stop
 * loops with these (a deadline, a cancel, an iteration bound).
 */
struct cc_loop {
	uint32_t top, exit, back;
	char *where;
};

struct xrt_executable {
	const struct xrt_allocator *alloc;
	uint64_t id;		/* unique in the process: devices key uploads by it */
	void *program;		/* the command stream */
	size_t program_size;
	struct cs_program loaded;	/* validated, ready to run */
	struct cc_slot *slots;
	uint32_t num_slots;
	void *constants;	/* 64-byte aligned */
	size_t constants_size;
	uint32_t num_params;
	struct xrt_shape *params;	/* their shapes, layouts included */
	struct xrt_shape result;
	uint32_t num_commands;
	struct cc_loop *loops;	/* by their exit jumps, ascending */
	uint32_t num_loops;
};

/*
 * Compiles the entry computation of @m.  Errors: INVALID_ARGUMENT (the
 * module does not verify), UNIMPLEMENTED naming the instruction and
 * opcode the compiler cannot lower yet, RESOURCE_EXHAUSTED.
 */
xrt_status *cc_compile(const xrt_module *m, const struct cc_options *o,
		       const struct xrt_allocator *alloc, struct xrt_executable **out);
void cc_executable_destroy(struct xrt_executable *exe);
/* Bytes of the first slot of @kind (the arena, the constants); 0 if none. */
uint64_t cc_slot_size(const struct xrt_executable *exe, enum cc_slot_kind kind);

#endif /* XRT_COMPILER_COMPILER_H */
