// SPDX-License-Identifier: MIT
/*
 * The cuda group of a build without the CUDA toolkit: nothing to run.
 */
#include "bench.h"

int bench_cuda(struct result *r, bool quick)
{
	(void)r;
	(void)quick;
	fprintf(stderr, "xrt-bench: built without the CUDA toolkit: no cuda group\n");
	return 0;
}
