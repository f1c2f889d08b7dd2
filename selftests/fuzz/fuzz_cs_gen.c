// SPDX-License-Identifier: MIT
/*
 * Structure-aware fuzzing of the engine's validator.  Random bytes
 * rarely form a program the validator accepts, so they never reach the
 * bounds checks with values at their edges.  Here the input drives a
 * generator instead: it declares slots, builds commands that would be
 * valid (every opcode, small shapes that fit their slots), then moves
 * fields toward boundary values (0, 1, 2^k and its neighbours, 2^64 - k,
 * INT64_MIN, the sizes of the slots, ...).
 *
 * Whatever the validator accepts must keep two properties, checked on
 * every accepted program:
 *  - exact reach: each view, operand, matrix and scalar of every command
 *    lies inside its slot, by 128-bit arithmetic that nothing wraps;
 *  - guarded execution: the program runs (a bounded number of steps)
 *    with each slot between inaccessible guard pages, the bytes of the
 *    mapping around the slot poisoned for AddressSanitizer, so any
 *    access outside a slot stops the run.
 * A failure aborts: libFuzzer reports it with the input that made it.
 */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "cstream/cs_builder.h"
#include "device/device_program.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#endif
#endif
#ifndef POISON
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef unsigned __int128 u128;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SLOTS	4
#define MAX_CMDS	6
#define PAGE		4096u
#define GUARD		(16 * PAGE)
#define MAX_WS		(64u << 20)

/* The input, read a little at a time; 0 once it runs out. */
struct gen {
	const uint8_t *p;
	size_t n;
	uint32_t num_slots;
	uint64_t slot_size[MAX_SLOTS];
	uint32_t num_cmds;
};

static uint64_t take(struct gen *g, unsigned bytes)
{
	uint64_t v = 0;

	while (bytes-- && g->n) {
		v = v << 8 | *g->p++;
		g->n--;
	}
	return v;
}

static uint32_t pick(struct gen *g, uint32_t n)
{
	return n ? (uint32_t)(take(g, 1) % n) : 0;
}

static const uint32_t all_types[] = {
	XRT_CS_PRED, XRT_CS_S8, XRT_CS_S16, XRT_CS_S32, XRT_CS_S64,
	XRT_CS_U8, XRT_CS_U16, XRT_CS_U32, XRT_CS_U64, XRT_CS_F16,
	XRT_CS_BF16, XRT_CS_F32, XRT_CS_F64, XRT_CS_C64, XRT_CS_C128,
	XRT_CS_S4, XRT_CS_U4, XRT_CS_S2, XRT_CS_U2, XRT_CS_F8E5M2, XRT_CS_F8E4M3FN,
	XRT_CS_F8E4M3B11FNUZ, XRT_CS_F8E5M2FNUZ, XRT_CS_F8E4M3FNUZ, XRT_CS_F8E4M3,
	XRT_CS_F8E3M4, XRT_CS_F8E8M0FNU, XRT_CS_F4E2M1FN,
};

/* Bytes of an element, from the format's table (the oracle's own copy); 0 if unknown. */
static uint32_t dtype_size(uint32_t t)
{
	static const uint8_t sizes[] = {
		[XRT_CS_PRED] = 1, [XRT_CS_S8] = 1, [XRT_CS_S16] = 2,
		[XRT_CS_S32] = 4, [XRT_CS_S64] = 8, [XRT_CS_U8] = 1,
		[XRT_CS_U16] = 2, [XRT_CS_U32] = 4, [XRT_CS_U64] = 8,
		[XRT_CS_F16] = 2, [XRT_CS_BF16] = 2, [XRT_CS_F32] = 4,
		[XRT_CS_F64] = 8, [XRT_CS_C64] = 8, [XRT_CS_C128] = 16,
		[XRT_CS_S4] = 1, [XRT_CS_U4] = 1, [XRT_CS_S2] = 1, [XRT_CS_U2] = 1,
		[XRT_CS_F8E5M2] = 1, [XRT_CS_F8E4M3FN] = 1, [XRT_CS_F8E4M3B11FNUZ] = 1,
		[XRT_CS_F8E5M2FNUZ] = 1, [XRT_CS_F8E4M3FNUZ] = 1, [XRT_CS_F8E4M3] = 1,
		[XRT_CS_F8E3M4] = 1, [XRT_CS_F8E8M0FNU] = 1, [XRT_CS_F4E2M1FN] = 1,
	};

	return t < sizeof(sizes) ? sizes[t] : 0;
}

static uint32_t esize(uint32_t t)
{
	return dtype_size(t) ? dtype_size(t) : 1;
}

/* A value at an edge: of the integers, of the format's limits, of a slot. */
static uint64_t edge(struct gen *g, uint64_t now, uint32_t es)
{
	uint64_t k = take(g, 1), sz = g->slot_size[pick(g, g->num_slots)];

	switch (pick(g, 16)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 1ull << (k % 64);
	case 3: return (1ull << (k % 64)) - 1;
	case 4: return (1ull << (k % 64)) + 1;
	case 5: return 0 - (k % 8 + 1) * es;		/* 2^64 - k elements */
	case 6: return 1ull << 63;			/* INT64_MIN */
	case 7: return ~0ull >> 1;			/* INT64_MAX */
	case 8: return sz;
	case 9: return sz / es;
	case 10: return sz - (k % 8) * es;
	case 11: return 0 - sz;
	case 12: return (1ull << 62) + (k % 9) - 4;
	case 13: return now + (k % 9) - 4;
	case 14: return 0 - now;
	default: return take(g, 8);
	}
}

/* Moves 0 to 2 fields of a command's views toward edges. */
struct fields {
	void *at[64];
	uint8_t width[64];
	uint8_t is_offset[64];
	uint32_t es[64];
	uint32_t n;
};

/* A field of @width bytes; @es the element size when it is an offset, else 0. */
static void field(struct fields *f, void *at, uint8_t width, uint32_t es)
{
	if (f->n < 64) {
		f->at[f->n] = at;
		f->width[f->n] = width;
		f->is_offset[f->n] = es != 0;
		f->es[f->n++] = es ? es : 1;
	}
}

static void view_fields(struct fields *f, struct xrt_cs_view *v)
{
	uint32_t i, es = esize(v->dtype);

	field(f, &v->offset, 8, es);
	field(f, &v->slot, 4, 0);
	field(f, &v->dtype, 1, 0);
	field(f, &v->rank, 1, 0);
	for (i = 0; i < v->rank && i < XRT_CS_MAX_RANK; i++) {
		field(f, &v->dims[i], 8, 0);
		field(f, &v->strides[i], 8, 0);
	}
}

static void operand_fields(struct fields *f, struct xrt_cs_operand *o, uint32_t rank)
{
	uint32_t i, es = esize(o->dtype);

	field(f, &o->offset, 8, es);
	field(f, &o->slot, 4, 0);
	for (i = 0; i < rank && i < XRT_CS_MAX_RANK; i++)
		field(f, &o->strides[i], 8, 0);
}

static void matrix_fields(struct fields *f, struct xrt_cs_matrix *m)
{
	uint32_t es = esize(m->dtype);

	field(f, &m->offset, 8, es);
	field(f, &m->batch_stride, 8, 0);
	field(f, &m->row_stride, 8, 0);
	field(f, &m->col_stride, 8, 0);
}

/* Offsets meet the most arithmetic: half the moves go to one of them. */
static uint32_t pick_field(struct gen *g, const struct fields *f)
{
	uint32_t j = pick(g, f->n), k;

	for (k = 0; pick(g, 2) && k < f->n; k++, j = (j + 1) % f->n) {
		if (f->is_offset[j])
			break;
	}
	return j;
}

static void mutate(struct gen *g, struct fields *f)
{
	uint32_t n = pick(g, 3), i, j;

	for (i = 0; i < n && f->n; i++) {
		uint64_t now = 0, v;

		j = pick_field(g, f);
		memcpy(&now, f->at[j], f->width[j]);
		v = edge(g, now, f->es[j]);
		if (f->width[j] < 8 && pick(g, 2))
			v %= 16;	/* small fields: stay near their range */
		memcpy(f->at[j], &v, f->width[j]);
	}
}

/* A dense view of @rank small dims that fits its slot where it can. */
static struct xrt_cs_view gen_view(struct gen *g, uint32_t dtype, uint32_t rank,
				   const uint64_t *want)
{
	uint64_t dims[XRT_CS_MAX_RANK], n = 1, room, size;
	uint32_t slot = pick(g, g->num_slots), es = esize(dtype), i;
	__s64 strides[XRT_CS_MAX_RANK];
	struct xrt_cs_view v;

	for (i = 0; i < rank; i++) {
		dims[i] = want ? want[i] : 1 + pick(g, 4);
		n *= dims[i];
	}
	size = g->slot_size[slot];
	room = size / es >= n ? size / es - n : 0;
	v = cs_view_dense(slot, dtype, (room ? take(g, 2) % (room + 1) : 0) * es,
			  rank, dims);
	/* Sometimes reversed or broadcast along one dimension. */
	if (rank && pick(g, 4) == 0) {
		i = pick(g, rank);
		memcpy(strides, v.strides, sizeof(strides));
		if (pick(g, 2)) {
			v.offset += (dims[i] - 1) * (uint64_t)strides[i] * es;
			v.strides[i] = -strides[i];
		} else {
			v.strides[i] = 0;
		}
	}
	return v;
}

/*
 * Any type; a quarter of the time one of one byte, whose element indices
 * are the largest an offset can give.
 */
static uint32_t gen_type(struct gen *g)
{
	static const uint32_t bytes[] = { XRT_CS_PRED, XRT_CS_S8, XRT_CS_U8 };

	if (!pick(g, 4))
		return bytes[pick(g, 3)];
	return all_types[pick(g, sizeof(all_types) / sizeof(all_types[0]))];
}

static void gen_copy(struct gen *g, struct cs_builder *b)
{
	uint32_t t = gen_type(g), r = pick(g, 4);
	struct xrt_cs_view src = gen_view(g, t, r, NULL), dst;
	struct fields f = { .n = 0 };
	uint64_t dims[XRT_CS_MAX_RANK];
	uint32_t i;

	for (i = 0; i < r; i++)
		dims[i] = src.dims[i];
	dst = gen_view(g, t, r, dims);

	view_fields(&f, &src);
	view_fields(&f, &dst);
	mutate(g, &f);
	cs_copy(b, &dst, &src);
}

static void gen_fill(struct gen *g, struct cs_builder *b)
{
	uint32_t t = gen_type(g), r = pick(g, 4);
	struct xrt_cs_view dst = gen_view(g, t, r, NULL);
	struct fields f = { .n = 0 };
	uint64_t zero[2] = { 0, 0 };

	view_fields(&f, &dst);
	mutate(g, &f);
	if (r && t != XRT_CS_PRED && pick(g, 2))
		cs_fill_iota(b, &dst, pick(g, r));
	else if (t != XRT_CS_PRED && pick(g, 2))
		cs_fill_id(b, &dst, XRT_CS_FILL_REPLICA_ID + pick(g, 2));
	else
		cs_fill_constant(b, &dst, zero, sizeof(zero));
}

static struct xrt_cs_scalar gen_scalar(struct gen *g, uint32_t dtype)
{
	struct xrt_cs_view v = gen_view(g, dtype, 0, NULL);
	struct xrt_cs_scalar s = { .slot = v.slot, .dtype = (uint8_t)dtype,
				   .offset = v.offset };
	struct fields f = { .n = 0 };

	field(&f, &s.offset, 8, esize(dtype));
	field(&f, &s.slot, 4, 0);
	mutate(g, &f);
	return s;
}

static void gen_rng(struct gen *g, struct cs_builder *b)
{
	int bits = pick(g, 2);
	uint32_t t = bits ? XRT_CS_U32 : XRT_CS_F32;
	struct xrt_cs_view dst = gen_view(g, t, pick(g, 3), NULL);
	struct fields f = { .n = 0 };
	struct xrt_cs_scalar at;

	view_fields(&f, &dst);
	mutate(g, &f);
	if (pick(g, 2)) {	/* the stream read from memory */
		at = gen_scalar(g, pick(g, 4) ? XRT_CS_U64 : XRT_CS_S64);
		cs_rng_at(b, bits ? XRT_CS_RNG_BITS : XRT_CS_RNG_UNIFORM, &at, &dst,
			  bits ? 0.0 : -1.0, bits ? 0.0 : 1.0);
		return;
	}
	cs_rng(b, bits ? XRT_CS_RNG_BITS : XRT_CS_RNG_UNIFORM, take(g, 1), &dst,
	       bits ? 0.0 : -1.0, bits ? 0.0 : 1.0);
}

static void gen_jump(struct gen *g, struct cs_builder *b, uint32_t at)
{
	/* Forward only: a loop would only spend the step budget. */
	uint32_t target = at + 1 + pick(g, MAX_CMDS);
	struct xrt_cs_scalar pred = gen_scalar(g, XRT_CS_PRED);

	cs_jump(b, XRT_CS_JUMP_IF_TRUE, target > g->num_cmds ? g->num_cmds : target,
		&pred);
}

/* An operand over @dims placed like a view of them. */
static struct xrt_cs_operand gen_operand(struct gen *g, uint32_t t, uint32_t flags,
					 uint32_t rank, const uint64_t *dims)
{
	struct xrt_cs_view v = gen_view(g, t, rank, dims);
	int64_t strides[XRT_CS_MAX_RANK];
	uint32_t i;

	for (i = 0; i < rank; i++)
		strides[i] = v.strides[i];
	return cs_operand(v.slot, t, flags, v.offset, rank, strides);
}

static void gen_ewise(struct gen *g, struct cs_builder *b)
{
	uint32_t t = pick(g, 2) ? XRT_CS_F32 : XRT_CS_S8, r = pick(g, 4), i;
	uint64_t dims[XRT_CS_MAX_RANK];
	struct xrt_cs_operand ops[3];
	struct xrt_cs_ew_inst in[4];
	struct fields f = { .n = 0 };

	for (i = 0; i < r; i++)
		dims[i] = 1 + pick(g, 5);
	ops[0] = gen_operand(g, t, XRT_CS_OPERAND_IN, r, dims);
	ops[1] = gen_operand(g, t, XRT_CS_OPERAND_IN, r, dims);
	ops[2] = gen_operand(g, t, XRT_CS_OPERAND_OUT, r, dims);
	for (i = 0; i < 3; i++)
		operand_fields(&f, &ops[i], r);
	for (i = 0; i < r; i++)
		field(&f, &dims[i], 8, 0);
	mutate(g, &f);
	memset(in, 0, sizeof(in));
	in[0] = (struct xrt_cs_ew_inst){ .op = XRT_CS_EW_LOAD, .dtype = (uint8_t)t, .dst = 0, .a = 0 };
	in[1] = (struct xrt_cs_ew_inst){ .op = XRT_CS_EW_LOAD, .dtype = (uint8_t)t, .dst = 1, .a = 1 };
	in[2] = (struct xrt_cs_ew_inst){ .op = XRT_CS_EW_BINARY, .fn = XRT_CS_BIN_ADD,
					 .dtype = (uint8_t)t, .dst = 2, .a = 0, .b = 1 };
	in[3] = (struct xrt_cs_ew_inst){ .op = XRT_CS_EW_STORE, .a = 2, .b = 2 };
	cs_ewise(b, r, dims, ops, 3, in, 4, 3);
}

static void gen_reduce(struct gen *g, struct cs_builder *b)
{
	uint32_t r = 1 + pick(g, 3), mask = 1 + pick(g, (1u << r) - 1), i;
	uint64_t dims[XRT_CS_MAX_RANK], odims[XRT_CS_MAX_RANK];
	struct xrt_cs_operand ops[2];
	struct xrt_cs_ew_inst in = { .op = XRT_CS_EW_LOAD, .dtype = XRT_CS_F32 };
	struct fields f = { .n = 0 };
	float zero = 0;

	for (i = 0; i < r; i++) {
		dims[i] = 1 + pick(g, 5);
		odims[i] = mask & (1u << i) ? 1 : dims[i];
	}
	ops[0] = gen_operand(g, XRT_CS_F32, XRT_CS_OPERAND_IN, r, dims);
	ops[1] = gen_operand(g, XRT_CS_F32, XRT_CS_OPERAND_OUT, r, odims);
	for (i = 0; i < r; i++) {
		if (mask & (1u << i))
			ops[1].strides[i] = 0;
	}
	operand_fields(&f, &ops[0], r);
	operand_fields(&f, &ops[1], r);
	for (i = 0; i < r; i++)
		field(&f, &dims[i], 8, 0);
	mutate(g, &f);
	cs_reduce(b, XRT_CS_RED_SUM, r, dims, mask, ops, 2, &in, 1, 1, 0, &zero,
		  sizeof(zero));
}

static struct xrt_cs_matrix gen_matrix(struct gen *g, uint64_t batch, uint64_t rows,
				       uint64_t cols)
{
	uint64_t dims[3] = { batch, rows, cols };
	struct xrt_cs_view v = gen_view(g, XRT_CS_F32, 3, dims);

	return (struct xrt_cs_matrix){ .slot = v.slot, .dtype = XRT_CS_F32,
		.offset = v.offset, .batch_stride = v.strides[0],
		.row_stride = v.strides[1], .col_stride = v.strides[2] };
}

static void gen_dot(struct gen *g, struct cs_builder *b)
{
	uint64_t batch = 1 + pick(g, 2), m = 1 + pick(g, 4), n = 1 + pick(g, 4),
		 k = 1 + pick(g, 4);
	struct xrt_cs_matrix lhs = gen_matrix(g, batch, m, k);
	struct xrt_cs_matrix rhs = gen_matrix(g, batch, k, n);
	struct xrt_cs_matrix out = gen_matrix(g, batch, m, n);
	struct fields f = { .n = 0 };

	matrix_fields(&f, &lhs);
	matrix_fields(&f, &rhs);
	matrix_fields(&f, &out);
	field(&f, &batch, 8, 0);
	field(&f, &m, 8, 0);
	field(&f, &n, 8, 0);
	field(&f, &k, 8, 0);
	mutate(g, &f);
	cs_dot(b, 0, batch, m, n, k, &lhs, &rhs, &out);
}

/* GATHER or SCATTER over an operand of rank 1 or 2, k = its rank. */
static void gen_indexed(struct gen *g, struct cs_builder *b, int scatter)
{
	uint32_t r = 1 + pick(g, 2), t = pick(g, 2) ? XRT_CS_F32 : XRT_CS_U8, i;
	uint64_t odims[2], idims[2], wdims[3];
	struct xrt_cs_view op, idx, win;
	uint8_t map[XRT_CS_MAX_RANK] = { 0, 1 };
	struct fields f = { .n = 0 };

	for (i = 0; i < r; i++)
		odims[i] = 1 + pick(g, 4);
	idims[0] = 1 + pick(g, 3);
	idims[1] = r;
	wdims[0] = idims[0];
	for (i = 0; i < r; i++)
		wdims[1 + i] = 1 + pick(g, (uint32_t)odims[i]);
	op = gen_view(g, t, r, odims);
	idx = gen_view(g, pick(g, 2) ? XRT_CS_S32 : XRT_CS_S64, 2, idims);
	win = gen_view(g, t, r + 1, wdims);
	view_fields(&f, &op);
	view_fields(&f, &idx);
	view_fields(&f, &win);
	mutate(g, &f);
	if (scatter)
		cs_scatter(b, pick(g, 2) ? XRT_CS_SCATTER_REPLACE : XRT_CS_RED_MAX,
			   pick(g, 2), &op, &idx, &win, r, map);
	else
		cs_gather(b, &op, &idx, &win, r, map);
}

static void gen_dslice(struct gen *g, struct cs_builder *b)
{
	uint32_t r = 1 + pick(g, 2), i;
	uint64_t odims[2], sdims[2];
	struct xrt_cs_view op, sl;
	struct xrt_cs_scalar starts[XRT_CS_MAX_RANK];
	struct fields f = { .n = 0 };

	memset(starts, 0, sizeof(starts));
	for (i = 0; i < r; i++) {
		odims[i] = 1 + pick(g, 5);
		sdims[i] = 1 + pick(g, (uint32_t)odims[i]);
	}
	op = gen_view(g, XRT_CS_F32, r, odims);
	sl = gen_view(g, XRT_CS_F32, r, sdims);
	for (i = 0; i < r; i++)
		starts[i] = gen_scalar(g, pick(g, 2) ? XRT_CS_S32 : XRT_CS_U8);
	view_fields(&f, &op);
	view_fields(&f, &sl);
	mutate(g, &f);
	cs_dynamic_slice(b, pick(g, 2), &op, &sl, starts);
}

static void gen_sort(struct gen *g, struct cs_builder *b)
{
	uint32_t r = 1 + pick(g, 2), n = 1 + pick(g, 2), i;
	uint64_t dims[2];
	struct xrt_cs_operand ops[2];
	struct fields f = { .n = 0 };

	for (i = 0; i < r; i++)
		dims[i] = 1 + pick(g, 6);
	for (i = 0; i < n; i++) {
		ops[i] = gen_operand(g, i ? XRT_CS_S32 : XRT_CS_F32,
				     XRT_CS_OPERAND_IN | XRT_CS_OPERAND_OUT, r, dims);
		operand_fields(&f, &ops[i], r);
	}
	for (i = 0; i < r; i++)
		field(&f, &dims[i], 8, 0);
	mutate(g, &f);
	cs_sort(b, 0, r, dims, pick(g, r), ops, n, 1);
}

static void gen_scan(struct gen *g, struct cs_builder *b)
{
	uint32_t t = gen_type(g), r = 1 + pick(g, 3), i;
	struct xrt_cs_view in = gen_view(g, t, r, NULL), out;
	struct fields f = { .n = 0 };
	uint64_t dims[XRT_CS_MAX_RANK], init[2] = { 0, 0 };

	for (i = 0; i < r; i++)
		dims[i] = in.dims[i];
	out = gen_view(g, t, r, dims);
	view_fields(&f, &in);
	view_fields(&f, &out);
	mutate(g, &f);
	init[0] = t == XRT_CS_PRED ? pick(g, 2) : take(g, 1);
	cs_scan(b, XRT_CS_RED_SUM + pick(g, 6), pick(g, r), &in, &out, init, sizeof(init));
}

/* A COLLECTIVE of 1 to 3 arrays: out[k]'s dims in[k]'s, or a multiple or divisor along dim. */
static void gen_collective(struct gen *g, struct cs_builder *b)
{
	uint32_t kind = XRT_CS_COLL_ALL_REDUCE + pick(g, 7), n = 1 + pick(g, 3), k, i, r, t;
	uint32_t dim = 0, op = 0, factor = 1 + pick(g, 4);
	struct xrt_cs_view v[6];
	struct fields f = { .n = 0 };
	uint64_t dims[XRT_CS_MAX_RANK];

	r = 1 + pick(g, 3);
	t = gen_type(g);
	if (kind == XRT_CS_COLL_ALL_REDUCE || kind == XRT_CS_COLL_REDUCE_SCATTER)
		op = XRT_CS_RED_SUM + pick(g, 6);
	if (kind == XRT_CS_COLL_ALL_GATHER || kind == XRT_CS_COLL_REDUCE_SCATTER ||
	    kind == XRT_CS_COLL_ALL_TO_ALL)
		dim = pick(g, r);
	for (k = 0; k < n; k++) {
		v[k] = gen_view(g, t, r, k && kind == XRT_CS_COLL_ALL_TO_ALL_TUPLE ? dims : NULL);
		for (i = 0; i < r; i++)
			dims[i] = v[k].dims[i];
		if (kind == XRT_CS_COLL_ALL_GATHER)
			dims[dim] *= factor;
		else if (kind == XRT_CS_COLL_REDUCE_SCATTER && dims[dim] % factor == 0)
			dims[dim] /= factor;
		v[n + k] = gen_view(g, t, r, dims);
		if (kind == XRT_CS_COLL_ALL_TO_ALL_TUPLE)
			for (i = 0; i < r; i++)
				dims[i] = v[k].dims[i];
	}
	for (k = 0; k < 2 * n; k++)
		view_fields(&f, &v[k]);
	mutate(g, &f);
	cs_collective(b, kind, op, dim, pick(g, 4), v, n);
}

static void gen_command(struct gen *g, struct cs_builder *b, uint32_t at)
{
	switch (pick(g, 14)) {
	case 0: gen_copy(g, b); break;
	case 1: gen_fill(g, b); break;
	case 2: gen_rng(g, b); break;
	case 3: gen_jump(g, b, at); break;
	case 4: gen_ewise(g, b); break;
	case 5: gen_reduce(g, b); break;
	case 6: gen_dot(g, b); break;
	case 7: gen_indexed(g, b, 0); break;
	case 8: gen_indexed(g, b, 1); break;
	case 9: gen_dslice(g, b); break;
	case 10: gen_sort(g, b); break;
	case 11: gen_scan(g, b); break;
	case 12: gen_collective(g, b); break;
	default: gen_copy(g, b); break;
	}
}

/* ---- the exact reach of every part of an accepted program ---- */

static void reach_fail(uint32_t cmd, const char *what)
{
	fprintf(stderr, "fuzz_cs_gen: the validator accepted command %u whose %s "
		"reaches outside its slot\n", cmd, what);
	abort();
}

static void check_reach(const struct xrt_engine_prog *p, uint32_t cmd, const char *what,
			uint32_t slot, uint32_t dtype, uint64_t offset, uint32_t rank,
			const __u64 *dims, const __s64 *strides)
{
	u128 pos = 0, neg = 0, first;
	uint32_t es = dtype_size(dtype), i;

	if (slot >= p->num_slots || !es || offset % es)
		reach_fail(cmd, what);
	for (i = 0; i < rank; i++) {
		if (!dims[i])
			return;
	}
	for (i = 0; i < rank; i++) {
		u128 mag = strides[i] < 0 ? (u128)-(strides[i] + 1) + 1 : (u128)strides[i];

		*(strides[i] < 0 ? &neg : &pos) += (u128)(dims[i] - 1) * mag;
	}
	first = offset / es;
	if (neg > first || first + pos >= p->slots[slot].size / es)
		reach_fail(cmd, what);
}

static void check_view(const struct xrt_engine_prog *p, uint32_t cmd, const char *what,
		       const struct xrt_cs_view *v)
{
	check_reach(p, cmd, what, v->slot, v->dtype, v->offset, v->rank, v->dims,
		    v->strides);
}

static void check_scalar(const struct xrt_engine_prog *p, uint32_t cmd, const char *what,
			 const struct xrt_cs_scalar *s)
{
	check_reach(p, cmd, what, s->slot, s->dtype, s->offset, 0, NULL, NULL);
}

static void check_operands(const struct xrt_engine_prog *p, uint32_t cmd,
			   const struct xrt_cs_operand *o, uint32_t n, uint32_t rank,
			   const __u64 *dims)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		check_reach(p, cmd, "operand", o[i].slot, o[i].dtype, o[i].offset, rank,
			    dims, o[i].strides);
}

static void check_matrix(const struct xrt_engine_prog *p, uint32_t cmd,
			 const struct xrt_cs_matrix *m, uint64_t b, uint64_t r, uint64_t c)
{
	__u64 dims[3] = { b, r, c };
	__s64 strides[3] = { m->batch_stride, m->row_stride, m->col_stride };

	check_reach(p, cmd, "matrix", m->slot, m->dtype, m->offset, 3, dims, strides);
}

static void check_command(const struct xrt_engine_prog *p, uint32_t i)
{
	const void *at = p->base + p->offsets[i];
	const struct xrt_cs_cmd *c = at;
	uint32_t d;

	switch (c->op) {
	case XRT_CS_OP_COPY: {
		const struct xrt_cs_copy *x = at;

		check_view(p, i, "dst", &x->dst);
		check_view(p, i, "src", &x->src);
		break;
	}
	case XRT_CS_OP_FILL:
		check_view(p, i, "dst", &((const struct xrt_cs_fill *)at)->dst);
		break;
	case XRT_CS_OP_RNG:
		check_view(p, i, "dst", &((const struct xrt_cs_rng *)at)->dst);
		if (c->flags & XRT_CS_RNG_STREAM_AT)
			check_scalar(p, i, "stream", (const void *)((const struct xrt_cs_rng *)at + 1));
		break;
	case XRT_CS_OP_JUMP: {
		const struct xrt_cs_jump *x = at;

		if (x->mode != XRT_CS_JUMP_ALWAYS)
			check_scalar(p, i, "predicate", &x->pred);
		break;
	}
	case XRT_CS_OP_EWISE: {
		const struct xrt_cs_ewise *x = at;

		check_operands(p, i, (const void *)(x + 1), x->num_operands, x->rank,
			       x->dims);
		break;
	}
	case XRT_CS_OP_REDUCE: {
		const struct xrt_cs_reduce *x = at;

		/* OUT operands have stride 0 where the dims are reduced */
		check_operands(p, i, (const void *)(x + 1), x->num_operands, x->rank,
			       x->dims);
		break;
	}
	case XRT_CS_OP_DOT: {
		const struct xrt_cs_dot *x = at;

		check_matrix(p, i, &x->lhs, x->batch, x->m, x->k);
		check_matrix(p, i, &x->rhs, x->batch, x->k, x->n);
		check_matrix(p, i, &x->out, x->batch, x->m, x->n);
		break;
	}
	case XRT_CS_OP_GATHER: {
		const struct xrt_cs_gather *x = at;

		check_view(p, i, "operand", &x->operand);
		check_view(p, i, "indices", &x->indices);
		check_view(p, i, "out", &x->out);
		break;
	}
	case XRT_CS_OP_SCATTER: {
		const struct xrt_cs_scatter *x = at;

		check_view(p, i, "operand", &x->operand);
		check_view(p, i, "indices", &x->indices);
		check_view(p, i, "updates", &x->updates);
		break;
	}
	case XRT_CS_OP_DYNAMIC_SLICE:
	case XRT_CS_OP_DYNAMIC_UPDATE_SLICE: {
		const struct xrt_cs_dynamic_slice *x = at;

		check_view(p, i, "operand", &x->operand);
		check_view(p, i, "slice", &x->slice);
		for (d = 0; d < x->operand.rank; d++)
			check_scalar(p, i, "start", &x->starts[d]);
		break;
	}
	case XRT_CS_OP_SORT: {
		const struct xrt_cs_sort *x = at;

		check_operands(p, i, x->operands, x->num_operands, x->rank, x->dims);
		break;
	}
	case XRT_CS_OP_SCAN: {
		const struct xrt_cs_scan *x = at;

		check_view(p, i, "in", &x->in);
		check_view(p, i, "out", &x->out);
		break;
	}
	case XRT_CS_OP_COLLECTIVE: {
		const struct xrt_cs_collective *x = at;
		const struct xrt_cs_view *w = (const void *)(x + 1);

		for (d = 0; d < 2u * x->num_in; d++)
			check_view(p, i, "collective's view", &w[d]);
		break;
	}
	default:
		reach_fail(i, "opcode");
	}
}

/* ---- guarded execution ---- */

struct guarded {
	uint8_t *map;
	size_t len;
};

/*
 * @size bytes, 64-byte aligned, at the start or the end of pages that lie
 * between two inaccessible guard regions; the accessible bytes around
 * the slot are poisoned for AddressSanitizer.
 */
static uint8_t *guard_alloc(struct guarded *gd, uint64_t size, int at_end, uint8_t fill)
{
	size_t round = (size + 63) & ~(size_t)63, body = (round + PAGE - 1) / PAGE * PAGE;
	uint8_t *base;

	if (!body)
		body = PAGE;
	gd->len = body + 2 * GUARD;
	gd->map = mmap(NULL, gd->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (gd->map == MAP_FAILED) {
		gd->map = NULL;
		return NULL;
	}
	if (mprotect(gd->map + GUARD, body, PROT_READ | PROT_WRITE))
		abort();
	base = gd->map + GUARD + (at_end ? body - round : 0);
	memset(base, fill, size);
	POISON(gd->map + GUARD, body);
	UNPOISON(base, size);
	return base;
}

static void guard_free(struct guarded *gd)
{
	if (gd->map) {
		UNPOISON(gd->map + GUARD, gd->len - 2 * GUARD);
		munmap(gd->map, gd->len);
	}
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void run_guarded(struct gen *g, const struct xrt_engine_prog *p)
{
	static const uint8_t fills[] = { 0x00, 0x01, 0x7f, 0x80, 0xff, 0x3f };
	struct guarded gd[MAX_SLOTS] = { 0 };
	struct xrt_engine_cursor cur = { 0, 0, 0 };
	uint8_t *slots[MAX_SLOTS] = { 0 };
	struct xrt_engine_ctx x;
	void *ws, *shared;
	double t0;
	uint32_t i;
	int steps;

	/* A stride-0 view may span 2^62 elements; the workspace grows with some. */
	if (p->thread_ws_size > MAX_WS || p->shared_ws_size > MAX_WS)
		return;
	ws = malloc(p->thread_ws_size + 1);
	shared = malloc(p->shared_ws_size + 1);

	for (i = 0; i < p->num_slots; i++) {
		slots[i] = guard_alloc(&gd[i], p->slots[i].size, pick(g, 2),
				       fills[pick(g, sizeof(fills))]);
		if (!slots[i])
			goto out;
	}
	if (!ws || !shared)
		goto out;
	x = (struct xrt_engine_ctx){ p, slots, shared, 7 };
	t0 = now();
	for (steps = 0; steps < 500 && now() - t0 < 0.25; steps++)
		if (xrt_engine_step(&x, &cur, 1, ws))
			break;
out:
	for (i = 0; i < p->num_slots; i++)
		guard_free(&gd[i]);
	free(ws);
	free(shared);
}

/*
 * FUZZ_CS_GEN_NO_REACH=1 leaves the exact-reach check out, so that a run
 * can show that guarded execution alone finds an access outside a slot.
 */
static int reach_checked(void)
{
	static int on = -1;

	if (on < 0) {
		const char *e = getenv("FUZZ_CS_GEN_NO_REACH");

		on = !(e && *e == '1');
	}
	return on;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t sizes[] = {
		0, 1, 2, 8, 16, 24, 64, 100, 256, 1000, 4096, 65536,
	};
	struct gen g = { data, size, 0, { 0 }, 0 };
	struct xdev_program prog;
	struct cs_builder b;
	xrt_status *st;
	size_t psize;
	void *p;
	uint32_t i;

	g.num_slots = 1 + pick(&g, MAX_SLOTS);
	/* short programs more often: each command must be valid for any to run */
	g.num_cmds = 1 + pick(&g, 1 + pick(&g, MAX_CMDS));
	cs_builder_init(&b, NULL);
	for (i = 0; i < g.num_slots; i++) {
		uint32_t flags = pick(&g, 8) ? XRT_CS_SLOT_FLAGS : 1 + pick(&g, 2);

		g.slot_size[i] = sizes[pick(&g, sizeof(sizes) / sizeof(sizes[0]))];
		cs_add_slot(&b, g.slot_size[i], flags);
	}
	for (i = 0; i < g.num_cmds; i++)
		gen_command(&g, &b, i);
	st = cs_finish(&b, &p, &psize);
	if (st) {
		xrt_status_free(st);
		return 0;
	}
	st = xdev_program_load(&prog, NULL, p, psize);
	if (st) {
		if (xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
	} else {
		for (i = 0; reach_checked() && i < prog.prog.num_commands; i++)
			check_command(&prog.prog, i);
		run_guarded(&g, &prog.prog);
		xdev_program_release(&prog);
	}
	xrt_free(NULL, p);
	return 0;
}
