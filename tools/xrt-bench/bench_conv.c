// SPDX-License-Identifier: MIT
/*
 * Convolutions of a CNN's layers as XLA writes them (NHWC, HWIO kernels),
 * against PyTorch's conv2d on the same shapes, channels last, with the
 * same threads (tools/xrt-bench/peers.py), the arguments resident as
 * handles hold them.
 */
#include <stdio.h>

#include "bench.h"
#include "device/host/host_device.h"

int bench_conv(struct result *r, bool quick)
{
	static const struct {
		const char *name, *peer;
		unsigned int batch, hw, cin, cout, k, stride, pad, out;
	} cases[] = {
		{ "conv 3x3 64->64 b8 56x56", "conv-3x3", 8, 56, 64, 64, 3, 1, 1, 56 },
		{ "conv 7x7/2 4->64 b8 224", "conv-7x7", 8, 224, 4, 64, 7, 2, 3, 112 },
	};
	struct host_pool *pool = NULL;
	int k = 0, reps = quick ? 2 : 5;
	char text[1024];
	size_t i;

	bench_check(host_pool_create(bench_threads(), &pool), "starting threads");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (quick && i)
			continue;
		snprintf(text, sizeof(text), "HloModule conv\nENTRY e {\n"
			 "  x = f32[%u,%u,%u,%u] parameter(0)\n  w = f32[%u,%u,%u,%u] parameter(1)\n"
			 "  ROOT c = f32[%u,%u,%u,%u] convolution(x, w), window={size=%ux%u "
			 "stride=%ux%u pad=%u_%ux%u_%u}, dim_labels=b01f_01io->b01f\n}\n",
			 cases[i].batch, cases[i].hw, cases[i].hw, cases[i].cin, cases[i].k,
			 cases[i].k, cases[i].cin, cases[i].cout, cases[i].batch, cases[i].out,
			 cases[i].out, cases[i].cout, cases[i].k, cases[i].k, cases[i].stride,
			 cases[i].stride, cases[i].pad, cases[i].pad, cases[i].pad, cases[i].pad);
		bench_against_python(pool, text, cases[i].name, cases[i].peer, reps, 3, true, r, &k);
	}
	host_pool_destroy(pool);
	return k;
}
