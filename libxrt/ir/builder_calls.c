// SPDX-License-Identifier: MIT
/*
 * Builder functions for the opcodes that call computations, reduce,
 * contract, index, sort or draw random numbers.
 */
#include <string.h>

#include "builder_internal.h"

static const xrt_value none = { 0, -1 };

/* Operands @x (n of them) then @y (n of them); @n at most XRT_MAX_RANK. */
static struct ir_instr *open_pairs(xrt_builder *b, const char *fn, enum xrt_opcode op,
				   const xrt_value *x, const xrt_value *y, uint32_t n)
{
	xrt_value ops[2 * XRT_MAX_RANK];

	if (!b || b->err || !b->m)
		return NULL;
	if (n > XRT_MAX_RANK || !n) {
		bld_fail(b, fn, NULL, "%u inputs, expected 1 to %u", n, XRT_MAX_RANK);
		return NULL;
	}
	if (!x || !y) {
		bld_fail(b, fn, NULL, "the inputs or inits are NULL");
		return NULL;
	}
	memcpy(ops, x, n * sizeof(*x));
	memcpy(ops + n, y, n * sizeof(*y));
	return bld_open(b, fn, op, ops, 2 * n);
}

xrt_value xrt_build_reduce(xrt_builder *b, const xrt_value *inputs, const xrt_value *inits,
			   uint32_t n, xrt_comp f, const int64_t *dims, uint32_t num_dims)
{
	static const char fn[] = "xrt_build_reduce";
	struct ir_instr *in = open_pairs(b, fn, XRT_OP_REDUCE, inputs, inits, n);

	if (!in)
		return none;
	bld_ints(b, fn, in, IR_ATTR_DIMENSIONS, dims, num_dims);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_reduce_window(xrt_builder *b, const xrt_value *inputs,
				  const xrt_value *inits, uint32_t n, xrt_comp f,
				  const struct xrt_window_dim *window)
{
	static const char fn[] = "xrt_build_reduce_window";
	struct ir_instr *in = open_pairs(b, fn, XRT_OP_REDUCE_WINDOW, inputs, inits, n);

	if (!in)
		return none;
	bld_window(b, fn, in, window, bld_opnd(b, in, 0)->rank);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_select_and_scatter(xrt_builder *b, xrt_value operand, xrt_comp select,
				       const struct xrt_window_dim *window, xrt_value source,
				       xrt_value init, xrt_comp scatter)
{
	static const char fn[] = "xrt_build_select_and_scatter";
	const xrt_value ops[3] = { operand, source, init };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_SELECT_AND_SCATTER, ops, 3);

	if (!in)
		return none;
	bld_window(b, fn, in, window, bld_opnd(b, in, 0)->rank);
	bld_comps(b, fn, in, IR_ATTR_SELECT, &select, 1);
	bld_comps(b, fn, in, IR_ATTR_SCATTER, &scatter, 1);
	return bld_close(b, fn, in, true);
}

/* The result type: @preferred, or operand 0's. */
static void result_type(xrt_builder *b, struct ir_instr *in, enum xrt_dtype preferred)
{
	in->shape.dtype = preferred != XRT_INVALID ? preferred : bld_opnd(b, in, 0)->dtype;
}

xrt_value xrt_build_dot(xrt_builder *b, xrt_value lhs, xrt_value rhs,
			const struct xrt_dot_dims *dims, enum xrt_dtype preferred)
{
	static const char fn[] = "xrt_build_dot";
	const xrt_value ops[2] = { lhs, rhs };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_DOT, ops, 2);

	if (!in)
		return none;
	/* XLA prints only the lists that are not empty; so does the builder. */
	if (bld_need(b, fn, in, dims, 1, "the dimension numbers") && dims->num_batch) {
		bld_ints(b, fn, in, IR_ATTR_LHS_BATCH_DIMS, dims->lhs_batch, dims->num_batch);
		bld_ints(b, fn, in, IR_ATTR_RHS_BATCH_DIMS, dims->rhs_batch, dims->num_batch);
	}
	if (dims && dims->num_contracting) {
		bld_ints(b, fn, in, IR_ATTR_LHS_CONTRACTING_DIMS, dims->lhs_contracting,
			 dims->num_contracting);
		bld_ints(b, fn, in, IR_ATTR_RHS_CONTRACTING_DIMS, dims->rhs_contracting,
			 dims->num_contracting);
	}
	result_type(b, in, preferred);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_convolution(xrt_builder *b, xrt_value lhs, xrt_value rhs,
				const struct xrt_window_dim *window, const char *dim_labels,
				int64_t feature_group_count, int64_t batch_group_count,
				enum xrt_dtype preferred)
{
	static const char fn[] = "xrt_build_convolution";
	const xrt_value ops[2] = { lhs, rhs };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_CONVOLUTION, ops, 2);
	uint32_t rank;

	if (!in)
		return none;
	rank = bld_opnd(b, in, 0)->rank;
	bld_window(b, fn, in, window, rank > 2 ? rank - 2 : 0);
	bld_word(b, fn, in, IR_ATTR_DIM_LABELS, dim_labels);
	/* XLA leaves the counts out when they are 1; so does the builder. */
	if (feature_group_count != 1)
		bld_int(b, fn, in, IR_ATTR_FEATURE_GROUP_COUNT, feature_group_count);
	if (batch_group_count != 1)
		bld_int(b, fn, in, IR_ATTR_BATCH_GROUP_COUNT, batch_group_count);
	result_type(b, in, preferred);
	return bld_close(b, fn, in, true);
}

static void flag(xrt_builder *b, const char *fn, struct ir_instr *in, enum ir_attr_key key,
		 bool on)
{
	if (on)
		bld_int(b, fn, in, key, 1);
}

xrt_value xrt_build_gather(xrt_builder *b, xrt_value operand, xrt_value indices,
			   const struct xrt_gather_dims *dims, const int64_t *slice_sizes,
			   bool indices_are_sorted)
{
	static const char fn[] = "xrt_build_gather";
	const xrt_value ops[2] = { operand, indices };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_GATHER, ops, 2);

	if (!in)
		return none;
	if (bld_need(b, fn, in, dims, 1, "the dimension numbers")) {
		bld_ints(b, fn, in, IR_ATTR_OFFSET_DIMS, dims->offset_dims,
			 dims->num_offset_dims);
		bld_ints(b, fn, in, IR_ATTR_COLLAPSED_SLICE_DIMS, dims->collapsed_slice_dims,
			 dims->num_collapsed_slice_dims);
		bld_ints(b, fn, in, IR_ATTR_START_INDEX_MAP, dims->start_index_map,
			 dims->num_start_index_map);
		bld_int(b, fn, in, IR_ATTR_INDEX_VECTOR_DIM, dims->index_vector_dim);
	}
	bld_ints(b, fn, in, IR_ATTR_SLICE_SIZES, slice_sizes, bld_opnd(b, in, 0)->rank);
	flag(b, fn, in, IR_ATTR_INDICES_ARE_SORTED, indices_are_sorted);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_scatter(xrt_builder *b, const xrt_value *operands, uint32_t n,
			    xrt_value indices, const xrt_value *updates, xrt_comp f,
			    const struct xrt_scatter_dims *dims, bool indices_are_sorted,
			    bool unique_indices)
{
	static const char fn[] = "xrt_build_scatter";
	xrt_value ops[2 * XRT_MAX_RANK + 1];
	struct ir_instr *in;

	if (!b || b->err || !b->m)
		return none;
	if (!n || n > XRT_MAX_RANK || !operands || !updates) {
		bld_fail(b, fn, NULL, "%u operands (1 to %u) or NULL arrays", n, XRT_MAX_RANK);
		return none;
	}
	memcpy(ops, operands, n * sizeof(*ops));
	ops[n] = indices;
	memcpy(ops + n + 1, updates, n * sizeof(*ops));
	in = bld_open(b, fn, XRT_OP_SCATTER, ops, 2 * n + 1);
	if (!in)
		return none;
	if (bld_need(b, fn, in, dims, 1, "the dimension numbers")) {
		bld_ints(b, fn, in, IR_ATTR_UPDATE_WINDOW_DIMS, dims->update_window_dims,
			 dims->num_update_window_dims);
		bld_ints(b, fn, in, IR_ATTR_INSERTED_WINDOW_DIMS, dims->inserted_window_dims,
			 dims->num_inserted_window_dims);
		bld_ints(b, fn, in, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS,
			 dims->scatter_dims_to_operand_dims,
			 dims->num_scatter_dims_to_operand_dims);
		bld_int(b, fn, in, IR_ATTR_INDEX_VECTOR_DIM, dims->index_vector_dim);
	}
	flag(b, fn, in, IR_ATTR_INDICES_ARE_SORTED, indices_are_sorted);
	flag(b, fn, in, IR_ATTR_UNIQUE_INDICES, unique_indices);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_sort(xrt_builder *b, const xrt_value *operands, uint32_t n, int64_t dim,
			 xrt_comp comparator, bool is_stable)
{
	static const char fn[] = "xrt_build_sort";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_SORT, operands, n);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_DIMENSIONS, dim);
	flag(b, fn, in, IR_ATTR_IS_STABLE, is_stable);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &comparator, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_topk(xrt_builder *b, xrt_value x, int64_t k, bool largest)
{
	static const char fn[] = "xrt_build_topk";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_TOPK, &x, 1);

	if (!in)
		return none;
	bld_int(b, fn, in, IR_ATTR_K, k);
	bld_int(b, fn, in, IR_ATTR_LARGEST, largest);	/* always: the canonical form */
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_while(xrt_builder *b, xrt_comp cond, xrt_comp body, xrt_value init)
{
	static const char fn[] = "xrt_build_while";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_WHILE, &init, 1);

	if (!in)
		return none;
	bld_comps(b, fn, in, IR_ATTR_CONDITION, &cond, 1);
	bld_comps(b, fn, in, IR_ATTR_BODY, &body, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_conditional(xrt_builder *b, xrt_value pred, xrt_value true_arg,
				xrt_comp on_true, xrt_value false_arg, xrt_comp on_false)
{
	static const char fn[] = "xrt_build_conditional";
	const xrt_value ops[3] = { pred, true_arg, false_arg };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_CONDITIONAL, ops, 3);

	if (!in)
		return none;
	bld_comps(b, fn, in, IR_ATTR_TRUE_COMPUTATION, &on_true, 1);
	bld_comps(b, fn, in, IR_ATTR_FALSE_COMPUTATION, &on_false, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_case(xrt_builder *b, xrt_value index, const xrt_comp *branches,
			 const xrt_value *args, uint32_t n)
{
	static const char fn[] = "xrt_build_case";
	xrt_value ops[65];
	struct ir_instr *in;

	if (!b || b->err || !b->m)
		return none;
	if (!n || n > 64 || !branches || !args) {
		bld_fail(b, fn, NULL, "%u branches (1 to 64) or NULL arrays", n);
		return none;
	}
	ops[0] = index;
	memcpy(ops + 1, args, n * sizeof(*ops));
	in = bld_open(b, fn, XRT_OP_CONDITIONAL, ops, n + 1);
	if (!in)
		return none;
	bld_comps(b, fn, in, IR_ATTR_BRANCH_COMPUTATIONS, branches, n);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_call(xrt_builder *b, xrt_comp f, const xrt_value *args, uint32_t n)
{
	static const char fn[] = "xrt_build_call";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_CALL, args, n);

	if (!in)
		return none;
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_map(xrt_builder *b, const xrt_value *args, uint32_t n, xrt_comp f)
{
	static const char fn[] = "xrt_build_map";
	static const int64_t all[XRT_MAX_RANK] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_MAP, args, n);
	uint32_t rank;

	if (!in)
		return none;
	/* XLA's map runs over every dimension and says so. */
	rank = n ? bld_opnd(b, in, 0)->rank : 0;
	bld_ints(b, fn, in, IR_ATTR_DIMENSIONS, all, rank <= XRT_MAX_RANK ? rank : 0);
	bld_comps(b, fn, in, IR_ATTR_TO_APPLY, &f, 1);
	return bld_close(b, fn, in, true);
}

xrt_value xrt_build_rng(xrt_builder *b, xrt_value a, xrt_value bound,
			enum xrt_rng_distribution dist, const struct xrt_shape *shape)
{
	static const char fn[] = "xrt_build_rng";
	const xrt_value ops[2] = { a, bound };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_RNG, ops, 2);

	if (!in)
		return none;
	if ((unsigned int)dist > XRT_RNG_NORMAL)
		bld_fail(b, fn, in, "distribution %d unknown", dist);
	bld_word(b, fn, in, IR_ATTR_DISTRIBUTION,
		 dist == XRT_RNG_NORMAL ? "rng_normal" : "rng_uniform");
	bld_shape(b, fn, in, shape);
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_rng_bit_generator(xrt_builder *b, xrt_value state,
				      enum xrt_rng_algorithm algorithm,
				      const struct xrt_shape *bits)
{
	static const char fn[] = "xrt_build_rng_bit_generator";
	static const char *const names[] = { "rng_default", "rng_three_fry", "rng_philox" };
	struct ir_instr *in = bld_open(b, fn, XRT_OP_RNG_BIT_GENERATOR, &state, 1);
	struct xrt_shape pair[2];
	xrt_status *st;

	if (!in)
		return none;
	if ((unsigned int)algorithm > XRT_RNG_PHILOX)
		bld_fail(b, fn, in, "algorithm %d unknown", algorithm);
	else
		bld_word(b, fn, in, IR_ATTR_ALGORITHM, names[algorithm]);
	if (!b->err && bld_need(b, fn, in, bits, 1, "the shape of the bits")) {
		st = xrt_shape_validate(bits);
		if (st) {
			bld_fail(b, fn, in, "%s", xrt_status_message(st));
			xrt_status_free(st);
			return bld_close(b, fn, in, false);
		}
		pair[0] = *bld_opnd(b, in, 0);
		pair[1] = *bits;
		st = xrt_shape_init_tuple(&in->shape, b->a, pair, 2);
		if (st) {
			bld_fail(b, fn, in, "%s", xrt_status_message(st));
			xrt_status_free(st);
		}
	}
	return bld_close(b, fn, in, false);
}

xrt_value xrt_build_custom_call(xrt_builder *b, const char *target, const xrt_value *args,
				uint32_t n, const struct xrt_shape *shape)
{
	return xrt_build_custom_call_with(b, target, args, n, shape, NULL);
}

xrt_value xrt_build_custom_call_with(xrt_builder *b, const char *target, const xrt_value *args,
				     uint32_t n, const struct xrt_shape *shape,
				     const struct xrt_custom_call_config *config)
{
	static const char fn[] = "xrt_build_custom_call";
	struct ir_instr *in = bld_open(b, fn, XRT_OP_CUSTOM_CALL, args, n);
	const char *version = config ? ir_api_version_name(config->api_version) : NULL;

	if (!in)
		return none;
	bld_word(b, fn, in, IR_ATTR_CUSTOM_CALL_TARGET, target);
	if (config && !version)
		bld_fail(b, fn, in, "api_version %d is not one of XLA's (0 to %d)",
			 config->api_version, IR_API_VERSION_TYPED_FFI);
	if (config && config->api_version)
		bld_word(b, fn, in, IR_ATTR_API_VERSION, version);
	if (config && config->backend_config)
		bld_word(b, fn, in, IR_ATTR_BACKEND_CONFIG, config->backend_config);
	if (config && config->has_side_effect)
		bld_int(b, fn, in, IR_ATTR_CUSTOM_CALL_HAS_SIDE_EFFECT, 1);
	bld_shape(b, fn, in, shape);
	return bld_close(b, fn, in, false);
}
