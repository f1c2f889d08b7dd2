// SPDX-License-Identifier: MIT
/*
 * The kernel cache: an op's key to its compiled one-op program.  The
 * programs themselves live in the process's compile cache (so the XRT
 * API and the eager API share them); this table only saves building and
 * fingerprinting the module on every execution.  Open addressing,
 * bounded: when full, new kernels run uncached rather than evicting.
 */
#include <string.h>

#include "core/mem.h"
#include "runtime/cache.h"
#include "eager_internal.h"

#define KC_CAP	8192	/* slots; at most 3/4 used */

struct eager_kernel {
	uint64_t key[2];
	struct centry *entry;
};

struct kernel_cache {
	const struct xrt_allocator *a;
	pthread_rwlock_t lock;
	struct eager_kernel *slots;
	uint32_t used;
};

xrt_status *kernel_cache_create(const struct xrt_allocator *a, struct kernel_cache **out)
{
	struct kernel_cache *k = xrt_mem_calloc(a, 1, sizeof(*k));

	*out = NULL;
	if (!k)
		return xrt_status_oom(a, "the kernel cache");
	k->a = a;
	k->slots = xrt_mem_calloc(a, KC_CAP, sizeof(*k->slots));
	if (!k->slots || pthread_rwlock_init(&k->lock, NULL)) {
		xrt_mem_free(a, k->slots);
		xrt_mem_free(a, k);
		return xrt_status_oom(a, "the kernel cache");
	}
	*out = k;
	return NULL;
}

void kernel_cache_clear(struct kernel_cache *k)
{
	uint32_t i;

	pthread_rwlock_wrlock(&k->lock);
	for (i = 0; i < KC_CAP; i++) {
		if (k->slots[i].entry)
			centry_unref(k->slots[i].entry);
	}
	memset(k->slots, 0, KC_CAP * sizeof(*k->slots));
	k->used = 0;
	pthread_rwlock_unlock(&k->lock);
}

void kernel_cache_destroy(struct kernel_cache *k)
{
	kernel_cache_clear(k);
	pthread_rwlock_destroy(&k->lock);
	xrt_mem_free(k->a, k->slots);
	xrt_mem_free(k->a, k);
}

static uint32_t probe_start(const uint64_t key[2])
{
	return (uint32_t)(key[0] & (KC_CAP - 1));
}

/* The slot of @key, or the empty one where it would go. */
static struct eager_kernel *probe(struct kernel_cache *k, const uint64_t key[2])
{
	uint32_t i = probe_start(key), n;

	for (n = 0; n < KC_CAP; n++, i = (i + 1) & (KC_CAP - 1)) {
		struct eager_kernel *s = &k->slots[i];

		if (!s->entry || (s->key[0] == key[0] && s->key[1] == key[1]))
			return s;
	}
	return NULL;
}

struct centry *kernel_cache_find(struct kernel_cache *k, const uint64_t key[2])
{
	struct eager_kernel *s;
	struct centry *e = NULL;

	pthread_rwlock_rdlock(&k->lock);
	s = probe(k, key);
	if (s && s->entry) {
		e = s->entry;
		centry_ref(e);	/* a clear may come while it runs */
	}
	pthread_rwlock_unlock(&k->lock);
	return e;
}

/* One parameter per input, the op's lowering, its outputs as the root. */
xrt_status *eager_build_module(const xrt_op *op, xrt_module **out)
{
	struct lowering l = { .op = op, .a = op->c->a };
	const xrt_tensor *t;
	struct xrt_shape s;
	xrt_status *st;
	xrt_value root;
	uint32_t i, p = 0;

	st = xrt_builder_create(op->c->a, op->def->name, "main", &l.b);
	if (st)
		return st;
	for (i = 0; !st && i < op->num_inputs; i++) {
		if (op->input_constant[i]) {
			const void *values;

			/* read while lowering: in host memory */
			st = eager_tensor_host(op->inputs[i], &values);
			l.consts[i] = op->inputs[i];
			continue;
		}
		/* a variable's parameter is its value */
		t = op->inputs[i]->var ? op->var_values[i] : op->inputs[i];
		st = xrt_shape_init_array(&s, t->dtype, t->rank, t->dims);
		if (!st)
			l.in[i] = xrt_build_parameter(l.b, p++, &s, NULL);
	}
	l.num_in = op->num_inputs;
	/* The lowerings read the parameters' shapes: they must exist. */
	if (!st && xrt_builder_error(l.b))
		st = xrt_status_new(op->c->a, xrt_status_code(xrt_builder_error(l.b)), "%s",
				    xrt_status_message(xrt_builder_error(l.b)));
	if (!st)
		st = op->def->lower(&l);
	if (!st) {
		if (op->def->num_outputs)	/* else the lowering says */
			l.num_out = op->def->num_outputs;
		root = l.num_out == 1 ? l.out[0] : xrt_build_tuple(l.b, l.out, l.num_out);
		st = xrt_builder_build(l.b, root, out);
		if (st)
			st = xrt_status_annotate(st, "%s", op->def->name);
	}
	xrt_builder_destroy(l.b);
	return st;
}

xrt_status *kernel_cache_add(struct kernel_cache *k, xrt_op *op, struct centry **out)
{
	struct eager_kernel *s;
	struct centry *e = NULL;
	xrt_module *m = NULL;
	xrt_status *st;

	*out = NULL;
	st = eager_build_module(op, &m);
	if (!st)
		st = ccache_get(m, 0, op->c->a, &e);
	xrt_module_destroy(m);
	if (st)
		return st;
	pthread_rwlock_wrlock(&k->lock);
	s = probe(k, op->key);
	/* Full: the kernel still runs, from the compile cache. */
	if (s && !s->entry && k->used < KC_CAP / 4 * 3) {
		s->key[0] = op->key[0];
		s->key[1] = op->key[1];
		s->entry = e;
		centry_ref(e);
		k->used++;
	}
	pthread_rwlock_unlock(&k->lock);
	*out = e;
	return NULL;
}
