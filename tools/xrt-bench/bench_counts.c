// SPDX-License-Identifier: MIT
/*
 * Instruction counts of the hot paths, which stay put on a noisy machine
 * where times do not: an execution of a cached tiny program, an eager
 * op's dispatch, a compile-cache hit and a handle lookup, each counted by
 * callgrind over many repetitions and given per operation, against a
 * budget set 10% above what was counted when it was set (raise one only
 * with the reason in the commit).
 *
 * xrt-bench runs itself under valgrind --tool=callgrind with collection
 * off (--count-child); the child turns collection on around each path's
 * loop only and dumps its counts under the path's name, and the parent
 * reads each dump's totals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else	/* built without valgrind's headers: the group says so */
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

#include <xrt/eager.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "bench.h"

#define REPS	2000

/*
 * Instructions per operation at most: 10% above the count when set
 * (2026-12-04: 5424, 1496, 836 and 560).  Under valgrind the CPU has no
 * AVX-512, so the counts do not depend on the machine's.
 */
static const struct {
	const char *name;
	double budget;
} paths[] = {
	{ "execute-cached", 5966 },
	{ "eager-dispatch", 1646 },
	{ "compile-cache-hit", 920 },
	{ "handle-lookup", 616 },
};

#define NUM_PATHS (sizeof(paths) / sizeof(paths[0]))

static const char tiny[] = "HloModule tiny\nENTRY e {\n  a = f32[4] parameter(0)\n"
			   "  b = f32[4] parameter(1)\n  ROOT s = f32[4] add(a, b)\n}\n";

/* Runs @fn(@arg) REPS times with collection on, dumped as @name. */
#define COUNTED(name, body)							\
	do {									\
		int _i;								\
		for (_i = 0; _i < 100; _i++) {	/* warm: caches, pools */	\
			body;							\
		}								\
		CALLGRIND_ZERO_STATS;						\
		CALLGRIND_TOGGLE_COLLECT;					\
		for (_i = 0; _i < REPS; _i++) {					\
			body;							\
		}								\
		CALLGRIND_TOGGLE_COLLECT;					\
		CALLGRIND_DUMP_STATS_AT(name);					\
	} while (0)

static void xrt_paths(void)
{
	static const float v[4] = { 1, 2, 3, 4 };
	const struct xrt_execution_config cfg = { 0, 1, false, false };
	xrt_handle c, args[2], out, h;
	struct xrt_shape shape;
	xrt_session *s = NULL;
	xrt_module *m = NULL;

	bench_check(xrt_session_create(NULL, NULL, &s), "session");
	bench_check(xrt_hlo_parse(NULL, tiny, sizeof(tiny) - 1, &m), "parse");
	bench_check(xrt_compile_module(s, m, &c), "compile");
	bench_check(xrt_shape_init_array(&shape, XRT_F32, 1, (int64_t[]){ 4 }), "shape");
	bench_check(xrt_allocate_data(s, &shape, v, sizeof(v), &args[0]), "allocate");
	bench_check(xrt_allocate_data(s, &shape, v, sizeof(v), &args[1]), "allocate");
	COUNTED(paths[0].name, {
		bench_check(xrt_execute(s, c, args, 2, &cfg, &out), "execute");
		bench_check(xrt_release_allocations(s, &out, 1), "release");
	});
	COUNTED(paths[2].name, {
		bench_check(xrt_compile_module(s, m, &h), "compile");
		bench_check(xrt_release_compilations(s, &h, 1), "release");
	});
	COUNTED(paths[3].name, {
		struct xrt_shape got;

		bench_check(xrt_allocation_shape(s, args[0], NULL, &got), "shape");
		xrt_shape_deinit(&got);
	});
	xrt_module_destroy(m);
	xrt_session_destroy(s);
}

static void eager_path(void)
{
	static float data[4] __attribute__((aligned(64)));
	struct xrt_eager_options o = { .threads = 1 };
	xrt_eager_context *c;
	xrt_tensor *t, *r;
	uint32_t nr;
	xrt_op *op;

	bench_check(xrt_eager_context_create(&o, NULL, &c), "eager context");
	bench_check(xrt_tensor_from_host(c, XRT_F32, 1, (int64_t[]){ 4 }, data, sizeof(data), &t),
		    "tensor");
	bench_check(xrt_op_create(c, "AddV2", &op), "op");
	bench_check(xrt_op_add_input(op, t), "input");
	bench_check(xrt_op_add_input(op, t), "input");
	COUNTED(paths[1].name, {
		nr = 1;
		bench_check(xrt_op_execute(op, &r, &nr), "execute");
		xrt_tensor_unref(r);
	});
	xrt_op_destroy(op);
	xrt_tensor_unref(t);
	xrt_eager_context_destroy(c);
}

int bench_count_child(void)
{
	xrt_paths();
	eager_path();
	return 0;
}

/* The "totals:" (or "summary:") count of dump file @path; -1 if none. */
static double dump_total(const char *path, char *name, size_t name_size)
{
	FILE *f = fopen(path, "r");
	char line[512];
	double total = -1;

	if (!f)
		return -1;
	name[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "desc: Trigger: Client Request: ", 31)) {
			size_t l = strcspn(line + 31, "\n");

			l = l < name_size - 1 ? l : name_size - 1;
			memcpy(name, line + 31, l);
			name[l] = 0;
		} else if (!strncmp(line, "totals: ", 8) || (total < 0 && !strncmp(line, "summary: ", 9))) {
			total = strtod(strchr(line, ' ') + 1, NULL);
		}
	}
	fclose(f);
	return total;
}

int bench_counts(struct result *r, bool quick)
{
	char dir[] = "/tmp/xrt-counts-XXXXXX", self[4096], out[4200], cmd[9000];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int k = 0, rc, i;
	size_t p;

	(void)quick;
#ifndef HAVE_CALLGRIND
	fprintf(stderr, "xrt-bench: counts: built without valgrind's headers\n");
	return 0;
#endif
	if (n <= 0 || !mkdtemp(dir))
		return 0;
	self[n] = 0;
	snprintf(out, sizeof(out), "%s/callgrind.out", dir);
	snprintf(cmd, sizeof(cmd), "valgrind --tool=callgrind --collect-atstart=no "
		 "--callgrind-out-file=%s '%s' --count-child >/dev/null 2>&1", out, self);
	rc = system(cmd);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc)) {
		fprintf(stderr, "xrt-bench: counts: valgrind --tool=callgrind did not run "
			"(is valgrind installed?)\n");
		return 0;
	}
	for (i = 1; i <= 32; i++) {	/* one dump per path: out.1, out.2, ... */
		char path[4300], name[128];
		double total;

		snprintf(path, sizeof(path), "%s.%d", out, i);
		total = dump_total(path, name, sizeof(name));
		unlink(path);
		if (total < 0)
			continue;
		for (p = 0; p < NUM_PATHS; p++) {
			if (strcmp(name, paths[p].name))
				continue;
			/* per operation, as operations per million instructions: more is better */
			r[k++] = (struct result){ paths[p].name, "ops/Minstr", 1e6 * REPS / total,
						  paths[p].budget > 0 ? 1e6 / paths[p].budget : 0,
						  1.0, "budget" };
			fprintf(stderr, "xrt-bench: counts: %s: %.0f instructions per operation\n",
				paths[p].name, total / REPS);
		}
	}
	unlink(out);
	rmdir(dir);
	return k;
}
