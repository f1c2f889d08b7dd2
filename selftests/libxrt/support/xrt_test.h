/* SPDX-License-Identifier: MIT */
/*
 * The common fixture of the libxrt selftests: every test gets a counting
 * allocator, and after the test body the fixture checks that nothing
 * allocated through it, or through the system allocator, leaked.
 */
#ifndef XRT_TEST_H
#define XRT_TEST_H

#include <string.h>

#include "kselftest_harness.h"

#include <xrt/literal.h>
#include <xrt/shape.h>
#include <xrt/status.h>

#include "test_alloc.h"

FIXTURE(xrt) {
	struct test_alloc ta;
	const struct xrt_allocator *a;
};

FIXTURE_SETUP(xrt)
{
	test_alloc_init(&self->ta);
	self->a = &self->ta.base;
}

FIXTURE_TEARDOWN(xrt)
{
	EXPECT_EQ(0, self->ta.live) TH_LOG("allocations leaked");
	EXPECT_TRUE(test_no_leaks()) TH_LOG("LeakSanitizer found leaks");
}

/* Asserts @expr (an xrt_status *) is NULL, printing its message if not. */
#define ASSERT_OK(expr)                                                       \
	do {                                                                  \
		xrt_status *_st = (expr);                                     \
		if (_st) {                                                    \
			TH_LOG("%s: %s: %s", #expr,                           \
			       xrt_code_name(xrt_status_code(_st)),           \
			       xrt_status_message(_st));                      \
			xrt_status_free(_st);                                 \
		}                                                             \
		ASSERT_EQ(NULL, _st);                                         \
	} while (0)

/*
 * Asserts @expr fails with @code and a message containing @needle; the
 * status is freed.
 */
#define ASSERT_ERR(expr, code, needle)                                        \
	do {                                                                  \
		xrt_status *_st = (expr);                                     \
		enum xrt_code _c = xrt_status_code(_st);                      \
		char _m[512];                                                 \
		snprintf(_m, sizeof(_m), "%s", xrt_status_message(_st));     \
		xrt_status_free(_st);                                         \
		if (_c != (code) || !strstr(_m, (needle)))                    \
			TH_LOG("%s: got %s '%s', want %s containing '%s'",   \
			       #expr, xrt_code_name(_c), _m,                  \
			       xrt_code_name(code), (needle));                \
		ASSERT_EQ((code), _c);                                        \
		ASSERT_NE(NULL, strstr(_m, (needle)));                        \
	} while (0)

/*
 * Runs @fn with allocation 1, 2, ... of @ta failing in turn until a run
 * passes untouched (which must succeed).  Every failing run must end in
 * RESOURCE_EXHAUSTED with nothing left allocated; the status is freed
 * first, since it may come from @ta too.  *@runs (if given) gets the
 * number of runs: the allocations the scenario makes, plus one.
 */
static inline void test_fail_sweep(struct __test_metadata *_metadata, struct test_alloc *ta,
				   xrt_status *(*fn)(const struct xrt_allocator *a), long *runs)
{
	enum xrt_code code;
	xrt_status *st;
	long n;

	for (n = 1;; n++) {
		test_alloc_fail_at(ta, n);
		st = fn(&ta->base);
		code = xrt_status_code(st);
		if (st && code != XRT_RESOURCE_EXHAUSTED)
			TH_LOG("failing allocation %ld: %s: %s", n, xrt_code_name(code),
			       xrt_status_message(st));
		xrt_status_free(st);
		ASSERT_EQ(0, ta->live) TH_LOG("leak after failing allocation %ld", n);
		if (!ta->failed) {
			ASSERT_EQ(XRT_OK, code);
			break;
		}
		ASSERT_EQ(XRT_RESOURCE_EXHAUSTED, code) TH_LOG("failing allocation %ld", n);
	}
	test_alloc_fail_at(ta, 0);
	if (runs)
		*runs = n;
	ASSERT_GT(n, 1) TH_LOG("the scenario allocated nothing");
}

/* A shape from HLO text, or the test fails. */
#define SHAPE(var, text) ASSERT_OK(xrt_shape_parse(&(var), self->a, (text)))

#endif /* XRT_TEST_H */
