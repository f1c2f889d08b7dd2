// SPDX-License-Identifier: MIT
/*
 * Fuzzes the xla.LiteralProto reader: any bytes are refused with
 * INVALID_ARGUMENT, or read into a literal that our own wire form
 * carries unchanged.
 */
#include <stdint.h>
#include <stdlib.h>

#include <xrt/literal.h>
#include <xrt/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xrt_literal *lit, *back;
	xrt_status *st = xrt_literal_from_xla_proto(NULL, data, size, &lit);
	size_t n;
	void *b;

	if (st) {
		if (lit || xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	if (xrt_literal_serialize(lit, NULL, &b, &n) ||
	    xrt_literal_deserialize(NULL, b, n, &back) || !xrt_literal_equal(lit, back, NULL, 0))
		abort();
	xrt_free(NULL, b);
	xrt_literal_destroy(lit);
	xrt_literal_destroy(back);
	return 0;
}
