// SPDX-License-Identifier: MIT
/*
 * DLPack exchange for host tensors, without copies: Tensor.__dlpack__()
 * hands out a "dltensor" capsule whose deleter drops the tensor's
 * reference; xrt.from_dlpack() wraps a producer's memory as a tensor
 * whose deleter calls the producer's.  Row-major memory only; memory
 * that is not 64-byte aligned (libxrt's rule for wrapped memory) is
 * copied instead.  The structs are DLPack's ABI (dlpack.h, version 0.8).
 */
#include "pyxrt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	int32_t device_type;
	int32_t device_id;
} DLDevice;

typedef struct {
	uint8_t code;
	uint8_t bits;
	uint16_t lanes;
} DLDataType;

typedef struct {
	void *data;
	DLDevice device;
	int32_t ndim;
	DLDataType dtype;
	int64_t *shape;
	int64_t *strides;
	uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
	DLTensor dl_tensor;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

enum { DL_CPU = 1 };
enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BFLOAT = 4, DL_COMPLEX = 5, DL_BOOL = 6 };

static const struct {
	enum xrt_dtype t;
	uint8_t code, bits;
} dl_types[] = {
	{ XRT_PRED, DL_BOOL, 8 },	{ XRT_S8, DL_INT, 8 },		{ XRT_S16, DL_INT, 16 },
	{ XRT_S32, DL_INT, 32 },	{ XRT_S64, DL_INT, 64 },	{ XRT_U8, DL_UINT, 8 },
	{ XRT_U16, DL_UINT, 16 },	{ XRT_U32, DL_UINT, 32 },	{ XRT_U64, DL_UINT, 64 },
	{ XRT_F16, DL_FLOAT, 16 },	{ XRT_BF16, DL_BFLOAT, 16 },	{ XRT_F32, DL_FLOAT, 32 },
	{ XRT_F64, DL_FLOAT, 64 },	{ XRT_C64, DL_COMPLEX, 64 },	{ XRT_C128, DL_COMPLEX, 128 },
};

/* --- export ----------------------------------------------------------------- */

struct exported {
	DLManagedTensor m;
	int64_t shape[XRT_MAX_RANK];
	xrt_tensor *t;
};

static void exported_free(DLManagedTensor *m)
{
	struct exported *e = (struct exported *)m;

	xrt_tensor_unref(e->t);
	free(e);
}

/* A capsule nobody consumed still owns its tensor. */
static void capsule_free(PyObject *cap)
{
	DLManagedTensor *m;

	if (!PyCapsule_IsValid(cap, "dltensor"))
		return;
	m = PyCapsule_GetPointer(cap, "dltensor");
	if (m && m->deleter)
		m->deleter(m);
}

PyObject *pyxrt_dlpack(PyXrtTensor *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "stream", NULL };
	enum xrt_dtype t = xrt_tensor_dtype(self->t);
	const void *data = xrt_tensor_data(self->t, NULL);
	PyObject *stream = Py_None, *cap;
	struct exported *e;
	uint32_t i, rank = xrt_tensor_rank(self->t);
	size_t k;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|$O:__dlpack__", names, &stream))
		return NULL;
	if (stream != Py_None) {
		PyErr_SetString(PyExc_BufferError, "xrt: host tensors take no stream");
		return NULL;
	}
	if (!data) {
		PyErr_Format(PyExc_BufferError, "xrt: a tensor on %s has no host memory to share",
			     xrt_tensor_device(self->t));
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return PyErr_NoMemory();
	for (k = 0; k < sizeof(dl_types) / sizeof(dl_types[0]); k++)
		if (dl_types[k].t == t)
			e->m.dl_tensor.dtype = (DLDataType){ dl_types[k].code, dl_types[k].bits, 1 };
	for (i = 0; i < rank; i++)
		e->shape[i] = xrt_tensor_dim(self->t, i);
	/* DLPack has no read-only flag: consumers must not write (tensors are values) */
	e->m.dl_tensor.data = (void *)data;
	e->m.dl_tensor.device = (DLDevice){ DL_CPU, 0 };
	e->m.dl_tensor.ndim = (int32_t)rank;
	e->m.dl_tensor.shape = e->shape;
	e->m.dl_tensor.strides = NULL;	/* compact, row-major */
	e->m.deleter = exported_free;
	e->t = xrt_tensor_ref(self->t);
	cap = PyCapsule_New(&e->m, "dltensor", capsule_free);
	if (!cap)
		exported_free(&e->m);
	return cap;
}

PyObject *pyxrt_dlpack_device(PyXrtTensor *self, PyObject *unused)
{
	return Py_BuildValue("(ii)", DL_CPU, 0);
}

/* --- import ----------------------------------------------------------------- */

/* Gives the producer's memory back, from whichever thread drops the tensor. */
static void imported_free(void *data, void *arg)
{
	DLManagedTensor *m = arg;
	PyGILState_STATE g = PyGILState_Ensure();

	if (m->deleter)
		m->deleter(m);
	PyGILState_Release(g);
}

static enum xrt_dtype dtype_of(DLDataType d)
{
	size_t k;

	if (d.lanes != 1)
		return XRT_INVALID;
	for (k = 0; k < sizeof(dl_types) / sizeof(dl_types[0]); k++)
		if (dl_types[k].code == d.code && dl_types[k].bits == d.bits)
			return dl_types[k].t;
	return XRT_INVALID;
}

/* Row-major and compact (sizes of one may have any stride)? */
static int compact(const DLTensor *d)
{
	int64_t want = 1;
	int i;

	if (!d->strides)
		return 1;
	for (i = d->ndim - 1; i >= 0; i--) {
		if (d->shape[i] != 1 && d->strides[i] != want)
			return 0;
		want *= d->shape[i];
	}
	return 1;
}

/* The tensor over @m's memory (or a copy); marks the capsule used on success. */
static PyObject *wrap(PyXrtContext *ctx, PyObject *cap, DLManagedTensor *m)
{
	const DLTensor *d = &m->dl_tensor;
	enum xrt_dtype t = dtype_of(d->dtype);
	uint8_t *data = (uint8_t *)d->data + d->byte_offset;
	int64_t dims[XRT_MAX_RANK];
	uint64_t n = 1;
	xrt_tensor *out = NULL;
	xrt_status *st;
	int i;

	if (d->device.device_type != DL_CPU) {
		PyErr_Format(PyExc_BufferError, "xrt: DLPack device type %d is not the host's",
			     d->device.device_type);
		return NULL;
	}
	if (!t || d->ndim < 0 || d->ndim > XRT_MAX_RANK || !compact(d)) {
		PyErr_Format(PyExc_BufferError, "xrt: a DLPack tensor of type (%u, %u, %u), rank %d%s "
			     "has no XRT equivalent", d->dtype.code, d->dtype.bits, d->dtype.lanes,
			     d->ndim, compact(d) ? "" : ", not row-major");
		return NULL;
	}
	for (i = 0; i < d->ndim; i++) {
		if (d->shape[i] < 0) {
			PyErr_Format(PyExc_BufferError, "xrt: DLPack dimension %d is %lld", i,
				     (long long)d->shape[i]);
			return NULL;
		}
		dims[i] = d->shape[i];
		n *= (uint64_t)d->shape[i];
	}
	n *= xrt_dtype_size(t);
	if (n && !((uintptr_t)data & 63)) {
		st = xrt_tensor_wrap_host(ctx->c, t, (uint32_t)d->ndim, dims, data, n, imported_free,
					  m, &out);
		if (!st) {
			PyCapsule_SetName(cap, "used_dltensor");
			return pyxrt_tensor_new(ctx, out);
		}
		xrt_status_free(st);	/* copy instead */
	}
	st = xrt_tensor_from_host(ctx->c, t, (uint32_t)d->ndim, dims, data, n, &out);
	return st ? pyxrt_raise(st) : pyxrt_tensor_new(ctx, out);
}

PyObject *pyxrt_from_dlpack(PyObject *module, PyObject *obj)
{
	PyXrtContext *ctx = pyxrt_default_context();
	PyObject *cap, *r;
	DLManagedTensor *m;

	if (!ctx)
		return NULL;
	if (PyCapsule_CheckExact(obj))
		cap = Py_NewRef(obj);
	else if (PyObject_HasAttrString(obj, "__dlpack__"))
		cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
	else {
		PyErr_Format(PyExc_TypeError, "xrt: %.80s has no __dlpack__", Py_TYPE(obj)->tp_name);
		return NULL;
	}
	if (!cap)
		return NULL;
	m = PyCapsule_GetPointer(cap, "dltensor");	/* a used one fails here */
	r = m ? wrap(ctx, cap, m) : NULL;
	Py_DECREF(cap);
	return r;
}
