/* SPDX-License-Identifier: MIT */
/*
 * The cases of selftests/libxrt/eval/eval_cases.txt: an HLO module with
 * its inputs as constants, and the literal it must give.
 */
#ifndef XRT_TEST_CASES_H
#define XRT_TEST_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include <xrt/ir.h>
#include <xrt/literal.h>
#include <xrt/xrt.h>

struct test_case {
	char name[128];
	bool exact;			/* else within tol */
	struct xrt_tolerance tol;
	const char *module;		/* HLO text */
	const char *shape, *value;	/* the expected literal */
};

/*
 * Splits the next case off *@p (the file's text, cut up in place);
 * false after the last, or at a malformed case.
 */
bool test_case_next(char **p, struct test_case *c);

/* The literal a case expects. */
xrt_status *test_case_expected(const struct xrt_allocator *a, const struct test_case *c,
			       xrt_literal **out);

/*
 * Compiles @m in @s, runs it on @args (up to 16) with seed 42 and reads
 * the result back into *@out; everything it allocated is released.
 */
xrt_status *test_run_module(xrt_session *s, const xrt_module *m, xrt_literal *const *args,
			    uint32_t n, xrt_literal **out);

/*
 * Runs compilation @c of @s on seeded random arguments of its program
 * shape (seed 7, up to 16) and returns the result read back, or NULL
 * where any step fails.  The arguments are released.
 */
xrt_literal *test_run_random(xrt_session *s, xrt_handle c, const struct xrt_allocator *a);

/*
 * Seeded values for every leaf of @lit: floats in [-2, 2), integers in
 * [-8, 8) ([0, 16) unsigned), preds 0 or 1.
 */
void test_fill_random(xrt_literal *lit, uint64_t *state);

#endif /* XRT_TEST_CASES_H */
