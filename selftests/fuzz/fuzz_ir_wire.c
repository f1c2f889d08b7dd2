// SPDX-License-Identifier: MIT
/*
 * Fuzzes the xrt.IrModule reader: any bytes are rejected cleanly or
 * read into a module that writes back to bytes that read to the same
 * module and that the verifier can judge without crashing; a valid one's
 * HLO text reads back and, read once, prints the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/ir.h>
#include <xrt/wire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A valid module's text reads back; the text is a fixed point after one
 * read (the reader takes some forms as XLA means them: a custom-call to
 * XLA's TopK is topk), so printing what it read prints the same again.
 */
static void check_text(const xrt_module *m)
{
	xrt_module *m2, *m3;
	char *t1, *t2, *t3;
	size_t n1, n2, n3;

	if (xrt_hlo_print(m, NULL, &t1, &n1) || xrt_hlo_parse(NULL, t1, n1, &m2) ||
	    xrt_hlo_print(m2, NULL, &t2, &n2) || xrt_hlo_parse(NULL, t2, n2, &m3) ||
	    xrt_hlo_print(m3, NULL, &t3, &n3) || n2 != n3 || memcmp(t2, t3, n2))
		abort();
	xrt_free(NULL, t1);
	xrt_free(NULL, t2);
	xrt_free(NULL, t3);
	xrt_module_destroy(m2);
	xrt_module_destroy(m3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xrt_module *m, *m2;
	void *b1, *b2;
	size_t n1, n2;
	xrt_status *st;

	st = xrt_module_deserialize(NULL, data, size, &m);
	if (st) {
		if (m || xrt_status_code(st) != XRT_INVALID_ARGUMENT)
			abort();
		xrt_status_free(st);
		return 0;
	}
	if (xrt_module_serialize(m, NULL, &b1, &n1) ||
	    xrt_module_deserialize(NULL, b1, n1, &m2) ||
	    xrt_module_serialize(m2, NULL, &b2, &n2) || n1 != n2 || memcmp(b1, b2, n1))
		abort();
	st = xrt_module_verify(m);
	if (st && xrt_status_code(st) != XRT_INVALID_ARGUMENT)
		abort();
	if (!st)
		check_text(m);
	xrt_status_free(st);
	xrt_free(NULL, b1);
	xrt_free(NULL, b2);
	xrt_module_destroy(m);
	xrt_module_destroy(m2);
	return 0;
}
