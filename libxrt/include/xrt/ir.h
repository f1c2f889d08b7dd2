/* SPDX-License-Identifier: MIT */
/*
 * Modules of computations: the IR every form of input meets in.  HLO
 * text, as XLA and JAX print it, reads into a module and prints back.
 */
#ifndef XRT_IR_H
#define XRT_IR_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/api.h>
#include <xrt/alloc.h>
#include <xrt/shape.h>
#include <xrt/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/** typedef xrt_module - a module of computations; opaque */
typedef struct xrt_module xrt_module;

/**
 * enum xrt_xla_form - which of XLA's messages holds a serialized module
 * @XRT_XLA_ANY: any of the three, told apart by their content
 * @XRT_XLA_HLO_MODULE: xla.HloModuleProto (JAX's serialized HLO module)
 * @XRT_XLA_HLO_PROTO: xla.HloProto, its module in field 1 (what XLA's
 *	--xla_dump_hlo_as_proto writes)
 * @XRT_XLA_HLO_SNAPSHOT: xla.HloSnapshot, its HloProto in field 1
 */
enum xrt_xla_form {
	XRT_XLA_ANY,
	XRT_XLA_HLO_MODULE,
	XRT_XLA_HLO_PROTO,
	XRT_XLA_HLO_SNAPSHOT,
};

/**
 * xrt_hlo_parse_xla_proto() - read a module XLA serialized
 * @alloc: allocator for the module (NULL: system); must outlive it
 * @data: the message's bytes
 * @len: their length
 * @form: which message they are, or XRT_XLA_ANY
 * @out: receives the module
 *
 * The module goes through the same reader as HLO text (it is written as
 * text and read back), so both forms take the same opcodes, attributes
 * and rules; fields XRT does not read (metadata, sharding, schedules)
 * are skipped.  Computations may come in any order; instructions must
 * come after their operands, as XLA writes them.
 *
 * Return: NULL; INVALID_ARGUMENT naming the computation and instruction
 * that cannot be read (an unknown opcode, a missing reference, an
 * element type XRT lacks, ...), the message that does not decode, or,
 * after "as HLO text", what the text reader says; or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_hlo_parse_xla_proto(const struct xrt_allocator *alloc, const void *data,
					    size_t len, enum xrt_xla_form form,
					    xrt_module **out);

/**
 * xrt_hlo_parse() - read a module in HLO text
 * @alloc: allocator for the module (NULL: system); must outlive it
 * @text: the text; need not be NUL-terminated
 * @len: its length
 * @out: receives the module
 *
 * Attributes XRT does not use (metadata, sharding, backend_config, ...)
 * are accepted and dropped.
 *
 * Return: NULL, INVALID_ARGUMENT with "line L, column C: ..." naming what
 * was expected, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_hlo_parse(const struct xrt_allocator *alloc,
				  const char *text, size_t len,
				  xrt_module **out);

/**
 * xrt_hlo_print() - print a module in HLO text
 * @module: the module
 * @alloc: allocator for the text (NULL: system)
 * @out: receives the NUL-terminated text; free with xrt_free(@alloc, ...)
 * @len: receives its length (may be NULL)
 *
 * The text is canonical: parsing it gives a module that prints the same.
 *
 * Return: NULL or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_hlo_print(const xrt_module *module,
				  const struct xrt_allocator *alloc,
				  char **out, size_t *len);

/**
 * xrt_module_verify() - check that a module is well formed
 * @module: the module
 *
 * Every instruction's shape must be what XLA's shape inference gives
 * for its opcode, operands and attributes; attributes must be in range;
 * called computations must have the signatures their callers need;
 * parameters are numbered 0..n-1.
 *
 * Return: NULL, or INVALID_ARGUMENT naming the computation, the
 * instruction and what is wrong.
 */
XRT_API xrt_status *xrt_module_verify(const xrt_module *module);

/**
 * xrt_module_serialize() - write a module as an xrt.IrModule message
 * @module: the module
 * @alloc: allocator for the bytes (NULL: system)
 * @out: receives the bytes; free with xrt_free(@alloc, ...)
 * @out_size: receives their length
 *
 * The bytes are canonical: equal modules give equal bytes.
 *
 * Return: NULL, INVALID_ARGUMENT for NULL arguments, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_module_serialize(const xrt_module *module,
					 const struct xrt_allocator *alloc,
					 void **out, size_t *out_size);

/**
 * xrt_module_deserialize() - read a module from an xrt.IrModule message
 * @alloc: allocator for the module (NULL: system); must outlive it
 * @data: the bytes
 * @size: their length
 * @out: receives the module
 *
 * The message is checked as HLO text is: names that print, known
 * opcodes and attributes, attributes sorted and each once with the
 * right number of values, operands before their users, callees before
 * their callers, literals on constants only and with their shape.
 * Result shapes are checked by xrt_module_verify().
 *
 * Return: NULL, INVALID_ARGUMENT naming the computation, the
 * instruction and what is wrong, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_module_deserialize(const struct xrt_allocator *alloc,
					   const void *data, size_t size,
					   xrt_module **out);

/**
 * xrt_module_fingerprint() - a 128-bit hash of a module
 * @module: the module
 * @out: receives the hash
 *
 * MurmurHash3 (x64, 128 bits) of the canonical serialization: equal
 * modules have equal fingerprints, on every host and in every release
 * that keeps the wire format.  Not a cryptographic hash.  Computed on
 * the first call and remembered; safe to call from several threads.
 *
 * Return: NULL, INVALID_ARGUMENT for NULL arguments, or RESOURCE_EXHAUSTED.
 */
XRT_API xrt_status *xrt_module_fingerprint(const xrt_module *module,
					   uint64_t out[2]);

/** xrt_module_destroy() - free a module (NULL is fine) */
XRT_API void xrt_module_destroy(xrt_module *module);

/** xrt_module_name() - the module's name */
XRT_API const char *xrt_module_name(const xrt_module *module);

/** xrt_module_num_computations() - computations, the entry included */
XRT_API uint32_t xrt_module_num_computations(const xrt_module *module);

/**
 * xrt_module_num_replicas() - the replicas a module runs as
 * @module: the module
 *
 * Return: HloModule's replica_count, 1 where the module states none.
 */
XRT_API uint32_t xrt_module_num_replicas(const xrt_module *module);

/**
 * xrt_module_num_partitions() - the partitions a module runs as
 * @module: the module
 *
 * Return: HloModule's num_partitions, 1 where the module states none.
 */
XRT_API uint32_t xrt_module_num_partitions(const xrt_module *module);

/** xrt_module_num_params() - how many parameters the entry computation takes */
XRT_API uint32_t xrt_module_num_params(const xrt_module *module);

/**
 * xrt_module_param_shape() - the shape of an entry parameter
 * @module: the module
 * @i: the parameter number
 *
 * Return: the shape (owned by @module), or NULL for a number out of range.
 */
XRT_API const struct xrt_shape *xrt_module_param_shape(const xrt_module *module, uint32_t i);

/** xrt_module_result_shape() - the shape of the entry computation's root */
XRT_API const struct xrt_shape *xrt_module_result_shape(const xrt_module *module);

#ifdef __cplusplus
}
#endif

#endif /* XRT_IR_H */
