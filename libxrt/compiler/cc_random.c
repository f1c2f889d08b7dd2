// SPDX-License-Identifier: MIT
/*
 * rng: the RNG command, whose element i is Philox-4x32-10 of counter
 * (i, stream) keyed by the execution's seed.  Streams number the rng
 * instructions in the order they run, as the reference evaluator counts
 * its calls, so both give the same numbers.  An rng in a computation a
 * while or conditional runs (a loop body, a branch) may run many times
 * or not at all: then every rng of the program reads its stream from a
 * u64 counter in the arena (STREAM_AT), zeroed at the start and counted
 * up after each draw, as the evaluator counts.  Constant float bounds
 * go into the command; other bounds apply to raw numbers in a kernel.
 */
#include <math.h>
#include <string.h>

#include "cc.h"

/* The constant scalar @v as a double, if it is a constant float. */
static bool const_float(struct cc *cc, uint32_t v, double *f)
{
	const void *p = cc_const_elem(cc, v);
	enum xrt_dtype t = cc->vals[v].buf.dtype;
	uint16_t h;
	float x;

	if (!p || !xrt_dtype_is_float(t))
		return false;
	if (t == XRT_F64) {
		memcpy(f, p, 8);
	} else if (t == XRT_F32) {
		memcpy(&x, p, 4);
		*f = x;
	} else {
		memcpy(&h, p, 2);
		*f = t == XRT_F16 ? xrt_f16_to_f32(h) : xrt_bf16_to_f32(h);
	}
	return true;
}

static bool has_rng(const struct ir_comp *f)
{
	uint32_t i;

	for (i = 0; i < f->num_instrs; i++)
		if (f->instrs[i].op == XRT_OP_RNG)
			return true;
	return false;
}

/*
 * Whether a computation that may run many times or not at all draws:
 * one a while or conditional calls (calls are inlined by now, so every
 * other computation holding an rng is applied nowhere or is dead).
 */
static bool rng_in_control(const xrt_module *m)
{
	static const enum ir_attr_key keys[] = { IR_ATTR_CONDITION, IR_ATTR_BODY,
		IR_ATTR_TRUE_COMPUTATION, IR_ATTR_FALSE_COMPUTATION, IR_ATTR_BRANCH_COMPUTATIONS };
	uint32_t c, i, k, j;

	for (c = 0; c < m->num_comps; c++) {
		for (i = 0; i < m->comps[c].num_instrs; i++) {
			const struct ir_instr *in = &m->comps[c].instrs[i];

			for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				const struct ir_attr *a = ir_instr_attr(in, keys[k]);

				for (j = 0; a && j < a->n; j++)
					if (has_rng(&m->comps[a->ints[j]]))
						return true;
			}
		}
	}
	return false;
}

void cc_rng_counter_init(struct cc *cc)
{
	uint32_t v;

	if (!rng_in_control(cc->m))
		return;
	v = cc_new_val(cc);
	if (cc->err || cc_alloc(cc, v, XRT_U64, 0, NULL))
		return;
	cc_fill_value(cc, &cc->vals[v].buf, &(uint64_t){ 0 });
	cc->rng_counter = v + 1;
}

/* An RNG command of stream @stream, or of the run-time counter's. */
static void draw(struct cc *cc, uint32_t distribution, uint64_t stream,
		 const struct xrt_cs_view *dst, double p0, double p1)
{
	const struct cc_buf *n;
	struct xrt_cs_scalar at;

	if (!cc->rng_counter) {
		cs_rng(&cc->b, distribution, stream, dst, p0, p1);
		return;
	}
	n = &cc->vals[cc->rng_counter - 1].buf;
	at = cc_scalar_at(n, 0, XRT_CS_U64);
	cs_rng_at(&cc->b, distribution, &at, dst, p0, p1);
	cc_emit_increment(cc, n);
}

void cc_lower_rng(struct cc *cc, uint32_t i)
{
	const struct ir_instr *in = &cc->c->instrs[i];
	const struct ir_attr *dist = ir_instr_attr(in, IR_ATTR_DISTRIBUTION);
	bool normal = dist && !strcmp(dist->str, "rng_normal");
	enum xrt_dtype t = in->shape.dtype, rt;
	uint32_t v = cc_iv(cc, i), raw, a = cc_opnd(cc, in, 0), b = cc_opnd(cc, in, 1);
	uint64_t stream = cc->rng_streams++;
	struct xrt_cs_view dst;
	double fa, fb;

	if (cc_alloc(cc, v, t, in->shape.rank, in->shape.dims))
		return;
	dst = cc_csview(&cc->vals[v].buf);
	/*
	 * Constant bounds the RNG command takes go into it.  The verifier has
	 * refused bad constants; folded ones (say, a negated constant) that
	 * the command would refuse go the run-time way, as the evaluator
	 * defines it.
	 */
	if (const_float(cc, a, &fa) && const_float(cc, b, &fb) && isfinite(fa) && isfinite(fb) &&
	    (normal ? fb >= 0 : fa < fb)) {
		draw(cc, normal ? XRT_CS_RNG_NORMAL : XRT_CS_RNG_UNIFORM, stream, &dst, fa, fb);
		return;
	}
	/* raw numbers (u in [0, 1), z, or bits), then the bounds applied */
	rt = !xrt_dtype_is_float(t) ? XRT_U64 : normal || t == XRT_F64 ? XRT_F64 : XRT_F32;
	raw = cc_new_val(cc);
	if (cc_alloc(cc, raw, rt, in->shape.rank, in->shape.dims))
		return;
	dst = cc_csview(&cc->vals[raw].buf);
	draw(cc, rt == XRT_U64 ? XRT_CS_RNG_BITS : normal ? XRT_CS_RNG_NORMAL :
	     XRT_CS_RNG_UNIFORM, stream, &dst, 0, 1);
	cc_emit_rng_bounds(cc, &cc->vals[v].buf, &cc->vals[raw].buf, &cc->vals[a].buf,
			   &cc->vals[b].buf, normal);
	cc_release(cc, raw);
}
