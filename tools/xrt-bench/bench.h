/* SPDX-License-Identifier: MIT */
/*
 * xrt-bench's parts: a result is XRT's figure beside a peer's, in a
 * unit where more is better, and the target for their ratio.
 */
#ifndef XRT_BENCH_H
#define XRT_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <xrt/status.h>

struct result {
	const char *name;
	const char *unit;
	double xrt, peer, target;
	const char *peer_name;
};

/* The monotonic clock, in seconds. */
static inline double bench_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A benchmark cannot go on after an error: print it and exit. */
static inline void bench_check(xrt_status *st, const char *what)
{
	if (st) {
		fprintf(stderr, "xrt-bench: %s: %s\n", what, xrt_status_message(st));
		exit(1);
	}
}

/* Likewise for an allocation: @p, or exit saying what could not be had. */
static inline void *bench_mem(void *p, const char *what)
{
	if (!p) {
		fprintf(stderr, "xrt-bench: out of memory for %s\n", what);
		exit(1);
	}
	return p;
}

/* Threads for the host device and its peers: every core. */
static inline unsigned int bench_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

/* The best time a Python peer (peers.py NAME) reports, in seconds; 0: none. */
double bench_peer(const char *name, int reps, uint32_t threads);

/*
 * HLO module @text on the host device's @pool against peers.py's
 * @peer_name, alternating @rounds times, as runs per second; appended to
 * @r at *@k (nothing where the peer cannot run).  @resident: the
 * arguments bound where they lie and the results written to buffers
 * faulted in once, as runs on device-resident handles are (the peer's
 * arrays are in memory too); else each run takes literals and returns a
 * fresh one.
 */
struct host_pool;
void bench_against_python(struct host_pool *pool, const char *text, const char *name,
			  const char *peer_name, int reps, int rounds, bool resident,
			  struct result *r, int *k);

/* The host device's benchmarks into @r (room for 16); how many. */
int bench_host(struct result *r, bool quick);
/* The XRT API's own costs into @r (room for 4); how many. */
int bench_xrt(struct result *r, bool quick);
/* The eager API's dispatch and an eager MLP into @r (room for 4); how many. */
int bench_eager(struct result *r, bool quick);
/* accel:0 against host:0 (room for 2); 0 without an accel device. */
int bench_devices(struct result *r, bool quick);
/* cuda:0 against cuBLAS and the driver called directly (room for 6); 0 without a GPU. */
int bench_cuda(struct result *r, bool quick);
/* All-reduce across 2 and 4 processes against MPI_Allreduce (room for 16); how many. */
int bench_distributed(struct result *r, bool quick);
/* Parse, compile and run at n against n / 10 (room for 2); how many. */
int bench_scale(struct result *r, bool quick);
/* Cumulative ops as JAX writes them, against numpy (room for 6); how many. */
int bench_scan(struct result *r, bool quick);
/* All-reduce across host devices into @r (room for 8); how many. */
int bench_collective(struct result *r, bool quick);
/* A CNN's convolutions against PyTorch's (room for 2); how many. */
int bench_conv(struct result *r, bool quick);
/* Row gathers against numpy's take (room for 2); how many. */
int bench_gather(struct result *r, bool quick);
/* The conformance model steps against XLA's CPU backend through JAX (room for 12). */
int bench_xla(struct result *r, bool quick);
/* Instructions per operation of the hot paths against budgets (room for 4). */
int bench_counts(struct result *r, bool quick);
/* The child xrt-bench --count-child runs under callgrind. */
int bench_count_child(void);
/* The Python package against PyTorch and numpy, from Python. */
int bench_python(struct result *r, bool quick);

/*
 * Where OpenBLAS picked a generic kernel on a CPU with AVX2 or AVX-512,
 * sets OPENBLAS_CORETYPE to the matching one and runs the benchmark again
 * (@argv); returns where it need not.
 */
void bench_honest_blas(char **argv);
/* How the OpenBLAS kernel was chosen, for the report. */
const char *bench_blas_note(void);

#endif /* XRT_BENCH_H */
