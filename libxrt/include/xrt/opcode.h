/* SPDX-License-Identifier: MIT */
/*
 * HLO opcodes, named as XLA prints them in HLO text.
 */
#ifndef XRT_OPCODE_H
#define XRT_OPCODE_H

#include <xrt/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * XRT_OPCODES(X) - every opcode as X(NAME, "hlo-spelling"), in the order
 * of enum xrt_opcode.  The unary opcodes run from ABS to IMAG, the
 * binary ones from ADD to SHIFT_RIGHT_LOGICAL, the collectives (those
 * that read other replicas' or partitions' values, and the ids) from
 * ALL_REDUCE to PARTITION_ID.  New opcodes go at the end.
 */
#define XRT_OPCODES(X)                                                        \
	X(PARAMETER, "parameter")                                             \
	X(CONSTANT, "constant")                                               \
	X(IOTA, "iota")                                                       \
	X(TUPLE, "tuple")                                                     \
	X(GET_TUPLE_ELEMENT, "get-tuple-element")                             \
	X(COPY, "copy")                                                       \
	X(BITCAST, "bitcast")                                                 \
	X(CONVERT, "convert")                                                 \
	X(BITCAST_CONVERT, "bitcast-convert")                                 \
	X(RESHAPE, "reshape")                                                 \
	X(BROADCAST, "broadcast")                                             \
	X(TRANSPOSE, "transpose")                                             \
	X(SLICE, "slice")                                                     \
	X(DYNAMIC_SLICE, "dynamic-slice")                                     \
	X(DYNAMIC_UPDATE_SLICE, "dynamic-update-slice")                       \
	X(CONCATENATE, "concatenate")                                         \
	X(PAD, "pad")                                                         \
	X(REVERSE, "reverse")                                                 \
	X(ABS, "abs")                                                         \
	X(NEGATE, "negate")                                                   \
	X(SIGN, "sign")                                                       \
	X(NOT, "not")                                                         \
	X(FLOOR, "floor")                                                     \
	X(CEIL, "ceil")                                                       \
	X(ROUND_AFZ, "round-nearest-afz")                                     \
	X(ROUND_EVEN, "round-nearest-even")                                   \
	X(EXP, "exponential")                                                 \
	X(EXPM1, "exponential-minus-one")                                     \
	X(LOG, "log")                                                         \
	X(LOG1P, "log-plus-one")                                              \
	X(LOGISTIC, "logistic")                                               \
	X(SQRT, "sqrt")                                                       \
	X(RSQRT, "rsqrt")                                                     \
	X(CBRT, "cbrt")                                                       \
	X(TANH, "tanh")                                                       \
	X(SINE, "sine")                                                       \
	X(COSINE, "cosine")                                                   \
	X(TAN, "tan")                                                         \
	X(ERF, "erf")                                                         \
	X(IS_FINITE, "is-finite")                                             \
	X(POPCNT, "popcnt")                                                   \
	X(CLZ, "count-leading-zeros")                                         \
	X(REAL, "real")                                                       \
	X(IMAG, "imag")                                                       \
	X(ADD, "add")                                                         \
	X(SUBTRACT, "subtract")                                               \
	X(MULTIPLY, "multiply")                                               \
	X(DIVIDE, "divide")                                                   \
	X(REMAINDER, "remainder")                                             \
	X(POWER, "power")                                                     \
	X(MAXIMUM, "maximum")                                                 \
	X(MINIMUM, "minimum")                                                 \
	X(ATAN2, "atan2")                                                     \
	X(COMPLEX, "complex")                                                 \
	X(AND, "and")                                                         \
	X(OR, "or")                                                           \
	X(XOR, "xor")                                                         \
	X(SHIFT_LEFT, "shift-left")                                           \
	X(SHIFT_RIGHT_ARITH, "shift-right-arithmetic")                        \
	X(SHIFT_RIGHT_LOGICAL, "shift-right-logical")                         \
	X(COMPARE, "compare")                                                 \
	X(SELECT, "select")                                                   \
	X(CLAMP, "clamp")                                                     \
	X(REDUCE, "reduce")                                                   \
	X(REDUCE_WINDOW, "reduce-window")                                     \
	X(SELECT_AND_SCATTER, "select-and-scatter")                           \
	X(DOT, "dot")                                                         \
	X(CONVOLUTION, "convolution")                                         \
	X(GATHER, "gather")                                                   \
	X(SCATTER, "scatter")                                                 \
	X(SORT, "sort")                                                       \
	X(TOPK, "topk")                                                       \
	X(WHILE, "while")                                                     \
	X(CONDITIONAL, "conditional")                                         \
	X(CALL, "call")                                                       \
	X(MAP, "map")                                                         \
	X(RNG, "rng")                                                         \
	X(RNG_BIT_GENERATOR, "rng-bit-generator")                             \
	X(REDUCE_PRECISION, "reduce-precision")                               \
	X(CUSTOM_CALL, "custom-call")                                         \
	X(ALL_REDUCE, "all-reduce")                                           \
	X(ALL_GATHER, "all-gather")                                           \
	X(REDUCE_SCATTER, "reduce-scatter")                                   \
	X(ALL_TO_ALL, "all-to-all")                                           \
	X(COLLECTIVE_PERMUTE, "collective-permute")                           \
	X(COLLECTIVE_BROADCAST, "collective-broadcast")                       \
	X(REPLICA_ID, "replica-id")                                           \
	X(PARTITION_ID, "partition-id")

/**
 * enum xrt_opcode - an HLO opcode: XRT_OP_ADD is "add", XRT_OP_ROUND_AFZ
 * "round-nearest-afz", ...; XRT_OP_COUNT is the number of them
 * @XRT_OPCODES: expands to XRT_OP_NAME for every NAME of XRT_OPCODES()
 *	above, in its order, then XRT_OP_COUNT
 */
enum xrt_opcode {
#define X(e, s) XRT_OP_##e,
	XRT_OPCODES(X)
#undef X
	XRT_OP_COUNT
};

/**
 * xrt_opcode_name() - the HLO spelling of an opcode
 * @op: the opcode
 *
 * Return: e.g. "get-tuple-element"; "unknown" for a value out of range.
 */
XRT_API const char *xrt_opcode_name(enum xrt_opcode op);

#ifdef __cplusplus
}
#endif

#endif /* XRT_OPCODE_H */
