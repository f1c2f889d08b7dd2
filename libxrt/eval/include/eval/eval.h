/* SPDX-License-Identifier: MIT */
/*
 * The reference evaluator: values, and the small steps every opcode
 * function is written with.  Values are plain and row-major, each
 * element a struct ev_scalar, so that an opcode reads as its definition;
 * speed is not a goal.  Nothing here is shared with the compiler or the
 * engine: a bug in one is not a bug in the other.
 */
#ifndef XRT_EVAL_EVAL_H
#define XRT_EVAL_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include <xrt/evaluate.h>

#include "ir/ir.h"

/*
 * One element.  Signed integers are sign-extended in @s, unsigned ones
 * and pred (0 or 1) zero-extended in @u; floats of every width are held
 * exactly in @f, already rounded to their type; complex numbers are
 * (@f, @im).
 */
struct ev_scalar {
	union {
		int64_t s;
		uint64_t u;
		double f;
	};
	double im;
};

/* An array (row-major, @n elements) or a tuple of @num_elems values. */
struct ev_val {
	struct xrt_shape shape;	/* layout ignored: data are row-major */
	struct ev_scalar *e;
	int64_t n;
	struct ev_val **elems;
	uint32_t num_elems;
};

struct ev_world;
struct ev_meeting;

/* One device's evaluation: @device is @replica * partitions + @partition. */
struct ev {
	const xrt_module *m;
	const struct xrt_allocator *a;
	const struct ir_comp *c;	/* where we are, for messages */
	const struct ir_instr *in;
	uint64_t seed, rng_count, max_iterations;
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC; 0: none */
	struct ev_world *world;		/* the devices evaluated together */
	int64_t device, replica, partition;
	xrt_status *err;
};

/* A complex number from its parts, infinities and NaNs intact (no CMPLX in every libc). */
static inline double _Complex ev_cplx(double re, double im)
{
	union {
		double _Complex z;
		double p[2];
	} u = { .p = { re, im } };

	return u.z;
}

/* The CLOCK_MONOTONIC time, in nanoseconds. */
uint64_t ev_now_ns(void);

/* Records the first error, naming the computation and instruction. */
void ev_fail(struct ev *ev, enum xrt_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Values: made zeroed, deep-copied, freed (NULL is fine). */
struct ev_val *ev_array(struct ev *ev, enum xrt_dtype t, uint32_t rank, const int64_t *dims);
struct ev_val *ev_new(struct ev *ev, const struct xrt_shape *shape);
struct ev_val *ev_copy(struct ev *ev, const struct ev_val *v);
void ev_free(struct ev *ev, struct ev_val *v);
/* The tuple of ev->in's shape holding copies of @ops, one per element. */
struct ev_val *ev_tuple(struct ev *ev, struct ev_val *const *ops);
/* A rank-0 array holding @x. */
struct ev_val *ev_scalar_val(struct ev *ev, enum xrt_dtype t, struct ev_scalar x);

/* Literals in and out; the literal gets @shape's layout. */
struct ev_val *ev_from_literal(struct ev *ev, const xrt_literal *lit);
xrt_literal *ev_to_literal(struct ev *ev, const struct ev_val *v, const struct xrt_shape *shape);

/* Row-major position of @idx in @dims, and the reverse. */
int64_t ev_offset(uint32_t rank, const int64_t *dims, const int64_t *idx);
/* Steps @idx to the next index in row-major order; false after the last. */
bool ev_next(uint32_t rank, const int64_t *dims, int64_t *idx);

/* Whether @v is one of the @n values of @list (dimension lists). */
bool ev_listed(const int64_t *list, uint32_t n, int64_t v);

/* Evaluates computation @c on @n arguments (not consumed). */
struct ev_val *ev_call(struct ev *ev, const struct ir_comp *c, struct ev_val *const *args,
		       uint32_t n);
/* The same for scalar arguments; false (error set) if it failed. */
bool ev_call_scalars(struct ev *ev, const struct ir_comp *c, const enum xrt_dtype *types,
		     const struct ev_scalar *args, uint32_t n, struct ev_scalar *out,
		     uint32_t nout);

/* Scalar semantics (eval_scalar.c, eval_convert.c). */
double ev_round(enum xrt_dtype t, double x);
struct ev_scalar ev_wrap(enum xrt_dtype t, uint64_t bits);
struct ev_scalar ev_convert(enum xrt_dtype from, enum xrt_dtype to, struct ev_scalar x);
struct ev_scalar ev_unary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x);
struct ev_scalar ev_binary(enum xrt_opcode op, enum xrt_dtype t, struct ev_scalar x,
			   struct ev_scalar y);
/* @dir and @type as HLO spells them ("LT", "TOTALORDER"; @type may be NULL). */
bool ev_compare(const char *dir, const char *type, enum xrt_dtype t, struct ev_scalar x,
		struct ev_scalar y);
struct ev_scalar ev_reduce_precision(enum xrt_dtype t, struct ev_scalar x, int64_t exp_bits,
				     int64_t mant_bits);
/* The counter-based generators: one block of random words. */
void ev_philox4x32(const uint32_t key[2], const uint32_t ctr[4], uint32_t out[4]);
void ev_threefry2x32(const uint32_t key[2], const uint32_t ctr[2], uint32_t out[2]);
/* The element's bytes as stored in a literal, and back. */
void ev_store_bytes(enum xrt_dtype t, struct ev_scalar x, void *p);
struct ev_scalar ev_load_bytes(enum xrt_dtype t, const void *p);
/* An integer element's value as int64 (for indices). */
int64_t ev_index_value(enum xrt_dtype t, struct ev_scalar x);

/*
 * The opcode families: each evaluates ev->in on its operand values and
 * returns the result, or NULL with ev->err set.
 */
struct ev_val *ev_elementwise(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_movement(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_indexing(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_topk(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_reductions(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_windows(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_contractions(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_control(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_random(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_collective(struct ev *ev, struct ev_val *const *ops);
struct ev_val *ev_custom_call(struct ev *ev, struct ev_val *const *ops);

/*
 * The devices evaluated together (eval_world.c): made for @n devices,
 * freed once every thread is done.  A device's thread calls
 * ev_world_finish() when it ends, failed or not, so that no one waits
 * for it.
 */
struct ev_world *ev_world_new(const struct xrt_allocator *a, int64_t n);
void ev_world_free(const struct xrt_allocator *a, struct ev_world *w);
int64_t ev_world_size(const struct ev_world *w);
bool ev_world_failed(const struct ev_world *w);
void ev_world_finish(struct ev_world *w, int64_t device, bool failed);
/*
 * Meets the @size devices of ev->in's group (@devices, this one at place
 * @me), leaving @ops for them; returns once all have come, or NULL with
 * ev->err set.  Every member's operands can then be read until it calls
 * ev_leave(), which each must once it has made its result.
 */
struct ev_meeting *ev_meet(struct ev *ev, struct ev_val *const *ops, const int64_t *devices,
			   int64_t size, int64_t me);
struct ev_val *const *ev_meeting_ops(const struct ev_meeting *mt, int64_t place);
void ev_leave(struct ev *ev, struct ev_meeting *mt);

/* Attribute helpers (the module is verified: attributes are there). */
const int64_t *ev_ints(const struct ev *ev, enum ir_attr_key key, uint32_t *n);
int64_t ev_int(const struct ev *ev, enum ir_attr_key key, int64_t dflt);
const char *ev_word(const struct ev *ev, enum ir_attr_key key);
const struct ir_comp *ev_comp(const struct ev *ev, enum ir_attr_key key, uint32_t i);

#endif /* XRT_EVAL_EVAL_H */
