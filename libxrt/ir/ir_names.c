// SPDX-License-Identifier: MIT
/*
 * The name table (ir_names.h): linear probing over a power-of-two array
 * kept at most half full, each slot the name's 32-bit FNV-1a hash and
 * its index, so that growing rehashes without reading a name.
 */
#include <string.h>

#include "core/mem.h"
#include "ir_names.h"

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

void ir_names_init(struct ir_names *t, const struct xrt_allocator *a,
		   const char *(*name_of)(const void *ctx, uint32_t i, size_t *len),
		   const void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->a = a;
	t->name_of = name_of;
	t->ctx = ctx;
}

void ir_names_deinit(struct ir_names *t)
{
	xrt_mem_free(t->a, t->slots);
	t->slots = NULL;
	t->cap = t->count = 0;
}

void ir_names_clear(struct ir_names *t)
{
	if (t->slots)
		memset(t->slots, 0, (size_t)t->cap * sizeof(*t->slots));
	t->count = 0;
}

uint32_t ir_names_find(const struct ir_names *t, const char *s, size_t n)
{
	uint32_t h = hash(s, n), at, i;
	uint64_t e;

	if (!t->cap)
		return UINT32_MAX;
	for (at = h & (t->cap - 1);; at = (at + 1) & (t->cap - 1)) {
		const char *name;
		size_t len;

		e = t->slots[at];
		if (!e)
			return UINT32_MAX;
		if ((uint32_t)(e >> 32) != h)
			continue;
		i = (uint32_t)e - 1;
		name = t->name_of(t->ctx, i, &len);
		if (len == n && !memcmp(name, s, n))
			return i;
	}
}

static void put(uint64_t *slots, uint32_t cap, uint64_t e)
{
	uint32_t at;

	for (at = (uint32_t)(e >> 32) & (cap - 1); slots[at]; at = (at + 1) & (cap - 1))
		;
	slots[at] = e;
}

int ir_names_add(struct ir_names *t, const char *s, size_t n, uint32_t i)
{
	uint32_t k;

	if ((uint64_t)(t->count + 1) * 2 > t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		uint64_t *slots;

		if (cap < t->cap)	/* 2^31 slots: more names than an index holds */
			return -1;
		slots = xrt_mem_calloc(t->a, cap, sizeof(*slots));
		if (!slots)
			return -1;
		for (k = 0; k < t->cap; k++) {
			if (t->slots[k])
				put(slots, cap, t->slots[k]);
		}
		xrt_mem_free(t->a, t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	put(t->slots, t->cap, (uint64_t)hash(s, n) << 32 | ((uint64_t)i + 1));
	t->count++;
	return 0;
}

void ir_names_move(struct ir_names *t, uint32_t from, uint32_t to)
{
	size_t len;
	const char *s = t->name_of(t->ctx, from, &len);
	uint32_t h = hash(s, len), at;

	for (at = h & (t->cap - 1); t->slots[at]; at = (at + 1) & (t->cap - 1)) {
		if ((uint32_t)t->slots[at] == from + 1) {
			t->slots[at] = (uint64_t)h << 32 | ((uint64_t)to + 1);
			return;
		}
	}
}
