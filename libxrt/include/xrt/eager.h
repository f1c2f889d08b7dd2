/* SPDX-License-Identifier: MIT */
/*
 * The eager API: run single operations on concrete values.
 *
 * A context holds the devices, the op registry and a kernel cache.  A
 * tensor is a refcounted array on one device.  An op is a reusable
 * description of one operation (a registered op name such as "MatMul",
 * its attributes, its inputs and where to run); executing it compiles a
 * one-op program the first time its key (op, attributes, input types and
 * shapes, device) is seen, and reuses it after: the key is kept on the op
 * and updated as inputs and attributes change, so executing a reused op
 * hashes nothing.
 *
 * Names and attributes are TensorFlow's raw ops ("AddV2" with attribute
 * "T"; "MatMul" with "transpose_a"); element types are enum xrt_dtype.
 * Every call reports through an xrt_status: NOT_FOUND for an unknown op,
 * attribute or device, INVALID_ARGUMENT naming the op, the input or the
 * attribute for anything else that does not fit.
 */
#ifndef XRT_EAGER_H
#define XRT_EAGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/api.h>
#include <xrt/dtype.h>
#include <xrt/literal.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** typedef xrt_eager_context - devices, registry, kernel cache (opaque) */
typedef struct xrt_eager_context xrt_eager_context;
/** typedef xrt_tensor - a refcounted array on one device (opaque) */
typedef struct xrt_tensor xrt_tensor;
/** typedef xrt_op - one operation being described (opaque) */
typedef struct xrt_op xrt_op;

/**
 * enum xrt_placement - what to do with an input on another device
 * @XRT_PLACEMENT_SILENT: copy it to the op's device
 * @XRT_PLACEMENT_EXPLICIT: fail with INVALID_ARGUMENT
 */
enum xrt_placement {
	XRT_PLACEMENT_SILENT = 0,
	XRT_PLACEMENT_EXPLICIT = 1,
};

/**
 * struct xrt_eager_options - how a context is made
 * @device: default device ("host:0"); NULL: XRT_DEVICE, else "host:0"
 * @threads: worker threads of host devices (0: one per core; at most 65535)
 * @placement: enum xrt_placement
 */
struct xrt_eager_options {
	const char *device;
	uint32_t threads;
	enum xrt_placement placement;
};

/**
 * xrt_eager_context_create() - make a context
 * @options: NULL for the defaults
 * @alloc: allocator for everything the context holds (NULL: system)
 * @out: receives the context
 */
XRT_API xrt_status *xrt_eager_context_create(const struct xrt_eager_options *options,
					     const struct xrt_allocator *alloc,
					     xrt_eager_context **out);

/**
 * xrt_eager_context_destroy() - free a context
 * @c: a context with no tensor or op left, or NULL
 */
XRT_API void xrt_eager_context_destroy(xrt_eager_context *c);

/** xrt_eager_num_devices() - number of devices of @c */
XRT_API uint32_t xrt_eager_num_devices(const xrt_eager_context *c);

/** xrt_eager_device_name() - name of device @i of @c ("host:0"), or NULL */
XRT_API const char *xrt_eager_device_name(const xrt_eager_context *c, uint32_t i);

/**
 * xrt_eager_add_function() - register a function, callable as an op
 * @c: the context
 * @function_def: a serialized xrt.FunctionDef (proto/xrt.proto)
 * @size: its bytes
 *
 * Nodes name registered ops ("Const" for constants; constant inputs such
 * as axes must come from Const nodes), set their attributes, and read
 * arguments ("x") or node outputs ("node:0", or "node:output:0").  A node
 * may leave out the type attributes of its inputs (inferred per call) and
 * may call a function registered earlier.  An argument typed by an
 * attribute (type_attr) makes the function polymorphic: its op has that
 * attribute, set by the call's tensors.  The function's name then
 * works with xrt_op_create(); executing it compiles the whole body, the
 * callees' included, as one program.
 *
 * Return: NULL (also for the same definition registered again);
 * INVALID_ARGUMENT for a malformed message, a dangling edge, a cycle, a
 * missing attribute or return; NOT_FOUND naming an unknown op;
 * ALREADY_EXISTS for an op's name or another function's.  Types and
 * shapes are checked when the function is executed.
 */
XRT_API xrt_status *xrt_eager_add_function(xrt_eager_context *c, const void *function_def,
					   size_t size);

/** xrt_eager_has_function() - whether @c has a function named @name */
XRT_API bool xrt_eager_has_function(xrt_eager_context *c, const char *name);

/**
 * xrt_eager_clear_caches() - forget every compiled kernel of @c
 * @c: a context
 *
 * Also frees the memory of released tensors that @c keeps for reuse (up
 * to 64 MiB of larger blocks, besides small ones).
 */
XRT_API void xrt_eager_clear_caches(xrt_eager_context *c);

/**
 * xrt_tensor_from_host() - a tensor holding a copy of host data
 * @c: the context
 * @dtype: element type (not TUPLE)
 * @rank: number of dimensions
 * @dims: @rank sizes, row-major data
 * @data: the elements
 * @size: bytes at @data; must be exactly what the shape needs
 * @out: receives the tensor, on the context's default device
 */
XRT_API xrt_status *xrt_tensor_from_host(xrt_eager_context *c, enum xrt_dtype dtype,
					 uint32_t rank, const int64_t *dims,
					 const void *data, size_t size, xrt_tensor **out);

/**
 * xrt_tensor_wrap_host() - a host tensor over the caller's memory, no copy
 * @c: the context
 * @dtype: element type
 * @rank: number of dimensions
 * @dims: @rank sizes
 * @data: the elements, row-major, 64-byte aligned, not changed while the
 *        tensor lives
 * @size: bytes at @data, exactly what the shape needs
 * @deleter: called with @data and @arg when the last reference goes
 *           (NULL: nothing is called)
 * @arg: passed to @deleter
 * @out: receives the tensor, on host:0
 *
 * On failure @deleter is not called: the memory stays the caller's.
 */
XRT_API xrt_status *xrt_tensor_wrap_host(xrt_eager_context *c, enum xrt_dtype dtype,
					 uint32_t rank, const int64_t *dims, void *data,
					 size_t size, void (*deleter)(void *data, void *arg),
					 void *arg, xrt_tensor **out);

/** xrt_tensor_ref() - take a reference on @t; returns @t */
XRT_API xrt_tensor *xrt_tensor_ref(xrt_tensor *t);
/** xrt_tensor_unref() - drop a reference on @t (NULL: nothing) */
XRT_API void xrt_tensor_unref(xrt_tensor *t);

/**
 * xrt_tensor_is_resource() - whether @t is a resource handle (a variable
 * made by VarHandleOp); its element type is XRT_INVALID, its rank 0, and
 * it is read and written only through the variable ops
 * @t: the tensor
 */
XRT_API bool xrt_tensor_is_resource(const xrt_tensor *t);

/** xrt_tensor_dtype() - element type of @t */
XRT_API enum xrt_dtype xrt_tensor_dtype(const xrt_tensor *t);
/** xrt_tensor_rank() - number of dimensions of @t */
XRT_API uint32_t xrt_tensor_rank(const xrt_tensor *t);
/** xrt_tensor_dim() - size of dimension @i of @t (-1 past the rank) */
XRT_API int64_t xrt_tensor_dim(const xrt_tensor *t, uint32_t i);
/** xrt_tensor_element_count() - number of elements of @t */
XRT_API uint64_t xrt_tensor_element_count(const xrt_tensor *t);
/** xrt_tensor_device() - name of the device @t lives on */
XRT_API const char *xrt_tensor_device(const xrt_tensor *t);

/**
 * xrt_tensor_data() - the elements of a tensor in host memory
 * @t: a tensor
 * @size: receives their bytes (0 when there is no such memory); may be NULL
 *
 * Tensors are values: the memory must not be written.  It stays valid
 * while a reference to @t is held.  On host:0 and accel devices it is the
 * tensor's own memory (an accel buffer as mapped into this process); on
 * a device the host does not map (cuda) the values are copied into host
 * memory the first time they are asked for, and that copy is returned.
 *
 * Return: row-major elements, 64-byte aligned; NULL for a resource, or
 * when the copy from the device failed (xrt_tensor_resolve() says why).
 */
XRT_API const void *xrt_tensor_data(const xrt_tensor *t, size_t *size);

/**
 * xrt_tensor_resolve() - copy a tensor's value into a new host literal
 * @t: the tensor
 * @out: receives the literal (free with xrt_literal_destroy())
 */
XRT_API xrt_status *xrt_tensor_resolve(const xrt_tensor *t, xrt_literal **out);

/**
 * xrt_tensor_copy_to_device() - a copy of @t on another device
 * @t: the tensor
 * @device: the device's name
 * @out: receives the new tensor
 */
XRT_API xrt_status *xrt_tensor_copy_to_device(xrt_tensor *t, const char *device,
					      xrt_tensor **out);

/**
 * enum xrt_attr_type - types of op attributes
 * @XRT_ATTR_STRING: text
 * @XRT_ATTR_INT: int64_t
 * @XRT_ATTR_FLOAT: float
 * @XRT_ATTR_BOOL: bool
 * @XRT_ATTR_TYPE: enum xrt_dtype
 * @XRT_ATTR_SHAPE: a shape; the rank or dimensions may be unknown (-1)
 * @XRT_ATTR_TENSOR: a literal
 * @XRT_ATTR_FUNC: the name of a registered function
 */
enum xrt_attr_type {
	XRT_ATTR_STRING = 1,
	XRT_ATTR_INT,
	XRT_ATTR_FLOAT,
	XRT_ATTR_BOOL,
	XRT_ATTR_TYPE,
	XRT_ATTR_SHAPE,
	XRT_ATTR_TENSOR,
	XRT_ATTR_FUNC,
};

/**
 * xrt_op_create() - start describing an operation
 * @c: the context
 * @name: a registered op ("MatMul")
 * @out: receives the op
 *
 * Return: NULL, or NOT_FOUND naming an unknown op.
 */
XRT_API xrt_status *xrt_op_create(xrt_eager_context *c, const char *name, xrt_op **out);

/** xrt_op_destroy() - free an op and drop its inputs (NULL: nothing) */
XRT_API void xrt_op_destroy(xrt_op *op);

/**
 * xrt_op_reset() - make @op describe a new operation, keeping its memory
 * @op: the op
 * @name: a registered op
 * @device: where to run it, or NULL for the default rule
 *
 * Inputs and attributes are dropped.  Resetting to the same name and
 * device reuses what was looked up for them.
 */
XRT_API xrt_status *xrt_op_reset(xrt_op *op, const char *name, const char *device);

/**
 * xrt_op_set_device() - run the op on a device
 * @op: the op
 * @device: a device name, or NULL: the device of the first input not in
 *          host memory, else the context's default device
 */
XRT_API xrt_status *xrt_op_set_device(xrt_op *op, const char *device);

/** xrt_op_device() - where @op will run, as last set or decided */
XRT_API const char *xrt_op_device(const xrt_op *op);

/**
 * xrt_op_add_input() - append an input (a reference is taken)
 * @op: the op
 * @t: the tensor
 *
 * Return: NULL, or INVALID_ARGUMENT when the op takes no more inputs.
 */
XRT_API xrt_status *xrt_op_add_input(xrt_op *op, xrt_tensor *t);

/**
 * xrt_op_add_input_list() - append @n inputs forming one list input
 * @op: the op
 * @ts: the tensors
 * @n: their number; sets the op's length attribute of that input ("N")
 */
XRT_API xrt_status *xrt_op_add_input_list(xrt_op *op, xrt_tensor *const *ts, uint32_t n);

/**
 * xrt_op_set_input() - replace an input of @op, keeping everything else
 * @op: an op with at least @i + 1 inputs
 * @i: the input's position among all inputs (list entries counted)
 * @t: the new tensor, of the same element type
 *
 * An input of the same shape (and, for a constant input, value) leaves
 * the op unchanged: the next execute runs the kernel it ran before,
 * without checks or a cache lookup.  This is the cheap way to run one op
 * on new tensors.
 *
 * Return: NULL, or INVALID_ARGUMENT for a position out of range, another
 * element type (xrt_op_reset() starts over) or another context's tensor.
 */
XRT_API xrt_status *xrt_op_set_input(xrt_op *op, uint32_t i, xrt_tensor *t);

/**
 * xrt_op_attr_type() - the type of an attribute of @op's op
 * @op: the op
 * @attr: the attribute's name
 * @type: receives its enum xrt_attr_type
 * @is_list: receives whether it is a list of such values
 *
 * Return: NULL, or NOT_FOUND naming the op and the attribute.
 */
XRT_API xrt_status *xrt_op_attr_type(const xrt_op *op, const char *attr,
				     enum xrt_attr_type *type, bool *is_list);

/** xrt_op_name_attr_type() - the same, by op or function name, without an op */
XRT_API xrt_status *xrt_op_name_attr_type(xrt_eager_context *c, const char *op_name,
					  const char *attr, enum xrt_attr_type *type,
					  bool *is_list);

/*
 * Attribute setters.  Each fails with NOT_FOUND for an attribute the op
 * does not have and INVALID_ARGUMENT naming the attribute and both types
 * when the attribute has another type.  Lists take a pointer and a count.
 */
XRT_API xrt_status *xrt_op_set_attr_string(xrt_op *op, const char *attr, const char *value);
XRT_API xrt_status *xrt_op_set_attr_int(xrt_op *op, const char *attr, int64_t value);
XRT_API xrt_status *xrt_op_set_attr_float(xrt_op *op, const char *attr, float value);
XRT_API xrt_status *xrt_op_set_attr_bool(xrt_op *op, const char *attr, bool value);
XRT_API xrt_status *xrt_op_set_attr_type(xrt_op *op, const char *attr, enum xrt_dtype value);
/* @rank -1: unknown rank (@dims unused); a dimension -1: unknown size */
XRT_API xrt_status *xrt_op_set_attr_shape(xrt_op *op, const char *attr, int32_t rank,
					  const int64_t *dims);
/* The literal is copied. */
XRT_API xrt_status *xrt_op_set_attr_tensor(xrt_op *op, const char *attr,
					   const xrt_literal *value);
XRT_API xrt_status *xrt_op_set_attr_int_list(xrt_op *op, const char *attr,
					     const int64_t *values, uint32_t n);
XRT_API xrt_status *xrt_op_set_attr_float_list(xrt_op *op, const char *attr,
					       const float *values, uint32_t n);
XRT_API xrt_status *xrt_op_set_attr_bool_list(xrt_op *op, const char *attr,
					      const bool *values, uint32_t n);
XRT_API xrt_status *xrt_op_set_attr_type_list(xrt_op *op, const char *attr,
					      const enum xrt_dtype *values, uint32_t n);
XRT_API xrt_status *xrt_op_set_attr_string_list(xrt_op *op, const char *attr,
						const char *const *values, uint32_t n);
/* Shape k has rank @ranks[k] (-1: unknown) and dimensions @dims[k]. */
XRT_API xrt_status *xrt_op_set_attr_shape_list(xrt_op *op, const char *attr,
					       const int32_t *ranks,
					       const int64_t *const *dims, uint32_t n);
/* The literals are copied. */
XRT_API xrt_status *xrt_op_set_attr_tensor_list(xrt_op *op, const char *attr,
						const xrt_literal *const *values, uint32_t n);

/**
 * xrt_op_execute() - run the op
 * @op: the op, with its inputs and attributes
 * @retvals: receives up to *@num_retvals new tensors (references the
 *           caller owns)
 * @num_retvals: in, room at @retvals; out, the outputs given: the smaller
 *               of the room and the op's output count
 *
 * Inputs are checked against the op: their count, their element types
 * ("MatMul: input #1 was expected to be a f32 tensor but is a s32
 * tensor") and their shapes, and placed by the context's placement
 * policy.  The op keeps its inputs and attributes: executing it again
 * runs the same kernel.
 */
XRT_API xrt_status *xrt_op_execute(xrt_op *op, xrt_tensor **retvals, uint32_t *num_retvals);

#ifdef __cplusplus
}
#endif

#endif /* XRT_EAGER_H */
