// SPDX-License-Identifier: MIT
/*
 * Lowerings of the shape ops: Reshape, Transpose, ExpandDims, ConcatV2,
 * Pack, Fill, ZerosLike, OnesLike, Range, Pad, Slice, Tile.  Shapes,
 * axes and sizes come from constant inputs.
 */
#include <math.h>
#include <string.h>

#include "eager_internal.h"

static const struct xrt_shape *shape_of(const struct lowering *l, xrt_value v)
{
	return xrt_value_shape(l->b, v);
}

static uint64_t count_of(const int64_t *dims, uint32_t rank)
{
	uint64_t n = 1;
	uint32_t i;

	for (i = 0; i < rank; i++)
		n *= (uint64_t)dims[i];
	return n;
}

xrt_status *eager_lower_reshape(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t dims[XRT_MAX_RANK];
	uint32_t n, i, unknown = XRT_MAX_RANK;
	uint64_t known = 1, total;
	xrt_status *st;

	if (!s)
		return NULL;
	total = count_of(s->dims, s->rank);
	st = eager_const_ints(l, 1, dims, XRT_MAX_RANK, &n);
	if (st)
		return st;
	for (i = 0; i < n; i++) {
		if (dims[i] == -1 && unknown == XRT_MAX_RANK)
			unknown = i;
		else if (dims[i] < 0)
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "bad size %lld in shape",
					      (long long)dims[i]);
		else
			known *= (uint64_t)dims[i];
	}
	if (unknown < XRT_MAX_RANK && known && !(total % known))
		dims[unknown] = (int64_t)(total / known);
	if ((unknown < XRT_MAX_RANK && (!known || total % known)) ||
	    count_of(dims, n) != total)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "cannot reshape %llu elements to that shape",
				      (unsigned long long)total);
	l->out[0] = xrt_build_reshape(l->b, l->in[0], n, dims);
	return NULL;
}

xrt_status *eager_lower_transpose(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t perm[XRT_MAX_RANK];
	bool seen[XRT_MAX_RANK] = { false };
	uint32_t n, i;
	xrt_status *st;

	if (!s)
		return NULL;
	st = eager_const_ints(l, 1, perm, XRT_MAX_RANK, &n);
	if (st)
		return st;
	if (n != s->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "perm has %u entries for rank %u", n,
				      s->rank);
	for (i = 0; i < n; i++) {
		if (perm[i] < 0 || perm[i] >= n || seen[perm[i]])
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "perm is not a permutation");
		seen[perm[i]] = true;
	}
	l->out[0] = xrt_build_transpose(l->b, l->in[0], perm);
	return NULL;
}

xrt_status *eager_lower_expand_dims(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t dims[XRT_MAX_RANK], at;
	uint32_t n, i, k = 0;
	xrt_status *st;

	if (!s)
		return NULL;
	st = eager_const_ints(l, 1, &at, 1, &n);
	if (st)
		return st;
	if (at < 0)
		at += s->rank + 1;
	if (n != 1 || at < 0 || at > s->rank || s->rank >= XRT_MAX_RANK)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "dim out of range for rank %u",
				      s->rank);
	for (i = 0; i <= s->rank; i++)
		dims[i] = i == at ? 1 : s->dims[k++];
	l->out[0] = xrt_build_reshape(l->b, l->in[0], s->rank + 1, dims);
	return NULL;
}

/* ConcatV2: the list inputs, then the constant axis. */
xrt_status *eager_lower_concat(struct lowering *l)
{
	uint32_t n = l->num_in - 1, i, d, rank, cnt;
	const struct xrt_shape *s0 = shape_of(l, l->in[0]), *s;
	int64_t axis, d0[XRT_MAX_RANK];
	xrt_status *st;

	if (!s0)
		return NULL;
	rank = s0->rank;
	memcpy(d0, s0->dims, sizeof(d0));
	st = eager_const_ints(l, n, &axis, 1, &cnt);
	if (st)
		return st;
	if (axis < 0)
		axis += rank;
	if (cnt != 1 || axis < 0 || axis >= rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "axis out of range for rank %u", rank);
	for (i = 1; i < n; i++) {
		s = shape_of(l, l->in[i]);
		if (!s)
			return NULL;
		for (d = 0; d < rank; d++) {
			if (s->rank != rank || (d != axis && s->dims[d] != d0[d]))
				return eager_op_error(l, XRT_INVALID_ARGUMENT,
						      "input #%u does not match input #0 but along "
						      "the axis", i);
		}
	}
	l->out[0] = xrt_build_concatenate(l->b, l->in, n, axis);
	return NULL;
}

/* Pack: each input gets a size-1 dimension at axis, then they concatenate. */
xrt_status *eager_lower_pack(struct lowering *l)
{
	const struct xrt_shape *s0 = shape_of(l, l->in[0]);
	int64_t axis = eager_attr_int(l->op, "axis"), dims[XRT_MAX_RANK];
	xrt_value parts[EAGER_MAX_INPUTS];
	uint32_t i, k, rank;

	if (!s0)
		return NULL;
	rank = s0->rank;
	if (axis < 0)
		axis += rank + 1;
	if (axis < 0 || axis > rank || rank >= XRT_MAX_RANK)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "axis out of range for rank %u", rank);
	for (i = 0, k = 0; i <= rank; i++)
		dims[i] = i == axis ? 1 : s0->dims[k++];
	for (i = 0; i < l->num_in; i++) {
		const struct xrt_shape *s = shape_of(l, l->in[i]);

		if (s && !xrt_shape_equal(s, shape_of(l, l->in[0])))
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "input #%u differs in shape from input #0", i);
		parts[i] = xrt_build_reshape(l->b, l->in[i], rank + 1, dims);
	}
	l->out[0] = xrt_build_concatenate(l->b, parts, l->num_in, axis);
	return NULL;
}

/* Fill(dims, value); ZerosLike (code 1) and OnesLike (2) of their input. */
xrt_status *eager_lower_fill(struct lowering *l)
{
	const struct xrt_shape *s;
	int64_t dims[XRT_MAX_RANK];
	uint32_t n, i;
	xrt_status *st;

	if (l->op->def->code) {
		l->out[0] = eager_fill_like(l, l->in[0], l->op->def->code == 1 ? 0.0 : 1.0);
		return NULL;
	}
	st = eager_const_ints(l, 0, dims, XRT_MAX_RANK, &n);
	if (st)
		return st;
	s = shape_of(l, l->in[1]);
	if (s && s->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "value must be a scalar");
	for (i = 0; i < n; i++) {
		if (dims[i] < 0)
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "negative dimension");
	}
	l->out[0] = xrt_build_broadcast(l->b, l->in[1], n, dims, NULL);
	return NULL;
}

/* Range(start, limit, delta), all constant: start + delta * iota. */
xrt_status *eager_lower_range(struct lowering *l)
{
	enum xrt_dtype t = (enum xrt_dtype)eager_attr_int(l->op, "Tidx");
	double start, limit, delta, count;
	struct xrt_shape s;
	int64_t n;
	xrt_status *st;

	st = eager_const_scalar(l, 0, &start);
	if (!st)
		st = eager_const_scalar(l, 1, &limit);
	if (!st)
		st = eager_const_scalar(l, 2, &delta);
	if (st)
		return st;
	if (delta == 0 || (delta > 0 && limit < start) || (delta < 0 && limit > start))
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "delta %g does not lead from %g to %g", delta, start, limit);
	count = ceil((limit - start) / delta);
	if (!(count < (double)(1ull << 40)))
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "too many elements");
	n = (int64_t)count;
	st = xrt_shape_init_array(&s, t, 1, &n);
	if (st)
		return st;
	l->out[0] = xrt_build_binary(l->b, XRT_OP_ADD,
		xrt_build_binary(l->b, XRT_OP_MULTIPLY, xrt_build_iota(l->b, &s, 0),
				 xrt_build_broadcast(l->b, eager_scalar_of(l, t, delta), 1, &n, NULL)),
		xrt_build_broadcast(l->b, eager_scalar_of(l, t, start), 1, &n, NULL));
	return NULL;
}

/* Pad(input, paddings [rank, 2]) with zeros. */
xrt_status *eager_lower_pad(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t p[2 * XRT_MAX_RANK], lo[XRT_MAX_RANK], hi[XRT_MAX_RANK], in[XRT_MAX_RANK] = { 0 };
	const xrt_tensor *pt = l->consts[1];
	uint32_t i, rank;
	int64_t k;

	if (!s)
		return NULL;
	if (!pt)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "paddings must be a constant");
	rank = s->rank;
	if (pt->rank != 2 || pt->dims[0] != rank || pt->dims[1] != 2)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "paddings must be [%u, 2]", rank);
	for (k = 0; k < 2 * (int64_t)rank; k++)
		p[k] = pt->dtype == XRT_S64 ? ((const int64_t *)eager_tensor_values(pt))[k] :
					      ((const int32_t *)eager_tensor_values(pt))[k];
	for (i = 0; i < rank; i++) {
		lo[i] = p[2 * i];
		hi[i] = p[2 * i + 1];
		if (lo[i] < 0 || hi[i] < 0)
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "negative padding");
	}
	l->out[0] = xrt_build_pad(l->b, l->in[0], eager_scalar_of(l, s->dtype, 0), lo, hi, in);
	return NULL;
}

/* Slice(input, begin, size); a size of -1 runs to the end. */
xrt_status *eager_lower_slice(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t b[XRT_MAX_RANK], z[XRT_MAX_RANK], lim[XRT_MAX_RANK], one[XRT_MAX_RANK];
	uint32_t nb, nz, i;
	xrt_status *st;

	if (!s)
		return NULL;
	st = eager_const_ints(l, 1, b, XRT_MAX_RANK, &nb);
	if (!st)
		st = eager_const_ints(l, 2, z, XRT_MAX_RANK, &nz);
	if (st)
		return st;
	if (nb != s->rank || nz != s->rank)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "begin and size need %u entries",
				      s->rank);
	for (i = 0; i < s->rank; i++) {
		if (z[i] == -1)
			z[i] = s->dims[i] - b[i];
		if (b[i] < 0 || z[i] < 0 || b[i] + z[i] > s->dims[i])
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "dimension %u: [%lld, +%lld) is outside [0, %lld)", i,
					      (long long)b[i], (long long)z[i],
					      (long long)s->dims[i]);
		lim[i] = b[i] + z[i];
		one[i] = 1;
	}
	l->out[0] = xrt_build_slice(l->b, l->in[0], b, lim, one);
	return NULL;
}

/* Tile(input, multiples): broadcast to [m0, d0, m1, d1, ...], then merge pairs. */
xrt_status *eager_lower_tile(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t m[XRT_MAX_RANK], big[2 * XRT_MAX_RANK], bd[XRT_MAX_RANK], out[XRT_MAX_RANK];
	uint32_t n, i;
	xrt_status *st;
	xrt_value v;

	if (!s)
		return NULL;
	st = eager_const_ints(l, 1, m, XRT_MAX_RANK, &n);
	if (st)
		return st;
	if (n != s->rank || 2 * s->rank > XRT_MAX_RANK)
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "multiples need %u entries (and rank at most %d)", s->rank,
				      XRT_MAX_RANK / 2);
	for (i = 0; i < s->rank; i++) {
		if (m[i] < 0)
			return eager_op_error(l, XRT_INVALID_ARGUMENT, "negative multiple");
		big[2 * i] = m[i];
		big[2 * i + 1] = s->dims[i];
		bd[i] = 2 * i + 1;
		out[i] = m[i] * s->dims[i];
	}
	v = xrt_build_broadcast(l->b, l->in[0], 2 * s->rank, big, bd);
	l->out[0] = xrt_build_reshape(l->b, v, s->rank, out);
	return NULL;
}

/* One input dimension of a StridedSlice: [begin, end) by stride, or one index. */
struct ss_dim {
	int64_t begin, end, stride;
	bool shrink;
};

/*
 * Elements from @begin towards @end by @stride (begin and end clamped to
 * the dimension): without overflow for any stride, INT64_MIN included.
 */
static int64_t ss_count(int64_t begin, int64_t end, int64_t stride)
{
	if (stride > 0)
		return end > begin ? (end - begin - 1) / stride + 1 : 0;
	if (begin <= end)
		return 0;
	return (int64_t)((uint64_t)(begin - end - 1) / (0 - (uint64_t)stride)) + 1;
}

/* TensorFlow's masks and wrap-around, clamped; @shrink takes one index. */
static xrt_status *ss_resolve(struct lowering *l, int64_t dim, int64_t b, int64_t e,
			      int64_t s, bool bmask, bool emask, bool shrink, struct ss_dim *out)
{
	if (!s)
		return eager_op_error(l, XRT_INVALID_ARGUMENT, "a stride is 0");
	if (shrink) {
		if (b < 0)
			b += dim;
		if (b < 0 || b >= dim)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "index %lld is out of a dimension of %lld",
					      (long long)b, (long long)dim);
		*out = (struct ss_dim){ b, b + 1, 1, true };
		return NULL;
	}
	if (bmask)
		b = s > 0 ? 0 : dim - 1;
	else if (b < 0)
		b += dim;
	if (emask)
		e = s > 0 ? dim : -1;
	else if (e < 0)
		e += dim;
	/* clamp into [0, dim] going up, [-1, dim - 1] going down */
	if (s > 0) {
		b = b < 0 ? 0 : b > dim ? dim : b;
		e = e < 0 ? 0 : e > dim ? dim : e;
	} else {
		b = b < -1 ? -1 : b > dim - 1 ? dim - 1 : b;
		e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
	}
	*out = (struct ss_dim){ b, e, s, false };
	return NULL;
}

/*
 * StridedSlice(input, begin, end, strides) with begin_mask, end_mask,
 * ellipsis_mask, new_axis_mask and shrink_axis_mask: negative strides
 * reverse the dimension first, then one strided slice and a reshape.
 */
xrt_status *eager_lower_strided_slice(struct lowering *l)
{
	const struct xrt_shape *s = shape_of(l, l->in[0]);
	int64_t b[XRT_MAX_RANK * 2], e[XRT_MAX_RANK * 2], st[XRT_MAX_RANK * 2];
	int64_t bm = eager_attr_int(l->op, "begin_mask"), em = eager_attr_int(l->op, "end_mask");
	int64_t elm = eager_attr_int(l->op, "ellipsis_mask");
	int64_t nam = eager_attr_int(l->op, "new_axis_mask");
	int64_t sam = eager_attr_int(l->op, "shrink_axis_mask");
	int64_t start[XRT_MAX_RANK], limit[XRT_MAX_RANK], step[XRT_MAX_RANK], rev[XRT_MAX_RANK];
	int64_t dims[XRT_MAX_RANK], in_dims[XRT_MAX_RANK];
	struct ss_dim sd[XRT_MAX_RANK];
	uint32_t nb, ne, ns, i, d = 0, nrev = 0, out = 0, rank, after;
	xrt_status *err;
	xrt_value v;

	if (!s)
		return NULL;
	rank = s->rank;
	memcpy(in_dims, s->dims, sizeof(in_dims));
	err = eager_const_ints(l, 1, b, XRT_MAX_RANK * 2, &nb);
	if (!err)
		err = eager_const_ints(l, 2, e, XRT_MAX_RANK * 2, &ne);
	if (!err)
		err = eager_const_ints(l, 3, st, XRT_MAX_RANK * 2, &ns);
	if (err)
		return err;
	if (nb != ne || nb != ns || (elm & (elm - 1)))
		return eager_op_error(l, XRT_INVALID_ARGUMENT,
				      "begin, end and strides differ in length (or two ellipses)");
	for (i = 0; i < nb; i++) {
		if (elm >> i & 1) {
			/* the ellipsis covers the dims the entries after it do not */
			uint32_t k;

			for (after = 0, k = i + 1; k < nb; k++)
				after += !(nam >> k & 1);
			while (d + after < rank) {
				sd[d] = (struct ss_dim){ 0, in_dims[d], 1, false };
				dims[out++] = in_dims[d++];
			}
			continue;
		}
		if (nam >> i & 1) {
			if (out >= XRT_MAX_RANK)
				return eager_op_error(l, XRT_INVALID_ARGUMENT, "rank above 8");
			dims[out++] = 1;
			continue;
		}
		if (d >= rank)
			return eager_op_error(l, XRT_INVALID_ARGUMENT,
					      "more entries than the input's rank %u", rank);
		err = ss_resolve(l, in_dims[d], b[i], e[i], st[i], bm >> i & 1, em >> i & 1,
				 sam >> i & 1, &sd[d]);
		if (err)
			return err;
		if (!sd[d].shrink) {
			int64_t n = ss_count(sd[d].begin, sd[d].end, sd[d].stride);

			if (out >= XRT_MAX_RANK)
				return eager_op_error(l, XRT_INVALID_ARGUMENT, "rank above 8");
			dims[out++] = n;
		}
		d++;
	}
	for (; d < rank; d++) {
		sd[d] = (struct ss_dim){ 0, in_dims[d], 1, false };
		dims[out++] = in_dims[d];
	}
	/* A negative stride reads a reversed dimension forwards. */
	for (d = 0; d < rank; d++) {
		int64_t n = in_dims[d];

		if (sd[d].stride < 0) {
			rev[nrev++] = d;
			start[d] = n - 1 - sd[d].begin;
			limit[d] = n - 1 - sd[d].end;
			step[d] = -sd[d].stride;
		} else {
			start[d] = sd[d].begin;
			limit[d] = sd[d].end;
			step[d] = sd[d].stride;
		}
		if (limit[d] < start[d])
			limit[d] = start[d];
	}
	v = l->in[0];
	if (nrev)
		v = xrt_build_reverse(l->b, v, rev, nrev);
	v = xrt_build_slice(l->b, v, start, limit, step);
	l->out[0] = xrt_build_reshape(l->b, v, out, dims);
	return NULL;
}
