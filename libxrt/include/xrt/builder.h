/* SPDX-License-Identifier: MIT */
/*
 * Building modules in C.  A builder makes one module: the entry
 * computation is open from the start; xrt_builder_begin() opens a
 * sub-computation (for reduce, sort, while, ...) on top of it and
 * xrt_builder_end() closes it, giving a handle the calling opcodes take.
 * Every call adds one instruction to the innermost open computation and
 * infers its shape as the verifier does, so a module built without error
 * verifies.
 *
 * Errors: a call that fails returns an invalid value (id < 0) and records
 * an error naming the function, the computation, the instruction and
 * what is wrong; xrt_builder_error() shows it at once.  Calls after an
 * error do nothing and return invalid values, and xrt_builder_build()
 * returns the first error, so a sequence of calls can be checked once
 * at the end without losing where it went wrong.
 */
#ifndef XRT_BUILDER_H
#define XRT_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/api.h>
#include <xrt/ir.h>
#include <xrt/literal.h>
#include <xrt/opcode.h>
#include <xrt/shape.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** typedef xrt_builder - builds one module; opaque */
typedef struct xrt_builder xrt_builder;

/**
 * struct xrt_value - an instruction's result, as the builder hands it out
 * @builder: the builder's tag (values of one builder do not work in another)
 * @id: the value's number; negative for the invalid value of a failed call
 */
typedef struct xrt_value {
	uint32_t builder;
	int32_t id;
} xrt_value;

/**
 * struct xrt_comp - a finished sub-computation
 * @builder: the builder's tag
 * @id: its number; negative when xrt_builder_end() failed
 */
typedef struct xrt_comp {
	uint32_t builder;
	int32_t id;
} xrt_comp;

/**
 * enum xrt_compare_dir - comparison direction of compare
 * @XRT_CMP_EQ: equal
 * @XRT_CMP_NE: not equal
 * @XRT_CMP_LT: less than
 * @XRT_CMP_LE: less or equal
 * @XRT_CMP_GT: greater than
 * @XRT_CMP_GE: greater or equal
 */
enum xrt_compare_dir { XRT_CMP_EQ, XRT_CMP_NE, XRT_CMP_LT, XRT_CMP_LE, XRT_CMP_GT,
		       XRT_CMP_GE };

/**
 * enum xrt_compare_type - how compare orders its operands
 * @XRT_CMP_DEFAULT: by element type (FLOAT, SIGNED or UNSIGNED); not printed
 * @XRT_CMP_FLOAT: IEEE comparison of floats
 * @XRT_CMP_TOTALORDER: total order of floats (-NaN < -inf < ... < inf < NaN)
 * @XRT_CMP_SIGNED: signed integers
 * @XRT_CMP_UNSIGNED: unsigned integers
 */
enum xrt_compare_type { XRT_CMP_DEFAULT, XRT_CMP_FLOAT, XRT_CMP_TOTALORDER,
			XRT_CMP_SIGNED, XRT_CMP_UNSIGNED };

/**
 * struct xrt_window_dim - one dimension of a window
 * @size: window size
 * @stride: step between windows (>= 1)
 * @pad_low: padding before the first element
 * @pad_high: padding after the last
 * @base_dilation: dilation of the operand (1: none)
 * @window_dilation: dilation of the window (1: none)
 * @reversal: window reversed (convolution)
 */
struct xrt_window_dim {
	int64_t size, stride, pad_low, pad_high, base_dilation, window_dilation;
	bool reversal;
};

/**
 * struct xrt_dot_dims - dimension numbers of dot
 * @lhs_batch: batch dimensions of the left operand
 * @rhs_batch: the matching batch dimensions of the right operand
 * @num_batch: how many batch dimensions
 * @lhs_contracting: contracting dimensions of the left operand
 * @rhs_contracting: the matching ones of the right operand
 * @num_contracting: how many contracting dimensions
 */
struct xrt_dot_dims {
	const int64_t *lhs_batch, *rhs_batch;
	uint32_t num_batch;
	const int64_t *lhs_contracting, *rhs_contracting;
	uint32_t num_contracting;
};

/**
 * struct xrt_gather_dims - dimension numbers of gather
 * @offset_dims: result dimensions that index within a slice
 * @num_offset_dims: their count
 * @collapsed_slice_dims: operand dimensions of size 1 the result drops
 * @num_collapsed_slice_dims: their count
 * @start_index_map: operand dimension each index vector element starts
 * @num_start_index_map: its length
 * @index_vector_dim: the dimension of the indices holding index vectors
 */
struct xrt_gather_dims {
	const int64_t *offset_dims;
	uint32_t num_offset_dims;
	const int64_t *collapsed_slice_dims;
	uint32_t num_collapsed_slice_dims;
	const int64_t *start_index_map;
	uint32_t num_start_index_map;
	int64_t index_vector_dim;
};

/**
 * struct xrt_scatter_dims - dimension numbers of scatter
 * @update_window_dims: update dimensions that index within a window
 * @num_update_window_dims: their count
 * @inserted_window_dims: operand dimensions of size 1 the updates lack
 * @num_inserted_window_dims: their count
 * @scatter_dims_to_operand_dims: operand dimension of each index element
 * @num_scatter_dims_to_operand_dims: its length
 * @index_vector_dim: the dimension of the indices holding index vectors
 */
struct xrt_scatter_dims {
	const int64_t *update_window_dims;
	uint32_t num_update_window_dims;
	const int64_t *inserted_window_dims;
	uint32_t num_inserted_window_dims;
	const int64_t *scatter_dims_to_operand_dims;
	uint32_t num_scatter_dims_to_operand_dims;
	int64_t index_vector_dim;
};

/**
 * enum xrt_rng_distribution - distribution of rng
 * @XRT_RNG_UNIFORM: uniform in [a, b)
 * @XRT_RNG_NORMAL: normal with mean a and standard deviation b
 */
enum xrt_rng_distribution { XRT_RNG_UNIFORM, XRT_RNG_NORMAL };

/**
 * enum xrt_rng_algorithm - generator of rng-bit-generator
 * @XRT_RNG_DEFAULT: the device's choice
 * @XRT_RNG_THREE_FRY: Threefry
 * @XRT_RNG_PHILOX: Philox
 */
enum xrt_rng_algorithm { XRT_RNG_DEFAULT, XRT_RNG_THREE_FRY, XRT_RNG_PHILOX };

/**
 * xrt_builder_create() - start a module
 * @alloc: allocator for the builder and the module (NULL: system)
 * @module_name: the module's name (an HLO identifier: letters, digits, _ . -)
 * @entry_name: the entry computation's name, opened now
 * @out: receives the builder
 *
 * Return: NULL, INVALID_ARGUMENT for bad names, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_builder_create(const struct xrt_allocator *alloc,
				       const char *module_name, const char *entry_name,
				       xrt_builder **out);

/**
 * xrt_builder_destroy() - free a builder and whatever it has not handed out
 * @b: the builder, or NULL
 */
XRT_API void xrt_builder_destroy(xrt_builder *b);

/**
 * xrt_builder_error() - the first error of a builder
 * @b: the builder
 *
 * Return: NULL while every call has succeeded; else the first error,
 * owned by the builder.
 */
XRT_API const xrt_status *xrt_builder_error(const xrt_builder *b);

/**
 * xrt_builder_build() - finish the entry computation and take the module
 * @b: the builder; spent afterwards (destroy it)
 * @root: the entry computation's result
 * @out: receives the verified module; free with xrt_module_destroy()
 *
 * Return: NULL; the builder's first error (a copy); INVALID_ARGUMENT
 * when sub-computations are still open, parameters are not numbered
 * 0..n-1 or @root is not a value of the entry computation; or
 * RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_builder_build(xrt_builder *b, xrt_value root, xrt_module **out);

/**
 * xrt_builder_begin() - open a sub-computation
 * @b: the builder
 * @name: its name, unique in the module (an HLO identifier)
 *
 * Calls from now on add to it, until xrt_builder_end().
 */
XRT_API void xrt_builder_begin(xrt_builder *b, const char *name);

/**
 * xrt_builder_end() - close the innermost sub-computation
 * @b: the builder
 * @root: its result
 *
 * Return: the computation, for the opcodes that call one.
 */
XRT_API xrt_comp xrt_builder_end(xrt_builder *b, xrt_value root);

/**
 * xrt_value_shape() - the shape of a value
 * @b: the builder
 * @v: a value it made
 *
 * Return: the shape, or NULL for a value not of an open computation; it
 * is valid until the next call that adds to the builder (copy what you
 * need first).
 */
XRT_API const struct xrt_shape *xrt_value_shape(const xrt_builder *b, xrt_value v);

/*
 * The opcodes.  Each returns the new value, or an invalid one with the
 * error recorded.  Counted arrays are read, not kept.
 */

/** xrt_build_parameter() - parameter @number of @shape, named @name */
XRT_API xrt_value xrt_build_parameter(xrt_builder *b, int64_t number,
				      const struct xrt_shape *shape, const char *name);
/** xrt_build_constant() - a constant holding a copy of @lit */
XRT_API xrt_value xrt_build_constant(xrt_builder *b, const xrt_literal *lit);
/** xrt_build_iota() - @shape counting up along @dim */
XRT_API xrt_value xrt_build_iota(xrt_builder *b, const struct xrt_shape *shape, int64_t dim);
/**
 * xrt_build_unary() - an elementwise unary opcode (XRT_OP_ABS ..
 * XRT_OP_IMAG) or XRT_OP_COPY
 * @b: the builder
 * @op: the opcode
 * @x: its operand
 */
XRT_API xrt_value xrt_build_unary(xrt_builder *b, enum xrt_opcode op, xrt_value x);
/** xrt_build_binary() - an elementwise binary opcode (XRT_OP_ADD .. XRT_OP_SHIFT_RIGHT_LOGICAL) */
XRT_API xrt_value xrt_build_binary(xrt_builder *b, enum xrt_opcode op, xrt_value x,
				   xrt_value y);
/** xrt_build_compare() - @x @dir @y elementwise, ordered by @type */
XRT_API xrt_value xrt_build_compare(xrt_builder *b, xrt_value x, xrt_value y,
				    enum xrt_compare_dir dir, enum xrt_compare_type type);
/** xrt_build_select() - @on_true where @pred, else @on_false */
XRT_API xrt_value xrt_build_select(xrt_builder *b, xrt_value pred, xrt_value on_true,
				   xrt_value on_false);
/** xrt_build_clamp() - @x limited to [@lo, @hi] */
XRT_API xrt_value xrt_build_clamp(xrt_builder *b, xrt_value lo, xrt_value x, xrt_value hi);
/** xrt_build_convert() - @x converted to @dtype */
XRT_API xrt_value xrt_build_convert(xrt_builder *b, xrt_value x, enum xrt_dtype dtype);
/**
 * xrt_build_bitcast_convert() - @x's bits read as @dtype; a last dimension
 * is added or removed when the sizes differ
 * @b: the builder
 * @x: the operand
 * @dtype: the element type its bits are read as
 */
XRT_API xrt_value xrt_build_bitcast_convert(xrt_builder *b, xrt_value x, enum xrt_dtype dtype);
/** xrt_build_reduce_precision() - @x rounded to a float of these many bits */
XRT_API xrt_value xrt_build_reduce_precision(xrt_builder *b, xrt_value x,
					     int64_t exponent_bits, int64_t mantissa_bits);
/** xrt_build_tuple() - a tuple of @n values */
XRT_API xrt_value xrt_build_tuple(xrt_builder *b, const xrt_value *elems, uint32_t n);
/** xrt_build_get_tuple_element() - element @index of tuple @t */
XRT_API xrt_value xrt_build_get_tuple_element(xrt_builder *b, xrt_value t, int64_t index);
/** xrt_build_reshape() - @x with dimensions @dims (@rank of them) */
XRT_API xrt_value xrt_build_reshape(xrt_builder *b, xrt_value x, uint32_t rank,
				    const int64_t *dims);
/** xrt_build_bitcast() - @x's bytes as @shape (same byte size) */
XRT_API xrt_value xrt_build_bitcast(xrt_builder *b, xrt_value x, const struct xrt_shape *shape);
/**
 * xrt_build_broadcast() - @x spread to @rank dimensions @dims, operand
 * dimension i becoming result dimension bdims[i] (@bdims: one per operand dimension)
 * @b: the builder
 * @x: the operand
 * @rank: the result's rank
 * @dims: the result's dimensions
 * @bdims: per operand dimension, the result dimension it becomes
 */
XRT_API xrt_value xrt_build_broadcast(xrt_builder *b, xrt_value x, uint32_t rank,
				      const int64_t *dims, const int64_t *bdims);
/** xrt_build_transpose() - result dimension i is @x's dimension @perm[i] (rank entries) */
XRT_API xrt_value xrt_build_transpose(xrt_builder *b, xrt_value x, const int64_t *perm);
/** xrt_build_slice() - per dimension [@start, @limit) by @stride (rank entries each) */
XRT_API xrt_value xrt_build_slice(xrt_builder *b, xrt_value x, const int64_t *start,
				  const int64_t *limit, const int64_t *stride);
/** xrt_build_dynamic_slice() - @sizes from scalar @starts (rank of each), clamped in bounds */
XRT_API xrt_value xrt_build_dynamic_slice(xrt_builder *b, xrt_value x, const xrt_value *starts,
					  const int64_t *sizes);
/** xrt_build_dynamic_update_slice() - @x with @update written at scalar @starts (rank) */
XRT_API xrt_value xrt_build_dynamic_update_slice(xrt_builder *b, xrt_value x, xrt_value update,
						 const xrt_value *starts);
/** xrt_build_concatenate() - @n values joined along @dim */
XRT_API xrt_value xrt_build_concatenate(xrt_builder *b, const xrt_value *xs, uint32_t n,
					int64_t dim);
/** xrt_build_pad() - @x padded with scalar @value: @low, @high, @interior per dimension */
XRT_API xrt_value xrt_build_pad(xrt_builder *b, xrt_value x, xrt_value value,
				const int64_t *low, const int64_t *high, const int64_t *interior);
/** xrt_build_reverse() - @x reversed along @n dimensions @dims */
XRT_API xrt_value xrt_build_reverse(xrt_builder *b, xrt_value x, const int64_t *dims,
				    uint32_t n);
/**
 * xrt_build_reduce() - @n inputs reduced over @num_dims dimensions @dims by
 * @f, from scalar @inits (one per input); a tuple when @n > 1
 * @b: the builder
 * @inputs: the arrays reduced (@n of them, of one shape)
 * @inits: their initial values, scalars
 * @n: how many inputs
 * @f: the reducer, a computation of twice @n scalar parameters
 * @dims: the dimensions reduced
 * @num_dims: how many
 */
XRT_API xrt_value xrt_build_reduce(xrt_builder *b, const xrt_value *inputs,
				   const xrt_value *inits, uint32_t n, xrt_comp f,
				   const int64_t *dims, uint32_t num_dims);
/** xrt_build_reduce_window() - @n inputs reduced by @f over @window (one entry per dimension) */
XRT_API xrt_value xrt_build_reduce_window(xrt_builder *b, const xrt_value *inputs,
					  const xrt_value *inits, uint32_t n, xrt_comp f,
					  const struct xrt_window_dim *window);
/**
 * xrt_build_select_and_scatter() - per @window of @operand, @select picks an
 * element; @source's values are combined by @scatter into an array of @init
 * @b: the builder
 * @operand: the array the windows cover
 * @select: the comparison that picks an element of a window
 * @window: one entry per dimension of @operand
 * @source: one value per window
 * @init: the scalar the result starts as
 * @scatter: how a source value combines with the element picked
 */
XRT_API xrt_value xrt_build_select_and_scatter(xrt_builder *b, xrt_value operand,
					       xrt_comp select,
					       const struct xrt_window_dim *window,
					       xrt_value source, xrt_value init, xrt_comp scatter);
/**
 * xrt_build_dot() - general dot product; the result is of @preferred type,
 * or the operands' when XRT_INVALID
 * @b: the builder
 * @lhs: the left operand
 * @rhs: the right operand
 * @dims: the contracting and batch dimensions of each
 * @preferred: the result's element type, or XRT_INVALID
 */
XRT_API xrt_value xrt_build_dot(xrt_builder *b, xrt_value lhs, xrt_value rhs,
				const struct xrt_dot_dims *dims, enum xrt_dtype preferred);
/**
 * xrt_build_convolution() - @lhs convolved with kernel @rhs
 * @b: the builder
 * @lhs: the input
 * @rhs: the kernel
 * @window: one entry per spatial dimension
 * @dim_labels: dimension numbers as XLA prints them, e.g. "b01f_01io->b01f"
 * @feature_group_count: >= 1
 * @batch_group_count: >= 1
 * @preferred: result type, or XRT_INVALID for the operands'
 */
XRT_API xrt_value xrt_build_convolution(xrt_builder *b, xrt_value lhs, xrt_value rhs,
					const struct xrt_window_dim *window,
					const char *dim_labels, int64_t feature_group_count,
					int64_t batch_group_count, enum xrt_dtype preferred);
/** xrt_build_gather() - slices of @slice_sizes (operand rank) of @operand at @indices */
XRT_API xrt_value xrt_build_gather(xrt_builder *b, xrt_value operand, xrt_value indices,
				   const struct xrt_gather_dims *dims,
				   const int64_t *slice_sizes, bool indices_are_sorted);
/** xrt_build_scatter() - @n @operands with @updates combined in by @f at @indices */
XRT_API xrt_value xrt_build_scatter(xrt_builder *b, const xrt_value *operands, uint32_t n,
				    xrt_value indices, const xrt_value *updates, xrt_comp f,
				    const struct xrt_scatter_dims *dims,
				    bool indices_are_sorted, bool unique_indices);
/** xrt_build_sort() - @n operands sorted along @dim by @comparator's order of the first */
XRT_API xrt_value xrt_build_sort(xrt_builder *b, const xrt_value *operands, uint32_t n,
				 int64_t dim, xrt_comp comparator, bool is_stable);
/**
 * xrt_build_topk() - the top of each row of the last dimension
 * @b: the builder
 * @x: an array of integers or floats (floats order in total order)
 * @k: how many of each row, 0 to the row's length
 * @largest: the largest, in descending order; else the smallest, ascending
 *
 * Equal values keep their index order.
 *
 * Return: a tuple (T[..., @k], s32[..., @k]): the values and their indices.
 */
XRT_API xrt_value xrt_build_topk(xrt_builder *b, xrt_value x, int64_t k, bool largest);
/** xrt_build_while() - @body applied to @init while @cond holds */
XRT_API xrt_value xrt_build_while(xrt_builder *b, xrt_comp cond, xrt_comp body, xrt_value init);
/** xrt_build_conditional() - @on_true(@true_arg) if @pred, else @on_false(@false_arg) */
XRT_API xrt_value xrt_build_conditional(xrt_builder *b, xrt_value pred, xrt_value true_arg,
					xrt_comp on_true, xrt_value false_arg,
					xrt_comp on_false);
/** xrt_build_case() - @branches[@index](@args[@index]), the last for an index out of range */
XRT_API xrt_value xrt_build_case(xrt_builder *b, xrt_value index, const xrt_comp *branches,
				 const xrt_value *args, uint32_t n);
/** xrt_build_call() - @f applied to @n @args */
XRT_API xrt_value xrt_build_call(xrt_builder *b, xrt_comp f, const xrt_value *args, uint32_t n);
/** xrt_build_map() - scalar @f applied elementwise across @n arrays of one shape */
XRT_API xrt_value xrt_build_map(xrt_builder *b, const xrt_value *args, uint32_t n, xrt_comp f);
/** xrt_build_rng() - random numbers of @shape from scalars @a and @bound */
XRT_API xrt_value xrt_build_rng(xrt_builder *b, xrt_value a, xrt_value bound,
				enum xrt_rng_distribution dist, const struct xrt_shape *shape);
/** xrt_build_rng_bit_generator() - (new state, random bits of @bits) from u64 @state */
XRT_API xrt_value xrt_build_rng_bit_generator(xrt_builder *b, xrt_value state,
					      enum xrt_rng_algorithm algorithm,
					      const struct xrt_shape *bits);
/**
 * xrt_build_custom_call() - a call of @target with @n @args giving @shape
 * @b: the builder
 * @target: the handler's name (xrt_custom_call_register())
 * @args: the operands
 * @n: their number
 * @shape: the result's shape
 *
 * As xrt_build_custom_call_with() with no configuration.
 *
 * Return: the call's value.
 */
XRT_API xrt_value xrt_build_custom_call(xrt_builder *b, const char *target,
					const xrt_value *args, uint32_t n,
					const struct xrt_shape *shape);

/**
 * struct xrt_custom_call_config - what else a custom call tells its handler
 * @api_version: XLA's CustomCallApiVersion: 0 (not given), 1
 *	(API_VERSION_ORIGINAL) to 4 (API_VERSION_TYPED_FFI)
 * @backend_config: NULL (none), or for API_VERSION_TYPED_FFI the
 *	handler's attributes as an MLIR dictionary ("{n = 3 : i32}"), for
 *	the other versions a string the handler gets as it is
 * @has_side_effect: the call runs even when nothing uses its result
 */
struct xrt_custom_call_config {
	int api_version;
	const char *backend_config;
	bool has_side_effect;
};

/**
 * xrt_build_custom_call_with() - a custom call with its configuration
 * @b: the builder
 * @target: the handler's name
 * @args: the operands
 * @n: their number
 * @shape: the result's shape
 * @config: its API version, backend_config and side effects (NULL: none)
 *
 * A malformed dictionary or an unknown version fails the build with
 * INVALID_ARGUMENT, as the verifier words it.
 *
 * Return: the call's value.
 */
XRT_API xrt_value xrt_build_custom_call_with(xrt_builder *b, const char *target,
					     const xrt_value *args, uint32_t n,
					     const struct xrt_shape *shape,
					     const struct xrt_custom_call_config *config);

/**
 * struct xrt_collective - who takes part in a collective
 * @groups: @num_groups * @group_size ids, one group after the other
 * @num_groups: how many groups; 0: one group of every participant
 * @group_size: the ids in each group
 * @channel_id: 0: the ids are replicas (cross-replica); positive: the
 *	ids are partitions, except for all-reduce, all-gather and
 *	reduce-scatter, where they are replicas of every partition
 * @use_global_device_ids: with a channel, the ids are devices numbered
 *	replica * num_partitions + partition (groups required)
 * @constrain_layout: the operands keep their layouts (all-reduce, all-to-all)
 *
 * The groups must list every participant once.  A NULL
 * struct xrt_collective means one cross-replica group of all.
 */
struct xrt_collective {
	const int64_t *groups;
	uint32_t num_groups, group_size;
	int64_t channel_id;
	bool use_global_device_ids, constrain_layout;
};

/**
 * xrt_builder_set_replicas() - the module's replica and partition counts
 * @b: the builder, before its first instruction
 * @replica_count: replicas, 1 to 65536
 * @num_partitions: partitions of each replica, 1 to 65536
 *
 * The collectives' groups are checked against these counts.  Only
 * modules of one replica and one partition run for now; more are built
 * and printed.  Errors are recorded as for the build calls.
 */
XRT_API void xrt_builder_set_replicas(xrt_builder *b, uint32_t replica_count,
				      uint32_t num_partitions);
/** xrt_build_all_reduce() - @n arrays combined by @f across each group (a tuple if @n > 1) */
XRT_API xrt_value xrt_build_all_reduce(xrt_builder *b, const xrt_value *x, uint32_t n,
				       xrt_comp f, const struct xrt_collective *c);
/** xrt_build_all_gather() - @n arrays concatenated along @dim across each group, in id order */
XRT_API xrt_value xrt_build_all_gather(xrt_builder *b, const xrt_value *x, uint32_t n,
				       int64_t dim, const struct xrt_collective *c);
/** xrt_build_reduce_scatter() - all-reduce by @f, each participant keeping its block of @dim */
XRT_API xrt_value xrt_build_reduce_scatter(xrt_builder *b, const xrt_value *x, uint32_t n,
					   int64_t dim, xrt_comp f,
					   const struct xrt_collective *c);
/**
 * xrt_build_all_to_all() - blocks exchanged among each group
 * @b: the builder
 * @x: one array split along @dim, or (@dim < 0) one array per participant
 * @n: how many arrays
 * @dim: the dimension split into one block per participant; negative:
 *	the tuple form, whose result is a tuple of @n
 * @c: the groups
 */
XRT_API xrt_value xrt_build_all_to_all(xrt_builder *b, const xrt_value *x, uint32_t n,
				       int64_t dim, const struct xrt_collective *c);
/** xrt_build_collective_broadcast() - each group's first participant's @n arrays, everywhere */
XRT_API xrt_value xrt_build_collective_broadcast(xrt_builder *b, const xrt_value *x,
						 uint32_t n, const struct xrt_collective *c);
/**
 * xrt_build_collective_permute() - @x sent from source to target
 * @b: the builder
 * @x: the array each participant sends
 * @pairs: @num_pairs (source, target) pairs; each source and each target once
 * @num_pairs: how many pairs
 * @channel_id: 0: the ids are replicas; positive: they are partitions
 *
 * Return: what was sent to this participant; zeros where nothing was.
 */
XRT_API xrt_value xrt_build_collective_permute(xrt_builder *b, xrt_value x,
					       const int64_t *pairs, uint32_t num_pairs,
					       int64_t channel_id);
/** xrt_build_replica_id() - this participant's replica, u32[] */
XRT_API xrt_value xrt_build_replica_id(xrt_builder *b);
/** xrt_build_partition_id() - this participant's partition, u32[] */
XRT_API xrt_value xrt_build_partition_id(xrt_builder *b);

#ifdef __cplusplus
}
#endif

#endif /* XRT_BUILDER_H */
