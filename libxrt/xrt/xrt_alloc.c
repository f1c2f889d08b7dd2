// SPDX-License-Identifier: MIT
/*
 * The allocation operations of the XRT API (the seed's XRTAllocate,
 * XRTReadLiteral, XRTSubTuple, XRTMakeTuple, XRTRelease...): argument
 * checks first, then trees built whole before any handle changes, so an
 * error leaves every handle as it was.
 */
#include <string.h>

#include "core/mem.h"
#include "xrt_internal.h"

#define MAX_DEPTH 64	/* of a make-tuple description */

static xrt_status *null_arg(xrt_session *s, const char *fn, const char *what)
{
	return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT, "%s: %s is NULL", fn, what);
}

static xrt_status *do_allocate(xrt_session *s, const xrt_literal *value, xrt_handle *out)
{
	struct xnode *n;
	xrt_status *st;

	if (!s || !value || !out)
		return null_arg(s, "allocate", !s ? "the session" : !value ? "value" : "out");
	st = xnode_from_literal(s, value, &n);
	return st ? st : xalloc_add(s, n, out);
}

xrt_status *xrt_allocate(xrt_session *s, const xrt_literal *value, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_allocate(s, value, out);

	xstat_record(s, XRT_STAT_ALLOCATE, t0, st);
	return st;
}

static xrt_status *do_allocate_data(xrt_session *s, const struct xrt_shape *shape, const void *data,
			      size_t size, xrt_handle *out)
{
	struct xnode *n;
	xrt_status *st;

	if (!s || !shape || (!data && size) || !out)
		return null_arg(s, "allocate data", !s ? "the session" : !shape ? "shape" :
				!out ? "out" : "data");
	st = xrt_shape_validate(shape);
	if (st)
		return st;
	if (xrt_shape_is_tuple(shape))
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "allocate data: a tuple shape (allocate a literal, or make "
				      "a tuple of arrays)");
	if (size != xrt_shape_byte_size(shape))
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "allocate data: %zu bytes for a shape of %llu", size,
				      (unsigned long long)xrt_shape_byte_size(shape));
	st = xnode_from_shape(s, shape, &n);
	if (st)
		return st;
	st = xdev_write(s->dev, &n->buf, 0, data, size, s->a);
	if (st) {
		xnode_unref(s, n);
		return st;
	}
	return xalloc_add(s, n, out);
}

xrt_status *xrt_allocate_data(xrt_session *s, const struct xrt_shape *shape, const void *data,
			      size_t size, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_allocate_data(s, shape, data, size, out);

	xstat_record(s, XRT_STAT_ALLOCATE, t0, st);
	return st;
}

static xrt_status *do_allocate_uninitialized(xrt_session *s, const struct xrt_shape *shape,
				       xrt_handle *out)
{
	struct xnode *n;
	xrt_status *st;

	if (!s || !shape || !out)
		return null_arg(s, "allocate", !s ? "the session" : !shape ? "shape" : "out");
	st = xrt_shape_validate(shape);
	if (!st)
		st = xnode_from_shape(s, shape, &n);
	return st ? st : xalloc_add(s, n, out);
}

xrt_status *xrt_allocate_uninitialized(xrt_session *s, const struct xrt_shape *shape,
				       xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_allocate_uninitialized(s, shape, out);

	xstat_record(s, XRT_STAT_ALLOCATE, t0, st);
	return st;
}

static xrt_status *do_write_literal(xrt_session *s, xrt_handle h, const xrt_literal *value)
{
	char have[128], want[128];
	struct xnode *n;
	xrt_status *st;

	if (!s || !value)
		return null_arg(s, "write literal", !s ? "the session" : "value");
	st = xalloc_get(s, h, &n);
	if (st)
		return st;
	if (!xrt_shape_compatible(xrt_literal_shape(value), &n->shape)) {
		xrt_shape_format(xrt_literal_shape(value), have, sizeof(have));
		xrt_shape_format(&n->shape, want, sizeof(want));
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "write literal: a %s literal into allocation %lld of %s", have,
				    (long long)h, want);
	} else {
		st = xnode_write(s, n, value);
	}
	xnode_unref(s, n);
	return st;
}

xrt_status *xrt_write_literal(xrt_session *s, xrt_handle h, const xrt_literal *value)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_write_literal(s, h, value);

	xstat_record(s, XRT_STAT_WRITE, t0, st);
	return st;
}

/* Releases @h if it is still there (another thread may have done it). */
static void drop(xrt_session *s, xrt_handle h)
{
	xnode_unref(s, xalloc_take(s, h));
}

static xrt_status *do_read_literal(xrt_session *s, xrt_handle h, bool release, xrt_literal **out)
{
	struct xnode *n;
	xrt_status *st;

	if (!s || !out)
		return null_arg(s, "read literal", !s ? "the session" : "out");
	*out = NULL;
	st = xalloc_get(s, h, &n);
	if (st)
		return st;
	st = xnode_to_literal(s, n, out);
	xnode_unref(s, n);
	if (!st && release)
		drop(s, h);
	return st;
}

xrt_status *xrt_read_literal(xrt_session *s, xrt_handle h, bool release, xrt_literal **out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_read_literal(s, h, release, out);

	xstat_record(s, XRT_STAT_READ, t0, st);
	return st;
}

static xrt_status *do_read_data(xrt_session *s, xrt_handle h, bool release, void *dst,
				size_t size)
{
	struct xnode *n;
	xrt_status *st;

	if (!s || (!dst && size))
		return null_arg(s, "read data", !s ? "the session" : "dst");
	st = xalloc_get(s, h, &n);
	if (st)
		return st;
	if (n->kids)
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "read data: allocation %lld is a tuple", (long long)h);
	else if (size != n->bytes)
		st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				    "read data: room for %zu bytes, allocation %lld has %llu", size,
				    (long long)h, (unsigned long long)n->bytes);
	else
		st = xnode_settle(s, n);
	if (!st)
		st = xdev_read(s->dev, &n->buf, 0, dst, size, s->a);
	xnode_unref(s, n);
	if (!st && release)
		drop(s, h);
	return st;
}

xrt_status *xrt_read_data(xrt_session *s, xrt_handle h, bool release, void *dst, size_t size)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_read_data(s, h, release, dst, size);

	xstat_record(s, XRT_STAT_READ, t0, st);
	return st;
}

xrt_status *xrt_allocation_shape(xrt_session *s, xrt_handle h, const struct xrt_allocator *a,
				 struct xrt_shape *out)
{
	struct xnode *n;
	xrt_status *st;

	if (!s || !out)
		return null_arg(s, "allocation shape", !s ? "the session" : "out");
	st = xalloc_get(s, h, &n);
	if (st)
		return st;
	st = xrt_shape_copy(out, a, &n->shape);
	xnode_unref(s, n);
	return st;
}

static xrt_status *do_sub_tuple(xrt_session *s, xrt_handle h, const int64_t *index, uint32_t len,
			  bool release, xrt_handle *out)
{
	struct xnode *root, *n;
	xrt_status *st;
	uint32_t k;

	if (!s || !out || (!index && len))
		return null_arg(s, "sub-tuple", !s ? "the session" : !out ? "out" : "index");
	if (!len)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT, "sub-tuple: an empty index");
	st = xalloc_get(s, h, &root);
	if (st)
		return st;
	for (n = root, k = 0; k < len; k++) {
		if (!n->kids || index[k] < 0 || (uint64_t)index[k] >= n->shape.tuple_count) {
			st = xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
					    "sub-tuple: index %u (%lld) of allocation %lld: %s", k,
					    (long long)index[k], (long long)h,
					    n->kids ? "out of range" : "an array has no elements");
			xnode_unref(s, root);
			return st;
		}
		n = n->kids[index[k]];
	}
	xnode_ref(n);
	xnode_unref(s, root);
	st = xalloc_add(s, n, out);
	if (!st && release)
		drop(s, h);
	return st;
}

xrt_status *xrt_sub_tuple(xrt_session *s, xrt_handle h, const int64_t *index, uint32_t len,
			  bool release, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_sub_tuple(s, h, index, len, release, out);

	xstat_record(s, XRT_STAT_SUB_TUPLE, t0, st);
	return st;
}

struct mt {
	xrt_session *s;
	const xrt_handle *inputs;
	struct xnode **in;	/* each input's node, referenced */
	uint32_t *uses, *released;
	uint32_t n;
};

/* Counts each input's uses and releases in @d; checks indices and depth. */
static xrt_status *scan(struct mt *m, const struct xrt_tuple_node *d, int depth)
{
	xrt_status *st;
	uint32_t k;

	if (depth > MAX_DEPTH)
		return xrt_status_new(m->s->a, XRT_INVALID_ARGUMENT,
				      "make tuple: the description nests deeper than %d", MAX_DEPTH);
	if (d->children && !d->num_children)
		return xrt_status_new(m->s->a, XRT_INVALID_ARGUMENT,
				      "make tuple: an empty tuple in the description");
	if (d->num_children) {
		if (!d->children)
			return xrt_status_new(m->s->a, XRT_INVALID_ARGUMENT,
					      "make tuple: %u children and no array of them",
					      d->num_children);
		for (k = 0; k < d->num_children; k++) {
			st = scan(m, &d->children[k], depth + 1);
			if (st)
				return st;
		}
		return NULL;
	}
	if (d->input_index < 0 || (uint64_t)d->input_index >= m->n)
		return xrt_status_new(m->s->a, XRT_INVALID_ARGUMENT,
				      "make tuple: input index %lld with %u inputs",
				      (long long)d->input_index, m->n);
	m->uses[d->input_index]++;
	m->released[d->input_index] += d->release_input;
	return NULL;
}

static xrt_status *build(struct mt *m, const struct xrt_tuple_node *d, struct xnode **out)
{
	struct xnode **kids;
	xrt_status *st = NULL;
	uint32_t k, made = 0;

	if (!d->num_children) {
		*out = m->in[d->input_index];
		xnode_ref(*out);
		return NULL;
	}
	kids = xrt_mem_calloc(m->s->a, d->num_children, sizeof(*kids));
	if (!kids)
		return xrt_status_oom(m->s->a, "a tuple");
	for (; made < d->num_children && !st; made++)
		st = build(m, &d->children[made], &kids[made]);
	if (!st)
		st = xnode_tuple(m->s, kids, d->num_children, out);
	for (k = 0; k < made; k++)
		xnode_unref(m->s, kids[k]);
	xrt_mem_free(m->s->a, kids);
	return st;
}

static xrt_status *make_tuple(struct mt *m, const struct xrt_tuple_node *desc, xrt_handle *out)
{
	struct xnode *root;
	xrt_status *st = scan(m, desc, 0);
	uint32_t k;

	for (k = 0; !st && k < m->n; k++) {
		if (m->released[k] && m->uses[k] > 1)
			st = xrt_status_new(m->s->a, XRT_INVALID_ARGUMENT,
					    "make tuple: input %u is used %u times and released",
					    k, m->uses[k]);
		else if (m->uses[k])
			st = xalloc_get(m->s, m->inputs[k], &m->in[k]);
	}
	if (!st)
		st = build(m, desc, &root);
	if (!st)
		st = xalloc_add(m->s, root, out);
	for (k = 0; !st && k < m->n; k++) {
		if (m->released[k])
			drop(m->s, m->inputs[k]);
	}
	return st;
}

static xrt_status *do_make_tuple(xrt_session *s, const struct xrt_tuple_node *desc,
			   const xrt_handle *inputs, uint32_t num_inputs, xrt_handle *out)
{
	struct mt m = { s, inputs, NULL, NULL, NULL, num_inputs };
	xrt_status *st;
	uint32_t k;

	if (!s || !desc || !out || (!inputs && num_inputs))
		return null_arg(s, "make tuple", !s ? "the session" : !desc ? "the description" :
				!out ? "out" : "inputs");
	m.in = xrt_mem_calloc(s->a, num_inputs + 1, sizeof(*m.in));
	m.uses = xrt_mem_calloc(s->a, 2 * (size_t)num_inputs + 1, sizeof(*m.uses));
	if (!m.in || !m.uses) {
		st = xrt_status_oom(s->a, "make tuple");
	} else {
		m.released = m.uses + num_inputs;
		st = make_tuple(&m, desc, out);
	}
	for (k = 0; m.in && k < num_inputs; k++)
		xnode_unref(s, m.in[k]);
	xrt_mem_free(s->a, m.in);
	xrt_mem_free(s->a, m.uses);
	return st;
}

xrt_status *xrt_make_tuple(xrt_session *s, const struct xrt_tuple_node *desc,
			   const xrt_handle *inputs, uint32_t num_inputs, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_make_tuple(s, desc, inputs, num_inputs, out);

	xstat_record(s, XRT_STAT_MAKE_TUPLE, t0, st);
	return st;
}

xrt_status *xrt_release_allocations(xrt_session *s, const xrt_handle *h, uint32_t n)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = xhandle_release(s, h, n, HK_ALLOC);

	xstat_record(s, XRT_STAT_RELEASE, t0, st);
	return st;
}
