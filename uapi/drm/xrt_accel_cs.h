/* SPDX-License-Identifier: MIT */
/*
 * The xrt_accel kernel ABI: the command stream.
 *
 * This part defines the command stream: the program format the compiler
 * emits and every executor (the kernel's soft engine, the host device,
 * the CUDA device) runs.  The kernel parses and validates it, so it is
 * ABI: fields are fixed-width, padding is explicit and must be zero,
 * every reserved word must be zero, and the version in the header says
 * which commands and fields a program may use.
 *
 * Layout of a program (all little-endian, every struct 8-byte aligned):
 *
 *   struct xrt_cs_header
 *   struct xrt_cs_slot[num_slots]        at slots_offset
 *   commands, back to back               from commands_offset
 *
 * A slot is an index into the job's list of buffers.  Commands name the
 * data they touch as views into slots; the validator checks every byte a
 * view can reach against the slot's declared size, so a job only needs
 * each bound buffer to be at least that large.
 *
 * See Documentation/command-stream.rst for the field-by-field reference.
 */
#ifndef _UAPI_DRM_XRT_ACCEL_CS_H
#define _UAPI_DRM_XRT_ACCEL_CS_H

#include <linux/types.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* "XRTP" read as a little-endian __u32. */
#define XRT_CS_MAGIC		0x50545258u
#define XRT_CS_VERSION		1u

/* Most dimensions of a view or an iteration space. */
#define XRT_CS_MAX_RANK		8
/* Most registers of an expression program. */
#define XRT_CS_MAX_REGS		32
/* Most operands of an expression command. */
#define XRT_CS_MAX_OPERANDS	16
/* Most instructions of an expression program. */
#define XRT_CS_MAX_INSTS	256

/**
 * enum xrt_cs_dtype - element types; the numbers of xrt.proto ElementType
 * @XRT_CS_PRED: boolean, one byte holding 0 or 1
 * @XRT_CS_S8: signed 8-bit integer
 * @XRT_CS_S16: signed 16-bit integer
 * @XRT_CS_S32: signed 32-bit integer
 * @XRT_CS_S64: signed 64-bit integer
 * @XRT_CS_U8: unsigned 8-bit integer
 * @XRT_CS_U16: unsigned 16-bit integer
 * @XRT_CS_U32: unsigned 32-bit integer
 * @XRT_CS_U64: unsigned 64-bit integer
 * @XRT_CS_F16: IEEE binary16
 * @XRT_CS_BF16: bfloat16 (the top half of a binary32)
 * @XRT_CS_F32: IEEE binary32
 * @XRT_CS_F64: IEEE binary64
 * @XRT_CS_C64: complex, (real, imaginary) binary32
 * @XRT_CS_C128: complex, (real, imaginary) binary64
 * @XRT_CS_S4: signed 4-bit integer
 * @XRT_CS_U4: unsigned 4-bit integer
 * @XRT_CS_S2: signed 2-bit integer
 * @XRT_CS_U2: unsigned 2-bit integer
 * @XRT_CS_F8E5M2: 8-bit float, bias 15, IEEE infinities and NaNs
 * @XRT_CS_F8E4M3FN: 8-bit float, bias 7, no infinities, NaN 0x7f/0xff
 * @XRT_CS_F8E4M3B11FNUZ: 8-bit float, bias 11, no infinities or -0, NaN 0x80
 * @XRT_CS_F8E5M2FNUZ: 8-bit float, bias 16, no infinities or -0, NaN 0x80
 * @XRT_CS_F8E4M3FNUZ: 8-bit float, bias 8, no infinities or -0, NaN 0x80
 * @XRT_CS_F8E4M3: 8-bit float, bias 7, IEEE infinities and NaNs
 * @XRT_CS_F8E3M4: 8-bit float, bias 3, IEEE infinities and NaNs
 * @XRT_CS_F8E8M0FNU: unsigned power of two 2^(code - 127), NaN 0xff
 * @XRT_CS_F4E2M1FN: 4-bit float, bias 1, no infinities or NaNs
 *
 * The types from S4 on take one byte per element, the value in the
 * low bits: loads read those bits only, stores clear the rest.  The
 * integers wrap to their width like the others; the small floats
 * compute as f32 rounded to their format after every instruction, as
 * f16 and bf16 do, with the rounding Documentation/command-stream.rst
 * gives (REDUCE's sums and products in f32, rounded once).  DOT, RNG
 * and SORT's keys do not take them.
 */
enum xrt_cs_dtype {
	XRT_CS_PRED = 1,	/* one byte, 0 or 1 */
	XRT_CS_S8 = 2,
	XRT_CS_S16 = 3,
	XRT_CS_S32 = 4,
	XRT_CS_S64 = 5,
	XRT_CS_U8 = 6,
	XRT_CS_U16 = 7,
	XRT_CS_U32 = 8,
	XRT_CS_U64 = 9,
	XRT_CS_F16 = 10,
	XRT_CS_BF16 = 11,
	XRT_CS_F32 = 12,
	XRT_CS_F64 = 13,
	XRT_CS_C64 = 14,	/* (real, imaginary) f32 */
	XRT_CS_C128 = 15,	/* (real, imaginary) f64 */
	XRT_CS_S4 = 17,		/* 17 on: one byte each, the value in the low bits */
	XRT_CS_U4 = 18,
	XRT_CS_S2 = 19,
	XRT_CS_U2 = 20,
	XRT_CS_F8E5M2 = 21,
	XRT_CS_F8E4M3FN = 22,
	XRT_CS_F8E4M3B11FNUZ = 23,
	XRT_CS_F8E5M2FNUZ = 24,
	XRT_CS_F8E4M3FNUZ = 25,
	XRT_CS_F8E4M3 = 26,
	XRT_CS_F8E3M4 = 27,
	XRT_CS_F8E8M0FNU = 28,
	XRT_CS_F4E2M1FN = 29,
};

/**
 * struct xrt_cs_header - the start of every program
 * @magic: XRT_CS_MAGIC
 * @version: XRT_CS_VERSION this program was written for
 * @header_size: sizeof(struct xrt_cs_header) of that version
 * @flags: none defined; 0
 * @size: bytes of the whole program
 * @num_slots: number of buffer slots the job binds
 * @num_commands: number of commands
 * @slots_offset: byte offset of the slot table
 * @commands_offset: byte offset of the first command
 * @reserved: 0
 */
struct xrt_cs_header {
	__u32 magic;
	__u32 version;
	__u32 header_size;
	__u32 flags;
	__u64 size;
	__u32 num_slots;
	__u32 num_commands;
	__u64 slots_offset;
	__u64 commands_offset;
	__u64 reserved[3];
};

#define XRT_CS_SLOT_READ	0x1u	/* commands may read the slot */
#define XRT_CS_SLOT_WRITE	0x2u	/* commands may write the slot */
#define XRT_CS_SLOT_FLAGS	(XRT_CS_SLOT_READ | XRT_CS_SLOT_WRITE)

/**
 * struct xrt_cs_slot - a buffer the job binds
 * @size: bytes the bound buffer must have at least
 * @flags: XRT_CS_SLOT_*; a command may only read a READ slot and write a
 *         WRITE slot
 * @reserved: 0
 */
struct xrt_cs_slot {
	__u64 size;
	__u32 flags;
	__u32 reserved;
};

/**
 * enum xrt_cs_op - commands
 * @XRT_CS_OP_COPY: struct xrt_cs_copy
 * @XRT_CS_OP_FILL: struct xrt_cs_fill
 * @XRT_CS_OP_EWISE: struct xrt_cs_ewise
 * @XRT_CS_OP_REDUCE: struct xrt_cs_reduce
 * @XRT_CS_OP_DOT: struct xrt_cs_dot
 * @XRT_CS_OP_GATHER: struct xrt_cs_gather
 * @XRT_CS_OP_SCATTER: struct xrt_cs_scatter
 * @XRT_CS_OP_DYNAMIC_SLICE: struct xrt_cs_dynamic_slice
 * @XRT_CS_OP_DYNAMIC_UPDATE_SLICE: struct xrt_cs_dynamic_slice
 * @XRT_CS_OP_SORT: struct xrt_cs_sort
 * @XRT_CS_OP_RNG: struct xrt_cs_rng
 * @XRT_CS_OP_JUMP: struct xrt_cs_jump
 * @XRT_CS_OP_SCAN: struct xrt_cs_scan
 * @XRT_CS_OP_CALL: struct xrt_cs_call
 * @XRT_CS_OP_COLLECTIVE: struct xrt_cs_collective
 */
enum xrt_cs_op {
	XRT_CS_OP_COPY = 1,
	XRT_CS_OP_FILL = 2,
	XRT_CS_OP_EWISE = 3,
	XRT_CS_OP_REDUCE = 4,
	XRT_CS_OP_DOT = 5,
	XRT_CS_OP_GATHER = 6,
	XRT_CS_OP_SCATTER = 7,
	XRT_CS_OP_DYNAMIC_SLICE = 8,
	XRT_CS_OP_DYNAMIC_UPDATE_SLICE = 9,
	XRT_CS_OP_SORT = 10,
	XRT_CS_OP_RNG = 11,
	XRT_CS_OP_JUMP = 12,
	XRT_CS_OP_SCAN = 13,
	XRT_CS_OP_CALL = 14,
	XRT_CS_OP_COLLECTIVE = 15,
};

/**
 * struct xrt_cs_cmd - the start of every command
 * @op: enum xrt_cs_op
 * @flags: per command; undefined bits must be 0
 * @size: bytes of the whole command, a multiple of 8; the next command
 *        starts right after it
 */
struct xrt_cs_cmd {
	__u16 op;
	__u16 flags;
	__u32 size;
};

/**
 * struct xrt_cs_view - a strided tensor inside a slot
 * @slot: index into the slot table
 * @dtype: enum xrt_cs_dtype
 * @rank: number of dimensions, at most XRT_CS_MAX_RANK
 * @pad: 0
 * @offset: byte offset of element {0, ..., 0}; a multiple of the element
 *          size
 * @dims: the first @rank entries are the dimensions; the rest are 0
 * @strides: the first @rank entries are strides in elements (negative
 *           reverses, 0 broadcasts); the rest are 0
 *
 * Every element the view can reach must lie inside the slot's size, and
 * @offset must not pass it even when a dimension is 0.  Each stride, in
 * bytes, and each dimension's extent (dim - 1) x abs(stride) are at most
 * 2^62, as are the elements of the view and the reach of its positive
 * and of its negative strides.
 */
struct xrt_cs_view {
	__u32 slot;
	__u8 dtype;
	__u8 rank;
	__u16 pad;
	__u64 offset;
	__u64 dims[XRT_CS_MAX_RANK];
	__s64 strides[XRT_CS_MAX_RANK];
};

/**
 * struct xrt_cs_scalar - one element read from a slot (an index, a
 *                        predicate)
 * @slot: index into the slot table
 * @dtype: enum xrt_cs_dtype; each command says which it takes
 * @pad: 0
 * @offset: byte offset, a multiple of the element size
 */
struct xrt_cs_scalar {
	__u32 slot;
	__u8 dtype;
	__u8 pad[3];
	__u64 offset;
};

/**
 * struct xrt_cs_copy - dst[i] = src[i] over one iteration space
 * @cmd: op XRT_CS_OP_COPY, flags 0
 * @reserved: 0
 * @dst: written; same dtype, rank and dims as @src
 * @src: read
 *
 * Transposes, slices, broadcasts (stride 0), reversals (negative strides)
 * and the pieces of concatenate and pad are all copies.  @dst must not
 * overlap @src.
 */
struct xrt_cs_copy {
	struct xrt_cs_cmd cmd;
	__u64 reserved;
	struct xrt_cs_view dst;
	struct xrt_cs_view src;
};

#define XRT_CS_FILL_CONSTANT	0	/* every element = value */
#define XRT_CS_FILL_IOTA	1	/* element = its index along iota_dim */
#define XRT_CS_FILL_REPLICA_ID	2	/* element = the job's replica id */
#define XRT_CS_FILL_PARTITION_ID	3	/* element = the job's partition id */

/**
 * struct xrt_cs_fill - write a constant or an iota
 * @cmd: op XRT_CS_OP_FILL, flags 0
 * @mode: XRT_CS_FILL_*
 * @iota_dim: IOTA: the dimension whose index is written (converted to
 *            the dtype as by CONVERT); the other modes: 0
 * @dst: written
 * @value: CONSTANT: the element's bytes, little-endian, in the low
 *         bytes; the rest 0.  The other modes: all 0.
 *
 * REPLICA_ID and PARTITION_ID write the id the executor runs the job as
 * (its place among the devices running one program together; 0 when
 * it runs alone), converted as IOTA converts an index; not pred.
 */
struct xrt_cs_fill {
	struct xrt_cs_cmd cmd;
	__u32 mode;
	__u32 iota_dim;
	struct xrt_cs_view dst;
	__u64 value[2];
};

/**
 * struct xrt_cs_operand - an operand of an expression command: a view
 *                         whose dims are the command's iteration space
 * @slot: index into the slot table
 * @dtype: enum xrt_cs_dtype
 * @flags: XRT_CS_OPERAND_IN (LOADed) or XRT_CS_OPERAND_OUT (STOREd)
 * @pad: 0
 * @offset: byte offset of element {0, ..., 0}
 * @strides: in elements, over the command's dims; entries past its rank 0
 */
struct xrt_cs_operand {
	__u32 slot;
	__u8 dtype;
	__u8 flags;
	__u16 pad;
	__u64 offset;
	__s64 strides[XRT_CS_MAX_RANK];
};

#define XRT_CS_OPERAND_IN	1
#define XRT_CS_OPERAND_OUT	2

/**
 * enum xrt_cs_ew_op - expression instructions
 * @XRT_CS_EW_LOAD: dst = operand[a] at the current element; dtype is the
 *                  operand's
 * @XRT_CS_EW_CONST: dst = the value in imm (bytes as in FILL)
 * @XRT_CS_EW_UNARY: dst = fn(a); enum xrt_cs_ew_unary
 * @XRT_CS_EW_BINARY: dst = fn(a, b); enum xrt_cs_ew_binary; a, b and dst
 *                    of one dtype (except COMPLEX: f32/f64 in, c64/c128 out)
 * @XRT_CS_EW_COMPARE: dst (pred) = a fn b; enum xrt_cs_ew_compare
 * @XRT_CS_EW_SELECT: dst = a ? b : c; a is pred
 * @XRT_CS_EW_CONVERT: dst = a converted to dtype (floats to integers
 *                     truncate and saturate, NaN gives 0; integers wrap;
 *                     to pred is != 0; complex to real takes the real part)
 * @XRT_CS_EW_BITCAST: dst = a's bits as dtype, of the same size
 * @XRT_CS_EW_STORE: operand[a] = register b, converted by nothing: the
 *                   operand's dtype must be the register's
 */
enum xrt_cs_ew_op {
	XRT_CS_EW_LOAD = 1,
	XRT_CS_EW_CONST = 2,
	XRT_CS_EW_UNARY = 3,
	XRT_CS_EW_BINARY = 4,
	XRT_CS_EW_COMPARE = 5,
	XRT_CS_EW_SELECT = 6,
	XRT_CS_EW_CONVERT = 7,
	XRT_CS_EW_BITCAST = 8,
	XRT_CS_EW_STORE = 9,
};

/** enum xrt_cs_ew_unary - unary functions, with XLA's semantics */
enum xrt_cs_ew_unary {
	XRT_CS_UN_ABS = 1,
	XRT_CS_UN_NEG = 2,
	XRT_CS_UN_SIGN = 3,
	XRT_CS_UN_NOT = 4,		/* pred: logical; integers: bitwise */
	XRT_CS_UN_FLOOR = 5,
	XRT_CS_UN_CEIL = 6,
	XRT_CS_UN_ROUND_AFZ = 7,	/* halves away from zero */
	XRT_CS_UN_ROUND_EVEN = 8,	/* halves to even */
	XRT_CS_UN_EXP = 9,
	XRT_CS_UN_EXPM1 = 10,
	XRT_CS_UN_LOG = 11,
	XRT_CS_UN_LOG1P = 12,
	XRT_CS_UN_LOGISTIC = 13,
	XRT_CS_UN_SQRT = 14,
	XRT_CS_UN_RSQRT = 15,
	XRT_CS_UN_CBRT = 16,
	XRT_CS_UN_TANH = 17,
	XRT_CS_UN_SIN = 18,
	XRT_CS_UN_COS = 19,
	XRT_CS_UN_TAN = 20,
	XRT_CS_UN_ERF = 21,
	XRT_CS_UN_IS_FINITE = 22,	/* float in, pred out */
	XRT_CS_UN_POPCNT = 23,
	XRT_CS_UN_CLZ = 24,
	XRT_CS_UN_REAL = 25,		/* complex in, real out */
	XRT_CS_UN_IMAG = 26,		/* complex in, real out */
};

/** enum xrt_cs_ew_binary - binary functions, with XLA's semantics */
enum xrt_cs_ew_binary {
	XRT_CS_BIN_ADD = 1,
	XRT_CS_BIN_SUB = 2,
	XRT_CS_BIN_MUL = 3,
	XRT_CS_BIN_DIV = 4,	/* integers: truncating; x/0 = -1 (all ones) */
	XRT_CS_BIN_REM = 5,	/* sign of the dividend; x%0 = x */
	XRT_CS_BIN_POW = 6,
	XRT_CS_BIN_MAX = 7,	/* floats: NaN wins */
	XRT_CS_BIN_MIN = 8,	/* floats: NaN wins */
	XRT_CS_BIN_ATAN2 = 9,
	XRT_CS_BIN_COMPLEX = 10,	/* (real, imag) -> complex */
	XRT_CS_BIN_AND = 11,
	XRT_CS_BIN_OR = 12,
	XRT_CS_BIN_XOR = 13,
	XRT_CS_BIN_SHL = 14,	/* shifts >= width give 0 */
	XRT_CS_BIN_SHR_LOGICAL = 15,
	XRT_CS_BIN_SHR_ARITH = 16,	/* shifts >= width give the sign fill */
};

/**
 * enum xrt_cs_ew_compare - comparisons; floats use IEEE order, or the
 * total order (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN) with
 * XRT_CS_CMP_TOTAL_ORDER added
 * @XRT_CS_CMP_EQ: a == b
 * @XRT_CS_CMP_NE: a != b
 * @XRT_CS_CMP_LT: a < b
 * @XRT_CS_CMP_LE: a <= b
 * @XRT_CS_CMP_GT: a > b
 * @XRT_CS_CMP_GE: a >= b
 */
enum xrt_cs_ew_compare {
	XRT_CS_CMP_EQ = 1,
	XRT_CS_CMP_NE = 2,
	XRT_CS_CMP_LT = 3,
	XRT_CS_CMP_LE = 4,
	XRT_CS_CMP_GT = 5,
	XRT_CS_CMP_GE = 6,
};

#define XRT_CS_CMP_TOTAL_ORDER	0x80

/**
 * struct xrt_cs_ew_inst - one instruction of an expression program
 * @op: enum xrt_cs_ew_op
 * @fn: UNARY, BINARY, COMPARE: which function; otherwise 0
 * @dtype: the dtype of the result register (STORE: 0)
 * @dst: the register written (STORE: 0)
 * @a: first source register, or the operand index (LOAD, STORE)
 * @b: second source register (STORE: the register stored)
 * @c: third source register (SELECT)
 * @pad: 0
 * @imm: CONST: the value, as FILL's value; otherwise 0
 *
 * Registers are typed by the instruction that writes them; a register
 * must be written before it is read, and every use must match its type.
 * f16 and bf16 registers hold values rounded to their format after every
 * instruction.
 */
struct xrt_cs_ew_inst {
	__u8 op;
	__u8 fn;
	__u8 dtype;
	__u8 dst;
	__u8 a;
	__u8 b;
	__u8 c;
	__u8 pad;
	__u64 imm[2];
};

/**
 * struct xrt_cs_ewise - a fused elementwise kernel
 * @cmd: op XRT_CS_OP_EWISE, flags 0; size covers the arrays that follow
 * @rank: rank of the iteration space
 * @num_operands: operands that follow, 1..XRT_CS_MAX_OPERANDS
 * @num_regs: registers the program uses, 1..XRT_CS_MAX_REGS
 * @pad: 0
 * @num_insts: instructions that follow the operands, 1..XRT_CS_MAX_INSTS
 * @dims: the iteration space; entries past @rank 0
 *
 * Followed by struct xrt_cs_operand[num_operands], then struct
 * xrt_cs_ew_inst[num_insts].  For every element of the iteration space
 * the program runs from the first instruction to the last.  Every OUT
 * operand is stored exactly once; an OUT operand must not overlap any
 * other operand unless it is the same view of the same slot as an IN
 * operand (in-place update).
 */
struct xrt_cs_ewise {
	struct xrt_cs_cmd cmd;
	__u8 rank;
	__u8 num_operands;
	__u8 num_regs;
	__u8 pad;
	__u32 num_insts;
	__u64 dims[XRT_CS_MAX_RANK];
};

/** enum xrt_cs_reduce_op - how REDUCE combines */
enum xrt_cs_reduce_op {
	XRT_CS_RED_SUM = 1,
	XRT_CS_RED_PROD = 2,
	XRT_CS_RED_MIN = 3,	/* floats: NaN wins */
	XRT_CS_RED_MAX = 4,	/* floats: NaN wins */
	XRT_CS_RED_AND = 5,
	XRT_CS_RED_OR = 6,
	XRT_CS_RED_ARGMIN = 7,	/* value and first index of the minimum */
	XRT_CS_RED_ARGMAX = 8,	/* value and first index of the maximum */
};

#define XRT_CS_REDUCE_SEGMENT	1024
#define XRT_CS_REDUCE_LANES	8

/**
 * struct xrt_cs_reduce - reduce an expression over some axes
 * @cmd: op XRT_CS_OP_REDUCE, flags 0; size covers the arrays that follow
 * @op: enum xrt_cs_reduce_op
 * @rank: rank of the input iteration space
 * @num_operands: operands that follow: the IN operands of the
 *                expression, then the OUT operands: the result, and for
 *                ARGMIN/ARGMAX the index (s32 or s64)
 * @num_regs: registers of the expression program
 * @reduce_mask: bit d set: dimension d is reduced
 * @num_insts: instructions of the expression program
 * @value_reg: the register holding the value to reduce
 * @pad: 0
 * @dims: the input iteration space
 * @init: the initial value, as FILL's value, of the result's dtype
 *
 * Followed by struct xrt_cs_operand[num_operands] (OUT operands have
 * stride 0 along reduced dimensions) and struct
 * xrt_cs_ew_inst[num_insts] (no STOREs).
 *
 * The order of accumulation is part of the format, so every executor
 * gets the same bits: for each output element the reduced elements are
 * taken in row-major order of the reduced dimensions and cut into
 * segments of XRT_CS_REDUCE_SEGMENT; within a segment element j goes to
 * lane j % XRT_CS_REDUCE_LANES, each lane starting from the identity of
 * @op; the lanes combine as a balanced tree ((0+1)+(2+3))+((4+5)+(6+7));
 * the result is init combined with segment 0, then with segment 1, and
 * so on.  ARGMIN/ARGMAX keep the first index of the extreme; NaN counts
 * as the extreme.
 */
struct xrt_cs_reduce {
	struct xrt_cs_cmd cmd;
	__u8 op;
	__u8 rank;
	__u8 num_operands;
	__u8 num_regs;
	__u32 reduce_mask;
	__u32 num_insts;
	__u8 value_reg;
	__u8 pad[3];
	__u64 dims[XRT_CS_MAX_RANK];
	__u64 init[2];
};

/**
 * struct xrt_cs_matrix - an operand of DOT: a batch of 2-D matrices
 * @slot: index into the slot table
 * @dtype: enum xrt_cs_dtype
 * @pad: 0
 * @offset: byte offset of element [0][0][0]
 * @batch_stride: elements between batches
 * @row_stride: elements between rows
 * @col_stride: elements between columns
 */
struct xrt_cs_matrix {
	__u32 slot;
	__u8 dtype;
	__u8 pad[3];
	__u64 offset;
	__s64 batch_stride;
	__s64 row_stride;
	__s64 col_stride;
};

#define XRT_CS_DOT_ACCUMULATE	0x1u	/* out += lhs x rhs */
/* Longest k: what one output element may cost bounds the engine's items. */
#define XRT_CS_DOT_MAX_K	0x200000ull	/* 2^21 */

/**
 * struct xrt_cs_dot - batched matrix multiply
 * @cmd: op XRT_CS_OP_DOT, flags XRT_CS_DOT_*
 * @batch: number of matrices
 * @m: rows of lhs and out
 * @n: columns of rhs and out
 * @k: columns of lhs, rows of rhs; at most XRT_CS_DOT_MAX_K
 * @lhs: [batch][m][k]
 * @rhs: [batch][k][n]
 * @out: [batch][m][n]; must not overlap lhs or rhs
 * @reserved: 0
 * @pad: 0
 *
 * lhs and rhs have one dtype.  Accumulation is in f32 for f16, bf16 and
 * f32, f64 for f64, the complex type for complex, and the output type for
 * integers (wrapping).  out has the input dtype, or f32 for f16/bf16
 * inputs.  Each output element is its start value (0, or out with
 * ACCUMULATE) plus the products for k = 0, 1, ... added one at a time in
 * that order, without fused multiply-add, so every executor gets the same
 * bits.
 */
struct xrt_cs_dot {
	struct xrt_cs_cmd cmd;
	__u32 reserved;
	__u32 pad;
	__u64 batch;
	__u64 m;
	__u64 n;
	__u64 k;
	struct xrt_cs_matrix lhs;
	struct xrt_cs_matrix rhs;
	struct xrt_cs_matrix out;
};

/**
 * struct xrt_cs_gather - slices of an operand at indices read from memory
 * @cmd: op XRT_CS_OP_GATHER, flags 0
 * @num_index_dims: k, the length of each index vector, 1..8
 * @pad: 0
 * @operand: the array sliced, rank r
 * @indices: [n, k] integers (any integer type)
 * @out: [n, s_0, ..., s_(r-1)]: the slices; its dims after the first are
 *       the slice sizes, each at most the operand's; the operand's dtype
 * @index_map: index_map[j] is the operand dimension that index vector
 *             entry j gives the start of; distinct, below r; rest 0
 *
 * For each b < n the start is 0 in every dimension but index_map[j],
 * where it is indices[b][j]; each start is then clamped to [0, dim -
 * size], so a slice never leaves the operand (XLA's rule).
 */
struct xrt_cs_gather {
	struct xrt_cs_cmd cmd;
	__u32 num_index_dims;
	__u32 pad;
	struct xrt_cs_view operand;
	struct xrt_cs_view indices;
	struct xrt_cs_view out;
	__u8 index_map[XRT_CS_MAX_RANK];
};

#define XRT_CS_SCATTER_REPLACE	0
/* Other combiners are the enum xrt_cs_reduce_op values SUM .. OR. */

#define XRT_CS_SCATTER_SKIP	0	/* a window out of bounds is skipped */
#define XRT_CS_SCATTER_CLAMP	1	/* starts are clamped, as in GATHER */

/**
 * struct xrt_cs_scatter - combine update windows into an operand
 * @cmd: op XRT_CS_OP_SCATTER, flags 0
 * @num_index_dims: k, 1..8
 * @combiner: XRT_CS_SCATTER_REPLACE, or an xrt_cs_reduce_op from SUM to OR
 * @mode: XRT_CS_SCATTER_SKIP (XLA's rule) or XRT_CS_SCATTER_CLAMP
 * @pad: 0
 * @operand: updated in place, rank r (read and written)
 * @indices: [n, k] integers
 * @updates: [n, w_0, ..., w_(r-1)], the operand's dtype
 * @index_map: as in GATHER
 *
 * Windows are applied in order of b, each element with the combiner
 * (floats round to their type; integers wrap), so overlapping windows
 * give one defined result.  @updates and @indices must not overlap the
 * operand.
 */
struct xrt_cs_scatter {
	struct xrt_cs_cmd cmd;
	__u32 num_index_dims;
	__u8 combiner;
	__u8 mode;
	__u16 pad;
	struct xrt_cs_view operand;
	struct xrt_cs_view indices;
	struct xrt_cs_view updates;
	__u8 index_map[XRT_CS_MAX_RANK];
};

/**
 * struct xrt_cs_dynamic_slice - a slice at starts read from memory
 * @cmd: op XRT_CS_OP_DYNAMIC_SLICE (slice = operand[start:]) or
 *       XRT_CS_OP_DYNAMIC_UPDATE_SLICE (operand[start:] = slice, in
 *       place); flags 0
 * @reserved: 0
 * @operand: the full array, rank r
 * @slice: the slice, rank r, each dim at most the operand's; same dtype;
 *         written by DYNAMIC_SLICE, read by DYNAMIC_UPDATE_SLICE; must
 *         not overlap the operand
 * @starts: r integer scalars (any integer type), clamped to [0, dim -
 *          size]; entries past r all 0
 */
struct xrt_cs_dynamic_slice {
	struct xrt_cs_cmd cmd;
	__u64 reserved;
	struct xrt_cs_view operand;
	struct xrt_cs_view slice;
	struct xrt_cs_scalar starts[XRT_CS_MAX_RANK];
};

#define XRT_CS_SORT_DESCENDING	0x1u
/* float keys by value: -0 equals +0, NaNs equal, after every number */
#define XRT_CS_SORT_BY_VALUE	0x2u
/* float keys as IEEE numbers, sorted by the evaluator's merge sort */
#define XRT_CS_SORT_IEEE_MERGE	0x4u

/**
 * struct xrt_cs_sort - stable sort along one dimension, in place
 * @cmd: op XRT_CS_OP_SORT, flags XRT_CS_SORT_*
 * @rank: rank of every operand
 * @num_operands: 1..8: keys first, then values moved along with them
 * @num_keys: how many leading operands are keys, compared
 *            lexicographically; 1..num_operands
 * @dim: the dimension sorted, below @rank
 * @pad: 0
 * @dims: the shape of every operand; the sorted dimension at most 2^26
 * @operands: @num_operands operands over @dims (flags IN | OUT: each is
 *            read and written in place); apart from each other
 *
 * Keys compare by value (floats by total order: -NaN < -inf < -0 < +0
 * < inf < NaN; with XRT_CS_SORT_BY_VALUE, -0 and +0 are equal and so
 * are all NaNs, which come after every number); equal keys keep their
 * order.  XRT_CS_SORT_DESCENDING reverses the order, not the ties.
 *
 * XRT_CS_SORT_IEEE_MERGE (not with BY_VALUE) compares as an HLO
 * comparator "lt(0) or (eq(0) and (lt(1) or ...))" over IEEE numbers
 * does: -0 equals +0, and a NaN is neither less than nor equal to
 * anything (GT for DESCENDING).  With NaNs that is no strict weak order,
 * so the result depends on the algorithm, which is then fixed: a stable
 * top-down merge sort (the first n / 2 elements and the rest sorted,
 * then merged, the right one taken first only when it compares less),
 * as the reference evaluator sorts.
 */
struct xrt_cs_sort {
	struct xrt_cs_cmd cmd;
	__u8 rank;
	__u8 num_operands;
	__u8 num_keys;
	__u8 dim;
	__u32 pad;
	__u64 dims[XRT_CS_MAX_RANK];
	struct xrt_cs_operand operands[8];
};

#define XRT_CS_RNG_BITS		0	/* raw bits: u32 or u64 */
#define XRT_CS_RNG_UNIFORM	1	/* floats in [params[0], params[1]) */
#define XRT_CS_RNG_NORMAL	2	/* floats, mean params[0], stddev params[1] */

/**
 * struct xrt_cs_rng - counter-based random numbers
 * @cmd: op XRT_CS_OP_RNG, flags 0 or XRT_CS_RNG_STREAM_AT
 * @distribution: XRT_CS_RNG_*
 * @pad: 0
 * @stream: tells the RNG commands of a program apart; 0 with
 *          XRT_CS_RNG_STREAM_AT
 * @dst: written; u32/u64 for BITS; f16, bf16, f32 or f64 otherwise
 * @params: UNIFORM and NORMAL: two f64 bit patterns (low < high; stddev
 *          >= 0); BITS: 0
 *
 * Element i (row-major) takes Philox-4x32-10 with key = the execution's
 * seed and counter = (i, stream): the same seed gives the same numbers
 * on every executor and schedule.  See the documentation for how the
 * words become values.
 *
 * With XRT_CS_RNG_STREAM_AT, one struct xrt_cs_scalar of dtype u64
 * follows the command (its size grows by that much) and the stream is
 * the value it points at when the command runs: an RNG inside a loop
 * then draws new numbers on each pass, as a program counts its draws.
 * @dst must not overlap that scalar.
 */
struct xrt_cs_rng {
	struct xrt_cs_cmd cmd;
	__u32 distribution;
	__u32 pad;
	__u64 stream;
	struct xrt_cs_view dst;
	__u64 params[2];
};

/* RNG flag: the stream is read from the struct xrt_cs_scalar after it. */
#define XRT_CS_RNG_STREAM_AT	0x1u

/* Longest dimension SCAN takes: its phases are counted in 32 bits. */
#define XRT_CS_SCAN_MAX_LEN	0x100000000000ull	/* 2^44 */

/**
 * struct xrt_cs_scan - running reduction along one dimension
 * @cmd: op XRT_CS_OP_SCAN, flags 0
 * @op: enum xrt_cs_reduce_op, SUM to OR (not the arg- ones), on the
 *      types REDUCE takes it for
 * @dim: the dimension scanned, below the rank of @in; at most
 *       XRT_CS_SCAN_MAX_LEN long
 * @pad: 0
 * @reserved: 0
 * @init: the running value before each line's first element, as FILL's
 *        value, of @in's dtype
 * @in: the operand
 * @out: the result: @in's dtype and dims; must not overlap @in
 *
 * Each line along @dim is scanned from index 0 up (a negative stride
 * scans from the other end): acc = init, then for every element acc =
 * fn(acc, in[j]) and out[j] = acc, where fn is @op's element-wise binary
 * function (ADD, MUL, MIN, MAX, AND, OR) with its EWISE semantics: floats
 * rounded to their type at each step (16-bit floats through f32),
 * integers wrapping.  Every executor gets the same bits.
 */
struct xrt_cs_scan {
	struct xrt_cs_cmd cmd;
	__u8 op;
	__u8 dim;
	__u16 pad;
	__u32 reserved;
	__u64 init[2];
	struct xrt_cs_view in;
	struct xrt_cs_view out;
};

#define XRT_CS_JUMP_ALWAYS	0	/* jump */
#define XRT_CS_JUMP_IF_TRUE	1	/* jump when the predicate is 1 */
#define XRT_CS_JUMP_IF_FALSE	2	/* jump when the predicate is 0 */

/**
 * struct xrt_cs_jump - continue at another command
 * @cmd: op XRT_CS_OP_JUMP, flags 0
 * @mode: XRT_CS_JUMP_*
 * @target: index of the next command; num_commands ends the program
 * @pred: the predicate (pred dtype); all 0 for ALWAYS
 *
 * A program with backward jumps may loop forever: executors bound it
 * with a timeout.
 */
struct xrt_cs_jump {
	struct xrt_cs_cmd cmd;
	__u32 mode;
	__u32 target;
	struct xrt_cs_scalar pred;
};

#define XRT_CS_CALL_MAX_VIEWS	256

/**
 * struct xrt_cs_call - hand arrays to code of the process that submits
 * @cmd: op XRT_CS_OP_CALL, flags 0; size is sizeof(struct xrt_cs_call)
 *       plus that of the views that follow
 * @target: which of its calls the executor makes (an index into a table
 *          it keeps beside the program; the program does not say what
 *          runs)
 * @num_args: views the call reads
 * @num_results: views the call writes
 * @reserved: 0
 *
 * Followed by struct xrt_cs_view[@num_args + @num_results], the
 * arguments first, at most XRT_CS_CALL_MAX_VIEWS in all, each dense and
 * row-major (the last stride 1, each other the product of the
 * dimensions after it); results overlap neither each other nor an
 * argument.  Custom calls are these.  Only an executor in the process
 * whose code is called runs one: the kernel refuses a program that has
 * a CALL (-EINVAL at submit), since its jobs run no user code.
 */
struct xrt_cs_call {
	struct xrt_cs_cmd cmd;
	__u32 target;
	__u16 num_args;
	__u16 num_results;
	__u64 reserved;
};

/**
 * enum xrt_cs_coll_kind - what a COLLECTIVE does among its group
 * @XRT_CS_COLL_ALL_REDUCE: out[k] = in[k] of every member folded with
 *                          @op, element by element
 * @XRT_CS_COLL_ALL_GATHER: out[k] = in[k] of every member joined along
 *                          @dim, in the group's order
 * @XRT_CS_COLL_REDUCE_SCATTER: out[k] = the ALL_REDUCE's block at the
 *                              member's place, cut along @dim
 * @XRT_CS_COLL_ALL_TO_ALL: out[k]'s block j along @dim = member j's
 *                          in[k] block at this member's place
 * @XRT_CS_COLL_ALL_TO_ALL_TUPLE: out[j] = member j's in[place]; as many
 *                                views each way as the group has members
 * @XRT_CS_COLL_PERMUTE: out[k] = in[k] of the device that sends here,
 *                       zeros where none does
 * @XRT_CS_COLL_BROADCAST: out[k] = in[k] of the group's first member
 */
enum xrt_cs_coll_kind {
	XRT_CS_COLL_ALL_REDUCE = 1,
	XRT_CS_COLL_ALL_GATHER = 2,
	XRT_CS_COLL_REDUCE_SCATTER = 3,
	XRT_CS_COLL_ALL_TO_ALL = 4,
	XRT_CS_COLL_ALL_TO_ALL_TUPLE = 5,
	XRT_CS_COLL_PERMUTE = 6,
	XRT_CS_COLL_BROADCAST = 7,
};

/* Most views each way of one COLLECTIVE. */
#define XRT_CS_COLL_MAX_VIEWS	64

/**
 * struct xrt_cs_collective - exchange arrays with the devices running
 *                            the same program
 * @cmd: op XRT_CS_OP_COLLECTIVE, flags 0; size is sizeof(struct
 *       xrt_cs_collective) plus that of the views that follow
 * @kind: enum xrt_cs_coll_kind
 * @op: ALL_REDUCE and REDUCE_SCATTER: enum xrt_cs_reduce_op, SUM to OR;
 *      the others 0
 * @dim: ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL: the dimension joined or
 *       cut, below the views' rank; the others 0
 * @pad: 0
 * @group: which devices meet here: an index into a table the executor
 *         keeps beside the program (as CALL's target), which gives each
 *         device its group, or for PERMUTE its source and target
 * @num_in: views read, one per array; at most XRT_CS_COLL_MAX_VIEWS
 * @num_out: views written, as many
 * @reserved: 0
 *
 * Followed by struct xrt_cs_view[@num_in + @num_out], the inputs first,
 * each dense and row-major; out[k] has in[k]'s dtype and, but for @dim
 * of ALL_GATHER (a multiple of in[k]'s) and REDUCE_SCATTER (a divisor),
 * its dims; an output overlaps no other view.  ALL_TO_ALL_TUPLE's
 * views all have one shape.  Every member folds ALL_REDUCE left to
 * right in the group's order (f(f(x0, x1), x2)), with REDUCE's element
 * semantics, so every member gets the same bits.
 *
 * The engine runs nothing for it, as for CALL: the executor stops
 * before the command, exchanges the arrays with the other devices
 * through its communicator, and goes on after it.  Sizes that need the
 * group (a dimension the group's size must divide) are the executor's
 * to check.
 */
struct xrt_cs_collective {
	struct xrt_cs_cmd cmd;
	__u8 kind;
	__u8 op;
	__u8 dim;
	__u8 pad;
	__u32 group;
	__u16 num_in;
	__u16 num_out;
	__u32 reserved;
};

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_DRM_XRT_ACCEL_CS_H */
