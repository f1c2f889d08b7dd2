// SPDX-License-Identifier: MIT
/*
 * Random numbers, deterministic for a seed.  Philox4x32-10 and
 * Threefry2x32-20 (Salmon et al., "Parallel random numbers: as easy as
 * 1, 2, 3", 2011) are written out here, on their own, and checked
 * against the published known-answer vectors.  Documentation/
 * evaluator.rst says how their words become values.
 */
#include <math.h>
#include <string.h>

#include "eval/eval.h"

void ev_philox4x32(const uint32_t key[2], const uint32_t ctr[4], uint32_t out[4])
{
	uint32_t k0 = key[0], k1 = key[1], c[4] = { ctr[0], ctr[1], ctr[2], ctr[3] };
	int round;

	for (round = 0; round < 10; round++) {
		uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
		uint32_t n[4] = { (uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
				  (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0 };

		c[0] = n[0];
		c[1] = n[1];
		c[2] = n[2];
		c[3] = n[3];
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
	out[0] = c[0];
	out[1] = c[1];
	out[2] = c[2];
	out[3] = c[3];
}

static uint32_t rotl32(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

void ev_threefry2x32(const uint32_t key[2], const uint32_t ctr[2], uint32_t out[2])
{
	static const int rot[8] = { 13, 15, 26, 6, 17, 29, 16, 24 };
	uint32_t ks[3] = { key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1] };
	uint32_t x0 = ctr[0] + ks[0], x1 = ctr[1] + ks[1];
	int i;

	for (i = 0; i < 20; i++) {
		x0 += x1;
		x1 = rotl32(x1, rot[i % 8]) ^ x0;
		if (i % 4 == 3) {
			uint32_t s = (uint32_t)(i + 1) / 4;

			x0 += ks[s % 3];
			x1 += ks[(s + 1) % 3] + s;
		}
	}
	out[0] = x0;
	out[1] = x1;
}

/* Uniform in [a, b): a + (b - a) * u, u from 24 or 53 random bits. */
static struct ev_scalar uniform(enum xrt_dtype t, struct ev_scalar a, struct ev_scalar b,
				const uint32_t w[4])
{
	struct ev_scalar r = { { 0 }, 0 };
	uint64_t bits = (uint64_t)w[1] << 32 | w[0];

	if (xrt_dtype_is_float(t)) {
		double u = t == XRT_F64 ? (double)(bits >> 11) * 0x1p-53 :
					  (double)(w[0] >> 8) * 0x1p-24;

		r.f = ev_round(t, a.f + (b.f - a.f) * u);
		if (!(r.f < b.f))	/* rounded up to b: a stays inside */
			r.f = a.f;
		return r;
	}
	/* Integers: a + bits mod (b - a); the modulo bias is accepted. */
	if (b.s <= a.s && xrt_dtype_is_signed(t))
		return a;
	if (b.u <= a.u && !xrt_dtype_is_signed(t))
		return a;
	return ev_wrap(t, a.u + bits % (b.u - a.u));
}

/* Normal with mean a and deviation b, by Box-Muller. */
static struct ev_scalar normal(enum xrt_dtype t, struct ev_scalar a, struct ev_scalar b,
			       const uint32_t w[4])
{
	double u1 = ((double)(((uint64_t)w[1] << 32 | w[0]) >> 11) + 1) * 0x1p-53;
	double u2 = (double)(((uint64_t)w[3] << 32 | w[2]) >> 11) * 0x1p-53;
	struct ev_scalar r = { { 0 }, 0 };

	r.f = ev_round(t, a.f + b.f * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
	return r;
}

static struct ev_val *rng(struct ev *ev, struct ev_val *const *ops)
{
	struct ev_val *r = ev_new(ev, &ev->in->shape);
	uint32_t key[2] = { (uint32_t)ev->seed, (uint32_t)(ev->seed >> 32) }, w[4];
	const char *dist = ev_word(ev, IR_ATTR_DISTRIBUTION);
	bool is_normal = dist && !strcmp(dist, "rng_normal");
	uint64_t call = ev->rng_count++;
	int64_t k;

	for (k = 0; r && k < r->n; k++) {
		uint32_t ctr[4] = { (uint32_t)k, (uint32_t)((uint64_t)k >> 32), (uint32_t)call,
				    (uint32_t)(call >> 32) };

		ev_philox4x32(key, ctr, w);
		r->e[k] = is_normal ? normal(r->shape.dtype, ops[0]->e[0], ops[1]->e[0], w) :
				      uniform(r->shape.dtype, ops[0]->e[0], ops[1]->e[0], w);
	}
	return r;
}

/* The next 32 random bits of a bit generator, refilling from blocks. */
struct bitgen {
	bool philox;
	uint32_t key[2], ctr[4], buf[4];
	int have, next;
	uint64_t blocks;
};

static uint32_t next_word(struct bitgen *g)
{
	if (g->next == g->have) {
		uint64_t c;

		if (g->philox) {
			ev_philox4x32(g->key, g->ctr, g->buf);
			g->have = 4;
		} else {
			ev_threefry2x32(g->key, g->ctr, g->buf);
			g->have = 2;
		}
		/* The counter is one 128-bit (philox) or 64-bit number, low word first. */
		c = ((uint64_t)g->ctr[1] << 32 | g->ctr[0]) + 1;
		g->ctr[0] = (uint32_t)c;
		g->ctr[1] = (uint32_t)(c >> 32);
		if (!c && g->philox) {
			c = ((uint64_t)g->ctr[3] << 32 | g->ctr[2]) + 1;
			g->ctr[2] = (uint32_t)c;
			g->ctr[3] = (uint32_t)(c >> 32);
		}
		g->next = 0;
		g->blocks++;
	}
	return g->buf[g->next++];
}

/*
 * State u64[n]: state[0] is the key; state[1] (and state[2] for Philox)
 * the counter, a 128-bit Philox counter of a two-word state taking the
 * key as its high half (XLA's CPU backend, checked on jaxlib 0.10.2).
 * Every output element takes one fresh word (two for 64 bits, low
 * first); the new state is the advanced counter.
 */
static struct ev_val *rng_bit_generator(struct ev *ev, struct ev_val *const *ops)
{
	const char *alg = ev_word(ev, IR_ATTR_ALGORITHM);
	struct ev_val *r = ev_new(ev, &ev->in->shape), *st, *bits;
	const struct ev_val *s = ops[0];
	struct bitgen g = { 0 };
	int64_t k;

	if (!r)
		return NULL;
	st = r->elems[0];
	bits = r->elems[1];
	g.philox = !alg || strcmp(alg, "rng_three_fry");
	g.key[0] = (uint32_t)s->e[0].u;
	g.key[1] = (uint32_t)(s->e[0].u >> 32);
	if (s->n > 1) {
		g.ctr[0] = (uint32_t)s->e[1].u;
		g.ctr[1] = (uint32_t)(s->e[1].u >> 32);
	}
	if (s->n > 2 && g.philox) {
		g.ctr[2] = (uint32_t)s->e[2].u;
		g.ctr[3] = (uint32_t)(s->e[2].u >> 32);
	} else if (s->n == 2 && g.philox) {	/* XLA's: the key is the counter's high half */
		g.ctr[2] = g.key[0];
		g.ctr[3] = g.key[1];
	}
	for (k = 0; k < bits->n; k++) {
		uint64_t v = next_word(&g);

		if (xrt_dtype_size(bits->shape.dtype) == 8)
			v |= (uint64_t)next_word(&g) << 32;
		bits->e[k] = ev_wrap(bits->shape.dtype, v);
	}
	for (k = 0; k < s->n; k++)
		st->e[k] = s->e[k];
	if (s->n > 1)
		st->e[1].u = (uint64_t)g.ctr[1] << 32 | g.ctr[0];
	if (s->n > 2 && g.philox)
		st->e[2].u = (uint64_t)g.ctr[3] << 32 | g.ctr[2];
	return r;
}

struct ev_val *ev_random(struct ev *ev, struct ev_val *const *ops)
{
	return ev->in->op == XRT_OP_RNG ? rng(ev, ops) : rng_bit_generator(ev, ops);
}
