/* SPDX-License-Identifier: MIT */
/*
 * The IR: a module of computations, each an ordered list of
 * instructions (operands come before their users), every instruction
 * with an opcode, a shape, operands, attributes and called computations.
 */
#ifndef XRT_IR_IR_H
#define XRT_IR_IR_H

#include <stdatomic.h>
#include <stdint.h>

#include <xrt/ir.h>
#include <xrt/literal.h>
#include <xrt/shape.h>

#include "ir/opcode.h"

/* Attribute keys, in the order they print. */
#define IR_ATTRS(X)                                                           \
	X(DIMENSIONS, "dimensions", INTS)                                     \
	X(INDEX, "index", INT)                                                \
	X(IOTA_DIMENSION, "iota_dimension", INT)                              \
	X(SLICE, "slice", SLICE)                                              \
	X(DYNAMIC_SLICE_SIZES, "dynamic_slice_sizes", INTS)                   \
	X(PADDING, "padding", PADDING)                                        \
	X(WINDOW, "window", WINDOW)                                           \
	X(DIM_LABELS, "dim_labels", WORD)                                     \
	X(FEATURE_GROUP_COUNT, "feature_group_count", INT)                    \
	X(BATCH_GROUP_COUNT, "batch_group_count", INT)                        \
	X(LHS_BATCH_DIMS, "lhs_batch_dims", INTS)                             \
	X(LHS_CONTRACTING_DIMS, "lhs_contracting_dims", INTS)                 \
	X(RHS_BATCH_DIMS, "rhs_batch_dims", INTS)                             \
	X(RHS_CONTRACTING_DIMS, "rhs_contracting_dims", INTS)                 \
	X(LHS_RAGGED_DIMS, "lhs_ragged_dims", INTS)                           \
	X(RHS_GROUP_DIMS, "rhs_group_dims", INTS)                             \
	X(OFFSET_DIMS, "offset_dims", INTS)                                   \
	X(COLLAPSED_SLICE_DIMS, "collapsed_slice_dims", INTS)                 \
	X(START_INDEX_MAP, "start_index_map", INTS)                           \
	X(UPDATE_WINDOW_DIMS, "update_window_dims", INTS)                     \
	X(INSERTED_WINDOW_DIMS, "inserted_window_dims", INTS)                 \
	X(SCATTER_DIMS_TO_OPERAND_DIMS, "scatter_dims_to_operand_dims", INTS) \
	X(OPERAND_BATCHING_DIMS, "operand_batching_dims", INTS)               \
	X(START_INDICES_BATCHING_DIMS, "start_indices_batching_dims", INTS)   \
	X(INPUT_BATCHING_DIMS, "input_batching_dims", INTS)                   \
	X(SCATTER_INDICES_BATCHING_DIMS, "scatter_indices_batching_dims", INTS) \
	X(INDEX_VECTOR_DIM, "index_vector_dim", INT)                          \
	X(SLICE_SIZES, "slice_sizes", INTS)                                   \
	X(INDICES_ARE_SORTED, "indices_are_sorted", BOOL)                     \
	X(UNIQUE_INDICES, "unique_indices", BOOL)                             \
	X(DIRECTION, "direction", WORD)                                       \
	X(TYPE, "type", WORD)                                                 \
	X(IS_STABLE, "is_stable", BOOL)                                       \
	X(K, "k", INT)                                                        \
	X(LARGEST, "largest", BOOL)                                           \
	X(FFT_TYPE, "fft_type", WORD)                                         \
	X(FFT_LENGTH, "fft_length", INTS)                                     \
	X(EPSILON, "epsilon", WORD)                                           \
	X(FEATURE_INDEX, "feature_index", INT)                                \
	X(LEFT_SIDE, "left_side", BOOL)                                       \
	X(LOWER, "lower", BOOL)                                               \
	X(UNIT_DIAGONAL, "unit_diagonal", BOOL)                               \
	X(TRANSPOSE_A, "transpose_a", WORD)                                   \
	X(EXPONENT_BITS, "exponent_bits", INT)                                \
	X(MANTISSA_BITS, "mantissa_bits", INT)                                \
	X(DISTRIBUTION, "distribution", WORD)                                 \
	X(ALGORITHM, "algorithm", WORD)                                       \
	X(CUSTOM_CALL_TARGET, "custom_call_target", STRING)                   \
	X(API_VERSION, "api_version", WORD)                                   \
	X(BACKEND_CONFIG, "backend_config", STRING)                           \
	X(CUSTOM_CALL_HAS_SIDE_EFFECT, "custom_call_has_side_effect", BOOL)   \
	X(OPERAND_LAYOUT_CONSTRAINTS, "operand_layout_constraints", INTS)     \
	X(REPLICA_GROUPS, "replica_groups", GROUPS)                           \
	X(SOURCE_TARGET_PAIRS, "source_target_pairs", GROUPS)                 \
	X(CHANNEL_ID, "channel_id", INT)                                      \
	X(USE_GLOBAL_DEVICE_IDS, "use_global_device_ids", BOOL)               \
	X(CONSTRAIN_LAYOUT, "constrain_layout", BOOL)                         \
	X(CONDITION, "condition", COMP)                                       \
	X(BODY, "body", COMP)                                                 \
	X(TRUE_COMPUTATION, "true_computation", COMP)                         \
	X(FALSE_COMPUTATION, "false_computation", COMP)                       \
	X(BRANCH_COMPUTATIONS, "branch_computations", COMPS)                  \
	X(SELECT, "select", COMP)                                             \
	X(SCATTER, "scatter", COMP)                                           \
	X(TO_APPLY, "to_apply", COMP)                                         \
	X(CALLS, "calls", COMP)

enum ir_attr_key {
#define X(e, s, k) IR_ATTR_##e,
	IR_ATTRS(X)
#undef X
	IR_ATTR_COUNT
};

/*
 * Value kinds: INTS a list; INT and BOOL one value; WORD a bare word
 * (LT, TOTALORDER, rng_uniform, b01f_01io->b01f); STRING quoted text;
 * SLICE (start, limit, stride) per dimension; PADDING (low, high,
 * interior) per dimension; WINDOW (size, stride, pad low, pad high,
 * lhs dilation, rhs dilation, reversal) per dimension; GROUPS lists of
 * ids ({{0,1},{2,3}}: replica groups, source-target pairs), each group
 * its length then its ids, n counting every int; COMP and COMPS
 * computation indices.  A custom call's operand_layout_constraints are
 * INTS: per operand its rank, then its layout's minor_to_major (HLO
 * text writes them as shapes).
 */
enum ir_attr_kind { IR_INTS, IR_INT, IR_BOOL, IR_WORD, IR_STRING, IR_SLICE,
		    IR_PADDING, IR_WINDOW, IR_GROUPS, IR_COMP, IR_COMPS };

#define IR_WINDOW_FIELDS 7

struct ir_attr {
	enum ir_attr_key key;
	uint32_t n;		/* dimensions or list length */
	int64_t *ints;		/* n values, or n * 3 / n * 7 for SLICE and friends */
	char *str;		/* WORD and STRING */
};

struct ir_instr {
	char *name;
	enum xrt_opcode op;
	struct xrt_shape shape;
	uint32_t *operands;	/* indices into the computation's instructions */
	uint32_t num_operands;
	struct ir_attr *attrs;	/* sorted by key, each key once */
	uint32_t num_attrs;
	xrt_literal *literal;	/* constant */
	int64_t parameter;	/* parameter number */
};

/*
 * Custom call @in's layout constraint on operand @k (verified), its
 * minor_to_major into @m2m; false where the operand has none.
 */
bool ir_operand_layout(const struct ir_instr *in, uint32_t k, uint8_t *m2m);

/*
 * A custom call's api_version word as XLA's CustomCallApiVersion number
 * (API_VERSION_ORIGINAL is 1, API_VERSION_TYPED_FFI 4); -1 if not one.
 */
int ir_api_version(const char *word);
#define IR_API_VERSION_TYPED_FFI 4
/* The word of version @v (0 to IR_API_VERSION_TYPED_FFI); NULL for others. */
const char *ir_api_version_name(int v);
/* Whether custom call @in is API_VERSION_TYPED_FFI (its backend_config a dictionary). */
bool ir_is_typed_ffi(const struct ir_instr *in);
/* Whether @in is a custom call with custom_call_has_side_effect=true: it runs, used or not. */
bool ir_has_side_effect(const struct ir_instr *in);

struct ir_comp {
	char *name;
	struct ir_instr *instrs;
	uint32_t num_instrs;
	uint32_t root;
	uint32_t num_params;
};

struct xrt_module {
	const struct xrt_allocator *alloc;
	char *name;
	struct ir_comp *comps;
	uint32_t num_comps;
	uint32_t entry;
	/*
	 * The header's replica_count and num_partitions: 0 where it does
	 * not state them, which means one.
	 */
	uint32_t replica_count, num_partitions;
	/*
	 * The fingerprint, computed on first use.  Modules do not change once
	 * made, so threads racing to compute it store the same value.
	 */
	_Atomic uint64_t fingerprint[2];
	atomic_bool have_fingerprint;
	/*
	 * The entry's parameter instructions by number, made on first use
	 * (xrt_module_param_shape()); a thread losing the race to publish
	 * its copy frees it.
	 */
	_Atomic(uint32_t *) entry_params;
};

/* The most replicas, or partitions, a module may state. */
#define IR_MAX_REPLICAS 65536
/* The most ints of a GROUPS attribute: every id of the most devices once, and the lengths. */
#define IR_MAX_GROUP_INTS (2 * IR_MAX_REPLICAS)

/*
 * Checks that @ints (@n of them) are GROUPS: each length non-negative and
 * followed by that many ids in [0, IR_MAX_REPLICAS * IR_MAX_REPLICAS).
 * Return: the number of groups, or -1.
 */
int64_t ir_groups_count(const int64_t *ints, uint32_t n);

const char *ir_attr_name(enum ir_attr_key key);
enum ir_attr_kind ir_attr_kind(enum ir_attr_key key);
/* Ints per element of an attribute of @kind (3 per slice dimension...); 0: text. */
uint32_t ir_attr_ints_per(enum ir_attr_kind kind);
/* The key named @name (@len bytes), or IR_ATTR_COUNT. */
enum ir_attr_key ir_attr_from_name(const char *name, size_t len);
/* The attribute @key of @in, or NULL. */
const struct ir_attr *ir_instr_attr(const struct ir_instr *in,
				    enum ir_attr_key key);

/* Where each dimension is, by its label in dim_labels. */
struct ir_conv_labels {
	int b, f, sp[XRT_MAX_RANK];	/* input */
	int o, i, ksp[XRT_MAX_RANK];	/* kernel */
	int osp[XRT_MAX_RANK], ob, of;	/* output */
	uint32_t nsp;			/* spatial dimensions */
};

struct fmtbuf;
/*
 * @n bytes of @s as an HLO string, quotes included: \" and \\ escaped,
 * bytes outside printable ASCII as \ooo, as XLA's printer writes them.
 */
void ir_put_string(struct fmtbuf *f, const char *s, size_t n);

/* Reads @s for arrays of @rank; -1 if it is not well formed. */
int ir_parse_conv_labels(const char *s, struct ir_conv_labels *l, uint32_t rank);

/*
 * Checks that the parameters of @c are numbered 0 .. num_params - 1, each
 * once: what every accessor of a module's parameters assumes, so every
 * reader runs it before it returns a module.  NULL, or INVALID_ARGUMENT
 * naming the computation and the number.  Linear in the instructions.
 */
xrt_status *ir_comp_check_params(const struct xrt_allocator *a, const struct ir_comp *c);

/*
 * The modes of XLA's collectives: which ids replica_groups (or
 * source_target_pairs) list.  Without a channel_id, replicas of the
 * device's partition; with one, partitions of its replica, except for
 * all-reduce, all-gather and reduce-scatter, whose ids are replicas of
 * every partition, or flattened device ids with use_global_device_ids.
 */
enum ir_coll_mode { IR_CROSS_REPLICA, IR_CROSS_PARTITION, IR_CROSS_REPLICA_AND_PARTITION,
		    IR_FLATTENED_ID };

enum ir_coll_mode ir_collective_mode(const struct ir_instr *in);
/* How many ids @mode has in @m: ids run from 0 to that less one. */
int64_t ir_collective_space(const xrt_module *m, enum ir_coll_mode mode);
/* The flattened id (replica * partitions + partition) of @mode's @id, seen from device (@r, @p). */
int64_t ir_collective_device(const xrt_module *m, enum ir_coll_mode mode, int64_t id,
			     int64_t r, int64_t p);
/*
 * The group device (@r, @p) meets at verified collective @in: flattened
 * ids into @devices (room for every device of @m), in the group's order,
 * *@me the device's own place among them.  A collective-permute's group
 * is every device of its ids.  Return: how many; 0 when no group holds
 * the device.
 */
int64_t ir_collective_group(const xrt_module *m, const struct ir_instr *in, int64_t r, int64_t p,
			    int64_t *devices, int64_t *me);
/* The device that collective-permute @in sends to (@r, @p); -1 when none does. */
int64_t ir_permute_source(const xrt_module *m, const struct ir_instr *in, int64_t r, int64_t p);

/*
 * NULL when @m runs as one replica of one partition; else UNIMPLEMENTED
 * naming @who (the compiler, the evaluator), until replicas run.
 */
xrt_status *ir_module_check_single(const xrt_module *m, const struct xrt_allocator *a,
				   const char *who);

void ir_attr_release(const struct xrt_allocator *a, struct ir_attr *attr);
void ir_instr_release(const struct xrt_allocator *a, struct ir_instr *in);
void ir_comp_release(const struct xrt_allocator *a, struct ir_comp *c);

#endif /* XRT_IR_IR_H */
