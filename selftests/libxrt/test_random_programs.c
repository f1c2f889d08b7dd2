// SPDX-License-Identifier: MIT
/*
 * Random programs, compiled and run on the host device against the
 * reference evaluator.  Each seed builds (with <xrt/builder.h>) a module
 * mixing parameters, constants and a random walk of opcodes over random
 * shapes: elementwise chains that fuse, broadcasts and transposes that
 * become views, slices, pads, concatenations, reductions, dots,
 * conditionals.  Integer programs must match exactly; float programs,
 * kept to bounded functions, within a tolerance.  A mismatch prints the
 * module, to become a corpus file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"

#include <xrt/builder.h>
#include <xrt/evaluate.h>
#include <xrt/ir.h>

#include "compiler/compiler.h"
#include "device/host/host_device.h"

#define PROGRAMS 300	/* seeds 1..PROGRAMS; XRT_RANDOM_PROGRAMS=N for more */
#define POOL 32

struct gen {
	uint64_t s;
	xrt_builder *b;
	enum xrt_dtype t;		/* F32 or S32 */
	xrt_value pool[POOL];
	uint32_t n;
	xrt_comp add, max;
	const struct xrt_allocator *a;
};

static uint64_t next(struct gen *g)
{
	uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint32_t pick(struct gen *g, uint32_t n)
{
	return (uint32_t)(next(g) % n);
}

static const struct xrt_shape *shape_of(struct gen *g, xrt_value v)
{
	return xrt_value_shape(g->b, v);
}

static void push(struct gen *g, xrt_value v)
{
	if (v.id < 0)
		return;
	if (g->n < POOL)
		g->pool[g->n++] = v;
	else
		g->pool[pick(g, POOL)] = v;
}

static xrt_value any(struct gen *g)
{
	return g->pool[pick(g, g->n)];
}

/* A value of @v's shape: another in the pool, or @v itself. */
static xrt_value partner(struct gen *g, xrt_value v)
{
	uint32_t i, start = pick(g, g->n);

	for (i = 0; i < g->n; i++) {
		xrt_value w = g->pool[(start + i) % g->n];

		if (xrt_shape_compatible(shape_of(g, w), shape_of(g, v)))
			return w;
	}
	return v;
}

static xrt_value scalar_const(struct gen *g, double x)
{
	struct xrt_shape s = { .dtype = g->t };
	xrt_literal *lit = NULL;
	int32_t i = g->t == XRT_S32 ? (int32_t)x : 0;
	float f = (float)x;
	xrt_value v = { 0, -1 };

	if (!xrt_literal_create_from(g->a, &s, g->t == XRT_F32 ? (void *)&f : (void *)&i, 4,
				     &lit)) {
		v = xrt_build_constant(g->b, lit);
		xrt_literal_destroy(lit);
	}
	return v;
}

static xrt_comp reducer(struct gen *g, const char *name, enum xrt_opcode op)
{
	struct xrt_shape s = { .dtype = g->t };
	xrt_value a, b;

	xrt_builder_begin(g->b, name);
	a = xrt_build_parameter(g->b, 0, &s, "a");
	b = xrt_build_parameter(g->b, 1, &s, "b");
	return xrt_builder_end(g->b, xrt_build_binary(g->b, op, a, b));
}

static xrt_value elementwise(struct gen *g, xrt_value x)
{
	static const enum xrt_opcode fu[] = { XRT_OP_ABS, XRT_OP_NEGATE, XRT_OP_TANH,
					      XRT_OP_SINE, XRT_OP_COSINE, XRT_OP_FLOOR,
					      XRT_OP_SIGN, XRT_OP_LOGISTIC, XRT_OP_CEIL };
	static const enum xrt_opcode iu[] = { XRT_OP_ABS, XRT_OP_NEGATE, XRT_OP_NOT,
					      XRT_OP_POPCNT, XRT_OP_CLZ, XRT_OP_SIGN };
	static const enum xrt_opcode fb[] = { XRT_OP_ADD, XRT_OP_SUBTRACT, XRT_OP_MULTIPLY,
					      XRT_OP_MAXIMUM, XRT_OP_MINIMUM };
	static const enum xrt_opcode ib[] = { XRT_OP_ADD, XRT_OP_SUBTRACT, XRT_OP_MULTIPLY,
					      XRT_OP_MAXIMUM, XRT_OP_MINIMUM, XRT_OP_DIVIDE,
					      XRT_OP_REMAINDER, XRT_OP_AND, XRT_OP_OR, XRT_OP_XOR,
					      XRT_OP_SHIFT_LEFT, XRT_OP_SHIFT_RIGHT_ARITH,
					      XRT_OP_SHIFT_RIGHT_LOGICAL };
	bool f = g->t == XRT_F32;
	xrt_value y, p;

	if (x.id < 0)
		return x;	/* an earlier call failed: the builder refuses the rest */
	y = partner(g, x);

	switch (pick(g, 5)) {
	case 0:
	case 1:
		return xrt_build_unary(g->b, f ? fu[pick(g, 9)] : iu[pick(g, 6)], x);
	case 2:
	case 3:
		return xrt_build_binary(g->b, f ? fb[pick(g, 5)] : ib[pick(g, 13)], x, y);
	default:
		p = xrt_build_compare(g->b, x, y, (enum xrt_compare_dir)pick(g, 6),
				      XRT_CMP_DEFAULT);
		return pick(g, 2) ? xrt_build_select(g->b, p, x, y) :
				    xrt_build_clamp(g->b, scalar_const(g, -1), x,
						    scalar_const(g, 2));
	}
}

/* Shape-changing opcodes that lower to views or copies. */
static xrt_value reshaped(struct gen *g, xrt_value x)
{
	const struct xrt_shape *s = shape_of(g, x);
	int64_t d[XRT_MAX_RANK], lo[XRT_MAX_RANK], hi[XRT_MAX_RANK], in[XRT_MAX_RANK];
	int64_t st[XRT_MAX_RANK], perm[XRT_MAX_RANK] = { 1, 0, 2 };
	uint32_t r = s->rank, k;
	xrt_value two[2];

	switch (pick(g, 7)) {
	case 0:	/* broadcast into a new leading dimension */
		if (r >= 3)
			return x;
		d[0] = 1 + pick(g, 4);
		for (k = 0; k < r; k++) {
			d[k + 1] = s->dims[k];
			in[k] = k + 1;
		}
		return xrt_build_broadcast(g->b, x, r + 1, d, in);
	case 1:
		if (r < 2)
			return x;
		perm[0] = r - 1;
		for (k = 1; k < r; k++)
			perm[k] = k - 1;
		return xrt_build_transpose(g->b, x, perm);
	case 2:	/* flatten */
		d[0] = (int64_t)xrt_shape_element_count(s);
		return xrt_build_reshape(g->b, x, 1, d);
	case 3:
		for (k = 0; k < r; k++) {
			lo[k] = s->dims[k] > 1 ? pick(g, 2) : 0;
			hi[k] = s->dims[k];
			st[k] = 1 + pick(g, 2);
		}
		return xrt_build_slice(g->b, x, lo, hi, st);
	case 4:
		for (k = 0; k < r; k++) {
			lo[k] = (int64_t)pick(g, 3) - 1;
			hi[k] = pick(g, 2);
			in[k] = pick(g, 2);
			if (s->dims[k] + lo[k] + hi[k] + (s->dims[k] - 1) * in[k] < 1)
				lo[k] = 0;
		}
		return xrt_build_pad(g->b, x, scalar_const(g, 3), lo, hi, in);
	case 5:
		if (!r)
			return x;
		in[0] = pick(g, r);
		return xrt_build_reverse(g->b, x, in, 1);
	default:
		if (!r)
			return x;
		two[0] = x;
		two[1] = partner(g, x);
		return xrt_build_concatenate(g->b, two, 2, pick(g, r));
	}
}

static xrt_value reduced(struct gen *g, xrt_value x)
{
	uint32_t rank = shape_of(g, x)->rank;	/* the shape moves with the next call */
	int64_t dim = rank ? pick(g, rank) : 0;
	bool sum = pick(g, 2);
	xrt_value init = scalar_const(g, sum ? 0 : (g->t == XRT_F32 ? -INFINITY : -2147483647));

	if (!rank)
		return x;
	return xrt_build_reduce(g->b, &x, &init, 1, sum ? g->add : g->max, &dim, 1);
}

/* x . y for a rank-2 x and a y made to fit. */
static xrt_value dotted(struct gen *g, xrt_value x)
{
	const struct xrt_shape *s = shape_of(g, x);
	static const int64_t one = 1, zero = 0;
	struct xrt_dot_dims dd = { NULL, NULL, 0, &one, &zero, 1 };
	int64_t d[2] = { s->rank == 2 ? s->dims[1] : 0, 1 + pick(g, 5) };
	xrt_value y, e;

	if (s->rank != 2)
		return x;
	e = scalar_const(g, g->t == XRT_F32 ? 0.5 : 3);
	y = xrt_build_broadcast(g->b, e, 2, d, NULL);
	y = xrt_build_binary(g->b, XRT_OP_ADD, y,
			     xrt_build_iota(g->b, &(struct xrt_shape){ g->t, 2, { d[0], d[1] },
								      { 1, 0 } }, 1));
	return xrt_build_dot(g->b, x, y, &dd, XRT_INVALID);
}

/* A 2-D convolution of a fresh NHWC input with random window and groups. */
static xrt_value convolved(struct gen *g)
{
	uint32_t groups = 1 + pick(g, 2), fgc = pick(g, 2) ? groups : 1;
	uint32_t bgc = fgc == 1 ? groups : 1, i;
	int64_t b = bgc * (1 + pick(g, 2)), h = 1 + pick(g, 5), w = 1 + pick(g, 5);
	int64_t ic = fgc * (1 + pick(g, 3)), oc = groups * (1 + pick(g, 3));
	struct xrt_window_dim win[2];
	struct xrt_shape si, sk;
	xrt_value x, k;

	xrt_shape_init_array(&si, g->t, 4, (int64_t[]){ b, h, w, ic });
	xrt_shape_init_array(&sk, g->t, 4, (int64_t[]){ 1 + pick(g, 3), 1 + pick(g, 3),
						       ic / fgc, oc });
	x = xrt_build_iota(g->b, &si, pick(g, 4));
	x = xrt_build_binary(g->b, XRT_OP_MULTIPLY, x, xrt_build_iota(g->b, &si, 3));
	k = xrt_build_iota(g->b, &sk, pick(g, 4));
	for (i = 0; i < 2; i++) {
		win[i] = (struct xrt_window_dim){ sk.dims[i], 1 + pick(g, 2), pick(g, 2),
						  pick(g, 2), 1 + pick(g, 2), 1 + pick(g, 2),
						  pick(g, 4) == 0 };
	}
	return xrt_build_convolution(g->b, x, k, win, "b01f_01io->b01f", fgc, bgc, XRT_INVALID);
}

/* s32[m, 1] row indices, some out of range (gather clamps, scatter skips). */
static xrt_value row_indices(struct gen *g, int64_t m, int64_t rows)
{
	struct xrt_shape si = { XRT_S32, 2, { m, 1 }, { 1, 0 } }, scalar = { .dtype = XRT_S32 };
	struct xrt_literal *lit = NULL;
	int32_t b = (int32_t)pick(g, (uint32_t)rows + 2) - 1;
	xrt_value iota = xrt_build_iota(g->b, &si, 0), c;
	int64_t d[2] = { m, 1 };

	if (xrt_literal_create_from(g->a, &scalar, &b, 4, &lit))
		return iota;
	c = xrt_build_constant(g->b, lit);
	xrt_literal_destroy(lit);
	c = xrt_build_broadcast(g->b, c, 2, d, NULL);
	return xrt_build_binary(g->b, XRT_OP_SUBTRACT, iota, c);
}

/* Rows of @x gathered, or an update scattered into @x with add. */
static xrt_value indexed(struct gen *g, xrt_value x)
{
	const struct xrt_shape *s = shape_of(g, x);
	int64_t dims[XRT_MAX_RANK], sizes[XRT_MAX_RANK], win[XRT_MAX_RANK], zero = 0;
	uint32_t r = s->rank, d, m = 1 + pick(g, 4);
	int64_t rows = r ? s->dims[0] : 0;
	xrt_value ix, up;

	if (!r)
		return x;
	for (d = 0; d < r; d++) {
		sizes[d] = d ? s->dims[d] : 1;
		dims[d] = d ? s->dims[d] : m;
		win[d] = d + 1;
	}
	ix = row_indices(g, m, rows);
	if (pick(g, 2)) {
		struct xrt_gather_dims gd = { win, r - 1, &zero, 1, &zero, 1, 1 };

		return xrt_build_gather(g->b, x, ix, &gd, sizes, false);
	} else {
		struct xrt_scatter_dims sd = { win, r - 1, &zero, 1, &zero, 1, 1 };
		struct xrt_shape us;

		xrt_shape_init_array(&us, g->t, r, dims);
		up = xrt_build_iota(g->b, &us, pick(g, r));
		return xrt_build_scatter(g->b, &x, 1, ix, &up, g->add, &sd, false, false);
	}
}

static xrt_value random_shape_param(struct gen *g, uint32_t i)
{
	struct xrt_shape s;
	int64_t d[3];
	uint32_t r = pick(g, 4), k;
	char name[8];

	for (k = 0; k < r; k++)
		d[k] = 1 + pick(g, 6);
	xrt_shape_init_array(&s, g->t, r, d);
	snprintf(name, sizeof(name), "p%u", i);
	return xrt_build_parameter(g->b, i, &s, name);
}

/* Builds program @seed; NULL when the generator made a bad call. */
static xrt_module *generate(const struct xrt_allocator *a, uint64_t seed)
{
	struct gen g = { seed * 0x2545F4914F6CDD1Dull, NULL, XRT_F32, { { 0, 0 } }, 0 };
	uint32_t i, steps, np;
	xrt_module *m = NULL;
	xrt_value root, outs[2];
	xrt_status *st;

	g.a = a;
	g.t = pick(&g, 2) ? XRT_F32 : XRT_S32;
	if (xrt_builder_create(a, "random", "main", &g.b))
		return NULL;
	g.add = reducer(&g, "add", XRT_OP_ADD);
	g.max = reducer(&g, "max", XRT_OP_MAXIMUM);
	np = 1 + pick(&g, 3);
	for (i = 0; i < np; i++)
		push(&g, random_shape_param(&g, i));
	steps = 3 + pick(&g, 14);
	for (i = 0; i < steps && !xrt_builder_error(g.b); i++) {
		xrt_value x = any(&g);

		switch (pick(&g, 10)) {
		case 8:
			push(&g, convolved(&g));
			break;
		case 9:
			push(&g, indexed(&g, x));
			break;
		case 0: case 1: case 2:
			push(&g, elementwise(&g, x));
			break;
		case 3: case 4:
			push(&g, reshaped(&g, x));
			break;
		case 5:
			push(&g, reduced(&g, x));
			break;
		case 6:
			push(&g, dotted(&g, x));
			break;
		default:
			push(&g, elementwise(&g, elementwise(&g, x)));
			break;
		}
	}
	outs[0] = g.pool[g.n - 1];
	outs[1] = any(&g);
	root = pick(&g, 2) ? outs[0] : xrt_build_tuple(g.b, outs, 2);
	st = xrt_builder_build(g.b, root, &m);
	xrt_status_free(st);
	xrt_builder_destroy(g.b);
	return m;
}

static void fill(xrt_literal *lit, uint64_t seed)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	struct gen g = { seed, NULL, XRT_F32, { { 0, 0 } }, 0 };
	size_t n = xrt_literal_size(lit) / 4, k;
	uint8_t *d = xrt_literal_mutable_data(lit);

	for (k = 0; k < n; k++) {
		uint64_t r = next(&g);
		float f = (float)((double)(r >> 11) * 0x1p-51 - 2.0);
		int32_t i = (int32_t)(r % 33) - 16;

		memcpy(d + 4 * k, s->dtype == XRT_F32 ? (void *)&f : (void *)&i, 4);
	}
}

/* Runs program @seed both ways; false (and the module printed) on a mismatch. */
static bool check(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		  uint64_t seed, int *ran)
{
	const struct xrt_tolerance tol = { 1e-4, 1e-3 };
	xrt_module *m = generate(a, seed);
	struct xrt_executable *exe = NULL;
	xrt_literal *args[4] = { NULL }, *want = NULL, *got = NULL;
	uint32_t n, i;
	char why[512] = "";
	bool ok = true;
	xrt_status *st;

	if (!m)
		return true;	/* the walk made a call the builder refused */
	n = xrt_module_num_params(m);
	for (i = 0; i < n; i++) {
		if (xrt_literal_create(a, xrt_module_param_shape(m, i), &args[i]))
			goto out;
		fill(args[i], seed * 31 + i);
	}
	st = cc_compile(m, NULL, a, &exe);
	if (!st)
		st = host_run(exe, (const xrt_literal *const *)args, n, NULL, a, &got);
	if (!st)
		st = xrt_ir_evaluate(m, (const xrt_literal *const *)args, n, NULL, a, &want);
	if (st) {
		snprintf(why, sizeof(why), "%s", xrt_status_message(st));
		xrt_status_free(st);
		ok = false;
	} else {
		(*ran)++;
		ok = xrt_shape_is_tuple(xrt_literal_shape(want)) ||
		     xrt_literal_shape(want)->dtype != XRT_S32 ?
		     xrt_literal_near(want, got, &tol, why, sizeof(why)) :
		     xrt_literal_equal(want, got, why, sizeof(why));
	}
	if (!ok) {
		char *text = NULL;

		if (!xrt_hlo_print(m, a, &text, NULL))
			fprintf(stderr, "# seed %llu: %s\n%s\n", (unsigned long long)seed, why,
				text);
		xrt_free(a, text);
	}
out:
	for (i = 0; i < n; i++)
		xrt_literal_destroy(args[i]);
	xrt_literal_destroy(want);
	xrt_literal_destroy(got);
	xexe_destroy(exe);
	xrt_module_destroy(m);
	return ok;
}

TEST_F(xrt, random_programs_match_the_evaluator)
{
	const char *env = getenv("XRT_RANDOM_PROGRAMS");
	long programs = env ? atol(env) : PROGRAMS, seed;
	int failures = 0, ran = 0;

	for (seed = 1; seed <= programs; seed++)
		failures += !check(_metadata, self->a, (uint64_t)seed, &ran);
	fprintf(stderr, "# %d random programs compiled, run and matched of %ld\n",
		ran - failures, programs);
	EXPECT_EQ(0, failures);
	EXPECT_GE(ran, programs * 3 / 4);
}

TEST_HARNESS_MAIN
