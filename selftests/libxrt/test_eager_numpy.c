// SPDX-License-Identifier: MIT
/*
 * The eager ops against values numpy computed from TensorFlow's
 * semantics (eager/eager_cases.txt, written by gen_eager_cases.py): each
 * case runs one op by its registry name with its attributes on its
 * inputs, and every output must be the expected one.  Unlike the
 * reference-evaluator tests, this checks the lowerings themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/eager.h>

#include "eager/eager_internal.h"
#include "test_cases.h"
#include "xrt_test.h"

const struct op_def *eager_registry_at(size_t i);

/* Ops whose values no numpy formula gives; test_eager.c checks them. */
static const char *const elsewhere[] = {
	"Const", "RandomUniform", "RandomStandardNormal", "VarHandleOp",
	"AssignVariableOp", "AssignAddVariableOp", "ReadVariableOp", "DestroyResourceOp",
};

#define MAX_IO	8

struct eager_case {
	char name[128], op[64];
	bool exact;
	struct xrt_tolerance tol;
	xrt_tensor *in[MAX_IO];
	uint32_t num_in, list_start, list_len;	/* inputs [start, start+len) are one list */
	xrt_literal *out[MAX_IO];
	uint32_t num_out;
	char *attrs[16];
	uint32_t num_attrs;
};

/* The literal "SHAPE VALUE" of a case line. */
static xrt_status *literal_of(char *text, xrt_literal **out)
{
	struct test_case tc = { .shape = text };
	char *sp = strchr(text, ' ');

	if (!sp)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "no value in '%s'", text);
	*sp = '\0';
	tc.value = sp + 1;
	return test_case_expected(NULL, &tc, out);
}

static xrt_status *tensor_of(xrt_eager_context *c, char *text, xrt_tensor **out)
{
	xrt_literal *lit = NULL;
	const struct xrt_shape *s;
	xrt_status *st = literal_of(text, &lit);

	if (st)
		return st;
	s = xrt_literal_shape(lit);
	st = xrt_tensor_from_host(c, s->dtype, s->rank, s->dims, xrt_literal_data(lit),
				  xrt_literal_size(lit), out);
	xrt_literal_destroy(lit);
	return st;
}

/* "NAME KIND VALUE..." onto @op. */
static xrt_status *set_attr(xrt_op *op, char *line)
{
	char *save = NULL, *name = strtok_r(line, " ", &save), *kind = strtok_r(NULL, " ", &save);
	char *v = strtok_r(NULL, "", &save);
	int64_t ints[8];
	uint32_t n = 0;

	if (!name || !kind || !v)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "bad attr line");
	if (!strcmp(kind, "int"))
		return xrt_op_set_attr_int(op, name, strtoll(v, NULL, 10));
	if (!strcmp(kind, "bool"))
		return xrt_op_set_attr_bool(op, name, atoi(v) != 0);
	if (!strcmp(kind, "float"))
		return xrt_op_set_attr_float(op, name, strtof(v, NULL));
	if (!strcmp(kind, "string"))
		return xrt_op_set_attr_string(op, name, v);
	if (!strcmp(kind, "type"))
		return xrt_op_set_attr_type(op, name, xrt_dtype_from_name(v, strlen(v)));
	if (strcmp(kind, "ints"))
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "bad attr kind %s", kind);
	for (v = strtok_r(v, " ", &save); v && n < 8; v = strtok_r(NULL, " ", &save))
		ints[n++] = strtoll(v, NULL, 10);
	return xrt_op_set_attr_int_list(op, name, ints, n);
}

/* Parses one case's lines into @k (tensors made in @c). */
static xrt_status *parse_case(xrt_eager_context *c, char *text, struct eager_case *k)
{
	char kind[32] = "", atol[32] = "", *save = NULL, *line;
	xrt_status *st = NULL;

	memset(k, 0, sizeof(*k));
	line = strtok_r(text, "\n", &save);
	if (!line || sscanf(line, "=== %127s %63s %31s %31s", k->name, k->op, kind, atol) < 3)
		return xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "bad header");
	k->exact = !strcmp(kind, "exact");
	k->tol.rtol = k->exact ? 0 : strtod(kind, NULL);
	k->tol.atol = k->exact ? 0 : strtod(atol, NULL);
	k->list_start = ~0u;
	while (!st && (line = strtok_r(NULL, "\n", &save))) {
		if (!strncmp(line, "attr ", 5) && k->num_attrs < 16)
			k->attrs[k->num_attrs++] = line + 5;
		else if (!strncmp(line, "list ", 5))
			k->list_start = k->num_in, k->list_len = (uint32_t)atoi(line + 5);
		else if (!strncmp(line, "in ", 3) && k->num_in < MAX_IO)
			st = tensor_of(c, line + 3, &k->in[k->num_in++]);
		else if (!strncmp(line, "out ", 4) && k->num_out < MAX_IO)
			st = literal_of(line + 4, &k->out[k->num_out++]);
		else
			st = xrt_status_new(NULL, XRT_INVALID_ARGUMENT, "bad line '%s'", line);
	}
	return st;
}

static void free_case(struct eager_case *k)
{
	uint32_t i;

	for (i = 0; i < k->num_in; i++)
		xrt_tensor_unref(k->in[i]);
	for (i = 0; i < k->num_out; i++)
		xrt_literal_destroy(k->out[i]);
}

static xrt_status *add_inputs(xrt_op *op, struct eager_case *k)
{
	xrt_status *st = NULL;
	uint32_t i;

	for (i = 0; !st && i < k->num_in; i++) {
		if (i == k->list_start) {
			st = xrt_op_add_input_list(op, &k->in[i], k->list_len);
			i += k->list_len - 1;
		} else {
			st = xrt_op_add_input(op, k->in[i]);
		}
	}
	return st;
}

/* Runs @k; NULL when every output is as expected, else why. */
static char *run_case(xrt_eager_context *c, struct eager_case *k)
{
	xrt_tensor *outs[MAX_IO] = { NULL };
	uint32_t n = MAX_IO, i;
	char why[512] = "", *msg;
	xrt_literal *got;
	xrt_status *st;
	xrt_op *op = NULL;
	bool ok = true;

	st = xrt_op_create(c, k->op, &op);
	for (i = 0; !st && i < k->num_attrs; i++)
		st = set_attr(op, k->attrs[i]);
	if (!st)
		st = add_inputs(op, k);
	if (!st)
		st = xrt_op_execute(op, outs, &n);
	if (!st && n != k->num_out)
		snprintf(why, sizeof(why), "%u outputs, expected %u", n, k->num_out), ok = false;
	for (i = 0; !st && ok && i < n; i++) {
		st = xrt_tensor_resolve(outs[i], &got);
		if (st)
			break;
		ok = k->exact ? xrt_literal_equal(k->out[i], got, why, sizeof(why)) :
			       xrt_literal_near(k->out[i], got, &k->tol, why, sizeof(why));
		xrt_literal_destroy(got);
	}
	for (i = 0; i < n && !st; i++)
		xrt_tensor_unref(outs[i]);
	if (st)
		snprintf(why, sizeof(why), "%s", xrt_status_message(st)), ok = false;
	xrt_status_free(st);
	xrt_op_destroy(op);
	if (ok)
		return NULL;
	msg = malloc(800);
	snprintf(msg, 800, "%s (%s): %s", k->name, k->op, why);
	return msg;
}

FIXTURE(eager_numpy) {
	xrt_eager_context *c;
};

FIXTURE_SETUP(eager_numpy)
{
	ASSERT_OK(xrt_eager_context_create(NULL, NULL, &self->c));
}

FIXTURE_TEARDOWN(eager_numpy)
{
	xrt_eager_context_destroy(self->c);
}

/*
 * Where TensorFlow's value is not ours, and why (the case, then the
 * reason): each listed case must still differ, so the list stays true.
 */
static const char *const tf_differs[][2] = {
	{ "", "" },	/* none today: a name no case has */
};

static bool tf_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(tf_differs) / sizeof(tf_differs[0]); i++)
		if (!strcmp(tf_differs[i][0], name))
			return true;
	return false;
}

/*
 * Runs every case of @path; their ops into @seen (" Op Op ... "), each
 * failure logged.  With @tf, a failure of a case tf_differs lists is
 * expected, and its passing a failure.  Returns the failures; *@cases
 * counts the cases.
 */
static int run_file(struct __test_metadata *_metadata, xrt_eager_context *c, const char *path,
		    bool tf, char *seen, size_t seen_size, int *cases)
{
	size_t len = 0;
	char *text = test_slurp(path, &len), *p, *next, *msg;
	struct eager_case k;
	int failures = 0;

	if (!text) {
		TH_LOG("cannot read %s", path);
		return 1;
	}
	for (p = strstr(text, "=== "); p; p = next) {
		xrt_status *st;

		msg = NULL;
		next = strstr(p + 4, "\n=== ");
		if (next)
			*next++ = '\0';
		st = parse_case(c, p, &k);
		if (st) {
			TH_LOG("%s: %s", k.name, xrt_status_message(st));
			xrt_status_free(st);
			failures++;
		} else if ((msg = run_case(c, &k)) && !(tf && tf_known(k.name))) {
			TH_LOG("%s", msg);
			failures++;
		} else if (!msg && tf && tf_known(k.name)) {
			TH_LOG("%s now gives TensorFlow's value: take it out of tf_differs", k.name);
			failures++;
		}
		free(msg);
		if (strlen(seen) + strlen(k.op) + 2 < seen_size) {
			strcat(seen, k.op);
			strcat(seen, " ");
		}
		free_case(&k);
		(*cases)++;
	}
	free(text);
	return failures;
}

TEST_F(eager_numpy, every_case_matches_numpy)
{
	char seen[8192] = " ";
	const struct op_def *d;
	int cases = 0;
	size_t i, j;

	EXPECT_EQ(0, run_file(_metadata, self->c, EAGER_CASES, false, seen, sizeof(seen), &cases));
	EXPECT_LT(100, cases);
	/* every registered op has a case, or is in the list above */
	for (i = 0; (d = eager_registry_at(i)); i++) {
		char needle[80];
		bool found = false;

		snprintf(needle, sizeof(needle), " %s ", d->name);
		for (j = 0; j < sizeof(elsewhere) / sizeof(elsewhere[0]); j++)
			found |= !strcmp(elsewhere[j], d->name);
		if (!found)
			found = strstr(seen, needle) != NULL;
		EXPECT_TRUE(found) TH_LOG("no numpy case runs %s", d->name);
	}
}

/*
 * The same cases with TensorFlow's outputs (tf.raw_ops, gen_tf_cases.py):
 * every op of the registry against TensorFlow itself.
 */
TEST_F(eager_numpy, every_case_matches_tensorflow)
{
	char seen[8192] = " ";
	int cases = 0;

	EXPECT_EQ(0, run_file(_metadata, self->c, EAGER_TF_CASES, true, seen, sizeof(seen),
			      &cases));
	EXPECT_LT(100, cases);
}

TEST_HARNESS_MAIN
