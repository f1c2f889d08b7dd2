// SPDX-License-Identifier: MIT
/*
 * The registry of custom-call handlers, and the typed attribute getters
 * handlers read their dictionaries with.
 *
 * Handlers are registered for the process's life and never removed, so
 * the registry is a list that only grows at its head: a writer links a
 * complete entry in under the lock, and readers (every call a program
 * makes) walk it without one.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"

#define MAX_TARGET 255

struct entry {
	struct entry *next;
	xrt_custom_call_fn *fn;
	void *user;
	char target[];
};

static _Atomic(struct entry *) head;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const struct entry *find(const char *target)
{
	const struct entry *e;

	for (e = atomic_load_explicit(&head, memory_order_acquire); e; e = e->next)
		if (!strcmp(e->target, target))
			return e;
	return NULL;
}

XRT_API xrt_status *xrt_custom_call_register(const char *target, xrt_custom_call_fn *fn,
					     void *user)
{
	struct entry *e;
	size_t len;

	if (!target || !*target || !fn)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "xrt_custom_call_register: %s", !fn ? "NULL handler" :
				      "NULL or empty target name");
	len = strnlen(target, MAX_TARGET + 1);
	if (len > MAX_TARGET)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "xrt_custom_call_register: a target name is at most %d "
				      "bytes", MAX_TARGET);
	pthread_mutex_lock(&lock);
	if (find(target)) {
		pthread_mutex_unlock(&lock);
		return xrt_status_new(NULL, XRT_ALREADY_EXISTS,
				      "custom-call target '%s' is already registered", target);
	}
	e = xrt_mem_alloc(NULL, sizeof(*e) + len + 1);
	if (e) {
		e->next = atomic_load_explicit(&head, memory_order_relaxed);
		e->fn = fn;
		e->user = user;
		memcpy(e->target, target, len + 1);
		atomic_store_explicit(&head, e, memory_order_release);
	}
	pthread_mutex_unlock(&lock);
	return e ? NULL : xrt_status_oom(NULL, "a custom-call target");
}

bool xffi_registered(const char *target)
{
	return find(target);
}

xrt_status *xffi_run(const struct xrt_ffi_call *call, const struct xrt_allocator *a)
{
	const struct entry *e = find(call->target);
	xrt_custom_call_fn *fn = e ? e->fn : xffi_builtin(call->target);
	xrt_status *st;

	if (!fn)
		return xrt_status_new(a, XRT_NOT_FOUND, "%s: custom-call target '%s' is not "
				      "registered (xrt_custom_call_register)", call->where,
				      call->target);
	st = fn(e ? e->user : NULL, call);
	return st ? xrt_status_annotate(st, "%s: custom-call '%s'", call->where,
					call->target) : NULL;
}

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct xrt_ffi_attr *)elem)->name);
}

XRT_API const struct xrt_ffi_attr *xrt_ffi_attr_find(const struct xrt_ffi_attrs *attrs,
						     const char *name)
{
	if (!attrs || !name || !attrs->count)
		return NULL;
	return bsearch(name, attrs->attr, attrs->count, sizeof(attrs->attr[0]), cmp_name);
}

static const char *type_name(const struct xrt_ffi_attr *at)
{
	static const char *const names[] = { "a scalar", "an array", "a string",
					     "a dictionary" };

	return at->type <= XRT_FFI_DICT ? names[at->type] : "unknown";
}

/* @name's attribute, if it is of @type; else INVALID_ARGUMENT saying why. */
static xrt_status *get(const struct xrt_ffi_attrs *attrs, const char *name,
		       enum xrt_ffi_attr_type type, const char *want,
		       const struct xrt_ffi_attr **out)
{
	const struct xrt_ffi_attr *at = xrt_ffi_attr_find(attrs, name);

	if (!name)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "NULL attribute name");
	if (!at)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "attribute '%s' is missing",
				      name);
	if (at->type != type)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "attribute '%s' is %s, not %s", name, type_name(at), want);
	*out = at;
	return NULL;
}

/* INVALID_ARGUMENT for a getter handed nowhere to put what it finds. */
static xrt_status *no_out(const char *fn)
{
	return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "%s: NULL output", fn);
}

static bool is_unsigned(enum xrt_dtype t)
{
	return t == XRT_U8 || t == XRT_U16 || t == XRT_U32 || t == XRT_U64;
}

XRT_API xrt_status *xrt_ffi_get_int(const struct xrt_ffi_attrs *attrs, const char *name,
				    int64_t *out)
{
	const struct xrt_ffi_attr *at = NULL;
	xrt_status *st;

	if (!out)
		return no_out("xrt_ffi_get_int");
	st = get(attrs, name, XRT_FFI_SCALAR, "an integer", &at);
	if (st)
		return st;
	if (!xrt_dtype_is_integer(at->dtype) && at->dtype != XRT_PRED)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "attribute '%s' is %s, not an integer", name,
				      xrt_dtype_name(at->dtype));
	if (at->dtype == XRT_U64 && at->v.u > INT64_MAX)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "attribute '%s' (%llu) does not fit int64_t", name,
				      (unsigned long long)at->v.u);
	*out = is_unsigned(at->dtype) ? (int64_t)at->v.u : at->v.i;
	return NULL;
}

XRT_API xrt_status *xrt_ffi_get_float(const struct xrt_ffi_attrs *attrs, const char *name,
				      double *out)
{
	const struct xrt_ffi_attr *at = NULL;
	xrt_status *st;

	if (!out)
		return no_out("xrt_ffi_get_float");
	st = get(attrs, name, XRT_FFI_SCALAR, "a float", &at);
	if (st)
		return st;
	if (!xrt_dtype_is_float(at->dtype))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "attribute '%s' is %s, not a float", name,
				      xrt_dtype_name(at->dtype));
	*out = at->v.f;
	return NULL;
}

XRT_API xrt_status *xrt_ffi_get_string(const struct xrt_ffi_attrs *attrs, const char *name,
				       const char **out, size_t *size)
{
	const struct xrt_ffi_attr *at = NULL;
	xrt_status *st;

	if (!out)
		return no_out("xrt_ffi_get_string");
	st = get(attrs, name, XRT_FFI_STRING, "a string", &at);
	if (st)
		return st;
	*out = at->data;
	if (size)
		*size = (size_t)at->count;
	return NULL;
}

XRT_API xrt_status *xrt_ffi_get_array(const struct xrt_ffi_attrs *attrs, const char *name,
				      enum xrt_dtype dtype, const void **out, uint64_t *count)
{
	const struct xrt_ffi_attr *at = NULL;
	xrt_status *st;

	if (!out || !count)
		return no_out("xrt_ffi_get_array");
	st = get(attrs, name, XRT_FFI_ARRAY, "an array", &at);
	if (st)
		return st;
	if (at->dtype != dtype)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "attribute '%s' is an array of %s, not of %s", name,
				      xrt_dtype_name(at->dtype), xrt_dtype_name(dtype));
	*out = at->data;
	*count = at->count;
	return NULL;
}
