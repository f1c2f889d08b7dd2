/* SPDX-License-Identifier: MIT */
/*
 * The reference evaluator: runs a module on literals, one small
 * function per opcode, written to be obviously right rather than fast.
 * Every device is tested against it.
 */
#ifndef XRT_EVALUATE_H
#define XRT_EVALUATE_H

#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/api.h>
#include <xrt/ir.h>
#include <xrt/literal.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct xrt_eval_options - how to evaluate
 * @rng_seed: seed of rng (see Documentation/evaluator.rst for the generator)
 * @max_iterations: a while loop running more iterations than this fails
 *                  with DEADLINE_EXCEEDED; 0 means no limit
 * @timeout_ns: the evaluation fails with DEADLINE_EXCEEDED once it has
 *              run this long, checked at every loop iteration (0: no limit)
 */
struct xrt_eval_options {
	uint64_t rng_seed;
	uint64_t max_iterations;
	uint64_t timeout_ns;
};

/**
 * xrt_ir_evaluate() - evaluate a module's entry computation
 * @module: the module; verified first
 * @args: one literal per entry parameter, in parameter order; each must
 *        have the parameter's shape (layouts may differ)
 * @num_args: how many
 * @options: NULL for seed 0 and no iteration limit
 * @alloc: allocator for the result and the work (NULL: system)
 * @out: receives the result, in the layout of the entry's root
 *
 * Return: NULL; INVALID_ARGUMENT for a module that does not verify or
 * arguments that do not fit; UNIMPLEMENTED naming a custom-call target;
 * DEADLINE_EXCEEDED past @options->max_iterations; RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_ir_evaluate(const xrt_module *module, const xrt_literal *const *args,
				    uint32_t num_args, const struct xrt_eval_options *options,
				    const struct xrt_allocator *alloc, xrt_literal **out);

#ifdef __cplusplus
}
#endif

#endif /* XRT_EVALUATE_H */
