// SPDX-License-Identifier: MIT
/*
 * All-reduce across 2 and 4 processes: xrt-bench-mpi (bench_mpi.c) run
 * under mpirun, beside it in the build or the install, reports each size
 * for xrt_execute_replicated() and for MPI_Allreduce in the same run;
 * target 0.9 of MPI's bandwidth, the 1 KiB latency reported.  Nothing
 * where there is no MPI.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

/* xrt-bench-mpi beside this program, in @buf; false if it is not there. */
static bool find_mpi_bench(char *buf, size_t size)
{
	char self[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return false;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return false;
	*slash = 0;
	snprintf(buf, size, "%s/xrt-bench-mpi", self);
	return access(buf, X_OK) == 0;
}

/* One mpirun of @procs processes: its result lines into @r from *@k on. */
static void run(const char *bench, int procs, bool quick, struct result *r, int *k)
{
	static char names[16][64], units[16][16];
	char cmd[PATH_MAX + 256], line[512], name[64], unit[16];
	double x, p;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mpirun --allow-run-as-root --oversubscribe -np %d %s%s "
		 "2>&1", procs, bench, quick ? " --quick" : "");
	f = popen(cmd, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "result %63s %15s %lf %lf", name, unit, &x, &p) != 4 || *k >= 16) {
			fputs(line, stderr);	/* what went wrong, if anything */
			continue;
		}
		for (char *c = name; *c; c++)
			*c = *c == '_' ? ' ' : *c;
		snprintf(names[*k], sizeof(names[*k]), "%s", name);
		snprintf(units[*k], sizeof(units[*k]), "%s", unit);
		r[*k] = (struct result){ names[*k], units[*k], x, p,
					 strstr(name, " lat") ? 0 : 0.9, "MPI_Allreduce" };
		(*k)++;
	}
	if (pclose(f))
		fprintf(stderr, "xrt-bench: %s failed\n", cmd);
}

int bench_distributed(struct result *r, bool quick)
{
	char bench[PATH_MAX];
	int k = 0;

	if (!find_mpi_bench(bench, sizeof(bench))) {
		fprintf(stderr, "xrt-bench: no xrt-bench-mpi (built where MPI is): no "
			"distributed figures\n");
		return 0;
	}
	run(bench, 2, quick, r, &k);
	run(bench, 4, quick, r, &k);
	return k;
}
