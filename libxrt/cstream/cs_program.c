// SPDX-License-Identifier: MIT
/*
 * Loading a program through the engine's validator, with its failures
 * turned into statuses that say where and why.
 */
#include <stdio.h>
#include <string.h>

#include "../core/mem.h"
#include "cs_builder.h"

static xrt_status *invalid(const struct xrt_allocator *a, const void *data,
			   size_t size, const struct xrt_engine_error *e)
{
	char where[96] = "program", part[32] = "";
	const struct xrt_cs_header *h = data;

	if (e->command != ~0u) {
		const struct xrt_cs_cmd *c = NULL;
		uint64_t at = h->commands_offset;
		uint32_t i;

		/* Offsets up to the failing command were checked already. */
		for (i = 0; i <= e->command && at + sizeof(*c) <= size; i++) {
			c = (const void *)((const uint8_t *)data + at);
			if (i < e->command)
				at += c->size;
		}
		snprintf(where, sizeof(where), "command %u (%s)", e->command,
			 c ? cs_op_name(c->op) : "?");
	}
	if (e->part != ~0u)
		snprintf(part, sizeof(part), ": part %u", e->part);
	return xrt_status_new(a, XRT_INVALID_ARGUMENT, "%s%s: %s (%llu, %llu)",
			      where, part, e->reason,
			      (unsigned long long)e->value[0],
			      (unsigned long long)e->value[1]);
}

xrt_status *cs_program_load(struct cs_program *p,
			    const struct xrt_allocator *alloc,
			    const void *data, size_t size)
{
	struct xrt_engine_error e;
	uint32_t n;

	memset(p, 0, sizeof(*p));
	p->alloc = alloc;
	if (xrt_engine_count_commands(data, size, &n, &e))
		return invalid(alloc, data, size, &e);
	p->offsets = xrt_mem_calloc(alloc, n ? n : 1, sizeof(*p->offsets));
	p->plans = xrt_mem_alloc_aligned(alloc, size ? size : 1, 64);
	if (!p->offsets || !p->plans) {
		cs_program_release(p);
		return xrt_status_oom(alloc, "command offsets and plans");
	}
	if (xrt_engine_validate(&p->prog, data, size, p->offsets, p->plans, &e)) {
		xrt_status *st = invalid(alloc, data, size, &e);

		cs_program_release(p);
		return st;
	}
	return NULL;
}

void cs_program_release(struct cs_program *p)
{
	xrt_mem_free(p->alloc, p->offsets);
	xrt_mem_free(p->alloc, p->plans);
	memset(p, 0, sizeof(*p));
}
