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
 * Return: NULL; INVALID_ARGUMENT for a module that does not verify, that
 * runs on several devices (see xrt_ir_evaluate_replicated()), or
 * arguments that do not fit; UNIMPLEMENTED naming a custom-call target;
 * DEADLINE_EXCEEDED past @options->max_iterations; RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_ir_evaluate(const xrt_module *module, const xrt_literal *const *args,
				    uint32_t num_args, const struct xrt_eval_options *options,
				    const struct xrt_allocator *alloc, xrt_literal **out);

/** XRT_EVAL_MAX_DEVICES - the most devices (replicas x partitions) the evaluator runs */
#define XRT_EVAL_MAX_DEVICES 1024

/**
 * xrt_ir_evaluate_replicated() - evaluate every replica and partition
 * @module: the module; verified first.  It runs on D = replica_count x
 *          num_partitions devices (each 1 where the module does not say),
 *          numbered replica x num_partitions + partition, each in its own
 *          thread; they meet at every collective as XLA's operation
 *          semantics define it (Documentation/evaluator.rst)
 * @args: D x @num_args literals, device by device: device d's argument k
 *        is @args[d x @num_args + k]
 * @num_args: the entry's parameters
 * @options: as for xrt_ir_evaluate(); the deadline bounds every wait at a
 *           collective too, and every device draws rng from the same seed
 * @alloc: allocator for the results and the work (NULL: system)
 * @out: D results, device by device; all NULL when the call fails
 *
 * A device that fails makes the others fail: each waiting at a
 * collective, or running a while loop, stops with CANCELLED.  Devices
 * that wait at different collectives, or for a device that finished
 * without coming, fail with FAILED_PRECONDITION.  No wait outlives the
 * deadline.
 *
 * Return: NULL; the first error of a device that failed of itself, its
 * message beginning "replica R: " ("replica R partition P: " with
 * partitions) where there are several devices; INVALID_ARGUMENT naming
 * the device whose arguments do not fit; RESOURCE_EXHAUSTED past
 * XRT_EVAL_MAX_DEVICES devices.
 */
XRT_API xrt_status *xrt_ir_evaluate_replicated(const xrt_module *module,
					       const xrt_literal *const *args, uint32_t num_args,
					       const struct xrt_eval_options *options,
					       const struct xrt_allocator *alloc, xrt_literal **out);

#ifdef __cplusplus
}
#endif

#endif /* XRT_EVALUATE_H */
