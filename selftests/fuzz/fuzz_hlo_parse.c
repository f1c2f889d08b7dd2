// SPDX-License-Identifier: MIT
/*
 * Fuzzes the HLO text reader: any text is rejected cleanly or reads into
 * a module whose printed form reads back and prints the same, and that
 * the verifier can judge without crashing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/ir.h>
#include <xrt/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xrt_module *m, *m2;
	char *t1, *t2;
	size_t n1, n2;
	xrt_status *st;

	st = xrt_hlo_parse(NULL, (const char *)data, size, &m);
	if (st) {
		if (m || xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	if (xrt_hlo_print(m, NULL, &t1, &n1) || xrt_hlo_parse(NULL, t1, n1, &m2) ||
	    xrt_hlo_print(m2, NULL, &t2, &n2) || n1 != n2 || memcmp(t1, t2, n1))
		abort();
	st = xrt_module_verify(m);
	if (st && xrt_status_code(st) != XRT_INVALID_ARGUMENT)
		abort();
	xrt_status_free(st);
	xrt_free(NULL, t1);
	xrt_free(NULL, t2);
	xrt_module_destroy(m);
	xrt_module_destroy(m2);
	return 0;
}
