// SPDX-License-Identifier: MIT
/*
 * Windowed opcodes.  A window at output position o covers, per
 * dimension, positions o * stride + w * window_dilation - pad_low of the
 * padded, base-dilated operand; positions in padding or in the holes of
 * base dilation hold no element and are skipped.
 */
#include <string.h>

#include "eval/eval.h"

struct window {
	uint32_t rank;
	int64_t size[XRT_MAX_RANK];
	const int64_t *f;	/* IR_WINDOW_FIELDS per dimension */
};

static void window_init(struct ev *ev, struct window *w)
{
	uint32_t d;

	w->f = ev_ints(ev, IR_ATTR_WINDOW, &w->rank);
	for (d = 0; d < w->rank; d++)
		w->size[d] = w->f[d * IR_WINDOW_FIELDS];
}

/* The operand index under window offset @wi at output @o; false if none. */
static bool window_source(const struct window *w, const int64_t *dims, const int64_t *o,
			  const int64_t *wi, int64_t *pos)
{
	uint32_t d;

	for (d = 0; d < w->rank; d++) {
		const int64_t *f = w->f + d * IR_WINDOW_FIELDS;
		int64_t p = o[d] * f[1] + wi[d] * f[5] - f[2];

		if (p < 0 || p % f[4])
			return false;
		pos[d] = p / f[4];
		if (pos[d] >= dims[d])
			return false;
	}
	return true;
}

static struct ev_val *reduce_window(struct ev *ev, struct ev_val *const *ops)
{
	uint32_t n = ev->in->num_operands / 2, i;
	const struct ir_comp *f = ev_comp(ev, IR_ATTR_TO_APPLY, 0);
	struct ev_val *r = ev_new(ev, &ev->in->shape), *out0;
	const int64_t *dims = ops[0]->shape.dims;
	enum xrt_dtype types[2 * XRT_MAX_RANK];
	struct ev_scalar acc[XRT_MAX_RANK], args[2 * XRT_MAX_RANK];
	int64_t o[XRT_MAX_RANK] = { 0 }, k, j, wn = 1;
	struct window w;

	if (!r)
		return NULL;
	window_init(ev, &w);
	for (i = 0; i < w.rank; i++)
		wn *= w.size[i];
	for (i = 0; i < n; i++)
		types[i] = types[n + i] = ops[i]->shape.dtype;
	out0 = n == 1 ? r : r->elems[0];
	for (k = 0; k < out0->n; k++, ev_next(w.rank, out0->shape.dims, o)) {
		int64_t wi[XRT_MAX_RANK] = { 0 }, pos[XRT_MAX_RANK];

		for (i = 0; i < n; i++)
			acc[i] = ops[n + i]->e[0];
		for (j = 0; j < wn; j++, ev_next(w.rank, w.size, wi)) {
			int64_t off;

			if (!window_source(&w, dims, o, wi, pos))
				continue;
			off = ev_offset(w.rank, dims, pos);
			for (i = 0; i < n; i++) {
				args[i] = acc[i];
				args[n + i] = ops[i]->e[off];
			}
			if (!ev_call_scalars(ev, f, types, args, 2 * n, acc, n)) {
				ev_free(ev, r);
				return NULL;
			}
		}
		for (i = 0; i < n; i++)
			(n == 1 ? r : r->elems[i])->e[k] = acc[i];
	}
	return r;
}

/*
 * Per source element: the window's first element is selected, then each
 * later one replaces it unless select(selected, candidate) holds; the
 * source value is scattered onto the selected position.
 */
static struct ev_val *select_and_scatter(struct ev *ev, struct ev_val *const *ops)
{
	const struct ir_comp *sel = ev_comp(ev, IR_ATTR_SELECT, 0);
	const struct ir_comp *sct = ev_comp(ev, IR_ATTR_SCATTER, 0);
	const struct ev_val *a = ops[0], *src = ops[1];
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	enum xrt_dtype t = a->shape.dtype, types[2] = { t, t };
	int64_t o[XRT_MAX_RANK] = { 0 }, k, j, wn = 1;
	struct ev_scalar args[2], res;
	struct window w;
	uint32_t i;

	if (!r)
		return NULL;
	window_init(ev, &w);
	for (i = 0; i < w.rank; i++)
		wn *= w.size[i];
	for (k = 0; k < r->n; k++)
		r->e[k] = ops[2]->e[0];
	for (k = 0; k < src->n; k++, ev_next(w.rank, src->shape.dims, o)) {
		int64_t wi[XRT_MAX_RANK] = { 0 }, pos[XRT_MAX_RANK], best = -1, off;

		for (j = 0; j < wn; j++, ev_next(w.rank, w.size, wi)) {
			if (!window_source(&w, a->shape.dims, o, wi, pos))
				continue;
			off = ev_offset(w.rank, a->shape.dims, pos);
			if (best >= 0) {
				args[0] = a->e[best];
				args[1] = a->e[off];
				if (!ev_call_scalars(ev, sel, types, args, 2, &res, 1))
					goto fail;
				if (res.u)
					continue;
			}
			best = off;
		}
		if (best < 0)
			continue;
		args[0] = r->e[best];
		args[1] = src->e[k];
		if (!ev_call_scalars(ev, sct, types, args, 2, &r->e[best], 1))
			goto fail;
	}
	return r;
fail:
	ev_free(ev, r);
	return NULL;
}

struct ev_val *ev_windows(struct ev *ev, struct ev_val *const *ops)
{
	if (ev->in->op == XRT_OP_REDUCE_WINDOW)
		return reduce_window(ev, ops);
	return select_and_scatter(ev, ops);
}
