/* SPDX-License-Identifier: MIT */
/*
 * Names to indices, for readers that meet a name and must find what it
 * names: the HLO parser (instructions and computations by name) and the
 * wire reader (by id).  An open-addressing table of (hash, index) pairs;
 * the names themselves stay wherever the caller keeps them and are
 * compared through @name_of, so the table never copies one.  Lookups
 * and additions cost O(1) on average: parsing a module is linear in its
 * size, not quadratic in its instruction count.
 */
#ifndef XRT_IR_IR_NAMES_H
#define XRT_IR_IR_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>

struct ir_names {
	const struct xrt_allocator *a;
	uint64_t *slots;	/* hash << 32 | (index + 1); 0: empty */
	uint32_t cap, count;	/* cap a power of two, or 0 */
	/* the name of index @i, of length *@len, in @ctx */
	const char *(*name_of)(const void *ctx, uint32_t i, size_t *len);
	const void *ctx;
};

void ir_names_init(struct ir_names *t, const struct xrt_allocator *a,
		   const char *(*name_of)(const void *ctx, uint32_t i, size_t *len),
		   const void *ctx);
void ir_names_deinit(struct ir_names *t);
/* Forgets every name (the storage stays, for the next computation). */
void ir_names_clear(struct ir_names *t);
/* The index named @s (@n bytes), or UINT32_MAX. */
uint32_t ir_names_find(const struct ir_names *t, const char *s, size_t n);
/* Adds @s as index @i (not there already): 0, or -1 out of memory. */
int ir_names_add(struct ir_names *t, const char *s, size_t n, uint32_t i);

/* Makes the name of index @from (there) name index @to instead. */
void ir_names_move(struct ir_names *t, uint32_t from, uint32_t to);

#endif /* XRT_IR_IR_NAMES_H */
