// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Integer and pred instructions over blocks of elements, kept as s64 and
 * wrapped to the type's width after every instruction.  What each
 * instruction does to one element is engine/scalar.h's (XLA's
 * semantics), shared with the cuda device's kernels.
 */
#include "ew.h"

void ew_int_wrap(u32 dtype, s64 *d, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = xs_int_wrap(dtype, (u64)d[i]);
}

void ew_int_unary(u32 fn, u32 dtype, s64 *d, const s64 *a, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = xs_int_wrap(dtype, (u64)xs_int_unary(fn, dtype, a[i]));
}

void ew_int_binary(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		   u32 n)
{
	u32 i;

	if (fn == XRT_CS_BIN_ADD) {	/* the common case, vectorizable */
		for (i = 0; i < n; i++)
			d[i] = (s64)((u64)a[i] + (u64)b[i]);
	} else {
		for (i = 0; i < n; i++)
			d[i] = xs_int_binary(fn, dtype, a[i], b[i]);
	}
	ew_int_wrap(dtype, d, n);
}

void ew_int_compare(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		    u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = xs_int_compare(fn, dtype, a[i], b[i]);
}
