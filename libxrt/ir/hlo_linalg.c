// SPDX-License-Identifier: MIT
/*
 * cholesky and triangular-solve, rewritten as they are read into steps
 * of ops every device runs (slices, dots, concatenations), one step per
 * row or column, as XLA's operation semantics define them on the last
 * two dimensions (the others are batch dimensions):
 *
 *   cholesky(a), lower=true   L with a = L L^H from a's lower triangle,
 *                             column by column: c = a[:, j] - L[:, :j]
 *                             conj(L[j, :j])^T, L[:, j] = c / sqrt(c[j]),
 *                             rows above j zero; lower=false: U = L^H of
 *                             a^H (a's upper triangle)
 *   triangular-solve(a, b)    x with op(a) x = b (left_side) or x op(a) =
 *                             b, op(a) = a, a^T or a^H; forward substitution
 *                             row by row, x[i] = (b[i] - a[i, :i] x[:i]) /
 *                             a[i, i] (1 where unit_diagonal); the right
 *                             side through transposes, an upper matrix by
 *                             reversing rows and columns
 *
 * A matrix that is not positive definite gives NaN where a square root
 * of a negative number is taken, as XLA's expansion does.  Sizes are
 * capped (each step is a few instructions).  Complex matrices conjugate
 * where the real ones only transpose (^H for ^T; conj(x) is complex(real,
 * -imag)).  Emitted twice: a dry pass counts the instructions.
 */
#include <stdio.h>
#include <string.h>

#include "hlo_parse.h"

#define LA_MAX 256

struct la {
	struct hp_emit e;
	enum xrt_dtype t;
	enum xrt_dtype part;		/* a complex type's parts; t for a real one */
	uint32_t nb;			/* batch dimensions */
	int64_t batch[XRT_MAX_RANK];
};

/* [batch..., r, c] */
static uint32_t shape_of(const struct la *l, int64_t r, int64_t c, int64_t *d)
{
	memcpy(d, l->batch, l->nb * sizeof(d[0]));
	d[l->nb] = r;
	d[l->nb + 1] = c;
	return l->nb + 2;
}

static uint32_t emit(struct la *l, enum xrt_opcode op, enum xrt_dtype t, uint32_t rank,
		     const int64_t *dims, const uint32_t *ops, uint32_t n)
{
	return hp_emit(&l->e, op, t, rank, dims, ops, n);
}

static void ints(struct la *l, uint32_t v, enum ir_attr_key key, const int64_t *x, uint32_t n)
{
	hp_emit_ints(&l->e, v, key, x, n);
}

/* Rows [r0, r1) and columns [c0, c1) of matrix value @v ([batch..., R, C]). */
static uint32_t part(struct la *l, uint32_t v, int64_t r0, int64_t r1, int64_t c0, int64_t c1)
{
	int64_t lo[XRT_MAX_RANK] = { 0 }, hi[XRT_MAX_RANK];
	uint32_t rank = shape_of(l, r1, c1, hi);

	lo[l->nb] = r0;
	lo[l->nb + 1] = c0;
	return hp_emit_slice(&l->e, v, l->t, rank, lo, hi);
}

static uint32_t bin(struct la *l, enum xrt_opcode op, int64_t r, int64_t c, uint32_t x, uint32_t y)
{
	int64_t d[XRT_MAX_RANK];
	uint32_t ops[2] = { x, y }, rank = shape_of(l, r, c, d);

	return emit(l, op, l->t, rank, d, ops, 2);
}

/* x @ y^T over the last dimension of both: [.., r, k] and [.., c, k] give [.., r, c]. */
static uint32_t dot_t(struct la *l, uint32_t x, uint32_t y, int64_t r, int64_t c, bool y_rows)
{
	int64_t d[XRT_MAX_RANK], bd[XRT_MAX_RANK], lc = l->nb + 1, rc = l->nb + !y_rows;
	uint32_t ops[2] = { x, y }, rank = shape_of(l, r, c, d), v, i;

	for (i = 0; i < l->nb; i++)
		bd[i] = i;
	v = emit(l, XRT_OP_DOT, l->t, rank, d, ops, 2);
	ints(l, v, IR_ATTR_LHS_BATCH_DIMS, bd, l->nb);
	ints(l, v, IR_ATTR_RHS_BATCH_DIMS, bd, l->nb);
	ints(l, v, IR_ATTR_LHS_CONTRACTING_DIMS, &lc, 1);
	ints(l, v, IR_ATTR_RHS_CONTRACTING_DIMS, &rc, 1);
	return v;
}

static uint32_t concat(struct la *l, uint32_t x, uint32_t y, int64_t r, int64_t c, bool rows)
{
	int64_t d[XRT_MAX_RANK], dim = l->nb + !rows;
	uint32_t ops[2] = { x, y }, rank = shape_of(l, r, c, d), v;

	v = emit(l, XRT_OP_CONCATENATE, l->t, rank, d, ops, 2);
	ints(l, v, IR_ATTR_DIMENSIONS, &dim, 1);
	return v;
}

/* The [.., 1, 1] value @s spread over [.., r, c]. */
static uint32_t spread(struct la *l, uint32_t s, int64_t r, int64_t c)
{
	int64_t d[XRT_MAX_RANK], bd[XRT_MAX_RANK];
	uint32_t rank = shape_of(l, r, c, d), v, i;

	for (i = 0; i < l->nb; i++)
		bd[i] = i;
	v = emit(l, XRT_OP_RESHAPE, l->t, l->nb, l->batch, &s, 1);
	v = emit(l, XRT_OP_BROADCAST, l->t, rank, d, &v, 1);
	ints(l, v, IR_ATTR_DIMENSIONS, bd, l->nb);
	return v;
}

/* Matrix @v transposed (@swap) and/or reversed in both dimensions (@rev). */
static uint32_t reorient(struct la *l, uint32_t v, int64_t r, int64_t c, bool swap, bool rev,
			 bool rows_only)
{
	int64_t d[XRT_MAX_RANK], perm[XRT_MAX_RANK], rd[2] = { l->nb, l->nb + 1 };
	uint32_t rank, i;

	if (swap) {
		rank = shape_of(l, c, r, d);
		for (i = 0; i < rank; i++)
			perm[i] = i;
		perm[l->nb] = l->nb + 1;
		perm[l->nb + 1] = l->nb;
		v = emit(l, XRT_OP_TRANSPOSE, l->t, rank, d, &v, 1);
		ints(l, v, IR_ATTR_DIMENSIONS, perm, rank);
		r = d[l->nb];
		c = d[l->nb + 1];
	}
	if (rev) {
		rank = shape_of(l, r, c, d);
		v = emit(l, XRT_OP_REVERSE, l->t, rank, d, &v, 1);
		ints(l, v, IR_ATTR_DIMENSIONS, rd, rows_only ? 1 : 2);
	}
	return v;
}

/* The [.., r, c] value @v conjugated: itself where the type is real. */
static uint32_t conjugate(struct la *l, uint32_t v, int64_t r, int64_t c)
{
	int64_t d[XRT_MAX_RANK];
	uint32_t rank = shape_of(l, r, c, d), ops[2];

	if (l->part == l->t)
		return v;
	ops[0] = emit(l, XRT_OP_REAL, l->part, rank, d, &v, 1);
	ops[1] = emit(l, XRT_OP_IMAG, l->part, rank, d, &v, 1);
	ops[1] = emit(l, XRT_OP_NEGATE, l->part, rank, d, &ops[1], 1);
	return emit(l, XRT_OP_COMPLEX, l->t, rank, d, ops, 2);
}

/* The [.., n, n] matrix @v's conjugate transpose (its transpose if real). */
static uint32_t adjoint(struct la *l, uint32_t v, int64_t n)
{
	return conjugate(l, reorient(l, v, n, n, true, false, false), n, n);
}

/* A [.., n, 1] pred mask, true at rows >= @j. */
static uint32_t rows_from(struct la *l, int64_t n, int64_t j)
{
	int64_t d[XRT_MAX_RANK], two[2] = { n, 1 }, md[2] = { l->nb, l->nb + 1 };
	uint8_t *mask;
	uint32_t c = hp_emit_const(&l->e, XRT_PRED, 2, two, &mask), v, rank;

	if (mask)
		memset(mask + j, 1, (size_t)(n - j));
	rank = shape_of(l, n, 1, d);
	v = emit(l, XRT_OP_BROADCAST, XRT_PRED, rank, d, &c, 1);
	ints(l, v, IR_ATTR_DIMENSIONS, md, 2);
	return v;
}

static uint32_t zeros(struct la *l, int64_t r, int64_t c)
{
	int64_t d[XRT_MAX_RANK];
	uint8_t *data;
	uint32_t z = hp_emit_const(&l->e, l->t, 0, NULL, &data), rank = shape_of(l, r, c, d);

	z = emit(l, XRT_OP_BROADCAST, l->t, rank, d, &z, 1);
	ints(l, z, IR_ATTR_DIMENSIONS, NULL, 0);
	return z;
}

/* L with a = L L^H, from the lower triangle of [.., n, n] value @a. */
static uint32_t cholesky_lower(struct la *l, uint32_t a, int64_t n)
{
	uint32_t z = zeros(l, n, 1), L = 0, col, dj, ops[3];
	int64_t j, d[XRT_MAX_RANK];

	for (j = 0; j < n; j++) {
		col = part(l, a, 0, n, j, j + 1);
		if (j) {
			uint32_t row = conjugate(l, part(l, L, j, j + 1, 0, j), 1, j);

			col = bin(l, XRT_OP_SUBTRACT, n, 1, col, dot_t(l, L, row, n, 1, false));
		}
		dj = part(l, col, j, j + 1, 0, 1);
		dj = emit(l, XRT_OP_SQRT, l->t, shape_of(l, 1, 1, d), d, &dj, 1);
		col = bin(l, XRT_OP_DIVIDE, n, 1, col, spread(l, dj, n, 1));
		ops[0] = rows_from(l, n, j);
		ops[1] = col;
		ops[2] = z;
		col = emit(l, XRT_OP_SELECT, l->t, shape_of(l, n, 1, d), d, ops, 3);
		L = j ? concat(l, L, col, n, j + 1, false) : col;
	}
	return L;
}

/* x with A x = b, A [.., m, m] lower triangular, b [.., m, k]. */
static uint32_t solve_lower(struct la *l, uint32_t A, uint32_t b, int64_t m, int64_t k, bool unit)
{
	uint32_t X = 0, bi, di;
	int64_t i;

	for (i = 0; i < m; i++) {
		bi = part(l, b, i, i + 1, 0, k);
		if (i) {
			uint32_t ai = part(l, A, i, i + 1, 0, i);

			bi = bin(l, XRT_OP_SUBTRACT, 1, k, bi, dot_t(l, ai, X, 1, k, true));
		}
		if (!unit) {
			di = part(l, A, i, i + 1, i, i + 1);
			bi = bin(l, XRT_OP_DIVIDE, 1, k, bi, spread(l, di, 1, k));
		}
		X = i ? concat(l, X, bi, i + 1, k, true) : bi;
	}
	return X;
}

static bool same(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return !xrt_shape_is_tuple(a) && !xrt_shape_is_tuple(b) && a->dtype == b->dtype &&
	       a->rank == b->rank && !memcmp(a->dims, b->dims, a->rank * sizeof(a->dims[0]));
}

static bool flag(const struct ir_instr *in, enum ir_attr_key key)
{
	const struct ir_attr *a = ir_instr_attr(in, key);

	return a && a->ints[0];
}

/* @x: a real or complex matrix (or batch of them) of at most LA_MAX rows; its batch into @l. */
static int check_matrix(struct hp *p, const struct ir_instr *in, const struct xrt_shape *x,
			const char *what, struct la *l)
{
	bool cplx = !xrt_shape_is_tuple(x) && (x->dtype == XRT_C64 || x->dtype == XRT_C128);

	if (xrt_shape_is_tuple(x) || x->rank < 2 || (!xrt_dtype_is_float(x->dtype) && !cplx))
		return hp_fail(p, "%s: %s is not a floating-point or complex matrix (rank 2 or "
			       "more)", in->name, what);
	if (x->dims[x->rank - 2] > LA_MAX || x->dims[x->rank - 1] > LA_MAX)
		return hp_fail(p, "%s: %s is larger than %d x %d (one step per row)", in->name,
			       what, LA_MAX, LA_MAX);
	l->t = x->dtype;
	l->part = x->dtype == XRT_C64 ? XRT_F32 : x->dtype == XRT_C128 ? XRT_F64 : x->dtype;
	l->nb = x->rank - 2;
	memcpy(l->batch, x->dims, l->nb * sizeof(l->batch[0]));
	return 0;
}

struct tri {
	bool left, lower, unit, trans, adjoint;
};

static int check_triangular(struct hp *p, const struct ir_instr *in, struct la *l,
			    struct tri *o, int64_t *m, int64_t *k)
{
	const struct xrt_shape *a, *b;
	const struct ir_attr *t = ir_instr_attr(in, IR_ATTR_TRANSPOSE_A);

	if (in->num_operands != 2)
		return hp_fail(p, "%s: triangular-solve takes a and b", in->name);
	a = &p->cur->instrs[in->operands[0]].shape;
	b = &p->cur->instrs[in->operands[1]].shape;
	if (check_matrix(p, in, a, "a", l) || check_matrix(p, in, b, "b", l))
		return -1;
	o->left = flag(in, IR_ATTR_LEFT_SIDE);
	o->lower = flag(in, IR_ATTR_LOWER);
	o->unit = flag(in, IR_ATTR_UNIT_DIAGONAL);
	o->trans = t && strcmp(t->str, "NO_TRANSPOSE");
	o->adjoint = t && !strcmp(t->str, "ADJOINT");
	if (t && o->trans && strcmp(t->str, "TRANSPOSE") && strcmp(t->str, "ADJOINT"))
		return hp_fail(p, "%s: transpose_a %s is none of NO_TRANSPOSE, TRANSPOSE and "
			       "ADJOINT", in->name, t->str);
	*m = a->dims[a->rank - 1];
	*k = b->dims[b->rank - (o->left ? 1 : 2)];
	if (a->dtype != b->dtype || a->rank != b->rank ||
	    memcmp(a->dims, b->dims, l->nb * sizeof(a->dims[0])) ||
	    a->dims[a->rank - 2] != *m || b->dims[b->rank - (o->left ? 2 : 1)] != *m)
		return hp_fail(p, "%s: a is not square, or b does not fit it (%s side)", in->name,
			       o->left ? "left" : "right");
	if (!same(&in->shape, b))
		return hp_fail(p, "%s: the result is not b's shape", in->name);
	return 0;
}

/* The expansion of @in's operation into slots from l->e.at; the value the slot takes. */
static uint32_t expand(struct la *l, const struct ir_instr *in, bool chol, const struct tri *o,
		       int64_t m, int64_t k)
{
	uint32_t a = in->operands[0], b, X;
	bool lw;

	if (chol) {
		bool lower = flag(in, IR_ATTR_LOWER);

		if (!m)
			return emit(l, XRT_OP_COPY, l->t, 0, NULL, &a, 1);
		X = cholesky_lower(l, lower ? a : adjoint(l, a, m), m);
		return lower ? X : adjoint(l, X, m);
	}
	b = in->operands[1];
	if (!m || !k)
		return b;
	/* op(a) lower or upper; the right side as the left of the transposes */
	lw = o->lower != o->trans;
	if (o->trans)
		a = o->adjoint ? adjoint(l, a, m) : reorient(l, a, m, m, true, false, false);
	if (!o->left) {
		a = reorient(l, a, m, m, true, false, false);
		b = reorient(l, b, k, m, true, false, false);
		lw = !lw;
	}
	if (!lw) {
		a = reorient(l, a, m, m, false, true, false);
		b = reorient(l, b, m, k, false, true, true);
	}
	X = solve_lower(l, a, b, m, k, o->unit);
	if (!lw)
		X = reorient(l, X, m, k, false, true, true);
	return o->left ? X : reorient(l, X, m, k, true, false, false);
}

int hlo_unlinalg(struct hp *p)
{
	uint32_t g = p->cur->num_instrs - 1, at = g, v;
	struct ir_instr *in = &p->cur->instrs[g];
	bool chol = !strcmp(p->pseudo, "cholesky");
	struct tri o = { false, false, false, false, false };
	int64_t m = 0, k = 0;
	struct la l;

	memset(&l, 0, sizeof(l));
	l.e.p = p;
	l.e.what = "la";
	if (chol) {
		if (in->num_operands != 1)
			return hp_fail(p, "%s: cholesky takes one operand", in->name);
		if (check_matrix(p, in, &p->cur->instrs[in->operands[0]].shape, "the operand", &l))
			return -1;
		m = l.nb < XRT_MAX_RANK ? p->cur->instrs[in->operands[0]].shape.dims[l.nb] : 0;
		if (p->cur->instrs[in->operands[0]].shape.dims[l.nb + 1] != m ||
		    !same(&in->shape, &p->cur->instrs[in->operands[0]].shape))
			return hp_fail(p, "%s: cholesky needs square matrices and gives their shape",
				       in->name);
	} else if (check_triangular(p, in, &l, &o, &m, &k)) {
		return -1;
	}
	snprintf(l.e.base, sizeof(l.e.base), "%.60s", in->name);
	l.e.dry = true;
	expand(&l, in, chol, &o, m, k);
	if (l.e.at && hp_make_room(p, l.e.at, &at))
		return -1;
	l.e.dry = false;
	l.e.at = at;
	in = &p->cur->instrs[p->cur->num_instrs - 1];
	v = expand(&l, in, chol, &o, m, k);
	if (l.e.failed)
		return -1;
	return hp_become(p, XRT_OP_COPY, &v, 1);
}
