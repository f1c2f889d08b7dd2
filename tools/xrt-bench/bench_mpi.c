// SPDX-License-Identifier: MIT
/*
 * xrt-bench-mpi, run under mpirun by xrt-bench --only=distributed: an
 * all-reduce of f32 over the processes, one host device each, from
 * device buffer to device buffer through xrt_execute_replicated() (every
 * copy and the processes' agreement on the run included), against Open
 * MPI's own MPI_Allreduce on host buffers of the same size in the same
 * run.  Each timing is the slowest process's, the best of the reps;
 * rank 0 prints "result NAME UNIT XRT PEER" lines, '_' in NAME for a
 * space.  The peer's buffers are on huge pages, as the host device's.
 *
 * Usage: mpirun -np N xrt-bench-mpi [--quick]
 */
#define _DEFAULT_SOURCE	/* madvise() and MADV_HUGEPAGE are not POSIX */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <xrt/xrt.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void check(xrt_status *st, const char *what)
{
	if (!st)
		return;
	fprintf(stderr, "xrt-bench-mpi: %s: %s\n", what, xrt_status_message(st));
	MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The slowest process's time of one rep. */
static double slowest(double t)
{
	double max = t;

	MPI_Allreduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return max;
}

/* Best of @reps all-reduces of @count f32 through xrt_execute_replicated(). */
static double xrt_time(xrt_session *s, int size, uint64_t count, int reps)
{
	char text[1024];
	xrt_handle comp, arg, out;
	xrt_literal *lit = NULL;
	struct xrt_shape sh;
	double best = 1e9;
	int r;

	snprintf(text, sizeof(text), "HloModule ar, replica_count=%d\n"
		 "f { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
		 " ROOT s = f32[] add(a, b)\n}\nENTRY e {\n x = f32[%llu] parameter(0)\n"
		 " ROOT r = f32[%llu] all-reduce(x), replica_groups={}, to_apply=f\n}\n", size,
		 (unsigned long long)count, (unsigned long long)count);
	check(xrt_compile_hlo(s, text, strlen(text), &comp), "compiling");
	check(xrt_shape_init_array(&sh, XRT_F32, 1, (int64_t[]){ (int64_t)count }), "a shape");
	check(xrt_literal_create(NULL, &sh, &lit), "an argument");
	memset(xrt_literal_mutable_data(lit), 0, count * 4);
	check(xrt_allocate(s, lit, &arg), "an argument");
	for (r = 0; r < reps + 1; r++) {	/* the first warms up */
		double t;

		MPI_Barrier(MPI_COMM_WORLD);
		t = now();
		check(xrt_execute_replicated(&s, 1, &comp, &arg, 1, NULL, &out), "all-reduce");
		t = slowest(now() - t);
		if (r && t < best)
			best = t;
		check(xrt_release_allocations(s, &out, 1), "release");
	}
	check(xrt_release_allocations(s, &arg, 1), "release");
	check(xrt_release_compilations(s, &comp, 1), "release");
	xrt_literal_destroy(lit);
	xrt_shape_deinit(&sh);
	return best;
}

/* @count f32 zeros, on transparent huge pages as the host device's buffers are. */
static float *buffer(uint64_t count)
{
	void *p = NULL;

	if (posix_memalign(&p, 2 << 20, count * 4 + 1))
		MPI_Abort(MPI_COMM_WORLD, 1);
	madvise(p, count * 4, MADV_HUGEPAGE);
	memset(p, 0, count * 4);
	return p;
}

/* Best of @reps MPI_Allreduce of @count f32 on host buffers. */
static double mpi_time(uint64_t count, int reps)
{
	float *in = buffer(count), *out = buffer(count);
	double best = 1e9;
	int r;

	for (r = 0; r < reps + 1; r++) {
		double t;

		MPI_Barrier(MPI_COMM_WORLD);
		t = now();
		MPI_Allreduce(in, out, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
		t = slowest(now() - t);
		if (r && t < best)
			best = t;
	}
	free(in);
	free(out);
	return best;
}

int main(int argc, char **argv)
{
	static const uint64_t sizes[] = { 1024, 1 << 20, 16 << 20, 256u << 20 };
	const struct xrt_session_options so = { "host:0", 0, false, 1 };
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	int rank, size, level;
	xrt_session *s = NULL;
	size_t i;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &level);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* freed results' blocks kept for reuse: no run times fresh pages faulting in */
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	check(xrt_distributed_init(NULL), "joining the processes");
	check(xrt_session_create(&so, NULL, &s), "a session");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t bytes = sizes[i];
		int reps = bytes >= (16 << 20) ? (quick ? 1 : 5) : (quick ? 20 : 200);
		double x, p;

		if (quick && bytes > (16 << 20))
			continue;
		x = xrt_time(s, size, bytes / 4, reps);
		p = mpi_time(bytes / 4, reps);
		if (rank)
			continue;
		if (bytes == 1024)	/* names: '_' for a space */
			printf("result mpi_all-reduce_1KiB_x%d_lat runs/s %.6g %.6g\n", size,
			       1 / x, 1 / p);
		else
			printf("result mpi_all-reduce_%lluMiB_x%d GB/s %.6g %.6g\n",
			       (unsigned long long)(bytes >> 20), size, bytes / x / 1e9,
			       bytes / p / 1e9);
		fflush(stdout);
	}
	xrt_session_destroy(s);
	check(xrt_distributed_shutdown(), "leaving");
	MPI_Finalize();
	return 0;
}
