// SPDX-License-Identifier: MIT
/*
 * xrt.Session: the XRT API from Python.  A session compiles HLO text or
 * xrt.Computation bytes, allocates numpy arrays and nested tuples of
 * them on its device, executes, reads back and releases; handles are
 * xrt.Handle objects.  Sessions and handles are context managers: a
 * session releases everything and closes, a handle releases itself.
 *
 * Any thread may call any method in any order.  Every method that uses
 * the session counts itself as a call in flight; the calls run at once
 * (the GIL is released while libxrt works) and close() waits for those
 * in flight, refusing new ones, before it destroys the session.  No lock
 * is held while libxrt works.
 */
#include "pyxrt.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include <xrt/literal.h>
#include <xrt/xrt.h>

typedef struct {
	PyObject_HEAD
	xrt_session *s;		/* NULL once closed */
	pthread_mutex_t lock;	/* the three below */
	pthread_cond_t changed;	/* @calls fell to 0, or @s went */
	unsigned int calls;	/* in flight */
	int closing;		/* close() began: no new calls */
} PyXrtSession;

static PyTypeObject PyXrtSession_Type;

typedef struct {
	PyObject_HEAD
	PyXrtSession *session;
	xrt_handle id;
	int compilation;	/* else an allocation */
	int released;		/* by this object */
} PyXrtHandle;

static PyTypeObject PyXrtHandle_Type;

/*
 * Begins a call on the session: its libxrt session, or NULL with
 * ValueError once close() has begun.  Every begin_call() that succeeds
 * is paired with one end_call().  Both run with the GIL held; the lock
 * is never held while taking the GIL.
 */
static xrt_session *begin_call(PyXrtSession *self)
{
	xrt_session *s;

	pthread_mutex_lock(&self->lock);
	s = self->closing ? NULL : self->s;
	if (s)
		self->calls++;
	pthread_mutex_unlock(&self->lock);
	if (!s)
		PyErr_SetString(PyExc_ValueError, "xrt: the session is closed");
	return s;
}

static void end_call(PyXrtSession *self)
{
	pthread_mutex_lock(&self->lock);
	if (!--self->calls)
		pthread_cond_broadcast(&self->changed);
	pthread_mutex_unlock(&self->lock);
}

/* The NOT_FOUND a released handle's object raises, as libxrt words it. */
static PyObject *raise_released(xrt_handle id, int compilation)
{
	return pyxrt_raise(xrt_status_new(NULL, XRT_NOT_FOUND, "xrt: %s handle %lld was released",
					  compilation ? "compilation" : "allocation",
					  (long long)id));
}

static PyObject *handle_new(PyXrtSession *s, xrt_handle id, int compilation)
{
	PyXrtHandle *h = PyObject_New(PyXrtHandle, &PyXrtHandle_Type);

	if (!h)
		return NULL;
	h->session = (PyXrtSession *)Py_NewRef((PyObject *)s);
	h->id = id;
	h->compilation = compilation;
	h->released = 0;
	return (PyObject *)h;
}

/* The handle id of @o, of the right kind and this session; -1 with an exception. */
static int handle_id(PyXrtSession *s, PyObject *o, int compilation, xrt_handle *id)
{
	PyXrtHandle *h = (PyXrtHandle *)o;

	if (!PyObject_TypeCheck(o, &PyXrtHandle_Type)) {
		PyErr_Format(PyExc_TypeError, "xrt: expected a handle, not %.80s",
			     Py_TYPE(o)->tp_name);
		return -1;
	}
	if (h->session != s) {
		PyErr_SetString(PyExc_ValueError, "xrt: a handle of another session");
		return -1;
	}
	if (h->compilation != compilation) {
		PyErr_Format(PyExc_TypeError, "xrt: expected %s handle, not %s",
			     compilation ? "a compilation" : "an allocation",
			     h->compilation ? "a compilation" : "an allocation");
		return -1;
	}
	if (h->released) {
		raise_released(h->id, h->compilation);
		return -1;
	}
	*id = h->id;
	return 0;
}

/* --- values: numpy arrays and tuples <-> literals ------------------------ */

static xrt_status *literal_of(PyObject *v, int depth, xrt_literal **out);

static xrt_status *tuple_literal(PyObject *v, int depth, xrt_literal **out)
{
	Py_ssize_t i, n = PyTuple_GET_SIZE(v);
	xrt_literal **el = PyMem_Calloc((size_t)n + 1, sizeof(*el));
	xrt_status *st = NULL;

	if (!el) {
		PyErr_NoMemory();
		return NULL;
	}
	for (i = 0; i < n && !st && !PyErr_Occurred(); i++)
		st = literal_of(PyTuple_GET_ITEM(v, i), depth + 1, &el[i]);
	if (!st && !PyErr_Occurred())
		st = xrt_literal_make_tuple(NULL, el, (uint32_t)n, out);
	else
		*out = NULL;
	if (st || !*out)
		for (i = 0; i < n; i++)
			xrt_literal_destroy(el[i]);
	PyMem_Free(el);
	return st;
}

/* A literal of @v: a (nested) tuple, or anything xrt.tensor() takes. */
static xrt_status *literal_of(PyObject *v, int depth, xrt_literal **out)
{
	PyXrtContext *ctx;
	PyObject *t;
	xrt_status *st;

	*out = NULL;
	if (depth > 16) {
		PyErr_SetString(PyExc_ValueError, "xrt: tuples nested too deep");
		return NULL;
	}
	if (PyTuple_Check(v))
		return tuple_literal(v, depth, out);
	ctx = pyxrt_default_context();
	t = ctx ? pyxrt_as_tensor(ctx, v, XRT_INVALID) : NULL;
	if (!t)
		return NULL;
	st = xrt_tensor_resolve(((PyXrtTensor *)t)->t, out);
	Py_DECREF(t);
	return st;
}

/* A literal as numpy: an array (C order, a copy) or a tuple of them. */
static PyObject *value_of(const xrt_literal *lit)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	int64_t strides[XRT_MAX_RANK];
	PyObject *np, *bytes, *shape, *st, *arr, *out;
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		PyObject *tuple = PyTuple_New(s->tuple_count);

		for (i = 0; tuple && i < s->tuple_count; i++) {
			PyObject *e = value_of(xrt_literal_element(lit, i));

			if (!e) {
				Py_CLEAR(tuple);
				break;
			}
			PyTuple_SET_ITEM(tuple, i, e);
		}
		return tuple;
	}
	/* ml_dtypes gives numpy bfloat16, float8_e4m3fn, int4 and the rest */
	if (!pyxrt_dtype_format(s->dtype)) {
		PyObject *ml = PyImport_ImportModule("ml_dtypes");

		if (!ml) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "xrt: %s has no numpy type without ml_dtypes",
				     pyxrt_dtype_numpy_name(s->dtype));
			return NULL;
		}
		Py_DECREF(ml);
	}
	np = PyImport_ImportModule("numpy");
	if (!np)
		return NULL;
	xrt_shape_strides(s, strides);
	bytes = PyBytes_FromStringAndSize(xrt_literal_data(lit), (Py_ssize_t)xrt_literal_size(lit));
	shape = PyTuple_New(s->rank);
	st = PyTuple_New(s->rank);
	for (i = 0; shape && st && i < s->rank; i++) {
		PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(s->dims[i]));
		PyTuple_SET_ITEM(st, i, PyLong_FromLongLong(strides[i] *
							   (int64_t)xrt_dtype_size(s->dtype)));
	}
	/* the literal's layout as strides, then one C-order copy */
	arr = NULL;
	if (bytes && shape && st) {
		PyObject *kw = Py_BuildValue("{s:O,s:s,s:O,s:O}", "shape", shape, "dtype",
					     pyxrt_dtype_numpy_name(s->dtype), "buffer", bytes,
					     "strides", st);
		PyObject *ctor = kw ? PyObject_GetAttrString(np, "ndarray") : NULL;
		PyObject *none = ctor ? PyTuple_New(0) : NULL;

		arr = none ? PyObject_Call(ctor, none, kw) : NULL;
		Py_XDECREF(none);
		Py_XDECREF(ctor);
		Py_XDECREF(kw);
	}
	/* a writable copy in C order that owns its memory (0-d stays 0-d) */
	out = arr ? PyObject_CallMethod(arr, "copy", "s", "C") : NULL;
	Py_XDECREF(arr);
	Py_XDECREF(st);
	Py_XDECREF(shape);
	Py_XDECREF(bytes);
	Py_DECREF(np);
	return out;
}

/* --- the session ---------------------------------------------------------- */

static PyObject *session_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	static char *names[] = { "device", "memory_limit", "host_devices", NULL };
	struct xrt_session_options o = { 0 };
	unsigned long long limit = 0;
	const char *device = NULL;
	unsigned int host_devices = 0;
	PyXrtSession *self;
	xrt_status *st;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|zK$I:Session", names, &device, &limit,
					 &host_devices))
		return NULL;
	o.device = device;
	o.memory_limit = limit;
	o.host_devices = host_devices;
	self = (PyXrtSession *)type->tp_alloc(type, 0);
	if (!self)
		return NULL;
	pthread_mutex_init(&self->lock, NULL);
	pthread_cond_init(&self->changed, NULL);
	Py_BEGIN_ALLOW_THREADS
	st = xrt_session_create(&o, NULL, &self->s);
	Py_END_ALLOW_THREADS
	if (st) {
		self->s = NULL;
		Py_DECREF(self);
		return pyxrt_raise(st);
	}
	return (PyObject *)self;
}

/*
 * close(): no new calls; wait for those in flight; destroy.  A second
 * close() racing the first waits until the session is gone; a call from
 * a thread that is itself in a call cannot happen (no method calls back
 * into Python while counted).
 */
static PyObject *session_close(PyXrtSession *self, PyObject *unused)
{
	xrt_session *s;
	int first;

	pthread_mutex_lock(&self->lock);
	first = self->s && !self->closing;
	self->closing = 1;
	pthread_mutex_unlock(&self->lock);
	Py_BEGIN_ALLOW_THREADS
	pthread_mutex_lock(&self->lock);
	while (first ? self->calls != 0 : self->s != NULL)
		pthread_cond_wait(&self->changed, &self->lock);
	s = self->s;
	pthread_mutex_unlock(&self->lock);
	if (first) {
		xrt_release_all_allocations(s);
		xrt_session_destroy(s);
	}
	pthread_mutex_lock(&self->lock);
	if (first)
		self->s = NULL;
	pthread_cond_broadcast(&self->changed);
	pthread_mutex_unlock(&self->lock);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

static void session_dealloc(PyXrtSession *self)
{
	/* no call is in flight: each holds a reference */
	if (self->s) {
		xrt_release_all_allocations(self->s);
		xrt_session_destroy(self->s);
	}
	pthread_cond_destroy(&self->changed);
	pthread_mutex_destroy(&self->lock);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *session_enter(PyXrtSession *self, PyObject *unused)
{
	if (!begin_call(self))
		return NULL;
	end_call(self);
	return Py_NewRef((PyObject *)self);
}

static PyObject *session_exit(PyXrtSession *self, PyObject *args)
{
	return session_close(self, NULL);
}

static PyObject *session_device(PyXrtSession *self, void *unused)
{
	xrt_session *s = begin_call(self);
	PyObject *r;

	if (!s)
		return NULL;
	r = PyUnicode_FromString(xrt_session_device(s));
	end_call(self);
	return r;
}

static PyObject *session_memory(PyXrtSession *self, void *unused)
{
	xrt_session *s = begin_call(self);
	uint64_t n;

	if (!s)
		return NULL;
	n = xrt_session_memory_in_use(s);
	end_call(self);
	return PyLong_FromUnsignedLongLong(n);
}

static PyObject *session_compile(PyXrtSession *self, PyObject *arg)
{
	const char *data;
	Py_ssize_t len;
	xrt_session *s;
	xrt_handle h;
	xrt_status *st;
	int text = PyUnicode_Check(arg);

	if (!text && !PyBytes_Check(arg)) {
		PyErr_Format(PyExc_TypeError, "xrt: compile() takes HLO text (str) or a "
			     "serialized xrt.Computation (bytes), not %.80s", Py_TYPE(arg)->tp_name);
		return NULL;
	}
	/* @arg, referenced by the caller, keeps @data alive through the call */
	data = text ? PyUnicode_AsUTF8AndSize(arg, &len) : PyBytes_AS_STRING(arg);
	if (!data)
		return NULL;
	if (!text)
		len = PyBytes_GET_SIZE(arg);
	s = begin_call(self);
	if (!s)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	st = text ? xrt_compile_hlo(s, data, (size_t)len, &h) :
		    xrt_compile_proto(s, data, (size_t)len, &h);
	Py_END_ALLOW_THREADS
	end_call(self);
	return st ? pyxrt_raise(st) : handle_new(self, h, 1);
}

static PyObject *session_compile_xla(PyXrtSession *self, PyObject *arg)
{
	xrt_session *s;
	xrt_handle h;
	xrt_status *st;
	Py_buffer view;

	if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE)) {
		PyErr_Clear();
		PyErr_Format(PyExc_TypeError, "xrt: compile_xla() takes the bytes of an XLA "
			     "HloModuleProto, HloProto or HloSnapshot, not %.80s",
			     Py_TYPE(arg)->tp_name);
		return NULL;
	}
	s = begin_call(self);
	if (!s) {
		PyBuffer_Release(&view);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	st = xrt_compile_xla_proto(s, view.buf, (size_t)view.len, &h);
	Py_END_ALLOW_THREADS
	end_call(self);
	PyBuffer_Release(&view);
	return st ? pyxrt_raise(st) : handle_new(self, h, 1);
}

static PyObject *session_allocate(PyXrtSession *self, PyObject *arg)
{
	xrt_literal *lit = NULL;
	xrt_session *s;
	xrt_handle h;
	xrt_status *st;

	/* first, as it may run Python code (__array__) that closes the session */
	st = literal_of(arg, 0, &lit);
	if (!st && !lit)
		return NULL;		/* a Python exception is set */
	s = st ? NULL : begin_call(self);
	if (s) {
		Py_BEGIN_ALLOW_THREADS
		st = xrt_allocate(s, lit, &h);
		Py_END_ALLOW_THREADS
		end_call(self);
	}
	xrt_literal_destroy(lit);
	if (!st && !s)
		return NULL;
	return st ? pyxrt_raise(st) : handle_new(self, h, 0);
}

/* What execute and execute_async take, parsed; @seq holds the inputs. */
struct exec_args {
	PyObject *comp, *seq;
	xrt_handle c, *ids;
	Py_ssize_t n;
	struct xrt_execution_config cfg;
};

/* timeout=None or seconds (above 0) into @ns; -1 with ValueError. */
static int timeout_ns(PyObject *timeout, uint64_t *ns)
{
	double t;

	*ns = 0;
	if (!timeout || timeout == Py_None)
		return 0;
	t = PyFloat_AsDouble(timeout);
	if (t == -1.0 && PyErr_Occurred())
		return -1;
	if (!(t > 0) || t > 1e9) {
		PyErr_SetString(PyExc_ValueError, "xrt: timeout is seconds, above 0 up to 1e9");
		return -1;
	}
	*ns = (uint64_t)(t * 1e9);
	return 0;
}

/* max_iterations=0 or a count: an int from 0 up (OverflowError below 0). */
static int iteration_bound(PyObject *v, uint64_t *n)
{
	*n = 0;
	if (!v)
		return 0;
	if (!PyLong_Check(v)) {
		PyErr_Format(PyExc_TypeError, "xrt: max_iterations is an int, not %.80s",
			     Py_TYPE(v)->tp_name);
		return -1;
	}
	*n = PyLong_AsUnsignedLongLong(v);
	return PyErr_Occurred() ? -1 : 0;
}

static int parse_execute(PyXrtSession *self, PyObject *args, PyObject *kw, const char *fmt,
			 struct exec_args *x)
{
	static char *names[] = { "compilation", "inputs", "release_inputs",
				 "release_compilation", "seed", "timeout", "max_iterations",
				 NULL };
	int release_inputs = 0, release_compilation = 0;
	PyObject *inputs = NULL, *timeout = NULL, *max_iterations = NULL;
	unsigned int seed = 0;
	Py_ssize_t i;

	memset(x, 0, sizeof(*x));
	if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, names, &x->comp, &inputs,
					 &release_inputs, &release_compilation, &seed, &timeout,
					 &max_iterations) ||
	    timeout_ns(timeout, &x->cfg.timeout_ns) < 0 ||
	    iteration_bound(max_iterations, &x->cfg.max_iterations) < 0 ||
	    handle_id(self, x->comp, 1, &x->c) < 0)
		return -1;
	x->seq = inputs ? PySequence_Fast(inputs, "xrt: inputs is a sequence of handles") :
			  PyTuple_New(0);
	if (!x->seq)
		return -1;
	x->n = PySequence_Fast_GET_SIZE(x->seq);
	x->ids = PyMem_Calloc((size_t)x->n + 1, sizeof(*x->ids));
	for (i = 0; x->ids && i < x->n; i++)
		if (handle_id(self, PySequence_Fast_GET_ITEM(x->seq, i), 0, &x->ids[i]) < 0)
			break;
	if (!x->ids || i < x->n) {
		if (!x->ids)
			PyErr_NoMemory();
		PyMem_Free(x->ids);
		Py_DECREF(x->seq);
		return -1;
	}
	x->cfg.rng_seed = seed;
	x->cfg.release_inputs = release_inputs;
	x->cfg.release_compilation = release_compilation;
	return 0;
}

/* After a run that started: the released handles' objects know they are gone. */
static void executed(struct exec_args *x)
{
	Py_ssize_t i;

	for (i = 0; x->cfg.release_inputs && i < x->n; i++)
		((PyXrtHandle *)PySequence_Fast_GET_ITEM(x->seq, i))->released = 1;
	if (x->cfg.release_compilation)
		((PyXrtHandle *)x->comp)->released = 1;
}

/*
 * Ctrl-C during execute (_PyOS_IsMainThread: the stable API has no
 * other way to ask).  Python's own SIGINT handler only notes the
 * signal for the main thread to act on once it holds the GIL again,
 * which a long run would delay until it ends.  While the main thread
 * executes, a handler of ours raises the run's cancel flag (a store:
 * safe in a signal handler) and then calls Python's, so the run stops
 * at its next check and KeyboardInterrupt is raised as usual.
 */
static _Atomic(xrt_cancel *) interrupting;
static struct sigaction python_sigint;

static void on_sigint(int sig, siginfo_t *info, void *ctx)
{
	xrt_cancel_request(atomic_load(&interrupting));
	if (python_sigint.sa_flags & SA_SIGINFO)
		python_sigint.sa_sigaction(sig, info, ctx);
	else
		python_sigint.sa_handler(sig);
}

/* Whether Ctrl-C now cancels @c: the main thread, and Python handles SIGINT. */
static bool interrupt_begin(xrt_cancel *c)
{
	struct sigaction ours = { 0 };

	if (!c || !_PyOS_IsMainThread() || sigaction(SIGINT, NULL, &python_sigint) ||
	    (!(python_sigint.sa_flags & SA_SIGINFO) &&
	     (python_sigint.sa_handler == SIG_DFL || python_sigint.sa_handler == SIG_IGN)))
		return false;
	atomic_store(&interrupting, c);
	ours.sa_sigaction = on_sigint;
	ours.sa_flags = SA_SIGINFO | (python_sigint.sa_flags & SA_RESTART);
	sigemptyset(&ours.sa_mask);
	if (sigaction(SIGINT, &ours, NULL)) {
		atomic_store(&interrupting, NULL);
		return false;
	}
	return true;
}

static void interrupt_end(void)
{
	sigaction(SIGINT, &python_sigint, NULL);
	atomic_store(&interrupting, NULL);
}

static PyObject *session_execute(PyXrtSession *self, PyObject *args, PyObject *kw)
{
	static xrt_cancel *main_cancel;		/* the main thread's, kept */
	struct exec_args x;
	xrt_session *s;
	xrt_handle out;
	xrt_status *st = NULL;
	bool hooked = false;

	if (parse_execute(self, args, kw, "O|O$ppIOO:execute", &x) < 0)
		return NULL;
	s = begin_call(self);
	if (s) {
		if (!main_cancel && _PyOS_IsMainThread())
			xrt_status_free(xrt_cancel_create(&main_cancel));
		if (_PyOS_IsMainThread() && main_cancel) {
			xrt_cancel_reset(main_cancel);
			x.cfg.cancel = main_cancel;
			hooked = interrupt_begin(main_cancel);
		}
		Py_BEGIN_ALLOW_THREADS
		st = xrt_execute(s, x.c, x.ids, (uint32_t)x.n, &x.cfg, &out);
		Py_END_ALLOW_THREADS
		if (hooked)
			interrupt_end();
		end_call(self);
		if (!st)
			executed(&x);
	}
	PyMem_Free(x.ids);
	Py_DECREF(x.seq);
	if (!s)
		return NULL;
	/* a run Ctrl-C cancelled: KeyboardInterrupt, as Python would raise */
	if (st && xrt_status_code(st) == XRT_CANCELLED && PyErr_CheckSignals()) {
		xrt_status_free(st);
		return NULL;
	}
	return st ? pyxrt_raise(st) : handle_new(self, out, 0);
}

/* execute_async(...): (the result's handle, an xrt.Event). */
static PyObject *session_execute_async(PyXrtSession *self, PyObject *args, PyObject *kw)
{
	PyObject *h, *ev;
	struct exec_args x;
	xrt_event *e = NULL;
	xrt_session *s;
	xrt_handle out;
	xrt_status *st = NULL;

	if (parse_execute(self, args, kw, "O|O$ppIOO:execute_async", &x) < 0)
		return NULL;
	s = begin_call(self);
	if (s) {
		Py_BEGIN_ALLOW_THREADS
		st = xrt_execute_async(s, x.c, x.ids, (uint32_t)x.n, &x.cfg, &out, &e);
		Py_END_ALLOW_THREADS
		end_call(self);
		if (!st)
			executed(&x);
	}
	PyMem_Free(x.ids);
	Py_DECREF(x.seq);
	if (!s)
		return NULL;
	if (st)
		return pyxrt_raise(st);
	ev = pyxrt_event_new(e);
	h = ev ? handle_new(self, out, 0) : NULL;
	if (!h) {
		Py_XDECREF(ev);
		return NULL;
	}
	return Py_BuildValue("(NN)", h, ev);
}

static PyObject *session_read(PyXrtSession *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "handle", "release", NULL };
	xrt_literal *lit = NULL;
	int release = 0;
	PyObject *h, *v;
	xrt_session *s;
	xrt_handle id;
	xrt_status *st;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p:read", names, &h, &release) ||
	    handle_id(self, h, 0, &id) < 0 || !(s = begin_call(self)))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	st = xrt_read_literal(s, id, release, &lit);
	Py_END_ALLOW_THREADS
	end_call(self);
	if (st)
		return pyxrt_raise(st);
	if (release)
		((PyXrtHandle *)h)->released = 1;
	v = value_of(lit);
	xrt_literal_destroy(lit);
	return v;
}

/*
 * Releases one handle object's handle: 0, or -1 with an exception
 * (NOT_FOUND if this object released it already, ValueError once the
 * session is closing).
 */
static int release_one(PyXrtHandle *h)
{
	xrt_session *s;
	xrt_status *st;

	if (h->released) {
		raise_released(h->id, h->compilation);
		return -1;
	}
	s = begin_call(h->session);
	if (!s)
		return -1;
	st = h->compilation ? xrt_release_compilations(s, &h->id, 1) :
			      xrt_release_allocations(s, &h->id, 1);
	end_call(h->session);
	if (st) {
		pyxrt_raise(st);
		return -1;
	}
	h->released = 1;
	return 0;
}

static PyObject *session_release(PyXrtSession *self, PyObject *args)
{
	Py_ssize_t i, n = PyTuple_GET_SIZE(args);

	for (i = 0; i < n; i++) {
		PyXrtHandle *h = (PyXrtHandle *)PyTuple_GET_ITEM(args, i);

		if (!PyObject_TypeCheck((PyObject *)h, &PyXrtHandle_Type)) {
			PyErr_Format(PyExc_TypeError, "xrt: release() takes handles, not %.80s",
				     Py_TYPE(h)->tp_name);
			return NULL;
		}
		if (h->session != self) {
			PyErr_SetString(PyExc_ValueError, "xrt: a handle of another session");
			return NULL;
		}
		if (release_one(h) < 0)
			return NULL;
	}
	Py_RETURN_NONE;
}

static PyObject *session_sub_tuple(PyXrtSession *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "handle", "index", "release", NULL };
	int64_t index[16];
	PyObject *h, *idx, *seq;
	Py_ssize_t i, n;
	int release = 0;
	xrt_handle id, out;
	xrt_status *st;

	xrt_session *s;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$p:sub_tuple", names, &h, &idx, &release) ||
	    handle_id(self, h, 0, &id) < 0)
		return NULL;
	seq = PyLong_Check(idx) ? PyTuple_Pack(1, idx) :
				  PySequence_Fast(idx, "xrt: an index is an int or ints");
	if (!seq)
		return NULL;
	n = PySequence_Fast_GET_SIZE(seq);
	for (i = 0; i < n && i < 16; i++)
		index[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
	Py_DECREF(seq);
	if (n > 16) {
		PyErr_SetString(PyExc_ValueError, "xrt: an index path of more than 16 steps");
		return NULL;
	}
	if (PyErr_Occurred() || !(s = begin_call(self)))
		return NULL;
	st = xrt_sub_tuple(s, id, index, (uint32_t)n, release, &out);
	end_call(self);
	if (st)
		return pyxrt_raise(st);
	if (release)
		((PyXrtHandle *)h)->released = 1;
	return handle_new(self, out, 0);
}

/* The tree of @v (handles, tuples of them) into @nodes from *@used; its leaves' ids. */
static int tuple_tree(PyXrtSession *self, PyObject *v, int depth, struct xrt_tuple_node *nodes,
		      Py_ssize_t cap, Py_ssize_t *used, struct xrt_tuple_node *at,
		      xrt_handle *ids, Py_ssize_t *num_ids, bool release)
{
	Py_ssize_t i, n;
	struct xrt_tuple_node *kids;

	if (depth > 16) {
		PyErr_SetString(PyExc_ValueError, "xrt: tuples nested too deep");
		return -1;
	}
	memset(at, 0, sizeof(*at));
	if (!PyTuple_Check(v)) {
		if (*num_ids >= cap || handle_id(self, v, 0, &ids[*num_ids]) < 0) {
			if (!PyErr_Occurred())
				PyErr_SetString(PyExc_ValueError, "xrt: too many leaves");
			return -1;
		}
		at->input_index = (*num_ids)++;
		at->release_input = release;
		return 0;
	}
	n = PyTuple_GET_SIZE(v);
	if (!n || *used + n > cap) {
		PyErr_SetString(PyExc_ValueError, n ? "xrt: too large a tuple" :
					"xrt: an empty tuple");
		return -1;
	}
	kids = &nodes[*used];
	*used += n;
	at->children = kids;
	at->num_children = (uint32_t)n;
	for (i = 0; i < n; i++)
		if (tuple_tree(self, PyTuple_GET_ITEM(v, i), depth + 1, nodes, cap, used, &kids[i],
			       ids, num_ids, release) < 0)
			return -1;
	return 0;
}

static PyObject *session_make_tuple(PyXrtSession *self, PyObject *args, PyObject *kw)
{
	static char *names[] = { "elements", "release_inputs", NULL };
	enum { CAP = 1024 };
	struct xrt_tuple_node *nodes, root;
	Py_ssize_t used = 0, num_ids = 0;
	int release = 0;
	xrt_handle *ids, out;
	xrt_status *st = NULL;
	xrt_session *s = NULL;
	PyObject *desc;
	int ok;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|$p:make_tuple", names, &PyTuple_Type,
					 &desc, &release))
		return NULL;
	nodes = PyMem_Calloc(CAP, sizeof(*nodes));
	ids = PyMem_Calloc(CAP, sizeof(*ids));
	ok = nodes && ids && tuple_tree(self, desc, 0, nodes, CAP, &used, &root, ids, &num_ids,
					release) == 0;
	if (ok)
		s = begin_call(self);
	if (s) {
		st = xrt_make_tuple(s, &root, ids, (uint32_t)num_ids, &out);
		end_call(self);
	}
	PyMem_Free(nodes);
	PyMem_Free(ids);
	if (!ok || !s)
		return PyErr_Occurred() ? NULL : PyErr_NoMemory();
	if (st)
		return pyxrt_raise(st);
	return handle_new(self, out, 0);
}

static PyObject *session_transfer(PyXrtSession *self, PyObject *args)
{
	xrt_session *from, *dst = NULL;
	PyXrtSession *to;
	xrt_handle id, out;
	xrt_status *st;
	PyObject *h;

	if (!PyArg_ParseTuple(args, "OO!:transfer", &h, &PyXrtSession_Type, &to) ||
	    handle_id(self, h, 0, &id) < 0 || !(from = begin_call(self)))
		return NULL;
	dst = begin_call(to);
	if (!dst) {
		end_call(self);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	st = xrt_transfer(from, id, dst, &out);
	Py_END_ALLOW_THREADS
	end_call(to);
	end_call(self);
	return st ? pyxrt_raise(st) : handle_new(to, out, 0);
}


/* --- replicated execution --------------------------------------------------- */

#define MAX_REPLICATED 1024

struct replicated_args {
	PyObject *sessions, *comps, *inputs;	/* sequences (PySequence_Fast) */
	Py_ssize_t num_sessions, devices, num_args;
	xrt_session **s;
	xrt_handle *c, *ids, *out;
	uint32_t *assignment;
	struct xrt_replicated_config cfg;
};

/* Whether the run spans the process group: its arrays are then per session. */
static bool spread(const struct replicated_args *x)
{
	uint32_t size = 1;

	return !x->cfg.this_process_only && xrt_distributed_rank(NULL, &size) && size > 1;
}

static PyXrtSession *session_at(struct replicated_args *x, Py_ssize_t d)
{
	uint32_t k = x->cfg.device_assignment && !spread(x) ? x->assignment[d] : (uint32_t)d;

	return (PyXrtSession *)PySequence_Fast_GET_ITEM(x->sessions, k);
}

/*
 * The device assignment: per device its session, or across processes its
 * global device id (as many as the program's devices, which only
 * xrt_execute_replicated knows: entries past the list's are no device).
 */
static int parse_assignment(struct replicated_args *x, PyObject *assignment)
{
	PyObject *seq = PySequence_Fast(assignment, "xrt: device_assignment is a sequence");
	Py_ssize_t n, d;

	if (!seq)
		return -1;
	n = PySequence_Fast_GET_SIZE(seq);
	if (spread(x) && n <= MAX_REPLICATED) {
		PyMem_Free(x->assignment);
		x->assignment = PyMem_Malloc((MAX_REPLICATED + 1) * sizeof(*x->assignment));
		if (!x->assignment) {
			Py_DECREF(seq);
			PyErr_NoMemory();
			return -1;
		}
		memset(x->assignment, 0xff, (MAX_REPLICATED + 1) * sizeof(*x->assignment));
	}
	for (d = 0; d < (spread(x) ? n : x->devices); d++) {
		unsigned long v = n == x->devices || (spread(x) && n <= MAX_REPLICATED) ?
				  PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, d)) : ~0ul;

		if (v >= (unsigned long)(spread(x) ? UINT32_MAX : x->num_sessions)) {
			if (!PyErr_Occurred())
				PyErr_SetString(PyExc_ValueError, spread(x) ?
						"xrt: device_assignment names a global device per "
						"device" :
						"xrt: device_assignment names a session per device, "
						"below len(sessions)");
			Py_DECREF(seq);
			return -1;
		}
		x->assignment[d] = (uint32_t)v;
	}
	Py_DECREF(seq);
	x->cfg.device_assignment = x->assignment;
	return 0;
}

/* The sessions, the assignment, and per device its compilation and inputs, as ids. */
static int parse_devices(struct replicated_args *x, PyObject *assignment)
{
	Py_ssize_t d, k;

	x->num_sessions = PySequence_Fast_GET_SIZE(x->sessions);
	x->devices = PySequence_Fast_GET_SIZE(x->comps);
	if (!x->num_sessions || x->devices != PySequence_Fast_GET_SIZE(x->inputs) ||
	    x->devices > MAX_REPLICATED) {
		PyErr_SetString(PyExc_ValueError, "xrt: execute_replicated takes sessions, and "
				"one compilation and one list of inputs per device");
		return -1;
	}
	if (spread(x) && x->devices != x->num_sessions) {
		PyErr_SetString(PyExc_ValueError, "xrt: execute_replicated across processes "
				"takes one compilation and one list of inputs per session of this "
				"process");
		return -1;
	}
	for (k = 0; k < x->num_sessions; k++)
		if (!PyObject_TypeCheck(PySequence_Fast_GET_ITEM(x->sessions, k),
					&PyXrtSession_Type)) {
			PyErr_SetString(PyExc_TypeError, "xrt: sessions holds a non-Session");
			return -1;
		}
	x->assignment = PyMem_Calloc((size_t)x->devices + 1, sizeof(*x->assignment));
	x->c = PyMem_Calloc((size_t)x->devices + 1, sizeof(*x->c));
	x->out = PyMem_Calloc((size_t)x->devices + 1, sizeof(*x->out));
	if (!x->assignment || !x->c || !x->out) {
		PyErr_NoMemory();
		return -1;
	}
	if (assignment && assignment != Py_None && parse_assignment(x, assignment) < 0)
		return -1;
	for (d = 0; d < x->devices; d++) {
		PyObject *in = PySequence_Fast(PySequence_Fast_GET_ITEM(x->inputs, d),
					       "xrt: inputs holds a sequence of handles per device");

		if (!in)
			return -1;
		if (!d) {
			x->num_args = PySequence_Fast_GET_SIZE(in);
			x->ids = PyMem_Calloc((size_t)(x->devices * x->num_args) + 1,
					      sizeof(*x->ids));
		}
		for (k = 0; x->ids && k < x->num_args && PySequence_Fast_GET_SIZE(in) ==
		     x->num_args; k++)
			if (handle_id(session_at(x, d), PySequence_Fast_GET_ITEM(in, k), 0,
				      &x->ids[d * x->num_args + k]) < 0)
				break;
		if (!PyErr_Occurred() && !x->ids)
			PyErr_NoMemory();
		else if (!PyErr_Occurred() && PySequence_Fast_GET_SIZE(in) != x->num_args)
			PyErr_SetString(PyExc_ValueError, "xrt: every device takes as many inputs");
		Py_DECREF(in);
		if (PyErr_Occurred() ||
		    handle_id(session_at(x, d), PySequence_Fast_GET_ITEM(x->comps, d), 1,
			      &x->c[d]) < 0)
			return -1;
	}
	return 0;
}

static void replicated_free(struct replicated_args *x)
{
	PyMem_Free(x->assignment);
	PyMem_Free(x->c);
	PyMem_Free(x->out);
	PyMem_Free(x->ids);
	PyMem_Free(x->s);
	Py_XDECREF(x->sessions);
	Py_XDECREF(x->comps);
	Py_XDECREF(x->inputs);
}

/* Begins a call on every session; on failure ends those begun. */
static int begin_all(struct replicated_args *x)
{
	Py_ssize_t k;

	x->s = PyMem_Calloc((size_t)x->num_sessions + 1, sizeof(*x->s));
	if (!x->s) {
		PyErr_NoMemory();
		return -1;
	}
	for (k = 0; k < x->num_sessions; k++) {
		x->s[k] = begin_call((PyXrtSession *)PySequence_Fast_GET_ITEM(x->sessions, k));
		if (!x->s[k]) {
			while (k-- > 0)
				end_call((PyXrtSession *)PySequence_Fast_GET_ITEM(x->sessions, k));
			return -1;
		}
	}
	return 0;
}

static PyObject *session_execute_replicated(PyObject *unused, PyObject *args, PyObject *kw)
{
	static char *names[] = { "sessions", "compilations", "inputs", "seed", "timeout",
				 "max_iterations", "device_assignment", "this_process_only", NULL };
	PyObject *sessions, *comps, *inputs, *timeout = NULL, *max_it = NULL, *assign = NULL;
	struct replicated_args x = { 0 };
	unsigned int seed = 0;
	int local = 0;
	PyObject *list = NULL;
	xrt_status *st;
	Py_ssize_t d, k;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|$IOOOp:execute_replicated", names,
					 &sessions, &comps, &inputs, &seed, &timeout, &max_it,
					 &assign, &local) ||
	    timeout_ns(timeout, &x.cfg.base.timeout_ns) < 0 ||
	    iteration_bound(max_it, &x.cfg.base.max_iterations) < 0)
		return NULL;
	x.cfg.base.rng_seed = seed;
	x.cfg.this_process_only = local;
	x.sessions = PySequence_Fast(sessions, "xrt: sessions is a sequence of Sessions");
	x.comps = x.sessions ? PySequence_Fast(comps, "xrt: compilations is a sequence") : NULL;
	x.inputs = x.comps ? PySequence_Fast(inputs, "xrt: inputs is a sequence") : NULL;
	if (!x.inputs || parse_devices(&x, assign) < 0 || begin_all(&x) < 0) {
		replicated_free(&x);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	st = xrt_execute_replicated(x.s, (uint32_t)x.num_sessions, x.c, x.ids,
				    (uint32_t)x.num_args, &x.cfg, x.out);
	Py_END_ALLOW_THREADS
	for (k = 0; k < x.num_sessions; k++)
		end_call((PyXrtSession *)PySequence_Fast_GET_ITEM(x.sessions, k));
	if (st) {
		replicated_free(&x);
		return pyxrt_raise(st);
	}
	list = PyList_New(x.devices);
	for (d = 0; list && d < x.devices; d++) {
		PyObject *h = handle_new(session_at(&x, d), x.out[d], 0);

		if (!h) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, d, h);
	}
	replicated_free(&x);
	return list;
}

static PyMethodDef session_methods[] = {
	{ "sub_tuple", (PyCFunction)(void (*)(void))session_sub_tuple, METH_VARARGS | METH_KEYWORDS,
	  "sub_tuple(handle, index, *, release=False): the element at index (an int or\n"
	  "a path of ints), sharing the buffers." },
	{ "make_tuple", (PyCFunction)(void (*)(void))session_make_tuple,
	  METH_VARARGS | METH_KEYWORDS,
	  "make_tuple(elements, *, release_inputs=False): a tuple allocation of a\n"
	  "nested tuple of allocation handles, sharing their buffers." },
	{ "compile", (PyCFunction)session_compile, METH_O,
	  "compile(hlo_text or computation_bytes): a compilation handle." },
	{ "compile_xla", (PyCFunction)session_compile_xla, METH_O,
	  "compile_xla(bytes): compile XLA's HloModuleProto, HloProto or HloSnapshot "
	  "(as_serialized_hlo_module_proto(), --xla_dump_hlo_as_proto)." },
	{ "allocate", (PyCFunction)session_allocate, METH_O,
	  "allocate(array or nested tuple of arrays): an allocation handle." },
	{ "execute", (PyCFunction)(void (*)(void))session_execute, METH_VARARGS | METH_KEYWORDS,
	  "execute(compilation, inputs=(), *, release_inputs=False,\n"
	  "        release_compilation=False, seed=0, timeout=None, max_iterations=0):\n"
	  "the result's handle.  timeout (seconds) and max_iterations (every\n"
	  "execution of every while loop) fail the run with DeadlineExceededError;\n"
	  "Ctrl-C cancels it and raises KeyboardInterrupt." },
	{ "transfer", (PyCFunction)session_transfer, METH_VARARGS,
	  "transfer(handle, session): a copy of the allocation in another session\n"
	  "(any device; between two accel devices through PRIME)." },
	{ "execute_async", (PyCFunction)(void (*)(void))session_execute_async,
	  METH_VARARGS | METH_KEYWORDS,
	  "execute_async(compilation, inputs=(), ...): starts the run; (the result's\n"
	  "handle, usable at once, and an xrt.Event)." },
	{ "execute_replicated", (PyCFunction)(void (*)(void))session_execute_replicated,
	  METH_VARARGS | METH_KEYWORDS | METH_STATIC,
	  "Session.execute_replicated(sessions, compilations, inputs, *, seed=0,\n"
	  "        timeout=None, max_iterations=0, device_assignment=None,\n"
	  "        this_process_only=False):\n"
	  "run a program of R replicas x P partitions on R x P devices together.\n"
	  "Device d = replica x P + partition runs in sessions[d] (or\n"
	  "sessions[device_assignment[d]]) with compilations[d] and inputs[d], handles\n"
	  "of that session; returns the list of their results' handles.  After\n"
	  "xrt.distributed_init() in a group of several processes, the run spans\n"
	  "them: every process passes its own sessions, which are global devices\n"
	  "numbered rank by rank, and compilations, inputs and the results are per\n"
	  "session; device_assignment then names a global device per device." },
	{ "read", (PyCFunction)(void (*)(void))session_read, METH_VARARGS | METH_KEYWORDS,
	  "read(handle, *, release=False): the value, a numpy array or a tuple." },
	{ "release", (PyCFunction)session_release, METH_VARARGS,
	  "release(*handles): release them (NotFoundError for one released already)." },
	{ "close", (PyCFunction)session_close, METH_NOARGS,
	  "Release every allocation and close the session." },
	{ "__enter__", (PyCFunction)session_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)session_exit, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef session_getset[] = {
	{ "device", (getter)session_device, NULL, "The session's device.", NULL },
	{ "memory_in_use", (getter)session_memory, NULL, "Bytes allocated on the device.",
	  NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject PyXrtSession_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xrt.Session",
	.tp_doc = "Session(device=None, memory_limit=0, *, host_devices=0): compile,\n"
		  "allocate, execute, read and release on one device (the XRT API);\n"
		  "host_devices makes host:0 .. host:N-1 exist for replicated runs.",
	.tp_basicsize = sizeof(PyXrtSession),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_new = session_new,
	.tp_dealloc = (destructor)session_dealloc,
	.tp_methods = session_methods,
	.tp_getset = session_getset,
};

/* --- handles -------------------------------------------------------------- */

static void handle_dealloc(PyXrtHandle *self)
{
	Py_XDECREF(self->session);
	PyObject_Free(self);
}

static PyObject *handle_release(PyXrtHandle *self, PyObject *unused)
{
	if (release_one(self) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *handle_enter(PyXrtHandle *self, PyObject *unused)
{
	return Py_NewRef((PyObject *)self);
}

/*
 * Leaving a with block releases; a handle gone another way (released,
 * donated, its session closed) is fine.
 */
static PyObject *handle_exit(PyXrtHandle *self, PyObject *args)
{
	if (self->released || release_one(self) == 0)
		Py_RETURN_NONE;
	if (PyErr_ExceptionMatches(PyExc_ValueError) ||
	    PyErr_ExceptionMatches(PyExc_LookupError)) {
		PyErr_Clear();
		self->released = 1;
		Py_RETURN_NONE;
	}
	return NULL;
}

static PyObject *handle_repr(PyXrtHandle *self)
{
	return PyUnicode_FromFormat("<xrt %s handle %lld%s>",
				    self->compilation ? "compilation" : "allocation",
				    (long long)self->id, self->released ? ", released" : "");
}

static PyObject *handle_shape(PyXrtHandle *self, void *unused)
{
	struct xrt_shape shape;
	struct xrt_program_shape ps;
	xrt_session *s = begin_call(self->session);
	xrt_status *st;
	char text[512];

	if (!s)
		return NULL;
	if (self->compilation) {
		st = xrt_compilation_shape(s, self->id, NULL, &ps);
		if (!st) {
			xrt_shape_format(&ps.result, text, sizeof(text));
			xrt_program_shape_deinit(&ps);
		}
	} else {
		st = xrt_allocation_shape(s, self->id, NULL, &shape);
		if (!st) {
			xrt_shape_format(&shape, text, sizeof(text));
			xrt_shape_deinit(&shape);
		}
	}
	end_call(self->session);
	if (st)
		return pyxrt_raise(st);
	return PyUnicode_FromString(text);
}

static PyObject *handle_id_get(PyXrtHandle *self, void *unused)
{
	return PyLong_FromLongLong(self->id);
}

static PyMethodDef handle_methods[] = {
	{ "release", (PyCFunction)handle_release, METH_NOARGS, "Release the handle." },
	{ "__enter__", (PyCFunction)handle_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)handle_exit, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef handle_getset[] = {
	{ "id", (getter)handle_id_get, NULL, "The XRT handle.", NULL },
	{ "shape", (getter)handle_shape, NULL,
	  "The allocation's shape, or the compilation's result shape (text).", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject PyXrtHandle_Type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "xrt.Handle",
	.tp_doc = "An allocation or compilation of a session; with releases it.",
	.tp_basicsize = sizeof(PyXrtHandle),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_dealloc = (destructor)handle_dealloc,
	.tp_repr = (reprfunc)handle_repr,
	.tp_methods = handle_methods,
	.tp_getset = handle_getset,
};

int pyxrt_session_ready(PyObject *m)
{
	if (PyType_Ready(&PyXrtSession_Type) < 0 || PyType_Ready(&PyXrtHandle_Type) < 0)
		return -1;
	if (PyModule_AddObjectRef(m, "Session", (PyObject *)&PyXrtSession_Type) < 0 ||
	    PyModule_AddObjectRef(m, "Handle", (PyObject *)&PyXrtHandle_Type) < 0)
		return -1;
	return 0;
}
