// SPDX-License-Identifier: MIT
/*
 * MurmurHash3 x64 128 (Austin Appleby's public-domain algorithm),
 * written for libxrt: blocks of 16 bytes mixed into two lanes, the tail
 * folded in, and a final avalanche of each lane.
 */
#include <string.h>

#include "core/fingerprint.h"

static uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static uint64_t fmix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

void xrt_fingerprint128(const void *data, size_t len, uint64_t out[2])
{
	const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
	const uint8_t *p = data;
	uint64_t h1 = 0, h2 = 0, k1, k2;
	size_t i, blocks = len / 16;
	const uint8_t *tail;

	for (i = 0; i < blocks; i++) {
		memcpy(&k1, p + 16 * i, 8);
		memcpy(&k2, p + 16 * i + 8, 8);
		k1 *= c1;
		k1 = rotl(k1, 31);
		k1 *= c2;
		h1 ^= k1;
		h1 = rotl(h1, 27);
		h1 += h2;
		h1 = h1 * 5 + 0x52dce729;
		k2 *= c2;
		k2 = rotl(k2, 33);
		k2 *= c1;
		h2 ^= k2;
		h2 = rotl(h2, 31);
		h2 += h1;
		h2 = h2 * 5 + 0x38495ab5;
	}
	tail = p + 16 * blocks;
	k1 = k2 = 0;
	for (i = len & 15; i > 8; i--)
		k2 ^= (uint64_t)tail[i - 1] << (8 * (i - 9));
	if ((len & 15) > 8) {
		k2 *= c2;
		k2 = rotl(k2, 33);
		k2 *= c1;
		h2 ^= k2;
	}
	for (i = (len & 15) < 8 ? (len & 15) : 8; i > 0; i--)
		k1 ^= (uint64_t)tail[i - 1] << (8 * (i - 1));
	if (len & 15) {
		k1 *= c1;
		k1 = rotl(k1, 31);
		k1 *= c2;
		h1 ^= k1;
	}
	h1 ^= len;
	h2 ^= len;
	h1 += h2;
	h2 += h1;
	h1 = fmix(h1);
	h2 = fmix(h2);
	h1 += h2;
	h2 += h1;
	out[0] = h1;
	out[1] = h2;
}
