/* SPDX-License-Identifier: MIT */
/*
 * Transparent huge pages as a test sees them: the system's mode and
 * whether the mapping holding an address may use them.
 */
#ifndef XRT_TEST_THP_H
#define XRT_TEST_THP_H

#include <stddef.h>

/* Writes the mode in brackets ("always", "madvise", "never"; "none" if unknown) to @mode. */
void test_thp_mode(char *mode, size_t size);

/* The THPeligible field of /proc/self/smaps for the mapping holding @p, or -1. */
int test_thp_eligible(const void *p);

#endif /* XRT_TEST_THP_H */
