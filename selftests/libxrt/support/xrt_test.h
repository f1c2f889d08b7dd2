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

/* A shape from HLO text, or the test fails. */
#define SHAPE(var, text) ASSERT_OK(xrt_shape_parse(&(var), self->a, (text)))

#endif /* XRT_TEST_H */
