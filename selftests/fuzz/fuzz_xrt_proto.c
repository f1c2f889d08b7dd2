// SPDX-License-Identifier: MIT
/*
 * Fuzzes the XRT API's message entry points on the host device.  The
 * first byte picks one, the rest is the message:
 *   0  xrt_compile_proto(), and the program shape of what compiles (not
 *      run: a fuzzed while loop may never end; the engine has its own
 *      fuzzer)
 *   1  xrt_allocate_proto(); what allocates reads back, as an xrt.Literal
 *      and as an xla.LiteralProto, each a message that must allocate again
 *      to the same bytes
 *   2  xrt_make_tuple_proto() over three allocations (an array, a scalar,
 *      a tuple)
 *   3  xrt_execute_proto() of a fixed program with the message as config
 *   4  xrt_execute_proto_handles() likewise (a tuple result may explode)
 * Every call succeeds or fails with a status; nothing may leak (the
 * session is released and destroyed per input, LeakSanitizer watches).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <xrt/xrt.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char affine[] =
	"HloModule affine\nENTRY e {\n  x = f32[2,3] parameter(0)\n  k = s32[] parameter(1)\n"
	"  kf = f32[] convert(k)\n  kb = f32[2,3] broadcast(kf), dimensions={}\n"
	"  y = f32[2,3] multiply(x, kb)\n  ROOT r = (f32[2,3], s32[]) tuple(y, k)\n}\n";

static void ok_or_free(xrt_status *st)
{
	xrt_status_free(st);
}

/* The program shape of compilation @c, and its result's size. */
static void inspect(xrt_session *s, xrt_handle c)
{
	struct xrt_program_shape ps;
	xrt_status *st = xrt_compilation_shape(s, c, NULL, &ps);

	if (st) {
		xrt_status_free(st);
		return;
	}
	if (xrt_shape_byte_size(&ps.result) == UINT64_MAX)
		abort();
	xrt_program_shape_deinit(&ps);
}

/* Allocates @len bytes of a message as Allocation field @field; must succeed. */
static xrt_handle allocate_as(xrt_session *s, uint8_t field, const void *bytes, size_t len)
{
	uint8_t *msg = malloc(len + 16);
	size_t k = 0, v = len;
	xrt_handle h;

	if (!msg)
		abort();
	msg[k++] = (uint8_t)(field << 3 | 2);	/* length-delimited */
	do {
		msg[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	memcpy(msg + k, bytes, len);
	if (xrt_allocate_proto(s, msg, k + len, &h))
		abort();	/* our own message must allocate */
	free(msg);
	return h;
}

/*
 * What allocates reads back as an xrt.Literal (field 3 of an Allocation)
 * and as an xla.LiteralProto (field 2); each allocates again, and reads
 * back the same xrt.Literal bytes.
 */
static void allocate_round_trip(xrt_session *s, const uint8_t *data, size_t size)
{
	void *bytes = NULL, *again_bytes = NULL, *xla = NULL;
	size_t len = 0, again_len = 0, xla_len = 0;
	xrt_handle h, again;
	xrt_status *st = xrt_allocate_proto(s, data, size, &h);
	int pass;

	if (!st)
		st = xrt_read_proto(s, h, false, NULL, &bytes, &len);
	if (!st)
		st = xrt_read_xla_proto(s, h, false, NULL, &xla, &xla_len);
	if (st) {
		xrt_status_free(st);
		xrt_free(NULL, bytes);
		return;
	}
	for (pass = 0; pass < 2; pass++) {
		again = pass ? allocate_as(s, 2, xla, xla_len) : allocate_as(s, 3, bytes, len);
		st = xrt_read_proto(s, again, true, NULL, &again_bytes, &again_len);
		if (st || again_len != len || memcmp(bytes, again_bytes, len))
			abort();	/* and read back the same */
		xrt_free(NULL, again_bytes);
	}
	xrt_free(NULL, bytes);
	xrt_free(NULL, xla);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const float x[6] = { 1, 2, 3, 4, 5, 6 };
	static const int32_t k = 3;
	xrt_handle c, in[3], out, *outs = NULL;
	uint32_t n = 0;
	struct xrt_shape sx, sk;
	xrt_session *s = NULL;
	xrt_status *st;

	if (!size)
		return 0;
	st = xrt_session_create(NULL, NULL, &s);
	if (st)
		abort();
	switch (data[0] % 5) {
	case 0:
		st = xrt_compile_proto(s, data + 1, size - 1, &c);
		if (!st)
			inspect(s, c);
		ok_or_free(st);
		break;
	case 1:
		allocate_round_trip(s, data + 1, size - 1);
		break;
	default:
		if (xrt_shape_init_array(&sx, XRT_F32, 2, (int64_t[]){ 2, 3 }) ||
		    xrt_shape_init_array(&sk, XRT_S32, 0, NULL) ||
		    xrt_allocate_data(s, &sx, x, sizeof(x), &in[0]) ||
		    xrt_allocate_data(s, &sk, &k, sizeof(k), &in[1]) ||
		    xrt_compile_hlo(s, affine, strlen(affine), &c))
			abort();
		st = xrt_execute(s, c, in, 2, NULL, &in[2]);
		if (st)
			abort();
		xrt_shape_deinit(&sx);
		xrt_shape_deinit(&sk);
		if (data[0] % 5 == 2)
			st = xrt_make_tuple_proto(s, data + 1, size - 1, in, 3, &out);
		else if (data[0] % 5 == 3)
			st = xrt_execute_proto(s, c, in, 2, data + 1, size - 1, &out);
		else
			st = xrt_execute_proto_handles(s, c, in, 2, data + 1, size - 1, NULL,
						       &outs, &n);
		if (st && (outs || n))
			abort();	/* nothing is returned on failure */
		xrt_free(NULL, outs);
		ok_or_free(st);
		break;
	}
	xrt_release_all_allocations(s);
	xrt_session_destroy(s);
	return 0;
}
