/* SPDX-License-Identifier: MIT */
/*
 * Custom calls inside libxrt: the attribute dictionary reader
 * (ffi_attrs.c) and the registry of handlers (custom_call.c), which the
 * evaluator and the host device call through.
 */
#ifndef XRT_CORE_FFI_H
#define XRT_CORE_FFI_H

#include <xrt/custom_call.h>

/*
 * @n bytes of @text, an MLIR attribute dictionary as XLA prints a typed
 * FFI call's backend_config ("" is an empty one), into *@out (free it
 * with xffi_attrs_free).  INVALID_ARGUMENT names the byte and what is
 * wrong there.
 */
xrt_status *xffi_attrs_parse(const struct xrt_allocator *a, const char *text, size_t n,
			     struct xrt_ffi_attrs **out);
void xffi_attrs_free(const struct xrt_allocator *a, struct xrt_ffi_attrs *d);

/* Whether @target has a handler. */
bool xffi_registered(const char *target);
/*
 * Calls @call's target: NOT_FOUND if it has no handler; the handler's
 * error with its code, prefixed with the target and call->where.
 */
xrt_status *xffi_run(const struct xrt_ffi_call *call, const struct xrt_allocator *a);

/*
 * The built-in handler of @target (jaxlib's CPU LAPACK targets,
 * ffi_lapack.c), or NULL.  A handler registered under the same name
 * comes first.
 */
xrt_custom_call_fn *xffi_builtin(const char *target);

#endif /* XRT_CORE_FFI_H */
