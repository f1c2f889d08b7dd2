/* SPDX-License-Identifier: MIT */
/*
 * Shared by the xrt_accel driver selftests: a fixture holding an open
 * device, small programs built with the command-stream builder, and
 * helpers to run them.
 */
#ifndef XRT_DRIVER_TEST_H
#define XRT_DRIVER_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "accel.h"
#include "cstream/cs_builder.h"
#include <xrt/status.h>

/* A program in a buffer object, with the host copy it was made from. */
struct prog {
	uint32_t bo;
	size_t size;
	void *bytes;
};

/* Puts a finished builder's program into a buffer object. */
static inline int prog_upload(int fd, struct cs_builder *b, struct prog *p)
{
	xrt_status *st = cs_finish(b, &p->bytes, &p->size);

	if (st) {
		fprintf(stderr, "cs_finish: %s\n", xrt_status_message(st));
		xrt_status_free(st);
		return -EINVAL;
	}
	return accel_bo_from(fd, p->bytes, p->size, &p->bo);
}

static inline void prog_free(int fd, struct prog *p)
{
	if (p->bo)
		accel_bo_close(fd, p->bo);
	xrt_free(NULL, p->bytes);
	memset(p, 0, sizeof(*p));
}

/* Slot 0 (u32[n]) = @value, @reps times over (reps make it slow). */
static inline int prog_fill(int fd, uint64_t n, uint32_t value, uint32_t reps,
			    struct prog *p)
{
	struct cs_builder b;
	struct xrt_cs_view v;
	uint32_t i;

	cs_builder_init(&b, NULL);
	v = cs_view_dense(cs_add_slot(&b, n * 4, XRT_CS_SLOT_WRITE), XRT_CS_U32,
			  0, 1, &n);
	for (i = 0; i < reps; i++)
		cs_fill_constant(&b, &v, &value, sizeof(value));
	return prog_upload(fd, &b, p);
}

/* Slot 1 (u32[n]) = slot 0 (u32[n]). */
static inline int prog_copy(int fd, uint64_t n, struct prog *p)
{
	struct cs_builder b;
	struct xrt_cs_view s, d;

	cs_builder_init(&b, NULL);
	s = cs_view_dense(cs_add_slot(&b, n * 4, XRT_CS_SLOT_READ), XRT_CS_U32,
			  0, 1, &n);
	d = cs_view_dense(cs_add_slot(&b, n * 4, XRT_CS_SLOT_WRITE), XRT_CS_U32,
			  0, 1, &n);
	cs_copy(&b, &d, &s);
	return prog_upload(fd, &b, p);
}

/* Jumps to itself while slot 0's predicate is true: forever if it is. */
static inline int prog_spin(int fd, struct prog *p)
{
	struct xrt_cs_scalar pred = { .slot = 0, .dtype = XRT_CS_PRED };
	struct cs_builder b;

	cs_builder_init(&b, NULL);
	cs_add_slot(&b, 1, XRT_CS_SLOT_READ);
	cs_jump(&b, XRT_CS_JUMP_IF_TRUE, 0, &pred);
	return prog_upload(fd, &b, p);
}

/* Submits @p over @slots on @queue, signalling @out (0: none). */
static inline int submit(int fd, uint32_t queue, const struct prog *p,
			 const uint32_t *slots, uint32_t n, uint32_t out)
{
	struct accel_job j = {
		.prog = p->bo, .slots = slots, .num_slots = n,
		.prog_size = p->size, .out_sync = out, .queue = queue,
	};

	return accel_submit(fd, &j);
}

/* The debugfs folder of the device @fd is open on. */
static inline void debugfs_dir(int fd, char *buf, size_t size)
{
	struct stat st;

	fstat(fd, &st);
	snprintf(buf, size, "/sys/kernel/debug/dri/%u", minor(st.st_rdev));
}

/* Writes @value to the debugfs file @name of the device. */
static inline int debugfs_write(int fd, const char *name, const char *value)
{
	char path[128];
	FILE *f;
	int ok;

	debugfs_dir(fd, path, sizeof(path) - 32);
	strcat(path, "/");
	strcat(path, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ok = fputs(value, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

/* A number from the device's debugfs stats, or -1. */
static inline long long debugfs_stat(int fd, const char *key)
{
	char path[128], line[128];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f;

	debugfs_dir(fd, path, sizeof(path) - 32);
	strcat(path, "/stats");
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = atoll(line + n + 1);
	fclose(f);
	return v;
}

FIXTURE(dev) {
	int fd;
};

FIXTURE_SETUP(dev)
{
	self->fd = accel_open(0);
	ASSERT_LE(0, self->fd) TH_LOG("no xrt_accel device (is the module loaded?)");
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

#endif /* XRT_DRIVER_TEST_H */
