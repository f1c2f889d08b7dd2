// SPDX-License-Identifier: MIT
/*
 * Fuzzes xrt-run's .npy reader: any bytes are refused with
 * INVALID_ARGUMENT or read into a literal; what is read writes back as a
 * .npy that reads again into an equal literal.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xrt_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static char *slurp(size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 16);
	size_t n;

	if (!f || !buf)
		abort();
	n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	*len = n;
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xrt_literal *lit = NULL, *again = NULL;
	xrt_status *st;
	size_t len = 0;
	char *bytes;

	if (!*path) {
		int fd;

		strcpy(path, "/tmp/fuzz_npy_XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	if (!run_is_npy((const char *)data, size))
		return 0;
	st = run_npy_read("input", (const char *)data, size, &lit);
	if (st) {
		if (xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	st = run_npy_write(path, lit);
	if (st)
		abort();
	bytes = slurp(&len);
	if (!bytes)
		abort();
	st = run_npy_read(path, bytes, len, &again);
	if (st || !xrt_literal_equal(lit, again, NULL, 0))
		abort();
	free(bytes);
	xrt_literal_destroy(again);
	xrt_literal_destroy(lit);
	return 0;
}
