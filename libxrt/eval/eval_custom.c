// SPDX-License-Identifier: MIT
/*
 * custom-call: the registered handler of its target, called with each
 * operand array as dense row-major bytes (or in the layout its
 * operand_layout_constraints give) and room for each result array in its
 * shape's layout, which is read back element by element; a typed FFI
 * call gets its backend_config dictionary, any other its backend_config
 * string.
 */
#include <stdio.h>
#include <string.h>

#include "core/ffi.h"
#include "core/mem.h"
#include "eval/eval.h"

/* @v's arrays into @out from *@n, depth first. */
static void leaves(struct ev_val *v, struct ev_val **out, uint32_t *n)
{
	uint32_t i;

	if (!xrt_shape_is_tuple(&v->shape)) {
		out[(*n)++] = v;
		return;
	}
	for (i = 0; i < v->num_elems; i++)
		leaves(v->elems[i], out, n);
}

/* The element strides of @rank dims @dims in layout @m2m, into @strides. */
static void strides_of(uint32_t rank, const int64_t *dims, const uint8_t *m2m, int64_t *strides)
{
	struct xrt_shape s = { .rank = rank, .dtype = XRT_F32 };

	memcpy(s.dims, dims, rank * sizeof(*dims));
	memcpy(s.minor_to_major, m2m, rank);
	xrt_shape_strides(&s, strides);
}

/* Where element @k (row-major order) of @dims goes under @strides, in elements. */
static int64_t place(uint32_t rank, const int64_t *dims, const int64_t *strides, int64_t k)
{
	int64_t off = 0;
	int d;

	for (d = (int)rank - 1; d >= 0; d--) {
		off += k % dims[d] * strides[d];
		k /= dims[d];
	}
	return off;
}

/* A buffer of @v's array in layout @m2m, its elements stored when @fill. */
static bool to_buffer(struct ev *ev, const struct ev_val *v, const uint8_t *m2m, bool fill,
		      struct xrt_ffi_buffer *b)
{
	size_t size = xrt_dtype_size(v->shape.dtype);
	int64_t k, strides[XRT_MAX_RANK];

	b->dtype = v->shape.dtype;
	b->rank = v->shape.rank;
	b->dims = v->shape.dims;
	b->size = (uint64_t)v->n * size;
	b->data = xrt_mem_calloc(ev->a, (size_t)b->size + 1, 1);
	if (!b->data) {
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		return false;
	}
	strides_of(b->rank, b->dims, m2m, strides);
	for (k = 0; fill && k < v->n; k++)
		ev_store_bytes(v->shape.dtype, v->e[k],
			       (char *)b->data + place(b->rank, b->dims, strides, k) * size);
	return true;
}

struct frame {
	struct ev_val **arg_leaves, **res_leaves;
	const struct xrt_shape **res_shapes;	/* the instruction's, layouts and all */
	struct xrt_ffi_buffer *bufs;	/* the arguments', then the results' */
	uint32_t num_args, num_results;
	struct xrt_ffi_attrs *attrs;
};

/* The arrays of shape @s into @out from *@n, depth first. */
static void leaf_shapes(const struct xrt_shape *s, const struct xrt_shape **out, uint32_t *n)
{
	uint32_t i;

	if (!xrt_shape_is_tuple(s)) {
		out[(*n)++] = s;
		return;
	}
	for (i = 0; i < s->tuple_count; i++)
		leaf_shapes(&s->tuple[i], out, n);
}

/* The row-major layout of @rank dims into @m2m. */
static void row_major(uint32_t rank, uint8_t *m2m)
{
	uint32_t d;

	for (d = 0; d < rank; d++)
		m2m[d] = (uint8_t)(rank - 1 - d);
}

static bool build(struct ev *ev, struct ev_val *const *ops, struct ev_val *out, struct frame *f)
{
	uint32_t na = 0, nr = (uint32_t)xrt_shape_leaf_count(&out->shape), i, k;
	uint8_t m2m[XRT_MAX_RANK];

	for (i = 0; i < ev->in->num_operands; i++)
		na += (uint32_t)xrt_shape_leaf_count(&ops[i]->shape);
	f->arg_leaves = xrt_mem_calloc(ev->a, na + 1, sizeof(*f->arg_leaves));
	f->res_leaves = xrt_mem_calloc(ev->a, nr + 1, sizeof(*f->res_leaves));
	f->bufs = xrt_mem_calloc(ev->a, na + nr + 1, sizeof(*f->bufs));
	f->res_shapes = xrt_mem_calloc(ev->a, nr + 1, sizeof(*f->res_shapes));
	if (!f->arg_leaves || !f->res_leaves || !f->bufs || !f->res_shapes) {
		ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
		return false;
	}
	for (i = 0; i < ev->in->num_operands; i++)
		leaves(ops[i], f->arg_leaves, &f->num_args);
	leaves(out, f->res_leaves, &f->num_results);
	k = 0;
	leaf_shapes(&ev->in->shape, f->res_shapes, &k);
	for (i = 0, k = 0; k < ev->in->num_operands; k++) {
		uint32_t end = i + (uint32_t)xrt_shape_leaf_count(&ops[k]->shape);
		bool laid = ir_operand_layout(ev->in, k, m2m);	/* on an array operand */

		for (; i < end; i++) {
			if (!laid)
				row_major(f->arg_leaves[i]->shape.rank, m2m);
			if (!to_buffer(ev, f->arg_leaves[i], m2m, true, &f->bufs[i]))
				return false;
		}
	}
	for (i = 0; i < nr; i++)
		if (!to_buffer(ev, f->res_leaves[i], f->res_shapes[i]->minor_to_major, false,
			       &f->bufs[na + i]))
			return false;
	return true;
}

static void frame_free(struct ev *ev, struct frame *f)
{
	uint32_t i;

	for (i = 0; f->bufs && i < f->num_args + f->num_results; i++)
		xrt_mem_free(ev->a, f->bufs[i].data);
	xrt_mem_free(ev->a, f->bufs);
	xrt_mem_free(ev->a, f->arg_leaves);
	xrt_mem_free(ev->a, f->res_leaves);
	xrt_mem_free(ev->a, f->res_shapes);
	xffi_attrs_free(ev->a, f->attrs);
}

/* The call of ev->in: its handler, then the results read back into their leaves. */
static bool run(struct ev *ev, struct frame *f)
{
	const char *cfg = ev_word(ev, IR_ATTR_BACKEND_CONFIG);
	bool typed = ir_is_typed_ffi(ev->in);
	struct xrt_ffi_call call;
	char where[160];
	xrt_status *st;
	uint32_t i;
	int64_t k, strides[XRT_MAX_RANK];

	st = xffi_attrs_parse(ev->a, typed && cfg ? cfg : "", typed && cfg ? strlen(cfg) : 0,
			      &f->attrs);
	if (st) {
		ev->err = st;
		return false;
	}
	snprintf(where, sizeof(where), "evaluate: computation '%s', instruction '%s'",
		 ev->c->name, ev->in->name);
	call = (struct xrt_ffi_call){
		ev_word(ev, IR_ATTR_CUSTOM_CALL_TARGET), where, f->num_args, f->bufs,
		f->num_results, f->bufs + f->num_args, f->attrs,
		!typed && cfg ? cfg : "", !typed && cfg ? strlen(cfg) : 0,
	};
	ev->err = xffi_run(&call, ev->a);
	for (i = 0; !ev->err && i < f->num_results; i++) {
		struct ev_val *r = f->res_leaves[i];
		size_t size = xrt_dtype_size(r->shape.dtype);

		strides_of(r->shape.rank, r->shape.dims, f->res_shapes[i]->minor_to_major, strides);
		for (k = 0; k < r->n; k++)
			r->e[k] = ev_load_bytes(r->shape.dtype, (const char *)call.results[i].data +
						place(r->shape.rank, r->shape.dims, strides, k) * size);
	}
	return !ev->err;
}

struct ev_val *ev_custom_call(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *out = ev_new(ev, &ev->in->shape);
	struct frame f = { 0 };
	bool ok;

	if (!out)
		return NULL;
	ok = build(ev, ops, out, &f) && run(ev, &f);
	frame_free(ev, &f);
	if (ok)
		return out;
	ev_free(ev, out);
	return NULL;
}
