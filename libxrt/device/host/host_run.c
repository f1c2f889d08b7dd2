// SPDX-License-Identifier: MIT
/*
 * Running a compiled program on the host: parameter literals bound to
 * their slots (copied only when their layout is not the one compiled
 * for), an arena (the pool's, else a fresh one), result literals written in place, the engine
 * stepping through the commands.
 */
#include <pthread.h>
#include <string.h>

#include "core/literal.h"
#include "core/mem.h"
#include "core/shape.h"
#include "device/device.h"
#include "device/device_program.h"
#include "host_device.h"

/* The arrays of @lit into @out from *@n, tuples walked depth first. */
static void flatten(const xrt_literal *lit, const xrt_literal **out, size_t *n)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	uint32_t i;

	if (!xrt_shape_is_tuple(s)) {
		out[(*n)++] = lit;
		return;
	}
	for (i = 0; i < s->tuple_count; i++)
		flatten(xrt_literal_element(lit, i), out, n);
}

/* @src's elements in @dst's layout (same dims and type). */
static void relayout(xrt_literal *dst, const xrt_literal *src)
{
	xrt_elems_relayout(xrt_literal_mutable_data(dst), xrt_literal_shape(dst),
			   xrt_literal_data(src), xrt_literal_shape(src));
}

/* The result literal of shape @s from the leaves, in order. */
static xrt_status *assemble(const struct xrt_allocator *a, const struct xrt_shape *s,
			    xrt_literal **leaves, uint32_t *next, xrt_literal **out)
{
	xrt_literal **parts;
	xrt_status *st = NULL;
	uint32_t i;

	if (!xrt_shape_is_tuple(s)) {
		*out = leaves[*next];
		leaves[(*next)++] = NULL;
		return NULL;
	}
	parts = xrt_mem_calloc(a, s->tuple_count + 1, sizeof(*parts));
	if (!parts)
		return xrt_status_oom(a, "a result");
	for (i = 0; i < s->tuple_count && !st; i++)
		st = assemble(a, &s->tuple[i], leaves, next, &parts[i]);
	if (!st)
		st = xrt_literal_make_tuple(a, parts, s->tuple_count, out);
	if (st) {
		for (i = 0; i < s->tuple_count; i++)
			xrt_literal_destroy(parts[i]);
	}
	xrt_mem_free(a, parts);
	return st;
}

static xrt_status *check_args(const struct xrt_executable *exe, const xrt_literal *const *args,
			      uint32_t n, const struct xrt_allocator *a)
{
	uint32_t i;

	if (n != exe->num_params)
		return xrt_status_new(a, XRT_INVALID_ARGUMENT,
				      "run: %u arguments for %u parameters", n, exe->num_params);
	for (i = 0; i < n; i++) {
		if (!args[i] || !xrt_shape_compatible(&exe->params[i], xrt_literal_shape(args[i])))
			return xrt_status_new(a, XRT_INVALID_ARGUMENT,
					      "run: argument %u is %s, not of the parameter's shape",
					      i, args[i] ? "another shape" : "NULL");
	}
	return NULL;
}

struct run {
	uint8_t **slots;
	xrt_literal **owned;	/* per slot: a relaid-out parameter or a result leaf */
	void *arena;
	/* every argument's arrays, in order; parameter p's from base[p] */
	const xrt_literal **arg_leaves;
	size_t *base;
};

/* Each argument's arrays, found once (a slot then finds its own in O(1)). */
static xrt_status *flatten_args(const struct xrt_executable *exe,
				const xrt_literal *const *args, const struct xrt_allocator *a,
				struct run *r)
{
	size_t total = 0, n = 0;
	uint32_t p;

	for (p = 0; p < exe->num_params; p++)
		total += xrt_shape_leaf_count(&exe->params[p]);
	r->arg_leaves = xrt_mem_calloc(a, total + 1, sizeof(*r->arg_leaves));
	r->base = xrt_mem_calloc(a, exe->num_params + 1, sizeof(*r->base));
	if (!r->arg_leaves || !r->base)
		return xrt_status_oom(a, "a run");
	for (p = 0; p < exe->num_params; p++) {
		r->base[p] = n;
		flatten(args[p], r->arg_leaves, &n);
	}
	return NULL;
}

static const xrt_literal *arg_leaf(const struct run *r, const struct xexe_slot *sl)
{
	return r->arg_leaves[r->base[sl->param] + sl->leaf];
}

static xrt_status *bind_param(const struct xexe_slot *sl, const struct run *r,
			      const struct xrt_allocator *a, uint8_t **slot, xrt_literal **owned)
{
	const xrt_literal *p = arg_leaf(r, sl);
	const struct xrt_shape *want = sl->shape;
	xrt_status *st;

	if (xrt_shape_equal(xrt_literal_shape(p), want)) {
		*slot = (uint8_t *)xrt_literal_data(p);	/* read only */
		return NULL;
	}
	st = xrt_literal_create(a, want, owned);
	if (st)
		return st;
	relayout(*owned, p);
	*slot = xrt_literal_mutable_data(*owned);
	return NULL;
}

/*
 * A donated parameter leaf that ends as result leaf sl->result_leaf: the
 * caller's literal is const here, so the result literal starts as a copy
 * of it and the program works in that.  (Devices owning their buffers
 * use the donated buffer itself.)
 */
static xrt_status *bind_donated(const struct xexe_slot *sl, const struct run *r,
				const struct xrt_allocator *a, uint8_t **slot, xrt_literal **owned)
{
	const xrt_literal *p = arg_leaf(r, sl);
	/* a donor's shape is its result leaf's: the compiler matched them */
	xrt_status *st = xrt_literal_create(a, sl->shape, owned);

	if (st)
		return st;
	relayout(*owned, p);
	*slot = xrt_literal_mutable_data(*owned);
	return NULL;
}

static xrt_status *bind_slots(const struct xrt_executable *exe, const xrt_literal *const *args,
			      const struct host_run_options *o, const struct xrt_allocator *a,
			      struct run *r)
{
	xrt_status *st = flatten_args(exe, args, a, r);
	uint32_t s;

	for (s = 0; s < exe->num_slots && !st; s++) {
		const struct xexe_slot *sl = &exe->slots[s];

		switch (sl->kind) {
		case XEXE_SLOT_ARENA:
			if (o && o->pool)
				r->slots[s] = host_pool_arena(o->pool, sl->size);
			else
				r->slots[s] = r->arena = xrt_mem_alloc_aligned(a, sl->size, 64);
			if (!r->slots[s])
				st = xrt_status_oom(a, "the arena");
			break;
		case XEXE_SLOT_CONSTANTS:
			r->slots[s] = exe->constants;
			break;
		case XEXE_SLOT_PARAM:
			if (sl->result_leaf >= 0)
				st = bind_donated(sl, r, a, &r->slots[s], &r->owned[s]);
			else
				st = bind_param(sl, r, a, &r->slots[s], &r->owned[s]);
			break;
		case XEXE_SLOT_RESULT:
			st = xrt_literal_create(a, sl->shape, &r->owned[s]);
			if (!st)
				r->slots[s] = xrt_literal_mutable_data(r->owned[s]);
			break;
		}
	}
	return st;
}

/*
 * The engine's 8-wide kernels where the CPU has AVX2, 16-wide ones where
 * it has AVX-512 too.  They give the same bits as the 4-wide ones, so
 * this changes speed only.
 */
void host_detect_cpu(void)
{
	xrt_engine_use_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	xrt_engine_use_avx512 = xrt_engine_use_avx2 && __builtin_cpu_supports("avx512f") &&
				__builtin_cpu_supports("avx512vl") &&
				__builtin_cpu_supports("avx512dq") &&
				__builtin_cpu_supports("avx512bw");
}

/* The engine over the whole program: on the pool, or on this thread. */
static xrt_status *execute(const struct xrt_executable *exe, uint8_t **slots,
			   const struct host_run_options *o, const struct xrt_allocator *a)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const struct xdev_program *loaded;
	const struct xrt_engine_prog *p;
	struct xdev_watcher hw;
	struct xrt_engine_ctx x;
	xrt_status *st = xdev_program_of(exe, &loaded);
	bool pooled;
	void *shared;

	if (st)
		return st;
	p = &loaded->prog;
	/* Most programs share nothing: no allocation for them. */
	pooled = p->shared_ws_size && o && o->pool;
	if (pooled)
		shared = host_pool_shared(o->pool, p->shared_ws_size + 64);
	else
		shared = p->shared_ws_size ? xrt_mem_alloc_aligned(a, p->shared_ws_size + 64, 64) :
					     NULL;
	x = (struct xrt_engine_ctx){ p, slots, shared, o ? o->seed : 0 };
	if (o && o->watch && o->watch->peer) {
		x.replica_id = o->watch->peer->replica;
		x.partition_id = o->watch->peer->partition;
	}
	if (p->shared_ws_size && !shared)
		return xrt_status_oom(a, "engine workspace");
	pthread_once(&once, host_detect_cpu);
	st = xdev_watch_init(&hw, exe, p, o ? o->watch : NULL, a);
	if (!st)
		st = host_pool_run(o ? o->pool : NULL, exe, &x, !(o && o->no_blas),
				   o && o->watch ? &hw : NULL, o ? o->watch : NULL);
	xdev_watch_deinit(&hw);
	if (!pooled)
		xrt_mem_free(a, shared);
	return st;
}

xrt_status *host_run_bound(const struct xrt_executable *exe, uint8_t **slots,
			   const struct host_run_options *o, const struct xrt_allocator *a)
{
	uint64_t size = exe->slots[XEXE_ARENA_SLOT].size;
	void *arena = NULL;
	xrt_status *st;

	slots[XEXE_CONSTANTS_SLOT] = exe->constants;
	if (o && o->pool)
		slots[XEXE_ARENA_SLOT] = host_pool_arena(o->pool, size);
	else
		slots[XEXE_ARENA_SLOT] = arena = xrt_mem_alloc_aligned(a, size, 64);
	if (!slots[XEXE_ARENA_SLOT])
		return xrt_status_oom(a, "the arena");
	st = execute(exe, slots, o, a);
	xrt_mem_free(a, arena);
	return st;
}

xrt_status *host_run(const struct xrt_executable *exe, const xrt_literal *const *args,
		     uint32_t num_args, const struct host_run_options *o,
		     const struct xrt_allocator *a, xrt_literal **out)
{
	struct run r = { NULL, NULL, NULL, NULL, NULL };
	xrt_literal **leaves = NULL;
	xrt_status *st;
	uint32_t s, n = 0, next = 0;

	if (!exe || !out || (num_args && !args))
		return xrt_status_new(a, XRT_INVALID_ARGUMENT, "run: NULL argument");
	*out = NULL;
	st = check_args(exe, args, num_args, a);
	if (st)
		return st;
	r.slots = xrt_mem_calloc(a, exe->num_slots + 1, sizeof(*r.slots));
	r.owned = xrt_mem_calloc(a, exe->num_slots + 1, sizeof(*r.owned));
	leaves = xrt_mem_calloc(a, exe->num_slots + 1, sizeof(*leaves));
	st = r.slots && r.owned && leaves ? bind_slots(exe, args, o, a, &r) :
					     xrt_status_oom(a, "a run");
	if (!st)
		st = execute(exe, r.slots, o, a);
	for (s = 0; !st && s < exe->num_slots; s++) {
		const struct xexe_slot *sl = &exe->slots[s];

		if (sl->kind == XEXE_SLOT_RESULT || sl->result_leaf >= 0) {
			leaves[sl->kind == XEXE_SLOT_RESULT ? sl->leaf : sl->result_leaf] = r.owned[s];
			r.owned[s] = NULL;
			n++;
		}
	}
	if (!st)
		st = assemble(a, &exe->result, leaves, &next, out);
	for (s = 0; r.owned && s < exe->num_slots; s++)
		xrt_literal_destroy(r.owned[s]);
	for (s = 0; leaves && s < n; s++)
		xrt_literal_destroy(leaves[s]);
	xrt_mem_free(a, leaves);
	xrt_mem_free(a, r.owned);
	xrt_mem_free(a, r.slots);
	xrt_mem_free(a, r.arena);
	xrt_mem_free(a, r.arg_leaves);
	xrt_mem_free(a, r.base);
	return st;
}
