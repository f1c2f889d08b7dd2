// SPDX-License-Identifier: MIT
/*
 * scatter: XLA's checks of the dimension numbers, of the updates' shape
 * against the operand and the indices, and of the update computation,
 * which combines two scalars of the operand's type into one.  The
 * variadic form scatters n operands of one set of dimensions at the same
 * indices, (operands..., indices, updates...), its computation taking
 * the n current values and the n updates and giving n values.
 */
#include <string.h>

#include "verify.h"

static bool sorted(const int64_t *d, uint32_t n)
{
	uint32_t i;

	for (i = 1; i < n; i++) {
		if (d[i] <= d[i - 1])
			return false;
	}
	return true;
}

static bool contains(const int64_t *d, uint32_t n, int64_t x)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (d[i] == x)
			return true;
	}
	return false;
}

static int check_combiner(struct vfy *v, enum xrt_dtype t)
{
	const struct xrt_shape *p0, *p1, *r;
	const struct ir_comp *f;

	if (vfy_called(v, IR_ATTR_TO_APPLY, &f))
		return -1;
	if (f->num_params != 2)
		return vfy_fail(v, "update computation '%s' takes %u parameters, expected 2",
				f->name, f->num_params);
	p0 = vfy_param_shape(f, 0);
	p1 = vfy_param_shape(f, 1);
	r = vfy_root_shape(f);
	if (!p0 || !p1 || xrt_shape_is_tuple(p0) || xrt_shape_is_tuple(p1) ||
	    xrt_shape_is_tuple(r) || p0->rank || p1->rank || r->rank ||
	    p0->dtype != t || p1->dtype != t || r->dtype != t)
		return vfy_fail(v, "update computation '%s' is not (%s[], %s[]) -> %s[]",
				f->name, xrt_dtype_name(t), xrt_dtype_name(t),
				xrt_dtype_name(t));
	return 0;
}

/* The updates' window dimensions fit in the operand's, skipping inserted ones. */
static int check_window(struct vfy *v, const struct xrt_shape *a, const struct xrt_shape *u,
			const int64_t *uwd, uint32_t nuwd, const int64_t *iwd, uint32_t niwd)
{
	uint32_t i, k = 0;

	for (i = 0; i < a->rank && k < nuwd; i++) {
		if (contains(iwd, niwd, i))
			continue;
		if (u->dims[uwd[k]] > a->dims[i])
			return vfy_fail(v, "update window dimension %lld (%lld) exceeds operand "
					"dimension %u (%lld)", (long long)uwd[k],
					(long long)u->dims[uwd[k]], i, (long long)a->dims[i]);
		k++;
	}
	return 0;
}

/* The updates' other dimensions are the indices' batch dimensions, in order. */
static int check_scatter_dims(struct vfy *v, const struct xrt_shape *ix,
			      const struct xrt_shape *u, const int64_t *uwd, uint32_t nuwd,
			      int64_t ivd)
{
	uint32_t i, k = 0;

	for (i = 0; i < u->rank; i++) {
		if (contains(uwd, nuwd, i))
			continue;
		if (k == ivd)
			k++;
		if (u->dims[i] != ix->dims[k])
			return vfy_fail(v, "updates dimension %u (%lld) differs from indices "
					"dimension %u (%lld)", i, (long long)u->dims[i], k,
					(long long)ix->dims[k]);
		k++;
	}
	return 0;
}

static bool same_dims(const struct xrt_shape *a, const struct xrt_shape *b)
{
	return a->rank == b->rank && !memcmp(a->dims, b->dims, a->rank * sizeof(a->dims[0]));
}

/* n operands of one set of dimensions, and n updates of another, each of its operand's type. */
static int check_operands(struct vfy *v, uint32_t n, enum xrt_dtype *types)
{
	const struct xrt_shape *a, *u;
	uint32_t k;

	if (v->in->num_operands < 3 || v->in->num_operands % 2 == 0 ||
	    v->in->num_operands > 2 * XRT_MAX_RANK + 1)
		return vfy_fail(v, "%u operands, expected n operands, the indices and n updates "
				"(n from 1 to %d)", v->in->num_operands, XRT_MAX_RANK);
	for (k = 0; k < n; k++) {
		if (vfy_array(v, k) || vfy_array(v, n + 1 + k))
			return -1;
		a = vfy_opnd(v, k);
		u = vfy_opnd(v, n + 1 + k);
		if (u->dtype != a->dtype)
			return vfy_fail(v, n == 1 ? "updates' type differs from the operand's" :
					"updates %u's type differs from operand %u's", k, k);
		if (k && !same_dims(a, vfy_opnd(v, 0)))
			return vfy_fail(v, "operand %u's dimensions differ from operand 0's", k);
		if (k && !same_dims(u, vfy_opnd(v, n + 1)))
			return vfy_fail(v, "updates %u's dimensions differ from updates 0's", k);
		types[k] = a->dtype;
	}
	return vfy_array(v, n);
}

int vfy_scatter(struct vfy *v)
{
	uint32_t n = v->in->num_operands / 2, nuwd, niwd, nmap, batch;
	const struct xrt_shape *a = vfy_opnd(v, 0), *ix, *u;
	enum xrt_dtype types[XRT_MAX_RANK];
	const int64_t *uwd, *iwd, *map;
	const struct ir_comp *f;
	int64_t ivd, ivlen;

	/* The HLO reader rewrites them away (hlo_batching.c); no other path does yet. */
	if (ir_instr_attr(v->in, IR_ATTR_INPUT_BATCHING_DIMS) ||
	    ir_instr_attr(v->in, IR_ATTR_SCATTER_INDICES_BATCHING_DIMS))
		return vfy_fail(v, "batching dimensions are taken from HLO text only");
	if (check_operands(v, n, types) ||
	    vfy_ints(v, IR_ATTR_UPDATE_WINDOW_DIMS, &uwd, &nuwd) ||
	    vfy_ints(v, IR_ATTR_INSERTED_WINDOW_DIMS, &iwd, &niwd) ||
	    vfy_ints(v, IR_ATTR_SCATTER_DIMS_TO_OPERAND_DIMS, &map, &nmap) ||
	    vfy_int(v, IR_ATTR_INDEX_VECTOR_DIM, &ivd))
		return -1;
	ix = vfy_opnd(v, n);
	u = vfy_opnd(v, n + 1);
	if (!xrt_dtype_is_integer(ix->dtype))
		return vfy_fail(v, "indices are not integers");
	if (ivd < 0 || ivd > ix->rank)
		return vfy_fail(v, "index_vector_dim %lld out of range", (long long)ivd);
	if (vfy_dims_in_range(v, "update_window_dims", uwd, nuwd, u->rank) ||
	    vfy_dims_in_range(v, "inserted_window_dims", iwd, niwd, a->rank) ||
	    vfy_dims_in_range(v, "scatter_dims_to_operand_dims", map, nmap, a->rank))
		return -1;
	if (!sorted(uwd, nuwd) || !sorted(iwd, niwd))
		return vfy_fail(v, "update_window_dims and inserted_window_dims must be sorted");
	ivlen = ivd < ix->rank ? ix->dims[ivd] : 1;
	if (ivlen != nmap)
		return vfy_fail(v, "index vectors of %lld entries for %u "
				"scatter_dims_to_operand_dims", (long long)ivlen, nmap);
	if (nuwd + niwd != a->rank)
		return vfy_fail(v, "%u window and %u inserted dimensions for an operand of rank %u",
				nuwd, niwd, a->rank);
	batch = ix->rank - (ivd < ix->rank);
	if (u->rank != batch + nuwd)
		return vfy_fail(v, "updates have rank %u, expected %u", u->rank, batch + nuwd);
	if (check_window(v, a, u, uwd, nuwd, iwd, niwd) ||
	    check_scatter_dims(v, ix, u, uwd, nuwd, ivd))
		return -1;
	if (n == 1)
		return check_combiner(v, a->dtype) || vfy_result_is(v, a);
	if (vfy_called(v, IR_ATTR_TO_APPLY, &f) || vfy_reducer(v, f, n, types, false))
		return -1;
	return vfy_results(v, n, types, a->rank, a->dims);
}
