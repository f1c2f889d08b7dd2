// SPDX-License-Identifier: MIT
/*
 * Convolution dimension labels, "b01f_01io->b01f": where the batch,
 * feature and each spatial dimension are in the input, the kernel and
 * the output.  Read by the verifier and by the compiler.
 */
#include <string.h>

#include "ir/ir.h"

static int parse_part(const char *s, size_t n, char c1, char c2, int *p1, int *p2,
		      int *sp, uint32_t *nsp)
{
	uint32_t k;

	*p1 = *p2 = -1;
	*nsp = 0;
	for (k = 0; k < n; k++) {
		if (s[k] == c1 && *p1 < 0)
			*p1 = (int)k;
		else if (s[k] == c2 && *p2 < 0)
			*p2 = (int)k;
		else if (s[k] >= '0' && s[k] <= '7' && s[k] - '0' < (int)n - 2 &&
			 sp[s[k] - '0'] < 0)
			sp[s[k] - '0'] = (int)k, (*nsp)++;
		else
			return -1;
	}
	return *p1 < 0 || *p2 < 0 ? -1 : 0;
}

int ir_parse_conv_labels(const char *s, struct ir_conv_labels *l, uint32_t rank)
{
	const char *u = strchr(s, '_'), *arrow = strstr(s, "->");
	uint32_t a, b, c, k;

	for (k = 0; k < XRT_MAX_RANK; k++)
		l->sp[k] = l->ksp[k] = l->osp[k] = -1;
	if (!u || !arrow || arrow < u || (size_t)(u - s) != rank ||
	    (size_t)(arrow - u - 1) != rank || strlen(arrow + 2) != rank)
		return -1;
	if (parse_part(s, rank, 'b', 'f', &l->b, &l->f, l->sp, &a) ||
	    parse_part(u + 1, rank, 'o', 'i', &l->o, &l->i, l->ksp, &b) ||
	    parse_part(arrow + 2, rank, 'b', 'f', &l->ob, &l->of, l->osp, &c) ||
	    a != rank - 2 || b != a || c != a)
		return -1;
	l->nsp = a;
	return 0;
}

