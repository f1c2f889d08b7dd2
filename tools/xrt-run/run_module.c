// SPDX-License-Identifier: MIT
/*
 * Running one HLO file: read it, give each parameter its --input file or
 * random values from the seed, run it on the chosen device, print the
 * result.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>
#include <unistd.h>

#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/wire.h>

#include "compiler/compiler.h"
#include "cstream/cs_builder.h"
#include "device/device.h"
#include "device/host/host_device.h"
#include "xrt.pb-c.h"
#include "xrt_run.h"

/* SplitMix64: a fixed stream per (seed, parameter). */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Floats uniform in [-1, 1); signed integers in [-8, 8), unsigned in [0, 16). */
static void random_element(enum xrt_dtype t, uint64_t r, unsigned char *p)
{
	double f = (double)(r >> 11) * 0x1p-52 - 1.0;
	float x = (float)f;
	uint16_t h;
	int64_t i = (int64_t)(r % 16) - (xrt_dtype_is_signed(t) ? 8 : 0);

	switch (t) {
	case XRT_PRED:
		*p = r & 1;
		return;
	case XRT_F16:
		h = xrt_f16_from_f32(x);
		memcpy(p, &h, 2);
		return;
	case XRT_BF16:
		h = xrt_bf16_from_f32(x);
		memcpy(p, &h, 2);
		return;
	case XRT_F32:
		memcpy(p, &x, 4);
		return;
	case XRT_F64:
		memcpy(p, &f, 8);
		return;
	case XRT_C64:
		memcpy(p, &x, 4);
		x = (float)((double)(r & 0xfffff) * 0x1p-19 - 1.0);
		memcpy(p + 4, &x, 4);
		return;
	case XRT_C128:
		memcpy(p, &f, 8);
		f = (double)(r & 0xfffff) * 0x1p-19 - 1.0;
		memcpy(p + 8, &f, 8);
		return;
	default:	/* integers, little-endian */
		memcpy(p, &i, xrt_dtype_size(t));
	}
}

static void fill_random(xrt_literal *lit, uint64_t *state)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	size_t size, k, n;
	unsigned char *d;
	uint32_t i;

	if (xrt_shape_is_tuple(s)) {
		for (i = 0; i < s->tuple_count; i++)
			fill_random(xrt_literal_element(lit, i), state);
		return;
	}
	size = xrt_dtype_size(s->dtype);
	n = xrt_literal_size(lit) / size;
	d = xrt_literal_mutable_data(lit);
	for (k = 0; k < n; k++)
		random_element(s->dtype, next_random(state), d + k * size);
}

xrt_status *run_make_args(const struct run_options *o, const xrt_module *m, uint64_t seed,
			  xrt_literal **args)
{
	uint32_t i, n = xrt_module_num_params(m);
	xrt_status *st = NULL;

	if (o->num_inputs > n)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				      "%u --input files for %u parameters", o->num_inputs, n);
	for (i = 0; i < n && !st; i++) {
		uint64_t state = seed * 0x100000001B3ull + i;

		if (i < o->num_inputs) {
			st = run_read_input(o->inputs[i], xrt_module_param_shape(m, i), &args[i]);
			continue;
		}
		st = xrt_literal_create(NULL, xrt_module_param_shape(m, i), &args[i]);
		if (!st)
			fill_random(args[i], &state);
	}
	return st;
}

/* The rest of @f, in chunks: a pipe has no size to ask for first. */
static xrt_status *read_all(FILE *f, const char *path, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap + 1), *more;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		more = cap < SIZE_MAX / 4 ? realloc(buf, cap * 2 + 1) : NULL;
		if (!more) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = more;
		cap *= 2;
	}
	if (!buf)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED,
				      "%s: out of memory reading it", path);
	if (ferror(f)) {
		free(buf);
		return xrt_status_new(NULL, XRT_UNAVAILABLE, "%s: read error", path);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return NULL;
}

xrt_status *run_read_file(const char *path, char **text, size_t *len)
{
	xrt_status *st;
	struct stat sb;
	FILE *f;

	*text = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (!f)
		return xrt_status_new(NULL, XRT_NOT_FOUND, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &sb)) {
		st = xrt_status_new(NULL, XRT_NOT_FOUND, "%s: %s", path, strerror(errno));
	} else if (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode)) {
		st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				    "%s: %s, not a file or a pipe", path,
				    S_ISDIR(sb.st_mode) ? "a directory" : "a special file");
	} else {
		st = read_all(f, path, text, len);
	}
	fclose(f);
	return st;
}

static void dump_ir(const xrt_module *m)
{
	char *text = NULL;
	xrt_status *st = xrt_hlo_print(m, NULL, &text, NULL);

	if (st) {
		run_fail(st, "printing the module");
		return;
	}
	fputs(text, stdout);
	xrt_free(NULL, text);
}

static void dump_program(const struct xrt_executable *exe)
{
	size_t n = cs_dump(exe->program, exe->program_size, NULL, 0) + 1;
	char *text = malloc(n);

	if (!text)
		return;
	cs_dump(exe->program, exe->program_size, text, n);
	fputs(text, stdout);
	free(text);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* CLOCK_MONOTONIC nanoseconds @ns from now (0 for 0: no deadline). */
static uint64_t deadline(uint64_t ns)
{
	return ns ? (uint64_t)(now() * 1e9) + ns : 0;
}

/* A progress bar on stderr, when it is a terminal. */
static void progress(uint64_t done, uint64_t n)
{
	int w = 40, k = (int)(done * (uint64_t)w / n);

	if (!isatty(2))
		return;
	fprintf(stderr, "\r[%.*s%*s] %llu/%llu", k, "########################################",
		w - k, "", (unsigned long long)done, (unsigned long long)n);
	if (done == n)
		fputs("\r\033[K", stderr);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void run_print_times(double *t, uint64_t n)
{
	qsort(t, n, sizeof(*t), by_value);
	printf("time       min %.3f ms, median %.3f ms, max %.3f ms (%llu runs after the first)\n",
	       t[0] * 1e3, t[n / 2] * 1e3, t[n - 1] * 1e3, (unsigned long long)n);
}

/* One run of the module for --repeat: compiled (@exe) or evaluated. */
struct one_run {
	const struct xrt_executable *exe;
	const struct host_run_options *ro;
	const xrt_module *m;
	const struct xrt_eval_options *eo;
	xrt_literal *const *args;
	uint32_t n;
	struct xdev_watch *w;		/* the compiled run's limits */
};

/* --repeat: o->repeat more runs, each timed; the result dropped. */
static xrt_status *repeat(const struct run_options *o, const struct one_run *r)
{
	const xrt_literal *const *args = (const xrt_literal *const *)r->args;
	double *t = calloc(o->repeat, sizeof(*t));
	xrt_literal *out = NULL;
	xrt_status *st = NULL;
	uint64_t i;

	if (!t)
		return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	for (i = 0; !st && i < o->repeat; i++) {
		double t0 = now();

		if (r->w)	/* each run its own time */
			r->w->deadline_ns = deadline(o->timeout_ns);
		st = r->exe ? host_run(r->exe, args, r->n, r->ro, NULL, &out) :
			      xrt_ir_evaluate(r->m, args, r->n, r->eo, NULL, &out);
		t[i] = now() - t0;
		xrt_literal_destroy(out);
		out = NULL;
		progress(i + 1, o->repeat);
	}
	if (!st)
		run_print_times(t, o->repeat);
	free(t);
	return st;
}

/* Compiles @m and runs it on the host's threads. */
static xrt_status *run_host(const struct run_options *o, const xrt_module *m,
			    xrt_literal *const *args, uint32_t n, xrt_literal **out)
{
	struct cc_options co = { o->no_fusion };
	struct xdev_watch w = { NULL, 0, o->max_iterations };
	struct host_run_options ro = { o->seed, NULL, false, &w };
	struct xrt_executable *exe = NULL;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	xrt_status *st = cc_compile(m, &co, NULL, &exe);

	if (!st && o->dump_program)
		dump_program(exe);
	if (!st)
		st = host_pool_create(o->threads ? o->threads : (uint32_t)(cores > 0 ? cores : 1),
				      &ro.pool);
	if (!st) {
		w.deadline_ns = deadline(o->timeout_ns);
		st = host_run(exe, (const xrt_literal *const *)args, n, &ro, NULL, out);
	}
	if (!st && o->repeat) {
		struct one_run r = { exe, &ro, NULL, NULL, args, n, &w };

		st = repeat(o, &r);
	}
	host_pool_destroy(ro.pool);
	xexe_destroy(exe);
	return st;
}

/*
 * HLO text has no control bytes but tabs and line ends; a protobuf
 * message has them at once (its tags and lengths).
 */
static bool is_hlo_text(const char *data, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)data[i];

		if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
			return false;
	}
	return len > 0;
}

/* A message's bytes, packed again (malloc'ed), or NULL when out of memory. */
static uint8_t *repacked(const ProtobufCMessage *msg, size_t *n)
{
	uint8_t *b;

	*n = protobuf_c_message_get_packed_size(msg);
	b = malloc(*n ? *n : 1);
	if (b)
		protobuf_c_message_pack(msg, b);
	return b;
}

static xrt_status *oom(void)
{
	return xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
}

/*
 * The module in @data: HLO text, an xrt.Computation message (any of its
 * bodies; its config is not needed to run it), or
 * one of XLA's (HloModuleProto, HloProto, HloSnapshot).
 */
static xrt_status *read_module(const char *data, size_t len, xrt_module **m, bool *xla)
{
	Xrt__Computation *c;
	xrt_status *st;
	uint8_t *ir;
	size_t n;

	*xla = false;
	if (is_hlo_text(data, len))
		return xrt_hlo_parse(NULL, data, len, m);
	c = xrt__computation__unpack(NULL, len, (const uint8_t *)data);
	if (!c || c->body_case == XRT__COMPUTATION__BODY__NOT_SET) {
		if (c)
			xrt__computation__free_unpacked(c, NULL);
		*xla = true;
		st = xrt_hlo_parse_xla_proto(NULL, data, len, XRT_XLA_ANY, m);
		if (st && xrt_status_code(st) == XRT_INVALID_ARGUMENT)
			st = xrt_status_annotate(st, "neither HLO text nor an xrt.Computation; "
						 "read as XLA's");
		return st;
	}
	if (c->body_case == XRT__COMPUTATION__BODY_HLO_TEXT) {
		st = xrt_hlo_parse(NULL, c->hlo_text, strlen(c->hlo_text), m);
	} else if (c->body_case == XRT__COMPUTATION__BODY_MODULE) {
		/* through the public reader: the message's own bytes again */
		ir = repacked(&c->module->base, &n);
		st = ir ? xrt_module_deserialize(NULL, ir, n, m) : oom();
		free(ir);
	} else if (c->body_case == XRT__COMPUTATION__BODY_HLO_SNAPSHOT) {
		/* the original XRT's XLAComputation: its snapshot's bytes again */
		ir = repacked(&c->hlo_snapshot->base, &n);
		st = ir ? xrt_hlo_parse_xla_proto(NULL, ir, n, XRT_XLA_HLO_SNAPSHOT, m) : oom();
		free(ir);
	} else if (c->body_case == XRT__COMPUTATION__BODY_XLA_MODULE) {
		st = xrt_hlo_parse_xla_proto(NULL, c->xla_module.data, c->xla_module.len,
					     XRT_XLA_ANY, m);
	} else {
		st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT,
				    "the xrt.Computation has a body this xrt-run does not know");
	}
	xrt__computation__free_unpacked(c, NULL);
	if (st && xrt_status_code(st) == XRT_INVALID_ARGUMENT &&
	    !xrt_hlo_parse_xla_proto(NULL, data, len, XRT_XLA_ANY, m)) {
		/* XLA's bytes decoded as an xrt.Computation by chance: they are XLA's */
		xrt_status_free(st);
		*xla = true;
		return NULL;
	}
	return st;
}

/*
 * The arguments and result an HloSnapshot in @data recorded, when they
 * fit @m (a module proto may decode as a snapshot by chance: its values
 * must match the module's signature to count).  False when it is none.
 */
static bool snapshot_values(const char *data, size_t len, const xrt_module *m,
			    xrt_literal ***args, uint32_t *n, xrt_literal **result)
{
	xrt_status *st = xrt_xla_snapshot_values(NULL, data, len, args, n, result);
	bool fits = !st && (*n || *result) && *n == xrt_module_num_params(m);
	xrt_literal **own;
	uint32_t i;

	if (st) {
		xrt_status_free(st);
		return false;
	}
	for (i = 0; fits && i < *n; i++)
		fits = xrt_shape_compatible(xrt_literal_shape((*args)[i]),
					    xrt_module_param_shape(m, i));
	if (fits && *result)
		fits = xrt_shape_compatible(xrt_literal_shape(*result), xrt_module_result_shape(m));
	own = fits ? calloc(*n + 1, sizeof(*own)) : NULL;	/* run_module() free()s it */
	if (own)
		memcpy(own, *args, *n * sizeof(*own));
	for (i = 0; !own && i < *n; i++)
		xrt_literal_destroy((*args)[i]);
	xrt_free(NULL, *args);
	*args = own;
	if (!own) {
		xrt_literal_destroy(*result);
		*result = NULL;
		*n = 0;
	}
	return own != NULL;
}

/* The result against the one the snapshot recorded: 0, or 1 with the difference printed. */
static int check_snapshot(const xrt_literal *want, const xrt_literal *got)
{
	const struct xrt_tolerance tol = { 1e-5, 1e-6 };
	char why[512];

	if (xrt_literal_near(want, got, &tol, why, sizeof(why))) {
		printf("snapshot   the result matches the one XLA recorded (rtol 1e-5, atol 1e-6)\n");
		return 0;
	}
	fprintf(stderr, "xrt-run: the result differs from the one XLA recorded: %s\n", why);
	return 1;
}

int run_module(const struct run_options *o)
{
	struct xrt_eval_options eo = { o->seed, o->max_iterations, o->timeout_ns };
	xrt_literal **args = NULL, *out = NULL, *recorded = NULL;
	xrt_module *m = NULL;
	xrt_status *st;
	uint32_t i, n = 0;
	size_t len = 0;
	char *text = NULL;
	bool xla, snap = false;
	int rc;

	st = run_read_file(o->path, &text, &len);
	if (st)
		return run_fail(st, "reading the module");
	st = read_module(text, len, &m, &xla);
	if (!st && o->devices && xrt_module_num_replicas(m) * xrt_module_num_partitions(m) == 1) {
		st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "--devices=%s: the module runs on "
				    "one device", o->devices);
		xrt_module_destroy(m);
	}
	if (!st && xla && !o->num_inputs)
		snap = snapshot_values(text, len, m, &args, &n, &recorded);
	free(text);
	if (st)
		return run_fail(st, o->path);
	if (o->dump_ir)
		dump_ir(m);
	if (xrt_module_num_replicas(m) * xrt_module_num_partitions(m) > 1) {
		xrt_literal_destroy(recorded);
		for (i = 0; args && i < n; i++)
			xrt_literal_destroy(args[i]);
		free(args);
		rc = run_replicas(o, m);
		xrt_module_destroy(m);
		return rc;
	}
	if (snap) {
		printf("inputs     the %u arguments the HloSnapshot recorded\n", n);
	} else {
		n = xrt_module_num_params(m);
		args = calloc(n + 1, sizeof(*args));
		st = args ? run_make_args(o, m, o->seed, args) :
			    xrt_status_new(NULL, XRT_RESOURCE_EXHAUSTED, "out of memory");
	}
	if (!st && !strcmp(o->device, "reference")) {
		st = xrt_ir_evaluate(m, (const xrt_literal *const *)args, n, &eo, NULL, &out);
		if (!st && o->repeat) {
			struct one_run r = { NULL, NULL, m, &eo, args, n, NULL };

			st = repeat(o, &r);
		}
	} else if (!st && (!strcmp(o->device, "host") || !strcmp(o->device, "host:0"))) {
		st = run_host(o, m, args, n, &out);
	} else if (!st) {
		st = run_on_device(o, m, args, n, &out);
	}
	if (st) {
		rc = run_fail(st, o->path);
	} else {
		for (i = 0; o->show_inputs && i < n; i++)
			run_print_literal("parameter", args[i]);
		st = o->output ? run_npy_write(o->output, out) : NULL;
		if (st) {
			rc = run_fail(st, "--output");
		} else {
			if (o->output)
				printf("result     saved to %s\n", o->output);
			else
				run_print_literal("result", out);
			rc = recorded ? check_snapshot(recorded, out) : 0;
		}
	}
	xrt_literal_destroy(recorded);
	xrt_literal_destroy(out);
	for (i = 0; args && i < n; i++)
		xrt_literal_destroy(args[i]);
	free(args);
	xrt_module_destroy(m);
	return rc;
}
