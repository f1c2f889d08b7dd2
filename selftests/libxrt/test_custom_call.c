// SPDX-License-Identifier: MIT
/*
 * Custom calls: registration, what a handler is handed (typed buffers,
 * a typed FFI call's attributes, another version's opaque string), the
 * same values from the evaluator, host:0 and staged:0, side effects,
 * errors, and the devices that refuse host code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "xrt_test.h"
#include "test_cases.h"

#include <xrt/builder.h>
#include <xrt/custom_call.h>
#include <xrt/evaluate.h>
#include <xrt/ir.h>
#include <xrt/xrt.h>

#include "xla.pb-c.h"

/* What the probe handler saw, reset before each run. */
struct probe {
	int calls;
	uint32_t num_args, num_results;
	struct xrt_ffi_buffer args[4];
	int64_t dims[4][4];
	char opaque[64];
	size_t opaque_size;
	const struct xrt_ffi_attrs *attrs;	/* valid during the call only */
	double scale;
	int64_t offset;
	char name[32];
	int32_t sizes[4];
	int64_t sizes_count;
	bool flag;
	double nan_attr;
	int64_t depth;
};

/* Records the call; result 0 = each element of arg 0 (f32) * scale + offset. */
static xrt_status *probe(void *user, const struct xrt_ffi_call *c)
{
	struct probe *p = user;
	const float *x;
	float *y;
	uint64_t i, n;
	uint32_t k;

	p->calls++;
	p->num_args = c->num_args;
	p->num_results = c->num_results;
	for (k = 0; k < c->num_args && k < 4; k++) {
		p->args[k] = c->args[k];
		memcpy(p->dims[k], c->args[k].dims, c->args[k].rank * sizeof(int64_t));
	}
	p->opaque_size = c->opaque_size;
	memcpy(p->opaque, c->opaque, c->opaque_size < 63 ? c->opaque_size + 1 : 63);
	p->scale = 1;
	p->offset = 0;
	if (xrt_ffi_attr_find(c->attrs, "scale")) {
		const void *sizes;
		const char *s;
		const struct xrt_ffi_attr *d;
		uint64_t count;
		size_t len;
		xrt_status *st = xrt_ffi_get_float(c->attrs, "scale", &p->scale);

		if (!st)
			st = xrt_ffi_get_int(c->attrs, "offset", &p->offset);
		if (!st)
			st = xrt_ffi_get_string(c->attrs, "name", &s, &len);
		if (!st) {
			snprintf(p->name, sizeof(p->name), "%.*s", (int)len, s);
			st = xrt_ffi_get_array(c->attrs, "sizes", XRT_S32, &sizes, &count);
		}
		if (st)
			return st;
		p->sizes_count = (int64_t)count;
		memcpy(p->sizes, sizes, (count < 4 ? count : 4) * sizeof(int32_t));
		p->flag = xrt_ffi_attr_find(c->attrs, "flag")->v.i;
		p->nan_attr = xrt_ffi_attr_find(c->attrs, "nan")->v.f;
		d = xrt_ffi_attr_find(c->attrs, "inner");
		if (!d || d->type != XRT_FFI_DICT)
			return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "no inner dictionary");
		st = xrt_ffi_get_int(d->dict, "depth", &p->depth);
		if (st)
			return st;
	}
	if (!c->num_results || c->results[0].dtype != XRT_F32 || !c->num_args ||
	    c->args[0].dtype != XRT_F32 || c->args[0].size != c->results[0].size)
		return NULL;	/* a call whose result the test does not read */
	x = c->args[0].data;
	y = c->results[0].data;
	n = c->args[0].size / sizeof(float);
	for (i = 0; i < n; i++)
		y[i] = (float)(x[i] * p->scale + (double)p->offset);
	return NULL;
}

static xrt_status *failing(void *user, const struct xrt_ffi_call *c)
{
	(void)user;
	(void)c;
	return xrt_status_new(NULL, XRT_FAILED_PRECONDITION, "the handler says no");
}

static struct probe the_probe;

static void register_once(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	if (xrt_custom_call_register("probe", probe, &the_probe) ||
	    xrt_custom_call_register("failing", failing, NULL))
		abort();
}

static xrt_module *parse(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			 const char *text)
{
	xrt_module *m = NULL;

	register_once();
	ASSERT_OK(xrt_hlo_parse(a, text, strlen(text), &m));
	return m;
}

/* @m on @device ("reference": the evaluator) with @args; NULL status or its error. */
static xrt_status *run_on(const char *device, const xrt_module *m, xrt_literal *const *args,
			  uint32_t n, const struct xrt_allocator *a, xrt_literal **out)
{
	struct xrt_session_options o = { device, 0, false };
	xrt_session *s = NULL;
	xrt_status *st;

	*out = NULL;
	if (!strcmp(device, "reference"))
		return xrt_ir_evaluate(m, (const xrt_literal *const *)args, n, NULL, a, out);
	st = xrt_session_create(&o, a, &s);
	if (!st)
		st = test_run_module(s, m, args, n, out);
	xrt_session_destroy(s);
	return st;
}

static const char *const devices[] = { "reference", "host:0", "staged:0" };

/* The literal @shape @value, as HLO text writes a constant. */
static xrt_literal *literal_of(struct __test_metadata *_metadata, const struct xrt_allocator *a,
			       const char *shape, const char *value)
{
	char text[512];
	xrt_module *m = NULL;
	xrt_literal *l = NULL;

	snprintf(text, sizeof(text), "HloModule c\nENTRY e {\n  ROOT c = %s constant(%s)\n}\n",
		 shape, value);
	EXPECT_EQ(NULL, xrt_hlo_parse(a, text, strlen(text), &m));
	EXPECT_EQ(NULL, xrt_ir_evaluate(m, NULL, 0, NULL, a, &l));
	xrt_module_destroy(m);
	return l;
}

TEST_F(xrt, registration_is_checked)
{
	char name[300];

	register_once();
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ASSERT_ERR(xrt_custom_call_register(NULL, probe, NULL), XRT_INVALID_ARGUMENT,
		   "NULL or empty target name");
	ASSERT_ERR(xrt_custom_call_register("", probe, NULL), XRT_INVALID_ARGUMENT,
		   "NULL or empty target name");
	ASSERT_ERR(xrt_custom_call_register("x", NULL, NULL), XRT_INVALID_ARGUMENT,
		   "NULL handler");
	ASSERT_ERR(xrt_custom_call_register(name, probe, NULL), XRT_INVALID_ARGUMENT,
		   "at most 255 bytes");
	ASSERT_ERR(xrt_custom_call_register("probe", probe, NULL), XRT_ALREADY_EXISTS,
		   "custom-call target 'probe' is already registered");
	name[255] = '\0';	/* 255 bytes: the longest name */
	ASSERT_OK(xrt_custom_call_register(name, probe, NULL));
}

/*
 * A typed FFI call's dictionary reaches the handler as typed values, on
 * every device that runs host code, with the same results.
 */
TEST_F(xrt, typed_attributes_reach_the_handler)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2,3]{1,0} parameter(0)\n"
		"  ROOT r = f32[2,3]{1,0} custom-call(x), custom_call_target=\"probe\", "
		"api_version=API_VERSION_TYPED_FFI, backend_config={scale = 2.5 : f32, "
		"offset = -3 : i64, name = \"a\\22b\\0Ac\", sizes = dense<[7, -8, 9]> : "
		"tensor<3xi32>, flag = true, nan = 0x7FC00000 : f32, "
		"inner = {depth = 255 : ui8}}\n}\n";
	xrt_module *m = parse(_metadata, self->a, text);
	xrt_literal *x = NULL, *out = NULL;
	const float *o;
	float *in;
	size_t d;
	int i;

	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	in = xrt_literal_mutable_data(x);
	for (i = 0; i < 6; i++)
		in[i] = (float)i - 1.5f;
	for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
		memset(&the_probe, 0, sizeof(the_probe));
		ASSERT_OK(run_on(devices[d], m, &x, 1, self->a, &out));
		TH_LOG("%s", devices[d]);
		EXPECT_EQ(1, the_probe.calls);
		EXPECT_EQ(1, the_probe.num_args);
		EXPECT_EQ(1, the_probe.num_results);
		EXPECT_EQ(2, the_probe.args[0].rank);
		EXPECT_EQ(2, the_probe.dims[0][0]);
		EXPECT_EQ(3, the_probe.dims[0][1]);
		EXPECT_EQ(24, the_probe.args[0].size);
		EXPECT_EQ(2.5, the_probe.scale);
		EXPECT_EQ(-3, the_probe.offset);
		EXPECT_STREQ("a\"b\nc", the_probe.name);
		EXPECT_EQ(3, the_probe.sizes_count);
		EXPECT_EQ(-8, the_probe.sizes[1]);
		EXPECT_TRUE(the_probe.flag);
		EXPECT_TRUE(isnan(the_probe.nan_attr));
		EXPECT_EQ(255, the_probe.depth);
		EXPECT_EQ(0, the_probe.opaque_size);
		o = xrt_literal_data(out);
		for (i = 0; i < 6; i++)
			EXPECT_EQ(((float)i - 1.5f) * 2.5f - 3, o[i]);
		xrt_literal_destroy(out);
	}
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
}

/* Another API version's backend_config is the handler's opaque string, its bytes unescaped. */
TEST_F(xrt, opaque_backend_config_reaches_the_handler)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[4] parameter(0)\n"
		"  ROOT r = f32[4] custom-call(x), custom_call_target=\"probe\", "
		"api_version=API_VERSION_STATUS_RETURNING, backend_config=\"k=\\\"v\\\"\\n\\001\\xff\"\n}\n";
	xrt_module *m = parse(_metadata, self->a, text);
	xrt_literal *x = NULL, *out = NULL;
	char *printed = NULL;
	size_t d;

	ASSERT_OK(xrt_hlo_print(m, self->a, &printed, NULL));
	EXPECT_NE(NULL, strstr(printed, "backend_config=\"k=\\\"v\\\"\\012\\001\\377\""))
		TH_LOG("%s", printed);
	xrt_free(self->a, printed);
	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
		memset(&the_probe, 0, sizeof(the_probe));
		ASSERT_OK(run_on(devices[d], m, &x, 1, self->a, &out));
		EXPECT_EQ(8, the_probe.opaque_size) TH_LOG("%s", devices[d]);
		EXPECT_EQ(0, memcmp(the_probe.opaque, "k=\"v\"\n\001\377", 9));
		xrt_literal_destroy(out);
	}
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
}

/* A transposed operand arrives dense and row-major; a tuple's arrays depth first. */
TEST_F(xrt, operands_arrive_dense_and_flat)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  s = s32[] parameter(1)\n"
		"  t = f32[3,2] transpose(x), dimensions={1,0}\n"
		"  q = (f32[2,3], s32[]) tuple(x, s)\n  p = (s32[], (f32[2,3], s32[])) tuple(s, q)\n"
		"  ROOT r = f32[3,2] custom-call(t, p), custom_call_target=\"probe\"\n}\n";
	xrt_module *m = parse(_metadata, self->a, text);
	xrt_literal *args[2] = { NULL, NULL }, *out = NULL;
	const float *o;
	float *in;
	size_t d;
	int i;

	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &args[0]));
	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 1), &args[1]));
	in = xrt_literal_mutable_data(args[0]);
	for (i = 0; i < 6; i++)
		in[i] = (float)i;	/* x = {{0, 1, 2}, {3, 4, 5}} */
	for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
		memset(&the_probe, 0, sizeof(the_probe));
		ASSERT_OK(run_on(devices[d], m, args, 2, self->a, &out));
		TH_LOG("%s", devices[d]);
		EXPECT_EQ(4, the_probe.num_args);
		EXPECT_EQ(3, the_probe.dims[0][0]);
		EXPECT_EQ(2, the_probe.dims[0][1]);
		EXPECT_EQ(XRT_S32, the_probe.args[1].dtype);
		EXPECT_EQ(0, the_probe.args[1].rank);
		EXPECT_EQ(XRT_F32, the_probe.args[2].dtype);
		EXPECT_EQ(XRT_S32, the_probe.args[3].dtype);
		o = xrt_literal_data(out);	/* the transpose, as the handler copied it */
		EXPECT_EQ(0, o[0]);
		EXPECT_EQ(3, o[1]);
		EXPECT_EQ(1, o[2]);
		EXPECT_EQ(5, o[5]);
		xrt_literal_destroy(out);
	}
	xrt_literal_destroy(args[0]);
	xrt_literal_destroy(args[1]);
	xrt_module_destroy(m);
}

/*
 * Layouts as XLA hands them over: an operand constrained column-major
 * arrives as its column-major bytes (probe copies them out row-major); a
 * result declared column-major is read in that layout.  The handler sees
 * the arrays' own dims either way.
 */
TEST_F(xrt, declared_layouts_reach_the_handler)
{
	static const char *const texts[] = {
		"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n"
		"  ROOT r = f32[2,3] custom-call(x), custom_call_target=\"probe\", "
		"operand_layout_constraints={f32[2,3]{0,1}}\n}\n",
		"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n"
		"  ROOT r = f32[2,3]{0,1} custom-call(x), custom_call_target=\"probe\"\n}\n",
	};
	static const char *const want[] = { "{{0, 3, 1}, {4, 2, 5}}", "{{0, 2, 4}, {1, 3, 5}}" };
	xrt_literal *args[1] = { NULL }, *out = NULL, *w;
	char why[256] = "";
	size_t d, k;
	float *in;
	int i;

	for (k = 0; k < 2; k++) {
		xrt_module *m = parse(_metadata, self->a, texts[k]);

		ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &args[0]));
		in = xrt_literal_mutable_data(args[0]);
		for (i = 0; i < 6; i++)
			in[i] = (float)i;	/* x = {{0, 1, 2}, {3, 4, 5}} */
		w = literal_of(_metadata, self->a, "f32[2,3]", want[k]);
		for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
			memset(&the_probe, 0, sizeof(the_probe));
			ASSERT_OK(run_on(devices[d], m, args, 1, self->a, &out));
			TH_LOG("case %zu on %s", k, devices[d]);
			EXPECT_EQ(2, the_probe.dims[0][0]);
			EXPECT_EQ(3, the_probe.dims[0][1]);
			EXPECT_TRUE(xrt_literal_equal(w, out, why, sizeof(why))) TH_LOG("%s", why);
			xrt_literal_destroy(out);
		}
		xrt_literal_destroy(w);
		xrt_literal_destroy(args[0]);
		xrt_module_destroy(m);
	}
}

/* Layout constraints print as XLA writes them, and survive the wire. */
TEST_F(xrt, layout_constraints_print_and_travel)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  y = s32[4] parameter(1)\n"
		"  ROOT r = f32[2,3] custom-call(x, y), custom_call_target=\"probe\", "
		"operand_layout_constraints={f32[2,3]{0,1}, s32[4]{0}}\n}\n";
	xrt_module *m = parse(_metadata, self->a, text), *back = NULL, *again = NULL;
	char *t1 = NULL, *t2 = NULL, *t3 = NULL;
	void *bytes = NULL;
	size_t n = 0;

	ASSERT_OK(xrt_hlo_print(m, self->a, &t1, NULL));
	EXPECT_NE(NULL, strstr(t1, "operand_layout_constraints={f32[2,3]{0,1}, s32[4]{0}}"));
	ASSERT_OK(xrt_hlo_parse(self->a, t1, strlen(t1), &back));
	ASSERT_OK(xrt_hlo_print(back, self->a, &t2, NULL));
	EXPECT_STREQ(t1, t2);
	ASSERT_OK(xrt_module_serialize(m, self->a, &bytes, &n));
	ASSERT_OK(xrt_module_deserialize(self->a, bytes, n, &again));
	ASSERT_OK(xrt_hlo_print(again, self->a, &t3, NULL));
	EXPECT_STREQ(t1, t3);
	xrt_free(self->a, t1);
	xrt_free(self->a, t2);
	xrt_free(self->a, t3);
	xrt_free(self->a, bytes);
	xrt_module_destroy(m);
	xrt_module_destroy(back);
	xrt_module_destroy(again);
}

/*
 * jaxlib's LAPACK targets are built in (the conformance suite checks their
 * values against XLA's); a call that breaks their contract is refused
 * with the target named, on every device.
 */
TEST_F(xrt, builtin_lapack_targets_check_their_operands)
{
	static const char *const texts[] = {
		"HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n"
		"  ROOT r = (f32[2,3]{0,1}, s32[]) custom-call(x), "
		"custom_call_target=\"lapack_spotrf_ffi\", operand_layout_constraints={f32[2,3]{0,1}}, "
		"api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}\n}\n",
		"HloModule m\nENTRY e {\n  x = f32[3,3] parameter(0)\n"
		"  ROOT r = (f32[3,3]{0,1}, s32[]) custom-call(x), "
		"custom_call_target=\"lapack_spotrf_ffi\", operand_layout_constraints={f32[3,3]{0,1}}, "
		"api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 88 : ui8}\n}\n",
		"HloModule m\nENTRY e {\n  x = s32[3,3] parameter(0)\n"
		"  ROOT r = (s32[3,3]{0,1}, s32[3]{0}, s32[]) custom-call(x), "
		"custom_call_target=\"lapack_sgetrf_ffi\", api_version=API_VERSION_TYPED_FFI\n}\n",
		"HloModule m\nENTRY e {\n  x = f32[3,3] parameter(0)\n"
		"  ROOT r = (f32[3,3]{0,1}, f32[]) custom-call(x), "
		"custom_call_target=\"lapack_spotrf_ffi\", operand_layout_constraints={f32[3,3]{0,1}}, "
		"api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}\n}\n",
		"HloModule m\nENTRY e {\n  x = f32[3,3] parameter(0)\n"
		"  ROOT r = (f64[3,3]{0,1}, s32[]) custom-call(x), "
		"custom_call_target=\"lapack_spotrf_ffi\", operand_layout_constraints={f32[3,3]{0,1}}, "
		"api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}\n}\n",
	};
	static const char *const why[] = {
		"lapack_spotrf_ffi: a square matrix and one s32 info per matrix",
		"lapack_spotrf_ffi: uplo is not 'L' or 'U'",
		"lapack_sgetrf_ffi: an operand is not a matrix (or batch of them)",
		"lapack_spotrf_ffi: a square matrix and one s32 info per matrix",
		"lapack_spotrf_ffi: the first result is not of the operand's type and shape",
	};
	xrt_literal *args[1] = { NULL }, *out = NULL;
	size_t d, k;

	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		xrt_module *m = parse(_metadata, self->a, texts[k]);

		ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &args[0]));
		for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
			TH_LOG("case %zu on %s", k, devices[d]);
			ASSERT_ERR(run_on(devices[d], m, args, 1, self->a, &out), XRT_INVALID_ARGUMENT,
				   why[k]);
		}
		xrt_literal_destroy(args[0]);
		xrt_module_destroy(m);
	}
}

/*
 * A call with side effects runs though nothing uses it, once per trip
 * of a loop; one without them, unused, does not run.
 */
TEST_F(xrt, side_effects_run_and_dead_calls_do_not)
{
	static const char text[] =
		"HloModule m\n"
		"body {\n  p = (s32[], f32[2]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  v = f32[2] get-tuple-element(p), index=1\n"
		"  e = f32[2] custom-call(v), custom_call_target=\"probe\", "
		"custom_call_has_side_effect=true\n"
		"  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
		"  ROOT t = (s32[], f32[2]) tuple(j, v)\n}\n"
		"cond {\n  p = (s32[], f32[2]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
		"  three = s32[] constant(3)\n  ROOT lt = pred[] compare(i, three), direction=LT\n}\n"
		"ENTRY e {\n  x = f32[2] parameter(0)\n"
		"  dead = f32[2] custom-call(x), custom_call_target=\"failing\"\n"
		"  zero = s32[] constant(0)\n  t = (s32[], f32[2]) tuple(zero, x)\n"
		"  w = (s32[], f32[2]) while(t), condition=cond, body=body\n"
		"  ROOT r = f32[2] get-tuple-element(w), index=1\n}\n";
	xrt_module *m = parse(_metadata, self->a, text);
	xrt_literal *x = NULL, *out = NULL;
	size_t d;

	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
		memset(&the_probe, 0, sizeof(the_probe));
		ASSERT_OK(run_on(devices[d], m, &x, 1, self->a, &out));
		EXPECT_EQ(3, the_probe.calls) TH_LOG("%s", devices[d]);
		xrt_literal_destroy(out);
	}
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
}

/* A handler's error stops the run with its code, named; the session goes on. */
TEST_F(xrt, handler_errors_stop_the_run)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		"  ROOT r = f32[2] custom-call(x), custom_call_target=\"failing\"\n}\n";
	static const char unknown[] =
		"HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		"  ROOT r = f32[2] custom-call(x), custom_call_target=\"\"\n}\n";
	xrt_module *m = parse(_metadata, self->a, text), *u = parse(_metadata, self->a, unknown);
	xrt_literal *x = NULL, *out = NULL;
	size_t d;

	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
		TH_LOG("%s", devices[d]);
		ASSERT_ERR(run_on(devices[d], m, &x, 1, self->a, &out), XRT_FAILED_PRECONDITION,
			   "computation 'e', instruction 'r': custom-call 'failing': "
			   "the handler says no");
		EXPECT_EQ(NULL, out);
		ASSERT_ERR(run_on(devices[d], u, &x, 1, self->a, &out), XRT_NOT_FOUND,
			   "custom-call target '' is not registered");
	}
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
	xrt_module_destroy(u);
}

/* Malformed configurations are refused when read, saying where and why. */
TEST_F(xrt, malformed_configurations_are_refused)
{
	static const struct {
		const char *attrs, *msg;
	} bad[] = {
		{ "api_version=API_VERSION_TYPED_FFI, backend_config=\"{a = 1\"",
		  "byte 6: expected ',' or '}' after an attribute" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = 1 : i33}",
		  "byte 9: expected an element type" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = 300 : i8}",
		  "an integer out of its type's range" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = 1, a = 2}",
		  "an attribute name is given twice" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config=\"{a = \\\"x}\"",
		  "a string is not closed" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = \"\\q\"}",
		  "a string's escape is not" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = dense<[1, 2]> : "
		  "tensor<3xi32>}", "a dense array's elements are not its tensor's count" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = dense<\"0x0102\"> : "
		  "tensor<1xi32>}", "a dense hex blob does not hold its tensor's elements" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = 1.5 : i32}",
		  "a float where the type is an integer" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = 0x1FFFF : f16}",
		  "a float's hex bits are wider than its type" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config={a = {b = {c = {d = {e = {f = "
		  "{g = {h = {i = {j = {k = {l = {m = {n = {o = {p = {q = 1}}}}}}}}}}}}}}}}}",
		  "dictionaries nest more than 16 deep" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config=\"{} x\"",
		  "byte 3: text after the dictionary" },
		{ "api_version=API_VERSION_TYPED_FFI, backend_config=\"{\"",
		  "backend_config of an API_VERSION_TYPED_FFI call: attribute dictionary, byte 1: "
		  "expected an attribute name" },
		{ "api_version=API_VERSION_SEVEN", "api_version API_VERSION_SEVEN is not one of XLA's" },
		{ "backend_config=\"\\000\"", "a string holding a NUL byte is not supported" },
		{ "operand_layout_constraints={f32[2]{0}, f32[2,2]{0,1}}",
		  "operand_layout_constraints: 5 values for 1 operands" },
		{ "operand_layout_constraints={f32[2,1]{0,1}}",
		  "operand_layout_constraints: constraint 0's type or dimensions differ from "
		  "operand 0's" },
		{ "operand_layout_constraints={s32[2]{0}}",
		  "operand_layout_constraints: constraint 0's type or dimensions differ from "
		  "operand 0's" },
		{ "operand_layout_constraints={(f32[2], f32[2])}",
		  "a tuple-shaped operand layout constraint: custom calls are handed arrays" },
		{ "operand_layout_constraints={f32[2]{0} x}",
		  "expected '}' to close operand_layout_constraints" },
	};
	char text[512];
	xrt_module *m;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		xrt_status *st;

		snprintf(text, sizeof(text), "HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
			 "  ROOT r = f32[2] custom-call(x), custom_call_target=\"probe\", %s\n}\n",
			 bad[i].attrs);
		m = NULL;
		st = xrt_hlo_parse(self->a, text, strlen(text), &m);
		if (!st)
			st = xrt_module_verify(m);
		TH_LOG("case %zu: %s", i, st ? xrt_status_message(st) : "accepted");
		EXPECT_EQ(XRT_INVALID_ARGUMENT, xrt_status_code(st));
		EXPECT_NE(NULL, strstr(xrt_status_message(st), bad[i].msg));
		xrt_status_free(st);
		xrt_module_destroy(m);
	}
}

/* Each attribute of every_attribute_form_reads, checked; an error names the first wrong one. */
static xrt_status *check_forms(void *user, const struct xrt_ffi_call *c)
{
	const struct xrt_ffi_attrs *d = c->attrs;
	const struct xrt_ffi_attr *at;
	const int32_t *blob;
	const int64_t *i64;
	const void *v;
	uint64_t n;
	int64_t i;
	double f;

	(void)user;
#define WRONG(what) return xrt_status_new(NULL, XRT_INTERNAL, "attribute %s", what)
	if (xrt_ffi_get_int(d, "i", &i) || i != 7 || xrt_ffi_attr_find(d, "i")->dtype != XRT_S64)
		WRONG("i");
	if (xrt_ffi_get_float(d, "f", &f) || f != 0.5 || xrt_ffi_attr_find(d, "f")->dtype != XRT_F64)
		WRONG("f");
	at = xrt_ffi_attr_find(d, "u");
	if (!at || at->dtype != XRT_U64 || at->v.u != UINT64_MAX)
		WRONG("u");
	if (xrt_ffi_get_int(d, "s", &i) || i != -128)
		WRONG("s");
	if (xrt_ffi_get_float(d, "h", &f) || f != 1.5 || xrt_ffi_attr_find(d, "h")->dtype != XRT_F16)
		WRONG("h");
	if (xrt_ffi_get_int(d, "b", &i) || i != 0 || xrt_ffi_attr_find(d, "b")->dtype != XRT_PRED)
		WRONG("b");
	if (xrt_ffi_get_int(d, "quoted name", &i) || i != 1)
		WRONG("quoted name");
	if (xrt_ffi_get_array(d, "blob", XRT_S32, &v, &n) || n != 2)
		WRONG("blob");
	blob = v;
	if (blob[0] != 1 || blob[1] != 2)
		WRONG("blob's values");
	if (xrt_ffi_get_array(d, "splat", XRT_S64, &v, &n) || n != 4 || ((const int64_t *)v)[3] != 3)
		WRONG("splat");
	if (xrt_ffi_get_array(d, "arr", XRT_S64, &v, &n) || n != 2)
		WRONG("arr");
	i64 = v;
	if (i64[0] != 4 || i64[1] != 5)
		WRONG("arr's values");
	if (xrt_ffi_get_array(d, "none", XRT_F32, &v, &n) || n != 0)
		WRONG("none");
	if (xrt_ffi_get_float(d, "inf", &f) || !isinf(f) || f > 0)
		WRONG("inf");
	if (xrt_ffi_get_float(d, "e", &f) || f != 1000)
		WRONG("e");
	if (d->count != 13 || xrt_ffi_attr_find(d, "missing"))
		WRONG("count");
#undef WRONG
	return NULL;
}

/* Every attribute form the reader takes reaches the handler as written. */
TEST_F(xrt, every_attribute_form_reads)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n"
		"  ROOT r = f32[2] custom-call(x), custom_call_target=\"forms\", "
		"api_version=API_VERSION_TYPED_FFI, backend_config={i = 7, f = 0.5, "
		"u = 18446744073709551615 : ui64, s = -128 : i8, h = 1.5 : f16, b = false, "
		"\"quoted name\" = 1 : i1, blob = dense<\"0x0100000002000000\"> : tensor<2xi32>, "
		"splat = dense<3> : tensor<4xi64>, arr = array<i64: 4, 5>, none = array<f32>, "
		"inf = 0xFFF0000000000000 : f64, e = 1.0e+3 : f64}\n}\n";
	static bool registered;
	xrt_module *m = parse(_metadata, self->a, text);
	xrt_literal *x = NULL, *out = NULL;
	const struct xrt_ffi_attrs *none = NULL;
	int64_t i;
	double f;
	size_t d;

	if (!registered)
		ASSERT_OK(xrt_custom_call_register("forms", check_forms, NULL));
	registered = true;
	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	for (d = 0; d < sizeof(devices) / sizeof(devices[0]); d++) {
		ASSERT_OK(run_on(devices[d], m, &x, 1, self->a, &out));
		xrt_literal_destroy(out);
	}
	/* the getters refuse what is not there or not of their kind */
	ASSERT_ERR(xrt_ffi_get_int(none, "a", &i), XRT_INVALID_ARGUMENT,
		   "attribute 'a' is missing");
	ASSERT_ERR(xrt_ffi_get_int(none, "a", NULL), XRT_INVALID_ARGUMENT,
		   "xrt_ffi_get_int: NULL output");
	ASSERT_ERR(xrt_ffi_get_array(none, "a", XRT_F32, NULL, NULL), XRT_INVALID_ARGUMENT,
		   "xrt_ffi_get_array: NULL output");
	ASSERT_ERR(xrt_ffi_get_string(none, "a", NULL, NULL), XRT_INVALID_ARGUMENT,
		   "xrt_ffi_get_string: NULL output");
	ASSERT_ERR(xrt_ffi_get_float(none, NULL, &f), XRT_INVALID_ARGUMENT,
		   "NULL attribute name");
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
}

/* The same call read from XLA's HloModuleProto: fields 43, 65 and 77. */
TEST_F(xrt, xla_proto_fields_reach_the_handler)
{
	static const char cfg[] = "{scale = 4.0 : f64, offset = 1 : i32, name = \"p\", "
				  "sizes = array<i32: 1>, flag = false, nan = 1.0 : f32, "
				  "inner = {depth = -2 : i64}}";
	Xla__ShapeProto shape = XLA__SHAPE_PROTO__INIT;
	Xla__HloInstructionProto p = XLA__HLO_INSTRUCTION_PROTO__INIT,
				 c = XLA__HLO_INSTRUCTION_PROTO__INIT, *ins[] = { &p, &c };
	Xla__HloComputationProto comp = XLA__HLO_COMPUTATION_PROTO__INIT, *comps[] = { &comp };
	Xla__HloModuleProto mod = XLA__HLO_MODULE_PROTO__INIT;
	int64_t dims[] = { 3 }, operands[] = { 1 };
	xrt_literal *x = NULL, *out = NULL;
	xrt_module *m = NULL;
	uint8_t *buf;
	size_t len;
	float *in;

	register_once();
	shape.element_type = XLA__PRIMITIVE_TYPE__F32;
	shape.n_dimensions = 1;
	shape.dimensions = dims;
	p.name = "x";
	p.opcode = "parameter";
	p.shape = &shape;
	p.id = 1;
	c.name = "r";
	c.opcode = "custom-call";
	c.shape = &shape;
	c.id = 2;
	c.n_operand_ids = 1;
	c.operand_ids = operands;
	c.custom_call_target = "probe";
	c.custom_call_api_version = XLA__CUSTOM_CALL_API_VERSION__API_VERSION_TYPED_FFI;
	c.backend_config.data = (uint8_t *)cfg;
	c.backend_config.len = strlen(cfg);
	c.custom_call_has_side_effect = true;
	comp.name = "e";
	comp.id = 1;
	comp.root_id = 2;
	comp.n_instructions = 2;
	comp.instructions = ins;
	mod.name = "m";
	mod.entry_computation_name = "e";
	mod.entry_computation_id = 1;
	mod.n_computations = 1;
	mod.computations = comps;
	len = xla__hlo_module_proto__get_packed_size(&mod);
	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	xla__hlo_module_proto__pack(&mod, buf);
	ASSERT_OK(xrt_hlo_parse_xla_proto(self->a, buf, len, XRT_XLA_HLO_MODULE, &m));
	free(buf);
	ASSERT_OK(xrt_literal_create(self->a, xrt_module_param_shape(m, 0), &x));
	in = xrt_literal_mutable_data(x);
	in[0] = 1;
	in[1] = -1;
	in[2] = 0.25f;
	memset(&the_probe, 0, sizeof(the_probe));
	ASSERT_OK(run_on("host:0", m, &x, 1, self->a, &out));
	EXPECT_EQ(4.0, the_probe.scale);
	EXPECT_EQ(-2, the_probe.depth);
	EXPECT_STREQ("p", the_probe.name);
	/* x * 4 + 1 */
	EXPECT_EQ(5, ((const float *)xrt_literal_data(out))[0]);
	EXPECT_EQ(-3, ((const float *)xrt_literal_data(out))[1]);
	EXPECT_EQ(2, ((const float *)xrt_literal_data(out))[2]);
	xrt_literal_destroy(out);
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
}

/* Built in C: xrt_build_custom_call_with() gives the module the text gives. */
TEST_F(xrt, built_calls_print_as_xla_writes_them)
{
	struct xrt_custom_call_config cfg = { 4, "{n = 3 : i32}", true };
	struct xrt_shape s;
	xrt_builder *b = NULL;
	xrt_module *m = NULL;
	xrt_value x, r;
	char *t = NULL;

	register_once();
	ASSERT_OK(xrt_shape_init_array(&s, XRT_F32, 1, (const int64_t[]){ 2 }));
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &b));
	x = xrt_build_parameter(b, 0, &s, "x");
	r = xrt_build_custom_call_with(b, "probe", &x, 1, &s, &cfg);
	ASSERT_OK(xrt_builder_build(b, r, &m));
	ASSERT_OK(xrt_hlo_print(m, self->a, &t, NULL));
	EXPECT_NE(NULL, strstr(t, "custom_call_target=\"probe\", api_version=API_VERSION_TYPED_FFI, "
			       "backend_config={n = 3 : i32}, custom_call_has_side_effect=true"))
		TH_LOG("%s", t);
	xrt_free(self->a, t);
	xrt_module_destroy(m);
	xrt_builder_destroy(b);
	cfg.api_version = 9;
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &b));
	x = xrt_build_parameter(b, 0, &s, "x");
	r = xrt_build_custom_call_with(b, "probe", &x, 1, &s, &cfg);
	ASSERT_ERR(xrt_builder_build(b, r, &m), XRT_INVALID_ARGUMENT,
		   "api_version 9 is not one of XLA's");
	xrt_builder_destroy(b);
	/* a target HLO's reader takes as its own op: its text would not read back */
	ASSERT_OK(xrt_builder_create(self->a, "m", "e", &b));
	x = xrt_build_parameter(b, 0, &s, "x");
	r = xrt_build_custom_call(b, "PadToStatic", &x, 1, &s);
	ASSERT_ERR(xrt_builder_build(b, r, &m), XRT_INVALID_ARGUMENT,
		   "custom-call target 'PadToStatic' is XLA's, which HLO's reader reads as its "
		   "own operation");
	xrt_builder_destroy(b);
}

/* Read, checked, evaluated and run on host:0 with allocation k failing: each fails cleanly. */
static xrt_status *typed_call_everywhere(const struct xrt_allocator *a)
{
	static const char text[] =
		"HloModule m\nENTRY e {\n  x = f32[2] parameter(0)\n  t = (f32[2], f32[2]) tuple(x, x)\n"
		"  ROOT r = f32[2] custom-call(t), custom_call_target=\"probe\", "
		"api_version=API_VERSION_TYPED_FFI, backend_config={scale = 2.0 : f32, "
		"offset = 1 : i8, name = \"n\", sizes = array<i32: 1, 2>, flag = true, nan = 0.0, "
		"inner = {depth = 3}}\n}\n";
	xrt_literal *x = NULL, *out = NULL;
	xrt_module *m = NULL;
	struct xrt_shape s;
	xrt_status *st = xrt_hlo_parse(a, text, strlen(text), &m);

	/* not xrt_module_param_shape(), whose cache does without memory */
	if (!st)
		st = xrt_shape_init_array(&s, XRT_F32, 1, (const int64_t[]){ 2 });
	if (!st)
		st = xrt_literal_create(a, &s, &x);
	if (!st)
		st = run_on("reference", m, &x, 1, a, &out);
	xrt_literal_destroy(out);
	out = NULL;
	if (!st)
		st = run_on("host:0", m, &x, 1, a, &out);
	xrt_literal_destroy(out);
	xrt_literal_destroy(x);
	xrt_module_destroy(m);
	return st;
}

TEST_F(xrt, custom_calls_survive_every_failing_allocation)
{
	long runs = 0;

	register_once();
	test_fail_sweep(_metadata, &self->ta, typed_call_everywhere, &runs);
	TH_LOG("%ld allocations", runs - 1);
}

TEST_HARNESS_MAIN
