// SPDX-License-Identifier: MIT
/*
 * Row lookups as JAX writes jnp.take(table, idx, axis=0) and an
 * embedding: a gather of whole rows, against numpy's take on the same
 * shapes (tools/xrt-bench/peers.py).
 */
#include <stdio.h>

#include "bench.h"
#include "device/host/host_device.h"

int bench_gather(struct result *r, bool quick)
{
	static const struct {
		const char *name, *peer;
		unsigned int rows, width, lookups;
	} cases[] = {
		{ "gather 4096 rows of 256", "take-256", 50000, 256, 4096 },
		{ "gather 65536 rows of 16", "take-16", 100000, 16, 65536 },
	};
	struct host_pool *pool = NULL;
	int k = 0, reps = quick ? 2 : 10;
	char text[1024];
	size_t i;

	bench_check(host_pool_create(bench_threads(), &pool), "starting threads");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (quick && i)
			continue;
		/* indices spread over the table: hashes in [0, 2^31) scaled to its rows */
		snprintf(text, sizeof(text), "HloModule take\nENTRY e {\n"
			 "  t = f32[%u,%u] parameter(0)\n  h = s32[%u] parameter(1)\n"
			 "  hf = f32[%u] convert(h)\n  r = f32[] constant(%.9g)\n"
			 "  rb = f32[%u] broadcast(r), dimensions={}\n"
			 "  sf = f32[%u] multiply(hf, rb)\n  i = s32[%u] convert(sf)\n"
			 "  ROOT g = f32[%u,%u] gather(t, i), offset_dims={1}, "
			 "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
			 "slice_sizes={1,%u}\n}\n", cases[i].rows, cases[i].width,
			 cases[i].lookups, cases[i].lookups, cases[i].rows / 2147483648.0,
			 cases[i].lookups, cases[i].lookups, cases[i].lookups, cases[i].lookups,
			 cases[i].width, cases[i].width);
		bench_against_python(pool, text, cases[i].name, cases[i].peer, reps, 3, true, r, &k);
	}
	host_pool_destroy(pool);
	return k;
}
