// SPDX-License-Identifier: MIT
/*
 * Compilation handles and execution (the seed's XRTCompile,
 * XRTReleaseCompilationHandle, XRTExecute).  A compilation handle holds
 * a reference on a compile cache entry.  An execution checks its
 * arguments against the program shape, binds each parameter leaf's
 * buffer (or a relaid copy) and a fresh result tree's buffers to the
 * program's slots, and runs it on the session's queue.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "core/literal.h"
#include "core/mem.h"
#include "core/shape.h"
#include "xrt_internal.h"

void xrt_program_shape_deinit(struct xrt_program_shape *ps)
{
	uint32_t i;

	if (!ps)
		return;
	for (i = 0; ps->params && i < ps->num_params; i++)
		xrt_shape_deinit(&ps->params[i]);
	xrt_mem_free(ps->alloc, ps->params);
	xrt_shape_deinit(&ps->result);
	memset(ps, 0, sizeof(*ps));
}

static xrt_status *do_compile_module(xrt_session *s, const xrt_module *m, xrt_handle *out)
{
	struct centry *e;
	xrt_status *st;

	if (!s || !m || !out)
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT, "compile: %s is NULL",
				      !s ? "the session" : !m ? "the module" : "out");
	st = ccache_get(m, 0, s->a, &e);
	return st ? st : xhandle_add(s, HK_COMPILE, e, out);
}

xrt_status *xrt_compile_module(xrt_session *s, const xrt_module *m, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_compile_module(s, m, out);

	xstat_record(s, XRT_STAT_COMPILE, t0, st);
	return st;
}

xrt_status *xrt_compile_hlo(xrt_session *s, const char *text, size_t len, xrt_handle *out)
{
	xrt_module *m = NULL;
	xrt_status *st;

	if (!s || !text || !out)
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT, "compile: %s is NULL",
				      !s ? "the session" : !text ? "the text" : "out");
	st = xrt_hlo_parse(s->a, text, len, &m);
	if (!st)
		st = xrt_compile_module(s, m, out);
	xrt_module_destroy(m);
	return st;
}

xrt_status *xrt_compile_xla_proto(xrt_session *s, const void *data, size_t len,
				  xrt_handle *out)
{
	xrt_module *m = NULL;
	xrt_status *st;

	if (!s || (!data && len) || !out)
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT, "compile: %s is NULL",
				      !s ? "the session" : !out ? "out" : "the data");
	st = xrt_hlo_parse_xla_proto(s->a, data, len, XRT_XLA_ANY, &m);
	if (!st)
		st = xrt_compile_module(s, m, out);
	xrt_module_destroy(m);
	return st;
}

xrt_status *xrt_compilation_shape(xrt_session *s, xrt_handle h, const struct xrt_allocator *a,
				  struct xrt_program_shape *out)
{
	const struct xrt_executable *exe;
	struct centry *e;
	xrt_status *st;
	uint32_t i;

	if (!s || !out)
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT,
				      "compilation shape: %s is NULL", !s ? "the session" : "out");
	memset(out, 0, sizeof(*out));
	st = xhandle_get(s, h, HK_COMPILE, (void **)&e);
	if (st)
		return st;
	exe = centry_exe(e);
	out->alloc = a;
	out->params = xrt_mem_calloc(a, exe->num_params + 1, sizeof(*out->params));
	st = out->params ? xrt_shape_copy(&out->result, a, &exe->result) :
			   xrt_status_oom(a, "a program shape");
	for (i = 0; !st && i < exe->num_params; i++) {
		st = xrt_shape_copy(&out->params[i], a, &exe->params[i]);
		out->num_params = i + 1;
	}
	centry_unref(e);
	if (st)
		xrt_program_shape_deinit(out);
	return st;
}

xrt_status *xrt_release_compilations(xrt_session *s, const xrt_handle *h, uint32_t n)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = xhandle_release(s, h, n, HK_COMPILE);

	xstat_record(s, XRT_STAT_RELEASE, t0, st);
	return st;
}

/* The array nodes under @n into @out from *@k, depth first. */
static void flatten(struct xnode *n, struct xnode **out, size_t *k)
{
	uint32_t i;

	if (!n->kids) {
		out[(*k)++] = n;
		return;
	}
	for (i = 0; i < n->shape.tuple_count; i++)
		flatten(n->kids[i], out, k);
}

struct run {
	xrt_session *s;
	struct centry *entry;
	const struct xrt_executable *exe;
	struct xnode **args, *result;
	uint32_t num_args;
	struct xdev_buf *slots, *copies;	/* per slot: a relaid argument leaf to free */
	/*
	 * Every argument's array nodes, parameter p's from base[p], then the
	 * result's from base[num_params]: found once, so that binding is
	 * linear in the slots however wide the tuples.
	 */
	struct xnode **leaves;
	size_t *base;
	/* most programs: room enough here, no allocation */
	struct xnode *small_leaves[16];
	size_t small_base[8];
};

/* The leaves of the arguments and the result (r->result made). */
static xrt_status *flatten_nodes(struct run *r)
{
	const struct xrt_executable *exe = r->exe;
	size_t total = xrt_shape_leaf_count(&exe->result), k = 0;
	uint32_t p;

	for (p = 0; p < exe->num_params; p++)
		total += xrt_shape_leaf_count(&exe->params[p]);
	r->leaves = total <= 16 ? r->small_leaves :
		    xrt_mem_calloc(r->s->a, total, sizeof(*r->leaves));
	r->base = exe->num_params < 8 ? r->small_base :
		  xrt_mem_calloc(r->s->a, exe->num_params + 1, sizeof(*r->base));
	if (!r->leaves || !r->base)
		return xrt_status_oom(r->s->a, "an execution");
	for (p = 0; p < exe->num_params; p++) {
		r->base[p] = k;
		flatten(r->args[p], r->leaves, &k);
	}
	r->base[exe->num_params] = k;
	flatten(r->result, r->leaves, &k);
	return NULL;
}

static struct xnode *arg_leaf(const struct run *r, const struct xexe_slot *sl)
{
	return r->leaves[r->base[sl->param] + sl->leaf];
}

static struct xnode *result_leaf(const struct run *r, uint32_t leaf)
{
	return r->leaves[r->base[r->exe->num_params] + leaf];
}

/* The argument nodes against the program's parameters. */
static xrt_status *check_shapes(struct run *r, uint32_t n)
{
	char have[128], want[128];
	uint32_t i;

	if (n != r->exe->num_params)
		return xrt_status_new(r->s->a, XRT_INVALID_ARGUMENT,
				      "execute: %u arguments for a program of %u parameters", n,
				      r->exe->num_params);
	for (i = 0; i < n; i++) {
		if (!xrt_shape_compatible(&r->args[i]->shape, &r->exe->params[i])) {
			xrt_shape_format(&r->args[i]->shape, have, sizeof(have));
			xrt_shape_format(&r->exe->params[i], want, sizeof(want));
			return xrt_status_new(r->s->a, XRT_INVALID_ARGUMENT,
					      "execute: argument %u is %s, parameter %u takes %s", i,
					      have, i, want);
		}
	}
	return NULL;
}

/* @n's values laid out as @want, in @copy (a buffer of n->bytes). */
static xrt_status *relaid(xrt_session *s, const struct xnode *n, const struct xrt_shape *want,
			  struct xdev_buf *copy)
{
	xrt_status *st;
	void *tmp;

	if (copy->data && n->buf.data) {
		xrt_elems_relayout(copy->data, want, n->buf.data, &n->shape);
		return NULL;
	}
	tmp = xrt_mem_alloc_aligned(s->a, 2 * (n->bytes ? n->bytes : 1), 64);
	if (!tmp)
		return xrt_status_oom(s->a, "a relaid argument");
	st = xdev_read(s->dev, &n->buf, 0, tmp, n->bytes, s->a);
	if (!st) {
		xrt_elems_relayout((uint8_t *)tmp + n->bytes, want, tmp, &n->shape);
		st = xdev_write(s->dev, copy, 0, (uint8_t *)tmp + n->bytes, n->bytes, s->a);
	}
	xrt_mem_free(s->a, tmp);
	return st;
}

/* A PARAM or RESULT slot's buffer: an argument leaf (or its relaid copy), a result leaf. */
static xrt_status *bind_slot(void *ctx, uint32_t s, const struct xexe_slot *sl)
{
	struct run *r = ctx;
	const struct xrt_shape *want = sl->shape;
	struct xnode *n;
	xrt_status *st;

	if (sl->kind == XEXE_SLOT_RESULT) {
		r->slots[s] = result_leaf(r, sl->leaf)->buf;
		return NULL;
	}
	n = arg_leaf(r, sl);
	/* the run computing it failed: so would this one */
	if (n->job && xevent_failed(n->job))
		return xrt_status_annotate(xnode_settle(r->s, n), "argument %u", sl->param);
	if (xrt_shape_equal(&n->shape, want)) {
		r->slots[s] = n->buf;
		return NULL;
	}
	/* its values are read here: they must be there */
	st = xnode_settle(r->s, n);
	if (st)
		return xrt_status_annotate(st, "argument %u", sl->param);
	st = r->s->dev->ops->alloc(r->s->dev, n->bytes, r->s->a, &r->copies[s]);
	if (st)
		return xrt_status_annotate(st, "a relaid argument");
	st = relaid(r->s, n, want, &r->copies[s]);
	if (st)
		return xrt_status_annotate(st, "a relaid argument");
	r->slots[s] = r->copies[s];
	return NULL;
}

static xrt_status *bind(struct run *r)
{
	return xexe_bind(r->exe, bind_slot, r);
}

/*
 * The process's part of fresh seeds: its pid, read once (getpid() is a
 * system call, a tenth of a tiny execution) and again in a forked child.
 */
static atomic_uint_fast64_t seed_base;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;

static void seed_base_set(void)
{
	atomic_store(&seed_base, (uint64_t)getpid() * 0xBF58476D1CE4E5B9ull);
}

static void seed_base_init(void)
{
	seed_base_set();
	pthread_atfork(NULL, NULL, seed_base_set);
}

uint64_t xexec_fresh_seed(void)
{
	static atomic_uint_fast64_t counter;
	uint64_t z;

	pthread_once(&seed_once, seed_base_init);
	z = atomic_fetch_add(&counter, 1) * 0x9E3779B97F4A7C15ull + atomic_load(&seed_base);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (z ^ (z >> 31)) | 1;
}

/* Each result leaf is written by the run of @e: it holds a reference. */
static void mark_pending(struct xnode *n, struct xrt_event *e)
{
	uint32_t i;

	for (i = 0; n->kids && i < n->shape.tuple_count; i++)
		mark_pending(n->kids[i], e);
	if (!n->kids) {
		xevent_unref(n->job);
		xevent_ref(e);
		n->job = e;
	}
}

/*
 * What a submitted run keeps until its device is done with it: the
 * program's cache entry, the argument and result trees, the relaid
 * copies (freed then) and the cancel flag.
 */
struct run_hold {
	struct xdev_hold base;
	xrt_session *s;
	struct centry *entry;
	struct xnode **args, *result;
	uint32_t num_args, num_slots;
	struct xdev_buf *copies;
	xrt_cancel *cancel;
};

static void cancel_unref(xrt_cancel *c);

static void hold_release(struct xdev_hold *h)
{
	struct run_hold *rh = (struct run_hold *)h;	/* the first member */
	xrt_session *s = rh->s;
	uint32_t i;

	for (i = 0; i < rh->num_slots; i++) {
		if (xdev_buf_live(&rh->copies[i]))
			s->dev->ops->free(s->dev, &rh->copies[i], s->a);
	}
	for (i = 0; i < rh->num_args; i++)
		xnode_unref(s, rh->args[i]);
	xnode_unref(s, rh->result);
	centry_unref(rh->entry);
	cancel_unref(rh->cancel);
	xrt_mem_free(s->a, rh->copies);
	xrt_mem_free(s->a, rh->args);
	xrt_mem_free(s->a, rh);
}

/* The xrt_cancel whose flag @w watches (all come from xexec_watch()), a reference; or NULL. */
static xrt_cancel *cancel_of(const struct xdev_watch *w);

/* The hold of @r's submission: references on all it uses; the copies move into it. */
static struct run_hold *hold_new(struct run *r, const struct xdev_watch *w)
{
	const struct xrt_allocator *a = r->s->a;
	struct run_hold *h = xrt_mem_calloc(a, 1, sizeof(*h));
	uint32_t i;

	if (!h)
		return NULL;
	h->args = xrt_mem_calloc(a, r->num_args + 1, sizeof(*h->args));
	h->copies = xrt_mem_calloc(a, r->exe->num_slots + 1, sizeof(*h->copies));
	if (!h->args || !h->copies) {
		xrt_mem_free(a, h->args);
		xrt_mem_free(a, h->copies);
		xrt_mem_free(a, h);
		return NULL;
	}
	h->base.release = hold_release;
	h->s = r->s;
	h->entry = r->entry;
	centry_ref(r->entry);
	for (i = 0; i < r->num_args; i++) {
		h->args[i] = r->args[i];
		xnode_ref(r->args[i]);
	}
	h->num_args = r->num_args;
	h->result = r->result;
	xnode_ref(r->result);
	memcpy(h->copies, r->copies, r->exe->num_slots * sizeof(*h->copies));
	h->num_slots = r->exe->num_slots;
	h->cancel = cancel_of(w);
	return h;
}

/* The device did not take the hold: the copies stay the caller's. */
static void hold_undo(struct run_hold *h)
{
	h->num_slots = 0;
	hold_release(&h->base);
}

/* Runs on the session's queue; with @event, starts the run only. */
static xrt_status *run_on_queue(struct run *r, uint64_t seed, const struct xdev_watch *w,
				struct xrt_event **event)
{
	xrt_session *s = r->s;
	struct xdev_event *ev = NULL;
	struct run_hold *h;
	struct xdev_queue *q;
	xrt_status *st = xsession_queue(s, &q);
	bool running;

	if (st)
		return st;
	if (!event)
		return s->dev->ops->run(q, r->exe, r->slots, seed, w);
	h = hold_new(r, w);
	if (!h)
		return xrt_status_oom(s->a, "an execution");
	st = s->dev->ops->submit(q, r->exe, r->slots, seed, w, &h->base, &ev);
	if (st) {
		hold_undo(h);
		return st;
	}
	/* the hold frees the copies once the run is done */
	memset(r->copies, 0, r->exe->num_slots * sizeof(*r->copies));
	st = xevent_new(s->a, s->dev, ev, event);
	if (st) {
		/* no event to wait with: wait here, as a run would */
		xrt_status_free(s->dev->ops->event_wait(ev, -1, s->a, &running));
		s->dev->ops->event_free(ev);
	}
	return st;
}

/*
 * The result tree, the buffers of leaves held by donated parameters left
 * out: those come from the parameters after the run.
 */
static xrt_status *result_tree(struct run *r)
{
	const struct xrt_executable *exe = r->exe;
	uint32_t n = (uint32_t)xrt_shape_leaf_count(&exe->result), s, leaf = 0;
	bool *skip = xrt_mem_calloc(r->s->a, n + 1, sizeof(*skip));
	xrt_status *st;

	if (!skip)
		return xrt_status_oom(r->s->a, "an execution");
	for (s = 0; s < exe->num_slots; s++) {
		if (exe->slots[s].kind == XEXE_SLOT_PARAM && exe->slots[s].result_leaf >= 0)
			skip[exe->slots[s].result_leaf] = true;
	}
	st = xnode_from_shape_skip(r->s, &exe->result, skip, &leaf, &r->result);
	xrt_mem_free(r->s->a, skip);
	return st;
}

/* Each donated parameter leaf's buffer, written by the run, becomes its result leaf's. */
static void take_donations(struct run *r)
{
	const struct xrt_executable *exe = r->exe;
	uint32_t s;

	for (s = 0; s < exe->num_slots; s++) {
		const struct xexe_slot *sl = &exe->slots[s];

		if (sl->kind != XEXE_SLOT_PARAM || sl->result_leaf < 0)
			continue;
		xnode_move_buffer(result_leaf(r, (uint32_t)sl->result_leaf), arg_leaf(r, sl));
	}
}

xrt_status *xexec_nodes(xrt_session *s, struct centry *entry, struct xnode **args,
			uint32_t n, uint64_t seed, const struct xdev_watch *w,
			struct xnode **result, struct xrt_event **event)
{
	const struct xrt_executable *exe = centry_exe(entry);
	struct run r = { .s = s, .entry = entry, .exe = exe, .args = args, .num_args = n };
	xrt_status *st = check_shapes(&r, n);
	struct xdev_buf small[2 * 8];	/* most programs: no allocation */
	uint32_t i;

	*result = NULL;
	if (st)
		return st;
	if (exe->num_slots <= 8) {
		memset(small, 0, 2 * exe->num_slots * sizeof(*small));
		r.slots = small;
	} else {
		r.slots = xrt_mem_calloc(s->a, 2 * (size_t)exe->num_slots, sizeof(*r.slots));
		if (!r.slots)
			return xrt_status_oom(s->a, "an execution");
	}
	r.copies = r.slots + exe->num_slots;
	st = result_tree(&r);
	if (!st)
		st = flatten_nodes(&r);
	if (!st)
		st = bind(&r);
	if (!st)
		st = run_on_queue(&r, seed ? seed : xexec_fresh_seed(), w, event);
	for (i = 0; i < exe->num_slots; i++) {
		if (xdev_buf_live(&r.copies[i]))
			s->dev->ops->free(s->dev, &r.copies[i], s->a);
	}
	if (r.slots != small)
		xrt_mem_free(s->a, r.slots);
	if (!st)
		take_donations(&r);
	if (r.leaves != r.small_leaves)
		xrt_mem_free(s->a, r.leaves);
	if (r.base != r.small_base)
		xrt_mem_free(s->a, r.base);
	if (st) {
		xnode_unref(s, r.result);
		return st;
	}
	if (event)
		mark_pending(r.result, *event);
	*result = r.result;
	return NULL;
}

/*
 * With release_inputs, the argument handles leave the table before the
 * run (so nothing else can reach their buffers), and each argument no
 * one else shares, of exactly its parameter's shape, is donated: the
 * program is the module compiled with those parameters donated, and a
 * result of the same shape is computed in the argument's buffer.
 */
static void donate(xrt_session *s, struct centry **e, const xrt_handle *args,
		   struct xnode **nodes, uint32_t n)
{
	const struct xrt_executable *exe = centry_exe(*e);
	struct centry *variant = NULL;
	uint64_t mask = 0;
	xrt_status *st;
	uint32_t i;

	for (i = 0; i < n; i++)
		xnode_unref(s, xalloc_take(s, args[i]));	/* our reference stays */
	for (i = 0; i < n && i < 64; i++) {
		if (xnode_exclusive(nodes[i], 1) && xrt_shape_equal(&nodes[i]->shape, &exe->params[i]))
			mask |= 1ull << i;
	}
	if (!mask)
		return;
	st = ccache_variant(*e, mask, s->a, &variant);
	if (st) {	/* no variant (out of memory): run undonated */
		xrt_status_free(st);
		return;
	}
	centry_unref(*e);
	*e = variant;
}

/* Counted: a run submitted with it holds a reference until it ends. */
struct xrt_cancel {
	atomic_bool raised;
	atomic_uint refs;
};

static xrt_cancel *cancel_of(const struct xdev_watch *w)
{
	xrt_cancel *c;

	if (!w || !w->cancel)
		return NULL;
	c = (xrt_cancel *)((const char *)w->cancel - offsetof(struct xrt_cancel, raised));
	atomic_fetch_add(&c->refs, 1);
	return c;
}

static void cancel_unref(xrt_cancel *c)
{
	if (c && atomic_fetch_sub(&c->refs, 1) == 1)
		xrt_mem_free(NULL, c);
}

xrt_status *xrt_cancel_create(xrt_cancel **out)
{
	if (!out)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "cancel: out is NULL");
	*out = xrt_mem_calloc(NULL, 1, sizeof(**out));
	if (!*out)
		return xrt_status_oom(NULL, "a cancel flag");
	atomic_init(&(*out)->raised, false);
	atomic_init(&(*out)->refs, 1);
	return NULL;
}

void xrt_cancel_request(xrt_cancel *c)
{
	if (c)
		atomic_store(&c->raised, true);
}

void xrt_cancel_reset(xrt_cancel *c)
{
	if (c)
		atomic_store(&c->raised, false);
}

void xrt_cancel_destroy(xrt_cancel *c)
{
	cancel_unref(c);
}

const struct xdev_watch *xexec_watch(const struct xrt_execution_config *c,
				     struct xdev_watch *w)
{
	struct timespec t;

	if (!c || (!c->timeout_ns && !c->max_iterations && !c->cancel))
		return NULL;
	memset(w, 0, sizeof(*w));
	w->cancel = c->cancel ? &c->cancel->raised : NULL;
	w->max_iterations = c->max_iterations;
	if (c->timeout_ns) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		w->deadline_ns = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec +
				 c->timeout_ns;
		if (w->deadline_ns < c->timeout_ns)	/* past 2^64 ns: never */
			w->deadline_ns = UINT64_MAX;
	}
	return w;
}

static xrt_status *do_execute(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			      uint32_t n, const struct xrt_execution_config *c, xrt_handle *out,
			      struct xrt_event **event, const struct xdev_peer *peer)
{
	struct xnode **nodes, *result = NULL;
	const struct xdev_watch *limits;
	struct xdev_watch w;
	struct centry *e = NULL;
	struct run r = { .s = s };
	xrt_status *st;
	uint32_t i;

	if (!s || !out || (!args && n))
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT, "execute: %s is NULL",
				      !s ? "the session" : !out ? "out" : "args");
	if (c && c->device_ordinal)
		return xrt_status_new(s->a, XRT_INVALID_ARGUMENT,
				      "execute: device ordinal %d, the session's device is %s",
				      c->device_ordinal, s->dev->info.name);
	st = xhandle_get(s, compilation, HK_COMPILE, (void **)&e);
	if (st)
		return st;
	nodes = xrt_mem_calloc(s->a, n + 1, sizeof(*nodes));
	st = nodes ? NULL : xrt_status_oom(s->a, "an execution");
	for (i = 0; !st && i < n; i++) {
		st = xalloc_get(s, args[i], &nodes[i]);
		if (st)
			st = xrt_status_annotate(st, "execute: argument %u", i);
	}
	r.exe = centry_exe(e);
	r.args = nodes;
	if (!st && c && c->release_inputs) {
		st = check_shapes(&r, n);	/* before anything is released */
		if (!st)
			donate(s, &e, args, nodes, n);
	}
	limits = xexec_watch(c, &w);
	if (peer) {	/* one device of several: always watched, for its peer */
		if (!limits)
			memset(&w, 0, sizeof(w));
		w.peer = peer;
		limits = &w;
	}
	if (!st)
		st = xexec_nodes(s, e, nodes, n, c ? c->rng_seed : 0, limits, &result, event);
	if (!st)
		st = xalloc_add(s, result, out);	/* the handle takes the result */
	if (!st && c && c->release_compilation)
		centry_unref(xhandle_take(s, compilation, HK_COMPILE));
	for (i = 0; nodes && i < n; i++)
		xnode_unref(s, nodes[i]);
	xrt_mem_free(s->a, nodes);
	centry_unref(e);
	return st;
}

xrt_status *xrt_execute(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			uint32_t n, const struct xrt_execution_config *c, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_execute(s, compilation, args, n, c, out, NULL, NULL);

	xstat_record(s, XRT_STAT_EXECUTE, t0, st);
	return st;
}

xrt_status *xrt_execute_async(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			      uint32_t n, const struct xrt_execution_config *c, xrt_handle *out,
			      xrt_event **event)
{
	uint64_t t0 = xstat_now();
	struct xrt_event *e = NULL;
	xrt_status *st;

	if (event)
		*event = NULL;
	st = do_execute(s, compilation, args, n, c, out, &e, NULL);
	if (!st && event)
		*event = e;
	else
		xevent_unref(e);
	xstat_record(s, XRT_STAT_EXECUTE, t0, st);
	return st;
}

xrt_status *xexec_execute_as(xrt_session *s, xrt_handle compilation, const xrt_handle *args,
			     uint32_t n, const struct xrt_execution_config *c,
			     const struct xdev_peer *peer, xrt_handle *out)
{
	uint64_t t0 = xstat_now();
	xrt_status *st = do_execute(s, compilation, args, n, c, out, NULL, peer);

	xstat_record(s, XRT_STAT_EXECUTE, t0, st);
	return st;
}
