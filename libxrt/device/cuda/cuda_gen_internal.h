/* SPDX-License-Identifier: MIT */
/*
 * Shared by the generators of cuda_gen*.c: the state of one translation
 * and the pieces every kernel is made of.
 */
#ifndef XRT_DEVICE_CUDA_GEN_INTERNAL_H
#define XRT_DEVICE_CUDA_GEN_INTERNAL_H

#include "engine/scalar.h"
#include "cuda_gen.h"
#include "cuda_text.h"

/* Room for an operand address expression. */
#define CG_PTR_LEN	1024

struct cg {
	struct cg_text t;
	const char *prefix;
	const struct xrt_allocator *a;
	uint32_t next_kernel;
	uint32_t pc;		/* the command being translated */
	__u64 scratch;	/* the most scratch a kernel asked for */
	xrt_status *err;	/* the first failure */
};

/* A failure naming the command; the first one is kept. */
void cg_fail(struct cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* A new kernel of @threads threads; then cg_use_* its arguments, then cg_open. */
void cg_kernel_init(struct cg *g, struct cg_kernel *k, __u64 threads);
void cg_use_slot(struct cg *g, struct cg_kernel *k, uint32_t slot);
void cg_use_scratch(struct cg *g, struct cg_kernel *k, __u64 bytes);
void cg_use_seed(struct cg *g, struct cg_kernel *k);
/* Writes the kernel's signature and opening brace. */
void cg_open(struct cg *g, const struct cg_kernel *k);

/*
 * Declares c0..c(rank-1) (prefix @c) as the coordinates of linear index
 * @lin over @dims, row-major; 32-bit when @narrow.
 */
void cg_unravel(struct cg *g, const char *c, const char *lin, uint32_t rank,
		const __u64 *dims, bool narrow);
/* "(s64)c0 * 5 + (s64)c1 * -2", or "0": the element offset of a point. */
void cg_offset(char *buf, size_t size, const char *c, uint32_t rank, const __s64 *strides);

/*
 * Merges dimensions that every one of @n stride sets walks as one and
 * drops those of size 1; rewrites @dims, @strides and *@rank.
 */
void cg_merge_dims(uint32_t *rank, __u64 *dims, uint32_t n,
		   __s64 (*strides)[XRT_CS_MAX_RANK]);

static inline bool cg_is_int(uint32_t t)
{
	return (t >= XRT_CS_PRED && t <= XRT_CS_U64) || xs_is_sub_byte_int(t);
}

static inline bool cg_is_unsigned(uint32_t t)
{
	return xs_is_unsigned(t);
}

/* f16, bf16, f32 and the small floats: computed as float */
static inline bool cg_is_f32c(uint32_t t)
{
	return t == XRT_CS_F16 || t == XRT_CS_BF16 || t == XRT_CS_F32 || xs_is_small_float(t);
}

static inline bool cg_is_cplx(uint32_t t)
{
	return t == XRT_CS_C64 || t == XRT_CS_C128;
}

/* Elements of @rank dimensions @dims. */
static inline __u64 cg_count(uint32_t rank, const __u64 *dims)
{
	__u64 n = 1;
	uint32_t d;

	for (d = 0; d < rank; d++)
		n *= dims[d];
	return n;
}

/* "s3 + 64ll + (offset) * 4": view @v's element at coordinates @c over @strides. */
void cg_view_ptr(char *buf, size_t size, const struct xrt_cs_view *v, const __s64 *strides,
		 uint32_t rank, const char *c);

/* C type of a register of type @dtype ("s64", "float", ...). */
const char *cg_reg_type(uint32_t dtype);
/* The type that moves an element of @size bytes as bits ("u32", "b16", ...). */
const char *cg_bits_type(uint32_t size);
/* The memory type of an element of @dtype ("u16" for f16, ...). */
const char *cg_mem_type(uint32_t dtype);
/* An expression loading @dtype at char pointer expression @ptr as a register. */
void cg_load(char *buf, size_t size, uint32_t dtype, const char *ptr);
/* A statement storing register expression @val at @ptr. */
void cg_store(struct cg *g, uint32_t dtype, const char *ptr, const char *val);
/* The literal of an immediate (FILL's format) as a register of @dtype. */
void cg_const(char *buf, size_t size, uint32_t dtype, const __u64 *imm);
/* @val, a register of type @from, converted as CONVERT does to @to. */
void cg_convert(char *buf, size_t size, uint32_t to, uint32_t from, const char *val);

/* An operand's address: the slot, its offset and strides over coordinates @c. */
void cg_operand_ptr(char *buf, size_t size, const struct xrt_cs_operand *op, const char *c,
		    uint32_t rank);

/*
 * The statements of an expression program over the current element;
 * operand i's address is ptr[i].  Returns the name of the variable
 * holding register @want after the program (or NULL when @want is ~0u).
 */
const char *cg_expr(struct cg *g, const struct xrt_cs_operand *ops, const char (*ptr)[CG_PTR_LEN],
		    const struct xrt_cs_ew_inst *insts, uint32_t num_insts, uint32_t want,
		    char *name, size_t name_size);

void cg_ewise(struct cg *g, const struct xrt_cs_ewise *c, struct cg_step *st);
void cg_reduce(struct cg *g, const struct xrt_cs_reduce *c, struct cg_step *st);
void cg_dot(struct cg *g, const struct xrt_cs_dot *c, struct cg_step *st);
void cg_sort(struct cg *g, const struct xrt_cs_sort *c, struct cg_step *st);
void cg_indexed(struct cg *g, const struct xrt_cs_cmd *c, struct cg_step *st);
void cg_move(struct cg *g, const struct xrt_cs_cmd *c, struct cg_step *st);

#endif /* XRT_DEVICE_CUDA_GEN_INTERNAL_H */
