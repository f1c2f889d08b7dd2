// SPDX-License-Identifier: MIT
/*
 * Cumulative ops as JAX writes them for jnp.cumsum, lax.cummax and
 * their reverse forms: a reduce-window whose window is as long as the
 * operand along one dimension, padded by one less before it (after it
 * for the reverse), against numpy's cumsum and maximum.accumulate on
 * the same data (tools/xrt-bench/peers.py).
 */
#include <stdio.h>

#include "bench.h"
#include "device/host/host_device.h"

static const char reducers[] =
	"%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
	"  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n"
	"%max (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
	"  %b = f32[] parameter(1)\n  ROOT %m = f32[] maximum(%a, %b)\n}\n";

/* A module of one reduce-window over f32[@shape] with @window. */
static const char *scan_module(char *buf, size_t size, const char *shape, const char *init,
			       const char *window, const char *reducer)
{
	snprintf(buf, size, "HloModule scan\n%sENTRY e {\n  x = f32[%s] parameter(0)\n"
		 "  i = f32[] constant(%s)\n"
		 "  ROOT r = f32[%s] reduce-window(x, i), window={%s}, to_apply=%%%s\n}\n",
		 reducers, shape, init, shape, window, reducer);
	return buf;
}

int bench_scan(struct result *r, bool quick)
{
	static const struct {
		const char *name, *peer, *shape, *init, *window, *reducer;
	} cases[] = {
		{ "scan cumsum 64k f32", "cumsum-64k", "65536", "0", "size=65536 pad=65535_0",
		  "add" },
		{ "scan cumsum 1M f32", "cumsum-1m", "1048576", "0",
		  "size=1048576 pad=1048575_0", "add" },
		{ "scan reverse cumsum 1M", "rcumsum-1m", "1048576", "0",
		  "size=1048576 pad=0_1048575", "add" },
		{ "scan cummax 1M f32", "cummax-1m", "1048576", "-inf",
		  "size=1048576 pad=1048575_0", "max" },
		{ "scan cumsum 1024x1024 ax1", "cumsum-rows", "1024,1024", "0",
		  "size=1x1024 pad=0_0x1023_0", "add" },
		{ "scan cumsum 1024x1024 ax0", "cumsum-cols", "1024,1024", "0",
		  "size=1024x1 pad=1023_0x0_0", "add" },
	};
	struct host_pool *pool = NULL;
	int k = 0, reps = quick ? 2 : 10;
	char text[2048];
	size_t i;

	bench_check(host_pool_create(bench_threads(), &pool), "starting threads");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (quick && i != 0)
			continue;
		scan_module(text, sizeof(text), cases[i].shape, cases[i].init, cases[i].window,
			    cases[i].reducer);
		bench_against_python(pool, text, cases[i].name, cases[i].peer, reps, 3, true, r, &k);
	}
	host_pool_destroy(pool);
	return k;
}
