// SPDX-License-Identifier: MIT
/*
 * xrt-run: runs an HLO module and prints its result.  Parameters come
 * from --input files, or get random values from --seed.  The module is compiled and run on the host
 * (--device=host, the default) or evaluated by the reference evaluator
 * (--device=reference).  --demo lists the devices and round-trips a
 * literal through the wire format.
 *
 * Exit status: 0 done, 1 the module failed (read, verify or run), 2 a
 * usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xrt/device.h>
#include <xrt/literal.h>
#include <xrt/wire.h>
#include <xrt/xrt.h>

#include "xrt_run.h"

int run_fail(xrt_status *st, const char *what)
{
	uint32_t rank, size;
	char who[32] = "";

	if (xrt_distributed_rank(&rank, &size) && size > 1)
		snprintf(who, sizeof(who), "rank %u: ", rank);
	fprintf(stderr, "xrt-run: %s%s: %s: %s\n", who, what,
		xrt_code_name(xrt_status_code(st)), xrt_status_message(st));
	xrt_status_free(st);
	return 1;
}

static xrt_status *make_demo_literal(xrt_literal **out)
{
	static const float m[2][3] = { { 1.5f, -2.0f, 0.1f },
				       { 1e-3f, 3e8f, -0.0f } };
	static const int32_t v[4] = { 7, -1, 2147483647, 0 };
	xrt_literal *parts[3] = { NULL, NULL, NULL };
	struct xrt_shape s;
	xrt_status *st;

	st = xrt_shape_parse(&s, NULL, "f32[2,3]");
	if (!st)
		st = xrt_literal_create_from(NULL, &s, m, sizeof(m), &parts[0]);
	if (!st)
		st = xrt_shape_parse(&s, NULL, "s32[4]");
	if (!st)
		st = xrt_literal_create_from(NULL, &s, v, sizeof(v), &parts[1]);
	if (!st)
		st = xrt_shape_parse(&s, NULL, "pred[]");
	if (!st)
		st = xrt_literal_create(NULL, &s, &parts[2]);
	if (!st) {
		*(unsigned char *)xrt_literal_mutable_data(parts[2]) = 1;
		st = xrt_literal_make_tuple(NULL, parts, 3, out);
	}
	if (st) {
		xrt_literal_destroy(parts[0]);
		xrt_literal_destroy(parts[1]);
		xrt_literal_destroy(parts[2]);
	}
	return st;
}

/* Arrays above this many elements print like numpy's: 3 at each edge. */
#define ELIDE_ABOVE	1000
#define EDGE		3

/* One element, as xrt_literal_format() prints a scalar of its type. */
static void print_element(const struct xrt_shape *s, const unsigned char *p)
{
	struct xrt_shape one;
	xrt_literal *lit = NULL;
	char text[128];
	const char *v;

	if (xrt_shape_init_array(&one, s->dtype, 0, NULL) ||
	    xrt_literal_create_from(NULL, &one, p, xrt_dtype_size(s->dtype), &lit)) {
		fputs("?", stdout);
		return;
	}
	xrt_literal_format(lit, text, sizeof(text));
	v = strchr(text, ' ');		/* past "f32[] " */
	fputs(v ? v + 1 : text, stdout);
	xrt_literal_destroy(lit);
}

/* Dimension @d of an array from byte @at: its edges, "..." between. */
static void print_dim(const struct xrt_shape *s, const int64_t *strides,
		      const unsigned char *at, uint32_t d)
{
	size_t es = xrt_dtype_size(s->dtype);
	int64_t n = s->dims[d], i;

	fputs("{", stdout);
	for (i = 0; i < n; i++) {
		if (n > 2 * EDGE && i == EDGE) {
			fputs("..., ", stdout);
			i = n - EDGE;
		}
		if (d + 1 == s->rank)
			print_element(s, at + (size_t)(i * strides[d]) * es);
		else
			print_dim(s, strides, at + (size_t)(i * strides[d]) * es, d + 1);
		if (i + 1 < n)
			fputs(", ", stdout);
	}
	fputs("}", stdout);
}

static bool is_big(const xrt_literal *lit);

/* A literal as xrt_literal_format() prints it. */
static void print_small(const xrt_literal *lit)
{
	size_t n = xrt_literal_format(lit, NULL, 0) + 1;
	char *text = malloc(n);

	if (!text)
		return;
	xrt_literal_format(lit, text, n);
	fputs(text, stdout);
	free(text);
}

/* Like xrt_literal_format(), with big arrays elided. */
static void print_elided(const xrt_literal *lit)
{
	const struct xrt_shape *s = xrt_literal_shape(lit);
	int64_t strides[XRT_MAX_RANK];
	char shape[512];
	uint32_t i, n;

	if (xrt_shape_is_tuple(s)) {
		n = xrt_literal_tuple_count(lit);
		fputs("(", stdout);
		for (i = 0; i < n; i++) {
			print_elided(xrt_literal_element(lit, i));
			if (i + 1 < n)
				fputs(", ", stdout);
		}
		fputs(")", stdout);
		return;
	}
	if (!is_big(lit)) {
		print_small(lit);
		return;
	}
	xrt_shape_format(s, shape, sizeof(shape));
	/* as xrt_literal_format() does: the default (row-major) layout unsaid */
	for (i = 0; i < s->rank && s->minor_to_major[i] == s->rank - 1 - i; i++)
		;
	if (i == s->rank && strchr(shape, '{'))
		*strchr(shape, '{') = 0;
	printf("%s ", shape);
	xrt_shape_strides(s, strides);
	print_dim(s, strides, xrt_literal_data(lit), 0);
}

/* Whether any array of @lit is big enough to elide. */
static bool is_big(const xrt_literal *lit)
{
	uint32_t i;

	if (!xrt_shape_is_tuple(xrt_literal_shape(lit)))
		return xrt_shape_element_count(xrt_literal_shape(lit)) > ELIDE_ABOVE;
	for (i = 0; i < xrt_literal_tuple_count(lit); i++) {
		if (is_big(xrt_literal_element(lit, i)))
			return true;
	}
	return false;
}

void run_print_literal(const char *label, const xrt_literal *lit)
{
	printf("%-10s ", label);
	if (is_big(lit))
		print_elided(lit);
	else
		print_small(lit);
	putchar('\n');
}

/* "reference", or a device listed now. */
static bool known_device(const char *name)
{
	struct xrt_device_info *devs;
	size_t n = 0, i;
	bool found = !strcmp(name, "reference") || !strcmp(name, "host");
	xrt_status *st = xrt_devices_list(NULL, &devs, &n);

	if (st) {
		xrt_status_free(st);
		return found;
	}
	for (i = 0; i < n && !found; i++)
		found = !strcmp(name, devs[i].name) ||
			!strcmp(name, xrt_device_kind_name(devs[i].kind));
	xrt_free(NULL, devs);
	return found;
}

/* ", host:0, accel:0, ..." and a line end, on stderr. */
static void print_device_names(void)
{
	struct xrt_device_info *devs;
	size_t n = 0, i;
	xrt_status *st = xrt_devices_list(NULL, &devs, &n);

	xrt_status_free(st);
	for (i = 0; !st && i < n; i++)
		fprintf(stderr, ", %s", devs[i].name);
	fputc('\n', stderr);
	if (!st)
		xrt_free(NULL, devs);
}

static xrt_status *print_devices(void)
{
	struct xrt_device_info *devs;
	size_t i, n;
	xrt_status *st = xrt_devices_list(NULL, &devs, &n);

	if (st)
		return st;
	for (i = 0; i < n; i++)
		printf("%-10s %s: %s, %u compute units, %.1f GiB memory\n",
		       i ? "" : "devices:", devs[i].name,
		       xrt_device_kind_name(devs[i].kind),
		       devs[i].compute_units,
		       (double)devs[i].memory_bytes / (1u << 30));
	xrt_free(NULL, devs);
	return NULL;
}

static int demo(void)
{
	xrt_literal *lit = NULL, *back = NULL;
	void *bytes = NULL;
	char why[256];
	size_t size;
	xrt_status *st;
	int rc = 0;

	st = print_devices();
	if (st)
		return run_fail(st, "listing devices");
	st = make_demo_literal(&lit);
	if (st)
		return run_fail(st, "building the literal");
	run_print_literal("literal:", lit);
	st = xrt_literal_serialize(lit, NULL, &bytes, &size);
	if (!st)
		st = xrt_literal_deserialize(NULL, bytes, size, &back);
	if (st) {
		rc = run_fail(st, "wire round trip");
	} else {
		printf("wire:      %zu bytes (xrt.Literal)\n", size);
		run_print_literal("read back:", back);
		if (xrt_literal_equal(lit, back, why, sizeof(why))) {
			printf("round trip: identical\n");
		} else {
			printf("round trip: DIFFERENT: %s\n", why);
			rc = 1;
		}
	}
	xrt_free(NULL, bytes);
	xrt_literal_destroy(back);
	xrt_literal_destroy(lit);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: xrt-run [options] FILE\n"
		   "  FILE: HLO text, a serialized xrt.Computation message, or XLA's\n"
		   "        HloModuleProto, HloProto or HloSnapshot (told apart by content;\n"
		   "        a snapshot runs on its recorded arguments, checked against its result)\n"
		   "       xrt-run --demo\n"
		   "  --device=NAME         where to run: 'host' (compiled, the default), a\n"
		   "                        device listed by --demo (accel:0, ...), or\n"
		   "                        'reference' (the reference evaluator)\n"
		   "  --devices=A,B,...     a module of several replicas or partitions: the\n"
		   "                        device of each, in order (default: host devices)\n"
		   "  --threads=N           host threads (default: every core)\n"
		   "  --dump-ir             print the module as read\n"
		   "  --dump-program        print the compiled command stream\n"
		   "  --no-fusion           one command per elementwise instruction\n"
		   "  --input=FILE          the next parameter's value: a literal as printed\n"
		   "                        here (\"f32[2] {1, 2}\"), an xrt.Literal or an\n"
		   "                        xla.LiteralProto message, or a .npy file;\n"
		   "                        parameters without one are random\n"
		   "  --output=FILE.npy     save the result as NumPy's .npy (a tuple: one file\n"
		   "                        per element, FILE.0.npy, FILE.1.npy, ...)\n"
		   "  --repeat=N            run N more times and print min/median/max\n"
		   "  --seed=N              seed of the random parameters and of rng (default 0)\n"
		   "  --max-iterations=N    fail when any execution of a while loop runs more\n"
		   "                        than N iterations (default: no limit)\n"
		   "  --timeout=SECONDS     fail an execution running longer, not the compile\n"
		   "                        (default: none)\n"
		   "  --show-inputs         print the parameters too\n"
		   "  --demo                list devices, round-trip a literal through the wire\n"
		   "  --help                this text\n"
		   "exit status: 0 done, 1 the module failed, 2 usage\n");
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	*v = strtoull(s, &end, 0);
	return !*end;
}

/* Parses the options into @o and runs; the exit status. */
/* Seconds (a decimal number above 0, at most 10^9) as nanoseconds. */
static bool parse_seconds(const char *s, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !(v > 0) || v > 1e9)
		return false;
	*ns = (uint64_t)(v * 1e9);
	return *ns > 0;
}

/*
 * --output names a file to write (or, for a tuple, the stem of its files):
 * not empty, not a directory, not ending in '/'.  Checked before the run,
 * so that a long run does not end in a write that cannot succeed.
 */
static bool output_name_ok(const char *path)
{
	struct stat sb;
	size_t n = strlen(path);

	if (!n) {
		fprintf(stderr, "xrt-run: --output wants a file name\n");
		return false;
	}
	if (path[n - 1] == '/' || (!stat(path, &sb) && S_ISDIR(sb.st_mode))) {
		fprintf(stderr, "xrt-run: --output=%s: a directory; give a file name\n", path);
		return false;
	}
	return true;
}

static int parse_and_run(int argc, char **argv, struct run_options *o)
{
	static const struct option opts[] = {
		{ "demo", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "device", required_argument, NULL, 'D' },
		{ "devices", required_argument, NULL, 'V' },
		{ "seed", required_argument, NULL, 's' },
		{ "max-iterations", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "show-inputs", no_argument, NULL, 'i' },
		{ "threads", required_argument, NULL, 't' },
		{ "dump-ir", no_argument, NULL, 'I' },
		{ "dump-program", no_argument, NULL, 'P' },
		{ "no-fusion", no_argument, NULL, 'F' },
		{ "input", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "repeat", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t threads;
	int c, want_demo = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			want_demo = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'D':
			o->device = optarg;
			break;
		case 'V':
			/* one name is --device; several, the devices of a replicated run */
			if (strchr(optarg, ','))
				o->devices = optarg;
			else
				o->device = optarg;
			break;
		case 's':
		case 'm':
			if (!parse_u64(optarg, c == 's' ? &o->seed : &o->max_iterations)) {
				fprintf(stderr, "xrt-run: --%s wants a number, not '%s'\n",
					c == 's' ? "seed" : "max-iterations", optarg);
				return 2;
			}
			break;
		case 'i':
			o->show_inputs = true;
			break;
		case 'T':
			if (!parse_seconds(optarg, &o->timeout_ns)) {
				fprintf(stderr, "xrt-run: --timeout wants seconds above 0 (at most "
					"10^9), not '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
			if (!parse_u64(optarg, &threads) || !threads || threads > 1024) {
				fprintf(stderr, "xrt-run: --threads wants 1 to 1024, not '%s'\n",
					optarg);
				return 2;
			}
			o->threads = (uint32_t)threads;
			break;
		case 'I':
			o->dump_ir = true;
			break;
		case 'P':
			o->dump_program = true;
			break;
		case 'F':
			o->no_fusion = true;
			break;
		case 'n':	/* argv outlives o: keep pointers into it */
			o->inputs[o->num_inputs++] = optarg;
			break;
		case 'o':
			if (!output_name_ok(optarg))
				return 2;
			o->output = optarg;
			break;
		case 'r':
			if (!parse_u64(optarg, &o->repeat) || !o->repeat ||
			    o->repeat > 1000000) {
				fprintf(stderr, "xrt-run: --repeat wants 1 to 10^6, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (want_demo)
		return optind == argc ? demo() : (usage(stderr), 2);
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	if (!known_device(o->device)) {
		fprintf(stderr, "xrt-run: no device '%s'; available: reference", o->device);
		print_device_names();
		return 2;
	}
	o->path = argv[optind];
	return run_module(o);
}

int main(int argc, char **argv)
{
	struct run_options o = { NULL, "host", NULL, 0, 0, 0, false, false, false, false, NULL, 0,
				 NULL, 0 };
	int rc;

	o.inputs = calloc((size_t)argc, sizeof(*o.inputs));	/* at most one per argument */
	if (!o.inputs) {
		fprintf(stderr, "xrt-run: out of memory\n");
		return 1;
	}
	if (xrt_distributed_launched()) {
		/* under mpirun or srun: replicated modules span the processes */
		xrt_status *st = xrt_distributed_init(NULL);

		if (st) {
			free(o.inputs);
			return run_fail(st, "joining the other processes");
		}
	}
	rc = parse_and_run(argc, argv, &o);
	free(o.inputs);
	if (rc && xrt_distributed_rank(NULL, NULL)) {
		/*
		 * MPI's finalize would wait for the others.  A process that
		 * gave up at a collective leaves: the others, given the same
		 * --timeout, give up too, each saying why.  Any other failure
		 * may leave them waiting for this process: it ends the job.
		 */
		if (xrt_distributed_broken()) {
			fflush(NULL);
			_exit(rc);
		}
		xrt_distributed_abort(rc);
	}
	if (xrt_distributed_rank(NULL, NULL)) {
		xrt_status *st = xrt_distributed_shutdown();

		rc = st ? run_fail(st, "leaving the other processes") : rc;
	}
	return rc;
}
