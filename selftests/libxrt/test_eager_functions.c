// SPDX-License-Identifier: MIT
/*
 * The eager API's functions (FunctionDef protos): registration and
 * its checks, whole-body compilation, attribute placeholders, variables
 * in node order, calls of functions, polymorphic types, malformed
 * definitions refused.
 */
#include "xrt.pb-c.h"

#include "eager_test.h"

/* A FunctionDef under construction: up to 4 arguments and results, 8 nodes. */
struct fnb {
	Xrt__FunctionDef f;
	Xrt__ArgDef args[4], outs[4], *argp[4], *outp[4];
	Xrt__NodeDef nodes[8], *nodep[8];
	Xrt__NamedAttr attrs[8][4], *attrp[8][4];
	Xrt__AttrValue vals[8][4];
	Xrt__NamedAttr fattrs[4], *fattrp[4];
	Xrt__AttrValue fvals[4];
	Xrt__Literal lit;
	Xrt__Shape lit_shape;
	char *inputs[8][4], *rets[4];
};

static void fnb_init(struct fnb *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	xrt__function_def__init(&b->f);
	b->f.name = (char *)name;
	b->f.input_args = b->argp;
	b->f.output_args = b->outp;
	b->f.nodes = b->nodep;
	b->f.returns = b->rets;
	b->f.attrs = b->fattrp;
}

/* An attribute of the function itself: its value is the default. */
static Xrt__AttrValue *fnb_fattr(struct fnb *b, const char *name)
{
	size_t k = b->f.n_attrs++;

	xrt__named_attr__init(&b->fattrs[k]);
	xrt__attr_value__init(&b->fvals[k]);
	b->fattrs[k].name = (char *)name;
	b->fattrs[k].value = &b->fvals[k];
	b->fattrp[k] = &b->fattrs[k];
	return &b->fvals[k];
}

static void fnb_arg(struct fnb *b, const char *name, enum xrt_dtype t)
{
	Xrt__ArgDef *a = &b->args[b->f.n_input_args];

	xrt__arg_def__init(a);
	a->name = (char *)name;
	a->type = (Xrt__ElementType)t;
	b->argp[b->f.n_input_args++] = a;
}

static void fnb_result(struct fnb *b, const char *name, const char *from, enum xrt_dtype t)
{
	Xrt__ArgDef *a = &b->outs[b->f.n_output_args];

	xrt__arg_def__init(a);
	a->name = (char *)name;
	a->type = (Xrt__ElementType)t;
	b->outp[b->f.n_output_args++] = a;
	b->rets[b->f.n_returns++] = (char *)from;
}

/* A node; returns its index for fnb_attr_*(). */
static size_t fnb_node(struct fnb *b, const char *name, const char *op, const char *in0,
		       const char *in1)
{
	size_t n = b->f.n_nodes++;
	Xrt__NodeDef *nd = &b->nodes[n];

	xrt__node_def__init(nd);
	nd->name = (char *)name;
	nd->op = (char *)op;
	nd->inputs = b->inputs[n];
	if (in0)
		nd->inputs[nd->n_inputs++] = (char *)in0;
	if (in1)
		nd->inputs[nd->n_inputs++] = (char *)in1;
	nd->attrs = b->attrp[n];
	b->nodep[n] = nd;
	return n;
}

static Xrt__AttrValue *fnb_attr(struct fnb *b, size_t n, const char *name)
{
	Xrt__NodeDef *nd = &b->nodes[n];
	size_t k = nd->n_attrs++;

	xrt__named_attr__init(&b->attrs[n][k]);
	xrt__attr_value__init(&b->vals[n][k]);
	b->attrs[n][k].name = (char *)name;
	b->attrs[n][k].value = &b->vals[n][k];
	b->attrp[n][k] = &b->attrs[n][k];
	return &b->vals[n][k];
}

static void fnb_type(struct fnb *b, size_t n, const char *name, enum xrt_dtype t)
{
	Xrt__AttrValue *v = fnb_attr(b, n, name);

	v->value_case = XRT__ATTR_VALUE__VALUE_TYPE;
	v->type = (Xrt__ElementType)t;
}

/* A resource argument: a variable the body reads and assigns. */
static void fnb_resource(struct fnb *b, const char *name)
{
	Xrt__ArgDef *a = &b->args[b->f.n_input_args];

	xrt__arg_def__init(a);
	a->name = (char *)name;
	a->resource = true;
	b->argp[b->f.n_input_args++] = a;
}

/* Node @n's attribute @name is the function's attribute @fattr. */
static void fnb_placeholder(struct fnb *b, size_t n, const char *name, const char *fattr)
{
	Xrt__AttrValue *v = fnb_attr(b, n, name);

	v->value_case = XRT__ATTR_VALUE__VALUE_PLACEHOLDER;
	v->placeholder = (char *)fattr;
}

/* Registers @b's function; the status. */
static xrt_status *fnb_add(xrt_eager_context *c, struct fnb *b)
{
	size_t size = xrt__function_def__get_packed_size(&b->f);
	uint8_t *buf = malloc(size + 1);
	xrt_status *st;

	xrt__function_def__pack(&b->f, buf);
	st = xrt_eager_add_function(c, buf, size);
	free(buf);
	return st;
}

/* The seed's FunctionDefAndExecute: MatMul of the argument by itself. */
TEST_F(xrt, function_def_and_execute)
{
	xrt_eager_context *c = NULL;
	int64_t d22[2] = { 2, 2 };
	xrt_tensor *m, *out = NULL;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "MatMulFunction");
	fnb_arg(&b, "a", XRT_F32);
	n = fnb_node(&b, "matmul", "MatMul", "a", "a");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "m", "matmul:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	EXPECT_TRUE(xrt_eager_has_function(c, "MatMulFunction"));
	/* the same definition again changes nothing; another body is refused */
	ASSERT_OK(fnb_add(c, &b));
	b.nodes[0].op = "Add";
	ASSERT_ERR(fnb_add(c, &b), XRT_ALREADY_EXISTS,
		   "function 'MatMulFunction': a different function of this name exists");
	b.nodes[0].op = "MatMul";
	b.f.name = "Relu";
	ASSERT_ERR(fnb_add(c, &b), XRT_ALREADY_EXISTS, "function 'Relu': the name is an op's");
	m = F32(c, 2, d22, 1, 2, 3, 4);
	ASSERT_OK(xrt_op_create(c, "MatMulFunction", &op));
	ASSERT_OK(xrt_op_add_input(op, m));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 2, DIMS(2, 2), 7, 10, 15, 22);
	xrt_tensor_unref(out);
	xrt_op_destroy(op);
	xrt_tensor_unref(m);
	xrt_eager_context_destroy(c);
}

/* Two results, a Const feeding an axis, the node:output:index form. */
TEST_F(xrt, functions_compile_their_whole_body)
{
	xrt_eager_context *c = NULL;
	int64_t d23[2] = { 2, 3 };
	xrt_tensor *x, *outs[2] = { NULL, NULL };
	int32_t one = 1;
	struct fnb b;
	uint32_t nr = 2;
	xrt_op *op;
	size_t n;
	Xrt__AttrValue *v;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "RowSums");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "relu", "Relu", "x", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	n = fnb_node(&b, "axis", "Const", NULL, NULL);
	fnb_type(&b, n, "dtype", XRT_S32);
	v = fnb_attr(&b, n, "value");
	v->value_case = XRT__ATTR_VALUE__VALUE_TENSOR;
	xrt__literal__init(&b.lit);
	xrt__shape__init(&b.lit_shape);
	b.lit_shape.element_type = XRT__ELEMENT_TYPE__S32;
	b.lit.shape = &b.lit_shape;
	b.lit.data.data = (uint8_t *)&one;
	b.lit.data.len = sizeof(one);
	v->tensor = &b.lit;
	n = fnb_node(&b, "sum", "Sum", "relu:features:0", "axis:0");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_type(&b, n, "Tidx", XRT_S32);
	fnb_result(&b, "sums", "sum:0", XRT_F32);
	fnb_result(&b, "relu", "relu:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	x = F32(c, 2, d23, 1, -2, 3, -4, 5, 6);
	ASSERT_OK(xrt_op_create(c, "RowSums", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, outs, &nr));
	ASSERT_EQ(2, nr);
	EXPECT_T(outs[0], 1, DIMS(2), 4, 11);
	EXPECT_T(outs[1], 2, DIMS(2, 3), 1, 0, 3, 0, 5, 6);
	xrt_tensor_unref(outs[0]);
	xrt_tensor_unref(outs[1]);
	xrt_op_destroy(op);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

/*
 * Attribute placeholders: CastSum(x) = Sum(Cast(x, DstT = out), [1],
 * keep_dims = keep), with the function's attributes out (a type, f64
 * by default) and keep (a bool, false by default) set per call.
 */
static void cast_sum(struct fnb *b, const int32_t *one)
{
	Xrt__AttrValue *v;
	size_t n;

	fnb_init(b, "CastSum");
	fnb_arg(b, "x", XRT_F32);
	v = fnb_fattr(b, "out");
	v->value_case = XRT__ATTR_VALUE__VALUE_TYPE;
	v->type = XRT__ELEMENT_TYPE__F64;
	v = fnb_fattr(b, "keep");
	v->value_case = XRT__ATTR_VALUE__VALUE_B;
	n = fnb_node(b, "cast", "Cast", "x", NULL);
	fnb_placeholder(b, n, "DstT", "out");
	n = fnb_node(b, "axis", "Const", NULL, NULL);
	fnb_type(b, n, "dtype", XRT_S32);
	v = fnb_attr(b, n, "value");
	v->value_case = XRT__ATTR_VALUE__VALUE_TENSOR;
	xrt__literal__init(&b->lit);
	xrt__shape__init(&b->lit_shape);
	b->lit_shape.element_type = XRT__ELEMENT_TYPE__S32;
	b->lit.shape = &b->lit_shape;
	b->lit.data.data = (uint8_t *)one;
	b->lit.data.len = sizeof(*one);
	v->tensor = &b->lit;
	n = fnb_node(b, "sum", "Sum", "cast:0", "axis:0");
	fnb_placeholder(b, n, "keep_dims", "keep");
	fnb_result(b, "y", "sum:0", XRT_F64);
}

TEST_F(xrt, function_attributes_fill_placeholders)
{
	static const int64_t d23[2] = { 2, 3 };
	const int32_t one = 1;
	xrt_eager_context *c = NULL;
	xrt_tensor *x, *out = NULL;
	const double *f64;
	const int32_t *s32;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	cast_sum(&b, &one);
	ASSERT_OK(fnb_add(c, &b));
	x = F32(c, 2, d23, 1.5, -2.5, 3, -4, 5.5, 6);
	/* the defaults: f64 sums of each row, rank 1 */
	ASSERT_OK(xrt_op_create(c, "CastSum", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	ASSERT_EQ(XRT_F64, xrt_tensor_dtype(out));
	ASSERT_EQ(1, xrt_tensor_rank(out));
	f64 = xrt_tensor_data(out, NULL);
	EXPECT_EQ(2.0, f64[0]);
	EXPECT_EQ(7.5, f64[1]);
	xrt_tensor_unref(out);
	/* s32 (each element truncated first), dims kept: another kernel */
	ASSERT_OK(xrt_op_set_attr_type(op, "out", XRT_S32));
	ASSERT_OK(xrt_op_set_attr_bool(op, "keep", true));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	ASSERT_EQ(XRT_S32, xrt_tensor_dtype(out));
	ASSERT_EQ(2, xrt_tensor_rank(out));
	EXPECT_EQ(1, xrt_tensor_dim(out, 1));
	s32 = xrt_tensor_data(out, NULL);
	EXPECT_EQ(2, s32[0]);
	EXPECT_EQ(7, s32[1]);
	xrt_tensor_unref(out);
	/* the attribute type map knows them; a wrong kind is refused */
	ASSERT_ERR(xrt_op_set_attr_int(op, "keep", 1), XRT_INVALID_ARGUMENT, "keep");
	xrt_op_destroy(op);
	/* a placeholder naming nothing, or another kind, or a list default */
	cast_sum(&b, &one);
	b.f.name = "Bad1";
	b.vals[2][0].placeholder = "nothing";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'sum': attribute 'keep_dims': placeholder 'nothing' names no attribute "
		   "of the function");
	cast_sum(&b, &one);
	b.f.name = "Bad2";
	b.vals[2][0].placeholder = "out";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "attribute 'keep_dims' is a bool, placeholder 'out' a type");
	cast_sum(&b, &one);
	b.f.name = "Bad3";
	b.fvals[1].value_case = XRT__ATTR_VALUE__VALUE_S;
	ASSERT_ERR(fnb_add(c, &b), XRT_UNIMPLEMENTED, "function attributes are ints, floats");
	cast_sum(&b, &one);
	b.f.name = "Bad4";
	b.fattrs[1].name = "out";	/* declared twice */
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "two attributes share a name");
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

/*
 * Step(w, x): w += w * x, then returns w as read after.  The variable ops
 * act in the order of the nodes: the read after the add sees the sum.
 */
static void step_fn(struct fnb *b)
{
	size_t n;

	fnb_init(b, "Step");
	fnb_resource(b, "w");
	fnb_arg(b, "x", XRT_F32);
	n = fnb_node(b, "r", "ReadVariableOp", "w", NULL);
	fnb_type(b, n, "dtype", XRT_F32);
	fnb_node(b, "y", "Mul", "r:0", "x");
	n = fnb_node(b, "add", "AssignAddVariableOp", "w", "y:0");
	fnb_type(b, n, "dtype", XRT_F32);
	n = fnb_node(b, "r2", "ReadVariableOp", "w", NULL);
	fnb_type(b, n, "dtype", XRT_F32);
	fnb_result(b, "after", "r2:0", XRT_F32);
}

/* Runs @name on (@a, @b) to one output (NULL on error, logged). */
static xrt_status *call2(xrt_eager_context *c, const char *name, xrt_tensor *a, xrt_tensor *b,
			 xrt_tensor **out)
{
	uint32_t nr = out ? 1 : 0;
	xrt_status *st;
	xrt_op *op;

	st = xrt_op_create(c, name, &op);
	if (!st)
		st = xrt_op_add_input(op, a);
	if (!st)
		st = xrt_op_add_input(op, b);
	if (!st)
		st = xrt_op_execute(op, out, &nr);
	xrt_op_destroy(op);
	return st;
}

TEST_F(xrt, functions_read_and_assign_variables_in_node_order)
{
	static const int64_t d2[1] = { 2 };
	xrt_eager_context *c = NULL;
	xrt_tensor *w, *w2, *x, *out = NULL, *val;
	struct fnb b;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	step_fn(&b);
	ASSERT_OK(fnb_add(c, &b));
	w = new_var(_metadata, c, 1, d2, (const float[]){ 1, 2 }, 2);
	x = F32(c, 1, d2, 3, 4);
	ASSERT_OK(call2(c, "Step", w, x, &out));
	EXPECT_T(out, 1, DIMS(2), 4, 10);	/* 1 + 1*3, 2 + 2*4 */
	xrt_tensor_unref(out);
	val = read_var(_metadata, c, w);
	EXPECT_T(val, 1, DIMS(2), 4, 10);
	xrt_tensor_unref(val);
	ASSERT_OK(call2(c, "Step", w, x, &out));	/* the same kernel, the new value */
	EXPECT_T(out, 1, DIMS(2), 16, 50);
	xrt_tensor_unref(out);
	/* Swap(a, b): both read before either is assigned; returns nothing but a + b */
	fnb_init(&b, "Swap");
	fnb_resource(&b, "a");
	fnb_resource(&b, "b");
	n = fnb_node(&b, "ra", "ReadVariableOp", "a", NULL);
	fnb_type(&b, n, "dtype", XRT_F32);
	n = fnb_node(&b, "rb", "ReadVariableOp", "b", NULL);
	fnb_type(&b, n, "dtype", XRT_F32);
	n = fnb_node(&b, "sa", "AssignVariableOp", "a", "rb:0");
	fnb_type(&b, n, "dtype", XRT_F32);
	n = fnb_node(&b, "sb", "AssignVariableOp", "b", "ra:0");
	fnb_type(&b, n, "dtype", XRT_F32);
	fnb_node(&b, "sum", "AddV2", "ra:0", "rb:0");
	fnb_result(&b, "sum", "sum:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	w2 = new_var(_metadata, c, 1, d2, (const float[]){ -1, -2 }, 2);
	ASSERT_OK(call2(c, "Swap", w, w2, &out));
	EXPECT_T(out, 1, DIMS(2), 15, 48);
	xrt_tensor_unref(out);
	val = read_var(_metadata, c, w);
	EXPECT_T(val, 1, DIMS(2), -1, -2);
	xrt_tensor_unref(val);
	val = read_var(_metadata, c, w2);
	EXPECT_T(val, 1, DIMS(2), 16, 50);
	xrt_tensor_unref(val);
	/* a value, not a variable, for the resource; and the other way round */
	ASSERT_ERR(call2(c, "Step", x, x, &out), XRT_INVALID_ARGUMENT,
		   "Step: input #0 was expected to be a resource tensor but is a f32 tensor");
	ASSERT_ERR(call2(c, "Step", w, w2, &out), XRT_INVALID_ARGUMENT,
		   "input #1 was expected to be a f32 tensor but is a resource tensor");
	xrt_tensor_unref(w2);
	xrt_tensor_unref(x);
	xrt_tensor_unref(w);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, functions_with_variables_refuse_misuse)
{
	static const int64_t d2[1] = { 2 }, d3[1] = { 3 };
	xrt_eager_context *c = NULL;
	xrt_tensor *w, *x3, *out = NULL, *val, *fresh;
	struct fnb b;
	uint32_t nr = 1;
	size_t n;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	/* at registration: a variable feeding another op, a variable op on a value */
	step_fn(&b);
	b.f.name = "Bad1";
	b.inputs[1][1] = "w";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'y': a resource argument feeds only the variable ops");
	step_fn(&b);
	b.f.name = "Bad2";
	b.inputs[0][0] = "x";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'r': a variable op's input #0 must be a resource argument");
	step_fn(&b);
	b.f.name = "Bad3";
	b.rets[0] = "w";
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "a result cannot be a resource");
	step_fn(&b);
	b.f.name = "Bad4";
	b.args[0].type = XRT__ELEMENT_TYPE__F32;
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "a resource argument has no element type");
	/* in order: a read before a write that it feeds cannot come after it */
	step_fn(&b);
	b.f.name = "Bad5";
	b.inputs[2][1] = "r2:0";	/* add reads r2, which follows add */
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "the nodes form a cycle");
	/* at the call: the variable's type, its shape, its state */
	step_fn(&b);
	ASSERT_OK(fnb_add(c, &b));
	w = new_var(_metadata, c, 1, d2, (const float[]){ 1, 2 }, 2);
	x3 = F32(c, 1, d3, 1, 2, 3);
	ASSERT_ERR(call2(c, "Step", w, x3, &out), XRT_INVALID_ARGUMENT, "Mul");
	val = read_var(_metadata, c, w);	/* unchanged */
	EXPECT_T(val, 1, DIMS(2), 1, 2);
	xrt_tensor_unref(val);
	ASSERT_OK(xrt_op_create(c, "VarHandleOp", &op));
	ASSERT_OK(xrt_op_set_attr_type(op, "dtype", XRT_F32));
	ASSERT_OK(xrt_op_set_attr_shape(op, "shape", 1, d2));
	ASSERT_OK(xrt_op_execute(op, &fresh, &nr));
	xrt_op_destroy(op);
	ASSERT_ERR(call2(c, "Step", fresh, x3, &out), XRT_FAILED_PRECONDITION,
		   "Step: the variable of input #0 is uninitialized");
	xrt_tensor_unref(fresh);
	/* an assignment of another shape than the variable's is refused whole */
	fnb_init(&b, "Put");
	fnb_resource(&b, "w");
	fnb_arg(&b, "v", XRT_F32);
	n = fnb_node(&b, "set", "AssignVariableOp", "w", "v");
	fnb_type(&b, n, "dtype", XRT_F32);
	fnb_node(&b, "neg", "Neg", "v", NULL);
	fnb_result(&b, "neg", "neg:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_ERR(call2(c, "Put", w, x3, &out), XRT_INVALID_ARGUMENT,
		   "Put: the value assigned to the variable of input #0 is not of its shape");
	val = read_var(_metadata, c, w);
	EXPECT_T(val, 1, DIMS(2), 1, 2);
	xrt_tensor_unref(val);
	/* and a read of another dtype */
	step_fn(&b);
	b.f.name = "AsInt";
	b.vals[0][0].type = XRT__ELEMENT_TYPE__S32;
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_ERR(call2(c, "AsInt", w, x3, &out), XRT_INVALID_ARGUMENT,
		   "node 'r': the variable holds f32, not s32");
	xrt_tensor_unref(x3);
	xrt_tensor_unref(w);
	xrt_eager_context_destroy(c);
}

/* A function calling functions: Outer(a, b) = Square(a) + Twice(b), Twice(x) = x + x. */
TEST_F(xrt, functions_call_registered_functions)
{
	xrt_eager_context *c = NULL;
	int64_t d3[1] = { 3 };
	xrt_tensor *a, *bt, *out = NULL;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "Twice");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "sum", "AddV2", "x", "x");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "sum:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	fnb_init(&b, "Outer");
	fnb_arg(&b, "a", XRT_F32);
	fnb_arg(&b, "b", XRT_F32);
	n = fnb_node(&b, "sq", "Square", "a", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_node(&b, "tw", "Twice", "b", NULL);
	n = fnb_node(&b, "out", "AddV2", "sq:0", "tw:y:0");
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "r", "out:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	/* a type attribute of an input may be left out: each call infers it */
	fnb_init(&b, "Untyped");
	fnb_arg(&b, "x", XRT_F32);
	fnb_node(&b, "n", "Neg", "x", NULL);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));
	a = F32(c, 1, d3, 1, -2, 3);
	ASSERT_OK(xrt_op_create(c, "Untyped", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 1, DIMS(3), -1, 2, -3);
	xrt_tensor_unref(out);
	xrt_tensor_unref(a);
	xrt_op_destroy(op);
	a = F32(c, 1, d3, 1, -2, 3);
	bt = F32(c, 1, d3, 0.5, 1, -4);
	ASSERT_OK(xrt_op_create(c, "Outer", &op));
	ASSERT_OK(xrt_op_add_input(op, a));
	ASSERT_OK(xrt_op_add_input(op, bt));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_T(out, 1, DIMS(3), 2, 6, 1);
	xrt_tensor_unref(out);
	/* the call's argument types are checked like any op's */
	ASSERT_OK(xrt_op_reset(op, "Twice", NULL));
	xrt_tensor_unref(a);
	a = I32(c, 1, d3, 1, 2, 3);
	ASSERT_OK(xrt_op_add_input(op, a));
	nr = 1;
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "Twice: input #0 was expected to be a f32 tensor but is a s32 tensor");
	xrt_op_destroy(op);
	xrt_tensor_unref(a);
	xrt_tensor_unref(bt);
	xrt_eager_context_destroy(c);
}

/* Arguments typed by an attribute: one function for every type a call brings. */
TEST_F(xrt, polymorphic_functions_take_their_types_from_the_call)
{
	xrt_eager_context *c = NULL;
	int64_t d3[1] = { 3 };
	xrt_tensor *x, *out = NULL;
	enum xrt_attr_type type;
	struct fnb b;
	bool is_list;
	uint32_t nr = 1;
	xrt_op *op;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	fnb_init(&b, "Double");
	fnb_arg(&b, "x", XRT_INVALID);
	b.args[0].type_attr = "T";
	fnb_node(&b, "sum", "AddV2", "x", "x");
	fnb_result(&b, "y", "sum:0", XRT_INVALID);
	b.outs[0].type_attr = "T";
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_OK(xrt_op_name_attr_type(c, "Double", "T", &type, &is_list));
	EXPECT_EQ(XRT_ATTR_TYPE, type);
	x = F32(c, 1, d3, 1.5, -2, 3);
	ASSERT_OK(xrt_op_create(c, "Double", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_EQ(XRT_F32, xrt_tensor_dtype(out));
	EXPECT_T(out, 1, DIMS(3), 3, -4, 6);
	xrt_tensor_unref(out);
	xrt_tensor_unref(x);
	x = I32(c, 1, d3, 7, -1, 0);
	ASSERT_OK(xrt_op_reset(op, "Double", NULL));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_OK(xrt_op_execute(op, &out, &nr));
	EXPECT_EQ(XRT_S32, xrt_tensor_dtype(out));
	EXPECT_T(out, 1, DIMS(3), 14, -2, 0);
	xrt_tensor_unref(out);
	/* the attribute set by hand must agree with the tensor */
	ASSERT_OK(xrt_op_reset(op, "Double", NULL));
	ASSERT_OK(xrt_op_set_attr_type(op, "T", XRT_F32));
	ASSERT_OK(xrt_op_add_input(op, x));
	nr = 1;
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "Double: input #0 was expected to be a f32 tensor but is a s32 tensor");
	xrt_op_destroy(op);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_F(xrt, malformed_functions_are_refused)
{
	xrt_eager_context *c = NULL;
	int32_t iv[1] = { 1 };
	int64_t d1[1] = { 1 };
	xrt_tensor *x, *out = NULL;
	struct fnb b;
	uint32_t nr = 1;
	xrt_op *op;
	size_t n;

	ASSERT_OK(xrt_eager_context_create(NULL, self->a, &c));
	ASSERT_ERR(xrt_eager_add_function(c, "\xff\xff\xff", 3), XRT_INVALID_ARGUMENT,
		   "not a FunctionDef message");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	fnb_node(&b, "n", "NoSuchOp", "x", NULL);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_NOT_FOUND, "function 'F': node 'n': op: no op or function "
		   "named 'NoSuchOp'");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "n", "Neg", "nowhere:0", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT,
		   "node 'n': an input names no argument or node output");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "a", "Neg", "b:0", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	n = fnb_node(&b, "b", "Neg", "a:0", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "b:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "the nodes form a cycle");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	fnb_node(&b, "n", "Cast", "x", NULL);
	fnb_result(&b, "y", "n:0", XRT_F32);
	ASSERT_ERR(fnb_add(c, &b), XRT_INVALID_ARGUMENT, "node 'n': attribute 'DstT' is not set");
	fnb_init(&b, "F");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "n", "Neg", "x", NULL);
	fnb_type(&b, n, "T", XRT_F32);
	fnb_result(&b, "y", "n:3", XRT_F32);
	ASSERT_OK(fnb_add(c, &b));	/* the output count is known per call */
	x = make(_metadata, c, XRT_F32, 1, d1, (float[]){ 2 }, 4);
	ASSERT_OK(xrt_op_create(c, "F", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "an input reads an output its node does not have");
	xrt_op_destroy(op);
	fnb_init(&b, "G");
	fnb_arg(&b, "x", XRT_F32);
	n = fnb_node(&b, "n", "Neg", "x", NULL);
	fnb_type(&b, n, "T", XRT_S32);
	fnb_result(&b, "y", "n:0", XRT_S32);
	ASSERT_OK(fnb_add(c, &b));
	ASSERT_OK(xrt_op_create(c, "G", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "function 'G': node 'n': input #0 was expected to be a s32 tensor but is a "
		   "f32 tensor");
	xrt_tensor_unref(x);
	x = make(_metadata, c, XRT_S32, 1, d1, iv, 4);
	ASSERT_ERR(xrt_op_add_input(op, x), XRT_INVALID_ARGUMENT, "no more can be added");
	xrt_op_destroy(op);
	ASSERT_OK(xrt_op_create(c, "G", &op));
	ASSERT_OK(xrt_op_add_input(op, x));
	ASSERT_ERR(xrt_op_execute(op, &out, &nr), XRT_INVALID_ARGUMENT,
		   "G: input #0 was expected to be a f32 tensor but is a s32 tensor");
	xrt_op_destroy(op);
	xrt_tensor_unref(x);
	xrt_eager_context_destroy(c);
}

TEST_HARNESS_MAIN
