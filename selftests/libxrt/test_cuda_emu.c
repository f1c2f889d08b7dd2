// SPDX-License-Identifier: MIT
/*
 * The CUDA driver's kernels run without a GPU: the sources the driver
 * generates for every corpus module (fused and unfused, seeded inputs)
 * and every evaluator case (constants not folded) are compiled by the
 * host's C++ compiler against a CPU stand-in for CUDA's threads
 * (support/cuda_emu.hpp: each thread a coroutine, warp shuffles and
 * block barriers as barriers) and run step by step as the driver runs
 * them, DOT through the exact kernel.  Their results must match host:0
 * with OpenBLAS off: within the evaluator's tolerance, and bit for bit
 * unless a program computes transcendental or complex functions (libm's
 * and libdevice's are not the engine's).  This checks
 * the translation (indexing, types, the prelude's semantics, REDUCE's
 * order, SORT, SCATTER, jumps) that the GPU run then only repeats on
 * other hardware.  Skipped without g++.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xrt_test.h"

#include <xrt/ir.h>

#include "compiler/compiler.h"
#include "device/cuda/cuda_gen.h"
#include "device/host/host_device.h"
#include "test_cases.h"

#define BATCH		64
#define MAX_LEAVES	64
/* Blocks of a launch: enough to exercise the kernels' grid-stride loops. */
#define EMU_BLOCKS	3

struct prog {
	char name[300];
	struct xrt_executable *exe;
	struct cuda_plan plan;
	xrt_literal *args[16];
	uint32_t num_args;
	struct xrt_tolerance tol;
	bool exact;
};

struct batch {
	struct prog p[BATCH];
	int n;
	int ran, differ, identical;
	char dir[64];
};

typedef int (*launch_fn)(void (*)(void **), void **, unsigned int, unsigned int);

static char *text_append(char *t, size_t *len, const char *s)
{
	size_t n = strlen(s);

	t = realloc(t, *len + n + 1);
	memcpy(t + *len, s, n + 1);
	*len += n;
	return t;
}

/* One wrapper per kernel: k(args...) from an array of argument pointers. */
static char *wrappers(char *t, size_t *len, int pi, const struct cuda_plan *plan)
{
	char line[256];
	uint32_t s, k, i;

	for (s = 0; s < plan->num_steps; s++) {
		for (k = 0; k < 2; k++) {
			const struct cg_kernel *kn = &plan->steps[s].kernel[k];

			if (!kn->threads)
				continue;
			snprintf(line, sizeof(line), "extern \"C\" void p%d_w%u(void **a) { p%d_k%u(",
				 pi, kn->index, pi, kn->index);
			t = text_append(t, len, line);
			for (i = 0; i < kn->num_args; i++) {
				snprintf(line, sizeof(line), "%s%s a[%u]", i ? ", " : "",
					 kn->arg_kind[i] == CG_ARG_SEED ? "*(u64 *)" : "(char *)", i);
				t = text_append(t, len, line);
			}
			t = text_append(t, len, "); }\n");
		}
	}
	return t;
}

/* The batch as one shared object; NULL (logged) when it does not build. */
static void *build(struct __test_metadata *_metadata, struct batch *b)
{
	size_t len = 0, n = 0;
	char *shim = test_slurp(CUDA_EMU_SHIM, &n), *t = NULL, path[128], cmd[512];
	FILE *f;
	void *h;
	int i;

	if (!shim)
		return NULL;
	t = text_append(t, &len, "#define XRT_CUDA_EMU 1\n");
	t = text_append(t, &len, shim);
	t = text_append(t, &len, cuda_prelude);
	for (i = 0; i < b->n; i++)
		t = text_append(t, &len, b->p[i].plan.source);
	for (i = 0; i < b->n; i++)
		t = wrappers(t, &len, i, &b->p[i].plan);
	snprintf(path, sizeof(path), "%s/batch.cpp", b->dir);
	f = fopen(path, "w");
	if (f) {
		fwrite(t, 1, len, f);
		fclose(f);
	}
	free(t);
	free(shim);
	snprintf(cmd, sizeof(cmd), "g++ -std=gnu++17 -O1 -fPIC -shared -w -ffp-contract=off "
		 "-o %s/batch.so %s 2> %s/build.log", b->dir, path, b->dir);
	if (system(cmd)) {
		snprintf(cmd, sizeof(cmd), "head -c 3000 %s/build.log >&2", b->dir);
		if (system(cmd))
			TH_LOG("no build log");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/batch.so", b->dir);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		TH_LOG("dlopen: %s", dlerror());
	return h;
}

/* The program's steps as the CUDA driver takes them; 0 or -1. */
static int emulate(void *so, int pi, const struct cuda_plan *plan, uint8_t **slots,
		   uint8_t *scratch, uint64_t seed)
{
	launch_fn launch = (launch_fn)dlsym(so, "emu_launch");
	uint32_t pc = 0, k, i;
	long guard = 0;
	char name[32];

	while (pc < plan->num_steps) {
		const struct cg_step *st = &plan->steps[pc];

		if (++guard > 1000000)
			return -1;
		if (st->kind == CG_STEP_JUMP) {
			const struct xrt_cs_jump *j = st->jump;
			bool taken = j->mode == XRT_CS_JUMP_ALWAYS ||
				     (slots[j->pred.slot][j->pred.offset] != 0) ==
				     (j->mode == XRT_CS_JUMP_IF_TRUE);

			pc = taken ? j->target : pc + 1;
			continue;
		}
		for (k = 0; k < 2; k++) {
			const struct cg_kernel *kn = &st->kernel[k];
			void *args[CG_MAX_ARGS];
			void (*fn)(void **);
			uint64_t blocks;

			if (!kn->threads)
				continue;
			blocks = (kn->threads + kn->block - 1) / kn->block;
			for (i = 0; i < kn->num_args; i++)
				args[i] = kn->arg_kind[i] == CG_ARG_SLOT ? (void *)slots[kn->arg_slot[i]] :
					  kn->arg_kind[i] == CG_ARG_SCRATCH ? (void *)scratch :
					  (void *)&seed;
			snprintf(name, sizeof(name), "p%d_w%u", pi, kn->index);
			*(void **)&fn = dlsym(so, name);
			if (!fn || launch(fn, args, blocks < EMU_BLOCKS ? (unsigned int)blocks :
					  EMU_BLOCKS, kn->block))
				return -1;
		}
		pc++;
	}
	return 0;
}

static bool is_complex(uint32_t t)
{
	return t == XRT_CS_C64 || t == XRT_CS_C128;
}

/* Whether an expression computes a transcendental or complex function. */
static bool expr_uses_libm(const struct xrt_cs_ew_inst *in, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (is_complex(in[i].dtype))
			return true;
		if (in[i].op == XRT_CS_EW_UNARY && in[i].fn >= XRT_CS_UN_EXP &&
		    in[i].fn <= XRT_CS_UN_ERF && in[i].fn != XRT_CS_UN_SQRT &&
		    in[i].fn != XRT_CS_UN_RSQRT)
			return true;
		if (in[i].op == XRT_CS_EW_BINARY &&
		    (in[i].fn == XRT_CS_BIN_POW || in[i].fn == XRT_CS_BIN_ATAN2))
			return true;
	}
	return false;
}

/*
 * Whether the program's results may differ from the engine's in the last
 * bits: libm's transcendentals (the GPU's libdevice, the emulation's
 * libm) and complex arithmetic are not the engine's; everything else is
 * the same arithmetic in the same order.
 */
static bool uses_libm(const struct xrt_executable *exe)
{
	const struct xdev_program *lp;
	const struct xrt_engine_prog *p;
	xrt_status *st = xdev_program_of(exe, &lp);
	uint32_t pc;

	if (st) {	/* run_batch reports it: here, be safe */
		xrt_status_free(st);
		return true;
	}
	p = &lp->prog;

	for (pc = 0; pc < p->num_commands; pc++) {
		const struct xrt_cs_cmd *c = (const void *)(p->base + p->offsets[pc]);

		if (c->op == XRT_CS_OP_EWISE) {
			const struct xrt_cs_ewise *e = (const void *)c;
			const struct xrt_cs_ew_inst *in = (const void *)((const struct xrt_cs_operand *)
									 (e + 1) + e->num_operands);

			if (expr_uses_libm(in, e->num_insts))
				return true;
		} else if (c->op == XRT_CS_OP_REDUCE) {
			const struct xrt_cs_reduce *r = (const void *)c;
			const struct xrt_cs_ew_inst *in = (const void *)((const struct xrt_cs_operand *)
									 (r + 1) + r->num_operands);

			if (expr_uses_libm(in, r->num_insts))
				return true;
		} else if (c->op == XRT_CS_OP_RNG) {
			if (((const struct xrt_cs_rng *)c)->distribution == XRT_CS_RNG_NORMAL)
				return true;
		} else if (c->op == XRT_CS_OP_DOT) {
			if (is_complex(((const struct xrt_cs_dot *)c)->lhs.dtype))
				return true;
		}
	}
	return false;
}

/* The leaves of @lit in tuple order. */
static void flatten(xrt_literal *lit, xrt_literal **out, uint32_t *n)
{
	uint32_t i, k = xrt_shape_is_tuple(xrt_literal_shape(lit)) ? xrt_literal_tuple_count(lit) : 0;

	if (!xrt_shape_is_tuple(xrt_literal_shape(lit))) {
		if (*n < MAX_LEAVES)
			out[(*n)++] = lit;
		return;
	}
	for (i = 0; i < k; i++)
		flatten(xrt_literal_element(lit, i), out, n);
}

/* Runs program @pi emulated and on host:0; compares leaf by leaf. */
static void check(struct __test_metadata *_metadata, const struct xrt_allocator *a, void *so,
		  struct batch *b, int pi)
{
	struct prog *p = &b->p[pi];
	const struct xrt_executable *exe = p->exe;
	struct host_run_options ho = { 42, NULL, true };
	xrt_literal *want = NULL, *wl[MAX_LEAVES];
	uint8_t **slots = calloc(exe->num_slots + 1, sizeof(*slots));
	uint8_t *scratch = calloc(1, p->plan.scratch_bytes + 64);
	uint32_t nw = 0, s, l;
	bool same = true;

	ASSERT_NE(NULL, slots);
	ASSERT_OK(host_run(exe, (const xrt_literal *const *)p->args, p->num_args, &ho, a, &want));
	flatten(want, wl, &nw);
	for (s = 0; s < exe->num_slots; s++) {
		const struct xexe_slot *sl = &exe->slots[s];

		if (sl->kind == XEXE_SLOT_CONSTANTS) {
			slots[s] = exe->constants;
			continue;
		}
		slots[s] = aligned_alloc(64, (sl->size + 64) / 64 * 64);
		memset(slots[s], 0xab, sl->size);
		if (sl->kind == XEXE_SLOT_PARAM) {
			xrt_literal *pl[MAX_LEAVES];
			uint32_t np = 0;

			flatten(p->args[sl->param], pl, &np);
			memcpy(slots[s], xrt_literal_data(pl[sl->leaf]),
			       xrt_shape_byte_size(xrt_literal_shape(pl[sl->leaf])));
		}
	}
	EXPECT_EQ(0, emulate(so, pi, &p->plan, slots, scratch, 42)) TH_LOG("%s", p->name);
	for (s = 0; s < exe->num_slots; s++) {
		const struct xexe_slot *sl = &exe->slots[s];
		xrt_literal *got = NULL;
		char why[512] = "";
		bool ok;

		if (sl->kind != XEXE_SLOT_RESULT || sl->leaf >= nw)
			continue;
		l = sl->leaf;
		ASSERT_OK(xrt_literal_create(a, xrt_literal_shape(wl[l]), &got));
		memcpy(xrt_literal_mutable_data(got), slots[s],
		       xrt_shape_byte_size(xrt_literal_shape(wl[l])));
		ok = p->exact ? xrt_literal_equal(wl[l], got, why, sizeof(why)) :
				xrt_literal_near(wl[l], got, &p->tol, why, sizeof(why));
		if (!ok) {
			TH_LOG("%s: leaf %u: %s", p->name, l, why);
			b->differ++;
		}
		same &= xrt_literal_equal(wl[l], got, NULL, 0);
		xrt_literal_destroy(got);
	}
	b->identical += same;
	if (!same && !uses_libm(exe)) {
		TH_LOG("%s: not the engine's bits, with the engine's arithmetic", p->name);
		b->differ++;
	}
	b->ran++;
	for (s = 0; s < exe->num_slots; s++)
		if (exe->slots[s].kind != XEXE_SLOT_CONSTANTS)
			free(slots[s]);
	free(slots);
	free(scratch);
	xrt_literal_destroy(want);
}

static void flush(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		  struct batch *b)
{
	void *so = b->n ? build(_metadata, b) : NULL;
	int i;
	uint32_t k;

	if (b->n) {
		EXPECT_NE(NULL, so) TH_LOG("the emulated batch (%s ...) did not build", b->p[0].name);
	}
	for (i = 0; so && i < b->n; i++)
		check(_metadata, a, so, b, i);
	if (so)
		dlclose(so);
	for (i = 0; i < b->n; i++) {
		for (k = 0; k < b->p[i].num_args; k++)
			xrt_literal_destroy(b->p[i].args[k]);
		cuda_plan_release(&b->p[i].plan);
		xexe_destroy(b->p[i].exe);
	}
	b->n = 0;
}

/* Adds @exe (owned now) with its arguments (owned) to the batch. */
static void add(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		struct batch *b, const char *name, struct xrt_executable *exe,
		xrt_literal *const *args, uint32_t n, bool exact, struct xrt_tolerance tol)
{
	const struct xdev_program *lp;
	struct prog *p = &b->p[b->n];
	char prefix[16];

	snprintf(prefix, sizeof(prefix), "p%d_", b->n);
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->exe = exe;
	memcpy(p->args, args, n * sizeof(*args));
	p->num_args = n;
	p->exact = exact;
	p->tol = tol;
	ASSERT_OK(xdev_program_of(exe, &lp));
	ASSERT_OK(cuda_plan_build(&lp->prog, prefix, a, &p->plan));
	if (++b->n == BATCH)
		flush(_metadata, a, b);
}

#define NEED_GXX()                                                            \
	do {                                                                  \
		if (system("g++ --version > /dev/null 2>&1"))                \
			SKIP(return, "no g++ to build the emulated kernels"); \
	} while (0)

TEST_F_TIMEOUT(xrt, corpus_kernels_emulated_match_the_host, 300)
{
	const struct cc_options fused = { false }, unfused = { true };
	const struct xrt_tolerance tol = { 2e-5, 1e-6 };
	struct batch *b = calloc(1, sizeof(*b));
	struct test_corpus c = { 0 };
	char cmd[96];

	NEED_GXX();
	ASSERT_NE(NULL, b);
	snprintf(b->dir, sizeof(b->dir), "/tmp/xrt-cuda-emu-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(b->dir));
	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		xrt_module *m = NULL;
		int pass;

		ASSERT_OK(xrt_hlo_parse(self->a, c.text, c.len, &m));
		for (pass = 0; pass < 2; pass++) {
			struct xrt_executable *exe = NULL;
			xrt_literal *args[16] = { NULL };
			uint32_t n = xrt_module_num_params(m), i;
			uint64_t state = 11;
			char name[300];
			xrt_status *st = cc_compile(m, pass ? &unfused : &fused, self->a, &exe);

			if (st || exe->num_calls) {	/* custom calls: refused by cuda:N */
				xrt_status_free(st);
				xexe_destroy(exe);
				continue;
			}
			ASSERT_GE(16, n);
			for (i = 0; i < n; i++) {
				ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, i),
							     &args[i]));
				test_fill_random(args[i], &state);
			}
			snprintf(name, sizeof(name), "%s%s", c.name, pass ? " (unfused)" : "");
			add(_metadata, self->a, b, name, exe, args, n, false, tol);
		}
		xrt_module_destroy(m);
	}
	flush(_metadata, self->a, b);
	fprintf(stderr, "# %d corpus programs emulated: %d differ from host:0, %d bit-identical\n",
		b->ran, b->differ, b->identical);
	EXPECT_EQ(0, b->differ);
	EXPECT_LE(100, b->ran);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", b->dir);
	EXPECT_EQ(0, system(cmd));
	free(b);
}

/* Shapes past one block and one REDUCE segment, ties for SORT, overlapping SCATTER windows. */
static const char *const large[] = {
	("HloModule red\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
	"  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n"
	"%max (a: s32[], b: s32[]) -> s32[] {\n  %a = s32[] parameter(0)\n"
	"  %b = s32[] parameter(1)\n  ROOT %s = s32[] maximum(%a, %b)\n}\n"
	"ENTRY %main {\n  %x = f32[3,5000] parameter(0)\n  %y = f32[5000,3] parameter(1)\n"
	"  %i = s32[7,3000] parameter(2)\n  %z = f32[] constant(0)\n  %m = s32[] constant(-5)\n"
	"  %r0 = f32[3] reduce(%x, %z), dimensions={1}, to_apply=%add\n"
	"  %r1 = f32[3] reduce(%y, %z), dimensions={0}, to_apply=%add\n"
	"  %r2 = f32[] reduce(%x, %z), dimensions={0,1}, to_apply=%add\n"
	"  %r3 = s32[3000] reduce(%i, %m), dimensions={0}, to_apply=%max\n"
	"  ROOT %t = (f32[3], f32[3], f32[], s32[3000]) tuple(%r0, %r1, %r2, %r3)\n}\n"),
	("HloModule srt\n%lt (a: s32[], b: s32[], c: f32[], d: f32[]) -> pred[] {\n"
	"  %a = s32[] parameter(0)\n  %b = s32[] parameter(1)\n  %c = f32[] parameter(2)\n"
	"  %d = f32[] parameter(3)\n  ROOT %r = pred[] compare(%a, %b), direction=LT\n}\n"
	"ENTRY %main {\n  %k = s32[2,1500] parameter(0)\n  %v = f32[2,1500] parameter(1)\n"
	"  ROOT %r = (s32[2,1500], f32[2,1500]) sort(%k, %v), dimensions={1}, is_stable=true, "
	"to_apply=%lt\n}\n"),
	("HloModule sct\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n"
	"  %b = f32[] parameter(1)\n  ROOT %s = f32[] add(%a, %b)\n}\n"
	"ENTRY %main {\n  %x = f32[9] parameter(0)\n  %idx = s32[3000,1] parameter(1)\n"
	"  %u = f32[3000] parameter(2)\n  ROOT %r = f32[9] scatter(%x, %idx, %u), "
	"update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
	"index_vector_dim=1, to_apply=%add\n}\n"),
	("HloModule ew\nENTRY %main {\n  %x = f32[70001] parameter(0)\n  %y = f32[70001] parameter(1)\n"
	"  %m = f32[70001] multiply(%x, %y)\n  ROOT %a = f32[70001] add(%m, %x)\n}\n"),
};

TEST_F_TIMEOUT(xrt, large_shapes_emulated_match_the_host, 300)
{
	const struct xrt_tolerance tol = { 1e-5, 1e-6 };
	struct batch *b = calloc(1, sizeof(*b));
	char cmd[96];
	size_t k;

	NEED_GXX();
	ASSERT_NE(NULL, b);
	snprintf(b->dir, sizeof(b->dir), "/tmp/xrt-cuda-emu-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(b->dir));
	for (k = 0; k < sizeof(large) / sizeof(large[0]); k++) {
		struct xrt_executable *exe = NULL;
		xrt_literal *args[16] = { NULL };
		xrt_module *m = NULL;
		uint64_t state = 5;
		uint32_t n, i;
		char name[32];

		ASSERT_OK(xrt_hlo_parse(self->a, large[k], strlen(large[k]), &m));
		ASSERT_OK(cc_compile(m, NULL, self->a, &exe));
		n = xrt_module_num_params(m);
		for (i = 0; i < n; i++) {
			ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, i), &args[i]));
			test_fill_random(args[i], &state);
		}
		snprintf(name, sizeof(name), "large[%zu]", k);
		add(_metadata, self->a, b, name, exe, args, n, false, tol);
		xrt_module_destroy(m);
	}
	flush(_metadata, self->a, b);
	fprintf(stderr, "# %d large programs emulated: %d differ, %d bit-identical\n", b->ran,
		b->differ, b->identical);
	EXPECT_EQ(0, b->differ);
	EXPECT_EQ((int)(sizeof(large) / sizeof(large[0])), b->identical);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", b->dir);
	EXPECT_EQ(0, system(cmd));
	free(b);
}

TEST_F_TIMEOUT(xrt, evaluator_case_kernels_emulated_match_the_host, 300)
{
	const struct cc_options o = { .no_folding = true };
	size_t len = 0;
	char *text = test_slurp(EVAL_CASES, &len), *p = text, cmd[96];
	struct batch *b = calloc(1, sizeof(*b));
	struct test_case c;

	NEED_GXX();
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, text);
	snprintf(b->dir, sizeof(b->dir), "/tmp/xrt-cuda-emu-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(b->dir));
	while (test_case_next(&p, &c)) {
		struct xrt_executable *exe = NULL;
		xrt_module *m = NULL;
		xrt_status *st;

		ASSERT_OK(xrt_hlo_parse(self->a, c.module, strlen(c.module), &m));
		st = cc_compile(m, &o, self->a, &exe);
		xrt_module_destroy(m);
		if (st) {
			xrt_status_free(st);
			continue;
		}
		add(_metadata, self->a, b, c.name, exe, NULL, 0, c.exact, c.tol);
	}
	flush(_metadata, self->a, b);
	fprintf(stderr, "# %d evaluator-case programs emulated: %d differ from host:0, "
		"%d bit-identical\n", b->ran, b->differ, b->identical);
	EXPECT_EQ(0, b->differ);
	EXPECT_LE(600, b->ran);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", b->dir);
	EXPECT_EQ(0, system(cmd));
	free(text);
	free(b);
}

TEST_HARNESS_MAIN
