// SPDX-License-Identifier: MIT
/*
 * The XRT API round trip: open a session, compile an HLO module once,
 * put two arrays on the device, run the program, read the result back.
 *
 *   cc xrt_round_trip.c $(pkg-config --cflags --libs libxrt)
 */
#include <stdio.h>
#include <string.h>

#include <xrt/xrt.h>

static const char module[] =
	"HloModule axpy\n"
	"ENTRY main {\n"
	"  a = f32[] parameter(0)\n"
	"  x = f32[4] parameter(1)\n"
	"  y = f32[4] parameter(2)\n"
	"  ab = f32[4] broadcast(a), dimensions={}\n"
	"  ax = f32[4] multiply(ab, x)\n"
	"  ROOT r = f32[4] add(ax, y)\n"
	"}\n";

/* Prints and frees a failed status; true when there was one. */
static int failed(xrt_status *st, const char *what)
{
	if (!st)
		return 0;
	fprintf(stderr, "%s: %s\n", what, xrt_status_message(st));
	xrt_status_free(st);
	return 1;
}

int main(void)
{
	const float a = 2, x[4] = { 1, 2, 3, 4 }, y[4] = { 10, 20, 30, 40 };
	struct xrt_shape scalar, vec;
	xrt_handle prog, args[3], result;
	xrt_session *s;
	int64_t four = 4;
	float out[4];
	int i;

	if (failed(xrt_session_create(NULL, NULL, &s), "session"))
		return 1;
	if (failed(xrt_compile_hlo(s, module, strlen(module), &prog), "compile") ||
	    failed(xrt_shape_init_array(&scalar, XRT_F32, 0, NULL), "shape") ||
	    failed(xrt_shape_init_array(&vec, XRT_F32, 1, &four), "shape") ||
	    failed(xrt_allocate_data(s, &scalar, &a, sizeof(a), &args[0]), "allocate") ||
	    failed(xrt_allocate_data(s, &vec, x, sizeof(x), &args[1]), "allocate") ||
	    failed(xrt_allocate_data(s, &vec, y, sizeof(y), &args[2]), "allocate") ||
	    failed(xrt_execute(s, prog, args, 3, NULL, &result), "execute") ||
	    failed(xrt_read_data(s, result, true, out, sizeof(out)), "read")) {
		xrt_session_destroy(s);
		return 1;
	}
	printf("%s: 2 * x + y =", xrt_session_device(s));
	for (i = 0; i < 4; i++)
		printf(" %g", out[i]);
	printf("\n");
	xrt_session_destroy(s);	/* releases the inputs and the program */
	for (i = 0; i < 4; i++) {
		if (out[i] != a * x[i] + y[i])
			return 1;
	}
	return 0;
}
