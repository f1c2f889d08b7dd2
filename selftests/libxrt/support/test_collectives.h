/* SPDX-License-Identifier: MIT */
/*
 * Modules of every collective for the replicated tests, in one process
 * and across processes (test_collectives.c).
 */
#ifndef XRT_TEST_COLLECTIVES_H
#define XRT_TEST_COLLECTIVES_H

#include <stddef.h>

/* A reducer computation f of type @t applying HLO op @op, as module text. */
#define RED(t, op) "f { a = " t "[] parameter(0)\n b = " t "[] parameter(1)\n" \
	" ROOT s = " t "[] " op "(a, b)\n}\n"

/* 4 replicas: an all-reduce of @type[4,3] over @groups with the HLO op @reducer. */
void test_all_reduce_text(char *buf, size_t size, const char *type, const char *groups,
			  const char *reducer);

/*
 * 4 replicas: all-gather, reduce-scatter (with @reducer), all-to-all,
 * broadcast over @groups (of @group_size each) and a permute, of
 * @type[4,4].
 */
void test_movers_text(char *buf, size_t size, const char *type, const char *groups,
		      int group_size, const char *reducer);

#endif /* XRT_TEST_COLLECTIVES_H */
