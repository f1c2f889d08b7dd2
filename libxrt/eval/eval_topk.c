// SPDX-License-Identifier: MIT
/*
 * topk: each row of the last dimension ordered by value, largest first
 * (smallest with largest=false), ties by index, the first k kept with
 * their indices.  Floats compare in total order, as XLA's CPU backend
 * orders them: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
 */
#include <string.h>

#include "core/mem.h"
#include "eval/eval.h"

/* An unsigned key whose order is the value's (for largest, its reverse). */
static uint64_t key_of(enum xrt_dtype t, struct ev_scalar x, bool largest)
{
	uint64_t k;

	if (xrt_dtype_is_float(t)) {
		memcpy(&k, &x.f, 8);	/* a double keeps the narrower float's order */
		k = k >> 63 ? ~k : k | UINT64_C(1) << 63;
	} else if (xrt_dtype_is_signed(t)) {
		k = x.u ^ UINT64_C(1) << 63;
	} else {
		k = x.u;
	}
	return largest ? ~k : k;
}

/* Stable merge sort of @p[0..n) by @key. */
static void merge_sort(int64_t *p, int64_t *tmp, int64_t n, const uint64_t *key)
{
	int64_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_sort(p, tmp, h, key);
	merge_sort(p + h, tmp, n - h, key);
	while (i < h && j < n)
		tmp[k++] = key[p[j]] < key[p[i]] ? p[j++] : p[i++];
	while (i < h)
		tmp[k++] = p[i++];
	while (j < n)
		tmp[k++] = p[j++];
	memcpy(p, tmp, (size_t)n * sizeof(*p));
}

struct ev_val *ev_topk(struct ev *ev, struct ev_val *const *ops)
{
	const struct ev_val *a = ops[0];
	const struct ir_attr *big = ir_instr_attr(ev->in, IR_ATTR_LARGEST);
	bool largest = !big || big->ints[0];
	int64_t len = a->shape.dims[a->shape.rank - 1], k = ev_int(ev, IR_ATTR_K, 0);
	int64_t rows = len ? a->n / len : 0, row, j, *perm, *tmp;
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	uint64_t *key;

	perm = xrt_mem_calloc(ev->a, (size_t)len + 1, sizeof(*perm));
	tmp = xrt_mem_calloc(ev->a, (size_t)len + 1, sizeof(*tmp));
	key = xrt_mem_calloc(ev->a, (size_t)len + 1, sizeof(*key));
	if (!perm || !tmp || !key || !r) {
		if (!ev->err)
			ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		ev_free(ev, r);
		r = NULL;
		goto out;
	}
	for (row = 0; row < rows; row++) {
		const struct ev_scalar *x = a->e + row * len;

		for (j = 0; j < len; j++) {
			perm[j] = j;
			key[j] = key_of(a->shape.dtype, x[j], largest);
		}
		merge_sort(perm, tmp, len, key);
		for (j = 0; j < k; j++) {
			r->elems[0]->e[row * k + j] = x[perm[j]];
			r->elems[1]->e[row * k + j].s = perm[j];
		}
	}
out:
	xrt_mem_free(ev->a, perm);
	xrt_mem_free(ev->a, tmp);
	xrt_mem_free(ev->a, key);
	return r;
}
