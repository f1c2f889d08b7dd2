// SPDX-License-Identifier: MIT
/*
 * Fuzzes xrt.Literal deserialization: any bytes must be rejected cleanly
 * or give a literal that serializes back to bytes that read as an equal
 * literal, and prints without fault.
 */
#include <stdint.h>
#include <stdlib.h>

#include <xrt/literal.h>
#include <xrt/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xrt_literal *lit = NULL, *back = NULL;
	void *bytes = NULL;
	char text[256];
	size_t n;
	xrt_status *st;

	st = xrt_literal_deserialize(NULL, data, size, &lit);
	if (st) {
		if (lit || xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	xrt_literal_format(lit, text, sizeof(text));
	st = xrt_literal_serialize(lit, NULL, &bytes, &n);
	if (st)
		abort();
	st = xrt_literal_deserialize(NULL, bytes, n, &back);
	if (st || !xrt_literal_equal(lit, back, NULL, 0))
		abort();
	xrt_free(NULL, bytes);
	xrt_literal_destroy(back);
	xrt_literal_destroy(lit);
	return 0;
}
