// SPDX-License-Identifier: MIT
/*
 * xrt.Event: the completion of Session.execute_async().  wait(timeout)
 * says whether the run ended (raising its error if it failed); Ctrl-C
 * interrupts the wait, not the run.  The event is released with the
 * object.
 */
#include "pyxrt.h"

#include <math.h>

#include <xrt/xrt.h>

typedef struct {
	PyObject_HEAD
	xrt_event *e;
} PyXrtEvent;

static PyTypeObject PyXrtEvent_Type;

/* How long a wait goes without looking at Python's signals. */
#define WAIT_SLICE_NS 50000000ll

PyObject *pyxrt_event_new(xrt_event *e)
{
	PyXrtEvent *self = PyObject_New(PyXrtEvent, &PyXrtEvent_Type);

	if (!self) {
		xrt_event_destroy(e);
		return NULL;
	}
	self->e = e;
	return (PyObject *)self;
}

static void event_dealloc(PyXrtEvent *self)
{
	xrt_event_destroy(self->e);
	PyObject_Free(self);
}

/* wait(timeout=None): True once the run ended well, False while it runs. */
static PyObject *event_wait(PyXrtEvent *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "timeout", NULL };
	PyObject *timeout = Py_None;
	int64_t ns = -1;
	xrt_status *st;
	double t;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:wait", names, &timeout))
		return NULL;
	if (timeout != Py_None) {
		t = PyFloat_AsDouble(timeout);
		if (t == -1.0 && PyErr_Occurred())
			return NULL;
		if (!(t >= 0) || t > 1e9) {
			PyErr_SetString(PyExc_ValueError, "xrt: timeout is seconds, 0 to 1e9");
			return NULL;
		}
		ns = (int64_t)llround(t * 1e9);
	}
	/*
	 * In slices, so that Ctrl-C raises KeyboardInterrupt (the run goes
	 * on).  Whether it ended is asked apart: a run stopped by its own
	 * timeout answers DEADLINE_EXCEEDED as a running one does.
	 */
	for (;;) {
		int64_t slice = ns < 0 || ns > WAIT_SLICE_NS ? WAIT_SLICE_NS : ns;

		Py_BEGIN_ALLOW_THREADS
		xrt_status_free(xrt_event_wait(self->e, slice));
		Py_END_ALLOW_THREADS
		if (xrt_event_ended(self->e)) {
			st = xrt_event_wait(self->e, 0);	/* its outcome, kept */
			if (st)
				return pyxrt_raise(st);
			Py_RETURN_TRUE;
		}
		if (ns >= 0 && (ns -= slice) <= 0)
			Py_RETURN_FALSE;
		if (PyErr_CheckSignals() < 0)
			return NULL;
	}
}

static PyMethodDef event_methods[] = {
	{ "wait", (PyCFunction)(void (*)(void))event_wait, METH_VARARGS | METH_KEYWORDS,
	  "wait(timeout=None): True once the run ended (its error raised if it\n"
	  "failed), False if it still runs after timeout seconds (0: just look)." },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject PyXrtEvent_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xrt.Event",
	.tp_doc = "The completion of Session.execute_async().",
	.tp_basicsize = sizeof(PyXrtEvent),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_dealloc = (destructor)event_dealloc,
	.tp_methods = event_methods,
};

int pyxrt_event_ready(PyObject *m)
{
	if (PyType_Ready(&PyXrtEvent_Type) < 0)
		return -1;
	return PyModule_AddObjectRef(m, "Event", (PyObject *)&PyXrtEvent_Type);
}
