// SPDX-License-Identifier: MIT
/*
 * Per-session operation counters: calls, errors, and a latency histogram
 * with four buckets per power of two (so a percentile read from it is at
 * most a quarter high), all atomics, so counting takes no lock.
 */
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "xrt_internal.h"

uint64_t xstat_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The bucket of @ns: its power of two, and which quarter of it. */
static unsigned bucket_of(uint64_t ns)
{
	unsigned e, q;

	if (ns < 2)
		return 0;
	e = 63u - (unsigned)__builtin_clzll(ns);	/* 2^e <= ns < 2^(e+1) */
	/* the quarter within the octave, from the bits below the top one */
	q = e >= 2 ? (unsigned)((ns >> (e - 2)) & 3) : (unsigned)((ns << (2 - e)) & 3);
	return 4 * e + q < XSTAT_BUCKETS ? 4 * e + q : XSTAT_BUCKETS - 1;
}

/* The upper bound of bucket @b in nanoseconds. */
static uint64_t bucket_top(unsigned b)
{
	return (uint64_t)ldexp(1.0 + (b % 4 + 1) / 4.0, (int)(b / 4));
}

void xstat_record(xrt_session *s, enum xrt_op_kind op, uint64_t t0, const xrt_status *st)
{
	uint64_t ns, max;
	struct xstat *x;

	if (!s)
		return;
	ns = xstat_now() - t0;
	x = &s->stats[op];
	atomic_fetch_add(&x->calls, 1);
	if (st)
		atomic_fetch_add(&x->errors, 1);
	atomic_fetch_add(&x->bucket[bucket_of(ns)], 1);
	max = atomic_load(&x->max_ns);
	while (ns > max && !atomic_compare_exchange_weak(&x->max_ns, &max, ns))
		;
}

const char *xrt_op_kind_name(enum xrt_op_kind op)
{
	static const char *const names[XRT_STAT_COUNT] = {
		"allocate", "read", "write", "sub-tuple", "make-tuple", "release", "compile",
		"execute",
	};

	return (unsigned)op < XRT_STAT_COUNT ? names[op] : "unknown";
}

xrt_status *xrt_session_stats(xrt_session *s, enum xrt_op_kind op, struct xrt_op_stats *out)
{
	uint64_t counts[XSTAT_BUCKETS], total = 0, seen = 0;
	const uint64_t q[3] = { 50, 90, 99 };
	uint64_t *dst[3];
	unsigned b, k = 0;
	struct xstat *x;

	if (!s || !out || (unsigned)op >= XRT_STAT_COUNT)
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT,
				      "session stats: %s", !s || !out ? "NULL argument" :
				      "unknown operation kind");
	x = &s->stats[op];
	dst[0] = &out->p50_ns;
	dst[1] = &out->p90_ns;
	dst[2] = &out->p99_ns;
	out->calls = atomic_load(&x->calls);
	out->errors = atomic_load(&x->errors);
	out->max_ns = atomic_load(&x->max_ns);
	out->p50_ns = out->p90_ns = out->p99_ns = 0;
	for (b = 0; b < XSTAT_BUCKETS; b++) {
		counts[b] = atomic_load(&x->bucket[b]);
		total += counts[b];
	}
	for (b = 0; b < XSTAT_BUCKETS && k < 3; b++) {
		seen += counts[b];
		while (k < 3 && total && seen * 100 >= q[k] * total) {
			*dst[k] = bucket_top(b) < out->max_ns ? bucket_top(b) : out->max_ns;
			k++;
		}
	}
	return NULL;
}

xrt_status *xrt_session_memory(xrt_session *s, struct xrt_memory_info *out)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

	if (!s || !out)
		return xrt_status_new(s ? s->a : NULL, XRT_INVALID_ARGUMENT,
				      "session memory: NULL argument");
	out->total = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
	out->in_use = atomic_load(&s->memory_in_use);
	out->limit = s->memory_limit;
	return NULL;
}
