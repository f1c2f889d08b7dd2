// SPDX-License-Identifier: MIT
/*
 * fft, rewritten as it is read: each transformed dimension becomes dots
 * with DFT matrices (constants computed in double precision and rounded
 * once to the complex type), so every device and the evaluator run it
 * with what they already have.
 *
 *   FFT    X[k] = sum_t x[t] e^(-2 pi i k t / n)
 *   IFFT   x[t] = 1/n sum_k X[k] e^(+2 pi i k t / n)
 *   RFFT   a real input made complex, its last dimension kept to n/2 + 1
 *          outputs, then FFT over the other dimensions
 *   IRFFT  IFFT over the other dimensions, then the last from its n/2 + 1
 *          inputs to n real outputs: 1/n (X[0] + 2 sum Re(X[k] e^(..)) +
 *          X[n/2]), the real part of a dot with weights 1, 2, .., 2, 1
 *
 * A length up to 1024 is one dot with its n x n matrix; the dot
 * contracts the dimension and appends the new one last, a transpose puts
 * it back.  A longer one, n = n1 n2 (both up to 1024), takes four steps
 * (t = n2 t1 + t2, k = k1 + n1 k2): a length-n1 DFT over t1, twiddles
 * e^(-2 pi i t2 k1 / n), a length-n2 DFT over t2, and a transpose; RFFT
 * keeps the first n/2 + 1 outputs of the complex transform, IRFFT first
 * completes its half spectrum (X[n - k] = conj X[k]).  The cost is n (n1 +
 * n2) per row.  Instructions are emitted twice: a dry pass counts them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hlo_parse.h"

#define DIRECT_MAX 1024		/* the longest dimension one matrix takes */
#define FFT_MAX_LENGTH (1 << 20)
/* all DFT matrices of one module: a short text must not claim gigabytes */
#define DFT_MAX_BYTES (256ull << 20)
#define TWO_PI 6.28318530717958647692528676655900577

enum kind { FFT, IFFT, RFFT, IRFFT };

struct fft {
	struct hp_emit e;
	enum kind kind;
	enum xrt_dtype ct;		/* the complex type */
	uint32_t rank;
	int64_t dims[XRT_MAX_RANK];	/* of the value so far */
	uint64_t bytes;			/* of the matrices */
};

/*
 * cos and sin of @r / @n turns; quarter turns exact, so that the matrix
 * holds 0 and 1 where the transform's arithmetic does.
 */
static void turn(int64_t r, int64_t n, double *c, double *s)
{
	static const double quarter[4][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
	double th;

	if (4 * r % n == 0) {
		*c = quarter[4 * r / n][0];
		*s = quarter[4 * r / n][1];
		return;
	}
	th = TWO_PI * (double)r / (double)n;
	*c = cos(th);
	*s = sin(th);
}

static uint32_t add(struct fft *f, enum xrt_opcode op, enum xrt_dtype t, uint32_t rank,
		    const int64_t *dims, const uint32_t *ops, uint32_t n)
{
	return hp_emit(&f->e, op, t, rank, dims, ops, n);
}

/*
 * A [@rows, @cols] constant: entry (a, b) is e^(-+2 pi i (a b mod n) / n)
 * times @scale (twice that where @c2r, but for a = 0 and a = n/2).
 */
static uint32_t table(struct fft *f, int64_t rows, int64_t cols, int64_t n, bool inverse,
		      double scale, bool c2r)
{
	int64_t dims[2] = { rows, cols }, a, b;
	size_t es = xrt_dtype_size(f->ct);
	uint8_t *d;
	uint32_t v = hp_emit_const(&f->e, f->ct, 2, dims, &d);

	if (f->e.dry)
		f->bytes += (uint64_t)rows * (uint64_t)cols * es;	/* both <= 2^20 */
	if (!d)
		return v;
	for (a = 0; a < rows; a++) {
		for (b = 0; b < cols; b++) {
			double w = scale, c, sn, re, im;

			/* (a b) mod n: the angle stays small and exact */
			turn(a * b % n, n, &c, &sn);
			if (c2r && a && !(n % 2 == 0 && a == n / 2))
				w *= 2;
			re = w * c;
			im = sn ? (inverse ? w : -w) * sn : 0;
			if (f->ct == XRT_C64) {
				float z[2] = { (float)re, (float)im };

				memcpy(d + (a * cols + b) * es, z, es);
			} else {
				double z[2] = { re, im };

				memcpy(d + (a * cols + b) * es, z, es);
			}
		}
	}
	return v;
}

/* Value @v (of dims f->dims) transposed by @perm; f->dims follow. */
static uint32_t permute(struct fft *f, uint32_t v, const int64_t *perm)
{
	int64_t d[XRT_MAX_RANK];
	uint32_t i;

	for (i = 0; i < f->rank; i++)
		d[i] = f->dims[perm[i]];
	memcpy(f->dims, d, sizeof(d));
	v = add(f, XRT_OP_TRANSPOSE, f->ct, f->rank, f->dims, &v, 1);
	hp_emit_ints(&f->e, v, IR_ATTR_DIMENSIONS, perm, f->rank);
	return v;
}

/* @v with dimension @dim moved last (@back: moved from last to @dim). */
static uint32_t move(struct fft *f, uint32_t v, uint32_t dim, bool back)
{
	int64_t perm[XRT_MAX_RANK];
	uint32_t i;

	if (dim + 1 == f->rank)
		return v;
	for (i = 0; i < f->rank; i++) {
		if (back)
			perm[i] = i < dim ? i : i == dim ? f->rank - 1 : i - 1;
		else
			perm[i] = i < dim ? i : i + 1 < f->rank ? i + 1 : dim;
	}
	return permute(f, v, perm);
}

/* The last dimension of @v times matrix @w ([dims[last], n_out]). */
static uint32_t times(struct fft *f, uint32_t v, uint32_t w, int64_t n_out, uint32_t at_dim)
{
	int64_t d[XRT_MAX_RANK], c = at_dim, z = 0;
	uint32_t ops[2] = { v, w }, i, j;

	for (i = 0, j = 0; i < f->rank; i++)
		if (i != at_dim)
			d[j++] = f->dims[i];
	d[j] = n_out;
	memcpy(f->dims, d, sizeof(d));
	v = add(f, XRT_OP_DOT, f->ct, f->rank, f->dims, ops, 2);
	hp_emit_ints(&f->e, v, IR_ATTR_LHS_CONTRACTING_DIMS, &c, 1);
	hp_emit_ints(&f->e, v, IR_ATTR_RHS_CONTRACTING_DIMS, &z, 1);
	return v;
}

static uint32_t reshape(struct fft *f, uint32_t v, uint32_t rank, const int64_t *dims)
{
	f->rank = rank;
	memcpy(f->dims, dims, rank * sizeof(dims[0]));
	return add(f, XRT_OP_RESHAPE, f->ct, f->rank, f->dims, &v, 1);
}

/* Elements [@from, @to) of the last dimension. */
static uint32_t head(struct fft *f, uint32_t v, int64_t from, int64_t to)
{
	int64_t lo[XRT_MAX_RANK] = { 0 }, hi[XRT_MAX_RANK];

	memcpy(hi, f->dims, sizeof(hi));
	lo[f->rank - 1] = from;
	hi[f->rank - 1] = to;
	f->dims[f->rank - 1] = to - from;
	return hp_emit_slice(&f->e, v, f->ct, f->rank, lo, hi);
}

/* The full spectrum of length @n from the n/2 + 1 values in the last dimension of @v. */
static uint32_t hermitian(struct fft *f, uint32_t v, int64_t n)
{
	enum xrt_dtype rt = f->ct == XRT_C64 ? XRT_F32 : XRT_F64;
	int64_t last = f->rank - 1, h = n / 2 + 1, d[XRT_MAX_RANK];
	uint32_t tail, re, im, ops[2];

	if (n - h <= 0)
		return v;
	tail = head(f, v, 1, n - h + 1);	/* X[1 .. n - h] */
	tail = add(f, XRT_OP_REVERSE, f->ct, f->rank, f->dims, &tail, 1);
	hp_emit_ints(&f->e, tail, IR_ATTR_DIMENSIONS, &last, 1);
	re = add(f, XRT_OP_REAL, rt, f->rank, f->dims, &tail, 1);
	im = add(f, XRT_OP_IMAG, rt, f->rank, f->dims, &tail, 1);
	im = add(f, XRT_OP_NEGATE, rt, f->rank, f->dims, &im, 1);
	ops[0] = re;
	ops[1] = im;
	tail = add(f, XRT_OP_COMPLEX, f->ct, f->rank, f->dims, ops, 2);
	memcpy(d, f->dims, sizeof(d));
	d[last] = n;
	ops[0] = v;
	ops[1] = tail;
	f->dims[last] = n;
	v = add(f, XRT_OP_CONCATENATE, f->ct, f->rank, d, ops, 2);
	hp_emit_ints(&f->e, v, IR_ATTR_DIMENSIONS, &last, 1);
	return v;
}

/* The largest n1 <= DIRECT_MAX dividing @n with n / n1 <= DIRECT_MAX; 0 if none. */
static int64_t split(int64_t n)
{
	int64_t n1;

	for (n1 = DIRECT_MAX; n1 > 1; n1--)
		if (n % n1 == 0 && n / n1 <= DIRECT_MAX && n1 * n1 <= n)
			return n / n1 > n1 ? n / n1 : n1;
	return 0;
}

/* The last dimension of @v, length @n, transformed in four steps (n = n1 n2). */
static uint32_t four_step(struct fft *f, uint32_t v, int64_t n, bool inverse)
{
	int64_t n1 = split(n), n2 = n / n1, d[XRT_MAX_RANK], bd[2], perm[XRT_MAX_RANK];
	uint32_t r = f->rank, tw, ops[2], i;

	memcpy(d, f->dims, sizeof(d));
	d[r - 1] = n1;
	d[r] = n2;
	v = reshape(f, v, r + 1, d);				/* [.., t1, t2] */
	v = times(f, v, table(f, n1, n1, n1, inverse, inverse ? 1.0 / n1 : 1, false), n1,
		  r - 1);					/* [.., t2, k1] */
	tw = table(f, n2, n1, n, inverse, 1, false);
	bd[0] = r - 1;
	bd[1] = r;
	tw = add(f, XRT_OP_BROADCAST, f->ct, f->rank, f->dims, &tw, 1);
	hp_emit_ints(&f->e, tw, IR_ATTR_DIMENSIONS, bd, 2);
	ops[0] = v;
	ops[1] = tw;
	v = add(f, XRT_OP_MULTIPLY, f->ct, f->rank, f->dims, ops, 2);
	v = times(f, v, table(f, n2, n2, n2, inverse, inverse ? 1.0 / n2 : 1, false), n2,
		  r - 1);					/* [.., k1, k2] */
	for (i = 0; i < f->rank; i++)
		perm[i] = i;
	perm[r - 1] = r;
	perm[r] = r - 1;
	v = permute(f, v, perm);				/* [.., k2, k1] */
	memcpy(d, f->dims, sizeof(d));
	d[r - 1] = n;
	return reshape(f, v, r, d);
}

/*
 * Value @*v transformed along dimension @dim (length @n); RFFT's last
 * dimension keeps n/2 + 1 outputs, IRFFT's (@c2r) takes n/2 + 1 inputs.
 */
static void along(struct fft *f, uint32_t *v, uint32_t dim, int64_t n, bool inverse, bool c2r,
		  bool r2c)
{
	int64_t n_in = f->dims[dim], n_out = r2c ? n / 2 + 1 : n;

	if (n <= DIRECT_MAX) {
		*v = times(f, *v, table(f, n_in, n_out, n, inverse, inverse ? 1.0 / n : 1, c2r),
			   n_out, dim);
		*v = move(f, *v, dim, true);
		return;
	}
	*v = move(f, *v, dim, false);
	if (c2r)
		*v = hermitian(f, *v, n);
	*v = four_step(f, *v, n, inverse);
	if (r2c)
		*v = head(f, *v, 0, n_out);
	*v = move(f, *v, dim, true);
}

/* The whole rewrite from operand @x; the value the fft's slot takes. */
static uint32_t expand(struct fft *f, uint32_t x, const int64_t *lens, uint32_t nl,
		       const struct xrt_shape *xs)
{
	uint32_t v = x, i;

	f->e.k = 0;
	f->rank = xs->rank;
	memcpy(f->dims, xs->dims, xs->rank * sizeof(f->dims[0]));
	if (f->kind == RFFT)
		v = add(f, XRT_OP_CONVERT, f->ct, f->rank, f->dims, &v, 1);
	/* the last dimension first for RFFT, last for IRFFT; all alike otherwise */
	for (i = 0; i < nl; i++) {
		uint32_t j = f->kind == IRFFT ? i : nl - 1 - i;
		bool edge = j + 1 == nl;

		along(f, &v, f->rank - nl + j, lens[j], f->kind == IFFT || f->kind == IRFFT,
		      f->kind == IRFFT && edge, f->kind == RFFT && edge);
	}
	return v;
}

static int parse_kind(struct hp *p, const struct ir_instr *in, enum kind *k)
{
	static const char *const names[] = { "FFT", "IFFT", "RFFT", "IRFFT" };
	const struct ir_attr *t = ir_instr_attr(in, IR_ATTR_FFT_TYPE);
	uint32_t i;

	for (i = 0; t && i < 4; i++) {
		if (!strcmp(t->str, names[i])) {
			*k = (enum kind)i;
			return 0;
		}
	}
	return hp_fail(p, "%s: fft_type %s is none of FFT, IFFT, RFFT and IRFFT", in->name,
		       t ? t->str : "missing");
}

static int check(struct hp *p, const struct ir_instr *in, const struct ir_attr *len,
		 const struct xrt_shape *x, enum kind k)
{
	uint32_t i;

	if (!len || !len->n || len->n > 3)
		return hp_fail(p, "%s: fft_length needs 1 to 3 lengths", in->name);
	if (xrt_shape_is_tuple(x) || x->rank < len->n)
		return hp_fail(p, "%s: the operand has fewer dimensions than fft_length", in->name);
	if ((k == RFFT) != !xrt_dtype_is_complex(x->dtype) ||
	    (k == RFFT && x->dtype != XRT_F32 && x->dtype != XRT_F64))
		return hp_fail(p, "%s: %s of %s", in->name, k == RFFT ? "RFFT" : "a complex fft",
			       xrt_dtype_name(x->dtype));
	for (i = 0; i < len->n; i++) {
		int64_t n = len->ints[i], have = x->dims[x->rank - len->n + i];
		int64_t want = k == IRFFT && i + 1 == len->n ? n / 2 + 1 : n;

		if (n < 1 || n > FFT_MAX_LENGTH)
			return hp_fail(p, "%s: fft_length %lld: lengths are 1 to %d here",
				       in->name, (long long)n, FFT_MAX_LENGTH);
		if (have != want)
			return hp_fail(p, "%s: dimension %u has %lld elements, fft_length wants %lld",
				       in->name, x->rank - len->n + i, (long long)have,
				       (long long)want);
	}
	return 0;
}

/* The declared result is the one the transform gives. */
static int check_result(struct hp *p, const struct ir_instr *in, const struct fft *f,
			int64_t n_last)
{
	enum xrt_dtype want = f->kind == IRFFT ? (f->ct == XRT_C64 ? XRT_F32 : XRT_F64) : f->ct;
	const struct xrt_shape *r = &in->shape;
	int64_t last = f->kind == RFFT ? n_last / 2 + 1 : f->kind == IRFFT ? n_last :
		       f->dims[f->rank - 1];
	uint32_t i;
	bool ok;

	ok = !xrt_shape_is_tuple(r) && r->dtype == want && r->rank == f->rank &&
	     r->dims[f->rank - 1] == last;
	for (i = 0; ok && i + 1 < f->rank; i++)
		ok = r->dims[i] == f->dims[i];
	if (!ok)
		return hp_fail(p, "%s: this fft gives %s with %lld elements in its last "
			       "dimension and the others of its operand", in->name,
			       xrt_dtype_name(want), (long long)last);
	return 0;
}

int hlo_unfft(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	const struct ir_attr *len = ir_instr_attr(in, IR_ATTR_FFT_LENGTH);
	const struct xrt_shape *x;
	struct xrt_shape xs;
	int64_t lens[3];
	struct fft f;
	uint32_t v, nl, i, at, x0;

	memset(&f, 0, sizeof(f));
	f.e.p = p;
	f.e.what = "dft";
	if (in->num_operands != 1)
		return hp_fail(p, "%s: fft takes one operand", in->name);
	x0 = in->operands[0];
	x = &p->cur->instrs[x0].shape;
	if (parse_kind(p, in, &f.kind) || check(p, in, len, x, f.kind))
		return -1;
	nl = len->n;
	memcpy(lens, len->ints, nl * sizeof(lens[0]));
	for (i = 0; i < nl; i++)
		if (lens[i] > DIRECT_MAX && !split(lens[i]))
			return hp_fail(p, "%s: fft_length %lld: a length over %d must be a product "
				       "of two factors up to %d", in->name, (long long)lens[i],
				       DIRECT_MAX, DIRECT_MAX);
	f.rank = x->rank;
	memcpy(f.dims, x->dims, x->rank * sizeof(f.dims[0]));
	f.ct = x->dtype == XRT_F64 || x->dtype == XRT_C128 ? XRT_C128 : XRT_C64;
	if (check_result(p, in, &f, lens[nl - 1]))
		return -1;
	xs = *x;	/* an array shape: nothing to own */
	snprintf(f.e.base, sizeof(f.e.base), "%.60s", in->name);
	f.e.dry = true;
	expand(&f, x0, lens, nl, &xs);
	if (f.bytes > DFT_MAX_BYTES - p->dft_bytes)
		return hp_fail(p, "%s: the DFT matrices of this module's ffts pass %llu MiB",
			       f.e.base, DFT_MAX_BYTES >> 20);
	p->dft_bytes += f.bytes;
	if (hp_make_room(p, f.e.at, &at))
		return -1;
	f.e.dry = false;
	f.e.at = at;
	v = expand(&f, x0, lens, nl, &xs);
	if (f.e.failed)
		return -1;
	/* the fft's own slot takes the last step: a real, or a copy */
	return hp_become(p, f.kind == IRFFT ? XRT_OP_REAL : XRT_OP_COPY, &v, 1);
}
