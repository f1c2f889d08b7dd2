// SPDX-License-Identifier: MIT
/*
 * Running eager ops from Python: xrt.ops.MatMul(a, b, transpose_a=True).
 * An OpFunc keeps one xrt_op and resets it per call, so a call costs an
 * op reset, the inputs, the attributes and the execute (the kernel
 * cache makes the rest); positional arguments are inputs (a list of
 * tensors is an input list), keywords are attributes, converted by the
 * attribute's type as the op declares it.
 */
#include "pyxrt.h"

#include <string.h>

#include <xrt/literal.h>

#define MAX_LIST	64
#define MAX_OUTS	16

/* Inputs at least this big release the GIL while the op runs. */
#define RELEASE_GIL_BYTES	(256u << 10)

static xrt_status *bad(const char *attr, const char *want, PyObject *v)
{
	PyErr_Format(PyExc_TypeError, "xrt: attribute '%s' wants %s, not %.80s", attr, want,
		     Py_TYPE(v)->tp_name);
	return NULL;
}

/* A shape: None (unknown rank) or a sequence of ints and Nones (unknown sizes). */
static int shape_of(const char *attr, PyObject *v, int32_t *rank, int64_t *dims)
{
	PyObject *seq;
	Py_ssize_t i, n;

	if (v == Py_None) {
		*rank = -1;
		return 0;
	}
	seq = PySequence_Fast(v, "xrt: a shape is None or a sequence");
	if (!seq)
		return -1;
	n = PySequence_Fast_GET_SIZE(seq);
	if (n > XRT_MAX_RANK) {
		Py_DECREF(seq);
		PyErr_Format(PyExc_ValueError, "xrt: attribute '%s': rank %zd above %d", attr, n,
			     XRT_MAX_RANK);
		return -1;
	}
	for (i = 0; i < n; i++) {
		PyObject *d = PySequence_Fast_GET_ITEM(seq, i);

		dims[i] = d == Py_None ? -1 : PyLong_AsLongLong(d);
		if (dims[i] == -1 && PyErr_Occurred()) {
			Py_DECREF(seq);
			return -1;
		}
	}
	*rank = (int32_t)n;
	Py_DECREF(seq);
	return 0;
}

/* The literal value of a tensor attribute (any array-like). */
static xrt_status *literal_of(PyObject *v, xrt_literal **out)
{
	PyXrtContext *ctx = pyxrt_default_context();
	PyObject *t = ctx ? pyxrt_as_tensor(ctx, v, XRT_INVALID) : NULL;
	xrt_status *st;

	*out = NULL;
	if (!t)
		return NULL;
	st = xrt_tensor_resolve(((PyXrtTensor *)t)->t, out);
	Py_DECREF(t);
	return st;
}

/* One scalar attribute; NULL status with no exception on success. */
static xrt_status *set_one(xrt_op *op, const char *attr, enum xrt_attr_type type, PyObject *v)
{
	int64_t dims[XRT_MAX_RANK];
	xrt_literal *lit = NULL;
	enum xrt_dtype t;
	xrt_status *st;
	int32_t rank;
	double d;

	switch (type) {
	case XRT_ATTR_STRING:
		if (!PyUnicode_Check(v))
			return bad(attr, "a str", v);
		return xrt_op_set_attr_string(op, attr, PyUnicode_AsUTF8(v));
	case XRT_ATTR_INT:
		if (!PyLong_Check(v) || PyBool_Check(v))
			return bad(attr, "an int", v);
		return xrt_op_set_attr_int(op, attr, PyLong_AsLongLong(v));
	case XRT_ATTR_FLOAT:
		d = PyFloat_AsDouble(v);
		if (d == -1 && PyErr_Occurred())
			return NULL;
		return xrt_op_set_attr_float(op, attr, (float)d);
	case XRT_ATTR_BOOL:
		if (!PyBool_Check(v))
			return bad(attr, "a bool", v);
		return xrt_op_set_attr_bool(op, attr, v == Py_True);
	case XRT_ATTR_TYPE:
		t = pyxrt_dtype_from_object(v);
		return t ? xrt_op_set_attr_type(op, attr, t) : NULL;
	case XRT_ATTR_SHAPE:
		if (shape_of(attr, v, &rank, dims))
			return NULL;
		return xrt_op_set_attr_shape(op, attr, rank, dims);
	case XRT_ATTR_TENSOR:
		st = literal_of(v, &lit);
		if (!st && lit)
			st = xrt_op_set_attr_tensor(op, attr, lit);
		xrt_literal_destroy(lit);
		return st;
	default:
		PyErr_Format(PyExc_TypeError, "xrt: attribute '%s' cannot be set from Python yet",
			     attr);
		return NULL;
	}
}

/* A list attribute of ints, floats, bools or types. */
static xrt_status *set_list(xrt_op *op, const char *attr, enum xrt_attr_type type, PyObject *v)
{
	PyObject *seq = PySequence_Fast(v, "xrt: a list attribute wants a sequence");
	union { int64_t i[MAX_LIST]; float f[MAX_LIST]; bool b[MAX_LIST];
		enum xrt_dtype t[MAX_LIST]; } a;
	Py_ssize_t i, n;
	xrt_status *st = NULL;

	if (!seq)
		return NULL;
	n = PySequence_Fast_GET_SIZE(seq);
	if (n > MAX_LIST) {
		Py_DECREF(seq);
		PyErr_Format(PyExc_ValueError, "xrt: attribute '%s': %zd values, at most %d", attr,
			     n, MAX_LIST);
		return NULL;
	}
	for (i = 0; i < n && !PyErr_Occurred(); i++) {
		PyObject *x = PySequence_Fast_GET_ITEM(seq, i);

		if (type == XRT_ATTR_INT)
			a.i[i] = PyLong_AsLongLong(x);
		else if (type == XRT_ATTR_FLOAT)
			a.f[i] = (float)PyFloat_AsDouble(x);
		else if (type == XRT_ATTR_BOOL)
			a.b[i] = PyObject_IsTrue(x) == 1;
		else if (type == XRT_ATTR_TYPE)
			a.t[i] = pyxrt_dtype_from_object(x);
		else
			PyErr_Format(PyExc_TypeError,
				     "xrt: list attribute '%s' cannot be set from Python yet", attr);
	}
	Py_DECREF(seq);
	if (PyErr_Occurred())
		return NULL;
	if (type == XRT_ATTR_INT)
		st = xrt_op_set_attr_int_list(op, attr, a.i, (uint32_t)n);
	else if (type == XRT_ATTR_FLOAT)
		st = xrt_op_set_attr_float_list(op, attr, a.f, (uint32_t)n);
	else if (type == XRT_ATTR_BOOL)
		st = xrt_op_set_attr_bool_list(op, attr, a.b, (uint32_t)n);
	else
		st = xrt_op_set_attr_type_list(op, attr, a.t, (uint32_t)n);
	return st;
}

/* Keyword @name = @v onto @op; -1 with an exception. */
static int set_attr(xrt_op *op, PyObject *name, PyObject *v)
{
	const char *attr = PyUnicode_AsUTF8(name);
	enum xrt_attr_type type;
	bool is_list;
	xrt_status *st;

	if (!attr)
		return -1;
	st = xrt_op_attr_type(op, attr, &type, &is_list);
	if (!st)
		st = is_list ? set_list(op, attr, type, v) : set_one(op, attr, type, v);
	if (st) {
		pyxrt_raise(st);
		return -1;
	}
	return PyErr_Occurred() ? -1 : 0;
}

/* Bytes of @t's elements (none for a resource). */
static size_t tensor_bytes(const xrt_tensor *t)
{
	return (size_t)xrt_tensor_element_count(t) * xrt_dtype_size(xrt_tensor_dtype(t));
}

/* Is @o a non-empty list or tuple of tensors (an input list)? */
static bool is_tensor_list(PyObject *o)
{
	Py_ssize_t i, n;

	if (!PyList_Check(o) && !PyTuple_Check(o))
		return false;
	n = PySequence_Fast_GET_SIZE(o);
	for (i = 0; i < n; i++)
		if (!PyObject_TypeCheck(PySequence_Fast_GET_ITEM(o, i), &PyXrtTensor_Type))
			return false;
	return n > 0;
}

/* Positional arguments as inputs; @keep holds converted tensors. */
static int add_inputs(PyXrtContext *ctx, xrt_op *op, PyObject *const *args, Py_ssize_t nargs,
		      PyObject *keep, size_t *bytes)
{
	Py_ssize_t i, k;
	xrt_status *st;

	for (i = 0; i < nargs; i++) {
		PyObject *a = args[i];

		if (is_tensor_list(a)) {
			xrt_tensor *ts[MAX_LIST];
			Py_ssize_t n = PySequence_Fast_GET_SIZE(a);

			if (n > MAX_LIST) {
				PyErr_Format(PyExc_ValueError, "xrt: an input list of %zd tensors, "
					     "at most %d", n, MAX_LIST);
				return -1;
			}
			for (k = 0; k < n; k++) {
				ts[k] = ((PyXrtTensor *)PySequence_Fast_GET_ITEM(a, k))->t;
				*bytes += tensor_bytes(ts[k]);
			}
			st = xrt_op_add_input_list(op, ts, (uint32_t)n);
		} else {
			PyObject *t = pyxrt_as_tensor(ctx, a, XRT_INVALID);

			if (!t || PyList_Append(keep, t) < 0) {
				Py_XDECREF(t);
				return -1;
			}
			Py_DECREF(t);
			*bytes += tensor_bytes(((PyXrtTensor *)t)->t);
			st = xrt_op_add_input(op, ((PyXrtTensor *)t)->t);
		}
		if (st) {
			pyxrt_raise(st);
			return -1;
		}
	}
	return 0;
}

static PyObject *outputs(PyXrtContext *ctx, xrt_tensor **outs, uint32_t n)
{
	PyObject *tuple;
	uint32_t i;

	if (n == 1)
		return pyxrt_tensor_new(ctx, outs[0]);
	if (!n)
		Py_RETURN_NONE;
	tuple = PyTuple_New(n);
	for (i = 0; i < n; i++) {
		PyObject *t = tuple ? pyxrt_tensor_new(ctx, outs[i]) : NULL;

		if (!tuple) {
			xrt_tensor_unref(outs[i]);
			continue;
		}
		if (!t) {
			Py_CLEAR(tuple);
			continue;
		}
		PyTuple_SET_ITEM(tuple, i, t);
	}
	return tuple;
}

/* The op, made on the first call or reset for this one. */
static int ready(PyXrtOpFunc *f, PyXrtContext *ctx)
{
	xrt_status *st;

	if (f->op && f->ctx == ctx)
		st = xrt_op_reset(f->op, f->name, NULL);
	else {
		xrt_op_destroy(f->op);
		f->op = NULL;
		Py_XSETREF(f->ctx, (PyXrtContext *)Py_NewRef((PyObject *)ctx));
		st = xrt_op_create(ctx->c, f->name, &f->op);
	}
	if (st) {
		pyxrt_raise(st);
		return -1;
	}
	return 0;
}

/* The tracer's value type and the function that records an op on them. */
static PyObject *trace_type, *trace_hook;

PyObject *pyxrt_set_trace_hook(PyObject *m, PyObject *args)
{
	PyObject *type, *hook;

	if (!PyArg_ParseTuple(args, "O!O:_set_trace_hook", &PyType_Type, &type, &hook))
		return NULL;
	Py_XSETREF(trace_type, Py_NewRef(type));
	Py_XSETREF(trace_hook, Py_NewRef(hook));
	Py_RETURN_NONE;
}

/* Is @a, or an item of the list @a, a value being traced? */
static bool traced(PyObject *a)
{
	Py_ssize_t i;

	if ((PyObject *)Py_TYPE(a) == trace_type)
		return true;
	if (PyList_Check(a) || PyTuple_Check(a))
		for (i = 0; i < PySequence_Fast_GET_SIZE(a); i++)
			if ((PyObject *)Py_TYPE(PySequence_Fast_GET_ITEM(a, i)) == trace_type)
				return true;
	return false;
}

/* Hands a call on traced values to the tracer: hook(name, args, kwargs). */
static PyObject *to_tracer(PyXrtOpFunc *f, PyObject *const *args, Py_ssize_t nargs,
			   PyObject *kwnames)
{
	PyObject *t = PyTuple_New(nargs), *kw = PyDict_New(), *r = NULL;
	Py_ssize_t i;

	for (i = 0; t && i < nargs; i++)
		PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
	for (i = 0; kw && kwnames && i < PyTuple_GET_SIZE(kwnames); i++)
		if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
			Py_CLEAR(kw);
	if (t && kw)
		r = PyObject_CallFunction(trace_hook, "sOO", f->name, t, kw);
	Py_XDECREF(t);
	Py_XDECREF(kw);
	return r;
}

/* Runs @op (@f's own or a temporary one); big inputs without the GIL. */
static xrt_status *run_op(PyXrtOpFunc *f, xrt_op *op, xrt_tensor **outs, uint32_t *n,
			  size_t bytes)
{
	int own = op == f->op;
	xrt_status *st;

	if (bytes < RELEASE_GIL_BYTES)
		return xrt_op_execute(op, outs, n);
	f->busy += own;
	Py_BEGIN_ALLOW_THREADS
	st = xrt_op_execute(op, outs, n);
	Py_END_ALLOW_THREADS
	f->busy -= own;
	return st;
}

/*
 * The same op on new tensors: swap the inputs (unchanged types and shapes
 * keep the kernel, so libxrt skips its checks).  NULL with no exception
 * when the arguments do not allow it (then the call starts over).
 */
static PyObject *swap_inputs(PyXrtOpFunc *f, PyXrtContext *ctx, PyObject *const *args,
			     Py_ssize_t nargs)
{
	xrt_tensor *outs[MAX_OUTS];
	uint32_t n = MAX_OUTS;
	size_t bytes = 0;
	Py_ssize_t i;
	xrt_status *st;

	for (i = 0; i < nargs; i++)
		if (!PyObject_TypeCheck(args[i], &PyXrtTensor_Type))
			return NULL;
	for (i = 0; i < nargs; i++) {
		xrt_tensor *t = ((PyXrtTensor *)args[i])->t;

		st = xrt_op_set_input(f->op, (uint32_t)i, t);
		if (st) {		/* another type: start over */
			xrt_status_free(st);
			return NULL;
		}
		bytes += tensor_bytes(t);
	}
	st = run_op(f, f->op, outs, &n, bytes);
	return st ? pyxrt_raise(st) : outputs(ctx, outs, n);
}

PyObject *pyxrt_execute(PyXrtOpFunc *f, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
	Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), i;
	PyXrtContext *ctx = pyxrt_default_context();
	xrt_tensor *outs[MAX_OUTS];
	uint32_t n = MAX_OUTS;
	size_t bytes = 0;
	PyObject *keep;
	xrt_status *st;
	xrt_op *op;

	for (i = 0; trace_type && i < nargs; i++)
		if (traced(args[i]))
			return to_tracer(f, args, nargs, kwnames);
	if (!ctx)
		return NULL;
	if (!f->busy && !kwnames && nargs == f->simple && f->op && f->ctx == ctx) {
		PyObject *r = swap_inputs(f, ctx, args, nargs);

		if (r || PyErr_Occurred())
			return r;
	}
	/* the op is running in another thread: this call gets an op of its own */
	if (f->busy) {
		st = xrt_op_create(ctx->c, f->name, &op);
		if (st)
			return pyxrt_raise(st);
	} else {
		f->simple = -1;
		if (ready(f, ctx) < 0)
			return NULL;
		op = f->op;
	}
	keep = PyList_New(0);
	if (!keep || add_inputs(ctx, op, args, nargs, keep, &bytes) < 0)
		goto fail;
	for (i = 0; kwnames && i < PyTuple_GET_SIZE(kwnames); i++)
		if (set_attr(op, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
			goto fail;
	st = run_op(f, op, outs, &n, bytes);
	/* plain tensors, no attributes: the next such call may just swap them */
	if (op == f->op && !kwnames && PyList_GET_SIZE(keep) == nargs)
		f->simple = nargs;
	Py_DECREF(keep);
	if (op != f->op)
		xrt_op_destroy(op);
	return st ? pyxrt_raise(st) : outputs(ctx, outs, n);
fail:
	Py_XDECREF(keep);
	if (op != f->op)
		xrt_op_destroy(op);
	return NULL;
}

/* --- operators ---------------------------------------------------------- */

PyObject *pyxrt_cached_op(const char *name)
{
	static const char *const names[] = { "AddV2", "Sub", "Mul", "RealDiv", "FloorDiv",
					      "FloorMod", "Pow", "MatMul", "BatchMatMulV2",
					      "LogicalAnd", "LogicalOr", "Neg", "Abs", "LogicalNot",
					      "Less", "LessEqual", "Greater", "GreaterEqual",
					      "StridedSlice" };
	static PyObject *funcs[sizeof(names) / sizeof(names[0])];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(names[i], name))
			continue;
		if (!funcs[i])
			funcs[i] = pyxrt_op_new(name);
		return funcs[i];
	}
	PyErr_Format(PyExc_SystemError, "xrt: no operator op %s", name);
	return NULL;
}

PyObject *pyxrt_binary(const char *name, PyObject *a, PyObject *b)
{
	PyXrtTensor *t = PyObject_TypeCheck(a, &PyXrtTensor_Type) ? (PyXrtTensor *)a :
			 (PyXrtTensor *)b;
	PyObject *args[2], *f, *r = NULL;
	enum xrt_dtype like = xrt_tensor_dtype(t->t);

	/* numbers take the tensor's type: x + 1 keeps x's */
	args[0] = (PyObject *)t == a ? Py_NewRef(a) : pyxrt_as_tensor(t->ctx, a, like);
	args[1] = !b || (PyObject *)t == b ? Py_XNewRef(b) : pyxrt_as_tensor(t->ctx, b, like);
	if (!args[0] || (b && !args[1])) {
		/* not something a tensor combines with: let Python say so */
		if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError)) {
			PyErr_Clear();
			r = Py_NewRef(Py_NotImplemented);
		}
		goto out;
	}
	if (!strcmp(name, "@"))
		name = xrt_tensor_rank(((PyXrtTensor *)args[0])->t) == 2 &&
		       xrt_tensor_rank(((PyXrtTensor *)args[1])->t) == 2 ? "MatMul" :
									     "BatchMatMulV2";
	f = pyxrt_cached_op(name);
	if (f)
		r = PyObject_Vectorcall(f, args, b ? 2 : 1, NULL);
out:
	Py_XDECREF(args[0]);
	Py_XDECREF(args[1]);
	return r;
}

/* --- the OpFunc type ------------------------------------------------------ */

PyObject *pyxrt_op_new(const char *name)
{
	PyXrtContext *ctx = pyxrt_default_context();
	PyXrtOpFunc *f;
	xrt_status *st;

	if (!ctx)
		return NULL;
	if (strlen(name) >= sizeof(f->name)) {
		PyErr_Format(PyExc_ValueError, "xrt: op name '%.64s...' is too long", name);
		return NULL;
	}
	f = PyObject_New(PyXrtOpFunc, &PyXrtOpFunc_Type);
	if (!f)
		return NULL;
	strcpy(f->name, name);
	f->simple = -1;
	f->busy = 0;
	f->vectorcall = (vectorcallfunc)pyxrt_execute;
	f->ctx = (PyXrtContext *)Py_NewRef((PyObject *)ctx);
	/* made now, so an unknown name fails here and not at the first call */
	st = xrt_op_create(ctx->c, name, &f->op);
	if (st) {
		f->op = NULL;
		Py_DECREF(f);
		return pyxrt_raise(st);
	}
	return (PyObject *)f;
}

static void opfunc_dealloc(PyXrtOpFunc *f)
{
	xrt_op_destroy(f->op);
	Py_XDECREF(f->ctx);
	PyObject_Free(f);
}

static PyObject *opfunc_repr(PyXrtOpFunc *f)
{
	return PyUnicode_FromFormat("<xrt op %s>", f->name);
}

static PyObject *opfunc_name(PyXrtOpFunc *f, void *unused)
{
	return PyUnicode_FromString(f->name);
}

static PyGetSetDef opfunc_getset[] = {
	{ "__name__", (getter)opfunc_name, NULL, "The op's registry name.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

PyTypeObject PyXrtOpFunc_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xrt.OpFunc",
	.tp_doc = "An eager op: call it with input tensors and keyword attributes.",
	.tp_basicsize = sizeof(PyXrtOpFunc),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
	.tp_dealloc = (destructor)opfunc_dealloc,
	.tp_repr = (reprfunc)opfunc_repr,
	.tp_call = PyVectorcall_Call,
	.tp_vectorcall_offset = offsetof(PyXrtOpFunc, vectorcall),
	.tp_getset = opfunc_getset,
};
