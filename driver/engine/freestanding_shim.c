// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * memcpy and memset for the freestanding link check only: the kernel and
 * libc provide the real ones.
 */
#include "engine/shim.h"

#undef memcpy
#undef memset

void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;

	while (n--)
		*d++ = (u8)c;
	return dst;
}
