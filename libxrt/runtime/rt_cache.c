// SPDX-License-Identifier: MIT
/*
 * The compile cache, one per process.  Entries are keyed by the module's
 * fingerprint and the device kind (and the compile options, all default
 * for now); a lookup that finds an entry still compiling waits for it,
 * so concurrent compiles of one module compile once; a failure is an
 * entry too, and gives its error to whoever asks again, except running
 * out of memory: that one goes to those waiting, and the entry leaves
 * the table, so that the next compile tries again.
 *
 * Entries sit in a hash table and an LRU list.  When the cached entries
 * pass the entry or byte limit, the least recently used are evicted:
 * out of the list and the counts at once, freed when the last handle on
 * them goes.  An evicted entry still referenced stays findable and
 * comes back into the list if compiled again.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include <xrt/device.h>
#include <xrt/xrt.h>

#include "compiler/compiler.h"
#include "core/mem.h"
#include "runtime/cache.h"

#define BUCKETS 1024

enum cstate { C_COMPILING, C_READY, C_FAILED };

struct centry {
	uint64_t key[4];	/* fingerprint, device kind, donated parameters */
	void *module;		/* the module's canonical bytes, for variants */
	size_t module_size;
	unsigned refs;		/* handles and waiters; under the cache's lock */
	enum cstate state;
	struct xrt_executable *exe;
	enum xrt_code code;	/* C_FAILED */
	char *msg;
	uint64_t bytes;
	bool listed;		/* in the LRU list and the counts */
	bool hashed;		/* findable in the table */
	struct centry *prev, *next, *hnext;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t done;
	struct centry *buckets[BUCKETS];
	struct centry *head, *tail;	/* most recently used first */
	uint64_t entries, bytes, max_entries, max_bytes;
	uint64_t compiles, hits, evictions;
} cache = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, { NULL }, NULL, NULL,
	    0, 0, 1024, 256ull << 20, 0, 0, 0 };

static struct centry **bucket(const uint64_t *key)
{
	return &cache.buckets[(key[0] ^ key[1] ^ key[2] ^ key[3]) % BUCKETS];
}

static void unlist(struct centry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		cache.head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		cache.tail = e->prev;
	e->prev = e->next = NULL;
	e->listed = false;
	cache.entries--;
	cache.bytes -= e->bytes;
}

static void list_front(struct centry *e)
{
	e->prev = NULL;
	e->next = cache.head;
	if (cache.head)
		cache.head->prev = e;
	cache.head = e;
	if (!cache.tail)
		cache.tail = e;
	e->listed = true;
	cache.entries++;
	cache.bytes += e->bytes;
}

static void touch(struct centry *e)
{
	if (e->listed)
		unlist(e);
	list_front(e);
}

/* Off the hash table (locked). */
static void unhash(struct centry *e)
{
	struct centry **p = bucket(e->key);

	while (*p != e)
		p = &(*p)->hnext;
	*p = e->hnext;
	e->hashed = false;
}

/* Off the hash table and freed (locked; no references left). */
static void destroy(struct centry *e)
{
	if (e->hashed)
		unhash(e);
	xexe_destroy(e->exe);
	xrt_free(NULL, e->module);
	xrt_mem_free(NULL, e->msg);
	xrt_mem_free(NULL, e);
}

/* Evicts from the old end while over a limit; never @keep (locked). */
static void evict(struct centry *keep)
{
	struct centry *e = cache.tail, *prev;

	while (e && (cache.entries > cache.max_entries || cache.bytes > cache.max_bytes)) {
		prev = e->prev;
		if (e != keep && e->state != C_COMPILING) {
			unlist(e);
			cache.evictions++;
			if (!e->refs)
				destroy(e);
		}
		e = prev;
	}
}

void centry_ref(struct centry *e)
{
	pthread_mutex_lock(&cache.lock);
	e->refs++;
	pthread_mutex_unlock(&cache.lock);
}

void centry_unref(struct centry *e)
{
	if (!e)
		return;
	pthread_mutex_lock(&cache.lock);
	if (!--e->refs && !e->listed)
		destroy(e);
	pthread_mutex_unlock(&cache.lock);
}

const struct xrt_executable *centry_exe(const struct centry *e)
{
	return e->exe;
}

xrt_status *ccache_variant(const struct centry *e, uint64_t donated,
			   const struct xrt_allocator *a, struct centry **out)
{
	xrt_module *m = NULL;
	xrt_status *st;

	*out = NULL;
	if (!e->module)
		return xrt_status_new(a, XRT_RESOURCE_EXHAUSTED, "compile: no module kept");
	st = xrt_module_deserialize(NULL, e->module, e->module_size, &m);
	if (!st)
		st = ccache_get(m, donated, a, out);
	xrt_module_destroy(m);
	return st;
}

/* Compiles @e's module outside the lock; then publishes the outcome. */
static void compile(struct centry *e, const xrt_module *m)
{
	struct cc_options o = { .donated = e->key[3] };
	struct xrt_executable *exe = NULL;
	xrt_status *st = cc_compile(m, &o, NULL, &exe);
	char *msg = NULL;

	/* kept for variants (donation) by the undonated entry: a failure to
	 * keep it only costs those */
	if (!st && !e->key[3]) {
		xrt_status *keep = xrt_module_serialize(m, NULL, &e->module, &e->module_size);

		if (keep)
			e->module = NULL;
		xrt_status_free(keep);
	}

	if (st) {
		const char *t = xrt_status_message(st);

		msg = xrt_mem_alloc(NULL, strlen(t) + 1);
		if (msg)
			strcpy(msg, t);
	}
	pthread_mutex_lock(&cache.lock);
	if (e->listed)
		unlist(e);
	e->exe = exe;
	e->code = st ? xrt_status_code(st) : XRT_OK;
	e->msg = msg;
	e->state = st ? C_FAILED : C_READY;
	e->bytes = sizeof(*e) + (exe ? exe->program_size + exe->constants_size : 0) +
		   (msg ? strlen(msg) : 0) + (e->module ? e->module_size : 0);
	if (e->code == XRT_RESOURCE_EXHAUSTED) {
		unhash(e);	/* a passing shortage: not the module's outcome */
	} else {
		list_front(e);
		evict(e);
	}
	cache.compiles++;
	pthread_cond_broadcast(&cache.done);
	pthread_mutex_unlock(&cache.lock);
	xrt_status_free(st);
}

/* The entry's error for the caller (allocated with @a), if it failed. */
static xrt_status *outcome(struct centry *e, const struct xrt_allocator *a)
{
	if (e->state == C_READY)
		return NULL;
	return xrt_status_new(a, e->code, "%s", e->msg ? e->msg : "compile: failed");
}

xrt_status *ccache_get(const xrt_module *m, uint64_t donated, const struct xrt_allocator *a,
		       struct centry **out)
{
	uint64_t key[4] = { 0, 0, XRT_DEVICE_HOST, donated };
	struct centry *e;
	xrt_status *st = xrt_module_fingerprint(m, key);

	*out = NULL;
	if (st)
		return st;
	pthread_mutex_lock(&cache.lock);
	for (e = *bucket(key); e && memcmp(e->key, key, sizeof(key)); e = e->hnext)
		;
	if (e) {
		e->refs++;
		cache.hits++;
		if (e->state != C_COMPILING) {
			touch(e);	/* back in the list if it was evicted */
			evict(e);
		}
		while (e->state == C_COMPILING)
			pthread_cond_wait(&cache.done, &cache.lock);
		pthread_mutex_unlock(&cache.lock);
	} else {
		e = xrt_mem_calloc(NULL, 1, sizeof(*e));
		if (!e) {
			pthread_mutex_unlock(&cache.lock);
			return xrt_status_oom(a, "a compile cache entry");
		}
		memcpy(e->key, key, sizeof(key));
		e->refs = 1;
		e->hnext = *bucket(key);
		e->hashed = true;
		*bucket(key) = e;
		pthread_mutex_unlock(&cache.lock);
		compile(e, m);
	}
	st = outcome(e, a);
	if (st) {
		centry_unref(e);
		return st;
	}
	*out = e;
	return NULL;
}

void xrt_compile_cache_limits(uint64_t max_entries, uint64_t max_bytes)
{
	pthread_mutex_lock(&cache.lock);
	cache.max_entries = max_entries;
	cache.max_bytes = max_bytes;
	evict(NULL);
	pthread_mutex_unlock(&cache.lock);
}

void xrt_compile_cache_stats(struct xrt_compile_cache_stats *out)
{
	if (!out)
		return;
	pthread_mutex_lock(&cache.lock);
	out->entries = cache.entries;
	out->bytes = cache.bytes;
	out->compiles = cache.compiles;
	out->hits = cache.hits;
	out->evictions = cache.evictions;
	pthread_mutex_unlock(&cache.lock);
}
