// SPDX-License-Identifier: MIT
/*
 * xrt._xrt: the module, its exceptions (one per status code, each also
 * the Python exception a caller would expect: NotFoundError is a
 * LookupError, InvalidArgumentError a ValueError, ...), element types,
 * contexts and the device list.
 */
#include "pyxrt.h"

#include <string.h>

#include <xrt/device.h>
#include <xrt/xrt.h>

static PyObject *errors[XRT_DATA_LOSS + 1];
static PyXrtContext *default_ctx;

PyObject *pyxrt_raise(xrt_status *st)
{
	enum xrt_code code = xrt_status_code(st);
	PyObject *type = code > 0 && code <= XRT_DATA_LOSS ? errors[code] : errors[XRT_UNKNOWN];
	PyObject *exc = PyObject_CallFunction(type, "s", xrt_status_message(st));

	if (exc) {
		PyObject *v = PyLong_FromLong((long)code);

		if (v)
			PyObject_SetAttrString(exc, "code", v);
		Py_XDECREF(v);
		PyErr_SetObject(type, exc);
		Py_DECREF(exc);
	}
	xrt_status_free(st);
	return NULL;
}

/* Each code's exception, with the builtin it also derives from. */
static int add_errors(PyObject *m)
{
	static const struct {
		enum xrt_code code;
		const char *name;
		PyObject **base;
	} map[] = {
		{ XRT_CANCELLED, "CancelledError", NULL },
		{ XRT_UNKNOWN, "UnknownError", NULL },
		{ XRT_INVALID_ARGUMENT, "InvalidArgumentError", &PyExc_ValueError },
		{ XRT_DEADLINE_EXCEEDED, "DeadlineExceededError", &PyExc_TimeoutError },
		{ XRT_NOT_FOUND, "NotFoundError", &PyExc_LookupError },
		{ XRT_ALREADY_EXISTS, "AlreadyExistsError", NULL },
		{ XRT_PERMISSION_DENIED, "PermissionDeniedError", &PyExc_PermissionError },
		{ XRT_RESOURCE_EXHAUSTED, "ResourceExhaustedError", &PyExc_MemoryError },
		{ XRT_FAILED_PRECONDITION, "FailedPreconditionError", NULL },
		{ XRT_ABORTED, "AbortedError", NULL },
		{ XRT_OUT_OF_RANGE, "OutOfRangeError", &PyExc_IndexError },
		{ XRT_UNIMPLEMENTED, "UnimplementedError", &PyExc_NotImplementedError },
		{ XRT_INTERNAL, "InternalError", NULL },
		{ XRT_UNAVAILABLE, "UnavailableError", NULL },
		{ XRT_DATA_LOSS, "DataLossError", NULL },
	};
	PyObject *base = PyErr_NewExceptionWithDoc(
		"xrt.Error", "An XRT call failed; .code is its status code (xrt.codes).",
		PyExc_RuntimeError, NULL);
	size_t i;

	if (!base || PyModule_AddObjectRef(m, "Error", base) < 0)
		return -1;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		char full[96];
		PyObject *bases = map[i].base ? PyTuple_Pack(2, base, *map[i].base) :
						PyTuple_Pack(1, base);

		snprintf(full, sizeof(full), "xrt.%s", map[i].name);
		errors[map[i].code] = bases ? PyErr_NewException(full, bases, NULL) : NULL;
		Py_XDECREF(bases);
		if (!errors[map[i].code] ||
		    PyModule_AddObjectRef(m, map[i].name, errors[map[i].code]) < 0)
			return -1;
	}
	Py_DECREF(base);
	return 0;
}

/* --- element types ------------------------------------------------------ */

static const struct {
	enum xrt_dtype t;
	const char *numpy, *format;
} dtypes[] = {
	{ XRT_PRED, "bool", "?" },	{ XRT_S8, "int8", "b" },
	{ XRT_S16, "int16", "h" },	{ XRT_S32, "int32", "i" },
	{ XRT_S64, "int64", "q" },	{ XRT_U8, "uint8", "B" },
	{ XRT_U16, "uint16", "H" },	{ XRT_U32, "uint32", "I" },
	{ XRT_U64, "uint64", "Q" },	{ XRT_F16, "float16", "e" },
	{ XRT_BF16, "bfloat16", NULL },	{ XRT_F32, "float32", "f" },
	{ XRT_F64, "float64", "d" },	{ XRT_C64, "complex64", "Zf" },
	{ XRT_C128, "complex128", "Zd" },
	/* ml_dtypes' names; numpy itself has no such types */
	{ XRT_S4, "int4", NULL },	{ XRT_U4, "uint4", NULL },
	{ XRT_S2, "int2", NULL },	{ XRT_U2, "uint2", NULL },
	{ XRT_F8E5M2, "float8_e5m2", NULL },	{ XRT_F8E4M3FN, "float8_e4m3fn", NULL },
	{ XRT_F8E4M3B11FNUZ, "float8_e4m3b11fnuz", NULL },
	{ XRT_F8E5M2FNUZ, "float8_e5m2fnuz", NULL },
	{ XRT_F8E4M3FNUZ, "float8_e4m3fnuz", NULL },	{ XRT_F8E4M3, "float8_e4m3", NULL },
	{ XRT_F8E3M4, "float8_e3m4", NULL },	{ XRT_F8E8M0FNU, "float8_e8m0fnu", NULL },
	{ XRT_F4E2M1FN, "float4_e2m1fn", NULL },
};

const char *pyxrt_dtype_numpy_name(enum xrt_dtype t)
{
	size_t i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (dtypes[i].t == t)
			return dtypes[i].numpy;
	return "invalid";
}

const char *pyxrt_dtype_format(enum xrt_dtype t)
{
	size_t i;

	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (dtypes[i].t == t)
			return dtypes[i].format;
	return NULL;
}

enum xrt_dtype pyxrt_dtype_from_format(const char *f)
{
	size_t i;

	if (!f)
		return XRT_U8;		/* "B" is the default format */
	if (*f == '<' || *f == '=' || *f == '@')
		f++;
	/* C long and unsigned long are 64 bits on the platforms we build for */
	if (!strcmp(f, "l"))
		return sizeof(long) == 8 ? XRT_S64 : XRT_S32;
	if (!strcmp(f, "L"))
		return sizeof(long) == 8 ? XRT_U64 : XRT_U32;
	for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (dtypes[i].format && !strcmp(dtypes[i].format, f))
			return dtypes[i].t;
	return XRT_INVALID;
}

/* "float32", "f32", numpy.float32, numpy.dtype('float32'), float, int, bool. */
enum xrt_dtype pyxrt_dtype_from_object(PyObject *o)
{
	enum xrt_dtype t = XRT_INVALID;
	PyObject *name = NULL;
	const char *s;
	size_t i;

	if (o == (PyObject *)&PyFloat_Type)
		return XRT_F32;
	if (o == (PyObject *)&PyLong_Type)
		return XRT_S32;
	if (o == (PyObject *)&PyBool_Type)
		return XRT_PRED;
	if (PyUnicode_Check(o))
		name = Py_NewRef(o);
	else if (PyObject_HasAttrString(o, "name") && PyObject_HasAttrString(o, "itemsize"))
		name = PyObject_GetAttrString(o, "name");		/* numpy.dtype */
	else if (PyType_Check(o) && PyObject_HasAttrString(o, "__name__"))
		name = PyObject_GetAttrString(o, "__name__");		/* numpy.float32 */
	s = name ? PyUnicode_AsUTF8(name) : NULL;
	if (s) {
		for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]) && !t; i++)
			if (!strcmp(dtypes[i].numpy, s))
				t = dtypes[i].t;
		if (!t)
			t = xrt_dtype_from_name(s, strlen(s));
		if (t == XRT_TUPLE)
			t = XRT_INVALID;
	}
	if (!t && !PyErr_Occurred())
		PyErr_Format(PyExc_TypeError, "xrt: %R is not an element type", o);
	Py_XDECREF(name);
	return t;
}

/* --- contexts ----------------------------------------------------------- */

static PyObject *context_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	static char *names[] = { "device", "threads", NULL };
	struct xrt_eager_options o = { 0 };
	const char *device = NULL;
	unsigned int threads = 0;
	PyXrtContext *self;
	xrt_status *st;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|zI:Context", names, &device, &threads))
		return NULL;
	o.device = device;
	o.threads = threads;
	self = (PyXrtContext *)type->tp_alloc(type, 0);
	if (!self)
		return NULL;
	st = xrt_eager_context_create(&o, NULL, &self->c);
	if (st) {
		Py_DECREF(self);
		return pyxrt_raise(st);
	}
	return (PyObject *)self;
}

static void context_dealloc(PyXrtContext *self)
{
	xrt_eager_context_destroy(self->c);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *context_devices(PyXrtContext *self, PyObject *unused)
{
	uint32_t i, n = xrt_eager_num_devices(self->c);
	PyObject *l = PyList_New(n);

	for (i = 0; l && i < n; i++)
		PyList_SET_ITEM(l, i, PyUnicode_FromString(xrt_eager_device_name(self->c, i)));
	return l;
}

static PyObject *context_clear_caches(PyXrtContext *self, PyObject *unused)
{
	Py_BEGIN_ALLOW_THREADS
	xrt_eager_clear_caches(self->c);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

static PyMethodDef context_methods[] = {
	{ "devices", (PyCFunction)context_devices, METH_NOARGS,
	  "The names of the context's devices." },
	{ "clear_caches", (PyCFunction)context_clear_caches, METH_NOARGS,
	  "Forget compiled kernels and free kept tensor memory." },
	{ NULL, NULL, 0, NULL },
};

PyTypeObject PyXrtContext_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xrt.Context",
	.tp_doc = "Context(device=None, threads=0): devices, placement and kernel cache\n"
		  "of eager execution.  xrt.context() is the one ops use.",
	.tp_basicsize = sizeof(PyXrtContext),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = context_new,
	.tp_dealloc = (destructor)context_dealloc,
	.tp_methods = context_methods,
};

PyXrtContext *pyxrt_default_context(void)
{
	if (!default_ctx) {
		PyObject *args = PyTuple_New(0);

		default_ctx = args ? (PyXrtContext *)context_new(&PyXrtContext_Type, args, NULL) :
				     NULL;
		Py_XDECREF(args);
	}
	return default_ctx;
}

static PyObject *mod_context(PyObject *m, PyObject *unused)
{
	PyXrtContext *c = pyxrt_default_context();

	return c ? Py_NewRef((PyObject *)c) : NULL;
}

/* xrt.devices(): every device present, as "host:0", "accel:0", ... */
static PyObject *mod_devices(PyObject *m, PyObject *unused)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;
	xrt_status *st = xrt_devices_list(NULL, &v, &n);
	PyObject *l;

	if (st)
		return pyxrt_raise(st);
	l = PyList_New((Py_ssize_t)n);
	for (i = 0; l && i < n; i++)
		PyList_SET_ITEM(l, (Py_ssize_t)i, PyUnicode_FromString(v[i].name));
	xrt_free(NULL, v);
	return l;
}

static PyObject *mod_tensor(PyObject *m, PyObject *args, PyObject *kw)
{
	static char *names[] = { "value", "dtype", "device", NULL };
	PyObject *value, *dtype = Py_None, *out;
	const char *device = NULL;
	enum xrt_dtype t = XRT_INVALID;
	PyXrtContext *ctx = pyxrt_default_context();

	if (!ctx || !PyArg_ParseTupleAndKeywords(args, kw, "O|Oz:tensor", names, &value, &dtype,
						 &device))
		return NULL;
	if (dtype != Py_None && !(t = pyxrt_dtype_from_object(dtype)))
		return NULL;
	out = pyxrt_as_tensor(ctx, value, t);
	if (out && t && xrt_tensor_dtype(((PyXrtTensor *)out)->t) != t) {
		PyErr_Format(PyExc_TypeError, "xrt.tensor: the value is %s, not %s",
			     pyxrt_dtype_numpy_name(xrt_tensor_dtype(((PyXrtTensor *)out)->t)),
			     pyxrt_dtype_numpy_name(t));
		Py_CLEAR(out);
	}
	if (out && device && strcmp(device, xrt_tensor_device(((PyXrtTensor *)out)->t))) {
		xrt_tensor *moved = NULL;
		xrt_status *st = xrt_tensor_copy_to_device(((PyXrtTensor *)out)->t, device, &moved);

		Py_DECREF(out);
		out = st ? pyxrt_raise(st) : pyxrt_tensor_new(ctx, moved);
	}
	return out;
}

static PyObject *mod_op(PyObject *m, PyObject *arg)
{
	const char *name = PyUnicode_AsUTF8(arg);

	return name ? pyxrt_op_new(name) : NULL;
}

/* --- for the tracer (xrt/_function.py) ------------------------------------ */

static PyObject *mod_index_spec(PyObject *m, PyObject *key)
{
	int64_t b[16], e[16], st[16], masks[5];
	Py_ssize_t i, n = pyxrt_index_spec(key, b, e, st, masks);
	PyObject *lb, *le, *ls, *r;

	if (n < 0)
		return NULL;
	lb = PyList_New(n);
	le = PyList_New(n);
	ls = PyList_New(n);
	for (i = 0; lb && le && ls && i < n; i++) {
		PyList_SET_ITEM(lb, i, PyLong_FromLongLong(b[i]));
		PyList_SET_ITEM(le, i, PyLong_FromLongLong(e[i]));
		PyList_SET_ITEM(ls, i, PyLong_FromLongLong(st[i]));
	}
	r = lb && le && ls ? Py_BuildValue("OOO(LLLLL)", lb, le, ls, masks[0], masks[1], masks[2],
					   masks[3], masks[4]) : NULL;
	Py_XDECREF(lb);
	Py_XDECREF(le);
	Py_XDECREF(ls);
	return r;
}

static PyObject *mod_attr_type(PyObject *m, PyObject *args)
{
	static const char *const kinds[] = { "?", "string", "int", "float", "bool", "type",
					     "shape", "tensor", "func" };
	PyXrtContext *ctx = pyxrt_default_context();
	enum xrt_attr_type type;
	const char *op, *attr;
	bool is_list;
	xrt_status *st;

	if (!ctx || !PyArg_ParseTuple(args, "ss:_attr_type", &op, &attr))
		return NULL;
	st = xrt_op_name_attr_type(ctx->c, op, attr, &type, &is_list);
	if (st)
		return pyxrt_raise(st);
	return Py_BuildValue("(sO)", type <= XRT_ATTR_FUNC ? kinds[type] : "?",
			     is_list ? Py_True : Py_False);
}

static PyObject *mod_dtype_code(PyObject *m, PyObject *arg)
{
	enum xrt_dtype t = pyxrt_dtype_from_object(arg);

	return t ? PyLong_FromLong((long)t) : NULL;
}

static PyObject *mod_add_function(PyObject *m, PyObject *arg)
{
	PyXrtContext *ctx = pyxrt_default_context();
	xrt_status *st;

	if (!ctx)
		return NULL;
	if (!PyBytes_Check(arg)) {
		PyErr_SetString(PyExc_TypeError, "xrt: _add_function takes FunctionDef bytes");
		return NULL;
	}
	st = xrt_eager_add_function(ctx->c, PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg));
	if (st)
		return pyxrt_raise(st);
	Py_RETURN_NONE;
}

static PyObject *mod_distributed_init(PyObject *unused, PyObject *args, PyObject *kw)
{
	static char *names[] = { "rank", "size", "coordinator", NULL };
	struct xrt_distributed_options o = { -1, 0, NULL };
	xrt_status *st;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|$iiz:distributed_init", names, &o.rank,
					 &o.size, &o.coordinator))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	st = xrt_distributed_init(&o);
	Py_END_ALLOW_THREADS
	if (st)
		return pyxrt_raise(st);
	Py_RETURN_NONE;
}

static PyObject *mod_distributed_rank(PyObject *unused, PyObject *noargs)
{
	uint32_t rank, size;

	if (!xrt_distributed_rank(&rank, &size))
		Py_RETURN_NONE;
	return Py_BuildValue("(II)", rank, size);
}

static PyObject *mod_distributed_launched(PyObject *unused, PyObject *noargs)
{
	return PyBool_FromLong(xrt_distributed_launched());
}

static PyObject *mod_distributed_shutdown(PyObject *unused, PyObject *noargs)
{
	xrt_status *st;

	Py_BEGIN_ALLOW_THREADS
	st = xrt_distributed_shutdown();
	Py_END_ALLOW_THREADS
	if (st)
		return pyxrt_raise(st);
	Py_RETURN_NONE;
}

static PyObject *mod_distributed_abort(PyObject *unused, PyObject *arg)
{
	long status = PyLong_AsLong(arg);

	if (status == -1 && PyErr_Occurred())
		return NULL;
	xrt_distributed_abort((int)status);
	Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
	{ "distributed_init", (PyCFunction)(void (*)(void))mod_distributed_init,
	  METH_VARARGS | METH_KEYWORDS,
	  "distributed_init(*, rank=-1, size=0, coordinator=None): join the process group\n"
	  "mpirun or srun launched (MPI, loaded now); rank and size, when given, are\n"
	  "checked against the launcher's.  Processes started apart give their rank,\n"
	  "the size and coordinator, Open MPI's ompi-server URI ('file:PATH' of it).\n"
	  "Session.execute_replicated then spans the processes." },
	{ "distributed_rank", mod_distributed_rank, METH_NOARGS,
	  "distributed_rank(): (rank, size) of this process in its group, or None." },
	{ "distributed_launched", mod_distributed_launched, METH_NOARGS,
	  "distributed_launched(): whether a launcher started this process among others." },
	{ "distributed_shutdown", mod_distributed_shutdown, METH_NOARGS,
	  "distributed_shutdown(): leave the group (a broken one aborts the job)." },
	{ "distributed_abort", mod_distributed_abort, METH_O,
	  "distributed_abort(status): end every process of the group (MPI_Abort)." },
	{ "_set_trace_hook", pyxrt_set_trace_hook, METH_VARARGS,
	  "_set_trace_hook(type, hook): ops given values of type call hook(name, args, kwargs)." },
	{ "_index_spec", mod_index_spec, METH_O,
	  "_index_spec(key): StridedSlice's (begin, end, strides, masks) for a basic index." },
	{ "_attr_type", mod_attr_type, METH_VARARGS,
	  "_attr_type(op, attr): (kind, is_list) of an op's attribute." },
	{ "_dtype_code", mod_dtype_code, METH_O, "_dtype_code(dtype): XRT's element type number." },
	{ "_add_function", mod_add_function, METH_O,
	  "_add_function(function_def_bytes): register a serialized xrt.FunctionDef." },
	{ "context", mod_context, METH_NOARGS, "The default eager context." },
	{ "devices", mod_devices, METH_NOARGS, "The names of the devices present." },
	{ "tensor", (PyCFunction)(void (*)(void))mod_tensor, METH_VARARGS | METH_KEYWORDS,
	  "tensor(value, dtype=None, device=None): a tensor holding a copy of value." },
	{ "op", mod_op, METH_O, "op(name): the callable that runs eager op name." },
	{ "from_dlpack", pyxrt_from_dlpack, METH_O,
	  "from_dlpack(x): a host tensor over x's memory (x has __dlpack__, or is a\n"
	  "DLPack capsule); copied when it is not 64-byte aligned." },
	{ NULL, NULL, 0, NULL },
};

static void module_free(void *m)
{
	Py_CLEAR(default_ctx);
}

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "_xrt", "XRT's eager API and XRT API (see the xrt package).", -1,
	module_methods, NULL, NULL, NULL, module_free,
};

PyMODINIT_FUNC PyInit__xrt(void);

PyMODINIT_FUNC PyInit__xrt(void)
{
	PyObject *m;

	if (PyType_Ready(&PyXrtContext_Type) < 0 || PyType_Ready(&PyXrtTensor_Type) < 0 ||
	    PyType_Ready(&PyXrtOpFunc_Type) < 0)
		return NULL;
	m = PyModule_Create(&module);
	if (!m)
		return NULL;
	if (add_errors(m) < 0 || pyxrt_session_ready(m) < 0 || pyxrt_event_ready(m) < 0 ||
	    PyModule_AddObjectRef(m, "Context", (PyObject *)&PyXrtContext_Type) < 0 ||
	    PyModule_AddObjectRef(m, "Tensor", (PyObject *)&PyXrtTensor_Type) < 0 ||
	    PyModule_AddObjectRef(m, "OpFunc", (PyObject *)&PyXrtOpFunc_Type) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
