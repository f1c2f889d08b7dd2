// SPDX-License-Identifier: MIT
/*
 * XLA's CPU backend as the peer (--only=xla): the conformance suite's
 * model steps (selftests/conformance/cases/model/), each compiled here
 * from the HLO JAX lowered and run on host:0, and compiled by jax.jit and
 * run by XLA (tools/xrt-bench/xla_peer.py, in the oracle environment) on
 * the same inputs and as many threads.  Two rows per model: runs per
 * second, warmed up, best of three rounds (XLA's ended by
 * block_until_ready, ours by the result's release); and compile speed
 * (1 / seconds of a cold compile: XLA's jit, our parse and compile).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "bench.h"

#define MAX_IN 16

static const char *const models[] = { "mlp_step", "cnn_step", "transformer_block", "lstm_scan",
				      "softmax", "layer_norm" };

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *t = NULL;
	long len;

	if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		t = bench_mem(malloc((size_t)len + 1), "a case file");
		*n = fread(t, 1, (size_t)len, f);
		t[*n] = 0;
	}
	if (f)
		fclose(f);
	return t;
}

/* The "in SHAPE VALUE" lines of a case's .io file, allocated in @s. */
static uint32_t inputs(xrt_session *s, const char *name, xrt_handle *h)
{
	char path[1024], *text, *line, *next;
	uint32_t n = 0;
	size_t len;

	snprintf(path, sizeof(path), "%s/cases/model/%s.io", CONFORMANCE_DIR, name);
	text = slurp(path, &len);
	for (line = text; line && *line && n < MAX_IN; line = next) {
		char *hlo, *sp;
		xrt_module *m;
		xrt_literal *l;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (strncmp(line, "in ", 3) || !(sp = strchr(line + 3, ' ')))
			continue;
		hlo = bench_mem(malloc(strlen(line) + 64), "a literal");
		sprintf(hlo, "HloModule c\nENTRY e {\n  ROOT c = %.*s constant(%s)\n}\n",
			(int)(sp - line - 3), line + 3, sp + 1);
		bench_check(xrt_hlo_parse(NULL, hlo, strlen(hlo), &m), "an input");
		bench_check(xrt_ir_evaluate(m, NULL, 0, NULL, NULL, &l), "an input");
		bench_check(xrt_allocate(s, l, &h[n++]), "an input");
		xrt_literal_destroy(l);
		xrt_module_destroy(m);
		free(hlo);
	}
	free(text);
	return n;
}

/* Ours: compile seconds (cold) and best runs per second over about @seconds. */
static void ours(const char *name, double seconds, double *compile_s, double *runs)
{
	const struct xrt_execution_config cfg = { 0, 1, false, false };
	char path[1024], *text;
	xrt_handle h[MAX_IN], c, out;
	xrt_session *s = NULL;
	xrt_module *m = NULL;
	uint32_t n, k, r;
	size_t len = 0;
	double t0;

	snprintf(path, sizeof(path), "%s/cases/model/%s.before.hlo", CONFORMANCE_DIR, name);
	text = bench_mem(slurp(path, &len), path);
	bench_check(xrt_session_create(NULL, NULL, &s), "session");
	n = inputs(s, name, h);
	t0 = bench_now();
	bench_check(xrt_hlo_parse(NULL, text, len, &m), name);
	bench_check(xrt_compile_module(s, m, &c), name);
	*compile_s = bench_now() - t0;
	for (k = 0; k < 3; k++) {	/* warm: the pool, the arena */
		bench_check(xrt_execute(s, c, h, n, &cfg, &out), name);
		bench_check(xrt_release_allocations(s, &out, 1), "release");
	}
	*runs = 0;
	for (r = 0; r < 3; r++) {
		double t = bench_now(), el;

		for (k = 0; (el = bench_now() - t) < seconds / 3; k++) {
			bench_check(xrt_execute(s, c, h, n, &cfg, &out), name);
			bench_check(xrt_release_allocations(s, &out, 1), "release");
		}
		if (k / el > *runs)
			*runs = k / el;
	}
	xrt_module_destroy(m);
	xrt_session_destroy(s);
	free(text);
}

/* XLA's figures from xla_peer.py; false where the oracle environment is missing. */
static bool peer(const char *name, double seconds, double *compile_s, double *runs,
		 char *versions, size_t size)
{
	char cmd[1024], py[512] = "", jax[64] = "", jaxlib[64] = "";
	FILE *f = popen(XRT_SOURCE_DIR "/tools/install-deps.sh --print-oracle", "r");
	bool ok = false;

	if (f && fgets(py, sizeof(py), f))
		py[strcspn(py, "\n")] = 0;
	if (f)
		pclose(f);
	snprintf(cmd, sizeof(cmd), "%s %s/tools/xrt-bench/xla_peer.py %s %u %.1f 2>/dev/null", py,
		 XRT_SOURCE_DIR, name, bench_threads(), seconds);
	f = py[0] ? popen(cmd, "r") : NULL;
	if (f) {
		ok = fscanf(f, "%lf %lf %63s %63s", compile_s, runs, jax, jaxlib) == 4;
		pclose(f);
	}
	snprintf(versions, size, "jax %s, jaxlib %s", jax, jaxlib);
	return ok;
}

int bench_xla(struct result *r, bool quick)
{
	static char names[2 * sizeof(models) / sizeof(models[0])][64];
	static char peer_name[96];
	double seconds = quick ? 0.6 : 3, c_ours, run_ours, c_xla, run_xla;
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		ours(models[i], seconds, &c_ours, &run_ours);
		if (!peer(models[i], seconds, &c_xla, &run_xla, peer_name + 0, sizeof(peer_name))) {
			fprintf(stderr, "xrt-bench: xla: no oracle environment (tools/install-deps.sh "
				"creates it): %s has no peer\n", models[i]);
			c_xla = run_xla = 0;
		}
		snprintf(names[2 * i], sizeof(names[0]), "xla %s", models[i]);
		snprintf(names[2 * i + 1], sizeof(names[0]), "xla compile %s", models[i]);
		r[n++] = (struct result){ names[2 * i], "runs/s", run_ours, run_xla, 1.0, peer_name };
		r[n++] = (struct result){ names[2 * i + 1], "1/s", 1 / c_ours,
					  c_xla > 0 ? 1 / c_xla : 0, 10.0, peer_name };
	}
	return n;
}
