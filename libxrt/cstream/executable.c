// SPDX-License-Identifier: MIT
/*
 * Executables: their lifetime, their slot plan, and the forms devices
 * keep on them (cstream/executable.h).
 */
#include "core/ffi.h"
#include "core/mem.h"
#include "cstream/executable.h"

struct xrt_executable *xexe_create(const struct xrt_allocator *a)
{
	static atomic_uint_fast64_t next_id;
	struct xrt_executable *exe = xrt_mem_calloc(a, 1, sizeof(*exe));

	if (exe) {
		exe->alloc = a;
		exe->id = atomic_fetch_add(&next_id, 1) + 1;
		atomic_init(&exe->forms, NULL);
		exe->num_replicas = 1;
		exe->num_partitions = 1;
	}
	return exe;
}

void xexe_destroy(struct xrt_executable *exe)
{
	struct xexe_form *f, *next;
	uint32_t i;

	if (!exe)
		return;
	for (f = atomic_load(&exe->forms); f; f = next) {
		next = f->next;
		f->destroy(f);
	}
	xrt_free(exe->alloc, exe->program);
	xrt_mem_free(exe->alloc, exe->slots);
	xrt_mem_free(exe->alloc, exe->constants);
	for (i = 0; exe->params && i < exe->num_params; i++)
		xrt_shape_deinit(&exe->params[i]);
	xrt_mem_free(exe->alloc, exe->params);
	xrt_shape_deinit(&exe->result);
	for (i = 0; i < exe->num_loops; i++)
		xrt_mem_free(exe->alloc, exe->loops[i].where);
	xrt_mem_free(exe->alloc, exe->loops);
	xexe_free_calls(exe->alloc, exe->calls, exe->num_calls);
	xexe_free_groups(exe->alloc, exe->groups, exe->num_groups);
	xrt_mem_free(exe->alloc, exe);
}

void xexe_free_groups(const struct xrt_allocator *a, struct xexe_group *groups, uint32_t n)
{
	uint32_t i;

	for (i = 0; groups && i < n; i++) {
		xrt_mem_free(a, groups[i].group_of);
		xrt_mem_free(a, groups[i].start);
		xrt_mem_free(a, groups[i].members);
		xrt_mem_free(a, groups[i].source);
		xrt_mem_free(a, groups[i].where);
	}
	xrt_mem_free(a, groups);
}

uint64_t xexe_slot_size(const struct xrt_executable *exe, enum xexe_slot_kind kind)
{
	uint32_t s;

	for (s = 0; s < exe->num_slots; s++) {
		if (exe->slots[s].kind == kind)
			return exe->slots[s].size;
	}
	return 0;
}

static struct xexe_form *find_from(struct xexe_form *f, const void *maker)
{
	while (f && f->maker != maker)
		f = f->next;
	return f;
}

struct xexe_form *xexe_form_find(const struct xrt_executable *exe, const void *maker)
{
	return find_from(atomic_load_explicit(&exe->forms, memory_order_acquire), maker);
}

struct xexe_form *xexe_form_add(const struct xrt_executable *exe, struct xexe_form *f)
{
	_Atomic(struct xexe_form *) *forms = (_Atomic(struct xexe_form *) *)&exe->forms;
	struct xexe_form *head = atomic_load_explicit(forms, memory_order_acquire);

	/* forms are only ever pushed: a failed exchange means a new head to look past */
	for (;;) {
		struct xexe_form *had = find_from(head, f->maker);

		if (had) {
			f->destroy(f);
			return had;
		}
		f->next = head;
		if (atomic_compare_exchange_weak_explicit(forms, &head, f,
							  memory_order_acq_rel,
							  memory_order_acquire))
			return f;
	}
}

void xexe_free_calls(const struct xrt_allocator *a, struct xexe_call *calls, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		xrt_mem_free(a, calls[i].target);
		xrt_mem_free(a, calls[i].where);
		xrt_mem_free(a, calls[i].opaque);
		xrt_mem_free(a, calls[i].layouts);
		xffi_attrs_free(a, calls[i].attrs);
	}
	xrt_mem_free(a, calls);
}
