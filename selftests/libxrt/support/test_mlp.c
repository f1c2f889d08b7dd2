// SPDX-License-Identifier: MIT
/*
 * A small model for the replicated tests, in one process and across
 * processes: a data-parallel training step, and its pseudo-random data.
 */
#include <stdio.h>

#include "test_collectives.h"
#include "test_mlp.h"

/*
 * A data-parallel training step, ten times in a while loop: an MLP
 * (8 -> 16 relu -> 4, squared error) whose gradients, each replica's on
 * its quarter of the batch, are all-reduced before the update.  The
 * same text with one replica takes the whole batch.
 */
void test_mlp_text(char *buf, size_t size, int replicas, int b, int total)
{
	char st[256];

	snprintf(st, sizeof(st), "(s32[], f32[8,16], f32[16], f32[16,4], f32[4], f32[%d,8], "
		 "f32[%d,4])", b, b);
	snprintf(buf, size,
		 "HloModule mlp, replica_count=%1$d\n" RED("f32", "add")
		 "cond { s = %2$s parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
		 " n = s32[] constant(10)\n ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
		 "body { s = %2$s parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
		 " w1 = f32[8,16] get-tuple-element(s), index=1\n"
		 " b1 = f32[16] get-tuple-element(s), index=2\n"
		 " w2 = f32[16,4] get-tuple-element(s), index=3\n"
		 " b2 = f32[4] get-tuple-element(s), index=4\n"
		 " x = f32[%3$d,8] get-tuple-element(s), index=5\n"
		 " y = f32[%3$d,4] get-tuple-element(s), index=6\n"
		 " xw = f32[%3$d,16] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		 " bb1 = f32[%3$d,16] broadcast(b1), dimensions={1}\n z = f32[%3$d,16] add(xw, bb1)\n"
		 " zero = f32[] constant(0)\n zb = f32[%3$d,16] broadcast(zero), dimensions={}\n"
		 " h = f32[%3$d,16] maximum(z, zb)\n"
		 " hw = f32[%3$d,4] dot(h, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
		 " bb2 = f32[%3$d,4] broadcast(b2), dimensions={1}\n o = f32[%3$d,4] add(hw, bb2)\n"
		 " d = f32[%3$d,4] subtract(o, y)\n k = f32[] constant(%4$.9g)\n"
		 " kb = f32[%3$d,4] broadcast(k), dimensions={}\n dout = f32[%3$d,4] multiply(d, kb)\n"
		 " dw2 = f32[16,4] dot(h, dout), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
		 " db2 = f32[4] reduce(dout, zero), dimensions={0}, to_apply=f\n"
		 " dh0 = f32[%3$d,16] dot(dout, w2), lhs_contracting_dims={1}, "
		 "rhs_contracting_dims={1}\n"
		 " pos = pred[%3$d,16] compare(z, zb), direction=GT\n"
		 " dh = f32[%3$d,16] select(pos, dh0, zb)\n"
		 " dw1 = f32[8,16] dot(x, dh), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
		 " db1 = f32[16] reduce(dh, zero), dimensions={0}, to_apply=f\n"
		 " g = (f32[8,16], f32[16], f32[16,4], f32[4]) all-reduce(dw1, db1, dw2, db2), "
		 "replica_groups={}, to_apply=f\n"
		 " g1 = f32[8,16] get-tuple-element(g), index=0\n"
		 " g2 = f32[16] get-tuple-element(g), index=1\n"
		 " g3 = f32[16,4] get-tuple-element(g), index=2\n"
		 " g4 = f32[4] get-tuple-element(g), index=3\n lr = f32[] constant(0.05)\n"
		 " l1 = f32[8,16] broadcast(lr), dimensions={}\n s1 = f32[8,16] multiply(l1, g1)\n"
		 " w1n = f32[8,16] subtract(w1, s1)\n l2 = f32[16] broadcast(lr), dimensions={}\n"
		 " s2 = f32[16] multiply(l2, g2)\n b1n = f32[16] subtract(b1, s2)\n"
		 " l3 = f32[16,4] broadcast(lr), dimensions={}\n s3 = f32[16,4] multiply(l3, g3)\n"
		 " w2n = f32[16,4] subtract(w2, s3)\n l4 = f32[4] broadcast(lr), dimensions={}\n"
		 " s4 = f32[4] multiply(l4, g4)\n b2n = f32[4] subtract(b2, s4)\n"
		 " one = s32[] constant(1)\n i1 = s32[] add(i, one)\n"
		 " ROOT t = %2$s tuple(i1, w1n, b1n, w2n, b2n, x, y)\n}\n"
		 "ENTRY e {\n w1 = f32[8,16] parameter(0)\n b1 = f32[16] parameter(1)\n"
		 " w2 = f32[16,4] parameter(2)\n b2 = f32[4] parameter(3)\n"
		 " x = f32[%3$d,8] parameter(4)\n y = f32[%3$d,4] parameter(5)\n"
		 " i = s32[] constant(0)\n init = %2$s tuple(i, w1, b1, w2, b2, x, y)\n"
		 " w = %2$s while(init), condition=cond, body=body\n"
		 " o1 = f32[8,16] get-tuple-element(w), index=1\n o2 = f32[16] get-tuple-element(w), "
		 "index=2\n o3 = f32[16,4] get-tuple-element(w), index=3\n"
		 " o4 = f32[4] get-tuple-element(w), index=4\n"
		 " ROOT r = (f32[8,16], f32[16], f32[16,4], f32[4]) tuple(o1, o2, o3, o4)\n}\n",
		 replicas, st, b, 2.0 / total);
}

xrt_literal *test_randoms(uint32_t rank, const int64_t *dims, uint32_t seed, uint64_t skip)
{
	xrt_literal *lit = NULL;
	struct xrt_shape sh;
	uint64_t k, n;
	float *p;

	xrt_status_free(xrt_shape_init_array(&sh, XRT_F32, rank, dims));
	xrt_status_free(xrt_literal_create(NULL, &sh, &lit));
	xrt_shape_deinit(&sh);
	if (!lit)
		return NULL;
	p = xrt_literal_mutable_data(lit);
	n = xrt_shape_element_count(xrt_literal_shape(lit));
	for (k = 0; k < skip; k++)
		seed = seed * 1664525u + 1013904223u;
	for (k = 0; k < n; k++) {
		seed = seed * 1664525u + 1013904223u;
		p[k] = (float)(seed >> 8) * 0x1p-23f - 1.0f;
	}
	return lit;
}
