// SPDX-License-Identifier: MIT
/*
 * reduce and sort: both call a computation on scalars, element by
 * element, in row-major order.  Sorting is a merge sort, stable always
 * (which is also a valid unstable sort).
 */
#include <string.h>

#include "core/mem.h"
#include "eval/eval.h"

/* Output @i of a one-array-or-tuple result. */
static struct ev_val *part(struct ev_val *r, uint32_t n, uint32_t i)
{
	return n == 1 ? r : r->elems[i];
}

/*
 * ADD or MULTIPLY when @f is just that of its two parameters, else
 * XRT_OP_COUNT.
 */
static enum xrt_opcode plain_reducer(const struct ir_comp *f)
{
	const struct ir_instr *r = &f->instrs[f->root];
	const struct ir_instr *a, *b;

	if (f->num_params != 2 || (r->op != XRT_OP_ADD && r->op != XRT_OP_MULTIPLY) ||
	    r->num_operands != 2)
		return XRT_OP_COUNT;
	a = &f->instrs[r->operands[0]];
	b = &f->instrs[r->operands[1]];
	if (a->op != XRT_OP_PARAMETER || b->op != XRT_OP_PARAMETER ||
	    a->parameter == b->parameter)
		return XRT_OP_COUNT;
	return r->op;
}

/*
 * A sum or product of f16 or bf16 accumulates in f32 and rounds once at
 * the end, as the devices do (cmd_reduce.c): in 16 bits a long sum
 * stops growing once it outgrows its addends.
 */
static bool widened(struct ev *ev, struct ev_val *const *ops, struct ev_val *r,
		    const struct ir_comp *f)
{
	enum xrt_dtype t = ops[0]->shape.dtype;
	uint32_t nd, d, nk;
	const int64_t *dims = ev_ints(ev, IR_ATTR_DIMENSIONS, &nd);
	int64_t idx[XRT_MAX_RANK] = { 0 }, kept[XRT_MAX_RANK], k, o;
	enum xrt_opcode op = plain_reducer(f);
	const struct ev_val *a = ops[0];

	if (ev->in->num_operands != 2 || (t != XRT_F16 && t != XRT_BF16 && !xrt_dtype_is_small_float(t)) || op == XRT_OP_COUNT)
		return false;
	for (k = 0; k < a->n; k++, ev_next(a->shape.rank, a->shape.dims, idx)) {
		double *acc;

		for (d = 0, nk = 0; d < a->shape.rank; d++) {
			if (!ev_listed(dims, nd, d))
				kept[nk++] = idx[d];
		}
		o = ev_offset(nk, r->shape.dims, kept);
		acc = &r->e[o].f;
		*acc = (float)(op == XRT_OP_ADD ? *acc + a->e[k].f : *acc * a->e[k].f);
	}
	for (o = 0; o < r->n; o++)
		r->e[o].f = ev_round(t, r->e[o].f);
	return true;
}

static struct ev_val *reduce(struct ev *ev, struct ev_val *const *ops)
{
	uint32_t n = ev->in->num_operands / 2, nd, i, d;
	const int64_t *dims = ev_ints(ev, IR_ATTR_DIMENSIONS, &nd);
	const struct ir_comp *f = ev_comp(ev, IR_ATTR_TO_APPLY, 0);
	const struct ev_val *a = ops[0];
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	enum xrt_dtype types[2 * XRT_MAX_RANK];
	struct ev_scalar args[2 * XRT_MAX_RANK];
	int64_t idx[XRT_MAX_RANK] = { 0 }, k, o;

	if (!r)
		return NULL;
	for (i = 0; i < n; i++) {
		types[i] = types[n + i] = ops[i]->shape.dtype;
		for (k = 0; k < part(r, n, i)->n; k++)
			part(r, n, i)->e[k] = ops[n + i]->e[0];
	}
	if (widened(ev, ops, r, f))
		return r;
	/* Each input element, in row-major order, folds into its output. */
	for (k = 0; k < a->n; k++, ev_next(a->shape.rank, a->shape.dims, idx)) {
		int64_t kept[XRT_MAX_RANK];
		uint32_t nk = 0;
		struct ev_scalar res[XRT_MAX_RANK];

		for (d = 0; d < a->shape.rank; d++) {
			if (!ev_listed(dims, nd, d))
				kept[nk++] = idx[d];
		}
		o = ev_offset(nk, part(r, n, 0)->shape.dims, kept);
		for (i = 0; i < n; i++) {
			args[i] = part(r, n, i)->e[o];
			args[n + i] = ops[i]->e[k];
		}
		if (!ev_call_scalars(ev, f, types, args, 2 * n, res, n)) {
			ev_free(ev, r);
			return NULL;
		}
		for (i = 0; i < n; i++)
			part(r, n, i)->e[o] = res[i];
	}
	return r;
}

struct sorter {
	struct ev *ev;
	const struct ir_comp *cmp;
	struct ev_val *const *ops;
	uint32_t n;
	int64_t base, step;	/* element j of the row is at base + j * step */
	enum xrt_dtype types[2 * XRT_MAX_RANK];
};

/* comparator(a_0[x], a_0[y], a_1[x], a_1[y], ...) */
static bool less(struct sorter *s, int64_t x, int64_t y)
{
	struct ev_scalar args[2 * XRT_MAX_RANK], res;
	uint32_t i;

	for (i = 0; i < s->n; i++) {
		args[2 * i] = s->ops[i]->e[s->base + x * s->step];
		args[2 * i + 1] = s->ops[i]->e[s->base + y * s->step];
	}
	return ev_call_scalars(s->ev, s->cmp, s->types, args, 2 * s->n, &res, 1) && res.u;
}

/* Stable merge sort of positions @p[0..n) using @tmp. */
static void merge_sort(struct sorter *s, int64_t *p, int64_t *tmp, int64_t n)
{
	int64_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_sort(s, p, tmp, h);
	merge_sort(s, p + h, tmp, n - h);
	while (i < h && j < n && !s->ev->err)	/* the right one goes first only if less */
		tmp[k++] = less(s, p[j], p[i]) ? p[j++] : p[i++];
	while (i < h)
		tmp[k++] = p[i++];
	while (j < n)
		tmp[k++] = p[j++];
	memcpy(p, tmp, (size_t)n * sizeof(*p));
}

static struct ev_val *sort(struct ev *ev, struct ev_val *const *ops)
{
	struct sorter s = { ev, ev_comp(ev, IR_ATTR_TO_APPLY, 0), ops, ev->in->num_operands };
	const struct ev_val *a = ops[0];
	int64_t d = ev_int(ev, IR_ATTR_DIMENSIONS, 0), len = a->shape.dims[d];
	int64_t idx[XRT_MAX_RANK] = { 0 }, *perm, *tmp, k, j;
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	uint32_t i;

	perm = xrt_mem_calloc(ev->a, (size_t)len + 1, sizeof(*perm));
	tmp = xrt_mem_calloc(ev->a, (size_t)len + 1, sizeof(*tmp));
	if (!perm || !tmp || !r) {
		if (!ev->err)
			ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		goto fail;
	}
	for (i = 0; i < s.n; i++)
		s.types[2 * i] = s.types[2 * i + 1] = ops[i]->shape.dtype;
	s.step = 1;
	for (i = (uint32_t)d + 1; i < a->shape.rank; i++)
		s.step *= a->shape.dims[i];
	/* Each row along d starts where idx[d] is 0. */
	for (k = 0; k < a->n && len; k++, ev_next(a->shape.rank, a->shape.dims, idx)) {
		if (idx[d])
			continue;
		s.base = k;
		for (j = 0; j < len; j++)
			perm[j] = j;
		merge_sort(&s, perm, tmp, len);
		if (ev->err)
			goto fail;
		for (i = 0; i < s.n; i++) {
			for (j = 0; j < len; j++)
				part(r, s.n, i)->e[k + j * s.step] = ops[i]->e[k + perm[j] * s.step];
		}
	}
	xrt_mem_free(ev->a, perm);
	xrt_mem_free(ev->a, tmp);
	return r;
fail:
	xrt_mem_free(ev->a, perm);
	xrt_mem_free(ev->a, tmp);
	ev_free(ev, r);
	return NULL;
}

struct ev_val *ev_reductions(struct ev *ev, struct ev_val *const *ops)
{
	return ev->in->op == XRT_OP_REDUCE ? reduce(ev, ops) : sort(ev, ops);
}
