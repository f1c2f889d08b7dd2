// SPDX-License-Identifier: MIT
/*
 * Fuzzes the engine: any bytes go through the validator; whatever it
 * accepts runs on buffers of exactly the declared slot sizes (so ASan
 * sees any access outside them), for a bounded number of steps since a
 * valid program may loop forever.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cstream/cs_builder.h"
#include "device/device_program.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_BYTES (64u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xrt_engine_cursor cur = { 0, 0, 0 };
	struct xdev_program prog;
	struct xrt_engine_ctx x;
	uint8_t **slots = NULL;
	void *copy, *ws = NULL, *shared = NULL;
	uint64_t total = 0;
	xrt_status *st;
	uint32_t i;
	double t0;
	int steps;

	/* The engine wants 8-byte aligned programs; the validator checks. */
	copy = aligned_alloc(64, (size + 64) & ~(size_t)63);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	/* The dump reads any bytes without fault, valid or not. */
	{
		static char text[8192];

		cs_dump(copy, size, text, sizeof(text));
	}
	st = xdev_program_load(&prog, NULL, copy, size);
	if (st) {
		if (xrt_status_code(st) != XRT_INVALID_ARGUMENT &&
		    xrt_status_code(st) != XRT_RESOURCE_EXHAUSTED)
			abort();
		xrt_status_free(st);
		free(copy);
		return 0;
	}
	for (i = 0; i < prog.prog.num_slots; i++)
		total += prog.prog.slots[i].size;
	total += prog.prog.thread_ws_size + prog.prog.shared_ws_size;
	if (total > MAX_BYTES)
		goto out;
	slots = calloc(prog.prog.num_slots + 1, sizeof(*slots));
	ws = malloc(prog.prog.thread_ws_size + 1);
	shared = malloc(prog.prog.shared_ws_size + 1);
	if (!slots || !ws || !shared)
		goto out;
	for (i = 0; i < prog.prog.num_slots; i++) {
		/* Exactly the declared size: ASan guards the end. */
		slots[i] = malloc(prog.prog.slots[i].size ? prog.prog.slots[i].size : 1);
		if (!slots[i])
			goto out;
		memset(slots[i], (int)(i * 37 + 1), prog.prog.slots[i].size);
	}
	x = (struct xrt_engine_ctx){ &prog.prog, slots, shared, 7 };
	/*
	 * The format bounds memory and the work of one item, not of a
	 * program (a stride-0 view can span 2^40 elements of one slot; the
	 * driver's job timeout answers that), so stepping goes an item at a
	 * time and stops after a second as well as after 2000 steps.
	 */
	t0 = now();
	for (steps = 0; steps < 2000 && now() - t0 < 1.0; steps++)
		if (xrt_engine_step(&x, &cur, 1, ws))
			break;
out:
	for (i = 0; slots && i < prog.prog.num_slots; i++)
		free(slots[i]);
	free(slots);
	free(ws);
	free(shared);
	xdev_program_release(&prog);
	free(copy);
	return 0;
}
