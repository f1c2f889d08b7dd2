/* SPDX-License-Identifier: MIT */
/*
 * A data-parallel training step for the replicated tests (test_mlp.c).
 */
#ifndef XRT_TEST_MLP_H
#define XRT_TEST_MLP_H

#include <stddef.h>
#include <stdint.h>

#include <xrt/literal.h>

/*
 * The step's HLO, ten times in a while loop, for @replicas replicas of
 * @b rows each out of a batch of @total: parameters w1 f32[8,16], b1
 * f32[16], w2 f32[16,4], b2 f32[4], x f32[b,8], y f32[b,4]; the result
 * the four weights after the ten steps.
 */
void test_mlp_text(char *buf, size_t size, int replicas, int b, int total);

/*
 * An f32 array of @rank dimensions @dims, pseudo-random in [-1, 1) from
 * @seed after @skip draws (a replica's rows of a batch drawn whole);
 * NULL without memory.
 */
xrt_literal *test_randoms(uint32_t rank, const int64_t *dims, uint32_t seed, uint64_t skip);

#endif /* XRT_TEST_MLP_H */
