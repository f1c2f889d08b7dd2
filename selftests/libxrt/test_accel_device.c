// SPDX-License-Identifier: MIT
/*
 * libxrt on the accel device (the xrt_accel kernel driver), against
 * host:0 with OpenBLAS off: every corpus module on seeded inputs and
 * every evaluator case must give the same bits on both, on each accel
 * device.  Also: the devices are listed, errors come back named with
 * their ioctl, a job stopped by the driver's timeout aborts its session
 * and a new session works.  Skipped where no xrt_accel device is loaded
 * (the VM stage of make vmtest loads two).  The corpus runs on staged:0
 * too, everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xrt_test.h"

#include <xrt/builder.h>
#include <xrt/device.h>
#include <xrt/eager.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "test_cases.h"
#include "test_handlers.h"

/* The number of accel devices listed. */
static uint32_t accel_count(const struct xrt_allocator *a)
{
	struct xrt_device_info *v = NULL;
	size_t n = 0, i;
	uint32_t k = 0;
	xrt_status *st = xrt_devices_list(a, &v, &n);

	xrt_status_free(st);
	for (i = 0; !st && i < n; i++)
		k += v[i].kind == XRT_DEVICE_ACCEL;
	xrt_free(a, v);
	return k;
}

#define NEED_ACCEL()                                                          \
	do {                                                                  \
		if (!accel_count(self->a))                                    \
			SKIP(return, "no xrt_accel device (the VM stage loads the driver)"); \
	} while (0)

struct pair {
	xrt_session *host, *dev;
};

static xrt_status *pair_open(struct pair *p, const char *device, const struct xrt_allocator *a)
{
	/* staged:0 is the host's engine: without OpenBLAS too, to give its bits */
	struct xrt_session_options host = { "host:0", 0, true },
				   dev = { device, 0, !strncmp(device, "staged:", 7) };
	xrt_status *st = xrt_session_create(&host, a, &p->host);

	if (!st)
		st = xrt_session_create(&dev, a, &p->dev);
	return st;
}

static void pair_close(struct pair *p)
{
	xrt_session_destroy(p->host);
	xrt_session_destroy(p->dev);
}

/*
 * @m on both sessions: the same status code, and when both ran, the
 * same bits; false (logged) if not.
 */
static bool same_on_both(struct __test_metadata *_metadata, struct pair *p, const char *name,
			 const xrt_module *m, xrt_literal *const *args, uint32_t n)
{
	xrt_literal *want = NULL, *got = NULL;
	xrt_status *sh = test_run_module(p->host, m, args, n, &want);
	xrt_status *sd = test_run_module(p->dev, m, args, n, &got);
	char why[512] = "";
	bool same = xrt_status_code(sh) == xrt_status_code(sd);
	/* custom calls run code of the process: the host runs them, the kernel cannot */
	bool host_code = !sh && xrt_status_code(sd) == XRT_UNIMPLEMENTED &&
			 strstr(xrt_status_message(sd), "cannot run on an accel device: its jobs "
				"run in the kernel");

	if (host_code)
		same = true;
	else if (!same)
		TH_LOG("%s: host says '%s', %s says '%s'", name, sh ? xrt_status_message(sh) : "OK",
		       xrt_session_device(p->dev), sd ? xrt_status_message(sd) : "OK");
	if (same && !sh && !host_code && !xrt_literal_equal(want, got, why, sizeof(why))) {
		TH_LOG("%s: %s differs from the host: %s", name, xrt_session_device(p->dev), why);
		same = false;
	}
	xrt_status_free(sh);
	xrt_status_free(sd);
	xrt_literal_destroy(want);
	xrt_literal_destroy(got);
	return same;
}

static void corpus_on(struct __test_metadata *_metadata, const struct xrt_allocator *a,
		      const char *device)
{
	struct test_corpus c = { 0 };
	struct pair p = { NULL, NULL };
	int ran = 0, differ = 0;

	test_register_handlers();	/* custom_calls.hlo's, for the host */
	ASSERT_OK(pair_open(&p, device, a));
	while (test_corpus_next(&c, HLO_CORPUS_DIR)) {
		xrt_literal *args[16] = { NULL };
		xrt_module *m = NULL;
		uint64_t state = 7;
		uint32_t n, i;

		ASSERT_OK(xrt_hlo_parse(a, c.text, c.len, &m));
		n = xrt_module_num_params(m);
		ASSERT_GE(16, n);
		for (i = 0; i < n; i++) {
			ASSERT_OK(xrt_literal_create(a, xrt_module_param_shape(m, i), &args[i]));
			test_fill_random(args[i], &state);
		}
		differ += !same_on_both(_metadata, &p, c.name, m, args, n);
		ran++;
		for (i = 0; i < n; i++)
			xrt_literal_destroy(args[i]);
		xrt_module_destroy(m);
	}
	pair_close(&p);
	fprintf(stderr, "# %s: %d corpus modules, %d differ from host:0\n", device, ran, differ);
	EXPECT_EQ(0, differ);
	EXPECT_LT(70, ran);
}

/* A custom call runs code of the process: the device refuses it by name, and goes on working. */
TEST_F(xrt, custom_calls_are_refused)
{
	NEED_ACCEL();
	ASSERT_OK(test_device_refuses_custom_calls("accel:0", self->a,
						   "custom-call 'my_kernel' cannot run on an accel device: "
						   "its jobs run in the kernel"));
}

/*
 * staged:0 is host:0's engine behind buffers reached only by read and
 * write (as a GPU's): the corpus there checks those paths under every
 * opcode, loops, random numbers and custom calls, without the VM.
 */
TEST_F_TIMEOUT(xrt, corpus_gives_the_hosts_bits_on_staged_0, 300)
{
	corpus_on(_metadata, self->a, "staged:0");
}

TEST_F(xrt, corpus_gives_the_hosts_bits_on_accel_0)
{
	NEED_ACCEL();
	corpus_on(_metadata, self->a, "accel:0");
}

TEST_F(xrt, corpus_gives_the_hosts_bits_on_the_last_accel)
{
	char name[32];

	NEED_ACCEL();
	snprintf(name, sizeof(name), "accel:%u", accel_count(self->a) - 1);
	corpus_on(_metadata, self->a, name);
}

TEST_F(xrt, evaluator_cases_give_the_hosts_bits)
{
	struct pair p = { NULL, NULL };
	struct test_case tc;
	size_t len;
	char *text, *cur;
	int ran = 0, differ = 0;

	NEED_ACCEL();
	text = test_slurp(EVAL_CASES, &len);
	ASSERT_NE(NULL, text);
	ASSERT_OK(pair_open(&p, "accel:0", self->a));
	for (cur = text; test_case_next(&cur, &tc); ran++) {
		xrt_module *m = NULL;

		ASSERT_OK(xrt_hlo_parse(self->a, tc.module, strlen(tc.module), &m));
		differ += !same_on_both(_metadata, &p, tc.name, m, NULL, 0);
		xrt_module_destroy(m);
	}
	pair_close(&p);
	free(text);
	fprintf(stderr, "# %d evaluator cases, %d differ from host:0\n", ran, differ);
	EXPECT_EQ(0, differ);
	EXPECT_LT(600, ran);
}

TEST_F(xrt, accel_devices_are_listed_and_named)
{
	struct xrt_device_info *v = NULL;
	xrt_session *s = NULL;
	size_t n = 0, i;
	uint32_t k = 0;

	NEED_ACCEL();
	ASSERT_OK(xrt_devices_list(self->a, &v, &n));
	EXPECT_STREQ("host:0", v[0].name);
	for (i = 1; i < n; i++) {
		char want[32];

		if (v[i].kind != XRT_DEVICE_ACCEL)
			continue;
		snprintf(want, sizeof(want), "accel:%u", k);
		EXPECT_STREQ(want, v[i].name);
		EXPECT_EQ(k, v[i].ordinal);
		EXPECT_LT(0, v[i].memory_bytes);
		k++;
	}
	xrt_free(self->a, v);
	/* a kind alone is its device 0; an ordinal counts in the list */
	ASSERT_OK(xrt_session_create(&(struct xrt_session_options){ "accel" }, self->a, &s));
	EXPECT_STREQ("accel:0", xrt_session_device(s));
	xrt_session_destroy(s);
	ASSERT_OK(xrt_session_create(&(struct xrt_session_options){ "1" }, self->a, &s));
	EXPECT_STREQ("accel:0", xrt_session_device(s));
	xrt_session_destroy(s);
	ASSERT_ERR(xrt_session_create(&(struct xrt_session_options){ "accel:9" }, self->a, &s),
		   XRT_NOT_FOUND, "devices here: host:0, accel:0");
}

/* A loop whose condition never turns false. */
static const char forever[] =
	"HloModule forever\n"
	"cond {\n  p = s32[] parameter(0)\n  ROOT t = pred[] constant(true)\n}\n"
	"body {\n  p = s32[] parameter(0)\n  one = s32[] constant(1)\n"
	"  ROOT n = s32[] add(p, one)\n}\n"
	"ENTRY e {\n  z = s32[] constant(0)\n"
	"  ROOT w = s32[] while(z), condition=cond, body=body\n}\n";

static const char twice[] =
	"HloModule twice\nENTRY e {\n  x = f32[2] parameter(0)\n"
	"  ROOT y = f32[2] add(x, x)\n}\n";

/* Runs @twice on {1, 2} in @s: 0 when it gave {2, 4}. */
static int run_twice(struct __test_metadata *_metadata, xrt_session *s)
{
	struct xrt_shape sh;
	int64_t d = 2;
	float x[2] = { 1, 2 }, y[2] = { 0 };
	xrt_handle c = 0, a = 0, r = 0;

	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, &d));
	ASSERT_OK(xrt_compile_hlo(s, twice, sizeof(twice) - 1, &c));
	ASSERT_OK(xrt_allocate_data(s, &sh, x, sizeof(x), &a));
	ASSERT_OK(xrt_execute(s, c, &a, 1, NULL, &r));
	ASSERT_OK(xrt_read_data(s, r, true, y, sizeof(y)));
	xrt_status_free(xrt_release_compilations(s, &c, 1));
	xrt_release_all_allocations(s);
	return y[0] == 2 && y[1] == 4 ? 0 : 1;
}

TEST_F(xrt, device_memory_exhaustion_is_named_and_recoverable)
{
	struct xrt_session_options o = { "accel:0", 0, false };
	struct xrt_shape sh;
	int64_t dims[1] = { (int64_t)1 << 40 };
	xrt_session *s = NULL;
	xrt_handle h = 0;
	xrt_status *st = NULL;
	float x[2] = { 1, 2 }, y[2];
	int i;

	NEED_ACCEL();
	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, dims));
	ASSERT_ERR(xrt_allocate_uninitialized(s, &sh, &h), XRT_RESOURCE_EXHAUSTED,
		   "accel:0: a buffer of 4398046511104 bytes; the largest the device makes is");
	/* 64 MiB buffers until the device is full (the VM's have 256 MiB) */
	dims[0] = 16 << 20;
	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, dims));
	for (i = 0; i < 64 && !st; i++)
		st = xrt_allocate_uninitialized(s, &sh, &h);
	ASSERT_ERR(st, XRT_RESOURCE_EXHAUSTED, "accel:0: DRM_IOCTL_XRT_BO_CREATE: No space");
	EXPECT_EQ((uint64_t)(i - 1) << 26, xrt_session_memory_in_use(s));
	xrt_release_all_allocations(s);
	EXPECT_EQ(0, xrt_session_memory_in_use(s));
	/* the memory is back */
	dims[0] = 2;
	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, dims));
	ASSERT_OK(xrt_allocate_data(s, &sh, x, sizeof(x), &h));
	ASSERT_OK(xrt_read_data(s, h, true, y, sizeof(y)));
	EXPECT_EQ(0, memcmp(x, y, sizeof(x)));
	EXPECT_EQ(0, run_twice(_metadata, s));
	xrt_session_destroy(s);
}

TEST_F(xrt, a_job_past_the_timeout_aborts_its_session_only)
{
	struct xrt_session_options o = { "accel:0", 0, false };
	xrt_session *s = NULL, *other = NULL;
	xrt_handle c = 0, r = 0;

	NEED_ACCEL();
	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	ASSERT_OK(xrt_session_create(&o, self->a, &other));
	EXPECT_EQ(0, run_twice(_metadata, other));
	ASSERT_OK(xrt_compile_hlo(s, forever, sizeof(forever) - 1, &c));
	ASSERT_ERR(xrt_execute(s, c, NULL, 0, NULL, &r), XRT_ABORTED,
		   "accel:0: the job ran past the device's time limit");
	/* the session's queue is gone: every later run says so */
	ASSERT_ERR(xrt_execute(s, c, NULL, 0, NULL, &r), XRT_ABORTED, "open a new session");
	xrt_session_destroy(s);
	/* other sessions never noticed; a new one works */
	EXPECT_EQ(0, run_twice(_metadata, other));
	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	EXPECT_EQ(0, run_twice(_metadata, s));
	xrt_session_destroy(s);
	xrt_session_destroy(other);
}

/* f32[@n] counting up from @first, allocated in @s. */
static xrt_handle ramp(struct __test_metadata *_metadata, xrt_session *s, int64_t n,
		       float first)
{
	float *v = malloc((size_t)n * sizeof(*v));
	struct xrt_shape sh;
	xrt_handle h = 0;
	int64_t i;

	for (i = 0; i < n; i++)
		v[i] = first + (float)i;
	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, &n));
	ASSERT_OK(xrt_allocate_data(s, &sh, v, (size_t)n * sizeof(*v), &h));
	free(v);
	return h;
}

/* Whether @h in @s holds @n floats counting up from @first (read, released). */
static bool is_ramp(struct __test_metadata *_metadata, xrt_session *s, xrt_handle h, int64_t n,
		    float first)
{
	float *v = malloc((size_t)n * sizeof(*v));
	bool ok = true;
	int64_t i;

	ASSERT_OK(xrt_read_data(s, h, true, v, (size_t)n * sizeof(*v)));
	for (i = 0; i < n && ok; i++)
		ok = v[i] == first + (float)i;
	free(v);
	return ok;
}

TEST_F(xrt, allocations_move_between_accel_devices_and_the_host)
{
	struct xrt_session_options o0 = { "accel:0" }, o1 = { NULL }, oh = { "host:0" };
	const int64_t n = 3 << 20;	/* 12 MiB */
	xrt_session *s0 = NULL, *s1 = NULL, *sh = NULL;
	xrt_handle h, h1, hh, back, c, r;
	float got[2];
	char last[32];

	NEED_ACCEL();
	snprintf(last, sizeof(last), "accel:%u", accel_count(self->a) - 1);
	o1.device = last;
	ASSERT_OK(xrt_session_create(&o0, self->a, &s0));
	ASSERT_OK(xrt_session_create(&o1, self->a, &s1));
	ASSERT_OK(xrt_session_create(&oh, self->a, &sh));
	h = ramp(_metadata, s0, n, 0.5f);
	/* accel to accel (PRIME, copied by the receiving device), to the host, back */
	ASSERT_OK(xrt_transfer(s0, h, s1, &h1));
	ASSERT_OK(xrt_transfer(s1, h1, sh, &hh));
	ASSERT_OK(xrt_transfer(sh, hh, s0, &back));
	EXPECT_TRUE(is_ramp(_metadata, s1, h1, n, 0.5f));
	EXPECT_TRUE(is_ramp(_metadata, sh, hh, n, 0.5f));
	EXPECT_TRUE(is_ramp(_metadata, s0, back, n, 0.5f));
	/* the source is untouched */
	EXPECT_TRUE(is_ramp(_metadata, s0, h, n, 0.5f));
	/* a result still being computed moves once it is there */
	h = ramp(_metadata, s0, 2, 1);
	ASSERT_OK(xrt_compile_hlo(s0, twice, sizeof(twice) - 1, &c));
	ASSERT_OK(xrt_execute_async(s0, c, &h, 1, NULL, &r, NULL));
	ASSERT_OK(xrt_transfer(s0, r, s1, &h1));
	ASSERT_OK(xrt_read_data(s1, h1, true, got, sizeof(got)));
	EXPECT_EQ(2.0f, got[0]);
	EXPECT_EQ(4.0f, got[1]);
	xrt_session_destroy(s0);
	xrt_session_destroy(s1);
	xrt_session_destroy(sh);
}

TEST_F(xrt, eager_tensors_copy_between_accel_devices)
{
	struct xrt_eager_options o = { .device = "accel:0" };
	const int64_t n = 1 << 20;
	float *v;
	xrt_eager_context *c = NULL;
	xrt_tensor *t = NULL, *t1 = NULL, *th = NULL;
	const float *got;
	size_t size;
	char last[32];
	int64_t i;

	/* before the allocation: a skip returns at once */
	NEED_ACCEL();
	v = malloc(n * sizeof(*v));
	ASSERT_NE(NULL, v);
	snprintf(last, sizeof(last), "accel:%u", accel_count(self->a) - 1);
	for (i = 0; i < n; i++)
		v[i] = (float)i * 0.25f;
	ASSERT_OK(xrt_eager_context_create(&o, self->a, &c));
	ASSERT_OK(xrt_tensor_from_host(c, XRT_F32, 1, &n, v, n * sizeof(*v), &t));
	EXPECT_STREQ("accel:0", xrt_tensor_device(t));
	ASSERT_OK(xrt_tensor_copy_to_device(t, last, &t1));
	EXPECT_STREQ(last, xrt_tensor_device(t1));
	ASSERT_OK(xrt_tensor_copy_to_device(t1, "host:0", &th));
	xrt_tensor_unref(t);
	xrt_tensor_unref(t1);
	got = xrt_tensor_data(th, &size);
	ASSERT_EQ(n * sizeof(*v), size);
	EXPECT_EQ(0, memcmp(v, got, size));
	xrt_tensor_unref(th);
	xrt_eager_context_destroy(c);
	free(v);
}

static const char inc[] =
	"HloModule inc\nENTRY e {\n  x = s32[] parameter(0)\n  one = s32[] constant(1)\n"
	"  ROOT y = s32[] add(x, one)\n}\n";

TEST_F(xrt, an_asynchronous_run_past_the_timeout_fails_what_it_computes)
{
	struct xrt_session_options o = { "accel:0", 0, false };
	xrt_session *s = NULL;
	xrt_handle c = 0, c2 = 0, r = 0, r2 = 0;
	xrt_literal *lit = NULL;
	xrt_event *e = NULL;
	struct xrt_shape sh;
	int32_t one = 1;

	NEED_ACCEL();
	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	ASSERT_OK(xrt_compile_hlo(s, forever, sizeof(forever) - 1, &c));
	ASSERT_OK(xrt_compile_hlo(s, inc, sizeof(inc) - 1, &c2));
	ASSERT_OK(xrt_execute_async(s, c, NULL, 0, NULL, &r, &e));
	/* the driver gives it two seconds */
	ASSERT_ERR(xrt_event_wait(e, 0), XRT_DEADLINE_EXCEEDED, "accel:0: the run still runs");
	ASSERT_ERR(xrt_event_wait(e, -1), XRT_ABORTED, "ran past the device's time limit");
	ASSERT_ERR(xrt_event_wait(e, 0), XRT_ABORTED, "ran past the device's time limit");
	/* what it computes says so too */
	ASSERT_ERR(xrt_read_literal(s, r, false, &lit), XRT_ABORTED,
		   "the run computing this allocation failed");
	ASSERT_ERR(xrt_execute(s, c2, &r, 1, NULL, &r2), XRT_ABORTED, "argument 0");
	ASSERT_ERR(xrt_execute_async(s, c2, &r, 1, NULL, &r2, NULL), XRT_ABORTED,
		   "the run computing this allocation failed");
	xrt_release_all_allocations(s);
	/* and the queue takes no more */
	ASSERT_OK(xrt_shape_init_array(&sh, XRT_S32, 0, NULL));
	ASSERT_OK(xrt_allocate_data(s, &sh, &one, sizeof(one), &r));
	ASSERT_ERR(xrt_execute(s, c2, &r, 1, NULL, &r2), XRT_ABORTED, "open a new session");
	xrt_event_destroy(e);
	xrt_session_destroy(s);
}

/* x + C over f32[n], C a constant of n elements (in the program's constants). */
static xrt_module *plus_constant(struct __test_metadata *_metadata,
				 const struct xrt_allocator *a, int64_t n)
{
	struct xrt_shape sh;
	xrt_literal *c = NULL;
	xrt_builder *b = NULL;
	xrt_module *m = NULL;
	float *v;
	int64_t i;

	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, &n));
	ASSERT_OK(xrt_literal_create(a, &sh, &c));
	v = xrt_literal_mutable_data(c);
	for (i = 0; i < n; i++)
		v[i] = (float)(i % 1000);
	ASSERT_OK(xrt_builder_create(a, "plus_constant", "main", &b));
	ASSERT_OK(xrt_builder_build(b, xrt_build_binary(b, XRT_OP_ADD,
							xrt_build_parameter(b, 0, &sh, "x"),
							xrt_build_constant(b, c)), &m));
	xrt_builder_destroy(b);
	xrt_literal_destroy(c);
	return m;
}

/* How many buffers of @bytes fit on the device now (all released after). */
static int how_many_fit(struct __test_metadata *_metadata, xrt_session *s, int64_t bytes)
{
	struct xrt_shape sh;
	int64_t n = bytes / 4;
	xrt_status *st = NULL;
	xrt_handle h;
	int k;

	ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, &n));
	for (k = 0; k < 64 && !(st = xrt_allocate_uninitialized(s, &sh, &h)); k++)
		;
	EXPECT_EQ(XRT_RESOURCE_EXHAUSTED, xrt_status_code(st));
	xrt_status_free(st);
	xrt_release_all_allocations(s);
	return k;
}

TEST_F(xrt, kept_programs_give_way_when_the_device_is_full)
{
	struct xrt_session_options o = { "accel:0", 0, false };
	const int64_t n = 8 << 20;	/* a 32 MiB constant */
	xrt_session *s = NULL;
	xrt_module *m;
	xrt_handle c, x, r;
	float *got;
	int64_t i;
	int empty;

	NEED_ACCEL();
	ASSERT_OK(xrt_session_create(&o, self->a, &s));
	empty = how_many_fit(_metadata, s, 48 << 20);
	m = plus_constant(_metadata, self->a, n);
	ASSERT_OK(xrt_compile_module(s, m, &c));
	x = ramp(_metadata, s, n, 0);
	ASSERT_OK(xrt_execute(s, c, &x, 1, NULL, &r));
	xrt_release_all_allocations(s);
	/* the program (its 32 MiB of constants) is kept, yet gives way */
	EXPECT_EQ(empty, how_many_fit(_metadata, s, 48 << 20));
	EXPECT_LE(4, empty);
	/* and comes back when it runs again */
	x = ramp(_metadata, s, n, 0);
	ASSERT_OK(xrt_execute(s, c, &x, 1, NULL, &r));
	got = malloc(n * sizeof(*got));
	ASSERT_OK(xrt_read_data(s, r, true, got, n * sizeof(*got)));
	for (i = 0; i < n; i += 4099) {
		ASSERT_EQ((float)i + (float)(i % 1000), got[i]) TH_LOG("at %lld", (long long)i);
	}
	free(got);
	xrt_module_destroy(m);
	xrt_session_destroy(s);
}

/*
 * A seeded random walk over the API on accel:0, mirrored on host:0: values
 * allocated, programs run synchronously or not (on results still being
 * computed, some inputs released by the run), results moved to accel:1
 * and back, reads, releases.  Every read must give the host's bits.
 */
#define WALK_SLOTS 16

struct walk {
	struct pair p;
	xrt_session *other;		/* accel:1, or accel:0 again */
	xrt_handle ch[2], cd[2], hh[WALK_SLOTS], hd[WALK_SLOTS];
	uint64_t rng;
	int reads;
};

static uint32_t walk_next(struct walk *w)
{
	w->rng = w->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(w->rng >> 33);
}

/* Slot @k's value on both sides, read and compared. */
static void walk_read(struct __test_metadata *_metadata, struct walk *w, int k)
{
	float a[64], b[64];

	ASSERT_OK(xrt_read_data(w->p.host, w->hh[k], false, a, sizeof(a)));
	ASSERT_OK(xrt_read_data(w->p.dev, w->hd[k], false, b, sizeof(b)));
	ASSERT_EQ(0, memcmp(a, b, sizeof(a))) TH_LOG("slot %d differs", k);
	w->reads++;
}

static void walk_step(struct __test_metadata *_metadata, struct walk *w)
{
	uint32_t op = walk_next(w) % 6, k = walk_next(w) % WALK_SLOTS;
	uint32_t i = walk_next(w) % WALK_SLOTS, j = walk_next(w) % WALK_SLOTS;
	struct xrt_execution_config cfg = { 0, 7, false, false };
	int64_t n = 64;
	struct xrt_shape sh;
	xrt_handle moved;
	float v[64];
	uint32_t e;

	if (op == 0 || !w->hh[i] || !w->hh[j]) {	/* a new value */
		for (e = 0; e < 64; e++)
			v[e] = (float)(int32_t)(walk_next(w) % 2001 - 1000) / 64.0f;
		ASSERT_OK(xrt_shape_init_array(&sh, XRT_F32, 1, &n));
		xrt_status_free(xrt_release_allocations(w->p.host, &w->hh[k], 1));
		xrt_status_free(xrt_release_allocations(w->p.dev, &w->hd[k], 1));
		ASSERT_OK(xrt_allocate_data(w->p.host, &sh, v, sizeof(v), &w->hh[k]));
		ASSERT_OK(xrt_allocate_data(w->p.dev, &sh, v, sizeof(v), &w->hd[k]));
		return;
	}
	if (op <= 2) {	/* k = f(i, j), maybe asynchronously, maybe releasing i */
		xrt_handle ah[2] = { w->hh[i], w->hh[j] }, ad[2] = { w->hd[i], w->hd[j] };
		xrt_handle rh, rd;
		uint32_t c = walk_next(w) & 1;

		cfg.release_inputs = i != j && (walk_next(w) & 3) == 0;
		ASSERT_OK(xrt_execute(w->p.host, w->ch[c], ah, 2, &cfg, &rh));
		if (op == 1)
			ASSERT_OK(xrt_execute_async(w->p.dev, w->cd[c], ad, 2, &cfg, &rd, NULL));
		else
			ASSERT_OK(xrt_execute(w->p.dev, w->cd[c], ad, 2, &cfg, &rd));
		if (cfg.release_inputs)
			w->hh[i] = w->hh[j] = w->hd[i] = w->hd[j] = 0;
		xrt_status_free(xrt_release_allocations(w->p.host, &w->hh[k], 1));
		xrt_status_free(xrt_release_allocations(w->p.dev, &w->hd[k], 1));
		w->hh[k] = rh;
		w->hd[k] = rd;
		return;
	}
	if (!w->hh[k])
		return;
	if (op == 3) {	/* to the other device and back */
		ASSERT_OK(xrt_transfer(w->p.dev, w->hd[k], w->other, &moved));
		xrt_status_free(xrt_release_allocations(w->p.dev, &w->hd[k], 1));
		ASSERT_OK(xrt_transfer(w->other, moved, w->p.dev, &w->hd[k]));
		ASSERT_OK(xrt_release_allocations(w->other, &moved, 1));
	} else if (op == 4) {
		walk_read(_metadata, w, (int)k);
	} else {
		ASSERT_OK(xrt_release_allocations(w->p.host, &w->hh[k], 1));
		ASSERT_OK(xrt_release_allocations(w->p.dev, &w->hd[k], 1));
		w->hh[k] = w->hd[k] = 0;
	}
}

static const char walk_add[] =
	"HloModule wa\nENTRY e {\n  a = f32[64] parameter(0)\n  b = f32[64] parameter(1)\n"
	"  ROOT s = f32[64] add(a, b)\n}\n";
static const char walk_mix[] =
	"HloModule wm\nENTRY e {\n  a = f32[64] parameter(0)\n  b = f32[64] parameter(1)\n"
	"  m = f32[64] multiply(a, b)\n  t = f32[64] tanh(m)\n"
	"  ROOT r = f32[64] subtract(t, a)\n}\n";

TEST_F(xrt, a_random_walk_over_the_api_gives_the_hosts_bits)
{
	struct xrt_session_options o = { NULL, 0, false };
	struct walk w;
	char last[32];
	int s, k;

	NEED_ACCEL();
	memset(&w, 0, sizeof(w));
	w.rng = 2026;
	ASSERT_OK(pair_open(&w.p, "accel:0", self->a));
	snprintf(last, sizeof(last), "accel:%u", accel_count(self->a) - 1);
	o.device = last;
	ASSERT_OK(xrt_session_create(&o, self->a, &w.other));
	ASSERT_OK(xrt_compile_hlo(w.p.host, walk_add, sizeof(walk_add) - 1, &w.ch[0]));
	ASSERT_OK(xrt_compile_hlo(w.p.host, walk_mix, sizeof(walk_mix) - 1, &w.ch[1]));
	ASSERT_OK(xrt_compile_hlo(w.p.dev, walk_add, sizeof(walk_add) - 1, &w.cd[0]));
	ASSERT_OK(xrt_compile_hlo(w.p.dev, walk_mix, sizeof(walk_mix) - 1, &w.cd[1]));
	for (s = 0; s < 1000; s++)
		walk_step(_metadata, &w);
	for (k = 0; k < WALK_SLOTS; k++) {
		if (w.hh[k])
			walk_read(_metadata, &w, k);
	}
	fprintf(stderr, "# 1000 steps, %d reads compared\n", w.reads);
	EXPECT_LT(60, w.reads);
	xrt_session_destroy(w.other);
	pair_close(&w.p);
}

TEST_HARNESS_MAIN
