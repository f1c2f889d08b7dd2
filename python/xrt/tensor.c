// SPDX-License-Identifier: MIT
/*
 * xrt.Tensor: an immutable value on a device.  Host tensors export their
 * memory read-only through the buffer protocol, so numpy.asarray(t) and
 * t.numpy() share it without a copy; making a tensor from a buffer
 * copies.  Arithmetic operators run the eager ops.
 */
#include "pyxrt.h"

#include <string.h>

#include <xrt/literal.h>

PyObject *pyxrt_tensor_new(PyXrtContext *ctx, xrt_tensor *t)
{
	PyXrtTensor *self = PyObject_New(PyXrtTensor, &PyXrtTensor_Type);
	uint32_t i, rank = xrt_tensor_rank(t);
	Py_ssize_t stride;

	if (!self) {
		xrt_tensor_unref(t);
		return NULL;
	}
	self->t = t;
	self->ctx = (PyXrtContext *)Py_NewRef((PyObject *)ctx);
	self->exports = 0;
	stride = xrt_tensor_is_resource(t) ? 0 : (Py_ssize_t)xrt_dtype_size(xrt_tensor_dtype(t));
	for (i = rank; i-- > 0;) {
		self->shape[i] = (Py_ssize_t)xrt_tensor_dim(t, i);
		self->strides[i] = stride;
		stride *= self->shape[i];
	}
	return (PyObject *)self;
}

static void tensor_dealloc(PyXrtTensor *self)
{
	xrt_tensor_unref(self->t);
	Py_XDECREF(self->ctx);
	PyObject_Free(self);
}

static PyObject *from_buffer_as(PyXrtContext *ctx, Py_buffer *v, enum xrt_dtype t);

/* A tensor of @dtype from a C-contiguous buffer @v (copied). */
static PyObject *from_buffer(PyXrtContext *ctx, Py_buffer *v)
{
	return from_buffer_as(ctx, v, pyxrt_dtype_from_format(v->format));
}

/* The same, its elements of type @t (XRT_INVALID: no XRT type had the format). */
static PyObject *from_buffer_as(PyXrtContext *ctx, Py_buffer *v, enum xrt_dtype t)
{
	int64_t dims[XRT_MAX_RANK];
	xrt_tensor *out = NULL;
	xrt_status *st;
	int i;

	if (!t) {
		PyErr_Format(PyExc_TypeError, "xrt: buffer format '%s' is no XRT element type",
			     v->format);
		return NULL;
	}
	if (v->ndim > XRT_MAX_RANK) {
		PyErr_Format(PyExc_ValueError, "xrt: rank %d is above %d", v->ndim, XRT_MAX_RANK);
		return NULL;
	}
	if (v->itemsize != (Py_ssize_t)xrt_dtype_size(t)) {
		PyErr_Format(PyExc_TypeError, "xrt: format '%s' with %zd-byte items", v->format,
			     v->itemsize);
		return NULL;
	}
	for (i = 0; i < v->ndim; i++)
		dims[i] = v->shape ? (int64_t)v->shape[i] : (int64_t)(v->len / v->itemsize);
	Py_BEGIN_ALLOW_THREADS
	st = xrt_tensor_from_host(ctx->c, t, (uint32_t)v->ndim, dims, v->buf, (size_t)v->len, &out);
	Py_END_ALLOW_THREADS
	return st ? pyxrt_raise(st) : pyxrt_tensor_new(ctx, out);
}

/* A scalar tensor of @t holding Python number @o; NULL with no exception if @t is no fit. */
static PyObject *from_scalar(PyXrtContext *ctx, PyObject *o, enum xrt_dtype t)
{
	union { float f; double d; int32_t i; int64_t l; uint8_t b; } v;
	xrt_tensor *out = NULL;
	xrt_status *st;
	double d;

	if (!t)
		t = PyBool_Check(o) ? XRT_PRED : PyLong_Check(o) ? XRT_S32 : XRT_F32;
	if (t == XRT_PRED && PyBool_Check(o)) {
		v.b = o == Py_True;
	} else if (t == XRT_S32 || t == XRT_S64) {
		long long x = PyLong_AsLongLong(o);

		if (x == -1 && PyErr_Occurred())
			return NULL;
		if (t == XRT_S32 && (x < INT32_MIN || x > INT32_MAX))
			t = XRT_S64;		/* an int that needs 64 bits */
		if (t == XRT_S32)
			v.i = (int32_t)x;
		else
			v.l = (int64_t)x;
	} else if (t == XRT_F32 || t == XRT_F64) {
		d = PyFloat_AsDouble(o);
		if (d == -1 && PyErr_Occurred())
			return NULL;
		if (t == XRT_F32)
			v.f = (float)d;
		else
			v.d = d;
	} else {
		return NULL;
	}
	st = xrt_tensor_from_host(ctx->c, t, 0, NULL, &v, xrt_dtype_size(t), &out);
	return st ? pyxrt_raise(st) : pyxrt_tensor_new(ctx, out);
}

static PyObject *numpy_module(void)
{
	static PyObject *np;

	if (!np)
		np = PyImport_ImportModule("numpy");
	return np;
}

/* numpy.asarray(@obj, dtype=@dtype, order='C'): C order, and 0-d stays 0-d. */
static PyObject *c_array(PyObject *np, PyObject *obj, const char *dtype)
{
	PyObject *f = PyObject_GetAttrString(np, "asarray"), *args = PyTuple_Pack(1, obj), *r = NULL;
	PyObject *kw = dtype ? Py_BuildValue("{s:s,s:s}", "dtype", dtype, "order", "C") :
			       Py_BuildValue("{s:s}", "order", "C");

	if (f && args && kw)
		r = PyObject_Call(f, args, kw);
	Py_XDECREF(f);
	Py_XDECREF(args);
	Py_XDECREF(kw);
	return r;
}

/* A Python value (not a buffer) as a C-contiguous numpy array, TF's defaults. */
static PyObject *as_array(PyObject *obj, enum xrt_dtype like)
{
	PyObject *np = numpy_module(), *arr, *kind;
	const char *narrow = NULL;

	if (!np)
		return NULL;
	if (like && like != XRT_BF16)
		return c_array(np, obj, pyxrt_dtype_numpy_name(like));
	arr = c_array(np, obj, NULL);
	if (!arr)
		return NULL;
	/* Python floats become f32 and ints s32, as TensorFlow makes them */
	kind = PyObject_GetAttrString(arr, "dtype");
	if (kind) {
		PyObject *name = PyObject_GetAttrString(kind, "name");
		const char *s = name ? PyUnicode_AsUTF8(name) : NULL;

		if (s && !strcmp(s, "float64"))
			narrow = "float32";
		else if (s && !strcmp(s, "int64"))
			narrow = "int32";
		Py_XDECREF(name);
		Py_DECREF(kind);
	}
	if (narrow) {
		PyObject *n = PyObject_CallMethod(arr, "astype", "s", narrow);

		/* ints that do not fit stay int64 */
		if (n && !strcmp(narrow, "int32")) {
			PyObject *cmp = PyObject_RichCompare(n, arr, Py_EQ);
			PyObject *all = cmp ? PyObject_CallMethod(cmp, "all", NULL) : NULL;

			if (!all || PyObject_IsTrue(all) != 1)
				Py_CLEAR(n);
			Py_XDECREF(cmp);
			Py_XDECREF(all);
			PyErr_Clear();
		}
		if (n) {
			Py_DECREF(arr);
			arr = n;
		}
	}
	return arr;
}

/*
 * A numpy array of a type numpy itself lacks (ml_dtypes' bfloat16,
 * float8_e4m3fn, int4, ...), whose dtype no buffer can carry: its bytes
 * through a uint8 or uint16 view, typed by the dtype's name.  NULL with
 * no exception when @obj is no such array.
 */
static PyObject *from_named_dtype(PyXrtContext *ctx, PyObject *obj)
{
	PyObject *dt = PyObject_GetAttrString(obj, "dtype"), *np, *arr = NULL, *name, *u;
	enum xrt_dtype t = XRT_INVALID;
	PyObject *out = NULL;
	Py_buffer v;

	name = dt ? PyObject_GetAttrString(dt, "name") : NULL;
	if (name && PyUnicode_Check(name))
		t = pyxrt_dtype_from_object(name);
	Py_XDECREF(name);
	Py_XDECREF(dt);
	PyErr_Clear();
	if (!t || pyxrt_dtype_format(t))
		return NULL;
	np = numpy_module();
	if (np)
		arr = c_array(np, obj, NULL);	/* not ascontiguousarray: 0-d stays 0-d */
	u = arr ? PyObject_CallMethod(arr, "view", "s",
				      xrt_dtype_size(t) == 2 ? "uint16" : "uint8") : NULL;
	if (u && PyObject_GetBuffer(u, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
		out = from_buffer_as(ctx, &v, t);
		PyBuffer_Release(&v);
	}
	Py_XDECREF(u);
	Py_XDECREF(arr);
	return out;
}

PyObject *pyxrt_as_tensor(PyXrtContext *ctx, PyObject *obj, enum xrt_dtype like)
{
	PyObject *arr, *out;
	Py_buffer v;

	if (PyObject_TypeCheck(obj, &PyXrtTensor_Type))
		return Py_NewRef(obj);
	if (PyFloat_Check(obj) || PyLong_Check(obj)) {
		out = from_scalar(ctx, obj, like);
		if (out || PyErr_Occurred())
			return out;
	}
	if (PyObject_CheckBuffer(obj) &&
	    PyObject_GetBuffer(obj, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
		out = from_buffer(ctx, &v);
		PyBuffer_Release(&v);
		return out;
	}
	PyErr_Clear();
	out = from_named_dtype(ctx, obj);
	if (out || PyErr_Occurred())
		return out;
	arr = as_array(obj, PyObject_CheckBuffer(obj) ? XRT_INVALID : like);
	if (!arr)
		return NULL;
	if (PyObject_GetBuffer(arr, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
		Py_DECREF(arr);
		return NULL;
	}
	out = from_buffer(ctx, &v);
	PyBuffer_Release(&v);
	Py_DECREF(arr);
	return out;
}

/* --- buffer protocol ---------------------------------------------------- */

static int tensor_getbuffer(PyXrtTensor *self, Py_buffer *view, int flags)
{
	enum xrt_dtype t = xrt_tensor_dtype(self->t);
	const char *format = pyxrt_dtype_format(t);
	size_t size = 0;
	const void *data = xrt_tensor_data(self->t, &size);

	if (flags & PyBUF_WRITABLE) {
		PyErr_SetString(PyExc_BufferError, "xrt: tensors are values: read-only");
		return -1;
	}
	if (!data) {
		PyErr_Format(PyExc_BufferError, "xrt: a tensor on %s has no host memory to share",
			     xrt_tensor_device(self->t));
		return -1;
	}
	if (!format) {
		PyErr_Format(PyExc_BufferError, "xrt: %s has no buffer format: cast it first",
			     pyxrt_dtype_numpy_name(t));
		return -1;
	}
	view->buf = (void *)data;
	view->obj = Py_NewRef((PyObject *)self);
	view->len = (Py_ssize_t)size;
	view->readonly = 1;
	view->itemsize = (Py_ssize_t)xrt_dtype_size(t);
	view->format = (flags & PyBUF_FORMAT) ? (char *)format : NULL;
	view->ndim = (int)xrt_tensor_rank(self->t);
	view->shape = (flags & PyBUF_ND) ? self->shape : NULL;
	view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? self->strides : NULL;
	view->suboffsets = NULL;
	view->internal = NULL;
	self->exports++;
	return 0;
}

static void tensor_releasebuffer(PyXrtTensor *self, Py_buffer *view)
{
	self->exports--;
}

static PyBufferProcs tensor_as_buffer = {
	(getbufferproc)tensor_getbuffer,
	(releasebufferproc)tensor_releasebuffer,
};

/* --- attributes and methods -------------------------------------------- */

static PyObject *tensor_shape(PyXrtTensor *self, void *unused)
{
	uint32_t i, rank = xrt_tensor_rank(self->t);
	PyObject *s = PyTuple_New(rank);

	for (i = 0; s && i < rank; i++)
		PyTuple_SET_ITEM(s, i, PyLong_FromSsize_t(self->shape[i]));
	return s;
}

static PyObject *tensor_dtype(PyXrtTensor *self, void *unused)
{
	const char *name = xrt_tensor_is_resource(self->t) ? "resource" :
			   pyxrt_dtype_numpy_name(xrt_tensor_dtype(self->t));
	PyObject *np = numpy_module();

	/* numpy's dtype where numpy has the type; else the name (bfloat16, float8_e4m3fn, ...) */
	if (!np || !pyxrt_dtype_format(xrt_tensor_dtype(self->t)) ||
	    !strcmp(name, "resource")) {
		PyErr_Clear();
		return PyUnicode_FromString(name);
	}
	return PyObject_CallMethod(np, "dtype", "s", name);
}

static PyObject *tensor_device(PyXrtTensor *self, void *unused)
{
	return PyUnicode_FromString(xrt_tensor_device(self->t));
}

static PyObject *tensor_ndim(PyXrtTensor *self, void *unused)
{
	return PyLong_FromUnsignedLong(xrt_tensor_rank(self->t));
}

static PyObject *tensor_size(PyXrtTensor *self, void *unused)
{
	return PyLong_FromUnsignedLongLong(xrt_tensor_element_count(self->t));
}

static PyGetSetDef tensor_getset[] = {
	{ "shape", (getter)tensor_shape, NULL, "The dimensions, a tuple.", NULL },
	{ "dtype", (getter)tensor_dtype, NULL, "The element type (a numpy dtype).", NULL },
	{ "device", (getter)tensor_device, NULL, "The device's name.", NULL },
	{ "ndim", (getter)tensor_ndim, NULL, "The rank.", NULL },
	{ "size", (getter)tensor_size, NULL, "The number of elements.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

/*
 * A type numpy lacks (bfloat16, the f8/f4 floats, int4 and the other
 * sub-byte integers) as ml_dtypes' array of it: a copy of the bytes, one
 * or two an element as ml_dtypes keeps them, viewed as its dtype.
 */
static PyObject *numpy_named(PyXrtTensor *self, PyObject *np)
{
	enum xrt_dtype t = xrt_tensor_dtype(self->t);
	PyObject *ml = PyImport_ImportModule("ml_dtypes"), *dt = NULL, *bytes = NULL;
	PyObject *raw = NULL, *typed = NULL, *out = NULL, *shape;
	size_t size = 0;
	const void *data = xrt_tensor_data(self->t, &size);

	if (!ml) {
		PyErr_Clear();
		return PyErr_Format(PyExc_TypeError, "xrt: %s has no numpy type without ml_dtypes",
				    pyxrt_dtype_numpy_name(t));
	}
	if (!data) {
		Py_DECREF(ml);
		return PyErr_Format(PyExc_BufferError, "xrt: a tensor on %s has no host memory",
				    xrt_tensor_device(self->t));
	}
	dt = PyObject_GetAttrString(ml, pyxrt_dtype_numpy_name(t));
	bytes = dt ? PyBytes_FromStringAndSize(data, (Py_ssize_t)size) : NULL;
	raw = bytes ? PyObject_CallMethod(np, "frombuffer", "Os", bytes,
					  xrt_dtype_size(t) == 2 ? "uint16" : "uint8") : NULL;
	typed = raw ? PyObject_CallMethod(raw, "view", "O", dt) : NULL;
	shape = typed ? tensor_shape(self, NULL) : NULL;
	if (shape) {
		out = PyObject_CallMethod(typed, "reshape", "(O)", shape);
		Py_DECREF(shape);
	}
	Py_XDECREF(typed);
	Py_XDECREF(raw);
	Py_XDECREF(bytes);
	Py_XDECREF(dt);
	Py_DECREF(ml);
	return out;
}

static PyObject *tensor_numpy(PyXrtTensor *self, PyObject *unused)
{
	PyObject *np = numpy_module(), *view, *a;

	if (np && !xrt_tensor_is_resource(self->t) &&
	    !pyxrt_dtype_format(xrt_tensor_dtype(self->t)))
		return numpy_named(self, np);	/* a copy: no buffer format carries it */
	/* through a memoryview: numpy would make an object array of what fails */
	view = np ? PyMemoryView_FromObject((PyObject *)self) : NULL;
	if (!view)
		return NULL;
	a = PyObject_CallMethod(np, "asarray", "O", view);
	Py_DECREF(view);
	return a;
}

static PyObject *tensor_to(PyXrtTensor *self, PyObject *arg)
{
	const char *device = PyUnicode_AsUTF8(arg);
	xrt_tensor *out = NULL;
	xrt_status *st;

	if (!device)
		return NULL;
	st = xrt_tensor_copy_to_device(self->t, device, &out);
	return st ? pyxrt_raise(st) : pyxrt_tensor_new(self->ctx, out);
}

static PyMethodDef tensor_methods[] = {
	{ "numpy", (PyCFunction)tensor_numpy, METH_NOARGS,
	  "A read-only numpy array over the tensor's host memory (no copy)." },
	{ "to", (PyCFunction)tensor_to, METH_O, "to(device): a copy on another device." },
	{ "__dlpack__", (PyCFunction)(void (*)(void))pyxrt_dlpack, METH_VARARGS | METH_KEYWORDS,
	  "A DLPack capsule over the tensor's host memory (no copy; do not write)." },
	{ "__dlpack_device__", (PyCFunction)pyxrt_dlpack_device, METH_NOARGS,
	  "(device type, device id) as DLPack names them: (1, 0), the host." },
	{ NULL, NULL, 0, NULL },
};

static PyObject *tensor_repr(PyXrtTensor *self)
{
	char text[512];
	xrt_literal *lit = NULL;
	xrt_status *st;
	size_t n;

	if (xrt_tensor_is_resource(self->t))
		return PyUnicode_FromFormat("xrt.Tensor(resource, device='%s')",
					    xrt_tensor_device(self->t));
	st = xrt_tensor_resolve(self->t, &lit);
	if (st)
		return pyxrt_raise(st);
	n = xrt_literal_format(lit, text, sizeof(text));
	xrt_literal_destroy(lit);
	if (n >= sizeof(text))
		strcpy(text + sizeof(text) - 5, "...");
	return PyUnicode_FromFormat("xrt.Tensor(%s, device='%s')", text,
				    xrt_tensor_device(self->t));
}

static Py_ssize_t tensor_len(PyXrtTensor *self)
{
	if (!xrt_tensor_rank(self->t)) {
		PyErr_SetString(PyExc_TypeError, "xrt: len() of a scalar tensor");
		return -1;
	}
	return self->shape[0];
}

/* An int64 vector tensor of @v[0..@n). */
static PyObject *index_tensor(PyXrtContext *ctx, const int64_t *v, Py_ssize_t n)
{
	int64_t dims[1] = { n };
	xrt_tensor *t = NULL;
	xrt_status *st = xrt_tensor_from_host(ctx->c, XRT_S64, 1, dims, v,
					      (size_t)n * sizeof(*v), &t);

	return st ? pyxrt_raise(st) : pyxrt_tensor_new(ctx, t);
}

/* One index item into begin/end/stride @i and the masks; -1 with an exception. */
static int index_item(PyObject *it, Py_ssize_t i, int64_t *b, int64_t *e, int64_t *s,
		      int64_t masks[5])
{
	*b = 0;
	*e = 0;
	*s = 1;
	if (it == Py_None) {
		masks[3] |= 1ll << i;
	} else if (it == Py_Ellipsis) {
		if (masks[2]) {
			PyErr_SetString(PyExc_IndexError, "xrt: an index has one ellipsis at most");
			return -1;
		}
		masks[2] |= 1ll << i;
	} else if (PySlice_Check(it)) {
		PySliceObject *sl = (PySliceObject *)it;

		if (sl->step != Py_None && (*s = PyLong_AsLongLong(sl->step)) == 0) {
			PyErr_SetString(PyExc_ValueError, "xrt: slice step cannot be zero");
			return -1;
		}
		if (sl->start == Py_None)
			masks[0] |= 1ll << i;
		else
			*b = PyLong_AsLongLong(sl->start);
		if (sl->stop == Py_None)
			masks[1] |= 1ll << i;
		else
			*e = PyLong_AsLongLong(sl->stop);
	} else if (PyIndex_Check(it) && !PyBool_Check(it)) {
		*b = PyLong_AsLongLong(it);
		*e = *b == INT64_MAX ? *b : *b + 1;	/* shrinking reads begin only */
		masks[4] |= 1ll << i;
	} else {
		PyErr_Format(PyExc_TypeError, "xrt: index with ints, slices, None and ..., not "
			     "%.80s (xrt.ops.GatherV2 takes index tensors)", Py_TYPE(it)->tp_name);
		return -1;
	}
	return PyErr_Occurred() ? -1 : 0;
}

Py_ssize_t pyxrt_index_spec(PyObject *key, int64_t *b, int64_t *e, int64_t *s,
			    int64_t masks[5])
{
	PyObject *items = PyTuple_Check(key) ? Py_NewRef(key) : PyTuple_Pack(1, key);
	Py_ssize_t i, n;

	if (!items)
		return -1;
	n = PyTuple_GET_SIZE(items);
	memset(masks, 0, 5 * sizeof(*masks));
	if (n > 16) {
		PyErr_SetString(PyExc_IndexError, "xrt: more than 16 index items");
		n = -1;
	}
	for (i = 0; n >= 0 && i < n; i++)
		if (index_item(PyTuple_GET_ITEM(items, i), i, &b[i], &e[i], &s[i], masks) < 0)
			n = -1;
	Py_DECREF(items);
	return n;
}

/* The first int item out of range before any ... or None, as numpy's IndexError. */
static int check_ranges(PyXrtTensor *self, Py_ssize_t n, const int64_t *b,
			const int64_t masks[5])
{
	Py_ssize_t i;

	for (i = 0; i < n; i++) {
		if ((masks[2] | masks[3]) & ((2ll << i) - 1))
			return 0;
		if ((masks[4] >> i & 1) && i < (Py_ssize_t)xrt_tensor_rank(self->t) &&
		    (b[i] >= self->shape[i] || b[i] < -self->shape[i])) {
			PyErr_Format(PyExc_IndexError, "xrt: index %lld is out of dimension %zd "
				     "of size %zd", (long long)b[i], i, self->shape[i]);
			return -1;
		}
	}
	return 0;
}

/* t[key]: a StridedSlice, TensorFlow's and numpy's basic indexing. */
static PyObject *tensor_getitem(PyXrtTensor *self, PyObject *key)
{
	static const char *const mask_names[5] = { "begin_mask", "end_mask", "ellipsis_mask",
						   "new_axis_mask", "shrink_axis_mask" };
	int64_t b[16], e[16], s[16], masks[5];
	PyObject *args[9] = { NULL }, *kwnames = NULL, *f, *r = NULL;
	Py_ssize_t i, n = pyxrt_index_spec(key, b, e, s, masks);

	if (n < 0 || check_ranges(self, n, b, masks) < 0)
		return NULL;
	if (!n)
		return Py_NewRef((PyObject *)self);
	f = pyxrt_cached_op("StridedSlice");
	args[0] = Py_NewRef((PyObject *)self);
	args[1] = index_tensor(self->ctx, b, n);
	args[2] = args[1] ? index_tensor(self->ctx, e, n) : NULL;
	args[3] = args[2] ? index_tensor(self->ctx, s, n) : NULL;
	kwnames = PyTuple_New(5);
	for (i = 0; kwnames && i < 5; i++) {
		PyTuple_SET_ITEM(kwnames, i, PyUnicode_FromString(mask_names[i]));
		args[4 + i] = PyLong_FromLongLong(masks[i]);
	}
	if (f && args[3] && kwnames && args[8])
		r = PyObject_Vectorcall(f, args, 4, kwnames);
	for (i = 0; i < 9; i++)
		Py_XDECREF(args[i]);
	Py_XDECREF(kwnames);
	return r;
}

/* t[i] for iteration: rows, until IndexError. */
static PyObject *tensor_item(PyXrtTensor *self, Py_ssize_t i)
{
	PyObject *k, *r;

	if (!xrt_tensor_rank(self->t)) {
		PyErr_SetString(PyExc_TypeError, "xrt: iteration over a scalar tensor");
		return NULL;
	}
	k = PyLong_FromSsize_t(i);
	if (!k)
		return NULL;
	r = tensor_getitem(self, k);
	Py_DECREF(k);
	return r;
}

static PySequenceMethods tensor_as_sequence = {
	.sq_length = (lenfunc)tensor_len,
	.sq_item = (ssizeargfunc)tensor_item,
};

static PyMappingMethods tensor_as_mapping = {
	.mp_length = (lenfunc)tensor_len,
	.mp_subscript = (binaryfunc)tensor_getitem,
};

/* --- operators ---------------------------------------------------------- */

static PyObject *t_add(PyObject *a, PyObject *b) { return pyxrt_binary("AddV2", a, b); }
static PyObject *t_sub(PyObject *a, PyObject *b) { return pyxrt_binary("Sub", a, b); }
static PyObject *t_mul(PyObject *a, PyObject *b) { return pyxrt_binary("Mul", a, b); }
static PyObject *t_div(PyObject *a, PyObject *b) { return pyxrt_binary("RealDiv", a, b); }
static PyObject *t_floordiv(PyObject *a, PyObject *b) { return pyxrt_binary("FloorDiv", a, b); }
static PyObject *t_mod(PyObject *a, PyObject *b) { return pyxrt_binary("FloorMod", a, b); }
static PyObject *t_matmul(PyObject *a, PyObject *b) { return pyxrt_binary("@", a, b); }
static PyObject *t_and(PyObject *a, PyObject *b) { return pyxrt_binary("LogicalAnd", a, b); }
static PyObject *t_or(PyObject *a, PyObject *b) { return pyxrt_binary("LogicalOr", a, b); }

static PyObject *t_pow(PyObject *a, PyObject *b, PyObject *mod)
{
	if (mod != Py_None)
		Py_RETURN_NOTIMPLEMENTED;
	return pyxrt_binary("Pow", a, b);
}

static PyObject *t_neg(PyObject *a) { return pyxrt_binary("Neg", a, NULL); }
static PyObject *t_abs(PyObject *a) { return pyxrt_binary("Abs", a, NULL); }
static PyObject *t_invert(PyObject *a) { return pyxrt_binary("LogicalNot", a, NULL); }

static PyObject *t_pos(PyObject *a)
{
	return Py_NewRef(a);
}

/* A one-element tensor's truth; more elements are ambiguous, as in numpy. */
static int t_bool(PyXrtTensor *self)
{
	PyObject *a;
	int r;

	if (xrt_tensor_element_count(self->t) != 1) {
		PyErr_SetString(PyExc_ValueError,
				"xrt: the truth of a tensor of several elements is ambiguous");
		return -1;
	}
	a = tensor_numpy(self, NULL);
	r = a ? PyObject_IsTrue(a) : -1;
	Py_XDECREF(a);
	return r;
}

static PyObject *t_scalar(PyXrtTensor *self, const char *method)
{
	PyObject *a = tensor_numpy(self, NULL), *item, *r;

	if (!a)
		return NULL;
	if (xrt_tensor_element_count(self->t) != 1) {
		Py_DECREF(a);
		PyErr_Format(PyExc_TypeError, "xrt: only one-element tensors convert to %s",
			     method);
		return NULL;
	}
	item = PyObject_CallMethod(a, "item", NULL);
	Py_DECREF(a);
	if (!item)
		return NULL;
	r = !strcmp(method, "float") ? PyNumber_Float(item) : PyNumber_Long(item);
	Py_DECREF(item);
	return r;
}

static PyObject *t_float(PyObject *a) { return t_scalar((PyXrtTensor *)a, "float"); }
static PyObject *t_int(PyObject *a) { return t_scalar((PyXrtTensor *)a, "int"); }

static PyNumberMethods tensor_as_number = {
	.nb_add = t_add,
	.nb_subtract = t_sub,
	.nb_multiply = t_mul,
	.nb_true_divide = t_div,
	.nb_floor_divide = t_floordiv,
	.nb_remainder = t_mod,
	.nb_power = t_pow,
	.nb_matrix_multiply = t_matmul,
	.nb_and = t_and,
	.nb_or = t_or,
	.nb_negative = t_neg,
	.nb_positive = t_pos,
	.nb_absolute = t_abs,
	.nb_invert = t_invert,
	.nb_bool = (inquiry)t_bool,
	.nb_float = t_float,
	.nb_int = t_int,
};

/* <, <=, >, >= elementwise; == and != stay identity, so tensors hash. */
static PyObject *tensor_richcompare(PyObject *a, PyObject *b, int op)
{
	switch (op) {
	case Py_LT:
		return pyxrt_binary("Less", a, b);
	case Py_LE:
		return pyxrt_binary("LessEqual", a, b);
	case Py_GT:
		return pyxrt_binary("Greater", a, b);
	case Py_GE:
		return pyxrt_binary("GreaterEqual", a, b);
	default:
		Py_RETURN_NOTIMPLEMENTED;
	}
}

static Py_hash_t tensor_hash(PyObject *self)
{
	Py_hash_t h = (Py_hash_t)((uintptr_t)self >> 4);

	return h == -1 ? -2 : h;
}

PyTypeObject PyXrtTensor_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xrt.Tensor",
	.tp_doc = "An immutable value on a device; make one with xrt.tensor().",
	.tp_basicsize = sizeof(PyXrtTensor),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_dealloc = (destructor)tensor_dealloc,
	.tp_repr = (reprfunc)tensor_repr,
	.tp_as_buffer = &tensor_as_buffer,
	.tp_as_number = &tensor_as_number,
	.tp_as_sequence = &tensor_as_sequence,
	.tp_as_mapping = &tensor_as_mapping,
	.tp_richcompare = tensor_richcompare,
	.tp_hash = tensor_hash,
	.tp_getset = tensor_getset,
	.tp_methods = tensor_methods,
};
