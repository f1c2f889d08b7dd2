// SPDX-License-Identifier: MIT
/*
 * rng-get-and-update-state(), delta=N: XLA's CPU backend keeps a random
 * state per program that each execution reads (u64[2]) and advances by
 * N, and its rng expander writes the old rng ops as this state fed to
 * a Philox generator spelled out in HLO.  Here a program is a function
 * of its arguments and the execution's seed, so the state is drawn from
 * the seed: rng(0, 2^64 - 1) of u64[2], its own stream per instruction.
 * Each execution and each such instruction gets a fresh state, as in
 * XLA; the numbers differ from XLA's, whose state is a counter no
 * module states.
 */
#include <stdio.h>
#include <string.h>

#include "core/mem.h"
#include "hlo_parse.h"

static uint32_t bounds(struct hp_emit *e, void *ctx)
{
	uint32_t *b = ctx;
	uint64_t hi = UINT64_MAX;
	uint8_t *d;

	b[0] = hp_emit_const(e, XRT_U64, 0, NULL, &d);
	b[1] = hp_emit_const(e, XRT_U64, 0, NULL, &d);
	if (d)
		memcpy(d, &hi, sizeof(hi));
	return 0;
}

int hlo_unrngstate(struct hp *p)
{
	struct ir_instr *in = &p->cur->instrs[p->cur->num_instrs - 1];
	const struct xrt_shape *s = &in->shape;
	struct ir_attr dist = { .key = IR_ATTR_DISTRIBUTION };
	struct hp_emit e = { .p = p, .what = "state" };
	uint32_t b[2], ignored;

	if (in->num_operands || xrt_shape_is_tuple(s) || s->dtype != XRT_U64 || s->rank != 1 ||
	    s->dims[0] != 2)
		return hp_fail(p, "%s: rng-get-and-update-state takes no operand and gives u64[2]",
			       in->name);
	snprintf(e.base, sizeof(e.base), "%.60s", in->name);
	if (hp_emit_twice(&e, bounds, b, &ignored) || hp_become(p, XRT_OP_RNG, b, 2))
		return -1;
	dist.str = xrt_mem_strdup(p->a, "rng_uniform");
	if (!dist.str)
		return hp_oom(p);
	return hp_put_attr(p, &p->cur->instrs[p->cur->num_instrs - 1], &dist);
}
