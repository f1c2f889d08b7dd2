// SPDX-License-Identifier: MIT
/*
 * dot and convolution: sums of products, operands first converted to
 * the result type; floats summed in double and rounded once at the end,
 * integers wrapping, complex numbers in double complex.
 */
#include <complex.h>
#include <string.h>

#include "eval/eval.h"

/* A running sum in the result type. */
struct acc {
	enum xrt_dtype t;
	double complex z;
	uint64_t u;
};

static void acc_add(struct acc *s, enum xrt_dtype lt, struct ev_scalar x, enum xrt_dtype rt,
		    struct ev_scalar y)
{
	struct ev_scalar a = ev_convert(lt, s->t, x), b = ev_convert(rt, s->t, y);

	if (xrt_dtype_is_complex(s->t))
		s->z += ev_cplx(a.f, a.im) * ev_cplx(b.f, b.im);
	else if (xrt_dtype_is_float(s->t))
		s->z += a.f * b.f;
	else if (s->t == XRT_PRED)
		s->u |= a.u & b.u;
	else
		s->u += a.u * b.u;
}

static struct ev_scalar acc_value(const struct acc *s)
{
	struct ev_scalar r = { { 0 }, 0 };

	if (xrt_dtype_is_complex(s->t)) {
		r.f = ev_round(s->t, creal(s->z));
		r.im = ev_round(s->t, cimag(s->z));
	} else if (xrt_dtype_is_float(s->t)) {
		r.f = ev_round(s->t, creal(s->z));
	} else {
		r = ev_wrap(s->t, s->u);
	}
	return r;
}

/* Result index: batch dims, then lhs free dims, then rhs free dims. */
static struct ev_val *dot(struct ev *ev, struct ev_val *const *ops)
{
	const struct ev_val *l = ops[0], *r = ops[1];
	uint32_t nlb, nrb, nlc, nrc, i, d, nfree;
	const int64_t *lb = ev_ints(ev, IR_ATTR_LHS_BATCH_DIMS, &nlb);
	const int64_t *rb = ev_ints(ev, IR_ATTR_RHS_BATCH_DIMS, &nrb);
	const int64_t *lc = ev_ints(ev, IR_ATTR_LHS_CONTRACTING_DIMS, &nlc);
	const int64_t *rc = ev_ints(ev, IR_ATTR_RHS_CONTRACTING_DIMS, &nrc);
	struct ev_val *out = ev_new(ev, &ev->in->shape);
	int64_t o[XRT_MAX_RANK] = { 0 }, cdims[XRT_MAX_RANK], k, j, cn = 1;

	if (!out)
		return NULL;
	for (i = 0; i < nlc; i++) {
		cdims[i] = l->shape.dims[lc[i]];
		cn *= cdims[i];
	}
	for (k = 0; k < out->n; k++, ev_next(out->shape.rank, out->shape.dims, o)) {
		int64_t li[XRT_MAX_RANK], ri[XRT_MAX_RANK], c[XRT_MAX_RANK] = { 0 };
		struct acc s = { out->shape.dtype, 0, 0 };
		uint32_t at = nlb;

		for (i = 0; i < nlb; i++) {
			li[lb[i]] = o[i];
			ri[rb[i]] = o[i];
		}
		for (d = 0, nfree = 0; d < l->shape.rank; d++) {
			if (!ev_listed(lb, nlb, d) && !ev_listed(lc, nlc, d))
				li[d] = o[at + nfree++];
		}
		at += nfree;
		for (d = 0, nfree = 0; d < r->shape.rank; d++) {
			if (!ev_listed(rb, nrb, d) && !ev_listed(rc, nrc, d))
				ri[d] = o[at + nfree++];
		}
		for (j = 0; j < cn; j++, ev_next(nlc, cdims, c)) {
			for (i = 0; i < nlc; i++) {
				li[lc[i]] = c[i];
				ri[rc[i]] = c[i];
			}
			acc_add(&s, l->shape.dtype,
				l->e[ev_offset(l->shape.rank, l->shape.dims, li)], r->shape.dtype,
				r->e[ev_offset(r->shape.rank, r->shape.dims, ri)]);
		}
		out->e[k] = acc_value(&s);
	}
	return out;
}

/* dim_labels "b01f_01io->b01f": where batch, feature and each spatial dim are. */
struct labels {
	int b, f, sp[XRT_MAX_RANK];	/* input */
	int i, o, ksp[XRT_MAX_RANK];	/* kernel */
	int ob, of, osp[XRT_MAX_RANK];	/* output */
	uint32_t nsp;
};

static void read_part(const char *s, size_t len, char c1, char c2, int *p1, int *p2, int *sp,
		      uint32_t *nsp)
{
	size_t k;

	*nsp = 0;
	for (k = 0; k < len; k++) {
		if (s[k] == c1)
			*p1 = (int)k;
		else if (s[k] == c2)
			*p2 = (int)k;
		else if (s[k] >= '0' && s[k] <= '9' && s[k] - '0' < XRT_MAX_RANK)
			sp[s[k] - '0'] = (int)k, (*nsp)++;
	}
}

static void read_labels(const char *s, struct labels *L)
{
	const char *u = strchr(s, '_'), *arrow = strstr(s, "->");

	read_part(s, (size_t)(u - s), 'b', 'f', &L->b, &L->f, L->sp, &L->nsp);
	read_part(u + 1, (size_t)(arrow - u - 1), 'i', 'o', &L->i, &L->o, L->ksp, &L->nsp);
	read_part(arrow + 2, strlen(arrow + 2), 'b', 'f', &L->ob, &L->of, L->osp, &L->nsp);
}

/*
 * StableHLO's definition: with feature groups, input features and
 * output features split into as many groups and group g of the output
 * sees group g of the input; with batch groups, the input batch and the
 * output features split likewise.
 */
static struct ev_val *convolution(struct ev *ev, struct ev_val *const *ops)
{
	const struct ev_val *in = ops[0], *kr = ops[1];
	int64_t fgc = ev_int(ev, IR_ATTR_FEATURE_GROUP_COUNT, 1);
	int64_t bgc = ev_int(ev, IR_ATTR_BATCH_GROUP_COUNT, 1);
	struct ev_val *out = ev_new(ev, &ev->in->shape);
	int64_t o[XRT_MAX_RANK] = { 0 }, kdims[XRT_MAX_RANK + 1], k, j, kn = 1;
	const int64_t *w;
	struct labels L;
	uint32_t nw, d;

	if (!out)
		return NULL;
	w = ev_ints(ev, IR_ATTR_WINDOW, &nw);
	read_labels(ev_word(ev, IR_ATTR_DIM_LABELS), &L);
	/* Summed over: kernel input features, then kernel spatial positions. */
	kdims[0] = kr->shape.dims[L.i];
	for (d = 0; d < L.nsp; d++)
		kdims[1 + d] = kr->shape.dims[L.ksp[d]];
	for (d = 0; d <= L.nsp; d++)
		kn *= kdims[d];
	for (k = 0; k < out->n; k++, ev_next(out->shape.rank, out->shape.dims, o)) {
		int64_t of = o[L.of], nof = out->shape.dims[L.of], q[XRT_MAX_RANK + 1] = { 0 };
		int64_t fg = of / (nof / fgc), bg = of / (nof / bgc);
		struct acc s = { out->shape.dtype, 0, 0 };

		for (j = 0; j < kn; j++, ev_next(L.nsp + 1, kdims, q)) {
			int64_t ii[XRT_MAX_RANK], ki[XRT_MAX_RANK];
			bool inside = true;

			ii[L.b] = bg * (in->shape.dims[L.b] / bgc) + o[L.ob];
			ii[L.f] = fg * kdims[0] + q[0];
			ki[L.i] = q[0];
			ki[L.o] = of;
			for (d = 0; d < L.nsp && inside; d++) {
				const int64_t *f = w + d * IR_WINDOW_FIELDS;
				int64_t p = o[L.osp[d]] * f[1] + q[1 + d] * f[5] - f[2];

				ki[L.ksp[d]] = f[6] ? kdims[1 + d] - 1 - q[1 + d] : q[1 + d];
				inside = p >= 0 && p % f[4] == 0 && p / f[4] < in->shape.dims[L.sp[d]];
				ii[L.sp[d]] = inside ? p / f[4] : 0;
			}
			if (inside)
				acc_add(&s, in->shape.dtype,
					in->e[ev_offset(in->shape.rank, in->shape.dims, ii)],
					kr->shape.dtype,
					kr->e[ev_offset(kr->shape.rank, kr->shape.dims, ki)]);
		}
		out->e[k] = acc_value(&s);
	}
	return out;
}

struct ev_val *ev_contractions(struct ev *ev, struct ev_val *const *ops)
{
	return ev->in->op == XRT_OP_DOT ? dot(ev, ops) : convolution(ev, ops);
}
