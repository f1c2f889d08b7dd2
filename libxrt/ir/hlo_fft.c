// SPDX-License-Identifier: MIT
/*
 * fft, rewritten as it is read: each transformed dimension becomes a
 * dot with its DFT matrix (a constant computed in double precision and
 * rounded once to the complex type), so every device and the evaluator
 * run it with what they already have.
 *
 *   FFT    X[k] = sum_t x[t] e^(-2 pi i k t / n)
 *   IFFT   x[t] = 1/n sum_k X[k] e^(+2 pi i k t / n)
 *   RFFT   a real input made complex, its last dimension kept to n/2 + 1
 *          outputs, then FFT over the other dimensions
 *   IRFFT  IFFT over the other dimensions, then the last from its n/2 + 1
 *          inputs to n real outputs: 1/n (X[0] + 2 sum Re(X[k] e^(..)) +
 *          X[n/2]), the real part of a dot with weights 1, 2, .., 2, 1
 *
 * A dot contracts the dimension and appends the new one last; a
 * transpose puts it back where it was.  The cost is n^2 per element
 * row rather than n log n, so lengths are capped at 1024.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "hlo_parse.h"

#define FFT_MAX_LENGTH 1024
/* all DFT matrices of one module: a short text must not claim gigabytes */
#define DFT_MAX_BYTES (256ull << 20)
#define TWO_PI 6.28318530717958647692528676655900577

enum kind { FFT, IFFT, RFFT, IRFFT };

struct fft {
	enum kind kind;
	enum xrt_dtype ct;		/* the complex type */
	char base[64];
	uint32_t at, step;		/* the next free slot, and name counter */
	uint32_t rank;
	int64_t dims[XRT_MAX_RANK];	/* of the value so far */
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

/* The DFT matrix W[in][out] of one dimension, as a constant. */
static int matrix(struct hp *p, struct fft *f, int64_t n_in, int64_t n_out, int64_t n,
		  bool inverse, bool c2r, uint32_t *idx)
{
	int64_t dims[2] = { n_in, n_out }, a, b;
	struct ir_instr *in;
	xrt_status *st;
	uint64_t bytes = (uint64_t)n_in * (uint64_t)n_out * xrt_dtype_size(f->ct);
	uint8_t *d;

	/* n_in, n_out <= 1024: the product cannot wrap */
	if (bytes > DFT_MAX_BYTES - p->dft_bytes)
		return hp_fail(p, "%s: the DFT matrices of this module's ffts pass %llu MiB",
			       f->base, DFT_MAX_BYTES >> 20);
	p->dft_bytes += bytes;
	in = hp_add_instr(p, f->at, XRT_OP_CONSTANT, f->base, "dft", f->step, f->ct, 2, dims);
	if (!in)
		return -1;
	st = xrt_literal_create(p->a, &in->shape, &in->literal);
	if (st) {
		xrt_status_free(st);
		return hp_oom(p);
	}
	d = in->literal->data;
	for (a = 0; a < n_in; a++) {
		for (b = 0; b < n_out; b++) {
			double w = inverse ? 1.0 / (double)n : 1.0;
			double re, im, c, sn;

			/* (a b) mod n: the angle stays small and exact */
			turn(a * b % n, n, &c, &sn);
			if (c2r && a && !(n % 2 == 0 && a == n / 2))
				w *= 2;
			re = w * c;
			im = sn ? (inverse ? w : -w) * sn : 0;
			if (f->ct == XRT_C64) {
				float v[2] = { (float)re, (float)im };

				memcpy(d + (a * n_out + b) * 8, v, 8);
			} else {
				double v[2] = { re, im };

				memcpy(d + (a * n_out + b) * 16, v, 16);
			}
		}
	}
	*idx = f->at++;
	return 0;
}

/*
 * Value @*v transformed along dimension @dim (length @n) to @n_out
 * elements: a DFT matrix, a dot, then (unless @dim is last) a transpose
 * back.  @c2r: the half-spectrum weights of IRFFT's last dimension.
 */
static int along(struct hp *p, struct fft *f, uint32_t *v, uint32_t dim, int64_t n_out,
		 int64_t n, bool inverse, bool c2r)
{
	int64_t n_in = f->dims[dim], perm[XRT_MAX_RANK], dd[XRT_MAX_RANK];
	uint32_t w = 0, ops[2], i, j;
	struct ir_instr *in;

	if (matrix(p, f, n_in, n_out, n, inverse, c2r, &w))
		return -1;
	for (i = 0, j = 0; i < f->rank; i++)
		if (i != dim)
			dd[j++] = f->dims[i];
	dd[j] = n_out;
	ops[0] = *v;
	ops[1] = w;
	in = hp_add_instr(p, f->at, XRT_OP_DOT, f->base, "dot", f->step, f->ct, f->rank, dd);
	if (!in || hp_set_operands(p, in, ops, 2) ||
	    hp_extend(p, in, IR_ATTR_LHS_CONTRACTING_DIMS, &(int64_t){ dim }, 1, false) ||
	    hp_extend(p, in, IR_ATTR_RHS_CONTRACTING_DIMS, &(int64_t){ 0 }, 1, false))
		return -1;
	*v = f->at++;
	f->dims[dim] = n_out;
	if (dim + 1 < f->rank) {
		for (i = 0; i < f->rank; i++)
			perm[i] = i < dim ? i : i == dim ? f->rank - 1 : i - 1;
		in = hp_add_instr(p, f->at, XRT_OP_TRANSPOSE, f->base, "back", f->step, f->ct,
				  f->rank, f->dims);
		if (!in || hp_set_operands(p, in, v, 1) ||
		    hp_extend(p, in, IR_ATTR_DIMENSIONS, perm, f->rank, false))
			return -1;
		*v = f->at++;
	}
	f->step++;
	return 0;
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

/* Instructions the rewrite adds for @nl lengths. */
static uint32_t added(uint32_t nl, enum kind k)
{
	/*
	 * per dimension a matrix, a dot and a transpose, but none for the
	 * last dimension; RFFT's convert to complex
	 */
	return 3 * nl - 1 + (k == RFFT);
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
			return hp_fail(p, "%s: fft_length %lld: lengths are 1 to %d here (each "
				       "dimension is a DFT matrix)", in->name, (long long)n,
				       FFT_MAX_LENGTH);
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
	int64_t lens[3];
	struct fft f;
	uint32_t v, g, nl, i, first;

	memset(&f, 0, sizeof(f));
	if (in->num_operands != 1)
		return hp_fail(p, "%s: fft takes one operand", in->name);
	x = &p->cur->instrs[in->operands[0]].shape;
	if (parse_kind(p, in, &f.kind) || check(p, in, len, x, f.kind))
		return -1;
	nl = len->n;
	memcpy(lens, len->ints, nl * sizeof(lens[0]));
	f.rank = x->rank;
	memcpy(f.dims, x->dims, x->rank * sizeof(f.dims[0]));
	f.ct = x->dtype == XRT_F64 || x->dtype == XRT_C128 ? XRT_C128 : XRT_C64;
	if (check_result(p, in, &f, lens[nl - 1]))
		return -1;
	snprintf(f.base, sizeof(f.base), "%.60s", in->name);
	v = in->operands[0];
	if (hp_make_room(p, added(nl, f.kind), &f.at))
		return -1;
	g = f.at + added(nl, f.kind);	/* the fft's slot, now last */
	first = f.at;
	if (f.kind == RFFT) {
		struct ir_instr *c = hp_add_instr(p, f.at, XRT_OP_CONVERT, f.base, "complex", 0,
						  f.ct, f.rank, f.dims);

		if (!c || hp_set_operands(p, c, &v, 1))
			return -1;
		v = f.at++;
	}
	/* the last dimension first for RFFT, last for IRFFT; all alike otherwise */
	for (i = 0; i < nl; i++) {
		uint32_t j = f.kind == IRFFT ? i : nl - 1 - i, dim = f.rank - nl + j;
		bool edge = j + 1 == nl;
		int64_t n = lens[j];

		if (along(p, &f, &v, dim, (f.kind == RFFT && edge) ? n / 2 + 1 : n, n,
			  f.kind == IFFT || f.kind == IRFFT, f.kind == IRFFT && edge))
			return -1;
	}
	/* the fft's own slot takes the last step: a real, or a copy */
	in = &p->cur->instrs[g];
	for (i = 0; i < in->num_attrs; i++)
		ir_attr_release(p->a, &in->attrs[i]);
	xrt_mem_free(p->a, in->attrs);
	in->attrs = NULL;
	in->num_attrs = 0;
	in->op = f.kind == IRFFT ? XRT_OP_REAL : XRT_OP_COPY;
	in->operands[0] = v;
	if (f.at != g)
		return hp_fail(p, "%s: internal: the fft rewrite filled %u of %u slots", in->name,
			       f.at - first, g - first);
	return 0;
}
