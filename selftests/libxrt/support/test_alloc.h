/* SPDX-License-Identifier: MIT */
/*
 * Test helpers: an allocator that counts live allocations and can be told
 * to fail the Nth allocation, and reading test data files.
 */
#ifndef XRT_TEST_ALLOC_H
#define XRT_TEST_ALLOC_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>

#include <xrt/alloc.h>

/*
 * As any allocator it may be called from several threads (a host job's
 * worker frees what the job held): the counters change atomically.
 */
struct test_alloc {
	struct xrt_allocator base;
	long live;		/* allocations not yet freed */
	long count;		/* allocations attempted */
	long fail_at;		/* fail the attempt with this number (1-based); 0: never */
	bool failed;		/* an allocation was failed */
};

void test_alloc_init(struct test_alloc *t);
/* Fails allocation number @n (1-based) and none other; 0 disables. */
void test_alloc_fail_at(struct test_alloc *t, long n);

/* Runs LeakSanitizer now when the build has it; returns true if clean. */
bool test_no_leaks(void);

/* The whole file at @path, NUL-terminated (free()); *n gets its length. */
char *test_slurp(const char *path, size_t *n);

/* Walks the .hlo files of a folder, one per call, each read whole. */
struct test_corpus {
	DIR *dir;
	bool done;
	char name[256];		/* the file's name */
	char *text;		/* its text (NULL if unreadable); freed by the next call */
	size_t len;
};

/*
 * Moves @c (zeroed before the first call) to the next file of @dir;
 * false, with everything freed, after the last.
 */
bool test_corpus_next(struct test_corpus *c, const char *dir);

#endif /* XRT_TEST_ALLOC_H */
