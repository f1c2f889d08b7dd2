// SPDX-License-Identifier: MIT
/*
 * The op registry: TensorFlow raw-op names with their inputs and
 * attributes, each with the lowering that builds it as IR (and, for the
 * plain elementwise ops, the opcode it becomes).  Sorted by
 * name (test_eager checks it) and searched by bisection.
 */
#include <stdlib.h>
#include <string.h>

#include "eager_internal.h"

#define BIT(t)		(1u << (t))
#define FLOATS		(BIT(XRT_F16) | BIT(XRT_BF16) | BIT(XRT_F32) | BIT(XRT_F64))
#define SINTS		(BIT(XRT_S8) | BIT(XRT_S16) | BIT(XRT_S32) | BIT(XRT_S64))
#define UINTS		(BIT(XRT_U8) | BIT(XRT_U16) | BIT(XRT_U32) | BIT(XRT_U64))
#define COMPLEX		(BIT(XRT_C64) | BIT(XRT_C128))
#define REALS		(FLOATS | SINTS | UINTS)
#define NUMBERS		(REALS | COMPLEX)
#define SIGNED		(FLOATS | SINTS | COMPLEX)
#define INEXACT		(FLOATS | COMPLEX)
#define INDEX		(BIT(XRT_S32) | BIT(XRT_S64))

/* A constant index input typed by attribute @attr. */
#define CONST_IN(name, attr)	{ name, attr, XRT_INVALID, NULL, true }
#define INDEX_ATTR(name)	{ name, XRT_ATTR_TYPE, false, true, XRT_S32, INDEX }
#define REDUCE(n, kind, types)	{ n, { { "input", "T", XRT_INVALID, NULL }, \
				       CONST_IN("reduction_indices", "Tidx") }, 2, \
				  { { "T", XRT_ATTR_TYPE, false, false, 0, (types) }, \
				    INDEX_ATTR("Tidx"), \
				    { "keep_dims", XRT_ATTR_BOOL, false, true, 0, 0 } }, 3, \
				  1, eager_lower_reduce, kind }
#define ARG(n, max)		{ n, { { "input", "T", XRT_INVALID, NULL }, \
				       CONST_IN("dimension", "Tidx") }, 2, \
				  { { "T", XRT_ATTR_TYPE, false, false, 0, REALS }, \
				    INDEX_ATTR("Tidx"), \
				    { "output_type", XRT_ATTR_TYPE, false, true, XRT_S64, INDEX } }, 3, \
				  1, eager_lower_arg, max }
#define POOL_ATTRS	{ { "T", XRT_ATTR_TYPE, false, false, 0, FLOATS }, \
			  { "ksize", XRT_ATTR_INT, true, false, 0, 0 }, \
			  { "strides", XRT_ATTR_INT, true, false, 0, 0 }, \
			  { "padding", XRT_ATTR_STRING, false, false, 0, 0 }, \
			  { "data_format", XRT_ATTR_STRING, false, true, 0, 0 } }, 5
#define RANDOM_ATTRS	{ { "dtype", XRT_ATTR_TYPE, false, false, 0, FLOATS }, \
			  { "seed", XRT_ATTR_INT, false, true, 0, 0 }, \
			  { "seed2", XRT_ATTR_INT, false, true, 0, 0 }, \
			  INDEX_ATTR("T") }, 4
/* A resource handle input. */
#define RES_IN			{ "resource", NULL, XRT_INVALID, NULL, false }
#define DTYPE_ATTR		{ { "dtype", XRT_ATTR_TYPE, false, false, 0, 0 } }, 1
/* One T input plus one constant index input typed by @attr. */
#define SHAPED(n, in, cin, attr, lower) \
				{ n, { { in, "T", XRT_INVALID, NULL }, CONST_IN(cin, attr) }, 2, \
				  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 }, INDEX_ATTR(attr) }, \
				  2, 1, lower, 0 }

/* Input x (and y) of type T; attribute T among @types. */
#define IN_X		{ { "x", "T", XRT_INVALID, NULL } }, 1
#define IN_XY		{ { "x", "T", XRT_INVALID, NULL }, { "y", "T", XRT_INVALID, NULL } }, 2
#define ATTR_T(types)	{ { "T", XRT_ATTR_TYPE, false, false, 0, (types) } }, 1

#define UNARY(n, code, types)	{ n, IN_X, ATTR_T(types), 1, eager_lower_unary, code }
#define ACT(n, code, types)	{ n, { { "features", "T", XRT_INVALID, NULL } }, 1, \
				  ATTR_T(types), 1, eager_lower_activation, code }
#define BINARY(n, code, types)	{ n, IN_XY, ATTR_T(types), 1, eager_lower_binary, code }
#define COMPARE(n, dir, types)	{ n, IN_XY, ATTR_T(types), 1, eager_lower_compare, dir }
#define LOGIC(n, code)		{ n, { { "x", NULL, XRT_PRED, NULL }, \
				       { "y", NULL, XRT_PRED, NULL } }, 2, \
				  { { 0 } }, 0, 1, eager_lower_binary, code }

static const struct op_def ops[] = {
	UNARY("Abs", XRT_OP_ABS, REALS),
	BINARY("Add", XRT_OP_ADD, NUMBERS),
	BINARY("AddV2", XRT_OP_ADD, NUMBERS),
	ARG("ArgMax", 1),
	ARG("ArgMin", 0),
	{ "AssignAddVariableOp", { RES_IN, { "value", "dtype", XRT_INVALID, NULL } }, 2,
	  DTYPE_ATTR, 0, NULL, 0, eager_var_assign_add },
	{ "AssignVariableOp", { RES_IN, { "value", "dtype", XRT_INVALID, NULL } }, 2,
	  DTYPE_ATTR, 0, NULL, 0, eager_var_assign },
	{ "AvgPool", { { "value", "T", XRT_INVALID, NULL } }, 1, POOL_ATTRS, 1, eager_lower_pool, 1 },
	{ "BatchMatMulV2", IN_XY,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, NUMBERS },
	    { "adj_x", XRT_ATTR_BOOL, false, true, 0, 0 },
	    { "adj_y", XRT_ATTR_BOOL, false, true, 0, 0 } }, 3,
	  1, eager_lower_batch_matmul, 0 },
	{ "BiasAdd", { { "value", "T", XRT_INVALID, NULL }, { "bias", "T", XRT_INVALID, NULL } }, 2,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, NUMBERS },
	    { "data_format", XRT_ATTR_STRING, false, true, 0, 0 } }, 2,
	  1, eager_lower_bias_add, 0 },
	{ "Cast", { { "x", "SrcT", XRT_INVALID, NULL } }, 1,
	  { { "SrcT", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "DstT", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "Truncate", XRT_ATTR_BOOL, false, true, 0, 0 } }, 3,
	  1, eager_lower_cast, 0 },
	UNARY("Ceil", XRT_OP_CEIL, FLOATS),
	{ "ConcatV2", { { "values", "T", XRT_INVALID, "N" }, CONST_IN("axis", "Tidx") }, 2,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "N", XRT_ATTR_INT, false, false, 0, 0 }, INDEX_ATTR("Tidx") }, 3,
	  1, eager_lower_concat, 0 },
	{ "Const", { { 0 } }, 0,
	  { { "value", XRT_ATTR_TENSOR, false, false, 0, 0 },
	    { "dtype", XRT_ATTR_TYPE, false, false, 0, 0 } }, 2,
	  1, eager_lower_const, 0 },
	{ "Conv2D", { { "input", "T", XRT_INVALID, NULL }, { "filter", "T", XRT_INVALID, NULL } }, 2,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, FLOATS },
	    { "strides", XRT_ATTR_INT, true, false, 0, 0 },
	    { "padding", XRT_ATTR_STRING, false, false, 0, 0 },
	    { "data_format", XRT_ATTR_STRING, false, true, 0, 0 },
	    { "dilations", XRT_ATTR_INT, true, true, 0, 0 } }, 5,
	  1, eager_lower_conv2d, 0 },
	UNARY("Cos", XRT_OP_COSINE, INEXACT),
	{ "DestroyResourceOp", { RES_IN }, 1,
	  { { "ignore_lookup_error", XRT_ATTR_BOOL, false, true, 1, 0 } }, 1,
	  0, NULL, 0, eager_var_destroy },
	BINARY("Div", XRT_OP_DIVIDE, NUMBERS),
	ACT("Elu", 4, FLOATS),
	COMPARE("Equal", XRT_CMP_EQ, NUMBERS | BIT(XRT_PRED)),
	UNARY("Erf", XRT_OP_ERF, FLOATS),
	UNARY("Exp", XRT_OP_EXP, INEXACT),
	SHAPED("ExpandDims", "input", "dim", "Tdim", eager_lower_expand_dims),
	UNARY("Expm1", XRT_OP_EXPM1, INEXACT),
	{ "Fill", { CONST_IN("dims", "index_type"), { "value", "T", XRT_INVALID, NULL } }, 2,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 }, INDEX_ATTR("index_type") }, 2,
	  1, eager_lower_fill, 0 },
	UNARY("Floor", XRT_OP_FLOOR, FLOATS),
	{ "FloorDiv", IN_XY, ATTR_T(REALS), 1, eager_lower_floor_divmod, 0 },
	{ "FloorMod", IN_XY, ATTR_T(REALS), 1, eager_lower_floor_divmod, 1 },
	{ "GatherV2", { { "params", "Tparams", XRT_INVALID, NULL },
			{ "indices", "Tindices", XRT_INVALID, NULL },
			CONST_IN("axis", "Taxis") }, 3,
	  { { "Tparams", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "Tindices", XRT_ATTR_TYPE, false, false, 0, INDEX },
	    INDEX_ATTR("Taxis"),
	    { "batch_dims", XRT_ATTR_INT, false, true, 0, 0 } }, 4,
	  1, eager_lower_gather, 0 },
	COMPARE("Greater", XRT_CMP_GT, REALS),
	COMPARE("GreaterEqual", XRT_CMP_GE, REALS),
	{ "Identity", { { "input", "T", XRT_INVALID, NULL } }, 1, ATTR_T(0), 1,
	  eager_lower_identity, 0 },
	COMPARE("Less", XRT_CMP_LT, REALS),
	COMPARE("LessEqual", XRT_CMP_LE, REALS),
	UNARY("Log", XRT_OP_LOG, INEXACT),
	UNARY("Log1p", XRT_OP_LOG1P, INEXACT),
	{ "LogSoftmax", { { "logits", "T", XRT_INVALID, NULL } }, 1, ATTR_T(FLOATS), 1,
	  eager_lower_softmax, 1 },
	LOGIC("LogicalAnd", XRT_OP_AND),
	{ "LogicalNot", { { "x", NULL, XRT_PRED, NULL } }, 1, { { 0 } }, 0, 1,
	  eager_lower_unary, XRT_OP_NOT },
	LOGIC("LogicalOr", XRT_OP_OR),
	{ "MatMul", { { "a", "T", XRT_INVALID, NULL }, { "b", "T", XRT_INVALID, NULL } }, 2,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, NUMBERS },
	    { "transpose_a", XRT_ATTR_BOOL, false, true, 0, 0 },
	    { "transpose_b", XRT_ATTR_BOOL, false, true, 0, 0 } }, 3,
	  1, eager_lower_matmul, 0 },
	REDUCE("Max", 2, REALS),
	{ "MaxPool", { { "input", "T", XRT_INVALID, NULL } }, 1, POOL_ATTRS, 1, eager_lower_pool, 0 },
	BINARY("Maximum", XRT_OP_MAXIMUM, REALS),
	REDUCE("Mean", 4, NUMBERS),
	REDUCE("Min", 3, REALS),
	BINARY("Minimum", XRT_OP_MINIMUM, REALS),
	BINARY("Mul", XRT_OP_MULTIPLY, NUMBERS),
	UNARY("Neg", XRT_OP_NEGATE, SIGNED),
	COMPARE("NotEqual", XRT_CMP_NE, NUMBERS | BIT(XRT_PRED)),
	{ "OneHot", { { "indices", "TI", XRT_INVALID, NULL },
		      { "depth", NULL, XRT_S32, NULL, true },
		      { "on_value", "T", XRT_INVALID, NULL },
		      { "off_value", "T", XRT_INVALID, NULL } }, 4,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "TI", XRT_ATTR_TYPE, false, true, XRT_S64, BIT(XRT_U8) | INDEX },
	    { "axis", XRT_ATTR_INT, false, true, -1, 0 } }, 3,
	  1, eager_lower_one_hot, 0 },
	{ "OnesLike", IN_X, ATTR_T(NUMBERS), 1, eager_lower_fill, 2 },
	{ "Pack", { { "values", "T", XRT_INVALID, "N" } }, 1,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "N", XRT_ATTR_INT, false, false, 0, 0 },
	    { "axis", XRT_ATTR_INT, false, true, 0, 0 } }, 3,
	  1, eager_lower_pack, 0 },
	SHAPED("Pad", "input", "paddings", "Tpaddings", eager_lower_pad),
	BINARY("Pow", XRT_OP_POWER, INEXACT),
	REDUCE("Prod", 1, NUMBERS),
	{ "RandomStandardNormal", { CONST_IN("shape", "T") }, 1, RANDOM_ATTRS, 1,
	  eager_lower_random, 1 },
	{ "RandomUniform", { CONST_IN("shape", "T") }, 1, RANDOM_ATTRS, 1,
	  eager_lower_random, 0 },
	{ "Range", { CONST_IN("start", "Tidx"), CONST_IN("limit", "Tidx"),
		     CONST_IN("delta", "Tidx") }, 3,
	  { { "Tidx", XRT_ATTR_TYPE, false, true, XRT_S32, INDEX | BIT(XRT_F32) | BIT(XRT_F64) } },
	  1, 1, eager_lower_range, 0 },
	{ "ReadVariableOp", { RES_IN }, 1, DTYPE_ATTR, 1, NULL, 0, eager_var_read },
	BINARY("RealDiv", XRT_OP_DIVIDE, NUMBERS),
	ACT("Relu", 0, REALS),
	ACT("Relu6", 1, REALS),
	SHAPED("Reshape", "tensor", "shape", "Tshape", eager_lower_reshape),
	UNARY("Rsqrt", XRT_OP_RSQRT, INEXACT),
	{ "Select", { { "condition", NULL, XRT_PRED, NULL }, { "t", "T", XRT_INVALID, NULL },
		      { "e", "T", XRT_INVALID, NULL } }, 3, ATTR_T(0), 1, eager_lower_select, 0 },
	{ "SelectV2", { { "condition", NULL, XRT_PRED, NULL }, { "t", "T", XRT_INVALID, NULL },
			{ "e", "T", XRT_INVALID, NULL } }, 3, ATTR_T(0), 1, eager_lower_select, 1 },
	UNARY("Sigmoid", XRT_OP_LOGISTIC, INEXACT),
	UNARY("Sign", XRT_OP_SIGN, SIGNED),
	UNARY("Sin", XRT_OP_SINE, INEXACT),
	{ "Slice", { { "input", "T", XRT_INVALID, NULL }, CONST_IN("begin", "Index"),
		     CONST_IN("size", "Index") }, 3,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 }, INDEX_ATTR("Index") }, 2,
	  1, eager_lower_slice, 0 },
	{ "Softmax", { { "logits", "T", XRT_INVALID, NULL } }, 1, ATTR_T(FLOATS), 1,
	  eager_lower_softmax, 0 },
	ACT("Softplus", 3, FLOATS),
	UNARY("Sqrt", XRT_OP_SQRT, INEXACT),
	ACT("Square", 2, NUMBERS),
	{ "Squeeze", { { "input", "T", XRT_INVALID, NULL } }, 1,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "squeeze_dims", XRT_ATTR_INT, true, true, 0, 0 } }, 2,
	  1, eager_lower_squeeze, 0 },
	{ "StridedSlice", { { "input", "T", XRT_INVALID, NULL }, CONST_IN("begin", "Index"),
			    CONST_IN("end", "Index"), CONST_IN("strides", "Index") }, 4,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 }, INDEX_ATTR("Index"),
	    { "begin_mask", XRT_ATTR_INT, false, true, 0, 0 },
	    { "end_mask", XRT_ATTR_INT, false, true, 0, 0 },
	    { "ellipsis_mask", XRT_ATTR_INT, false, true, 0, 0 },
	    { "new_axis_mask", XRT_ATTR_INT, false, true, 0, 0 },
	    { "shrink_axis_mask", XRT_ATTR_INT, false, true, 0, 0 } }, 7,
	  1, eager_lower_strided_slice, 0 },
	BINARY("Sub", XRT_OP_SUBTRACT, NUMBERS),
	REDUCE("Sum", 0, NUMBERS),
	UNARY("Tanh", XRT_OP_TANH, INEXACT),
	SHAPED("Tile", "input", "multiples", "Tmultiples", eager_lower_tile),
	SHAPED("Transpose", "x", "perm", "Tperm", eager_lower_transpose),
	{ "Unpack", { { "value", "T", XRT_INVALID, NULL } }, 1,
	  { { "T", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "num", XRT_ATTR_INT, false, false, 0, 0 },
	    { "axis", XRT_ATTR_INT, false, true, 0, 0 } }, 3,
	  0, eager_lower_unpack, 0 },
	{ "VarHandleOp", { { 0 } }, 0,
	  { { "dtype", XRT_ATTR_TYPE, false, false, 0, 0 },
	    { "shape", XRT_ATTR_SHAPE, false, false, 0, 0 },
	    { "container", XRT_ATTR_STRING, false, true, 0, 0 },
	    { "shared_name", XRT_ATTR_STRING, false, true, 0, 0 } }, 4,
	  1, NULL, 0, eager_var_handle },
	{ "ZerosLike", IN_X, ATTR_T(NUMBERS), 1, eager_lower_fill, 1 },
};

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct op_def *)elem)->name);
}

const struct op_def *eager_find_op(const char *name)
{
	return bsearch(name, ops, sizeof(ops) / sizeof(ops[0]), sizeof(ops[0]), by_name);
}

int eager_attr_index(const struct op_def *d, const char *name)
{
	uint32_t i;

	for (i = 0; i < d->num_attrs; i++) {
		if (!strcmp(d->attrs[i].name, name))
			return (int)i;
	}
	return -1;
}

/* For the tests: entry @i of the registry, or NULL past its end. */
const struct op_def *eager_registry_at(size_t i);
const struct op_def *eager_registry_at(size_t i)
{
	return i < sizeof(ops) / sizeof(ops[0]) ? &ops[i] : NULL;
}

/* For the tests: the registry is sorted and every entry is whole. */
const char *eager_registry_check(void);
const char *eager_registry_check(void)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (i && strcmp(ops[i - 1].name, ops[i].name) >= 0)
			return ops[i].name;
		if (!ops[i].lower == !ops[i].exec)
			return ops[i].name;
	}
	return NULL;
}
