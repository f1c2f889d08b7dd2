// SPDX-License-Identifier: MIT
/*
 * A session's handle table: open addressing with linear probing over a
 * power-of-two array, keyed by the handle (a counter, never reused, so
 * a released handle stays unknown for good).  Deleted slots keep a mark
 * until the table is rebuilt, which happens when live and deleted slots
 * fill half of it.
 */
#include "../core/mem.h"
#include "xrt_internal.h"

#define DELETED (-1)

static uint64_t slot_of(xrt_handle h, uint64_t cap)
{
	uint64_t x = (uint64_t)h * 0x9E3779B97F4A7C15ull;

	return (x ^ (x >> 29)) & (cap - 1);
}

/* Rebuilds the table with room for twice the live handles (locked). */
static bool rebuild(xrt_session *s)
{
	uint64_t cap = 64, i, j;
	struct hslot *t;

	while (cap < 4 * (s->live + 1))
		cap *= 2;
	t = xrt_mem_calloc(s->a, cap, sizeof(*t));
	if (!t)
		return false;
	for (i = 0; i < s->cap; i++) {
		if (s->tab[i].h <= 0)
			continue;
		for (j = slot_of(s->tab[i].h, cap); t[j].h; j = (j + 1) & (cap - 1))
			;
		t[j] = s->tab[i];
	}
	xrt_mem_free(s->a, s->tab);
	s->tab = t;
	s->cap = cap;
	s->used = s->live;
	return true;
}

xrt_status *xhandle_add(xrt_session *s, struct xnode *node, xrt_handle *out)
{
	uint64_t j;

	pthread_mutex_lock(&s->lock);
	if (2 * (s->used + 1) > s->cap && !rebuild(s)) {
		pthread_mutex_unlock(&s->lock);
		xnode_unref(s, node);
		return xrt_status_oom(s->a, "the handle table");
	}
	*out = s->next++;
	for (j = slot_of(*out, s->cap); s->tab[j].h; j = (j + 1) & (s->cap - 1))
		;
	s->tab[j].h = *out;
	s->tab[j].node = node;
	s->used++;
	s->live++;
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* The slot of @h, or NULL (locked). */
static struct hslot *find(xrt_session *s, xrt_handle h)
{
	uint64_t j;

	if (h <= 0 || !s->cap)
		return NULL;
	for (j = slot_of(h, s->cap); s->tab[j].h; j = (j + 1) & (s->cap - 1)) {
		if (s->tab[j].h == h)
			return &s->tab[j];
	}
	return NULL;
}

xrt_status *xhandle_not_found(xrt_session *s, xrt_handle h)
{
	return xrt_status_new(s->a, XRT_NOT_FOUND,
			      "no allocation %lld in this session (released, or never made here)",
			      (long long)h);
}

xrt_status *xhandle_get(xrt_session *s, xrt_handle h, struct xnode **out)
{
	struct hslot *e;

	pthread_mutex_lock(&s->lock);
	e = find(s, h);
	*out = e ? e->node : NULL;
	if (*out)
		xnode_ref(*out);
	pthread_mutex_unlock(&s->lock);
	return *out ? NULL : xhandle_not_found(s, h);
}

struct xnode *xhandle_take(xrt_session *s, xrt_handle h)
{
	struct xnode *n = NULL;
	struct hslot *e;

	pthread_mutex_lock(&s->lock);
	e = find(s, h);
	if (e) {
		n = e->node;
		e->h = DELETED;
		e->node = NULL;
		s->live--;
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}
