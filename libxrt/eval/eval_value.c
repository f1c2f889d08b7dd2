// SPDX-License-Identifier: MIT
/*
 * Evaluator values: making, copying and freeing them, moving them in
 * and out of literals, and walking their indices.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "eval/eval.h"

void ev_fail(struct ev *ev, enum xrt_code code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (ev->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ev->c && ev->in)
		ev->err = xrt_status_new(ev->a, code,
					 "evaluate: computation '%s', instruction '%s' (%s): %s",
					 ev->c->name, ev->in->name, xrt_opcode_name(ev->in->op),
					 msg);
	else
		ev->err = xrt_status_new(ev->a, code, "evaluate: %s", msg);
}

static void oom(struct ev *ev)
{
	ev_fail(ev, XRT_RESOURCE_EXHAUSTED, "out of memory");
}

struct ev_val *ev_array(struct ev *ev, enum xrt_dtype t, uint32_t rank, const int64_t *dims)
{
	struct ev_val *v = xrt_mem_calloc(ev->a, 1, sizeof(*v));
	xrt_status *st;

	if (!v) {
		oom(ev);
		return NULL;
	}
	st = xrt_shape_init_array(&v->shape, t, rank, dims);
	if (st) {
		ev_fail(ev, XRT_INTERNAL, "%s", xrt_status_message(st));
		xrt_status_free(st);
		xrt_mem_free(ev->a, v);
		return NULL;
	}
	v->n = (int64_t)xrt_shape_element_count(&v->shape);
	v->e = xrt_mem_calloc(ev->a, v->n ? (size_t)v->n : 1, sizeof(*v->e));
	if (!v->e) {
		xrt_mem_free(ev->a, v);
		oom(ev);
		return NULL;
	}
	return v;
}

struct ev_val *ev_new(struct ev *ev, const struct xrt_shape *shape)
{
	struct ev_val *v;
	xrt_status *st = NULL;
	uint32_t i;

	if (!xrt_shape_is_tuple(shape))
		return ev_array(ev, shape->dtype, shape->rank, shape->dims);
	v = xrt_mem_calloc(ev->a, 1, sizeof(*v));
	if (v)
		v->elems = xrt_mem_calloc(ev->a, shape->tuple_count + 1, sizeof(*v->elems));
	if (v && v->elems)
		st = xrt_shape_copy(&v->shape, ev->a, shape);
	if (!v || !v->elems || st) {
		xrt_status_free(st);	/* only memory fails a copy of a valid shape */
		ev_free(ev, v);
		oom(ev);
		return NULL;
	}
	for (i = 0; i < shape->tuple_count; i++) {
		v->elems[i] = ev_new(ev, &shape->tuple[i]);
		if (!v->elems[i]) {
			ev_free(ev, v);
			return NULL;
		}
		v->num_elems++;
	}
	return v;
}

struct ev_val *ev_copy(struct ev *ev, const struct ev_val *v)
{
	struct ev_val *c = ev_new(ev, &v->shape);
	uint32_t i;

	if (!c)
		return NULL;
	if (!xrt_shape_is_tuple(&v->shape)) {
		memcpy(c->e, v->e, (size_t)v->n * sizeof(*v->e));
		return c;
	}
	for (i = 0; i < v->num_elems; i++) {
		ev_free(ev, c->elems[i]);
		c->elems[i] = ev_copy(ev, v->elems[i]);
		if (!c->elems[i]) {
			ev_free(ev, c);
			return NULL;
		}
	}
	return c;
}

void ev_free(struct ev *ev, struct ev_val *v)
{
	uint32_t i;

	if (!v)
		return;
	for (i = 0; i < v->num_elems; i++)
		ev_free(ev, v->elems[i]);
	xrt_mem_free(ev->a, v->elems);
	xrt_mem_free(ev->a, v->e);
	xrt_shape_deinit(&v->shape);
	xrt_mem_free(ev->a, v);
}

struct ev_val *ev_scalar_val(struct ev *ev, enum xrt_dtype t, struct ev_scalar x)
{
	struct ev_val *v = ev_array(ev, t, 0, NULL);

	if (v)
		v->e[0] = x;
	return v;
}

int64_t ev_offset(uint32_t rank, const int64_t *dims, const int64_t *idx)
{
	int64_t off = 0;
	uint32_t d;

	for (d = 0; d < rank; d++)
		off = off * dims[d] + idx[d];
	return off;
}

bool ev_next(uint32_t rank, const int64_t *dims, int64_t *idx)
{
	int d;

	for (d = (int)rank - 1; d >= 0; d--) {
		if (++idx[d] < dims[d])
			return true;
		idx[d] = 0;
	}
	return false;
}

bool ev_listed(const int64_t *list, uint32_t n, int64_t v)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (list[i] == v)
			return true;
	}
	return false;
}

struct ev_val *ev_from_literal(struct ev *ev, const xrt_literal *lit)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	size_t size = xrt_dtype_size(s->dtype);
	struct ev_val *v = ev_new(ev, s);
	struct elem_iter it;
	uint32_t i;
	int64_t k;

	if (!v)
		return NULL;
	if (xrt_shape_is_tuple(s)) {
		for (i = 0; i < v->num_elems; i++) {
			ev_free(ev, v->elems[i]);
			v->elems[i] = ev_from_literal(ev, xrt_literal_element(lit, i));
			if (!v->elems[i]) {
				ev_free(ev, v);
				return NULL;
			}
		}
		return v;
	}
	elem_iter_init(&it, s);
	for (k = 0; k < v->n; k++, elem_iter_next(&it))
		v->e[k] = ev_load_bytes(s->dtype,
					(const char *)xrt_literal_data(lit) + it.offset * size);
	return v;
}

xrt_literal *ev_to_literal(struct ev *ev, const struct ev_val *v, const struct xrt_shape *shape)
{
	size_t size = xrt_dtype_size(shape->dtype);
	xrt_literal *lit = NULL, **parts;
	struct elem_iter it;
	xrt_status *st;
	uint32_t i;
	int64_t k;

	if (xrt_shape_is_tuple(shape)) {
		parts = xrt_mem_calloc(ev->a, v->num_elems + 1, sizeof(*parts));
		for (i = 0; parts && i < v->num_elems; i++) {
			parts[i] = ev_to_literal(ev, v->elems[i], &shape->tuple[i]);
			if (!parts[i])
				break;
		}
		st = parts && i == v->num_elems ?
		     xrt_literal_make_tuple(ev->a, parts, v->num_elems, &lit) :
		     xrt_status_oom(ev->a, "a tuple");
		/* The tuple owns its parts once made; else they are ours to free. */
		for (i = 0; st && parts && i < v->num_elems; i++)
			xrt_literal_destroy(parts[i]);
		xrt_mem_free(ev->a, parts);
	} else {
		st = xrt_literal_create(ev->a, shape, &lit);
		elem_iter_init(&it, shape);
		for (k = 0; !st && k < v->n; k++, elem_iter_next(&it))
			ev_store_bytes(shape->dtype, v->e[k],
				       (char *)xrt_literal_mutable_data(lit) + it.offset * size);
	}
	if (st) {
		if (!ev->err)
			ev->err = st;
		else
			xrt_status_free(st);
		return NULL;
	}
	return lit;
}
