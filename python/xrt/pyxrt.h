/* SPDX-License-Identifier: MIT */
/*
 * The CPython extension xrt._xrt: the types it defines and what its
 * files share.  Python objects own libxrt objects one to one: a Context
 * an eager context, a Tensor a tensor reference (and its Context, which
 * must outlive it), an OpFunc a reusable op.
 */
#ifndef XRT_PYXRT_H
#define XRT_PYXRT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <xrt/eager.h>

typedef struct {
	PyObject_HEAD
	xrt_eager_context *c;
} PyXrtContext;

typedef struct {
	PyObject_HEAD
	xrt_tensor *t;
	PyXrtContext *ctx;	/* strong: the context outlives its tensors */
	Py_ssize_t shape[XRT_MAX_RANK], strides[XRT_MAX_RANK];
	int exports;		/* buffer views handed out */
} PyXrtTensor;

typedef struct {
	PyObject_HEAD
	char name[64];
	xrt_op *op;		/* made on first call, in the default context */
	PyXrtContext *ctx;
	/* inputs of the last call, when they were that many plain tensors and
	 * no attributes: the next such call only swaps them; else -1 */
	Py_ssize_t simple;
	/* its op runs with the GIL released: another thread's call makes its own */
	int busy;
	vectorcallfunc vectorcall;
} PyXrtOpFunc;

extern PyTypeObject PyXrtContext_Type, PyXrtTensor_Type, PyXrtOpFunc_Type;

/* Raises the exception of @st's code with its message; frees @st; NULL. */
PyObject *pyxrt_raise(xrt_status *st);

/* The default context, made on first use (borrowed); NULL with an exception. */
PyXrtContext *pyxrt_default_context(void);

/* A new Tensor owning @t (reference taken over) in @ctx. */
PyObject *pyxrt_tensor_new(PyXrtContext *ctx, xrt_tensor *t);

/*
 * @obj as a tensor of @ctx: a Tensor as it is; a buffer (numpy array)
 * copied; a Python scalar or nested list through numpy, floats as f32
 * and ints as s32 unless @like (a dtype, or XRT_INVALID) says otherwise.
 * A new reference, or NULL with an exception.
 */
PyObject *pyxrt_as_tensor(PyXrtContext *ctx, PyObject *obj, enum xrt_dtype like);

/* dtype <-> names: numpy's ("float32") and the buffer protocol's ("f"). */
const char *pyxrt_dtype_numpy_name(enum xrt_dtype t);
enum xrt_dtype pyxrt_dtype_from_object(PyObject *o);	/* XRT_INVALID + exception */
enum xrt_dtype pyxrt_dtype_from_format(const char *format);
const char *pyxrt_dtype_format(enum xrt_dtype t);

/* The callable for op or function @name; NotFoundError when there is none. */
PyObject *pyxrt_op_new(const char *name);

/* Runs @f's op on @args with keyword attributes; a Tensor, a tuple or None. */
PyObject *pyxrt_execute(PyXrtOpFunc *f, PyObject *const *args, size_t nargsf,
			PyObject *kwnames);

/* The process's callable for an operator's op (borrowed); NULL with an exception. */
PyObject *pyxrt_cached_op(const char *name);

/* Binary operator @op_name of a Tensor and a Tensor or value (numbers' methods). */
PyObject *pyxrt_binary(const char *op_name, PyObject *a, PyObject *b);

/* DLPack: Tensor.__dlpack__(), Tensor.__dlpack_device__(), xrt.from_dlpack(). */
PyObject *pyxrt_dlpack(PyXrtTensor *self, PyObject *args, PyObject *kw);
PyObject *pyxrt_dlpack_device(PyXrtTensor *self, PyObject *unused);
PyObject *pyxrt_from_dlpack(PyObject *module, PyObject *obj);

/* _set_trace_hook(type, hook): ops on @type's values go to hook(name, args, kwargs). */
PyObject *pyxrt_set_trace_hook(PyObject *m, PyObject *args);

/*
 * Parses a basic index (ints, slices, None, ...) into StridedSlice's
 * begin, end, strides and masks (begin, end, ellipsis, new axis, shrink);
 * the number of items, or -1 with an exception.  At most 16 items.
 */
Py_ssize_t pyxrt_index_spec(PyObject *key, int64_t *b, int64_t *e, int64_t *s,
			    int64_t masks[5]);

/* Adds xrt.Session and xrt.Handle to module @m; -1 with an exception. */
int pyxrt_session_ready(PyObject *m);

/* An xrt.Event owning @e (released on failure); adds the type to @m. */
struct xrt_event;
PyObject *pyxrt_event_new(struct xrt_event *e);
int pyxrt_event_ready(PyObject *m);

#endif /* XRT_PYXRT_H */
