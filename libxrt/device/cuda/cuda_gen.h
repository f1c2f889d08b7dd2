/* SPDX-License-Identifier: MIT */
/*
 * Translating a validated command-stream program into CUDA: one source
 * (the prelude and a kernel or two per command) that NVRTC compiles into
 * one module, and a plan saying, per command, what to launch with which
 * arguments.  Dimensions, strides and offsets are literals of the source,
 * so the compiler folds the index arithmetic; the program's slots are the
 * kernels' arguments.  Nothing here needs a GPU: the tests compile the
 * sources of whole corpora with NVRTC on machines without one.
 */
#ifndef XRT_DEVICE_CUDA_GEN_H
#define XRT_DEVICE_CUDA_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/status.h>

#include "cstream/cs_builder.h"
#include "device/device_program.h"

/* The block size of every kernel but SCATTER's. */
#define CG_BLOCK	256
/* Most arguments of a kernel: the slots of a command, scratch, seed. */
#define CG_MAX_ARGS	24

/* What an argument of a kernel is. */
enum cg_arg {
	CG_ARG_SLOT,		/* a slot's base address */
	CG_ARG_SCRATCH,		/* the queue's scratch buffer */
	CG_ARG_SEED,		/* the execution's seed, u64 */
};

struct cg_kernel {
	uint32_t index;		/* the kernel is named k<index> */
	uint64_t threads;	/* 0: nothing to launch */
	uint32_t block;		/* threads per block */
	uint32_t num_args;
	uint8_t arg_kind[CG_MAX_ARGS];
	uint32_t arg_slot[CG_MAX_ARGS];
};

enum cg_step_kind {
	CG_STEP_KERNELS,	/* launch kernel[0], then kernel[1] if it has threads */
	CG_STEP_JUMP,		/* the host reads the predicate and branches */
	CG_STEP_COLLECTIVE,	/* the run's communicator exchanges the views */
	CG_STEP_FILL_ID,	/* the host writes the run's replica or partition id */
};

struct cg_step {
	enum cg_step_kind kind;
	struct cg_kernel kernel[2];
	/* DOT: the command, which cuBLAS may run instead of kernel[0] */
	const struct xrt_cs_dot *dot;
	const struct xrt_cs_jump *jump;
	const struct xrt_cs_fill *fill;	/* FILL_ID: a u32 or s32 scalar */
};

struct cuda_plan {
	const struct xrt_allocator *alloc;
	char *source;		/* NUL-terminated */
	size_t source_len;
	struct cg_step *steps;	/* one per command */
	uint32_t num_steps;
	uint64_t scratch_bytes;	/* the most any step needs */
};

/*
 * The plan of @p, whose kernels are named @prefix followed by k<index>
 * (several plans may share one source, as the tests do).  Errors:
 * UNIMPLEMENTED naming the command and what the CUDA driver lacks;
 * RESOURCE_EXHAUSTED.
 */
xrt_status *cuda_plan_build(const struct xrt_engine_prog *p, const char *prefix,
			    const struct xrt_allocator *a, struct cuda_plan *out);
void cuda_plan_release(struct cuda_plan *plan);

/* The device helpers every source starts with (prelude.cuh). */
extern const char cuda_prelude[];

#endif /* XRT_DEVICE_CUDA_GEN_H */
