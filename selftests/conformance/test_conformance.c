// SPDX-License-Identifier: MIT
/*
 * The conformance suite: every case gen.py wrote (JAX programs, compiled
 * and run by real XLA), in every form (text and HloProto, before and
 * after XLA's CPU optimizations), on the reference evaluator and on each
 * device, compared with XLA's outputs (compare.c says how closely).
 *
 * A disagreement fails the test unless known.txt lists it with its
 * reason; a listed one that agrees fails it too, so the list stays true.
 *
 *   XRT_CONFORMANCE_DEVICES   targets, comma-separated: "reference" (the
 *                             evaluator) and devices (default
 *                             reference,host:0,staged:0)
 *   XRT_CONFORMANCE_FORMS     which forms: a subset of "bBaA" (b
 *                             before.hlo, a after.hlo, capitals the .pb)
 *   XRT_CONFORMANCE_ONLY      a glob over GROUP/NAME
 *   XRT_CONFORMANCE_VERBOSE   tell the known disagreements too
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>

#include <xrt/evaluate.h>
#include <xrt/xrt.h>

#include "case.h"
#include "test_cases.h"
#include "xrt_test.h"

#define MAX_TARGETS 8
#define MAX_GROUPS 64
#define MAX_KNOWN 256

struct known {
	char glob[160], form[16], target[32];
	bool seen;
};

struct tally {
	char group[32];
	unsigned int agree[MAX_TARGETS], ran[MAX_TARGETS];
};

struct suite {
	const struct xrt_allocator *a;
	const char *targets[MAX_TARGETS];
	xrt_session *sessions[MAX_TARGETS];	/* NULL: the evaluator */
	unsigned int num_targets, num_groups, num_known, unexpected;
	struct tally groups[MAX_GROUPS];
	struct known known[MAX_KNOWN];
	char device_list[256];
};

static const char form_keys[] = "baBA";

static void read_known(struct suite *s)
{
	char *text = test_slurp(CONFORMANCE_DIR "/known.txt", &(size_t){ 0 }), *line, *next;

	for (line = text; line && *line; line = next) {
		struct known *k = &s->known[s->num_known];
		char reason[2];

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (line[0] == '#' || !line[0])
			continue;
		/* each entry three globs and a reason: anything else is a broken list */
		if (s->num_known == MAX_KNOWN ||
		    sscanf(line, "%159s %15s %31s %1s", k->glob, k->form, k->target, reason) != 4) {
			fprintf(stderr, "# known.txt: cannot take '%s'\n", line);
			s->unexpected++;
			continue;
		}
		s->num_known++;
	}
	free(text);
}

/* The known.txt entry covering a disagreement, or NULL. */
static struct known *known_for(struct suite *s, const char *name, const char *form,
			       const char *target)
{
	unsigned int i;

	for (i = 0; i < s->num_known; i++) {
		struct known *k = &s->known[i];

		if (!fnmatch(k->glob, name, 0) && !fnmatch(k->form, form, 0) &&
		    !fnmatch(k->target, target, 0))
			return k;
	}
	return NULL;
}

static struct tally *tally_of(struct suite *s, const char *name)
{
	size_t len = strcspn(name, "/");
	unsigned int i;

	for (i = 0; i < s->num_groups; i++)
		if (strlen(s->groups[i].group) == len && !strncmp(s->groups[i].group, name, len))
			return &s->groups[i];
	if (s->num_groups == MAX_GROUPS)
		return &s->groups[MAX_GROUPS - 1];
	snprintf(s->groups[s->num_groups].group, sizeof(s->groups[0].group), "%.*s", (int)len, name);
	return &s->groups[s->num_groups++];
}

/* Runs module @m of case @c on target @t: the result, or a status. */
static xrt_status *run_on(struct suite *s, unsigned int t, const xrt_module *m,
			  const struct conf_case *c, xrt_literal **out)
{
	if (!s->sessions[t])
		return xrt_ir_evaluate(m, (const xrt_literal *const *)c->in, c->num_in, NULL, s->a,
				       out);
	return test_run_module(s->sessions[t], m, c->in, c->num_in, out);
}

/* Whether result @got matches every output of @c; @why says how not. */
static bool matches(const struct conf_case *c, xrt_literal *got, char *why, size_t size)
{
	uint32_t n = xrt_literal_tuple_count(got), i;

	if (!xrt_literal_shape(got)->tuple_count && c->num_out == 1)
		return conformance_agree(c->out[0], got, c->tol, why, size);
	if (n != c->num_out) {
		snprintf(why, size, "%u results, XLA gives %u", n, c->num_out);
		return false;
	}
	for (i = 0; i < n; i++) {
		if (!conformance_agree(c->out[i], xrt_literal_element(got, i), c->tol, why, size)) {
			size_t len = strlen(why);

			snprintf(why + len, size - len, " (result %u)", i);
			return false;
		}
	}
	return true;
}

/* Case @c, form @form, on every target: tallied, disagreements told. */
static void run_form(struct suite *s, const struct conf_case *c, const char *form)
{
	struct tally *g = tally_of(s, c->name);
	xrt_module *m = NULL;
	xrt_status *st = case_module(s->a, CONFORMANCE_DIR "/cases", c->name, form, &m);
	unsigned int t;

	for (t = 0; t < s->num_targets; t++) {
		xrt_literal *got = NULL;
		char why[512] = "";
		struct known *k = known_for(s, c->name, form, s->targets[t]);
		bool ok = false;
		xrt_status *rs = st ? NULL : run_on(s, t, m, c, &got);

		if (st || rs)
			snprintf(why, sizeof(why), "%s", xrt_status_message(st ? st : rs));
		else
			ok = matches(c, got, why, sizeof(why));
		g->ran[t]++;
		g->agree[t] += ok;
		if (!ok && k)
			k->seen = true;
		else if (!ok)
			s->unexpected++;
		if (!ok && (!k || getenv("XRT_CONFORMANCE_VERBOSE")))
			fprintf(stderr, "# %s %s%s on %s: %s\n", k ? "known" : "DIFFERS", c->name, form,
				s->targets[t], why);
		xrt_status_free(rs);
		xrt_literal_destroy(got);
	}
	xrt_status_free(st);
	xrt_module_destroy(m);
}

static void print_counts(const struct suite *s)
{
	unsigned int g, t, agree[MAX_TARGETS] = { 0 }, ran[MAX_TARGETS] = { 0 };

	fprintf(stderr, "# conformance against XLA (runs agreeing / runs: cases x forms)\n");
	fprintf(stderr, "# %-12s", "group");
	for (t = 0; t < s->num_targets; t++)
		fprintf(stderr, " %16s", s->targets[t]);
	fprintf(stderr, "\n");
	for (g = 0; g <= s->num_groups; g++) {
		const struct tally *y = &s->groups[g];

		fprintf(stderr, "# %-12s", g < s->num_groups ? y->group : "all");
		for (t = 0; t < s->num_targets; t++) {
			char cell[32];

			if (g < s->num_groups)
				agree[t] += y->agree[t], ran[t] += y->ran[t];
			snprintf(cell, sizeof(cell), "%u/%u", g < s->num_groups ? y->agree[t] : agree[t],
				 g < s->num_groups ? y->ran[t] : ran[t]);
			fprintf(stderr, " %16s", cell);
		}
		fprintf(stderr, "\n");
	}
}

static void open_targets(struct __test_metadata *_metadata, struct suite *s)
{
	const char *env = getenv("XRT_CONFORMANCE_DEVICES");
	char *d, *save = NULL;

	snprintf(s->device_list, sizeof(s->device_list), "%s",
		 env ? env : "reference,host:0,staged:0");
	for (d = strtok_r(s->device_list, ",", &save); d && s->num_targets < MAX_TARGETS;
	     d = strtok_r(NULL, ",", &save)) {
		struct xrt_session_options o = { d, 0, false };

		if (strcmp(d, "reference"))
			ASSERT_OK(xrt_session_create(&o, s->a, &s->sessions[s->num_targets]));
		s->targets[s->num_targets++] = d;
	}
	ASSERT_LT(0, s->num_targets);
}

TEST_F_TIMEOUT(xrt, every_case_agrees_with_xla, 120)
{
	static struct suite s;
	const char *only = getenv("XRT_CONFORMANCE_ONLY"), *forms = getenv("XRT_CONFORMANCE_FORMS");
	char *index = test_slurp(CONFORMANCE_DIR "/cases/INDEX", &(size_t){ 0 }), *line, *next;
	unsigned int f, t, cases = 0;

	ASSERT_NE(NULL, index) TH_LOG("no %s/cases/INDEX", CONFORMANCE_DIR);
	memset(&s, 0, sizeof(s));
	s.a = self->a;
	open_targets(_metadata, &s);
	read_known(&s);
	for (line = index; line && *line; line = next) {
		struct conf_case c;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (line[0] == '#' || (only && fnmatch(only, line, 0)))
			continue;
		ASSERT_OK(case_read(s.a, CONFORMANCE_DIR "/cases", line, &c));
		for (f = 0; f < 4; f++)
			if (!forms || strchr(forms, form_keys[f]))
				run_form(&s, &c, case_forms[f]);
		case_free(&c);
		cases++;
	}
	free(index);
	print_counts(&s);
	for (f = 0; !only && !forms && f < s.num_known; f++) {
		for (t = 0; t < s.num_targets; t++)
			if (!fnmatch(s.known[f].target, s.targets[t], 0) && !s.known[f].seen) {
				fprintf(stderr, "# known.txt: %s %s %s now agrees: take it out\n",
					s.known[f].glob, s.known[f].form, s.known[f].target);
				s.unexpected++;
				break;
			}
	}
	for (t = 0; t < s.num_targets; t++)
		xrt_session_destroy(s.sessions[t]);
	EXPECT_LT(0, cases);
	EXPECT_EQ(0, s.unexpected);
}

TEST_HARNESS_MAIN
