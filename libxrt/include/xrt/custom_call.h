/* SPDX-License-Identifier: MIT */
/*
 * Custom calls: host code a program calls by name, in the spirit of
 * XLA's FFI.  A module's custom-call instruction names a target; the
 * process registers a handler under that name; the host device (and
 * staged:0) and the reference evaluator call it with typed buffers in
 * and out and the instruction's attributes as a typed dictionary.
 * Devices that cannot run the process's code (accel:0, whose jobs run
 * in the kernel, and cuda:N) refuse such programs as UNIMPLEMENTED.
 */
#ifndef XRT_CUSTOM_CALL_H
#define XRT_CUSTOM_CALL_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/api.h>
#include <xrt/dtype.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct xrt_ffi_buffer - an array a custom call reads or writes
 * @dtype: its element type
 * @rank: number of dimensions
 * @dims: the @rank dimensions
 * @data: the elements, dense and row-major (the last dimension fastest)
 *        unless the call declares another layout for the array (an
 *        operand's in operand_layout_constraints, a result's in its
 *        shape), then dense in that layout; each of xrt_dtype_size()
 *        bytes (s4, u4, s2, u2 and the f8/f4
 *        types take a byte each, the value in its low bits); read only
 *        for an argument, to be written whole for a result
 * @size: bytes at @data
 */
struct xrt_ffi_buffer {
	enum xrt_dtype dtype;
	uint32_t rank;
	const int64_t *dims;
	void *data;
	uint64_t size;
};

/**
 * enum xrt_ffi_attr_type - what an attribute holds
 * @XRT_FFI_SCALAR: one number (@v of struct xrt_ffi_attr, by its dtype)
 * @XRT_FFI_ARRAY: @count numbers of one type at @data, packed
 * @XRT_FFI_STRING: @count bytes at @data (also NUL-terminated)
 * @XRT_FFI_DICT: a dictionary, @dict
 */
enum xrt_ffi_attr_type {
	XRT_FFI_SCALAR,
	XRT_FFI_ARRAY,
	XRT_FFI_STRING,
	XRT_FFI_DICT,
};

struct xrt_ffi_attrs;

/**
 * struct xrt_ffi_attr - one named attribute
 * @name: its name (NUL-terminated)
 * @type: enum xrt_ffi_attr_type
 * @dtype: SCALAR and ARRAY: XRT_PRED (true, false), XRT_S8 to XRT_S64,
 *         XRT_U8 to XRT_U64, XRT_F16, XRT_F32 or XRT_F64, as the
 *         attribute's MLIR type says (i1, i8, ui32, f32, ...)
 * @v: SCALAR: the value; @v.i for pred and signed types, @v.u for
 *     unsigned ones, @v.f for floats
 * @data: ARRAY: the elements (pred a byte each, f16 as IEEE half bits);
 *        STRING: the bytes
 * @count: ARRAY: number of elements; STRING: number of bytes
 * @dict: DICT: the dictionary
 */
struct xrt_ffi_attr {
	const char *name;
	enum xrt_ffi_attr_type type;
	enum xrt_dtype dtype;
	union {
		int64_t i;
		uint64_t u;
		double f;
	} v;
	const void *data;
	uint64_t count;
	const struct xrt_ffi_attrs *dict;
};

/**
 * struct xrt_ffi_attrs - a dictionary of attributes
 * @count: number of attributes
 * @attr: the attributes, sorted by name, each name once
 */
struct xrt_ffi_attrs {
	uint32_t count;
	const struct xrt_ffi_attr *attr;
};

/**
 * struct xrt_ffi_call - what a handler is called with
 * @target: the target's name
 * @where: the instruction calling it ("computation 'c', instruction 'r'")
 * @num_args: number of arguments
 * @args: the arguments, in operand order (a tuple operand gives its
 *        arrays, depth first)
 * @num_results: number of results
 * @results: the results: the instruction's array, or its tuple's arrays
 *           depth first
 * @attrs: the attributes of an API_VERSION_TYPED_FFI call (its
 *         backend_config dictionary); empty for the other versions
 * @opaque: the backend_config string of a call of the other versions; ""
 *          for API_VERSION_TYPED_FFI
 * @opaque_size: its bytes
 */
struct xrt_ffi_call {
	const char *target;
	const char *where;
	uint32_t num_args;
	const struct xrt_ffi_buffer *args;
	uint32_t num_results;
	const struct xrt_ffi_buffer *results;
	const struct xrt_ffi_attrs *attrs;
	const char *opaque;
	size_t opaque_size;
};

/**
 * typedef xrt_custom_call_fn - a custom call's handler (a function type)
 * @user: what was registered with it
 * @call: the buffers and attributes; valid during the call only
 *
 * Called on one thread at a time per run, but runs of different
 * programs (or of one program on several queues) may call it at once.
 * It must write every result element.
 *
 * Return: NULL, or an error (xrt_status_new()), which stops the run and
 * is returned from it with its code, its message prefixed with the
 * target and the instruction.
 */
typedef xrt_status *xrt_custom_call_fn(void *user, const struct xrt_ffi_call *call);

/**
 * xrt_custom_call_register() - make a target callable
 * @target: the name modules give in custom_call_target (copied), at most
 *          255 bytes
 * @fn: its handler
 * @user: passed to @fn
 *
 * Registration is for the process's life; programs compiled before it
 * find the target when they run.
 *
 * Return: NULL; INVALID_ARGUMENT for a NULL or empty @target, a NULL @fn
 * or a name too long; ALREADY_EXISTS if @target has a handler;
 * RESOURCE_EXHAUSTED when out of memory.
 */
XRT_API xrt_status *xrt_custom_call_register(const char *target, xrt_custom_call_fn *fn,
					     void *user);

/**
 * xrt_ffi_attr_find() - an attribute by name
 * @attrs: a dictionary (NULL: none)
 * @name: the name
 *
 * Return: the attribute, or NULL when @attrs has none of that name.
 */
XRT_API const struct xrt_ffi_attr *xrt_ffi_attr_find(const struct xrt_ffi_attrs *attrs,
						     const char *name);

/**
 * xrt_ffi_get_int() - an integer attribute's value
 * @attrs: a dictionary
 * @name: the attribute's name
 * @out: receives the value
 *
 * Takes a scalar of any integer type or pred whose value fits int64_t.
 *
 * Return: NULL, or INVALID_ARGUMENT saying @out is NULL, or the
 * attribute is missing, is not an integer scalar, or does not fit.
 */
XRT_API xrt_status *xrt_ffi_get_int(const struct xrt_ffi_attrs *attrs, const char *name,
				    int64_t *out);

/**
 * xrt_ffi_get_float() - a floating-point attribute's value
 * @attrs: a dictionary
 * @name: the attribute's name
 * @out: receives the value
 *
 * Return: NULL, or INVALID_ARGUMENT saying @out is NULL, or the attribute
 * is missing or is not a floating-point scalar.
 */
XRT_API xrt_status *xrt_ffi_get_float(const struct xrt_ffi_attrs *attrs, const char *name,
				      double *out);

/**
 * xrt_ffi_get_string() - a string attribute
 * @attrs: a dictionary
 * @name: the attribute's name
 * @out: receives its bytes (NUL-terminated)
 * @size: receives their count (NULL: not wanted)
 *
 * Return: NULL, or INVALID_ARGUMENT saying @out is NULL, or the attribute
 * is missing or is not a string.
 */
XRT_API xrt_status *xrt_ffi_get_string(const struct xrt_ffi_attrs *attrs, const char *name,
				       const char **out, size_t *size);

/**
 * xrt_ffi_get_array() - an array attribute of one element type
 * @attrs: a dictionary
 * @name: the attribute's name
 * @dtype: the element type the caller reads
 * @out: receives the elements
 * @count: receives their number
 *
 * Return: NULL, or INVALID_ARGUMENT saying @out or @count is NULL, or the
 * attribute is missing, is not an array, or holds another type.
 */
XRT_API xrt_status *xrt_ffi_get_array(const struct xrt_ffi_attrs *attrs, const char *name,
				      enum xrt_dtype dtype, const void **out, uint64_t *count);

#ifdef __cplusplus
}
#endif

#endif /* XRT_CUSTOM_CALL_H */
