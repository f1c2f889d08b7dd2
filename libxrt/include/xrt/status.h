/* SPDX-License-Identifier: MIT */
/*
 * XRT status: how every public function reports an error.
 *
 * A function that can fail returns an xrt_status pointer: NULL means
 * success, anything else is an error the caller owns and must free with
 * xrt_status_free().  A status carries one canonical code and a message
 * that names what is wrong and where.
 */
#ifndef XRT_STATUS_H
#define XRT_STATUS_H

#include <stdarg.h>

#include <xrt/api.h>
#include <xrt/alloc.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum xrt_code - canonical error codes
 * @XRT_OK: success; never carried by a status object
 * @XRT_CANCELLED: the operation was cancelled by its caller
 * @XRT_UNKNOWN: an error with no better code
 * @XRT_INVALID_ARGUMENT: the caller passed something malformed
 * @XRT_DEADLINE_EXCEEDED: a timeout expired first
 * @XRT_NOT_FOUND: a named thing (handle, device, op) does not exist
 * @XRT_ALREADY_EXISTS: the thing to create exists already
 * @XRT_PERMISSION_DENIED: the caller may not do this
 * @XRT_RESOURCE_EXHAUSTED: out of memory or another limit
 * @XRT_FAILED_PRECONDITION: the system is not in a state that allows this
 * @XRT_ABORTED: aborted, e.g. by a device reset; retrying may work
 * @XRT_OUT_OF_RANGE: an index or offset past the valid range
 * @XRT_UNIMPLEMENTED: valid, but not supported here
 * @XRT_INTERNAL: an invariant broke: a bug in XRT
 * @XRT_UNAVAILABLE: the device or service is unavailable
 * @XRT_DATA_LOSS: data was lost or corrupted
 *
 * The numbering is the canonical one shared by gRPC, absl and XLA.
 */
enum xrt_code {
	XRT_OK = 0,
	XRT_CANCELLED = 1,
	XRT_UNKNOWN = 2,
	XRT_INVALID_ARGUMENT = 3,
	XRT_DEADLINE_EXCEEDED = 4,
	XRT_NOT_FOUND = 5,
	XRT_ALREADY_EXISTS = 6,
	XRT_PERMISSION_DENIED = 7,
	XRT_RESOURCE_EXHAUSTED = 8,
	XRT_FAILED_PRECONDITION = 9,
	XRT_ABORTED = 10,
	XRT_OUT_OF_RANGE = 11,
	XRT_UNIMPLEMENTED = 12,
	XRT_INTERNAL = 13,
	XRT_UNAVAILABLE = 14,
	XRT_DATA_LOSS = 15,
};

/** typedef xrt_status - an error; NULL is success */
typedef struct xrt_status xrt_status;

/**
 * xrt_status_new() - make an error status
 * @alloc: allocator for the status (NULL: the system allocator); it must
 *         outlive the status
 * @code: the code; XRT_OK or an unknown code is turned into XRT_INTERNAL
 * @fmt: printf-style message
 *
 * Never returns NULL: when memory runs out, a static status with the
 * right code and a generic message is returned instead (freeing it is a
 * no-op).
 *
 * Return: the new status.
 */
XRT_API xrt_status *xrt_status_new(const struct xrt_allocator *alloc,
				   enum xrt_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * xrt_status_newv() - xrt_status_new() with a va_list
 * @alloc: allocator for the status (NULL: the system allocator)
 * @code: the code
 * @fmt: printf-style message
 * @ap: the arguments
 *
 * Return: the new status, never NULL.
 */
XRT_API xrt_status *xrt_status_newv(const struct xrt_allocator *alloc,
				    enum xrt_code code, const char *fmt,
				    va_list ap)
	__attribute__((format(printf, 3, 0)));

/**
 * xrt_status_annotate() - prefix context to an error's message
 * @status: an error, or NULL
 * @fmt: printf-style prefix; ": " is put between it and the old message
 *
 * Consumes @status.  When memory runs out the original status is returned
 * unchanged.
 *
 * Return: NULL if @status was NULL, else the annotated status.
 */
XRT_API xrt_status *xrt_status_annotate(xrt_status *status,
					const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * xrt_status_code() - the code of a status
 * @status: a status or NULL
 *
 * Return: XRT_OK for NULL, else the error's code.
 */
XRT_API enum xrt_code xrt_status_code(const xrt_status *status);

/**
 * xrt_status_message() - the message of a status
 * @status: a status or NULL
 *
 * Return: "" for NULL, else the message; valid until the status is freed.
 */
XRT_API const char *xrt_status_message(const xrt_status *status);

/**
 * xrt_status_free() - free a status
 * @status: a status or NULL
 */
XRT_API void xrt_status_free(xrt_status *status);

/**
 * xrt_code_name() - the canonical name of a code
 * @code: a code
 *
 * Return: e.g. "INVALID_ARGUMENT"; "UNKNOWN_CODE" for a value outside
 * enum xrt_code.
 */
XRT_API const char *xrt_code_name(enum xrt_code code);

#ifdef __cplusplus
}
#endif

#endif /* XRT_STATUS_H */
