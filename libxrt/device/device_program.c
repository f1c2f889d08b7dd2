// SPDX-License-Identifier: MIT
/*
 * Loading a program through the engine's validator, with its failures
 * turned into statuses that say where and why.
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "cstream/cs_builder.h"
#include "device/device_program.h"

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

xrt_status *xdev_program_load(struct xdev_program *p, const struct xrt_allocator *alloc,
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
		xdev_program_release(p);
		return xrt_status_oom(alloc, "command offsets and plans");
	}
	if (xrt_engine_validate(&p->prog, data, size, p->offsets, p->plans, &e)) {
		xrt_status *st = invalid(alloc, data, size, &e);

		xdev_program_release(p);
		return st;
	}
	return NULL;
}

void xdev_program_release(struct xdev_program *p)
{
	xrt_mem_free(p->alloc, p->offsets);
	xrt_mem_free(p->alloc, p->plans);
	memset(p, 0, sizeof(*p));
}

static struct xdev_program *program_of_form(struct xexe_form *f)
{
	return (struct xdev_program *)((char *)f - offsetof(struct xdev_program, form));
}

/* The executable's allocator frees its forms: they live as long as it does. */
static void form_destroy(struct xexe_form *f)
{
	struct xdev_program *p = program_of_form(f);
	const struct xrt_allocator *a = p->alloc;

	xdev_program_release(p);
	xrt_mem_free(a, p);
}

/* The maker of the engine's forms. */
static const char engine_form;

xrt_status *xdev_program_of(const struct xrt_executable *exe,
			    const struct xdev_program **out)
{
	struct xexe_form *f = xexe_form_find(exe, &engine_form);
	struct xdev_program *p;
	xrt_status *st;

	if (f) {
		*out = program_of_form(f);
		return NULL;
	}
	p = xrt_mem_alloc(exe->alloc, sizeof(*p));
	if (!p)
		return xrt_status_oom(exe->alloc, "a loaded program");
	/*
	 * Kept by the executable, so made with its allocator (the error too).
	 * A program that fails is not kept: only a compiler bug makes one.
	 */
	st = xdev_program_load(p, exe->alloc, exe->program, exe->program_size);
	if (st) {
		xrt_mem_free(exe->alloc, p);
		return st;
	}
	p->form.maker = &engine_form;
	p->form.destroy = form_destroy;
	/* another thread may have added one first: then ours is freed */
	*out = program_of_form(xexe_form_add(exe, &p->form));
	return NULL;
}

xrt_status *xdev_refuse_calls(const struct xrt_executable *exe, const char *device,
			      const char *why, const struct xrt_allocator *a)
{
	if (!exe->num_calls)
		return NULL;
	return xrt_status_new(a, XRT_UNIMPLEMENTED, "%s: custom-call '%s' cannot run on %s: %s "
			      "(the host devices and the evaluator run custom calls)",
			      exe->calls[0].where, exe->calls[0].target, device, why);
}
