/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the engine selftests: build a program, load it through the
 * validator, run it over caller buffers in two schedules (sequential in
 * steps of one item, and every phase's items in reverse) and check the
 * schedules agree.  When XRT_TEST_ACCEL names an xrt_accel device (its
 * index; the VM stage sets it), every program also runs in the kernel
 * and must give the same bytes.
 */
#ifndef XRT_ENGINE_TEST_H
#define XRT_ENGINE_TEST_H

#include <stdlib.h>
#include <string.h>

#include "xrt_test.h"
#include "accel.h"

#include "cstream/cs_builder.h"
#include "device/device_program.h"
#include "device/host/host_device.h"
#include "engine_internal.h"

#define MAX_SLOTS 8

struct run {
	uint8_t *slot[MAX_SLOTS];
	size_t size[MAX_SLOTS];
	uint32_t n;
};

/* A deterministic pseudo-random fill. */
static inline void rand_fill(void *p, size_t n, uint32_t seed)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		b[i] = (uint8_t)(seed >> 24);
	}
}

static inline void *aligned_buf(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? n : 1))
		return NULL;
	memset(p, 0, n ? n : 1);
	return p;
}

/* Runs in steps of one item; returns the number of steps. */
static inline long run_sequential(const struct xrt_engine_prog *prog,
				  uint8_t *const *slots, void *ws, void *shared)
{
	struct xrt_engine_ctx x = { prog, slots, shared, 1234 };
	struct xrt_engine_cursor c = { 0, 0, 0 };
	long steps = 1;

	while (!xrt_engine_step(&x, &c, 1, ws))
		steps++;
	return steps;
}

/* Runs every phase's items from last to first, one at a time. */
static inline void run_reversed(const struct xrt_engine_prog *prog,
				uint8_t *const *slots, void *ws, void *shared)
{
	struct xrt_engine_ctx x = { prog, slots, shared, 1234 };
	uint32_t pc = 0, ph;

	while (pc < prog->num_commands) {
		for (ph = 0; ph < xrt_engine_phases(&x, pc); ph++) {
			uint64_t i = xrt_engine_items(&x, pc, ph);

			while (i--)
				xrt_engine_run_items(&x, pc, ph, i, 1, ws);
		}
		pc = xrt_engine_next(&x, pc);
	}
}

/* The kernel device to run programs on too: -1 for none, -2 if it is missing. */
static inline int test_accel_fd(void)
{
	const char *e = getenv("XRT_TEST_ACCEL");
	static int fd = -1;

	if (!e)
		return -1;
	if (fd < 0)
		fd = accel_open((unsigned int)atoi(e));
	return fd < 0 ? -2 : fd;
}

/* Runs the program in the kernel over @kin (input copies); compares with @r. */
#define RUN_IN_KERNEL(kprog, ksize, kin, r)                                   \
	do {                                                                  \
		int _fd = test_accel_fd();                                    \
		uint32_t _k;                                                  \
		if (_fd == -1)                                                \
			break;                                                \
		ASSERT_NE(-2, _fd) TH_LOG("XRT_TEST_ACCEL set, no device");   \
		ASSERT_EQ(0, accel_run(_fd, kprog, ksize, 1234, kin, (r)->size,\
				       (r)->n));                              \
		for (_k = 0; _k < (r)->n; _k++) {                             \
			EXPECT_EQ(0, memcmp(kin[_k], (r)->slot[_k],           \
					    (r)->size[_k]))                   \
				TH_LOG("slot %u differs in the kernel", _k);  \
		}                                                             \
	} while (0)

/*
 * Loads @b's program and runs it on @r's buffers twice, from the same
 * inputs; fails the test if the two schedules' outputs differ.
 */
#define RUN_PROGRAM(b, r)                                                     \
	do {                                                                  \
		struct xdev_program _p;                                         \
		uint8_t *_copy[MAX_SLOTS], *_kin[MAX_SLOTS];                  \
		void *_prog, *_ws, *_sh;                                      \
		size_t _size;                                                 \
		uint32_t _i;                                                  \
		ASSERT_OK(cs_finish((b), &_prog, &_size));                    \
		ASSERT_OK(xdev_program_load(&_p, NULL, _prog, _size));          \
		_ws = aligned_buf(_p.prog.thread_ws_size);                    \
		_sh = aligned_buf(_p.prog.shared_ws_size);                    \
		for (_i = 0; _i < (r)->n; _i++) {                             \
			_copy[_i] = aligned_buf((r)->size[_i]);               \
			memcpy(_copy[_i], (r)->slot[_i], (r)->size[_i]);      \
			_kin[_i] = aligned_buf((r)->size[_i]);                \
			memcpy(_kin[_i], (r)->slot[_i], (r)->size[_i]);       \
		}                                                             \
		run_sequential(&_p.prog, (r)->slot, _ws, _sh);                \
		RUN_IN_KERNEL(_prog, _size, _kin, r);                         \
		run_reversed(&_p.prog, _copy, _ws, _sh);                      \
		for (_i = 0; _i < (r)->n; _i++) {                             \
			EXPECT_EQ(0, memcmp(_copy[_i], (r)->slot[_i],         \
					    (r)->size[_i]))                   \
				TH_LOG("slot %u differs between schedules", _i); \
			free(_copy[_i]);                                      \
			free(_kin[_i]);                                       \
		}                                                             \
		free(_ws);                                                    \
		free(_sh);                                                    \
		xdev_program_release(&_p);                                      \
		xrt_free(NULL, _prog);                                        \
	} while (0)

/* Adds a buffer of @size bytes as the next slot of @b and @r. */
static inline uint32_t add_buf(struct cs_builder *b, struct run *r,
			       size_t size, uint32_t flags, uint32_t seed)
{
	uint32_t s = cs_add_slot(b, size, flags);

	r->slot[r->n] = aligned_buf(size);
	r->size[r->n] = size;
	if (seed)
		rand_fill(r->slot[r->n], size, seed);
	r->n++;
	return s;
}

/* The engine's vector builds: baseline (0) or AVX2 and AVX-512 (1). */
static inline void use_wide_vectors(int wide)
{
	xrt_engine_use_avx2 = wide;
	xrt_engine_use_avx512 = wide;
}

/* Can the engine's AVX-512 builds run here (as the host device decides)?  Leaves the baseline on. */
static inline int cpu_has_avx512(void)
{
	int has;

	host_detect_cpu();
	has = xrt_engine_use_avx512;
	use_wide_vectors(0);
	return has;
}

static inline void run_free(struct run *r)
{
	uint32_t i;

	for (i = 0; i < r->n; i++)
		free(r->slot[i]);
	r->n = 0;
}

#endif /* XRT_ENGINE_TEST_H */
