// SPDX-License-Identifier: MIT
/*
 * A session's handle table: open addressing with linear probing over a
 * power-of-two array, keyed by the handle (a counter, never reused, so
 * a released handle stays unknown for good).  Deleted slots keep a mark
 * until the table is rebuilt, which happens when live and deleted slots
 * fill half of it.
 */
#include "core/mem.h"
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

void xhandle_unref(xrt_session *s, enum hkind kind, void *obj)
{
	if (kind == HK_ALLOC)
		xnode_unref(s, obj);
	else
		centry_unref(obj);
}

xrt_status *xhandle_add(xrt_session *s, enum hkind kind, void *obj, xrt_handle *out)
{
	uint64_t j;

	pthread_mutex_lock(&s->lock);
	if (2 * (s->used + 1) > s->cap && !rebuild(s)) {
		pthread_mutex_unlock(&s->lock);
		xhandle_unref(s, kind, obj);
		return xrt_status_oom(s->a, "the handle table");
	}
	*out = s->next++;
	for (j = slot_of(*out, s->cap); s->tab[j].h; j = (j + 1) & (s->cap - 1))
		;
	s->tab[j].h = *out;
	s->tab[j].kind = kind;
	s->tab[j].obj = obj;
	s->used++;
	s->live++;
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* The slot of @h if it holds a @kind, or NULL (locked). */
static struct hslot *find(xrt_session *s, xrt_handle h, enum hkind kind)
{
	uint64_t j;

	if (h <= 0 || !s->cap)
		return NULL;
	for (j = slot_of(h, s->cap); s->tab[j].h; j = (j + 1) & (s->cap - 1)) {
		if (s->tab[j].h == h)
			return s->tab[j].kind == kind ? &s->tab[j] : NULL;
	}
	return NULL;
}

xrt_status *xhandle_not_found(xrt_session *s, xrt_handle h, enum hkind kind)
{
	return xrt_status_new(s->a, XRT_NOT_FOUND,
			      "no %s %lld in this session (released, or never made here)",
			      kind == HK_ALLOC ? "allocation" : "compilation", (long long)h);
}

xrt_status *xhandle_get(xrt_session *s, xrt_handle h, enum hkind kind, void **out)
{
	struct hslot *e;

	pthread_mutex_lock(&s->lock);
	e = find(s, h, kind);
	*out = e ? e->obj : NULL;
	if (*out && kind == HK_ALLOC)
		xnode_ref(*out);
	else if (*out)
		centry_ref(*out);
	pthread_mutex_unlock(&s->lock);
	return *out ? NULL : xhandle_not_found(s, h, kind);
}

void *xhandle_take(xrt_session *s, xrt_handle h, enum hkind kind)
{
	struct hslot *e;
	void *obj = NULL;

	pthread_mutex_lock(&s->lock);
	e = find(s, h, kind);
	if (e) {
		obj = e->obj;
		e->h = DELETED;
		e->obj = NULL;
		s->live--;
	}
	pthread_mutex_unlock(&s->lock);
	return obj;
}

xrt_status *xhandle_release(xrt_session *s, const xrt_handle *h, uint32_t n, enum hkind kind)
{
	xrt_status *st = NULL;
	uint32_t k;
	void *obj;

	if (!s || (!h && n))
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT,
				      "release: %s is NULL", !s ? "the session" : "the handles");
	for (k = 0; k < n; k++) {
		obj = xhandle_take(s, h[k], kind);
		if (obj)
			xhandle_unref(s, kind, obj);
		else if (!st)
			st = xhandle_not_found(s, h[k], kind);
	}
	return st;
}
