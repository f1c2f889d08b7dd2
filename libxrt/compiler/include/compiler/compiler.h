/* SPDX-License-Identifier: MIT */
/*
 * The compiler: a verified module in, an executable out
 * (cstream/executable.h): a command-stream program with the plan a
 * device needs to run it (which slot holds which parameter and result
 * leaf, how big the arena is, the embedded constants).  The program is
 * not validated here: each device does that as it loads it.
 */
#ifndef XRT_COMPILER_COMPILER_H
#define XRT_COMPILER_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/ir.h>
#include <xrt/shape.h>

#include "cstream/executable.h"

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
 * Compiles the entry computation of @m.  Errors: INVALID_ARGUMENT (the
 * module does not verify), UNIMPLEMENTED naming the instruction and
 * opcode the compiler cannot lower yet, RESOURCE_EXHAUSTED.
 */
xrt_status *cc_compile(const xrt_module *m, const struct cc_options *o,
		       const struct xrt_allocator *alloc, struct xrt_executable **out);

#endif /* XRT_COMPILER_COMPILER_H */
