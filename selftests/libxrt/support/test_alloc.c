// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_alloc.h"

/* Present only when linked with LeakSanitizer (ASan builds). */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

static void *ta_alloc(void *self, size_t size, size_t align)
{
	struct test_alloc *t = self;
	void *p = NULL;

	if (__atomic_add_fetch(&t->count, 1, __ATOMIC_RELAXED) == t->fail_at) {
		__atomic_store_n(&t->failed, true, __ATOMIC_RELAXED);
		return NULL;
	}
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (posix_memalign(&p, align, size))
		return NULL;
	__atomic_add_fetch(&t->live, 1, __ATOMIC_RELAXED);
	return p;
}

static void ta_free(void *self, void *ptr)
{
	struct test_alloc *t = self;

	__atomic_sub_fetch(&t->live, 1, __ATOMIC_RELAXED);
	free(ptr);
}

void test_alloc_init(struct test_alloc *t)
{
	t->base.self = t;
	t->base.alloc = ta_alloc;
	t->base.free = ta_free;
	t->live = 0;
	t->count = 0;
	t->fail_at = 0;
	t->failed = false;
}

void test_alloc_fail_at(struct test_alloc *t, long n)
{
	t->count = 0;
	t->fail_at = n;
	t->failed = false;
}

bool test_no_leaks(void)
{
	if (!__lsan_do_recoverable_leak_check)
		return true;
	return __lsan_do_recoverable_leak_check() == 0;
}

char *test_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[len] = '\0';
			*n = (size_t)len;
		}
	}
	fclose(f);
	return buf;
}

bool test_corpus_next(struct test_corpus *c, const char *dir)
{
	struct dirent *e;
	char path[1024];

	free(c->text);
	c->text = NULL;
	if (!c->dir && !c->done)
		c->dir = opendir(dir);
	while (c->dir && (e = readdir(c->dir))) {
		size_t n = strlen(e->d_name);

		if (n < 5 || strcmp(e->d_name + n - 4, ".hlo"))
			continue;
		snprintf(c->name, sizeof(c->name), "%s", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		c->text = test_slurp(path, &c->len);
		return true;
	}
	if (c->dir)
		closedir(c->dir);
	c->dir = NULL;
	c->done = true;
	return false;
}
