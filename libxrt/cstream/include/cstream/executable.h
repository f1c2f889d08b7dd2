/* SPDX-License-Identifier: MIT */
/*
 * The program contract between the compiler and the devices: a command
 * stream (uapi/drm/xrt_accel_cs.h) with the plan of its slots.  The
 * compiler makes executables; every device consumes them, loading and
 * validating the command stream its own way (the soft engine's
 * validator for host and cuda, the kernel's for accel).  What a device
 * derives from an executable once (a validated program, an upload) it
 * may keep on it as a form, freed with the executable.
 */
#ifndef XRT_CSTREAM_EXECUTABLE_H
#define XRT_CSTREAM_EXECUTABLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/alloc.h>
#include <xrt/custom_call.h>
#include <xrt/shape.h>
#include <xrt/status.h>

/* What a slot of an executable holds. */
enum xexe_slot_kind {
	XEXE_SLOT_ARENA,	/* scratch of one execution */
	XEXE_SLOT_CONSTANTS,	/* exe->constants */
	XEXE_SLOT_PARAM,	/* a parameter leaf */
	XEXE_SLOT_RESULT,	/* a result leaf */
};

/*
 * Every program's first two slots are its arena and its constants, so a
 * device binds them without looking; parameter and result leaves follow.
 */
#define XEXE_ARENA_SLOT		0
#define XEXE_CONSTANTS_SLOT	1
#define XEXE_FIRST_LEAF_SLOT	2

struct xexe_slot {
	enum xexe_slot_kind kind;
	uint32_t param;		/* PARAM: the parameter number */
	uint32_t leaf;		/* PARAM, RESULT: the leaf, in tuple order */
	/*
	 * PARAM, RESULT: that leaf's shape, in the executable's params or
	 * result (so that binding a slot never walks a tuple for it)
	 */
	const struct xrt_shape *shape;
	uint64_t size;		/* bytes */
	/*
	 * PARAM of a donated parameter: the result leaf its buffer also
	 * holds when the program ends, or -1.  The program reads the
	 * parameter before it writes the result there.
	 */
	int64_t result_leaf;
};

/*
 * A while loop of the program: its condition starts at command @top,
 * the JUMP_IF_FALSE at @exit leaves it (not taken: one more iteration),
 * the jump back is at @back.  @where names it as the evaluator does:
 * "computation 'c', instruction 'w' (while)".  Executors count and stop
 * loops with these (a deadline, a cancel, an iteration bound).
 */
struct xexe_loop {
	uint32_t top, exit, back;
	char *where;
};

/*
 * A custom call of the program: CALL commands name it by its index.
 * @where names the instruction as messages do ("computation 'c',
 * instruction 'r'"); @attrs is an API_VERSION_TYPED_FFI call's
 * dictionary (empty otherwise), @opaque another version's backend_config.
 * @layouts, when not NULL, gives each of the command's views (arguments,
 * then results) the layout its array is in: the view's dims are in
 * physical order, major to minor, and entry j of a view's list is the
 * array's dimension that view dimension j is (a handler gets the
 * array's dims back in their order).
 */
struct xexe_call {
	char *target;
	char *where;
	struct xrt_ffi_attrs *attrs;
	char *opaque;
	uint8_t (*layouts)[XRT_MAX_RANK];
};

/*
 * Who meets at a COLLECTIVE, for every device of the program (devices
 * numbered replica x partitions + partition): device d's group is
 * members[start[g] .. start[g + 1]) with g = group_of[d], in the
 * group's order.  A permute's group is every device of its line (the
 * replicas of a partition, or the partitions of a replica); source[d]
 * is the device whose array d receives, -1 for none (zeros).  @where
 * names the instruction for messages.
 */
struct xexe_group {
	uint32_t *group_of;	/* [devices] */
	uint32_t *start;	/* [groups + 1] */
	uint32_t *members;	/* [devices] */
	int32_t *source;	/* [devices] for a permute, else NULL */
	char *where;
};

/*
 * What a device made of an executable, kept with it: found by @maker
 * (any address the device owns), freed by @destroy when the executable
 * is destroyed.
 */
struct xexe_form {
	const void *maker;
	void (*destroy)(struct xexe_form *f);
	struct xexe_form *next;
};

struct xrt_executable {
	const struct xrt_allocator *alloc;
	uint64_t id;		/* unique in the process: devices key uploads by it */
	void *program;		/* the command stream, not yet validated */
	size_t program_size;
	uint32_t num_commands;
	struct xexe_slot *slots;
	uint32_t num_slots;
	void *constants;	/* 64-byte aligned */
	size_t constants_size;
	uint32_t num_params;
	struct xrt_shape *params;	/* their shapes, layouts included */
	struct xrt_shape result;
	struct xexe_loop *loops;	/* by their exit jumps, ascending */
	uint32_t num_loops;
	struct xexe_call *calls;	/* by their CALL commands' indices */
	uint32_t num_calls;
	/* the devices it runs on together: 1 x 1 for a program of one */
	uint32_t num_replicas, num_partitions;
	struct xexe_group *groups;	/* by their COLLECTIVE commands' groups */
	uint32_t num_groups;
	_Atomic(struct xexe_form *) forms;
};

/* A new executable with a process-unique id and nothing else (NULL: no memory). */
struct xrt_executable *xexe_create(const struct xrt_allocator *a);
/* Frees @exe, its forms included; NULL is fine. */
void xexe_destroy(struct xrt_executable *exe);

/* Frees @n calls of a call table and the table. */
void xexe_free_calls(const struct xrt_allocator *a, struct xexe_call *calls, uint32_t n);
/* Frees @n groups of a group table and the table. */
void xexe_free_groups(const struct xrt_allocator *a, struct xexe_group *groups, uint32_t n);

/* Bytes of the first slot of @kind (the arena, the constants); 0 if none. */
uint64_t xexe_slot_size(const struct xrt_executable *exe, enum xexe_slot_kind kind);

/* @exe's form by @maker, NULL if none was added. */
struct xexe_form *xexe_form_find(const struct xrt_executable *exe, const void *maker);
/*
 * Adds @f to @exe, unless a form by the same maker came first: then @f
 * is destroyed and that one returned.  Safe from any thread.  Forms are
 * a cache of what @exe already says: adding one does not change it, so
 * a const executable takes them too.
 */
struct xexe_form *xexe_form_add(const struct xrt_executable *exe, struct xexe_form *f);

/*
 * Binds what each PARAM and RESULT slot of @exe holds: @slot_of is
 * called for each with the slot's number and plan, and fills its entry
 * of the caller's table.  The arena and constants slots are the
 * device's.  Stops at, and returns, the first error.  Inline, so that a
 * caller's static @slot_of is inlined too: eager binds a tiny op's
 * slots on every execution.
 */
static inline xrt_status *xexe_bind(const struct xrt_executable *exe,
				    xrt_status *(*slot_of)(void *ctx, uint32_t slot,
							   const struct xexe_slot *s),
				    void *ctx)
{
	uint32_t s;

	for (s = XEXE_FIRST_LEAF_SLOT; s < exe->num_slots; s++) {
		const struct xexe_slot *sl = &exe->slots[s];
		xrt_status *st;

		if (sl->kind != XEXE_SLOT_PARAM && sl->kind != XEXE_SLOT_RESULT)
			continue;
		st = slot_of(ctx, s, sl);
		if (st)
			return st;
	}
	return NULL;
}

#endif /* XRT_CSTREAM_EXECUTABLE_H */
