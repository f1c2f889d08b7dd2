// SPDX-License-Identifier: MIT
/*
 * Statuses: codes, messages, annotation, and the out-of-memory fallback.
 */
#include "xrt_test.h"

TEST_F(xrt, new_carries_code_and_message)
{
	xrt_status *st = xrt_status_new(self->a, XRT_NOT_FOUND,
					"handle %d not found", 42);

	ASSERT_EQ(XRT_NOT_FOUND, xrt_status_code(st));
	ASSERT_STREQ("handle 42 not found", xrt_status_message(st));
	xrt_status_free(st);
}

TEST_F(xrt, null_is_ok)
{
	ASSERT_EQ(XRT_OK, xrt_status_code(NULL));
	ASSERT_STREQ("", xrt_status_message(NULL));
	xrt_status_free(NULL);
	ASSERT_EQ(NULL, xrt_status_annotate(NULL, "context"));
}

TEST_F(xrt, annotate_prefixes_context)
{
	xrt_status *st = xrt_status_new(self->a, XRT_INVALID_ARGUMENT, "bad");

	st = xrt_status_annotate(st, "input #%d", 1);
	st = xrt_status_annotate(st, "MatMul");
	ASSERT_EQ(XRT_INVALID_ARGUMENT, xrt_status_code(st));
	ASSERT_STREQ("MatMul: input #1: bad", xrt_status_message(st));
	xrt_status_free(st);
}

TEST_F(xrt, ok_code_becomes_internal)
{
	xrt_status *st = xrt_status_new(self->a, XRT_OK, "oops");

	ASSERT_EQ(XRT_INTERNAL, xrt_status_code(st));
	xrt_status_free(st);
	st = xrt_status_new(self->a, (enum xrt_code)99, "oops");
	ASSERT_EQ(XRT_INTERNAL, xrt_status_code(st));
	xrt_status_free(st);
}

TEST_F(xrt, out_of_memory_keeps_the_code)
{
	xrt_status *st;

	test_alloc_fail_at(&self->ta, 1);
	st = xrt_status_new(self->a, XRT_UNAVAILABLE, "device gone");
	ASSERT_NE(NULL, st);
	ASSERT_EQ(XRT_UNAVAILABLE, xrt_status_code(st));
	ASSERT_STREQ("UNAVAILABLE", xrt_status_message(st));
	/* Annotating a fallback leaves it as it is. */
	ASSERT_EQ(st, xrt_status_annotate(st, "ctx"));
	xrt_status_free(st);
}

TEST_F(xrt, annotate_out_of_memory_keeps_original)
{
	xrt_status *st = xrt_status_new(self->a, XRT_ABORTED, "reset");

	test_alloc_fail_at(&self->ta, 1);
	st = xrt_status_annotate(st, "queue 3");
	ASSERT_STREQ("reset", xrt_status_message(st));
	xrt_status_free(st);
}

TEST(code_names)
{
	ASSERT_STREQ("OK", xrt_code_name(XRT_OK));
	ASSERT_STREQ("INVALID_ARGUMENT", xrt_code_name(XRT_INVALID_ARGUMENT));
	ASSERT_STREQ("DATA_LOSS", xrt_code_name(XRT_DATA_LOSS));
	ASSERT_STREQ("UNKNOWN_CODE", xrt_code_name((enum xrt_code)16));
	ASSERT_STREQ("UNKNOWN_CODE", xrt_code_name((enum xrt_code)-1));
}

TEST_HARNESS_MAIN
