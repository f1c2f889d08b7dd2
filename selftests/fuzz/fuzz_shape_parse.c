// SPDX-License-Identifier: MIT
/*
 * Fuzzes the HLO shape parser: any text must be rejected cleanly or give
 * a shape whose printed form parses back to an equal shape, and which
 * survives the wire format.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/shape.h>
#include <xrt/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xrt_shape s, again, wire;
	char *text = malloc(size + 1), *printed;
	void *bytes;
	size_t n;
	xrt_status *st;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	st = xrt_shape_parse(&s, NULL, text);
	free(text);
	if (st) {
		if (xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	n = xrt_shape_format(&s, NULL, 0) + 1;
	printed = malloc(n);
	if (!printed)
		abort();
	xrt_shape_format(&s, printed, n);
	if (xrt_shape_parse(&again, NULL, printed) || !xrt_shape_equal(&s, &again))
		abort();
	if (xrt_shape_serialize(&s, NULL, &bytes, &n) ||
	    xrt_shape_deserialize(&wire, NULL, bytes, n) ||
	    !xrt_shape_equal(&s, &wire))
		abort();
	xrt_free(NULL, bytes);
	free(printed);
	xrt_shape_deinit(&s);
	xrt_shape_deinit(&again);
	xrt_shape_deinit(&wire);
	return 0;
}
