// SPDX-License-Identifier: MIT
/*
 * The OpenBLAS peer in its best configuration.  OpenBLAS picks its kernel
 * from the CPU model when it loads; on a CPU it does not know (this
 * project's AVX-512 machines) it falls back to the generic Prescott
 * kernel, about five times slower than its SkylakeX one.  Measuring
 * against that would flatter XRT, so where the CPU has AVX-512 (or AVX2
 * and FMA) and OpenBLAS chose a kernel without it, the benchmark sets
 * OPENBLAS_CORETYPE to the matching kernel and runs itself again: the
 * variable is read only when the library loads.  The Python peers it
 * starts (numpy, PyTorch) inherit it.  Tests never do this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench.h"

char *openblas_get_corename(void);

/* Kernels that use AVX-512, then those that use AVX2 (OpenBLAS's names). */
static const char *const avx512_cores[] = { "skylakex", "cooperlake", "sapphirerapids" };
static const char *const avx2_cores[] = { "haswell", "zen", "skylakex", "cooperlake",
					  "sapphirerapids" };

static int in(const char *core, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(core, list[i]))
			return 1;
	return 0;
}

/* The kernel OpenBLAS should use on this CPU, or NULL where its own pick is that good. */
static const char *better_core(const char *core)
{
	__builtin_cpu_init();
	if (!getenv("XRT_BENCH_AVX2") && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
		if (!in(core, avx512_cores, sizeof(avx512_cores) / sizeof(avx512_cores[0])))
			return "SkylakeX";
		return NULL;
	}
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
	    !in(core, avx2_cores, sizeof(avx2_cores) / sizeof(avx2_cores[0])))
		return "Haswell";
	return NULL;
}

void bench_honest_blas(char **argv)
{
	const char *core = openblas_get_corename(), *want = better_core(core);

	if (!want || getenv("XRT_BENCH_BLAS_CHOSEN"))
		return;
	fprintf(stderr, "xrt-bench: OpenBLAS chose its %s kernel on a CPU that runs %s: "
		"running again with OPENBLAS_CORETYPE=%s\n", core, want, want);
	if (setenv("OPENBLAS_CORETYPE", want, 1) || setenv("XRT_BENCH_BLAS_CHOSEN", core, 1))
		return;
	execv("/proc/self/exe", argv);
	perror("xrt-bench: execv");	/* go on with OpenBLAS's own pick */
}

const char *bench_blas_note(void)
{
	static char note[96];
	const char *was = getenv("XRT_BENCH_BLAS_CHOSEN");

	if (!was)
		return "its own pick";
	snprintf(note, sizeof(note), "set by xrt-bench in place of %s", was);
	return note;
}
