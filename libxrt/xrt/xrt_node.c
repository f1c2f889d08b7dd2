// SPDX-License-Identifier: MIT
/*
 * Allocation trees.  Array buffers come from the session's device (host
 * memory, or buffer objects mapped into this process), counted against
 * the session's memory limit before they are taken; a tree either comes
 * out whole or leaves nothing.
 */
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "xrt_internal.h"

/* Counts @bytes against the session's limit; false if they do not fit. */
static bool charge(xrt_session *s, uint64_t bytes)
{
	uint64_t have = atomic_load(&s->memory_in_use);

	do {
		if (s->memory_limit && (bytes > s->memory_limit ||
					have > s->memory_limit - bytes))
			return false;
	} while (!atomic_compare_exchange_weak(&s->memory_in_use, &have, have + bytes));
	return true;
}

static xrt_status *new_node(xrt_session *s, const struct xrt_shape *shape, struct xnode **out)
{
	struct xnode *n = xrt_mem_calloc(s->a, 1, sizeof(*n));
	xrt_status *st;

	*out = NULL;
	if (!n)
		return xrt_status_oom(s->a, "an allocation");
	atomic_init(&n->refs, 1);
	st = xrt_shape_copy(&n->shape, s->a, shape);
	if (st) {
		xrt_mem_free(s->a, n);
		return st;
	}
	*out = n;
	return NULL;
}

/* An array node with an uninitialized buffer. */
static xrt_status *new_array(xrt_session *s, const struct xrt_shape *shape, struct xnode **out)
{
	uint64_t bytes = xrt_shape_byte_size(shape);
	xrt_status *st = new_node(s, shape, out);

	if (st)
		return st;
	if (!charge(s, bytes)) {
		xnode_unref(s, *out);
		*out = NULL;
		return xrt_status_new(s->a, XRT_RESOURCE_EXHAUSTED,
				      "%s: %llu more bytes would pass the session's limit of %llu "
				      "(%llu in use)", s->dev->info.name, (unsigned long long)bytes,
				      (unsigned long long)s->memory_limit,
				      (unsigned long long)atomic_load(&s->memory_in_use));
	}
	st = s->dev->ops->alloc(s->dev, bytes, s->a, &(*out)->buf);
	if (st) {
		atomic_fetch_sub(&s->memory_in_use, bytes);
		xnode_unref(s, *out);
		*out = NULL;
		return st;
	}
	(*out)->bytes = bytes;
	return NULL;
}

xrt_status *xnode_from_shape_skip(xrt_session *s, const struct xrt_shape *shape,
				  const bool *skip, uint32_t *leaf, struct xnode **out)
{
	xrt_status *st;
	uint32_t i;

	if (!xrt_shape_is_tuple(shape)) {
		if (skip && skip[(*leaf)++])
			return new_node(s, shape, out);	/* its buffer comes later */
		return new_array(s, shape, out);
	}
	st = new_node(s, shape, out);
	if (st)
		return st;
	(*out)->kids = xrt_mem_calloc(s->a, shape->tuple_count + 1, sizeof(*(*out)->kids));
	if (!(*out)->kids)
		st = xrt_status_oom(s->a, "an allocation");
	for (i = 0; !st && i < shape->tuple_count; i++)
		st = xnode_from_shape_skip(s, &shape->tuple[i], skip, leaf, &(*out)->kids[i]);
	if (st) {
		xnode_unref(s, *out);
		*out = NULL;
	}
	return st;
}

xrt_status *xnode_from_shape(xrt_session *s, const struct xrt_shape *shape,
			     struct xnode **out)
{
	uint32_t leaf = 0;

	return xnode_from_shape_skip(s, shape, NULL, &leaf, out);
}

bool xnode_exclusive(const struct xnode *n, unsigned refs)
{
	uint32_t i;

	if (atomic_load(&((struct xnode *)n)->refs) != refs)
		return false;
	for (i = 0; n->kids && i < n->shape.tuple_count; i++) {
		if (!xnode_exclusive(n->kids[i], 1))
			return false;
	}
	return true;
}

void xnode_move_buffer(struct xnode *to, struct xnode *from)
{
	to->buf = from->buf;
	to->bytes = from->bytes;	/* its charge moves with it */
	memset(&from->buf, 0, sizeof(from->buf));
	from->bytes = 0;
}

xrt_status *xnode_settle(xrt_session *s, const struct xnode *n)
{
	xrt_status *st = NULL;
	uint32_t i;

	for (i = 0; n->kids && i < n->shape.tuple_count && !st; i++)
		st = xnode_settle(s, n->kids[i]);
	if (!n->kids && n->job) {
		st = xevent_wait(n->job, -1, s->a);
		if (st)
			st = xrt_status_annotate(st, "the run computing this allocation failed");
	}
	return st;
}

xrt_status *xnode_write_leaf(xrt_session *s, struct xnode *n, const void *src,
		      const struct xrt_shape *ss)
{
	xrt_status *st;
	void *tmp;

	if (xrt_shape_equal(ss, &n->shape))
		return xdev_write(s->dev, &n->buf, 0, src, n->bytes, s->a);
	if (n->buf.data) {
		xrt_elems_relayout(n->buf.data, &n->shape, src, ss);
		return NULL;
	}
	/* the device's memory is not mapped: relaid here, then written */
	tmp = xrt_mem_alloc_aligned(s->a, n->bytes ? n->bytes : 1, 64);
	if (!tmp)
		return xrt_status_oom(s->a, "a relaid copy");
	xrt_elems_relayout(tmp, &n->shape, src, ss);
	st = xdev_write(s->dev, &n->buf, 0, tmp, n->bytes, s->a);
	xrt_mem_free(s->a, tmp);
	return st;
}

/* @fresh: the buffers are new, no run can be reading them */
static xrt_status *write_leaves(xrt_session *s, struct xnode *n, const xrt_literal *lit,
				bool fresh)
{
	xrt_status *st = NULL;
	uint32_t i;

	if (n->kids) {
		for (i = 0; i < n->shape.tuple_count && !st; i++)
			st = write_leaves(s, n->kids[i], xrt_literal_element(lit, i), fresh);
		return st;
	}
	/* a run still reading the buffer must finish first */
	if (!fresh && s->dev->ops->wait_idle)
		s->dev->ops->wait_idle(s->dev, &n->buf);
	return xnode_write_leaf(s, n, xrt_literal_data(lit), xrt_literal_shape(lit));
}

xrt_status *xnode_write(xrt_session *s, struct xnode *n, const xrt_literal *lit)
{
	/* a failed run's values are overwritten: its error does not matter */
	xrt_status_free(xnode_settle(s, n));
	return write_leaves(s, n, lit, false);
}

xrt_status *xnode_from_literal(xrt_session *s, const xrt_literal *lit, struct xnode **out)
{
	xrt_status *st = xnode_from_shape(s, xrt_literal_shape(lit), out);

	if (!st)
		st = write_leaves(s, *out, lit, true);
	if (st && *out) {
		xnode_unref(s, *out);
		*out = NULL;
	}
	return st;
}

xrt_status *xnode_tuple(xrt_session *s, struct xnode *const *kids, uint32_t n,
			struct xnode **out)
{
	struct xrt_shape *shapes = xrt_mem_calloc(s->a, n + 1, sizeof(*shapes)), tuple;
	xrt_status *st;
	uint32_t i;

	*out = NULL;
	if (!shapes)
		return xrt_status_oom(s->a, "a tuple");
	for (i = 0; i < n; i++)
		shapes[i] = kids[i]->shape;	/* shallow: only read */
	st = xrt_shape_init_tuple(&tuple, s->a, shapes, n);
	xrt_mem_free(s->a, shapes);
	if (st)
		return st;
	st = new_node(s, &tuple, out);
	xrt_shape_deinit(&tuple);
	if (st)
		return st;
	(*out)->kids = xrt_mem_calloc(s->a, n + 1, sizeof(*(*out)->kids));
	if (!(*out)->kids) {
		xnode_unref(s, *out);
		*out = NULL;
		return xrt_status_oom(s->a, "a tuple");
	}
	for (i = 0; i < n; i++) {
		xnode_ref(kids[i]);
		(*out)->kids[i] = kids[i];
	}
	return NULL;
}

void xnode_ref(struct xnode *n)
{
	atomic_fetch_add(&n->refs, 1);
}

void xnode_unref(xrt_session *s, struct xnode *n)
{
	uint32_t i;

	if (!n || atomic_fetch_sub(&n->refs, 1) != 1)
		return;
	for (i = 0; n->kids && i < n->shape.tuple_count; i++)
		xnode_unref(s, n->kids[i]);
	if (xdev_buf_live(&n->buf)) {
		atomic_fetch_sub(&s->memory_in_use, n->bytes);
		s->dev->ops->free(s->dev, &n->buf, s->a);
	}
	xevent_unref(n->job);
	xrt_mem_free(s->a, n->kids);
	xrt_shape_deinit(&n->shape);
	xrt_mem_free(s->a, n);
}

static xrt_status *read_into(xrt_session *s, const struct xnode *n, xrt_literal *lit)
{
	xrt_status *st = NULL;
	uint32_t i;

	if (n->kids) {
		for (i = 0; i < n->shape.tuple_count && !st; i++)
			st = read_into(s, n->kids[i], xrt_literal_element(lit, i));
		return st;
	}
	return xdev_read(s->dev, &n->buf, 0, xrt_literal_mutable_data(lit), n->bytes, s->a);
}

xrt_status *xnode_to_literal(xrt_session *s, const struct xnode *n, xrt_literal **out)
{
	xrt_status *st = xnode_settle(s, n);

	*out = NULL;
	if (!st)
		st = xrt_literal_create_uninit(s->a, &n->shape, out);
	if (!st)
		st = read_into(s, n, *out);
	if (st && *out) {
		xrt_literal_destroy(*out);
		*out = NULL;
	}
	return st;
}
