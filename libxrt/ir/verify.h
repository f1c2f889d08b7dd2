/* SPDX-License-Identifier: MIT */
/*
 * The verifier's context and checks, shared by the files that verify
 * the opcode families.
 */
#ifndef XRT_IR_VERIFY_H
#define XRT_IR_VERIFY_H

#include <stdbool.h>

#include "ir/ir.h"

/*
 * @infer: NULL to check the declared shape; else the shape the checks
 * infer is written there instead (the builder's mode).  Opcodes whose
 * shape their operands do not give (reshape, broadcast, iota, rng,
 * custom-call...) and those that take their result type from the
 * declared shape (convert, dot, convolution) read @in->shape either way.
 */
struct vfy {
	const xrt_module *m;
	const struct ir_comp *c;
	const struct ir_instr *in;
	xrt_status *err;
	struct xrt_shape *infer;
};

/* Each returns 0, or -1 with v->err naming the instruction. */
/*
 * Sums of products of attribute values, which come from untrusted text
 * or messages: true, and *r unset, if any step overflows int64.
 */
static inline bool vfy_overflows(int64_t a, int64_t b, int64_t c, int64_t d, int64_t *r)
{
	int64_t t;

	return __builtin_mul_overflow(a, b, &t) || __builtin_add_overflow(t, c, &t) ||
	       __builtin_add_overflow(t, d, r);
}

int vfy_fail(struct vfy *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const struct xrt_shape *vfy_opnd(const struct vfy *v, uint32_t i);
int vfy_operands(struct vfy *v, uint32_t min, uint32_t max);
/* The declared shape must be an array of @t with these dims. */
int vfy_result(struct vfy *v, enum xrt_dtype t, uint32_t rank, const int64_t *dims);
/* The declared shape must match @want, ignoring layouts. */
int vfy_result_is(struct vfy *v, const struct xrt_shape *want);
/* The declared shape must be a tuple of these @n shapes. */
int vfy_result_tuple(struct vfy *v, const struct xrt_shape *elems, uint32_t n);
int vfy_array(struct vfy *v, uint32_t i);
int vfy_scalar(struct vfy *v, uint32_t i);
/* Operand @i is an array with operand 0's dimensions (any type). */
int vfy_like_first(struct vfy *v, uint32_t i);
/* Attribute @key as a list of ints (present or fails). */
int vfy_ints(struct vfy *v, enum ir_attr_key key, const int64_t **vals,
	     uint32_t *n);
int vfy_int(struct vfy *v, enum ir_attr_key key, int64_t *val);
/* Distinct dimension numbers below @rank. */
int vfy_dims_in_range(struct vfy *v, const char *what, const int64_t *d,
		      uint32_t n, uint32_t rank);
/* The computation called through @key, and its shapes. */
int vfy_called(struct vfy *v, enum ir_attr_key key, const struct ir_comp **c);
const struct xrt_shape *vfy_param_shape(const struct ir_comp *c, uint32_t i);
const struct xrt_shape *vfy_root_shape(const struct ir_comp *c);

/* Check (or infer) the shape of v->in alone. */
int vfy_instr(struct vfy *v);
/* Parameters of v->c are numbered 0 .. n-1, once each. */
int vfy_params(struct vfy *v);

/* The families. */
int vfy_elementwise(struct vfy *v);
int vfy_structural(struct vfy *v);
int vfy_reductions(struct vfy *v);
int vfy_calls(struct vfy *v);
int vfy_scatter(struct vfy *v);
int vfy_collective(struct vfy *v);
/*
 * Computation @f combines n values of @types with n more of the same:
 * 2n scalar parameters, and a scalar (n = 1) or a tuple of n scalars, or
 * pred[] when @returns_pred.
 */
int vfy_reducer(struct vfy *v, const struct ir_comp *f, uint32_t n,
		const enum xrt_dtype *types, bool returns_pred);
/* The result: one array, or a tuple of n arrays of one set of dims. */
int vfy_results(struct vfy *v, uint32_t n, const enum xrt_dtype *types, uint32_t rank,
		const int64_t *dims);

#endif /* XRT_IR_VERIFY_H */
