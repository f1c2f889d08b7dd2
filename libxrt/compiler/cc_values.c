// SPDX-License-Identifier: MIT
/*
 * Where values live.  Every value counts its reads still to be emitted;
 * every storage counts the live values that use it (itself, its views,
 * the tuples holding it).  When the last goes, arena storage returns to
 * the free list, so the arena holds at each point only what is live.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "cc.h"

/*
 * The computation holding cc->in: while a called computation is inlined
 * (cc_inline_comp_begin) cc->c is the callee, and the instruction being
 * lowered is still its caller's.
 */
static const char *comp_name(const struct cc *cc)
{
	uint32_t j;

	for (j = 0; j < cc->m->num_comps; j++) {
		const struct ir_comp *c = &cc->m->comps[j];

		if (cc->in >= c->instrs && cc->in < c->instrs + c->num_instrs)
			return c->name;
	}
	return cc->c->name;
}

void cc_fail(struct cc *cc, enum xrt_code code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (cc->err)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (cc->in)
		cc->err = xrt_status_new(cc->a, code,
					 "compile: computation '%s', instruction '%s' (%s): %s",
					 comp_name(cc), cc->in->name, xrt_opcode_name(cc->in->op), msg);
	else
		cc->err = xrt_status_new(cc->a, code, "compile: %s", msg);
}

void cc_oom(struct cc *cc)
{
	cc_fail(cc, XRT_RESOURCE_EXHAUSTED, "out of memory");
}

/* Grows @*p (of @*cap elements of @size) to hold @need. */
static int grow(struct cc *cc, void **p, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = xrt_mem_calloc(cc->a, n, size);
	if (!q) {
		cc_oom(cc);
		return -1;
	}
	if (*cap)
		memcpy(q, *p, *cap * size);
	xrt_mem_free(cc->a, *p);
	*p = q;
	*cap = n;
	return 0;
}

uint32_t cc_add_slot(struct cc *cc, enum xexe_slot_kind kind, uint64_t size, uint32_t flags)
{
	uint32_t s = cs_add_slot(&cc->b, size, flags);

	if (cc->b.err) {	/* the builder's slots did not grow */
		cc_oom(cc);
		return 0;
	}
	if (grow(cc, (void **)&cc->slots, &cc->slot_cap, s + 1, sizeof(*cc->slots)))
		return s;
	cc->slots[s].kind = kind;
	cc->slots[s].size = size;
	cc->slots[s].result_leaf = -1;
	cc->num_slots = s + 1;
	return s;
}

uint32_t cc_temp(struct cc *cc, enum xrt_dtype t, uint32_t rank, const int64_t *dims)
{
	uint32_t v = cc_new_val(cc);

	cc_alloc(cc, v, t, rank, dims);
	return v;
}

struct xrt_cs_scalar cc_scalar_at(const struct cc_buf *b, uint64_t byte, uint32_t dtype)
{
	return (struct xrt_cs_scalar){ b->slot, (uint8_t)dtype, { 0 }, b->offset + byte };
}

uint32_t cc_new_val(struct cc *cc)
{
	if (grow(cc, (void **)&cc->vals, &cc->val_cap, cc->num_vals + 1, sizeof(*cc->vals)))
		return 0;
	memset(&cc->vals[cc->num_vals], 0, sizeof(cc->vals[0]));
	cc->vals[cc->num_vals].arena_off = -1;
	return cc->num_vals++;
}

struct cc_buf cc_dense(uint32_t slot, uint64_t offset, enum xrt_dtype t, uint32_t rank,
		       const int64_t *dims)
{
	struct cc_buf b;
	int64_t s = 1;
	int d;

	memset(&b, 0, sizeof(b));
	b.slot = slot;
	b.offset = offset;
	b.dtype = t;
	b.rank = rank;
	for (d = (int)rank - 1; d >= 0; d--) {
		b.dims[d] = dims[d];
		b.strides[d] = s;
		s *= dims[d];
	}
	return b;
}

struct cc_buf cc_layout(uint32_t slot, const struct xrt_shape *s)
{
	struct cc_buf b = cc_dense(slot, 0, s->dtype, s->rank, s->dims);

	xrt_shape_strides(s, b.strides);
	return b;
}

bool cc_is_dense(const struct cc_buf *b)
{
	int64_t s = 1;
	int d;

	for (d = (int)b->rank - 1; d >= 0; d--) {
		if (b->dims[d] != 1 && b->strides[d] != s)
			return false;
		s *= b->dims[d];
	}
	return true;
}

/* First fit in the free list; grows the arena's top when nothing fits. */
static int64_t arena_take(struct cc *cc, uint64_t size)
{
	uint32_t i;
	uint64_t off;

	for (i = 0; i < cc->num_free; i++) {
		if (cc->free[i].size < size)
			continue;
		off = cc->free[i].off;
		cc->free[i].off += size;
		cc->free[i].size -= size;
		if (!cc->free[i].size) {
			memmove(&cc->free[i], &cc->free[i + 1],
				(cc->num_free - i - 1) * sizeof(*cc->free));
			cc->num_free--;
		}
		return (int64_t)off;
	}
	off = cc->arena_top;
	cc->arena_top += size;
	return (int64_t)off;
}

/* Returns a range, merging it with its neighbours. */
static void arena_give(struct cc *cc, uint64_t off, uint64_t size)
{
	uint32_t i = 0;

	while (i < cc->num_free && cc->free[i].off < off)
		i++;
	if (i > 0 && cc->free[i - 1].off + cc->free[i - 1].size == off) {
		cc->free[i - 1].size += size;
		if (i < cc->num_free && off + size == cc->free[i].off) {
			cc->free[i - 1].size += cc->free[i].size;
			memmove(&cc->free[i], &cc->free[i + 1],
				(cc->num_free - i - 1) * sizeof(*cc->free));
			cc->num_free--;
		}
		return;
	}
	if (i < cc->num_free && off + size == cc->free[i].off) {
		cc->free[i].off = off;
		cc->free[i].size += size;
		return;
	}
	if (grow(cc, (void **)&cc->free, &cc->free_cap, cc->num_free + 1, sizeof(*cc->free)))
		return;
	memmove(&cc->free[i + 1], &cc->free[i], (cc->num_free - i) * sizeof(*cc->free));
	cc->free[i].off = off;
	cc->free[i].size = size;
	cc->num_free++;
}

/*
 * A result leaf computed by an entry instruction goes straight to its
 * result slot when it has the slot's layout (dense, major to minor).
 */
static bool take_result_slot(struct cc *cc, uint32_t v, enum xrt_dtype t, uint32_t rank,
			     const int64_t *dims, uint64_t bytes, struct cc_buf *out)
{
	const struct ir_comp *e = &cc->m->comps[cc->m->entry];
	const struct xrt_shape *s;
	uint32_t slot;

	if (!cc->placed || v >= e->num_instrs || !cc->placed[v])
		return false;
	slot = cc->placed[v] - 1;
	s = &e->instrs[v].shape;
	if (s->dtype != t || s->rank != rank || cc->slots[slot].size != bytes ||
	    memcmp(s->dims, dims, rank * sizeof(*dims)))
		return false;
	cc->placed[v] = 0;	/* one buffer per slot */
	*out = cc_dense(slot, 0, t, rank, dims);
	return true;
}

int cc_alloc(struct cc *cc, uint32_t v, enum xrt_dtype t, uint32_t rank, const int64_t *dims)
{
	struct cc_val *x = &cc->vals[v];
	uint64_t n = xrt_dtype_size(t);
	uint32_t d;

	for (d = 0; d < rank; d++)
		n *= (uint64_t)dims[d];
	x->kind = CK_BUF;
	x->owner = v;
	if (take_result_slot(cc, v, t, rank, dims, n, &x->buf)) {
		x->arena_off = -1;
	} else {
		n = n ? (n + CC_ALIGN - 1) / CC_ALIGN * CC_ALIGN : CC_ALIGN;
		x->arena_off = arena_take(cc, n);
		x->arena_size = n;
		x->buf = cc_dense(0, (uint64_t)x->arena_off, t, rank, dims);
	}
	cc_hold(cc, v);
	return cc->err ? -1 : 0;
}

void cc_view(struct cc *cc, uint32_t v, uint32_t src, const struct cc_buf *buf)
{
	struct cc_val *x = &cc->vals[v];

	x->kind = CK_BUF;
	x->owner = cc->vals[src].owner;
	x->buf = *buf;
	x->is_const = cc->vals[src].is_const;
	cc_hold(cc, v);
}

uint32_t cc_new_view(struct cc *cc, uint32_t src, const struct cc_buf *buf)
{
	struct cc_buf b = *buf;	/* @buf may be in cc->vals, which moves */
	uint32_t v = cc_new_val(cc);

	if (!cc->err)
		cc_view(cc, v, src, &b);
	return v;
}

bool cc_tuple_init(struct cc *cc, uint32_t v, uint32_t n)
{
	cc->vals[v].elems = xrt_mem_calloc(cc->a, n + 1, sizeof(uint32_t));
	if (!cc->vals[v].elems) {
		cc_oom(cc);
		return false;
	}
	cc->vals[v].kind = CK_TUPLE;
	cc->vals[v].num_elems = 0;
	return true;
}

uint32_t cc_tuple_add(struct cc *cc, uint32_t v)
{
	uint32_t e = cc_new_val(cc);

	if (!cc->err)
		cc->vals[v].elems[cc->vals[v].num_elems++] = e;
	return e;
}

void cc_hold(struct cc *cc, uint32_t v)
{
	struct cc_val *x = &cc->vals[v];
	uint32_t i;

	if (x->kind == CK_TUPLE) {
		for (i = 0; i < x->num_elems; i++)
			cc_hold(cc, x->elems[i]);
	} else if (x->kind == CK_BUF) {
		cc->vals[x->owner].holds++;
	}
}

void cc_release(struct cc *cc, uint32_t v)
{
	struct cc_val *x = &cc->vals[v], *o;
	uint32_t i;

	if (x->kind == CK_TUPLE) {
		for (i = 0; i < x->num_elems; i++)
			cc_release(cc, x->elems[i]);
		return;
	}
	if (x->kind != CK_BUF)
		return;
	o = &cc->vals[x->owner];
	if (--o->holds == 0 && o->arena_off >= 0) {
		arena_give(cc, (uint64_t)o->arena_off, o->arena_size);
		o->arena_off = -1;
	}
}

void cc_consume(struct cc *cc, uint32_t v)
{
	struct cc_val *x = &cc->vals[v];

	if (x->kind == CK_INLINE || !x->uses)
		return;
	if (--x->uses == 0)
		cc_release(cc, v);
}

struct xrt_cs_view cc_csview(const struct cc_buf *b)
{
	uint64_t dims[XRT_CS_MAX_RANK];
	uint32_t d;

	for (d = 0; d < b->rank; d++)
		dims[d] = (uint64_t)b->dims[d];
	return cs_view(b->slot, b->dtype, b->offset, b->rank, dims, b->strides);
}

struct cc_buf cc_spread(struct cc_buf scalar, const struct cc_buf *like)
{
	scalar.rank = like->rank;
	memcpy(scalar.dims, like->dims, sizeof(scalar.dims));
	memset(scalar.strides, 0, sizeof(scalar.strides));
	return scalar;
}

void cc_copy(struct cc *cc, const struct cc_buf *dst, const struct cc_buf *src)
{
	struct xrt_cs_view d = cc_csview(dst), s = cc_csview(src);
	int64_t n = 1;
	uint32_t k;

	for (k = 0; k < dst->rank; k++)
		n *= dst->dims[k];
	if (n)
		cs_copy(&cc->b, &d, &s);
}

uint64_t cc_add_const(struct cc *cc, const void *data, size_t size)
{
	size_t off = (cc->consts_size + CC_ALIGN - 1) / CC_ALIGN * CC_ALIGN;
	size_t need = off + (size ? size : 1);

	if (need > cc->consts_cap) {
		size_t cap = cc->consts_cap ? cc->consts_cap : 256;
		uint8_t *q;

		while (cap < need)
			cap *= 2;
		q = xrt_mem_alloc_aligned(cc->a, cap, CC_ALIGN);
		if (!q) {
			cc_oom(cc);
			return 0;
		}
		memset(q, 0, cap);
		if (cc->consts_size)
			memcpy(q, cc->consts, cc->consts_size);
		xrt_mem_free(cc->a, cc->consts);
		cc->consts = q;
		cc->consts_cap = cap;
	}
	memset(cc->consts + cc->consts_size, 0, off - cc->consts_size);
	memcpy(cc->consts + off, data, size);
	cc->consts_size = off + size;
	return off;
}

const void *cc_const_elem(const struct cc *cc, uint32_t v)
{
	const struct cc_val *x = &cc->vals[v];
	uint32_t d;

	/* a view of a constant too: a called computation's parameter bound to one */
	if (x->kind != CK_BUF || !(x->is_const || cc->vals[x->owner].is_const))
		return NULL;
	for (d = 0; d < x->buf.rank; d++) {
		if (x->buf.dims[d] != 1 && x->buf.strides[d] != 0)
			return NULL;	/* more than one distinct element */
	}
	return cc->consts + x->buf.offset;
}
